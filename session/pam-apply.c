/* The I/O of pam.h: read the stack's files, put pam_env's environment in place, set
 * pam_limits' limits (ember-session(8) "PAM STACK"). */
#include "pam-apply.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"
#include "init/utmp.h" /* pam_lastlog's records, in the C library's layout */

#define GROUPS_MAX 64
#define LIMITS_D_FILES_MAX 64

/* A configuration file: a regular file (a symlink to /dev/zero or a fifo is refused)
 * of at most PAM_FILE_MAX bytes. */
static ssize_t read_conf(void *ctx, const char *path, char *buf, size_t size)
{
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), e;

	(void)ctx;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = EINVAL;
	else if (st.st_size >= (off_t)size)
		e = EFBIG;
	else
		e = 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	n = io_read_full(fd, buf, size - 1);
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	if ((size_t)n >= size - 1) { /* grew while read */
		errno = EFBIG;
		return -1;
	}
	buf[n] = '\0';
	return n;
}

/* File text in messages is escaped: it is root's, but it may hold anything. */
static void note(void *ctx, const char *file, unsigned line, const char *why)
{
	char f[300], w[700];

	(void)ctx;
	log_warn("%s:%u: %s", escape_text(file, f, sizeof f), line, escape_text(why, w, sizeof w));
}

static const char *conf_error(int e)
{
	return e == EFBIG ? "larger than 64 KiB" : e == EINVAL ? "not a regular file" : strerror(e);
}

struct user {
	struct passwd_user pw;
	bool known;
	gid_t groups[GROUPS_MAX];
	char names[GROUPS_MAX][PASSWD_NAME_MAX];
	const char *name_ptrs[GROUPS_MAX];
	size_t ngroups;
};

static void user_load(uid_t uid, struct user *u)
{
	struct passwd_group g;

	u->known = passwd_user_by_uid(NULL, uid, &u->pw) == 0;
	u->ngroups = 0;
	if (!u->known) {
		snprintf(u->pw.name, sizeof u->pw.name, "%u", (unsigned)uid);
		return;
	}
	if (passwd_user_groups(NULL, u->pw.name, u->pw.gid, u->groups, GROUPS_MAX, &u->ngroups) < 0) {
		u->groups[0] = u->pw.gid;
		u->ngroups = 1;
	}
	for (size_t i = 0; i < u->ngroups; i++) {
		u->names[i][0] = '\0';
		if (passwd_group_by_gid(NULL, u->groups[i], &g) == 0)
			snprintf(u->names[i], sizeof u->names[i], "%s", g.name);
		u->name_ptrs[i] = u->names[i];
	}
}

/* ---- pam_env ---- */

static void env_entry(const struct pam_entry *e, struct penv *env, const struct user *u,
		      const char *tty, char *buf)
{
	struct pam_env_options o;
	struct pam_items items = { u->pw.name, u->known ? u->pw.home : NULL,
				   u->known ? u->pw.shell : NULL, tty };
	ssize_t n;
	char f[300];

	pam_env_options(e->args, &o, note, NULL, e->file, e->line);
	n = read_conf(NULL, o.conffile, buf, PAM_FILE_MAX + 1);
	if (n < 0) {
		/* as pam_env: without its conffile, the module stops before the envfile */
		log_warn("%s:%u: pam_env: %s: %s; its envfile is not read either",
			 escape_text(e->file, f, sizeof f), e->line, o.conffile, conf_error(errno));
		return;
	}
	if (pam_env_conf_apply(env, buf, (size_t)n, o.conffile, &items, note, NULL) < 0 ||
	    !o.readenv)
		return;
	n = read_conf(NULL, o.envfile, buf, PAM_FILE_MAX + 1);
	if (n < 0) {
		if (errno != ENOENT)
			log_warn("pam_env: %s: %s", o.envfile, conf_error(errno));
		return;
	}
	pam_env_file_apply(env, buf, (size_t)n, o.envfile, note, NULL);
}

/* ---- pam_mail ---- */

/* As pam_mail: $MAIL is the user's folder; an unknown user gets none. */
static void mail_entry(const struct pam_entry *e, struct penv *env, const struct user *u)
{
	char folder[PENV_VALUE_MAX];

	if (u->known && pam_mail_folder(e->args, u->pw.name, u->pw.home, folder, sizeof folder,
					note, NULL, e->file, e->line) == 1)
		penv_set(env, "MAIL", folder);
}

/* ---- pam_limits ---- */

