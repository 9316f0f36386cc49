/* ctl-replay: a stand-in for ember-init's control socket that serves a canned reply,
 * so emberctl can be tested without PID 1 (tests/integration/test-emberctl-client.sh).
 *
 *   ctl-replay [-n COUNT] [-r REQUEST-LOG] SOCKET REPLY-FILE
 *       Listen on SOCKET (AF_UNIX SOCK_SEQPACKET), print the server's PID and return
 *       once it listens: a client started afterwards always finds it. The server, in
 *       the background, serves COUNT connections (default 1): reads one request packet
 *       (its bytes are appended to REQUEST-LOG, followed by a newline), sends every
 *       packet of REPLY-FILE, closes. Then it removes SOCKET and exits. It gives up
 *       after 60 s without a client, so a failed test never leaves it behind.
 *   ctl-replay -s SOCKET
 *       Leave a socket nobody listens on at SOCKET (connect: ECONNREFUSED).
 *
 * REPLY-FILE: one packet per line, written as the bytes on the wire with the escapes
 * \\ \n \t \xHH (so a record value's own escape "\n" is written "\\n"). Lines starting
 * with '#' and empty lines are skipped. Example, a status reply:
 *   Rname=sshd\nstate=running\nmain_pid=412\n\n
 *   X0
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "parse.h"

#define REPLY_FILE_MAX (1 << 20)
#define REQUEST_READ_MAX 65536
#define IDLE_TIMEOUT_S 60

static char reply_file[REPLY_FILE_MAX];

static void fail(const char *what)
{
	fprintf(stderr, "ctl-replay: %s: %s\n", what, strerror(errno));
	exit(111);
}

/* Decode one line's escapes into out; returns the packet length. */
static size_t decode(const char *line, size_t len, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (line[i] != '\\' || i + 1 == len) {
			out[n++] = line[i];
			continue;
		}
		char e = line[++i];
		if (e == 'n')
			out[n++] = '\n';
		else if (e == 't')
			out[n++] = '\t';
		else if (e == 'x' && i + 2 < len && hex_digit_value(line[i + 1]) >= 0 &&
			 hex_digit_value(line[i + 2]) >= 0) {
			out[n++] = (char)(hex_digit_value(line[i + 1]) << 4 | hex_digit_value(line[i + 2]));
			i += 2;
		} else
			out[n++] = e;
	}
	return n;
}

static void send_reply(int conn, size_t file_len)
{
	static char packet[REPLY_FILE_MAX];
	size_t pos = 0;

	while (pos < file_len) {
		const char *line = reply_file + pos;
		const char *nl = memchr(line, '\n', file_len - pos);
		size_t len = nl ? (size_t)(nl - line) : file_len - pos;
		pos += len + 1;
		if (len == 0 || line[0] == '#')
			continue;
		size_t n = decode(line, len, packet);
		if (send(conn, packet, n, MSG_NOSIGNAL) < 0 && errno != EPIPE && errno != ECONNRESET)
			fail("send");
	}
}

static void log_request(const char *log_path, int conn)
{
	static char req[REQUEST_READ_MAX + 1];
	ssize_t n = recv(conn, req, REQUEST_READ_MAX, 0);
	int fd;

	if (n < 0 || !log_path)
		return;
	fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		fail(log_path);
	req[n] = '\n';
	if (write(fd, req, (size_t)n + 1) < 0)
		fail(log_path);
	close(fd);
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (strlen(path) >= sizeof addr.sun_path) {
		errno = ENAMETOOLONG;
		fail(path);
	}
	strcpy(addr.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
		fail(path);
	return fd;
}

static void serve(int lfd, const char *sock, const char *log_path, long count,
		  size_t file_len)
{
	for (long i = 0; i < count; i++) {
		alarm(IDLE_TIMEOUT_S);
		int conn = accept(lfd, NULL, NULL);
		if (conn < 0)
			fail("accept");
		log_request(log_path, conn);
		send_reply(conn, file_len);
		close(conn);
	}
	unlink(sock);
}

static void usage(void)
{
	fprintf(stderr, "usage: ctl-replay [-n COUNT] [-r REQUEST-LOG] SOCKET REPLY-FILE\n"
			"       ctl-replay -s SOCKET\n");
	exit(100);
}

int main(int argc, char **argv)
{
	const char *log_path = NULL;
	long count = 1;
	int opt, lfd, fd;
	ssize_t file_len;
	pid_t pid;

	while ((opt = getopt(argc, argv, "n:r:s:")) != -1) {
		switch (opt) {
		case 'n': count = strtol(optarg, NULL, 10); break;
		case 'r': log_path = optarg; break;
		case 's': close(listen_on(optarg)); return 0;
		default: usage();
		}
	}
	if (argc - optind != 2 || count < 1)
		usage();
	fd = open(argv[optind + 1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail(argv[optind + 1]);
	file_len = read(fd, reply_file, sizeof reply_file);
	if (file_len < 0)
		fail(argv[optind + 1]);
	close(fd);
	lfd = listen_on(argv[optind]);
	if (listen(lfd, 8) < 0)
		fail("listen");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid > 0) {
		printf("%d\n", (int)pid);
		return 0;
	}
	/* The server: detached from the test's stdout so $(ctl-replay ...) returns. */
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	serve(lfd, argv[optind], log_path, count, (size_t)file_len);
	return 0;
}
