// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* EnvironmentFile= contents. Every assignment handed out is NAME=value with a name. */
#include "fuzz.h"
#include "service.h"

static int check(void *ctx, const char *assignment)
{
	(void)ctx;
	if (!strchr(assignment, '=') || assignment[0] == '=')
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	service_envfile_parse((const char *)data, size, check, NULL, err, sizeof err);
	return 0;
}
