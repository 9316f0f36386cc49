#ifndef EMBER_SANDBOX_SECCOMP_H
#define EMBER_SANDBOX_SECCOMP_H
/* ember-sandbox's seccomp keys (SystemCallFilter= ... ProtectClock=, ember-sandbox(8)):
 * the options (seccomp-args.c) parse into a request; seccomp.c turns it into classic
 * BPF programs by hand (no libseccomp) and installs them as the last step before the
 * service's execve. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscall-filter.h"

struct seccomp_request {
	struct syscall_filter filter;   /* SystemCallFilter= */
	int error_number;               /* SystemCallErrorNumber=: errno or KILL */
	bool archs_native;              /* SystemCallArchitectures= non-empty */
	struct af_filter families;      /* RestrictAddressFamilies= */
	uint32_t ns_allowed;            /* RestrictNamespaces=: NAMESPACES_ALL = none */
	bool ns_first_done;
	bool memory_deny_write_execute, restrict_realtime, lock_personality;
	bool restrict_suid_sgid, protect_hostname, protect_kernel_logs, protect_clock;
	bool deny_raw_io; /* PrivateDevices=: systemd's implied SystemCallFilter=~@raw-io */
	bool any;                       /* some seccomp option was given */
};

void seccomp_request_init(struct seccomp_request *r);
/* One --option of ember-sandbox: 1 taken, 0 not a seccomp option, -1 invalid (err). */
int seccomp_option(struct seccomp_request *r, const char *arg, char *err, size_t size);

/* Stage 1, as root, inside the new mount namespace: the parts that are not filters
 * (ProtectHostname's UTS namespace, the bounding set drops). 0, or -1 with errno. */
int seccomp_prepare(const struct seccomp_request *r);

/* Builds every program; with install, loads them (setting no_new_privs first when the
 * process lacks CAP_SYS_ADMIN, as systemd implies NoNewPrivileges=). 0, or -1 with a
 * message in err. Without install it only checks that the programs fit. */
int seccomp_install(const struct seccomp_request *r, bool install, char *err, size_t size);
#endif
