/* Finding and reading unit files: the search path in priority order, masks, templates
 * and instances, drop-ins, .wants/.requires directories, and which units are loaded at
 * all (those reachable from the default target, see docs/services.md "Where units come
 * from"). Parsing is service.c's job; this file does the I/O. */
#include "service.h"
#include "pages.h" /* compact */
#include "socket-unit.h"
#include "unit-timer.h"
#include "unit-path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hash.h"
#include "parse.h"
#include "unit-kinds.h" /* unit-kinds */
#include "unit-targets.h"

#define LOAD_DIRS_MAX 16
#define MISSING_MAX 64
#define DROPINS_MAX 32
#define BLOOM_BITS 4096
#define ROOTS_MAX 1024

/* One directory of the search path, opened once. The bloom filter holds every entry
 * name, so the many names a directory does not have cost no system call. */
struct searchdir {
	const char *path;
	int fd;
	bool systemd; /* a systemd directory: its units start only when pulled in */
	uint64_t bloom[BLOOM_BITS / 64];
};

struct loader {
	const struct service_load_config *cfg;
	struct service *out;
	size_t cap;
	size_t count;
	size_t dropped; /* names beyond cap */
	const struct service_diag *diag;
	size_t ndirs;
	size_t nmissing;
	bool root[ROOTS_MAX]; /* out[i] is wanted for its own sake */
	bool pulled[ROOTS_MAX]; /* out[i] is pulled in from the default target */
	bool required[ROOTS_MAX]; /* ... by Requires=/BindsTo= only, all the way */
	bool conflicted[ROOTS_MAX]; /* its boot start dropped (drop_conflicted()) */
	size_t target; /* out[target - 1] is the default target; 0: none */
	unsigned alias_depth; /* sockets-accept: aliases followed to reach the unit loading */
	/* Not cleared as a whole (PID 1 touches only the pages it uses): */
	struct searchdir dir[LOAD_DIRS_MAX];
	char missing[MISSING_MAX][SERVICE_NAME_MAX];
	char split[LOAD_DIRS_MAX][PATH_MAX]; /* "a:b" entries, split */
	char text[SERVICE_FILE_MAX + 1];
};

static void say(const struct service_diag *diag, enum service_severity severity,
		const char *file, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void say(const struct service_diag *diag, enum service_severity severity,
		const char *file, const char *fmt, ...)
{
	char message[SERVICE_ERROR_MAX];
	va_list ap;

	if (!diag || !diag->report)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	diag->report(diag->ctx, severity, file, 0, message);
}

static struct service *find(struct loader *l, const char *name)
{
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->out[i].name, name) == 0 ||
		    (l->out[i].also_named && /* sockets-accept: an alias */
		     strcmp(service_str(&l->out[i], l->out[i].also_named), name) == 0))
			return &l->out[i];
	return NULL;
}

/* When the table is full, keep the names that sort first so the choice does not depend
 * on directory order: returns the slot to use, or NULL when name loses. */
static struct service *slot_for(struct loader *l, const char *name)
{
	size_t last = 0;

	if (l->count < l->cap)
		return &l->out[l->count++];
	l->dropped++;
	for (size_t i = 1; i < l->count; i++)
		if (strcmp(l->out[i].name, l->out[last].name) > 0)
			last = i;
	return strcmp(name, l->out[last].name) < 0 ? &l->out[last] : NULL;
}

/* ---- the search path --------------------------------------------------------------- */

static unsigned bloom_hash(const char *s, unsigned seed)
{
	return hash_fnv32(HASH_FNV32_START ^ seed, s, strlen(s)) % BLOOM_BITS;
}

static void bloom_add(struct searchdir *d, const char *name)
{
	for (unsigned k = 0; k < 2; k++) {
		unsigned bit = bloom_hash(name, k);
		d->bloom[bit / 64] |= (uint64_t)1 << (bit % 64);
	}
}

static bool bloom_maybe(const struct searchdir *d, const char *name)
{
	for (unsigned k = 0; k < 2; k++) {
		unsigned bit = bloom_hash(name, k);
		if (!((d->bloom[bit / 64] >> (bit % 64)) & 1))
			return false;
	}
	return true;
}

/* A directory whose path has a "/systemd/" component holds systemd's units. */
static bool is_systemd_dir(const char *path)
{
	return strstr(path, "/systemd/") != NULL;
}

static void open_dir(struct loader *l, const char *path)
{
	struct searchdir *d;
	struct stat st;
	DIR *dir;
	struct dirent *e;
	int fd;

	if (l->ndirs >= LOAD_DIRS_MAX)
		return;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			say(l->diag, SERVICE_WARNING, path, "cannot read directory: %s",
			    strerror(errno));
		return;
	}
	/* Merged /usr: /lib/systemd/system is /usr/lib/systemd/system. Search it once. */
	for (size_t i = 0; fstat(fd, &st) == 0 && i < l->ndirs; i++) {
		struct stat other;
		if (fstat(l->dir[i].fd, &other) == 0 && other.st_dev == st.st_dev &&
		    other.st_ino == st.st_ino) {
			close(fd);
			return;
		}
	}
	d = &l->dir[l->ndirs];
	memset(d, 0, sizeof *d);
	d->path = path;
	d->systemd = is_systemd_dir(path);
	d->fd = fd;
	dir = fdopendir(dup(fd));
	if (!dir) {
		close(fd);
		return;
	}
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.')
			bloom_add(d, e->d_name);
	closedir(dir);
	l->ndirs++;
}

