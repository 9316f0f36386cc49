// sources: init/utmp.c
/* UtmpIdentifier=/UtmpMode= records (init/utmp.c), written into files of the test's own
 * and read back by a program of the distribution's (util-linux's utmpdump, glibc), so
 * the layout is checked against the library that reads /run/utmp, not against ember's
 * idea of it. Hostile files: a FIFO, a symbolic link, a file held locked by
 * another process, a torn tail. */
#include "harness.h"
#include "../../init/utmp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/ember-utmp-XXXXXX";
static char utmp_file[64], wtmp_file[64];
static struct utmp_files files;

static void fresh_files(void)
{
	FILE *f;

	snprintf(utmp_file, sizeof utmp_file, "%s/utmp", dir);
	snprintf(wtmp_file, sizeof wtmp_file, "%s/wtmp", dir);
	unlink(utmp_file);
	unlink(wtmp_file);
	f = fopen(utmp_file, "w");
	if (f)
		fclose(f);
	f = fopen(wtmp_file, "w");
	if (f)
		fclose(f);
	files.utmp = utmp_file;
	files.wtmp = wtmp_file;
}

/* utmpdump's lines for path, the time stamps cut off: "[7] [04242] [tty7] [embertest]
 * [tty7] [] [0.0.0.0]" each, joined with "|". */
static const char *dump(const char *path)
{
	static char out[4096];
	char cmd[256], line[512];
	size_t used = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "utmpdump %s 2>/dev/null", path);
	out[0] = '\0';
	if (!(p = popen(cmd, "r")))
		return out;
	while (fgets(line, sizeof line, p)) {
		char *end;
		size_t w = 0;
		for (size_t r = 0; line[r]; r++) /* runs of blanks: one */
			if (line[r] != ' ' || w == 0 || line[w - 1] != ' ')
				line[w++] = line[r];
		line[w] = '\0';
		if ((end = strstr(line, " [0.0.0.0 ]")))
			strcpy(end, " [0.0.0.0]");
		used += (size_t)snprintf(out + used, sizeof out - used, "%s%s", used ? "|" : "",
					 line);
		if (used >= sizeof out)
			break;
	}
	pclose(p);
	return out;
}

static off_t size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void init_record_for_a_getty(void)
{
	fresh_files();
	CHECK(utmp_put_start(&files, "ttyS0", 4242, 4242, "ttyS0", UTMP_MODE_INIT, "root") == 0);
	CHECK_STR(dump(utmp_file), "[5] [04242] [tyS0] [ ] [ttyS0 ] [ ] [0.0.0.0]");
	CHECK_STR(dump(wtmp_file), "[5] [04242] [tyS0] [ ] [ttyS0 ] [ ] [0.0.0.0]");
}

/* UtmpMode=user: INIT, LOGIN, USER into one slot; each into wtmp. */
static void user_mode_for_a_phone_shell(void)
{
	fresh_files();
	CHECK(utmp_put_start(&files, "tty7", 233, 233, "tty7", UTMP_MODE_USER, "embertest") == 0);
	CHECK_STR(dump(utmp_file), "[7] [00233] [tty7] [embertest] [tty7 ] [ ] [0.0.0.0]");
	CHECK(size_of(utmp_file) == size_of(wtmp_file) / 3);
	CHECK_STR(dump(wtmp_file), "[5] [00233] [tty7] [ ] [tty7 ] [ ] [0.0.0.0]|"
		  "[6] [00233] [tty7] [ ] [tty7 ] [ ] [0.0.0.0]|"
		  "[7] [00233] [tty7] [embertest] [tty7 ] [ ] [0.0.0.0]");
}

