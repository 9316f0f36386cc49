// sources: modload/plan.c modload/loader.c modload/output.c modload/depindex.c modload/kmodindex.c modload/modprobe.c modload/cmdline.c modload/loadconf.c modload/names.c modload/util.c
/* Resolution (dependencies, softdeps, aliases, builtins, blacklist, cycles) and the
 * parallel scheduler, on a synthetic module tree with a fake insert function. */
#include "harness.h"
#include "test-modload-fixture.h"

#include "loader.h"
#include "log.h"
#include "output.h"
#include "plan.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

static const char dep_text[] = "kernel/a.ko: kernel/b.ko kernel/c.ko\n"
			       "kernel/b.ko: kernel/c.ko\n"
			       "kernel/c.ko:\n"
			       "kernel/d-x.ko: kernel/c.ko\n"
			       "kernel/cyc1.ko: kernel/cyc2.ko\n"
			       "kernel/cyc2.ko: kernel/cyc1.ko\n"
			       "kernel/top.ko: kernel/cyc1.ko\n"
			       "kernel/s1.ko:\n"
			       "kernel/s2.ko:\n"
			       "kernel/bl.ko:\n"
			       "kernel/usesbl.ko: kernel/bl.ko\n"
			       "kernel/fail.ko:\n"
			       "kernel/abovefail.ko: kernel/fail.ko\n"
			       "kernel/soft-on-fail.ko:\n"
			       "kernel/exists.ko:\n"
			       "kernel/lost.ko: kernel/gone.ko\n"
			       "kernel/packed.ko.zst:\n"
			       "garbage line\n";

struct world {
	struct modprobe_conf conf;
	struct cmdline cmd;
	struct modindex ix;
	struct request_list reqs;
	struct strmap live;
	struct plan plan;
};

static void world_build(struct world *w, const char *names, const char *live)
{
	memset(w, 0, sizeof *w);
	fixture_make();
	fixture_write("modules.dep", dep_text);
	fixture_write("modules.alias", "alias fs-foo a\nalias crypto-x s1\nalias crypto-x s2\n");
	fixture_write("modules.builtin", "kernel/builtin1.ko\n");
	fixture_write("modules.softdep", "softdep a pre: crypto-x\nsoftdep s1 pre: s2\nsoftdep s2 pre: s1\n"
					 "softdep soft-on-fail pre: fail\n");
	for (const char *k = dep_text; (k = strstr(k, "kernel/")); k++) {
		char rel[64];
		size_t len = strcspn(k, ":");
		snprintf(rel, sizeof rel, "%.*s", (int)len, k);
		fixture_write(rel, "ELF");
		k = strchr(k, '\n');
		if (!k)
			break;
	}
	modprobe_conf_parse("blacklist bl\noptions a x=1\ninstall d-x /bin/false\n", "test.conf", &w->conf);
	cmdline_parse("a.y=2", false, &w->cmd);
	modindex_open(&w->ix, fixture_root);
	{
		char *copy = strdup(names), *save = NULL;
		for (char *n = strtok_r(copy, " ", &save); n; n = strtok_r(NULL, " ", &save))
			request_add(&w->reqs, n, "test");
		free(copy);
	}
	if (live)
		strmap_put(&w->live, live, w);
	plan_build(&w->plan, &(struct plan_input){ .requests = &w->reqs, .index = &w->ix, .conf = &w->conf,
						  .cmdline = &w->cmd, .live = &w->live, .root = fixture_root });
}

static void world_free(struct world *w)
{
	plan_free(&w->plan);
	modindex_close(&w->ix);
	modprobe_conf_free(&w->conf);
	cmdline_free(&w->cmd);
	request_list_free(&w->reqs);
	strmap_free(&w->live);
	fixture_remove();
}

static const struct mod_node *node(const struct world *w, const char *name)
{
	for (size_t i = 0; i < w->plan.n; i++)
		if (strcmp(w->plan.nodes[i].name, name) == 0)
			return &w->plan.nodes[i];
	return NULL;
}

