#include "tpm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tss2/tss2_sys.h>
#include <tss2/tss2_tcti_device.h>
#include <tss2/tss2_tcti_mssim.h>
#include <tss2/tss2_tcti_swtpm.h>

#include "io.h"
#include "log.h"
#include "parse.h"

#define DEVICE_DEFAULT "/dev/tpmrm0"
#define PCR_SELECT_BYTES 3 /* 24 PCRs */

struct tpm {
	TSS2_TCTI_CONTEXT *tcti;
	TSS2_SYS_CONTEXT *sys;
	char spec[256];
	bool outcome_unknown; /* a command may or may not have reached the TPM */
};

typedef TSS2_RC (*tcti_init_fn)(TSS2_TCTI_CONTEXT *, size_t *, const char *);

struct tcti_kind {
	const char *name;
	tcti_init_fn init;
	const char *default_conf;
};

static const struct tcti_kind tcti_kinds[] = {
	{ "device", Tss2_Tcti_Device_Init, DEVICE_DEFAULT },
	{ "swtpm", Tss2_Tcti_Swtpm_Init, NULL },
	{ "mssim", Tss2_Tcti_Mssim_Init, NULL },
};

/* Split "name[:conf]"; *conf points into spec, or is the kind's default. */
static const struct tcti_kind *tcti_lookup(const char *spec, const char **conf)
{
	size_t name_len = strcspn(spec, ":");
	for (size_t i = 0; i < sizeof tcti_kinds / sizeof tcti_kinds[0]; i++) {
		const struct tcti_kind *k = &tcti_kinds[i];
		if (strlen(k->name) != name_len || strncmp(spec, k->name, name_len) != 0)
			continue;
		*conf = spec[name_len] == ':' && spec[name_len + 1] ? spec + name_len + 1 : k->default_conf;
		return k;
	}
	return NULL;
}

int tpm_tcti_valid(const char *spec)
{
	const char *conf;
	return tcti_lookup(spec, &conf) != NULL;
}

/* ---- detection ------------------------------------------------------------------- */

/* /dev/tpmrmN or /dev/tpmN -> N, else -1. */
static int device_index(const char *path)
{
	unsigned long n;
	const char *digits = NULL;
	if (str_starts_with(path, "/dev/tpmrm"))
		digits = path + strlen("/dev/tpmrm");
	else if (str_starts_with(path, "/dev/tpm"))
		digits = path + strlen("/dev/tpm");
	if (!digits || parse_ulong(digits, 0, 999, &n) < 0)
		return -1;
	return (int)n;
}

/* A missing /dev/tpmrmN with /sys/class/tpm/tpmN present: the kernel only makes the
 * resource manager node for a TPM2, so this is a TPM 1.2 (tpm_version_major "1", or on
 * kernels before 5.5 the 1.2-only "caps" file). */
static enum tpm_result classify_missing_device(const char *path)
{
	char file[64], version[8];
	int n = device_index(path);
	if (n < 0)
		return TPM_ABSENT;
	snprintf(file, sizeof file, "/sys/class/tpm/tpm%d/tpm_version_major", n);
	if (io_read_file(file, version, sizeof version) > 0)
		return version[0] == '1' ? TPM_VERSION_1_2 : TPM_ABSENT;
	snprintf(file, sizeof file, "/sys/class/tpm/tpm%d/device/caps", n);
	return access(file, F_OK) == 0 ? TPM_VERSION_1_2 : TPM_ABSENT;
}

enum tpm_result tpm_preflight(const char *spec)
{
	const char *conf;
	const struct tcti_kind *kind = tcti_lookup(spec, &conf);
	if (!kind || strcmp(kind->name, "device") != 0)
		return TPM_READY;
	if (access(conf, F_OK) == 0)
		return TPM_READY;
	if (errno != ENOENT && errno != ENOTDIR)
		return TPM_READY; /* let the open say what is wrong */
	return classify_missing_device(conf);
}

