/* systemd's io.systemd.ManagedOOM Varlink service, answered for ember-init
 * (ember-activator --managed-oom, docs/dbus.md "systemd-oomd").
 *
 * systemd-oomd asks the service manager, at /run/systemd/io.system.ManagedOOM, which
 * control groups it is to watch (the units with ManagedOOMSwap=/ManagedOOMMemoryPressure=
 * set to kill), and stays subscribed for changes. It cannot start when nothing answers
 * there: under ember it failed and restarted for good. ember-init carries out none of
 * those keys, so the answer is the truth: no control group, and no change will follow.
 * The connection is held open as systemd's is, which is what oomd expects of a
 * subscription.
 *
 * As systemd's manager, only systemd-oomd.service may subscribe: the peer's PID must be
 * that unit's main process, as ember-init reports it. The call is read as varlink.h
 * reads one; only its method and "more" are looked at. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "activator.h"
#include "ctl-client.h"
#include "log.h"
#include "managed-oom.h"
#include "varlink.h"

#define REQUEST_MS 5000    /* for the one request */
#define REQUEST_MAX 4096   /* oomd's is under 100 bytes */
#define STATUS_MS 5000
#define OOMD_UNIT "systemd-oomd"
#define SUBSCRIBE "io.systemd.ManagedOOM.SubscribeManagedOOMCGroups"

/* Is the peer systemd-oomd.service's main process? */
static bool peer_is_oomd(int fd, const char *control)
{
	struct ucred cred;
	socklen_t len = sizeof cred;
	char value[32], err[256];

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0)
		return false;
	if (ember_request(control, CTL_STATUS, OOMD_UNIT, STATUS_MS, "main_pid", value,
			  sizeof value, err, sizeof err) != 0)
		return false;
	return atol(value) == (long)cred.pid;
}

/* Hold the subscription until oomd goes: nothing it may send changes the answer. */
static void hold(int fd)
{
	char sink[256];

	while (read(fd, sink, sizeof sink) > 0)
		;
}

int managed_oom_serve(int fd, const char *control)
{
	char req[REQUEST_MAX + 1];
	struct varlink_call call;

	/* The request first, also from a peer about to be refused: a refusal sent before
	 * the peer wrote its request can reach it as EPIPE on its write, not as the answer. */
	if (varlink_read(fd, req, REQUEST_MAX, REQUEST_MS) < 0) {
		log_warn("managed-oom: no request within %d ms, or one over %d bytes", REQUEST_MS,
			 REQUEST_MAX);
		return 1;
	}
	if (!peer_is_oomd(fd, control)) {
		log_warn("managed-oom: a peer that is not %s.service's main process, refused", OOMD_UNIT);
		varlink_reply(fd, "{\"error\":\"org.varlink.service.PermissionDenied\",\"parameters\":{}}");
		return 1;
	}
	if (varlink_parse_call(req, &call) < 0 || strcmp(call.method, SUBSCRIBE) != 0) {
		varlink_reply(fd, "{\"error\":\"org.varlink.service.MethodNotFound\",\"parameters\":{}}");
		return 1;
	}
	if (!call.more)
		return varlink_reply(fd, "{\"parameters\":{\"cgroups\":[]}}") < 0;
	if (varlink_reply(fd, "{\"parameters\":{\"cgroups\":[]},\"continues\":true}") < 0)
		return 1;
	hold(fd);
	return 0;
}
