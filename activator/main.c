/* ember-activator: stands in for systemd on the system bus (ember-activator(8)).
 * dbus-daemon, run with --systemd-activation as distributions ship it, hands every
 * activation of a service file with SystemdService= to the owner of
 * org.freedesktop.systemd1 as an ActivationRequest signal, and holds every call to that
 * name until it has an owner. This program owns the name, starts the requested units
 * through ember-init's control socket, tells the bus at once when one cannot start
 * (ActivationFailure), and answers every method call, mostly with an error, so that
 * nobody waits for a systemd that is not there. PID 1 itself never speaks D-Bus. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "activator.h"
#include "cli.h"
#include "exitcode.h"
#include "log.h"
#include "managed-oom.h"
#include "peer.h"
#include "userdb.h"

#define RETRY_MS 200 /* between attempts to reach a bus that is not up yet */

static void usage(void)
{
	printf("usage: ember-activator [--address ADDRESS] [--control PATH] [--unit-root DIR]\n"
	       "       ember-activator --peer [--control PATH]\n"
	       "       ember-activator --managed-oom [--control PATH]\n"
	       "       ember-activator --userdb [--control PATH]\n"
	       "Own org.freedesktop.systemd1 on the system bus for ember-init: start the units\n"
	       "D-Bus activation asks for, and answer calls meant for systemd.\n"
	       "  --peer             answer one connection to systemd's private socket\n"
	       "                     (/run/systemd/private) on standard input instead\n"
	       "  --managed-oom      answer systemd-oomd's connection to the manager's\n"
	       "                     io.systemd.ManagedOOM service on standard input instead\n"
	       "  --userdb           answer a lookup of DynamicUser= users and groups\n"
	       "                     (io.systemd.DynamicUser) on standard input instead\n"
	       "  --address ADDRESS  bus address (default: $DBUS_SYSTEM_BUS_ADDRESS or\n"
	       "                     unix:path=/run/dbus/system_bus_socket)\n"
	       "  --control PATH     ember-init's control socket (default: $%s or %s)\n"
	       "  --unit-root DIR    unit files are enabled under DIR (an image, a test)\n"
	       "  -h, --help         this help\n"
	       "      --version      version\n"
	       "Exit codes: 0 the bus went away, 1 the name is owned by someone else or the bus\n"
	       "refused a request, 100 usage, 111 cannot reach the bus\n",
	       CTL_SOCKET_ENV, CTL_SOCKET_PATH);
}

static bool peer_mode, managed_oom_mode, userdb_mode;

static void parse_args(int argc, char **argv, struct activator *a)
{
	const char *value;

	for (int i = 1; i < argc; i++) {
		cli_help_version(argv[i], "ember-activator", usage);
		if (strcmp(argv[i], "--peer") == 0) {
			peer_mode = true;
		} else if (strcmp(argv[i], "--managed-oom") == 0) {
			managed_oom_mode = true;
		} else if (strcmp(argv[i], "--userdb") == 0) {
			userdb_mode = true;
		} else if ((value = cli_option_value(argc, argv, &i, "--address"))) {
			a->address = value;
		} else if ((value = cli_option_value(argc, argv, &i, "--unit-root"))) {
			unit_files_set_root(value);
		} else if ((value = cli_option_value(argc, argv, &i, "--control"))) {
			a->control = value;
		} else {
			die(EXIT_USAGE, "%.64s: unknown argument (see --help)", argv[i]);
		}
	}
}

/* The bus may not be up yet (its socket not bound, or not accepting): try again, saying
 * why once. With fds: logind 257 passes the session leader's pidfd (PIDFDs=), and the bus
 * passes a message with fds only to a connection that asked for them. */
static void connect_bus(struct activator *a)
{
	char err[256];

	for (bool said = false; dbus_conn_open_fds(&a->conn, a->address, dbus_now_ms() + 30000,
						   err, sizeof err) < 0;) {
		struct timespec pause = { 0, RETRY_MS * 1000000L };
		if (errno != ENOENT && errno != ECONNREFUSED && errno != EAGAIN)
			die(EXIT_SYSTEM, "system bus: %s", err);
		if (!said)
			log_warn("system bus: %s; trying again", err);
		said = true;
		nanosleep(&pause, NULL);
	}
}

int main(int argc, char **argv)
{
	static struct activator a;
	const char *env = getenv(CTL_SOCKET_ENV);

	log_open("ember-activator");
	a.control = env && env[0] ? env : CTL_SOCKET_PATH;
	a.scope_events = -1;
	parse_args(argc, argv, &a);
	if (peer_mode)
		return peer_serve(&a, 0);
	if (managed_oom_mode)
		return managed_oom_serve(0, a.control);
	if (userdb_mode)
		return userdb_serve(0, a.control);
	connect_bus(&a);
	a.scope_events = scope_events_open(); /* before any scope is made or taken over */
	scope_adopt(&a); /* sessions */
	if (activator_claim_name(&a) < 0)
		return 1;
	notify_ready();
	return activator_run(&a);
}
