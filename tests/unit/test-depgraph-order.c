// sources: init/depgraph.c init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* The dependency graph: waves, cycles (named; broken at a member only wanted, else only
 * their members dropped), Requires=
 * propagation, and the runtime questions the supervisor asks. */
#include "harness.h"
#include "../../init/depgraph.h"

#include <stdio.h>
#include <string.h>

static struct depgraph g;
static char reports[8][DEPGRAPH_REASON_MAX + 64];
static int report_count;

static void on_drop(void *ctx, size_t node, const char *why)
{
	struct depgraph *graph = ctx;

	if (report_count < 8)
		snprintf(reports[report_count], sizeof reports[0], "%s: %s", graph->name[node], why);
	report_count++;
}

static const struct depgraph_report report = { on_drop, &g, on_drop };

static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g", "h" };

static void graph_of(size_t n)
{
	depgraph_init(&g);
	report_count = 0;
	for (size_t i = 0; i < n; i++)
		depgraph_add(&g, names[i]);
}

static void order(const char *first, const char *then)
{
	depgraph_order(&g, (size_t)depgraph_find(&g, first), (size_t)depgraph_find(&g, then));
}

static void require(const char *who, const char *what)
{
	depgraph_require(&g, (size_t)depgraph_find(&g, who), (size_t)depgraph_find(&g, what));
}

static int wave_of(const char *name)
{
	int i = depgraph_find(&g, name);
	return g.cause[i] == DEPGRAPH_STARTS ? g.wave[i] : -1;
}

/* The start order as "a b | c" (waves separated by |). */
static const char *order_text(void)
{
	static char buf[512];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g.order_count; i++) {
		size_t node = g.order[i];
		if (i > 0)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s",
					      g.wave[node] != g.wave[g.order[i - 1]] ? " | " : " ");
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", g.name[node]);
	}
	return buf;
}

static void independent_services_share_one_wave(void)
{
	graph_of(4);
	depgraph_solve(&g, &report);
	CHECK(g.wave_count == 1 && g.order_count == 4);
	CHECK_STR(order_text(), "a b c d");
	CHECK(report_count == 0);
}

static void chain_makes_one_wave_each(void)
{
	graph_of(3);
	order("c", "b");
	order("b", "a");
	depgraph_solve(&g, &report);
	CHECK(g.wave_count == 3);
	CHECK_STR(order_text(), "c | b | a");
}

static void diamond(void)
{
	graph_of(5);
	order("a", "b");
	order("a", "c");
	order("b", "d");
	order("c", "d");
	depgraph_solve(&g, &report);
	CHECK_STR(order_text(), "a e | b c | d");
	CHECK(wave_of("d") == 2 && wave_of("e") == 0);
}

static void longest_path_decides_the_wave(void)
{
	graph_of(4);
	order("a", "b");
	order("b", "c");
	order("a", "c");
	order("c", "d");
	depgraph_solve(&g, &report);
	CHECK_STR(order_text(), "a | b | c | d");
}

static void two_node_cycle_is_dropped_and_named(void)
{
	graph_of(4);
	order("a", "b");
	order("b", "a");
	require("a", "b");
	require("b", "a"); /* every member required: the cycle cannot be broken */
	order("a", "d"); /* d is after a cycle member, but not in the cycle */
	depgraph_solve(&g, &report);
	CHECK(report_count == 2);
	CHECK_STR(reports[0], "a: ordering cycle a -> b -> a; not started");
	CHECK_STR(reports[1], "b: ordering cycle b -> a -> b; not started");
	CHECK(g.cause[0] == DEPGRAPH_CYCLE && g.cause[1] == DEPGRAPH_CYCLE);
	CHECK_STR(order_text(), "c d");
}

static void three_node_cycle_path(void)
{
	graph_of(5);
	order("a", "b");
	order("b", "c");
	order("c", "a");
	require("a", "b");
	require("b", "c");
	require("c", "a");
	order("d", "a");
	order("c", "e");
	depgraph_solve(&g, &report);
	CHECK(report_count == 3);
	CHECK_STR(reports[0], "a: ordering cycle a -> b -> c -> a; not started");
	CHECK_STR(order_text(), "d e");
}

static void cycle_component_with_more_members_lists_them(void)
{
	graph_of(4);
	order("a", "b");
	order("b", "a");
	order("b", "c");
	order("c", "b");
	require("a", "b");
	require("b", "a");
	require("c", "b");
	depgraph_solve(&g, &report);
	CHECK(report_count == 3);
	CHECK_STR(reports[0], "a: ordering cycle a -> b -> a (members: a b c); not started");
	CHECK_STR(order_text(), "d");
}

