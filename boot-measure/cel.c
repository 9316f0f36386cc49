#include "cel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jsonread.h"

bool cel_digest_covers_string(const struct cel_record *rec)
{
	return rec->has_string && !rec->has_path;
}

const struct cel_digest *cel_find_digest(const struct cel_record *rec, uint16_t alg)
{
	for (unsigned i = 0; i < rec->n_digests; i++)
		if (rec->digests[i].alg == alg)
			return &rec->digests[i];
	return NULL;
}

/* ---- writing ---------------------------------------------------------------------- */

static void write_digests(FILE *f, const struct cel_record *rec)
{
	fputs("\"digests\":[", f);
	for (unsigned i = 0; i < rec->n_digests; i++) {
		const struct hash_alg *alg = hash_alg_by_id(rec->digests[i].alg);
		char hex[2 * HASH_MAX_SIZE + 1];
		if (!alg)
			continue; /* the writer only gets known banks; see tpm.c */
		hex_encode(rec->digests[i].bytes, alg->size, hex);
		fputs(i ? ",{" : "{", f);
		json_kv_string(f, "hashAlg", alg->name);
		fputc(',', f);
		json_kv_string(f, "digest", hex);
		fputc('}', f);
	}
	fputc(']', f);
}

/* Unsigned 64-bit fields (size, timestamp) are written unsigned: through a signed
 * long long, values above 2^63 came out negative and the reader refused them. */
static void write_kv_u64(FILE *f, const char *key, unsigned long long value)
{
	json_string(f, key);
	fprintf(f, ":%llu", value);
}

static void write_content(FILE *f, const struct cel_record *rec)
{
	fputs("\"content\":{", f);
	json_kv_string(f, "eventType", rec->event_type);
	if (rec->has_string) {
		fputc(',', f);
		json_kv_string(f, "string", rec->string);
	}
	if (rec->has_path) {
		fputc(',', f);
		json_kv_string(f, "path", rec->path);
		fputc(',', f);
		write_kv_u64(f, "size", rec->size);
	}
	if (rec->boot_id[0]) {
		fputc(',', f);
		json_kv_string(f, "bootId", rec->boot_id);
	}
	fputc(',', f);
	write_kv_u64(f, "timestamp", rec->timestamp);
	fputc('}', f);
}

int cel_format_record(const struct cel_record *rec, char **out, size_t *len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	if (!f)
		return -1;
	fputc(CEL_RS, f);
	fputc('{', f);
	json_kv_int(f, "pcr", rec->pcr);
	fputc(',', f);
	write_digests(f, rec);
	fputc(',', f);
	json_kv_string(f, "content_type", rec->content_type);
	fputc(',', f);
	write_content(f, rec);
	fputs("}\n", f);
	if (ferror(f) | fclose(f)) {
		free(buf);
		errno = ENOMEM;
		return -1;
	}
	if (size > CEL_RECORD_MAX) {
		free(buf);
		errno = EMSGSIZE;
		return -1;
	}
	*out = buf;
	*len = size;
	return 0;
}

/* ---- reading ---------------------------------------------------------------------- */

static int parse_digest(struct json_reader *jr, struct cel_record *rec, const char **why)
{
	char key[16], name[32], hex[2 * HASH_MAX_SIZE + 2];
	size_t hex_len = 0;
	bool have_name = false, have_hex = false;
	const struct hash_alg *alg;
	int more;

	if (json_object_begin(jr) < 0)
		return -1;
	while ((more = json_object_next(jr, key, sizeof key)) > 0) {
		if (strcmp(key, "hashAlg") == 0)
			have_name = json_read_string(jr, name, sizeof name, NULL) == 0;
		else if (strcmp(key, "digest") == 0)
			have_hex = json_read_string(jr, hex, sizeof hex, &hex_len) == 0;
		else
			json_skip(jr);
		if (jr->error)
			return -1;
	}
	if (more < 0)
		return -1;
	if (!have_name || !have_hex)
		return *why = "a digest lacks \"hashAlg\" or \"digest\"", -1;
	alg = hash_alg_by_name(name);
	if (!alg)
		return 0; /* unknown banks are ignored, as systemd-pcrlock does */
	if (cel_find_digest(rec, alg->id))
		return *why = "two digests for one bank", -1;
	if (rec->n_digests == CEL_MAX_BANKS)
		return *why = "too many digests", -1;
	if (hex_decode(hex, hex_len, rec->digests[rec->n_digests].bytes, alg->size) < 0)
		return *why = "a digest is not hex of its algorithm's length", -1;
	rec->digests[rec->n_digests++].alg = alg->id;
	return 0;
}

