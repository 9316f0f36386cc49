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
		if (session_reply_parse(&m, &reply, err, sizeof err) == 0) {
			/* what reaches the service's environment from the reply */
			static struct session_env env;
			struct session_options o = { .uid = 1000, .uid_set = true, .service = "login",
						     .tty = "/dev/tty2" };
			char *envp[] = { "XDG_SEAT=seat1", "XDG_VTNR=2", NULL };
			struct session_request req;
			int n;

			if (reply.fd_index >= m.unix_fds || reply.vtnr > 63)
				abort();
			session_request_fill(&o, envp, 1, &req);
			n = session_env_build(&reply, &req, &env);
			for (int i = 0; n >= 0 && i < n; i++)
				if (!strchr(env.vars[i], '=') || strchr(env.vars[i], '\n'))
					abort();
			/* a VT is set, or the unit's XDG_VTNR is removed: never both, never neither */
			if (n >= 0 && (reply.vtnr > 0) == ((env.unset[0] && !strcmp(env.unset[0], "XDG_VTNR")) ||
							   (env.unset[1] && !strcmp(env.unset[1], "XDG_VTNR"))))
				abort();
		}
		if (dbus_body_transient_unit(&m, &t) == 0 && t.pid_count > DBUS_TRANSIENT_PIDS_MAX)
			abort();
		{ /* EnableUnitFiles / DisableUnitFiles: the names stay within the array */
			const char *names[4];
			size_t n = 0;
			if (dbus_body_string_array(&m, "asbb", names, 4, &n) == 0 && n > 4)
				abort();
			if (dbus_body_string_array(&m, "asb", names, 4, &n) == 0 && n > 4)
				abort();
			for (size_t i = 0; i < n; i++) /* strlen: ASan sees a name not ended inside */
				if ((const uint8_t *)names[i] < copy ||
				    (const uint8_t *)names[i] + strlen(names[i]) >= copy + size)
					abort();
		}
	}
	free(copy);
	return 0;
}
