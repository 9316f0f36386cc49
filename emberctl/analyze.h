#ifndef EMBERCTL_ANALYZE_H
#define EMBERCTL_ANALYZE_H
/* emberctl analyze: boot timings from the analyze records (one per service and one
 * kind=boot record). The critical chain follows After= back from the service that
 * became ready last, at each step to the dependency that became ready last before the
 * service started: the chain of waits that decided when boot finished. */
#include <stdio.h>

#include "records.h"

#define ANALYZE_CHAIN_MAX 256

struct boot_times {
	const struct ctl_record *boot; /* the kind=boot record, or NULL */
	long long base_us;             /* userspace_start_us, or 0 when unknown */
	size_t chain_len;
	size_t chain[ANALYZE_CHAIN_MAX]; /* record indexes, the last ready service first */
};

/* Find the boot record and compute the critical chain. */
void analyze_compute(const struct record_set *set, struct boot_times *bt);
/* The critical chain as text. */
void analyze_print(FILE *f, const struct record_set *set, const struct boot_times *bt);
/* {"boot":{...},"services":[...],"critical_chain":[...]} */
void analyze_json(FILE *f, const struct record_set *set, const struct boot_times *bt);
/* A boot chart: one bar per service from started to ready (or failed/stopped). */
void analyze_svg(FILE *f, const struct record_set *set, const struct boot_times *bt);
#endif
