#ifndef EMBER_PASSWD_H
#define EMBER_PASSWD_H
/* Users and groups straight from /etc/passwd and /etc/group, without NSS: static musl
 * has none and static glibc's is broken. No allocation: every lookup reads the file
 * through a fixed line buffer on the stack (PASSWD_LINE_MAX bytes).
 *
 * The files are read the way libc reads them: '#' comments, blank lines and lines that
 * do not parse (wrong field count, an id that is not a number in range, a NUL byte) are
 * skipped; the first entry of a name or id wins. See docs/exec-context.md.
 *
 * root: the directory holding etc/passwd and etc/group; NULL or "" means "/". Tests
 * point it at a fixture tree.
 *
 * Every function returns 0, or -1 with errno:
 *   ENOENT       no such entry (a missing file has no entries)
 *   ENAMETOOLONG the matching entry's name, home or shell does not fit its buffer
 *   EOVERFLOW    passwd_user_groups() met a line longer than PASSWD_LINE_MAX - 1 bytes
 *                in /etc/group, so it cannot say whether the user is a member
 *   ERANGE       passwd_user_groups(): more groups than the caller's array holds
 *   others       from open(2)/read(2)
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PASSWD_NAME_MAX 256   /* user or group name, incl. NUL */
#define PASSWD_PATH_MAX 1024  /* home or shell, incl. NUL */
#define PASSWD_LINE_MAX 16384 /* bytes per line, incl. the newline */

struct passwd_user {
	char name[PASSWD_NAME_MAX];
	uid_t uid;
	gid_t gid; /* primary group */
	char home[PASSWD_PATH_MAX];
	char shell[PASSWD_PATH_MAX];
};

struct passwd_group {
	char name[PASSWD_NAME_MAX];
	gid_t gid;
};

int passwd_user_by_name(const char *root, const char *name, struct passwd_user *out);
int passwd_user_by_uid(const char *root, uid_t uid, struct passwd_user *out);
/* A string of digits is a uid, anything else a name (as User= reads it). */
int passwd_user_lookup(const char *root, const char *name_or_id, struct passwd_user *out);

int passwd_group_by_name(const char *root, const char *name, struct passwd_group *out);
int passwd_group_by_gid(const char *root, gid_t gid, struct passwd_group *out);
int passwd_group_lookup(const char *root, const char *name_or_id, struct passwd_group *out);

/* The user's groups, as getgrouplist(3) gives them: primary first, then every group
 * whose member list names user, in file order, each gid once. *count is the number
 * stored in groups[0..cap). */
int passwd_user_groups(const char *root, const char *user, gid_t primary, gid_t *groups,
		       size_t cap, size_t *count);

/* A numeric user or group id: decimal digits only, 0..4294967294, and not 65535. Both
 * excluded values mean "no change" to setresuid(2) and its 16-bit ancestor, so accepting
 * them could leave a process running as root (CVE-2019-14287). Returns 0 or -1/errno
 * EINVAL (not a number) or ERANGE. */
int passwd_parse_id(const char *s, uint32_t *id);
#endif
