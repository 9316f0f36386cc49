/* emberctl verify: the seccomp keys' names, checked as ember-sandbox will check them
 * when the service starts (PID 1 only keeps the raw lines). An unknown system call,
 * group, errno, address family or namespace type is an error: ember-sandbox refuses to
 * run the service. */
#include "verify-seccomp.h"

#include <stdio.h>
#include <string.h>

#include "syscall-filter.h"

static const char *const key_names[SECCOMP_TEXT_KINDS] = {
	[SECCOMP_FILTER] = "SystemCallFilter", [SECCOMP_ERROR_NUMBER] = "SystemCallErrorNumber",
	[SECCOMP_ARCHITECTURES] = "SystemCallArchitectures",
	[SECCOMP_ADDRESS_FAMILIES] = "RestrictAddressFamilies",
	[SECCOMP_NAMESPACES] = "RestrictNamespaces",
};

struct check_state {
	struct syscall_filter filter;
	struct af_filter families;
	uint32_t ns_allowed;
	bool ns_first, archs_native, foreign;
	int action;
};

static int check_line(struct check_state *st, int kind, const char *line, char *err, size_t size)
{
	switch (kind) {
	case SECCOMP_FILTER:
		return syscall_filter_add(&st->filter, line, err, size);
	case SECCOMP_ERROR_NUMBER:
		if (syscall_action_parse(line, &st->action) == 0)
			return 0;
		snprintf(err, size, "%.64s: expected an errno name, 0-4095 or kill", line);
		return -1;
	case SECCOMP_ARCHITECTURES: {
		bool foreign;
		int r = syscall_archs_parse(line, &st->archs_native, &foreign, err, size);
		st->foreign |= foreign;
		return r;
	}
	case SECCOMP_ADDRESS_FAMILIES:
		return af_filter_add(&st->families, line, err, size);
	default:
		return namespaces_add(&st->ns_allowed, &st->ns_first, line, err, size);
	}
}

void verify_seccomp(const struct service *svc, const struct service_diag *diag)
{
	static struct check_state st;
	char err[160], message[SERVICE_ERROR_MAX + 64];

	memset(&st, 0, sizeof st);
	st.ns_allowed = NAMESPACES_ALL;
	for (int k = 0; k < SECCOMP_TEXT_KINDS; k++) {
		const char *p = service_str(svc, svc->execenv.seccomp_text[k]);
		while (*p) {
			char line[1024];
			size_t len = strcspn(p, "\n");
			snprintf(line, sizeof line, "%.*s", (int)len, p);
			if (check_line(&st, k, line, err, sizeof err) < 0) {
				snprintf(message, sizeof message, "%s=: %s (ember-sandbox would not start "
					 "the service)", key_names[k], err);
				diag->report(diag->ctx, SERVICE_ERROR, svc->path, 0, message);
			}
			p += len;
			p += *p == '\n';
		}
	}
	if (st.foreign)
		diag->report(diag->ctx, SERVICE_WARNING, svc->path, 0,
			     "SystemCallArchitectures=: ember filters only the native ABI; the "
			     "other architectures listed stay blocked");
}
