#include "watchdog.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

#define WATCHDOG_RETRY_MS 1000

static struct {
	int fd;
	unsigned long wanted_sec;  /* 0: no watchdog */
	long long interval_ms;     /* pet at half the timeout */
	long long next_ms;         /* next pet, or next open attempt */
	bool told;                 /* the "not there yet" message was logged */
} wd = { .fd = -1, .next_ms = -1 };

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int watchdog_open(unsigned long timeout_sec)
{
	int timeout = (int)timeout_sec;
	int fd = open("/dev/watchdog0", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		fd = open("/dev/watchdog", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ioctl(fd, WDIOC_SETTIMEOUT, &timeout) < 0)
		log_warn("watchdog: cannot set a %lu s timeout: %m; keeping the device's", timeout_sec);
	if (ioctl(fd, WDIOC_GETTIMEOUT, &timeout) < 0 || timeout <= 0)
		timeout = (int)timeout_sec;
	wd.fd = fd;
	wd.interval_ms = (long long)timeout * 1000 / 2;
	watchdog_pet_now();
	log_info("watchdog: armed, %d s timeout, petted every %lld ms", timeout, wd.interval_ms);
	return 0;
}

void watchdog_pet_now(void)
{
	if (wd.fd < 0)
		return;
	ioctl(wd.fd, WDIOC_KEEPALIVE, 0);
	wd.next_ms = now_ms() + wd.interval_ms;
}

void watchdog_want(unsigned long timeout_sec)
{
	wd.wanted_sec = timeout_sec;
	wd.next_ms = now_ms();
	watchdog_pet(wd.next_ms);
}

void watchdog_pet(long long now)
{
	if (!wd.wanted_sec || now < wd.next_ms)
		return;
	if (wd.fd >= 0) {
		watchdog_pet_now();
		return;
	}
	if (watchdog_open(wd.wanted_sec) == 0)
		return;
	if (!wd.told)
		log_warn("watchdog: no /dev/watchdog0 or /dev/watchdog yet (%m); retrying until "
			 "its driver is loaded");
	wd.told = true;
	wd.next_ms = now + WATCHDOG_RETRY_MS;
}

long long watchdog_next_ms(void)
{
	return wd.wanted_sec ? wd.next_ms : -1;
}
