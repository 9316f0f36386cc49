// sources: session/pamstack.c session/pamenv.c session/pamlimits.c session/pamlastlog.c
/* What ember-session reads for pam_env and pam_limits (session/pam.h): the input is every
 * file of a PAM stack at once (so each include of it includes it again: the depth bound
 * is exercised on every run), then an environment file, pam_env.conf and limits.conf. */
#include "fuzz.h"
#include "pam.h"

#include <errno.h>

static const uint8_t *in;
static size_t in_size;
static struct pam_stack st;
static struct penv env;

static ssize_t read_input(void *ctx, const char *path, char *buf, size_t size)
{
	(void)ctx;
	(void)path;
	if (in_size >= size) {
		errno = EFBIG;
		return -1;
	}
	memcpy(buf, in, in_size);
	buf[in_size] = '\0';
	return (ssize_t)in_size;
}

static void quiet(void *ctx, const char *file, unsigned line, const char *why)
{
	(void)ctx;
	(void)file;
	(void)line;
	if (strlen(why) > 4096)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const gid_t groups[] = { 100, 27 };
	static const char *const names[] = { "users", "sudo" };
	const struct limits_user u = { "alice", 1000, 100, groups, names, 2 };
	const struct pam_items it = { "alice", "/home/alice", "/bin/sh", "/dev/tty1" };
	char *start[] = { "PATH=/bin", "X=1", NULL };
	struct limits_plan plan;
	struct pam_env_options o;
	char err[256], conf[256];
	/* an exact-size copy: ASan sees a read past the text */
	char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	in = data;
	in_size = size;
	if (pam_stack_load("login", read_input, NULL, quiet, NULL, &st, err, sizeof err) == 0) {
		if (st.count > PAM_ENTRIES_MAX)
			abort();
		for (size_t i = 0; i < st.count; i++) {
			if (strlen(st.entries[i].args) >= PAM_ARGS_MAX)
				abort();
			pam_env_options(st.entries[i].args, &o, quiet, NULL, "f", 1);
			pam_limits_options(st.entries[i].args, conf, sizeof conf, quiet, NULL, "f", 1);
			(void)pam_lastlog_options(st.entries[i].args, quiet, NULL, "f", 1);
		}
	}
	penv_init(&env, start);
	pam_env_file_apply(&env, text, size, "/etc/environment", quiet, NULL);
	(void)pam_env_conf_apply(&env, text, size, "pam_env.conf", &it, quiet, NULL);
	if (env.count > PENV_VARS_MAX || env.vars[env.count] != NULL)
		abort();
	for (size_t i = 0; i < env.count; i++)
		if (!strchr(env.vars[i], '=') || env.vars[i] < env.text ||
		    env.vars[i] >= env.text + sizeof env.text)
			abort();
	limits_plan_init(&plan, 1048576);
	limits_conf_apply(&plan, text, size, "limits.conf", &u, quiet, NULL);
	free(text);
	return 0;
}
