// sources: sandbox/layout.c
/* ReadOnlyPaths= and ReadWritePaths= as systemd lays them out (sandbox/layout.c): parents
 * first, read-only wins at one path, and a path its nearest parent already treats the
 * same way is left alone (never looked at: it need not exist). */
#include <string.h>

#include "harness.h"
#include "setup.h"

static struct sandbox_request req;
static struct sandbox_path out[64];
static bool ro[64];
static size_t n;

static void list_add(struct sandbox_list *l, const char *path)
{
	bool optional = path[0] == '-';

	l->item[l->count++] = (struct sandbox_path){ path + optional, optional };
}

static void lay_out(void)
{
	n = sandbox_layout(&req, out, ro, 64);
}

static void reset(void)
{
	memset(&req, 0, sizeof req);
}

/* "path:ro" or "path:rw" for step i. */
static const char *step(size_t i)
{
	static char buf[128];

	if (i >= n)
		return "(none)";
	snprintf(buf, sizeof buf, "%s%s:%s", out[i].optional ? "-" : "", out[i].path,
		 ro[i] ? "ro" : "rw");
	return buf;
}

/* Debian's accounts-daemon.service: under ProtectSystem=strict its ReadOnlyPaths= are
 * redundant (some do not exist on a system without GNOME); its ReadWritePaths= are not. */
static void accounts_daemon_read_only_paths_redundant(void)
{
	reset();
	req.protect_system = SB_SYSTEM_STRICT;
	req.private_devices = true;
	list_add(&req.read_write, "-/etc/gdm3/daemon.conf");
	list_add(&req.read_write, "/etc/");
	list_add(&req.read_write, "-/proc/self/loginuid");
	list_add(&req.read_write, "-/var/log/lastlog");
	list_add(&req.read_only, "/usr/share/accountsservice/interfaces/");
	list_add(&req.read_only, "/usr/share/dbus-1/interfaces/");
	list_add(&req.read_only, "/var/log/wtmp");
	list_add(&req.read_only, "/run/systemd/seats/");
	lay_out();
	CHECK(n == 3);
	CHECK_STR(step(0), "/etc/:rw");
	CHECK_STR(step(1), "-/proc/self/loginuid:rw");
	CHECK_STR(step(2), "-/var/log/lastlog:rw");
}

/* A read-only path inside a writable one: the parent first, whichever list came first. */
static void parent_first(void)
{
	reset();
	list_add(&req.read_only, "/var/lib/app/conf");
	list_add(&req.read_write, "/var/lib/app");
	req.protect_system = SB_SYSTEM_STRICT;
	lay_out();
	CHECK(n == 2);
	CHECK_STR(step(0), "/var/lib/app:rw");
	CHECK_STR(step(1), "/var/lib/app/conf:ro");
}

/* At one path read-only wins: in both lists, or read-only by ProtectSystem=. */
static void read_only_wins_at_one_path(void)
{
	reset();
	list_add(&req.read_write, "/srv/data");
	list_add(&req.read_only, "/srv/data/");
	lay_out();
	CHECK(n == 1);
	CHECK_STR(step(0), "/srv/data/:ro");
	reset();
	req.protect_system = SB_SYSTEM_FULL;
	list_add(&req.read_write, "/etc");
	list_add(&req.read_write, "/usr/local");
	list_add(&req.read_only, "/usr/share");
	lay_out();
	CHECK(n == 1);
	CHECK_STR(step(0), "/usr/local:rw");
}

/* Nothing above a path, or a parent of another kind (hidden, a private /tmp, a bind, an
 * API file system under strict): the path is applied. */
static void other_parents_keep_paths(void)
{
	reset();
	list_add(&req.read_only, "/a");
	list_add(&req.read_only, "/a/b");
	list_add(&req.inaccessible, "/secret");
	list_add(&req.read_only, "/secret/x");
	req.private_tmp = true;
	list_add(&req.read_only, "/tmp/y");
	list_add(&req.read_only, "/a-b");
	lay_out();
	CHECK(n == 4);
	CHECK_STR(step(0), "/a:ro");
	CHECK_STR(step(1), "/a-b:ro");
	CHECK_STR(step(2), "/secret/x:ro");
	CHECK_STR(step(3), "/tmp/y:ro");
}

/* Debian's netdata.service: ReadWriteDirectories=/run under ProtectHome=read-only. The
 * writable /run reaches /run/user, so ProtectHome='s read-only /run/user comes again after
 * it, as systemd applies the deeper entry last. */
static void implied_below_listed_applied_again(void)
{
	reset();
	req.protect_home = SB_HOME_READ_ONLY;
	req.protect_system = SB_SYSTEM_FULL;
	list_add(&req.read_only, "/");
	list_add(&req.read_write, "/run");
	list_add(&req.read_write, "/var/log");
	lay_out();
	CHECK(n == 4); /* /etc, /usr, /home, /root: read-only under a read-only /, redundant */
	CHECK_STR(step(0), "/:ro");
	CHECK_STR(step(1), "/run:rw");
	CHECK_STR(step(2), "-/run/user:ro");
	CHECK_STR(step(3), "/var/log:rw");
}

int main(void)
{
	RUN(implied_below_listed_applied_again);
	RUN(accounts_daemon_read_only_paths_redundant);
	RUN(parent_first);
	RUN(read_only_wins_at_one_path);
	RUN(other_parents_keep_paths);
	return harness_done();
}
