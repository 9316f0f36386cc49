/* Signal names for emberctl kill (see kill.h). */
#include "kill.h"

#include <string.h>

#include "parse.h"
#include "../init/service.h"

#define RTMIN 34 /* systemd's and glibc's SIGRTMIN, not musl's 35 (ember-init(8)) */
#define RTMAX 64

/* "RTMIN", "RTMIN+n", "RTMAX", "RTMAX-n" (after "SIG"); -1 otherwise. */
static int realtime(const char *s)
{
	unsigned long n = 0;
	bool max = strncmp(s, "RTMAX", 5) == 0;

	if (!max && strncmp(s, "RTMIN", 5) != 0)
		return -1;
	if (s[5] == '\0')
		return max ? RTMAX : RTMIN;
	if (s[5] != (max ? '-' : '+') || parse_ulong(s + 6, 0, RTMAX - RTMIN, &n) < 0)
		return -1;
	return max ? RTMAX - (int)n : RTMIN + (int)n;
}

int kill_signal_parse(const char *s)
{
	const char *bare = strncmp(s, "SIG", 3) == 0 ? s + 3 : s;
	int sig = realtime(bare);

	if (sig > 0)
		return sig;
	return service_signal_from_name(s);
}
