#include "nlink.h"

#include <errno.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Dumps of big sets come in messages of up to 32 KiB; twice that is ample. */
#define RECV_BUF_SIZE 65536
/* The kernel handles a batch inside sendmsg, so its answers are queued when sendmsg
 * returns; this only bounds the wait when something went wrong. */
#define ACK_TIMEOUT_MS 5000
/* Room for acks of a large batch in the socket's receive queue. */
#define RCVBUF_BYTES (4 * 1024 * 1024)

static void set_buffer(int fd, int force_opt, int opt, int bytes)
{
	/* FORCE works past the sysctl limit when we have CAP_NET_ADMIN, as nft does it. */
	if (setsockopt(fd, SOL_SOCKET, force_opt, &bytes, sizeof bytes) < 0)
		setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof bytes);
}

int nl_open(struct nlsock *s)
{
	int one = 1;

	memset(s, 0, sizeof *s);
	s->buf = malloc(RECV_BUF_SIZE);
	if (!s->buf)
		return -1;
	s->buf_size = RECV_BUF_SIZE;
	s->nl = mnl_socket_open(NETLINK_NETFILTER);
	if (!s->nl)
		goto fail;
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	s->portid = mnl_socket_get_portid(s->nl);
	/* Errors carry the kernel's text and do not echo the whole request back. */
	mnl_socket_setsockopt(s->nl, NETLINK_EXT_ACK, &one, sizeof one);
	mnl_socket_setsockopt(s->nl, NETLINK_CAP_ACK, &one, sizeof one);
	set_buffer(mnl_socket_get_fd(s->nl), SO_RCVBUFFORCE, SO_RCVBUF, RCVBUF_BYTES);
	s->seq = (uint32_t)time(NULL);
	return 0;
fail:
	{
		int saved = errno;
		nl_close(s);
		errno = saved;
	}
	return -1;
}

void nl_close(struct nlsock *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	free(s->buf);
	memset(s, 0, sizeof *s);
}

uint32_t nl_next_seq(struct nlsock *s)
{
	return ++s->seq;
}

/* The kernel's NLMSGERR_ATTR_MSG, if present. */
static void copy_extack(const struct nlmsghdr *nlh, const struct nlmsgerr *e, char *out,
			size_t size)
{
	size_t off = sizeof *e;
	const struct nlattr *attr;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof e->msg;
	if (MNL_ALIGN(off) + sizeof(struct nlmsghdr) > nlh->nlmsg_len)
		return;
	mnl_attr_for_each(attr, nlh, MNL_ALIGN(off)) {
		if (mnl_attr_get_type(attr) != NLMSGERR_ATTR_MSG)
			continue;
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(out, size, "%s", mnl_attr_get_str(attr));
	}
}

/* One NLMSG_ERROR (ack or error) for our batch. */
static void handle_ack(const struct nlmsghdr *nlh, struct nlbatch *b, struct nl_failure *fail)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct msg_info *m;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof *e))
		return;
	m = batch_find(b, nlh->nlmsg_seq);
	if (!m)
		return; /* not ours: a stale answer from an earlier request */
	m->acked = true;
	if (e->error == 0 || fail->error)
		return;
	fail->error = -e->error;
	fail->msg = *m;
	copy_extack(nlh, e, fail->extack, sizeof fail->extack);
}

static bool all_acked(const struct nlbatch *b)
{
	for (size_t i = 0; i < b->n_msgs; i++)
		if (b->msgs[i].kind != KIND_BATCH && !b->msgs[i].acked)
			return false;
	return true;
}

/* Read one datagram of answers, waiting up to timeout_ms only when none is queued.
 * 0 = got something, 1 = nothing came. */
static int read_acks(struct nlsock *s, struct nlbatch *b, struct nl_failure *fail, int timeout_ms)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(s->nl), .events = POLLIN };
	ssize_t n;
	int len;

	n = recv(pfd.fd, s->buf, s->buf_size, MSG_DONTWAIT);
	if (n < 0 && errno == EAGAIN) {
		if (poll(&pfd, 1, timeout_ms) <= 0)
			return 1;
		n = recv(pfd.fd, s->buf, s->buf_size, MSG_DONTWAIT);
	}
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	len = (int)n;
	for (const struct nlmsghdr *nlh = (const void *)s->buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_type == NLMSG_ERROR && nlh->nlmsg_pid == s->portid)
			handle_ack(nlh, b, fail);
	}
	return 0;
}

static void grow_sndbuf(struct nlsock *s, size_t len)
{
	int have = 0;
	socklen_t sl = sizeof have;
	int fd = mnl_socket_get_fd(s->nl);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &have, &sl) == 0 && (size_t)have >= 2 * len)
		return;
	set_buffer(fd, SO_SNDBUFFORCE, SO_SNDBUF, (int)(2 * len));
}

int nl_send_batch(struct nlsock *s, struct nlbatch *b, struct nl_failure *fail)
{
	int r;

	memset(fail, 0, sizeof *fail);
	grow_sndbuf(s, b->len);
	if (mnl_socket_sendto(s->nl, b->buf, b->len) < 0)
		goto socket_error;
	while (!all_acked(b)) {
		/* After an error the kernel has said all it will say: do not wait long. */
		r = read_acks(s, b, fail, fail->error ? 0 : ACK_TIMEOUT_MS);
		if (r < 0)
			goto socket_error;
		if (r == 1)
			break;
	}
	if (fail->error)
		return -1;
	if (!all_acked(b)) {
		fail->error = ETIMEDOUT;
		return -1;
	}
	return 0;
socket_error:
	fail->error = errno;
	fail->msg.kind = KIND_BATCH;
	return -1;
}

int nl_request(struct nlsock *s, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	uint32_t seq = req->nlmsg_seq;
	int r;

	if (mnl_socket_sendto(s->nl, req, req->nlmsg_len) < 0)
		return -1;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s->nl, s->buf, s->buf_size);
		if (n < 0)
			return -1;
		r = mnl_cb_run(s->buf, (size_t)n, seq, s->portid, cb, data);
		if (r <= 0)
			return r;
	}
}
