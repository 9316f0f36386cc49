// sources: netnat/conffile.c netnat/entry.c
/* netnat's configuration file. */
#include "fuzz.h"
#include "conffile.h"
#include "entry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nat_state s;
	struct nat_error err;

	nat_state_init(&s);
	conf_parse((const char *)data, size, &s, &err);
	nat_state_free(&s);
	return 0;
}
