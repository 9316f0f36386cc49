// sources: session/pamstack.c session/pamenv.c session/pamlimits.c session/pamlastlog.c
/* What ember-session takes from a PAM stack (session/pam.h): the pam_env and pam_limits
 * lines of /etc/pam.d with their includes (loops and unreadable files bounded), and the
 * files those modules read, on hostile input: overlong lines, unterminated quotes and
 * expansions, huge values. */
#include "harness.h"
#include "pam.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* ---- a fake /etc: path -> text ---- */
struct fake {
	const char *path, *text;
};
static const struct fake *files;
static int reads;

static ssize_t fake_read(void *ctx, const char *path, char *buf, size_t size)
{
	(void)ctx;
	reads++;
	for (const struct fake *f = files; f->path; f++) {
		if (strcmp(f->path, path) != 0)
			continue;
		if (!f->text) { /* stands for /dev/zero, a fifo: not a regular file */
			errno = EINVAL;
			return -1;
		}
		if (strlen(f->text) >= size) {
			errno = EFBIG;
			return -1;
		}
		strcpy(buf, f->text);
		return (ssize_t)strlen(buf);
	}
	errno = ENOENT;
	return -1;
}

static int notes;
static char last_note[512];
static void count_note(void *ctx, const char *file, unsigned line, const char *why)
{
	(void)ctx;
	(void)file;
	(void)line;
	notes++;
	snprintf(last_note, sizeof last_note, "%s", why);
}

static struct pam_stack st;

static int load(const char *service, const struct fake *fs)
{
	char err[256];

	files = fs;
	notes = reads = 0;
	return pam_stack_load(service, fake_read, NULL, count_note, NULL, &st, err, sizeof err);
}

static void debian_login_stack(void)
{
	const struct fake fs[] = {
		{ "/etc/pam.d/login",
		  "# comment\n"
		  "auth       optional   pam_faildelay.so  delay=3000000\n"
		  "auth       required   pam_env.so readenv=0 # auth: pam_setcred\n"
		  "session [success=ok ignore=ignore module_unknown=ignore default=bad] pam_selinux.so close\n"
		  "session    required   pam_env.so readenv=1\n"
		  "session    required   /lib/security/pam_env.so readenv=1 \\\n"
		  "                      envfile=/etc/default/locale\n"
		  "@include common-auth\n"
		  "session    required   pam_limits.so\n"
		  "-session   optional   pam_limits.so conf=/etc/other.conf\n"
		  "account    required   pam_env.so\n"
		  "session    include    common-session\n" },
		{ "/etc/pam.d/common-auth", "auth [success=1 default=ignore] pam_unix.so nullok\n"
					     "session optional pam_limits.so\n" },
		{ "/etc/pam.d/common-session", "auth required pam_env.so conffile=/nope\n"
						"session optional pam_env.so user_readenv=0\n" },
		{ NULL, NULL }
	};

	CHECK(load("login", fs) == 0);
	CHECK(st.count == 7);
	CHECK(st.entries[0].module == PAM_MOD_ENV && st.entries[0].auth);
	CHECK_STR(st.entries[0].args, "readenv=0");
	CHECK(!st.entries[1].auth && st.entries[1].module == PAM_MOD_ENV);
	CHECK(strstr(st.entries[2].args, "readenv=1 ") && strstr(st.entries[2].args, " envfile=/etc/default/locale"));
	/* common-auth's session line, where the @include stands */
	CHECK(st.entries[3].module == PAM_MOD_LIMITS && st.entries[3].optional);
	CHECK(st.entries[4].module == PAM_MOD_LIMITS && !st.entries[4].optional);
	CHECK_STR(st.entries[5].args, "conf=/etc/other.conf");
	/* "session include" takes only the session lines */
	CHECK(st.entries[6].module == PAM_MOD_ENV && !st.entries[6].auth);
	CHECK_STR(st.entries[6].args, "user_readenv=0");
	CHECK_STR(st.service_file, "/etc/pam.d/login");
}

