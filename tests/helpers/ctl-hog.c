/* ctl-hog: a hostile local user against PID 1's sockets, for SECONDS seconds: takes as
 * many control connections as it can and holds them (every fifth one following a log,
 * the rest silent), reconnecting as PID 1 drops them, and floods the notify socket with
 * datagrams (READY=1, STOPPING=1, MAINPID=1, garbage). Prints what it got.
 *
 *   ctl-hog [-u UID] SECONDS CONTROL-SOCKET NOTIFY-SOCKET SERVICE
 * -u: become UID (and its gid, no supplementary groups) first; a guest without
 * setpriv(1) of util-linux can still play the unprivileged user. */
#include <errno.h>
#include <grp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define HELD_MAX 256

static int held[HELD_MAX];
static int nheld;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct sockaddr_un address(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	return sa;
}

/* Close held connections PID 1 has dropped (readable with EOF or error). */
static void forget_dropped(void)
{
	for (int i = 0; i < nheld;) {
		char buf[4096];
		ssize_t n = recv(held[i], buf, sizeof buf, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN)) {
			close(held[i]);
			held[i] = held[--nheld];
		} else {
			i++;
		}
	}
}

static void grab(const struct sockaddr_un *sa, const char *follow, unsigned *attempts)
{
	while (nheld < HELD_MAX) {
		int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		(*attempts)++;
		if (fd < 0)
			return;
		if (connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0) {
			close(fd);
			return;
		}
		if (*attempts % 5 == 0)
			send(fd, follow, strlen(follow), MSG_NOSIGNAL);
		held[nheld++] = fd;
	}
}

static void flood(int fd, const struct sockaddr_un *sa, unsigned *sent)
{
	static const char *const msgs[] = { "READY=1", "STOPPING=1", "MAINPID=1",
					    "STATUS=pwned\nREADY=1", "\x01\x02garbage" };
	for (int i = 0; i < 200; i++) {
		const char *m = msgs[i % 5];
		if (sendto(fd, m, strlen(m), MSG_DONTWAIT, (const struct sockaddr *)sa, sizeof *sa) > 0)
			(*sent)++;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un ctl, notify;
	char follow[128];
	unsigned attempts = 0, sent = 0;
	long long end;
	int nfd;

	if (argc == 7 && strcmp(argv[1], "-u") == 0) {
		uid_t uid = (uid_t)atoi(argv[2]);
		if (setgroups(0, NULL) < 0 || setgid((gid_t)uid) < 0 || setuid(uid) < 0) {
			perror("ctl-hog: dropping privileges");
			return 111;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc != 5) {
		fprintf(stderr, "usage: ctl-hog [-u UID] SECONDS CONTROL-SOCKET NOTIFY-SOCKET SERVICE\n");
		return 100;
	}
	if (getuid() == 0) {
		fprintf(stderr, "ctl-hog: refusing to run as root (use -u)\n");
		return 100;
	}
	end = now_ms() + atoi(argv[1]) * 1000LL;
	ctl = address(argv[2]);
	notify = address(argv[3]);
	snprintf(follow, sizeof follow, "log %s follow", argv[4]);
	nfd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	while (now_ms() < end) {
		forget_dropped();
		grab(&ctl, follow, &attempts);
		flood(nfd, &notify, &sent);
		usleep(10000);
	}
	printf("ctl-hog: %u connection attempts, %d held at the end, %u notify datagrams\n",
	       attempts, nheld, sent);
	return 0;
}
