/* phase, extend and machine-id: one measurement each, as one transaction with the log:
 * lock -> mark in progress -> extend every active bank -> append -> clear -> unlock. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot-measure.h"
#include "cel.h"
#include "eventlog.h"
#include "exitcode.h"
#include "io.h"
#include "jsonread.h"
#include "log.h"
#include "parse.h"
#include "tpm.h"

#define PHASE_WORD_MAX 64

struct measurement {
	unsigned pcr;
	const char *event_type;
	const char *string; /* measured bytes, or NULL when measuring a file */
	const char *path;   /* the file to measure */
	int fd;             /* open on path */
};

int tpm_unavailable(const struct options *opt, int result, bool measuring)
{
	const char *what = measuring ? ": nothing measured" : "";
	switch (result) {
	case TPM_ABSENT:
		log_error("no TPM at %s%s", opt->tcti, what);
		return EXIT_NO_TPM;
	case TPM_VERSION_1_2:
		log_error("%s is a TPM 1.2; boot-measure supports TPM 2.0 only%s", opt->tcti, what);
		return EXIT_TPM12;
	default:
		return EXIT_TPM_FAILED;
	}
}

/* 32 hex digits of /proc/sys/kernel/random/boot_id, or "" where there is none. */
static void read_boot_id(char out[33])
{
	char raw[64];
	size_t n = 0;
	out[0] = '\0';
	if (io_read_file("/proc/sys/kernel/random/boot_id", raw, sizeof raw) < 0)
		return;
	for (const char *p = raw; *p && n < 32; p++)
		if ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
			out[n++] = *p;
	out[n == 32 ? 32 : 0] = '\0';
}

static unsigned long long boottime_us(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_BOOTTIME, &ts) < 0)
		return 0;
	return (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000;
}

static void describe(struct cel_record *rec, const struct measurement *m)
{
	memset(rec, 0, sizeof *rec);
	rec->pcr = m->pcr;
	str_copy(rec->content_type, sizeof rec->content_type, CEL_CONTENT_TYPE);
	str_copy(rec->event_type, sizeof rec->event_type, m->event_type);
	if (m->string) {
		rec->has_string = true;
		rec->string_len = strlen(m->string);
		memcpy(rec->string, m->string, rec->string_len + 1);
	} else {
		rec->has_path = true;
		str_copy(rec->path, sizeof rec->path, m->path);
	}
	read_boot_id(rec->boot_id);
	rec->timestamp = boottime_us();
}

static int extend(struct tpm *tpm, const struct measurement *m, const uint16_t *algs,
		  unsigned n_banks, struct cel_record *rec)
{
	if (m->string)
		return tpm_pcr_event(tpm, m->pcr, m->string, rec->string_len, algs, n_banks, rec);
	return tpm_pcr_event_fd(tpm, m->pcr, m->fd, algs, n_banks, rec, &rec->size);
}

static int record_lost(const struct event_log *log, const struct measurement *m)
{
	log_error("%s: PCR %u was extended but its record could not be appended (%s); "
		  "the log stays marked incomplete", log->path, m->pcr, strerror(errno));
	return EXIT_SYSTEM;
}

/* Extend and append, with the log already locked and the TPM's banks known. */
static int extend_and_log(struct event_log *log, struct tpm *tpm, const struct measurement *m,
			  const uint16_t *algs, unsigned n_banks)
{
	struct cel_record rec;
	char *record;
	size_t len;
	int extended;

	describe(&rec, m);
	if (event_log_mark_in_progress(log) < 0) {
		log_error("%s: cannot mark the log in progress: %s", log->path, strerror(errno));
		return EXIT_SYSTEM;
	}
	extended = extend(tpm, m, algs, n_banks, &rec);
	if (extended == -2) {
		event_log_mark_complete(log);
		return EXIT_SYSTEM;
	}
	if (extended < 0) {
		if (tpm_outcome_unknown(tpm))
			log_error("%s: PCR %u may have been extended; the log stays marked incomplete",
				  log->path, m->pcr);
		else
			event_log_mark_complete(log);
		return EXIT_TPM_FAILED;
	}
	if (cel_format_record(&rec, &record, &len) < 0)
		return record_lost(log, m);
	if (event_log_append(log, record, len) < 0) {
		free(record);
		return record_lost(log, m);
	}
	free(record);
	if (event_log_mark_complete(log) < 0) {
		log_error("%s: cannot clear the in-progress mark: %s", log->path, strerror(errno));
		return EXIT_SYSTEM;
	}
	if (log->was_incomplete)
		log_warn("%s: an earlier measurement was interrupted; the log stays marked incomplete",
			 log->path);
	return EXIT_OK;
}

