#ifndef EMBER_INIT_SPAWN_H
#define EMBER_INIT_SPAWN_H
/* Starting one process of a service: environment, command line, output, cgroup,
 * execution context. The child reports a failure before exec through a pipe, which the
 * supervisor reads without blocking. */
#include <stdint.h>
#include <sys/types.h>

#include "sockets.h"
#include "supervisor.h"

/* The open-files limit a service gets unless LimitNOFILE= says otherwise, as systemd's
 * (since v240): soft 1024, as select() cannot take an fd past 1023, hard 524288, up to
 * which the service may raise its own soft limit. Never above PID 1's own hard limit. */
#define SPAWN_NOFILE_SOFT 1024
#define SPAWN_NOFILE_HARD 524288

struct spawn_env {
	const char *notify_path;   /* NOTIFY_SOCKET for Type=notify, NULL: none */
	const char *caps_helper;   /* ember-caps */
	const char *sandbox_helper; /* U5: ember-sandbox, NULL: EXEC_SANDBOX_HELPER */
	const char *session_helper; /* PAMName=: ember-session, NULL: EXEC_SESSION_HELPER */
	int console_fd;            /* for StandardOutput=console */
	uint64_t caught_signals;   /* signals PID 1 has handlers for (the rest are default) */
	const struct listen_pass *listen; /* U4: socket fds for this spawn, NULL: none */
};

/* Start `line` (an ExecStart=-style command line) for unit u. Returns the pid, or -1
 * with the reason in u->error, or SPAWN_NO_RESOURCES when fork or pipe failed for
 * want of processes or memory (EAGAIN, ENOMEM, ENFILE): not the service's failure.
 * *exec_fd gets the read end of the exec status pipe. */
#define SPAWN_NO_RESOURCES (-2)
pid_t spawn_command(struct unit *u, const char *line, const struct spawn_env *env, int *exec_fd);
struct exec_failure;
/* A failure the child reported through the exec status pipe, as a message. */
void spawn_describe_failure(const struct unit *u, const struct exec_failure *f, char *buf,
			    size_t size);
/* The pipe service output goes into (created on first use). -1 on failure. */
int spawn_output_pipe(struct unit *u, int *write_fd);

/* A process of u's commands has ended (status as from waitpid): with UtmpIdentifier=,
 * its utmp record becomes DEAD_PROCESS (init/utmp.h), as systemd does. */
void spawn_process_ended(const struct unit *u, pid_t pid, int status);
#endif
