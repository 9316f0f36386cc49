#include "plan.h"

#include "log.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_NODE ((size_t)-1)

struct builder {
	struct plan *p;
	const struct plan_input *in;
};

bool err_is_benign(int err)
{
	return err == ENOENT || err == ENODEV || err == ERR_INSTALL_CMD;
}

const char *state_name(enum mod_state st)
{
	static const char *const names[] = {
		[ST_WAITING] = "waiting", [ST_READY] = "ready", [ST_RUNNING] = "running",
		[ST_LOADED] = "loaded", [ST_LIVE] = "already-loaded", [ST_FAILED] = "failed",
		[ST_DEP_FAILED] = "dependency-failed", [ST_CYCLE] = "dependency-cycle",
	};
	return names[st];
}

static size_t find_node(const struct plan *p, const char *name)
{
	void *v = strmap_get(&p->index, name);
	return v ? (size_t)(uintptr_t)v - 1 : NO_NODE;
}

static void add_edge(struct plan *p, size_t from, size_t to, bool soft)
{
	struct mod_node *n = &p->nodes[from];

	if (from == to)
		return;
	for (size_t i = 0; i < n->ndeps; i++)
		if (n->deps[i].to == to) {
			n->deps[i].soft &= soft; /* a hard edge wins */
			return;
		}
	if (n->ndeps == n->depcap) {
		n->depcap = n->depcap ? n->depcap * 2 : 4;
		n->deps = xrealloc(n->deps, n->depcap * sizeof *n->deps);
	}
	n->deps[n->ndeps++] = (struct dep_edge){ .to = to, .soft = soft };
}

static char *full_path(const struct builder *b, const char *rel)
{
	if (rel[0] == '/')
		return xconcat(b->in->root, rel, NULL);
	return xconcat(b->in->index->dir, "/", rel, NULL);
}

static char *options_for(const struct builder *b, const char *name)
{
	const char *conf = modprobe_options(b->in->conf, name);
	const char *cmd = strmap_get(&b->in->cmdline->options, name);

	/* The command line comes last: the kernel keeps the last value of a parameter. */
	if (conf && *conf && cmd)
		return xconcat(conf, " ", cmd, NULL);
	if (cmd)
		return xstrdup(cmd);
	return conf && *conf ? xstrdup(conf) : NULL;
}

static size_t new_node(struct plan *p, const char *name)
{
	struct mod_node *n;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->nodes = xrealloc(p->nodes, p->cap * sizeof *p->nodes);
	}
	n = &p->nodes[p->n];
	memset(n, 0, sizeof *n);
	n->name = xstrdup(name);
	strmap_put(&p->index, name, (void *)(uintptr_t)(p->n + 1));
	return p->n++;
}

static size_t add_module(struct builder *b, const char *name, const char *path_hint);

/* What a name stands for, in kmod's order: modprobe.d aliases, a module file of that
 * name, modules.alias, a built-in module, aliases of built-in modules. Returns the
 * kind; REQ_MODULES fills modules with loadable module names. */
static enum req_kind resolve_name(struct builder *b, const char *name, struct strvec *modules)
{
	struct strvec found = { 0 };
	struct modindex *ix = b->in->index;
	enum req_kind kind = REQ_MODULES;

	if (modprobe_alias_match(b->in->conf, name, &found) == 0) {
		struct depinfo info;
		if (modindex_dep(ix, name, &info)) {
			depinfo_free(&info);
			strvec_push(&found, name);
		}
	}
	if (found.n == 0)
		modindex_alias(ix, name, &found);
	if (found.n == 0 && modindex_builtin(ix, name)) {
		strvec_free(&found);
		return REQ_BUILTIN;
	}
	if (found.n == 0)
		modindex_builtin_alias(ix, name, &found);
	for (size_t i = 0; i < found.n; i++)
		if (!modindex_builtin(ix, found.v[i]))
			strvec_add_unique(modules, found.v[i]);
	if (modules->n == 0)
		kind = found.n ? REQ_BUILTIN : REQ_MISSING;
	strvec_free(&found);
	return kind;
}

