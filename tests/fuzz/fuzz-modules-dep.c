// sources: modload/depindex.c modload/kmodindex.c modload/modprobe.c modload/names.c modload/util.c
/* modules.dep and modules.alias text, line by line and as a whole index. */
#include "fuzz.h"
#include "depindex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strmap m = { 0 };
	struct strvec out = { 0 };
	struct depinfo info;
	char *text = fuzz_string(data, size), *copy = fuzz_string(data, size);

	if (depline_parse(text, &info))
		depinfo_free(&info);
	dep_text_index(copy, &m);
	strmap_free(&m);
	alias_text_match(text, "pci:v00008086d00001237", &out);
	strvec_free(&out);
	free(text);
	free(copy);
	return 0;
}