static void missing_service_is_other(void)
{
	const struct fake fs[] = { { "/etc/pam.d/other", "session required pam_limits.so\n" },
				   { NULL, NULL } };
	const struct fake none[] = { { NULL, NULL } };
	const struct fake odd[] = { { "/etc/pam.d/login", NULL }, { NULL, NULL } };

	CHECK(load("phosh", fs) == 0 && st.count == 1);
	CHECK_STR(st.service_file, "/etc/pam.d/other");
	CHECK(load("phosh", none) == 1 && st.count == 0);
	/* a service file that is /dev/zero: refused, not read forever */
	CHECK(load("login", odd) == -1 && st.count == 0);
}

/* Debian 12's systemd ships its user manager's stack in Linux-PAM's vendor directory
 * (/usr/lib/pam.d/systemd-user); a file in /etc/pam.d wins over it; includes are looked
 * up the same way. */
static void vendor_directory(void)
{
	const struct fake debian[] = {
		{ "/usr/lib/pam.d/systemd-user", "@include common-account\n"
						 "session required pam_limits.so\n"
						 "@include common-session-noninteractive\n" },
		{ "/etc/pam.d/common-session-noninteractive", "session required pam_env.so\n" },
		{ NULL, NULL }
	};
	const struct fake admin[] = {
		{ "/etc/pam.d/systemd-user", "session required pam_env.so\n" },
		{ "/usr/lib/pam.d/systemd-user", "session required pam_limits.so\n" },
		{ "/usr/lib/pam.d/inc", "session required pam_limits.so\n" },
		{ "/etc/pam.d/login", "@include inc\n" },
		{ "/usr/lib/pam.d/other", "session required pam_mail.so\n" },
		{ NULL, NULL }
	};

	CHECK(load("systemd-user", debian) == 0 && st.count == 2);
	CHECK_STR(st.service_file, "/usr/lib/pam.d/systemd-user");
	CHECK(st.entries[0].module == PAM_MOD_LIMITS && st.entries[1].module == PAM_MOD_ENV);
	CHECK(load("systemd-user", admin) == 0 && st.count == 1);
	CHECK_STR(st.service_file, "/etc/pam.d/systemd-user");
	CHECK(st.entries[0].module == PAM_MOD_ENV);
	CHECK(load("login", admin) == 0 && st.count == 1 && st.entries[0].module == PAM_MOD_LIMITS);
	CHECK(load("phosh", admin) == 0 && st.count == 1 && st.entries[0].module == PAM_MOD_MAIL);
	CHECK_STR(st.service_file, "/usr/lib/pam.d/other");
}

/* Debian's login stack has "session optional pam_lastlog.so": its records are written
 * (options that only change what it prints are accepted); an auth line is not its */
static void lastlog_lines(void)
{
	const struct fake fs[] = {
		{ "/etc/pam.d/login", "auth optional pam_lastlog.so\n"
				      "session optional pam_lastlog.so\n"
				      "session optional pam_lastlog.so nowtmp silent never bogus\n" },
		{ NULL, NULL }
	};

	CHECK(load("login", fs) == 0 && st.count == 2);
	CHECK(st.entries[0].module == PAM_MOD_LASTLOG && st.entries[0].optional);
	notes = 0;
	CHECK(pam_lastlog_options(st.entries[0].args, count_note, NULL, "f", 1) == 0);
	CHECK(pam_lastlog_options(st.entries[1].args, count_note, NULL, "f", 1) == PAM_LASTLOG_NO_WTMP);
	CHECK(notes == 1); /* bogus */
	CHECK(pam_lastlog_options("noupdate inactive=90", count_note, NULL, "f", 1) ==
	      PAM_LASTLOG_NO_UPDATE && notes == 1);
}

