#ifndef BOOT_MEASURE_TPM_H
#define BOOT_MEASURE_TPM_H
/* Everything that talks to the TPM: tss2-sys over a TCTI linked in directly (device,
 * swtpm or mssim; no tctildr, no dlopen, no ESYS, no crypto library). The TPM does all
 * the hashing. Errors are logged here, with the command and the response code. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cel.h"
#include "replay.h"

#define TPM_DEFAULT_TCTI "device:/dev/tpmrm0"
#define TPM_TCTI_ENV "EMBER_MEASURE_TCTI"

enum tpm_result {
	TPM_READY = 0,
	TPM_ABSENT,      /* no TPM at all: nothing to measure into */
	TPM_VERSION_1_2, /* a TPM 1.2, which boot-measure refuses */
	TPM_BROKEN,      /* it exists but failed; already logged */
};

struct tpm;

/* "device[:PATH]", "swtpm[:CONF]" or "mssim[:CONF]". */
int tpm_tcti_valid(const char *spec);
/* Cheap checks that need no TPM command: a device node that is missing means no TPM
 * (or, judging by sysfs, a TPM 1.2). Sockets are only known once connected. */
enum tpm_result tpm_preflight(const char *spec);
enum tpm_result tpm_open(const char *spec, struct tpm **out);
void tpm_close(struct tpm *tpm);

/* The banks with at least one PCR allocated (TPM2_GetCapability(PCRS)). This is the
 * first command sent: it answers TPM_VERSION_1_2 for a TPM 1.2, and sends
 * TPM2_Startup(CLEAR) when nobody did yet. */
enum tpm_result tpm_active_banks(struct tpm *tpm, uint16_t *algs, unsigned *n_banks);

/* Extend pcr with data (at most CEL_STRING_MAX bytes) in every active bank; the TPM
 * hashes it (TPM2_PCR_Event) and the digests of the given banks land in rec. */
int tpm_pcr_event(struct tpm *tpm, unsigned pcr, const void *data, size_t len,
		  const uint16_t *algs, unsigned n_banks, struct cel_record *rec);
/* The same for a file of any size: small ones as one PCR_Event, larger ones as a TPM
 * event sequence. *size gets the number of bytes read. -1 when the TPM failed, -2 when
 * reading the file did (nothing is extended then). */
int tpm_pcr_event_fd(struct tpm *tpm, unsigned pcr, int fd, const uint16_t *algs,
		     unsigned n_banks, struct cel_record *rec, unsigned long long *size);
/* After a failed extend: true when the TPM may have extended the PCR all the same
 * (the connection failed rather than the TPM refusing). */
bool tpm_outcome_unknown(const struct tpm *tpm);
/* A replay_hash_fn: TPM2_Hash (ctx is the struct tpm). */
int tpm_hash(void *ctx, uint16_t alg, const void *data, size_t len, uint8_t *out);
/* Read the PCRs in mask of every bank in v (v->algs set by the caller). */
int tpm_read_pcrs(struct tpm *tpm, uint32_t mask, struct pcr_values *v);

struct tpm_info {
	char family[5];       /* "2.0" */
	unsigned level, revision;   /* spec level and revision * 100 */
	char manufacturer[5];
	char vendor[17];
	uint32_t firmware[2];
};
int tpm_describe(struct tpm *tpm, struct tpm_info *info);
#endif
