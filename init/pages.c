/* compact: scratch pages of PID 1's static tables given back after use. */
#include "pages.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The linker's bounds of the zero-initialised data. */
extern char __bss_start[], _end[];

void pages_release(void *start, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	/* the first whole page after the one .bss starts in: anonymous memory only */
	uintptr_t lo = ((uintptr_t)__bss_start & ~(page - 1)) + page;
	uintptr_t hi = (uintptr_t)_end & ~(page - 1);
	uintptr_t from = ((uintptr_t)start + page - 1) & ~(page - 1);
	uintptr_t to = ((uintptr_t)start + len) & ~(page - 1);

	if (from < lo)
		from = lo;
	if (to > hi)
		to = hi;
	if (from < to)
		madvise((void *)from, to - from, MADV_DONTNEED);
}
