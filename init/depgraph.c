/* After/Before/Requires -> what starts, in which waves. See depgraph.h. With at most
 * DEPGRAPH_MAX nodes, plain bit matrices and O(n^2) passes are small and obviously
 * bounded, which matters more in PID 1 than asymptotics. */
#include "depgraph.h"

#include <stdio.h>
#include <string.h>

void depgraph_init(struct depgraph *g)
{
	memset(g, 0, sizeof *g);
}

int depgraph_add(struct depgraph *g, const char *name)
{
	if (g->count >= DEPGRAPH_MAX)
		return -1;
	g->name[g->count] = name;
	g->cause[g->count] = DEPGRAPH_STARTS;
	return (int)g->count++;
}

int depgraph_find(const struct depgraph *g, const char *name)
{
	for (size_t i = 0; i < g->count; i++)
		if (strcmp(g->name[i], name) == 0)
			return (int)i;
	return -1;
}

void depgraph_order(struct depgraph *g, size_t first, size_t then)
{
	depgraph_set_add(&g->before[first], then);
}

void depgraph_require(struct depgraph *g, size_t node, size_t required)
{
	depgraph_set_add(&g->requires[node], required);
}

void depgraph_drop(struct depgraph *g, size_t node, enum depgraph_cause cause)
{
	g->cause[node] = cause;
}

static bool starts(const struct depgraph *g, size_t node)
{
	return g->cause[node] == DEPGRAPH_STARTS;
}

static void dropped(struct depgraph *g, size_t node, enum depgraph_cause cause,
		    const char *why, const struct depgraph_report *report)
{
	g->cause[node] = cause;
	if (report && report->dropped)
		report->dropped(report->ctx, node, why);
}

/* ---- Requires= -------------------------------------------------------------------------- */

static const char *cause_text(enum depgraph_cause cause)
{
	switch (cause) {
	case DEPGRAPH_FAILED: return "it failed";
	case DEPGRAPH_MASKED: return "it is masked";
	case DEPGRAPH_CYCLE: return "it is in an ordering cycle";
	case DEPGRAPH_REQUIREMENT: return "a service it requires will not start";
	case DEPGRAPH_STARTS: break;
	}
	return "it will not start";
}

/* Drop every service that requires a dropped one, until nothing changes. */
static void propagate_requirements(struct depgraph *g, const struct depgraph_report *report)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (size_t a = 0; a < g->count; a++) {
			for (size_t b = 0; b < g->count && starts(g, a); b++) {
				char why[DEPGRAPH_REASON_MAX];
				if (!depgraph_set_has(&g->requires[a], b) || starts(g, b))
					continue;
				snprintf(why, sizeof why, "requires %s, which will not start: %s",
					 g->name[b], cause_text(g->cause[b]));
				dropped(g, a, DEPGRAPH_REQUIREMENT, why, report);
				changed = true;
			}
		}
	}
}

/* ---- ordering cycles -------------------------------------------------------------------- */

/* reach[a] holds b when a starts before b through a chain of starting nodes. */
static void closure(const struct depgraph *g, struct depgraph_set *reach)
{
	for (size_t a = 0; a < g->count; a++) {
		memset(&reach[a], 0, sizeof reach[a]);
		if (!starts(g, a))
			continue;
		for (size_t b = 0; b < g->count; b++)
			if (starts(g, b) && depgraph_set_has(&g->before[a], b))
				depgraph_set_add(&reach[a], b);
	}
	for (size_t k = 0; k < g->count; k++)
		for (size_t i = 0; i < g->count; i++)
			if (depgraph_set_has(&reach[i], k))
				for (size_t w = 0; w < DEPGRAPH_WORDS; w++)
					reach[i].bits[w] |= reach[k].bits[w];
}

static bool same_cycle(const struct depgraph_set *reach, size_t a, size_t b)
{
	return depgraph_set_has(&reach[a], b) && depgraph_set_has(&reach[b], a);
}

