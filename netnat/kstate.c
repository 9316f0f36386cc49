#include "kstate.h"

#include "ruleset.h"

#include <errno.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/gen.h>
#include <libnftnl/rule.h>
#include <libnftnl/set.h>
#include <libnftnl/table.h>
#include <linux/netfilter/nf_tables.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rule shapes are compared as the list of their expression names. */
#define SHAPE_MAX 160

void kstate_init(struct kstate *k)
{
	memset(k, 0, sizeof *k);
	nat_state_init(&k->entries);
}

void kstate_free(struct kstate *k)
{
	nat_state_free(&k->entries);
}

static void damaged(struct kfamily *kf, const char *what, const char *name)
{
	if (kf->intact)
		snprintf(kf->damage, sizeof kf->damage, "%s %s", what, name);
	kf->intact = false;
}

/* ---- generation and table ---------------------------------------------------------------- */

static int gen_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_gen *gen = nftnl_gen_alloc();
	if (!gen)
		return MNL_CB_ERROR;
	if (nftnl_gen_nlmsg_parse(nlh, gen) == 0)
		*(uint32_t *)data = nftnl_gen_get_u32(gen, NFTNL_GEN_ID);
	nftnl_gen_free(gen);
	return MNL_CB_OK;
}

static int read_genid(struct nlsock *s, uint32_t *genid)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
						     nl_next_seq(s));
	return nl_request(s, nlh, gen_cb, genid);
}

static int found_cb(const struct nlmsghdr *nlh, void *data)
{
	*(bool *)data = true;
	return MNL_CB_OK;
}

static int read_table(struct nlsock *s, enum nat_family f, bool *exists)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nftnl_table *t = nftnl_table_alloc();
	struct nlmsghdr *nlh;
	int r;

	if (!t)
		return -1;
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, NETNAT_TABLE);
	nlh = nftnl_table_nlmsg_build_hdr(buf, NFT_MSG_GETTABLE, (uint16_t)nfproto_of(f), NLM_F_ACK,
					  nl_next_seq(s));
	nftnl_table_nlmsg_build_payload(nlh, t);
	nftnl_table_free(t);
	*exists = false;
	r = nl_request(s, nlh, found_cb, exists);
	/* A kernel without this family cannot hold the table; creating it will say why. */
	if (r < 0 && (errno == ENOENT || errno == EAFNOSUPPORT || errno == EOPNOTSUPP))
		return 0;
	return r;
}

/* ---- chains ----------------------------------------------------------------------------- */

struct chain_check {
	enum nat_family f;
	struct kfamily *kf;
	bool seen[NAT_CHAINS];
};

static bool chain_matches(struct nftnl_chain *got, struct nftnl_chain *want)
{
	return nftnl_chain_is_set(got, NFTNL_CHAIN_PRIO) &&
	       nftnl_chain_get_u32(got, NFTNL_CHAIN_HOOKNUM) ==
		       nftnl_chain_get_u32(want, NFTNL_CHAIN_HOOKNUM) &&
	       nftnl_chain_get_s32(got, NFTNL_CHAIN_PRIO) == nftnl_chain_get_s32(want, NFTNL_CHAIN_PRIO) &&
	       nftnl_chain_is_set(got, NFTNL_CHAIN_TYPE) &&
	       strcmp(nftnl_chain_get_str(got, NFTNL_CHAIN_TYPE), "nat") == 0;
}

static int check_chain(struct chain_check *cc, struct nftnl_chain *got)
{
	const char *name = nftnl_chain_get_str(got, NFTNL_CHAIN_NAME);

	for (enum nat_chain c = 0; c < NAT_CHAINS; c++) {
		struct nftnl_chain *want;
		if (strcmp(name, chain_name(c)) != 0)
			continue;
		want = ruleset_chain(cc->f, c);
		if (!want)
			return -1;
		cc->seen[c] = true;
		if (!nftnl_chain_is_set(got, NFTNL_CHAIN_HOOKNUM) || !chain_matches(got, want))
			damaged(cc->kf, "changed chain", name);
		nftnl_chain_free(want);
		return 0;
	}
	damaged(cc->kf, "unexpected chain", name);
	return 0;
}

