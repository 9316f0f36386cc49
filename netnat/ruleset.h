#ifndef NETNAT_RULESET_H
#define NETNAT_RULESET_H
/* ember's nftables objects (docs/netnat.md is their spec) and the netlink messages that
 * create them or change their elements. Only this module knows the object layout. */
#include "batch.h"
#include "entry.h"

#include <stdbool.h>

#define NETNAT_TABLE "ember_nat"
#define SET_MASQ "masq_saddr"
#define MAP_PORT "fwd_port"
#define MAP_ADDR_PORT "fwd_addr_port"

enum nat_chain { CHAIN_PREROUTING, CHAIN_OUTPUT, CHAIN_POSTROUTING };
#define NAT_CHAINS 3
enum nat_set { SET_MASQ_SADDR, SET_FWD_PORT, SET_FWD_ADDR_PORT };
#define NAT_SETS 3
/* The most rules one chain holds. */
#define RULES_PER_CHAIN_MAX 2

struct nftnl_rule;
struct nftnl_chain;
struct nftnl_set;

int nfproto_of(enum nat_family f);
const char *chain_name(enum nat_chain c);
const char *set_name(enum nat_set s);

/* The table as it must be, in one go: chains, sets and rules. With `replace` (the table
 * exists but is damaged) it is first created-if-missing and deleted, so whatever was in
 * it is gone. Without, the table must not exist: deleting a table makes the kernel wait
 * for an RCU grace period when the socket closes (~10 ms), a cost only repairs pay. */
int ruleset_build_table(struct nlbatch *b, enum nat_family f, bool replace);
/* Remove the table (flush). The batch's generation check guarantees it still exists. */
int ruleset_build_table_delete(struct nlbatch *b, enum nat_family f);
/* NEWSETELEM (add) or DELSETELEM for every entry of family f in s. */
int ruleset_build_elements(struct nlbatch *b, enum nat_family f, const struct nat_state *s,
			   bool add);

/* Test hook (NETNAT_TEST_FAIL_LAST=1): a last message the kernel must refuse (an element
 * for a set that does not exist), to prove a refused batch changes nothing. */
int ruleset_build_refused(struct nlbatch *b);

/* The expected objects, for checking what the kernel holds. Caller frees. */
struct nftnl_chain *ruleset_chain(enum nat_family f, enum nat_chain c);
struct nftnl_set *ruleset_set(enum nat_family f, enum nat_set s);
/* Rules of one chain in order; returns how many (0..RULES_PER_CHAIN_MAX). */
int ruleset_rules(enum nat_family f, enum nat_chain c, struct nftnl_rule **out);

/* Element encoding, shared with the reader. */
#define MASQ_KEY_MAX 16
#define FWD_KEY_MAX 24
#define FWD_DATA_MAX 20
size_t fwd_key(const struct fwd_entry *e, uint8_t *key);
size_t fwd_data(const struct fwd_entry *e, uint8_t *data);
size_t set_key_len(enum nat_family f, enum nat_set s);
size_t set_data_len(enum nat_family f, enum nat_set s); /* 0 for the masquerade set */
#endif