static void dead_record_only_for_its_pid(void)
{
	char cmd[160], line[256] = "";
	FILE *p;

	fresh_files();
	CHECK(utmp_put_start(&files, "tty7", 233, 233, "tty7", UTMP_MODE_USER, "embertest") == 0);
	CHECK(utmp_put_dead(&files, "tty7", 234, 1, 0) == 0); /* not its record */
	CHECK_STR(dump(utmp_file), "[7] [00233] [tty7] [embertest] [tty7 ] [ ] [0.0.0.0]");
	CHECK(utmp_put_dead(&files, "tty7", 233, 1, 0) == 0);
	CHECK_STR(dump(utmp_file), "[8] [00233] [tty7] [ ] [tty7 ] [ ] [0.0.0.0]");
	CHECK(size_of(wtmp_file) == 4 * size_of(utmp_file));
	/* wtmp's copy is stamped with the time it ended (utmp's has none, as systemd's) */
	CHECK(strstr(dump(wtmp_file), "[8] [00233] [tty7] [ ] [tty7 ] [ ] [0.0.0.0]") != NULL);
	snprintf(cmd, sizeof cmd, "utmpdump %s 2>/dev/null | tail -n 1", wtmp_file);
	if ((p = popen(cmd, "r"))) {
		if (!fgets(line, sizeof line, p))
			line[0] = '\0';
		pclose(p);
	}
	CHECK(strstr(line, "[8]") == line && strstr(line, "1970-") == NULL);
	CHECK(utmp_put_dead(&files, "tty7", 233, 1, 0) == 0); /* twice: nothing more */
	CHECK(size_of(wtmp_file) == 4 * size_of(utmp_file));
}

/* Other ids keep their slots; a new start of an id reuses its old (dead) slot. */
static void slots_reused_by_id(void)
{
	off_t one;

	fresh_files();
	CHECK(utmp_put_start(&files, "tty1", 100, 100, "tty1", UTMP_MODE_INIT, NULL) == 0);
	one = size_of(utmp_file);
	CHECK(utmp_put_start(&files, "tty2", 101, 101, "tty2", UTMP_MODE_LOGIN, NULL) == 0);
	CHECK(utmp_put_dead(&files, "tty1", 100, 1, 0) == 0);
	CHECK(utmp_put_start(&files, "tty1", 102, 102, "tty1", UTMP_MODE_INIT, NULL) == 0);
	CHECK(size_of(utmp_file) == 2 * one);
	CHECK_STR(dump(utmp_file), "[5] [00102] [tty1] [ ] [tty1 ] [ ] [0.0.0.0]|"
		  "[6] [00101] [tty2] [ ] [tty2 ] [ ] [0.0.0.0]");
}

/* No wtmp: utmp is still written, and no wtmp is made. */
static void missing_files(void)
{
	fresh_files();
	unlink(wtmp_file);
	CHECK(utmp_put_start(&files, "tty3", 7, 7, NULL, UTMP_MODE_INIT, NULL) == 0);
	CHECK(access(wtmp_file, F_OK) < 0);
	unlink(utmp_file);
	errno = 0;
	CHECK(utmp_put_start(&files, "tty3", 7, 7, NULL, UTMP_MODE_INIT, NULL) < 0 &&
	      errno == ENOENT);
	CHECK(utmp_put_dead(&files, "tty3", 7, 1, 0) == 0);
	CHECK(access(utmp_file, F_OK) < 0);
}

/* A FIFO or a symbolic link where utmp should be: refused, nothing blocks or follows. */
static void fifo_and_symlink_refused(void)
{
	char target[80];

	fresh_files();
	unlink(utmp_file);
	CHECK(mkfifo(utmp_file, 0600) == 0);
	CHECK(utmp_put_start(&files, "tty4", 8, 8, NULL, UTMP_MODE_INIT, NULL) < 0);
	CHECK(utmp_put_dead(&files, "tty4", 8, 1, 0) < 0);
	unlink(utmp_file);
	snprintf(target, sizeof target, "%s/elsewhere", dir);
	CHECK(close(open(target, O_CREAT | O_WRONLY, 0600)) == 0);
	CHECK(symlink(target, utmp_file) == 0);
	CHECK(utmp_put_start(&files, "tty4", 8, 8, NULL, UTMP_MODE_INIT, NULL) < 0);
	CHECK(size_of(target) == 0);
	unlink(utmp_file);
	unlink(target);
}

