#include "output.h"

#include "json.h"
#include "loader.h"

#include <string.h>

static const char *req_kind_name(enum req_kind k)
{
	switch (k) {
	case REQ_BUILTIN: return "builtin";
	case REQ_BLACKLISTED: return "blacklisted";
	case REQ_MISSING: return "missing";
	default: return "modules";
	}
}

static bool runnable(const struct mod_node *n)
{
	return n->state != ST_LIVE && n->state != ST_FAILED && n->state != ST_CYCLE &&
	       n->state != ST_DEP_FAILED;
}

static void print_wave(FILE *f, const struct plan *p, unsigned wave)
{
	fprintf(f, "wave %u:", wave);
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (runnable(n) && n->wave == wave)
			fprintf(f, " %s", n->name);
	}
	fputc('\n', f);
}

/* "missing: a b" for the requests of one kind; nothing when there are none. */
static void print_request_line(FILE *f, const struct plan *p, enum req_kind kind)
{
	bool any = false;
	for (size_t i = 0; i < p->nreqs; i++) {
		if (p->reqs[i].kind != kind)
			continue;
		if (!any)
			fprintf(f, "%s:", req_kind_name(kind));
		fprintf(f, " %s", p->reqs[i].name);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

void print_plan_text(FILE *f, const struct plan *p, bool verbose)
{
	bool any_live = false;

	for (unsigned w = 1; w <= p->nwaves; w++)
		print_wave(f, p, w);
	fputs("order:", f);
	for (size_t k = 0; k < p->norder; k++)
		if (runnable(&p->nodes[p->order[k]]))
			fprintf(f, " %s", p->nodes[p->order[k]].name);
	fputc('\n', f);
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (n->state != ST_LIVE)
			continue;
		if (!any_live)
			fputs("already-loaded:", f);
		fprintf(f, " %s", n->name);
		any_live = true;
	}
	if (any_live)
		fputc('\n', f);
	print_request_line(f, p, REQ_BUILTIN);
	print_request_line(f, p, REQ_BLACKLISTED);
	print_request_line(f, p, REQ_MISSING);
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (n->state != ST_FAILED && n->state != ST_CYCLE)
			continue;
		/* Absent or deliberately skipped modules are not errors. */
		fprintf(f, "%s: %s: %s\n", n->path && !err_is_benign(n->err) ? "error" : "not-loaded", n->name,
			n->path ? load_error_string(n->err) : "not in modules.dep");
	}
	if (!verbose)
		return;
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (!runnable(n))
			continue;
		fprintf(f, "  %u %s %s", n->wave, n->name, n->path);
		if (n->options)
			fprintf(f, " options: %s", n->options);
		fputc('\n', f);
	}
}

static void json_node(FILE *f, const struct mod_node *n, bool dry_run)
{
	fputc('{', f);
	json_kv_string(f, "name", n->name);
	fputc(',', f);
	json_kv_string(f, "path", n->path ? n->path : "");
	fputc(',', f);
	json_kv_int(f, "wave", n->wave);
	fprintf(f, ",\"requested\":%s,", n->requested ? "true" : "false");
	json_kv_string(f, "result", dry_run && runnable(n) ? "planned" : state_name(n->state));
	if (n->options) {
		fputc(',', f);
		json_kv_string(f, "options", n->options);
	}
	if (!dry_run && (n->state == ST_LOADED || n->state == ST_LIVE || n->state == ST_FAILED)) {
		fputc(',', f);
		json_kv_int(f, "time_us", n->time_us);
	}
	if (n->state == ST_FAILED || n->state == ST_DEP_FAILED || n->state == ST_CYCLE) {
		fputc(',', f);
		json_kv_string(f, "error", n->path ? load_error_string(n->err) : "not in modules.dep");
		if (n->failed_dep) {
			fputc(',', f);
			json_kv_string(f, "failed_dependency", n->failed_dep);
		}
	}
	fputc('}', f);
}

static void json_request(FILE *f, const struct req_result *r)
{
	fputc('{', f);
	json_kv_string(f, "name", r->name);
	fputc(',', f);
	json_kv_string(f, "source", r->source);
	fputc(',', f);
	json_kv_string(f, "result", req_kind_name(r->kind));
	fputs(",\"modules\":[", f);
	for (size_t i = 0; i < r->modules.n; i++) {
		if (i)
			fputc(',', f);
		json_string(f, r->modules.v[i]);
	}
	fputs("]}", f);
}

void print_json(FILE *f, const struct plan *p, bool dry_run, unsigned jobs, long long wall_us)
{
	size_t counts[ST_CYCLE + 1] = { 0 };

	fprintf(f, "{\"dry_run\":%s,", dry_run ? "true" : "false");
	json_kv_int(f, "jobs", jobs);
	fputc(',', f);
	json_kv_int(f, "waves", p->nwaves);
	fputc(',', f);
	json_kv_int(f, "wall_us", wall_us);
	fputs(",\"modules\":[", f);
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (k)
			fputc(',', f);
		json_node(f, n, dry_run);
		counts[n->state]++;
	}
	fputs("],\"requests\":[", f);
	for (size_t i = 0; i < p->nreqs; i++) {
		if (i)
			fputc(',', f);
		json_request(f, &p->reqs[i]);
	}
	fprintf(f, "],\"summary\":{\"loaded\":%zu,\"already_loaded\":%zu,\"failed\":%zu,\"dependency_failed\":%zu,"
		   "\"cycle\":%zu}}\n",
		counts[ST_LOADED], counts[ST_LIVE], counts[ST_FAILED], counts[ST_DEP_FAILED], counts[ST_CYCLE]);
}

bool plan_has_failure(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct mod_node *n = &p->nodes[i];
		if (n->state == ST_CYCLE)
			return true;
		if ((n->state == ST_FAILED || n->state == ST_DEP_FAILED) && n->path && !err_is_benign(n->err))
			return true;
	}
	return false;
}
