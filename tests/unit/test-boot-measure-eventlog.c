// sources: boot-measure/eventlog.c
/* The log file's crash marker and locks: a writer that stops between "in progress" and
 * "complete" leaves the sticky bit for the next writer and every reader to see. */
#include "harness.h"
#include "../../boot-measure/eventlog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], path[128];

static void setup(void)
{
	strcpy(dir, "/tmp/bm-eventlog-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof path, "%s/sub/dir/m.log", dir);
}

static void teardown(void)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("  cannot remove %s\n", dir);
}

static mode_t mode_of(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 ? st.st_mode & 07777 : 0;
}

static void writer_creates_private_file_and_dirs(void)
{
	struct event_log log;
	CHECK(event_log_open_writer(&log, path) == 0);
	CHECK(mode_of(path) == 0600);
	CHECK(!log.was_incomplete);
	event_log_close(&log);
}

static void marker_set_and_cleared_around_append(void)
{
	struct event_log log;
	char *data;
	size_t len;
	CHECK(event_log_open_writer(&log, path) == 0);
	CHECK(event_log_mark_in_progress(&log) == 0);
	CHECK(mode_of(path) == (0600 | S_ISVTX));
	CHECK(event_log_append(&log, "\x1e{}\n", 4) == 0);
	CHECK(event_log_mark_complete(&log) == 0);
	CHECK(mode_of(path) == 0600);
	event_log_close(&log);
	CHECK(event_log_read(&log, path, &data, &len) == 0);
	CHECK(len == 4 && memcmp(data, "\x1e{}\n", 4) == 0 && !log.was_incomplete);
	free(data);
	event_log_close(&log);
}

static void interrupted_writer_leaves_the_log_incomplete(void)
{
	struct event_log log;
	char *data;
	size_t len;
	CHECK(event_log_open_writer(&log, path) == 0);
	CHECK(event_log_mark_in_progress(&log) == 0);
	event_log_close(&log); /* "crashed" before appending */
	CHECK(event_log_read(&log, path, &data, &len) == 0);
	CHECK(log.was_incomplete);
	free(data);
	event_log_close(&log);
	/* The next writer sees it and does not clear it. */
	CHECK(event_log_open_writer(&log, path) == 0);
	CHECK(log.was_incomplete);
	CHECK(event_log_mark_in_progress(&log) == 0);
	CHECK(event_log_mark_complete(&log) == 0);
	CHECK(mode_of(path) & S_ISVTX);
	event_log_close(&log);
}

static void reader_holds_a_shared_lock(void)
{
	struct event_log log;
	char *data;
	size_t len;
	int fd;
	CHECK(event_log_read(&log, path, &data, &len) == 0);
	fd = open(path, O_RDONLY);
	CHECK(flock(fd, LOCK_SH | LOCK_NB) == 0);
	flock(fd, LOCK_UN);
	CHECK(flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK);
	close(fd);
	free(data);
	event_log_close(&log);
}

static void missing_log_reads_empty(void)
{
	struct event_log log;
	char *data;
	size_t len = 9;
	char missing[160];
	snprintf(missing, sizeof missing, "%s/none.log", dir);
	CHECK(event_log_read(&log, missing, &data, &len) == 0);
	CHECK(len == 0 && data[0] == '\0' && log.fd < 0);
	free(data);
}

static void refuses_symlinks_and_non_files(void)
{
	struct event_log log;
	char link[160], *data;
	size_t len;
	snprintf(link, sizeof link, "%s/link.log", dir);
	CHECK(symlink(path, link) == 0);
	CHECK(event_log_open_writer(&log, link) < 0 && errno == ELOOP);
	CHECK(event_log_read(&log, link, &data, &len) < 0);
	CHECK(event_log_open_writer(&log, dir) < 0);
}

int main(void)
{
	setup();
	RUN(writer_creates_private_file_and_dirs);
	RUN(marker_set_and_cleared_around_append);
	RUN(interrupted_writer_leaves_the_log_incomplete);
	RUN(reader_holds_a_shared_lock);
	RUN(missing_log_reads_empty);
	RUN(refuses_symlinks_and_non_files);
	teardown();
	return harness_done();
}
