// sources: boot-measure/cel.c boot-measure/jsonread.c boot-measure/algs.c
/* The TCG canonical event log boot-measure replays: a record read back formats and
 * reads back again to the same values. */
#include "fuzz.h"
#include "cel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cel_reader r;
	struct cel_record rec, again;
	const char *json, *why;
	size_t len;
	int rc;

	cel_reader_init(&r, (const char *)data, size);
	while ((rc = cel_next(&r, &rec, &json, &len, &why)) == 1) {
		char *text;
		size_t tlen;
		if (cel_format_record(&rec, &text, &tlen) < 0)
			continue;
		if (cel_parse_record(text + 1, tlen - 2, &again, &why) < 0 ||
		    again.timestamp != rec.timestamp || again.pcr != rec.pcr)
			abort();
		free(text);
	}
	return 0;
}