/* Another process holds the lock: PID 1's dead record gives up at once (EAGAIN). */
static void locked_file_never_waits_in_pid1(void)
{
	int ready[2];
	char c;
	pid_t holder;

	fresh_files();
	CHECK(utmp_put_start(&files, "tty5", 9, 9, NULL, UTMP_MODE_INIT, NULL) == 0);
	CHECK(pipe(ready) == 0);
	holder = fork();
	if (holder == 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		int fd = open(utmp_file, O_RDWR);
		if (fd < 0 || fcntl(fd, F_SETLK, &fl) < 0)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	CHECK(read(ready[0], &c, 1) == 1);
	errno = 0;
	CHECK(utmp_put_dead(&files, "tty5", 9, 1, 0) < 0 && errno == EAGAIN);
	errno = 0;
	CHECK(utmp_put_start(&files, "tty5", 10, 10, NULL, UTMP_MODE_INIT, NULL) < 0 &&
	      errno == EAGAIN);
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	close(ready[0]);
	CHECK(utmp_put_dead(&files, "tty5", 9, 1, 0) == 0);
	CHECK_STR(dump(utmp_file), "[8] [00009] [tty5] [ ] [ ] [ ] [0.0.0.0]");
}

/* A torn record at the end (someone else's short write): a new record goes to the next
 * whole-record offset, the torn bytes are overwritten, nothing before moves. */
static void torn_tail(void)
{
	off_t one;
	int fd;

	fresh_files();
	CHECK(utmp_put_start(&files, "tty1", 100, 100, "tty1", UTMP_MODE_INIT, NULL) == 0);
	one = size_of(utmp_file);
	fd = open(utmp_file, O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && write(fd, "garbage", 7) == 7);
	close(fd);
	CHECK(utmp_put_start(&files, "tty2", 101, 101, "tty2", UTMP_MODE_INIT, NULL) == 0);
	CHECK(size_of(utmp_file) == 2 * one);
	CHECK_STR(dump(utmp_file), "[5] [00100] [tty1] [ ] [tty1 ] [ ] [0.0.0.0]|"
		  "[5] [00101] [tty2] [ ] [tty2 ] [ ] [0.0.0.0]");
}

/* pam_lastlog's session records (ember-session): logwtmp()'s USER_PROCESS, no id */
static void login_record_as_logwtmp(void)
{
	fresh_files();
	CHECK(utmp_log_login(&files, 4711, "tty7", "embertest", "") == 0);
	CHECK(size_of(utmp_file) == 0); /* wtmp only */
	CHECK_STR(dump(wtmp_file), "[7] [04711] [ ] [embertest] [tty7 ] [ ] [0.0.0.0]");
}

/* glibc's struct lastlog at the uid's slot, as pam_lastlog wrote it on this host
 * (x86-64: a 32-bit time, 32 bytes of line, 256 of host: 292 bytes a user) */
static void lastlog_at_the_uid_slot(void)
{
	char path[80], entry[292];
	FILE *f;
	int fd;
	time_t before = time(NULL);
	int32_t t;

	snprintf(path, sizeof path, "%s/lastlog", dir);
	unlink(path);
	CHECK(utmp_put_lastlog(path, 1000, "tty7", "") < 0 && errno == ENOENT); /* not made */
	CHECK(access(path, F_OK) < 0);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	CHECK(utmp_put_lastlog(path, 1000, "tty7", "") == 0);
	CHECK(size_of(path) == 1001 * 292);
	fd = open(path, O_RDONLY);
	CHECK(fd >= 0 && pread(fd, entry, sizeof entry, 1000 * 292) == sizeof entry);
	if (fd >= 0)
		close(fd);
	memcpy(&t, entry, sizeof t);
	CHECK(t >= before && t <= time(NULL));
	CHECK_STR(entry + 4, "tty7");
	CHECK(entry[36] == '\0'); /* no host */
	unlink(path);
	CHECK(mkfifo(path, 0600) == 0);
	CHECK(utmp_put_lastlog(path, 1000, "tty7", "") < 0); /* never a FIFO */
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (!utmp_supported() || system("command -v utmpdump >/dev/null")) {
		printf("SKIP utmp: %s\n", utmp_supported() ? "utmpdump missing (util-linux)"
							  : "no known utmp layout here");
		return 0;
	}
	RUN(init_record_for_a_getty);
	RUN(user_mode_for_a_phone_shell);
	RUN(dead_record_only_for_its_pid);
	RUN(slots_reused_by_id);
	RUN(missing_files);
	RUN(fifo_and_symlink_refused);
	RUN(locked_file_never_waits_in_pid1);
	RUN(torn_tail);
	RUN(login_record_as_logwtmp);
	RUN(lastlog_at_the_uid_slot);
	fresh_files();
	unlink(utmp_file);
	unlink(wtmp_file);
	rmdir(dir);
	return harness_done();
}
