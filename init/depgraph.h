#ifndef EMBER_DEPGRAPH_H
#define EMBER_DEPGRAPH_H
/* The dependency graph of the services: After=/Before= order starts, Requires= makes a
 * failure (and a stop) spread to the services that require the one that failed.
 *
 * depgraph_solve() drops what cannot start (failed or masked services, services that
 * require a dropped one), breaks ordering cycles as systemd does (an ordering edge into a
 * member that no other member requires is dropped and reported; only a cycle of members
 * that all require each other is dropped whole), then arranges the rest in waves:
 * a service is in the first wave after every service ordered before it. Everything in
 * one wave may start in parallel. The supervisor need not wait for whole waves: a
 * service may start as soon as depgraph_startable() says so.
 *
 * Fixed storage (bit matrices over at most DEPGRAPH_MAX nodes), no allocation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "service.h"

#define DEPGRAPH_MAX SERVICE_COUNT_MAX
#define DEPGRAPH_WORDS ((DEPGRAPH_MAX + 63) / 64)
#define DEPGRAPH_REASON_MAX 512

/* A set of nodes. */
struct depgraph_set {
	uint64_t bits[DEPGRAPH_WORDS];
};

static inline bool depgraph_set_has(const struct depgraph_set *s, size_t node)
{
	return (s->bits[node / 64] >> (node % 64)) & 1;
}

static inline void depgraph_set_add(struct depgraph_set *s, size_t node)
{
	s->bits[node / 64] |= (uint64_t)1 << (node % 64);
}

/* Why a node will not start. */
enum depgraph_cause {
	DEPGRAPH_STARTS = 0,
	DEPGRAPH_FAILED,      /* dropped by the caller: invalid file, ... */
	DEPGRAPH_MASKED,      /* dropped by the caller: masked */
	DEPGRAPH_CYCLE,       /* member of an ordering cycle */
	DEPGRAPH_REQUIREMENT, /* requires a service that does not exist or will not start */
};

struct depgraph {
	size_t count;
	const char *name[DEPGRAPH_MAX];             /* the caller's strings */
	struct depgraph_set before[DEPGRAPH_MAX];   /* before[a] holds b: a starts before b */
	struct depgraph_set requires[DEPGRAPH_MAX]; /* requires[a] holds b: a Requires=b */
	enum depgraph_cause cause[DEPGRAPH_MAX];
	/* Filled by depgraph_solve(): */
	uint16_t wave[DEPGRAPH_MAX];    /* for nodes that start */
	size_t wave_count;
	size_t order_count;             /* nodes that start ... */
	uint16_t order[DEPGRAPH_MAX];   /* ... by wave, then by name */
};

/* Told about each node depgraph_solve() drops, with a message naming the other services
 * involved ("ordering cycle: a -> b -> a"). */
struct depgraph_report {
	void (*dropped)(void *ctx, size_t node, const char *why);
	void *ctx;
	/* A cycle broken by dropping one ordering edge (node keeps starting); may be NULL. */
	void (*note)(void *ctx, size_t node, const char *why);
};

void depgraph_init(struct depgraph *g);
/* Returns the new node's index, or -1 when DEPGRAPH_MAX nodes exist already. name must
 * stay valid as long as the graph is used. */
int depgraph_add(struct depgraph *g, const char *name);
int depgraph_find(const struct depgraph *g, const char *name); /* -1: no such node */
void depgraph_order(struct depgraph *g, size_t first, size_t then);
void depgraph_require(struct depgraph *g, size_t node, size_t required);
/* The caller knows node will not start (cause DEPGRAPH_FAILED or DEPGRAPH_MASKED). */
void depgraph_drop(struct depgraph *g, size_t node, enum depgraph_cause cause);

/* Drop what cannot start, report it, and compute waves and order. */
void depgraph_solve(struct depgraph *g, const struct depgraph_report *report);

/* Build and solve the graph of loaded services: node i is svcs[i]. Masked and failed
 * services are dropped; After=/Before= naming a service that does not exist is ignored,
 * Requires= naming one makes the requirer fail; Wants= never fails anything. Services
 * dropped here are marked failed with the reason (service_fail), which diag also gets. */
void depgraph_from_services(struct depgraph *g, struct service *svcs, size_t n,
			    const struct service_diag *diag);
/* The same, node i being *svcs[i]: the supervisor's units live apart (packed). */
void depgraph_from_list(struct depgraph *g, struct service *const *svcs, size_t n,
			const struct service_diag *diag);

/* Runtime questions for the supervisor. "done" holds the services that finished
 * starting (ready, or exited for oneshot) or gave up; "running" those still up. */
bool depgraph_startable(const struct depgraph *g, size_t node, const struct depgraph_set *done);
/* May node be stopped now? Not while a running service ordered after it still runs
 * (stops go in reverse start order). */
bool depgraph_stoppable(const struct depgraph *g, size_t node,
			const struct depgraph_set *running);
/* Every node that requires node, directly or through others: when node fails or stops,
 * these fail or stop too. node itself is not included. */
void depgraph_requirers(const struct depgraph *g, size_t node, struct depgraph_set *out);
#endif
