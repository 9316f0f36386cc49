// sources: init/service-load.c init/pages.c init/unit-targets.c init/service.c init/unit-runtime-keys.c init/socket-unit.c init/exec-line.c init/depgraph.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-kinds-run.c init/unit-mount.c init/unit-swap.c init/unit-device.c init/dynamic-user.c init/rlimits.c
/* Where units come from: ember's and systemd's directories, what the default target pulls
 * in (and nothing else), templates, drop-ins (order, override, reset), masks, and the
 * dependency graph over a loaded tree (missing Requires=, cycles). A fresh tree per case. */
#include "harness.h"
#include "../../init/depgraph.h"
#include "../../init/service.h"
#include "../../init/socket-unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64], own[128], etc[128], lib[128];
static const char *dirs[3] = { own, etc, lib };
static struct service svcs[160];
static size_t count;
static char messages[8192];
static struct depgraph graph;

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	size_t n = strlen(messages);

	snprintf(messages + n, sizeof messages - n, "%s %s:%u: %s\n",
		 severity == SERVICE_ERROR ? "E" : "W", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static void mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

static void setup(void)
{
	strcpy(root, "/tmp/ember-test-units.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(own, sizeof own, "%s/etc/ember/services", root);
	snprintf(etc, sizeof etc, "%s/etc/systemd/system", root);
	snprintf(lib, sizeof lib, "%s/lib/systemd/system", root);
	mkdirs(own);
	mkdirs(etc);
	mkdirs(lib);
	messages[0] = '\0';
	count = 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void teardown(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (strchr(file, '/')) {
		*strrchr(path, '/') = '\0';
		mkdirs(path);
		snprintf(path, sizeof path, "%s/%s", dir, file);
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* As `emberctl enable` makes them: DIR/TARGET.wants/FILE -> ../FILE's real path. */
static void link_in(const char *dir, const char *entry, const char *target)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", dir, entry);
	*strrchr(path, '/') = '\0';
	mkdirs(path);
	snprintf(path, sizeof path, "%s/%s", dir, entry);
	if (symlink(target, path) < 0)
		perror(path);
}

static void load_with(const char *target, const char *const *extra, size_t nextra)
{
	struct service_load_config cfg = { .dirs = dirs, .ndirs = 3, .default_target = target,
					   .extra = extra, .nextra = nextra };

	CHECK(service_load_from(&cfg, svcs, sizeof svcs / sizeof *svcs, &count, &diag) == 0);
}

static void load(void)
{
	load_with(NULL, NULL, 0);
}

static const struct service *named(const char *name)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(svcs[i].name, name) == 0)
			return &svcs[i];
	return NULL;
}

static const char *exec0(const struct service *s)
{
	return s && s->exec_start.count ? service_str(s, s->exec_start.line[0]) : "(none)";
}

static const char *const simple = "[Service]\nExecStart=/bin/sleep 1\n";
static const char *const installable =
	"[Service]\nExecStart=/bin/sleep 1\n[Install]\nWantedBy=multi-user.target\n";

static void pure_ember_tree_loads_only_its_own(void)
{
	setup();
	rmdir(etc);
	rmdir(lib);
	put(own, "a.service", simple);
	put(own, "b.service", "[Unit]\nWants=c.target\n[Service]\nExecStart=/bin/b\n");
	put(own, "c.target", "[Unit]\nDescription=custom\n");
	load();
	CHECK(count == 3 && named("a") && named("b") && named("c.target"));
	CHECK(named("c.target")->kind == UNIT_TARGET && !named("c.target")->failed);
	CHECK(!named("multi-user.target")); /* no target machinery without a reason */
	teardown();
}

static void systemd_units_start_only_when_enabled(void)
{
	char target[512];

	setup();
	put(own, "mine.service", simple);
	put(lib, "enabled.service", installable);
	put(lib, "disabled.service", installable);
	snprintf(target, sizeof target, "%s/enabled.service", lib);
	link_in(etc, "multi-user.target.wants/enabled.service", target);
	load();
	CHECK(named("mine") && named("enabled"));
	CHECK(!named("disabled"));
	CHECK(named("multi-user.target") && named("basic.target") && named("sysinit.target"));
	CHECK_STR(named("multi-user.target")->path, "(built-in)");
	CHECK(!named("graphical.target") && !named("rescue.target"));
	teardown();
}

/* A unit of ember's own with [Install] naming a target is inert until enabled: it loads
 * no target machinery; once its link is there, its target comes with it. */
static void own_unit_installed_loads_nothing_until_enabled(void)
{
	setup();
	rmdir(etc);
	rmdir(lib);
	put(own, "plain.service", simple);
	put(own, "opt.service", installable);
	load();
	CHECK(count == 1 && named("plain"));
	CHECK(!named("opt") && !named("multi-user.target") && !named("sysinit.target"));
	teardown();
	setup();
	rmdir(etc);
	rmdir(lib);
	put(own, "plain.service", simple);
	put(own, "opt.service", installable);
	link_in(own, "multi-user.target.wants/opt.service", "../opt.service");
	load();
	CHECK(named("plain") && named("opt") && named("multi-user.target"));
	teardown();
}

static void own_units_with_install_need_enabling(void)
{
	setup();
	put(own, "plain.service", simple);
	put(own, "opt.service", installable);
	put(own, "opt2.service", installable);
	link_in(own, "multi-user.target.wants/opt2.service", "../opt2.service");
	load();
	CHECK(named("plain") && !named("opt") && named("opt2"));
	teardown();
}

/* A unit enabled into a service (ember-activator, WantedBy=dbus.service, linked in
 * dbus.service.wants/ by its package) comes with that service and changes nothing on a
 * system without it: no target machinery is loaded for it. */
static void load_pure_ember_with_helper(bool with_bus)
{
	setup();
	rmdir(etc);
	rmdir(lib);
	put(own, with_bus ? "bus.service" : "plain.service", simple);
	put(own, "helper.service", "[Unit]\nBindsTo=bus.service\n[Service]\nExecStart=/bin/h\n"
				   "[Install]\nWantedBy=bus.service\n");
	link_in(own, "bus.service.wants/helper.service", "../helper.service");
	load();
}

static void own_unit_enabled_into_a_service(void)
{
	load_pure_ember_with_helper(false);
	CHECK(count == 1 && named("plain") && !named("helper"));
	CHECK(!named("multi-user.target"));
	teardown();
	load_pure_ember_with_helper(true);
	CHECK(count == 2 && named("bus") && named("helper"));
	CHECK(!named("multi-user.target"));
	teardown();
}

/* The units make install puts in ember's own directory (ember-activator.service, the
 * sockets and their templates, read from the source tree through $TOP) leave a system of
 * ember's own units as it was: none is enabled, so the default target and what it pulls
 * in are not loaded (ember-private.socket once was, WantedBy=sockets.target: the QEMU
 * images, which install them, booted every target; ember-userdb.socket, WantedBy=
 * sockets.target too, did again until a unit only installed stopped counting). */
static void shipped_units_leave_pure_ember_alone(void)
{
	static const char *const shipped[] = { "ember-activator.service", "ember-private.socket",
					       "ember-private@.service", "ember-managed-oom.socket",
					       "ember-managed-oom@.service", "ember-userdb.socket",
					       "ember-userdb@.service" };
	const char *top = getenv("TOP");
	char path[512], text[4096];

	setup();
	rmdir(etc);
	rmdir(lib);
	put(own, "plain.service", simple);
	for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++) {
		FILE *f;
		size_t n;
		snprintf(path, sizeof path, "%s/activator/%s", top ? top : ".", shipped[i]);
		f = fopen(path, "r");
		CHECK(f != NULL);
		if (!f)
			continue;
		n = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[n] = '\0';
		put(own, shipped[i], text);
	}
	load();
	CHECK(named("plain") && !named("ember-private.socket") && !named("ember-activator"));
	CHECK(!named("ember-userdb.socket") && !named("ember-managed-oom.socket"));
	CHECK(!named("multi-user.target") && !named("sockets.target"));
	teardown();
}

static void default_target_link_and_cmdline(void)
{
	char target[512];

	setup();
	put(lib, "gui.service", "[Service]\nExecStart=/bin/gui\n");
	put(lib, "graphical.target", "[Unit]\nRequires=multi-user.target\nWants=gui.service\n"
	    "After=multi-user.target\n");
	snprintf(target, sizeof target, "%s/graphical.target", lib);
	link_in(etc, "default.target", target);
	put(lib, "viadefault.service", simple);
	link_in(etc, "default.target.wants/viadefault.service", "/x");
	load();
	CHECK(named("graphical.target") && named("gui") && named("multi-user.target"));
	CHECK_STR(named("graphical.target")->path, target);
	CHECK(named("viadefault")); /* default.target.wants/ is the default target's */
	load_with("rescue.target", NULL, 0);
	CHECK(named("rescue.target") && !named("graphical.target") && !named("gui"));
	load_with("nonsense.target", NULL, 0);
	CHECK(named("multi-user.target") && !named("nonsense.target"));
	CHECK(strstr(messages, "nonsense.target:0: default target not found, using "
			       "multi-user.target") != NULL);
	teardown();
}

static void template_instances(void)
{
	char target[512];

	setup();
	put(lib, "getty@.service", "[Unit]\nDescription=Getty on %I\n"
	    "[Service]\nExecStart=/sbin/agetty -o '-p -- \\\\u' --noclear %I $TERM\n");
	snprintf(target, sizeof target, "%s/getty@.service", lib);
	link_in(etc, "getty.target.wants/getty@tty1.service", target);
	put(lib, "fsck@.service", "[Service]\nType=oneshot\nExecStart=/sbin/fsck %f\n");
	static const char *const extra[] = { "fsck@dev-disk-by\\x2dlabel-data", "getty@" };
	load_with(NULL, extra, 2);
	CHECK(named("getty.target") && named("getty@tty1") && !named("getty@"));
	CHECK_STR(exec0(named("getty@tty1")), "/sbin/agetty -o '-p -- \\\\u' --noclear tty1 $TERM");
	CHECK_STR(service_str(named("getty@tty1"), named("getty@tty1")->description),
		  "Getty on tty1");
	CHECK_STR(named("getty@tty1")->path, target);
	CHECK_STR(exec0(named("fsck@dev-disk-by\\x2dlabel-data")),
		  "/sbin/fsck /dev/disk/by-label/data");
	teardown();
}

static void dropins_order_override_and_reset(void)
{
	char run[160];

	setup();
	snprintf(run, sizeof run, "%s/run/systemd/system", root);
	mkdirs(run);
	put(lib, "d.service", "[Unit]\nAfter=x.service y.service\n[Service]\n"
	    "ExecStart=/bin/d\nEnvironment=A=1\n[Install]\nWantedBy=multi-user.target\n");
	put(lib, "d.service.d/10-a.conf", "[Service]\nEnvironment=B=2\n");
	put(etc, "d.service.d/10-a.conf", "[Service]\nEnvironment=C=3\n"); /* wins over lib's */
	put(lib, "service.d/05-all.conf", "[Service]\nEnvironment=ALL=1\n");
	put(run, "d.service.d/20-reset.conf", "[Unit]\nAfter=\nAfter=z.service\n");
	put(lib, "d.service.d/30-restart.conf", "[Service]\nRestart=always\n");
	put(etc, "d.service.d/30-restart.conf", ""); /* an empty file masks lib's */
	put(lib, "d.service.d/notconf.txt", "[Service]\nEnvironment=NO=1\n");
	link_in(etc, "multi-user.target.wants/d.service", "/whatever/d.service");
	const char *four[] = { own, etc, run, lib };
	struct service_load_config cfg = { .dirs = four, .ndirs = 4 };
	CHECK(service_load_from(&cfg, svcs, sizeof svcs / sizeof *svcs, &count, &diag) == 0);
	const struct service *d = named("d");
	CHECK(d && !d->failed);
	if (!d)
		{ teardown(); return; }
	CHECK(d->env_count == 3);
	CHECK_STR(service_str(d, d->env[0]), "A=1");
	CHECK_STR(service_str(d, d->env[1]), "ALL=1");
	CHECK_STR(service_str(d, d->env[2]), "C=3");
	CHECK(d->after.count == 1);
	CHECK_STR(service_str(d, d->after.name[0]), "z");
	CHECK(d->restart == RESTART_NO);
	teardown();
}

/* sockets-accept: dash-prefix drop-ins (foo-.service.d/ for foo-bar.service and
 * foo-bar-baz.service), and systemd's precedence for same-named files: the unit's own
 * and prefix directories in any search directory before the top-level service.d/, and
 * within one search directory the more specific name first. */
static void prefix_dropins(void)
{
	setup();
	put(lib, "foo-bar-baz.service", "[Service]\nExecStart=/bin/x\n[Install]\n"
	    "WantedBy=multi-user.target\n");
	put(lib, "foo-bar.service", "[Service]\nExecStart=/bin/y\n[Install]\n"
	    "WantedBy=multi-user.target\n");
	put(lib, "foo-.service.d/10-foo.conf", "[Service]\nEnvironment=FOO=1\n");
	put(lib, "foo-bar-.service.d/20-foobar.conf", "[Service]\nEnvironment=FOOBAR=1\n");
	put(lib, "foo-bar-.service.d/10-foo.conf", "[Service]\nEnvironment=FOO=from-foo-bar-\n");
	put(etc, "service.d/20-foobar.conf", "[Service]\nEnvironment=TOP=etc\n");
	put(lib, "foo-bar-baz.service.d/30-own.conf", "[Service]\nEnvironment=OWN=1\n");
	put(lib, "service.d/40-all.conf", "[Service]\nEnvironment=ALL=1\n");
	link_in(etc, "multi-user.target.wants/foo-bar-baz.service", "/x/foo-bar-baz.service");
	link_in(etc, "multi-user.target.wants/foo-bar.service", "/x/foo-bar.service");
	load();
	const struct service *b = named("foo-bar-baz"), *a = named("foo-bar");
	CHECK(a && b && !a->failed && !b->failed);
	if (!a || !b)
		{ teardown(); return; }
	CHECK(b->env_count == 4);
	CHECK_STR(service_str(b, b->env[0]), "FOO=from-foo-bar-"); /* longer prefix wins */
	CHECK_STR(service_str(b, b->env[1]), "FOOBAR=1"); /* a prefix beats service.d/ */
	CHECK_STR(service_str(b, b->env[2]), "OWN=1");
	CHECK_STR(service_str(b, b->env[3]), "ALL=1");
	/* foo-bar.service: foo-.service.d/ (foo-bar-.service.d/ is not its prefix) */
	CHECK(a->env_count == 3);
	CHECK_STR(service_str(a, a->env[0]), "FOO=1");
	CHECK_STR(service_str(a, a->env[1]), "TOP=etc");
	CHECK_STR(service_str(a, a->env[2]), "ALL=1");
	teardown();
}

/* A slice without a file (built in) takes its prefix's drop-ins: Debian's
 * user-.slice.d/10-defaults.conf gives user-1000.slice its TasksMax=, without a warning. */
static void slice_prefix_dropin_limits(void)
{
	setup();
	put(lib, "u.service", "[Service]\nExecStart=/bin/x\nSlice=user-1000.slice\n"
	    "[Install]\nWantedBy=multi-user.target\n");
	put(lib, "user-.slice.d/10-defaults.conf",
	    "[Unit]\nDescription=User Slice of UID %j\nDocumentation=man:user@.service(5)\n"
	    "After=systemd-user-sessions.service\nStopWhenUnneeded=yes\n\n"
	    "[Slice]\nTasksMax=33%\n");
	put(lib, "user-1000.slice.d/20-mem.conf", "[Slice]\nMemoryMax=1G\n");
	link_in(etc, "multi-user.target.wants/u.service", "/x/u.service");
	load();
	const struct service *sl = named("user-1000.slice"), *parent = named("user.slice");
	CHECK(sl && !sl->failed && parent);
	CHECK(sl && sl->tasks_max != ~0ULL && sl->tasks_max > 0);
	CHECK(sl && sl->memory_max == 1ULL << 30);
	CHECK(parent && parent->tasks_max == ~0ULL); /* user-.slice.d/ is not user.slice's */
	CHECK(strstr(messages, "TasksMax") == NULL);
	teardown();
}

/* sockets-accept: aliases, as systemd: a unit file that is a symlink with another name
 * (display-manager.service -> gdm3.service; Debian's dbus-org.* links; autovt@ ->
 * getty@) is the same unit; dependencies on the alias reach it. */
static void aliases_are_one_unit(void)
{
	char target[512];

	setup();
	put(lib, "gdm3.service", "[Service]\nExecStart=/bin/gdm\n");
	snprintf(target, sizeof target, "%s/gdm3.service", lib);
	link_in(etc, "display-manager.service", target);
	put(lib, "systemd-logind.service", "[Service]\nExecStart=/bin/logind\n");
	link_in(lib, "dbus-org.freedesktop.login1.service", "systemd-logind.service");
	put(lib, "getty@.service", "[Service]\nExecStart=/sbin/agetty %I\n");
	link_in(lib, "autovt@.service", "getty@.service");
	put(lib, "x.service", "[Unit]\nWants=display-manager.service autovt@tty2.service\n"
	    "After=display-manager.service\nRequires=dbus-org.freedesktop.login1.service\n"
	    "[Service]\nExecStart=/bin/x\n[Install]\nWantedBy=multi-user.target\n");
	link_in(etc, "multi-user.target.wants/x.service", "/x/x.service");
	load();
	const struct service *x = named("x"), *g = named("gdm3"), *t = named("getty@tty2");
	CHECK(x && g && t && named("systemd-logind"));
	CHECK(!named("display-manager") && !named("autovt@tty2"));
	CHECK(!named("dbus-org.freedesktop.login1"));
	if (!x || !g || !t)
		{ teardown(); return; }
	CHECK_STR(service_str(g, g->also_named), "display-manager");
	CHECK_STR(service_str(t, t->also_named), "autovt@tty2");
	CHECK(!x->failed); /* the Requires= on the alias is met */
	CHECK(x->after.count == 1);
	CHECK_STR(service_str(x, x->after.name[0]), "gdm3");
	CHECK_STR(exec0(t), "/sbin/agetty tty2");
	teardown();
}

/* An ordering on an alias nothing pulls in counts when the alias is of a loaded unit
 * (Debian: systemd-update-utmp-runlevel is After=runlevel3.target, a link to
 * multi-user.target; without it the runlevel record was asked for too early). The alias
 * is not loaded for it, and an ordering on a name that is no link stays as it was. */
static void ordering_on_unloaded_alias(void)
{
	setup();
	put(lib, "multi-user.target", "[Unit]\nDescription=Multi-User\n");
	link_in(lib, "runlevel3.target", "multi-user.target");
	link_in(lib, "runlevel0.target", "poweroff.target");
	put(lib, "rec.service", "[Unit]\nDefaultDependencies=no\n"
	    "After=runlevel3.target runlevel0.target nothing.target\n"
	    "[Service]\nType=oneshot\nExecStart=/bin/true\n");
	link_in(lib, "multi-user.target.wants/rec.service", "../rec.service");
	load();
	const struct service *r = named("rec");
	CHECK(r && named("multi-user.target") && !named("runlevel3.target") && !named("poweroff.target"));
	if (!r)
		{ teardown(); return; }
	CHECK(r->after.count == 3);
	CHECK_STR(service_str(r, r->after.name[0]), "multi-user.target");
	CHECK_STR(service_str(r, r->after.name[1]), "runlevel0.target");
	CHECK_STR(service_str(r, r->after.name[2]), "nothing.target");
	teardown();
}

/* Every list key: an empty assignment in a drop-in empties what the file set. */
static void dropin_resets_every_list_key(void)
{
	static const char *const keys[] = {
		"[Unit]", "After=a.service", "Before=b.service", "Requires=c.service",
		"Wants=d.service", "Requisite=e.service", "BindsTo=f.service", "PartOf=g.service",
		"Conflicts=h.service", "ConditionPathExists=/", "[Service]", "Type=oneshot",
		"ExecStartPre=/bin/true", "ExecStart=/bin/true", "ExecStop=/bin/true",
		"Environment=A=1", "EnvironmentFile=-/x", "SupplementaryGroups=audio",
		"[Install]", "WantedBy=multi-user.target", "RequiredBy=x.target", "Alias=y.service",
		"Also=z.service",
	};
	char text[1024] = "", reset[1024] = "";

	setup();
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		const char *eq = strchr(keys[i], '=');
		strcat(text, keys[i]);
		strcat(text, "\n");
		if (!eq || strncmp(keys[i], "Type=", 5) == 0) {
			if (!eq)
				strcat(reset, keys[i]);
			strcat(reset, eq ? "" : "\n");
			continue;
		}
		strncat(reset, keys[i], (size_t)(eq - keys[i]) + 1);
		strcat(reset, "\n");
	}
	put(own, "r.service", text);
	put(own, "r.service.d/reset.conf", reset);
	link_in(own, "multi-user.target.wants/r.service", "../r.service"); /* it has [Install] */
	load();
	const struct service *r = named("r");
	CHECK(r && !r->failed);
	if (!r) {
		teardown();
		return;
	}
	CHECK(r->after.count == 0 && r->before.count == 0 && r->requires.count == 0);
	CHECK(r->wants.count == 0 && r->requisite.count == 0 && r->binds_to.count == 0);
	CHECK(r->part_of.count == 0 && r->conflicts.count == 0 && r->condition_count == 0);
	CHECK(r->exec_start_pre.count == 0 && r->exec_start.count == 0 && r->exec_stop.count == 0);
	CHECK(r->env_count == 0 && r->envfile_count == 0 && r->group_count == 0);
	CHECK(r->wanted_by.count == 0 && r->required_by.count == 0 && r->alias.count == 0 &&
	      r->also.count == 0);
	teardown();
}