static int measure(const struct options *opt, const struct measurement *m)
{
	struct event_log log;
	struct tpm *tpm = NULL;
	uint16_t algs[CEL_MAX_BANKS];
	unsigned n_banks = 0;
	int res = tpm_preflight(opt->tcti);

	if (res != TPM_READY)
		return tpm_unavailable(opt, res, true);
	/* Lock before connecting: swtpm serves one connection at a time, so a writer that
	 * connected first and then waited for the lock would block the lock holder. */
	if (event_log_open_writer(&log, opt->log_path) < 0) {
		log_error("%s: cannot open and lock the measurement log: %s; nothing measured",
			  opt->log_path, strerror(errno));
		return EXIT_SYSTEM;
	}
	res = tpm_open(opt->tcti, &tpm);
	if (res == TPM_READY)
		res = tpm_active_banks(tpm, algs, &n_banks);
	if (res == TPM_READY)
		res = extend_and_log(&log, tpm, m, algs, n_banks);
	else
		res = tpm_unavailable(opt, res, true);
	tpm_close(tpm);
	event_log_close(&log);
	return res;
}

/* Words as systemd uses them (enter-initrd, leave-initrd, sysinit, ready, shutdown,
 * final), or an appliance's own: short, and nothing a log reader could misread. */
static bool phase_word_valid(const char *word)
{
	size_t len = strlen(word);
	if (len == 0 || len > PHASE_WORD_MAX)
		return false;
	for (const char *p = word; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_' || *p == '.' || *p == ':'))
			return false;
	return true;
}

int cmd_phase(const struct options *opt, const char *word)
{
	struct measurement m = { .pcr = PCR_BOOT_PHASE, .event_type = "phase", .string = word };
	if (!phase_word_valid(word)) {
		log_error("%s: not a phase word (1-%d of A-Z a-z 0-9 - _ . :)", word, PHASE_WORD_MAX);
		return EXIT_USAGE;
	}
	return measure(opt, &m);
}

/* The log is JSON, whose strings are UTF-8: refuse other bytes rather than write a
 * record no JSON reader accepts. */
static bool utf8_valid(const char *s)
{
	size_t left = strlen(s);
	while (left > 0) {
		size_t n = json_utf8_sequence(s, left);
		if (n == 0)
			return false;
		s += n;
		left -= n;
	}
	return true;
}

static int extend_file(const struct options *opt, struct measurement *m)
{
	struct stat st;
	int rc;
	if (strlen(opt->file) >= CEL_PATH_MAX || !utf8_valid(opt->file)) {
		log_error("%s: path too long or not UTF-8", opt->file);
		return EXIT_USAGE;
	}
	m->fd = open(opt->file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (m->fd < 0) {
		log_error("%s: cannot open the file to measure: %s; nothing measured", opt->file,
			  strerror(errno));
		return EXIT_SYSTEM;
	}
	if (fstat(m->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		log_error("%s: not a regular file; nothing measured", opt->file);
		close(m->fd);
		return EXIT_USAGE;
	}
	m->path = opt->file;
	rc = measure(opt, m);
	close(m->fd);
	return rc;
}

int cmd_extend(const struct options *opt)
{
	struct measurement m = { .event_type = "string", .fd = -1 };
	if (opt->pcr < 0 || (!opt->string == !opt->file)) {
		log_error("extend needs --pcr N and one of --string S or --file PATH");
		return EXIT_USAGE;
	}
	m.pcr = (unsigned)opt->pcr;
	if (opt->file) {
		m.event_type = "file";
		return extend_file(opt, &m);
	}
	if (strlen(opt->string) > CEL_STRING_MAX) {
		log_error("--string: longer than %d bytes (use --file for larger data)", CEL_STRING_MAX);
		return EXIT_USAGE;
	}
	if (!utf8_valid(opt->string)) {
		log_error("--string: not valid UTF-8");
		return EXIT_USAGE;
	}
	m.string = opt->string;
	return measure(opt, &m);
}

/* systemd-pcrmachine's measurement: "machine-id:" and the 32 lower-case hex digits. */
int cmd_machine_id(const struct options *opt)
{
	const char *path = opt->file ? opt->file : MACHINE_ID_DEFAULT;
	char id[64], text[sizeof "machine-id:" + 32];
	char *s;
	struct measurement m = { .pcr = PCR_MACHINE_ID, .event_type = "machine-id", .string = text };

	if (io_read_file(path, id, sizeof id) < 0) {
		log_error("%s: cannot read the machine ID: %s; nothing measured", path, strerror(errno));
		return EXIT_SYSTEM;
	}
	s = strip(id);
	if (strlen(s) != 32 || strspn(s, "0123456789abcdef") != 32) {
		log_error("%s: not a machine ID (32 lower-case hex digits); nothing measured", path);
		return EXIT_USAGE;
	}
	snprintf(text, sizeof text, "machine-id:%s", s);
	return measure(opt, &m);
}