static void include_loops_are_bounded(void)
{
	const struct fake fs[] = {
		{ "/etc/pam.d/login", "@include a\nsession required pam_env.so\n" },
		{ "/etc/pam.d/a", "@include b\nsession include login\n" },
		{ "/etc/pam.d/b", "@include a\n@include /dev/zero\nsession substack missing\n" },
		{ "/dev/zero", NULL },
		{ NULL, NULL }
	};

	CHECK(load("login", fs) == 0);
	CHECK(reads < 200);
	CHECK(notes > 0);
	CHECK(st.count >= 1 && st.count <= PAM_ENTRIES_MAX); /* the loop's copies, bounded */
}

static void overlong_lines_are_skipped(void)
{
	static char big[PAM_FILE_MAX], huge[PAM_FILE_MAX + 10];
	const struct fake fs[] = { { "/etc/pam.d/login", big }, { NULL, NULL } };
	const struct fake fs2[] = { { "/etc/pam.d/login", huge }, { NULL, NULL } };

	memset(big, 'x', 9000);
	strcpy(big + 9000, "\nsession required pam_limits.so\n");
	CHECK(load("login", fs) == 0 && st.count == 1 && notes == 1);
	/* continuation lines that never end add up too */
	for (size_t i = 0; i + 2 < 30000; i += 2)
		big[i] = 'a', big[i + 1] = '\\', big[i + 2] = '\n', i++;
	strcpy(big + 30000, "\nsession required pam_limits.so\n");
	CHECK(load("login", fs) == 0 && st.count == 1 && notes == 1);
	memset(huge, 'x', sizeof huge - 1);
	CHECK(load("login", fs2) == -1);
}

/* ---- pam_env ---- */
static struct penv env;

static void env_file(const char *text)
{
	notes = 0;
	pam_env_file_apply(&env, text, strlen(text), "/etc/environment", count_note, NULL);
}

static void environment_file(void)
{
	char *start[] = { "PATH=/unit/bin", "KEEP=1", "GONE=1", NULL };

	penv_init(&env, start);
	env_file("# the system's\n"
		 "PATH=\"/usr/local/bin:/usr/bin\"\n"
		 "  export LANG='C.UTF-8'\n"
		 "A=one # a comment\n"
		 "B=\"in\"side\"\n"
		 "C=\"unterminated\n"
		 "bad-name=1\n"
		 "=nothing\n"
		 "GONE\n"
		 "D=with=equals\n");
	CHECK_STR(penv_get(&env, "PATH"), "/usr/local/bin:/usr/bin"); /* pam_env wins, as under systemd */
	CHECK_STR(penv_get(&env, "LANG"), "C.UTF-8");
	CHECK_STR(penv_get(&env, "A"), "one ");
	CHECK_STR(penv_get(&env, "B"), "in\"side");
	CHECK_STR(penv_get(&env, "C"), "unterminated");
	CHECK(penv_get(&env, "bad-name") == NULL);
	CHECK(penv_get(&env, "GONE") == NULL);
	CHECK_STR(penv_get(&env, "KEEP"), "1");
	CHECK_STR(penv_get(&env, "D"), "with=equals");
	CHECK(notes == 2); /* the quote, the name */
}

static void environment_is_bounded(void)
{
	static char text[PAM_FILE_MAX];
	size_t at = 0;

	penv_init(&env, NULL);
	/* 400 variables of 200 bytes: more than fit; the list says so, nothing overflows */
	for (int i = 0; i < 300 && at + 300 < sizeof text; i++) {
		at += (size_t)snprintf(text + at, sizeof text - at, "V%d=", i);
		memset(text + at, 'v', 200);
		at += 200;
		text[at++] = '\n';
	}
	text[at] = '\0';
	env_file(text);
	CHECK(env.full && env.count == PENV_VARS_MAX);
	CHECK(env.vars[PENV_VARS_MAX] == NULL);
	/* values are replaced many times: the space of old ones is reused */
	penv_init(&env, NULL);
	for (int i = 0; i < 5000; i++) {
		char v[64];
		snprintf(v, sizeof v, "%0*d", 50, i);
		CHECK(penv_set(&env, "X", v) == 0);
	}
	CHECK(!env.full && env.count == 1 && strlen(penv_get(&env, "X")) == 50);
}

