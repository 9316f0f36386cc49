/* unit-runtime2: the file descriptor store (see fdstore.h). */
#include "fdstore.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "parse.h"
#include "sockets.h"
#include "svc-runtime.h"

/* journald stores one fd per stream and must get all of them back with its sockets. */
_Static_assert(LISTEN_PASS_MAX >= FDSTORE_TOTAL_MAX + 32, "a service gets its whole store");

/* The state PID 1 keeps about stored fds, in one place. Slots are used in order, so
 * a unit's fds come back in the order they were stored. */
static struct {
	struct fdstore_entry e[FDSTORE_TOTAL_MAX];
	size_t used; /* slots [0, used) hold fds */
	bool full_logged; /* "store is full" said once until a slot frees up: a flood of
			   * FDSTORE=1 must not flood the log too */
} store;

static bool owned_by(const struct fdstore_entry *e, const char *unit)
{
	return strcmp(e->unit, unit) == 0;
}

size_t fdstore_count(const char *unit)
{
	size_t n = 0;

	for (size_t i = 0; i < store.used; i++)
		n += owned_by(&store.e[i], unit);
	return n;
}

/* systemd drops an fd that refers to an open file it stores already. */
static bool stored_already(const char *unit, int fd)
{
	struct stat a, b;

	if (fstat(fd, &a) < 0)
		return false;
	for (size_t i = 0; i < store.used; i++)
		if (owned_by(&store.e[i], unit) && fstat(store.e[i].fd, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
		    fcntl(fd, F_GETFL) == fcntl(store.e[i].fd, F_GETFL))
			return true;
	return false;
}

static void put(const char *unit, int fd, const char *name)
{
	struct fdstore_entry *e = &store.e[store.used++];

	e->fd = fd;
	str_copy(e->unit, sizeof e->unit, unit);
	str_copy(e->name, sizeof e->name, name);
	fcntl(fd, F_SETFD, FD_CLOEXEC); /* no other service may inherit it */
}

int fdstore_add(const char *unit, unsigned max, int fd, const char *name)
{
	if (fdstore_count(unit) >= max) {
		log_warn("%s: FDSTORE=1: FileDescriptorStoreMax=%u reached; fd dropped", unit, max);
		return -1;
	}
	if (store.used >= FDSTORE_TOTAL_MAX) {
		if (!store.full_logged)
			log_warn("%s: FDSTORE=1: ember's store is full (%d fds); fds dropped", unit,
				 FDSTORE_TOTAL_MAX);
		store.full_logged = true;
		return -1;
	}
	if (stored_already(unit, fd)) {
		log_debug("%s: FDSTORE=1: that file is stored already; fd dropped", unit);
		return -1;
	}
	put(unit, fd, name);
	/* debug, as systemd: journald stores each of its streams, a console line apiece */
	log_debug("%s: fd stored as \"%s\" (%zu kept)", unit, name, fdstore_count(unit));
	return 0;
}

/* Close the entries match() picks, keeping the others in order. */
static size_t drop(const char *unit, const char *name)
{
	size_t kept = 0, dropped = 0;

	for (size_t i = 0; i < store.used; i++) {
		struct fdstore_entry *e = &store.e[i];
		if (owned_by(e, unit) && (!name || strcmp(e->name, name) == 0)) {
			close(e->fd);
			dropped++;
			continue;
		}
		if (kept != i)
			store.e[kept] = *e;
		kept++;
	}
	store.used = kept;
	if (dropped)
		store.full_logged = false;
	return dropped;
}

void fdstore_remove(const char *unit, const char *name)
{
	size_t n = drop(unit, name);

	if (n)
		log_info("%s: %zu stored fd(s) \"%s\" removed (FDSTOREREMOVE=1)", unit, n, name);
}

void fdstore_release(const char *unit)
{
	size_t n = drop(unit, NULL);

	if (n)
		log_info("%s: %zu stored fd(s) released", unit, n);
}

/* What does not fit the service's fds or LISTEN_FDNAMES= stays in the store, unpassed:
 * a service that gets most of its fds back is better than one that does not start (for
 * journald, whose store holds its clients' streams, that would be the whole log). */
int fdstore_collect(const char *unit, struct listen_pass *pass, char *err, size_t errlen)
{
	size_t left_out = 0;

	(void)err;
	(void)errlen;
	for (size_t i = 0; i < store.used; i++) {
		if (!owned_by(&store.e[i], unit))
			continue;
		if (left_out > 0 || runtime_pass_add(pass, store.e[i].fd, store.e[i].name) < 0)
			left_out++;
	}
	if (left_out > 0)
		log_warn("%s: %zu stored fd(s) not passed: more than %d fds or %d bytes of names "
			 "for one service", unit, left_out, LISTEN_PASS_MAX, LISTEN_NAMES_MAX);
	return 0;
}

void fdstore_unit_stopped(const struct service *s, bool restarting)
{
	if (s->fdstore_preserve == PRESERVE_YES ||
	    (s->fdstore_preserve == PRESERVE_RESTART && restarting))
		return;
	fdstore_release(s->name);
}

const struct fdstore_entry *fdstore_entry_at(size_t i)
{
	return i < store.used ? &store.e[i] : NULL;
}

void fdstore_inherit(bool inherit)
{
	for (size_t i = 0; i < store.used; i++)
		fcntl(store.e[i].fd, F_SETFD, inherit ? 0 : FD_CLOEXEC);
}

void fdstore_adopt(const char *unit, int fd, const char *name)
{
	if (store.used >= FDSTORE_TOTAL_MAX || fcntl(fd, F_GETFD) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	put(unit, fd, name);
}
