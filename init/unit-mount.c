/* Mount units at run time: is a path a mount point (/proc/self/mountinfo), how is it
 * mounted (the unit's [Mount] section, else /etc/fstab), mount(2) and umount2(2). PID 1
 * calls mount(2) itself: no mount(8), no mount.TYPE helpers (see docs/services.md).
 * Files are read through one bounded stack buffer; nothing allocates. */
#include "unit-kinds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io.h"
#include "parse.h"
#include "path-walk.h"

#define FSTAB_PATH "/etc/fstab"
#define MOUNTINFO_PATH "/proc/self/mountinfo"
#define LINE_MAX_BYTES 1024 /* a longer fstab or mountinfo line is skipped */
#define FIELD_MAX 256

/* unit-kinds.h: also read by unit-swap.c */
int unit_kinds_each_line(const char *path, int (*fn)(void *ctx, char *line), void *ctx)
{
	char buf[4096];
	size_t have = 0;
	bool skipping = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
		char *line = buf, *nl;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			buf[have] = '\0';
			int r = have && !skipping ? fn(ctx, buf) : 0;
			close(fd);
			return n < 0 ? -1 : r == 1;
		}
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = memchr(line, '\n', have - (size_t)(line - buf)))) {
			*nl = '\0';
			if (!skipping && nl - line < LINE_MAX_BYTES && fn(ctx, line) == 1) {
				close(fd);
				return 1;
			}
			skipping = false;
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (have == sizeof buf - 1) { /* an overlong line: drop it up to its end */
			have = 0;
			skipping = true;
		}
	}
}

/* unit-kinds.h: 0, or -1 when there is no next field or it does not fit. */
int unit_kinds_next_field(char **p, char *out, size_t size)
{
	char *s = *p + strspn(*p, " \t");
	size_t n = 0;

	if (!*s)
		return -1;
	while (*s && *s != ' ' && *s != '\t') {
		char c = *s++;
		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
		    s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 >= size || c == '\0')
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	*p = s;
	return 0;
}

/* "/a/b/" and "/a/b" are the same mount point. */
static void trim_slashes(char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
}

/* ---- /proc/self/mountinfo ---- */

struct mountinfo_find {
	const char *path;
	bool autofs;         /* look for the autofs mount at path, not what is mounted */
	unsigned long major, minor; /* the device of the last one found */
	bool found;
};

/* An automount's autofs mount is not its mount unit's file system: a mount unit at the
 * same path is mounted only when something is mounted on it (unit-automount.c). */
static int mountinfo_line(void *ctx, char *line)
{
	struct mountinfo_find *f = ctx;
	char field[FIELD_MAX], dev[32] = "", type[16] = "";
	char *sep;

	/* id parent major:minor root mount-point options [optional...] - type source ... */
	for (int i = 0; i < 5; i++) {
		if (unit_kinds_next_field(&line, field, sizeof field) < 0)
			return 0;
		if (i == 2)
			str_copy(dev, sizeof dev, field);
	}
	trim_slashes(field);
	if (strcmp(field, f->path) != 0)
		return 0;
	if ((sep = strstr(line, " - ")) != NULL) {
		sep += 3;
		(void)unit_kinds_next_field(&sep, type, sizeof type); /* too long: not autofs */
	}
	if ((strcmp(type, "autofs") == 0) != f->autofs)
		return 0;
	f->found = sscanf(dev, "%lu:%lu", &f->major, &f->minor) == 2 || !f->autofs;
	return f->autofs ? 0 : 1; /* the last autofs mount there is the live one */
}

bool unit_mount_is_mountpoint(const char *path)
{
	struct mountinfo_find f = { .path = path };

	return unit_kinds_each_line(MOUNTINFO_PATH, mountinfo_line, &f) == 1;
}

int unit_mount_autofs_dev(const char *path, dev_t *dev)
{
	struct mountinfo_find f = { .path = path, .autofs = true };

	if (unit_kinds_each_line(MOUNTINFO_PATH, mountinfo_line, &f) < 0 || !f.found)
		return -1;
	*dev = makedev(f.major, f.minor);
	return 0;
}

/* ---- /etc/fstab ---- */

struct fstab_find {
	const char *where;
	char *what, *type, *options;
	size_t what_size, type_size, options_size;
};

