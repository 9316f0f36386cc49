/* See systemd-view.h. Used by ember-session for systemd's per-user manager and by
 * ember-sandbox for the syslog daemon syslog.socket starts (docs/dbus.md, docs/distro.md). */
#include "systemd-view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "escape.h"
#include "log.h"

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape_mount_point(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Is mount point mp path itself or one of its parents ("/run" of "/run/systemd")? */
static size_t covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	return strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0') ? n : 0;
}

/* The mount point of the mount path lies on, from /proc/self/mountinfo (the last,
 * topmost, of the longest). 0, or -1 when none is found. */
int systemd_view_mount_of(const char *path, char *out, size_t size)
{
	char line[4096], mp[PATH_MAX];
	size_t best = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		size_t n;
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		unescape_mount_point(mp);
		if ((n = covers(mp, path)) >= best && n > 0 && strlen(mp) < size) {
			best = n;
			strcpy(out, mp);
		}
	}
	fclose(f);
	return best ? 0 : -1;
}

/* An empty regular file to bind a non-directory onto. 0, or -1. */
static int make_file(int dir_fd, const char *name)
{
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int bind_entry(int host, const char *view, int view_fd, const char *name)
{
	char src[32], dst[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd, r = -1;

	if ((fd = openat(host, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0)
		goto out;
	if (S_ISLNK(st.st_mode)) {
		if ((n = readlinkat(host, name, target, sizeof target - 1)) >= 0) {
			target[n] = '\0';
			r = symlinkat(target, view_fd, name);
		}
		goto out;
	}
	if (snprintf(dst, sizeof dst, "%s/%s", view, name) >= (int)sizeof dst) {
		errno = ENAMETOOLONG;
		goto out;
	}
	snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
	if (S_ISDIR(st.st_mode) ? mkdirat(view_fd, name, 0755) < 0 : make_file(view_fd, name) < 0)
		goto out;
	r = mount(src, dst, NULL, MS_BIND | MS_REC, NULL);
out:
	if (r < 0 && errno == ENOENT)
		r = 0;
	if (fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return r;
}

static void bind_entries(int host, const char *view)
{
	char shown[3 * NAME_MAX + 1];
	int list_fd = openat(host, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int view_fd = open(view, O_PATH | O_DIRECTORY | O_CLOEXEC);
	DIR *d = list_fd >= 0 ? fdopendir(list_fd) : NULL;
	struct dirent *e;

	if (!d || view_fd < 0) {
		log_warn("%s: cannot list the real directory: %m", view);
		if (list_fd >= 0)
			close(list_fd);
	} else {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if (bind_entry(host, view, view_fd, e->d_name) < 0)
				log_warn("%s/%s: not in the view: %m", view,
					 escape_text(e->d_name, shown, sizeof shown));
		}
		closedir(d);
	}
	if (view_fd >= 0)
		close(view_fd);
}

/* The new namespace's copy of the mount holding dir receives the host's mounts but
 * sends none back: the view stays the namespace's. The other mounts keep the host's
 * propagation (a user's FUSE mount under /run/user/UID is seen outside where the host
 * shares its mounts). */
static int keep_view_inside(const char *dir)
{
	char mp[PATH_MAX];

	if (systemd_view_mount_of(dir, mp, sizeof mp) < 0) {
		errno = ENOENT;
		return -1;
	}
	return mount(NULL, mp, NULL, MS_SLAVE, NULL);
}

/* The view's tmpfs as large as the file system under the real directory (a limit, not
 * memory taken): systemd --user refuses daemon-reload and daemon-reexec with less than
 * 16 MiB free on /run/systemd ("Refusing to reload, not enough space"). */
static void view_options(int host, char *opts, size_t size)
{
	struct statvfs st;
	unsigned long long bytes = 64ULL << 20; /* where the real size cannot be had */

	if (fstatvfs(host, &st) == 0 && st.f_blocks > 0)
		bytes = (unsigned long long)st.f_blocks * st.f_frsize;
	snprintf(opts, size, "mode=0755,size=%llu", bytes);
}

int systemd_view(const char *dir)
{
	char system[PATH_MAX], opts[64];
	int host;

	if (snprintf(system, sizeof system, "%s/system", dir) >= (int)sizeof system) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (access(system, F_OK) == 0)
		return 0; /* systemd's own, or made by hand: nothing to add */
	/* the real directory, opened in the new namespace: a bind takes its source from
	 * the namespace it is made in */
	if (unshare(CLONE_NEWNS) < 0 || keep_view_inside(dir) < 0 ||
	    (host = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -1;
	view_options(host, opts, sizeof opts);
	if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
		int e = errno;
		close(host);
		errno = e;
		return -1;
	}
	if (mkdir(system, 0755) < 0) { /* the empty tmpfs must not hide the real entries */
		int e = errno;
		umount2(dir, MNT_DETACH);
		close(host);
		errno = e;
		return -1;
	}
	bind_entries(host, dir);
	close(host);
	return 0;
}