static size_t position(const struct world *w, const char *name)
{
	for (size_t k = 0; k < w->plan.norder; k++)
		if (strcmp(w->plan.nodes[w->plan.order[k]].name, name) == 0)
			return k;
	return (size_t)-1;
}

static void dependencies_come_first_in_waves(void)
{
	struct world w;
	world_build(&w, "a", NULL);
	CHECK(w.plan.n == 5); /* a b c, and s1 s2 through the softdep alias crypto-x */
	CHECK(position(&w, "c") < position(&w, "b"));
	CHECK(position(&w, "b") < position(&w, "a"));
	CHECK(node(&w, "c") && node(&w, "c")->wave == 1);
	CHECK(node(&w, "b") && node(&w, "b")->wave == 2);
	CHECK(node(&w, "a") && node(&w, "a")->wave == 3);
	CHECK(node(&w, "a") && node(&w, "a")->requested && !node(&w, "c")->requested);
	CHECK(node(&w, "a") && strcmp(node(&w, "a")->options, "x=1 y=2") == 0);
	CHECK(position(&w, "s1") < position(&w, "a") && position(&w, "s2") < position(&w, "a"));
	CHECK(w.plan.nwaves == 3);
	CHECK(!plan_has_failure(&w.plan));
	world_free(&w);
}

static void shared_dependency_is_one_node(void)
{
	struct world w;
	world_build(&w, "a b", NULL);
	CHECK(w.plan.n == 5);
	CHECK(w.plan.nreqs == 2 && strcmp(w.plan.reqs[1].name, "b") == 0);
	world_free(&w);
}

static void install_command_means_not_loaded(void)
{
	struct world w;
	world_build(&w, "d-x", NULL);
	/* "install d-x /bin/false" disables it; ember-modload runs no commands. */
	CHECK(node(&w, "d_x") && node(&w, "d_x")->state == ST_FAILED && node(&w, "d_x")->err == ERR_INSTALL_CMD);
	CHECK(node(&w, "c") == NULL);
	CHECK(!plan_has_failure(&w.plan));
	world_free(&w);
}

static void blacklist_refuses_request_not_dependency(void)
{
	struct world w;
	world_build(&w, "bl usesbl", NULL);
	CHECK(w.plan.reqs[0].kind == REQ_BLACKLISTED);
	CHECK(w.plan.reqs[1].kind == REQ_MODULES);
	CHECK(node(&w, "bl") != NULL && !node(&w, "bl")->requested);
	world_free(&w);
}

static void builtin_missing_and_alias(void)
{
	struct world w;
	world_build(&w, "builtin1 nope fs-foo", NULL);
	CHECK(w.plan.reqs[0].kind == REQ_BUILTIN);
	CHECK(w.plan.reqs[1].kind == REQ_MISSING);
	CHECK(w.plan.reqs[2].kind == REQ_MODULES && w.plan.reqs[2].modules.n == 1);
	CHECK(node(&w, "a") != NULL);
	CHECK(!plan_has_failure(&w.plan)); /* missing alone is not a failure */
	world_free(&w);
}

static void hard_cycle_fails_its_modules(void)
{
	struct world w;
	world_build(&w, "top c", NULL);
	CHECK(node(&w, "cyc1") && node(&w, "cyc1")->state == ST_CYCLE);
	CHECK(node(&w, "cyc2") && node(&w, "cyc2")->state == ST_CYCLE);
	CHECK(node(&w, "top") && node(&w, "top")->state == ST_WAITING);
	CHECK(plan_has_failure(&w.plan));
	world_free(&w);
}

static void soft_cycle_is_broken(void)
{
	struct world w;
	world_build(&w, "s1", NULL);
	CHECK(w.plan.n == 2);
	CHECK(node(&w, "s1")->state == ST_WAITING && node(&w, "s2")->state == ST_WAITING);
	CHECK(w.plan.nwaves == 2);
	world_free(&w);
}