static void append(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	if (len + strlen(s) + 4 >= size) {
		if (len + 4 < size)
			strcpy(buf + len, "...");
		return;
	}
	strcpy(buf + len, s);
}

/* The shortest cycle through start, inside its cycle component, as "a -> b -> a".
 * Returns how many services it shows. */
static size_t describe_cycle(const struct depgraph *g, const struct depgraph_set *reach,
			   size_t start, char *buf, size_t size, uint16_t *path)
{
	uint16_t parent[DEPGRAPH_MAX], queue[DEPGRAPH_MAX];
	bool seen[DEPGRAPH_MAX] = { false };
	size_t head = 0, tail = 0, last = start, n = 0;

	queue[tail++] = (uint16_t)start;
	while (head < tail) {
		size_t a = queue[head++];
		if (depgraph_set_has(&g->before[a], start)) {
			last = a;
			break;
		}
		for (size_t b = 0; b < g->count; b++) {
			if (seen[b] || b == start || !depgraph_set_has(&g->before[a], b) ||
			    !same_cycle(reach, start, b))
				continue;
			seen[b] = true;
			parent[b] = (uint16_t)a;
			queue[tail++] = (uint16_t)b;
		}
	}
	for (size_t a = last; a != start; a = parent[a])
		path[n++] = (uint16_t)a;
	path[n++] = (uint16_t)start;
	buf[0] = '\0';
	for (size_t i = n; i-- > 0;) {
		append(buf, size, g->name[path[i]]);
		append(buf, size, " -> ");
	}
	append(buf, size, g->name[start]);
	return n;
}

static bool required_in_cycle(const struct depgraph *g, const struct depgraph_set *reach,
			      size_t node)
{
	for (size_t a = 0; a < g->count; a++)
		if (a != node && starts(g, a) && depgraph_set_has(&g->requires[a], node) &&
		    same_cycle(reach, a, node))
			return true;
	return false;
}

/* Break one ordering cycle at a member that no other member requires (only wanted), as
 * systemd chooses one; but where systemd deletes that member's start job, only its
 * ordering after its predecessor on the cycle is dropped: everything still starts.
 * Returns false when there is no cycle or every member is required. */
static bool break_one_cycle(struct depgraph *g, const struct depgraph_report *report)
{
	static struct depgraph_set reach[DEPGRAPH_MAX];
	uint16_t path[DEPGRAPH_MAX + 1];
	char text[DEPGRAPH_REASON_MAX / 2], why[DEPGRAPH_REASON_MAX];

	closure(g, reach);
	for (size_t a = 0; a < g->count; a++) {
		size_t n;
		if (!starts(g, a) || !depgraph_set_has(&reach[a], a))
			continue;
		n = describe_cycle(g, reach, a, text, sizeof text, path);
		/* path[n-1] is a, path[i] follows path[i+1]; path[0] precedes a. */
		for (size_t i = 0; i < n; i++) {
			size_t m = path[i], pred = path[(i + 1) % n];
			if (required_in_cycle(g, reach, m) || !depgraph_set_has(&g->before[pred], m))
				continue;
			g->before[pred].bits[m / 64] &= ~((uint64_t)1 << (m % 64));
			snprintf(why, sizeof why, "ordering cycle %s: broken by dropping the "
				 "ordering of %s after %s (%s is only wanted)", text, g->name[m],
				 g->name[pred], g->name[m]);
			if (report && report->note)
				report->note(report->ctx, m, why);
			return true;
		}
		return false;
	}
	return false;
}

