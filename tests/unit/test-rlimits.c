// sources: init/rlimits.c
/* What ember-init raises its own limits to (init/rlimits.c), as systemd's PID 1 raises
 * its own: open files to fs.nr_open, locked memory to an eighth of the RAM but at least
 * 64 MiB; never lower than PID 1 was started with. */
#include "harness.h"
#include "../../init/rlimits.h"

static struct rlimit raised(int r, rlim_t cur, rlim_t max, rlim_t nr_open,
			    unsigned long long mem)
{
	return rlimits_raised(r, (struct rlimit){ cur, max }, nr_open, mem / 4096, 4096);
}

static void open_files_to_nr_open(void)
{
	struct rlimit l = raised(RLIMIT_NOFILE, 1024, 4096, 1048576, 0); /* the kernel's start */
	CHECK(l.rlim_cur == 1048576 && l.rlim_max == 1048576);
	l = raised(RLIMIT_NOFILE, 1024, 4096, 0, 0); /* nr_open unknown: its default */
	CHECK(l.rlim_cur == RLIMITS_NR_OPEN_DEFAULT && l.rlim_max == RLIMITS_NR_OPEN_DEFAULT);
	l = raised(RLIMIT_NOFILE, 2000000, 3000000, 1048576, 0); /* never lowered */
	CHECK(l.rlim_cur == 2000000 && l.rlim_max == 3000000);
}

/* the Debian disk's guest: 983,484 kB of RAM (245,871 pages) gave systemd's PID 1
 * 125,882,368 bytes, 30,733 whole pages: an eighth, rounded down to a page */
static void locked_memory_an_eighth_of_ram(void)
{
	struct rlimit l = raised(RLIMIT_MEMLOCK, 8 << 20, 8 << 20, 0, 983484ULL * 1024);
	CHECK(l.rlim_cur == 125882368 && l.rlim_max == 125882368);
	l = raised(RLIMIT_MEMLOCK, 8 << 20, 8 << 20, 0, 256ULL << 20); /* small: the floor */
	CHECK(l.rlim_cur == 64 << 20 && l.rlim_max == 64 << 20);
	l = raised(RLIMIT_MEMLOCK, 8 << 20, RLIM_INFINITY, 0, 0);
	CHECK(l.rlim_cur == 64 << 20 && l.rlim_max == RLIM_INFINITY);
}

static void other_limits_unchanged(void)
{
	struct rlimit l = raised(RLIMIT_CORE, 0, RLIM_INFINITY, 1048576, 1ULL << 30);
	CHECK(l.rlim_cur == 0 && l.rlim_max == RLIM_INFINITY);
	CHECK(!rlimits_original(RLIMIT_NOFILE, &l)); /* nothing saved before raising */
}

int main(void)
{
	RUN(open_files_to_nr_open);
	RUN(locked_memory_an_eighth_of_ram);
	RUN(other_limits_unchanged);
	return harness_done();
}
