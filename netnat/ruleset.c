#include "ruleset.h"

#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/rtnetlink.h>
#include <string.h>

/* nft's userspace datatype ids (nftables include/datatype.h), stored with each set only so
 * that `nft list` renders the elements; the kernel ignores them. Concatenations shift the
 * earlier types left by TYPE_BITS. */
#define TYPE_BITS 6
#define TYPE_IPV4_ADDR 7
#define TYPE_IPV6_ADDR 8
#define TYPE_INET_PROTO 12
#define TYPE_INET_SERVICE 13

/* Chain priorities: one after nft's dstnat (-100) and srcnat (100), as systemd does, so a
 * hand-written chain at the standard priority runs first. */
#define PRIO_DSTNAT_AFTER (-99)
#define PRIO_SRCNAT_AFTER 101

/* At most this many elements go into one netlink message (each well under 256 bytes). */
#define ELEMS_PER_MSG 200

/* The loopback interface's index is always 1. */
#define LOOPBACK_IFINDEX 1

/* The register holding 32-bit unit `unit` of a concatenation that starts at NFT_REG_1.
 * Named like nft names them: a 16-byte register where one starts, else a 32-bit one. */
static uint32_t reg_at(unsigned unit)
{
	return unit % 4 == 0 ? NFT_REG_1 + unit / 4 : NFT_REG32_00 + unit;
}

int nfproto_of(enum nat_family f)
{
	return f == NAT_IPV4 ? NFPROTO_IPV4 : NFPROTO_IPV6;
}

const char *chain_name(enum nat_chain c)
{
	static const char *const names[NAT_CHAINS] = { "prerouting", "output", "postrouting" };
	return names[c];
}

const char *set_name(enum nat_set s)
{
	static const char *const names[NAT_SETS] = { SET_MASQ, MAP_PORT, MAP_ADDR_PORT };
	return names[s];
}

static unsigned addr_len(enum nat_family f)
{
	return f == NAT_IPV4 ? 4 : 16;
}

/* ---- expressions ------------------------------------------------------------------------ */

static int add_expr(struct nftnl_rule *r, struct nftnl_expr *e)
{
	if (!e)
		return -1;
	nftnl_rule_add_expr(r, e);
	return 0;
}

static int payload(struct nftnl_rule *r, uint32_t base, uint32_t offset, uint32_t len, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("payload");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_BASE, base);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_OFFSET, offset);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_LEN, len);
		nftnl_expr_set_u32(e, NFTNL_EXPR_PAYLOAD_DREG, dreg);
	}
	return add_expr(r, e);
}

static int meta(struct nftnl_rule *r, uint32_t key, uint32_t dreg)
{
	struct nftnl_expr *e = nftnl_expr_alloc("meta");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_KEY, key);
		nftnl_expr_set_u32(e, NFTNL_EXPR_META_DREG, dreg);
	}
	return add_expr(r, e);
}

static int cmp(struct nftnl_rule *r, uint32_t op, const void *data, uint32_t len)
{
	struct nftnl_expr *e = nftnl_expr_alloc("cmp");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_CMP_OP, op);
		nftnl_expr_set(e, NFTNL_EXPR_CMP_DATA, data, len);
	}
	return add_expr(r, e);
}

/* fib daddr type local */
static int fib_daddr_is_local(struct nftnl_rule *r)
{
	uint32_t local = RTN_LOCAL; /* the fib result is a host-order u32 */
	struct nftnl_expr *e = nftnl_expr_alloc("fib");

	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_FLAGS, NFTA_FIB_F_DADDR);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_RESULT, NFT_FIB_RESULT_ADDRTYPE);
		nftnl_expr_set_u32(e, NFTNL_EXPR_FIB_DREG, NFT_REG_1);
	}
	if (add_expr(r, e) < 0)
		return -1;
	return cmp(r, NFT_CMP_EQ, &local, sizeof local);
}