static void dropin_errors_name_the_dropin(void)
{
	setup();
	put(own, "e.service", simple);
	put(own, "e.service.d/bad.conf", "[Service]\nRestart=sometimes\n");
	put(own, "e.service.d/forged\nE fake.conf", "[Service]\nNice=5\n");
	load();
	CHECK(named("e") && named("e")->failed);
	CHECK(strstr(messages, "e.service.d/bad.conf:2: Restart=sometimes") != NULL);
	CHECK(strstr(messages, "e.service.d/: a drop-in whose name has control characters") != NULL);
	CHECK(!strstr(messages, "\nE fake")); /* never printed raw */
	teardown();
}

static void masks_in_either_tree(void)
{
	setup();
	put(lib, "m.service", installable);
	link_in(etc, "m.service", "/dev/null");
	link_in(etc, "multi-user.target.wants/m.service", "/lib/systemd/system/m.service");
	put(lib, "n.service", simple);
	put(own, "n.service", ""); /* an empty file in ember's own directory */
	link_in(etc, "multi-user.target.wants/n.service", "/lib/systemd/system/n.service");
	load();
	CHECK(named("m") && named("m")->masked);
	CHECK(named("n") && named("n")->masked);
	teardown();
}

static void missing_requirement_fails_only_that_unit(void)
{
	setup();
	put(lib, "needy.service", "[Unit]\nRequires=absent.service\nWants=gone.service\n"
	    "After=gone.service\n[Service]\nExecStart=/bin/n\n");
	put(lib, "fine.service", "[Unit]\nWants=gone.service\nAfter=gone.service\n"
	    "[Service]\nExecStart=/bin/f\n");
	link_in(etc, "multi-user.target.wants/needy.service", "/x");
	link_in(etc, "multi-user.target.wants/fine.service", "/x");
	load();
	CHECK(named("needy") && named("fine") && !named("absent") && !named("gone"));
	depgraph_from_services(&graph, svcs, count, &diag);
	CHECK(named("needy")->failed && !named("fine")->failed);
	CHECK_STR(named("needy")->error, "requires absent, which does not exist");
	/* a Wants= of a missing unit is no warning (systemd says nothing: it is how optional
	 * parts are wired); only a loader asked for notes hears of it */
	CHECK(strstr(messages, "Wants=gone") == NULL);
	CHECK(!named("multi-user.target")->failed);
	teardown();
}

