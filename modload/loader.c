#include "loader.h"

#include "io.h"
#include "log.h"
#include "parse.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

/* Workers only open a file and make one system call, but logging formats into a
 * 1 KiB buffer: 128 KiB is ample and stated, not left to the libc (musl's default
 * is small, glibc's is 8 MiB of address space per thread). */
#define WORKER_STACK (128u * 1024)

#define NONE ((size_t)-1)

struct pool;

/* Worker 0 is the calling thread. */
struct worker_arg {
	struct pool *pl;
	unsigned id;
};

struct pool {
	struct plan *p;
	const struct loader_opts *o;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t running;
	size_t next_hint; /* no READY node sits before this position of the order */
};

void kernel_support_probe(const char *root, struct kernel_support *k)
{
	char *path = xconcat(root, "/sys/module/compression", NULL);
	char buf[sizeof k->decompress];

	k->decompress[0] = '\0';
	if (io_read_file(path, buf, sizeof buf) > 0)
		str_copy(k->decompress, sizeof k->decompress, strip(buf));
	free(path);
}

int insert_module_file(const struct mod_node *n, void *ctx)
{
	const struct kernel_support *k = ctx;
	int flags = 0, fd, rc, err;

	if (n->comp != COMP_NONE) {
		if (strcmp(k->decompress, compression_name(n->comp)) != 0)
			return ERR_NO_DECOMPRESS;
		flags |= MODULE_INIT_COMPRESSED_FILE;
	}
	fd = open(n->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	rc = (int)syscall(SYS_finit_module, fd, n->options ? n->options : "", flags);
	err = rc < 0 ? errno : 0;
	close(fd);
	if (err == EINVAL && flags)
		return ERR_NO_DECOMPRESS;
	return err;
}

const char *load_error_string(int err)
{
	switch (err) {
	case ERR_NO_DECOMPRESS:
		return "compressed module, but this kernel cannot decompress it (needs Linux 6.4+ "
		       "with CONFIG_MODULE_DECOMPRESS for that format); install it uncompressed";
	case ERR_INSTALL_CMD:
		return "modprobe.d has an install command for it, which ember-modload does not run; not loaded";
	case ELOOP: return "dependency cycle in modules.dep or softdep";
	case ENOENT: return "module file not found";
	case ENODEV: return "no such device";
	case ENOEXEC: return "invalid module format";
	case EKEYREJECTED: return "signature rejected";
	case EPERM: return "operation not permitted (blacklisted by the kernel, or lockdown)";
	default: return strerror(err);
	}
}

/* The READY node with the largest critical path (want_big) or the smallest file. */
static size_t pick_by_size(const struct plan *p, bool want_big)
{
	size_t best = NONE;
	for (size_t k = 0; k < p->norder; k++) {
		const struct mod_node *n = &p->nodes[p->order[k]];
		if (n->state != ST_READY)
			continue;
		if (best == NONE || (want_big ? n->critical > p->nodes[best].critical : n->size < p->nodes[best].size))
			best = p->order[k];
	}
	return best;
}

/* The READY node worker id starts next, or NONE. One job keeps the plan order (what
 * the administrator listed, dependencies first). With several, worker 0 takes the
 * longest remaining chain, so a big module or a long chain never runs alone at the
 * end, and the others drain the small modules. Pairing big with small also matters to
 * the kernel: it takes module_mutex for every symbol a module imports, so two large
 * modules loading together mostly wait for each other. */
static size_t pick_ready(struct pool *pl, unsigned id)
{
	struct plan *p = pl->p;

	if (pl->o->jobs > 1)
		return pick_by_size(p, id == 0);
	for (size_t k = pl->next_hint; k < p->norder; k++) {
		if (p->nodes[p->order[k]].state == ST_READY) {
			pl->next_hint = k;
			return p->order[k];
		}
	}
	pl->next_hint = p->norder;
	return NONE;
}

static void note_ready(struct pool *pl, size_t u)
{
	struct plan *p = pl->p;
	for (size_t k = 0; k < pl->next_hint; k++)
		if (p->order[k] == u) {
			pl->next_hint = k;
			break;
		}
}

static bool is_done(enum mod_state st)
{
	return st == ST_LOADED || st == ST_LIVE || st == ST_FAILED || st == ST_DEP_FAILED || st == ST_CYCLE;
}

static bool is_success(enum mod_state st)
{
	return st == ST_LOADED || st == ST_LIVE;
}

static void finished(struct pool *pl, size_t u);

/* All dependencies of u are done: it may start, or it inherits a hard failure. */
static void settle(struct pool *pl, size_t u)
{
	struct mod_node *n = &pl->p->nodes[u];

	for (size_t i = 0; i < n->ndeps; i++) {
		const struct dep_edge *e = &n->deps[i];
		const struct mod_node *dep = &pl->p->nodes[e->to];
		if (e->removed || e->soft || is_success(dep->state))
			continue;
		n->state = ST_DEP_FAILED;
		n->err = dep->err;
		n->failed_dep = dep->name;
		finished(pl, u);
		return;
	}
	n->state = ST_READY;
	note_ready(pl, u);
}

/* u reached a final state: wake the modules waiting on it. */
static void finished(struct pool *pl, size_t u)
{
	struct mod_node *n = &pl->p->nodes[u];
	for (size_t i = 0; i < n->nusers; i++) {
		struct mod_node *user = &pl->p->nodes[n->users[i]];
		if (user->state == ST_WAITING && --user->waiting == 0)
			settle(pl, n->users[i]);
	}
}

static void init_states(struct pool *pl)
{
	struct plan *p = pl->p;

	for (size_t k = 0; k < p->norder; k++) {
		size_t u = p->order[k];
		struct mod_node *n = &p->nodes[u];
		if (n->state != ST_WAITING)
			continue;
		n->waiting = 0;
		for (size_t i = 0; i < n->ndeps; i++)
			if (!n->deps[i].removed && !is_done(p->nodes[n->deps[i].to].state))
				n->waiting++;
	}
	/* In dependency order, so a failure reaches every module above it. */
	for (size_t k = 0; k < p->norder; k++) {
		size_t u = p->order[k];
		if (p->nodes[u].state == ST_WAITING && p->nodes[u].waiting == 0)
			settle(pl, u);
	}
}

static void report(const struct mod_node *n, bool verbose)
{
	if (n->state == ST_LOADED && verbose)
		log_info("%s: loaded in %lld.%03lld ms%s%s", n->name, n->time_us / 1000, n->time_us % 1000,
			 n->options ? " with " : "", n->options ? n->options : "");
	else if (n->state == ST_LIVE && verbose)
		log_info("%s: already loaded", n->name);
	else if (n->state == ST_FAILED && !n->path)
		log_warn("%s: not in modules.dep", n->name);
	else if (n->state == ST_FAILED && err_is_benign(n->err))
		log_warn("%s: %s: %s", n->name, n->path, load_error_string(n->err));
	else if (n->state == ST_FAILED)
		log_error("%s: %s: %s", n->name, n->path, load_error_string(n->err));
	else if (n->state == ST_CYCLE)
		log_error("%s: not loaded: %s", n->name, load_error_string(n->err));
	else if (n->state == ST_DEP_FAILED && err_is_benign(n->err))
		log_warn("%s: not loaded: dependency %s: %s", n->name, n->failed_dep, load_error_string(n->err));
	else if (n->state == ST_DEP_FAILED)
		log_error("%s: not loaded: dependency %s: %s", n->name, n->failed_dep, load_error_string(n->err));
}

static void run_one(struct pool *pl, size_t u)
{
	struct mod_node *n = &pl->p->nodes[u];
	long long start = now_us();
	int err = pl->o->insert(n, pl->o->ctx);

	pthread_mutex_lock(&pl->lock);
	n->time_us = now_us() - start;
	if (err == 0)
		n->state = ST_LOADED;
	else if (err == EEXIST)
		n->state = ST_LIVE;
	else {
		n->state = ST_FAILED;
		n->err = err;
	}
	pl->running--;
	finished(pl, u);
	pthread_cond_broadcast(&pl->changed);
	pthread_mutex_unlock(&pl->lock);
	report(n, pl->o->verbose);
}

static void *worker(void *arg)
{
	struct pool *pl = ((struct worker_arg *)arg)->pl;
	unsigned id = ((struct worker_arg *)arg)->id;

	pthread_mutex_lock(&pl->lock);
	for (;;) {
		size_t u = pick_ready(pl, id);
		if (u == NONE) {
			if (pl->running == 0)
				break;
			pthread_cond_wait(&pl->changed, &pl->lock);
			continue;
		}
		pl->p->nodes[u].state = ST_RUNNING;
		pl->running++;
		pthread_mutex_unlock(&pl->lock);
		run_one(pl, u);
		pthread_mutex_lock(&pl->lock);
	}
	pthread_cond_broadcast(&pl->changed);
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

static size_t start_threads(struct pool *pl, pthread_t *threads, struct worker_arg *args, size_t want)
{
	pthread_attr_t attr;
	sigset_t all, old;
	size_t started = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WORKER_STACK);
	/* Signals stay with the main thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (; started < want; started++) {
		int rc;
		args[started] = (struct worker_arg){ pl, (unsigned)started + 1 };
		rc = pthread_create(&threads[started], &attr, worker, &args[started]);
		if (rc != 0) {
			log_warn("cannot start worker thread %zu: %s; continuing with %zu", started + 2,
				 strerror(rc), started + 1);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return started;
}

void loader_run(struct plan *p, const struct loader_opts *o)
{
	struct pool pl = { .p = p, .o = o };
	size_t extra = o->jobs > 1 ? o->jobs - 1 : 0, started;
	pthread_t *threads;
	struct worker_arg *args;

	pthread_mutex_init(&pl.lock, NULL);
	pthread_cond_init(&pl.changed, NULL);
	init_states(&pl);
	for (size_t k = 0; k < p->norder; k++)
		if (p->nodes[p->order[k]].state == ST_FAILED)
			report(&p->nodes[p->order[k]], false);
	if (extra > p->n)
		extra = p->n;
	threads = xcalloc(extra, sizeof *threads);
	args = xcalloc(extra, sizeof *args);
	started = start_threads(&pl, threads, args, extra);
	worker(&(struct worker_arg){ &pl, 0 });
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	free(args);
	for (size_t k = 0; k < p->norder; k++) {
		struct mod_node *n = &p->nodes[p->order[k]];
		if (n->state == ST_WAITING) {
			/* Unreachable with an acyclic plan; never leave a module unexplained. */
			n->state = ST_CYCLE;
			n->err = ELOOP;
		}
		if (n->state == ST_DEP_FAILED || n->state == ST_CYCLE)
			report(n, false);
	}
	pthread_cond_destroy(&pl.changed);
	pthread_mutex_destroy(&pl.lock);
}