static void self_loop_is_broken(void)
{
	graph_of(2);
	order("a", "a");
	depgraph_solve(&g, &report);
	CHECK(report_count == 1);
	CHECK_STR(reports[0], "a: ordering cycle a -> a: broken by dropping the ordering of a "
		  "after a (a is only wanted)");
	CHECK_STR(order_text(), "a b");
}

/* As systemd: a cycle through a member no other member requires loses one ordering
 * edge (reported), and the boot goes on with every unit. */
static void wanted_member_breaks_the_cycle(void)
{
	graph_of(4);
	order("a", "b");
	order("b", "c");
	order("c", "a");
	require("b", "a");
	require("c", "b"); /* a is required by b; b by c; c by no one: c gives way */
	order("c", "d");
	depgraph_solve(&g, &report);
	CHECK(report_count == 1);
	CHECK(strstr(reports[0], "c: ordering cycle") != NULL);
	CHECK(strstr(reports[0], "broken by dropping the ordering of c after b (c is only "
			 "wanted)") != NULL);
	CHECK_STR(order_text(), "c | a d | b");
}

static void two_wanted_cycles_both_broken(void)
{
	graph_of(4);
	order("a", "b");
	order("b", "a");
	order("c", "d");
	order("d", "c");
	depgraph_solve(&g, &report);
	CHECK(report_count == 2);
	CHECK(g.order_count == 4);
}

static void two_separate_cycles(void)
{
	graph_of(5);
	order("a", "b");
	order("b", "a");
	order("c", "d");
	order("d", "c");
	require("a", "b");
	require("b", "a");
	require("c", "d");
	require("d", "c");
	depgraph_solve(&g, &report);
	CHECK(report_count == 4);
	CHECK_STR(reports[2], "c: ordering cycle c -> d -> c; not started");
	CHECK_STR(order_text(), "e");
}

static void requiring_a_cycle_member_drops_the_requirer(void)
{
	graph_of(3);
	order("a", "b");
	order("b", "a");
	require("a", "b");
	require("b", "a");
	require("c", "a");
	depgraph_solve(&g, &report);
	CHECK(report_count == 3);
	CHECK_STR(reports[2], "c: requires a, which will not start: it is in an ordering cycle");
	CHECK(g.order_count == 0);
}

static void requires_propagates_failure_transitively(void)
{
	graph_of(4);
	depgraph_drop(&g, 0, DEPGRAPH_FAILED);
	require("b", "a");
	require("c", "b");
	depgraph_solve(&g, &report);
	CHECK(g.cause[1] == DEPGRAPH_REQUIREMENT && g.cause[2] == DEPGRAPH_REQUIREMENT);
	CHECK(report_count == 2);
	CHECK_STR(reports[0], "b: requires a, which will not start: it failed");
	CHECK_STR(reports[1], "c: requires b, which will not start: a service it requires will "
			      "not start");
	CHECK_STR(order_text(), "d");
}

static void masked_requirement(void)
{
	graph_of(2);
	depgraph_drop(&g, 0, DEPGRAPH_MASKED);
	require("b", "a");
	depgraph_solve(&g, &report);
	CHECK_STR(reports[0], "b: requires a, which will not start: it is masked");
}

static void ordering_against_a_dropped_service_is_void(void)
{
	graph_of(3);
	order("a", "b");
	order("b", "c");
	depgraph_drop(&g, 1, DEPGRAPH_FAILED);
	depgraph_solve(&g, &report);
	CHECK(report_count == 0); /* the caller reported b's own failure */
	CHECK_STR(order_text(), "a c");
}

static void requires_without_order_starts_in_parallel(void)
{
	graph_of(2);
	require("b", "a");
	depgraph_solve(&g, &report);
	CHECK_STR(order_text(), "a b");
}

static void requirers_are_transitive(void)
{
	struct depgraph_set set;

	graph_of(5);
	require("b", "a");
	require("c", "b");
	require("d", "a");
	require("a", "e");
	depgraph_solve(&g, &report);
	depgraph_requirers(&g, 0, &set);
	CHECK(!depgraph_set_has(&set, 0));
	CHECK(depgraph_set_has(&set, 1) && depgraph_set_has(&set, 2) && depgraph_set_has(&set, 3));
	CHECK(!depgraph_set_has(&set, 4));
	depgraph_requirers(&g, 4, &set);
	CHECK(depgraph_set_has(&set, 0) && depgraph_set_has(&set, 2));
	depgraph_requirers(&g, 2, &set);
	for (size_t i = 0; i < 5; i++)
		CHECK(!depgraph_set_has(&set, i));
}

static void requirers_survive_requires_cycles(void)
{
	struct depgraph_set set;

	graph_of(3);
	require("a", "b");
	require("b", "a");
	depgraph_solve(&g, &report);
	CHECK(g.order_count == 3); /* Requires= cycles are not ordering cycles */
	depgraph_requirers(&g, 0, &set);
	CHECK(depgraph_set_has(&set, 1) && !depgraph_set_has(&set, 0) && !depgraph_set_has(&set, 2));
}

