// sources: session/logind.c
/* D-Bus messages: any client of the system bus can send ember-activator one (and the bus
 * sends ember-busname-wait its replies). The parser, then every body reader on what it
 * parsed, StartTransientUnit's property walker and logind's CreateSession reply (what
 * ember-session believes) included. */
#include "fuzz.h"
#include "dbus-wire.h"
#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dbus_msg m;
	struct dbus_transient t;
	const char *strings[3];
	uint32_t u;
	bool b;
	union dbus_value v[DBUS_VALUES_MAX];
	struct session_reply reply;
	char err[128];
	/* an exact-size copy: ASan sees a read past the message */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	if (dbus_msg_size(copy, size) > 0 && dbus_msg_parse(copy, size, &m) == 0) {
		(void)dbus_body_strings(&m, strings, 1);
		(void)dbus_body_strings(&m, strings, 2);
		(void)dbus_body_strings(&m, strings, 3);
		(void)dbus_body_u32(&m, &u);
		(void)dbus_body_bool(&m, &b);
		(void)dbus_body_read(&m, m.signature ? m.signature : "", v);
		if (session_reply_parse(&m, &reply, err, sizeof err) == 0 &&
		    (reply.fd_index >= m.unix_fds || reply.vtnr > 63))
			abort();
		if (dbus_body_transient_unit(&m, &t) == 0 && t.pid_count > DBUS_TRANSIENT_PIDS_MAX)
			abort();
	}
	free(copy);
	return 0;
}
