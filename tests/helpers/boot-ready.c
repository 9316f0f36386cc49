/* boot-ready: the "ready" marker for boot benchmarks, run as the last step of boot by
 * whichever init is measured. Prints, on one console line, the time from the kernel
 * starting /init (its kmsg record "Run /init as init process") to now on CLOCK_BOOTTIME,
 * and PID 1's resident set size:
 *   BENCH init_share_us=N pid1_rss_kb=N
 * The kernel stamps kmsg records with local_clock(), which runs with CLOCK_BOOTTIME when
 * the machine never suspended (true in a fresh VM). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io.h"

static long long init_started_us(void)
{
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	long long us = -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* Records: "prio,seq,usec,flags;text\n". */
	while ((n = read(fd, rec, sizeof rec - 1)) > 0) {
		char *text;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (text && strstr(text, "as init process")) {
			us = strtoll(strchr(strchr(rec, ',') + 1, ',') + 1, NULL, 10);
			break;
		}
	}
	close(fd);
	return us;
}

static long pid1_rss_kb(void)
{
	char status[4096];
	char *p;
	if (read_file("/proc/1/status", status, sizeof status) < 0)
		return -1;
	p = strstr(status, "VmRSS:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

int main(void)
{
	struct timespec ts;
	long long now_us, start_us;

	/* The time first: scanning kmsg takes a read per record, and an init that logs
	 * more must not pay for it in its own measurement. */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	now_us = (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	start_us = init_started_us();
	if (start_us < 0) {
		fprintf(stderr, "boot-ready: no 'Run /init' record in /dev/kmsg\n");
		return 1;
	}
	printf("BENCH init_share_us=%lld pid1_rss_kb=%ld\n", now_us - start_us, pid1_rss_kb());
	return 0;
}
