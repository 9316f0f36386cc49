#include "id128.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004 /* Linux 5.6: the pool's bytes even before it is ready */
#endif

/* PID 1 must not wait for entropy: GRND_INSECURE where the kernel has it, else only what
 * is there now. An invocation ID needs to be unique, not secret. */
static bool random_bytes(uint8_t *b, size_t n, bool may_block)
{
	if (may_block)
		return getrandom(b, n, 0) == (ssize_t)n;
	if (getrandom(b, n, GRND_INSECURE) == (ssize_t)n)
		return true;
	return errno == EINVAL && getrandom(b, n, GRND_NONBLOCK) == (ssize_t)n;
}

bool id128_draw(char *id, bool may_block)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t b[16];

	if (!random_bytes(b, sizeof b, may_block))
		return false;
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
	for (int i = 0; i < 16; i++) {
		id[2 * i] = hex[b[i] >> 4];
		id[2 * i + 1] = hex[b[i] & 15];
	}
	id[ID128_HEX_LEN] = '\0';
	return true;
}

bool id128_valid(const char *s)
{
	return strlen(s) == ID128_HEX_LEN && strspn(s, "0123456789abcdef") == ID128_HEX_LEN;
}
