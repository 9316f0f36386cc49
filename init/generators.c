#include "generators.h"
#include "rlimits.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "exec-context.h"
#include "log.h"

#define GENERATOR_NAME_MAX 64   /* systemd's are ~30 bytes; a longer name is skipped */
#define SEARCH_DIRS_MAX 8
#define OUT_PATH_MAX 128        /* small: PID 1's stack pages stay once touched */
#define SEARCH_LIST_MAX 1024
#define WAIT_STEP_MS 5
#define KILLED_GRACE_MS 1000    /* after SIGKILL; one stuck in the kernel is left to the reaper */
/* A name as logged: every byte may become \xNN (escape_text), so a whole name fits; a
 * longer one (skipped) or a directory ends in "..." */
#define SHOWN_MAX (4 * GENERATOR_NAME_MAX)

struct generator {
	char name[GENERATOR_NAME_MAX];
	unsigned char dir;   /* index into the search list */
	bool masked;         /* a link to /dev/null or an empty file: seen, not run */
	bool killed;         /* over the timeout: said so already */
	pid_t pid;           /* running; 0: done or never started */
};

/* The scratch of one run, mapped for it and unmapped after: PID 1's stack and heap pages
 * stay resident once touched, and this is needed once per load. */
struct found {
	char list[SEARCH_LIST_MAX];
	char path[SEARCH_LIST_MAX + GENERATOR_NAME_MAX + 1];
	char out[3][OUT_PATH_MAX];  /* normal, early, late: the generators' arguments */
	const char *dir[SEARCH_DIRS_MAX];
	size_t ndirs;
	struct generator gen[GENERATORS_MAX];
	size_t count;
	char *envp[GENERATOR_ENV_MAX + 2]; /* PATH, the caller's facts, NULL */
};

static bool seen(const struct found *f, const char *name)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->gen[i].name, name) == 0)
			return true;
	return false;
}

static bool is_masked(const struct stat *st)
{
	return (S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3)) ||
	       (S_ISREG(st->st_mode) && st->st_size == 0);
}

static void add_entry(struct found *f, int dfd, const char *name, unsigned char dir,
		      struct generators_result *res)
{
	struct stat st;
	char shown[SHOWN_MAX], shown_dir[SHOWN_MAX];

	if (name[0] == '.' || seen(f, name))
		return;
	if (strlen(name) >= GENERATOR_NAME_MAX || f->count >= GENERATORS_MAX) {
		/* the directory too: it comes from the command line (ember.generators=) */
		log_warn("generator %s/%s skipped: %s",
			 escape_text(f->dir[dir], shown_dir, sizeof shown_dir),
			 escape_text(name, shown, sizeof shown),
			 f->count >= GENERATORS_MAX ? "too many generators" : "name too long");
		res->skipped++;
		return;
	}
	/* Followed: a generator may be a link to the program, a mask a link to /dev/null. */
	if (fstatat(dfd, name, &st, 0) < 0)
		return;
	if (!is_masked(&st) && !(S_ISREG(st.st_mode) && (st.st_mode & 0111)))
		return;
	memcpy(f->gen[f->count].name, name, strlen(name) + 1); /* fits: checked above */
	f->gen[f->count].dir = dir;
	f->gen[f->count].masked = is_masked(&st);
	f->gen[f->count].pid = 0;
	f->gen[f->count].killed = false;
	res->masked += f->gen[f->count].masked;
	f->count++;
}

static void find_generators(struct found *f, char *search, struct generators_result *res)
{
	for (char *p = strtok(search, ":"); p && f->ndirs < SEARCH_DIRS_MAX; p = strtok(NULL, ":")) {
		DIR *d;
		struct dirent *e;
		if (p[0] != '/')
			continue;
		f->dir[f->ndirs] = p;
		d = opendir(p);
		if (d) {
			while ((e = readdir(d)))
				add_entry(f, dirfd(d), e->d_name, (unsigned char)f->ndirs, res);
			closedir(d);
		}
		f->ndirs++;
	}
}

/* Fresh, empty output directories: what a generator wrote for the last load must not
 * outlive a change of its input (a line removed from /etc/fstab). Made only when a
 * generator runs: an empty one would still be a systemd directory to the loader, which
 * then loads the default target on a system of ember's own units. */
static int prepare_outputs(struct found *f, const char *base, bool create)
{
	static const char *const leaves[] = { "generator", "generator.early", "generator.late" };

	if (create && mkdir(base, 0755) < 0 && errno != EEXIST)
		log_warn("generators: mkdir %s: %m", base);
	for (size_t i = 0; i < 3; i++) {
		if (snprintf(f->out[i], OUT_PATH_MAX, "%s/%s", base, leaves[i]) >= OUT_PATH_MAX)
			return -1;
		if (exec_dirs_remove(base, leaves[i]) < 0)
			log_warn("generators: could not empty %s: %m", f->out[i]);
		if (create && mkdir(f->out[i], 0755) < 0 && errno != EEXIST)
			log_warn("generators: mkdir %s: %m", f->out[i]);
	}
	return 0;
}

