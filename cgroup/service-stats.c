/* A service's memory, pids and CPU figures. A missing file (controller not enabled,
 * older kernel) is a missing figure, never an error. */
#include "cg-service.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

static unsigned long long read_value(int fd, const char *file)
{
	char buf[32];
	unsigned long long v;
	ssize_t n = io_read_file_at(fd, file, buf, sizeof buf);

	if (n < 0 || (size_t)n == sizeof buf - 1 || cg_parse_u64(buf, (size_t)n, &v) < 0)
		return CG_UNSET;
	return v;
}

static unsigned long long read_key(int fd, const char *file, const char *key)
{
	unsigned long long v;
	int kfd = openat(fd, file, O_RDONLY | O_CLOEXEC);
	int r;

	if (kfd < 0)
		return CG_UNSET;
	r = cg_kv_read(kfd, key, &v);
	close(kfd);
	return r == 1 ? v : CG_UNSET;
}

int cg_read_stats(int fd, bool hugetlb_accounted, struct cg_stats *st)
{
	struct stat sb;

	st->memory_current = st->memory_peak = st->hugetlb_bytes = CG_UNSET;
	st->pids_current = st->cpu_usage_usec = CG_UNSET;
	if (fstat(fd, &sb) < 0)
		return -1;
	if (!S_ISDIR(sb.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	st->memory_current = read_value(fd, "memory.current");
	st->memory_peak = read_value(fd, "memory.peak");
	if (hugetlb_accounted)
		st->hugetlb_bytes = read_key(fd, "memory.stat", "hugetlb");
	st->pids_current = read_value(fd, "pids.current");
	st->cpu_usage_usec = read_key(fd, "cpu.stat", "usage_usec");
	return 0;
}
