/* ember-session's command line (session.h). Pure: no I/O. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "parse.h"
#include "passwd.h"

struct cursor {
	int argc, i;
	char **argv;
	char *err;
	size_t err_size;
};

static int usage_error(struct cursor *c, const char *opt, const char *value, const char *why)
{
	return cli_option_error(c->err, c->err_size, opt, value, why);
}

/* "--name value" or "--name=value": 1 with *value set, 0 when argv[i] is not --name,
 * -1 when the value is missing. */
static int option(struct cursor *c, const char *name, const char **value)
{
	const char *a = c->argv[c->i];
	size_t n = strlen(name);

	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*value = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (c->i + 1 >= c->argc)
		return usage_error(c, name, NULL, "needs a value");
	*value = c->argv[++c->i];
	return 1;
}

/* A PAM service is a file in /etc/pam.d: a plain name. */
static bool service_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 256 && s[0] != '.' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+") == n;
}

static bool tty_ok(const char *s)
{
	return str_starts_with(s, "/dev/") && s[5] && !strstr(s, "/../") &&
	       !str_starts_with(s, "/dev/../") && strlen(s) < 128 && !strchr(s, '\n');
}

static int one_option(struct cursor *c, struct session_options *o)
{
	const char *a = c->argv[c->i], *v = NULL;
	unsigned long n;
	uint32_t id;
	int r;

	if ((r = option(c, "--uid", &v)) != 0) {
		if (r < 0)
			return -1;
		if (passwd_parse_id(v, &id) < 0)
			return usage_error(c, "--uid", v, "not a valid user id");
		o->uid = id;
		o->uid_set = true;
	} else if ((r = option(c, "--service", &v)) != 0) {
		if (r < 0)
			return -1;
		if (!service_name_ok(v))
			return usage_error(c, "--service", v, "not a PAM service name");
		o->service = v;
	} else if ((r = option(c, "--tty", &v)) != 0) {
		if (r < 0)
			return -1;
		if (!tty_ok(v))
			return usage_error(c, "--tty", v, "expected a terminal under /dev/");
		o->tty = v;
	} else if ((r = option(c, "--address", &v)) != 0) {
		if (r < 0)
			return -1;
		if (!*v)
			return usage_error(c, "--address", v, "empty");
		o->address = v;
	} else if ((r = option(c, "--timeout", &v)) != 0) {
		if (r < 0)
			return -1;
		if (parse_ulong(v, 1, 3600, &n) < 0)
			return usage_error(c, "--timeout", v, "expected seconds, 1..3600");
		o->timeout_s = n;
	} else if ((r = option(c, "--report-fd", &v)) != 0) {
		if (r < 0)
			return -1;
		if (parse_ulong(v, 0, 65535, &n) < 0)
			return usage_error(c, "--report-fd", v, "expected a file descriptor number");
		o->report_fd = (int)n;
	} else {
		return usage_error(c, a, NULL, "unknown option");
	}
	return 0;
}

int session_parse_args(int argc, char **argv, struct session_options *o, char *err,
			size_t err_size)
{
	struct cursor c = { argc, 1, argv, err, err_size };

	memset(o, 0, sizeof *o);
	o->report_fd = -1;
	o->timeout_s = SESSION_TIMEOUT_DEFAULT_S;
	for (; c.i < argc; c.i++) {
		const char *a = argv[c.i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			o->help = true;
			return 0;
		}
		if (strcmp(a, "--version") == 0) {
			o->version = true;
			return 0;
		}
		if (strcmp(a, "--") == 0) {
			c.i++;
			break;
		}
		if (one_option(&c, o) < 0)
			return -1;
	}
	if (!o->uid_set)
		return usage_error(&c, "--uid", NULL, "missing");
	if (!o->service)
		return usage_error(&c, "--service", NULL, "missing");
	if (c.i >= argc || argv[c.i][0] != '/')
		return usage_error(&c, "--", NULL, "expected the absolute path of the command after --");
	o->rest = argv + c.i;
	return 0;
}
