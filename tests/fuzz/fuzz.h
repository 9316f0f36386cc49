#ifndef EMBER_FUZZ_H
#define EMBER_FUZZ_H
/* Shared bits of the libFuzzer harnesses (tests/fuzz/README.md). Each harness feeds one
 * parser of untrusted input; ASan and UBSan turn any memory or arithmetic error into a
 * crash libFuzzer reports. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (parsers of C strings); free() it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
#endif
