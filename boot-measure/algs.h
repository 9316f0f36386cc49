#ifndef BOOT_MEASURE_ALGS_H
#define BOOT_MEASURE_ALGS_H
/* The PCR bank hash algorithms boot-measure knows by name. The ids are the TPM 2.0
 * TPM_ALG_ID values, repeated here so that the log code builds without tss2 headers. */
#include <stddef.h>
#include <stdint.h>

#define HASH_MAX_SIZE 64 /* SHA-512 */

struct hash_alg {
	uint16_t id;      /* TPM_ALG_ID */
	const char *name; /* CEL-JSON "hashAlg" spelling */
	uint16_t size;    /* digest bytes */
};

const struct hash_alg *hash_alg_by_id(uint16_t id);
const struct hash_alg *hash_alg_by_name(const char *name);
/* The name for an id, "unknown" for ids not in the table. */
const char *hash_alg_name(uint16_t id);

/* Lower-case hex of len bytes into out (2*len+1 bytes). */
void hex_encode(const uint8_t *bytes, size_t len, char *out);
/* Exactly 2*size hex digits (either case) into size bytes. Returns 0 or -1. */
int hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t size);
#endif
