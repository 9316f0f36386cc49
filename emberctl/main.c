/* emberctl: ask ember-init (PID 1) about services and the boot, and tell it what to do.
 * PID 1 sends plain records; every table, JSON document and chart is made here. See
 * man/emberctl.8.scd; the protocol is docs/control-protocol.md. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "calendar-cmd.h"
#include "cat.h"
#include "cli.h"
#include "client.h"
#include "ctl.h"
#include "enable.h"
#include "escape.h"
#include "exitcode.h"
#include "filter.h"
#include "job.h"
#include "journal.h"
#include "kill.h"
#include "log.h"
#include "parse.h"
#include "props.h"
#include "records.h"
#include "show.h"
#include "since.h"
#include "timers.h"
#include "unit-name.h"
#include "verify.h"

/* emberctl's own exit codes; 1, 2 and 4 come from PID 1's final status (ctl.h). */
enum {
	EXIT_NOT_RUNNING = 3, /* status: the service is not running */
	EXIT_BAD_REPLY = 5,   /* PID 1's reply broke the protocol */
};

/* Verbs emberctl answers from other replies and files (emberctl verbs, issue 17). */
enum client_verb { CV_NONE, CV_IS_ACTIVE, CV_IS_FAILED, CV_SHOW, CV_CAT, CV_DAEMON_RELOAD,
	CV_LIST_TIMERS /* timer units */, CV_LIST_PATHS /* path units */ };
static const char *const client_verbs[] = {
	"", "is-active", "is-failed", "show", "cat", "daemon-reload", "list-timers",
	"list-paths",
};

struct options {
	bool json, follow, quiet, value, all, failed;
	bool no_block;        /* start & co.: return once PID 1 took the request */
	bool no_start;        /* daemon-reload: the units it adds stay stopped (named) */
	long timeout_ms;
	const char *socket, *svg, *since, *signal_arg, *whom_arg, *lines_arg;
	const char *verb;
	char **names;         /* the words after the verb (argv's own strings) */
	size_t nnames;
	char **props;         /* show -p: names, split at commas */
	size_t nprops;
	struct unit_filter filter;
	bool tty;             /* stdout is a terminal */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: emberctl [--json] list [--failed] [--state=STATE,...] [PATTERN...]\n"
		"       emberctl [--json] list-timers\n"
		"       emberctl [--json] list-paths\n"
		"       emberctl [--json] status NAME\n"
		"       emberctl [--no-block] start|stop|restart|reload NAME...\n"
		"       emberctl reload | daemon-reload [--no-start]\n"
		"       emberctl kill [-s SIGNAL] [--kill-whom=main|control|all] NAME...\n"
		"       emberctl [-q] is-active|is-failed NAME...\n"
		"       emberctl show [-p PROP,...] [--value] NAME...\n"
		"       emberctl cat NAME...\n"
		"       emberctl log NAME [-f] [-n N] [--since TIME]\n"
		"       emberctl log --all [-n N] [--since TIME]\n"
		"       emberctl [--json] analyze [--svg FILE]\n"
		"       emberctl poweroff|reboot|halt|daemon-reexec\n"
		"       emberctl [--root DIR] enable|disable|mask|unmask|is-enabled NAME...\n"
		"       emberctl verify [--json] [--verbose] [--root=DIR] FILE|NAME...\n"
		"       emberctl calendar [--iterations N] [--json] EVENT...\n"
		"Talk to ember-init (PID 1) over its control socket (default %s).\n"
		"  --json          JSON output (list, list-timers, list-paths, status, analyze,\n"
		"                  verify)\n"
		"  --socket PATH   another control socket (also $%s)\n"
		"  --timeout SEC   give up when PID 1 has not answered within SEC seconds\n"
		"                  (default %d; 0: wait forever; log -f waits for lines forever)\n"
		"  --failed, --state=STATE,...  list: only units in these states\n"
		"  -s, --signal=SIG         kill: the signal (default SIGTERM)\n"
		"  --kill-whom=WHO          kill: main, control or all processes (default all)\n"
		"  --no-block      start, stop, restart, reload NAME: do not wait for the job to\n"
		"                  end (by default each waits, as systemctl does)\n"
		"  -q, --quiet              is-active, is-failed: print nothing\n"
		"  -p, --property=PROP,...  show: only these; --value: values only\n"
		"  -f, --follow    log: keep printing new lines\n"
		"  -n, --lines=N   log: the last N lines;  --since=TIME: lines from TIME on\n"
		"  -a, --all       log: every service, by time\n"
		"  --svg FILE      analyze: also write a boot chart (\"-\": stdout)\n"
		"  -h, --help      this text;  --version  the version\n"
		"Exit: 0 ok, 1 failed, 2 request refused, 3 not running (is-active: none\n"
		"      active), 4 no such service, 5 bad reply, 100 usage, 111 cannot reach PID 1.\n",
		CTL_SOCKET_PATH, CTL_SOCKET_ENV, CLIENT_TIMEOUT_MS_DEFAULT / 1000);
}

