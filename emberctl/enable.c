/* emberctl enable | disable | mask | unmask | is-enabled: the symlinks systemctl makes,
 * made offline on the unit directories (under --root for image building), then PID 1 is
 * told to reload if it runs. Which units start at boot follows from these links: see
 * docs/services.md "Enablement". */
#include "enable.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "cli.h"
#include "ctl.h"
#include "exitcode.h"
#include "log.h"
#include "parse.h"
#include "unit-name.h"
#include "../init/service.h"

#define OWN_DIRS 3 /* the first three of the search path are ember's own */
#define ALSO_DEPTH 4

static const char *const search[] = {
	SERVICE_DIR_ETC, SERVICE_DIR_RUN, SERVICE_DIR_LIB, "/etc/systemd/system",
	"/run/systemd/system", "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system",
};
#define NSEARCH (sizeof search / sizeof *search)
static const char *const link_dirs[] = { SERVICE_DIR_ETC, "/etc/systemd/system" };

enum verb { V_ENABLE, V_DISABLE, V_MASK, V_UNMASK, V_IS_ENABLED };
static const char *const verbs[] = { "enable", "disable", "mask", "unmask", "is-enabled" };

struct opts {
	enum verb verb;
	const char *root; /* "" for / */
	const char *socket;
	bool reload, quiet;
	bool changed;
};

static struct service svc; /* 10 kB: not on the stack */

bool enable_is_verb(const char *word)
{
	for (size_t i = 0; i < sizeof verbs / sizeof *verbs; i++)
		if (strcmp(word, verbs[i]) == 0)
			return true;
	return false;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: emberctl [--root DIR] [--no-reload] [-q] enable|disable NAME...\n"
		"       emberctl [--root DIR] [--no-reload] [-q] mask|unmask NAME...\n"
		"       emberctl [--root DIR] [-q] is-enabled NAME...\n"
		"Make or remove the links that decide which units start at boot, as systemctl\n"
		"does, then tell ember-init (if it runs) to reload.\n"
		"  --root DIR    work on the tree under DIR (an image); never reloads\n"
		"  --no-reload   do not ask ember-init to reload\n"
		"  -q, --quiet   print nothing but errors\n"
		"Exit: 0 ok (is-enabled: at least one is enabled), 1 failed or not enabled,\n"
		"      100 usage.\n");
}

/* ---- paths --------------------------------------------------------------------------- */

static const char *rooted(const struct opts *o, const char *path, char *buf, size_t size)
{
	if (snprintf(buf, size, "%s%s", o->root, path) >= (int)size)
		die(EXIT_USAGE, "%s%s: path too long", o->root, path);
	return buf;
}

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];

	if (str_copy(buf, sizeof buf, path) < 0)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static bool links_to_dev_null(const char *path)
{
	char target[16];
	ssize_t n = readlink(path, target, sizeof target - 1);

	return n == 9 && memcmp(target, "/dev/null", 9) == 0;
}

static bool is_masked(const char *path)
{
	struct stat st;

	if (links_to_dev_null(path))
		return true;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/* The unit file for name: its own, else its template's. Returns the search index and
 * fills file (the file name) and path (unrooted), or -1. */
static int find_fragment(const struct opts *o, const char *name, char *file, char *path)
{
	char tmpl[SERVICE_NAME_MAX], buf[PATH_MAX];
	struct stat st;

	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			unit_name_full(name, file, NAME_MAX + 1);
		else if (unit_name_is_instance(name) &&
			 unit_name_template_of(name, tmpl, sizeof tmpl) == 0)
			unit_name_full(tmpl, file, NAME_MAX + 1);
		else
			break;
		for (size_t i = 0; i < NSEARCH; i++) {
			snprintf(path, PATH_MAX, "%s/%s", search[i], file);
			if (lstat(rooted(o, path, buf, sizeof buf), &st) == 0)
				return (int)i;
		}
	}
	return -1;
}

