/* See job.h. */
#include <string.h>

#include "job.h"
#include "records.h"

enum ctl_job_end job_end_of(enum ctl_verb verb, const struct ctl_record *rec)
{
	return ctl_job_end(verb, rec_str(rec, "state"), rec_str(rec, "active_state"),
			   rec_str(rec, "reload_result"), rec_str(rec, "result"));
}

void job_print_failure(FILE *f, enum ctl_verb verb, const char *name,
		       const struct ctl_record *rec)
{
	const char *result = verb == CTL_RELOAD ? "" : rec_str(rec, "result");
	const char *error = rec_str(rec, "error");

	fprintf(f, "emberctl: %s: %s failed", name, ctl_verb_name(verb));
	if (*result && strcmp(result, "success") != 0) {
		fputs(" (", f);
		print_safe(f, result);
		fputc(')', f);
	}
	if (*error) {
		fputs(": ", f);
		print_safe(f, error);
	}
	fprintf(f, "; see 'emberctl status %s'\n", name);
}
