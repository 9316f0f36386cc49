/* ember-modload: load the kernel modules configured in modules-load.d and on the
 * kernel command line, in parallel, in dependency order, with finit_module(2). */
#include "cli.h"
#include "cmdline.h"
#include "confdirs.h"
#include "depindex.h"
#include "exitcode.h"
#include "loadconf.h"
#include "loader.h"
#include "log.h"
#include "modprobe.h"
#include "output.h"
#include "parse.h"
#include "plan.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PROG "ember-modload"
/* Configuration files are small; anything bigger is a mistake or an attack. */
#define CONF_MAX (4u << 20)
#define MAX_JOBS 64

enum {
	EXIT_LOAD_FAILED = 1, /* a module failed to load, or configuration was unreadable */
	EXIT_NO_INDEX = 2,    /* modules requested but the module index cannot be read */
};

static const char *const modules_load_dirs[] = {
	"/etc/modules-load.d", "/run/modules-load.d", "/usr/local/lib/modules-load.d",
	"/usr/lib/modules-load.d", NULL,
};

static const char *const modprobe_dirs[] = {
	"/etc/modprobe.d", "/run/modprobe.d", "/usr/local/lib/modprobe.d", "/usr/lib/modprobe.d",
	"/lib/modprobe.d", NULL,
};

struct options {
	const char *root; /* "" for / */
	const char *release;
	const char *cmdline;
	struct strvec configs;
	unsigned long jobs; /* 0: online CPUs */
	bool dry_run, json, verbose;
	char **modules;
	int nmodules;
};

