#ifndef BOOT_MEASURE_CEL_H
#define BOOT_MEASURE_CEL_H
/* The measurement log: one record per measurement, in TCG Canonical Event Log JSON form,
 * stored as RFC 7464 JSON text sequences (0x1E, one-line JSON, '\n'), like systemd's
 * tpm2-measure.log. Records carry no "recnum"; readers number them from 1. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "algs.h"

#define CEL_MAX_BANKS 16        /* TPM2_NUM_PCR_BANKS */
#define CEL_MAX_PCR 23
#define CEL_STRING_MAX 1024     /* one TPM2_PCR_Event's worth of data */
#define CEL_PATH_MAX 4096
#define CEL_RECORD_MAX 65536    /* longest record a reader accepts, RS and LF included */
#define CEL_CONTENT_TYPE "ember"
#define CEL_RS '\x1e'

struct cel_digest {
	uint16_t alg; /* TPM_ALG_ID */
	uint8_t bytes[HASH_MAX_SIZE];
};

struct cel_record {
	unsigned pcr;
	unsigned n_digests;
	struct cel_digest digests[CEL_MAX_BANKS];
	char content_type[32];
	char event_type[32];     /* "phase", "string", "machine-id", "file" */
	bool has_string;         /* the digests cover exactly these bytes */
	char string[CEL_STRING_MAX + 1];
	size_t string_len;
	bool has_path;           /* the digests cover the contents of this file */
	char path[CEL_PATH_MAX];
	unsigned long long size; /* file size, with has_path */
	char boot_id[33];        /* empty when unknown */
	unsigned long long timestamp; /* CLOCK_BOOTTIME in microseconds */
};

/* The event types whose digests are over content.string, so readers can re-check them. */
bool cel_digest_covers_string(const struct cel_record *rec);
const struct cel_digest *cel_find_digest(const struct cel_record *rec, uint16_t alg);

/* The record as it goes into the log: RS, JSON, LF. *out is malloc'd. Returns 0, or
 * -1/errno (ENOMEM, or EMSGSIZE when longer than CEL_RECORD_MAX). */
int cel_format_record(const struct cel_record *rec, char **out, size_t *len);
/* One JSON object (without RS/LF) into *rec. Returns 0, or -1 with *why set. */
int cel_parse_record(const char *json, size_t len, struct cel_record *rec, const char **why);

/* Walks a whole log held in memory. */
struct cel_reader {
	const char *p, *end;
	unsigned recnum; /* of the record last returned, from 1 */
};
void cel_reader_init(struct cel_reader *r, const char *log, size_t len);
/* 1: *rec (and, when json is not NULL, the record's JSON text without RS/LF) filled;
 * 0: end of log; -1: the record numbered r->recnum is malformed, *why says how. */
int cel_next(struct cel_reader *r, struct cel_record *rec, const char **json, size_t *json_len,
	     const char **why);
#endif
