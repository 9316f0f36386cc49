#ifndef EMBER_SESSION_PAM_H
#define EMBER_SESSION_PAM_H
/* What a service's PAM stack asks of pam_env, pam_limits and pam_mail, done without PAM
 * (ember-session(8) "PAM STACK", docs/services.md "PAMName="). Three pure parsers:
 *
 *   pamstack.c  /etc/pam.d/NAME or /usr/lib/pam.d/NAME (else "other", found the same
 *               way), its @include/include/substack files (the same two places):
 *               the pam_env.so, pam_limits.so and pam_mail.so lines, in the order PAM runs them
 *               under systemd (pam_setcred's auth stack, then pam_open_session's
 *               session stack);
 *   pamenv.c    /etc/environment-style files and pam_env.conf, applied to an
 *               environment list of fixed size; pam_mail's $MAIL;
 *   pamlimits.c limits.conf and limits.d, into the limits to set.
 *
 * None of them opens a file: pamstack.c reads through a callback, the others take
 * text. main.c reads the files (regular files of at most PAM_FILE_MAX bytes) and does
 * the setenv/setrlimit. Every message about a skipped line goes to a callback; the
 * file's text in it is not escaped (the callback escapes it when logging). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define PAM_FILE_MAX 65536  /* bytes of one configuration file */
#define PAM_LINE_MAX 8192   /* a logical line (continuations joined), as pam_env's */
#define PAM_DEPTH_MAX 6     /* a service file and 5 levels of includes */
#define PAM_ENTRIES_MAX 16  /* pam_env and pam_limits lines in one stack */
#define PAM_ARGS_MAX 512    /* bytes of one line's module arguments */
#define PAM_DIR "/etc/pam.d"
#define PAM_VENDOR_DIR "/usr/lib/pam.d" /* Linux-PAM's vendordir, where /etc has no file */

/* A message about one line of one file: why it was skipped or what was ignored. */
typedef void pam_note_fn(void *ctx, const char *file, unsigned line, const char *why);

/* The next logical line of text[*pos..len): '#' to the end of a physical line is a
 * comment, a line ending in '\' (before any comment, trailing blanks ignored) goes on
 * on the next one. The line in out (NUL-terminated), its first physical line number in
 * *lineno. 1, 0 at the end, -1 when it does not fit out (skipped, *pos past it). */
int pam_next_line(const char *text, size_t len, size_t *pos, unsigned *lineno, char *out,
		  size_t size);

/* ---- the stack ---- */
enum pam_module { PAM_MOD_ENV, PAM_MOD_LIMITS, PAM_MOD_MAIL, PAM_MOD_LASTLOG };

struct pam_entry {
	enum pam_module module;
	bool auth;                /* an auth line (pam_setcred), else session */
	bool optional;            /* control "optional": a failure does not stop the start */
	char args[PAM_ARGS_MAX];  /* the module arguments, blank-separated */
	char file[64];            /* where it was found (for messages), cut to fit */
	unsigned line;
};

struct pam_stack {
	struct pam_entry entries[PAM_ENTRIES_MAX];
	size_t count;
	char service_file[300]; /* the file used: .../pam.d/NAME or .../pam.d/other */
	char buf[PAM_DEPTH_MAX][PAM_FILE_MAX + 1]; /* one file per include level */
};

/* Read path into buf (size bytes, NUL-terminated). Its length, or -1 with errno
 * (ENOENT: no such file; EFBIG: too large; EINVAL: not a regular file). */
typedef ssize_t pam_read_fn(void *ctx, const char *path, char *buf, size_t size);

/* The entries of service's stack: PAM_DIR/service or PAM_VENDOR_DIR/service, else
 * "other" from the same two when neither exists. auth lines first (only pam_env's: pam_limits has no auth part), then
 * session lines, each in file order with includes expanded where they stand. 0; 1 when
 * neither file exists (no entries); -1 with a message in err when the service file
 * cannot be read (an include that cannot be read, or one nested too deep, is noted and
 * skipped, as is an entry beyond PAM_ENTRIES_MAX). */
int pam_stack_load(const char *service, pam_read_fn *read, void *read_ctx, pam_note_fn *note,
		   void *note_ctx, struct pam_stack *out, char *err, size_t err_size);

/* ---- pam_env ---- */
#define PENV_VARS_MAX 256
#define PENV_TEXT_MAX 65536
#define PENV_VALUE_MAX 8192  /* an expanded value, as pam_env's MAX_ENV */

/* An environment of fixed size: "NAME=value" strings in vars (NULL-terminated) over
 * text. A full list refuses the change (and says so: full). */
struct penv {
	char *vars[PENV_VARS_MAX + 1];
	size_t count, used;
	bool full;
	char text[PENV_TEXT_MAX];
};

void penv_init(struct penv *e, char *const *envp);
const char *penv_get(const struct penv *e, const char *name);
int penv_set(struct penv *e, const char *name, const char *value);
void penv_unset(struct penv *e, const char *name);

