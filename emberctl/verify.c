/* emberctl verify: read unit files with ember-init's own parser, offline, and say per
 * file what ember will do with it, as `systemd-analyze verify` does for systemd:
 *   clean    loads, and runs as systemd would run it
 *   changes  loads, but runs differently: each warning says what changes
 *   refused  ember will not run it: each error says why
 * Diagnostics are "file:line: Key: why" (the parser's format). The parser is pure, so
 * nothing here touches the system beyond reading the named files. */
#include "verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "init/service.h"
#include "init/socket-unit.h" /* sockets-accept: --keys */
#include "init/unit-compat.h"
#include "io.h"
#include "json.h"
#include "log.h"
#include "verify-seccomp.h" /* seccomp keys */

enum { EXIT_REFUSED = 1 }; /* at least one unit is refused */

/* contract 2 of docs/design.md: ember's own directories first, then systemd's */
static const char *const search_dirs[] = {
	SERVICE_DIR_ETC, SERVICE_DIR_RUN, SERVICE_DIR_LIB, "/etc/systemd/system",
	"/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system",
};

/* The instance systemd-analyze verify gives a template it is asked to check. */
#define TEST_INSTANCE "test_instance"
#define DIAG_MAX 128 /* diagnostics kept per file for --json */

struct verify_options {
	bool json, verbose;
	const char *root;
};

struct diagnostic {
	enum service_severity severity;
	unsigned line;
	char message[SERVICE_ERROR_MAX];
	char dropin[SERVICE_PATH_MAX]; /* the drop-in it is about, "": the unit's file */
};

struct file_result {
	const char *path;
	const char *unit; /* the unit to load it as: the NAME asked for (an instance of a
			   * template file), or NULL for the file's own name */
	unsigned warnings, errors, notes;
	size_t count; /* diagnostics kept in diag[] */
	struct diagnostic diag[DIAG_MAX];
	bool json;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: emberctl verify [--json] [--verbose] [--root=DIR] FILE|NAME...\n"
		"Check unit files with ember-init's parser, without PID 1: every diagnostic as\n"
		"FILE:LINE: KEY: WHY, then one line per unit: clean, changes (loads, but runs\n"
		"differently from systemd) or refused (ember will not run it).\n"
		"  NAME          a unit name, looked up in ember's and systemd's unit directories\n"
		"                (\"sshd\" means sshd.service); FILE: a path (contains '/')\n"
		"  --root=DIR    look NAMEs up below DIR (an image's root)\n"
		"  --verbose     also list ignored keys that are harmless, with the reason\n"
		"  --json        one JSON document instead of text\n"
		"  --keys        print every key systemd documents for [Unit], [Service],\n"
		"                [Socket] and [Install] and what ember does with it (Markdown)\n"
		"Exit: 0 no unit refused, 1 a unit refused (or unreadable), 100 usage.\n");
}

/* Untrusted text (file names, values quoted in messages): control bytes as \xNN. */
static void print_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	struct file_result *r = ctx;
	bool dropin = file && *file && strcmp(file, r->path) != 0;

	if (severity == SERVICE_ERROR)
		r->errors++;
	else if (severity == SERVICE_WARNING)
		r->warnings++;
	else
		r->notes++;
	if (!r->json) {
		print_escaped(stdout, dropin ? file : r->path);
		if (line)
			printf(":%u", line);
		fputs(": ", stdout);
		print_escaped(stdout, message);
		fputc('\n', stdout);
	}
	if (r->count < DIAG_MAX) {
		struct diagnostic *d = &r->diag[r->count++];
		d->severity = severity;
		d->line = line;
		snprintf(d->message, sizeof d->message, "%s", message);
		snprintf(d->dropin, sizeof d->dropin, "%s", dropin ? file : "");
	}
}

