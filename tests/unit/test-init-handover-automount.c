// sources: init/handover.c
/* Re-execution: the answers automount units still owe the kernel travel as "w" records
 * (init/handover.c) and come back only when the record parses: a token is the kernel's,
 * and a wrong one could wake a process waiting on something else. The supervisor and the
 * automount table are stubbed: what is checked is the state text both ways. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "fdstore.h"
#include "handover.h"
#include "socket-accept.h"
#include "supervisor.h"
#include "unit-automount.h"
#include "unit-timer.h"

static struct service svc[2];
static struct unit units[2];

/* ---- stubs ---------------------------------------------------------------------------- */

static const struct { uint32_t token; bool expire; } owed[] = { { 7, false }, { 4294967295u, true } };
static struct { uint32_t token; bool expire; } again[8];
static size_t n_again;

static int adopted_carried = -1; /* timer_unit_adopted()'s last argument, -1: not called */
void timer_unit_adopted(struct unit *u, bool carried)
{
	(void)u;
	adopted_carried = carried;
}

size_t supervisor_count(void) { return 2; }
const struct unit *supervisor_unit(size_t i) { return &units[i]; }
const struct unit *supervisor_find(const char *name) { return supervisor_unit_for_handover(name); }
struct unit *supervisor_unit_for_handover(const char *name)
{
	for (size_t i = 0; i < 2; i++)
		if (strcmp(svc[i].name, name) == 0)
			return &units[i];
	return NULL;
}
bool supervisor_adopt_instance(const char *name) { (void)name; return false; }
bool accept_conn_get(size_t i, const char **instance, const char **sock, int *fd)
{
	(void)i, (void)instance, (void)sock, (void)fd;
	return false;
}
int accept_conn_restore(const char *instance, const char *sock, int fd)
{
	(void)instance, (void)sock, (void)fd;
	return -1;
}
const struct fdstore_entry *fdstore_entry_at(size_t i) { (void)i; return NULL; }
void fdstore_inherit(bool inherit) { (void)inherit; }
void fdstore_adopt(const char *unit, int fd, const char *name) { (void)unit, (void)fd, (void)name; }
bool service_name_valid(const char *name) { return name[0] != '\0'; }

bool automount_owed_at(const struct unit *u, size_t i, uint32_t *token, bool *expire)
{
	if (u != &units[0] || i >= sizeof owed / sizeof owed[0])
		return false;
	*token = owed[i].token;
	*expire = owed[i].expire;
	return true;
}
static pid_t adopted_expire[8];
static size_t n_expire;

pid_t automount_expire_pid(const struct unit *u) { return u == &units[0] ? 4321 : 0; }
int automount_adopt_expire(struct unit *u, pid_t pid)
{
	if (u != &units[0] || n_expire == sizeof adopted_expire / sizeof adopted_expire[0])
		return -1;
	adopted_expire[n_expire++] = pid;
	return 0;
}
int automount_owe_again(struct unit *u, uint32_t token, bool expire)
{
	if (u != &units[0] || n_again == sizeof again / sizeof again[0])
		return -1;
	again[n_again].token = token;
	again[n_again++].expire = expire;
	return 0;
}

/* ---- helpers -------------------------------------------------------------------------- */

static void setup(void)
{
	memset(units, 0, sizeof units);
	strcpy(svc[0].name, "mnt-data.automount");
	svc[0].kind = UNIT_AUTOMOUNT;
	strcpy(svc[1].name, "web");
	for (size_t i = 0; i < 2; i++) {
		units[i].svc = &svc[i];
		for (size_t f = 0; f < SOCKET_LISTEN_MAX; f++)
			units[i].listen_fd[f] = -1;
		units[i].cg_fd = units[i].out_fd = units[i].out_wfd = -1;
		units[i].err_fd = units[i].err_wfd = units[i].exec_fd = -1;
	}
	n_again = n_expire = 0;
}