static void open_dirs(struct loader *l, const char *const *dirs, size_t ndirs)
{
	static const char *const defaults[] = {
		SERVICE_DIR_ETC, SERVICE_DIR_RUN, SERVICE_DIR_LIB,
		/* systemd's order, with its generators' three output directories */
		"/run/systemd/generator.early", "/etc/systemd/system", "/run/systemd/system",
		"/run/systemd/generator", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
		"/lib/systemd/system", "/run/systemd/generator.late",
	};
	size_t nsplit = 0;

	if (!dirs) {
		dirs = defaults;
		ndirs = sizeof defaults / sizeof *defaults;
	}
	/* An entry may list several directories: "/a:/b" (ember.services= on the kernel
	 * command line names one value). */
	for (size_t i = 0; i < ndirs; i++) {
		const char *p = dirs[i];
		if (!strchr(p, ':')) {
			open_dir(l, p);
			continue;
		}
		while (*p && nsplit < LOAD_DIRS_MAX) {
			size_t len = strcspn(p, ":");
			if (len > 0 && len < PATH_MAX) {
				snprintf(l->split[nsplit], PATH_MAX, "%.*s", (int)len, p);
				open_dir(l, l->split[nsplit++]);
			}
			p += len + (p[len] == ':');
		}
	}
}

static void close_dirs(struct loader *l)
{
	for (size_t i = 0; i < l->ndirs; i++)
		close(l->dir[i].fd);
}