static rlim_t nr_open(void)
{
	char buf[32] = "";
	unsigned long v;

	if (io_read_file("/proc/sys/fs/nr_open", buf, sizeof buf) < 0)
		return 0;
	buf[strcspn(buf, "\n")] = '\0';
	return parse_ulong(buf, 0, ULONG_MAX, &v) == 0 ? (rlim_t)v : 0;
}

static void limits_file(struct limits_plan *p, const char *path, const struct limits_user *lu,
			char *buf, bool must_exist)
{
	ssize_t n = read_conf(NULL, path, buf, PAM_FILE_MAX + 1);

	if (n < 0) {
		if (errno != ENOENT || must_exist)
			log_warn("pam_limits: %s: %s; not read", path, conf_error(errno));
		return;
	}
	limits_conf_apply(p, buf, (size_t)n, path, lu, note, NULL);
}

static void limits_dir(struct limits_plan *p, const struct limits_user *lu, char *buf)
{
	static char names[LIMITS_D_FILES_MAX][256];
	char *list[LIMITS_D_FILES_MAX], path[300];
	DIR *d = opendir(PAM_LIMITS_DIR);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (n == LIMITS_D_FILES_MAX) {
			log_warn("pam_limits: %s: more than %d files; the rest are not read",
				 PAM_LIMITS_DIR, LIMITS_D_FILES_MAX);
			break;
		}
		snprintf(names[n], sizeof names[n], "%s", de->d_name);
		list[n] = names[n];
		n++;
	}
	closedir(d);
	n = limits_dir_order(list, n);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", PAM_LIMITS_DIR, list[i]);
		limits_file(p, path, lu, buf, false);
	}
}

/* Debian's pam_limits (Debian 12, libpam-modules 1.5.2) takes PID 1's limits as the
 * defaults without set_all: measured on the Debian disk under systemd (docs/services.md). */
static bool debian_pam(void)
{
	return access("/etc/debian_version", F_OK) == 0;
}

static void pid1_limits(struct limits_plan *p, char *buf)
{
	if (io_read_file("/proc/1/limits", buf, PAM_FILE_MAX + 1) < 0) {
		log_warn("pam_limits: /proc/1/limits: %m; PID 1's limits not taken");
		return;
	}
	limits_pid1_apply(p, buf);
}

static bool limits_entry(const struct pam_entry *e, const struct user *u, struct limits_plan *p,
			 char *buf)
{
	struct limits_user lu = { u->pw.name, u->pw.uid, u->pw.gid, u->groups, u->name_ptrs,
				  u->ngroups };
	char conf[256], f[300];
	bool set_all;

	if (!u->known) {
		log_warn("%s:%u: pam_limits: uid %s has no /etc/passwd entry; no limits set",
			 escape_text(e->file, f, sizeof f), e->line, u->pw.name); /* the uid's digits */
		return false;
	}
	set_all = pam_limits_options(e->args, conf, sizeof conf, note, NULL, e->file, e->line);
	limits_plan_init(p, nr_open());
	if (set_all || debian_pam())
		pid1_limits(p, buf);
	if (*conf) {
		limits_file(p, conf, &lu, buf, true);
	} else {
		limits_file(p, PAM_LIMITS_CONF, &lu, buf, false);
		limits_dir(p, &lu, buf);
	}
	return !p->no_limits;
}

/* PID 1's values are defaults: one that cannot be set (a hard limit above this
 * process's, without CAP_SYS_RESOURCE) is passed over, as pam_limits does, and the
 * files' value of the same limit set alone. 0 when that worked. */
static int without_pid1_values(int i, const struct limits_plan *p, struct rlimit *r)
{
	struct rlimit now;
	bool soft = p->lim[i].src_soft < LIMITS_SRC_KERNEL, hard = p->lim[i].src_hard < LIMITS_SRC_KERNEL;

	if (!soft && !hard)
		return 0;
	if (getrlimit(i, &now) < 0)
		return -1;
	if (!soft)
		r->rlim_cur = now.rlim_cur;
	if (!hard)
		r->rlim_max = now.rlim_max;
	if (r->rlim_cur > r->rlim_max)
		r->rlim_cur = r->rlim_max;
	return setrlimit(i, r);
}

