#ifndef EMBER_MODLOAD_PLAN_H
#define EMBER_MODLOAD_PLAN_H
/* The plan: requested names resolved to module files, closed over modules.dep and
 * softdeps, as a dependency graph with a load order and waves. Building it reads
 * the index and configuration only; loading is loader.c's job. */
#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"
#include "depindex.h"
#include "loadconf.h"
#include "modprobe.h"
#include "names.h"
#include "util.h"

enum mod_state {
	ST_WAITING,    /* dependencies not live yet */
	ST_READY,      /* may start */
	ST_RUNNING,
	ST_LOADED,     /* inserted by us */
	ST_LIVE,       /* already loaded (found live, or EEXIST) */
	ST_FAILED,     /* err says why */
	ST_DEP_FAILED, /* a hard dependency failed; err is its error */
	ST_CYCLE,      /* part of a modules.dep cycle */
};

struct dep_edge {
	size_t to;
	bool soft;    /* softdep: ordering only, its failure does not block */
	bool removed; /* a soft edge dropped to break a cycle */
};

struct mod_node {
	char *name;
	char *path;    /* full path of the module file */
	char *options; /* NULL: none */
	enum compression comp;
	bool requested;
	struct dep_edge *deps;
	size_t ndeps, depcap;
	size_t *users; /* nodes that have this one as a dependency */
	size_t nusers, usercap;
	unsigned wave; /* 1 + the highest wave among its dependencies; 1 for leaves */
	/* File size: the kernel's work (copy, signature, relocation) grows with it. */
	unsigned long long size;
	/* size plus the largest critical path among the modules waiting on this one:
	 * with several jobs, the longest chain starts first. */
	unsigned long long critical;
	/* Run time, owned by the loader. */
	enum mod_state state;
	int err;
	size_t waiting;
	const char *failed_dep;
	long long time_us;
};

enum req_kind { REQ_MODULES, REQ_BUILTIN, REQ_BLACKLISTED, REQ_MISSING };

struct req_result {
	char *name;
	char *source;
	enum req_kind kind;
	struct strvec modules; /* REQ_MODULES: node names it resolved to */
};

struct plan {
	struct mod_node *nodes;
	size_t n, cap;
	struct strmap index; /* name -> node number + 1 */
	struct req_result *reqs;
	size_t nreqs;
	size_t *order; /* every node, dependencies first: the -j1 order */
	size_t norder;
	unsigned nwaves;
};

struct plan_input {
	const struct request_list *requests;
	struct modindex *index;
	const struct modprobe_conf *conf;
	const struct cmdline *cmdline;
	const struct strmap *live; /* names of modules already loaded */
	const char *root;          /* prefix for absolute paths in modules.dep */
};

/* errno-like code: modprobe.d has an "install" command for the module. ember-modload
 * runs no commands, and "install X /bin/false" is how administrators disable a
 * module, so such a module is not loaded. */
#define ERR_INSTALL_CMD 4097

void plan_build(struct plan *p, const struct plan_input *in);
/* An error (errno) that does not make ember-modload fail: the module or its device is
 * absent. */
bool err_is_benign(int err);
const char *state_name(enum mod_state st);
void plan_free(struct plan *p);
#endif
