/* Test helper for socket activation: prints what sd_listen_fds() would see, checks it,
 * then serves: on each stream fd it accepts and answers "probe-ok", on each datagram fd
 * it prints what arrives ("datagram: TEXT"). Exits 1 on any inconsistency. Without any
 * LISTEN_* variable it checks that no socket fd above 2 is open (none leaked into it;
 * other fds may come from whoever started ember-init).
 *   LISTEN_FDS=2 LISTEN_PID=<own pid> LISTEN_FDNAMES=a:b listen-probe */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define FDS_MAX 32

int main(void)
{
	const char *fds_s = getenv("LISTEN_FDS"), *pid_s = getenv("LISTEN_PID");
	const char *names = getenv("LISTEN_FDNAMES");
	struct pollfd p[FDS_MAX];
	int n, types[FDS_MAX];

	printf("LISTEN_FDS=%s LISTEN_PID=%s LISTEN_FDNAMES=%s\n", fds_s ? fds_s : "(unset)",
	       pid_s ? pid_s : "(unset)", names ? names : "(unset)");
	if (!fds_s && !pid_s && !names) { /* a service with no sockets: none may leak in */
		int leaked = 0;
		for (int fd = 3; fd < 1024; fd++) {
			struct stat st;
			if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
				printf("leaked socket fd %d\n", fd), leaked++;
		}
		printf("socket fds above 2: %d\n", leaked);
		return leaked ? 1 : 0;
	}
	if (!fds_s || !pid_s || atol(pid_s) != (long)getpid()) {
		printf("probe: LISTEN_PID is not my pid %ld\n", (long)getpid());
		return 1;
	}
	n = atoi(fds_s);
	if (n < 1 || n > FDS_MAX)
		return 1;
	for (int i = 0; i < n; i++) {
		int fd = 3 + i, flags = fcntl(fd, F_GETFD);
		socklen_t len = sizeof types[i];
		if (flags < 0 || (flags & FD_CLOEXEC)) {
			printf("probe: fd %d %s\n", fd, flags < 0 ? "not open" : "close-on-exec");
			return 1;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &types[i], &len) < 0)
			types[i] = -1; /* a FIFO */
		printf("fd %d: %s\n", fd, types[i] == SOCK_STREAM ? "stream" :
		       types[i] == SOCK_DGRAM ? "datagram" : types[i] == SOCK_SEQPACKET ? "seqpacket" :
		       "other");
		p[i] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	printf("fd %d: %s\n", 3 + n, fcntl(3 + n, F_GETFD) < 0 ? "closed" : "open (leaked)");
	fflush(stdout);
	for (;;) {
		if (poll(p, (nfds_t)n, -1) < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++) {
			char buf[256];
			ssize_t r;
			if (!(p[i].revents & POLLIN))
				continue;
			if (types[i] == SOCK_STREAM || types[i] == SOCK_SEQPACKET) {
				int c = accept(p[i].fd, NULL, NULL);
				if (c >= 0) {
					r = write(c, "probe-ok\n", 9);
					close(c);
				}
				continue;
			}
			r = read(p[i].fd, buf, sizeof buf - 1);
			if (r > 0) {
				buf[r] = '\0';
				printf("datagram: %s\n", buf);
				fflush(stdout);
			}
		}
	}
}