static void cycle_is_broken_and_boot_goes_on(void)
{
	setup();
	put(lib, "p.service", "[Unit]\nAfter=q.service\n[Service]\nExecStart=/bin/p\n");
	put(lib, "q.service", "[Unit]\nAfter=p.service\nWants=p.service\n"
	    "[Service]\nExecStart=/bin/q\n");
	link_in(etc, "multi-user.target.wants/q.service", "/x");
	load();
	CHECK(named("p") && named("q"));
	depgraph_from_services(&graph, svcs, count, &diag);
	CHECK(!named("p")->failed && !named("q")->failed);
	CHECK(strstr(messages, "ordering cycle") && strstr(messages, "broken by dropping"));
	int mu = depgraph_find(&graph, "multi-user.target");
	CHECK(mu >= 0 && graph.cause[mu] == DEPGRAPH_STARTS);
	teardown();
}

static void default_dependencies_order_services_after_basic(void)
{
	setup();
	put(lib, "s.service", simple);
	put(lib, "early.service", "[Unit]\nDefaultDependencies=no\n[Service]\nExecStart=/bin/e\n");
	link_in(etc, "multi-user.target.wants/s.service", "/x");
	link_in(etc, "sysinit.target.wants/early.service", "/x");
	load();
	depgraph_from_services(&graph, svcs, count, &diag);
	int s = depgraph_find(&graph, "s"), basic = depgraph_find(&graph, "basic.target");
	int sysinit = depgraph_find(&graph, "sysinit.target"), early = depgraph_find(&graph, "early");
	int mu = depgraph_find(&graph, "multi-user.target");
	CHECK(s >= 0 && basic >= 0 && sysinit >= 0 && early >= 0 && mu >= 0);
	if (s < 0 || basic < 0 || sysinit < 0 || early < 0 || mu < 0)
		{ teardown(); return; }
	CHECK(graph.wave[basic] < graph.wave[s]);      /* After=basic.target */
	CHECK(graph.wave[s] < graph.wave[mu]);         /* the target waits for what it wants */
	CHECK(graph.wave[early] < graph.wave[sysinit]); /* sysinit waits; early does not */
	CHECK(depgraph_set_has(&graph.requires[s], (size_t)sysinit));
	CHECK(!depgraph_set_has(&graph.requires[early], (size_t)sysinit));
	teardown();
}