static int fstab_line(void *ctx, char *line)
{
	struct fstab_find *f = ctx;
	char what[FIELD_MAX], where[FIELD_MAX], type[64], options[FIELD_MAX];

	line += strspn(line, " \t");
	if (*line == '#' || unit_kinds_next_field(&line, what, sizeof what) < 0 ||
	    unit_kinds_next_field(&line, where, sizeof where) < 0)
		return 0;
	if (unit_kinds_next_field(&line, type, sizeof type) < 0)
		str_copy(type, sizeof type, "auto");
	if (unit_kinds_next_field(&line, options, sizeof options) < 0)
		str_copy(options, sizeof options, "defaults");
	trim_slashes(where);
	if (strcmp(where, f->where) != 0 || strcmp(type, "swap") == 0)
		return 0;
	/* Truncated copies are fine for callers that only ask whether there is an entry. */
	snprintf(f->what, f->what_size, "%s", what);
	snprintf(f->type, f->type_size, "%s", type);
	snprintf(f->options, f->options_size, "%s", options);
	return 1;
}

int unit_mount_fstab_find(const char *where, char *what, size_t what_size, char *type,
			  size_t type_size, char *options, size_t options_size)
{
	struct fstab_find f = { where, what, type, options, what_size, type_size, options_size };

	return unit_kinds_each_line(FSTAB_PATH, fstab_line, &f) == 1 ? 0 : -1;
}

/* ---- mounting ---- */

static const struct {
	const char *name;
	unsigned long set, clear;
} mount_flags[] = {
	{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 }, { "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 }, { "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 }, { "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 }, { "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 }, { "noatime", MS_NOATIME, 0 }, { "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 }, { "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, 0 }, { "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, 0 }, { "nostrictatime", 0, MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME, 0 }, { "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 }, { "loud", 0, MS_SILENT },
	{ "bind", MS_BIND, 0 }, { "rbind", MS_BIND | MS_REC, 0 },
};

/* Options only mount(8), fstab tools or systemd read: not for the kernel. */
static bool userspace_option(const char *o)
{
	static const char *const words[] = { "defaults", "auto", "noauto", "nofail", "user",
		"nouser", "users", "owner", "group", "_netdev", "sw" };

	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strcmp(o, words[i]) == 0)
			return true;
	return str_starts_with(o, "x-") || str_starts_with(o, "comment=") ||
	       str_starts_with(o, "X-");
}

/* Options -> flags and the data string for the file system. -1 when data overflows. */
static int split_options(const char *options, unsigned long *flags, char *data, size_t size)
{
	char copy[FIELD_MAX * 2];
	char *save = NULL;
	size_t used = 0;

	*flags = 0;
	data[0] = '\0';
	str_copy(copy, sizeof copy, options);
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		size_t i, n;
		for (i = 0; i < sizeof mount_flags / sizeof *mount_flags; i++)
			if (strcmp(o, mount_flags[i].name) == 0)
				break;
		if (i < sizeof mount_flags / sizeof *mount_flags) {
			*flags = (*flags | mount_flags[i].set) & ~mount_flags[i].clear;
			continue;
		}
		if (userspace_option(o))
			continue;
		n = strlen(o);
		if (used + n + 2 > size)
			return -1;
		if (used)
			data[used++] = ',';
		memcpy(data + used, o, n + 1);
		used += n;
	}
	return 0;
}

/* fstab's UUID=, LABEL=, PARTUUID=, PARTLABEL= name udev's links. */
static void device_of(const char *what, char *out, size_t size)
{
	static const struct { const char *tag, *dir; } tags[] = {
		{ "UUID=", "/dev/disk/by-uuid/" }, { "LABEL=", "/dev/disk/by-label/" },
		{ "PARTUUID=", "/dev/disk/by-partuuid/" }, { "PARTLABEL=", "/dev/disk/by-partlabel/" },
	};

	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
		if (str_starts_with(what, tags[i].tag)) {
			snprintf(out, size, "%s%s", tags[i].dir, what + strlen(tags[i].tag));
			return;
		}
	snprintf(out, size, "%s", what);
}

int unit_mount_target(const char *where, unsigned mode, char *proc, size_t size)
{
	char name[PATH_WALK_NAME_MAX];
	int dir = path_walk_parent(where, true, name), fd, e;

	if (dir < 0 || !*name) /* "/" itself */
		fd = dir;
	else {
		if (mkdirat(dir, name, mode ? mode : 0755) < 0 && errno != EEXIST)
			fd = -1;
		else
			fd = path_walk_component(dir, name, true);
		e = errno;
		close(dir);
		errno = e;
	}
	if (fd >= 0)
		snprintf(proc, size, "/proc/self/fd/%d", fd);
	return fd;
}