static void env_conf(const char *text, const struct pam_items *it, int want)
{
	notes = 0;
	CHECK(pam_env_conf_apply(&env, text, strlen(text), "/etc/security/pam_env.conf", it,
				 count_note, NULL) == want);
}

static void pam_env_conf(void)
{
	char *start[] = { "DISPLAY=:1", "REMOVE=x", NULL };
	struct pam_items it = { "alice", "/home/alice", "/bin/zsh", "/dev/tty5" };

	penv_init(&env, start);
	env_conf("REMOTEHOST DEFAULT=localhost OVERRIDE=@{PAM_RHOST}\n"
		 "DISPLAY DEFAULT=${REMOTEHOST}:0.0 OVERRIDE=${DISPLAY}\n"
		 "XDGDIR DEFAULT=@{HOME}/.local OVERRIDE=${NOT_SET}\n"
		 "SH DEFAULT=\"@{SHELL} -l\"\n"
		 "TERMINAL DEFAULT=@{PAM_TTY}\n"
		 "EMPTY DEFAULT=\"\"\n"
		 "REMOVE DEFAULT=\n"
		 "LIT DEFAULT=\\${HOME}\n",
		 &it, 0);
	CHECK_STR(penv_get(&env, "REMOTEHOST"), "localhost");
	CHECK_STR(penv_get(&env, "DISPLAY"), ":1");
	CHECK_STR(penv_get(&env, "XDGDIR"), "/home/alice/.local");
	CHECK_STR(penv_get(&env, "SH"), "/bin/zsh -l");
	CHECK_STR(penv_get(&env, "TERMINAL"), "/dev/tty5");
	CHECK_STR(penv_get(&env, "EMPTY"), "");
	CHECK(penv_get(&env, "REMOVE") == NULL);
	CHECK_STR(penv_get(&env, "LIT"), "${HOME}");
	CHECK(notes == 0);
}

static void pam_env_conf_hostile(void)
{
	static char text[40000];
	struct pam_items it = { "alice", NULL, NULL, NULL };

	penv_init(&env, NULL);
	env_conf("A DEFAULT=\"unterminated\nB BOGUS=1\nC DEFAULT=\"x\"y\nD DEFAULT=@{NOPE}\n"
		 "E DEFAULT=${unterminated\nF DEFAULT=after\n", &it, -1);
	CHECK(penv_get(&env, "A") == NULL && penv_get(&env, "B") == NULL &&
	      penv_get(&env, "C") == NULL);
	CHECK(penv_get(&env, "D") != NULL); /* expands to nothing, with a note */
	CHECK(penv_get(&env, "E") == NULL && penv_get(&env, "F") == NULL); /* as pam_env: stops */
	CHECK(notes == 5);
	/* a value that doubles on every line stops at 8 KiB */
	penv_init(&env, NULL);
	strcpy(text, "X DEFAULT=0123456789abcdef0123456789abcdef\n");
	for (int i = 0; i < 12; i++)
		strcat(text, "X DEFAULT=${X}${X}\n");
	strcat(text, "Y DEFAULT=never\n");
	env_conf(text, &it, -1);
	CHECK(strlen(penv_get(&env, "X")) < PENV_VALUE_MAX);
	CHECK(penv_get(&env, "Y") == NULL);
}

/* pam_mail's folder: Debian's "standard" line, dir=, a home-relative dir, hash=, noenv,
 * and the paths it refuses. */