static void live_modules_are_not_expanded(void)
{
	struct world w;
	world_build(&w, "b", "c");
	CHECK(node(&w, "c") && node(&w, "c")->state == ST_LIVE);
	CHECK(node(&w, "b") && node(&w, "b")->wave == 1); /* c needs no wave */
	CHECK(w.plan.nwaves == 1);
	world_free(&w);
}

static void dependency_without_own_line(void)
{
	struct world w;
	world_build(&w, "lost", NULL);
	CHECK(node(&w, "gone") && node(&w, "gone")->path && node(&w, "gone")->state == ST_WAITING);
	CHECK(node(&w, "packed") == NULL);
	world_free(&w);
}

/* ---- the scheduler, with a fake kernel -------------------------------------------- */

struct fake {
	pthread_mutex_t lock;
	pthread_cond_t overlap; /* signalled when a second insert is running */
	bool want_overlap;
	struct plan *plan;
	int inserted[64];
	size_t sequence[64], nseq;
	int violations, running, max_running;
};

static int fake_insert(const struct mod_node *n, void *ctx)
{
	struct fake *f = ctx;
	size_t idx = (size_t)(n - f->plan->nodes);
	struct timespec pause = { 0, 200000 + (long)(idx % 3) * 300000 };

	/* Every hard dependency must be live before a module starts. */
	for (size_t i = 0; i < n->ndeps; i++) {
		const struct mod_node *dep = &f->plan->nodes[n->deps[i].to];
		if (!n->deps[i].soft && dep->state != ST_LOADED && dep->state != ST_LIVE)
			__atomic_add_fetch(&f->violations, 1, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_lock(&f->lock);
	f->inserted[idx]++;
	f->sequence[f->nseq++] = idx;
	if (++f->running > f->max_running)
		f->max_running = f->running;
	pthread_cond_broadcast(&f->overlap);
	if (f->want_overlap) {
		/* Wait (bounded) for a second insert: with several jobs it must come. */
		struct timespec limit;
		clock_gettime(CLOCK_REALTIME, &limit);
		limit.tv_sec += 10;
		while (f->max_running < 2 && pthread_cond_timedwait(&f->overlap, &f->lock, &limit) == 0)
			;
	}
	pthread_mutex_unlock(&f->lock);
	nanosleep(&pause, NULL);
	pthread_mutex_lock(&f->lock);
	f->running--;
	pthread_mutex_unlock(&f->lock);
	if (strcmp(n->name, "fail") == 0)
		return ENOEXEC;
	if (strcmp(n->name, "exists") == 0)
		return EEXIST;
	return 0;
}

static void run_fake(struct world *w, struct fake *f, unsigned jobs, bool want_overlap)
{
	memset(f, 0, sizeof *f);
	f->want_overlap = want_overlap;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->overlap, NULL);
	f->plan = &w->plan;
	loader_run(&w->plan, &(struct loader_opts){ .jobs = jobs, .insert = fake_insert, .ctx = f });
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->overlap);
}

static void pool_loads_each_module_once_after_its_deps(void)
{
	for (unsigned jobs = 1; jobs <= 8; jobs *= 2) {
		struct world w;
		struct fake f;
		world_build(&w, "a b s2 exists fs-foo", NULL);
		run_fake(&w, &f, jobs, false);
		CHECK(f.violations == 0);
		for (size_t i = 0; i < w.plan.n; i++)
			CHECK(f.inserted[i] == 1);
		CHECK(node(&w, "exists")->state == ST_LIVE);
		CHECK(node(&w, "a")->state == ST_LOADED);
		CHECK(!plan_has_failure(&w.plan));
		CHECK(f.max_running <= (int)jobs);
		world_free(&w);
	}
}

