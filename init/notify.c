#include "notify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "io.h"
#include "log.h"
#include "notify-msg.h"
#include "unit-runtime-keys.h"
#include "supervisor.h"
#include "svc-runtime.h" /* unit-runtime2 */

#define NOTIFY_READS_PER_TURN 32

int notify_open(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int one = 1;
	int fd;
	char dir[sizeof sa.sun_path];

	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	memcpy(dir, path, strlen(path) + 1);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	io_mkdir_p(dir, 0755);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* Services run as any user: everyone may send; credentials decide what counts. */
	chmod(path, 0666);
	return fd;
}

/* Is fd a datagram socket bound at path, with the path still there? */
static bool bound_at(int fd, const char *path)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof sa;
	struct stat st;
	int type = 0;
	socklen_t tlen = sizeof type;

	memset(&sa, 0, sizeof sa);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tlen) < 0 || type != SOCK_DGRAM ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0 || sa.sun_family != AF_UNIX ||
	    len <= offsetof(struct sockaddr_un, sun_path))
		return false;
	sa.sun_path[sizeof sa.sun_path - 1] = '\0';
	return strcmp(sa.sun_path, path) == 0 && lstat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

int notify_reopen(int fd, const char *path)
{
	int one = 1;

	if (fd < 0)
		return notify_open(path);
	if (!bound_at(fd, path) || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0) {
		close(fd);
		return notify_open(path);
	}
	return fd;
}

#define NOTIFY_FDS_MAX 16 /* fds per message (FDSTORE=1); more are closed */

static void close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* fds: the message's SCM_RIGHTS fds, which this closes unless the fd store keeps them. */
static void handle_one(const char *buf, size_t len, const struct ucred *cred, int *fds,
		       size_t nfds)
{
	struct notify_msg m;
	struct unit *u;

	if (!cred || cred->pid <= 0) {
		close_fds(fds, nfds);
		return;
	}
	u = supervisor_unit_of_pid(cred->pid);
	if (!u) {
		log_debug("notify: message from pid %d, which belongs to no service; dropped",
			  (int)cred->pid);
		close_fds(fds, nfds);
		return;
	}
	if (notify_parse(buf, len, &m) < 0) {
		log_warn("%s: malformed notify message from pid %d; dropped", u->svc->name,
			 (int)cred->pid);
		close_fds(fds, nfds);
		return;
	}
	/* runtime keys (unit-runtime2): NotifyAccess=, the watchdog, the fd store */
	if (!runtime_notify_allowed(u, cred->pid)) {
		log_warn("%s: notify message from pid %d refused (NotifyAccess=%s)", u->svc->name,
			 (int)cred->pid, notify_access_name(u->svc->notify_access));
		close_fds(fds, nfds);
		return;
	}
	runtime_notify(u, &m, fds, nfds);
	if (m.reloading) /* U2: before READY=1 in the same message */
		supervisor_notify_reloading(u, m.monotonic_usec);
	supervisor_notify(u, cred->pid, m.ready, m.stopping, m.has_status ? m.status : NULL,
			  m.mainpid);
}

void notify_handle(int fd)
{
	for (int i = 0; i < NOTIFY_READS_PER_TURN; i++) {
		char buf[NOTIFY_MSG_MAX + 1];
		union {
			struct cmsghdr h;
			char space[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int) * 16)];
		} ctl;
		struct iovec iov = { buf, sizeof buf };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = &ctl, .msg_controllen = sizeof ctl };
		const struct ucred *cred = NULL;
		int fds[NOTIFY_FDS_MAX];
		size_t nfds = 0;
		ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC | MSG_TRUNC);

		if (n < 0)
			return;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_CREDENTIALS)
				cred = (const struct ucred *)CMSG_DATA(c);
			else if (c->cmsg_type == SCM_RIGHTS) /* unit-runtime2: for the fd store */
				for (int *f = (int *)CMSG_DATA(c);
				     (char *)f + sizeof *f <= (char *)c + c->cmsg_len; f++) {
					if (nfds < NOTIFY_FDS_MAX)
						fds[nfds++] = *f;
					else
						close(*f);
				}
		}
		if ((msg.msg_flags & MSG_TRUNC) || (size_t)n > NOTIFY_MSG_MAX) {
			close_fds(fds, nfds);
			continue; /* oversized: notify_parse would refuse it anyway */
		}
		handle_one(buf, (size_t)n, cred, fds, nfds);
	}
}
