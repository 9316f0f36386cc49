#ifndef EMBER_MODLOAD_OUTPUT_H
#define EMBER_MODLOAD_OUTPUT_H
/* What ember-modload prints: the plan (--dry-run), results as JSON (--json), the exit
 * status a plan's results deserve. */
#include <stdbool.h>
#include <stdio.h>

#include "plan.h"

void print_plan_text(FILE *f, const struct plan *p, bool verbose);
void print_json(FILE *f, const struct plan *p, bool dry_run, unsigned jobs, long long wall_us);
/* True when a module failed for a reason other than being absent. */
bool plan_has_failure(const struct plan *p);
#endif
