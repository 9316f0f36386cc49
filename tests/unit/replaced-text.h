#ifndef EMBER_TEST_REPLACED_TEXT_H
#define EMBER_TEST_REPLACED_TEXT_H
/* A unit file whose replaced values fill a service's 8 KiB text store, so the parser
 * compacts it while reading: head, then 50 "Description=" lines of 200 bytes each (only
 * the last one stays, all of its bytes REPLACED_TEXT_LAST). The text is static. */
#include <stdio.h>
#include <string.h>

#define REPLACED_TEXT_LAST ('a' + 49 % 26)

static inline const char *unit_with_replaced_text(const char *head)
{
	static char text[16384];
	size_t n = (size_t)snprintf(text, sizeof text, "%s[Unit]\n", head);

	for (int i = 0; i < 50; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "Description=");
		memset(text + n, 'a' + i % 26, 200);
		n += 200;
		text[n++] = '\n';
	}
	text[n] = '\0';
	return text;
}
#endif
