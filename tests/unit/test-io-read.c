// sources:
#include "harness.h"
#include "io.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* A seqpacket socket hands out one record per read(2): io_read_full() must keep reading
 * across records until its buffer is full or the peer has closed. */
static void read_full_reads_across_short_reads(void)
{
	int sv[2];
	char buf[16] = "";

	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0);
	CHECK(write(sv[1], "abc", 3) == 3 && write(sv[1], "def", 3) == 3);
	close(sv[1]);
	CHECK(io_read_full(sv[0], buf, sizeof buf) == 6);
	CHECK(memcmp(buf, "abcdef", 6) == 0);
	CHECK(io_read_full(sv[0], buf, sizeof buf) == 0);
	close(sv[0]);
}

static void read_full_stops_at_size(void)
{
	int p[2];
	char buf[8] = "";

	CHECK(pipe(p) == 0);
	CHECK(write(p[1], "abcdef", 6) == 6);
	close(p[1]);
	CHECK(io_read_full(p[0], buf, 4) == 4 && memcmp(buf, "abcd", 4) == 0);
	CHECK(io_read_full(p[0], buf, 4) == 2 && memcmp(buf, "ef", 2) == 0);
	CHECK(io_read_full(p[0], buf, 0) == 0);
	close(p[0]);
}

static void read_full_reports_errors(void)
{
	char buf[4];
	CHECK(io_read_full(-1, buf, sizeof buf) == -1 && errno == EBADF);
}

static void read_file_truncates_and_terminates(void)
{
	char path[] = "/tmp/ember-test-io-XXXXXX";
	char buf[4];
	int fd = mkstemp(path);

	CHECK(fd >= 0 && write(fd, "hello\n", 6) == 6);
	close(fd);
	CHECK(io_read_file(path, buf, sizeof buf) == 3);
	CHECK_STR(buf, "hel");
	CHECK(io_read_file(path, buf, 1) == 0 && buf[0] == '\0');
	CHECK(io_read_file(path, buf, 0) == -1 && errno == EINVAL);
	unlink(path);
	CHECK(io_read_file(path, buf, sizeof buf) == -1 && errno == ENOENT);
}

int main(void)
{
	RUN(read_full_reads_across_short_reads);
	RUN(read_full_stops_at_size);
	RUN(read_full_reports_errors);
	RUN(read_file_truncates_and_terminates);
	return harness_done();
}
