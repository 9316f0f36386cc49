#ifndef EMBER_INIT_SPAWN_EXECENV_H
#define EMBER_INIT_SPAWN_EXECENV_H
/* U5: the execution environment of a spawn, worked out in PID 1 before the fork: the
 * *Directory= list and its environment variables, the terminal, ember-sandbox's options.
 * The child applies them (lib/exec-context.c); nothing here runs namespaces or mounts.
 * Storage is static: one spawn at a time on PID 1's thread, as spawn.c. */
#include <stdbool.h>
#include <stddef.h>

#include "exec-context.h"
#include "service.h"

/* Where each kind of directory lives (systemd's defaults for system services). */
const char *execenv_dir_base(enum service_dir_kind kind);

/* Fill c->dirs from s. 0, or -1 with a message in err. */
int execenv_dirs(const struct service *s, struct exec_context *c, char *err, size_t size);

/* RUNTIME_DIRECTORY=/run/a:/run/b and friends for each kind s uses, through add(). */
int execenv_dir_env(const struct service *s, int (*add)(void *ctx, const char *assignment),
		    void *ctx);

/* Terminal flags for s's StandardInput=/StandardOutput=/StandardError= (0: none) and
 * its path (TTYPath=, default /dev/console). */
unsigned execenv_tty_flags(const struct service *s);
const char *execenv_tty_path(const struct service *s);

/* ember-sandbox's options for s into c (c->sandbox_args), helper = its path; services
 * without sandboxing keys are left alone (no extra exec). 0, or -1 with a message. */
int execenv_sandbox(const struct service *s, struct exec_context *c, const char *helper,
		    char *err, size_t size);

/* PAMName=: ember-session's options into c (c->session_args), helper = its path, for a
 * line that switches to the unit's user (User=); other lines and services without
 * PAMName= are left alone. Call after the identity is settled ("+" and "!" lines). */
void execenv_session(const struct service *s, struct exec_context *c, const char *helper);

/* The service stopped: remove its RuntimeDirectory= entries unless preserved (restarting:
 * a restart follows, which RuntimeDirectoryPreserve=restart keeps them for). The removal
 * runs in a short-lived child, which PID 1 reaps as any orphan. */
void execenv_stopped(const struct service *s, bool restarting, uid_t dynamic_uid);

/* StandardOutput=journal+console and friends: a copy of the output on the console
 * (non-blocking: a slow console loses the copy, never stalls PID 1). */
void execenv_console_copy(const char *data, size_t len);
#endif
