// sources: init/cmdline.c
/* The kernel command line and init.conf as ember-init reads them. */
#include "fuzz.h"
#include "cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct boot_options o;
	char *text = fuzz_string(data, size);

	cmdline_parse(text, &o);
	if (o.run[0] && o.run[0] != '/')
		abort();
	free(text);
	return 0;
}