enum unit_kind_result unit_kind_mount_start(const struct service *s, char *err, size_t size);
enum unit_kind_result unit_kind_mount_start(const struct service *s, char *err, size_t size)
{
	char where[UNIT_MOUNT_PATH_MAX], what[FIELD_MAX], dev[FIELD_MAX + 32], type[64];
	char options[FIELD_MAX * 2], data[FIELD_MAX * 2];
	unsigned long flags;
	const char *source = "its .mount file";
	char target[32];
	int rc, target_fd, e;

	if (unit_kind_path(s->name, where, sizeof where) < 0) {
		snprintf(err, size, "the name does not name a mount point");
		return UNIT_KIND_FAILED;
	}
	if (unit_mount_is_mountpoint(where))
		return UNIT_KIND_ACTIVE;
	if (s->kinds.what) {
		snprintf(what, sizeof what, "%s", service_str(s, s->kinds.what));
		snprintf(type, sizeof type, "%s", service_str(s, s->kinds.fstype));
		snprintf(options, sizeof options, "%s", service_str(s, s->kinds.options));
	} else if (unit_mount_fstab_find(where, what, sizeof what, type, sizeof type, options,
					 sizeof options) == 0) {
		source = FSTAB_PATH;
	} else {
		snprintf(err, size, "%.*s is not mounted, and neither /etc/fstab nor a .mount file "
			 "says how to mount it", (int)(size > 110 ? size - 110 : 0), where);
		return UNIT_KIND_NOT_FOUND;
	}
	if (split_options(options, &flags, data, sizeof data) < 0) {
		snprintf(err, size, "Options= from %s: too long", source);
		return UNIT_KIND_FAILED;
	}
	if ((!type[0] || strcmp(type, "auto") == 0) && !(flags & MS_BIND)) {
		snprintf(err, size, "no file system type for %.*s in %s: ember does not probe "
			 "for one", 64, where, source);
		return UNIT_KIND_FAILED;
	}
	device_of(what, dev, sizeof dev);
	if ((target_fd = unit_mount_target(where, s->kinds.directory_mode, target,
					   sizeof target)) < 0) {
		snprintf(err, size, "cannot create or walk to %.*s: %s", 64, where,
			 errno == ELOOP ? "a symlink root does not own is on the way" :
					  strerror(errno));
		return UNIT_KIND_FAILED;
	}
	rc = mount(dev, target, type[0] ? type : NULL, flags, data[0] ? data : NULL);
	/* As systemd: a file system that refuses to be written is mounted read-only. */
	if (rc < 0 && (errno == EACCES || errno == EROFS) && !(flags & MS_RDONLY) &&
	    !(s->kinds.mount_flags & UNIT_MOUNT_RW_ONLY))
		rc = mount(dev, target, type[0] ? type : NULL, flags | MS_RDONLY, data[0] ? data : NULL);
	e = errno;
	close(target_fd);
	errno = e;
	if (rc == 0 && (flags & MS_BIND) && (flags & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)))
		rc = mount(NULL, where, NULL, flags | MS_REMOUNT, NULL); /* a bind mount's flags */
	if (rc < 0) {
		snprintf(err, size, "mount %.64s on %.64s (%.32s) from %s: %s", dev, where,
			 type[0] ? type : "bind", source, strerror(errno));
		return UNIT_KIND_FAILED;
	}
	return UNIT_KIND_ACTIVE;
}

/* The API file systems PID 1 mounted (init/apifs.c) stay, and so does "/". */
static bool perpetual(const char *where)
{
	static const char *const api[] = { "/proc", "/sys", "/dev", "/run" };

	if (strcmp(where, "/") == 0)
		return true;
	for (size_t i = 0; i < sizeof api / sizeof *api; i++) {
		size_t n = strlen(api[i]);
		if (strncmp(where, api[i], n) == 0 && (where[n] == '\0' || where[n] == '/'))
			return true;
	}
	return false;
}

void unit_kind_mount_stop(const struct service *s);
void unit_kind_mount_stop(const struct service *s)
{
	char where[UNIT_MOUNT_PATH_MAX];
	int flags = 0;

	if (unit_kind_path(s->name, where, sizeof where) < 0 || perpetual(where) ||
	    !unit_mount_is_mountpoint(where))
		return;
	if (s->kinds.mount_flags & UNIT_MOUNT_LAZY)
		flags |= MNT_DETACH;
	if (s->kinds.mount_flags & UNIT_MOUNT_FORCE)
		flags |= MNT_FORCE;
	(void)umount2(where, flags); /* busy: it stays; the supervisor logs the stop */
}