/* A target with more units enabled into it than a list holds (a small server's
 * multi-user.target.wants/, Debian's sysinit.target.wants/ with a few packages more):
 * every one loads, starts with the target and orders it; none is dropped. */
static void many_units_enabled_into_one_target(void)
{
	const char *dir = "multi-user.target.wants/";
	char file[64];
	int mu;

	setup();
	for (int i = 0; i < 40; i++) {
		snprintf(file, sizeof file, "%ss%02d.service", dir, i);
		put(lib, file + strlen(dir), simple);
		link_in(etc, file, "/x");
	}
	load();
	CHECK(!strstr(messages, "too many"));
	depgraph_from_services(&graph, svcs, count, &diag);
	mu = depgraph_find(&graph, "multi-user.target");
	CHECK(mu >= 0);
	for (int i = 0; i < 40 && mu >= 0; i++) {
		snprintf(file, sizeof file, "s%02d", i);
		const struct service *s = named(file), *t = &svcs[mu];
		int n = depgraph_find(&graph, file);
		CHECK(s && s->pulled && service_lists(t, &t->wants, file));
		CHECK(n >= 0 && graph.wave[n] < graph.wave[mu]);
	}
	teardown();
}

static void put_many(const char *dir, const char *fmt, int n)
{
	char file[96];

	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof file, fmt, i);
		put(lib, strrchr(file, '/') + 1, simple);
		if (dir)
			link_in(dir, file, "/x");
	}
}