static void pam_mail_folders(void)
{
	char out[64];

	notes = 0;
	CHECK(pam_mail_folder("standard", "nobody", "/nonexistent", out, sizeof out, count_note,
			      NULL, "f", 1) == 1);
	CHECK_STR(out, "/var/mail/nobody");
	CHECK(pam_mail_folder("dir=/var/spool/mail quiet", "ann", "/home/ann", out, sizeof out,
			      count_note, NULL, "f", 1) == 1);
	CHECK_STR(out, "/var/spool/mail/ann");
	CHECK(pam_mail_folder("dir=~/Maildir", "ann", "/home/ann", out, sizeof out, count_note,
			      NULL, "f", 1) == 1);
	CHECK_STR(out, "/home/ann/Maildir");
	CHECK(pam_mail_folder("dir=~Mail", "ann", "/home/ann", out, sizeof out, count_note, NULL,
			      "f", 1) == 1);
	CHECK_STR(out, "/home/ann/Mail");
	CHECK(pam_mail_folder("hash=2", "ann", "/home/ann", out, sizeof out, count_note, NULL,
			      "f", 1) == 1);
	CHECK_STR(out, "/var/mail/a/n/ann");
	CHECK(pam_mail_folder("hash=9 dir=/m", "al", "/home/al", out, sizeof out, count_note,
			      NULL, "f", 1) == 1);
	CHECK_STR(out, "/m/a/l/al"); /* no more levels than letters */
	CHECK(notes == 0);
	CHECK(pam_mail_folder("noenv", "ann", "/home/ann", out, sizeof out, count_note, NULL,
			      "f", 1) == 0);
	CHECK(pam_mail_folder("dir=~/", "ann", "/home/ann", out, sizeof out, count_note, NULL,
			      "f", 1) == -1 && notes == 1);
	CHECK(pam_mail_folder("frob dir=", "ann", "/home/ann", out, sizeof out, count_note, NULL,
			      "f", 1) == 1 && notes == 2); /* frob noted, empty dir= ignored */
	CHECK_STR(out, "/var/mail/ann");
	CHECK(pam_mail_folder("dir=/a/very/long/mail/directory/name/that/does/not/fit/in/sixty-four/bytes",
			      "ann", "/home/ann", out, sizeof out, count_note, NULL, "f", 1) == -1);
}

static void pam_env_options_parse(void)
{
	struct pam_env_options o;

	notes = 0;
	pam_env_options("readenv=0 envfile=/etc/default/locale conffile=relative user_readenv=1 frob",
			&o, count_note, NULL, "f", 1);
	CHECK(!o.readenv && !o.user_readenv);
	CHECK_STR(o.envfile, "/etc/default/locale");
	CHECK_STR(o.conffile, PAM_ENV_CONFFILE);
	CHECK(notes == 3);
	pam_env_options("", &o, count_note, NULL, "f", 1);
	CHECK(o.readenv);
	CHECK_STR(o.envfile, "/etc/environment");
}

/* ---- pam_limits ---- */
static const gid_t groups[] = { 1000, 27, 100 };
static const char *const gnames[] = { "alice", "sudo", "users" };
static const struct limits_user alice = { "alice", 1000, 1000, groups, gnames, 3 };
static struct limits_plan plan;

static void limits(const char *text)
{
	notes = 0;
	limits_conf_apply(&plan, text, strlen(text), "limits.conf", &alice, count_note, NULL);
}

