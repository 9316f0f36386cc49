/* The empower wire format (proto.h): fixed little header words, then NUL-terminated
 * strings. Pure encoding and decoding plus the two socket calls. */
#include "proto.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HEADER_WORDS 5 /* request: type, flags, envc, setenvc, argc */

int empower_request_fds(uint32_t flags)
{
	if (flags & ~(uint32_t)EMPOWER_F_KNOWN)
		return -1;
	if ((flags & EMPOWER_F_PIPE) && (flags & EMPOWER_F_PTY))
		return -1;
	if (!(flags & (EMPOWER_F_PIPE | EMPOWER_F_PTY)))
		return -1;
	return 1 + !!(flags & EMPOWER_F_TTY) + ((flags & EMPOWER_F_PIPE) ? 3 : 1);
}

static int put_word(char *buf, size_t size, size_t *at, uint32_t w)
{
	if (size - *at < sizeof w)
		return -1;
	memcpy(buf + *at, &w, sizeof w);
	*at += sizeof w;
	return 0;
}

static int put_string(char *buf, size_t size, size_t *at, const char *s)
{
	size_t n = strlen(s) + 1;
	if (size - *at < n)
		return -1;
	memcpy(buf + *at, s, n);
	*at += n;
	return 0;
}

static int put_strings(char *buf, size_t size, size_t *at, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (put_string(buf, size, at, v[i]) < 0)
			return -1;
	return 0;
}

long empower_request_encode(const struct empower_request *r, char *buf, size_t size)
{
	size_t at = 0;
	if (r->envc > EMPOWER_ENV_MAX || r->setenvc > EMPOWER_SETENV_MAX ||
	    r->argc > EMPOWER_ARGS_MAX)
		goto too_big;
	if (put_word(buf, size, &at, EMPOWER_REQUEST) < 0 ||
	    put_word(buf, size, &at, r->flags) < 0 ||
	    put_word(buf, size, &at, (uint32_t)r->envc) < 0 ||
	    put_word(buf, size, &at, (uint32_t)r->setenvc) < 0 ||
	    put_word(buf, size, &at, (uint32_t)r->argc) < 0 ||
	    put_string(buf, size, &at, r->user) < 0 || put_string(buf, size, &at, r->chdir) < 0 ||
	    put_strings(buf, size, &at, r->env, r->envc) < 0 ||
	    put_strings(buf, size, &at, r->setenv, r->setenvc) < 0 ||
	    put_strings(buf, size, &at, r->argv, r->argc) < 0)
		goto too_big;
	return (long)at;
too_big:
	errno = E2BIG;
	return -1;
}

long empower_msg_encode(uint32_t type, int32_t value, const char *text, char *buf, size_t size)
{
	size_t at = 0;
	if (put_word(buf, size, &at, type) < 0 || put_word(buf, size, &at, (uint32_t)value) < 0 ||
	    put_string(buf, size, &at, text ? text : "") < 0) {
		errno = E2BIG;
		return -1;
	}
	return (long)at;
}

static int get_word(const char *buf, size_t len, size_t *at, uint32_t *w)
{
	if (len - *at < sizeof *w)
		return -1;
	memcpy(w, buf + *at, sizeof *w);
	*at += sizeof *w;
	return 0;
}

/* A string must end with its NUL inside the message. */
static int get_string(const char *buf, size_t len, size_t *at, const char **s)
{
	const char *nul = memchr(buf + *at, '\0', len - *at);
	if (!nul)
		return -1;
	*s = buf + *at;
	*at = (size_t)(nul - buf) + 1;
	return 0;
}

static int get_strings(const char *buf, size_t len, size_t *at, const char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (get_string(buf, len, at, &v[i]) < 0)
			return -1;
	return 0;
}

int empower_request_decode(const char *buf, size_t len, struct empower_request *out)
{
	uint32_t w[HEADER_WORDS];
	size_t at = 0;
	memset(out, 0, sizeof *out);
	for (int i = 0; i < HEADER_WORDS; i++)
		if (get_word(buf, len, &at, &w[i]) < 0)
			goto bad;
	if (w[0] != EMPOWER_REQUEST || empower_request_fds(w[1]) < 0)
		goto bad;
	if (w[2] > EMPOWER_ENV_MAX || w[3] > EMPOWER_SETENV_MAX || w[4] > EMPOWER_ARGS_MAX) {
		errno = E2BIG;
		return -1;
	}
	out->flags = w[1];
	out->envc = w[2];
	out->setenvc = w[3];
	out->argc = w[4];
	if (get_string(buf, len, &at, &out->user) < 0 || get_string(buf, len, &at, &out->chdir) < 0 ||
	    get_strings(buf, len, &at, out->env, out->envc) < 0 ||
	    get_strings(buf, len, &at, out->setenv, out->setenvc) < 0 ||
	    get_strings(buf, len, &at, out->argv, out->argc) < 0 || at != len)
		goto bad;
	out->argv[out->argc] = NULL;
	return 0;
bad:
	errno = EBADMSG;
	return -1;
}

int empower_msg_decode(const char *buf, size_t len, struct empower_msg *out)
{
	uint32_t value;
	size_t at = 0;
	if (get_word(buf, len, &at, &out->type) < 0 || out->type == EMPOWER_REQUEST ||
	    get_word(buf, len, &at, &value) < 0 || get_string(buf, len, &at, &out->text) < 0 ||
	    at != len) {
		errno = EBADMSG;
		return -1;
	}
	out->value = (int32_t)value;
	return 0;
}

int empower_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * EMPOWER_FDS_MAX)];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (nfds > EMPOWER_FDS_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (nfds > 0) {
		memset(&control, 0, sizeof control);
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	for (;;) {
		ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL);
		if (n >= 0)
			return (size_t)n == len ? 0 : (errno = EMSGSIZE, -1);
		if (errno != EINTR)
			return -1;
	}
}

/* Collect every SCM_RIGHTS fd; those beyond the caller's room are closed. */
static size_t take_fds(struct msghdr *msg, int *fds, size_t room, int *overflow)
{
	size_t n = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < count; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
			if (n < room)
				fds[n++] = fd;
			else {
				close(fd);
				*overflow = 1;
			}
		}
	}
	return n;
}

long empower_recv(int sock, void *buf, size_t size, int *fds, size_t *nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * (EMPOWER_FDS_MAX + 1))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof control.buf };
	ssize_t n;
	int overflow = 0;
	*nfds = 0;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	*nfds = take_fds(&msg, fds, EMPOWER_FDS_MAX, &overflow);
	if (overflow || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		for (size_t i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}