/* Is every one of n names from fmt in list, loaded, and started before s? */
static bool all_listed_and_before(const struct service *s, const struct service_name_list *l,
				  const char *fmt, int n)
{
	char name[64];
	int at = depgraph_find(&graph, s->name);

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, fmt, i);
		int b = depgraph_find(&graph, name);
		if (!named(name) || !service_lists(s, l, name) || b < 0 || at < 0 ||
		    graph.wave[b] >= graph.wave[at] ||
		    (l == &s->requires && !depgraph_set_has(&graph.requires[at], (size_t)b)))
			return false;
	}
	return true;
}

/* More .requires/ links, .wants/ links and Requires= names than a list holds (systemd
 * has no limit): each one is loaded, required or wanted, and ordered; a missing name
 * past the first 32 still fails the unit that requires it. */
static void many_units_required_by_one_target(void)
{
	char text[2048] = "[Unit]\nRequires=";
	char needy[2048] = "[Unit]\nRequires=";

	setup();
	put_many(etc, "big.target.requires/r%02d.service", 40);
	put_many(etc, "big.target.wants/w%02d.service", 40);
	put_many(NULL, "x/l%02d.service", 40);
	for (int i = 0; i < 40; i++) {
		size_t n = strlen(text);
		snprintf(text + n, sizeof text - n, "l%02d.service ", i);
	}
	snprintf(needy + strlen(needy), sizeof needy - strlen(needy), "%s absent.service\n",
		 text + strlen("[Unit]\nRequires="));
	strcat(text, "\nWants=needy.service\n");
	put(lib, "big.target", text);
	put(lib, "needy.service", strcat(needy, "[Service]\nExecStart=/bin/n\n"));
	load_with("big.target", NULL, 0);
	CHECK(!strstr(messages, "too many") && !strstr(messages, "more than"));
	CHECK(named("big.target") && named("needy") && !named("needy")->failed);
	CHECK(service_list_count(&named("big.target")->requires) == 80);
	CHECK(service_list_count(&named("needy")->requires) == 41);
	depgraph_from_services(&graph, svcs, count, &diag);
	const struct service *t = named("big.target");
	CHECK(t && !t->failed);
	CHECK(t && all_listed_and_before(t, &t->requires, "r%02d", 40));
	CHECK(t && all_listed_and_before(t, &t->requires, "l%02d", 40));
	CHECK(t && all_listed_and_before(t, &t->wants, "w%02d", 40));
	CHECK(named("needy")->failed);
	CHECK_STR(named("needy")->error, "requires absent, which does not exist");
	teardown();
}

