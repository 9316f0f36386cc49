/* The few unit properties callers of systemd read before they act: systemd-logind asks
 * for poweroff.target's LoadState (is it masked?) before it powers off. They are read
 * from ember-init's status of the unit, by its object path as systemd names it:
 * /org/freedesktop/systemd1/unit/ and the name with every byte outside [A-Za-z0-9]
 * written as _XX (hex). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "activator.h"
#include "ctl-client.h"
#include "parse.h"
#include "unit-name.h"

#define UNIT_PATH_PREFIX "/org/freedesktop/systemd1/unit/"
#define UNIT_IFACE "org.freedesktop.systemd1.Unit"
#define CONTROL_TIMEOUT_MS 5000

/* The unit name an object path stands for, into out. 0, or -1 when the path is not a
 * unit's or does not decode to a valid unit name. */
int unit_of_path(const char *path, char *out, size_t size)
{
	const char *p = path + strlen(UNIT_PATH_PREFIX);
	size_t n = 0;

	if (strncmp(path, UNIT_PATH_PREFIX, strlen(UNIT_PATH_PREFIX)) != 0 || !*p)
		return -1;
	for (; *p; p++) {
		char c = *p;
		if (c == '_') {
			int hi = hex_digit_value(p[1]), lo = hi < 0 ? -1 : hex_digit_value(p[2]);
			if (lo < 0)
				return -1;
			c = (char)(hi << 4 | lo);
			p += 2;
		}
		if (c == '\0' || n + 1 >= size)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

void unit_path_of(const char *unit, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = (size_t)snprintf(out, size, "%s", UNIT_PATH_PREFIX);

	for (const unsigned char *c = (const unsigned char *)unit; *c && n + 4 < size; c++) {
		bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9');
		if (plain) {
			out[n++] = (char)*c;
			continue;
		}
		out[n++] = '_';
		out[n++] = hex[*c >> 4];
		out[n++] = hex[*c & 15];
	}
	out[n] = '\0';
}

/* What systemd would say of a unit ember-init has not loaded (systemd loads one when
 * asked about it). The power targets are loaded as far as anybody asking can tell:
 * ember-init carries them out itself (poweroff, reboot, halt), and logind refuses to
 * power off unless poweroff.target's LoadState is "loaded". Any other unit is loaded
 * when its file is there, as emberctl is-enabled finds it ("static", "enabled", ...),
 * and masked when masked: logind answers CanSuspend "no" unless suspend.target is
 * loaded, and a phone shell then offers no suspend. file_state: emberctl's answer
 * already asked for, or NULL to ask (one emberctl run per question). */
static const char *unloaded_value(const char *unit, const char *property,
				  const char *file_state)
{
	bool power = strcmp(unit, "poweroff.target") == 0 || strcmp(unit, "reboot.target") == 0 ||
		     strcmp(unit, "halt.target") == 0;
	char state[64];

	if (strcmp(property, "LoadState") != 0)
		return strcmp(property, "ActiveState") == 0 ? "inactive" : "dead";
	if (power)
		return "loaded";
	if (!file_state) {
		unit_file_state(unit, state, sizeof state);
		file_state = state;
	}
	if (strncmp(file_state, "masked", 6) == 0)
		return "masked";
	return file_state[0] && strcmp(file_state, "not-found") != 0 &&
	       strcmp(file_state, "bad") != 0 ? "loaded" : "not-found";
}

bool unit_property(struct activator *a, const struct dbus_msg *m)
{
	static const char *const fields[][2] = {
		{ "LoadState", "load_state" }, { "ActiveState", "active_state" },
		{ "SubState", "sub_state" },
	};
	const char *args[2], *field = NULL;
	char unit[256], name[CTL_NAME_MAX], value[64], err[CTL_PACKET_MAX];
	int status;

	if (!m->path || dbus_body_strings(m, args, 2) < 0 || strcmp(args[0], UNIT_IFACE) != 0)
		return false;
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (strcmp(args[1], fields[i][0]) == 0)
			field = fields[i][1];
	if (!field || unit_of_path(m->path, unit, sizeof unit) < 0)
		return false;
	if (strlen(unit) > 6 && strcmp(unit + strlen(unit) - 6, ".scope") == 0) { /* sessions */
		reply_return(a, m, "v", scope_property(a, unit, args[1]));
		return true;
	}
	if (unit_name_canonical(unit, name, sizeof name, NULL) < 0 || !ctl_name_valid(name)) {
		reply_return(a, m, "v", unloaded_value("", args[1], ""));
		return true;
	}
	status = ember_request(a->control, CTL_STATUS, name, CONTROL_TIMEOUT_MS, field, value,
			       sizeof value, err, sizeof err);
	if (status < 0) {
		reply_error(a, m, "org.freedesktop.DBus.Error.Failed", err);
		return true;
	}
	reply_return(a, m, "v", status == 0 && value[0] ? value : unloaded_value(name, args[1], NULL));
	return true;
}

/* The values of Properties.GetAll: what ember-init says of the unit, and emberctl's
 * unit-file state. systemd-timedated reads LoadState, ActiveState and UnitFileState of
 * the NTP daemon's unit this way before it reports or switches automatic time. */
bool unit_properties_all(struct activator *a, const struct dbus_msg *m)
{
	static const char *const keys[] = { "Id", "LoadState", "ActiveState", "SubState",
					    "UnitFileState" };
	static const char *const fields[] = { "load_state", "active_state", "sub_state" };
	char unit[256], name[CTL_NAME_MAX], got[3][64], file_state[64], err[CTL_PACKET_MAX];
	const char *values[5], *args[1];
	uint8_t buf[1024];
	struct dbus_body body = { buf, 0, sizeof buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .reply_serial = m->serial,
			      .destination = m->sender, .signature = "a{sv}", .body = &body };

	if (!m->path || dbus_body_strings(m, args, 1) < 0 ||
	    (args[0][0] && strcmp(args[0], UNIT_IFACE) != 0) || unit_of_path(m->path, unit, sizeof unit) < 0 ||
	    unit_name_canonical(unit, name, sizeof name, NULL) < 0 || !ctl_name_valid(name))
		return false;
	unit_file_state(unit, file_state, sizeof file_state);
	for (size_t i = 0; i < 3; i++) {
		int status = ember_request(a->control, CTL_STATUS, name, CONTROL_TIMEOUT_MS, fields[i],
					   got[i], sizeof got[i], err, sizeof err);
		if (status != 0 || !got[i][0])
			snprintf(got[i], sizeof got[i], "%s",
				 unloaded_value(name, keys[i + 1], file_state));
	}
	values[0] = unit;
	values[1] = got[0];
	values[2] = got[1];
	values[3] = got[2];
	values[4] = file_state;
	dbus_put_dict_sv(&body, keys, values, 5);
	if (!(m->flags & NO_REPLY_EXPECTED))
		bus_send(a, &o);
	return true;
}
