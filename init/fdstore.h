#ifndef EMBER_INIT_FDSTORE_H
#define EMBER_INIT_FDSTORE_H
/* unit-runtime2: the file descriptor store (FileDescriptorStoreMax=). A service sends
 * fds with FDSTORE=1 (SCM_RIGHTS, optional FDNAME=) over the notify socket; PID 1 keeps
 * them across restarts of the service (and its own re-execution) and passes them back
 * after the socket units' fds, named in LISTEN_FDNAMES=, as systemd does. Bounded: at
 * most FileDescriptorStoreMax= per service and FDSTORE_TOTAL_MAX in all, in fixed
 * storage. */
#include <stdbool.h>
#include <stddef.h>

#include "notify-msg.h"
#include "service.h"

#define FDSTORE_TOTAL_MAX 256 /* stored fds of every service together (journald: one per stream) */

struct listen_pass;

struct fdstore_entry {
	int fd;                          /* -1: a free slot */
	char unit[SERVICE_NAME_MAX];
	char name[NOTIFY_FDNAME_MAX];
};

/* Keep fd for unit (at most max for it). 0: the store owns fd now; -1: refused (full,
 * or the same open file is stored already), the caller still owns it. */
int fdstore_add(const char *unit, unsigned max, int fd, const char *name);
/* Close and forget unit's fds called name (FDSTOREREMOVE=1). */
void fdstore_remove(const char *unit, const char *name);
/* Close and forget all of unit's fds. */
void fdstore_release(const char *unit);
size_t fdstore_count(const char *unit);
/* Append unit's fds (in the order they came) to pass. -1 with err when they do not fit. */
int fdstore_collect(const char *unit, struct listen_pass *pass, char *err, size_t errlen);
/* A run of the service ended; restarting: another run follows at once. Releases the
 * store as FileDescriptorStorePreserve= says. */
void fdstore_unit_stopped(const struct service *s, bool restarting);

/* Re-execution (handover.c): every entry, to serialise; keep the fds open across execve
 * (or not); take one back in the new PID 1. */
const struct fdstore_entry *fdstore_entry_at(size_t i);
void fdstore_inherit(bool inherit);
void fdstore_adopt(const char *unit, int fd, const char *name);
#endif
