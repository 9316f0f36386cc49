#include "algs.h"
#include "parse.h"

#include <string.h>

static const struct hash_alg known_algs[] = {
	{ 0x0004, "sha1", 20 },
	{ 0x000B, "sha256", 32 },
	{ 0x000C, "sha384", 48 },
	{ 0x000D, "sha512", 64 },
	{ 0x0012, "sm3_256", 32 },
	{ 0x0027, "sha3_256", 32 },
	{ 0x0028, "sha3_384", 48 },
	{ 0x0029, "sha3_512", 64 },
};

const struct hash_alg *hash_alg_by_id(uint16_t id)
{
	for (size_t i = 0; i < sizeof known_algs / sizeof known_algs[0]; i++)
		if (known_algs[i].id == id)
			return &known_algs[i];
	return NULL;
}

const struct hash_alg *hash_alg_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof known_algs / sizeof known_algs[0]; i++)
		if (strcmp(known_algs[i].name, name) == 0)
			return &known_algs[i];
	return NULL;
}

const char *hash_alg_name(uint16_t id)
{
	const struct hash_alg *alg = hash_alg_by_id(id);
	return alg ? alg->name : "unknown";
}

void hex_encode(const uint8_t *bytes, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}

int hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t size)
{
	if (hex_len != 2 * size)
		return -1;
	for (size_t i = 0; i < size; i++) {
		int hi = hex_digit_value(hex[2 * i]), lo = hex_digit_value(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}