static uint32_t set_id(enum nat_family f, enum nat_set s)
{
	/* Unique within a batch that may build both families. */
	return (uint32_t)(f * NAT_SETS + s + 1);
}

static int lookup(struct nftnl_rule *r, enum nat_family f, enum nat_set s)
{
	struct nftnl_expr *e = nftnl_expr_alloc("lookup");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SREG, NFT_REG_1);
		nftnl_expr_set_str(e, NFTNL_EXPR_LOOKUP_SET, set_name(s));
		nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_SET_ID, set_id(f, s));
		if (s != SET_MASQ_SADDR)
			nftnl_expr_set_u32(e, NFTNL_EXPR_LOOKUP_DREG, NFT_REG_1);
	}
	return add_expr(r, e);
}

/* dnat to the address and port the map lookup left at NFT_REG_1: the port follows the
 * address in the next 32-bit register. */
static int dnat_from_map(struct nftnl_rule *r, enum nat_family f)
{
	struct nftnl_expr *e = nftnl_expr_alloc("nat");
	if (e) {
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_TYPE, NFT_NAT_DNAT);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_FAMILY, (uint32_t)nfproto_of(f));
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_ADDR_MIN, NFT_REG_1);
		nftnl_expr_set_u32(e, NFTNL_EXPR_NAT_REG_PROTO_MIN, reg_at(addr_len(f) / 4));
	}
	return add_expr(r, e);
}

static int masquerade(struct nftnl_rule *r)
{
	return add_expr(r, nftnl_expr_alloc("masq"));
}

/* Key "meta l4proto . th dport" from `first` (a 32-bit register index) on. */
static int proto_port_key(struct nftnl_rule *r, unsigned first)
{
	return meta(r, NFT_META_L4PROTO, reg_at(first)) ||
	       payload(r, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2, reg_at(first + 1));
}

/* Key "ip daddr . meta l4proto . th dport". */
static int addr_proto_port_key(struct nftnl_rule *r, enum nat_family f)
{
	uint32_t daddr = f == NAT_IPV4 ? 16 : 24;
	return payload(r, NFT_PAYLOAD_NETWORK_HEADER, daddr, addr_len(f), NFT_REG_1) ||
	       proto_port_key(r, addr_len(f) / 4);
}

/* "ip daddr != 127.0.0.0/8 oif lo" / "ip6 daddr != ::1 oif lo": connections from this host
 * to one of its own non-loopback addresses. */
static int output_guard(struct nftnl_rule *r, enum nat_family f)
{
	static const uint8_t v4_loopnet = 127;
	static const uint8_t v6_loopback[16] = { [15] = 1 };
	uint32_t lo = LOOPBACK_IFINDEX;
	int err;

	if (f == NAT_IPV4)
		err = payload(r, NFT_PAYLOAD_NETWORK_HEADER, 16, 1, NFT_REG_1) ||
		      cmp(r, NFT_CMP_NEQ, &v4_loopnet, 1);
	else
		err = payload(r, NFT_PAYLOAD_NETWORK_HEADER, 24, 16, NFT_REG_1) ||
		      cmp(r, NFT_CMP_NEQ, v6_loopback, 16);
	return err || meta(r, NFT_META_OIF, NFT_REG_1) || cmp(r, NFT_CMP_EQ, &lo, sizeof lo);
}

static struct nftnl_rule *new_rule(enum nat_family f, enum nat_chain c)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	if (!r)
		return NULL;
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, NETNAT_TABLE);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain_name(c));
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, (uint32_t)nfproto_of(f));
	return r;
}