/* A diagnostic about the whole file (it cannot be read, its name is unusable). */
static void file_error(struct file_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void file_error(struct file_result *r, const char *fmt, ...)
{
	char message[SERVICE_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	record(r, SERVICE_ERROR, r->path, 0, message);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Find NAME in the search path (below root); path gets the file. A missing instance
 * file falls back to its template, as systemd does. */
static int find_unit(const struct verify_options *o, const char *name, char *path, size_t size)
{
	char unit[512], template[512];
	const char *at, *dot;
	struct stat st;

	snprintf(unit, sizeof unit, "%s%s", name, strchr(name, '.') ? "" : SERVICE_SUFFIX);
	template[0] = '\0';
	at = strchr(unit, '@');
	dot = strrchr(unit, '.');
	if (at && dot && dot > at + 1)
		snprintf(template, sizeof template, "%.*s%s", (int)(at + 1 - unit), unit, dot);
	for (int pass = 0; pass < 2; pass++) {
		const char *want = pass == 0 ? unit : template;
		if (!*want)
			break;
		for (size_t i = 0; i < sizeof search_dirs / sizeof *search_dirs; i++) {
			snprintf(path, size, "%s%s/%s", o->root ? o->root : "", search_dirs[i], want);
			if (lstat(path, &st) == 0)
				return 0;
		}
	}
	return -1;
}

/* The name the parser gets, canonical as ember-init's loader makes it: "sshd" for
 * sshd.service, "dbus.socket", "multi-user.target". A template ("getty@.service",
 * "foo@.socket") is checked as an instance of itself, TEST_INSTANCE. */
static const char *unit_name(const char *file, char *name, size_t size, bool *template)
{
	const char *at = strchr(file, '@');
	const char *dot = strrchr(file, '.');

	*template = at && dot && at + 1 == dot;
	if (*template)
		snprintf(name, size, "%.*s%s%s", (int)(at + 1 - file), file, TEST_INSTANCE, dot);
	else
		snprintf(name, size, "%s", file);
	if (has_suffix(name, SERVICE_SUFFIX))
		name[strlen(name) - strlen(SERVICE_SUFFIX)] = '\0';
	return name;
}

/* The kinds ember-init reads. */
static const char *unsupported_kind(const char *file)
{
	if (has_suffix(file, ".service") || has_suffix(file, ".socket") ||
	    has_suffix(file, ".target"))
		return NULL;
	if (has_suffix(file, ".mount") || has_suffix(file, ".slice")) /* unit-kinds */
		return NULL;
	if (has_suffix(file, ".timer") || has_suffix(file, ".path")) /* timer, path units */
		return NULL;
	if (has_suffix(file, ".swap") || has_suffix(file, ".automount")) /* swap, automount */
		return NULL;
	return "not a unit file ember reads (.service, .socket, .target, .mount, .slice, "
	       ".timer, .path, .swap or .automount)";
}

static char text[SERVICE_FILE_MAX + 2];
static struct service svc;

/* Where the unit's drop-ins are looked for, as ember-init would: a FILE's own directory
 * (a package's drop-ins beside its unit), then with --root the search path below DIR;
 * a NAME's search path (below DIR). Not the host's own directories for a FILE: they
 * would judge the file by this machine's configuration. */
#define DROPIN_DIRS_MAX (sizeof search_dirs / sizeof *search_dirs + 1)
static size_t dropin_dirs(const struct verify_options *o, const struct file_result *r,
			  char paths[][1024], const char **dirs)
{
	size_t n = 0;

	if (!r->unit) {
		const char *slash = strrchr(r->path, '/');
		snprintf(paths[n], sizeof paths[n], "%.*s", slash && slash > r->path ? (int)(slash - r->path) : 1,
			 slash && slash > r->path ? r->path : "/");
		dirs[n] = paths[n];
		n++;
		if (!o->root)
			return n;
	}
	for (size_t i = 0; i < sizeof search_dirs / sizeof *search_dirs; i++) {
		snprintf(paths[n], sizeof paths[n], "%s%s", o->root ? o->root : "", search_dirs[i]);
		dirs[n] = paths[n];
		n++;
	}
	return n;
}

/* "x.service.d/10-y.conf": a drop-in, checked with its unit */
static bool is_dropin(const char *path)
{
	const char *slash = strrchr(path, '/');

	return has_suffix(path, ".conf") && slash && slash - path > 2 && slash[-1] == 'd' &&
	       slash[-2] == '.';
}

static void check_file(const struct verify_options *o, struct file_result *r)
{
	struct service_diag diag = { record, r, o->verbose };
	char name[512];
	bool template;
	const char *why, *file = r->unit ? r->unit : base_name(r->path);
	ssize_t len;
	struct stat st;

	struct stat null;

	if (stat(r->path, &st) < 0) {
		file_error(r, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		file_error(r, "is a directory, not a unit file");
		return;
	}
	if (S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 && st.st_rdev == null.st_rdev) {
		if (o->verbose)
			record(r, SERVICE_NOTE, r->path, 0, "a link to /dev/null: the unit is masked");
		return;
	}
	if (!S_ISREG(st.st_mode)) { /* a FIFO would block the read; a device is no unit */
		file_error(r, "not a regular file");
		return;
	}
	len = io_read_file(r->path, text, sizeof text);
	if (len < 0) {
		file_error(r, "cannot read: %s", strerror(errno));
		return;
	}
	if (len == 0) { /* an empty file masks, as on systemd */
		if (o->verbose)
			record(r, SERVICE_NOTE, r->path, 0, "empty: the unit is masked");
		return;
	}
	if (!r->unit && is_dropin(r->path)) {
		file_error(r, "a drop-in: verify its unit, whose drop-ins beside it are applied");
		return;
	}
	if ((why = unsupported_kind(file))) {
		file_error(r, "%s", why);
		return;
	}
	unit_name(file, name, sizeof name, &template);
	if (service_init(&svc, name, r->path) < 0) {
		file_error(r, "%s: not a valid unit name (1-127 of A-Z a-z 0-9 _ . : - @ \\)", file);
		return;
	}
	svc.kind = unit_name_kind(name);
	service_parse_more(&svc, text, (size_t)len, &diag);
	if (!svc.failed) {
		static char paths[DROPIN_DIRS_MAX][1024];
		const char *dirs[DROPIN_DIRS_MAX];
		service_load_dropins(&svc, dirs, dropin_dirs(o, r, paths, dirs), &diag);
	}
	service_validate(&svc, &diag);
	verify_seccomp(&svc, &diag); /* seccomp keys: names as ember-sandbox checks them */
}

static const char *result_of(const struct file_result *r)
{
	return r->errors ? "refused" : r->warnings ? "changes" : "clean";
}

static void print_text_summary(const struct file_result *r)
{
	print_escaped(stdout, r->path);
	printf(": %s", result_of(r));
	if (r->errors || r->warnings)
		printf(" (%u error%s, %u warning%s)", r->errors, r->errors == 1 ? "" : "s",
		       r->warnings, r->warnings == 1 ? "" : "s");
	fputc('\n', stdout);
}

static const char *severity_name(enum service_severity s)
{
	return s == SERVICE_ERROR ? "error" : s == SERVICE_WARNING ? "warning" : "note";
}

static void print_json_unit(const struct file_result *r, bool first)
{
	printf("%s\n  {", first ? "" : ",");
	json_kv_string(stdout, "file", r->path);
	printf(", ");
	json_kv_string(stdout, "result", result_of(r));
	printf(", ");
	json_kv_int(stdout, "errors", r->errors);
	printf(", ");
	json_kv_int(stdout, "warnings", r->warnings);
	printf(", \"diagnostics\": [");
	for (size_t i = 0; i < r->count; i++) {
		printf("%s{", i ? ", " : "");
		json_kv_string(stdout, "severity", severity_name(r->diag[i].severity));
		printf(", ");
		json_kv_int(stdout, "line", r->diag[i].line);
		printf(", ");
		if (r->diag[i].dropin[0]) {
			json_kv_string(stdout, "dropin", r->diag[i].dropin);
			printf(", ");
		}
		json_kv_string(stdout, "message", r->diag[i].message);
		printf("}");
	}
	printf("]}");
}

/* ---- --keys: the compatibility table of docs/services.md ---------------------------- */

struct key_row {
	unsigned section;
	const char *key, *status, *note;
};

#define KEY_ROWS_MAX 1024
static struct key_row key_rows[KEY_ROWS_MAX];

static int key_row_order(const void *a, const void *b)
{
	const struct key_row *x = a, *y = b;
	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	return strcmp(x->key, y->key);
}

static const char *status_of(enum unit_compat_class class)
{
	switch (class) {
	case COMPAT_HARMLESS: return "ignored, harmless";
	case COMPAT_CHANGES: return "ignored, changes behaviour";
	case COMPAT_REFUSED: return "refused";
	}
	return "?";
}

/* Every key the parser implements, then every row of the compat table, one line per
 * section, sorted: the same table whatever order the sources list them in. */
static void print_keys(void)
{
	static char names[KEY_ROWS_MAX][64]; /* service_key_at() reuses its buffer */
	size_t n = 0;
	const char *section, *key;

	for (size_t i = 0; (key = service_key_at(i, &section)) && n < KEY_ROWS_MAX; i++) {
		snprintf(names[n], sizeof names[n], "%s", key);
		key_rows[n] = (struct key_row){ unit_compat_section(section), names[n], "supported", "" };
		n++;
	}
	/* sockets-accept: [Socket] keys live in init/socket-unit.c's own table */
	for (const char *const *k = socket_unit_keys(); *k && n < KEY_ROWS_MAX; k++)
		key_rows[n++] = (struct key_row){ COMPAT_SOCKET, *k, "supported", "" };
	for (size_t i = 0; i < unit_compat_count; i++)
		for (unsigned bit = 1; bit <= COMPAT_INSTALL; bit <<= 1)
			if ((unit_compat_table[i].sections & bit) && n < KEY_ROWS_MAX)
				key_rows[n++] = (struct key_row){ bit, unit_compat_table[i].key,
					status_of(unit_compat_table[i].class), unit_compat_table[i].note };
	qsort(key_rows, n, sizeof *key_rows, key_row_order);
	printf("| Section | Key | ember | What ember does instead |\n|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++)
		printf("| [%s] | `%s=` | %s | %s |\n", unit_compat_section_name(key_rows[i].section),
		       key_rows[i].key, key_rows[i].status, key_rows[i].note);
}

static int parse_options(int argc, char **argv, struct verify_options *o, int *first)
{
	int i;

	memset(o, 0, sizeof *o);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (a[0] != '-' || a[1] == '\0') {
			break;
		} else if (strcmp(a, "--json") == 0) {
			o->json = true;
		} else if (strcmp(a, "--keys") == 0) {
			print_keys();
			exit(EXIT_OK);
		} else if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
			o->verbose = true;
		} else if (strncmp(a, "--root=", 7) == 0 && a[7]) {
			o->root = a + 7;
		} else if (strcmp(a, "--root") == 0 && i + 1 < argc) {
			o->root = argv[++i];
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			print_version("emberctl");
			exit(EXIT_OK);
		} else {
			die(EXIT_USAGE, "verify: %s: unknown option (see --help)", a);
		}
	}
	if (i >= argc)
		die(EXIT_USAGE, "verify: name at least one FILE or NAME (see --help)");
	*first = i;
	return 0;
}

int verify_main(int argc, char **argv)
{
	static struct file_result r;
	struct verify_options o;
	unsigned counts[3] = { 0, 0, 0 }; /* clean, changes, refused */
	char path[1024], unit[512];
	int first;

	parse_options(argc, argv, &o, &first);
	if (o.json)
		printf("{\"units\": [");
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i];
		memset(&r, 0, offsetof(struct file_result, diag));
		r.json = o.json;
		if (strchr(arg, '/') || find_unit(&o, arg, path, sizeof path) < 0)
			snprintf(path, sizeof path, "%s", arg);
		r.path = path;
		snprintf(unit, sizeof unit, "%s%s", arg, strchr(arg, '.') ? "" : SERVICE_SUFFIX);
		r.unit = strchr(arg, '/') ? NULL : unit;
		if (!strchr(arg, '/') && access(path, F_OK) < 0)
			file_error(&r, "no such unit in ember's or systemd's unit directories%s%s",
				   o.root ? " below " : "", o.root ? o.root : "");
		else
			check_file(&o, &r);
		counts[r.errors ? 2 : r.warnings ? 1 : 0]++;
		if (o.json)
			print_json_unit(&r, i == first);
		else
			print_text_summary(&r);
	}
	if (o.json) {
		printf("\n], ");
		json_kv_int(stdout, "clean", counts[0]);
		printf(", ");
		json_kv_int(stdout, "changes", counts[1]);
		printf(", ");
		json_kv_int(stdout, "refused", counts[2]);
		printf("}\n");
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die(EXIT_SYSTEM, "stdout: cannot write: %s", strerror(errno));
	return counts[2] ? EXIT_REFUSED : EXIT_OK;
}
