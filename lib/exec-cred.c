/* Credentials (LoadCredential=, ImportCredential=, SetCredential=; systemd.exec(5),
 * "Credentials"): in the forked child, as root and before the identity switch, the
 * directory /run/credentials/UNIT is filled with one file per credential, owned by the
 * service's user, mode 0400, in a directory of mode 0500 on a tmpfs of its own that is
 * then remounted read-only (a plain directory where mounting is not allowed). The first
 * Exec*= line of a start creates it; the later ones find it there. PID 1 removes it at
 * stop (init/spawn-execmore.c). Only open/read/write/mount-style syscalls: the child of
 * PID 1 must not allocate or lock. */
#include "exec-more.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec-context.h"

#define CRED_SIZE_MAX (1024 * 1024) /* per credential, as systemd */
#define CRED_PATH_MAX 512

/* The places a credential given by name only is looked for, as systemd's system manager
 * does (ember itself is passed no credentials). */
static const char *const credstores[] = {
	"/etc/credstore", "/run/credstore", "/usr/local/lib/credstore", "/usr/lib/credstore",
};

static int join(char *out, const char *a, const char *b, size_t blen)
{
	size_t alen = strlen(a);

	if (alen + 1 + blen + 1 > CRED_PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, a, alen);
	out[alen] = '/';
	memcpy(out + alen + 1, b, blen);
	out[alen + 1 + blen] = '\0';
	return 0;
}