/* A unit wanted by a target and ordered after it (syncthing-resume.service: After= and
 * WantedBy=sleep.target; systemd-pcrphase.service in sysinit.target.wants/ with the
 * default dependencies) does not order the target after itself, whichever name sorts
 * first: systemd adds that ordering only when it makes no loop. */
static void wanted_after_its_target_makes_no_cycle(void)
{
	const char *after = "[Unit]\nAfter=t.target\n[Service]\nExecStart=/bin/a\n";
	int t, early, late;

	setup();
	put(lib, "t.target", "[Unit]\nDescription=t\n");
	put(lib, "a-early.service", after);
	put(lib, "z-late.service", after);
	link_in(etc, "multi-user.target.wants/t.target", "/x");
	link_in(etc, "t.target.wants/a-early.service", "/x");
	link_in(etc, "t.target.wants/z-late.service", "/x");
	load();
	depgraph_from_services(&graph, svcs, count, &diag);
	CHECK(!strstr(messages, "cycle"));
	t = depgraph_find(&graph, "t.target");
	early = depgraph_find(&graph, "a-early");
	late = depgraph_find(&graph, "z-late");
	CHECK(t >= 0 && early >= 0 && late >= 0);
	if (t >= 0 && early >= 0 && late >= 0)
		CHECK(graph.wave[t] < graph.wave[early] && graph.wave[t] < graph.wave[late]);
	teardown();
}

static void unreachable_units_are_not_loaded(void)
{
	setup();
	for (int i = 0; i < 40; i++) {
		char name[32];
		snprintf(name, sizeof name, "vendor%02d.service", i);
		put(lib, name, installable);
	}
	put(lib, "chain1.service", "[Unit]\nRequires=chain2.service\n[Service]\nExecStart=/bin/c\n");
	put(lib, "chain2.service", "[Unit]\nBindsTo=chain3.service\n[Service]\nExecStart=/bin/c\n");
	put(lib, "chain3.service", "[Unit]\nRequisite=chain4.service\n[Service]\nExecStart=/bin/c\n");
	put(lib, "chain4.service", simple);
	link_in(etc, "multi-user.target.wants/chain1.service", "/x");
	load();
	CHECK(named("chain1") && named("chain2") && named("chain3"));
	/* Requisite= does not pull in: loaded (a start of chain3 then fails while it is
	 * down, as systemd's), not started at boot */
	CHECK(named("chain4") && named("chain4")->on_demand && !named("chain4")->pulled);
	for (size_t i = 0; i < count; i++)
		CHECK(strncmp(svcs[i].name, "vendor", 6) != 0);
	teardown();
}

