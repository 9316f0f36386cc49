/* emberctl: ask ember-init (PID 1) about services and the boot, and tell it what to do.
 * PID 1 sends plain records; every table, JSON document and chart is made here. See
 * man/emberctl.8.scd; the protocol is docs/control-protocol.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "cli.h"
#include "client.h"
#include "ctl.h"
#include "enable.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "records.h"
#include "show.h"
#include "verify.h"

/* emberctl's own exit codes; 1, 2 and 4 come from PID 1's final status (ctl.h). */
enum {
	EXIT_NOT_RUNNING = 3, /* status: the service is not running */
	EXIT_BAD_REPLY = 5,   /* PID 1's reply broke the protocol */
};

struct options {
	bool json, follow;
	long timeout_ms;
	const char *socket, *svg;
	const char *verb, *name;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: emberctl [--socket PATH] [--json] list\n"
		"       emberctl [--socket PATH] [--json] status NAME\n"
		"       emberctl [--socket PATH] start|stop|restart NAME\n"
		"       emberctl [--socket PATH] reload [NAME]\n"
		"       emberctl [--socket PATH] log NAME [-f]\n"
		"       emberctl [--socket PATH] [--json] analyze [--svg FILE]\n"
		"       emberctl [--socket PATH] poweroff|reboot|halt\n"
		"       emberctl [--root DIR] enable|disable|mask|unmask|is-enabled NAME...\n"
		"       emberctl verify [--json] [--verbose] [--root=DIR] FILE|NAME...\n"
		"       emberctl [--socket PATH] daemon-reexec\n"
		"Talk to ember-init (PID 1) over its control socket (default %s).\n"
		"  --json         JSON output (list, status, analyze, verify)\n"
		"  --socket PATH  another control socket (also $%s)\n"
		"  -f, --follow   log: keep printing new lines\n"
		"  --svg FILE     analyze: also write a boot chart (\"-\": stdout)\n"
		"  --timeout SEC  give up when PID 1 has not answered within SEC seconds\n"
		"                 (default %d; 0: wait forever; log -f waits for lines forever)\n"
		"  -h, --help     this text;  --version  the version\n"
		"Exit: 0 ok, 1 failed, 2 request refused, 3 not running, 4 no such service,\n"
		"      5 bad reply, 100 usage, 111 cannot reach PID 1.\n",
		CTL_SOCKET_PATH, CTL_SOCKET_ENV, CLIENT_TIMEOUT_MS_DEFAULT / 1000);
}

/* The value of an option given as "--opt VALUE" or "--opt=VALUE", or NULL when arg is
 * not that option. */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "%s: missing value (see --help)", opt);
	return argv[++*i];
}

static void parse_args(int argc, char **argv, struct options *o)
{
	bool words_only = false;
	const char *v;

	memset(o, 0, sizeof *o);
	o->timeout_ms = CLIENT_TIMEOUT_MS_DEFAULT;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (words_only || a[0] != '-' || a[1] == '\0') {
			if (!o->verb)
				o->verb = a;
			else if (!o->name)
				o->name = a;
			else
				die(EXIT_USAGE, "%s: unexpected argument (see --help)", a);
		} else if (strcmp(a, "--") == 0) {
			words_only = true;
		} else if (strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (strcmp(a, "-f") == 0 || strcmp(a, "--follow") == 0) {
			o->follow = true;
		} else if ((v = option_value(argc, argv, &i, "--socket"))) {
			o->socket = v;
		} else if ((v = option_value(argc, argv, &i, "--timeout"))) {
			unsigned long sec;
			if (parse_ulong(v, 0, 86400, &sec) < 0)
				die(EXIT_USAGE, "--timeout %.40s: expected seconds, 0..86400", v);
			o->timeout_ms = (long)sec * 1000;
		} else if ((v = option_value(argc, argv, &i, "--svg"))) {
			o->svg = v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			print_version("emberctl");
			exit(EXIT_OK);
		} else {
			die(EXIT_USAGE, "%s: unknown option (see --help)", a);
		}
	}
}

/* Check the options against the verb and format the request into buf; returns its
 * length. */