/* pam_env's options from an entry's arguments. */
struct pam_env_options {
	char conffile[256], envfile[256];
	bool readenv, user_readenv;
};
#define PAM_ENV_CONFFILE "/etc/security/pam_env.conf"
#define PAM_ENV_ENVFILE "/etc/environment"
void pam_env_options(const char *args, struct pam_env_options *o, pam_note_fn *note, void *ctx,
		     const char *file, unsigned line);

/* What @{...} expands to: the user's name, home and shell, the terminal. */
struct pam_items {
	const char *user, *home, *shell, *tty;
};

/* An environment file (/etc/environment, envfile=): [export ]NAME=VALUE sets, NAME
 * alone unsets, as pam_env reads it. */
void pam_env_file_apply(struct penv *e, const char *text, size_t len, const char *file,
			pam_note_fn *note, void *ctx);
/* pam_env.conf: NAME [DEFAULT=[value]] [OVERRIDE=[value]], ${VAR} and @{ITEM} expanded.
 * 0, or -1 when a line stopped the file (an unterminated ${, a value too long after
 * expansion): as pam_env, the envfile is then not read either. */
int pam_env_conf_apply(struct penv *e, const char *text, size_t len, const char *file,
			const struct pam_items *items, pam_note_fn *note, void *ctx);

/* ---- pam_mail: only its $MAIL (its "You have mail" goes nowhere for a service) ---- */
#define PAM_MAIL_DIR "/var/mail" /* Debian's; the module's default */
/* The user's mail folder as pam_mail names it from an entry's arguments (dir=DIR,
 * "~/x" or "~x" under the home directory, hash=N for N levels of one-letter
 * directories), into out: 1, MAIL is to be set to it; 0, noenv; -1, pam_mail fails (a
 * "~" path with nothing after it, or no room), with a note. */
int pam_mail_folder(const char *args, const char *user, const char *home, char *out,
		    size_t size, pam_note_fn *note, void *ctx, const char *file, unsigned line);

/* ---- pam_lastlog ---- */
#define PAM_LASTLOG_NO_UPDATE 0x1u /* noupdate: no record written at all */
#define PAM_LASTLOG_NO_WTMP 0x2u   /* nowtmp: lastlog only */
/* pam_lastlog's options that change what it writes (the rest only change what it would
 * print, which goes nowhere for a service: accepted). Unknown ones are noted. */
unsigned pam_lastlog_options(const char *args, pam_note_fn *note, void *ctx, const char *file,
			     unsigned line);

/* ---- pam_limits ---- */
#define PAM_LIMITS_CONF "/etc/security/limits.conf"
#define PAM_LIMITS_DIR "/etc/security/limits.d"

struct limits_user {
	const char *name;
	uid_t uid;
	gid_t gid;                      /* primary */
	const gid_t *groups;            /* all, the primary included */
	const char *const *group_names; /* their names ("" when unknown) */
	size_t ngroups;
};

/* KERNEL: PID 1's limit, the default of every limit the files leave alone (set_all, and
 * Debian's pam_limits without it) */
enum { LIMITS_SRC_USER, LIMITS_SRC_GROUP, LIMITS_SRC_DEFAULT = 4, LIMITS_SRC_KERNEL = 5,
       LIMITS_SRC_NONE = 6 };
/* The soft open-files limit a session gets from PID 1's at most (select() cannot take an
 * fd past 1023): measured with Debian 12's pam_limits. */
#define LIMITS_PID1_NOFILE_SOFT_MAX 1024

struct limits_plan {
	struct {
		rlim_t cur, max;
		uint8_t src_soft, src_hard; /* LIMITS_SRC_*: the more specific wins */
	} lim[RLIM_NLIMITS];
	bool priority_set, nonewprivs, no_limits; /* no_limits: a "DOMAIN -" line matched */
	int priority;
	rlim_t nr_open;                           /* what nofile "unlimited" means */
};

void limits_plan_init(struct limits_plan *p, rlim_t nr_open);
/* PID 1's limits as the defaults (text: /proc/1/limits): each limit's soft and hard value
 * with source LIMITS_SRC_KERNEL, the soft open-files limit held to
 * LIMITS_PID1_NOFILE_SOFT_MAX. Lines that do not parse are left out. */
void limits_pid1_apply(struct limits_plan *p, const char *text);
/* One limits file into the plan (call for limits.conf, then each limits.d file). */
void limits_conf_apply(struct limits_plan *p, const char *text, size_t len, const char *file,
		       const struct limits_user *u, pam_note_fn *note, void *ctx);
/* pam_limits' conf= from an entry's arguments ("" when not given). True with set_all. */
bool pam_limits_options(const char *args, char *conf, size_t size, pam_note_fn *note,
			void *ctx, const char *file, unsigned line);
/* limits.d's files to read: names ending in ".conf", not hidden, sorted as strcmp
 * does ("C" locale); names is changed in place. The count kept. */
size_t limits_dir_order(char **names, size_t n);
#endif
