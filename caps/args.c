#include "args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "parse.h"
#include "passwd.h"

int caps_parse_groups(const char *s, gid_t *groups, size_t cap, size_t *count)
{
	char item[16];

	*count = 0;
	if (*s == '\0')
		return 0;
	for (const char *p = s;; ) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		uint32_t id;

		if (len == 0 || len >= sizeof item) {
			errno = EINVAL;
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (passwd_parse_id(item, &id) < 0)
			return -1;
		if (*count == cap) {
			errno = E2BIG;
			return -1;
		}
		groups[(*count)++] = id;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* One option's value: "--opt=value" or "--opt value". */
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

static int parse_fd(struct cursor *c, const char *opt, const char *value, int *fd)
{
	unsigned long n;

	if (parse_ulong(value, 0, INT_MAX, &n) < 0)
		return usage_error(c, opt, value, "not a file descriptor number");
	*fd = (int)n;
	return 0;
}

static int parse_id(struct cursor *c, const char *opt, const char *value, uint32_t *id)
{
	if (passwd_parse_id(value, id) < 0)
		return usage_error(c, opt, value, "not a valid id (0-4294967294, not 65535)");
	return 0;
}

static int parse_caps(struct cursor *c, const char *opt, const char *value, uint64_t *mask)
{
	char bad[64];

	if (exec_caps_parse(value, mask, bad, sizeof bad) < 0)
		return usage_error(c, opt, bad, "not a capability (expected all, none, 0xHEX or "
					  "names such as cap_net_raw)");
	return 0;
}

/* Options with a value. Each may be given once. */
static int take_value(struct caps_request *r, struct cursor *c, const char *opt,
		      const char *value)
{
	uint32_t id;

	if (strcmp(opt, "--report-fd") == 0)
		return parse_fd(c, opt, value, &r->report_fd);
	if (strcmp(opt, "--chdir-fd") == 0)
		return parse_fd(c, opt, value, &r->chdir_fd);
	if (strcmp(opt, "--user") == 0) {
		if (*value == '\0')
			return usage_error(c, opt, NULL, "empty user name");
		r->user = value;
		return 0;
	}
	if (strcmp(opt, "--uid") == 0) {
		if (parse_id(c, opt, value, &id) < 0)
			return -1;
		r->uid_set = true;
		r->uid = id;
		return 0;
	}
	if (strcmp(opt, "--gid") == 0) {
		if (parse_id(c, opt, value, &id) < 0)
			return -1;
		r->gid_set = true;
		r->gid = id;
		return 0;
	}
	if (strcmp(opt, "--groups") == 0) {
		r->groups_set = true;
		if (caps_parse_groups(value, r->groups, EXEC_GROUPS_MAX, &r->group_count) < 0)
			return usage_error(c, opt, value, errno == E2BIG ? "too many groups"
					   : "not a comma-separated list of valid gids");
		return 0;
	}
	if (strcmp(opt, "--bounding") == 0) {
		r->bounding_set = true;
		return parse_caps(c, opt, value, &r->bounding);
	}
	if (strcmp(opt, "--ambient") == 0)
		return parse_caps(c, opt, value, &r->ambient);
	if (strcmp(opt, "--chdir") == 0) {
		if (*value == '\0')
			return usage_error(c, opt, NULL, "empty directory");
		r->chdir_path = value;
		return 0;
	}
	/* exec keys (sandbox-more): SecureBits=, AppArmorProfile= */
	if (strcmp(opt, "--securebits") == 0) {
		if (parse_id(c, opt, value, &id) < 0)
			return -1;
		if (id == 0 || id > 63)
			return usage_error(c, opt, value, "expected 1..63 (SECBIT_* bits)");
		r->secure_bits = id;
		return 0;
	}
	if (strcmp(opt, "--apparmor-profile") == 0) {
		if (*value == '\0' || (value[0] == '-' && value[1] == '\0'))
			return usage_error(c, opt, NULL, "empty profile name");
		r->apparmor_profile = value;
		return 0;
	}
	return usage_error(c, opt, NULL, "unknown option");
}

static bool takes_value(const char *opt)
{
	static const char *const with_value[] = {
		"--report-fd", "--user", "--uid", "--gid", "--groups", "--bounding", "--ambient",
		"--chdir", "--chdir-fd", "--securebits", "--apparmor-profile", /* sandbox-more */
	};
	for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
		if (strcmp(opt, with_value[i]) == 0)
			return true;
	return false;
}

static bool take_flag(struct caps_request *r, const char *opt)
{
	if (strcmp(opt, "--no-new-privs") == 0)
		r->no_new_privs = true;
	else if (strcmp(opt, "--chdir-optional") == 0)
		r->chdir_optional = true;
	else if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0)
		r->help = true;
	else if (strcmp(opt, "--version") == 0)
		r->version = true;
	else
		return false;
	return true;
}

/* Options may not repeat: a second --uid is more likely a mistake than an override. */
static bool seen_before(struct cursor *c, const char *opt, size_t len)
{
	for (int j = 1; j < c->i; j++)
		if (strncmp(c->argv[j], opt, len) == 0 &&
		    (c->argv[j][len] == '\0' || c->argv[j][len] == '='))
			return true;
	return false;
}

static int parse_option(struct caps_request *r, struct cursor *c)
{
	char name[32];
	const char *arg = c->argv[c->i], *eq = strchr(arg, '='), *value;
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);

	if (len >= sizeof name)
		return usage_error(c, arg, NULL, "unknown option");
	memcpy(name, arg, len);
	name[len] = '\0';
	if (seen_before(c, name, len))
		return usage_error(c, name, NULL, "given twice");
	if (!eq && take_flag(r, name))
		return 0;
	if (!takes_value(name))
		return usage_error(c, name, NULL, eq ? "takes no value" : "unknown option");
	if (eq) {
		value = eq + 1;
	} else {
		if (c->i + 1 >= c->argc)
			return usage_error(c, name, NULL, "needs a value");
		value = c->argv[++c->i];
	}
	return take_value(r, c, name, value);
}