static void limits_conf(void)
{
	limits_plan_init(&plan, 1048576);
	limits("*        soft  core     0\n"
	       "*        hard  nofile   512\n"
	       "@users   hard  nofile   4096\n"
	       "alice    hard  nofile   8192\n"
	       "*        hard  nofile   99   # a default after the user's: loses\n"
	       "@sudo    -     nproc    50\n"
	       "1000:    soft  cpu      2\n"
	       "@:27     hard  as       unlimited\n"
	       "@900:999 hard  stack    1\n"
	       "bob      hard  data     1\n"
	       "alice    -     nice     -5\n"
	       "alice    SOFT  MemLock  64\n"
	       "%        -     maxlogins 4\n"
	       "*        -     priority 5\n"
	       "*        -     rtprio   infinity\n"
	       "@users   soft  nofile   unlimited\n");
	CHECK(plan.lim[RLIMIT_CORE].cur == 0 && plan.lim[RLIMIT_CORE].src_soft == LIMITS_SRC_DEFAULT);
	CHECK(plan.lim[RLIMIT_NOFILE].max == 8192);
	CHECK(plan.lim[RLIMIT_NOFILE].cur == 1048576); /* nofile unlimited: nr_open */
	CHECK(plan.lim[RLIMIT_NPROC].cur == 50 && plan.lim[RLIMIT_NPROC].max == 50);
	CHECK(plan.lim[RLIMIT_CPU].cur == 120); /* minutes */
	CHECK(plan.lim[RLIMIT_AS].max == RLIM_INFINITY);
	CHECK(plan.lim[RLIMIT_STACK].src_hard == LIMITS_SRC_NONE);
	CHECK(plan.lim[RLIMIT_DATA].src_hard == LIMITS_SRC_NONE);
	CHECK(plan.lim[RLIMIT_NICE].cur == 25);
	CHECK(plan.lim[RLIMIT_MEMLOCK].cur == 64 * 1024); /* KB, case folded */
	CHECK(plan.lim[RLIMIT_RTPRIO].max == RLIM_INFINITY);
	CHECK(plan.priority_set && plan.priority == 5);
	CHECK(!plan.no_limits);
	CHECK(notes == 1); /* maxlogins, not enforced */
}

static void limits_hostile(void)
{
	static char text[PAM_FILE_MAX];

	limits_plan_init(&plan, 0);
	limits("alice hard nofile 10k\n"
	       "alice hard nofile 99999999999999999999999\n"
	       "alice hard fsize 18446744073709551614\n"
	       "alice hard\n"
	       "alice hard nofile 1 extra\n"
	       "alice bogus nofile 1\n"
	       "alice hard chroot /x\n"
	       "x:y hard nofile 1\n"
	       "alice hard priority 1000\n"
	       "alice - nonewprivs 2\n");
	CHECK(plan.lim[RLIMIT_NOFILE].src_hard == LIMITS_SRC_NONE);
	CHECK(plan.lim[RLIMIT_FSIZE].max == RLIM_INFINITY); /* KB that overflow: no limit */
	CHECK(!plan.priority_set && !plan.nonewprivs);
	CHECK(notes == 9);
	memset(text, 'x', 10000);
	strcpy(text + 10000, "\nalice hard nofile 5\n");
	limits(text);
	CHECK(notes == 1 && plan.lim[RLIMIT_NOFILE].max == 5);
	limits("@users -\n");
	CHECK(plan.no_limits);
	limits_plan_init(&plan, 0);
	limits("bob -\n* - nonewprivs 1\n");
	CHECK(!plan.no_limits && plan.nonewprivs);
}

static void limits_dir_sorted(void)
{
	char a[] = "20-b.conf", b[] = "10-a.conf", c[] = ".hidden.conf", d[] = "x.conf~",
	     e[] = "Z.conf", f[] = ".conf";
	char *names[] = { a, b, c, d, e, f };
	char conf[64];

	CHECK(limits_dir_order(names, 6) == 3);
	CHECK_STR(names[0], "10-a.conf");
	CHECK_STR(names[1], "20-b.conf");
	CHECK_STR(names[2], "Z.conf");
	notes = 0;
	CHECK(pam_limits_options("conf=/etc/x.conf debug set_all", conf, sizeof conf, count_note,
				 NULL, "f", 1));
	CHECK_STR(conf, "/etc/x.conf");
	CHECK(notes == 0);
	CHECK(!pam_limits_options("utmp_early bogus", conf, sizeof conf, count_note, NULL, "f", 1));
	CHECK(notes == 1 && conf[0] == '\0');
}

/* /proc/1/limits of systemd's PID 1 on the Debian disk, as the kernel formats it */
static const char systemd_pid1[] =
	"Limit                     Soft Limit           Hard Limit           Units     \n"
	"Max cpu time              unlimited            unlimited            seconds   \n"
	"Max stack size            8388608              unlimited            bytes     \n"
	"Max core file size        0                    unlimited            bytes     \n"
	"Max processes             3767                 3767                 processes \n"
	"Max open files            1048576              1048576              files     \n"
	"Max locked memory         125882368            125882368            bytes     \n"
	"Max nice priority         0                    0                    \n"
	"Max realtime timeout      unlimited            unlimited            us        \n";

