#ifndef NETNAT_BATCH_H
#define NETNAT_BATCH_H
/* One nfnetlink batch in a growable buffer, with a record of every message in it so
 * that acks and errors, matched by sequence number, can say which object failed. */
#include "entry.h"

#include <stddef.h>
#include <stdint.h>

enum msg_kind {
	KIND_BATCH,    /* BATCH_BEGIN / BATCH_END */
	KIND_NEWTABLE,
	KIND_DELTABLE,
	KIND_NEWCHAIN,
	KIND_NEWSET,
	KIND_NEWRULE,
	KIND_NEWELEM,
	KIND_DELELEM,
};

struct msg_info {
	uint32_t seq;
	enum msg_kind kind;
	enum nat_family family;
	const char *object; /* static: chain or set name, or NULL */
	bool acked;
};

struct nlbatch {
	char *buf;
	size_t len, cap;
	struct msg_info *msgs;
	size_t n_msgs, cap_msgs;
	uint32_t next_seq;
	size_t n_changes; /* messages between BEGIN and END */
};

/* The most one message may take: element messages are split to stay below it. */
#define BATCH_MSG_MAX 65536

void batch_init(struct nlbatch *b, uint32_t first_seq);
void batch_free(struct nlbatch *b);
/* Room for one message of up to BATCH_MSG_MAX bytes at the end; NULL when out of memory. */
char *batch_room(struct nlbatch *b);
uint32_t batch_seq(const struct nlbatch *b);
/* Account for the message just built in batch_room() under sequence batch_seq(). */
int batch_push(struct nlbatch *b, enum msg_kind kind, enum nat_family family, const char *object);
/* BATCH_BEGIN carrying the ruleset generation the batch was computed from: the kernel
 * refuses the batch (ERESTART) if anything changed the ruleset since. */
int batch_open(struct nlbatch *b, uint32_t genid);
int batch_close(struct nlbatch *b);
struct msg_info *batch_find(struct nlbatch *b, uint32_t seq);
#endif