static void add_softdeps(struct builder *b, size_t node)
{
	char *name = xstrdup(b->p->nodes[node].name);
	const struct softdep_rule *rule = modprobe_softdep(b->in->conf, name);

	if (!rule)
		rule = modindex_softdep(b->in->index, name);
	for (int post = 0; rule && post < 2; post++) {
		const struct strvec *list = post ? &rule->post : &rule->pre;
		for (size_t i = 0; i < list->n; i++) {
			struct strvec mods = { 0 };
			char *soft = xstrdup(list->v[i]);
			modname_normalize(soft);
			if (resolve_name(b, soft, &mods) == REQ_MISSING)
				log_debug("%s: softdep %s not found, ignored", name, soft);
			for (size_t m = 0; m < mods.n; m++) {
				size_t other = add_module(b, mods.v[m], NULL);
				if (post)
					add_edge(b->p, other, node, true);
				else
					add_edge(b->p, node, other, true);
			}
			strvec_free(&mods);
			free(soft);
		}
	}
	free(name);
}

static size_t add_module(struct builder *b, const char *name, const char *path_hint)
{
	struct plan *p = b->p;
	struct depinfo info;
	size_t node = find_node(p, name);

	if (node != NO_NODE)
		return node;
	node = new_node(p, name);
	if (b->in->live && strmap_has(b->in->live, name)) {
		p->nodes[node].state = ST_LIVE;
		return node;
	}
	p->nodes[node].options = options_for(b, name);
	if (!modindex_dep(b->in->index, name, &info)) {
		/* Listed as a dependency but without a line of its own: load it as a leaf. */
		if (path_hint) {
			p->nodes[node].path = full_path(b, path_hint);
			p->nodes[node].comp = module_compression(path_hint);
		} else {
			p->nodes[node].state = ST_FAILED;
			p->nodes[node].err = ENOENT;
		}
		return node;
	}
	p->nodes[node].path = full_path(b, info.path);
	p->nodes[node].comp = module_compression(info.path);
	if (strvec_has(&b->in->conf->install, name)) {
		p->nodes[node].state = ST_FAILED;
		p->nodes[node].err = ERR_INSTALL_CMD;
		depinfo_free(&info);
		return node;
	}
	for (size_t i = 0; i < info.deps.n; i++) {
		size_t dep = add_module(b, info.deps.v[i], info.paths.v[i]);
		add_edge(p, node, dep, false);
	}
	depinfo_free(&info);
	add_softdeps(b, node);
	return node;
}

static bool blacklisted(const struct builder *b, const char *name)
{
	return modprobe_blacklisted(b->in->conf, name) || strvec_has(&b->in->cmdline->blacklist, name);
}

static void resolve_request(struct builder *b, const struct request *rq, struct req_result *r)
{
	struct strvec mods = { 0 };

	r->name = xstrdup(rq->name);
	r->source = xstrdup(rq->source);
	/* A name the administrator blacklisted is refused even when asked for by name. */
	if (blacklisted(b, rq->name)) {
		r->kind = REQ_BLACKLISTED;
		return;
	}
	r->kind = resolve_name(b, rq->name, &mods);
	if (r->kind == REQ_MODULES) {
		for (size_t i = 0; i < mods.n; i++) {
			if (blacklisted(b, mods.v[i]))
				continue;
			size_t node = add_module(b, mods.v[i], NULL);
			b->p->nodes[node].requested = true;
			strvec_push(&r->modules, mods.v[i]);
		}
		if (r->modules.n == 0)
			r->kind = REQ_BLACKLISTED;
	}
	strvec_free(&mods);
}

/* Depth-first over dependencies: post-order gives the sequential load order; a
 * back edge closes a cycle. A soft back edge is dropped; a hard one fails the
 * modules on the cycle. */
struct dfs {
	struct plan *p;
	unsigned char *color; /* 0 new, 1 on stack, 2 done */
	size_t *stack;
	size_t depth;
};

