// sources: init/unit-automount.c
/* Hostile: more answers owed than an automount keeps (AUTOMOUNT_WAIT_MAX). Every packet
 * past the cap must be answered at once with an error (EAGAIN), never dropped: the
 * kernel holds the process that looked until PID 1 answers, so a dropped token is a
 * process hung for good. The kernel itself asks once per path, however many processes
 * look (tests/qemu/test-automount.sh floods a real one and sees a single packet), so
 * only a fake pipe drives the table to its end: the packets are written here, four times
 * the cap, into a packet pipe as the kernel's. The answers are seen through the warning
 * answer() logs when its ioctl fails (no autofs mount stands behind the fds here). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/auto_dev-ioctl.h>

#include "harness.h"
#include "log.h"
#include "supervisor.h"
#include "unit-automount.h"
#include "unit-kinds.h"

#define FLOOD (4 * AUTOMOUNT_WAIT_MAX)

static struct service am_svc, mnt_svc;
static struct unit am, mnt;

#include "automount-stubs.h"

/* The answers given, in order: token and "ready" or the errno's text. */
static struct { unsigned token; char status[64]; } answered[2 * FLOOD];
static size_t n_answered;

/* ---- stubs ---------------------------------------------------------------------------- */

void log_info(const char *fmt, ...) { (void)fmt; }
void log_warn(const char *fmt, ...)
{
	char line[512];
	const char *t;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (!(t = strstr(line, "(token ")) || n_answered == sizeof answered / sizeof *answered)
		return;
	if (sscanf(t, "(token %u, %63[^)])", &answered[n_answered].token,
		   answered[n_answered].status) == 2)
		n_answered++;
}
int supervisor_start(const char *name, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	if (strcmp(name, mnt_svc.name) == 0 && mnt.state != UNIT_READY)
		mnt.state = UNIT_STARTING; /* a slow mount: it stays starting until told */
	return 0;
}

/* ---- helpers -------------------------------------------------------------------------- */

/* An automount up, its mount unit down, a packet pipe (O_DIRECT) as the kernel makes. */
static int setup(int p[2])
{
	n_answered = 0;
	return automount_fixture(p, 0, UNIT_STOPPED);
}

static void send_missing(int wfd, uint32_t token)
{
	struct autofs_v5_packet pk = { .hdr = { .proto_version = 5,
						.type = autofs_ptype_missing_direct },
				       .wait_queue_token = token, .pid = 100 + token };

	CHECK(write(wfd, &pk, sizeof pk) == (ssize_t)sizeof pk);
}

static void pipe_readable(void)
{
	struct pollfd fd = { .fd = am.listen_fd[AUTOMOUNT_PIPE], .events = POLLIN,
			     .revents = POLLIN };

	automount_units_handle_pollfds(&am, 1, &fd, 1);
}

/* Tokens 1..n, PID 1 reading as they come: a packet pipe holds one packet per page
 * buffer, 16 by default, as the kernel's does. */
static void flood(int wfd, uint32_t n)
{
	for (uint32_t t = 1; t <= n; t++) {
		send_missing(wfd, t);
		if (t % 8 == 0 || t == n)
			pipe_readable();
	}
}

/* How many answers between from and to (exclusive) have status, and are for tokens in
 * [lo, hi]. */
static size_t count(size_t from, size_t to, const char *status, unsigned lo, unsigned hi)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += strcmp(answered[i].status, status) == 0 && answered[i].token >= lo &&
		     answered[i].token <= hi;
	return n;
}

static void teardown(int p[2])
{
	automount_unit_stop(&am); /* answers what is left, closes the fds */
	close(p[1]);
}

/* ---- tests ---------------------------------------------------------------------------- */

static void flood_past_the_cap_is_answered_at_once(void)
{
	int p[2];
	size_t at_once;

	CHECK(setup(p) >= 0);
	flood(p[1], FLOOD);
	at_once = n_answered;
	/* Past the cap: an error at once, each token exactly once; within it: nothing yet. */
	CHECK(at_once == FLOOD - AUTOMOUNT_WAIT_MAX);
	CHECK(count(0, at_once, strerror(EAGAIN), AUTOMOUNT_WAIT_MAX + 1, FLOOD) == at_once);
	for (uint32_t t = 1; t <= FLOOD; t++) {
		uint32_t token;
		bool expire;
		CHECK((t <= AUTOMOUNT_WAIT_MAX) ==
		      (automount_owed_at(&am, t - 1, &token, &expire) && token == t && !expire));
	}
	automount_units_settle(&am, 1); /* the mount still starting: still owed */
	CHECK(n_answered == at_once);
	mnt.state = UNIT_READY;
	automount_units_settle(&am, 1);
	CHECK(n_answered == FLOOD);
	CHECK(count(at_once, n_answered, "ready", 1, AUTOMOUNT_WAIT_MAX) == AUTOMOUNT_WAIT_MAX);
	teardown(p);
}

static void table_takes_waiters_again_once_settled(void)
{
	int p[2];
	uint32_t token;
	bool expire;

	CHECK(setup(p) >= 0);
	flood(p[1], FLOOD);
	mnt.state = UNIT_READY;
	automount_units_settle(&am, 1);
	CHECK(!automount_owed_at(&am, 0, &token, &expire));
	/* A fresh wait on a mount that went down again: owed, not refused. */
	mnt.state = UNIT_STOPPED;
	send_missing(p[1], FLOOD + 1);
	pipe_readable();
	CHECK(n_answered == FLOOD);
	CHECK(automount_owed_at(&am, 0, &token, &expire) && token == FLOOD + 1);
	teardown(p);
	CHECK(n_answered == FLOOD + 1 && answered[FLOOD].token == FLOOD + 1 &&
	      strcmp(answered[FLOOD].status, strerror(EHOSTDOWN)) == 0);
}

/* The answers a re-execution hands over ("w" records) meet the same cap. */
static void handed_over_past_the_cap_answered_at_once(void)
{
	int p[2];

	CHECK(setup(p) >= 0);
	mnt.state = UNIT_STARTING;
	for (uint32_t t = 1; t <= FLOOD; t++)
		CHECK(automount_owe_again(&am, t, false) == 0);
	CHECK(n_answered == FLOOD - AUTOMOUNT_WAIT_MAX);
	CHECK(count(0, n_answered, strerror(EAGAIN), AUTOMOUNT_WAIT_MAX + 1, FLOOD) == n_answered);
	teardown(p);
	CHECK(n_answered == FLOOD);
	CHECK(count(FLOOD - AUTOMOUNT_WAIT_MAX, FLOOD, strerror(EHOSTDOWN), 1,
		    AUTOMOUNT_WAIT_MAX) == AUTOMOUNT_WAIT_MAX);
}

int main(void)
{
	RUN(flood_past_the_cap_is_answered_at_once);
	RUN(table_takes_waiters_again_once_settled);
	RUN(handed_over_past_the_cap_answered_at_once);
	return harness_done();
}