/* Drop every member of an ordering cycle; each report names the cycle's members. */
static void drop_cycles(struct depgraph *g, const struct depgraph_report *report)
{
	struct depgraph_set reach[DEPGRAPH_MAX];
	bool in_cycle[DEPGRAPH_MAX] = { false };

	closure(g, reach);
	for (size_t a = 0; a < g->count; a++)
		in_cycle[a] = starts(g, a) && depgraph_set_has(&reach[a], a);
	for (size_t a = 0; a < g->count; a++) {
		char path[DEPGRAPH_REASON_MAX / 2], why[DEPGRAPH_REASON_MAX];
		size_t shown, members = 0;
		if (!in_cycle[a])
			continue;
		uint16_t nodes[DEPGRAPH_MAX + 1];
		shown = describe_cycle(g, reach, a, path, sizeof path, nodes);
		snprintf(why, sizeof why, "ordering cycle %s", path);
		for (size_t b = 0; b < g->count; b++)
			members += in_cycle[b] && same_cycle(reach, a, b);
		if (members > shown) {
			/* The path above does not show every member: name them all. */
			append(why, sizeof why, " (members:");
			for (size_t b = 0; b < g->count; b++) {
				if (!in_cycle[b] || !same_cycle(reach, a, b))
					continue;
				append(why, sizeof why, " ");
				append(why, sizeof why, g->name[b]);
			}
			append(why, sizeof why, ")");
		}
		append(why, sizeof why, "; not started");
		dropped(g, a, DEPGRAPH_CYCLE, why, report);
	}
}

/* ---- waves ------------------------------------------------------------------------------ */

static void compute_waves(struct depgraph *g)
{
	bool placed[DEPGRAPH_MAX] = { false };
	size_t left = 0;

	for (size_t a = 0; a < g->count; a++)
		left += starts(g, a);
	g->wave_count = 0;
	while (left > 0) {
		bool ready[DEPGRAPH_MAX] = { false };
		for (size_t b = 0; b < g->count; b++) {
			ready[b] = starts(g, b) && !placed[b];
			for (size_t a = 0; a < g->count && ready[b]; a++)
				if (starts(g, a) && !placed[a] && depgraph_set_has(&g->before[a], b))
					ready[b] = false;
		}
		size_t placed_now = 0;
		for (size_t b = 0; b < g->count; b++) {
			if (!ready[b])
				continue;
			placed[b] = true;
			g->wave[b] = (uint16_t)g->wave_count;
			placed_now++;
		}
		if (placed_now == 0)
			break; /* only a cycle could cause this, and cycles are gone: never hang */
		left -= placed_now;
		g->wave_count++;
	}
}

static bool order_less(const struct depgraph *g, size_t a, size_t b)
{
	if (g->wave[a] != g->wave[b])
		return g->wave[a] < g->wave[b];
	return strcmp(g->name[a], g->name[b]) < 0;
}

static void compute_order(struct depgraph *g)
{
	g->order_count = 0;
	for (size_t a = 0; a < g->count; a++) {
		size_t i;
		if (!starts(g, a))
			continue;
		for (i = g->order_count; i > 0 && order_less(g, a, g->order[i - 1]); i--)
			g->order[i] = g->order[i - 1];
		g->order[i] = (uint16_t)a;
		g->order_count++;
	}
}

void depgraph_solve(struct depgraph *g, const struct depgraph_report *report)
{
	propagate_requirements(g, report);
	for (size_t i = 0; i < (size_t)DEPGRAPH_MAX * 4 && break_one_cycle(g, report); i++)
		;
	drop_cycles(g, report);
	propagate_requirements(g, report);
	compute_waves(g);
	compute_order(g);
}

/* ---- runtime questions ------------------------------------------------------------------ */

bool depgraph_startable(const struct depgraph *g, size_t node, const struct depgraph_set *done)
{
	if (!starts(g, node))
		return false;
	for (size_t a = 0; a < g->count; a++)
		if (starts(g, a) && depgraph_set_has(&g->before[a], node) &&
		    !depgraph_set_has(done, a))
			return false;
	return true;
}