/* The rules of each chain; `which` picks one. Returns -1 on allocation failure. */
static int fill_rule(struct nftnl_rule *r, enum nat_family f, enum nat_chain c, int which)
{
	switch (c) {
	case CHAIN_PREROUTING:
		if (which == 0)
			return addr_proto_port_key(r, f) || lookup(r, f, SET_FWD_ADDR_PORT) ||
			       dnat_from_map(r, f) ? -1 : 0;
		return fib_daddr_is_local(r) || proto_port_key(r, 0) || lookup(r, f, SET_FWD_PORT) ||
		       dnat_from_map(r, f) ? -1 : 0;
	case CHAIN_OUTPUT:
		if (which == 0)
			return output_guard(r, f) || addr_proto_port_key(r, f) ||
			       lookup(r, f, SET_FWD_ADDR_PORT) || dnat_from_map(r, f) ? -1 : 0;
		return output_guard(r, f) || proto_port_key(r, 0) || lookup(r, f, SET_FWD_PORT) ||
		       dnat_from_map(r, f) ? -1 : 0;
	case CHAIN_POSTROUTING:
		return payload(r, NFT_PAYLOAD_NETWORK_HEADER, f == NAT_IPV4 ? 12 : 8, addr_len(f),
			       NFT_REG_1) || lookup(r, f, SET_MASQ_SADDR) || masquerade(r) ? -1 : 0;
	}
	return -1;
}

static int rules_in_chain(enum nat_chain c)
{
	return c == CHAIN_POSTROUTING ? 1 : 2;
}

int ruleset_rules(enum nat_family f, enum nat_chain c, struct nftnl_rule **out)
{
	int n = rules_in_chain(c);

	for (int i = 0; i < n; i++) {
		out[i] = new_rule(f, c);
		if (!out[i] || fill_rule(out[i], f, c, i) < 0) {
			for (int j = 0; j <= i; j++)
				if (out[j])
					nftnl_rule_free(out[j]);
			return -1;
		}
	}
	return n;
}

struct nftnl_chain *ruleset_chain(enum nat_family f, enum nat_chain c)
{
	static const uint32_t hooks[NAT_CHAINS] = { NF_INET_PRE_ROUTING, NF_INET_LOCAL_OUT,
						    NF_INET_POST_ROUTING };
	struct nftnl_chain *ch = nftnl_chain_alloc();

	if (!ch)
		return NULL;
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, NETNAT_TABLE);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, chain_name(c));
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_FAMILY, (uint32_t)nfproto_of(f));
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_HOOKNUM, hooks[c]);
	nftnl_chain_set_s32(ch, NFTNL_CHAIN_PRIO,
			    c == CHAIN_POSTROUTING ? PRIO_SRCNAT_AFTER : PRIO_DSTNAT_AFTER);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TYPE, "nat");
	nftnl_chain_set_u32(ch, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	return ch;
}

size_t set_key_len(enum nat_family f, enum nat_set s)
{
	switch (s) {
	case SET_MASQ_SADDR: return addr_len(f);
	case SET_FWD_PORT: return 8;
	case SET_FWD_ADDR_PORT: return addr_len(f) + 8;
	}
	return 0;
}

size_t set_data_len(enum nat_family f, enum nat_set s)
{
	return s == SET_MASQ_SADDR ? 0 : addr_len(f) + 4;
}

static uint32_t set_key_type(enum nat_family f, enum nat_set s)
{
	uint32_t addr = f == NAT_IPV4 ? TYPE_IPV4_ADDR : TYPE_IPV6_ADDR;
	uint32_t proto_port = (TYPE_INET_PROTO << TYPE_BITS) | TYPE_INET_SERVICE;

	switch (s) {
	case SET_MASQ_SADDR: return addr;
	case SET_FWD_PORT: return proto_port;
	case SET_FWD_ADDR_PORT: return (addr << (2 * TYPE_BITS)) | proto_port;
	}
	return 0;
}

struct nftnl_set *ruleset_set(enum nat_family f, enum nat_set s)
{
	struct nftnl_set *set = nftnl_set_alloc();
	uint32_t addr = f == NAT_IPV4 ? TYPE_IPV4_ADDR : TYPE_IPV6_ADDR;

