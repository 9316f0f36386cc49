// sources: empowerd/policy.c
/* /etc/empower policy files, then a match against the parsed rules. */
#include "fuzz.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct policy p;
	static const uint32_t gids[] = { 10, 100 };
	static const char *const args[] = { "-l", "x" };
	const struct policy_query q = { 1000, gids, 2, 0, "/usr/bin/id", args, 2 };
	char err[256];

	if (policy_parse((const char *)data, size, &p, err, sizeof err) == 0)
		policy_match(&p, &q);
	return 0;
}