/* ---- opening --------------------------------------------------------------------- */

/* tpm2-tss reads TSS2_LOG, and opens TSS2_LOGFILE for appending, with plain getenv;
 * a privileged program must not let its caller pick that file. Its messages go
 * nowhere unless asked for: boot-measure prints its own. */
static void tame_tss_logging(void)
{
	unsetenv("TSS2_LOGFILE");
	setenv("TSS2_LOG", "all+none", 0);
}

static enum tpm_result open_tcti(struct tpm *tpm, const struct tcti_kind *kind, const char *conf)
{
	size_t size = 0;
	int saved_errno;
	TSS2_RC rc = kind->init(NULL, &size, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		log_error("%s: cannot size the TCTI context: error 0x%x", tpm->spec, rc);
		return TPM_BROKEN;
	}
	tpm->tcti = calloc(1, size);
	if (!tpm->tcti) {
		log_error("%s: out of memory", tpm->spec);
		return TPM_BROKEN;
	}
	errno = 0;
	rc = kind->init(tpm->tcti, &size, conf);
	if (rc == TSS2_RC_SUCCESS)
		return TPM_READY;
	saved_errno = errno; /* the device TCTI's failed open(2) says why */
	free(tpm->tcti);
	tpm->tcti = NULL;
	/* A socket nobody listens on, or a device node that vanished: no TPM. */
	if (rc == TSS2_TCTI_RC_IO_ERROR && strcmp(kind->name, "device") != 0) {
		log_debug("%s: cannot connect (error 0x%x)", tpm->spec, rc);
		return TPM_ABSENT;
	}
	log_error("%s: cannot open the TPM: TCTI error 0x%x%s%s", tpm->spec, rc,
		  saved_errno ? ", " : "", saved_errno ? strerror(saved_errno) : "");
	return TPM_BROKEN;
}

static enum tpm_result open_sys(struct tpm *tpm)
{
	TSS2_ABI_VERSION abi = TSS2_ABI_VERSION_CURRENT;
	size_t size = Tss2_Sys_GetContextSize(0);
	TSS2_RC rc;
	tpm->sys = calloc(1, size);
	if (!tpm->sys) {
		log_error("%s: out of memory", tpm->spec);
		return TPM_BROKEN;
	}
	rc = Tss2_Sys_Initialize(tpm->sys, size, tpm->tcti, &abi);
	if (rc != TSS2_RC_SUCCESS) {
		log_error("%s: cannot set up tss2-sys: error 0x%x", tpm->spec, rc);
		free(tpm->sys);
		tpm->sys = NULL;
		return TPM_BROKEN;
	}
	return TPM_READY;
}

enum tpm_result tpm_open(const char *spec, struct tpm **out)
{
	const char *conf;
	const struct tcti_kind *kind = tcti_lookup(spec, &conf);
	struct tpm *tpm;
	enum tpm_result res;

	if (!kind) {
		log_error("%s: unknown TCTI (use device, swtpm or mssim)", spec);
		return TPM_BROKEN;
	}
	tame_tss_logging();
	tpm = calloc(1, sizeof *tpm);
	if (!tpm) {
		log_error("%s: out of memory", spec);
		return TPM_BROKEN;
	}
	snprintf(tpm->spec, sizeof tpm->spec, "%s", spec);
	res = open_tcti(tpm, kind, conf);
	if (res == TPM_READY)
		res = open_sys(tpm);
	if (res != TPM_READY) {
		tpm_close(tpm);
		return res;
	}
	*out = tpm;
	return TPM_READY;
}

void tpm_close(struct tpm *tpm)
{
	if (!tpm)
		return;
	if (tpm->sys) {
		Tss2_Sys_Finalize(tpm->sys);
		free(tpm->sys);
	}
	if (tpm->tcti) {
		Tss2_Tcti_Finalize(tpm->tcti);
		free(tpm->tcti);
	}
	free(tpm);
}