static void usage(FILE *f)
{
	fputs("usage: " PROG " [OPTIONS] [MODULE...]\n"
	      "Load kernel modules in parallel, dependencies first. Without MODULE, load those\n"
	      "named in modules-load.d and by modules_load= on the kernel command line.\n\n"
	      "  -j, --jobs N         load up to N modules at once (default: online CPUs)\n"
	      "  -n, --dry-run        print the plan (waves and order); load nothing\n"
	      "      --json           print per-module results (or the plan) as JSON\n"
	      "  -v, --verbose        log each module as it loads\n"
	      "  -C, --config FILE    read only this modules-load.d file (repeatable)\n"
	      "  -d, --root DIR       read modules, configuration and /proc under DIR\n"
	      "  -k, --kernel RELEASE use /lib/modules/RELEASE (default: uname -r)\n"
	      "      --cmdline TEXT   use TEXT as the kernel command line\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "Exit: 0 ok (missing modules are warnings), 1 a module failed to load,\n"
	      "2 the module index is unreadable, 100 usage, 111 system error.\n",
	      f);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	enum { OPT_JSON = 256, OPT_CMDLINE };
	static const struct option longopts[] = {
		{ "jobs", required_argument, NULL, 'j' }, { "dry-run", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, OPT_JSON },  { "verbose", no_argument, NULL, 'v' },
		{ "config", required_argument, NULL, 'C' }, { "root", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' }, { "cmdline", required_argument, NULL, OPT_CMDLINE },
		{ "help", no_argument, NULL, 'h' },       { "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "j:nvC:d:k:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (parse_ulong(optarg, 1, MAX_JOBS, &o->jobs) < 0)
				die(EXIT_USAGE, "--jobs %s: not a number from 1 to %d", optarg, MAX_JOBS);
			break;
		case 'n': o->dry_run = true; break;
		case OPT_JSON: o->json = true; break;
		case 'v': o->verbose = true; break;
		case 'C': strvec_push(&o->configs, optarg); break;
		case 'd': o->root = optarg; break;
		case 'k': o->release = optarg; break;
		case OPT_CMDLINE: o->cmdline = optarg; break;
		case 'h': usage(stdout); exit(EXIT_OK);
		case 'V': print_version(PROG); exit(EXIT_OK);
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	o->modules = argv + optind;
	o->nmodules = argc - optind;
	if (o->nmodules && o->configs.n)
		die(EXIT_USAGE, "give module names or --config files, not both");
	for (int i = 0; i < o->nmodules; i++)
		if (!modname_valid(o->modules[i]))
			die(EXIT_USAGE, "%s: not a module name", o->modules[i]);
	if (o->release && (!*o->release || strchr(o->release, '/')))
		die(EXIT_USAGE, "--kernel %s: not a kernel release", o->release);
}

/* "DIR" without trailing slashes; "" for "/". */
static char *normalize_root(const char *root)
{
	char *r = xstrdup(root ? root : "");
	size_t len = strlen(r);
	while (len > 0 && r[len - 1] == '/')
		r[--len] = '\0';
	return r;
}

static bool exists(const char *root, const char *path)
{
	char *full = xconcat(root, path, NULL);
	bool ok = access(full, F_OK) == 0;
	free(full);
	return ok;
}

/* Reads one modules-load.d file into the request list; false on error (logged). */
static bool read_modules_load(const char *path, const char *shown, struct request_list *reqs)
{
	char *text = read_whole(path, CONF_MAX, NULL);
	int bad;

	if (!text) {
		log_error("%s: cannot read: %s", shown, errno == EFBIG ? "larger than 4 MiB" : strerror(errno));
		return false;
	}
	bad = modules_load_parse(text, shown, reqs);
	free(text);
	return bad == 0;
}

/* Explicit --config FILE: as given, or searched by name in the modules-load.d dirs. */
static bool read_config_arg(const char *root, const char *arg, struct request_list *reqs)
{
	if (strchr(arg, '/')) {
		/* An absolute path lives under --root; a relative one is the caller's. */
		char *path = arg[0] == '/' ? xconcat(root, arg, NULL) : xstrdup(arg);
		bool ok = read_modules_load(path, arg, reqs);
		free(path);
		return ok;
	}
	for (size_t i = 0; modules_load_dirs[i]; i++) {
		char *path = xconcat(root, modules_load_dirs[i], "/", arg, NULL);
		if (access(path, F_OK) == 0) {
			bool ok = read_modules_load(path, path, reqs);
			free(path);
			return ok;
		}
		free(path);
	}
	log_error("%s: not found in any modules-load.d directory", arg);
	return false;
}

/* Everything to load, in order: names on our command line; else --config files;
 * else kernel command line then modules-load.d files sorted by name. */
static bool collect_requests(const struct options *o, const char *root, struct cmdline *cmd,
			     struct request_list *reqs)
{
	struct conf_list files = { 0 };
	bool ok = true;

	if (o->nmodules) {
		for (int i = 0; i < o->nmodules; i++)
			request_add(reqs, o->modules[i], "command line");
		return true;
	}
	if (o->configs.n) {
		for (size_t i = 0; i < o->configs.n; i++)
			ok &= read_config_arg(root, o->configs.v[i], reqs);
		return ok;
	}
	for (size_t i = 0; i < cmd->modules.n; i++)
		request_add(reqs, cmd->modules.v[i].name, cmd->modules.v[i].source);
	if (conf_list_dirs(root, modules_load_dirs, &files) < 0)
		ok = false;
	for (size_t i = 0; i < files.n; i++)
		ok &= read_modules_load(files.v[i].path, files.v[i].path, reqs);
	conf_list_free(&files);
	return ok;
}

static bool read_modprobe_d(const char *root, struct modprobe_conf *conf)
{
	struct conf_list files = { 0 };
	bool ok = conf_list_dirs(root, modprobe_dirs, &files) == 0;

	for (size_t i = 0; i < files.n; i++) {
		char *text = read_whole(files.v[i].path, CONF_MAX, NULL);
		if (!text) {
			log_error("%s: cannot read: %s", files.v[i].path, strerror(errno));
			ok = false;
			continue;
		}
		/* Bad modprobe.d lines are warnings, as with kmod: the rest still applies. */
		modprobe_conf_parse(text, files.v[i].path, conf);
		free(text);
	}
	conf_list_free(&files);
	return ok;
}

static void read_cmdline(const struct options *o, const char *root, struct cmdline *cmd)
{
	bool in_initrd = exists(root, "/etc/initrd-release");
	char *text = NULL;

	if (o->cmdline) {
		cmdline_parse(o->cmdline, in_initrd, cmd);
		return;
	}
	{
		char *path = xconcat(root, "/proc/cmdline", NULL);
		text = read_whole(path, CONF_MAX, NULL);
		free(path);
	}
	if (text)
		cmdline_parse(text, in_initrd, cmd);
	free(text);
}

/* Names of modules the kernel reports Live in /proc/modules. */
static void read_live(const char *root, struct strmap *live)
{
	char *path = xconcat(root, "/proc/modules", NULL);
	char *text = read_whole(path, 64u << 20, NULL);

	free(path);
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n'), name[MODNAME_MAX];
		if (nl)
			*nl = '\0';
		if (sscanf(line, "%4095s", name) == 1 && strstr(line, " Live ")) {
			modname_normalize(name);
			strmap_put(live, name, live);
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
}

static char *module_dir(const struct options *o, const char *root)
{
	struct utsname u;
	const char *release = o->release;
	char *dir;

	if (!release) {
		if (uname(&u) < 0)
			die(EXIT_SYSTEM, "uname: %s", strerror(errno));
		release = u.release;
	}
	dir = xconcat(root, "/lib/modules/", release, NULL);
	if (access(dir, F_OK) != 0) {
		char *usr = xconcat(root, "/usr/lib/modules/", release, NULL);
		if (access(usr, F_OK) == 0) {
			free(dir);
			return usr;
		}
		free(usr);
	}
	return dir;
}

static void log_requests(const struct plan *p, bool verbose)
{
	for (size_t i = 0; i < p->nreqs; i++) {
		const struct req_result *r = &p->reqs[i];
		if (r->kind == REQ_MISSING)
			log_warn("%s: module not found (requested by %s)", r->name, r->source);
		else if (r->kind == REQ_BLACKLISTED && verbose)
			log_info("%s: blacklisted, not loaded", r->name);
		else if (r->kind == REQ_BUILTIN && verbose)
			log_info("%s: built into the kernel", r->name);
	}
}

static unsigned choose_jobs(const struct options *o, const struct plan *p)
{
	long cpus = o->jobs ? (long)o->jobs : sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = cpus < 1 ? 1 : cpus > MAX_JOBS ? MAX_JOBS : (unsigned)cpus;
	return p->n && jobs > p->n ? (unsigned)p->n : jobs;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct cmdline cmd = { 0 };
	struct request_list reqs = { 0 };
	struct modprobe_conf conf = { 0 };
	struct strmap live = { 0 };
	struct modindex index;
	struct plan plan;
	struct kernel_support kernel;
	char *root, *dir;
	bool config_ok;
	long long start = now_us();
	unsigned jobs;

	log_open(PROG);
	parse_args(argc, argv, &o);
	log_set_level(o.verbose ? LOG_LEVEL_INFO : LOG_LEVEL_WARN);
	root = normalize_root(o.root);
	read_cmdline(&o, root, &cmd);
	config_ok = collect_requests(&o, root, &cmd, &reqs);
	config_ok &= read_modprobe_d(root, &conf);

	dir = module_dir(&o, root);
	if (reqs.n == 0) {
		memset(&plan, 0, sizeof plan);
	} else {
		if (modindex_open(&index, dir) < 0) {
			log_error("%s: cannot read the module index (modules.dep): %s", dir, strerror(errno));
			return EXIT_NO_INDEX;
		}
		read_live(root, &live);
		plan_build(&plan, &(struct plan_input){ .requests = &reqs, .index = &index, .conf = &conf,
							.cmdline = &cmd, .live = &live, .root = root });
	}
	log_requests(&plan, o.verbose);
	jobs = choose_jobs(&o, &plan);
	if (o.dry_run) {
		if (o.json)
			print_json(stdout, &plan, true, jobs, now_us() - start);
		else
			print_plan_text(stdout, &plan, o.verbose);
	} else if (plan.n) {
		kernel_support_probe(root, &kernel);
		loader_run(&plan, &(struct loader_opts){ .jobs = jobs, .verbose = o.verbose,
							 .insert = insert_module_file, .ctx = &kernel });
		if (o.json)
			print_json(stdout, &plan, false, jobs, now_us() - start);
	} else if (o.json) {
		print_json(stdout, &plan, false, jobs, now_us() - start);
	}
	if (fflush(stdout) != 0)
		die(EXIT_SYSTEM, "stdout: %s", strerror(errno));
	return (!config_ok || plan_has_failure(&plan)) ? EXIT_LOAD_FAILED : EXIT_OK;
}
