// sources: modload/modprobe.c modload/names.c modload/util.c
/* modprobe.d files: blacklist, options, aliases, softdeps. */
#include "fuzz.h"
#include "modprobe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct modprobe_conf c;
	struct strvec out = { 0 };
	char *text = fuzz_string(data, size);

	memset(&c, 0, sizeof c);
	modprobe_conf_parse(text, "fuzz.conf", &c);
	modprobe_blacklisted(&c, "snd_hda");
	modprobe_options(&c, "e1000");
	modprobe_softdep(&c, "ext4");
	modprobe_alias_match(&c, "pci:v00008086d00001237sv*", &out);
	strvec_free(&out);
	modprobe_conf_free(&c);
	free(text);
	return 0;
}
