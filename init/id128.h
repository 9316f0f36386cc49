#ifndef EMBER_ID128_H
#define EMBER_ID128_H
/* systemd's 128-bit ids (machine ID, invocation ID): a random version 4 UUID written as
 * 32 lower-case hex digits, no dashes. */
#include <stdbool.h>

#define ID128_HEX_LEN 32

/* Draw one into id (ID128_HEX_LEN + 1 bytes). may_block: wait for the kernel's random
 * pool to be ready (the machine ID, once per machine); else never wait, and false when
 * it is not ready yet. */
bool id128_draw(char *id, bool may_block);

/* Is s exactly 32 hex digits? */
bool id128_valid(const char *s);
#endif