static void one_job_keeps_plan_order(void)
{
	struct world w;
	struct fake f;
	world_build(&w, "b a s1", NULL);
	run_fake(&w, &f, 1, false);
	CHECK(f.nseq == w.plan.norder);
	for (size_t k = 0; k < f.nseq && k < w.plan.norder; k++)
		CHECK(f.sequence[k] == w.plan.order[k]);
	CHECK(f.max_running == 1);
	world_free(&w);
}

static void several_jobs_run_at_once(void)
{
	struct world w;
	struct fake f;
	world_build(&w, "c s1 s2 bl exists fail", NULL);
	/* s1/s2 wait on each other softly; the rest are independent. */
	run_fake(&w, &f, 4, true);
	CHECK(f.max_running >= 2);
	world_free(&w);
}

static void failure_stops_dependents_not_others(void)
{
	struct world w;
	struct fake f;
	world_build(&w, "abovefail soft-on-fail c top", NULL);
	run_fake(&w, &f, 3, false);
	CHECK(node(&w, "fail")->state == ST_FAILED && node(&w, "fail")->err == ENOEXEC);
	CHECK(node(&w, "abovefail")->state == ST_DEP_FAILED);
	CHECK(strcmp(node(&w, "abovefail")->failed_dep, "fail") == 0);
	CHECK(f.inserted[node(&w, "abovefail") - w.plan.nodes] == 0);
	/* A failed softdep does not block. */
	CHECK(node(&w, "soft_on_fail") && node(&w, "soft_on_fail")->state == ST_LOADED);
	CHECK(node(&w, "c")->state == ST_LOADED);
	CHECK(node(&w, "top")->state == ST_DEP_FAILED);
	CHECK(f.inserted[node(&w, "cyc1") - w.plan.nodes] == 0);
	CHECK(plan_has_failure(&w.plan));
	world_free(&w);
}

static void benign_errors_do_not_fail(void)
{
	struct world w;
	struct fake f;
	world_build(&w, "lost", NULL);
	/* gone.ko exists only as a path: remove the file, the real insert says ENOENT. */
	{
		char path[256];
		snprintf(path, sizeof path, "%s/kernel/gone.ko", fixture_root);
		unlink(path);
	}
	memset(&f, 0, sizeof f);
	struct kernel_support k = { "" };
	loader_run(&w.plan, &(struct loader_opts){ .jobs = 2, .insert = insert_module_file, .ctx = &k });
	CHECK(node(&w, "gone")->state == ST_FAILED && node(&w, "gone")->err == ENOENT);
	CHECK(node(&w, "lost")->state == ST_DEP_FAILED);
	CHECK(!plan_has_failure(&w.plan));
	world_free(&w);
}

static void compressed_needs_kernel_support(void)
{
	struct world w;
	struct kernel_support none = { "" };
	world_build(&w, "packed", NULL);
	CHECK(node(&w, "packed") && node(&w, "packed")->comp == COMP_ZSTD);
	/* Refused before any system call when the kernel cannot decompress zstd. */
	CHECK(insert_module_file(node(&w, "packed"), &none) == ERR_NO_DECOMPRESS);
	CHECK(strstr(load_error_string(ERR_NO_DECOMPRESS), "decompress") != NULL);
	world_free(&w);
}

int main(void)
{
	log_open("test-modload-plan");
	log_set_level(LOG_LEVEL_ERROR - 1);
	RUN(dependencies_come_first_in_waves);
	RUN(shared_dependency_is_one_node);
	RUN(install_command_means_not_loaded);
	RUN(blacklist_refuses_request_not_dependency);
	RUN(builtin_missing_and_alias);
	RUN(hard_cycle_fails_its_modules);
	RUN(soft_cycle_is_broken);
	RUN(live_modules_are_not_expanded);
	RUN(dependency_without_own_line);
	RUN(pool_loads_each_module_once_after_its_deps);
	RUN(one_job_keeps_plan_order);
	RUN(several_jobs_run_at_once);
	RUN(failure_stops_dependents_not_others);
	RUN(benign_errors_do_not_fail);
	RUN(compressed_needs_kernel_support);
	return harness_done();
}
