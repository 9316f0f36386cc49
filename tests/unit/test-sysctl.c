// sources: init/sysctl.c lib/io.c lib/parse.c lib/log.c
/* net.unix.max_dgram_qlen as systemd's PID 1 leaves it: raised to 512 where lower, a
 * higher value (an administrator's) kept; on a file of the test's own. */
#include "harness.h"
#include "sysctl.h"
#include "io.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

static void put(const char *v)
{
	CHECK(io_write_file(path, v) == 0);
}

static const char *got(void)
{
	static char buf[32];
	return io_read_file(path, buf, sizeof buf) < 0 ? "" : buf;
}

static void raised_where_lower(void)
{
	put("10\n");
	CHECK(sysctl_raise_dgram_qlen(path) == 1);
	CHECK(strcmp(got(), "512\n") == 0);
	CHECK(sysctl_raise_dgram_qlen(path) == 0); /* once is enough */
}

static void higher_value_kept(void)
{
	put("2048\n");
	CHECK(sysctl_raise_dgram_qlen(path) == 0);
	CHECK(strcmp(got(), "2048\n") == 0);
}

static void missing_file_is_an_error(void)
{
	CHECK(sysctl_raise_dgram_qlen("/nonexistent/max_dgram_qlen") < 0);
}

int main(void)
{
	int fd;

	snprintf(path, sizeof path, "/tmp/ember-sysctl.XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	RUN(raised_where_lower);
	RUN(higher_value_kept);
	RUN(missing_file_is_an_error);
	unlink(path);
	return harness_done();
}
