// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* A unit file (init/service.c init/unit-runtime-keys.c): any bytes are parsed,
 * validated, and either usable or failed; never a crash. Each input is read three
 * times: as a service, as a timer unit (its [Timer] keys, OnCalendar= events:
 * unit-timer.c) and as a path unit (its [Path] keys: unit-path.c). */
#include "fuzz.h"
#include "service.h"

static void quiet(void *ctx, enum service_severity sev, const char *file, unsigned line,
		  const char *msg)
{
	(void)ctx; (void)sev; (void)file; (void)line; (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct service svc;
	const struct service_diag diag = { quiet, NULL, false };

	if (service_init(&svc, "fuzz", "/fuzz/fuzz.service") < 0)
		abort();
	service_parse(&svc, (const char *)data, size, &diag);
	if (service_init(&svc, "fuzz.timer", "/fuzz/fuzz.timer") < 0) /* timer units */
		abort();
	service_parse(&svc, (const char *)data, size, &diag);
	if (service_init(&svc, "fuzz.path", "/fuzz/fuzz.path") < 0) /* path units */
		abort();
	service_parse(&svc, (const char *)data, size, &diag);
	return 0;
}