static void mark_cycle(struct dfs *d, size_t from)
{
	for (size_t i = d->depth; i-- > 0;) {
		struct mod_node *n = &d->p->nodes[d->stack[i]];
		n->state = ST_CYCLE;
		n->err = ELOOP;
		if (d->stack[i] == from)
			break;
	}
}

static void visit(struct dfs *d, size_t u)
{
	struct mod_node *n = &d->p->nodes[u];

	d->color[u] = 1;
	d->stack[d->depth++] = u;
	/* modules.dep lists the nearest dependency first: visit from the far end so the
	 * order matches modprobe's. */
	for (size_t i = n->ndeps; i-- > 0;) {
		struct dep_edge *e = &n->deps[i];
		if (d->color[e->to] == 1) {
			if (e->soft)
				e->removed = true;
			else
				mark_cycle(d, e->to);
		} else if (d->color[e->to] == 0) {
			visit(d, e->to);
		}
	}
	d->depth--;
	d->color[u] = 2;
	d->p->order[d->p->norder++] = u;
}

static void order_nodes(struct plan *p)
{
	struct dfs d = { .p = p };

	d.color = xcalloc(p->n, 1);
	d.stack = xcalloc(p->n, sizeof *d.stack);
	p->order = xcalloc(p->n, sizeof *p->order);
	for (size_t u = 0; u < p->n; u++)
		if (!d.color[u])
			visit(&d, u);
	free(d.color);
	free(d.stack);
}

static void link_users_and_waves(struct plan *p)
{
	for (size_t k = 0; k < p->norder; k++) {
		size_t u = p->order[k];
		struct mod_node *n = &p->nodes[u];
		n->wave = 1;
		for (size_t i = 0; i < n->ndeps; i++) {
			struct dep_edge *e = &n->deps[i];
			struct mod_node *dep = &p->nodes[e->to];
			if (e->removed)
				continue;
			if (dep->usercap == dep->nusers) {
				dep->usercap = dep->usercap ? dep->usercap * 2 : 4;
				dep->users = xrealloc(dep->users, dep->usercap * sizeof *dep->users);
			}
			dep->users[dep->nusers++] = u;
			/* Live modules need no wave of their own. */
			if (dep->state != ST_LIVE && dep->wave + 1 > n->wave && dep->state != ST_CYCLE)
				n->wave = dep->wave + 1;
		}
		if (n->state == ST_WAITING && n->wave > p->nwaves)
			p->nwaves = n->wave;
	}
}

static void weigh(struct plan *p)
{
	for (size_t k = p->norder; k-- > 0;) {
		struct mod_node *n = &p->nodes[p->order[k]];
		struct stat st;
		unsigned long long longest = 0;
		if (n->path && n->state == ST_WAITING && stat(n->path, &st) == 0)
			n->size = (unsigned long long)st.st_size;
		for (size_t i = 0; i < n->nusers; i++)
			if (p->nodes[n->users[i]].critical > longest)
				longest = p->nodes[n->users[i]].critical;
		n->critical = n->size + longest;
	}
}

void plan_build(struct plan *p, const struct plan_input *in)
{
	struct builder b = { .p = p, .in = in };

	memset(p, 0, sizeof *p);
	p->reqs = xcalloc(in->requests->n, sizeof *p->reqs);
	for (size_t i = 0; i < in->requests->n; i++)
		resolve_request(&b, &in->requests->v[i], &p->reqs[i]);
	p->nreqs = in->requests->n;
	order_nodes(p);
	link_users_and_waves(p);
	weigh(p);
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->nodes[i].name);
		free(p->nodes[i].path);
		free(p->nodes[i].options);
		free(p->nodes[i].deps);
		free(p->nodes[i].users);
	}
	free(p->nodes);
	strmap_free(&p->index);
	for (size_t i = 0; i < p->nreqs; i++) {
		free(p->reqs[i].name);
		free(p->reqs[i].source);
		strvec_free(&p->reqs[i].modules);
	}
	free(p->reqs);
	free(p->order);
	memset(p, 0, sizeof *p);
}