/* As Debian ships D-Bus: sockets.target wants dbus.socket and multi-user.target wants
 * dbus.service, so the service is pulled in (starts at boot and gets the socket's fd).
 * A socket unit whose service nothing pulls in still loads that service, not pulled in:
 * it starts on traffic. */
static void socket_units_load_their_services(void)
{
	char target[512];

	setup();
	put(lib, "dbus.socket", "[Socket]\nListenStream=/run/dbus/system_bus_socket\n"
	    "[Install]\nWantedBy=sockets.target\n");
	put(lib, "dbus.service", "[Unit]\nRequires=dbus.socket\n[Service]\nType=notify\n"
	    "ExecStart=/usr/bin/dbus-daemon --system --address=systemd:\n");
	put(lib, "lazy.socket", "[Socket]\nListenStream=/run/lazy\nService=lazy-worker.service\n"
	    "[Install]\nWantedBy=sockets.target\n");
	put(lib, "lazy-worker.service", simple);
	put(lib, "unused.socket", "[Socket]\nListenStream=/run/unused\n");
	put(lib, "unused.service", simple);
	snprintf(target, sizeof target, "%s/dbus.socket", lib);
	link_in(lib, "sockets.target.wants/dbus.socket", target);
	snprintf(target, sizeof target, "%s/lazy.socket", lib);
	link_in(etc, "sockets.target.wants/lazy.socket", target);
	snprintf(target, sizeof target, "%s/dbus.service", lib);
	link_in(lib, "multi-user.target.wants/dbus.service", target);
	load();
	CHECK(named("dbus.socket") && named("dbus.socket")->pulled);
	CHECK(named("dbus") && named("dbus")->pulled);
	CHECK(named("lazy.socket") && named("lazy.socket")->pulled);
	CHECK(named("lazy-worker") && !named("lazy-worker")->pulled);
	CHECK(!named("unused.socket") && !named("unused"));
	teardown();
}

/* Aliases as Debian enables them (distro issue): /etc/systemd/system/syslog.service is a
 * link to rsyslog.service, which multi-user.target wants; syslog.socket activates
 * syslog.service. One daemon, not two: the socket's service and every name that says
 * syslog resolve to rsyslog; a cycle of aliases ends, an alias of nothing is missing. */
static void aliases_name_one_unit(void)
{
	char target[512];
	const struct service *sock, *user;
	char name[SERVICE_NAME_MAX];

	setup();
	put(lib, "rsyslog.service", "[Service]\nExecStart=/usr/sbin/rsyslogd -n\n"
	    "[Install]\nWantedBy=multi-user.target\nAlias=syslog.service\n");
	put(lib, "syslog.socket", "[Socket]\nListenDatagram=/run/systemd/journal/syslog\n"
	    "[Install]\nWantedBy=sockets.target\n");
	put(lib, "logger.service", "[Unit]\nWants=syslog.service\nAfter=syslog.service\n"
	    "Requires=loop-a.service\nWants=dangling.service\n"
	    "[Service]\nExecStart=/bin/logger\n");
	snprintf(target, sizeof target, "%s/rsyslog.service", lib);
	link_in(etc, "syslog.service", target);
	link_in(etc, "multi-user.target.wants/rsyslog.service", target);
	snprintf(target, sizeof target, "%s/syslog.socket", lib);
	link_in(etc, "sockets.target.wants/syslog.socket", target);
	snprintf(target, sizeof target, "%s/logger.service", lib);
	link_in(etc, "multi-user.target.wants/logger.service", target);
	link_in(etc, "loop-a.service", "loop-b.service");
	link_in(etc, "loop-b.service", "/lib/systemd/system/loop-a.service");
	link_in(etc, "dangling.service", "/nowhere/absent.service");
	load();
	CHECK(named("rsyslog") && named("rsyslog")->pulled);
	CHECK(!named("syslog"));
	sock = named("syslog.socket");
	CHECK(sock && strcmp(socket_unit_service(sock, name, sizeof name), "rsyslog") == 0);
	/* the daemon syslog.socket starts sees /run/systemd/system/ (sd_booted()); no other */
	CHECK(named("rsyslog") && named("rsyslog")->systemd_view && service_sandboxed(named("rsyslog")));
	CHECK(named("logger") && !named("logger")->systemd_view);
	user = named("logger");
	CHECK(user && user->wants.count == 2 &&
	      strcmp(service_str(user, user->wants.name[0]), "rsyslog") == 0);
	CHECK(user && user->after.count >= 1 &&
	      strcmp(service_str(user, user->after.name[0]), "rsyslog") == 0);
	/* The cycle ends where it began after a bounded number of hops: loop-a, whose
	 * file cannot be opened (ELOOP or gone), fails and is reported. */
	CHECK(named("loop-a") && named("loop-a")->failed && !named("loop-b"));
	CHECK(!named("absent") && !named("dangling"));
	teardown();
}

/* Two enabled units where one says Conflicts= of the other (Debian's atopacct.service and
 * acct.service, both in multi-user.target.wants/): systemd's boot transaction keeps the
 * start of the one that says it and drops the other's, with what only that one pulled
 * in and what needs it (Requires=). A unit the default target requires keeps its start;
 * two that name each other are left to the run time (the later start stops the other). */
