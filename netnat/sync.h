#ifndef NETNAT_SYNC_H
#define NETNAT_SYNC_H
/* Read what the kernel holds, compute what is wanted, send the difference as one batch
 * tied to the ruleset generation it was computed from; start over if someone changed the
 * ruleset in between. Exit codes are netnat's own (see netnat.h). */
#include "entry.h"
#include "kstate.h"
#include "nlink.h"

/* Fills `want` (initialised, empty) from `current` (sorted). Returns 0, or an exit code
 * after logging why. */
typedef int (*want_fn)(const struct nat_state *current, struct nat_state *want, void *ctx);

/* Make the kernel hold what fn wants, reading the entries in scope (fn sees only those,
 * and entries out of scope are left as they are). With fn NULL, delete ember's tables
 * (flush). */
int sync_run(struct nlsock *s, const struct kscope *scope, want_fn fn, void *ctx);
/* Explain a failure to read the ruleset or open the socket (errno) and return the code. */
int sync_explain_errno(int err, const char *doing);
#endif
