// sources: init/spawn-execenv.c init/spawn-execmore.c init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* U5: what PID 1 works out before the fork: the directory list and its variables, the
 * terminal flags, and ember-sandbox's options (none at all without sandboxing keys). */
#include "harness.h"
#include "../../init/spawn-execenv.h"

#include <string.h>

static struct service svc;
static char env[8][1024];
static int env_count;

static int parse(const char *text)
{
	service_init(&svc, "app", "/etc/ember/services/app.service");
	return service_parse(&svc, text, strlen(text), NULL);
}

static int collect(void *ctx, const char *assignment)
{
	(void)ctx;
	if (env_count >= 8)
		return -1;
	snprintf(env[env_count++], sizeof env[0], "%s", assignment);
	return 0;
}

static bool has_arg(char *const *args, const char *want)
{
	for (size_t i = 0; args && args[i]; i++)
		if (strcmp(args[i], want) == 0)
			return true;
	return false;
}

static void directories_and_variables(void)
{
	struct exec_context c;
	char err[128];

	CHECK(parse("[Service]\nExecStart=/bin/a\nRuntimeDirectory=app app/sock\n"
		    "StateDirectory=app\nConfigurationDirectory=app\nStateDirectoryMode=0700\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_dirs(&svc, &c, err, sizeof err) == 0 && c.dir_count == 4);
	CHECK_STR(c.dirs[0].base, "/run");
	CHECK_STR(c.dirs[1].path, "app/sock");
	CHECK(c.dirs[2].mode == 0700 && c.dirs[2].owned);
	CHECK_STR(c.dirs[3].base, "/etc");
	CHECK(!c.dirs[3].owned); /* configuration stays root's */
	env_count = 0;
	CHECK(execenv_dir_env(&svc, collect, NULL) == 0 && env_count == 3);
	CHECK_STR(env[0], "RUNTIME_DIRECTORY=/run/app:/run/app/sock");
	CHECK_STR(env[1], "STATE_DIRECTORY=/var/lib/app");
	CHECK_STR(env[2], "CONFIGURATION_DIRECTORY=/etc/app");
}

static void terminal_flags(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n") == 0 && execenv_tty_flags(&svc) == 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=tty\nTTYReset=yes\n"
		    "TTYVHangup=yes\n") == 0);
	CHECK(execenv_tty_flags(&svc) == (EXEC_TTY_STDIN | EXEC_TTY_STDOUT | EXEC_TTY_STDERR |
					  EXEC_TTY_RESET | EXEC_TTY_VHANGUP));
	CHECK_STR(execenv_tty_path(&svc), "/dev/console");
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=tty\nStandardError=log\n"
		    "TTYPath=/dev/tty3\n") == 0);
	CHECK(execenv_tty_flags(&svc) == EXEC_TTY_STDOUT); /* no controlling tty for output */
	CHECK_STR(execenv_tty_path(&svc), "/dev/tty3");
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardInput=tty-force\nStandardOutput=log\n") == 0);
	CHECK(execenv_tty_flags(&svc) == (EXEC_TTY_STDIN | EXEC_TTY_FORCE));
}

static void sandbox_only_when_asked(void)
{
	struct exec_context c;
	char err[128];

	CHECK(parse("[Service]\nExecStart=/bin/a\nNoNewPrivileges=yes\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args == NULL); /* no sandboxing key: no extra exec */
	CHECK(parse("[Service]\nExecStart=/bin/a\nProtectSystem=strict\nPrivateTmp=yes\n"
		    "StateDirectory=app\nInaccessiblePaths=-/root\nReadOnlyPaths=/srv\n") == 0);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL);
	CHECK_STR(c.sandbox_helper, "/x/ember-sandbox");
	CHECK(has_arg(c.sandbox_args, "--protect-system=strict"));
	CHECK(has_arg(c.sandbox_args, "--private-tmp"));
	CHECK(has_arg(c.sandbox_args, "--read-write=/var/lib/app")); /* own dirs stay writable */
	CHECK(has_arg(c.sandbox_args, "--inaccessible=-/root"));
	CHECK(has_arg(c.sandbox_args, "--read-only=/srv"));
	exec_context_full_privileges(&c); /* the "+" prefix */
	CHECK(c.sandbox_args == NULL && !c.set_ids && !c.no_new_privs);
}

/* systemd 257's values (trixie's systemd-resolved, pcscd) and PrivateIPC= (cockpit,
 * dnsdist) become ember-sandbox options. */
static void systemd_257_values(void)
{
	struct exec_context c;
	char err[128];

	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateTmp=disconnected\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL && has_arg(c.sandbox_args, "--private-tmp"));
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateUsers=identity\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL && has_arg(c.sandbox_args, "--private-users=identity"));
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateUsers=full\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL && has_arg(c.sandbox_args, "--private-users=full"));
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateUsers=self\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL && has_arg(c.sandbox_args, "--private-users=0:0"));
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateTmp=connected\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nPrivateIPC=yes\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL && has_arg(c.sandbox_args, "--private-ipc"));
}