bool depgraph_stoppable(const struct depgraph *g, size_t node,
			const struct depgraph_set *running)
{
	for (size_t b = 0; b < g->count; b++)
		if (b != node && depgraph_set_has(&g->before[node], b) &&
		    depgraph_set_has(running, b))
			return false;
	return true;
}

void depgraph_requirers(const struct depgraph *g, size_t node, struct depgraph_set *out)
{
	bool changed = true;
	struct depgraph_set hit;

	memset(out, 0, sizeof *out);
	hit = *out;
	depgraph_set_add(&hit, node);
	while (changed) {
		changed = false;
		for (size_t a = 0; a < g->count; a++) {
			if (a == node || depgraph_set_has(out, a))
				continue;
			for (size_t w = 0; w < DEPGRAPH_WORDS; w++) {
				if (!(g->requires[a].bits[w] & hit.bits[w]))
					continue;
				depgraph_set_add(out, a);
				depgraph_set_add(&hit, a);
				changed = true;
				break;
			}
		}
	}
}

/* ---- from loaded services --------------------------------------------------------------- */

struct service_report {
	struct service *const *svcs;
	const struct service_diag *diag;
};

static void fail_service(void *ctx, size_t node, const char *why)
{
	struct service_report *r = ctx;

	service_fail(r->svcs[node], r->diag, 0, "%s", why);
}

static void note_service(void *ctx, size_t node, const char *why)
{
	struct service_report *r = ctx;

	if (r->diag && r->diag->report)
		r->diag->report(r->diag->ctx, SERVICE_WARNING, r->svcs[node]->path, 0, why);
}

/* Requires= BindsTo= Requisite=: a missing unit fails the one that names it. */
static void add_requirements(struct depgraph *g, struct service *const *svcs, size_t a,
			     const struct service_name_list *list, const char *verb,
			     const struct service_diag *diag)
{
	const struct service *s = svcs[a];
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < service_list_count(list) && starts(g, a); i++) {
		const char *name = service_list_name(s, list, i, buf);
		int b = depgraph_find(g, name);
		if (b >= 0) {
			depgraph_require(g, a, (size_t)b);
			continue;
		}
		service_fail(svcs[a], diag, 0, "%s %s, which does not exist", verb, name);
		depgraph_drop(g, a, DEPGRAPH_REQUIREMENT);
	}
}

static int find_loaded(const struct depgraph *g, const char *name)
{
	return depgraph_find(g, name);
}

/* DefaultDependencies=yes, as systemd adds them, towards the targets that are loaded:
 * a service Requires= and is After= sysinit.target, After= basic.target, Before=
 * shutdown.target; a timer the same but Before= timers.target instead of After= basic
 * (a path unit: Before= paths.target); a target is Before= shutdown.target (and After=
 * what it pulls in: order_target()). */
static void add_default_dependencies(struct depgraph *g, struct service *const *svcs,
				     size_t a)
{
	const struct service *s = svcs[a];
	int sysinit = find_loaded(g, "sysinit.target"), basic = find_loaded(g, "basic.target");
	int shutdown = find_loaded(g, "shutdown.target");

	if (!s->default_dependencies)
		return;
	if (shutdown >= 0 && (size_t)shutdown != a)
		depgraph_order(g, a, (size_t)shutdown);
	if (s->kind == UNIT_SERVICE || s->kind == UNIT_TIMER || s->kind == UNIT_PATH) {
		int timers = find_loaded(g, "timers.target"), paths = find_loaded(g, "paths.target");
		if (sysinit >= 0) {
			depgraph_order(g, (size_t)sysinit, a);
			depgraph_require(g, a, (size_t)sysinit);
		}
		/* timer and path units: Before=timers.target (paths.target), not
		 * After=basic.target (systemd's) */
		if (s->kind == UNIT_TIMER && timers >= 0)
			depgraph_order(g, a, (size_t)timers);
		else if (s->kind == UNIT_PATH && paths >= 0)
			depgraph_order(g, a, (size_t)paths);
		else if (s->kind == UNIT_SERVICE && basic >= 0)
			depgraph_order(g, (size_t)basic, a);
	}
}