/* The first directory that has entry, or -1. */
static int locate(const struct loader *l, const char *entry, size_t from)
{
	struct stat st;

	for (size_t i = from; i < l->ndirs; i++)
		if (bloom_maybe(&l->dir[i], entry) &&
		    fstatat(l->dir[i].fd, entry, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return (int)i;
	return -1;
}

static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/* Masked: a symlink to /dev/null (also through further links), or an empty file. */
static bool masked(int dirfd, const char *file)
{
	struct stat st;
	char target[16];
	ssize_t n;

	if (fstatat(dirfd, file, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
		n = readlinkat(dirfd, file, target, sizeof target - 1);
		if (n == 9 && memcmp(target, "/dev/null", 9) == 0)
			return true;
	}
	if (fstatat(dirfd, file, &st, 0) < 0)
		return false; /* dangling: reported when it is read */
	return is_dev_null(&st) || (S_ISREG(st.st_mode) && st.st_size == 0);
}

/* A file name fit for a log line: control bytes become '?', so a crafted name cannot
 * forge log lines. */
static const char *printable(const char *file, char *buf, size_t size)
{
	size_t i;

	for (i = 0; file[i] && i + 1 < size; i++)
		buf[i] = (unsigned char)file[i] < 0x20 || file[i] == 0x7f ? '?' : file[i];
	buf[i] = '\0';
	return buf;
}

/* Read the file at svc->path into text (SERVICE_FILE_MAX + 1 bytes): its length, or -1
 * after marking the service failed. */
static ssize_t read_capped(struct service *svc, char *text, const struct service_diag *diag)
{
	/* O_NONBLOCK: opening a FIFO must not hang PID 1; the type is checked next. */
	int fd = open(svc->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	size_t len = 0;

	if (fd < 0) {
		service_fail(svc, diag, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		service_fail(svc, diag, 0, "not a regular file");
		close(fd);
		return -1;
	}
	while (len <= SERVICE_FILE_MAX) {
		ssize_t n = read(fd, text + len, SERVICE_FILE_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			service_fail(svc, diag, 0, "cannot read: %s", strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return (ssize_t)len;
}

/* compact: only the used bytes move (service_copy()), so a slot's unused text store is
 * never touched; sort_tmp is static to keep a whole struct service off PID 1's stack,
 * and given back after the sort (struct service is page-aligned). */
static struct service sort_tmp;

static void swap(struct service *a, struct service *b)
{
	service_copy(&sort_tmp, a);
	service_copy(a, b);
	service_copy(b, &sort_tmp);
}

/* Selection sort: few swaps of these large structs, and unlike qsort() it never
 * allocates. */
static void sort_by_name(struct service *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		size_t min = i;
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(s[j].name, s[min].name) < 0)
				min = j;
		if (min != i)
			swap(&s[i], &s[min]);
	}
	pages_release(&sort_tmp, sizeof sort_tmp);
}


/* ---- one unit: fragment, drop-ins, .wants/.requires ------------------------------------ */

static ssize_t read_file_at(struct loader *l, struct service *svc, const char *dir,
			    const char *file)
{
	char path[SERVICE_PATH_MAX];

	if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path) {
		service_fail(svc, l->diag, 0, "%s/%s: path too long", dir, file);
		return -1;
	}
	str_copy(svc->path, sizeof svc->path, path);
	return read_capped(svc, l->text, l->diag);
}

static bool has_control_bytes(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

struct dropin {
	char base[NAME_MAX + 1];
	unsigned char dir;    /* search directory */
	unsigned char sub;    /* which of the .d directories */
};

/* Collect the *.conf files of one NAME.d directory; a base name already seen (from a
 * directory with higher priority) is skipped: the first one wins. */
static size_t collect_dropins(struct loader *l, size_t d, size_t sub, const char *subdir,
			      struct dropin *list, size_t n)
{
	int fd;
	DIR *dir;
	struct dirent *e;

	if (!bloom_maybe(&l->dir[d], subdir))
		return n;
	fd = openat(l->dir[d].fd, subdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return n;
	}
	while ((e = readdir(dir)) && n < DROPINS_MAX) {
		size_t len = strlen(e->d_name);
		bool seen = false;
		if (e->d_name[0] == '.' || len <= 5 || strcmp(e->d_name + len - 5, ".conf") != 0)
			continue;
		if (has_control_bytes(e->d_name)) { /* could forge log lines: skipped */
			say(l->diag, SERVICE_WARNING, l->dir[d].path, "%s/: a drop-in whose name has "
			    "control characters, ignored", subdir);
			continue;
		}
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp(list[i].base, e->d_name) == 0;
		if (seen)
			continue;
		str_copy(list[n].base, sizeof list[n].base, e->d_name);
		list[n].dir = (unsigned char)d;
		list[n].sub = (unsigned char)sub;
		n++;
	}
	closedir(dir);
	return n;
}

static void sort_dropins(struct dropin *list, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(list[j].base, list[j - 1].base) < 0; j--) {
			struct dropin tmp = list[j];
			list[j] = list[j - 1];
			list[j - 1] = tmp;
		}
}

/* sockets-accept: the unit-specific drop-in directories of a full name, in systemd's
 * order: NAME.d, TEMPLATE.d, then for each dash prefix, longest first, PREFIX-.service.d
 * (PREFIX-@INSTANCE and PREFIX-@ for an instance): "foo-bar-baz.service" also reads
 * "foo-bar-.service.d" and "foo-.service.d". */
#define DROPIN_SUBDIRS_MAX 16
#define DROPIN_SUBDIR_LEN (SERVICE_NAME_MAX + 32)

static size_t add_subdir(char out[][DROPIN_SUBDIR_LEN], size_t n, const char *full, size_t len)
{
	if (n < DROPIN_SUBDIRS_MAX)
		snprintf(out[n++], DROPIN_SUBDIR_LEN, "%.*s.d", (int)len, full);
	return n;
}

static size_t unit_subdirs(const char *full, char out[][DROPIN_SUBDIR_LEN], size_t n)
{
	char cur[DROPIN_SUBDIR_LEN], next[DROPIN_SUBDIR_LEN];
	const char *suffix = strrchr(full, '.');

	if (!suffix)
		return add_subdir(out, n, full, strlen(full));
	str_copy(cur, sizeof cur, full);
	while (n < DROPIN_SUBDIRS_MAX - 1) {
		const char *at = strchr(cur, '@');
		size_t stem = at ? (size_t)(at - cur) : strlen(cur) - strlen(suffix);
		const char *instance = at ? at : "";
		n = add_subdir(out, n, cur, strlen(cur));
		if (at && at[1] != '.') { /* an instance: its template too */
			snprintf(next, sizeof next, "%.*s%s", (int)(at + 1 - cur), cur, suffix);
			n = add_subdir(out, n, next, strlen(next));
		}
		if (stem > 0 && cur[stem - 1] == '-')
			stem--; /* "foo-bar-" is the prefix of itself: chop its dash once */
		while (stem > 0 && cur[stem - 1] != '-')
			stem--;
		if (stem <= 1)
			return n; /* no dash, or a leading one: done */
		snprintf(next, sizeof next, "%.*s%.*s", (int)stem, cur,
			 (int)strcspn(instance, "."), instance);
		str_copy(cur, sizeof cur, next);
		str_copy(cur + strlen(cur), sizeof cur - strlen(cur), suffix);
	}
	return n;
}

/* Drop-ins, as systemd applies them: the unit's own directories (unit_subdirs) in every
 * search directory, then the kind's top-level one (service.d/) in every search
 * directory; ordered by base name across all of them; of two same-named files the one
 * found first wins (a higher-priority search directory, a more specific name), and a
 * masked one (empty, or a link to /dev/null) hides the others and adds nothing. */
static void apply_dropins(struct loader *l, struct service *svc)
{
	char subdirs[DROPIN_SUBDIRS_MAX][DROPIN_SUBDIR_LEN];
	struct dropin list[DROPINS_MAX];
	char fragment[SERVICE_PATH_MAX];
	char full[SERVICE_NAME_MAX + 16];
	size_t nsub, nown, n = 0;

	unit_name_full(svc->name, full, sizeof full);
	nown = unit_subdirs(full, subdirs, 0);
	nsub = add_subdir(subdirs, nown, unit_kind_suffix(svc->kind) + 1,
			  strlen(unit_kind_suffix(svc->kind) + 1));
	for (size_t d = 0; d < l->ndirs; d++)
		for (size_t s = 0; s < nown; s++)
			n = collect_dropins(l, d, s, subdirs[s], list, n);
	for (size_t d = 0; d < l->ndirs; d++)
		for (size_t s = nown; s < nsub; s++)
			n = collect_dropins(l, d, s, subdirs[s], list, n);
	if (n == 0)
		return;
	sort_dropins(list, n);
	str_copy(fragment, sizeof fragment, svc->path);
	for (size_t i = 0; i < n && !svc->failed; i++) {
		char file[DROPIN_SUBDIR_LEN + NAME_MAX + 2];
		ssize_t len;
		snprintf(file, sizeof file, "%.*s/%.*s", DROPIN_SUBDIR_LEN,
			 subdirs[list[i].sub % DROPIN_SUBDIRS_MAX], NAME_MAX, list[i].base);
		if (masked(l->dir[list[i].dir].fd, file))
			continue;
		len = read_file_at(l, svc, l->dir[list[i].dir].path, file);
		if (len >= 0)
			service_parse_more(svc, l->text, (size_t)len, l->diag);
	}
	if (!svc->failed) /* the failing drop-in stays named in path */
		str_copy(svc->path, sizeof svc->path, fragment);
}

void service_load_dropins(struct service *svc, const char *const *dirs, size_t ndirs,
			  const struct service_diag *diag)
{
	struct loader *l = calloc(1, sizeof *l);

	if (!l) {
		say(diag, SERVICE_WARNING, svc->path, "drop-ins not read: out of memory");
		return;
	}
	l->diag = diag;
	open_dirs(l, dirs, ndirs);
	apply_dropins(l, svc);
	close_dirs(l);
	free(l);
}

/* NAME.wants/ and NAME.requires/ in every search directory: each entry (usually a
 * symlink made by `emberctl enable`) names a unit to pull in. */
static void dependency_dirs_of(struct loader *l, struct service *svc, const char *full)
{
	static const char *const kinds[] = { "wants", "requires" };
	char sub[SERVICE_NAME_MAX + 32];

	for (size_t k = 0; k < 2; k++) {
		struct service_name_list *list = k ? &svc->requires : &svc->wants;
		snprintf(sub, sizeof sub, "%s.%s", full, kinds[k]);
		for (size_t d = 0; d < l->ndirs; d++) {
			int fd;
			DIR *dir;
			struct dirent *e;
			if (!bloom_maybe(&l->dir[d], sub))
				continue;
			fd = openat(l->dir[d].fd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0 || !(dir = fdopendir(fd))) {
				if (fd >= 0)
					close(fd);
				continue;
			}
			while ((e = readdir(dir))) {
				char name[SERVICE_NAME_MAX];
				if (e->d_name[0] == '.' ||
				    unit_name_canonical(e->d_name, name, sizeof name, NULL) < 0 ||
				    unit_name_is_template(name) || !service_name_valid(name))
					continue;
				if (service_add_name(svc, list, name) < 0)
					say(l->diag, SERVICE_WARNING, l->dir[d].path,
					    "%s/%s: too many names for %s, ignored", sub, e->d_name,
					    svc->name);
			}
			closedir(dir);
		}
	}
}

static void apply_dependency_dirs(struct loader *l, struct service *svc)
{
	char full[SERVICE_NAME_MAX + 16];

	unit_name_full(svc->name, full, sizeof full);
	dependency_dirs_of(l, svc, full);
}

static bool missing(const struct loader *l, const char *name)
{
	for (size_t i = 0; i < l->nmissing; i++)
		if (strcmp(l->missing[i], name) == 0)
			return true;
	return false;
}

static void note_missing(struct loader *l, const char *name)
{
	if (l->nmissing < MISSING_MAX)
		str_copy(l->missing[l->nmissing++], sizeof l->missing[0], name);
}

/* Find the file of name: its own, else its template's (for an instance). */
static int fragment_of(struct loader *l, const char *name, char *file, size_t size)
{
	char tmpl[SERVICE_NAME_MAX];
	int d;

	unit_name_full(name, file, size);
	d = locate(l, file, 0);
	if (d >= 0 || !unit_name_is_instance(name) ||
	    unit_name_template_of(name, tmpl, sizeof tmpl) < 0)
		return d;
	unit_name_full(tmpl, file, size);
	return locate(l, file, 0);
}

/* ---- sockets-accept: aliases ----------------------------------------------------------
 * A unit file that is a symlink to a unit of another name is an alias, as on systemd
 * (`emberctl enable` makes them from [Install] Alias=; Debian ships some):
 * display-manager.service -> gdm3.service, dbus-org.freedesktop.login1.service ->
 * systemd-logind.service, autovt@.service -> getty@.service. One unit, two names: the
 * alias loads the target, which remembers the name (also_named), and dependencies on the
 * alias are rewritten to the real name. */
#define ALIAS_DEPTH_MAX 4

static struct service *load_unit(struct loader *l, const char *name);
static bool unit_file_name(const char *file);

static int alias_target(const struct loader *l, int d, const char *file, const char *name,
			char *real, size_t size)
{
	char target[PATH_MAX], canon[SERVICE_NAME_MAX];
	const char *base, *at = strchr(name, '@');
	enum unit_kind kind;
	ssize_t n = readlinkat(l->dir[d].fd, file, target, sizeof target - 1);

	if (n <= 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (strcmp(base, file) == 0 || !unit_file_name(base) || /* not /dev/null: a mask */
	    unit_name_canonical(base, canon, sizeof canon, &kind) < 0 ||
	    kind != unit_name_kind(name))
		return -1;
	if (unit_name_is_template(canon) != (at && unit_name_is_instance(name)))
		return -1; /* a template links to a template, a plain unit to a plain one */
	if (unit_name_is_template(canon) && kind != UNIT_SERVICE)
		return -1;
	if (unit_name_is_template(canon))
		snprintf(real, size, "%s%s", canon, at + 1); /* autovt@tty2 -> getty@tty2 */
	else
		str_copy(real, size, canon);
	return service_name_valid(real) && strcmp(real, name) != 0 ? 0 : -1;
}

static struct service *load_alias(struct loader *l, const char *name, const char *real)
{
	struct service *svc;

	l->alias_depth++;
	svc = load_unit(l, real);
	l->alias_depth--;
	if (svc && !svc->also_named)
		svc->also_named = service_text_store(svc, name);
	return svc;
}

/* A socket unit whose service is an alias (Debian: syslog.socket activates syslog.service,
 * a link to rsyslog.service) activates the real unit: one daemon, not two. */
static void rewrite_socket_service(struct loader *l, struct service *s)
{
	char name[SERVICE_NAME_MAX];
	const struct service *t;
	strref ref;

	if (s->kind != UNIT_SOCKET)
		return;
	t = find(l, socket_unit_service(s, name, sizeof name));
	if (!t || strcmp(t->name, name) == 0)
		return;
	ref = service_text_store(s, t->name);
	if (ref)
		s->sock.service = ref;
}

/* The loaded unit a dependency names: by its own name, or through an alias that nothing
 * loaded. An ordering does not load what it names, so After=runlevel3.target (Debian's
 * utmp recorder; a link to multi-user.target) found no unit and ordered nothing: the
 * link is read here, and nothing more is loaded. */
static const struct service *named_unit(struct loader *l, const char *name)
{
	char file[SERVICE_NAME_MAX + 16], real[SERVICE_NAME_MAX];
	const struct service *t = find(l, name);
	int d;

	if (t || missing(l, name) || !service_name_valid(name) || unit_name_is_template(name))
		return t;
	d = fragment_of(l, name, file, sizeof file);
	if (d < 0 || alias_target(l, d, file, name, real, sizeof real) < 0)
		return NULL;
	return find(l, real);
}

/* A list's names past SERVICE_DEPS_MAX: stored again when one of them is an alias. */
static void rewrite_more_aliases(struct loader *l, struct service *s,
				 struct service_name_list *list)
{
	char joined[SERVICE_TEXT_MAX], buf[SERVICE_NAME_MAX];
	size_t len = 0;
	bool changed = false;
	strref ref;

	joined[0] = '\0';
	for (size_t i = list->count; i < service_list_count(list); i++) {
		const char *n = service_list_name(s, list, i, buf);
		const struct service *t = named_unit(l, n);
		if (t && strcmp(t->name, n) != 0) {
			n = t->name;
			changed = true;
		}
		len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", len ? " " : "", n);
		if (len >= sizeof joined)
			return; /* cannot grow past the text store anyway */
	}
	if (changed && (ref = service_text_store(s, joined)))
		list->more = ref;
}

/* Dependencies named by an alias now name the unit itself (the graph goes by names). */
static void rewrite_aliases(struct loader *l)
{
	for (size_t i = 0; i < l->count; i++) {
		struct service *s = &l->out[i];
		struct service_name_list *lists[] = SERVICE_DEP_LISTS(s);
		for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
			for (size_t j = 0; j < lists[k]->count; j++) {
				const char *n = service_str(s, lists[k]->name[j]);
				const struct service *t = named_unit(l, n);
				strref ref;
				if (!t || strcmp(t->name, n) == 0)
					continue;
				ref = service_text_store(s, t->name);
				if (ref)
					lists[k]->name[j] = ref;
			}
			rewrite_more_aliases(l, s, lists[k]);
		}
		rewrite_socket_service(l, s);
	}
}

/* unit kinds (unit-kinds): is there a unit file of this name (RequiresMountsFor=)? */
static bool has_unit_file(void *ctx, const char *file)
{
	return locate(ctx, file, 0) >= 0;
}

/* Load name (canonical) unless it is loaded already. NULL when there is no such unit or
 * no room; a missing unit is not an error here (the dependency graph decides). */
static struct service *load_unit(struct loader *l, const char *name)
{
	char file[SERVICE_NAME_MAX + 16];
	const char *builtin = NULL;
	struct service *svc = find(l, name);
	int d;

	if (svc)
		return svc;
	if (missing(l, name) || !service_name_valid(name) || unit_name_is_template(name))
		return NULL;
	d = fragment_of(l, name, file, sizeof file);
	if (d >= 0 && l->alias_depth < ALIAS_DEPTH_MAX) { /* sockets-accept */
		char real[SERVICE_NAME_MAX];
		if (alias_target(l, d, file, name, real, sizeof real) == 0)
			return load_alias(l, name, real);
	}
	if (d < 0 && unit_name_kind(name) == UNIT_TARGET)
		builtin = unit_target_builtin(name);
	else if (d < 0) /* unit kinds (unit-kinds): mounts, devices, slices without a file */
		builtin = unit_kinds_builtin(name);
	if (d < 0 && !builtin) {
		note_missing(l, name);
		return NULL;
	}
	svc = slot_for(l, name);
	if (!svc)
		return NULL;
	if ((size_t)(svc - l->out) < ROOTS_MAX)
		l->root[svc - l->out] = false;
	if (builtin) {
		service_init(svc, name, UNIT_BUILTIN_PATH);
		service_parse_more(svc, builtin, strlen(builtin), l->diag);
		apply_dropins(l, svc);
		apply_dependency_dirs(l, svc);
		service_validate(svc, l->diag);
		unit_kinds_mounts_for(svc, has_unit_file, l, l->diag); /* unit-kinds */
		return svc;
	}
	service_init(svc, name, "");
	if (snprintf(svc->path, sizeof svc->path, "%s/%s", l->dir[d].path, file) >=
	    (int)sizeof svc->path) {
		service_fail(svc, l->diag, 0, "path too long");
		return svc;
	}
	svc->masked = masked(l->dir[d].fd, file);
	if (svc->masked)
		return svc;
	ssize_t len = read_capped(svc, l->text, l->diag);
	if (len < 0)
		return svc;
	service_parse_more(svc, l->text, (size_t)len, l->diag);
	apply_dropins(l, svc);
	apply_dependency_dirs(l, svc);
	service_validate(svc, l->diag);
	unit_kinds_mounts_for(svc, has_unit_file, l, l->diag); /* unit-kinds */
	return svc;
}

/* Does file name a unit file ember reads (.service, .socket, .target)? */
static bool unit_file_name(const char *file)
{
	size_t len = strlen(file);

	for (int k = UNIT_SERVICE; k <= UNIT_KIND_LAST; k++) { /* unit-kinds: and .mount ... */
		const char *suffix = unit_kind_suffix((enum unit_kind)k);
		size_t n = strlen(suffix);
		if (len > n && strcmp(file + len - n, suffix) == 0)
			return true;
	}
	return false;
}

/* ---- which units: ember's own, the default target and what it pulls in ---------------- */

/* Is s enabled into a target: [Install] WantedBy=/RequiredBy= names one, and its link is
 * in that target's .wants/ (.requires/) in some search directory? Only such a unit needs
 * the default target loaded. One only installed (make install's ember-userdb.socket,
 * WantedBy=sockets.target, until `emberctl enable`) leaves the system as it was, and so
 * does one enabled into a service (ember-activator: WantedBy=dbus.service), which that
 * service pulls in. */
static bool enabled_for_target(const struct loader *l, const struct service *s)
{
	const struct service_name_list *lists[] = { &s->wanted_by, &s->required_by };
	static const char *const sub[] = { "wants", "requires" };
	char full[SERVICE_NAME_MAX + 16], target[SERVICE_NAME_MAX], link[2 * SERVICE_NAME_MAX + 48];
	struct stat st;

	if (!s->has_install)
		return false;
	unit_name_full(s->name, full, sizeof full);
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
		for (size_t j = 0; j < service_list_count(lists[i]); j++) {
			const char *t = service_list_name(s, lists[i], j, target);
			if (unit_name_kind(t) != UNIT_TARGET)
				continue;
			snprintf(link, sizeof link, "%s.%s/%s", t, sub[i], full);
			for (size_t d = 0; d < l->ndirs; d++)
				if (fstatat(l->dir[d].fd, link, &st, AT_SYMLINK_NOFOLLOW) == 0)
					return true;
		}
	return false;
}

/* ember's own directories: every unit there without [Install] starts at boot, as it
 * always did (implicitly wanted by the default target). Returns true when some unit
 * there is enabled into a target (its enablement then decides). */
static bool load_own_units(struct loader *l)
{
	bool any_install = false;

	for (size_t d = 0; d < l->ndirs; d++) {
		DIR *dir;
		struct dirent *e;
		int fd;
		if (l->dir[d].systemd)
			continue;
		fd = dup(l->dir[d].fd);
		if (fd < 0 || !(dir = fdopendir(fd))) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		rewinddir(dir);
		while ((e = readdir(dir))) {
			char name[SERVICE_NAME_MAX + 256], shown[72];
			enum unit_kind kind;
			struct service *svc;
			if (e->d_name[0] == '.' || !unit_file_name(e->d_name))
				continue;
			if (unit_name_canonical(e->d_name, name, sizeof name, &kind) < 0 ||
			    !service_name_valid(name)) {
				say(l->diag, SERVICE_WARNING, l->dir[d].path, "%s: unsafe or overlong "
				    "unit name (1-127 of A-Z a-z 0-9 _ . : - @ \\\\), file ignored",
				    printable(e->d_name, shown, sizeof shown));
				continue;
			}
			if (unit_name_is_template(name))
				continue; /* instantiated when something names an instance */
			svc = load_unit(l, name);
			if (svc && enabled_for_target(l, svc))
				any_install = true;
		}
		closedir(dir);
	}
	return any_install;
}

/* The default target: the kernel command line's, else what default.target links to,
 * else default.target itself if it is a file, else multi-user.target. */
static void default_target(struct loader *l, char *out, size_t size)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;
	int d;

	if (l->cfg->default_target && *l->cfg->default_target) {
		str_copy(out, size, l->cfg->default_target);
		return;
	}
	str_copy(out, size, UNIT_FALLBACK_TARGET);
	d = locate(l, UNIT_DEFAULT_TARGET, 0);
	if (d < 0)
		return;
	n = readlinkat(l->dir[d].fd, UNIT_DEFAULT_TARGET, target, sizeof target - 1);
	if (n < 0) {
		str_copy(out, size, UNIT_DEFAULT_TARGET);
		return;
	}
	target[n] = '\0';
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	if (unit_name_canonical(base, out, size, NULL) < 0 ||
	    unit_name_kind(out) != UNIT_TARGET)
		str_copy(out, size, UNIT_FALLBACK_TARGET);
}

/* What pulls a unit in: Wants= Requires= BindsTo= (Requisite= does not: it only checks
 * that the other unit is active already). */
#define PULLS 3
static const struct service_name_list *pulls(const struct service *s, size_t k)
{
	switch (k) {
	case 0: return &s->wants;
	case 1: return &s->requires;
	default: return &s->binds_to;
	}
}

/* The unit a socket or timer unit starts (its name in name), NULL for other kinds. */
static const char *triggered_name(const struct service *s, char *name, size_t size)
{
	if (s->kind == UNIT_SOCKET)
		return socket_unit_service(s, name, size);
	return service_trigger_target(s, name, size); /* timer and path units */
}

/* The unit a socket or timer unit starts, when it is loaded. */
static struct service *activated_by(struct loader *l, const struct service *s)
{
	char name[SERVICE_NAME_MAX];
	const char *target = triggered_name(s, name, sizeof name);

	return target ? find(l, target) : NULL;
}

/* Unit i's Requisite= are loaded, not started: as systemd, a start of it then fails
 * while one is not active, and it stays inactive; were they not loaded, it would be
 * invalid ("does not exist") though their files are there. */
static void load_requisites(struct loader *l, size_t i)
{
	for (size_t j = 0; j < service_list_count(&l->out[i].requisite); j++) {
		char name[SERVICE_NAME_MAX], buf[SERVICE_NAME_MAX];
		/* Copy: loading may move the table's entries (slot_for). */
		str_copy(name, sizeof name, service_list_name(&l->out[i], &l->out[i].requisite, j, buf));
		if (!load_unit(l, name) && !missing(l, name))
			break; /* no room left */
	}
}

/* Load everything the loaded units pull in (Wants Requires BindsTo), their Requisite=,
 * and the unit each socket or timer unit starts, breadth first: the table itself is the
 * queue. */
static void load_pulled(struct loader *l, size_t from)
{
	for (size_t i = from; i < l->count; i++) {
		char target[SERVICE_NAME_MAX];
		/* A missing one fails the socket or timer unit at run time. */
		if (!l->out[i].failed && triggered_name(&l->out[i], target, sizeof target))
			load_unit(l, target);
		load_requisites(l, i);
		for (size_t k = 0; k < PULLS; k++) {
			const struct service_name_list *list = pulls(&l->out[i], k);
			for (size_t j = 0; j < service_list_count(list); j++) {
				char name[SERVICE_NAME_MAX], buf[SERVICE_NAME_MAX];
				bool known_missing;
				/* Copy: loading may move the table's entries (slot_for). */
				str_copy(name, sizeof name, service_list_name(&l->out[i], list, j, buf));
				known_missing = missing(l, name);
				if (load_unit(l, name))
					continue;
				if (!missing(l, name))
					break; /* no room left */
				/* Requires=/BindsTo= of a missing unit fail it (depgraph). A
				 * Wants= of one is how optional parts are wired (Debian's
				 * graphical.target wants display-manager, an alias only a
				 * display manager installs): a note, as systemd says nothing;
				 * as a warning it came again on every reload. */
				if (k == 0 && !known_missing && l->diag && l->diag->notes)
					say(l->diag, SERVICE_NOTE, l->out[i].path, "Wants=%s: no such "
					    "unit, ignored", name);
			}
		}
	}
}

static bool reach(bool *set, size_t i)
{
	if (set[i])
		return false;
	set[i] = true;
	return true;
}

static bool reach_requisites(struct loader *l, bool *set, size_t i, const bool *skip)
{
	bool changed = false;

	for (size_t j = 0; j < service_list_count(&l->out[i].requisite); j++) {
		char buf[SERVICE_NAME_MAX];
		struct service *t = find(l, service_list_name(&l->out[i], &l->out[i].requisite, j, buf));
		if (t && !(skip && skip[t - l->out]) && reach(set, (size_t)(t - l->out)))
			changed = true;
	}
	return changed;
}

/* Grow set to everything its units pull in (from the pull list first on: 0 Wants= and
 * the rest, 1 Requires= and BindsTo= only); with triggers, also to the units its socket
 * and timer units start (they are needed, but started on traffic, not pulled in) and to
 * their Requisite= (needed loaded, never started by them). A unit in skip (NULL: none)
 * is neither reached nor followed. */
static void spread(struct loader *l, bool *set, bool triggers, size_t first, const bool *skip)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t i = 0; i < l->count; i++) {
			struct service *t;
			if (!set[i] || (skip && skip[i]))
				continue;
			for (size_t k = first; k < PULLS; k++) {
				const struct service_name_list *list = pulls(&l->out[i], k);
				for (size_t j = 0; j < service_list_count(list); j++) {
					char buf[SERVICE_NAME_MAX];
					t = find(l, service_list_name(&l->out[i], list, j, buf));
					if (t && !(skip && skip[t - l->out]) &&
					    reach(set, (size_t)(t - l->out)))
						changed = true;
				}
			}
			t = triggers ? activated_by(l, &l->out[i]) : NULL;
			if (t && !(skip && skip[t - l->out]) && reach(set, (size_t)(t - l->out)))
				changed = true;
			if (triggers && reach_requisites(l, set, i, skip))
				changed = true;
		}
	}
}

/* Does a list of s name the unit called name? */
static bool lists_name(struct loader *l, const struct service *s,
		       const struct service_name_list *list, const char *name)
{
	for (size_t j = 0; j < service_list_count(list); j++) {
		char buf[SERVICE_NAME_MAX];
		const struct service *t = find(l, service_list_name(s, list, j, buf));
		if (t && strcmp(t->name, name) == 0)
			return true;
	}
	return false;
}

/* The start a unit that the boot also starts says Conflicts= of (a unit it pulls in and
 * does not require) is dropped, as systemd's boot transaction drops it: of two enabled
 * units, Debian's atopacct.service (Conflicts=acct.service) runs and acct.service does
 * not. Not dropped: a unit the default target requires, one wanted for its own sake
 * (own[]), and one that says Conflicts= back (the run time settles those, as before).
 * What requires a dropped unit goes with it. true when any start was dropped. */
static bool drop_conflicted(struct loader *l, const bool *own)
{
	bool any = false, changed = true;

	for (size_t i = 0; i < l->count; i++) {
		const struct service *a = &l->out[i];
		for (size_t j = 0; l->pulled[i] && j < service_list_count(&a->conflicts); j++) {
			char buf[SERVICE_NAME_MAX];
			const struct service *b = find(l, service_list_name(a, &a->conflicts, j, buf));
			size_t k = b ? (size_t)(b - l->out) : i;
			if (k == i || !l->pulled[k] || l->required[k] || own[k] ||
			    lists_name(l, b, &b->conflicts, a->name))
				continue;
			l->conflicted[k] = any = true;
		}
	}
	while (any && changed) {
		changed = false;
		for (size_t i = 0; i < l->count; i++) {
			if (!l->pulled[i] || l->conflicted[i] || l->required[i] || own[i])
				continue;
			for (size_t k = 1; k < PULLS && !l->conflicted[i]; k++) {
				const struct service_name_list *list = pulls(&l->out[i], k);
				for (size_t j = 0; j < service_list_count(list); j++) {
					char buf[SERVICE_NAME_MAX];
					const struct service *t =
						find(l, service_list_name(&l->out[i], list, j, buf));
					if (t && l->conflicted[t - l->out]) {
						l->conflicted[i] = changed = true;
						break;
					}
				}
			}
		}
	}
	return any;
}

/* Keep only the units reachable from the roots (root[]: the default target, ember's own
 * units without [Install], units named by the caller), and say which ones the default
 * target pulls in, and which of those it does not start (drop_conflicted()). */
static void keep_reachable(struct loader *l)
{
	static bool own[ROOTS_MAX]; /* the roots before they spread, then what they pull in */
	size_t n = 0;

	if (l->count > ROOTS_MAX)
		return;
	memcpy(own, l->root, sizeof own);
	memcpy(l->required, l->pulled, sizeof l->required);
	spread(l, l->pulled, false, 0, NULL);
	spread(l, l->required, false, 1, NULL);
	if (drop_conflicted(l, own)) {
		/* again, past the dropped starts: what only they pulled in is not loaded
		 * (systemd's transaction collects those jobs with the dropped one) */
		memset(l->pulled, 0, sizeof l->pulled);
		if (l->target)
			l->pulled[l->target - 1] = true;
		spread(l, l->pulled, false, 0, l->conflicted);
	}
	spread(l, l->root, true, 0, l->conflicted);
	/* own[] becomes what the boot starts: the roots and what they pull in, not what a
	 * socket, timer or path unit starts, nor what only that wants */
	spread(l, own, false, 0, l->conflicted);
	for (size_t i = 0; i < l->count; i++) {
		l->root[i] |= l->conflicted[i]; /* loaded, to be started by name */
		if (!l->root[i])
			continue;
		if (i != n)
			service_copy(&l->out[n], &l->out[i]);
		l->out[n].pulled = l->pulled[i];
		l->out[n].conflicted = l->conflicted[i];
		l->out[n].on_demand = !own[i] && !l->conflicted[i];
		n++;
	}
	l->count = n;
}

/* compact: after a load, give back the pages PID 1 no longer needs: the loader's own
 * (file buffer, split paths, bloom filters: all rewritten before the next use), the
 * unused tail of each loaded unit's text store (never read: see service_copy()) and
 * the slots of units dropped as unreachable (out[count..cap), unused). */
static void release_scratch(struct loader *l, struct service *out, size_t count, size_t cap)
{
	pages_release(l, sizeof *l);
	for (size_t i = 0; i < count; i++)
		pages_release((char *)&out[i] + service_used_size(&out[i]),
			      sizeof out[i] - service_used_size(&out[i]));
	if (count < cap)
		pages_release(&out[count], (cap - count) * sizeof *out);
}

/* The service syslog.socket starts (Debian: rsyslog, Alias=syslog.service) gets the
 * view of /run/systemd/system/ it takes that socket by (lib/systemd-view.h): without it
 * rsyslogd replaced journald's /dev/log with its own socket, and the daemons' syslog(3)
 * lines bypassed the journal (docs/distro.md). */
static void mark_syslog_daemon(struct loader *l)
{
	const struct service *sock = find(l, "syslog.socket");
	struct service *daemon = sock && sock->kind == UNIT_SOCKET ? activated_by(l, sock) : NULL;

	if (daemon)
		daemon->systemd_view = true;
}

static void mark_root(struct loader *l, const struct service *svc)
{
	if (svc && (size_t)(svc - l->out) < ROOTS_MAX)
		l->root[svc - l->out] = true;
}

int service_load_from(const struct service_load_config *cfg, struct service *out, size_t cap,
		      size_t *count, const struct service_diag *diag)
{
	static struct loader l; /* 64 KiB of file buffer: not on PID 1's stack */
	char target[SERVICE_NAME_MAX];
	bool any_install, any_systemd = false;

	memset(&l, 0, offsetof(struct loader, dir));
	l.cfg = cfg;
	l.out = out;
	l.cap = cap;
	l.diag = diag;
	service_forget_host();
	open_dirs(&l, cfg->dirs, cfg->ndirs);
	for (size_t d = 0; d < l.ndirs; d++)
		any_systemd |= l.dir[d].systemd;
	any_install = load_own_units(&l);
	for (size_t i = 0; i < l.count && i < ROOTS_MAX; i++)
		l.root[i] = !l.out[i].has_install;
	/* The default target only when something can use it: a systemd directory, an
	 * ember unit enabled into a target, or a target asked for. A pure ember system loads
	 * exactly its own units, as before. */
	if (any_systemd || any_install || (cfg->default_target && *cfg->default_target)) {
		default_target(&l, target, sizeof target);
		struct service *t = load_unit(&l, target);
		if (!t && strcmp(target, UNIT_FALLBACK_TARGET) != 0) {
			say(diag, SERVICE_ERROR, target, "default target not found, using %s",
			    UNIT_FALLBACK_TARGET);
			t = load_unit(&l, UNIT_FALLBACK_TARGET);
		}
		mark_root(&l, t);
		if (t && (size_t)(t - l.out) < ROOTS_MAX) {
			l.pulled[t - l.out] = true;
			l.target = (size_t)(t - l.out) + 1;
		}
		/* default.target.wants/ belongs to whatever default.target names. */
		if (t && strcmp(t->name, UNIT_DEFAULT_TARGET) != 0)
			dependency_dirs_of(&l, t, UNIT_DEFAULT_TARGET);
	}
	for (size_t i = 0; i < cfg->nextra; i++)
		mark_root(&l, load_unit(&l, cfg->extra[i]));
	load_pulled(&l, 0);
	rewrite_aliases(&l); /* sockets-accept */
	mark_syslog_daemon(&l);
	keep_reachable(&l);
	close_dirs(&l);
	sort_by_name(out, l.count);
	if (l.dropped)
		say(diag, SERVICE_ERROR, l.ndirs ? l.dir[0].path : "", "%zu unit files not loaded: "
		    "more than %zu units (kept the first by name, up to %s)", l.dropped, cap,
		    l.count ? out[l.count - 1].name : "none");
	*count = l.count;
	release_scratch(&l, out, l.count, cap);
	return 0;
}

/* sockets-accept: one unit by name (an Accept=yes connection's instance), with its
 * drop-ins, without loading what it pulls in. */
int service_load_one(const struct service_load_config *cfg, const char *name,
		     struct service *out, const struct service_diag *diag)
{
	static struct loader l; /* its own: PID 1 touches only the pages it uses */
	struct service *svc;

	memset(&l, 0, offsetof(struct loader, dir));
	l.cfg = cfg;
	l.out = out;
	l.cap = 1;
	l.diag = diag;
	open_dirs(&l, cfg->dirs, cfg->ndirs);
	svc = load_unit(&l, name);
	close_dirs(&l);
	release_scratch(&l, out, svc ? 1 : 0, 1);
	return svc ? 0 : -1;
}

int service_load(const char *const *dirs, size_t ndirs, struct service *out, size_t cap,
		 size_t *count, const struct service_diag *diag)
{
	struct service_load_config cfg = { .dirs = dirs, .ndirs = ndirs };

	return service_load_from(&cfg, out, cap, count, diag);
}
