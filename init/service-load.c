/* Finding and reading service files: the directories in priority order, overrides,
 * masks, size caps. Parsing is service.c's job; this file only does the I/O. */
#include "service.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct loader {
	struct service *out;
	size_t cap;
	size_t count;
	size_t dropped; /* names beyond cap */
	const struct service_diag *diag;
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
		if (strcmp(l->out[i].name, name) == 0)
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

/* The canonical unit name of a directory entry ("sshd" for sshd.service, "x.target"), or
 * false when the entry is not a unit file ember reads. */
static bool name_of(const char *file, char *name, size_t size)
{
	enum unit_kind kind;

	if (file[0] == '.')
		return false;
	if (!strchr(file, '.') || unit_name_canonical(file, name, size, &kind) == -2)
		return false;
	/* "x.socket" without a known suffix after it would read as a service: require one. */
	size_t len = strlen(file), n = strlen(unit_kind_suffix(kind));
	if (len <= n || strcmp(file + len - n, unit_kind_suffix(kind)) != 0)
		return false;
	if (unit_name_canonical(file, name, size, &kind) < 0)
		snprintf(name, size, "%s", file); /* reported as unsafe below */
	return true;
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

static void consider(struct loader *l, const char *dir, int dirfd, const char *file)
{
	char shown[72];
	char name[SERVICE_NAME_MAX + 256];
	enum unit_kind kind;
	char path[SERVICE_PATH_MAX];
	struct service *svc;

	if (!name_of(file, name, sizeof name))
		return;
	if (unit_name_canonical(file, name, sizeof name, &kind) < 0 ||
	    !service_name_valid(name)) {
		say(l->diag, SERVICE_WARNING, dir, "%s: unsafe or overlong unit name "
		    "(1-127 of A-Z a-z 0-9 _ . : - @ \\), file ignored",
		    printable(file, shown, sizeof shown));
		return;
	}
	if (unit_name_is_template(name))
		return; /* instantiated when something names an instance */
	if (find(l, name))
		return; /* overridden by a directory with higher priority */
	if (snprintf(path, sizeof path, "%s/%s", dir, file) >= (int)sizeof path) {
		say(l->diag, SERVICE_WARNING, dir, "%s: path too long, file ignored", file);
		return;
	}
	svc = slot_for(l, name);
	if (!svc)
		return;
	service_init(svc, name, path);
	svc->kind = kind;
	svc->masked = masked(dirfd, file);
}

static void scan_dir(struct loader *l, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		if (errno != ENOENT && errno != ENOTDIR)
			say(l->diag, SERVICE_WARNING, dir, "cannot read directory: %s",
			    strerror(errno));
		return;
	}
	while ((e = readdir(d)))
		consider(l, dir, dirfd(d), e->d_name);
	closedir(d);
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

static void swap(struct service *a, struct service *b)
{
	struct service tmp;

	memcpy(&tmp, a, sizeof tmp);
	memcpy(a, b, sizeof tmp);
	memcpy(b, &tmp, sizeof tmp);
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
}

int service_load(const char *const *dirs, size_t ndirs, struct service *out, size_t cap,
		 size_t *count, const struct service_diag *diag)
{
	static const char *const default_dirs[] = { SERVICE_DIR_ETC, SERVICE_DIR_RUN,
						    SERVICE_DIR_LIB };
	struct loader l = { .out = out, .cap = cap, .count = 0, .dropped = 0, .diag = diag };
	char text[SERVICE_FILE_MAX + 1];

	if (!dirs) {
		dirs = default_dirs;
		ndirs = sizeof default_dirs / sizeof *default_dirs;
	}
	for (size_t i = 0; i < ndirs; i++)
		scan_dir(&l, dirs[i]);
	sort_by_name(out, l.count);
	if (l.dropped)
		say(diag, SERVICE_ERROR, dirs[0], "%zu service files not loaded: more than %zu "
		    "services (kept the first by name, up to %s)", l.dropped, cap,
		    l.count ? out[l.count - 1].name : "none");
	for (size_t i = 0; i < l.count; i++) {
		ssize_t len;
		if (out[i].masked || out[i].failed)
			continue;
		len = read_capped(&out[i], text, diag);
		if (len >= 0)
			service_parse(&out[i], text, (size_t)len, diag);
	}
	*count = l.count;
	return 0;
}
