// sources: init/svc-pidfile.c
/* U2: PIDFile= reading (on real files: ownership, links, FIFOs) and main-PID guessing
 * from a cgroup.procs list. */
#include "harness.h"
#include "svc-pidfile.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static char path[128];
static char err[256];

static void write_file(const char *name, const char *text)
{
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void parse_forms(void)
{
	pid_t pid = 0;
	CHECK(svc_pidfile_parse("1234\n", 5, &pid) == 0 && pid == 1234);
	CHECK(svc_pidfile_parse(" 77 \r\n", 6, &pid) == 0 && pid == 77);
	CHECK(svc_pidfile_parse("", 0, &pid) < 0);
	CHECK(svc_pidfile_parse("0\n", 2, &pid) < 0);
	CHECK(svc_pidfile_parse("-5\n", 3, &pid) < 0);
	CHECK(svc_pidfile_parse("12 34\n", 6, &pid) < 0);
	CHECK(svc_pidfile_parse("99999999999\n", 12, &pid) < 0);
	CHECK(svc_pidfile_parse("12abc", 5, &pid) < 0);
}

static void read_real_files(void)
{
	pid_t pid = 0;
	bool trusted = false;
	char missing[128];

	snprintf(missing, sizeof missing, "%s/none.pid", dir);
	CHECK(svc_pidfile_read(missing, &pid, &trusted, err, sizeof err) == 0);
	write_file("ok.pid", "4242\n");
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) == 1 && pid == 4242);
	CHECK(trusted == (geteuid() == 0));
	write_file("junk.pid", "hello\n");
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) < 0);
	CHECK(strstr(err, "does not hold a PID") != NULL);
	write_file("big.pid", "1                                                            \n");
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) < 0);
	/* created, not yet written (busybox crond's child, after its parent exited): not
	 * there yet, as a missing file, so the start timeout bounds the wait */
	write_file("empty.pid", "");
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) == 0);
}

static void fifo_does_not_hang(void)
{
	pid_t pid;
	bool trusted;
	snprintf(path, sizeof path, "%s/fifo.pid", dir);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) < 0);
	CHECK(strstr(err, "not a regular file") != NULL);
}

static void ownership_decides_trust(void)
{
	pid_t pid;
	bool trusted = true;
	char target[128];

	if (geteuid() != 0) {
		printf("SKIP ownership_decides_trust: needs root to chown\n");
		return;
	}
	write_file("user.pid", "555\n");
	CHECK(chown(path, 65534, 65534) == 0);
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) == 1 && pid == 555);
	CHECK(!trusted);
	/* A link an unprivileged user made to a root file is no better than their file. */
	write_file("root.pid", "666\n");
	snprintf(target, sizeof target, "%s", path);
	snprintf(path, sizeof path, "%s/link.pid", dir);
	CHECK(symlink(target, path) == 0 && lchown(path, 65534, 65534) == 0);
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) == 1 && pid == 666);
	CHECK(!trusted);
	CHECK(svc_pidfile_read(target, &pid, &trusted, err, sizeof err) == 1 && trusted);
	/* Nor is a root file in a directory someone else owns. */
	snprintf(path, sizeof path, "%s/sub", dir);
	CHECK(mkdir(path, 0755) == 0 && chown(path, 65534, 65534) == 0);
	write_file("sub/r.pid", "777\n");
	CHECK(svc_pidfile_read(path, &pid, &trusted, err, sizeof err) == 1 && !trusted);
}

static void guess_from_cgroup_procs(void)
{
	char cg[128];
	int fd;

	snprintf(cg, sizeof cg, "%s/cg", dir);
	CHECK(mkdir(cg, 0755) == 0);
	fd = open(cg, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	write_file("cg/cgroup.procs", "");
	CHECK(svc_guess_main_pid(fd, 0) == 0);
	write_file("cg/cgroup.procs", "321\n");
	CHECK(svc_guess_main_pid(fd, 0) == 321);
	write_file("cg/cgroup.procs", "321\n400\n");
	CHECK(svc_guess_main_pid(fd, 0) == -1);
	CHECK(svc_guess_main_pid(fd, 400) == 321); /* the control process is not a candidate */
	CHECK(svc_guess_main_pid(-1, 0) == -1);
	close(fd);
}

int main(void)
{
	char cmd[96];

	snprintf(dir, sizeof dir, "/tmp/ember-pidfile.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN(parse_forms);
	RUN(read_real_files);
	RUN(fifo_does_not_hang);
	RUN(ownership_decides_trust);
	RUN(guess_from_cgroup_procs);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return harness_done();
}
