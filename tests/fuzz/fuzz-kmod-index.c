// sources: modload/kmodindex.c modload/util.c modload/names.c
/* depmod's binary trie (modules.alias.bin and friends): exact and wildcard lookups
 * never read outside the file and never expand a node twice. */
#include "fuzz.h"
#include "kmodindex.h"

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct strvec out = { 0 };
	struct kmod_index *ix;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof path, "/tmp/ember-fuzz-kmod.%d", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	ix = kmod_index_open(path);
	if (!ix)
		return 0;
	kmod_index_get(ix, "ext4", &out);
	kmod_index_match(ix, "pci:v00008086d00001237sv00001AF4sd00001100bc06sc00i00", &out);
	if (kmod_index_last_visits(ix) > size)
		abort();
	kmod_index_match(ix, "***", &out);
	if (kmod_index_last_visits(ix) > size)
		abort();
	strvec_free(&out);
	kmod_index_close(ix);
	return 0;
}