	if (!set)
		return NULL;
	nftnl_set_set_str(set, NFTNL_SET_TABLE, NETNAT_TABLE);
	nftnl_set_set_str(set, NFTNL_SET_NAME, set_name(s));
	nftnl_set_set_u32(set, NFTNL_SET_FAMILY, (uint32_t)nfproto_of(f));
	nftnl_set_set_u32(set, NFTNL_SET_ID, set_id(f, s));
	nftnl_set_set_u32(set, NFTNL_SET_KEY_TYPE, set_key_type(f, s));
	nftnl_set_set_u32(set, NFTNL_SET_KEY_LEN, (uint32_t)set_key_len(f, s));
	if (s == SET_MASQ_SADDR) {
		nftnl_set_set_u32(set, NFTNL_SET_FLAGS, NFT_SET_INTERVAL);
		return set;
	}
	nftnl_set_set_u32(set, NFTNL_SET_FLAGS, NFT_SET_MAP);
	nftnl_set_set_u32(set, NFTNL_SET_DATA_TYPE, (addr << TYPE_BITS) | TYPE_INET_SERVICE);
	nftnl_set_set_u32(set, NFTNL_SET_DATA_LEN, (uint32_t)set_data_len(f, s));
	return set;
}

/* ---- messages --------------------------------------------------------------------------- */

static int push_table(struct nlbatch *b, enum nat_family f, uint16_t type, uint16_t flags)
{
	struct nftnl_table *t = nftnl_table_alloc();
	char *buf = batch_room(b);
	struct nlmsghdr *nlh;

	if (!t || !buf) {
		if (t)
			nftnl_table_free(t);
		return -1;
	}
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, NETNAT_TABLE);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, (uint32_t)nfproto_of(f));
	nlh = nftnl_table_nlmsg_build_hdr(buf, type, (uint16_t)nfproto_of(f), flags, batch_seq(b));
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	return batch_push(b, type == NFT_MSG_NEWTABLE ? KIND_NEWTABLE : KIND_DELTABLE, f, NETNAT_TABLE);
}

static int push_chain(struct nlbatch *b, enum nat_family f, enum nat_chain c)
{
	struct nftnl_chain *ch = ruleset_chain(f, c);
	char *buf = batch_room(b);
	struct nlmsghdr *nlh;

	if (!ch || !buf) {
		if (ch)
			nftnl_chain_free(ch);
		return -1;
	}
	nlh = nftnl_chain_nlmsg_build_hdr(buf, NFT_MSG_NEWCHAIN, (uint16_t)nfproto_of(f),
					  NLM_F_CREATE | NLM_F_ACK, batch_seq(b));
	nftnl_chain_nlmsg_build_payload(nlh, ch);
	nftnl_chain_free(ch);
	return batch_push(b, KIND_NEWCHAIN, f, chain_name(c));
}

static int push_set(struct nlbatch *b, enum nat_family f, enum nat_set s)
{
	struct nftnl_set *set = ruleset_set(f, s);
	char *buf = batch_room(b);
	struct nlmsghdr *nlh;

	if (!set || !buf) {
		if (set)
			nftnl_set_free(set);
		return -1;
	}
	nlh = nftnl_set_nlmsg_build_hdr(buf, NFT_MSG_NEWSET, (uint16_t)nfproto_of(f),
					NLM_F_CREATE | NLM_F_ACK, batch_seq(b));
	nftnl_set_nlmsg_build_payload(nlh, set);
	nftnl_set_free(set);
	return batch_push(b, KIND_NEWSET, f, set_name(s));
}

static int push_rule(struct nlbatch *b, enum nat_family f, enum nat_chain c, struct nftnl_rule *r)
{
	char *buf = batch_room(b);
	struct nlmsghdr *nlh;

	if (!buf)
		return -1;
	nlh = nftnl_rule_nlmsg_build_hdr(buf, NFT_MSG_NEWRULE, (uint16_t)nfproto_of(f),
					 NLM_F_APPEND | NLM_F_CREATE | NLM_F_ACK, batch_seq(b));
	nftnl_rule_nlmsg_build_payload(nlh, r);
	return batch_push(b, KIND_NEWRULE, f, chain_name(c));
}