static void startable_waits_for_predecessors(void)
{
	struct depgraph_set done = { { 0 } };

	graph_of(4);
	order("a", "c");
	order("b", "c");
	depgraph_drop(&g, 3, DEPGRAPH_FAILED);
	depgraph_solve(&g, &report);
	CHECK(depgraph_startable(&g, 0, &done) && depgraph_startable(&g, 1, &done));
	CHECK(!depgraph_startable(&g, 2, &done));
	depgraph_set_add(&done, 0);
	CHECK(!depgraph_startable(&g, 2, &done));
	depgraph_set_add(&done, 1);
	CHECK(depgraph_startable(&g, 2, &done));
	CHECK(!depgraph_startable(&g, 3, &done)); /* dropped services never start */
}

static void stoppable_in_reverse_order(void)
{
	struct depgraph_set running = { { 0 } };

	graph_of(3);
	order("a", "b");
	order("b", "c");
	depgraph_solve(&g, &report);
	for (size_t i = 0; i < 3; i++)
		depgraph_set_add(&running, i);
	CHECK(depgraph_stoppable(&g, 2, &running));
	CHECK(!depgraph_stoppable(&g, 1, &running));
	CHECK(!depgraph_stoppable(&g, 0, &running));
	running.bits[0] &= ~(1ULL << 2);
	CHECK(depgraph_stoppable(&g, 1, &running));
}

static void full_graph_and_long_chain(void)
{
	static char many[DEPGRAPH_MAX][8];

	depgraph_init(&g);
	report_count = 0;
	for (size_t i = 0; i < DEPGRAPH_MAX; i++) {
		snprintf(many[i], sizeof many[i], "s%03zu", i);
		CHECK(depgraph_add(&g, many[i]) == (int)i);
	}
	CHECK(depgraph_add(&g, "one-too-many") == -1);
	for (size_t i = 0; i + 1 < DEPGRAPH_MAX; i++)
		depgraph_order(&g, i + 1, i);
	depgraph_solve(&g, &report);
	CHECK(g.wave_count == DEPGRAPH_MAX);
	CHECK(g.order[0] == DEPGRAPH_MAX - 1 && g.order[DEPGRAPH_MAX - 1] == 0);
	depgraph_order(&g, 0, DEPGRAPH_MAX - 1); /* close the loop: one cycle of all */
	for (size_t i = 0; i < DEPGRAPH_MAX; i++) /* all required: dropped whole */
		depgraph_require(&g, i, (i + 1) % DEPGRAPH_MAX);
	depgraph_solve(&g, &report);
	CHECK(g.order_count == 0 && report_count == DEPGRAPH_MAX);
	CHECK(strstr(reports[0], "...") != NULL); /* the message is cut, not overrun */
}

/* ---- from parsed services --------------------------------------------------------------- */

static struct service svcs[8];
static int diag_errors;
static char diag_last[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	if (severity == SERVICE_ERROR)
		diag_errors++;
	snprintf(diag_last, sizeof diag_last, "%s: %s", file, message);
}

static const struct service_diag diag = { record, NULL, false };

static void load(size_t i, const char *name, const char *text)
{
	char path[64];

	snprintf(path, sizeof path, "/etc/ember/services/%s.service", name);
	service_init(&svcs[i], name, path);
	service_parse(&svcs[i], text, strlen(text), &diag);
}

static void services_order_by_after_and_before(void)
{
	diag_errors = 0;
	load(0, "early", "[Unit]\nBefore=net\n[Service]\nType=oneshot\nExecStart=/bin/true\n");
	load(1, "net", "[Service]\nExecStart=/sbin/netd\n");
	load(2, "web", "[Unit]\nAfter=net nosuch\nWants=nosuch\n[Service]\nExecStart=/bin/web\n");
	depgraph_from_services(&g, svcs, 3, &diag);
	CHECK(diag_errors == 0);
	CHECK_STR(order_text(), "early | net | web");
}

static void services_missing_requirement_fails(void)
{
	diag_errors = 0;
	load(0, "app", "[Unit]\nRequires=db\n[Service]\nExecStart=/bin/app\n");
	load(1, "other", "[Service]\nExecStart=/bin/other\n");
	depgraph_from_services(&g, svcs, 2, &diag);
	CHECK(svcs[0].failed);
	CHECK_STR(svcs[0].error, "requires db, which does not exist");
	CHECK_STR(diag_last, "/etc/ember/services/app.service: requires db, which does not exist");
	CHECK_STR(order_text(), "other");
}