/* Options followed by a value in the next word (when not given as --opt=VALUE). */
static bool takes_value(const char *arg)
{
	static const char *const valued[] = {
		"--socket", "--svg", "--timeout", "--root", "-p", "--property", "-s",
		"--signal", "--kill-whom", "-n", "--lines", "--since", "--state",
	};
	for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
		if (strcmp(arg, valued[i]) == 0)
			return true;
	return false;
}

/* An untrusted word as it may be shown: control bytes escaped. */
static const char *shown(const char *s)
{
	static char buf[4][128];
	static unsigned next;
	char *b = buf[next++ % 4];

	return escape_text(s, b, sizeof buf[0]);
}

/* The value of an option given as "--opt VALUE", "--opt=VALUE" or, for a short one,
 * "-oVALUE"; NULL when arg is not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=' && opt[1] == '-')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return opt[1] != '-' ? argv[*i] + n : NULL;
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "%s: missing value (see --help)", opt);
	return argv[++*i];
}

static bool is(const char *a, const char *s1, const char *s2)
{
	return strcmp(a, s1) == 0 || (s2 && strcmp(a, s2) == 0);
}

static void add_props(struct options *o, char *list)
{
	for (char *p = list, *comma; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (*p)
			o->props[o->nprops++] = p;
	}
}

static void add_states(struct options *o, char *list)
{
	char err[128];

	if (strcmp(list, "help") == 0) {
		for (size_t i = 0; filter_state_at(i); i++)
			puts(filter_state_at(i));
		exit(EXIT_OK);
	}
	if (filter_add_states(&o->filter, list, err, sizeof err) < 0)
		die(EXIT_USAGE, "%s", err);
}

/* Options with a value; false when a is none of them. */
static bool valued_option(int argc, char **argv, int *i, struct options *o)
{
	const char *v;

	if ((v = option_value(argc, argv, i, "--socket"))) {
		o->socket = v;
	} else if ((v = option_value(argc, argv, i, "--timeout"))) {
		unsigned long sec;
		if (parse_ulong(v, 0, 86400, &sec) < 0)
			die(EXIT_USAGE, "--timeout %s: expected seconds, 0..86400", shown(v));
		o->timeout_ms = (long)sec * 1000;
	} else if ((v = option_value(argc, argv, i, "--svg"))) {
		o->svg = v;
	} else if ((v = option_value(argc, argv, i, "--property")) ||
		   (v = option_value(argc, argv, i, "-p"))) {
		add_props(o, (char *)v);
	} else if ((v = option_value(argc, argv, i, "--signal")) ||
		   (v = option_value(argc, argv, i, "-s"))) {
		o->signal_arg = v;
	} else if ((v = option_value(argc, argv, i, "--kill-whom"))) {
		o->whom_arg = v;
	} else if ((v = option_value(argc, argv, i, "--lines")) ||
		   (v = option_value(argc, argv, i, "-n"))) {
		o->lines_arg = v;
	} else if ((v = option_value(argc, argv, i, "--since"))) {
		o->since = v;
	} else if ((v = option_value(argc, argv, i, "--state"))) {
		add_states(o, (char *)v);
	} else {
		return false;
	}
	return true;
}

static bool flag_option(const char *a, struct options *o)
{
	if (is(a, "--json", NULL))
		o->json = true;
	else if (is(a, "-f", "--follow"))
		o->follow = true;
	else if (is(a, "-q", "--quiet"))
		o->quiet = true;
	else if (is(a, "--value", NULL))
		o->value = true;
	else if (is(a, "-a", "--all"))
		o->all = true;
	else if (is(a, "--failed", NULL))
		o->failed = true;
	else if (is(a, "--no-block", NULL))
		o->no_block = true;
	else if (is(a, "--no-start", NULL))
		o->no_start = true;
	else
		return false;
	return true;
}

static void parse_args(int argc, char **argv, struct options *o)
{
	bool words_only = false;

	memset(o, 0, sizeof *o);
	o->timeout_ms = CLIENT_TIMEOUT_MS_DEFAULT;
	o->names = calloc((size_t)argc, sizeof *o->names);
	o->props = calloc((size_t)argc * 2 + 1, sizeof *o->props);
	if (!o->names || !o->props)
		die(EXIT_SYSTEM, "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (words_only || a[0] != '-' || a[1] == '\0') {
			if (!o->verb)
				o->verb = a;
			else
				o->names[o->nnames++] = argv[i];
		} else if (strcmp(a, "--") == 0) {
			words_only = true;
		} else if (flag_option(a, o) || valued_option(argc, argv, &i, o)) {
			continue;
		} else if (is(a, "-h", "--help")) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			print_version("emberctl");
			exit(EXIT_OK);
		} else {
			die(EXIT_USAGE, "%s: unknown option (see --help)", shown(a));
		}
	}
	if (o->failed)
		add_states(o, (char[]){ "failed" });
	o->filter.pattern = o->names;
	o->tty = isatty(STDOUT_FILENO);
}

