#ifndef EMBER_CAPS_ARGS_H
#define EMBER_CAPS_ARGS_H
/* ember-caps' command line -> a plain request (pure: no I/O, no lookups). The syntax is
 * in ember-caps(8); exec_caps_build_argv() in lib/exec-context.c writes it. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "exec-context.h"

struct caps_request {
	int report_fd;            /* -1: none */
	const char *user;         /* --user: resolved by the caller; NULL if not given */
	bool uid_set, gid_set, groups_set;
	uid_t uid;
	gid_t gid;
	size_t group_count;
	gid_t groups[EXEC_GROUPS_MAX];
	bool bounding_set;
	uint64_t bounding;        /* capabilities the bounding set keeps */
	uint64_t ambient;         /* EXEC_CAPS_ALL: bounding ∩ permitted */
	bool no_new_privs;
	unsigned secure_bits;          /* --securebits (sandbox-more): 0 = left alone */
	const char *apparmor_profile;  /* --apparmor-profile (sandbox-more) */
	const char *chdir_path;
	int chdir_fd;             /* -1: none */
	bool chdir_optional;
	bool help, version;
	const char *path;         /* the command */
	char **argv;              /* its argv, NULL-terminated, argv[0] present */
};

/* Parse argv[1..argc). Returns 0, or -1 with a message in err ("--uid: 4294967295:
 * not a valid id"). --help and --version set their flag and stop parsing. */
int caps_parse_args(int argc, char **argv, struct caps_request *req, char *err,
		    size_t err_size);

/* "1,2,3" (or "") -> gids. 0, or -1/errno (EINVAL, ERANGE, E2BIG past cap). */
int caps_parse_groups(const char *s, gid_t *groups, size_t cap, size_t *count);
#endif