static void conflicting_wants_keep_the_conflicter(void)
{
	static const char *const wanted[] = { "atopacct", "acct", "needs-acct", "mutual-a",
					      "mutual-b", "rival" };
	char target[512], entry[256];

	setup();
	put(lib, "atopacct.service", "[Unit]\nConflicts=acct.service\n[Service]\nExecStart=/bin/a\n");
	put(lib, "acct.service", "[Unit]\nWants=acct-helper.service\n[Service]\nExecStart=/bin/b\n");
	put(lib, "acct-helper.service", simple);
	put(lib, "needs-acct.service", "[Unit]\nRequires=acct.service\n[Service]\nExecStart=/bin/c\n");
	put(lib, "mutual-a.service", "[Unit]\nConflicts=mutual-b.service\n[Service]\nExecStart=/bin/d\n");
	put(lib, "mutual-b.service", "[Unit]\nConflicts=mutual-a.service\n[Service]\nExecStart=/bin/e\n");
	put(lib, "rival.service", "[Unit]\nConflicts=needed.service\n[Service]\nExecStart=/bin/f\n");
	put(lib, "needed.service", simple);
	for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++) {
		snprintf(target, sizeof target, "%s/%s.service", lib, wanted[i]);
		snprintf(entry, sizeof entry, "multi-user.target.wants/%s.service", wanted[i]);
		link_in(etc, entry, target);
	}
	snprintf(target, sizeof target, "%s/needed.service", lib);
	link_in(etc, "multi-user.target.requires/needed.service", target);
	load();
	CHECK(named("atopacct") && !named("atopacct")->conflicted);
	CHECK(named("acct") && named("acct")->conflicted && !named("acct")->pulled);
	CHECK(named("needs-acct") && named("needs-acct")->conflicted);
	CHECK(!named("acct-helper"));
	CHECK(named("mutual-a") && !named("mutual-a")->conflicted);
	CHECK(named("mutual-b") && !named("mutual-b")->conflicted);
	CHECK(named("rival") && !named("rival")->conflicted);
	CHECK(named("needed") && !named("needed")->conflicted);
	/* started by name, it is the caller's: not dropped */
	load_with(NULL, (const char *const[]){ "acct" }, 1);
	CHECK(named("acct") && !named("acct")->conflicted && named("acct-helper"));
	teardown();
}

/* What only a timer's (or socket's) service wants is loaded with it but not started at
 * boot: Debian's fwupd-refresh.timer starts fwupd-refresh.service, which wants
 * network-online.target and so NetworkManager-wait-online.service; systemd starts
 * those when the timer fires, not at boot. What the default target also pulls in, or
 * an own unit wants, still starts. */
static void triggered_units_wants_wait(void)
{
	char target[512];

	setup();
	put(lib, "refresh.timer", "[Timer]\nOnCalendar=daily\n[Install]\nWantedBy=timers.target\n");
	put(lib, "refresh.service", "[Unit]\nWants=online.target shared.service\n"
	    "[Service]\nExecStart=/bin/r\n");
	put(lib, "online.target", "[Unit]\nWants=wait-online.service\n");
	put(lib, "wait-online.service", simple);
	put(lib, "shared.service", installable);
	put(own, "mine.service", "[Unit]\nWants=owned.service\n[Service]\nExecStart=/bin/m\n");
	put(lib, "owned.service", simple);
	snprintf(target, sizeof target, "%s/refresh.timer", lib);
	link_in(etc, "timers.target.wants/refresh.timer", target);
	snprintf(target, sizeof target, "%s/shared.service", lib);
	link_in(etc, "multi-user.target.wants/shared.service", target);
	load();
	CHECK(named("refresh.timer") && !named("refresh.timer")->on_demand);
	CHECK(named("refresh") && named("refresh")->on_demand);
	CHECK(named("online.target") && named("online.target")->on_demand);
	CHECK(named("wait-online") && named("wait-online")->on_demand);
	CHECK(named("shared") && !named("shared")->on_demand);
	CHECK(named("owned") && !named("owned")->on_demand);
	teardown();
}

int main(void)
{
	RUN(pure_ember_tree_loads_only_its_own);
	RUN(systemd_units_start_only_when_enabled);
	RUN(own_units_with_install_need_enabling);
	RUN(own_unit_installed_loads_nothing_until_enabled);
	RUN(own_unit_enabled_into_a_service);
	RUN(default_target_link_and_cmdline);
	RUN(template_instances);
	RUN(dropins_order_override_and_reset);
	RUN(dropin_resets_every_list_key);
	RUN(prefix_dropins);
	RUN(slice_prefix_dropin_limits);
	RUN(aliases_are_one_unit);
	RUN(shipped_units_leave_pure_ember_alone);
	RUN(ordering_on_unloaded_alias);
	RUN(dropin_errors_name_the_dropin);
	RUN(masks_in_either_tree);
	RUN(missing_requirement_fails_only_that_unit);
	RUN(cycle_is_broken_and_boot_goes_on);
	RUN(default_dependencies_order_services_after_basic);
	RUN(many_units_enabled_into_one_target);
	RUN(many_units_required_by_one_target);
	RUN(wanted_after_its_target_makes_no_cycle);
	RUN(unreachable_units_are_not_loaded);
	RUN(socket_units_load_their_services);
	RUN(aliases_name_one_unit);
	RUN(conflicting_wants_keep_the_conflicter);
	RUN(triggered_units_wants_wait);
	return harness_done();
}