static int chain_cb(const struct nlmsghdr *nlh, void *data)
{
	struct chain_check *cc = data;
	struct nftnl_chain *got = nftnl_chain_alloc();
	int r = MNL_CB_OK;

	if (!got)
		return MNL_CB_ERROR;
	if (nftnl_chain_nlmsg_parse(nlh, got) == 0 &&
	    strcmp(nftnl_chain_get_str(got, NFTNL_CHAIN_TABLE), NETNAT_TABLE) == 0 &&
	    check_chain(cc, got) < 0)
		r = MNL_CB_ERROR;
	nftnl_chain_free(got);
	return r;
}

static int read_chains(struct nlsock *s, enum nat_family f, struct kfamily *kf)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct chain_check cc = { .f = f, .kf = kf };
	struct nlmsghdr *nlh = nftnl_chain_nlmsg_build_hdr(buf, NFT_MSG_GETCHAIN, (uint16_t)nfproto_of(f),
							   NLM_F_DUMP, nl_next_seq(s));

	if (nl_request(s, nlh, chain_cb, &cc) < 0)
		return -1;
	for (enum nat_chain c = 0; c < NAT_CHAINS; c++)
		if (!cc.seen[c])
			damaged(kf, "missing chain", chain_name(c));
	return 0;
}

/* ---- rules ------------------------------------------------------------------------------ */

static void rule_shape(const struct nftnl_rule *r, char *out, size_t size)
{
	struct nftnl_expr_iter *it = nftnl_expr_iter_create(r);
	struct nftnl_expr *e;
	size_t len = 0;

	out[0] = '\0';
	if (!it)
		return;
	while ((e = nftnl_expr_iter_next(it)) && len < size) {
		int n = snprintf(out + len, size - len, "%s,", nftnl_expr_get_str(e, NFTNL_EXPR_NAME));
		if (n < 0)
			break;
		len += (size_t)n;
	}
	nftnl_expr_iter_destroy(it);
}

struct rule_check {
	struct kfamily *kf;
	char want[NAT_CHAINS][RULES_PER_CHAIN_MAX][SHAPE_MAX];
	int n_want[NAT_CHAINS];
	int n_seen[NAT_CHAINS];
};

static int expected_rules(struct rule_check *rc, enum nat_family f)
{
	for (enum nat_chain c = 0; c < NAT_CHAINS; c++) {
		struct nftnl_rule *rules[RULES_PER_CHAIN_MAX];
		int n = ruleset_rules(f, c, rules);
		if (n < 0)
			return -1;
		rc->n_want[c] = n;
		for (int i = 0; i < n; i++) {
			rule_shape(rules[i], rc->want[c][i], SHAPE_MAX);
			nftnl_rule_free(rules[i]);
		}
	}
	return 0;
}

static void check_rule(struct rule_check *rc, struct nftnl_rule *got)
{
	const char *chain = nftnl_rule_get_str(got, NFTNL_RULE_CHAIN);
	char shape[SHAPE_MAX];

	for (enum nat_chain c = 0; c < NAT_CHAINS; c++) {
		int i;
		if (strcmp(chain, chain_name(c)) != 0)
			continue;
		i = rc->n_seen[c]++;
		rule_shape(got, shape, sizeof shape);
		if (i >= rc->n_want[c] || strcmp(shape, rc->want[c][i]) != 0)
			damaged(rc->kf, "changed rules in chain", chain);
		return;
	}
}

static int rule_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_rule *got = nftnl_rule_alloc();

	if (!got)
		return MNL_CB_ERROR;
	if (nftnl_rule_nlmsg_parse(nlh, got) == 0 &&
	    strcmp(nftnl_rule_get_str(got, NFTNL_RULE_TABLE), NETNAT_TABLE) == 0)
		check_rule(data, got);
	nftnl_rule_free(got);
	return MNL_CB_OK;
}

