#ifndef EMBER_INIT_SPAWN_EXECMORE_H
#define EMBER_INIT_SPAWN_EXECMORE_H
/* PID 1's side of the exec keys added by sandbox-more (docs/services.md, "More execution
 * keys"): what goes into the exec context before the fork (scheduling, affinity), the
 * environment filter of UnsetEnvironment= and the credentials directory. Libc only. */
#include <stdbool.h>
#include <stddef.h>

#include "exec-context.h"
#include "service.h"

/* c->more from the service's keys. 0, or -1 with a message. */
int execmore_context(const struct service *s, struct exec_context *c, char *err, size_t size);

/* UnsetEnvironment=: drop the matching entries of vars[0..*count) (NULL-terminated):
 * a NAME removes every assignment of NAME, NAME=VALUE only that exact one. */
void execmore_unset_env(const struct service *s, const char **vars, size_t *count);

/* LoadCredential=/SetCredential=: c->more's credential fields (called by
 * execmore_context); CREDENTIALS_DIRECTORY= for the environment. 0 or -1. */
int execmore_credentials(const struct service *s, struct exec_context *c, char *err, size_t size);
int execmore_env(const struct service *s, int (*add)(void *ctx, const char *assignment),
		 void *ctx);

/* The service stopped: its credentials directory goes and RemoveIPC= is done (in one
 * child), as on systemd. dynamic_uid: the DynamicUser= id whose last holder this was
 * (its IPC objects go instead of User='s), 0 none. */
void execmore_stopped(const struct service *s, uid_t dynamic_uid);
#endif