/* BindPaths= and friends alone make the sandbox run, one option per entry (haproxy's and
 * redis's lines as Debian ships them). */
static void bind_and_exec_options(void)
{
	struct exec_context c;
	char err[128];

	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "BindReadOnlyPaths=/dev/log:/var/lib/haproxy/dev/log -/run/x:/y:norbind\n"
		    "BindPaths=/srv/a\nNoExecPaths=/\n"
		    "ExecPaths=/usr/bin/redis-server /usr/lib -/lib\n") == 0);
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(c.sandbox_args != NULL);
	CHECK(has_arg(c.sandbox_args, "--bind-ro=/dev/log:/var/lib/haproxy/dev/log"));
	CHECK(has_arg(c.sandbox_args, "--bind-ro=-/run/x:/y:norbind"));
	CHECK(has_arg(c.sandbox_args, "--bind=/srv/a"));
	CHECK(has_arg(c.sandbox_args, "--no-exec=/"));
	CHECK(has_arg(c.sandbox_args, "--exec=/usr/bin/redis-server"));
	CHECK(has_arg(c.sandbox_args, "--exec=/usr/lib"));
	CHECK(has_arg(c.sandbox_args, "--exec=-/lib"));
	CHECK(!has_arg(c.sandbox_args, "--bind=/dev/log:/var/lib/haproxy/dev/log"));
}

/* SecureBits= with a user: the bits are set after the uid change, which takes the
 * CAP_SETPCAP only ember-caps keeps across it (Debian's gdnsd failed so). Root keeps it
 * without ember-caps. */
static void secure_bits_with_a_user_go_through_ember_caps(void)
{
	struct exec_context c;

	exec_context_init(&c);
	c.more.secure_bits = 1;
	CHECK(!exec_context_needs_caps(&c));
	c.set_ids = true;
	c.uid = 0;
	CHECK(!exec_context_needs_caps(&c));
	c.uid = 65534;
	CHECK(exec_context_needs_caps(&c));
	c.more.secure_bits = 0;
	CHECK(!exec_context_needs_caps(&c));
}

/* PAMName=: ember-session's options for a line that switches to the unit's user, none
 * for root's lines or without the key; a name that is not a PAM file's is refused. */
static void session_for_pam_name(void)
{
	struct exec_context c;

	CHECK(parse("[Service]\nExecStart=/bin/a\nUser=1000\nPAMName=login\nTTYPath=/dev/tty7\n") == 0);
	exec_context_init(&c);
	c.set_ids = true;
	c.uid = 1000;
	CHECK(!exec_context_needs_caps(&c));
	execenv_session(&svc, &c, "/x/ember-session");
	CHECK(c.session_args != NULL);
	CHECK_STR(c.session_helper, "/x/ember-session");
	CHECK_STR(c.session_args[0], "--uid");
	CHECK_STR(c.session_args[1], "1000");
	CHECK_STR(c.session_args[2], "--service");
	CHECK_STR(c.session_args[3], "login");
	CHECK_STR(c.session_args[4], "--tty");
	CHECK_STR(c.session_args[5], "/dev/tty7");
	CHECK(c.session_args[6] == NULL);
	CHECK(exec_context_needs_caps(&c)); /* the identity switch comes after the session */
	exec_context_full_privileges(&c); /* a "+" line: root, no session */
	CHECK(c.session_args == NULL);
	exec_context_init(&c); /* no User=: nobody to open it for */
	execenv_session(&svc, &c, "/x/ember-session");
	CHECK(c.session_args == NULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUser=1000\n") == 0);
	exec_context_init(&c);
	c.set_ids = true;
	execenv_session(&svc, &c, "/x/ember-session");
	CHECK(c.session_args == NULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nPAMName=../shadow\n") != 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nPAMName=lo gin\n") != 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nPAMName=login\nPAMName=\nUser=1000\n") == 0);
	exec_context_init(&c);
	c.set_ids = true;
	execenv_session(&svc, &c, "/x/ember-session");
	CHECK(c.session_args == NULL); /* the empty value resets it */
}

int main(void)
{
	RUN(directories_and_variables);
	RUN(terminal_flags);
	RUN(sandbox_only_when_asked);
	RUN(session_for_pam_name);
	RUN(secure_bits_with_a_user_go_through_ember_caps);
	RUN(bind_and_exec_options);
	RUN(systemd_257_values);
	return harness_done();
}
