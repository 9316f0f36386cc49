/* See spawn-execmore.h. */
#include "spawn-execmore.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

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
	return 0;
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
