// sources: udevwants/udev-event.c lib/unit-name.c lib/ctl.c lib/escape.c
/* ember-udev-wants' reading of udev (udevwants/udev-event.c): the netlink message as
 * udevd sends it (libudev header, NUL-separated properties), hostile ones (short, wrong
 * magic, properties outside the datagram, an unterminated last property, oversized
 * values), the database entry, the words of SYSTEMD_WANTS=, and the table that keeps a
 * "change" event from asking again. */
#include "harness.h"
#include "../../udevwants/udev-wants.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>

static char msg[UDEV_MSG_MAX];
static struct udev_device_wants w;
static char err[160];

/* A message as udevd makes it: header, then the properties (each "K=V\0"). */
static size_t build(const char *const *props, uint32_t magic)
{
	uint32_t h[10] = { 0 };
	size_t pos = sizeof h, start = pos;

	memcpy(h, "libudev", 8);
	h[2] = htonl(magic);
	h[3] = sizeof h;
	for (size_t i = 0; props[i]; i++) {
		size_t n = strlen(props[i]) + 1;
		memcpy(msg + pos, props[i], n);
		pos += n;
	}
	h[4] = (uint32_t)start;
	h[5] = (uint32_t)(pos - start);
	memcpy(msg, h, sizeof h);
	return pos;
}

static const char *const controller[] = {
	"ACTION=add", "DEVPATH=/devices/virtual/bluetooth/hci0", "SUBSYSTEM=bluetooth",
	"TAGS=:systemd:", "CURRENT_TAGS=:systemd:",
	"SYSTEMD_WANTS=bluetooth.target", "SEQNUM=1234", NULL
};

static void controller_asks_for_bluetooth(void)
{
	size_t n = build(controller, 0xfeedcafe);

	CHECK(udev_event_parse(msg, n, &w, err, sizeof err) == 1);
	CHECK_STR(w.devpath, "/devices/virtual/bluetooth/hci0");
	CHECK_STR(w.wants, "bluetooth.target");
	CHECK(!w.removed);
}

static void untagged_or_not_ready_asks_nothing(void)
{
	const char *const untagged[] = { "ACTION=add", "DEVPATH=/devices/x", "TAGS=:seat:",
					 "SYSTEMD_WANTS=evil.service", NULL };
	const char *const not_ready[] = { "ACTION=add", "DEVPATH=/devices/x", "TAGS=:systemd:",
					  "SYSTEMD_READY=0", "SYSTEMD_WANTS=a.service", NULL };
	/* once tagged (TAGS is sticky), not any more in this event (CURRENT_TAGS) */
	const char *const dropped[] = { "ACTION=change", "DEVPATH=/devices/x", "TAGS=:systemd:",
					"CURRENT_TAGS=:seat:", "SYSTEMD_WANTS=a.service", NULL };

	CHECK(udev_event_parse(msg, build(untagged, 0xfeedcafe), &w, err, sizeof err) == 0);
	CHECK(udev_event_parse(msg, build(not_ready, 0xfeedcafe), &w, err, sizeof err) == 0);
	CHECK(udev_event_parse(msg, build(dropped, 0xfeedcafe), &w, err, sizeof err) == 0);
}

static void removal_is_said(void)
{
	const char *const gone[] = { "ACTION=remove", "DEVPATH=/devices/virtual/bluetooth/hci0",
				     "TAGS=:systemd:", NULL };

	/* what it wanted, to be let go; an untagged device's words are not taken */
	const char *const gone_wanting[] = { "ACTION=remove", "DEVPATH=/devices/virtual/bluetooth/hci0",
					     "TAGS=:systemd:", "SYSTEMD_READY=0",
					     "SYSTEMD_WANTS=bluetooth.target", NULL };
	const char *const gone_untagged[] = { "ACTION=remove", "DEVPATH=/devices/x", "TAGS=:seat:",
					      "SYSTEMD_WANTS=user-runtime-dir@0.service", NULL };

	CHECK(udev_event_parse(msg, build(gone, 0xfeedcafe), &w, err, sizeof err) == 1);
	CHECK(w.removed);
	CHECK_STR(w.wants, "");
	CHECK(udev_event_parse(msg, build(gone_wanting, 0xfeedcafe), &w, err, sizeof err) == 1);
	CHECK(w.removed);
	CHECK_STR(w.wants, "bluetooth.target");
	CHECK(udev_event_parse(msg, build(gone_untagged, 0xfeedcafe), &w, err, sizeof err) == 1);
	CHECK(w.removed);
	CHECK_STR(w.wants, "");
	/* a list too long to have been started: the removal still counts, nothing to let go */
	static char long_wants[UDEV_WANTS_MAX + 32] = "SYSTEMD_WANTS=";
	memset(long_wants + 14, 'a', UDEV_WANTS_MAX + 10);
	const char *const gone_long[] = { "ACTION=remove", "DEVPATH=/devices/x", "TAGS=:systemd:",
					  long_wants, NULL };
	CHECK(udev_event_parse(msg, build(gone_long, 0xfeedcafe), &w, err, sizeof err) == 1);
	CHECK(w.removed);
	CHECK_STR(w.wants, "");
}

