#ifndef EMBER_INIT_BUSNAME_WATCH_H
#define EMBER_INIT_BUSNAME_WATCH_H
/* U4: Type=dbus readiness. PID 1 speaks no D-Bus: it starts ember-busname-wait(8), which
 * exits 0 once the name is owned on the system bus, and treats that exit as READY. */
#include <stdint.h>
#include <sys/types.h>

/* Start helper waiting up to timeout_ms (SERVICE_TIMEOUT_INFINITY: no limit) for name;
 * its messages go to out_fd (the service's log pipe, or -1: /dev/null). The pid, or -1. */
pid_t busname_watch_spawn(const char *helper, const char *name, unsigned long timeout_ms,
			  int out_fd, uint64_t caught_signals);
#endif