static long long clock_us(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long long now_us(void) { return clock_us(CLOCK_BOOTTIME); }

/* ---- checking the command line ------------------------------------------------------- */

static enum client_verb client_verb(const char *word)
{
	for (size_t v = 1; v < sizeof client_verbs / sizeof *client_verbs; v++)
		if (strcmp(word, client_verbs[v]) == 0)
			return (enum client_verb)v;
	return CV_NONE;
}

/* Each option only with the verbs it is for. */
static void check_options(const struct options *o, int verb, enum client_verb cv)
{
	const char *name = o->verb;
	bool list = cv == CV_NONE && verb == CTL_LIST, log = cv == CV_NONE && verb == CTL_LOG;
	bool analyze = cv == CV_NONE && verb == CTL_ANALYZE;
	bool status = cv == CV_NONE && verb == CTL_STATUS;
	bool kill = cv == CV_NONE && verb == CTL_KILL;
	bool job = cv == CV_NONE && (verb == CTL_START || verb == CTL_STOP ||
				     verb == CTL_RESTART || verb == CTL_RELOAD);

	if (o->json && !list && !status && !analyze && cv != CV_LIST_TIMERS &&
	    cv != CV_LIST_PATHS)
		die(EXIT_USAGE, "%s: --json is only for list, status and analyze", name);
	if (o->follow && !log)
		die(EXIT_USAGE, "%s: -f is only for log", name);
	if (o->svg && !analyze)
		die(EXIT_USAGE, "%s: --svg is only for analyze", name);
	if (o->svg && o->json && strcmp(o->svg, "-") == 0)
		die(EXIT_USAGE, "%s: --json and --svg - would both write to stdout", name);
	if ((o->filter.nstates || o->failed) && !list)
		die(EXIT_USAGE, "%s: --state and --failed are only for list", name);
	if ((o->signal_arg || o->whom_arg) && !kill)
		die(EXIT_USAGE, "%s: --signal and --kill-whom are only for kill", name);
	if (o->no_block && !job)
		die(EXIT_USAGE, "%s: --no-block is only for start, stop, restart and reload", name);
	if (o->no_start && cv != CV_DAEMON_RELOAD && !(cv == CV_NONE && verb == CTL_RELOAD && !o->nnames))
		die(EXIT_USAGE, "%s: --no-start is only for daemon-reload", name);
	if (o->quiet && cv != CV_IS_ACTIVE && cv != CV_IS_FAILED)
		die(EXIT_USAGE, "%s: -q is only for is-active, is-failed and enable & co.", name);
	if ((o->nprops || o->value) && cv != CV_SHOW)
		die(EXIT_USAGE, "%s: --property and --value are only for show", name);
	if ((o->lines_arg || o->since) && !log)
		die(EXIT_USAGE, "%s: -n and --since are only for log", name);
	if (o->all && !log && !list)
		die(EXIT_USAGE, "%s: --all is only for log (and list, which shows all anyway)", name);
}

/* The canonical name of a word, as PID 1 knows it ("sshd.service" -> "sshd"). */
static void canonical_name(const char *word, char *out)
{
	char name[UNIT_NAME_MAX];
	int rc = unit_name_canonical(word, name, sizeof name, NULL);

	if (rc == -2)
		die(EXIT_USAGE, "%s: ember has no units of this kind", shown(word));
	if (rc < 0 || strlen(name) >= CTL_NAME_MAX || !ctl_name_valid(name))
		die(EXIT_USAGE, "%s: invalid service name: expected 1-63 characters of "
				"A-Z a-z 0-9 _ . : @ - not starting with '.' or '-'", shown(word));
	memcpy(out, name, strlen(name) + 1);
}

/* Every name first: a bad one is a usage error before anything is done. */
static void check_names(struct options *o, size_t min, size_t max)
{
	char name[CTL_NAME_MAX];

	if (o->nnames < min)
		die(EXIT_USAGE, "%s: missing service name", o->verb);
	if (o->nnames > max)
		die(EXIT_USAGE, "%s: %s '%s'", o->verb, max ? "one service name only, got also"
		    : "takes no service name, got", shown(o->names[max]));
	for (size_t i = 0; i < o->nnames; i++) {
		canonical_name(o->names[i], name);
		strcpy(o->names[i], name); /* never longer than the word it came from */
	}
}

/* ---- talking to PID 1 ----------------------------------------------------------------- */

static const char *socket_path(const struct options *o)
{
	const char *path = o->socket ? o->socket : getenv(CTL_SOCKET_ENV);
	return path && *path ? path : CTL_SOCKET_PATH;
}

/* One request; the reply into r (text to stdout, error messages to errors, NULL: not
 * shown). Exits on a failure to reach PID 1 or a broken reply, unless offline_ok, then
 * returns -1. Returns the reply's status. */
static int exchange(const struct options *o, const struct ctl_request *req, struct reply *r,
		    FILE *errors, bool offline_ok)
{
	char request[CTL_REQUEST_MAX + 1], err[512];
	const char *path = socket_path(o);
	FILE *sink = NULL;
	int len, fd, res;

	len = ctl_request_format(req, request, sizeof request, err, sizeof err);
	if (len < 0)
		die(EXIT_USAGE, "%s", err);
	client_set_deadline(o->timeout_ms);
	fd = client_connect_timed(path, err, sizeof err);
	if (fd < 0 && offline_ok)
		return -1;
	if (fd < 0)
		die(EXIT_SYSTEM, "%s (is ember-init running?)", err);
	if (!errors && !(errors = sink = fopen("/dev/null", "we")))
		die(EXIT_SYSTEM, "/dev/null: %s", strerror(errno));
	reply_init(r, stdout, o->tty, errors);
	res = client_exchange_follow(fd, request, (size_t)len, r, err, sizeof err,
				     req->options & CTL_OPT_FOLLOW);
	close(fd);
	if (sink)
		fclose(sink);
	if (res == CLIENT_TIMEOUT || res == CLIENT_SYSTEM)
		die(EXIT_SYSTEM, "%s: %s", path, err);
	if (res == CLIENT_PROTOCOL)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: %s", err);
	if (r->status > CTL_STATUS_MAX)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: unknown exit status %d", r->status);
	return r->status;
}

static void load(struct reply *r, struct record_set *set)
{
	char err[256];

	if (records_load(r->records ? r->records : "", r->records_len, set, err, sizeof err) < 0)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: %s", err);
}

/* The unit an alias names (udev.service is systemd-udevd.service): ember-init knows it
 * by that name, as systemd does. Kept in buf; name itself when it is none. */
static const char *unalias(const char *name, char *buf, size_t size)
{
	return name && enable_alias_of(name, buf, size) ? buf : name;
}

static struct ctl_request request_for(enum ctl_verb verb, const char *name)
{
	struct ctl_request req = { .verb = verb };

	if (name)
		memcpy(req.name, name, strlen(name) + 1);
	return req;
}

/* ---- list, status, analyze ------------------------------------------------------------ */

static void write_svg(const char *path, const struct record_set *set,
		      const struct boot_times *bt)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");

	if (!f)
		die(EXIT_SYSTEM, "%s: cannot create: %s", path, strerror(errno));
	analyze_svg(f, set, bt);
	if (f != stdout && fclose(f) != 0)
		die(EXIT_SYSTEM, "%s: cannot write: %s", path, strerror(errno));
}