/* Copy from in to the new file dir_fd/id. -1/EEXIST when the file is there already. */
static int write_cred(int dir_fd, const char *id, int in, const char *data, size_t len,
		      uid_t uid, gid_t gid)
{
	char buf[4096];
	size_t total = 0;
	int out = openat(dir_fd, id, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0400);
	int r = 0;

	if (out < 0)
		return -1;
	for (;;) {
		ssize_t n;
		if (in >= 0) {
			n = read(in, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
		} else {
			n = (ssize_t)len; /* the whole value in one go */
			len = 0;
		}
		if (n < 0 || (total += (size_t)n) > CRED_SIZE_MAX) {
			if (n >= 0)
				errno = EFBIG;
			r = -1;
			break;
		}
		if (n == 0)
			break;
		if (write(out, in >= 0 ? buf : data, (size_t)n) != n) {
			r = -1;
			break;
		}
		if (in < 0)
			break;
	}
	if (r == 0 && fchown(out, uid, gid) < 0)
		r = -1;
	close(out);
	return r;
}

/* LoadCredential=ID[:PATH]: an absolute PATH must exist; a name (ID alone, or PATH
 * without '/') is looked for in the credential stores and skipped when missing. */
static int load_cred(int dir_fd, const char *entry, size_t len, uid_t uid, gid_t gid)
{
	const char *colon = memchr(entry, ':', len);
	char id[256], path[CRED_PATH_MAX];
	size_t id_len = colon ? (size_t)(colon - entry) : len;
	const char *src = colon ? colon + 1 : entry;
	size_t src_len = colon ? len - id_len - 1 : id_len;
	int in = -1, r;

	if (id_len >= sizeof id || src_len == 0) {
		errno = EINVAL;
		return -1;
	}
	memcpy(id, entry, id_len);
	id[id_len] = '\0';
	if (src[0] == '/') {
		if (src_len >= sizeof path) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(path, src, src_len);
		path[src_len] = '\0';
		in = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (in < 0)
			return -1;
	} else {
		for (size_t i = 0; in < 0 && i < sizeof credstores / sizeof *credstores; i++)
			if (join(path, credstores[i], src, src_len) == 0)
				in = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (in < 0)
			return 0;
	}
	r = write_cred(dir_fd, id, in, NULL, 0, uid, gid);
	close(in);
	return r;
}

/* ImportCredential=GLOB[:RENAME] (parsed by init/service.c): GLOB is a name, or a prefix
 * when it ends in '*'; RENAME replaces the name, or that prefix. */
struct import_rule {
	const char *glob, *rename;
	size_t glob_len, rename_len;
	bool prefix;
};

/* The credential id a store's file name gets under rule, or false when it does not match. */
static bool import_id(const struct import_rule *rule, const char *name, char *id, size_t size)
{
	size_t len = strlen(name), keep = rule->glob_len - rule->prefix;
	size_t head = rule->rename ? rule->rename_len : keep, rest;

	if (len < keep || memcmp(name, rule->glob, keep) != 0 || (!rule->prefix && len != keep))
		return false;
	rest = len - keep; /* what the prefix's '*' stood for; 0 for a name */
	if (head + rest == 0 || head + rest >= size)
		return false;
	memcpy(id, rule->rename ? rule->rename : rule->glob, head);
	memcpy(id + head, name + keep, rest);
	id[head + rest] = '\0';
	return true;
}

struct dirent64_raw { /* getdents64(2): readdir() may allocate, this child must not */
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Every regular file of store the rule matches; a name already there is kept. */
static int import_store(int dir_fd, const char *store, const struct import_rule *rule,
			uid_t uid, gid_t gid)
{
	_Alignas(struct dirent64_raw) char buf[4096];
	char id[256];
	int d = open(store, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (d < 0)
		return 0; /* no such store */
	while ((n = syscall(SYS_getdents64, d, buf, sizeof buf)) > 0)
		for (long off = 0; off < n;) {
			struct dirent64_raw *e = (struct dirent64_raw *)(buf + off);
			struct stat st;
			int in, r = 0;

			off += e->reclen;
			if (strcmp(e->name, ".") == 0 || strcmp(e->name, "..") == 0 ||
			    !import_id(rule, e->name, id, sizeof id))
				continue;
			in = openat(d, e->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
			if (in < 0)
				continue;
			if (fstat(in, &st) == 0 && S_ISREG(st.st_mode))
				r = write_cred(dir_fd, id, in, NULL, 0, uid, gid);
			close(in);
			if (r < 0 && errno != EEXIST) {
				close(d);
				return -1;
			}
		}
	close(d);
	return n < 0 ? -1 : 0;
}

/* The stores in order, so that the first store holding a name gives it. */
static int import_cred(int dir_fd, const char *entry, size_t len, uid_t uid, gid_t gid)
{
	const char *colon = memchr(entry, ':', len);
	struct import_rule rule = { .glob = entry };

	rule.glob_len = colon ? (size_t)(colon - entry) : len;
	if (colon) {
		rule.rename = colon + 1;
		rule.rename_len = len - rule.glob_len - 1;
	}
	rule.prefix = rule.glob_len > 0 && entry[rule.glob_len - 1] == '*';
	for (size_t i = 0; i < sizeof credstores / sizeof *credstores; i++)
		if (import_store(dir_fd, credstores[i], &rule, uid, gid) < 0)
			return -1;
	return 0;
}

/* SetCredential=ID:VALUE: only where LoadCredential= gave nothing for ID. */
static int set_cred(int dir_fd, const char *entry, size_t len, uid_t uid, gid_t gid)
{
	const char *colon = memchr(entry, ':', len);
	char id[256];
	size_t id_len = colon ? (size_t)(colon - entry) : len;

	if (!colon || id_len >= sizeof id) {
		errno = EINVAL;
		return -1;
	}
	memcpy(id, entry, id_len);
	id[id_len] = '\0';
	if (write_cred(dir_fd, id, -1, colon + 1, len - id_len - 1, uid, gid) < 0)
		return errno == EEXIST ? 0 : -1;
	return 0;
}

/* Each entry of the list whose kind letter is kind ('l' or 's'). */
static int each_cred(int dir_fd, const char *list, char kind, uid_t uid, gid_t gid)
{
	while (*list) {
		size_t len = strcspn(list, "\n");
		if (len > 1 && list[0] == kind) {
			int r = kind == 'l' ? load_cred(dir_fd, list + 1, len - 1, uid, gid)
				: kind == 'i' ? import_cred(dir_fd, list + 1, len - 1, uid, gid)
					      : set_cred(dir_fd, list + 1, len - 1, uid, gid);
			if (r < 0)
				return -1;
		}
		list += len;
		if (*list)
			list++;
	}
	return 0;
}

int exec_credentials_setup(const struct exec_more *m)
{
	uid_t uid = m->cred_uid;
	gid_t gid = m->cred_gid;
	const unsigned long ro = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC;
	bool mounted;
	int fd, r;

	if (!m->cred_dir)
		return 0;
	if (mkdir("/run/credentials", 0755) < 0 && errno != EEXIST)
		return -1;
	if (mkdir(m->cred_dir, 0700) < 0)
		return errno == EEXIST ? 0 : -1; /* an earlier line of this start made it */
	mounted = mount("tmpfs", m->cred_dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			"mode=0700,size=1m") == 0;
	fd = open(m->cred_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* LoadCredential= first, as systemd: its names win over imported ones */
	r = each_cred(fd, m->cred_list, 'l', uid, gid);
	if (r == 0)
		r = each_cred(fd, m->cred_list, 'i', uid, gid);
	if (r == 0)
		r = each_cred(fd, m->cred_list, 's', uid, gid);
	if (r == 0 && (fchown(fd, uid, gid) < 0 || fchmod(fd, 0500) < 0))
		r = -1;
	close(fd);
	if (r == 0 && mounted && mount(NULL, m->cred_dir, NULL, ro, NULL) < 0)
		r = -1;
	return r;
}