/* A target with DefaultDependencies=yes is After= the units it wants or requires, unless
 * they opt out or are ordered after it (systemd: no loop). Run once every other edge is
 * in, so whether a unit is ordered after the target does not depend on which name sorts
 * first (systemd-pcrphase.service in sysinit.target.wants/, syncthing-resume.service). */
static void order_target(struct depgraph *g, struct service *const *svcs, size_t a)
{
	const struct service *s = svcs[a];

	if (!s->default_dependencies || s->kind != UNIT_TARGET)
		return;
	for (size_t k = 0; k < 4; k++) {
		const struct service_name_list *list = k == 0 ? &s->wants : k == 1 ? &s->requires :
						       k == 2 ? &s->binds_to : &s->requisite;
		for (size_t i = 0; i < service_list_count(list); i++) {
			char buf[SERVICE_NAME_MAX];
			int b = depgraph_find(g, service_list_name(s, list, i, buf));
			if (b < 0 || !svcs[b]->default_dependencies ||
			    depgraph_set_has(&g->before[a], (size_t)b))
				continue;
			depgraph_order(g, (size_t)b, a);
		}
	}
}

static void add_edges(struct depgraph *g, struct service *const *svcs, size_t a,
		      const struct service_diag *diag)
{
	const struct service *s = svcs[a];
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < service_list_count(&s->after); i++) {
		int b = depgraph_find(g, service_list_name(s, &s->after, i, buf));
		if (b >= 0)
			depgraph_order(g, (size_t)b, a);
	}
	for (size_t i = 0; i < service_list_count(&s->before); i++) {
		int b = depgraph_find(g, service_list_name(s, &s->before, i, buf));
		if (b >= 0)
			depgraph_order(g, a, (size_t)b);
	}
	add_requirements(g, svcs, a, &s->requires, "requires", diag);
	add_requirements(g, svcs, a, &s->binds_to, "is bound to", diag);
	add_requirements(g, svcs, a, &s->requisite, "needs (Requisite=)", diag);
	add_default_dependencies(g, svcs, a);
}

void depgraph_from_list(struct depgraph *g, struct service *const *svcs, size_t n,
			const struct service_diag *diag)
{
	struct service_report r = { .svcs = svcs, .diag = diag };
	struct depgraph_report report = { .dropped = fail_service, .note = note_service,
					  .ctx = &r };

	depgraph_init(g);
	for (size_t a = DEPGRAPH_MAX; a < n; a++)
		service_fail(svcs[a], diag, 0, "more than %d services: not started", DEPGRAPH_MAX);
	for (size_t a = 0; a < n && a < DEPGRAPH_MAX; a++) {
		depgraph_add(g, svcs[a]->name);
		if (svcs[a]->masked)
			depgraph_drop(g, a, DEPGRAPH_MASKED);
		else if (svcs[a]->failed)
			depgraph_drop(g, a, DEPGRAPH_FAILED);
	}
	for (size_t a = 0; a < g->count; a++)
		if (starts(g, a))
			add_edges(g, svcs, a, diag);
	for (size_t a = 0; a < g->count; a++)
		if (starts(g, a))
			order_target(g, svcs, a);
	depgraph_solve(g, &report);
}

void depgraph_from_services(struct depgraph *g, struct service *svcs, size_t n,
			    const struct service_diag *diag)
{
	struct service *ptr[DEPGRAPH_MAX];

	for (size_t a = DEPGRAPH_MAX; a < n; a++)
		service_fail(&svcs[a], diag, 0, "more than %d services: not started", DEPGRAPH_MAX);
	if (n > DEPGRAPH_MAX)
		n = DEPGRAPH_MAX;
	for (size_t a = 0; a < n; a++)
		ptr[a] = &svcs[a];
	depgraph_from_list(g, ptr, n, diag);
}