/* Keep the records the filter passes. */
static void filter_set(const struct unit_filter *f, struct record_set *set)
{
	size_t k = 0;

	for (size_t i = 0; i < set->count; i++)
		if (filter_match(f, &set->rec[i]))
			set->rec[k++] = set->rec[i];
	set->count = k;
}

/* status of a unit ember-init has not loaded: stopped, when its file exists (exit 3, as
 * systemctl's for an inactive unit); false when there is no such file either. */
static bool status_not_loaded(const struct options *o, const char *name)
{
	struct unit_files *uf = malloc(sizeof *uf);
	char canonical[UNIT_NAME_MAX];
	bool found;

	if (!uf)
		die(EXIT_SYSTEM, "out of memory");
	found = unit_name_canonical(name, canonical, sizeof canonical, NULL) == 0 &&
		unit_files_find(name, NULL, uf) == 0 && !uf->masked && uf->fragment[0];
	if (found) { /* named as PID 1's records name units: "sshd", "dbus.socket" */
		if (o->json)
			show_not_loaded_json(stdout, canonical, uf->fragment, enable_unit_file_state(name));
		else
			show_not_loaded(stdout, canonical, uf->fragment, enable_unit_file_state(name));
	}
	free(uf);
	return found;
}

static int cmd_view(struct options *o, enum ctl_verb verb)
{
	char alias[CTL_NAME_MAX];
	const char *name = verb == CTL_STATUS ? unalias(o->names[0], alias, sizeof alias) : NULL;
	struct ctl_request req = request_for(verb, name);
	struct record_set set;
	struct boot_times bt;
	struct reply r;
	char *said = NULL;
	size_t said_len = 0;
	/* status: PID 1's "no such service" waits until the unit's files were looked for */
	FILE *errors = verb == CTL_STATUS ? open_memstream(&said, &said_len) : stderr;
	int code = EXIT_OK, status = exchange(o, &req, &r, errors ? errors : stderr, false);

	if (errors && errors != stderr) {
		fclose(errors);
		if (status == CTL_STATUS_NO_SUCH_SERVICE && status_not_loaded(o, name))
			status = EXIT_NOT_RUNNING;
		else
			fputs(said, stderr);
		free(said);
	}
	if (status != CTL_STATUS_OK) {
		reply_free(&r);
		return status;
	}
	load(&r, &set);
	switch (verb) {
	case CTL_LIST:
		o->filter.npatterns = o->nnames;
		filter_set(&o->filter, &set);
		if (o->json)
			show_list_json(stdout, &set);
		else
			show_list(stdout, &set, now_us());
		break;
	case CTL_STATUS:
		if (set.count == 0)
			die(EXIT_BAD_REPLY, "bad reply from PID 1: no record for %s", o->names[0]);
		if (o->json)
			show_status_json(stdout, &set.rec[0]);
		else
			show_status(stdout, &set.rec[0], now_us());
		code = status_running(&set.rec[0]) ? EXIT_OK : EXIT_NOT_RUNNING;
		break;
	default:
		analyze_compute(&set, &bt);
		if (o->svg)
			write_svg(o->svg, &set, &bt);
		if (o->json)
			analyze_json(stdout, &set, &bt);
		else if (!o->svg || strcmp(o->svg, "-") != 0)
			analyze_print(stdout, &set, &bt);
	}
	records_free(&set);
	reply_free(&r);
	return code;
}

