#ifndef EMBERCTL_JOB_H
#define EMBERCTL_JOB_H
/* start, stop, restart and reload wait for their end, as systemctl waits for its job
 * (lib/ctl-job.h says when it has ended). Pure: a status record in, a verdict or a line
 * out (the polling is main.c's). */
#include <stdio.h>

#include "ctl-job.h"

/* Where the verb's job stands, from the unit's status record. */
enum ctl_job_end job_end_of(enum ctl_verb verb, const struct ctl_record *rec);

/* Why a job failed, on f, one line: "emberctl: NAME: start failed (RESULT): ERROR; see
 * ...". The unit's texts are escaped. */
void job_print_failure(FILE *f, enum ctl_verb verb, const char *name,
		       const struct ctl_record *rec);
#endif
