// sources:
/* Calendar events (lib/calendar.c), which PID 1 parses and searches for every calendar
 * timer: any text is parsed or refused with a reason; an event that parses has a
 * normalized form that reads back to the same event; the search ends (bounded) and
 * every elapse it finds is later than the time it started from. */
#include "fuzz.h"
#include "calendar.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const long long bases[] = { 0, 1796460000, 4102444799, 7258118399 };
	struct calendar_spec spec, again;
	char err[128], normal[CALENDAR_TEXT_MAX];
	char *text = fuzz_string(data, size);

	setenv("TZ", size % 2 ? "UTC" : "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	if (calendar_parse(text, &spec, err, sizeof err) < 0) {
		if (!err[0])
			abort(); /* a refusal always says why */
		free(text);
		return 0;
	}
	if (calendar_format(&spec, normal, sizeof normal) == 0 &&
	    (calendar_parse(normal, &again, err, sizeof err) < 0 ||
	     memcmp(&again, &spec, sizeof spec) != 0))
		abort(); /* the normalized form is the same event */
	for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
		long long next;
		if (calendar_next(&spec, bases[i], &next) == 0 && next <= bases[i])
			abort();
	}
	free(text);
	return 0;
}
