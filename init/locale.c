/* The system locale for services. See locale.h. */
#include "locale.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "io.h"
#include "log.h"
#include "service.h" /* service_envfile_parse: the files are environment files */

#define LOCALE_FILE_MAX 4096
#define LOCALE_BUF_MAX 512 /* "KEY=value\0" one after another */

static const char *const files[] = { "/etc/locale.conf", "/etc/default/locale" };

/* The keys locale.conf(5) knows; anything else in the file is not passed on. */
static const char *const keys[] = {
	"LANG", "LANGUAGE", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE",
	"LC_MONETARY", "LC_MESSAGES", "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE",
	"LC_MEASUREMENT", "LC_IDENTIFICATION",
};

static struct {
	char buf[LOCALE_BUF_MAX];
	size_t used;
	const char *path; /* the file being read, for messages */
} loc;

static bool locale_key(const char *assignment)
{
	size_t n = strcspn(assignment, "=");

	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (strlen(keys[i]) == n && strncmp(keys[i], assignment, n) == 0)
			return true;
	return false;
}

/* A locale name ("de_DE.UTF-8", "sr_RS@latin") or LANGUAGE's list of them ("de:en"). */
static bool locale_value(const char *v)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (!((*v >= 'A' && *v <= 'Z') || (*v >= 'a' && *v <= 'z') ||
		      (*v >= '0' && *v <= '9') || strchr("_.@:+-", *v)))
			return false;
	return true;
}

static int keep(void *ctx, const char *assignment)
{
	size_t len = strlen(assignment) + 1;
	char shown[128];

	(void)ctx;
	if (!locale_key(assignment))
		return 0;
	if (!locale_value(strchr(assignment, '=') + 1)) {
		log_warn("%s: %s: no locale name, left out", loc.path,
			 escape_text(assignment, shown, sizeof shown));
		return 0;
	}
	if (loc.used + len > sizeof loc.buf) {
		log_warn("%s: %s: more locale settings than fit, left out", loc.path,
			 escape_text(assignment, shown, sizeof shown));
		return 0;
	}
	memcpy(loc.buf + loc.used, assignment, len);
	loc.used += len;
	return 0;
}

void locale_load(const char *root)
{
	char path[256], text[LOCALE_FILE_MAX], err[128];

	loc.used = 0;
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		ssize_t n;

		snprintf(path, sizeof path, "%s%s", root, files[i]);
		n = io_read_file(path, text, sizeof text);
		if (n < 0 && errno == ENOENT)
			continue;
		if (n < 0) {
			log_warn("%s: %s", path, strerror(errno));
			continue;
		}
		loc.path = path;
		if (service_envfile_parse(text, (size_t)n, keep, NULL, err, sizeof err) < 0)
			log_warn("%s: %s", path, err);
		return; /* the first file there is the one: Debian's only without locale.conf */
	}
}

void locale_env(int (*add)(void *ctx, const char *assignment), void *ctx)
{
	if (loc.used == 0) {
		add(ctx, "LANG=C.UTF-8");
		return;
	}
	for (size_t i = 0; i < loc.used; i += strlen(loc.buf + i) + 1)
		add(ctx, loc.buf + i);
}
