#ifndef BOOT_MEASURE_H
#define BOOT_MEASURE_H
/* What main.c hands the commands, and the exit codes they return (see
 * man/boot-measure.8.scd; ember-init relies on EXIT_NO_TPM). */
#include <stdbool.h>

enum {
	EXIT_MISMATCH = 1,   /* verify: the log does not replay to the TPM's PCRs */
	EXIT_NO_TPM = 2,     /* no TPM: nothing measured */
	EXIT_TPM12 = 3,      /* a TPM 1.2: refused, nothing measured */
	EXIT_TPM_FAILED = 4, /* the TPM or its connection failed */
	EXIT_BAD_LOG = 5,    /* the log is marked incomplete, malformed or unreadable */
};

#define PCR_BOOT_PHASE 11  /* systemd's "kernel-boot" PCR */
#define PCR_MACHINE_ID 15  /* systemd's "system-identity" PCR */
#define MACHINE_ID_DEFAULT "/etc/machine-id"

struct options {
	const char *tcti;     /* "device:/dev/tpmrm0" unless --tcti or $EMBER_MEASURE_TCTI */
	const char *log_path; /* unless --log or $EMBER_MEASURE_LOG */
	int pcr;              /* extend --pcr; -1 when not given */
	const char *string;   /* extend --string */
	const char *file;     /* extend --file, machine-id --file */
	bool json;            /* log --json */
};

int cmd_phase(const struct options *opt, const char *word);
int cmd_extend(const struct options *opt);
int cmd_machine_id(const struct options *opt);
int cmd_log(const struct options *opt);
int cmd_verify(const struct options *opt);
int cmd_status(const struct options *opt);

/* Shared by the commands: the exit code for a TPM that is not ready, after saying why. */
int tpm_unavailable(const struct options *opt, int result, bool measuring);
#endif
