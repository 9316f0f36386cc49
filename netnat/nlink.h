#ifndef NETNAT_NLINK_H
#define NETNAT_NLINK_H
/* The netfilter netlink socket: send a batch and match every ack by sequence number;
 * run a get or dump request. No knowledge of what the messages mean. */
#include "batch.h"

#include <libmnl/libmnl.h>

struct nlsock {
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t seq;
	char *buf; /* receive buffer */
	size_t buf_size;
};

/* What the kernel said about the first message it refused. */
struct nl_failure {
	int error;                /* positive errno */
	struct msg_info msg;      /* the refused message, kind KIND_BATCH if unknown */
	char extack[160];         /* the kernel's own explanation, if it gave one */
};

int nl_open(struct nlsock *s);
void nl_close(struct nlsock *s);
/* Send the whole batch in one sendmsg and collect one ack per message. Returns 0 when
 * every message was acked, -1 with *fail filled when the kernel refused the batch (and so
 * changed nothing), -1 with fail->error set and fail->msg.kind KIND_BATCH on a socket error. */
int nl_send_batch(struct nlsock *s, struct nlbatch *b, struct nl_failure *fail);
/* A get (answered by one message) or dump request built by `build` into a buffer with the
 * given sequence number; cb runs for each reply. Returns 0 or -1/errno (ENOENT when the
 * object does not exist). */
int nl_request(struct nlsock *s, struct nlmsghdr *req, mnl_cb_t cb, void *data);
uint32_t nl_next_seq(struct nlsock *s);
#endif