static pid_t spawn(struct found *f, const struct generator *g)
{
	char *path = f->path;
	char *argv[] = { path, f->out[0], f->out[1], f->out[2], NULL };
	pid_t pid;

	if (snprintf(path, sizeof f->path, "%s/%s", f->dir[g->dir], g->name) >= (int)sizeof f->path)
		return -1;
	pid = fork();
	if (pid == 0) {
		sigset_t none;
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		rlimits_for_child();
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		execve(path, argv, f->envp);
		_exit(127);
	}
	return pid;
}

static void reap(struct generator *g, int status, struct generators_result *res)
{
	char shown[SHOWN_MAX];

	g->pid = 0;
	if (g->killed || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return;
	res->failed++;
	log_warn("generator %s %s %d", escape_text(g->name, shown, sizeof shown),
		 WIFEXITED(status) ? "exited with status" : "was killed by signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* Poll every WAIT_STEP_MS until all are done or limit_ms passed; returns how many run. */
static size_t wait_some(struct found *f, long limit_ms, struct generators_result *res)
{
	struct timespec step = { 0, WAIT_STEP_MS * 1000000L };
	size_t running = 0;

	for (long waited = 0;; waited += WAIT_STEP_MS) {
		running = 0;
		for (size_t i = 0; i < f->count; i++) {
			int status;
			if (f->gen[i].pid <= 0)
				continue;
			if (waitpid(f->gen[i].pid, &status, WNOHANG) == f->gen[i].pid)
				reap(&f->gen[i], status, res);
			else
				running++;
		}
		if (!running || waited >= limit_ms)
			return running;
		nanosleep(&step, NULL);
	}
}

static void kill_late(struct found *f, long timeout_ms, struct generators_result *res)
{
	char shown[SHOWN_MAX];

	for (size_t i = 0; i < f->count; i++) {
		if (f->gen[i].pid <= 0)
			continue;
		log_error("generator %s still running after %ld ms: killed",
			  escape_text(f->gen[i].name, shown, sizeof shown), timeout_ms);
		kill(f->gen[i].pid, SIGKILL);
		f->gen[i].killed = true;
		res->killed++;
	}
	wait_some(f, KILLED_GRACE_MS, res);
}

/* execve() takes char *const[]: the strings are the caller's and never written. */
static void set_env(struct found *f, const char *const *env)
{
	size_t n = 0;

	f->envp[n++] = (char *)GENERATOR_PATH;
	for (; env && *env && n <= GENERATOR_ENV_MAX; env++)
		f->envp[n++] = (char *)*env;
	f->envp[n] = NULL;
}

static void run_all(struct found *f, const char *search, const char *out_base, long timeout_ms,
		    const char *const *env, struct generators_result *res)
{
	set_env(f, env);
	if (snprintf(f->list, sizeof f->list, "%s", search ? search : GENERATOR_SEARCH_DEFAULT) >=
	    (int)sizeof f->list)
		log_warn("generators: search path too long, cut");
	find_generators(f, f->list, res);
	if (prepare_outputs(f, out_base, f->count > res->masked) < 0) {
		log_error("generators: output directory %s: path too long, none run", out_base);
		return;
	}
	for (size_t i = 0; i < f->count; i++) {
		if (f->gen[i].masked)
			continue;
		f->gen[i].pid = spawn(f, &f->gen[i]);
		if (f->gen[i].pid < 0) {
			char shown[SHOWN_MAX];
			log_warn("generator %s: fork: %m",
				 escape_text(f->gen[i].name, shown, sizeof shown));
			f->gen[i].pid = 0;
			res->failed++;
			continue;
		}
		res->ran++;
	}
	if (wait_some(f, timeout_ms, res))
		kill_late(f, timeout_ms, res);
}

void generators_run(const char *search, const char *out_base, long timeout_ms,
		    const char *const *env, struct generators_result *res)
{
	struct found *f = mmap(NULL, sizeof *f, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(res, 0, sizeof *res);
	if (f == MAP_FAILED) {
		log_error("generators: no memory for a run: %m");
		return;
	}
	run_all(f, search, out_base, timeout_ms, env, res);
	munmap(f, sizeof *f);
	if (res->ran || res->masked)
		log_info("generators: %u run, %u failed, %u killed, %u masked", res->ran,
			 res->failed, res->killed, res->masked);
}