/* What a new PID 1 reads: the text in a file named by EMBER_STATE_FD. */
static unsigned adopt_text(const char *text)
{
	struct handover_pid1 p;
	char path[] = "/tmp/ember-handover-test-XXXXXX";
	int fd = mkstemp(path);
	char env[32];

	unlink(path);
	CHECK(fd >= 3 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	lseek(fd, 0, SEEK_SET);
	snprintf(env, sizeof env, "%d", fd);
	setenv(HANDOVER_ENV, env, 1);
	CHECK(handover_receive(&p));
	return handover_adopt_units();
}

/* ---- tests ---------------------------------------------------------------------------- */

static void owed_answers_are_written_after_the_units(void)
{
	static char buf[64 * 1024];
	struct handover_pid1 p = { .boot_ready_us = -1 };
	const char *w1, *w2, *u_web;

	setup();
	CHECK(handover_format(buf, sizeof buf, &p) > 0);
	w1 = strstr(buf, "\nw mnt-data.automount token=7 expire=0\n");
	w2 = strstr(buf, "\nw mnt-data.automount token=4294967295 expire=1\n");
	u_web = strstr(buf, "\nu web ");
	CHECK(w1 && w2 && u_web && u_web < w1 && w1 < w2);
	CHECK(!strstr(buf, "\nw web "));
}

static void owed_answers_come_back(void)
{
	static char buf[64 * 1024];
	struct handover_pid1 p = { .boot_ready_us = -1 };

	setup();
	CHECK(handover_format(buf, sizeof buf, &p) > 0);
	CHECK(adopt_text(buf) == 2);
	CHECK(n_again == 2);
	CHECK(again[0].token == 7 && !again[0].expire);
	CHECK(again[1].token == 4294967295u && again[1].expire);
}

/* The idle check's child: written after the unit's answers, its pid taken back. */
static void idle_check_child_comes_back(void)
{
	static char buf[64 * 1024];
	struct handover_pid1 p = { .boot_ready_us = -1 };
	const char *w2, *e;

	setup();
	CHECK(handover_format(buf, sizeof buf, &p) > 0);
	w2 = strstr(buf, "\nw mnt-data.automount token=4294967295 expire=1\n");
	e = strstr(buf, "\ne mnt-data.automount pid=4321\n");
	CHECK(w2 && e && w2 < e);
	CHECK(!strstr(buf, "\ne web "));
	adopt_text(buf);
	CHECK(n_expire == 1 && adopted_expire[0] == 4321);
}

static void bad_idle_check_records_are_dropped(void)
{
	setup();
	adopt_text("ember-state 1\np run_pid=0\n"
		   "e mnt-data.automount pid=1\n"
		   "e mnt-data.automount pid=0\n"
		   "e mnt-data.automount pid=-7\n"
		   "e mnt-data.automount pid=12x\n"
		   "e mnt-data.automount pid=4294967296\n"
		   "e mnt-data.automount\n"
		   "e mnt-gone.automount pid=55\n"
		   "e web pid=56\n"
		   "e mnt-data.automount pid=57\n");
	CHECK(n_expire == 1 && adopted_expire[0] == 57);
}

static void bad_records_are_dropped(void)
{
	setup();
	adopt_text("ember-state 1\np run_pid=0\n"
		   "w mnt-data.automount token=-1 expire=0\n"
		   "w mnt-data.automount token=4294967296 expire=0\n"
		   "w mnt-data.automount token=12x expire=0\n"
		   "w mnt-data.automount token=12 expire=2\n"
		   "w mnt-data.automount token=12\n"
		   "w mnt-data.automount expire=1\n"
		   "w mnt-gone.automount token=5 expire=0\n"
		   "w web token=6 expire=0\n"
		   "w token=8 expire=0\n"
		   "w mnt-data.automount token=9 expire=1\n"
		   "w mnt-data.automount token=10 expire=0"); /* cut short: no newline */
	CHECK(n_again == 1);
	CHECK(again[0].token == 9 && again[0].expire);
}

/* A timer's last elapse: in µs now; a record of a PID 1 that kept it in ms still counts
 * (an upgrade re-executes into the new one), and the µs field wins when both are there. */
static void timer_last_elapse_from_older_record(void)
{
	setup();
	units[1].timer_last_us = -1;
	adopt_text("ember-state 1\np run_pid=0\nu web timer_last_ms=1234\n");
	CHECK(units[1].timer_last_us == 1234000);
	units[1].timer_last_us = -1;
	adopt_text("ember-state 1\np run_pid=0\nu web timer_last_us=5 timer_last_ms=7\n");
	CHECK(units[1].timer_last_us == 5);
}

/* The notify socket's fd travels in the "p" record; an older record (none) or a value
 * that cannot be a socket of ours (0-2, negative) gives -1: a new socket is bound. */
static void notify_fd_travels(void)
{
	static char buf[64 * 1024];
	struct handover_pid1 p = { .boot_ready_us = -1, .notify_fd = 7 }, q;

	setup();
	CHECK(handover_format(buf, sizeof buf, &p) > 0);
	CHECK(handover_parse_pid1(buf, &q) && q.notify_fd == 7);
	CHECK(handover_parse_pid1("ember-state 1\np run_pid=0\n", &q) && q.notify_fd == -1);
	CHECK(handover_parse_pid1("ember-state 1\np notify_fd=2\n", &q) && q.notify_fd == -1);
	CHECK(handover_parse_pid1("ember-state 1\np notify_fd=-5\n", &q) && q.notify_fd == -1);
}

/* A timer's drawn RandomizedDelaySec= travels; a record without it (an older PID 1) says
 * so, and the timer code draws one. Only timer units are asked. */
static void timer_random_delay_travels(void)
{
	setup();
	svc[1].kind = UNIT_TIMER;
	units[1].timer_random_ms = 0;
	adopt_text("ember-state 1\np run_pid=0\nu web timer_random_ms=4242\n");
	CHECK(units[1].timer_random_ms == 4242);
	CHECK(adopted_carried == 1);
	adopt_text("ember-state 1\np run_pid=0\nu web timer_last_us=5\n");
	CHECK(adopted_carried == 0);
	svc[1].kind = UNIT_SERVICE;
	adopted_carried = -1;
	adopt_text("ember-state 1\np run_pid=0\nu web timer_random_ms=1\n");
	CHECK(adopted_carried == -1);
}

int main(void)
{
	RUN(owed_answers_are_written_after_the_units);
	RUN(owed_answers_come_back);
	RUN(bad_records_are_dropped);
	RUN(idle_check_child_comes_back);
	RUN(bad_idle_check_records_are_dropped);
	RUN(timer_last_elapse_from_older_record);
	RUN(timer_random_delay_travels);
	RUN(notify_fd_travels);
	return harness_done();
}
