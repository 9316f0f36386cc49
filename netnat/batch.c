#include "batch.h"

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/netfilter/nfnetlink.h>
#include <stdlib.h>
#include <string.h>

void batch_init(struct nlbatch *b, uint32_t first_seq)
{
	memset(b, 0, sizeof *b);
	b->next_seq = first_seq;
}

void batch_free(struct nlbatch *b)
{
	free(b->buf);
	free(b->msgs);
	memset(b, 0, sizeof *b);
}

char *batch_room(struct nlbatch *b)
{
	if (b->cap - b->len < BATCH_MSG_MAX) {
		size_t cap = b->cap ? b->cap * 2 : 4 * BATCH_MSG_MAX;
		char *p;
		while (cap - b->len < BATCH_MSG_MAX)
			cap *= 2;
		p = realloc(b->buf, cap);
		if (!p)
			return NULL;
		b->buf = p;
		b->cap = cap;
	}
	/* Builders append attributes to a zeroed area. */
	memset(b->buf + b->len, 0, BATCH_MSG_MAX);
	return b->buf + b->len;
}

uint32_t batch_seq(const struct nlbatch *b)
{
	return b->next_seq;
}

int batch_push(struct nlbatch *b, enum msg_kind kind, enum nat_family family, const char *object)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)(b->buf + b->len);

	if (b->n_msgs == b->cap_msgs) {
		size_t cap = b->cap_msgs ? b->cap_msgs * 2 : 64;
		struct msg_info *p = realloc(b->msgs, cap * sizeof *p);
		if (!p)
			return -1;
		b->msgs = p;
		b->cap_msgs = cap;
	}
	b->msgs[b->n_msgs++] = (struct msg_info){
		.seq = b->next_seq++, .kind = kind, .family = family, .object = object,
	};
	b->len += NLMSG_ALIGN(nlh->nlmsg_len);
	if (kind != KIND_BATCH)
		b->n_changes++;
	return 0;
}

static int batch_marker(struct nlbatch *b, uint16_t type, uint32_t genid)
{
	char *buf = batch_room(b);
	struct nlmsghdr *nlh;
	struct nfgenmsg *nfg;

	if (!buf)
		return -1;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = batch_seq(b);
	nfg = mnl_nlmsg_put_extra_header(nlh, sizeof *nfg);
	nfg->nfgen_family = AF_UNSPEC;
	nfg->version = NFNETLINK_V0;
	nfg->res_id = htons(NFNL_SUBSYS_NFTABLES);
	if (type == NFNL_MSG_BATCH_BEGIN)
		mnl_attr_put_u32(nlh, NFNL_BATCH_GENID, htonl(genid));
	return batch_push(b, KIND_BATCH, NAT_IPV4, NULL);
}

int batch_open(struct nlbatch *b, uint32_t genid)
{
	return batch_marker(b, NFNL_MSG_BATCH_BEGIN, genid);
}

int batch_close(struct nlbatch *b)
{
	return batch_marker(b, NFNL_MSG_BATCH_END, 0);
}

struct msg_info *batch_find(struct nlbatch *b, uint32_t seq)
{
	/* Sequence numbers are consecutive from the first message. */
	if (!b->n_msgs || seq < b->msgs[0].seq || seq - b->msgs[0].seq >= b->n_msgs)
		return NULL;
	return &b->msgs[seq - b->msgs[0].seq];
}
