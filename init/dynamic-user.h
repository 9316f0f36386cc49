#ifndef EMBER_DYNAMIC_USER_H
#define EMBER_DYNAMIC_USER_H
/* DynamicUser=: a service runs under a user and group id that no file in /etc/passwd or
 * /etc/group names, picked when it starts and given back when it has stopped. See
 * docs/services.md ("Dynamic users") for the rules and where they differ from systemd.
 *
 * The ids come from systemd's range, 61184..65519. A name keeps its id from start to
 * start: the first candidate is a hash of the name, and the next ones follow it, so
 * only a collision (a static user or group on that id, or another dynamic name holding
 * it) moves a name to another id. Units that share a name share its id. */
#include <stddef.h>
#include <stdint.h>

#include "service.h"

#define DYNAMIC_UID_MIN 61184u
#define DYNAMIC_UID_MAX 65519u
#define DYNAMIC_USER_NAME_MAX 32  /* 31 bytes and the NUL, as useradd allows */
#define DYNAMIC_USER_PROBES 64    /* ids tried before a start fails */

/* Load time: what DynamicUser=yes brings with it (systemd.exec(5)): ProtectSystem=strict,
 * ProtectHome=read-only unless set, PrivateTmp=, RemoveIPC=, NoNewPrivileges= and
 * RestrictSUIDSGID=, so the id leaves nothing behind outside its own directories. */
void dynamic_user_imply(struct service *svc);

/* The user name: User= when set, else the unit's name before any "@" (instances of a
 * template share it). A unit name that is no valid user name becomes "_du" and 16 hex
 * digits of its hash. 0, or -1 when User= is set and is not a valid user name. */
int dynamic_user_name(const struct service *svc, char name[DYNAMIC_USER_NAME_MAX]);

/* The ids other running units hold, for the pick: name and id each. */
struct dynamic_held {
	const char *name;
	uint32_t uid;
};

/* An id for name: the one a unit in held[] already has for the same name, else the
 * first candidate no static user or group (root: as lib/passwd.h) and no other held
 * name uses. 0, or -1 with errno: EUSERS (no free id within DYNAMIC_USER_PROBES), or
 * the error reading /etc/passwd or /etc/group (an id is never guessed free). */
int dynamic_user_pick(const char *root, const char *name, const struct dynamic_held *held,
		      size_t nheld, uint32_t *uid);
#endif
