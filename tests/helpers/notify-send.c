/* notify-send VAR=value...: send one sd_notify datagram (the arguments joined by
 * newlines) to $NOTIFY_SOCKET, as a daemon written for systemd would. It lingers a
 * moment after sending, as a daemon would still be running: ember-init checks that the
 * sender belongs to the service, which it cannot for a process already gone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char msg[4096];
	size_t len = 0;
	int fd;

	if (!path || strlen(path) >= sizeof sa.sun_path) {
		fprintf(stderr, "notify-send: NOTIFY_SOCKET unset or too long\n");
		return 100;
	}
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (len + n + 1 > sizeof msg)
			return 100;
		memcpy(msg + len, argv[i], n);
		len += n;
		if (i + 1 < argc)
			msg[len++] = '\n';
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (fd < 0 || sendto(fd, msg, len, 0, (struct sockaddr *)&sa, sizeof sa) < 0) {
		perror("notify-send");
		return 111;
	}
	usleep(200000);
	return 0;
}
