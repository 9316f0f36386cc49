// sources: boot-measure/replay.c boot-measure/cel.c boot-measure/jsonread.c boot-measure/algs.c
/* Replaying the log: reset values, new = H(old || digest) per bank in record order,
 * content re-checks, and the first differing PCR/bank. The hash here is a toy (the real
 * one is the TPM's); replay must only fold through whatever it is given. */
#include "harness.h"
#include "../../boot-measure/replay.h"

#include <stdlib.h>
#include <string.h>

#define SHA1 0x0004
#define SHA256 0x000B

static int hash_calls;

/* FNV-1a spread over the output, salted with the algorithm. */
static int toy_hash(void *ctx, uint16_t alg, const void *data, size_t len, uint8_t *out)
{
	const uint8_t *p = data;
	unsigned size = hash_alg_by_id(alg)->size;
	(void)ctx;
	hash_calls++;
	for (unsigned i = 0; i < size; i++) {
		uint32_t h = 2166136261u ^ alg ^ i;
		for (size_t j = 0; j < len; j++)
			h = (h ^ p[j]) * 16777619u;
		out[i] = (uint8_t)(h >> 8);
	}
	return 0;
}

static int failing_hash(void *ctx, uint16_t alg, const void *data, size_t len, uint8_t *out)
{
	(void)ctx; (void)alg; (void)data; (void)len; (void)out;
	return -1;
}

static const uint16_t banks[] = { SHA1, SHA256 };

static struct cel_record string_record(unsigned pcr, const char *s)
{
	struct cel_record rec;
	memset(&rec, 0, sizeof rec);
	rec.pcr = pcr;
	strcpy(rec.event_type, "phase");
	rec.has_string = true;
	strcpy(rec.string, s);
	rec.string_len = strlen(s);
	rec.n_digests = 2;
	rec.digests[0].alg = SHA1;
	toy_hash(NULL, SHA1, s, strlen(s), rec.digests[0].bytes);
	rec.digests[1].alg = SHA256;
	toy_hash(NULL, SHA256, s, strlen(s), rec.digests[1].bytes);
	return rec;
}

static struct pcr_values *fresh(void)
{
	struct pcr_values *v = malloc(sizeof *v);
	replay_init(v, banks, 2);
	return v;
}

static void starts_from_reset_values(void)
{
	struct pcr_values *v = fresh();
	uint8_t zero[HASH_MAX_SIZE] = { 0 }, ones[HASH_MAX_SIZE];
	memset(ones, 0xff, sizeof ones);
	CHECK(v->n_banks == 2 && v->pcr_mask == 0);
	CHECK(memcmp(v->value[1][11], zero, 32) == 0);
	CHECK(memcmp(v->value[1][0], zero, 32) == 0);
	CHECK(memcmp(v->value[0][17], ones, 20) == 0);
	CHECK(memcmp(v->value[1][22], ones, 32) == 0);
	CHECK(memcmp(v->value[1][23], zero, 32) == 0);
	free(v);
}

static void extends_every_bank_as_hash_of_old_and_digest(void)
{
	struct pcr_values *v = fresh();
	struct cel_record rec = string_record(11, "sysinit");
	uint8_t joined[64] = { 0 }, expect[32];
	uint16_t missing = 0;
	memcpy(joined + 32, rec.digests[1].bytes, 32);
	toy_hash(NULL, SHA256, joined, 64, expect);
	CHECK(replay_extend(v, &rec, toy_hash, NULL, &missing) == 0);
	CHECK(memcmp(v->value[1][11], expect, 32) == 0);
	CHECK(v->pcr_mask == 1u << 11);
	/* sha1 moved too, other PCRs did not */
	CHECK(v->value[0][11][0] != 0 || v->value[0][11][1] != 0);
	CHECK(v->value[1][12][0] == 0);
	free(v);
}

static void order_of_records_matters(void)
{
	struct pcr_values *a = fresh(), *b = fresh();
	struct cel_record r1 = string_record(11, "sysinit"), r2 = string_record(11, "ready");
	unsigned pcr, bank;
	uint16_t missing;
	replay_extend(a, &r1, toy_hash, NULL, &missing);
	replay_extend(a, &r2, toy_hash, NULL, &missing);
	replay_extend(b, &r2, toy_hash, NULL, &missing);
	replay_extend(b, &r1, toy_hash, NULL, &missing);
	CHECK(replay_first_difference(a, b, &pcr, &bank));
	CHECK(pcr == 11 && bank == 0);
	free(a);
	free(b);
}

static void record_missing_a_bank_is_refused(void)
{
	struct pcr_values *v = fresh();
	struct cel_record rec = string_record(11, "ready");
	uint16_t missing = 0;
	rec.n_digests = 1; /* only sha1 */
	CHECK(replay_extend(v, &rec, toy_hash, NULL, &missing) == -1);
	CHECK(missing == SHA256);
	CHECK(v->pcr_mask == 0);
	free(v);
}

static void content_is_checked_against_each_digest(void)
{
	struct pcr_values *v = fresh();
	struct cel_record rec = string_record(11, "ready");
	uint16_t bad = 0;
	CHECK(replay_check_content(v, &rec, toy_hash, NULL, &bad) == 0);
	strcpy(rec.string, "reaDy");
	CHECK(replay_check_content(v, &rec, toy_hash, NULL, &bad) == 1);
	CHECK(bad == SHA1);
	rec = string_record(11, "ready");
	rec.digests[1].bytes[5] ^= 1;
	CHECK(replay_check_content(v, &rec, toy_hash, NULL, &bad) == 1);
	CHECK(bad == SHA256);
	/* a file record's digests cover the file, not a string: nothing to check */
	rec.has_path = true;
	hash_calls = 0;
	CHECK(replay_check_content(v, &rec, toy_hash, NULL, &bad) == 0);
	CHECK(hash_calls == 0);
	free(v);
}

static void hash_failure_is_reported(void)
{
	struct pcr_values *v = fresh();
	struct cel_record rec = string_record(11, "ready");
	uint16_t alg;
	CHECK(replay_extend(v, &rec, failing_hash, NULL, &alg) == -2);
	CHECK(replay_check_content(v, &rec, failing_hash, NULL, &alg) == -2);
	free(v);
}

static void first_difference_is_lowest_pcr_then_bank(void)
{
	struct pcr_values *expected = fresh(), *actual = fresh();
	unsigned pcr = 99, bank = 99;
	expected->pcr_mask = 1u << 11 | 1u << 15;
	CHECK(!replay_first_difference(expected, actual, &pcr, &bank));
	actual->value[1][15][31] = 1;
	actual->value[0][4][0] = 1; /* outside the mask: not compared */
	CHECK(replay_first_difference(expected, actual, &pcr, &bank));
	CHECK(pcr == 15 && bank == 1);
	actual->value[0][11][19] = 7;
	CHECK(replay_first_difference(expected, actual, &pcr, &bank));
	CHECK(pcr == 11 && bank == 0);
	free(expected);
	free(actual);
}

int main(void)
{
	RUN(starts_from_reset_values);
	RUN(extends_every_bank_as_hash_of_old_and_digest);
	RUN(order_of_records_matters);
	RUN(record_missing_a_bank_is_refused);
	RUN(content_is_checked_against_each_digest);
	RUN(hash_failure_is_reported);
	RUN(first_difference_is_lowest_pcr_then_bank);
	return harness_done();
}
