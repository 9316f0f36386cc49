#ifndef NETNAT_KSTATE_H
#define NETNAT_KSTATE_H
/* What the kernel holds: ember's tables, whether each is intact (every chain, set and
 * rule as ruleset.c builds them), and the entries found in their sets. Read only. */
#include "entry.h"
#include "nlink.h"

struct kfamily {
	bool table;  /* ember's table exists */
	bool intact; /* ... and has exactly the expected chains, sets and rules */
	char damage[96]; /* why it is not intact, for --verbose */
};

struct kstate {
	uint32_t genid; /* ruleset generation the reading started at */
	struct kfamily fam[NAT_FAMILIES];
	struct nat_state entries; /* sorted */
};

void kstate_init(struct kstate *k);
void kstate_free(struct kstate *k);
/* Which entries to read. Tables are always checked; a command touching one entry need
 * not read thousands: masquerade commands read the masquerade set (overlaps matter),
 * forward commands only the element with their key. */
struct kscope {
	bool masq;                  /* all masquerade entries */
	bool fwd;                   /* all forwards */
	const struct fwd_entry *key; /* else: just the forward with this key, if any */
};
extern const struct kscope kscope_all;

/* Returns 0, or -1/errno from the first request that failed (not ENOENT: a missing table
 * is a state, not an error). */
int kstate_read(struct nlsock *s, struct kstate *k, const struct kscope *scope);
/* Every table present is intact. */
bool kstate_intact(const struct kstate *k);
#endif
