/* ember-busname-wait: exit 0 once NAME has an owner on the system bus (ember-busname-wait(8)).
 * ember-init starts it for each Type=dbus service and takes its success as the service's
 * readiness, so PID 1 never speaks D-Bus. It asks the bus to report NameOwnerChanged for
 * NAME first and only then asks NameHasOwner, so an owner that appears in between is not
 * missed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "dbus-client.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"

enum {
	EXIT_TIMEOUT = 1, /* the name had no owner before the timeout */
	EXIT_BUS = 2,     /* the bus refused a request or sent something malformed */
};

#define RETRY_MS 200 /* between attempts to reach a bus that is not up yet */

static void usage(void)
{
	printf("usage: ember-busname-wait [--timeout-ms MS] [--address ADDRESS] NAME\n"
	       "Wait until the well-known D-Bus NAME has an owner on the system bus.\n"
	       "  --timeout-ms MS      give up after MS milliseconds (0: never, the default)\n"
	       "  --address ADDRESS    bus address (default: $DBUS_SYSTEM_BUS_ADDRESS or\n"
	       "                       unix:path=/run/dbus/system_bus_socket)\n"
	       "  -h, --help           this help\n"
	       "      --version        version\n"
	       "Exit codes: 0 owned, 1 timed out, 2 bus error, 100 usage, 111 cannot reach the bus\n");
}

struct options {
	unsigned long timeout_ms;
	const char *address, *name;
};

static void parse_args(int argc, char **argv, struct options *o)
{
	const char *value;
	int i = 1;

	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage();
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			print_version("ember-busname-wait");
			exit(EXIT_OK);
		} else if ((value = cli_option_value(argc, argv, &i, "--timeout-ms"))) {
			if (parse_ulong(value, 0, 86400000UL * 365, &o->timeout_ms) < 0)
				die(EXIT_USAGE, "--timeout-ms %s: expected milliseconds", value);
		} else if ((value = cli_option_value(argc, argv, &i, "--address"))) {
			o->address = value;
		} else if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (a[0] == '-') {
			die(EXIT_USAGE, "%s: unknown option or missing value (see --help)", a);
		} else {
			break;
		}
	}
	if (i != argc - 1)
		die(EXIT_USAGE, "expected exactly one bus name (see --help)");
	o->name = argv[i];
	if (!dbus_name_valid(o->name))
		die(EXIT_USAGE, "%.255s: not a valid well-known bus name", o->name);
}

/* NameOwnerChanged(name, old, new) for our name with a new owner? */
static bool owner_appeared(const struct dbus_msg *m, const char *name)
{
	const char *args[3];

	return m->type == DBUS_SIGNAL && m->member && strcmp(m->member, "NameOwnerChanged") == 0 &&
	       m->sender && strcmp(m->sender, "org.freedesktop.DBus") == 0 &&
	       dbus_body_strings(m, args, 3) == 0 && strcmp(args[0], name) == 0 && args[2][0];
}

static int wait_for_owner(struct dbus_conn *c, const char *name, long long deadline)
{
	char rule[DBUS_NAME_MAX + 160];
	uint32_t match_serial, has_serial;
	struct dbus_msg m;
	bool owned;

	snprintf(rule, sizeof rule, "type='signal',sender='org.freedesktop.DBus',"
		 "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'", name);
	if (dbus_conn_call(c, "AddMatch", rule, false, 0, &match_serial) < 0 ||
	    dbus_conn_call(c, "NameHasOwner", name, false, 0, &has_serial) < 0)
		die(EXIT_SYSTEM, "sending to the bus: %s", strerror(errno));
	for (;;) {
		int r = dbus_conn_read(c, &m, deadline);
		if (r == 0)
			return EXIT_TIMEOUT;
		if (r < 0)
			die(errno == EBADMSG ? EXIT_BUS : EXIT_SYSTEM, "reading from the bus: %s",
			    errno == EBADMSG ? "malformed message" : strerror(errno));
		if (m.type == DBUS_ERROR && (m.reply_serial == match_serial || m.reply_serial == has_serial))
			die(EXIT_BUS, "the bus refused %s: %.128s",
			    m.reply_serial == match_serial ? "AddMatch" : "NameHasOwner",
			    m.error_name ? m.error_name : "(no error name)");
		if (m.type == DBUS_METHOD_RETURN && m.reply_serial == has_serial) {
			if (dbus_body_bool(&m, &owned) < 0)
				die(EXIT_BUS, "NameHasOwner: malformed reply");
			if (owned)
				return EXIT_OK;
		}
		if (owner_appeared(&m, name))
			return EXIT_OK;
	}
}

int main(int argc, char **argv)
{
	static struct dbus_conn conn;
	struct options o = { 0, NULL, NULL };
	long long deadline;
	char err[256];
	int code;

	log_open("ember-busname-wait");
	parse_args(argc, argv, &o);
	deadline = o.timeout_ms ? dbus_now_ms() + (long long)o.timeout_ms : -1;
	/* The bus may not be up yet (its socket not bound, or not accepting): try again
	 * until the deadline, saying why once. */
	for (bool said = false; dbus_conn_open(&conn, o.address, deadline, err, sizeof err) < 0;) {
		struct timespec pause = { 0, RETRY_MS * 1000000L };
		if (errno == ETIMEDOUT || (deadline >= 0 && dbus_now_ms() + RETRY_MS >= deadline))
			die(EXIT_TIMEOUT, "system bus: %s", err);
		if (errno != ENOENT && errno != ECONNREFUSED && errno != EAGAIN)
			die(EXIT_SYSTEM, "system bus: %s", err);
		if (!said)
			log_warn("system bus: %s; trying again until the timeout", err);
		said = true;
		nanosleep(&pause, NULL);
	}
	code = wait_for_owner(&conn, o.name, deadline);
	if (code == EXIT_TIMEOUT)
		log_error("%s: no owner after %lu ms", o.name, o.timeout_ms);
	dbus_conn_close(&conn);
	return code;
}
