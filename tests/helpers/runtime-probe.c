/* runtime-probe MODE ...: a service for the runtime keys' tests (unit-runtime2), doing
 * what a daemon written for systemd does over $NOTIFY_SOCKET:
 *   env                 print WATCHDOG_USEC=, whether WATCHDOG_PID= is this process,
 *                       LISTEN_FDS=, LISTEN_FDNAMES= and NOTIFY_SOCKET=; then sleep
 *   watchdog N MS       READY=1, then N pings (WATCHDOG=1) every MS ms, then hang
 *   trigger MS          READY=1, wait MS ms, send WATCHDOG=trigger, then hang
 *   usec USEC N MS      READY=1, WATCHDOG_USEC=USEC, then as watchdog N MS
 *   fdstore NAME        if an fd called NAME was passed: print its content and sleep;
 *                       else store a memfd holding "token-PID" as NAME (FDSTORE=1) and
 *                       exit 3 (the unit restarts and gets it back)
 *   fdremove NAME       store a memfd as NAME, remove it (FDSTOREREMOVE=1), exit 3
 *   fdflood N           store N memfds (FDSTORE=1, one message each), then sleep: the
 *                       hostile service that tries to make PID 1 hold every fd */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static int send_msg(const char *text, int fd)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { (void *)text, strlen(text) };
	struct msghdr msg = { .msg_name = &sa, .msg_namelen = sizeof sa, .msg_iov = &iov,
			      .msg_iovlen = 1 };
	int s;

	if (!path || strlen(path) >= sizeof sa.sun_path) {
		printf("runtime-probe: no NOTIFY_SOCKET\n");
		fflush(stdout);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (fd >= 0) {
		memset(&ctl, 0, sizeof ctl);
		msg.msg_control = &ctl;
		msg.msg_controllen = sizeof ctl;
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof fd);
	}
	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || sendmsg(s, &msg, 0) < 0) {
		perror("runtime-probe: sendmsg");
		return -1;
	}
	close(s);
	return 0;
}

static void hang(void)
{
	fflush(stdout);
	for (;;)
		pause();
}

static void pings(int n, int ms)
{
	for (int i = 0; i < n; i++) {
		usleep((useconds_t)ms * 1000);
		send_msg("WATCHDOG=1", -1);
	}
	printf("runtime-probe: stopped pinging\n");
	hang();
}

/* The fd LISTEN_FDNAMES= calls name, or -1. */
static int passed_fd(const char *name)
{
	const char *names = getenv("LISTEN_FDNAMES"), *fds = getenv("LISTEN_FDS");
	int i = 0;

	if (!names || !fds)
		return -1;
	for (const char *p = names; *p; i++) {
		size_t len = strcspn(p, ":");
		if (len == strlen(name) && strncmp(p, name, len) == 0 && i < atoi(fds))
			return 3 + i;
		p += len + (p[len] == ':');
	}
	return -1;
}

static int token_memfd(void)
{
	char token[32];
	int fd = (int)syscall(SYS_memfd_create, "probe", 0u);

	snprintf(token, sizeof token, "token-%d", (int)getpid());
	if (fd < 0 || write(fd, token, strlen(token)) < 0)
		return -1;
	if (getenv("PROBE_QUIET") == NULL)
		printf("runtime-probe: stored %s\n", token);
	return fd;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	char msg[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(mode, "env") == 0) {
		const char *pid = getenv("WATCHDOG_PID");
		printf("WATCHDOG_USEC=%s\n", getenv("WATCHDOG_USEC") ? getenv("WATCHDOG_USEC") : "-");
		printf("WATCHDOG_PID=%s\n", !pid ? "-" : atoi(pid) == (int)getpid() ? "self" : "other");
		printf("LISTEN_FDS=%s\n", getenv("LISTEN_FDS") ? getenv("LISTEN_FDS") : "-");
		printf("LISTEN_FDNAMES=%s\n", getenv("LISTEN_FDNAMES") ? getenv("LISTEN_FDNAMES") : "-");
		printf("NOTIFY_SOCKET=%s\n", getenv("NOTIFY_SOCKET") ? "set" : "-");
		hang();
	}
	if (strcmp(mode, "watchdog") == 0 && argc == 4) {
		send_msg("READY=1", -1);
		pings(atoi(argv[2]), atoi(argv[3]));
	}
	if (strcmp(mode, "trigger") == 0 && argc == 3) {
		send_msg("READY=1", -1);
		usleep((useconds_t)atoi(argv[2]) * 1000);
		send_msg("WATCHDOG=trigger", -1);
		hang();
	}
	if (strcmp(mode, "usec") == 0 && argc == 5) {
		snprintf(msg, sizeof msg, "READY=1\nWATCHDOG_USEC=%s", argv[2]);
		send_msg(msg, -1);
		pings(atoi(argv[3]), atoi(argv[4]));
	}
	if ((strcmp(mode, "fdstore") == 0 || strcmp(mode, "fdremove") == 0) && argc == 3) {
		int fd = passed_fd(argv[2]);
		char buf[64] = "";
		if (fd >= 0) {
			ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
			buf[n > 0 ? n : 0] = '\0';
			printf("runtime-probe: restored %s: %s\n", argv[2], buf);
			hang();
		}
		fd = token_memfd();
		snprintf(msg, sizeof msg, "FDSTORE=1\nFDNAME=%s", argv[2]);
		if (fd < 0 || send_msg(msg, fd) < 0)
			return 111;
		if (strcmp(mode, "fdremove") == 0) {
			snprintf(msg, sizeof msg, "FDSTOREREMOVE=1\nFDNAME=%s", argv[2]);
			send_msg(msg, -1);
		}
		usleep(300000); /* still a process of the service when PID 1 reads it */
		return 3;
	}
	if (strcmp(mode, "fdflood") == 0 && argc == 3) {
		int sent = 0;
		for (int i = 0; i < atoi(argv[2]); i++) {
			int fd = token_memfd();
			snprintf(msg, sizeof msg, "FDSTORE=1\nFDNAME=flood%d", i);
			if (fd >= 0 && send_msg(msg, fd) == 0)
				sent++;
			if (fd >= 0)
				close(fd);
		}
		printf("runtime-probe: flooded %d\n", sent);
		hang();
	}
	fprintf(stderr, "usage: runtime-probe env|watchdog N MS|trigger MS|usec USEC N MS|"
			"fdstore NAME|fdremove NAME|fdflood N\n");
	return 100;
}