static int read_rules(struct nlsock *s, enum nat_family f, struct kfamily *kf)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct rule_check *rc = calloc(1, sizeof *rc);
	struct nftnl_rule *filter = nftnl_rule_alloc();
	struct nlmsghdr *nlh;
	int r = -1;

	if (!rc || !filter || expected_rules(rc, f) < 0)
		goto out;
	rc->kf = kf;
	nftnl_rule_set_str(filter, NFTNL_RULE_TABLE, NETNAT_TABLE);
	nlh = nftnl_rule_nlmsg_build_hdr(buf, NFT_MSG_GETRULE, (uint16_t)nfproto_of(f), NLM_F_DUMP,
					 nl_next_seq(s));
	nftnl_rule_nlmsg_build_payload(nlh, filter);
	r = nl_request(s, nlh, rule_cb, rc);
	for (enum nat_chain c = 0; r == 0 && c < NAT_CHAINS; c++)
		if (rc->n_seen[c] != rc->n_want[c])
			damaged(kf, "changed rules in chain", chain_name(c));
out:
	free(rc);
	if (filter)
		nftnl_rule_free(filter);
	return r;
}

/* ---- sets ------------------------------------------------------------------------------- */

struct set_check {
	enum nat_family f;
	struct kfamily *kf;
	bool ok[NAT_SETS]; /* exists with the expected key and data */
};

/* nftnl_*_get_u32() of an absent attribute reads NULL: absent counts as 0. */
static uint32_t set_u32(struct nftnl_set *s, uint16_t attr)
{
	return nftnl_set_is_set(s, attr) ? nftnl_set_get_u32(s, attr) : 0;
}

static bool set_matches(struct nftnl_set *got, struct nftnl_set *want)
{
	static const uint16_t attrs[] = { NFTNL_SET_FLAGS, NFTNL_SET_KEY_LEN, NFTNL_SET_DATA_LEN };

	for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
		if (set_u32(got, attrs[i]) != set_u32(want, attrs[i]))
			return false;
	return true;
}

static int set_cb(const struct nlmsghdr *nlh, void *data)
{
	struct set_check *sc = data;
	struct nftnl_set *got = nftnl_set_alloc();
	const char *name;

	if (!got)
		return MNL_CB_ERROR;
	if (nftnl_set_nlmsg_parse(nlh, got) < 0 ||
	    strcmp(nftnl_set_get_str(got, NFTNL_SET_TABLE), NETNAT_TABLE) != 0)
		goto out;
	name = nftnl_set_get_str(got, NFTNL_SET_NAME);
	for (enum nat_set s = 0; s < NAT_SETS; s++) {
		struct nftnl_set *want;
		if (strcmp(name, set_name(s)) != 0)
			continue;
		want = ruleset_set(sc->f, s);
		if (!want) {
			nftnl_set_free(got);
			return MNL_CB_ERROR;
		}
		sc->ok[s] = set_matches(got, want);
		nftnl_set_free(want);
		if (!sc->ok[s])
			damaged(sc->kf, "changed set", name);
		goto out;
	}
	damaged(sc->kf, "unexpected set", name);
out:
	nftnl_set_free(got);
	return MNL_CB_OK;
}

static int read_sets(struct nlsock *s, struct set_check *sc)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nftnl_set *filter = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	int r;

	if (!filter)
		return -1;
	nftnl_set_set_str(filter, NFTNL_SET_TABLE, NETNAT_TABLE);
	nlh = nftnl_set_nlmsg_build_hdr(buf, NFT_MSG_GETSET, (uint16_t)nfproto_of(sc->f), NLM_F_DUMP,
					nl_next_seq(s));
	nftnl_set_nlmsg_build_payload(nlh, filter);
	nftnl_set_free(filter);
	r = nl_request(s, nlh, set_cb, sc);
	for (enum nat_set i = 0; r == 0 && i < NAT_SETS; i++)
		if (!sc->ok[i])
			damaged(sc->kf, "missing set", set_name(i));
	return r;
}

