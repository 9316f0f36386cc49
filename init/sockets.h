#ifndef EMBER_INIT_SOCKETS_H
#define EMBER_INIT_SOCKETS_H
/* U4: socket activation at run time. PID 1 binds a socket unit's sockets when the unit
 * starts (first thing at boot), watches them while the service they activate is down,
 * starts that service on the first traffic and hands it the fds the way sd_listen_fds()
 * expects: fds 3.., LISTEN_FDS, LISTEN_PID (set in the child), LISTEN_FDNAMES. Every
 * fd is close-on-exec in PID 1, so no other service inherits one. See docs/services.md,
 * "Socket units". */
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "service.h"

struct unit;

#define LISTEN_PASS_MAX 288 /* fds passed to one service: 32 sockets + every stored fd */
#define LISTEN_NAMES_MAX 4096     /* LISTEN_FDNAMES=... */
#define SOCKETS_POLL_MAX 64       /* poll slots for watched sockets */
#define TRIGGER_LIMIT_BURST 20    /* activations per interval before the socket fails */
#define TRIGGER_LIMIT_INTERVAL_MS 2000

/* The fds a service gets when its main process starts. */
struct listen_pass {
	size_t count;
	int fd[LISTEN_PASS_MAX];
	char names[LISTEN_NAMES_MAX]; /* "LISTEN_FDNAMES=a:b" */
	bool non_blocking;            /* sockets-accept: NonBlocking=yes: O_NONBLOCK on each */
	char remote_addr[64];         /* sockets-accept: "REMOTE_ADDR=..." (Accept=yes, IP), or "" */
	char remote_port[24];         /* "REMOTE_PORT=..." */
};

/* Bind and listen on every Listen*= entry of socket unit u (fds into u->listen_fd).
 * 0, or -1 with nothing left open and the reason in err ("ListenStream=/run/x: bind:
 * Address already in use"). */
int sockets_listen(struct unit *u, char *err, size_t errlen);
/* sockets-accept: s's one-setsockopt keys (KeepAlive=, NoDelay=, IPTOS=, ...) on fd of
 * the given family; a refused option is logged, not fatal (as on systemd). */
void sockets_apply_options(const struct service *s, int fd, int family);
/* Close u's fds (RemoveOnStop=yes: remove its socket and FIFO files too). */
void sockets_close(struct unit *u);
bool sockets_open(const struct unit *u);
/* pid as decimal digits into field (at least 11 bytes), in a forked child before exec
 * (LISTEN_PID=, WATCHDOG_PID=): no stdio, async-signal-safe. */
void sockets_write_pid(char *field, pid_t pid);

/* Does some socket unit among services[0..n) activate the service called name? */
bool sockets_activate(struct service *const *services, size_t n, const char *name);
/* The unit sock activates among units[0..n), or NULL. */
struct unit *sockets_target(struct unit *units, size_t n, const struct unit *sock);
/* socket-exec: is a socket unit that activates svc still starting (its ExecStartPre= or
 * ExecStartPost= running)? The service then waits, so it finds the fds. */
bool sockets_starting(struct unit *units, size_t n, const struct unit *svc);
/* True while sock's fds should be watched: open, and its service is down. */
bool sockets_watched(struct unit *units, size_t n, const struct unit *sock);

/* The watched fds into fds[0..max): their count. */
size_t sockets_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max);
/* The socket unit that owns fd, or NULL. */
struct unit *sockets_owner(struct unit *units, size_t n, int fd);
/* Count one activation of sock at now_ms: false when the trigger limit is hit. */
bool sockets_trigger_allowed(struct unit *sock, long long now_ms);
/* Before activating svc again after it failed: false once it failed more than its
 * StartLimitBurst= times within StartLimitIntervalSec= (the restart limit of systemd,
 * which activations must not escape). */
bool sockets_failure_allowed(struct unit *sock, const struct unit *svc, long long now_ms);

/* The fds of every socket unit that activates svc, in unit order. -1 (with err) when
 * they do not fit. */
int sockets_collect(struct unit *units, size_t n, const struct unit *svc,
		    struct listen_pass *pass, char *err, size_t errlen);
/* In the child after fork, before exec: put pass's fds on 3.. (close-on-exec cleared),
 * moving any of the caller's fds (*moved[i]) that sit there out of the way, and write
 * the child's pid into pid_field (the value of LISTEN_PID=, 10 bytes + NUL). Only
 * async-signal-safe calls. 0 or -1/errno. */
int sockets_child_pass(const struct listen_pass *pass, int *const moved[], size_t nmoved,
		       char *pid_field);
/* sockets-accept: for StandardInput=socket/StandardOutput=socket: a close-on-exec copy
 * of the connection of an Accept=yes instance, or of the one fd an Accept=no socket
 * passes; -1 (ENOTSOCK) when there is no such fd. */
int sockets_stdio_fd(const struct unit *svc);
#endif