/* ---- start, stop, restart, reload, kill: each name in turn ---------------------------- */

static void kill_options(const struct options *o, struct ctl_request *req)
{
	req->signal = SIGTERM;
	if (o->signal_arg && (req->signal = kill_signal_parse(o->signal_arg)) < 0)
		die(EXIT_USAGE, "--signal=%s: expected a signal name (TERM, SIGHUP, RTMIN+3) or "
				"number 1-64", shown(o->signal_arg));
	if (!o->whom_arg || strcmp(o->whom_arg, "all") == 0)
		req->whom = CTL_WHOM_ALL;
	else if (strcmp(o->whom_arg, "main") == 0)
		req->whom = CTL_WHOM_MAIN;
	else if (strcmp(o->whom_arg, "control") == 0)
		req->whom = CTL_WHOM_CONTROL;
	else
		die(EXIT_USAGE, "--kill-whom=%s: expected main, control or all", shown(o->whom_arg));
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Wait for the end of the verb's job on the unit PID 1 accepted it for, as systemctl
 * waits for its job: read from the unit's status, a few ms apart at first (most jobs
 * end at once), then every 100 ms. 0 when it is done, 1 (and why) when it failed. */
static int wait_job(const struct options *o, enum ctl_verb verb, const char *name)
{
	for (long delay_ms = 2;; delay_ms = delay_ms < 50 ? delay_ms * 2 : 100) {
		struct ctl_request req = request_for(CTL_STATUS, name);
		struct record_set set;
		struct reply r;
		enum ctl_job_end end;

		if (exchange(o, &req, &r, NULL, false) != CTL_STATUS_OK) {
			reply_free(&r); /* unloaded: an instance is once it stopped */
			if (verb == CTL_STOP)
				return EXIT_OK;
			fprintf(stderr, "emberctl: %s: %s failed: the unit is gone\n", name,
				ctl_verb_name(verb));
			return CTL_STATUS_FAILED;
		}
		load(&r, &set);
		if (set.count == 0)
			die(EXIT_BAD_REPLY, "bad reply from PID 1: no record for %s", name);
		end = job_end_of(verb, &set.rec[0]);
		if (end == CTL_JOB_FAILED || end == CTL_JOB_DEPENDENCY)
			job_print_failure(stderr, verb, name, &set.rec[0]);
		records_free(&set);
		reply_free(&r);
		if (end != CTL_JOB_RUNNING)
			return end == CTL_JOB_DONE ? EXIT_OK : CTL_STATUS_FAILED;
		sleep_ms(delay_ms);
	}
}

/* As systemctl: every name is acted on; the exit status is the first failure's. The
 * jobs are all asked for first, then waited for (not kill's: it has none). */
static int cmd_each(const struct options *o, enum ctl_verb verb)
{
	bool wait = !o->no_block && verb != CTL_KILL;
	bool *accepted = calloc(o->nnames, sizeof *accepted);
	int code = EXIT_OK;

	if (!accepted)
		die(EXIT_SYSTEM, "out of memory");
	for (size_t i = 0; i < o->nnames; i++) {
		char alias[CTL_NAME_MAX];
		struct ctl_request req = request_for(verb, unalias(o->names[i], alias, sizeof alias));
		struct reply r;
		int status;
		if (verb == CTL_KILL)
			kill_options(o, &req);
		status = exchange(o, &req, &r, stderr, false);
		reply_free(&r);
		accepted[i] = status == CTL_STATUS_OK;
		if (code == EXIT_OK)
			code = status;
	}
	for (size_t i = 0; wait && i < o->nnames; i++) {
		char alias[CTL_NAME_MAX];
		int status = accepted[i] ? wait_job(o, verb, unalias(o->names[i], alias,
								      sizeof alias)) : EXIT_OK;
		if (code == EXIT_OK)
			code = status;
	}
	free(accepted);
	return code;
}

