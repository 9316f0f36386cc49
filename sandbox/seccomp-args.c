/* ember-sandbox's seccomp options -> struct seccomp_request (seccomp.h). The values are
 * the unit's lines as written; each option may repeat, in file order, and an empty
 * value resets, as the keys do in systemd. */
#include "seccomp.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

void seccomp_request_init(struct seccomp_request *r)
{
	memset(r, 0, sizeof *r);
	syscall_filter_init(&r->filter);
	af_filter_init(&r->families);
	r->error_number = SYSCALL_ACTION_KILL;
	r->ns_allowed = NAMESPACES_ALL;
}

static const struct {
	const char *name;
	size_t offset;
} flags[] = {
	{ "--memory-deny-write-execute", offsetof(struct seccomp_request, memory_deny_write_execute) },
	{ "--restrict-realtime", offsetof(struct seccomp_request, restrict_realtime) },
	{ "--lock-personality", offsetof(struct seccomp_request, lock_personality) },
	{ "--restrict-suid-sgid", offsetof(struct seccomp_request, restrict_suid_sgid) },
	{ "--protect-hostname", offsetof(struct seccomp_request, protect_hostname) },
	{ "--protect-kernel-logs", offsetof(struct seccomp_request, protect_kernel_logs) },
	{ "--protect-clock", offsetof(struct seccomp_request, protect_clock) },
	{ "--deny-raw-io", offsetof(struct seccomp_request, deny_raw_io) },
};

static int archs(struct seccomp_request *r, const char *value, char *err, size_t size)
{
	bool foreign;

	/* Non-native names cannot be honoured (ember filters only the native ABI): the
	 * other ABIs stay blocked, which is stricter, never looser. */
	return syscall_archs_parse(value, &r->archs_native, &foreign, err, size);
}

static int error_number(struct seccomp_request *r, const char *value, char *err, size_t size)
{
	if (!*value) {
		r->error_number = SYSCALL_ACTION_KILL;
		return 0;
	}
	if (syscall_action_parse(value, &r->error_number) < 0) {
		snprintf(err, size, "%s: expected an errno name, 0-4095 or kill", value);
		return -1;
	}
	return 0;
}

int seccomp_option(struct seccomp_request *r, const char *arg, char *err, size_t size)
{
	const char *v;
	int rc;

	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		if (strcmp(arg, flags[i].name) == 0) {
			*(bool *)((char *)r + flags[i].offset) = true;
			r->any = true;
			return 1;
		}
	if (str_starts_with(arg, "--system-call-filter="))
		rc = syscall_filter_add(&r->filter, arg + 21, err, size);
	else if (str_starts_with(arg, "--system-call-error-number="))
		rc = error_number(r, arg + 27, err, size);
	else if (str_starts_with(arg, "--system-call-architectures="))
		rc = archs(r, arg + 28, err, size);
	else if (str_starts_with(arg, "--restrict-address-families="))
		rc = af_filter_add(&r->families, arg + 28, err, size);
	else if (str_starts_with(arg, "--restrict-namespaces=")) {
		v = arg + 22;
		rc = namespaces_add(&r->ns_allowed, &r->ns_first_done, v, err, size);
	} else
		return 0;
	if (rc < 0)
		return -1;
	r->any = true;
	return 1;
}
