// sources: modload/loadconf.c modload/cmdline.c modload/confdirs.c modload/names.c modload/util.c
/* modules-load.d files, and the kernel command line as ember-modload reads it
 * (modules_load=, module_blacklist=, mod.param=). */
#include "fuzz.h"
#include "cmdline.h"
#include "loadconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct request_list l;
	struct cmdline c;
	char *text = fuzz_string(data, size);

	memset(&l, 0, sizeof l);
	modules_load_parse(text, "fuzz.conf", &l);
	request_list_free(&l);
	memset(&c, 0, sizeof c);
	cmdline_parse(text, size & 1, &c);
	cmdline_free(&c);
	free(text);
	return 0;
}