static int check_request(struct caps_request *r, struct cursor *c)
{
	if (r->uid_set && !r->gid_set && !r->user)
		return usage_error(c, "--uid", NULL, "needs --gid or --user (the group is never "
				   "left as the caller's)");
	if (r->chdir_path && r->chdir_fd >= 0)
		return usage_error(c, "--chdir", NULL, "conflicts with --chdir-fd");
	if (r->chdir_optional && !r->chdir_path && r->chdir_fd < 0)
		return usage_error(c, "--chdir-optional", NULL, "needs --chdir or --chdir-fd");
	return 0;
}

int caps_parse_args(int argc, char **argv, struct caps_request *req, char *err,
		    size_t err_size)
{
	struct cursor c = { .argc = argc, .argv = argv, .err = err, .err_size = err_size };

	memset(req, 0, sizeof *req);
	req->report_fd = req->chdir_fd = -1;
	err[0] = '\0';
	for (c.i = 1; c.i < argc; c.i++) {
		if (strcmp(argv[c.i], "--") == 0)
			break;
		if (argv[c.i][0] != '-')
			return usage_error(&c, argv[c.i], NULL, "expected an option or \"--\" "
					   "before the command");
		if (parse_option(req, &c) < 0)
			return -1;
		if (req->help || req->version)
			return 0;
	}
	if (c.i >= argc)
		return usage_error(&c, "--", NULL, "missing: ember-caps [OPTION...] -- PATH ARGV0 "
				   "[ARG...]");
	if (argc - c.i < 3)
		return usage_error(&c, "--", NULL, "needs the command's PATH and ARGV0");
	req->path = argv[c.i + 1];
	req->argv = argv + c.i + 2;
	return check_request(req, &c);
}