static int parse_digests(struct json_reader *jr, struct cel_record *rec, const char **why)
{
	int more;
	if (json_array_begin(jr) < 0)
		return -1;
	while ((more = json_array_next(jr)) > 0)
		if (parse_digest(jr, rec, why) < 0)
			return -1;
	return more;
}

static int parse_content(struct json_reader *jr, struct cel_record *rec)
{
	char key[32];
	int more;
	if (json_object_begin(jr) < 0)
		return -1;
	while ((more = json_object_next(jr, key, sizeof key)) > 0) {
		if (strcmp(key, "eventType") == 0)
			json_read_string(jr, rec->event_type, sizeof rec->event_type, NULL);
		else if (strcmp(key, "string") == 0)
			rec->has_string = json_read_string(jr, rec->string, sizeof rec->string,
							   &rec->string_len) == 0;
		else if (strcmp(key, "path") == 0)
			rec->has_path = json_read_string(jr, rec->path, sizeof rec->path, NULL) == 0;
		else if (strcmp(key, "size") == 0)
			json_read_uint(jr, ~0ULL, &rec->size);
		else if (strcmp(key, "bootId") == 0)
			json_read_string(jr, rec->boot_id, sizeof rec->boot_id, NULL);
		else if (strcmp(key, "timestamp") == 0)
			json_read_uint(jr, ~0ULL, &rec->timestamp);
		else
			json_skip(jr);
		if (jr->error)
			return -1;
	}
	return more;
}

/* One top-level member; "seen" collects which required ones were present. */
enum { SEEN_PCR = 1, SEEN_DIGESTS = 2, SEEN_TYPE = 4, SEEN_CONTENT = 8 };

static int parse_member(struct json_reader *jr, const char *key, struct cel_record *rec,
			unsigned *seen, const char **why)
{
	unsigned long long pcr;
	if (strcmp(key, "pcr") == 0) {
		if (json_read_uint(jr, CEL_MAX_PCR, &pcr) < 0)
			return -1;
		rec->pcr = (unsigned)pcr;
		*seen |= SEEN_PCR;
		return 0;
	}
	if (strcmp(key, "digests") == 0) {
		*seen |= SEEN_DIGESTS;
		return parse_digests(jr, rec, why);
	}
	if (strcmp(key, "content_type") == 0) {
		*seen |= SEEN_TYPE;
		return json_read_string(jr, rec->content_type, sizeof rec->content_type, NULL);
	}
	if (strcmp(key, "content") == 0) {
		*seen |= SEEN_CONTENT;
		return parse_content(jr, rec);
	}
	if (strcmp(key, "nv_index") == 0)
		return *why = "NV index records are not supported", -1;
	return json_skip(jr);
}

int cel_parse_record(const char *json, size_t len, struct cel_record *rec, const char **why)
{
	struct json_reader jr;
	char key[32];
	unsigned seen = 0;
	int more;

	memset(rec, 0, sizeof *rec);
	*why = NULL;
	json_reader_init(&jr, json, len);
	if (json_object_begin(&jr) < 0)
		goto bad_json;
	while ((more = json_object_next(&jr, key, sizeof key)) > 0)
		if (parse_member(&jr, key, rec, &seen, why) < 0)
			goto bad_json;
	if (more < 0 || json_expect_end(&jr) < 0)
		goto bad_json;
	if (seen != (SEEN_PCR | SEEN_DIGESTS | SEEN_TYPE | SEEN_CONTENT))
		return *why = "a record lacks \"pcr\", \"digests\", \"content_type\" or \"content\"", -1;
	if (rec->n_digests == 0)
		return *why = "a record has no digest of a known bank", -1;
	return 0;
bad_json:
	if (!*why)
		*why = jr.error ? jr.error : "bad JSON";
	return -1;
}

void cel_reader_init(struct cel_reader *r, const char *log, size_t len)
{
	r->p = log;
	r->end = log + len;
	r->recnum = 0;
}

int cel_next(struct cel_reader *r, struct cel_record *rec, const char **json, size_t *json_len,
	     const char **why)
{
	const char *start, *newline;
	size_t avail;

	if (r->p >= r->end)
		return 0;
	r->recnum++;
	if (*r->p != CEL_RS)
		return *why = "does not start with the record separator 0x1E", -1;
	start = r->p + 1;
	avail = (size_t)(r->end - start);
	if (avail > CEL_RECORD_MAX)
		avail = CEL_RECORD_MAX;
	newline = memchr(start, '\n', avail);
	if (!newline) {
		if (avail == CEL_RECORD_MAX)
			return *why = "longer than the 65536-byte record limit", -1;
		return *why = "truncated (no newline at the end)", -1;
	}
	if (cel_parse_record(start, (size_t)(newline - start), rec, why) < 0)
		return -1;
	if (json) {
		*json = start;
		*json_len = (size_t)(newline - start);
	}
	r->p = newline + 1;
	return 1;
}
