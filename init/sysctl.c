/* Boot-time kernel settings (sysctl.h). No allocation: PID 1. */
#include "sysctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io.h"
#include "log.h"
#include "parse.h"

#define TIOCSTI_OPTION "ember.legacy_tiocsti="
#define TIOCSTI_SYSCTL "/proc/sys/dev/tty/legacy_tiocsti"

/* The value of the last "NAME=" word in options (later words win), or NULL. */
static const char *last_value(const char *options, const char *name, size_t *len)
{
	const char *hit = NULL;
	size_t n = strlen(name);
	for (const char *p = options; (p = strstr(p, name)); p += n)
		if (p == options || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n')
			hit = p + n;
	if (hit)
		*len = strcspn(hit, " \t\n");
	return hit;
}

int sysctl_raise_dgram_qlen(const char *path)
{
	char buf[32];
	unsigned long now;

	if (io_read_file(path, buf, sizeof buf) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_ulong(buf, 0, ~0UL, &now) == 0 && now >= SYSCTL_DGRAM_QLEN)
		return 0;
	snprintf(buf, sizeof buf, "%d\n", SYSCTL_DGRAM_QLEN);
	return io_write_file(path, buf) == 0 ? 1 : -1;
}

void sysctl_apply_boot(const char *options)
{
	size_t len = 0;
	const char *v = last_value(options, TIOCSTI_OPTION, &len);
	if (!v)
		return;
	if (len != 1 || (v[0] != '0' && v[0] != '1')) {
		log_warn("%s%.*s: expected 0 or 1; ignored", TIOCSTI_OPTION, (int)(len > 16 ? 16 : len), v);
		return;
	}
	if (io_write_file(TIOCSTI_SYSCTL, v[0] == '0' ? "0\n" : "1\n") == 0) {
		log_info("dev.tty.legacy_tiocsti = %c", v[0]);
		return;
	}
	if (errno == ENOENT)
		log_warn("%s%c: this kernel has no dev.tty.legacy_tiocsti (it came in 6.2): "
			 "TIOCSTI stays allowed", TIOCSTI_OPTION, v[0]);
	else
		log_warn("%s: %s", TIOCSTI_SYSCTL, strerror(errno));
}
