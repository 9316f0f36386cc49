#include "bit-names.h"

#include <string.h>

const char *cg_bit_name(const struct cg_bit_name *table, size_t count, unsigned bit)
{
	for (size_t i = 0; i < count; i++)
		if (table[i].bit == bit)
			return table[i].name;
	return "?";
}

/* The bit of the word p[0..len), 0 when the table does not name it. */
static unsigned bit_of_word(const struct cg_bit_name *table, size_t count, const char *p,
			    size_t len)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(table[i].name) == len && memcmp(table[i].name, p, len) == 0)
			return table[i].bit;
	return 0;
}

unsigned cg_bits_named(const struct cg_bit_name *table, size_t count, const char *text,
		       const char *seps)
{
	unsigned bits = 0;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, seps);
		bits |= bit_of_word(table, count, p, len);
		p += len;
		p += strspn(p, seps);
	}
	return bits;
}
