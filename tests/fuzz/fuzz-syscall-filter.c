// sources: sandbox/seccomp.c sandbox/seccomp-args.c
/* The seccomp keys' values from unit files, as ember-sandbox receives them: each input
 * line is one option ("--system-call-filter=..." and friends, chosen by its first byte),
 * then the BPF programs are built (not installed). */
#include "fuzz.h"
#include "seccomp.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const options[] = {
		"--system-call-filter=", "--system-call-error-number=",
		"--system-call-architectures=", "--restrict-address-families=",
		"--restrict-namespaces=", "--memory-deny-write-execute", "--restrict-realtime",
		"--lock-personality", "--restrict-suid-sgid", "--protect-hostname",
		"--protect-kernel-logs", "--protect-clock",
	};
	static struct seccomp_request r;
	char *text = fuzz_string(data, size), *save = NULL, err[256];
	static char arg[8192];

	seccomp_request_init(&r);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *option = options[(unsigned char)line[0] % (sizeof options / sizeof *options)];
		snprintf(arg, sizeof arg, "%s%s", option, line + 1);
		seccomp_option(&r, arg, err, sizeof err);
	}
	seccomp_install(&r, false, err, sizeof err);
	free(text);
	return 0;
}
