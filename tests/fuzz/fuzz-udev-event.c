// sources: udevwants/udev-event.c
/* udev's netlink events and database entries (ember-udev-wants): a message whose sender
 * passed the credential check is still parsed as untrusted. What is returned is bounded:
 * strings NUL-terminated within their buffers, and every word of the wants list either a
 * valid unit name or refused. */
#include "fuzz.h"
#include "udev-wants.h"

static void check(const struct udev_device_wants *w)
{
	char name[64], bad[256];
	size_t pos = 0;
	int r;

	if (!memchr(w->devpath, '\0', sizeof w->devpath) || !memchr(w->wants, '\0', sizeof w->wants))
		abort();
	while ((r = udev_wants_next(w->wants, &pos, name, sizeof name, bad, sizeof bad)) != 0)
		if (pos > strlen(w->wants))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[16385];
	struct udev_device_wants w;
	char err[160];

	if (udev_event_parse((const char *)data, size, &w, err, sizeof err) == 1)
		check(&w);
	if (size < sizeof text) {
		memcpy(text, data, size);
		text[size] = '\0';
		if (udev_db_parse("c1:1", text, &w, err, sizeof err) == 1)
			check(&w);
	}
	return 0;
}
