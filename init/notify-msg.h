#ifndef EMBER_INIT_NOTIFY_MSG_H
#define EMBER_INIT_NOTIFY_MSG_H
/* sd_notify messages: newline-separated VAR=value assignments in one datagram. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define NOTIFY_MSG_MAX 4096
#define NOTIFY_STATUS_MAX 128
#define NOTIFY_FDNAME_MAX 64 /* unit-runtime2: FDNAME= bytes incl. NUL (systemd: 255) */

struct notify_msg {
	bool ready;        /* READY=1 */
	bool stopping;     /* STOPPING=1 */
	bool has_status;
	char status[NOTIFY_STATUS_MAX]; /* STATUS=, truncated, control bytes replaced */
	pid_t mainpid;     /* MAINPID=, 0 when absent */
	bool reloading;    /* U2: RELOADING=1 (Type=notify-reload) */
	unsigned long long monotonic_usec; /* U2: MONOTONIC_USEC=, 0 when absent */
	/* runtime keys (unit-runtime2): the service watchdog and the fd store */
	bool watchdog_ping;     /* WATCHDOG=1 */
	bool watchdog_trigger;  /* WATCHDOG=trigger */
	bool has_watchdog_usec;
	unsigned long long watchdog_usec; /* WATCHDOG_USEC= */
	bool fdstore;           /* FDSTORE=1: keep the fds sent along */
	bool fdstore_remove;    /* FDSTOREREMOVE=1: drop the stored fds named FDNAME= */
	bool fdname_invalid;    /* FDNAME= too long, or with ':' or a non-printable byte */
	char fdname[NOTIFY_FDNAME_MAX]; /* FDNAME=, "" when absent */
};

/* Parse one datagram. Unknown variables are ignored (systemd defines many). Returns 0,
 * or -1 for a message that must be dropped whole: empty, over NOTIFY_MSG_MAX, holding a
 * NUL byte, or with an invalid READY=/STOPPING=/MAINPID=/RELOADING=/
 * MONOTONIC_USEC= value, or (unit-runtime2) WATCHDOG=, WATCHDOG_USEC=, FDSTORE=,
 * FDSTOREREMOVE= value. */
int notify_parse(const char *buf, size_t len, struct notify_msg *m);
#endif
