/* PID 1's own resource limits (rlimits.h). */
#include "rlimits.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/io.h"

static const int raised[] = { RLIMIT_NOFILE, RLIMIT_MEMLOCK };

static struct {
	bool saved;
	struct rlimit was[sizeof raised / sizeof *raised];
} own;

static rlim_t larger(rlim_t a, rlim_t b)
{
	return a > b ? a : b; /* RLIM_INFINITY is the largest value */
}

struct rlimit rlimits_raised(int resource, struct rlimit was, rlim_t nr_open,
			     unsigned long long ram_pages, unsigned long page_size)
{
	rlim_t want = 0;

	if (resource == RLIMIT_NOFILE)
		want = nr_open ? nr_open : RLIMITS_NR_OPEN_DEFAULT;
	else if (resource == RLIMIT_MEMLOCK)
		want = larger(RLIMITS_MEMLOCK_FLOOR, ram_pages / 8 * page_size);
	return (struct rlimit){ larger(was.rlim_cur, want), larger(was.rlim_max, want) };
}

static int slot(int resource)
{
	for (size_t i = 0; i < sizeof raised / sizeof *raised; i++)
		if (raised[i] == resource)
			return (int)i;
	return -1;
}

void rlimits_raise_own(void)
{
	char nr[32] = "";
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	rlim_t nr_open;

	if (own.saved)
		return;
	io_read_file("/proc/sys/fs/nr_open", nr, sizeof nr);
	nr_open = (rlim_t)strtoull(nr, NULL, 10);
	for (size_t i = 0; i < sizeof raised / sizeof *raised; i++) {
		struct rlimit up;
		if (getrlimit(raised[i], &own.was[i]) < 0)
			return;
		up = rlimits_raised(raised[i], own.was[i], nr_open, pages > 0 ? (unsigned long long)pages : 0,
				    page > 0 ? (unsigned long)page : 0);
		if (setrlimit(raised[i], &up) < 0) {
			up = (struct rlimit){ own.was[i].rlim_max, own.was[i].rlim_max };
			setrlimit(raised[i], &up);
		}
	}
	own.saved = true;
}


bool rlimits_original(int resource, struct rlimit *out)
{
	int i = slot(resource);

	if (i < 0 || !own.saved)
		return false;
	*out = own.was[i];
	return true;
}

void rlimits_for_child(void)
{
	if (!own.saved)
		return;
	for (size_t i = 0; i < sizeof raised / sizeof *raised; i++)
		setrlimit(raised[i], &own.was[i]);
}

void rlimits_restore_own(void)
{
	rlimits_for_child(); /* the same limits back, in PID 1 itself */
	own.saved = false;
}