/* Debian's pam_limits, measured there: every limit PID 1's, soft open files at most
 * 1024; limits.conf still wins */
static void limits_from_pid1(void)
{
	limits_plan_init(&plan, 1048576);
	limits_pid1_apply(&plan, systemd_pid1);
	CHECK(plan.lim[RLIMIT_NOFILE].cur == 1024 && plan.lim[RLIMIT_NOFILE].max == 1048576);
	CHECK(plan.lim[RLIMIT_MEMLOCK].cur == 125882368 && plan.lim[RLIMIT_MEMLOCK].max == 125882368);
	CHECK(plan.lim[RLIMIT_MEMLOCK].src_soft == LIMITS_SRC_KERNEL);
	CHECK(plan.lim[RLIMIT_STACK].cur == 8388608 && plan.lim[RLIMIT_STACK].max == RLIM_INFINITY);
	CHECK(plan.lim[RLIMIT_CORE].cur == 0 && plan.lim[RLIMIT_NPROC].max == 3767);
	CHECK(plan.lim[RLIMIT_NICE].src_hard == LIMITS_SRC_KERNEL && plan.lim[RLIMIT_NICE].max == 0);
	CHECK(plan.lim[RLIMIT_RTTIME].cur == RLIM_INFINITY);
	CHECK(plan.lim[RLIMIT_AS].src_soft == LIMITS_SRC_NONE); /* not in the text: left alone */
	limits("alice hard memlock 64\n* soft nofile 2048\n");
	CHECK(plan.lim[RLIMIT_MEMLOCK].max == 64 * 1024 && plan.lim[RLIMIT_MEMLOCK].cur == 125882368);
	CHECK(plan.lim[RLIMIT_NOFILE].cur == 2048 && plan.lim[RLIMIT_NOFILE].src_soft == LIMITS_SRC_DEFAULT);
	/* a soft limit under 1024 is kept */
	limits_plan_init(&plan, 0);
	limits_pid1_apply(&plan, "Max open files            512                  4096                 files\n");
	CHECK(plan.lim[RLIMIT_NOFILE].cur == 512 && plan.lim[RLIMIT_NOFILE].max == 4096);
}

static void limits_from_pid1_hostile(void)
{
	limits_plan_init(&plan, 0);
	limits_pid1_apply(&plan, "Max open files 4096 1024 files\n"       /* soft over hard */
				 "Max locked memory 10k 20k bytes\n"
				 "Max processes -1 5\n"
				 "Max file size 18446744073709551615 unlimited bytes\n"
				 "Max open filesx 1 2\n"
				 "Max stack size 99999999999999999999999 unlimited\n"
				 "Max cpu time\n"
				 "Max core file size 1\n"
				 "Max msgqueue size 100 200"); /* last line without newline: taken */
	for (int r = 0; r < RLIM_NLIMITS; r++)
		CHECK(r == RLIMIT_MSGQUEUE || plan.lim[r].src_soft == LIMITS_SRC_NONE);
	CHECK(plan.lim[RLIMIT_MSGQUEUE].cur == 100 && plan.lim[RLIMIT_MSGQUEUE].max == 200);
}

int main(void)
{
	RUN(debian_login_stack);
	RUN(missing_service_is_other);
	RUN(vendor_directory);
	RUN(lastlog_lines);
	RUN(include_loops_are_bounded);
	RUN(overlong_lines_are_skipped);
	RUN(environment_file);
	RUN(environment_is_bounded);
	RUN(pam_env_conf);
	RUN(pam_env_conf_hostile);
	RUN(pam_env_options_parse);
	RUN(pam_mail_folders);
	RUN(limits_conf);
	RUN(limits_hostile);
	RUN(limits_dir_sorted);
	RUN(limits_from_pid1);
	RUN(limits_from_pid1_hostile);
	return harness_done();
}
