/* See exec-more.h. */
#include "exec-more.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec-context.h"

/* ioprio_set(2) has no libc wrapper. */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

static int failed(struct exec_failure *f, enum exec_step step, int64_t arg)
{
	f->step = step;
	f->err = errno;
	f->arg = arg;
	return -1;
}

int exec_cpu_list_parse(const char *s, uint64_t bits[EXEC_CPUS_MAX / 64])
{
	memset(bits, 0, EXEC_CPUS_MAX / 8);
	while (*s) {
		unsigned long a, b;
		char *end;
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return -1;
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= EXEC_CPUS_MAX)
			return -1;
		for (unsigned long c = a; c <= b; c++)
			bits[c / 64] |= (uint64_t)1 << (c % 64);
		s = end;
	}
	return 0;
}

static int set_affinity(const uint64_t *bits)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned c = 0; c < EXEC_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (bits[c / 64] & ((uint64_t)1 << (c % 64)))
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

int exec_more_apply(const struct exec_more *m, struct exec_failure *f)
{
	if (m->ioprio_set) {
		int value = (m->ioprio_class << IOPRIO_CLASS_SHIFT) | m->ioprio_level;
		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, value) < 0)
			return failed(f, EXEC_STEP_IOPRIO, value);
	}
	if (m->sched_set) {
		struct sched_param p = { .sched_priority = m->sched_priority };
		int policy = m->sched_policy | (m->sched_reset_on_fork ? SCHED_RESET_ON_FORK : 0);
		/* the raw syscall: musl's sched_setscheduler() only returns ENOSYS */
		if (syscall(SYS_sched_setscheduler, 0, policy, &p) < 0)
			return failed(f, EXEC_STEP_SCHED, m->sched_policy);
	}
	if (m->affinity && set_affinity(m->affinity) < 0)
		return failed(f, EXEC_STEP_AFFINITY, 0);
	if (exec_credentials_setup(m) < 0)
		return failed(f, EXEC_STEP_CREDENTIALS, 0);
	return 0;
}

/* ---- the last steps before execve ---- */

static bool apparmor_enabled(void)
{
	char c = 'N';
	int fd = open("/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = 'N';
	close(fd);
	return c == 'Y';
}

/* aa_change_onexec(): "exec PROFILE" to the exec attribute (the AppArmor-specific one
 * first, the shared LSM one on older kernels). */
static int apparmor_change_onexec(const char *profile)
{
	static const char *const attrs[] = { "/proc/self/attr/apparmor/exec", "/proc/self/attr/exec" };
	char cmd[300];
	size_t len = strlen(profile);
	int fd = -1;

	if (len > sizeof cmd - 6) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(cmd, "exec ", 5);
	memcpy(cmd + 5, profile, len);
	for (size_t i = 0; fd < 0 && i < sizeof attrs / sizeof *attrs; i++)
		fd = open(attrs[i], O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, cmd, len + 5) != (ssize_t)(len + 5)) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int exec_final_apply(unsigned secure_bits, const char *apparmor_profile, struct exec_failure *f)
{
	if (secure_bits && prctl(PR_GET_SECUREBITS) != (int)secure_bits &&
	    prctl(PR_SET_SECUREBITS, secure_bits) < 0)
		return failed(f, EXEC_STEP_SECUREBITS, secure_bits);
	if (apparmor_profile && *apparmor_profile && apparmor_enabled()) {
		bool optional = apparmor_profile[0] == '-';
		if (apparmor_change_onexec(apparmor_profile + optional) < 0 &&
		    !(optional && errno == ENOENT))
			return failed(f, EXEC_STEP_APPARMOR, 0);
	}
	return 0;
}
