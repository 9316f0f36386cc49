/* See spawn-execmore.h. */
#include "spawn-execmore.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/ipc.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "passwd.h"

static uint64_t affinity_bits[EXEC_CPUS_MAX / 64]; /* one spawn at a time (spawn.c) */

int execmore_context(const struct service *s, struct exec_context *c, char *err, size_t size)
{
	const struct service_exec_more *m = &s->execmore;

	memset(&c->more, 0, sizeof c->more);
	if (m->io_class || m->io_priority <= 7) {
		/* as systemd: best-effort at level 4 unless the keys say otherwise */
		c->more.ioprio_set = true;
		c->more.ioprio_class = m->io_class ? m->io_class - 1 : 2;
		c->more.ioprio_level = m->io_priority <= 7 ? m->io_priority : 4;
	}
	if (m->cpu_policy || m->cpu_priority || m->cpu_reset_on_fork) {
		c->more.sched_set = true;
		c->more.sched_policy = m->cpu_policy ? m->cpu_policy - 1 : SCHED_OTHER;
		c->more.sched_priority = m->cpu_priority;
		c->more.sched_reset_on_fork = m->cpu_reset_on_fork;
	}
	if (m->cpu_affinity) {
		if (exec_cpu_list_parse(service_str(s, m->cpu_affinity), affinity_bits) < 0) {
			snprintf(err, size, "CPUAffinity=: not a CPU list");
			return -1;
		}
		c->more.affinity = affinity_bits;
	}
	c->more.secure_bits = m->secure_bits;
	c->more.apparmor_profile = m->apparmor_profile ? service_str(s, m->apparmor_profile) : NULL;
	return execmore_credentials(s, c, err, size);
}

/* Is var (NAME=VALUE) named by word (NAME, or NAME=VALUE exactly)? */
static bool unset_matches(const char *var, const char *word, size_t len)
{
	const char *eq = memchr(word, '=', len);

	if (eq)
		return strlen(var) == len && memcmp(var, word, len) == 0;
	return strncmp(var, word, len) == 0 && var[len] == '=';
}

void execmore_unset_env(const struct service *s, const char **vars, size_t *count)
{
	const char *list = service_str(s, s->execmore.unset_env);
	size_t kept = 0;

	if (!*list)
		return;
	for (size_t i = 0; i < *count; i++) {
		bool drop = false;
		for (const char *w = list; *w && !drop; ) {
			size_t len = strcspn(w, " \t");
			drop = len && unset_matches(vars[i], w, len);
			w += len;
			w += strspn(w, " \t");
		}
		if (!drop)
			vars[kept++] = vars[i];
	}
	vars[kept] = NULL;
	*count = kept;
}

/* ---- credentials ---- */

static char cred_dir[64 + SERVICE_NAME_MAX];

static void cred_dir_of(const struct service *s)
{
	snprintf(cred_dir, sizeof cred_dir, "/run/credentials/%s%s", s->name,
		 s->kind == UNIT_SERVICE ? ".service" : "");
}

/* The owner: the service's User=/Group=, even for a "+" or "!" line that runs as root,
 * so the one directory serves every line of the start. */
static int cred_owner(const struct service *s, const struct exec_context *c, uid_t *uid,
		      gid_t *gid, char *err, size_t size)
{
	const char *user = service_str(s, s->user), *group = service_str(s, s->group);
	struct passwd_user pw;
	struct passwd_group gr;

	*uid = 0;
	*gid = 0;
	if (c->set_ids) {
		*uid = c->uid;
		*gid = c->gid;
		return 0;
	}
	if (*user) {
		if (passwd_user_lookup(NULL, user, &pw) < 0) {
			snprintf(err, size, "credentials: User=%s: no such user", user);
			return -1;
		}
		*uid = pw.uid;
		*gid = pw.gid;
	}
	if (*group) {
		if (passwd_group_lookup(NULL, group, &gr) < 0) {
			snprintf(err, size, "credentials: Group=%s: no such group", group);
			return -1;
		}
		*gid = gr.gid;
	}
	return 0;
}

