/* The reading commands: log (print the log), verify (replay it against the TPM) and
 * status (what TPM is there). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot-measure.h"
#include "cel.h"
#include "eventlog.h"
#include "exitcode.h"
#include "log.h"
#include "replay.h"
#include "tpm.h"

static void warn_incomplete(const struct event_log *log)
{
	log_error("%s: marked incomplete: a measurement was interrupted between extending the PCR "
		  "and appending its record", log->path);
}

static int open_log(struct event_log *log, const char *path, char **data, size_t *len)
{
	if (event_log_read(log, path, data, len) == 0)
		return 0;
	log_error("%s: cannot read the measurement log: %s", path,
		  errno == EFBIG ? "larger than 16 MiB" : strerror(errno));
	return -1;
}

/* ---- log --------------------------------------------------------------------------- */

/* Content as text on a terminal: no control characters reach it. */
static void print_escaped(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
}

static void print_row(unsigned recnum, const struct cel_record *rec)
{
	char type[sizeof rec->event_type];
	size_t i;
	for (i = 0; rec->event_type[i]; i++) {
		unsigned char c = (unsigned char)rec->event_type[i];
		type[i] = c > 0x20 && c < 0x7f ? (char)c : '?';
	}
	type[i] = '\0';
	printf("%-4u %-4u %-11s ", recnum, rec->pcr, i ? type : "-");
	if (rec->has_path) {
		print_escaped(rec->path);
		printf(" (%llu bytes)", rec->size);
	} else if (rec->has_string) {
		print_escaped(rec->string);
	}
	putchar('\n');
}

static void print_json_record(unsigned recnum, const char *json, size_t len)
{
	/* The stored object with CEL's "recnum" put first, as systemd-pcrlock cel does. */
	const char *brace = memchr(json, '{', len);
	printf("%s{\"recnum\":%u,", recnum > 1 ? ",\n" : "", recnum);
	fwrite(brace + 1, 1, len - (size_t)(brace + 1 - json), stdout);
}

/* First pass only validates (JSON output must be all or nothing); second pass prints. */
static int walk_log(const char *data, size_t len, const char *path, bool json, bool print)
{
	struct cel_reader r;
	struct cel_record *rec = malloc(sizeof *rec);
	const char *text, *why;
	size_t text_len;
	int got;

	if (!rec)
		return EXIT_SYSTEM;
	cel_reader_init(&r, data, len);
	while ((got = cel_next(&r, rec, &text, &text_len, &why)) > 0) {
		if (print && json)
			print_json_record(r.recnum, text, text_len);
		else if (print)
			print_row(r.recnum, rec);
	}
	free(rec);
	if (got < 0) {
		log_error("%s: record %u: %s", path, r.recnum, why);
		return EXIT_BAD_LOG;
	}
	return EXIT_OK;
}

int cmd_log(const struct options *opt)
{
	struct event_log log;
	char *data;
	size_t len;
	int rc;

	if (open_log(&log, opt->log_path, &data, &len) < 0)
		return EXIT_BAD_LOG;
	if (opt->json) {
		rc = walk_log(data, len, opt->log_path, true, false);
		if (rc == EXIT_OK) {
			fputs("[\n", stdout);
			walk_log(data, len, opt->log_path, true, true);
			fputs("\n]\n", stdout);
		}
	} else {
		printf("%-4s %-4s %-11s %s\n", "#", "PCR", "EVENT", "CONTENT");
		rc = walk_log(data, len, opt->log_path, false, true);
	}
	if (rc == EXIT_OK && log.was_incomplete) {
		warn_incomplete(&log);
		rc = EXIT_BAD_LOG;
	}
	free(data);
	event_log_close(&log);
	return rc;
}

/* ---- verify ------------------------------------------------------------------------ */

static void print_banks(const uint16_t *algs, unsigned n)
{
	for (unsigned b = 0; b < n; b++)
		printf("%s%s", b ? " " : "", hash_alg_name(algs[b]));
}

static void print_hex(const uint8_t *bytes, uint16_t alg)
{
	char hex[2 * HASH_MAX_SIZE + 1];
	hex_encode(bytes, hash_alg_by_id(alg)->size, hex);
	fputs(hex, stdout);
}

/* Replay every record into expected. EXIT_OK, or the exit code after saying why. */
static int replay_log(struct tpm *tpm, const struct options *opt, const char *data, size_t len,
		      struct pcr_values *expected, unsigned *records)
{
	struct cel_reader r;
	struct cel_record *rec = malloc(sizeof *rec);
	const char *why;
	uint16_t alg;
	int got = 0, rc = EXIT_OK;

	if (!rec)
		return EXIT_SYSTEM;
	cel_reader_init(&r, data, len);
	while (rc == EXIT_OK && (got = cel_next(&r, rec, NULL, NULL, &why)) > 0) {
		int checked = replay_check_content(expected, rec, tpm_hash, tpm, &alg);
		int extended = checked == 0 ? replay_extend(expected, rec, tpm_hash, tpm, &alg) : 0;
		if (checked == -2 || extended == -2) {
			rc = EXIT_TPM_FAILED;
		} else if (checked == 1) {
			printf("mismatch: record %u (PCR %u): content does not match its %s digest\n",
			       r.recnum, rec->pcr, hash_alg_name(alg));
			rc = EXIT_MISMATCH;
		} else if (extended == -1) {
			printf("mismatch: record %u (PCR %u): no digest for active bank %s\n", r.recnum,
			       rec->pcr, hash_alg_name(alg));
			rc = EXIT_MISMATCH;
		}
	}
	if (rc == EXIT_OK && got < 0) {
		log_error("%s: record %u: %s", opt->log_path, r.recnum, why);
		rc = EXIT_BAD_LOG;
	}
	*records = r.recnum;
	free(rec);
	return rc;
}