static int set_limits(const struct limits_plan *p, uid_t uid)
{
	int failed = 0;

	for (int i = 0; i < RLIM_NLIMITS; i++) {
		struct rlimit r;
		if (p->lim[i].src_soft == LIMITS_SRC_NONE && p->lim[i].src_hard == LIMITS_SRC_NONE)
			continue;
		if (getrlimit(i, &r) < 0)
			continue; /* not known to this kernel */
		if (p->lim[i].src_soft != LIMITS_SRC_NONE)
			r.rlim_cur = p->lim[i].cur;
		if (p->lim[i].src_hard != LIMITS_SRC_NONE)
			r.rlim_max = p->lim[i].max;
		if (r.rlim_cur > r.rlim_max)
			r.rlim_cur = r.rlim_max;
		if (setrlimit(i, &r) == 0 || without_pid1_values(i, p, &r) == 0)
			continue;
		log_warn("pam_limits: resource %d: cannot set %llu/%llu: %m", i,
			 (unsigned long long)r.rlim_cur, (unsigned long long)r.rlim_max);
		failed = -1;
	}
	/* as pam_limits: no lowered priority for root */
	if (p->priority_set && !(uid == 0 && p->priority > 0) &&
	    setpriority(PRIO_PROCESS, 0, p->priority) < 0) {
		log_warn("pam_limits: priority %d: %m", p->priority);
		failed = -1;
	}
	if (p->nonewprivs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		log_warn("pam_limits: nonewprivs: %m");
		failed = -1;
	}
	return failed;
}

/* ---- pam_lastlog ---- */

static void lastlog_entry(struct pam_apply *a, const struct pam_entry *e, const struct user *u)
{
	unsigned flags = pam_lastlog_options(e->args, note, NULL, e->file, e->line);

	if (a->lastlog || !u->known) /* pam_lastlog fails for a user without an entry */
		return;
	a->lastlog = true;
	a->lastlog_flags = flags;
	snprintf(a->user, sizeof a->user, "%s", u->pw.name);
}

void pam_apply_lastlog(const struct pam_apply *a, uid_t uid, const char *tty)
{
	const char *line = !tty ? "" : str_starts_with(tty, "/dev/") ? tty + 5 : tty;

	if (!a->lastlog || (a->lastlog_flags & PAM_LASTLOG_NO_UPDATE))
		return;
	if (utmp_put_lastlog(NULL, uid, line, "") < 0 && errno != ENOENT)
		log_warn("pam_lastlog: %s: %m", LASTLOG_PATH);
	if (!(a->lastlog_flags & PAM_LASTLOG_NO_WTMP))
		utmp_log_login(NULL, getpid(), line, a->user, "");
}

/* ---- the stack ---- */

void pam_apply_env(struct pam_apply *a, uid_t uid, const char *service, const char *tty)
{
	static struct user u;
	char err[400], name[80], shown[420];
	bool with_env;
	int r;

	a->nplans = 0;
	a->lastlog = false;
	r = pam_stack_load(service, read_conf, NULL, note, NULL, &a->stack, err, sizeof err);
	if (r != 0) {
		if (r < 0)
			log_warn("%s: %s; pam_env and pam_limits not applied",
				 escape_text(service, name, sizeof name), escape_text(err, shown, sizeof shown));
		return;
	}
	user_load(uid, &u);
	penv_init(&a->env, environ);
	/* a unit environment that does not fit is kept whole, without pam_env's changes */
	with_env = !a->env.full;
	if (!with_env)
		log_warn("%s: the environment has more than %d variables or 64 KiB: pam_env "
			 "not applied", escape_text(service, name, sizeof name), PENV_VARS_MAX);
	for (size_t i = 0; i < a->stack.count; i++) {
		const struct pam_entry *e = &a->stack.entries[i];
		if (e->module == PAM_MOD_ENV) {
			if (with_env)
				env_entry(e, &a->env, &u, tty, a->stack.buf[1]);
		} else if (e->module == PAM_MOD_MAIL) {
			if (with_env)
				mail_entry(e, &a->env, &u);
		} else if (e->module == PAM_MOD_LASTLOG) {
			lastlog_entry(a, e, &u);
		} else if (limits_entry(e, &u, &a->plans[a->nplans].plan, a->stack.buf[1]))
			a->plans[a->nplans++].optional = e->optional;
	}
	if (!with_env)
		return;
	if (a->env.full)
		log_warn("%s: the environment is full (%d variables, 64 KiB): some of pam_env's "
			 "variables are not set", escape_text(service, name, sizeof name), PENV_VARS_MAX);
	environ = a->env.vars;
}

int pam_apply_limits(const struct pam_apply *a, uid_t uid)
{
	for (size_t i = 0; i < a->nplans; i++)
		if (set_limits(&a->plans[i].plan, uid) < 0 && !a->plans[i].optional)
			return -1;
	return 0;
}
