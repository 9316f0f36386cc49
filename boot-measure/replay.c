#include "replay.h"

#include <string.h>

static bool pcr_resets_to_ones(unsigned pcr)
{
	return pcr >= 17 && pcr <= 22; /* the dynamic-launch PCRs */
}

void replay_init(struct pcr_values *v, const uint16_t *algs, unsigned n_banks)
{
	memset(v, 0, sizeof *v);
	if (n_banks > CEL_MAX_BANKS)
		n_banks = CEL_MAX_BANKS;
	v->n_banks = n_banks;
	memcpy(v->algs, algs, n_banks * sizeof algs[0]);
	for (unsigned b = 0; b < n_banks; b++)
		for (unsigned pcr = 0; pcr < PCR_COUNT; pcr++)
			if (pcr_resets_to_ones(pcr))
				memset(v->value[b][pcr], 0xFF, HASH_MAX_SIZE);
}

static unsigned digest_size(uint16_t alg)
{
	const struct hash_alg *a = hash_alg_by_id(alg);
	return a ? a->size : 0;
}

int replay_extend(struct pcr_values *v, const struct cel_record *rec, replay_hash_fn hash,
		  void *ctx, uint16_t *missing_alg)
{
	uint8_t joined[2 * HASH_MAX_SIZE];

	for (unsigned b = 0; b < v->n_banks; b++) {
		const struct cel_digest *d = cel_find_digest(rec, v->algs[b]);
		unsigned size = digest_size(v->algs[b]);
		if (!d || size == 0) {
			*missing_alg = v->algs[b];
			return -1;
		}
		memcpy(joined, v->value[b][rec->pcr], size);
		memcpy(joined + size, d->bytes, size);
		if (hash(ctx, v->algs[b], joined, 2 * size, v->value[b][rec->pcr]) < 0)
			return -2;
	}
	v->pcr_mask |= 1u << rec->pcr;
	return 0;
}

int replay_check_content(const struct pcr_values *v, const struct cel_record *rec,
			 replay_hash_fn hash, void *ctx, uint16_t *bad_alg)
{
	uint8_t computed[HASH_MAX_SIZE];

	if (!cel_digest_covers_string(rec))
		return 0;
	for (unsigned b = 0; b < v->n_banks; b++) {
		const struct cel_digest *d = cel_find_digest(rec, v->algs[b]);
		unsigned size = digest_size(v->algs[b]);
		if (!d || size == 0)
			continue; /* replay_extend reports it */
		if (hash(ctx, v->algs[b], rec->string, rec->string_len, computed) < 0)
			return -2;
		if (memcmp(computed, d->bytes, size) != 0) {
			*bad_alg = v->algs[b];
			return 1;
		}
	}
	return 0;
}

bool replay_first_difference(const struct pcr_values *expected, const struct pcr_values *actual,
			     unsigned *pcr, unsigned *bank)
{
	for (unsigned p = 0; p < PCR_COUNT; p++) {
		if (!(expected->pcr_mask & (1u << p)))
			continue;
		for (unsigned b = 0; b < expected->n_banks; b++) {
			unsigned size = digest_size(expected->algs[b]);
			if (memcmp(expected->value[b][p], actual->value[b][p], size) != 0) {
				*pcr = p;
				*bank = b;
				return true;
			}
		}
	}
	return false;
}