/* Verbs without a name (reload, poweroff, daemon-reexec ...): PID 1's text as it comes. */
static int cmd_plain(const struct options *o, enum ctl_verb verb)
{
	struct ctl_request req = request_for(verb, NULL);
	struct reply r;

	if (o->no_start)
		req.options |= CTL_OPT_NO_START;
	int status = exchange(o, &req, &r, stderr, false);

	reply_free(&r);
	return status;
}

/* ---- is-active, is-failed ------------------------------------------------------------- */

static const struct ctl_record *find_record(const struct record_set *set, const char *name)
{
	for (size_t i = 0; i < set->count; i++)
		if (strcmp(rec_str(&set->rec[i], "name"), name) == 0)
			return &set->rec[i];
	return NULL;
}

static void list_units(const struct options *o, struct reply *r, struct record_set *set)
{
	struct ctl_request req = request_for(CTL_LIST, NULL);
	int status = exchange(o, &req, r, stderr, false);

	if (status != CTL_STATUS_OK)
		exit(status);
	load(r, set);
}

/* systemctl's rule: 0 when at least one name is in a good state; else 4 when no name
 * has a unit file, else 3 (is-active) or 1 (is-failed). Without names, is-failed asks
 * whether the system is degraded (some unit failed). */
/* timer units: systemctl list-timers; path units: list-paths */
static int cmd_list_timers(struct options *o, bool paths)
{
	struct ctl_request req = request_for(CTL_LIST, NULL);
	struct record_set set;
	struct reply r;
	int status = exchange(o, &req, &r, stderr, false);

	if (status != CTL_STATUS_OK) {
		reply_free(&r);
		return status;
	}
	load(&r, &set);
	if (paths && o->json)
		show_paths_json(stdout, &set);
	else if (paths)
		show_paths(stdout, &set);
	else if (o->json)
		show_timers_json(stdout, &set);
	else
		show_timers(stdout, &set, (long long)time(NULL));
	records_free(&set);
	reply_free(&r);
	return EXIT_OK;
}

static int cmd_is_state(const struct options *o, bool active)
{
	struct record_set set;
	struct reply r;
	bool ok = false, not_found = true;
	char path[PATH_MAX];

	list_units(o, &r, &set);
	if (!active && o->nnames == 0) {
		for (size_t i = 0; i < set.count; i++)
			ok |= strcmp(rec_str(&set.rec[i], "active_state"), "failed") == 0;
		if (!o->quiet)
			puts(ok ? "degraded" : "running");
		return ok ? EXIT_OK : 1;
	}
	for (size_t i = 0; i < o->nnames; i++) {
		char alias[CTL_NAME_MAX];
		const struct ctl_record *rec = find_record(&set, unalias(o->names[i], alias, sizeof alias));
		const char *state = rec ? rec_str(rec, "active_state") : "inactive";
		if (!*state)
			state = "unknown";
		if (active)
			ok |= strcmp(state, "active") == 0 || strcmp(state, "reloading") == 0;
		else
			ok |= strcmp(state, "failed") == 0;
		if (rec || enable_find_unit_file(o->names[i], path, sizeof path) >= 0)
			not_found = false;
		if (!o->quiet)
			puts(state);
	}
	records_free(&set);
	reply_free(&r);
	return ok ? EXIT_OK : not_found ? CTL_STATUS_NO_SUCH_SERVICE : active ? EXIT_NOT_RUNNING : 1;
}

/* ---- show, cat -------------------------------------------------------------------------- */

/* The status record of name into set (empty when PID 1 does not know it or does not
 * run). */
static void status_of(const struct options *o, const char *name, struct reply *r,
		      struct record_set *set)
{
	struct ctl_request req = request_for(CTL_STATUS, name);
	int status = exchange(o, &req, r, NULL, true);

	set->count = 0;
	set->rec = NULL;
	if (status == CTL_STATUS_OK)
		load(r, set);
	else if (status > 0 && status != CTL_STATUS_NO_SUCH_SERVICE)
		exit(status);
}

