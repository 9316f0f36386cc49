/* U4: starting ember-busname-wait for a Type=dbus service (busname-watch.h). */
#include "busname-watch.h"
#include "rlimits.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exec-context.h"
#include "service.h"

#define BUS_ADDRESS_VAR "DBUS_SYSTEM_BUS_ADDRESS"

pid_t busname_watch_spawn(const char *helper, const char *name, unsigned long timeout_ms,
			  int out_fd, uint64_t caught_signals)
{
	static char timeout[32], address[512];
	static char *argv[] = { NULL, "--timeout-ms", timeout, "--", NULL, NULL };
	static char *envp[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", NULL, NULL };
	const char *bus = getenv(BUS_ADDRESS_VAR); /* a test or an unusual bus location */
	struct exec_context c;
	struct exec_failure fail;
	int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	pid_t pid;

	snprintf(timeout, sizeof timeout, "%lu", timeout_ms == SERVICE_TIMEOUT_INFINITY ? 0 : timeout_ms);
	argv[0] = (char *)helper;
	argv[4] = (char *)name;
	envp[1] = NULL;
	if (bus && snprintf(address, sizeof address, "%s=%s", BUS_ADDRESS_VAR, bus) < (int)sizeof address)
		envp[1] = address;
	exec_context_init(&c);
	c.envp = envp;
	c.stdin_fd = null_fd;
	c.stdout_fd = c.stderr_fd = out_fd >= 0 ? out_fd : null_fd;
	c.signals_to_reset = caught_signals;
	pid = fork();
	if (pid == 0) {
		rlimits_for_child();
		exec_context_exec(&c, helper, argv, &fail);
		_exit(127);
	}
	if (null_fd >= 0)
		close(null_fd);
	return pid;
}
