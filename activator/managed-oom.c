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
 * that unit's main process, as ember-init reports it. A Varlink message is one JSON
 * object ended by a NUL byte; it is read with a deadline and a size limit, and only the
 * method name and the "more" flag are looked at. */
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
#include "io.h"
#include "log.h"
#include "managed-oom.h"

#define REQUEST_MS 5000    /* for the one request */
#define REQUEST_MAX 4096   /* oomd's is under 100 bytes */
#define STATUS_MS 5000
#define OOMD_UNIT "systemd-oomd"
#define SUBSCRIBE "io.systemd.ManagedOOM.SubscribeManagedOOMCGroups"

static int reply(int fd, const char *json)
{
	return io_write_all(fd, json, strlen(json) + 1); /* the NUL ends the message */
}

/* One message up to its NUL, within the deadline. Returns its length, or -1. */
static ssize_t read_request(int fd, char *buf, size_t size)
{
	size_t n = 0;

	while (n < size) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t got;
		if (poll(&p, 1, REQUEST_MS) <= 0)
			return -1;
		got = read(fd, buf + n, size - n);
		if (got <= 0)
			return -1;
		for (ssize_t i = 0; i < got; i++)
			if (buf[n + (size_t)i] == '\0')
				return (ssize_t)n + i;
		n += (size_t)got;
	}
	return -1;
}

/* Where the value of "key" starts in a flat JSON object (after the ':' and blanks), or
 * NULL. */
static const char *request_value(const char *json, const char *key)
{
	char pattern[32];
	const char *p;

	snprintf(pattern, sizeof pattern, "\"%s\"", key);
	p = strstr(json, pattern);
	if (!p)
		return NULL;
	p += strlen(pattern);
	p += strspn(p, " \t\r\n");
	if (*p++ != ':')
		return NULL;
	return p + strspn(p, " \t\r\n");
}

/* The value of "key" as a plain string in out; -1 when absent or not one (an escape in
 * the method name makes it no method of ours anyway). */
static int request_string(const char *json, const char *key, char *out, size_t size)
{
	const char *p = request_value(json, key), *end;

	if (!p || *p++ != '"' || !(end = strchr(p, '"')) || memchr(p, '\\', (size_t)(end - p)) ||
	    (size_t)(end - p) >= size)
		return -1;
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
	return 0;
}

static bool request_true(const char *json, const char *key)
{
	const char *p = request_value(json, key);

	return p && strncmp(p, "true", 4) == 0;
}

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
	char req[REQUEST_MAX + 1], method[128];
	ssize_t n;

	if (!peer_is_oomd(fd, control)) {
		log_warn("managed-oom: a peer that is not %s.service's main process, refused", OOMD_UNIT);
		reply(fd, "{\"error\":\"org.varlink.service.PermissionDenied\",\"parameters\":{}}");
		return 1;
	}
	n = read_request(fd, req, REQUEST_MAX);
	if (n < 0) {
		log_warn("managed-oom: no request within %d ms, or one over %d bytes", REQUEST_MS,
			 REQUEST_MAX);
		return 1;
	}
	req[n] = '\0';
	if (request_string(req, "method", method, sizeof method) < 0 || strcmp(method, SUBSCRIBE) != 0) {
		reply(fd, "{\"error\":\"org.varlink.service.MethodNotFound\",\"parameters\":{}}");
		return 1;
	}
	if (!request_true(req, "more"))
		return reply(fd, "{\"parameters\":{\"cgroups\":[]}}") < 0;
	if (reply(fd, "{\"parameters\":{\"cgroups\":[]},\"continues\":true}") < 0)
		return 1;
	hold(fd);
	return 0;
}