static int cmd_show(const struct options *o)
{
	struct props_filter pf = { o->props, o->nprops, o->value };
	long long boot_to_real = clock_us(CLOCK_REALTIME) - now_us();

	for (size_t i = 0; i < o->nnames; i++) {
		struct record_set set;
		struct reply r;
		struct unit_files *uf = malloc(sizeof *uf);
		const struct ctl_record *rec;
		const char *state;
		char alias[CTL_NAME_MAX];
		const char *name = unalias(o->names[i], alias, sizeof alias);
		if (!uf)
			die(EXIT_SYSTEM, "out of memory");
		status_of(o, name, &r, &set);
		rec = set.count ? &set.rec[0] : NULL;
		state = enable_unit_file_state(name);
		if (rec && strcmp(state, "not-found") == 0)
			state = ""; /* loaded from outside the usual directories (ember.services=) */
		struct props_in in = {
			name, rec,
			unit_files_find(name, rec ? rec_str(rec, "fragment_path") : NULL, uf) == 0
				? uf : NULL,
			state, boot_to_real,
		};
		if (i > 0 && !o->value)
			putchar('\n');
		props_print(stdout, &in, &pf);
		free(uf);
		records_free(&set);
		reply_free(&r);
	}
	return EXIT_OK;
}

static int cmd_cat(const struct options *o)
{
	int code = EXIT_OK;
	bool printed = false;

	for (size_t i = 0; i < o->nnames; i++) {
		struct record_set set;
		struct reply r;
		struct unit_files *uf = malloc(sizeof *uf);
		char full[UNIT_NAME_MAX + 8];
		if (!uf)
			die(EXIT_SYSTEM, "out of memory");
		status_of(o, o->names[i], &r, &set);
		unit_name_full(o->names[i], full, sizeof full);
		if (unit_files_find(o->names[i], set.count ? rec_str(&set.rec[0], "fragment_path")
						       : NULL, uf) < 0) {
			log_error("No files found for %s.", shown(full));
			if (code == EXIT_OK)
				code = 1;
		} else {
			if (printed)
				putchar('\n');
			printed = true;
			if (uf->masked)
				printf("# Unit %s is masked.\n", shown(full));
			else if (unit_files_print(stdout, uf, o->tty) < 0 && code == EXIT_OK)
				code = 1;
		}
		free(uf);
		records_free(&set);
		reply_free(&r);
	}
	return code;
}

/* ---- log -------------------------------------------------------------------------------- */

/* One unit's stamped log into j. Returns the cursor to follow on from, or 0. A unit
 * gone since the list (--all) adds nothing. */
static unsigned long long journal_of(const struct options *o, const char *name,
				     struct journal *j, bool must_exist)
{
	struct ctl_request req = request_for(CTL_LOG, name);
	struct record_set set;
	struct reply r;
	unsigned long long cursor = 0;
	char err[256];
	int status;

	req.options = CTL_OPT_STAMPED;
	status = exchange(o, &req, &r, must_exist ? stderr : NULL, false);
	if (status != CTL_STATUS_OK) {
		reply_free(&r);
		if (must_exist || status != CTL_STATUS_NO_SUCH_SERVICE)
			exit(status);
		return 0;
	}
	load(&r, &set);
	if (journal_add(j, name, &set, &cursor, err, sizeof err) < 0)
		die(EXIT_SYSTEM, "%s", err);
	records_free(&set);
	reply_free(&r); /* j holds copies of the text */
	return cursor;
}

/* Nothing in ember's buffer for a service: where journald runs, its output is there
 * (StandardOutput=journal, systemd's default). Said on stderr, so pipes stay clean. */
static void hint_journal(const char *name)
{
	if (access("/run/systemd/journal/stdout", F_OK) == 0)
		fprintf(stderr, "emberctl: no lines for %s in ember's buffer; where journald runs, "
			"services' output goes to the journal: journalctl -u %s\n", shown(name),
			shown(name));
}

static int cmd_log(const struct options *o)
{
	bool stamped = o->lines_arg || o->since || o->all;
	long long boot_to_real = clock_us(CLOCK_REALTIME) - now_us(), since_ms = -1;
	long lines = -1;
	struct journal j = { 0 };
	unsigned long long cursor = 0;
	char err[256];

	if (o->all && o->follow)
		die(EXIT_USAGE, "log: -f follows one service, not --all");
	if (!stamped) {
		struct ctl_request req = request_for(CTL_LOG, o->names[0]);
		struct reply r;
		int status;
		req.options = o->follow ? CTL_OPT_FOLLOW : 0;
		status = exchange(o, &req, &r, stderr, false);
		if (status == CTL_STATUS_OK && r.text_len == 0 && !o->follow)
			hint_journal(o->names[0]);
		reply_free(&r);
		return status;
	}
	if (o->lines_arg) {
		unsigned long n;
		if (parse_ulong(o->lines_arg, 0, 1000000, &n) < 0)
			die(EXIT_USAGE, "--lines=%s: expected a number of lines, 0..1000000",
			    shown(o->lines_arg));
		lines = (long)n;
	}
	if (o->since) {
		long long real;
		if (since_parse(o->since, clock_us(CLOCK_REALTIME), &real, err, sizeof err) < 0)
			die(EXIT_USAGE, "%s", err);
		since_ms = (real - boot_to_real) / 1000;
		if (since_ms < 0)
			since_ms = 0;
	}
	if (o->all) {
		struct record_set set;
		struct reply r;
		list_units(o, &r, &set);
		for (size_t i = 0; i < set.count; i++) {
			char *name = strdup(rec_str(&set.rec[i], "name"));
			if (!name)
				die(EXIT_SYSTEM, "out of memory");
			journal_of(o, name, &j, false); /* name lives as long as the journal */
		}
		records_free(&set);
		reply_free(&r);
	} else {
		cursor = journal_of(o, o->names[0], &j, true);
	}
	journal_sort(&j);
	journal_print(stdout, &j, journal_first(&j, since_ms, lines), o->all, boot_to_real, o->tty);
	fflush(stdout);
	if (j.count == 0 && !o->all && !o->follow)
		hint_journal(o->names[0]);
	if (o->follow) {
		struct ctl_request req = request_for(CTL_LOG, o->names[0]);
		struct reply r;
		req.options = CTL_OPT_FOLLOW;
		req.from = cursor;
		int status = exchange(o, &req, &r, stderr, false);
		reply_free(&r);
		return status;
	}
	return EXIT_OK;
}