static void services_failed_parse_propagates(void)
{
	diag_errors = 0;
	load(0, "db", "[Service]\nExecStart=rel/ative\n");
	load(1, "app", "[Unit]\nRequires=db.service\nAfter=db\n[Service]\nExecStart=/bin/app\n");
	service_init(&svcs[2], "masked", "/etc/ember/services/masked.service");
	svcs[2].masked = true; /* as the loader marks it: never parsed */
	load(3, "ui", "[Unit]\nRequires=masked\n[Service]\nExecStart=/bin/ui\n");
	CHECK(svcs[0].failed && diag_errors == 1);
	depgraph_from_services(&g, svcs, 4, &diag);
	CHECK(svcs[1].failed);
	CHECK_STR(svcs[1].error, "requires db, which will not start: it failed");
	CHECK_STR(svcs[3].error, "requires masked, which will not start: it is masked");
	CHECK(g.order_count == 0);
}

static void services_cycle_of_wanted_units_is_broken(void)
{
	diag_errors = 0;
	load(0, "x", "[Unit]\nAfter=y\n[Service]\nExecStart=/bin/x\n");
	load(1, "y", "[Unit]\nAfter=x\n[Service]\nExecStart=/bin/y\n");
	load(2, "z", "[Unit]\nAfter=x\n[Service]\nExecStart=/bin/z\n");
	diag_last[0] = '\0';
	depgraph_from_services(&g, svcs, 3, &diag);
	CHECK(!svcs[0].failed && !svcs[1].failed && !svcs[2].failed);
	CHECK(strstr(diag_last, "ordering cycle x -> y -> x: broken by dropping") != NULL);
	CHECK(g.order_count == 3);
}

static void services_cycle_fails_only_members(void)
{
	diag_errors = 0;
	load(0, "x", "[Unit]\nAfter=y\nRequires=y\n[Service]\nExecStart=/bin/x\n");
	load(1, "y", "[Unit]\nAfter=x\nRequires=x\n[Service]\nExecStart=/bin/y\n");
	load(2, "z", "[Unit]\nAfter=x\n[Service]\nExecStart=/bin/z\n");
	depgraph_from_services(&g, svcs, 3, &diag);
	CHECK(svcs[0].failed && svcs[1].failed && !svcs[2].failed);
	CHECK_STR(svcs[0].error, "ordering cycle x -> y -> x; not started");
	CHECK_STR(order_text(), "z");
}

/* Debian's sysinit.target keeps DefaultDependencies=yes and wants (through its .wants/)
 * services that keep theirs too: the service is After=sysinit.target, so the target's
 * implied After= on what it wants must be left out, whichever unit comes first in the
 * array (systemd adds the targets' implied orderings once every unit is loaded). */
static void target_wanting_a_default_service_makes_no_cycle(void)
{
	for (int first = 0; first < 2; first++) {
		size_t t = (size_t)first, s = (size_t)!first;
		diag_errors = 0;
		diag_last[0] = '\0';
		service_init(&svcs[t], "sysinit.target", "/usr/lib/systemd/system/sysinit.target");
		svcs[t].kind = UNIT_TARGET;
		{
			const char *text = "[Unit]\nWants=pcr\n";
			service_parse(&svcs[t], text, strlen(text), &diag);
		}
		load(s, "pcr", "[Service]\nType=oneshot\nExecStart=/bin/true\n");
		depgraph_from_services(&g, svcs, 2, &diag);
		CHECK(diag_errors == 0);
		CHECK_STR(diag_last, "");
		CHECK_STR(order_text(), "sysinit.target | pcr");
	}
}

int main(void)
{
	RUN(independent_services_share_one_wave);
	RUN(chain_makes_one_wave_each);
	RUN(diamond);
	RUN(longest_path_decides_the_wave);
	RUN(two_node_cycle_is_dropped_and_named);
	RUN(three_node_cycle_path);
	RUN(cycle_component_with_more_members_lists_them);
	RUN(self_loop_is_broken);
	RUN(wanted_member_breaks_the_cycle);
	RUN(two_wanted_cycles_both_broken);
	RUN(two_separate_cycles);
	RUN(requiring_a_cycle_member_drops_the_requirer);
	RUN(requires_propagates_failure_transitively);
	RUN(masked_requirement);
	RUN(ordering_against_a_dropped_service_is_void);
	RUN(requires_without_order_starts_in_parallel);
	RUN(requirers_are_transitive);
	RUN(requirers_survive_requires_cycles);
	RUN(startable_waits_for_predecessors);
	RUN(stoppable_in_reverse_order);
	RUN(full_graph_and_long_chain);
	RUN(services_order_by_after_and_before);
	RUN(services_missing_requirement_fails);
	RUN(services_failed_parse_propagates);
	RUN(services_cycle_fails_only_members);
	RUN(services_cycle_of_wanted_units_is_broken);
	RUN(target_wanting_a_default_service_makes_no_cycle);
	return harness_done();
}