int execmore_credentials(const struct service *s, struct exec_context *c, char *err, size_t size)
{
	if (!s->execmore.credentials)
		return 0;
	cred_dir_of(s);
	c->more.cred_dir = cred_dir;
	c->more.cred_list = service_str(s, s->execmore.credentials);
	return cred_owner(s, c, &c->more.cred_uid, &c->more.cred_gid, err, size);
}

int execmore_env(const struct service *s, int (*add)(void *ctx, const char *assignment), void *ctx)
{
	char line[32 + sizeof cred_dir];

	if (!s->execmore.credentials)
		return 0;
	cred_dir_of(s);
	snprintf(line, sizeof line, "CREDENTIALS_DIRECTORY=%s", cred_dir);
	return add(ctx, line);
}

/* ---- stop: credentials and RemoveIPC= ---- */

/* System V objects listed in /proc/sysvipc/FILE whose owner uid (column uid_col, 0-based)
 * is uid: removed with IPC_RMID. */
static void remove_sysv(const char *file, int uid_col, uid_t uid)
{
	char path[64], line[512];
	FILE *f;

	snprintf(path, sizeof path, "/proc/sysvipc/%s", file);
	if (!(f = fopen(path, "re")))
		return;
	if (!fgets(line, sizeof line, f)) { /* the header */
		fclose(f);
		return;
	}
	while (fgets(line, sizeof line, f)) {
		long v[12];
		int n = sscanf(line, "%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1],
			       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]);
		if (n <= uid_col || (uid_t)v[uid_col] != uid)
			continue;
		if (file[1] == 'h')
			shmctl((int)v[1], IPC_RMID, NULL);
		else if (file[1] == 'e')
			semctl((int)v[1], 0, IPC_RMID);
		else
			msgctl((int)v[1], IPC_RMID, NULL);
	}
	fclose(f);
}

/* POSIX objects: the files of dir (shared memory, message queues) owned by uid. */
static void remove_posix(const char *dir, uid_t uid)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISDIR(st.st_mode) && st.st_uid == uid)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/* RemoveIPC=: the IPC objects of the service's user. Never root's (as systemd); not
 * counted across services: the first of two services of one user to stop removes them. */
static void remove_ipc_uid(uid_t uid)
{
	if (uid == 0)
		return;
	remove_sysv("shm", 7, uid);
	remove_sysv("sem", 4, uid);
	remove_sysv("msg", 7, uid);
	remove_posix("/dev/shm", uid);
	remove_posix("/dev/mqueue", uid);
}

static void remove_ipc(const struct service *s)
{
	struct passwd_user pw;

	if (s->user && passwd_user_lookup(NULL, service_str(s, s->user), &pw) == 0)
		remove_ipc_uid(pw.uid);
}

void execmore_stopped(const struct service *s, uid_t dynamic_uid)
{
	static char aside[sizeof cred_dir];

	if (!s->execmore.credentials && !s->execmore.remove_ipc && !dynamic_uid)
		return;
	aside[0] = '\0';
	if (s->execmore.credentials) {
		/* At once, in PID 1: a start right after the stop (a restart) must make its own
		 * directory, not find this one, which the removal would then take away. */
		cred_dir_of(s);
		umount2(cred_dir, MNT_DETACH); /* not a mount where mounting was refused */
		exec_dirs_set_aside("/run/credentials", cred_dir + strlen("/run/credentials/"),
				    aside, sizeof aside);
	}
	if (fork() == 0) { /* removing must not hold PID 1 */
		if (aside[0])
			exec_dirs_remove("/run/credentials", aside);
		if (dynamic_uid) /* reading /proc/sysvipc must not hold PID 1 either */
			remove_ipc_uid(dynamic_uid);
		else if (s->execmore.remove_ipc)
			remove_ipc(s);
		_exit(0);
	}
}
