/* boot-ready: the "ready" marker for boot benchmarks, started by whichever init is
 * measured.
 *   boot-ready [--poweroff] N
 * Waits until N processes named "idle" run (the services), then prints on one console
 * line the time from the kernel starting /init to then, and PID 1's resident set size:
 *   BENCH init_share_us=N pid1_rss_kb=N
 * --poweroff then powers the machine off (busybox init has no "run this, then power off").
 * The waiting is done here, in one small process that looks only at processes it has not
 * counted yet, because a shell loop forking grep costs tens of milliseconds per turn under
 * emulation and competes for the CPUs with the init it measures.
 * Both ends are kmsg timestamps: the kernel's record "Run /init as init process" and one
 * this program writes when the services run. Reading a clock here instead would compare
 * CLOCK_BOOTTIME with the kernel's local_clock(), two clocks whose offset differs from
 * boot to boot by tens of milliseconds under emulation. */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

#include "io.h"
#include "parse.h"

#define READY_TEXT "ember-bench: services up"

/* "prio,seq,usec,flags;text": the timestamp field. */
static long long record_us(const char *rec)
{
	const char *p = strchr(rec, ',');
	p = p ? strchr(p + 1, ',') : NULL;
	return p ? strtoll(p + 1, NULL, 10) : -1;
}

static int mark_ready(void)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -1;
	r = io_write_all(fd, "<6>" READY_TEXT "\n", strlen("<6>" READY_TEXT "\n")) < 0 ? -1 : 0;
	close(fd);
	return r;
}

/* The timestamps of the kernel's "Run /init" record and of our mark. */
static int read_marks(long long *start_us, long long *ready_us)
{
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	*start_us = *ready_us = -1;
	if (fd < 0)
		return -1;
	while ((n = read(fd, rec, sizeof rec - 1)) > 0) {
		const char *text;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		if (*start_us < 0 && strstr(text, "as init process"))
			*start_us = record_us(rec);
		else if (strncmp(text + 1, READY_TEXT, strlen(READY_TEXT)) == 0)
			*ready_us = record_us(rec);
	}
	close(fd);
	return *start_us >= 0 && *ready_us >= 0 ? 0 : -1;
}

static long pid1_rss_kb(void)
{
	char status[4096];
	char *p;
	if (io_read_file("/proc/1/status", status, sizeof status) < 0)
		return -1;
	p = strstr(status, "VmRSS:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

#define PID_LIMIT 65536 /* a boot with a few hundred processes stays far below */

static unsigned char counted[PID_LIMIT / 8];

static bool is_idle(const char *pid)
{
	char path[300], comm[32];

	snprintf(path, sizeof path, "/proc/%s/comm", pid);
	return io_read_file(path, comm, sizeof comm) >= 0 && strcmp(comm, "idle\n") == 0;
}

/* Counts processes that became "idle" since the last call. A service counted once stays
 * counted: they pause until killed. */
static long newly_idle(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid = isdigit((unsigned char)e->d_name[0]) ? strtol(e->d_name, NULL, 10) : 0;
		if (pid <= 0 || pid >= PID_LIMIT || counted[pid / 8] & (1u << pid % 8))
			continue;
		if (is_idle(e->d_name)) {
			counted[pid / 8] |= (unsigned char)(1u << pid % 8);
			n++;
		}
	}
	closedir(d);
	return n;
}

static void wait_for_services(long want)
{
	const struct timespec step = { 0, 2000000 }; /* 2 ms */
	long have = 0;

	while ((have += newly_idle()) < want)
		nanosleep(&step, NULL);
}

int main(int argc, char **argv)
{
	long long start_us, ready_us;
	bool poweroff = argc > 1 && strcmp(argv[1], "--poweroff") == 0;
	unsigned long services;

	if (argc != 2 + poweroff || parse_ulong(argv[1 + poweroff], 0, PID_LIMIT, &services) < 0) {
		fprintf(stderr, "usage: boot-ready [--poweroff] N (N: how many services to wait for)\n");
		return 2;
	}
	wait_for_services((long)services);
	if (mark_ready() < 0 || read_marks(&start_us, &ready_us) < 0) {
		fprintf(stderr, "boot-ready: cannot write or find the kmsg marks\n");
		return 1;
	}
	printf("BENCH init_share_us=%lld pid1_rss_kb=%ld\n", ready_us - start_us, pid1_rss_kb());
	fflush(stdout);
	if (poweroff) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
