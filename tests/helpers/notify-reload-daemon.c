/* notify-reload-daemon LOG [SIGNO]: a Type=notify-reload service as systemd describes it.
 * Sends READY=1; on SIGHUP (or signal number SIGNO, as ReloadSignal= may ask; any other
 * real-time signal ends it, as by default) sends RELOADING=1 with MONOTONIC_USEC= (now,
 * CLOCK_MONOTONIC), appends "reload N" to LOG, then READY=1. Exits 0 on SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t hups, done;
static int reload_signal = SIGHUP;

static void on_signal(int sig)
{
	if (sig == reload_signal)
		hups++;
	else
		done = 1;
}

static int notify(const char *msg)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r;

	if (!path || strlen(path) >= sizeof sa.sun_path)
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	r = (int)sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&sa, sizeof sa);
	close(fd);
	return r < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct timespec ts;
	char msg[96];
	int seen = 0;

	if (argc != 2 && argc != 3)
		return 100;
	if (argc == 3)
		reload_signal = atoi(argv[2]);
	if (signal(reload_signal, on_signal) == SIG_ERR)
		return 100;
	signal(SIGTERM, on_signal);
	if (notify("READY=1") < 0)
		return 111;
	while (!done) {
		pause();
		for (; seen < hups; seen++) {
			FILE *f;
			clock_gettime(CLOCK_MONOTONIC, &ts);
			snprintf(msg, sizeof msg, "RELOADING=1\nMONOTONIC_USEC=%llu",
				 (unsigned long long)ts.tv_sec * 1000000ULL +
				 (unsigned long long)ts.tv_nsec / 1000);
			notify(msg);
			f = fopen(argv[1], "a");
			if (f) {
				fprintf(f, "reload %d\n", seen + 1);
				fclose(f);
			}
			usleep(100000);
			notify("READY=1");
		}
	}
	return 0;
}