static int push_rules(struct nlbatch *b, enum nat_family f, enum nat_chain c)
{
	struct nftnl_rule *rules[RULES_PER_CHAIN_MAX];
	int n = ruleset_rules(f, c, rules), err = 0;

	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!err && push_rule(b, f, c, rules[i]) < 0)
			err = -1;
		nftnl_rule_free(rules[i]);
	}
	return err;
}

int ruleset_build_table(struct nlbatch *b, enum nat_family f, bool replace)
{
	if (replace && (push_table(b, f, NFT_MSG_NEWTABLE, NLM_F_CREATE | NLM_F_ACK) < 0 ||
			push_table(b, f, NFT_MSG_DELTABLE, NLM_F_ACK) < 0))
		return -1;
	if (push_table(b, f, NFT_MSG_NEWTABLE, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK) < 0)
		return -1;
	for (enum nat_chain c = 0; c < NAT_CHAINS; c++)
		if (push_chain(b, f, c) < 0)
			return -1;
	for (enum nat_set s = 0; s < NAT_SETS; s++)
		if (push_set(b, f, s) < 0)
			return -1;
	for (enum nat_chain c = 0; c < NAT_CHAINS; c++)
		if (push_rules(b, f, c) < 0)
			return -1;
	return 0;
}

int ruleset_build_table_delete(struct nlbatch *b, enum nat_family f)
{
	return push_table(b, f, NFT_MSG_DELTABLE, NLM_F_ACK);
}

/* ---- elements --------------------------------------------------------------------------- */

static void put_port(uint8_t *slot, uint16_t port)
{
	/* A port fills the first two bytes of a zeroed 4-byte register, big-endian. */
	slot[0] = (uint8_t)(port >> 8);
	slot[1] = (uint8_t)port;
	slot[2] = slot[3] = 0;
}

size_t fwd_key(const struct fwd_entry *e, uint8_t *key)
{
	size_t off = 0, alen = addr_len(e->target.family);

	if (e->has_listen) {
		memcpy(key, e->listen.bytes, alen);
		off = alen;
	}
	/* meta l4proto is one byte at the start of a zeroed register, whatever the host's
	 * byte order. */
	key[off] = e->proto;
	key[off + 1] = key[off + 2] = key[off + 3] = 0;
	put_port(key + off + 4, e->port);
	return off + 8;
}

size_t fwd_data(const struct fwd_entry *e, uint8_t *data)
{
	size_t alen = addr_len(e->target.family);
	memcpy(data, e->target.bytes, alen);
	put_port(data + alen, e->target_port);
	return alen + 4;
}

/* Collects elements for one set and flushes them in messages of ELEMS_PER_MSG. */
struct elem_writer {
	struct nlbatch *b;
	enum nat_family f;
	enum nat_set s;
	bool add;
	const char *name; /* set name; NULL = set_name(s) */
	struct nftnl_set *set;
	int count;
};

static const char *writer_set_name(const struct elem_writer *w)
{
	return w->name ? w->name : set_name(w->s);
}

static int writer_flush(struct elem_writer *w)
{
	char *buf;
	struct nlmsghdr *nlh;
	uint16_t type = w->add ? NFT_MSG_NEWSETELEM : NFT_MSG_DELSETELEM;
	uint16_t flags = w->add ? NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK : NLM_F_ACK;
	int err;

	if (!w->set || !w->count)
		return 0;
	buf = batch_room(w->b);
	if (!buf)
		return -1;
	nlh = nftnl_nlmsg_build_hdr(buf, type, (uint16_t)nfproto_of(w->f), flags, batch_seq(w->b));
	nftnl_set_elems_nlmsg_build_payload(nlh, w->set);
	err = batch_push(w->b, w->add ? KIND_NEWELEM : KIND_DELELEM, w->f, writer_set_name(w));
	nftnl_set_free(w->set);
	w->set = NULL;
	w->count = 0;
	return err;
}