/* ---- elements --------------------------------------------------------------------------- */

struct interval_point {
	struct nat_addr addr;
	bool end;
};

static int cmp_point(const void *pa, const void *pb)
{
	const struct interval_point *a = pa, *b = pb;
	int c = memcmp(a->addr.bytes, b->addr.bytes, 16);
	/* At one address, an interval's end comes before the next one's start. */
	return c ? c : (int)b->end - (int)a->end;
}

/* Interval elements (start, end-marked first address after) back into prefixes. */
static int points_to_prefixes(struct interval_point *p, size_t n, struct nat_state *out)
{
	const struct nat_addr *start = NULL;

	qsort(p, n, sizeof *p, cmp_point);
	for (size_t i = 0; i < n; i++) {
		if (!p[i].end) {
			start = &p[i].addr;
			continue;
		}
		/* An end with no start (nft's leading 0.0.0.0 end marker) means nothing. */
		if (start && nat_range_to_prefixes(start, &p[i].addr, out) < 0)
			return -1;
		start = NULL;
	}
	if (start && nat_range_to_prefixes(start, NULL, out) < 0)
		return -1;
	return 0;
}

static bool decode_fwd(enum nat_family f, enum nat_set s, const uint8_t *key, uint32_t klen,
		       const uint8_t *data, uint32_t dlen, struct fwd_entry *e)
{
	size_t alen = f == NAT_IPV4 ? 4 : 16, off = 0;

	if (klen != set_key_len(f, s) || dlen != set_data_len(f, s))
		return false;
	memset(e, 0, sizeof *e);
	e->target.family = e->listen.family = (uint8_t)f;
	if (s == SET_FWD_ADDR_PORT) {
		e->has_listen = true;
		memcpy(e->listen.bytes, key, alen);
		off = alen;
	}
	e->proto = key[off];
	e->port = (uint16_t)(key[off + 4] << 8 | key[off + 5]);
	memcpy(e->target.bytes, data, alen);
	e->target_port = (uint16_t)(data[alen] << 8 | data[alen + 1]);
	return (e->proto == IPPROTO_TCP || e->proto == IPPROTO_UDP) && e->port && e->target_port;
}

struct elem_read {
	enum nat_family f;
	enum nat_set s;
	struct nftnl_set *set; /* accumulates the dump */
};

static int elem_cb(const struct nlmsghdr *nlh, void *data)
{
	struct elem_read *er = data;
	return nftnl_set_elems_nlmsg_parse(nlh, er->set) < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

static int collect(struct elem_read *er, struct nat_state *out)
{
	struct nftnl_set_elems_iter *it = nftnl_set_elems_iter_create(er->set);
	struct interval_point *points = NULL;
	size_t n = 0, cap = 0, alen = er->f == NAT_IPV4 ? 4 : 16;
	struct nftnl_set_elem *e;
	int r = 0;

	if (!it)
		return -1;
	while (r == 0 && (e = nftnl_set_elems_iter_next(it))) {
		uint32_t klen = 0, dlen = 0;
		const uint8_t *key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &klen);
		const uint8_t *val = nftnl_set_elem_get(e, NFTNL_SET_ELEM_DATA, &dlen);
		struct fwd_entry fe;

		if (!key)
			continue;
		if (er->s != SET_MASQ_SADDR) {
			if (val && decode_fwd(er->f, er->s, key, klen, val, dlen, &fe))
				r = nat_state_add_fwd(out, &fe);
			continue;
		}
		if (klen != alen)
			continue;
		if (n == cap) {
			struct interval_point *p = realloc(points, (cap = cap ? 2 * cap : 64) * sizeof *p);
			if (!p) {
				r = -1;
				break;
			}
			points = p;
		}
		memset(&points[n], 0, sizeof points[n]);
		points[n].addr.family = (uint8_t)er->f;
		memcpy(points[n].addr.bytes, key, alen);
		/* nftnl_set_elem_get_u32() of an absent attribute reads NULL. */
		points[n].end = nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_FLAGS) &&
				(nftnl_set_elem_get_u32(e, NFTNL_SET_ELEM_FLAGS) & NFT_SET_ELEM_INTERVAL_END);
		n++;
	}
	nftnl_set_elems_iter_destroy(it);
	if (r == 0 && n)
		r = points_to_prefixes(points, n, out);
	free(points);
	return r;
}

