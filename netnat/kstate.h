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
/* Returns 0, or -1/errno from the first request that failed (not ENOENT: a missing table
 * is a state, not an error). */
int kstate_read(struct nlsock *s, struct kstate *k);
#endif
