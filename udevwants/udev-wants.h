#ifndef EMBER_UDEVWANTS_H
#define EMBER_UDEVWANTS_H
/* ember-udev-wants (ember-udev-wants(8), docs/services.md "Units udev asks for"): the
 * units a device's udev rules ask for with SYSTEMD_WANTS= are started when udev has
 * processed the device, as systemd does for a device tagged "systemd". Pure parsing
 * here (udev-event.c); the sockets and the requests to ember-init in main.c. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UDEV_MSG_MAX 8192     /* a udev event with more is not read whole: refused */
#define UDEV_WANTS_MAX 512    /* SYSTEMD_WANTS= bytes kept */
#define UDEV_DEVPATH_MAX 512

/* What one device (an event, or its entry in udev's database) asks for. */
struct udev_device_wants {
	char devpath[UDEV_DEVPATH_MAX]; /* DEVPATH=, or "db:ID" for a database entry */
	char wants[UDEV_WANTS_MAX];     /* SYSTEMD_WANTS=, words as udev wrote them */
	bool removed;                   /* ACTION=remove: the device went away (wants: what
					 * it wanted, if it was tagged "systemd") */
};

/* One datagram of udev's netlink group ("libudev" header, then NUL-separated
 * KEY=VALUE). 1: a device tagged "systemd" that is ready (SYSTEMD_READY is not 0), or
 * removed; 0: an event that asks for nothing; -1: not a well-formed udev message (why
 * in err). The sender is checked by the caller. */
int udev_event_parse(const char *buf, size_t len, struct udev_device_wants *out, char *err,
		     size_t errlen);

/* udev's database entry of one device (/run/udev/data/ID: "E:KEY=VALUE" lines, "G:" and
 * "Q:" tags), its id for the key. 1, 0 or -1 as above. */
int udev_db_parse(const char *id, const char *text, struct udev_device_wants *out, char *err,
		  size_t errlen);

/* The next unit of a SYSTEMD_WANTS= list into name, canonical (a word without a suffix
 * is a service, as systemd's name mangling makes it), from *pos. 1 with name set, 0 at the end, -1 for a word that is not a unit name (skipped: *pos
 * moves past it, bad holds it, escaped for logging). */
int udev_wants_next(const char *list, size_t *pos, char *name, size_t size, char *bad,
		    size_t badsize);

/* Which devices' wants were started already: a device whose list is the same as last
 * time is not asked for again (a "change" event repeats it), a new list is. Bounded:
 * the oldest entry gives way. */
#define UDEV_SEEN_MAX 256
struct udev_seen {
	uint64_t key[UDEV_SEEN_MAX];  /* hash of the devpath */
	uint64_t list[UDEV_SEEN_MAX]; /* hash of its wants */
	size_t next;
};
/* true when the wants of w are new (and they are remembered); a removed device is
 * forgotten and false. */
bool udev_seen_update(struct udev_seen *s, const struct udev_device_wants *w);
#endif