static size_t build_request(const struct options *o, struct ctl_request *req, char *buf,
			    size_t size)
{
	char err[256];
	int verb, len;

	memset(req, 0, sizeof *req);
	if (!o->verb)
		die(EXIT_USAGE, "missing command (see --help)");
	verb = ctl_verb_from_name(o->verb);
	if (verb < 0)
		die(EXIT_USAGE, "%s: unknown command (see --help)", o->verb);
	req->verb = (enum ctl_verb)verb;
	if (o->json && req->verb != CTL_LIST && req->verb != CTL_STATUS &&
	    req->verb != CTL_ANALYZE)
		die(EXIT_USAGE, "%s: --json is only for list, status and analyze", o->verb);
	if (o->follow && req->verb != CTL_LOG)
		die(EXIT_USAGE, "%s: -f is only for log", o->verb);
	if (o->svg && req->verb != CTL_ANALYZE)
		die(EXIT_USAGE, "%s: --svg is only for analyze", o->verb);
	if (o->svg && o->json && strcmp(o->svg, "-") == 0)
		die(EXIT_USAGE, "%s: --json and --svg - would both write to stdout", o->verb);
	if (ctl_verb_takes_name(req->verb) && !o->name)
		die(EXIT_USAGE, "%s: missing service name", o->verb);
	if (!ctl_verb_takes_name(req->verb) && !ctl_verb_name_optional(req->verb) && o->name)
		die(EXIT_USAGE, "%s: takes no service name, got '%s'", o->verb, o->name);
	if (o->name && (strlen(o->name) >= sizeof req->name || !ctl_name_valid(o->name)))
		die(EXIT_USAGE, "%.80s: invalid service name: expected 1-63 characters of "
				"A-Z a-z 0-9 _ . : - not starting with '.' or '-'", o->name);
	if (o->name)
		memcpy(req->name, o->name, strlen(o->name) + 1);
	if (o->follow)
		req->options |= CTL_OPT_FOLLOW;
	len = ctl_request_format(req, buf, size, err, sizeof err);
	if (len < 0)
		die(EXIT_USAGE, "%s", err);
	return (size_t)len;
}

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void load(struct reply *r, struct record_set *set)
{
	char err[256];

	if (records_load(r->records ? r->records : "", r->records_len, set, err, sizeof err) < 0)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: %s", err);
}

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

/* Show the records of a successful reply; returns the exit code. */
static int show(const struct options *o, enum ctl_verb verb, struct reply *r)
{
	struct record_set set;
	struct boot_times bt;
	int code = EXIT_OK;

	if (verb != CTL_LIST && verb != CTL_STATUS && verb != CTL_ANALYZE)
		return EXIT_OK;
	load(r, &set);
	switch (verb) {
	case CTL_LIST:
		if (o->json)
			show_list_json(stdout, &set);
		else
			show_list(stdout, &set, now_us());
		break;
	case CTL_STATUS:
		if (set.count == 0)
			die(EXIT_BAD_REPLY, "bad reply from PID 1: no record for %s", o->name);
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
	return code;
}

/* The verb's position: the first word that is not an option or an option's value. */
static int verb_index(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--socket") == 0 || strcmp(argv[i], "--svg") == 0)
			i++;
		else if (strcmp(argv[i], "--") == 0)
			return i + 1 < argc ? i + 1 : -1;
		else if (argv[i][0] != '-' || argv[i][1] == '\0')
			return i;
	}
	return -1;
}

/* verify runs offline (emberctl/verify.c): it never talks to PID 1. */
static bool is_verify(int argc, char **argv)
{
	int v = verb_index(argc, argv);
	char *verb;

	if (v < 0 || strcmp(argv[v], "verify") != 0)
		return false;
	verb = argv[v]; /* argv becomes "verify" followed by every other word, in order */
	memmove(argv + 2, argv + 1, (size_t)(v - 1) * sizeof *argv);
	argv[1] = verb;
	return true;
}

int main(int argc, char **argv)
{
	struct options o;
	struct ctl_request req;
	struct reply r;
	char request[CTL_REQUEST_MAX + 1], err[512];
	const char *path;
	size_t len;
	int fd, res, code;

	log_open("emberctl");
	if (is_verify(argc, argv))
		return verify_main(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) { /* enable & co. work on files, not on PID 1 */
		if (strcmp(argv[i], "--root") == 0 || strcmp(argv[i], "--socket") == 0 ||
		    strcmp(argv[i], "--svg") == 0) {
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
	len = build_request(&o, &req, request, sizeof request);
	path = o.socket ? o.socket : getenv(CTL_SOCKET_ENV);
	if (!path || !*path)
		path = CTL_SOCKET_PATH;

	client_set_deadline(o.timeout_ms);
	fd = client_connect_timed(path, err, sizeof err);
	if (fd < 0)
		die(EXIT_SYSTEM, "%s (is ember-init running?)", err);
	reply_init(&r, stdout, isatty(STDOUT_FILENO), stderr);
	res = client_exchange_follow(fd, request, len, &r, err, sizeof err, o.follow);
	close(fd);
	if (res == CLIENT_TIMEOUT)
		die(EXIT_SYSTEM, "%s: %s", path, err);
	if (res == CLIENT_PROTOCOL)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: %s", err);
	if (res == CLIENT_SYSTEM)
		die(EXIT_SYSTEM, "%s: %s", path, err);
	if (r.status > CTL_STATUS_MAX)
		die(EXIT_BAD_REPLY, "bad reply from PID 1: unknown exit status %d", r.status);
	code = r.status == CTL_STATUS_OK ? show(&o, req.verb, &r) : r.status;
	reply_free(&r);
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_SYSTEM, "stdout: cannot write: %s", strerror(errno));
	return code;
}