static int compare_with_tpm(struct tpm *tpm, struct pcr_values *expected, struct pcr_values *actual,
			    unsigned records)
{
	unsigned pcr, bank;
	/* ember's own PCRs are checked even without records: an extend nobody logged shows. */
	uint32_t mask = expected->pcr_mask | 1u << PCR_BOOT_PHASE | 1u << PCR_MACHINE_ID;

	replay_init(actual, expected->algs, expected->n_banks);
	if (tpm_read_pcrs(tpm, mask, actual) < 0)
		return EXIT_TPM_FAILED;
	expected->pcr_mask = mask;
	if (replay_first_difference(expected, actual, &pcr, &bank)) {
		printf("mismatch: PCR %u bank %s: log replays to ", pcr, hash_alg_name(expected->algs[bank]));
		print_hex(expected->value[bank][pcr], expected->algs[bank]);
		fputs(", TPM has ", stdout);
		print_hex(actual->value[bank][pcr], expected->algs[bank]);
		putchar('\n');
		return EXIT_MISMATCH;
	}
	printf("match: %u records; PCRs", records);
	for (unsigned p = 0; p < PCR_COUNT; p++)
		if (mask & (1u << p))
			printf(" %u", p);
	fputs("; banks ", stdout);
	print_banks(expected->algs, expected->n_banks);
	putchar('\n');
	return EXIT_OK;
}

static int verify_with(struct tpm *tpm, const struct options *opt, const char *data, size_t len)
{
	uint16_t algs[CEL_MAX_BANKS];
	unsigned n_banks = 0, records = 0;
	struct pcr_values *expected = malloc(sizeof *expected), *actual = malloc(sizeof *actual);
	int rc = tpm_active_banks(tpm, algs, &n_banks);

	if (!expected || !actual)
		rc = EXIT_SYSTEM;
	else if (rc != TPM_READY)
		rc = tpm_unavailable(opt, rc, false);
	else {
		replay_init(expected, algs, n_banks);
		rc = replay_log(tpm, opt, data, len, expected, &records);
		if (rc == EXIT_OK)
			rc = compare_with_tpm(tpm, expected, actual, records);
	}
	free(expected);
	free(actual);
	return rc;
}

int cmd_verify(const struct options *opt)
{
	struct event_log log;
	struct tpm *tpm = NULL;
	char *data;
	size_t len;
	int rc = tpm_preflight(opt->tcti);

	if (rc != TPM_READY)
		return tpm_unavailable(opt, rc, false);
	/* The shared lock stays held until the PCRs are read: no writer of ours can extend
	 * between reading the log and reading the TPM. */
	if (open_log(&log, opt->log_path, &data, &len) < 0)
		return EXIT_BAD_LOG;
	if (log.was_incomplete) {
		warn_incomplete(&log);
		rc = EXIT_BAD_LOG;
	} else {
		rc = tpm_open(opt->tcti, &tpm);
		rc = rc == TPM_READY ? verify_with(tpm, opt, data, len) : tpm_unavailable(opt, rc, false);
	}
	tpm_close(tpm);
	free(data);
	event_log_close(&log);
	return rc;
}

/* ---- status ------------------------------------------------------------------------ */

static int status_unavailable(const struct options *opt, int result)
{
	if (result == TPM_ABSENT)
		printf("tpm: absent\ntcti: %s\n", opt->tcti);
	else if (result == TPM_VERSION_1_2)
		printf("tpm: 1.2 (not supported)\ntcti: %s\n", opt->tcti);
	return tpm_unavailable(opt, result, false);
}

static int print_status(struct tpm *tpm, const struct options *opt)
{
	uint16_t algs[CEL_MAX_BANKS];
	unsigned n_banks = 0;
	struct tpm_info info;
	int rc = tpm_active_banks(tpm, algs, &n_banks);

	if (rc != TPM_READY)
		return status_unavailable(opt, rc);
	if (tpm_describe(tpm, &info) < 0)
		return EXIT_TPM_FAILED;
	printf("tpm: %s\ntcti: %s\n", info.family[0] ? info.family : "2.0", opt->tcti);
	printf("spec: level %u revision %u.%02u\n", info.level, info.revision / 100,
	       info.revision % 100);
	printf("manufacturer: %s\nvendor: %s\n", info.manufacturer, info.vendor);
	printf("firmware: %08x.%08x\nbanks: ", (unsigned)info.firmware[0], (unsigned)info.firmware[1]);
	print_banks(algs, n_banks);
	putchar('\n');
	return EXIT_OK;
}

int cmd_status(const struct options *opt)
{
	struct tpm *tpm = NULL;
	int rc = tpm_preflight(opt->tcti);
	if (rc == TPM_READY)
		rc = tpm_open(opt->tcti, &tpm);
	if (rc != TPM_READY)
		return status_unavailable(opt, rc);
	rc = print_status(tpm, opt);
	tpm_close(tpm);
	return rc;
}
