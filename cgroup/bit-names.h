#ifndef EMBER_CGROUP_BIT_NAMES_H
#define EMBER_CGROUP_BIT_NAMES_H
/* Tables that give single bits their kernel names: the cgroup2 mount options (mount.c)
 * and the controllers (service-parse.c). */
#include <stddef.h>

struct cg_bit_name {
	unsigned bit;
	const char *name;
};

/* The name of bit in table[0..count); "?" when it has none. */
const char *cg_bit_name(const struct cg_bit_name *table, size_t count, unsigned bit);
/* The bits table names among the words of text, split at any byte of seps; other words
 * are ignored. */
unsigned cg_bits_named(const struct cg_bit_name *table, size_t count, const char *text,
		       const char *seps);
#endif
