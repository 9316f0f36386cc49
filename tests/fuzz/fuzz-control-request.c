// sources:
/* Control requests (what any local user sends PID 1) and reply records (what emberctl
 * reads): a parsed request formats back to the same bytes. */
#include "fuzz.h"
#include "ctl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctl_request req;
	struct ctl_record rec;
	char err[256], back[CTL_REQUEST_MAX + 1];
	char *text;
	size_t pos = 0;

	if (ctl_request_parse((const char *)data, size, &req, err, sizeof err) == 0) {
		int n = ctl_request_format(&req, back, sizeof back, err, sizeof err);
		if (n < 0 || (size_t)n != size || memcmp(back, data, size) != 0)
			abort();
	}
	text = fuzz_string(data, size);
	while (ctl_record_read(text, size, &pos, &rec, err, sizeof err) > 0)
		;
	free(text);
	return 0;
}