/* ---- commands -------------------------------------------------------------------- */

static void password_sessions(TSS2L_SYS_AUTH_COMMAND *auths, uint16_t count)
{
	memset(auths, 0, sizeof *auths);
	auths->count = count;
	for (uint16_t i = 0; i < count; i++)
		auths->auths[i].sessionHandle = TPM2_RS_PW; /* PCR authValues are empty */
}

/* A TPM-layer response code means the TPM refused the command and changed nothing;
 * anything from the TSS or TCTI layers (a dropped connection, a garbled answer) leaves
 * open whether it ran. */
static void note_failure(struct tpm *tpm, TSS2_RC rc)
{
	if ((rc & TSS2_RC_LAYER_MASK) != TSS2_TPM_RC_LAYER)
		tpm->outcome_unknown = true;
}

bool tpm_outcome_unknown(const struct tpm *tpm)
{
	return tpm->outcome_unknown;
}

static void command_failed(struct tpm *tpm, const char *command, TSS2_RC rc)
{
	note_failure(tpm, rc);
	log_error("%s: %s failed: response code 0x%x", tpm->spec, command, rc);
}

static size_t put_be(uint8_t *at, uint32_t value, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		at[i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
	return bytes;
}

/* A TPM 1.2 answers any TPM2 command with the response tag TPM_ST_RSP_COMMAND (0x00C4)
 * and its "bad tag" code; tss2-sys turns that into a bare TSS2_SYS_RC_GENERAL_FAILURE,
 * which other faults share. So on that failure ask once more, raw over the TCTI, and
 * look at the tag ourselves: TPM2_GetCapability(PCRS, 0, 1), 22 bytes, big-endian. */
static bool answers_like_tpm12(struct tpm *tpm)
{
	uint8_t cmd[22], rsp[4096];
	size_t off = 0, rsp_size = sizeof rsp;

	off += put_be(cmd + off, TPM2_ST_NO_SESSIONS, 2);
	off += put_be(cmd + off, sizeof cmd, 4);
	off += put_be(cmd + off, TPM2_CC_GetCapability, 4);
	off += put_be(cmd + off, TPM2_CAP_PCRS, 4);
	off += put_be(cmd + off, 0, 4); /* property */
	off += put_be(cmd + off, 1, 4); /* count */
	if (Tss2_Tcti_Transmit(tpm->tcti, off, cmd) != TSS2_RC_SUCCESS ||
	    Tss2_Tcti_Receive(tpm->tcti, &rsp_size, rsp, TSS2_TCTI_TIMEOUT_BLOCK) != TSS2_RC_SUCCESS)
		return false;
	return rsp_size >= 2 && (rsp[0] << 8 | rsp[1]) == TPM2_ST_RSP_COMMAND;
}

static bool is_tpm12_answer(struct tpm *tpm, TSS2_RC rc)
{
	return rc == TSS2_SYS_RC_GENERAL_FAILURE && answers_like_tpm12(tpm);
}

static TSS2_RC get_pcr_allocation(struct tpm *tpm, TPMS_CAPABILITY_DATA *cap)
{
	TPMI_YES_NO more = 0;
	return Tss2_Sys_GetCapability(tpm->sys, NULL, TPM2_CAP_PCRS, 0, 1, &more, cap, NULL);
}

static bool selects_any(const TPMS_PCR_SELECTION *sel)
{
	for (unsigned i = 0; i < sel->sizeofSelect && i < TPM2_PCR_SELECT_MAX; i++)
		if (sel->pcrSelect[i])
			return true;
	return false;
}

enum tpm_result tpm_active_banks(struct tpm *tpm, uint16_t *algs, unsigned *n_banks)
{
	TPMS_CAPABILITY_DATA cap;
	TPML_PCR_SELECTION *sel = &cap.data.assignedPCR;
	TSS2_RC rc = get_pcr_allocation(tpm, &cap);

	if (rc == TPM2_RC_INITIALIZE) {
		/* Nothing (firmware, kernel) started this TPM yet. */
		rc = Tss2_Sys_Startup(tpm->sys, TPM2_SU_CLEAR);
		if (rc != TSS2_RC_SUCCESS && rc != TPM2_RC_INITIALIZE) {
			command_failed(tpm, "TPM2_Startup", rc);
			return TPM_BROKEN;
		}
		rc = get_pcr_allocation(tpm, &cap);
	}
	if (is_tpm12_answer(tpm, rc))
		return TPM_VERSION_1_2;
	if (rc != TSS2_RC_SUCCESS) {
		command_failed(tpm, "TPM2_GetCapability(PCRS)", rc);
		return TPM_BROKEN;
	}
	*n_banks = 0;
	for (unsigned i = 0; i < sel->count && i < TPM2_NUM_PCR_BANKS; i++) {
		if (!selects_any(&sel->pcrSelections[i]))
			continue;
		if (!hash_alg_by_id(sel->pcrSelections[i].hash)) {
			log_error("%s: active PCR bank with hash algorithm 0x%04x, which boot-measure "
				  "cannot log", tpm->spec, sel->pcrSelections[i].hash);
			return TPM_BROKEN;
		}
		algs[(*n_banks)++] = sel->pcrSelections[i].hash;
	}
	if (*n_banks == 0) {
		log_error("%s: the TPM has no active PCR bank", tpm->spec);
		return TPM_BROKEN;
	}
	return TPM_READY;
}

/* Keep the digests of the active banks (PCR_Event also returns those of banks that are
 * implemented but not allocated, which were not extended). */
static int take_digests(struct tpm *tpm, const TPML_DIGEST_VALUES *values, const uint16_t *algs,
			unsigned n_banks, struct cel_record *rec)
{
	rec->n_digests = 0;
	for (unsigned b = 0; b < n_banks; b++) {
		const struct hash_alg *alg = hash_alg_by_id(algs[b]);
		bool found = false;
		for (unsigned i = 0; i < values->count && i < TPM2_NUM_PCR_BANKS && !found; i++) {
			if (values->digests[i].hashAlg != algs[b])
				continue;
			rec->digests[rec->n_digests].alg = algs[b];
			memcpy(rec->digests[rec->n_digests++].bytes, &values->digests[i].digest, alg->size);
			found = true;
		}
		if (!found) {
			log_error("%s: the TPM returned no %s digest for an active bank", tpm->spec,
				  alg->name);
			return -1;
		}
	}
	return 0;
}

int tpm_pcr_event(struct tpm *tpm, unsigned pcr, const void *data, size_t len,
		  const uint16_t *algs, unsigned n_banks, struct cel_record *rec)
{
	TSS2L_SYS_AUTH_COMMAND auths;
	TPM2B_EVENT event = { .size = (UINT16)len };
	TPML_DIGEST_VALUES values;
	TSS2_RC rc;

	if (len > sizeof event.buffer) {
		log_error("%s: event data longer than %zu bytes", tpm->spec, sizeof event.buffer);
		return -1;
	}
	memcpy(event.buffer, data, len);
	password_sessions(&auths, 1);
	memset(&values, 0, sizeof values);
	rc = Tss2_Sys_PCR_Event(tpm->sys, pcr, &auths, &event, &values, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		note_failure(tpm, rc);
		log_error("%s: TPM2_PCR_Event on PCR %u failed: response code 0x%x", tpm->spec, pcr, rc);
		return -1;
	}
	return take_digests(tpm, &values, algs, n_banks, rec);
}

struct sequence {
	struct tpm *tpm;
	TPMI_DH_OBJECT handle;
};

static int sequence_start(struct sequence *seq)
{
	TPM2B_AUTH no_auth = { .size = 0 };
	/* TPM2_ALG_NULL makes it an event sequence: every implemented bank hashes. */
	TSS2_RC rc = Tss2_Sys_HashSequenceStart(seq->tpm->sys, NULL, &no_auth, TPM2_ALG_NULL,
						&seq->handle, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		command_failed(seq->tpm, "TPM2_HashSequenceStart", rc);
		return -1;
	}
	return 0;
}

static int sequence_update(struct sequence *seq, const uint8_t *data, size_t len)
{
	TSS2L_SYS_AUTH_COMMAND auths;
	TPM2B_MAX_BUFFER buf = { .size = (UINT16)len };
	TSS2_RC rc;
	memcpy(buf.buffer, data, len);
	password_sessions(&auths, 1);
	rc = Tss2_Sys_SequenceUpdate(seq->tpm->sys, seq->handle, &auths, &buf, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		command_failed(seq->tpm, "TPM2_SequenceUpdate", rc);
		return -1;
	}
	return 0;
}

static int sequence_complete(struct sequence *seq, unsigned pcr, const uint8_t *data, size_t len,
			     TPML_DIGEST_VALUES *values)
{
	TSS2L_SYS_AUTH_COMMAND auths;
	TPM2B_MAX_BUFFER buf = { .size = (UINT16)len };
	TSS2_RC rc;
	memcpy(buf.buffer, data, len);
	password_sessions(&auths, 2); /* the PCR, then the sequence */
	rc = Tss2_Sys_EventSequenceComplete(seq->tpm->sys, pcr, seq->handle, &auths, &buf, values,
					    NULL);
	if (rc != TSS2_RC_SUCCESS) {
		note_failure(seq->tpm, rc);
		log_error("%s: TPM2_EventSequenceComplete on PCR %u failed: response code 0x%x",
			  seq->tpm->spec, pcr, rc);
		return -1;
	}
	return 0;
}

/* A failed sequence would otherwise hold a TPM object slot until reset. */
static void sequence_abandon(struct sequence *seq)
{
	Tss2_Sys_FlushContext(seq->tpm->sys, seq->handle);
}

/* Feed a file whose first chunk (full) is in cur through an event sequence. */
static int event_sequence_fd(struct tpm *tpm, unsigned pcr, int fd, uint8_t *cur, uint8_t *next,
			     size_t next_len, TPML_DIGEST_VALUES *values, unsigned long long *size)
{
	struct sequence seq = { .tpm = tpm };
	size_t cur_len = TPM2_MAX_DIGEST_BUFFER;
	if (sequence_start(&seq) < 0)
		return -1;
	for (;;) {
		ssize_t n;
		if (sequence_update(&seq, cur, cur_len) < 0)
			goto fail;
		memcpy(cur, next, next_len);
		cur_len = next_len;
		n = io_read_full(fd, next, TPM2_MAX_DIGEST_BUFFER);
		if (n < 0) {
			log_error("cannot read the file to measure: %s", strerror(errno));
			sequence_abandon(&seq);
			return -2;
		}
		*size += (unsigned long long)n;
		if (n == 0)
			break;
		next_len = (size_t)n;
	}
	if (sequence_complete(&seq, pcr, cur, cur_len, values) < 0)
		goto fail;
	return 0;
fail:
	sequence_abandon(&seq);
	return -1;
}

int tpm_pcr_event_fd(struct tpm *tpm, unsigned pcr, int fd, const uint16_t *algs,
		     unsigned n_banks, struct cel_record *rec, unsigned long long *size)
{
	uint8_t cur[TPM2_MAX_DIGEST_BUFFER], next[TPM2_MAX_DIGEST_BUFFER];
	TPML_DIGEST_VALUES values;
	ssize_t cur_len = io_read_full(fd, cur, sizeof cur), next_len = 0;
	int rc;

	if (cur_len == (ssize_t)sizeof cur)
		next_len = io_read_full(fd, next, sizeof next);
	if (cur_len < 0 || next_len < 0) {
		log_error("cannot read the file to measure: %s", strerror(errno));
		return -2;
	}
	*size = (unsigned long long)(cur_len + next_len);
	/* Fits one TPM2_PCR_Event: one round trip instead of three or more. */
	if (next_len == 0)
		return tpm_pcr_event(tpm, pcr, cur, (size_t)cur_len, algs, n_banks, rec);
	memset(&values, 0, sizeof values);
	rc = event_sequence_fd(tpm, pcr, fd, cur, next, (size_t)next_len, &values, size);
	if (rc < 0)
		return rc;
	return take_digests(tpm, &values, algs, n_banks, rec);
}

int tpm_hash(void *ctx, uint16_t alg, const void *data, size_t len, uint8_t *out)
{
	struct tpm *tpm = ctx;
	const struct hash_alg *a = hash_alg_by_id(alg);
	TPM2B_MAX_BUFFER buf = { .size = (UINT16)len };
	TPM2B_DIGEST digest = { .size = 0 };
	TPMT_TK_HASHCHECK ticket;
	TSS2_RC rc;

	if (!a || len > sizeof buf.buffer)
		return -1;
	memcpy(buf.buffer, data, len);
	rc = Tss2_Sys_Hash(tpm->sys, NULL, &buf, alg, TPM2_RH_NULL, &digest, &ticket, NULL);
	if (rc != TSS2_RC_SUCCESS) {
		log_error("%s: TPM2_Hash(%s) failed: response code 0x%x", tpm->spec, a->name, rc);
		return -1;
	}
	if (digest.size != a->size) {
		log_error("%s: TPM2_Hash(%s) returned %u bytes", tpm->spec, a->name, digest.size);
		return -1;
	}
	memcpy(out, digest.buffer, a->size);
	return 0;
}

static int bank_index(const struct pcr_values *v, uint16_t alg)
{
	for (unsigned b = 0; b < v->n_banks; b++)
		if (v->algs[b] == alg)
			return (int)b;
	return -1;
}

static void select_pcrs(TPML_PCR_SELECTION *want, const struct pcr_values *v, uint32_t mask)
{
	memset(want, 0, sizeof *want);
	want->count = v->n_banks;
	for (unsigned b = 0; b < v->n_banks; b++) {
		want->pcrSelections[b].hash = v->algs[b];
		want->pcrSelections[b].sizeofSelect = PCR_SELECT_BYTES;
		for (unsigned i = 0; i < PCR_SELECT_BYTES; i++)
			want->pcrSelections[b].pcrSelect[i] = (BYTE)(mask >> (8 * i));
	}
}

static bool selection_empty(const TPML_PCR_SELECTION *sel)
{
	for (unsigned b = 0; b < sel->count; b++)
		if (selects_any(&sel->pcrSelections[b]))
			return false;
	return true;
}

/* File the digests of one TPM2_PCR_Read answer into v and strike them from want.
 * Returns how many were filed, or -1 when the answer does not add up. */
static int file_pcr_values(struct pcr_values *v, TPML_PCR_SELECTION *want,
			   const TPML_PCR_SELECTION *got, const TPML_DIGEST *values)
{
	unsigned used = 0;
	for (unsigned s = 0; s < got->count && s < TPM2_NUM_PCR_BANKS; s++) {
		const TPMS_PCR_SELECTION *sel = &got->pcrSelections[s];
		int b = bank_index(v, sel->hash);
		unsigned size = hash_alg_by_id(sel->hash) ? hash_alg_by_id(sel->hash)->size : 0;
		for (unsigned pcr = 0; pcr < PCR_COUNT; pcr++) {
			if (pcr / 8 >= sel->sizeofSelect || !(sel->pcrSelect[pcr / 8] & (1u << (pcr % 8))))
				continue;
			if (b < 0 || used >= values->count || values->digests[used].size != size)
				return -1;
			memcpy(v->value[b][pcr], values->digests[used++].buffer, size);
			want->pcrSelections[b].pcrSelect[pcr / 8] &= (BYTE) ~(1u << (pcr % 8));
		}
	}
	return (int)used;
}

/* One pass over all wanted PCRs; TPM2_PCR_Read answers at most 8 per call. 1 = the
 * PCRs changed meanwhile (pcrUpdateCounter moved), try again. */
static int read_pass(struct tpm *tpm, uint32_t mask, struct pcr_values *v)
{
	TPML_PCR_SELECTION want, got;
	TPML_DIGEST values;
	UINT32 first_counter = 0, counter;
	bool first = true;

	select_pcrs(&want, v, mask);
	while (!selection_empty(&want)) {
		TSS2_RC rc = Tss2_Sys_PCR_Read(tpm->sys, NULL, &want, &counter, &got, &values, NULL);
		if (rc != TSS2_RC_SUCCESS) {
			command_failed(tpm, "TPM2_PCR_Read", rc);
			return -1;
		}
		if (!first && counter != first_counter)
			return 1;
		first_counter = counter;
		first = false;
		if (file_pcr_values(v, &want, &got, &values) <= 0) {
			log_error("%s: TPM2_PCR_Read returned an answer that does not match the request",
				  tpm->spec);
			return -1;
		}
	}
	return 0;
}

int tpm_read_pcrs(struct tpm *tpm, uint32_t mask, struct pcr_values *v)
{
	for (int attempt = 0; attempt < 5; attempt++) {
		int r = read_pass(tpm, mask, v);
		if (r <= 0) {
			if (r == 0)
				v->pcr_mask = mask;
			return r;
		}
	}
	log_error("%s: the PCRs kept changing while being read", tpm->spec);
	return -1;
}

static void property_text(uint32_t value, char *out)
{
	for (int i = 0; i < 4; i++) {
		char c = (char)(value >> (24 - 8 * i));
		out[i] = c >= 0x20 && c < 0x7f ? c : '\0';
	}
	out[4] = '\0';
}

static void file_property(struct tpm_info *info, const TPMS_TAGGED_PROPERTY *p)
{
	switch (p->property) {
	case TPM2_PT_FAMILY_INDICATOR: property_text(p->value, info->family); break;
	case TPM2_PT_LEVEL: info->level = p->value; break;
	case TPM2_PT_REVISION: info->revision = p->value; break;
	case TPM2_PT_MANUFACTURER: property_text(p->value, info->manufacturer); break;
	case TPM2_PT_VENDOR_STRING_1:
	case TPM2_PT_VENDOR_STRING_2:
	case TPM2_PT_VENDOR_STRING_3:
	case TPM2_PT_VENDOR_STRING_4: {
		char part[5];
		property_text(p->value, part);
		strncat(info->vendor, part, sizeof info->vendor - strlen(info->vendor) - 1);
		break;
	}
	case TPM2_PT_FIRMWARE_VERSION_1: info->firmware[0] = p->value; break;
	case TPM2_PT_FIRMWARE_VERSION_2: info->firmware[1] = p->value; break;
	default: break;
	}
}

int tpm_describe(struct tpm *tpm, struct tpm_info *info)
{
	TPMS_CAPABILITY_DATA cap;
	TPMI_YES_NO more = 0;
	TPML_TAGGED_TPM_PROPERTY *props = &cap.data.tpmProperties;
	TSS2_RC rc = Tss2_Sys_GetCapability(tpm->sys, NULL, TPM2_CAP_TPM_PROPERTIES,
					    TPM2_PT_FAMILY_INDICATOR, 13, &more, &cap, NULL);
	memset(info, 0, sizeof *info);
	if (rc != TSS2_RC_SUCCESS) {
		command_failed(tpm, "TPM2_GetCapability(TPM_PROPERTIES)", rc);
		return -1;
	}
	for (unsigned i = 0; i < props->count && i < TPM2_MAX_TPM_PROPERTIES; i++)
		file_property(info, &props->tpmProperty[i]);
	return 0;
}