static int writer_add(struct elem_writer *w, const void *key, size_t klen, const void *data,
		      size_t dlen, uint32_t flags)
{
	struct nftnl_set_elem *e;

	if (w->count == ELEMS_PER_MSG && writer_flush(w) < 0)
		return -1;
	if (!w->set) {
		w->set = nftnl_set_alloc();
		if (!w->set)
			return -1;
		nftnl_set_set_str(w->set, NFTNL_SET_TABLE, NETNAT_TABLE);
		nftnl_set_set_str(w->set, NFTNL_SET_NAME, writer_set_name(w));
		nftnl_set_set_u32(w->set, NFTNL_SET_FAMILY, (uint32_t)nfproto_of(w->f));
	}
	e = nftnl_set_elem_alloc();
	if (!e)
		return -1;
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, (uint32_t)klen);
	if (data)
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_DATA, data, (uint32_t)dlen);
	if (flags)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS, flags);
	nftnl_set_elem_add(w->set, e);
	w->count++;
	return 0;
}

static void writer_discard(struct elem_writer *w)
{
	if (w->set)
		nftnl_set_free(w->set);
	w->set = NULL;
}

/* A prefix is an interval: its first address, and the first address after it marked as
 * the interval's end (none when the prefix reaches the top of the address space). */
static int write_masq(struct elem_writer *w, const struct masq_entry *m)
{
	struct nat_addr end;
	size_t alen = addr_len(w->f);

	if (writer_add(w, m->prefix.bytes, alen, NULL, 0, 0) < 0)
		return -1;
	if (nat_prefix_end(m, &end) && writer_add(w, end.bytes, alen, NULL, 0, NFT_SET_ELEM_INTERVAL_END) < 0)
		return -1;
	return 0;
}

static int write_fwd(struct elem_writer *w, const struct fwd_entry *e)
{
	uint8_t key[FWD_KEY_MAX], data[FWD_DATA_MAX];
	size_t klen = fwd_key(e, key), dlen = fwd_data(e, data);
	return writer_add(w, key, klen, data, dlen, 0);
}

static int write_set(struct elem_writer *w, const struct nat_state *st)
{
	int err = 0;

	if (w->s == SET_MASQ_SADDR) {
		for (size_t i = 0; !err && i < st->n_masq; i++)
			if (st->masq[i].prefix.family == w->f)
				err = write_masq(w, &st->masq[i]);
	} else {
		bool want_listen = w->s == SET_FWD_ADDR_PORT;
		for (size_t i = 0; !err && i < st->n_fwd; i++)
			if (st->fwd[i].target.family == w->f && st->fwd[i].has_listen == want_listen)
				err = write_fwd(w, &st->fwd[i]);
	}
	if (!err)
		err = writer_flush(w);
	writer_discard(w);
	return err;
}

int ruleset_build_elements(struct nlbatch *b, enum nat_family f, const struct nat_state *st,
			   bool add)
{
	for (enum nat_set s = 0; s < NAT_SETS; s++) {
		struct elem_writer w = { .b = b, .f = f, .s = s, .add = add };
		if (write_set(&w, st) < 0)
			return -1;
	}
	return 0;
}

int ruleset_build_refused(struct nlbatch *b)
{
	static const uint8_t key[4] = { 192, 0, 2, 1 };
	struct elem_writer w = { .b = b, .f = NAT_IPV4, .s = SET_MASQ_SADDR, .add = true,
				 .name = "netnat_test_missing" };
	int err;

	if (writer_add(&w, key, sizeof key, NULL, 0, 0) < 0)
		return -1;
	err = writer_flush(&w);
	writer_discard(&w);
	return err;
}
