#include "cmdline.h"

#include <string.h>

#include "escape.h"
#include "log.h"
#include "parse.h"

#define WORD_MAX 4096
#define WATCHDOG_SEC_MAX 3600
#define FAILED_RETRY_DEFAULT_SEC 600
#define FAILED_RETRY_SEC_MAX 604800

static void set_defaults(struct boot_options *o)
{
	memset(o, 0, sizeof *o);
	/* No root shell on the console unless asked for: an installed system whose
	 * init.conf went missing (a half-installed package, a wiped /etc) must not
	 * boot into a password-less root shell. ember.shell=PATH asks for one. */
	str_copy(o->shell, sizeof o->shell, "/bin/sh");
	o->no_shell = true;
	o->debug_exit = true;
	o->measure = true;
	o->failed_retry_sec = FAILED_RETRY_DEFAULT_SEC;
}

static void warn_not_path(const char *key, const char *value, const char *outcome)
{
	char shown[256];

	log_warn("kernel command line: %s=%s: not an absolute path, %s", key,
		 escape_text(value, shown, sizeof shown), outcome);
}

static void set_path(char *dst, size_t size, const char *key, const char *value)
{
	if (value[0] != '/' || str_copy(dst, size, value) < 0)
		warn_not_path(key, value, "ignored");
}

static void apply_word(struct boot_options *o, char *word)
{
	char *eq = strchr(word, '=');
	const char *value = eq ? eq + 1 : NULL;
	bool b;

	if (eq)
		*eq = '\0';
	if (strcmp(word, "ember.run") == 0 && value) {
		set_path(o->run, sizeof o->run, word, value);
	} else if (strcmp(word, "ember.shell") == 0 && value) {
		bool path = value[0] == '/' && str_copy(o->shell, sizeof o->shell, value) == 0;
		o->no_shell = !path;
		if (!path && strcmp(value, "none") != 0)
			warn_not_path(word, value, "no console shell");
	} else if (strcmp(word, "quiet") == 0 && !value) {
		o->quiet = true;
	} else if (strcmp(word, "ember.debug") == 0) {
		o->debug = !value || (parse_bool(value, &b) == 0 && b);
	} else if (strcmp(word, "ember.debug_exit") == 0 && value) {
		if (parse_bool(value, &b) == 0)
			o->debug_exit = b;
	} else if (strcmp(word, "ember.services") == 0 && value) {
		set_path(o->services, sizeof o->services, word, value);
	} else if (strcmp(word, "ember.generators") == 0 && value) {
		if (strcmp(value, "none") == 0)
			str_copy(o->generators, sizeof o->generators, "none");
		else
			set_path(o->generators, sizeof o->generators, word, value);
	} else if (strcmp(word, "ember.cgroup") == 0 && value) {
		set_path(o->cgroup, sizeof o->cgroup, word, value);
	} else if (strcmp(word, "ember.rescue") == 0) {
		o->rescue = !value || (parse_bool(value, &b) == 0 && b);
	} else if (strcmp(word, "ember.measure") == 0 && value) {
		if (parse_bool(value, &b) == 0)
			o->measure = b;
	} else if (strcmp(word, "ember.watchdog") == 0 && value) {
		if (parse_ulong(value, 0, WATCHDOG_SEC_MAX, &o->watchdog_sec) < 0)
			log_warn("kernel command line: ember.watchdog=%s: not a number of seconds "
				 "in 0..%d, ignored", value, WATCHDOG_SEC_MAX);
	/* PID 1 hardening (issue 14) */
	} else if (strcmp(word, "ember.ctl_group") == 0 && value) {
		if (str_copy(o->ctl_group, sizeof o->ctl_group, value) < 0)
			log_warn("kernel command line: ember.ctl_group=: name too long, ignored");
	} else if (strcmp(word, "ember.failed_retry") == 0 && value) {
		if (parse_ulong(value, 0, FAILED_RETRY_SEC_MAX, &o->failed_retry_sec) < 0)
			log_warn("kernel command line: ember.failed_retry=%s: not a number of seconds "
				 "in 0..%d, ignored", value, FAILED_RETRY_SEC_MAX);
	} else if (strcmp(word, "ember.crash_shell") == 0) {
		o->crash_shell = !value || (parse_bool(value, &b) == 0 && b);
	} else if ((strcmp(word, "systemd.machine_id") == 0 ||
		    strcmp(word, "systemd.machine-id") == 0) && value) {
		/* checked where it is used; a longer value is no ID either */
		if (str_copy(o->machine_id, sizeof o->machine_id, value) < 0)
			str_copy(o->machine_id, sizeof o->machine_id, "(too long)");
	}
}

/* Copy the next word (whitespace-separated, "double quotes" group) into buf. */
static const char *next_word(const char *p, char *buf, size_t size)
{
	size_t n = 0;
	bool quoted = false;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!*p)
		return NULL;
	for (; *p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
		if (*p == '"') {
			quoted = !quoted;
			continue;
		}
		if (n + 1 < size)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return p;
}

void cmdline_parse(const char *cmdline, struct boot_options *o)
{
	char word[WORD_MAX];
	const char *p = cmdline;

	set_defaults(o);
	while ((p = next_word(p, word, sizeof word)))
		apply_word(o, word);
}
