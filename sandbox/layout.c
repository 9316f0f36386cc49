/* ReadOnlyPaths= and ReadWritePaths= laid out as systemd lays them out (systemd.exec(5),
 * its mount namespace setup):
 *  - parents before their children, so a read-only path inside a writable one stays
 *    read-only, whichever list names it first;
 *  - a path named in both lists (or also made read-only by ProtectSystem= and its kin) is
 *    read-only: at one path, read-only wins;
 *  - a path whose nearest parent in the layout is already treated the same way is left
 *    alone: systemd drops such an entry as redundant, and never looks at it. Debian's
 *    accounts-daemon.service lists ReadOnlyPaths= under ProtectSystem=strict that a
 *    system without GNOME does not have (/usr/share/accountsservice/interfaces/):
 *    systemd starts it, and ember refused to ("read-only mount: No such file").
 *  - an entry of those other keys below a listed one is applied again after it: the
 *    listed path's change reaches everything under it, and systemd applies the deeper
 *    entry last (netdata's ReadWriteDirectories=/run leaves ProtectHome=read-only's
 *    /run/user read-only).
 * The parents are what the other keys make of the tree: ProtectSystem= (strict: / read-
 * only, /dev /proc /sys left as they are, the homes writable without ProtectHome=),
 * ProtectHome=, ProtectKernelTunables=, ProtectControlGroups=, and, as parents of another kind that stop the comparison,
 * InaccessiblePaths=, PrivateTmp=, PrivateDevices= and bind mounts. */
#include <stdlib.h>
#include <string.h>

#include "setup.h"

enum mode { MODE_RO, MODE_RW, MODE_OTHER }; /* the order is the priority at one path */

struct entry {
	const char *path;
	size_t len;     /* without trailing slashes; 0 for / */
	enum mode mode;
	bool optional;
	bool listed;    /* from ReadOnlyPaths=/ReadWritePaths= (else already applied) */
};

#define ENTRIES_MAX (5 * SANDBOX_PATHS_MAX + 32)

struct layout {
	struct entry e[ENTRIES_MAX];
	size_t n;
};

static void add(struct layout *l, const char *path, enum mode mode, bool optional, bool listed)
{
	size_t len = strlen(path);

	if (l->n == ENTRIES_MAX || path[0] != '/')
		return;
	while (len > 0 && path[len - 1] == '/')
		len--;
	l->e[l->n++] = (struct entry){ path, len, mode, optional, listed };
}

static void add_list(struct layout *l, const struct sandbox_list *list, enum mode mode,
		     bool listed)
{
	for (size_t i = 0; i < list->count; i++)
		add(l, list->item[i].path, mode, list->item[i].optional, listed);
}

static void add_implied(struct layout *l, const struct sandbox_request *r)
{
	static const char *const api[] = { "/dev", "/proc", "/sys" };
	static const char *const tunables[] = {
		"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs", "/sys",
	};
	static const char *const homes[] = { "/home", "/root", "/run/user" };

	if (r->protect_system == SB_SYSTEM_STRICT) {
		add(l, "/", MODE_RO, false, false);
		for (size_t i = 0; i < 3; i++)
			add(l, api[i], MODE_OTHER, true, false);
		for (size_t i = 0; r->protect_home == SB_HOME_NO && i < 3; i++)
			add(l, homes[i], MODE_RW, true, false); /* setup.c: writable */
	}
	if (r->protect_system == SB_SYSTEM_YES || r->protect_system == SB_SYSTEM_FULL) {
		add(l, "/usr", MODE_RO, true, false);
		add(l, "/boot", MODE_RO, true, false);
		add(l, "/efi", MODE_RO, true, false);
	}
	if (r->protect_system == SB_SYSTEM_FULL)
		add(l, "/etc", MODE_RO, true, false);
	for (size_t i = 0; r->protect_home != SB_HOME_NO && i < 3; i++)
		add(l, homes[i], r->protect_home == SB_HOME_READ_ONLY ? MODE_RO : MODE_OTHER, true,
		    false);
	for (size_t i = 0; r->protect_kernel_tunables && i < 6; i++)
		add(l, tunables[i], MODE_RO, true, false);
	if (r->protect_control_groups)
		add(l, "/sys/fs/cgroup", MODE_RO, true, false);
	add_list(l, &r->inaccessible, MODE_OTHER, false);
	if (r->private_tmp) {
		add(l, "/tmp", MODE_OTHER, true, false);
		add(l, "/var/tmp", MODE_OTHER, true, false);
	}
	if (r->private_devices)
		add(l, "/dev", MODE_OTHER, true, false);
	for (size_t i = 0; i < r->binds.count; i++)
		add(l, r->binds.item[i].dst, MODE_OTHER, true, false);
}

/* By path, a parent (a prefix) before everything below it; at one path, by priority.
 * What sorts between a path and its parent ("/a-b" between "/a" and "/a/b") is skipped
 * when the nearest parent is looked for. */
static int compare(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int d = strncmp(a->path, b->path, n);

	if (d != 0)
		return d;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return (int)a->mode - (int)b->mode;
}

/* a is b, or one of b's parents. */
static bool at_or_above(const struct entry *a, const struct entry *b)
{
	if (a->len == 0)
		return true;
	return a->len <= b->len && strncmp(a->path, b->path, a->len) == 0 &&
	       (a->len == b->len || b->path[a->len] == '/');
}

/* The kept entry nearest above (or at) entry i: -1 none. */
static long nearest_above(const struct layout *l, const bool *kept, size_t i)
{
	for (size_t j = i; j-- > 0;)
		if (kept[j] && at_or_above(&l->e[j], &l->e[i]))
			return (long)j;
	return -1;
}

/* An entry the other keys applied already, below a listed one (kept, above it): the
 * listed path's change reaches everything under it, so this one is applied again after
 * it, as systemd applies the deeper entry last (netdata's ReadWriteDirectories=/run under
 * ProtectHome=read-only: /run/user stays read-only). */
static bool below_listed(const struct layout *l, const bool *kept, size_t i)
{
	const struct entry *e = &l->e[i];

	if (e->listed || e->mode == MODE_OTHER)
		return false;
	for (size_t j = i; j-- > 0;)
		if (kept[j] && l->e[j].listed && l->e[j].len < e->len && at_or_above(&l->e[j], e))
			return true;
	return false;
}

size_t sandbox_layout(const struct sandbox_request *r, struct sandbox_path *out, bool *read_only,
		      size_t max)
{
	static struct layout l;
	static bool kept[ENTRIES_MAX];
	size_t n = 0;

	l.n = 0;
	add_implied(&l, r);
	add_list(&l, &r->read_only, MODE_RO, true);
	add_list(&l, &r->read_write, MODE_RW, true);
	qsort(l.e, l.n, sizeof l.e[0], compare);
	for (size_t i = 0; i < l.n; i++) {
		long p = nearest_above(&l, kept, i);
		const struct entry *e = &l.e[i];
		kept[i] = !(p >= 0 && (l.e[p].len == e->len || l.e[p].mode == e->mode));
		if (!kept[i] || !(e->listed || below_listed(&l, kept, i)) || n == max)
			continue;
		out[n] = (struct sandbox_path){ e->path, e->optional };
		read_only[n++] = e->mode == MODE_RO;
	}
	return n;
}