/* ---- main --------------------------------------------------------------------------------- */

/* The verb's position: the first word that is not an option or an option's value. */
static int verb_index(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (takes_value(argv[i]))
			i++;
		else if (strcmp(argv[i], "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		else if (argv[i][0] != '-' || argv[i][1] == '\0')
			return i;
	}
	return -1;
}

/* verify and calendar run offline (emberctl/verify.c, calendar-cmd.c): they never talk
 * to PID 1. */
static bool is_offline(int argc, char **argv, const char *name)
{
	int v = verb_index(argc, argv);
	char *verb;

	if (v < 0 || strcmp(argv[v], name) != 0)
		return false;
	verb = argv[v]; /* argv becomes "verify" followed by every other word, in order */
	memmove(argv + 2, argv + 1, (size_t)(v - 1) * sizeof *argv);
	argv[1] = verb;
	return true;
}

static int run(struct options *o)
{
	enum client_verb cv;
	int verb = -1;

	if (!o->verb)
		die(EXIT_USAGE, "missing command (see --help)");
	cv = client_verb(o->verb);
	if (cv == CV_NONE && (verb = ctl_verb_from_name(o->verb)) < 0)
		die(EXIT_USAGE, "%s: unknown command (see --help)", shown(o->verb));
	check_options(o, verb, cv);
	switch (cv) {
	case CV_IS_ACTIVE: case CV_IS_FAILED:
		check_names(o, cv == CV_IS_ACTIVE, (size_t)-1);
		return cmd_is_state(o, cv == CV_IS_ACTIVE);
	case CV_SHOW: check_names(o, 1, (size_t)-1); return cmd_show(o);
	case CV_CAT: check_names(o, 1, (size_t)-1); return cmd_cat(o);
	case CV_LIST_TIMERS: check_names(o, 0, 0); return cmd_list_timers(o, false);
	case CV_LIST_PATHS: check_names(o, 0, 0); return cmd_list_timers(o, true);
	case CV_DAEMON_RELOAD: /* systemctl's name for reload without a name */
		check_names(o, 0, 0);
		return cmd_plain(o, CTL_RELOAD);
	case CV_NONE: break;
	}
	switch ((enum ctl_verb)verb) {
	case CTL_LIST: return cmd_view(o, CTL_LIST); /* names are patterns */
	case CTL_STATUS: check_names(o, 1, 1); return cmd_view(o, CTL_STATUS);
	case CTL_ANALYZE: check_names(o, 0, 0); return cmd_view(o, CTL_ANALYZE);
	case CTL_START: case CTL_STOP: case CTL_RESTART: case CTL_KILL:
		check_names(o, 1, (size_t)-1);
		return cmd_each(o, (enum ctl_verb)verb);
	case CTL_RELOAD:
		check_names(o, 0, (size_t)-1);
		return o->nnames ? cmd_each(o, CTL_RELOAD) : cmd_plain(o, CTL_RELOAD);
	case CTL_LOG: check_names(o, !o->all, !o->all); return cmd_log(o);
	default: check_names(o, 0, 0); return cmd_plain(o, (enum ctl_verb)verb);
	}
}

int main(int argc, char **argv)
{
	struct options o;
	int code;

	log_open("emberctl");
	if (is_offline(argc, argv, "verify"))
		return verify_main(argc - 1, argv + 1);
	if (is_offline(argc, argv, "calendar")) /* timer units */
		return calendar_main(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) { /* enable & co. work on files, not on PID 1 */
		if (takes_value(argv[i])) {
			i++;
			continue;
		}
		if (argv[i][0] != '-') {
			if (enable_is_verb(argv[i]))
				return enable_main(argc, argv);
			break;
		}
	}
	parse_args(argc, argv, &o);
	code = run(&o);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_SYSTEM, "stdout: cannot write: %s", strerror(errno));
	return code;
}