/* All elements of a set (key NULL, a dump), or the one with this forward's key (a get;
 * ENOENT when absent). */
static int read_elements(struct nlsock *s, enum nat_family f, enum nat_set set,
			 const struct fwd_entry *key, struct nat_state *out)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct elem_read er = { .f = f, .s = set, .set = nftnl_set_alloc() };
	struct nftnl_set *query = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	int r = -1;

	if (!er.set || !query)
		goto out;
	nftnl_set_set_str(query, NFTNL_SET_TABLE, NETNAT_TABLE);
	nftnl_set_set_str(query, NFTNL_SET_NAME, set_name(set));
	if (key) {
		uint8_t bytes[FWD_KEY_MAX];
		struct nftnl_set_elem *e = nftnl_set_elem_alloc();
		if (!e)
			goto out;
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, bytes, (uint32_t)fwd_key(key, bytes));
		nftnl_set_elem_add(query, e);
	}
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, (uint16_t)nfproto_of(f),
				    key ? NLM_F_ACK : NLM_F_DUMP, nl_next_seq(s));
	nftnl_set_elems_nlmsg_build_payload(nlh, query);
	r = nl_request(s, nlh, elem_cb, &er);
	if (r < 0 && key && errno == ENOENT)
		r = 0;
	if (r == 0)
		r = collect(&er, out);
out:
	if (er.set)
		nftnl_set_free(er.set);
	if (query)
		nftnl_set_free(query);
	return r;
}

const struct kscope kscope_all = { .masq = true, .fwd = true };

/* Read set i of family f within scope? Then *key is NULL for all of it, else the key. */
static bool in_scope(const struct kscope *scope, enum nat_family f, enum nat_set i,
		     const struct fwd_entry **key)
{
	*key = NULL;
	if (i == SET_MASQ_SADDR)
		return scope->masq;
	if (scope->fwd)
		return true;
	if (!scope->key || scope->key->target.family != f)
		return false;
	*key = scope->key;
	return scope->key->has_listen == (i == SET_FWD_ADDR_PORT);
}

/* ---- all of it -------------------------------------------------------------------------- */

static int read_family(struct nlsock *s, enum nat_family f, const struct kscope *scope,
		       struct kstate *k)
{
	struct kfamily *kf = &k->fam[f];
	struct set_check sc = { .f = f, .kf = kf };

	if (read_table(s, f, &kf->table) < 0)
		return -1;
	if (!kf->table)
		return 0;
	kf->intact = true;
	if (read_chains(s, f, kf) < 0 || read_rules(s, f, kf) < 0 || read_sets(s, &sc) < 0)
		return -1;
	/* Entries of a damaged table are kept too, so that rebuilding it loses nothing. */
	for (enum nat_set i = 0; i < NAT_SETS; i++) {
		const struct fwd_entry *key;
		if (sc.ok[i] && in_scope(scope, f, i, &key) &&
		    read_elements(s, f, i, key, &k->entries) < 0)
			return -1;
	}
	return 0;
}

int kstate_read(struct nlsock *s, struct kstate *k, const struct kscope *scope)
{
	kstate_free(k);
	kstate_init(k);
	if (read_genid(s, &k->genid) < 0)
		return -1;
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++)
		if (read_family(s, f, scope, k) < 0)
			return -1;
	nat_state_sort(&k->entries);
	return 0;
}

bool kstate_intact(const struct kstate *k)
{
	for (enum nat_family f = 0; f < NAT_FAMILIES; f++)
		if (k->fam[f].table && !k->fam[f].intact)
			return false;
	return true;
}
