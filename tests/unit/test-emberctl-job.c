// sources: emberctl/records.c emberctl/job.c
/* When emberctl start/stop/restart/reload is done waiting, and what it says when the
 * job failed: every state ember-init reports, for each verb (as systemctl's jobs end). */
#include "harness.h"
#include "job.h"
#include "records.h"

#include <stdlib.h>

static char text[4096];
static struct record_set set;

static const struct ctl_record *rec(const char *state, const char *active, const char *extra)
{
	char err[256];

	records_free(&set);
	snprintf(text, sizeof text, "name=x\nstate=%s\nactive_state=%s\n%s%s\n", state, active,
		 extra, *extra ? "\n" : "");
	if (records_load(text, strlen(text), &set, err, sizeof err) < 0 || set.count != 1) {
		printf("  records_load: %s\n", err);
		exit(1);
	}
	return &set.rec[0];
}

static void start_waits_until_up(void)
{
	CHECK(job_end_of(CTL_START, rec("waiting", "inactive", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_START, rec("starting", "activating", "")) == CTL_JOB_RUNNING);
	/* a notify service that has not sent READY=1 yet */
	CHECK(job_end_of(CTL_START, rec("running", "activating", "")) == CTL_JOB_RUNNING);
	/* a start that came while it stopped runs after the stop */
	CHECK(job_end_of(CTL_START, rec("stopping", "deactivating", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_START, rec("ready", "active", "")) == CTL_JOB_DONE);
}

static void start_of_oneshot_or_skipped_unit_is_done(void)
{
	CHECK(job_end_of(CTL_START, rec("stopped", "inactive", "")) == CTL_JOB_DONE);
	CHECK(job_end_of(CTL_START, rec("inactive", "inactive", "")) == CTL_JOB_DONE);
	CHECK(job_end_of(CTL_START, rec("condition-failed", "inactive", "")) == CTL_JOB_DONE);
}

static void start_fails_with_the_unit(void)
{
	CHECK(job_end_of(CTL_START, rec("failed", "failed", "")) == CTL_JOB_FAILED);
	/* failed, a restart pending: systemd's start job ends "failed" too */
	CHECK(job_end_of(CTL_RESTART, rec("failed", "activating", "")) == CTL_JOB_FAILED);
	CHECK(job_end_of(CTL_START, rec("permanent-failure", "failed", "")) == CTL_JOB_FAILED);
	CHECK(job_end_of(CTL_START, rec("invalid", "failed", "")) == CTL_JOB_FAILED);
}

/* As systemd's job result "dependency": the unit is left inactive, the start failed. */
static void start_fails_when_a_dependency_failed(void)
{
	CHECK(job_end_of(CTL_START, rec("stopped", "inactive", "result=dependency")) ==
	      CTL_JOB_DEPENDENCY);
	CHECK(job_end_of(CTL_RESTART, rec("stopped", "inactive", "result=dependency")) ==
	      CTL_JOB_DEPENDENCY);
	CHECK(job_end_of(CTL_START, rec("stopped", "inactive", "result=success")) == CTL_JOB_DONE);
	CHECK(job_end_of(CTL_STOP, rec("stopped", "inactive", "result=dependency")) == CTL_JOB_DONE);
	/* a device that did not appear in time is left inactive too; its start failed */
	CHECK(job_end_of(CTL_START, rec("stopped", "inactive", "result=timeout")) == CTL_JOB_FAILED);
	/* still queued: a new start reset the last one's result only once it runs */
	CHECK(job_end_of(CTL_START, rec("waiting", "inactive", "result=dependency")) ==
	      CTL_JOB_RUNNING);
}

static void restart_waits_through_stop_and_start(void)
{
	CHECK(job_end_of(CTL_RESTART, rec("stopping", "deactivating", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_RESTART, rec("waiting", "inactive", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_RESTART, rec("running", "activating", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_RESTART, rec("ready", "active", "")) == CTL_JOB_DONE);
}

static void stop_ends_when_down_however(void)
{
	CHECK(job_end_of(CTL_STOP, rec("stopping", "deactivating", "")) == CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_STOP, rec("stopped", "inactive", "")) == CTL_JOB_DONE);
	CHECK(job_end_of(CTL_STOP, rec("failed", "failed", "")) == CTL_JOB_DONE);
	/* started again by someone else meanwhile: the stop itself is over */
	CHECK(job_end_of(CTL_STOP, rec("running", "activating", "")) == CTL_JOB_DONE);
}

static void reload_waits_and_reports_its_result(void)
{
	CHECK(job_end_of(CTL_RELOAD, rec("ready", "reloading", "reload_result=success")) ==
	      CTL_JOB_RUNNING);
	CHECK(job_end_of(CTL_RELOAD, rec("ready", "active", "reload_result=success")) == CTL_JOB_DONE);
	CHECK(job_end_of(CTL_RELOAD, rec("ready", "active", "reload_result=failed")) == CTL_JOB_FAILED);
	/* the service died during the reload */
	CHECK(job_end_of(CTL_RELOAD, rec("failed", "failed", "reload_result=success")) ==
	      CTL_JOB_FAILED);
}

static void failure_text_is_escaped(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	job_print_failure(f, CTL_START, "x", rec("failed", "failed",
		"result=exit-code\nerror=exited with status 1 \\x1b[31m 'x'"));
	fclose(f);
	CHECK_STR(out, "emberctl: x: start failed (exit-code): exited with status 1 "
		       "\\x1b[31m 'x'; see 'emberctl status x'\n");
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	job_print_failure(f, CTL_RELOAD, "x", rec("ready", "active", "reload_result=failed"));
	fclose(f);
	CHECK_STR(out, "emberctl: x: reload failed; see 'emberctl status x'\n");
	free(out);
}

int main(void)
{
	RUN(start_waits_until_up);
	RUN(start_of_oneshot_or_skipped_unit_is_done);
	RUN(start_fails_with_the_unit);
	RUN(start_fails_when_a_dependency_failed);
	RUN(restart_waits_through_stop_and_start);
	RUN(stop_ends_when_down_however);
	RUN(reload_waits_and_reports_its_result);
	RUN(failure_text_is_escaped);
	records_free(&set);
	return harness_done();
}
