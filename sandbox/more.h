#ifndef EMBER_SANDBOX_MORE_H
#define EMBER_SANDBOX_MORE_H
/* ember-sandbox's exec keys beyond the first set (sandbox-more): a private /proc
 * (ProtectProc=, ProcSubset=), PrivateMounts=, MountFlags= and a user namespace
 * (PrivateUsers=).
 * Options and order: ember-sandbox(8). */
#include <stdbool.h>
#include <sys/types.h>

struct sandbox_error;

struct sandbox_more {
	const char *hidepid;  /* "noaccess", "invisible", "ptraceable"; NULL: /proc as is */
	bool subset_pid;      /* --proc-subset=pid */
	bool private_mounts;  /* nothing to add: every sandbox has its own mount namespace */
	unsigned long propagation; /* --mount-propagation=: MS_SHARED (default), MS_SLAVE, MS_PRIVATE */
	unsigned char private_users; /* enum sandbox_users */
	uid_t uid;            /* --private-users=UID:GID: the ids mapped besides root */
	gid_t gid;
};

/* --private-users=: UID:GID (root and those), identity (ids 0-65535), full (every id) */
enum sandbox_users { SANDBOX_USERS_NONE, SANDBOX_USERS_MINIMAL, SANDBOX_USERS_IDENTITY,
		     SANDBOX_USERS_FULL };

/* One option of the set above: 0, 1 when arg is not one of them, -1 when invalid. */
int sandbox_more_option(struct sandbox_more *m, const char *arg);
/* In the new mount namespace, before anything else is mounted: the new /proc. */
int sandbox_more_proc(const struct sandbox_more *m, struct sandbox_error *e);
/* After every mount: the propagation the unit asked for (MountFlags=), on all of them. */
int sandbox_more_propagation(const struct sandbox_more *m, struct sandbox_error *e);
/* Last, after every mount: the user namespace with root and UID:GID mapped. */
int sandbox_more_users(const struct sandbox_more *m, struct sandbox_error *e);
#endif