static int canonical(const char *arg, char *name)
{
	int rc = unit_name_canonical(arg, name, SERVICE_NAME_MAX, NULL);

	if (rc == -2)
		log_error("%s: ember has no units of this kind", arg);
	else if (rc < 0 || !service_name_valid(name))
		log_error("%.80s: not a valid unit name", arg);
	return rc < 0 || !service_name_valid(name) ? -1 : 0;
}

/* Parse the [Install] section of the unit file at path for unit name. */
static int read_install(const struct opts *o, const char *name, const char *path)
{
	static char text[SERVICE_FILE_MAX + 1];
	char buf[PATH_MAX];
	FILE *f = fopen(rooted(o, path, buf, sizeof buf), "re");
	size_t len;

	if (!f) {
		log_error("%s: cannot read: %s", buf, strerror(errno));
		return -1;
	}
	len = fread(text, 1, sizeof text, f);
	fclose(f);
	service_init(&svc, name, path);
	/* Only [Install] matters here: other keys may be ones this ember does not know. */
	service_parse_more(&svc, text, len, NULL);
	return 0;
}

/* ---- enable -------------------------------------------------------------------------- */

static void say(const struct opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* dir/entry -> target, as systemctl makes it; an existing link is replaced. */
static int make_link(struct opts *o, const char *dir, const char *entry, const char *target)
{
	char rdir[PATH_MAX], path[PATH_MAX + NAME_MAX + 2], old[PATH_MAX];
	ssize_t n;

	rooted(o, dir, rdir, sizeof rdir);
	if (mkdir_p(rdir) < 0) {
		log_error("%s: cannot create: %s", rdir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", rdir, entry);
	n = readlink(path, old, sizeof old - 1);
	if (n >= 0) {
		old[n] = '\0';
		if (strcmp(old, target) == 0)
			return 0;
		unlink(path);
	} else if (errno != ENOENT) {
		log_error("%s: exists and is not a link; not replaced", path);
		return -1;
	}
	if (symlink(target, path) < 0) {
		log_error("%s: cannot create link: %s", path, strerror(errno));
		return -1;
	}
	o->changed = true;
	say(o, "Created symlink %s/%s \u2192 %s.\n", dir, entry, target);
	return 0;
}

static int link_list(struct opts *o, const char *confdir, const struct service_name_list *list,
		     const char *suffix, const char *entry, const char *target)
{
	int rc = 0;

	for (size_t i = 0; i < service_list_count(list); i++) {
		char dir[PATH_MAX], full[SERVICE_NAME_MAX + 16], buf[SERVICE_NAME_MAX];
		unit_name_full(service_list_name(&svc, list, i, buf), full, sizeof full);
		snprintf(dir, sizeof dir, "%s/%s%s", confdir, full, suffix);
		rc |= make_link(o, dir, entry, target);
	}
	return rc;
}

/* Also= of svc, space-separated into out: enabling another unit reads its file into svc.
 * Returns how many names there are. */
static size_t copy_also(char *out, size_t size)
{
	char buf[SERVICE_NAME_MAX];
	size_t len = 0, n = service_list_count(&svc.also);

	out[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "",
					service_list_name(&svc, &svc.also, i, buf));
	return n;
}

/* The instance a template is enabled as: DefaultInstance=, re-read for its specifiers. */
static int pick_instance(const struct opts *o, char *name, const char *path)
{
	char inst[SERVICE_NAME_MAX];

	if (!svc.default_instance) {
		log_error("%s: a template: name an instance (%.*s@INSTANCE) or give it "
			  "DefaultInstance=", name, (int)strlen(name) - 1, name);
		return -1;
	}
	if (unit_name_instantiate(name, service_str(&svc, svc.default_instance), inst,
				  sizeof inst) < 0) {
		log_error("%s: DefaultInstance=%s does not make a valid name", name,
			  service_str(&svc, svc.default_instance));
		return -1;
	}
	strcpy(name, inst);
	return read_install(o, name, path);
}

static int enable_one(struct opts *o, const char *arg, int depth)
{
	char name[SERVICE_NAME_MAX], file[NAME_MAX + 1], path[PATH_MAX], entry[NAME_MAX + 1];
	char also[SERVICE_TEXT_MAX], nbuf[SERVICE_NAME_MAX], *save = NULL;
	const char *confdir;
	int d, rc = 0;

	if (canonical(arg, name) < 0)
		return -1;
	d = find_fragment(o, name, file, path);
	if (d < 0) {
		log_error("%s: unit file %s does not exist", name, file);
		return -1;
	}
	char buf[PATH_MAX];
	if (is_masked(rooted(o, path, buf, sizeof buf))) {
		log_error("%s: unit file %s is masked", name, path);
		return -1;
	}
	if (read_install(o, name, path) < 0)
		return -1;
	if (unit_name_is_template(name) && pick_instance(o, name, path) < 0)
		return -1;
	confdir = d < OWN_DIRS ? SERVICE_DIR_ETC : "/etc/systemd/system";
	unit_name_full(name, entry, sizeof entry);
	if (!svc.has_install || (!service_list_count(&svc.wanted_by) &&
				 !service_list_count(&svc.required_by) &&
				 !service_list_count(&svc.alias) && !service_list_count(&svc.also))) {
		if (d < OWN_DIRS)
			say(o, "%s: no [Install] section: it starts at boot anyway (ember's own "
			    "directory)\n", name);
		else
			say(o, "%s: no installation config (WantedBy=, RequiredBy=, Alias=, Also=): "
			    "it starts only when another unit pulls it in\n", name);
		return 0;
	}
	rc |= link_list(o, confdir, &svc.wanted_by, ".wants", entry, path);
	rc |= link_list(o, confdir, &svc.required_by, ".requires", entry, path);
	for (size_t i = 0; i < service_list_count(&svc.alias); i++) {
		char alias[SERVICE_NAME_MAX + 16];
		unit_name_full(service_list_name(&svc, &svc.alias, i, nbuf), alias, sizeof alias);
		rc |= make_link(o, confdir, alias, path);
	}
	if (copy_also(also, sizeof also) && depth < ALSO_DEPTH)
		for (char *a = strtok_r(also, " ", &save); a; a = strtok_r(NULL, " ", &save))
			rc |= enable_one(o, a, depth + 1);
	return rc ? -1 : 0;
}

/* ---- disable ------------------------------------------------------------------------- */

/* Does entry name the unit (or, for a template, one of its instances)? */
static bool entry_matches(const char *entry, const char *name)
{
	char canon[SERVICE_NAME_MAX], tmpl[SERVICE_NAME_MAX];

	if (unit_name_canonical(entry, canon, sizeof canon, NULL) < 0)
		return false;
	if (strcmp(canon, name) == 0)
		return true;
	return unit_name_is_template(name) && unit_name_is_instance(canon) &&
	       unit_name_template_of(canon, tmpl, sizeof tmpl) == 0 && strcmp(tmpl, name) == 0;
}

static void remove_link(struct opts *o, const char *shown, const char *path)
{
	if (unlink(path) < 0) {
		log_error("%s: cannot remove: %s", path, strerror(errno));
		return;
	}
	o->changed = true;
	say(o, "Removed \"%s\".\n", shown);
}

/* Remove NAME's links from every DIR.wants/ and DIR.requires/ of one link directory. */
static void unlink_wants(struct opts *o, const char *dir, const char *name)
{
	char rdir[PATH_MAX];
	DIR *top;
	struct dirent *e;

	top = opendir(rooted(o, dir, rdir, sizeof rdir));
	if (!top)
		return;
	while ((e = readdir(top))) {
		size_t len = strlen(e->d_name);
		char sub[PATH_MAX + NAME_MAX + 2];
		DIR *d;
		struct dirent *l;
		if (!(len > 6 && strcmp(e->d_name + len - 6, ".wants") == 0) &&
		    !(len > 9 && strcmp(e->d_name + len - 9, ".requires") == 0))
			continue;
		snprintf(sub, sizeof sub, "%s/%s", rdir, e->d_name);
		d = opendir(sub);
		if (!d)
			continue;
		while ((l = readdir(d))) {
			char path[PATH_MAX * 2], shown[PATH_MAX * 2];
			struct stat st;
			if (!entry_matches(l->d_name, name))
				continue;
			snprintf(path, sizeof path, "%s/%s", sub, l->d_name);
			snprintf(shown, sizeof shown, "%s/%s/%s", dir, e->d_name, l->d_name);
			if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
				remove_link(o, shown, path);
		}
		closedir(d);
	}
	closedir(top);
}

static int disable_one(struct opts *o, const char *arg, int depth)
{
	char name[SERVICE_NAME_MAX], file[NAME_MAX + 1], path[PATH_MAX];
	char also[SERVICE_TEXT_MAX], nbuf[SERVICE_NAME_MAX], *save = NULL;
	int d;

	if (canonical(arg, name) < 0)
		return -1;
	for (size_t i = 0; i < 2; i++)
		unlink_wants(o, link_dirs[i], name);
	d = find_fragment(o, name, file, path);
	char buf[PATH_MAX];
	if (d < 0 || is_masked(rooted(o, path, buf, sizeof buf)) || read_install(o, name, path) < 0)
		return 0;
	for (size_t i = 0; i < service_list_count(&svc.alias); i++) {
		char alias[SERVICE_NAME_MAX + 16], shown[PATH_MAX], rpath[PATH_MAX];
		unit_name_full(service_list_name(&svc, &svc.alias, i, nbuf), alias, sizeof alias);
		for (size_t k = 0; k < 2; k++) {
			struct stat st;
			snprintf(shown, sizeof shown, "%s/%s", link_dirs[k], alias);
			rooted(o, shown, rpath, sizeof rpath);
			if (lstat(rpath, &st) == 0 && S_ISLNK(st.st_mode) && !links_to_dev_null(rpath))
				remove_link(o, shown, rpath);
		}
	}
	if (copy_also(also, sizeof also) && depth < ALSO_DEPTH)
		for (char *a = strtok_r(also, " ", &save); a; a = strtok_r(NULL, " ", &save))
			disable_one(o, a, depth + 1);
	return 0;
}

/* ---- mask, unmask -------------------------------------------------------------------- */

static int mask_one(struct opts *o, const char *arg)
{
	char name[SERVICE_NAME_MAX], file[NAME_MAX + 1], path[PATH_MAX], rpath[PATH_MAX];
	const char *confdir;
	struct stat st;
	int d;

	if (canonical(arg, name) < 0)
		return -1;
	d = find_fragment(o, name, file, path);
	/* Masked where the unit lives: ember's own /etc directory for ember's units, the
	 * systemd one for the others (both are searched before any vendor directory). */
	confdir = d >= 0 && d < OWN_DIRS ? SERVICE_DIR_ETC : "/etc/systemd/system";
	unit_name_full(name, file, sizeof file);
	snprintf(path, sizeof path, "%s/%s", confdir, file);
	rooted(o, path, rpath, sizeof rpath);
	if (lstat(rpath, &st) == 0 && !S_ISLNK(st.st_mode) && !is_masked(rpath)) {
		log_error("%s: %s exists and is a unit file: remove or move it to mask %s", name,
			  path, name);
		return -1;
	}
	return make_link(o, confdir, file, "/dev/null");
}

static int unmask_one(struct opts *o, const char *arg)
{
	char name[SERVICE_NAME_MAX], file[NAME_MAX + 1], path[PATH_MAX], rpath[PATH_MAX];

	if (canonical(arg, name) < 0)
		return -1;
	unit_name_full(name, file, sizeof file);
	for (size_t k = 0; k < 2; k++) {
		snprintf(path, sizeof path, "%s/%s", link_dirs[k], file);
		rooted(o, path, rpath, sizeof rpath);
		if (links_to_dev_null(rpath))
			remove_link(o, path, rpath);
	}
	return 0;
}

/* ---- is-enabled ---------------------------------------------------------------------- */

/* Is there a link to name in some DIR.wants/ or DIR.requires/ of the search path? */
static bool linked(const struct opts *o, const char *name)
{
	char rdir[PATH_MAX];

	for (size_t i = 0; i < NSEARCH; i++) {
		DIR *top = opendir(rooted(o, search[i], rdir, sizeof rdir));
		struct dirent *e;
		bool found = false;
		if (!top)
			continue;
		while (!found && (e = readdir(top))) {
			size_t len = strlen(e->d_name);
			char sub[PATH_MAX + NAME_MAX + 2];
			DIR *d;
			struct dirent *l;
			if (!(len > 6 && strcmp(e->d_name + len - 6, ".wants") == 0) &&
			    !(len > 9 && strcmp(e->d_name + len - 9, ".requires") == 0))
				continue;
			snprintf(sub, sizeof sub, "%s/%s", rdir, e->d_name);
			if (!(d = opendir(sub)))
				continue;
			while (!found && (l = readdir(d)))
				found = entry_matches(l->d_name, name);
			closedir(d);
		}
		closedir(top);
		if (found)
			return true;
	}
	return false;
}

/* emberctl verbs (issue 17): the state alone, for is-enabled and show's UnitFileState. */
static const char *file_state(struct opts *o, const char *name, bool *enabled)
{
	char file[NAME_MAX + 1], path[PATH_MAX], rpath[PATH_MAX];
	int d = find_fragment(o, name, file, path);

	*enabled = false;
	rooted(o, path, rpath, sizeof rpath);
	if (d < 0)
		return "not-found";
	if (is_masked(rpath))
		return "masked";
	if (linked(o, name)) {
		*enabled = true;
		return "enabled";
	}
	if (read_install(o, name, path) == 0 && !svc.has_install) {
		/* ember's own units without [Install] start at boot: enabled, implicitly. */
		*enabled = true;
		return d < OWN_DIRS ? "enabled" : "static";
	}
	return "disabled";
}

/* Prints the state; returns true when it counts as enabled. */
static bool is_enabled_one(struct opts *o, const char *arg, bool *error)
{
	char name[SERVICE_NAME_MAX];
	bool enabled;
	const char *state;

	if (canonical(arg, name) < 0) {
		*error = true;
		return false;
	}
	state = file_state(o, name, &enabled);
	say(o, "%s\n", state);
	return enabled;
}

/* emberctl verbs (issue 17) */
const char *enable_unit_file_state(const char *name)
{
	struct opts o = { .root = "", .quiet = true };
	bool enabled;

	return file_state(&o, name, &enabled);
}

int enable_find_unit_file(const char *name, char *path, size_t size)
{
	struct opts o = { .root = "", .quiet = true };
	char file[NAME_MAX + 1], found[PATH_MAX];
	int d = find_fragment(&o, name, file, found);

	if (d < 0 || snprintf(path, size, "%s", found) >= (int)size)
		return -1;
	return d;
}

const char *const *enable_search_dirs(size_t *n)
{
	*n = NSEARCH;
	return search;
}

bool enable_is_masked(const char *path)
{
	return is_masked(path);
}

bool enable_alias_of(const char *name, char *target, size_t size)
{
	struct opts o = { .root = "", .quiet = true };
	char file[NAME_MAX + 1], path[PATH_MAX], link[PATH_MAX], other[SERVICE_NAME_MAX];
	enum unit_kind kind, other_kind;
	const char *base;
	ssize_t n;

	if (unit_name_is_instance(name) || find_fragment(&o, name, file, path) < 0 ||
	    (n = readlink(path, link, sizeof link - 1)) < 0)
		return false;
	link[n] = '\0';
	base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	/* a link to /dev/null is a mask, not an alias: the suffix must be the file's own */
	if (!strrchr(base, '.') || strcmp(strrchr(base, '.'), strrchr(file, '.')) != 0 ||
	    unit_name_canonical(file, other, sizeof other, &kind) < 0 ||
	    unit_name_canonical(base, other, sizeof other, &other_kind) < 0 ||
	    other_kind != kind || strcmp(base, file) == 0 || !service_name_valid(other))
		return false;
	return snprintf(target, size, "%s", other) < (int)size;
}

/* ---- main ---------------------------------------------------------------------------- */

static void reload_pid1(const struct opts *o)
{
	struct ctl_request req = { .verb = CTL_RELOAD };
	char request[CTL_REQUEST_MAX + 1], err[256];
	const char *path = o->socket ? o->socket : getenv(CTL_SOCKET_ENV);
	struct reply r;
	int fd, len;

	if (!path || !*path)
		path = CTL_SOCKET_PATH;
	len = ctl_request_format(&req, request, sizeof request, err, sizeof err);
	fd = len < 0 ? -1 : client_connect(path, err, sizeof err);
	if (fd < 0)
		return; /* not running: the next boot reads the links */
	FILE *sink = fopen("/dev/null", "we"); /* reload's own report is not shown */
	if (!sink) {
		close(fd);
		return;
	}
	reply_init(&r, sink, false, stderr);
	if (client_exchange(fd, request, (size_t)len, &r, err, sizeof err) != CLIENT_DONE ||
	    r.status != CTL_STATUS_OK)
		log_warn("links changed, but ember-init did not reload (%s): run emberctl reload",
			 r.status >= 0 ? "refused" : err);
	close(fd);
	fclose(sink);
	reply_free(&r);
}

static void parse(int argc, char **argv, struct opts *o, int *first)
{
	int verb_at = -1;

	memset(o, 0, sizeof *o);
	o->root = "";
	o->reload = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' && verb_at < 0) {
			verb_at = i;
			for (size_t v = 0; v < sizeof verbs / sizeof *verbs; v++)
				if (strcmp(a, verbs[v]) == 0)
					o->verb = (enum verb)v;
		} else if (strncmp(a, "--root=", 7) == 0) {
			o->root = a + 7;
		} else if (strcmp(a, "--root") == 0 && i + 1 < argc) {
			o->root = argv[++i];
		} else if (strncmp(a, "--socket=", 9) == 0) {
			o->socket = a + 9;
		} else if (strcmp(a, "--socket") == 0 && i + 1 < argc) {
			o->socket = argv[++i];
		} else if (strcmp(a, "--no-reload") == 0) {
			o->reload = false;
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			o->quiet = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (a[0] == '-') {
			die(EXIT_USAGE, "%s: unknown option for %s (see --help)", a,
			    verb_at >= 0 ? argv[verb_at] : "enable");
		}
	}
	if (*o->root && o->root[0] != '/')
		die(EXIT_USAGE, "--root %s: not an absolute path", o->root);
	if (strcmp(o->root, "/") == 0)
		o->root = "";
	*first = verb_at + 1;
}

int enable_main(int argc, char **argv)
{
	struct opts o;
	int first, names = 0, failed = 0, enabled = 0;
	bool error = false;

	parse(argc, argv, &o, &first);
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-') {
			if ((strcmp(a, "--root") == 0 || strcmp(a, "--socket") == 0) && i + 1 < argc)
				i++;
			continue;
		}
		names++;
		switch (o.verb) {
		case V_ENABLE: failed |= enable_one(&o, a, 0) < 0; break;
		case V_DISABLE: failed |= disable_one(&o, a, 0) < 0; break;
		case V_MASK: failed |= mask_one(&o, a) < 0; break;
		case V_UNMASK: failed |= unmask_one(&o, a) < 0; break;
		case V_IS_ENABLED: enabled += is_enabled_one(&o, a, &error); break;
		}
	}
	if (names == 0)
		die(EXIT_USAGE, "%s: missing unit name", verbs[o.verb]);
	if (o.verb == V_IS_ENABLED)
		return enabled > 0 && !error ? EXIT_OK : 1;
	if (o.changed && o.reload && !*o.root)
		reload_pid1(&o);
	if (fflush(stdout) != 0)
		die(EXIT_SYSTEM, "stdout: cannot write: %s", strerror(errno));
	return failed ? 1 : EXIT_OK;
}
