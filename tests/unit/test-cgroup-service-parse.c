// sources:
/* The cgroupfs parsers of cgroup/service.h against well-formed, empty, huge and
 * garbage content. File content is fed through memfds, as the kernel would hand it. */
#include "harness.h"
#include "cg-service.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

static int memfd_with(const char *text, size_t len)
{
	int fd = memfd_create("cgtest", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* cg_kv_read over a memfd holding text; *value untouched unless found. */
static int kv_from(const char *text, size_t len, const char *key, unsigned long long *value)
{
	int fd = memfd_with(text, len);
	int r;

	if (fd < 0)
		return -2;
	r = cg_kv_read(fd, key, value);
	close(fd);
	return r;
}
#define KV(text, key, value) kv_from(text, sizeof text - 1, key, value)

static void controllers_from_real_files(void)
{
	CHECK(cg_controllers_parse("cpuset cpu io memory hugetlb pids rdma misc\n") == CG_CTRL_WANTED);
	CHECK(cg_controllers_parse("memory pids") == (CG_CTRL_MEMORY | CG_CTRL_PIDS));
	CHECK(cg_controllers_parse("cpu\tio") == (CG_CTRL_CPU | CG_CTRL_IO));
}

static void controllers_empty_and_garbage(void)
{
	CHECK(cg_controllers_parse("") == 0);
	CHECK(cg_controllers_parse("\n") == 0);
	CHECK(cg_controllers_parse("   \n\t ") == 0);
	/* Whole words only: prefixes and extensions of a name are other controllers. */
	CHECK(cg_controllers_parse("mem memoryx cpuset iox pid") == 0);
	CHECK(cg_controllers_parse("\x01\xff memory\x7f") == 0);
	CHECK_STR(cg_controller_name(CG_CTRL_IO), "io");
	CHECK_STR(cg_controller_name(1u << 30), "?");
}

static void u64_strict(void)
{
	unsigned long long v = 7;

	CHECK(cg_parse_u64("0", 1, &v) == 0 && v == 0);
	CHECK(cg_parse_u64("4096\n", 5, &v) == 0 && v == 4096);
	CHECK(cg_parse_u64("18446744073709551615", 20, &v) == 0 && v == ~0ULL);
	errno = 0;
	CHECK(cg_parse_u64("18446744073709551616", 20, &v) < 0 && errno == ERANGE);
	CHECK(cg_parse_u64("99999999999999999999999", 23, &v) < 0 && errno == ERANGE);
	CHECK(cg_parse_u64("", 0, &v) < 0 && errno == EINVAL);
	CHECK(cg_parse_u64("\n", 1, &v) < 0);
	CHECK(cg_parse_u64("max", 3, &v) < 0);
	CHECK(cg_parse_u64("-1", 2, &v) < 0);
	CHECK(cg_parse_u64("+1", 2, &v) < 0);
	CHECK(cg_parse_u64(" 1", 2, &v) < 0);
	CHECK(cg_parse_u64("1 ", 2, &v) < 0);
	CHECK(cg_parse_u64("1\n\n", 3, &v) < 0);
	CHECK(cg_parse_u64("1\0" "2", 3, &v) < 0);
	CHECK(v == ~0ULL); /* failures leave the output alone */
}

static void kv_line_matches_whole_keys(void)
{
	unsigned long long v = 0;

	CHECK(cg_kv_line("populated 1", 11, "populated", &v) == 1 && v == 1);
	CHECK(cg_kv_line("usage_usec 123456789", 20, "usage_usec", &v) == 1 && v == 123456789);
	CHECK(cg_kv_line("populated_x 1", 13, "populated", &v) == 0);
	CHECK(cg_kv_line("populate 1", 10, "populated", &v) == 0);
	CHECK(cg_kv_line("populated", 9, "populated", &v) == 0);
	CHECK(cg_kv_line("", 0, "populated", &v) == 0);
	errno = 0;
	CHECK(cg_kv_line("populated ", 10, "populated", &v) == -1 && errno == EBADMSG);
	CHECK(cg_kv_line("populated  1", 12, "populated", &v) == -1);
	CHECK(cg_kv_line("populated yes", 13, "populated", &v) == -1);
}

static void events_file(void)
{
	unsigned long long v = 9;

	CHECK(KV("populated 0\nfrozen 0\n", "populated", &v) == 1 && v == 0);
	CHECK(KV("populated 1\nfrozen 1\n", "frozen", &v) == 1 && v == 1);
	CHECK(KV("frozen 0\npopulated 1", "populated", &v) == 1 && v == 1); /* no final \n */
	CHECK(KV("populated 1\npopulated 0\n", "populated", &v) == 1 && v == 1); /* first wins */
	v = 9;
	CHECK(KV("", "populated", &v) == 0 && v == 9);
	CHECK(KV("\n\n\n", "populated", &v) == 0);
	CHECK(KV("frozen 0\n", "populated", &v) == 0);
	errno = 0;
	CHECK(KV("populated x\n", "populated", &v) == -1 && errno == EBADMSG);
	CHECK(KV("\0\0\0populated 1\n", "populated", &v) == 0);
}

static void memory_stat_file(void)
{
	unsigned long long v = 0;
	const char stat[] = "anon 1048576\nfile 4096\nkernel 8192\nshmem 0\nfile_thp 0\n"
			    "slab 123\nhugetlb 2097152\npgfault 77\nthp_fault_alloc 0\n";

	CHECK(KV(stat, "hugetlb", &v) == 1 && v == 2097152);
	CHECK(KV(stat, "anon", &v) == 1 && v == 1048576);
	CHECK(KV(stat, "file_mapped", &v) == 0);
	CHECK(KV("anon 1\nfile 2\n", "hugetlb", &v) == 0); /* before 6.7 */
}

static void cpu_stat_file(void)
{
	unsigned long long v = 0;
	const char stat[] = "usage_usec 6271\nuser_usec 3000\nsystem_usec 3271\n"
			    "core_sched.force_idle_usec 0\nnr_periods 0\n";

	CHECK(KV(stat, "usage_usec", &v) == 1 && v == 6271);
	CHECK(KV(stat, "system_usec", &v) == 1 && v == 3271);
	CHECK(KV("user_usec 1\n", "usage_usec", &v) == 0);
}

/* A line longer than the buffer is dropped whole: its tail must not be read as a
 * line of its own, even when the tail looks like the key. */
static void overlong_line_tail_is_not_a_line(void)
{
	static char text[300 + 64];
	unsigned long long v = 0;
	size_t len;

	memset(text, 'x', 255);
	len = 255;
	len += (size_t)snprintf(text + len, sizeof text - len, "populated 0\npopulated 1\n");
	/* cg_kv_read reads 255 bytes at a time: the first read is all 'x' and no '\n', so
	 * the second starts with the tail "populated 0" of that line. */
	CHECK(kv_from(text, len, "populated", &v) == 1 && v == 1);
}

static void huge_garbage_then_key(void)
{
	static char text[1 << 20];
	unsigned long long v = 0;
	size_t len = sizeof text - 32;

	for (size_t i = 0; i < len; i++)
		text[i] = (char)(i * 131 % 251 + 1); /* no NUL; some '\n' among them */
	len += (size_t)snprintf(text + len, 32, "\nhugetlb 42\n");
	CHECK(kv_from(text, len, "hugetlb", &v) == 1 && v == 42);
	/* One megabyte without any newline: nothing matches, nothing overflows. */
	memset(text, 'h', sizeof text);
	CHECK(kv_from(text, sizeof text, "hugetlb", &v) == 0);
}

struct line_log {
	unsigned count;
	char last[64];
};

static int log_line(void *ctx, char *line, size_t len)
{
	struct line_log *l = ctx;
	l->count++;
	CHECK(strlen(line) == len);
	snprintf(l->last, sizeof l->last, "%s", line);
	return 0;
}

static int stop_at_second(void *ctx, char *line, size_t len)
{
	struct line_log *l = ctx;
	(void)line;
	(void)len;
	return ++l->count == 2 ? 1 : 0;
}

static void read_lines_counts_and_stops(void)
{
	char buf[8];
	struct line_log l = { 0, "" };
	int fd = memfd_with("a\nbb\n\nccc\ndddddddddddd\ne", 24);

	/* a, bb, "", ccc, e (the 12 d's do not fit 8 bytes and are skipped) */
	CHECK(cg_read_lines(fd, buf, sizeof buf, log_line, &l) == 0);
	CHECK(l.count == 5);
	CHECK_STR(l.last, "e");
	lseek(fd, 0, SEEK_SET);
	l.count = 0;
	CHECK(cg_read_lines(fd, buf, sizeof buf, stop_at_second, &l) == 1 && l.count == 2);
	errno = 0;
	CHECK(cg_read_lines(fd, buf, 1, log_line, &l) == -1 && errno == EINVAL);
	close(fd);
	CHECK(cg_read_lines(-1, buf, sizeof buf, log_line, &l) == -1 && errno == EBADF);
}

int main(void)
{
	RUN(controllers_from_real_files);
	RUN(controllers_empty_and_garbage);
	RUN(u64_strict);
	RUN(kv_line_matches_whole_keys);
	RUN(events_file);
	RUN(memory_stat_file);
	RUN(cpu_stat_file);
	RUN(overlong_line_tail_is_not_a_line);
	RUN(huge_garbage_then_key);
	RUN(read_lines_counts_and_stops);
	return harness_done();
}