static void hostile_messages_refused(void)
{
	size_t n = build(controller, 0xfeedcafe);
	uint32_t off;

	/* the kernel's own format, a wrong magic, too short */
	CHECK(udev_event_parse("add@/devices/x\0ACTION=add", 25, &w, err, sizeof err) < 0);
	CHECK(udev_event_parse(msg, build(controller, 0xdeadbeef), &w, err, sizeof err) < 0);
	n = build(controller, 0xfeedcafe);
	CHECK(udev_event_parse(msg, 20, &w, err, sizeof err) < 0);
	/* properties said to lie past the datagram, or to start inside the header */
	off = 0xfffffff0u;
	memcpy(msg + 16, &off, 4);
	CHECK(udev_event_parse(msg, n, &w, err, sizeof err) < 0);
	n = build(controller, 0xfeedcafe);
	off = 1000000;
	memcpy(msg + 20, &off, 4);
	CHECK(udev_event_parse(msg, n, &w, err, sizeof err) < 0);
	n = build(controller, 0xfeedcafe);
	off = 4;
	memcpy(msg + 16, &off, 4);
	CHECK(udev_event_parse(msg, n, &w, err, sizeof err) < 0);
	/* a datagram cut inside the properties the header announces: refused */
	n = build(controller, 0xfeedcafe);
	CHECK(udev_event_parse(msg, n - 1, &w, err, sizeof err) < 0);
	/* the last property without its NUL, the header saying so: read within the length */
	memcpy(&off, msg + 20, 4);
	off -= 1;
	memcpy(msg + 20, &off, 4);
	CHECK(udev_event_parse(msg, n - 1, &w, err, sizeof err) == 1);
	CHECK_STR(w.devpath, "/devices/virtual/bluetooth/hci0");
}

static void oversized_values_refused(void)
{
	static char big[UDEV_WANTS_MAX + 32], path[UDEV_DEVPATH_MAX + 32];
	const char *const wants[] = { "ACTION=add", "DEVPATH=/devices/x", "TAGS=:systemd:", big, NULL };
	const char *const devpath[] = { "ACTION=add", path, "TAGS=:systemd:", "SYSTEMD_WANTS=a.target", NULL };

	strcpy(big, "SYSTEMD_WANTS=");
	memset(big + 14, 'a', sizeof big - 15);
	CHECK(udev_event_parse(msg, build(wants, 0xfeedcafe), &w, err, sizeof err) < 0);
	strcpy(path, "DEVPATH=/");
	memset(path + 9, 'd', sizeof path - 10);
	CHECK(udev_event_parse(msg, build(devpath, 0xfeedcafe), &w, err, sizeof err) < 0);
}

static void database_entry(void)
{
	CHECK(udev_db_parse("+bluetooth:hci0",
			    "I:123\nE:SYSTEMD_WANTS=bluetooth.target\nE:SYSTEMD_ALIAS=/sys/x\nG:systemd\nQ:systemd\nV:1\n",
			    &w, err, sizeof err) == 1);
	CHECK_STR(w.devpath, "db:+bluetooth:hci0");
	CHECK_STR(w.wants, "bluetooth.target");
	/* not tagged systemd, or not ready: nothing */
	CHECK(udev_db_parse("c1:1", "E:SYSTEMD_WANTS=a.service\nG:seat\n", &w, err, sizeof err) == 0);
	CHECK(udev_db_parse("c1:2", "E:SYSTEMD_WANTS=a.service\nE:SYSTEMD_READY=0\nG:systemd\n", &w,
			    err, sizeof err) == 0);
	/* "G:systemdx" is another tag */
	CHECK(udev_db_parse("c1:3", "E:SYSTEMD_WANTS=a.service\nG:systemdx\n", &w, err, sizeof err) == 0);
}

static void wants_words(void)
{
	const char *list = " bluetooth.target  systemd-backlight@backlight:acpi_video0.service ../../etc/x plain \t";
	char name[64], bad[256];
	size_t pos = 0;

	CHECK(udev_wants_next(list, &pos, name, sizeof name, bad, sizeof bad) == 1);
	CHECK_STR(name, "bluetooth.target");
	CHECK(udev_wants_next(list, &pos, name, sizeof name, bad, sizeof bad) == 1);
	CHECK_STR(name, "systemd-backlight@backlight:acpi_video0");
	CHECK(udev_wants_next(list, &pos, name, sizeof name, bad, sizeof bad) == -1);
	CHECK_STR(bad, "../../etc/x");
	CHECK(udev_wants_next(list, &pos, name, sizeof name, bad, sizeof bad) == 1);
	CHECK_STR(name, "plain"); /* no suffix: a service, as systemd mangles it */
	CHECK(udev_wants_next(list, &pos, name, sizeof name, bad, sizeof bad) == 0);
	/* a control byte in a word is shown escaped */
	pos = 0;
	CHECK(udev_wants_next("a\033]0;x.target", &pos, name, sizeof name, bad, sizeof bad) == -1);
	CHECK(strchr(bad, '\033') == NULL);
}

static void change_does_not_ask_again(void)
{
	static struct udev_seen seen;
	struct udev_device_wants d = { .devpath = "/devices/x", .wants = "bluetooth.target" };

	CHECK(udev_seen_update(&seen, &d));
	CHECK(!udev_seen_update(&seen, &d));            /* "change": the same list */
	strcpy(d.wants, "bluetooth.target other.service");
	CHECK(udev_seen_update(&seen, &d));             /* a new list */
	d.removed = true;
	CHECK(!udev_seen_update(&seen, &d));            /* gone: forgotten */
	d.removed = false;
	CHECK(udev_seen_update(&seen, &d));             /* back: asked again */
	/* more devices than the table holds: the oldest gives way, nothing breaks */
	for (int i = 0; i < UDEV_SEEN_MAX + 10; i++) {
		snprintf(d.devpath, sizeof d.devpath, "/devices/n%d", i);
		CHECK(udev_seen_update(&seen, &d));
	}
}

int main(void)
{
	RUN(controller_asks_for_bluetooth);
	RUN(untagged_or_not_ready_asks_nothing);
	RUN(removal_is_said);
	RUN(hostile_messages_refused);
	RUN(oversized_values_refused);
	RUN(database_entry);
	RUN(wants_words);
	RUN(change_does_not_ask_again);
	return harness_done();
}
