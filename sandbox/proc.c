/* ember-sandbox: a private /proc for ProtectProc= and ProcSubset= (systemd.exec(5)), and
 * the option parser for sandbox/more.h. A fresh procfs instance is mounted over /proc in
 * the sandbox's mount namespace with hidepid= and subset=pid; these options are per
 * mount since Linux 5.8. On older kernels systemd leaves /proc alone, and so do we (with
 * a message on stderr, which ember-init logs). */
#include "more.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "exec-context.h"
#include "parse.h"
#include "setup.h"

static int parse_ids(struct sandbox_more *m, const char *value)
{
	unsigned long uid, gid;
	char copy[64], *colon;

	if (strcmp(value, "identity") == 0 || strcmp(value, "full") == 0) {
		m->private_users = value[0] == 'i' ? SANDBOX_USERS_IDENTITY : SANDBOX_USERS_FULL;
		return 0;
	}
	if (str_copy(copy, sizeof copy, value) < 0 || !(colon = strchr(copy, ':')))
		return -1;
	*colon = '\0';
	if (parse_ulong(copy, 0, 0xfffffffeUL, &uid) < 0 ||
	    parse_ulong(colon + 1, 0, 0xfffffffeUL, &gid) < 0)
		return -1;
	m->private_users = SANDBOX_USERS_MINIMAL;
	m->uid = (uid_t)uid;
	m->gid = (gid_t)gid;
	return 0;
}

static int parse_propagation(struct sandbox_more *m, const char *value)
{
	static const struct { const char *name; unsigned long flag; } kinds[] = {
		{ "shared", MS_SHARED }, { "slave", MS_SLAVE }, { "private", MS_PRIVATE },
	};

	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if (strcmp(value, kinds[i].name) == 0) {
			m->propagation = kinds[i].flag;
			return 0;
		}
	return -1;
}

int sandbox_more_option(struct sandbox_more *m, const char *arg)
{
	static const char *const hide[] = { "noaccess", "invisible", "ptraceable" };

	if (str_starts_with(arg, "--protect-proc=")) {
		for (size_t i = 0; i < sizeof hide / sizeof *hide; i++)
			if (strcmp(arg + 15, hide[i]) == 0) {
				m->hidepid = hide[i];
				return 0;
			}
		return -1;
	}
	if (strcmp(arg, "--proc-subset=pid") == 0) {
		m->subset_pid = true;
		return 0;
	}
	if (strcmp(arg, "--private-mounts") == 0) {
		m->private_mounts = true;
		return 0;
	}
	if (str_starts_with(arg, "--mount-propagation="))
		return parse_propagation(m, arg + 20);
	if (str_starts_with(arg, "--private-users="))
		return parse_ids(m, arg + 16);
	return 1;
}

/* The namespace began slave of the host's mounts (nothing leaks back); as systemd's,
 * its mounts end shared among themselves unless the unit asked for slave or private
 * (then the host's later mounts do not reach it either). */
int sandbox_more_propagation(const struct sandbox_more *m, struct sandbox_error *e)
{
	if (mount(NULL, "/", NULL, MS_REC | (m->propagation ? m->propagation : MS_SHARED),
		  NULL) == 0)
		return 0;
	e->op = EXEC_SANDBOX_PROPAGATION;
	e->err = errno;
	e->path = "/";
	return -1;
}

int sandbox_more_proc(const struct sandbox_more *m, struct sandbox_error *e)
{
	char options[64];

	if (!m->hidepid && !m->subset_pid)
		return 0;
	snprintf(options, sizeof options, "%s%s%s%s", m->hidepid ? "hidepid=" : "",
		 m->hidepid ? m->hidepid : "", m->hidepid && m->subset_pid ? "," : "",
		 m->subset_pid ? "subset=pid" : "");
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, options) == 0)
		return 0;
	if (errno == EINVAL) {
		fprintf(stderr, "ember-sandbox: /proc: the kernel does not take %s per mount "
			"(Linux 5.8 does); ProtectProc=/ProcSubset= have no effect\n", options);
		return 0;
	}
	e->op = EXEC_SANDBOX_PROC;
	e->err = errno;
	e->path = "/proc";
	return -1;
}
