#ifndef BOOT_MEASURE_REPLAY_H
#define BOOT_MEASURE_REPLAY_H
/* Replaying the log: start every PCR of every bank at its reset value and fold each
 * record in as new = H(old || digest). Hashing is the caller's (the TPM's, in
 * boot-measure), so this file stays free of crypto and of tss2. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel.h"

#define PCR_COUNT (CEL_MAX_PCR + 1)

/* Hash len bytes with algorithm alg into out (the algorithm's size). Returns 0 or -1. */
typedef int (*replay_hash_fn)(void *ctx, uint16_t alg, const void *data, size_t len, uint8_t *out);

struct pcr_values {
	unsigned n_banks;
	uint16_t algs[CEL_MAX_BANKS];
	uint32_t pcr_mask; /* the PCRs that were replayed (or read) */
	uint8_t value[CEL_MAX_BANKS][PCR_COUNT][HASH_MAX_SIZE];
};

/* Every PCR at its value after TPM2_Startup(CLEAR) at locality 0: PCRs 17-22 all ones,
 * the rest zero. pcr_mask starts empty. */
void replay_init(struct pcr_values *v, const uint16_t *algs, unsigned n_banks);

/* Fold one record into every bank. A record without a digest for one of the banks
 * cannot be replayed (that bank was then either not extended, or the record forged):
 * -1 with *missing_alg set. -2 when hashing failed. */
int replay_extend(struct pcr_values *v, const struct cel_record *rec, replay_hash_fn hash,
		  void *ctx, uint16_t *missing_alg);

/* For records whose digests cover content.string: does each digest of one of the
 * banks equal H(string)? 0 yes, 1 no (*bad_alg set), -2 hashing failed. */
int replay_check_content(const struct pcr_values *v, const struct cel_record *rec,
			 replay_hash_fn hash, void *ctx, uint16_t *bad_alg);

/* The first (lowest PCR, then bank order) PCR in expected->pcr_mask whose value
 * differs from actual's. Both must hold the same banks in the same order. */
bool replay_first_difference(const struct pcr_values *expected, const struct pcr_values *actual,
			     unsigned *pcr, unsigned *bank);
#endif
