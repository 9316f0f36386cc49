/* Timer units at run time: the next elapse of each active timer, starting its unit, the
 * Persistent= stamps and the clock watch. See unit-timer.h and docs/timers.md.
 *
 * The next elapse is computed again only when something it depends on changed, counted
 * by two generations: any unit's state (for OnUnitActiveSec= ...: cheap to redo), and
 * the clock being set or the units reloaded (the calendar searches). A timer's own start
 * and elapse redo its own. A busy boot, where units change state on every turn of the
 * main loop, thus never parses a calendar event again. */
#include "unit-timer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "calendar.h"
#include "hash.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "supervisor.h"

static struct {
	unsigned generation;     /* bumped by timer_units_changed() and every bump below */
	unsigned wall_generation; /* bumped when the clock was set, the units reloaded */
	int clock_fd;            /* the clock watch (timerfd), -1 until a calendar timer runs */
	long long armed_wall;    /* where clock_fd is armed, seconds since the epoch; -1 */
	long long startup_ms;    /* PID 1's start, CLOCK_BOOTTIME ms */
	bool clock_set;          /* arming found the clock set: handled on the next read */
	bool offset_known;
	long long offset_ms;     /* wall clock less CLOCK_BOOTTIME, as of the last look */
} tm = { 1, 1, -1, -1, 0, false, false, 0 };

/* Both clocks a timer lives on: the supervisor's (CLOCK_BOOTTIME) and the wall clock. */
static long long clock_us(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long long boot_us(void) { return clock_us(CLOCK_BOOTTIME); }
static long long boot_ms(void) { return boot_us() / 1000; }
static long long wall_ms(void) { return clock_us(CLOCK_REALTIME) / 1000; }

/* A step of the wall clock against CLOCK_BOOTTIME (which counts suspend too, so only a
 * set clock moves them apart; NTP's slewing moves it by far less per turn). */
#define CLOCK_STEP_MS 1000

/* The wall clock's offset as the timers last saw it: a calendar elapse becomes a boot
 * clock time through this, not through the clock as it reads now. Between a step and
 * the turn that notices it, the old offset holds: the new one would make every elapse
 * the step jumped over due at once. */
static long long wall_offset(void)
{
	if (!tm.offset_known) {
		tm.offset_ms = wall_ms() - boot_ms();
		tm.offset_known = true;
	}
	return tm.offset_ms;
}

void timer_units_changed(void)
{
	tm.generation++;
}

void timer_units_recompute_all(void)
{
	tm.generation++;
	tm.wall_generation++;
}

void timer_units_set_startup(long long startup_ms)
{
	tm.startup_ms = startup_ms;
}

/* ---- Persistent=: the stamp file ---------------------------------------------------- */

static int stamp_path(const struct unit *u, char *out, size_t size)
{
	int n = snprintf(out, size, "%s/stamp-%s", TIMER_STAMP_DIR, u->svc->name);

	return n > 0 && (size_t)n < size ? 0 : -1;
}

/* As systemd: a stamp is the time of the last elapse; a missing one is made now (so a
 * first boot does not count as missed); one in the future (a clock set back) is not
 * used. */
static void stamp_read(struct unit *u, long long now_wall)
{
	char path[SERVICE_PATH_MAX];
	struct stat st;
	int fd;

	if (stamp_path(u, path, sizeof path) < 0)
		return;
	if (stat(path, &st) == 0) {
		if ((long long)st.st_mtime <= now_wall)
			u->timer_last_wall = (long long)st.st_mtime;
		else
			log_warn("%s: %s lies in the future, not used", u->svc->name, path);
		return;
	}
	if (errno != ENOENT || (io_mkdir_p(TIMER_STAMP_DIR, 0755) < 0 && errno != EEXIST))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0)
		close(fd);
}

static void stamp_write(const struct unit *u, long long wall)
{
	char path[SERVICE_PATH_MAX];
	struct timespec times[2] = { { .tv_sec = (time_t)wall }, { .tv_sec = (time_t)wall } };
	int fd;

	if (stamp_path(u, path, sizeof path) < 0 ||
	    (io_mkdir_p(TIMER_STAMP_DIR, 0755) < 0 && errno != EEXIST))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || futimens(fd, times) < 0)
		log_warn("%s: cannot record the elapse in %s: %s", u->svc->name, path,
			 strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* ---- RandomizedDelaySec= -------------------------------------------------------------- */

/* FixedRandomDelay=yes: the same delay on every elapse of this timer on this machine,
 * from the machine id and the unit's name. */
static uint32_t fixed_delay(const struct unit *u)
{
	char id[64] = "";

	if (io_read_file("/etc/machine-id", id, sizeof id) < 0)
		id[0] = '\0';
	return hash_fnv32(hash_fnv32(HASH_FNV32_START, id, strlen(id)), u->svc->name,
			  strlen(u->svc->name));
}

static void draw_delay(struct unit *u)
{
	uint32_t r = 0, range = u->svc->timer.random_delay_ms;

	if (range == 0) {
		u->timer_random_ms = 0;
		return;
	}
	if (u->svc->timer.flags & TIMER_FIXED_DELAY)
		r = fixed_delay(u);
	else if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r)
		r = (uint32_t)boot_ms() * 2654435761u; /* no entropy yet: spread is all we need */
	u->timer_random_ms = r % range;
}

void timer_unit_adopted(struct unit *u, bool carried)
{
	if (!carried || u->timer_random_ms >= u->svc->timer.random_delay_ms)
		draw_delay(u);
}

/* ---- the next elapse ---------------------------------------------------------------- */

static const struct unit *target_of(const struct unit *u)
{
	char name[SERVICE_NAME_MAX];

	return supervisor_find(service_trigger_target(u->svc, name, sizeof name));
}

static long long latest(long long a, long long b)
{
	return a > b ? a : b;
}


/* What a monotonic trigger counts from (CLOCK_BOOTTIME us), -1 when it has not happened.
 * OnUnitActiveSec=/OnUnitInactiveSec= count from the unit's last start or stop, or from
 * the timer's last elapse if that is later (or the unit never ran), as systemd does: a
 * unit that never ran and was never started by the timer gives nothing to count from.
 * In microseconds: a job that ends within the millisecond of its elapse would otherwise
 * look like it stopped before it, and OnUnitInactiveSec= would never elapse again. */
static long long mono_base(const struct unit *u, enum timer_base base)
{
	const struct unit *t;
	long long at = -1;

	switch (base) {
	case TIMER_ON_ACTIVE:
		return u->started_us;
	case TIMER_ON_BOOT:
		return 0;
	case TIMER_ON_STARTUP:
		return tm.startup_ms * 1000;
	case TIMER_ON_UNIT_ACTIVE:
		t = target_of(u);
		at = t ? t->started_us : -1;
		break;
	case TIMER_ON_UNIT_INACTIVE:
		t = target_of(u);
		at = t ? latest(t->stopped_us, t->failed_us) : -1;
		break;
	}
	return latest(at, u->timer_last_us);
}

/* Each monotonic trigger elapses once per base: not again once the timer elapsed at or
 * after that time. The result is in ms, rounded up: the tick that sees it due is at or
 * after the microsecond it is due. */
static long long next_mono(const struct unit *u)
{
	const struct timer_spec *t = &u->svc->timer;
	long long next = -1;

	for (unsigned i = 0; i < t->mono_count; i++) {
		long long base = mono_base(u, (enum timer_base)t->mono_base[i]), at;
		if (base < 0)
			continue;
		at = base + (long long)t->mono_ms[i] * 1000;
		if (u->timer_last_us >= 0 && u->timer_last_us >= at)
			continue;
		if (next < 0 || at < next)
			next = at;
	}
	return next < 0 ? -1 : (next + 999) / 1000;
}

/* The first calendar elapse after the last one (or after the timer's start), seconds
 * since the epoch; -1 none. A Persistent= timer's last elapse comes from its stamp, so
 * one missed while the system was off is in the past: it elapses at once. */
static long long next_wall(const struct unit *u)
{
	char events[SERVICE_LINE_MAX], err[128];
	char *save = NULL;
	long long base = u->timer_last_wall >= 0 ? u->timer_last_wall : u->timer_start_wall;
	long long next = -1, at;

	if (!u->svc->timer.calendar)
		return -1;
	str_copy(events, sizeof events, service_str(u->svc, u->svc->timer.calendar));
	for (char *e = strtok_r(events, "\n", &save); e; e = strtok_r(NULL, "\n", &save)) {
		struct calendar_spec spec;
		if (calendar_parse(e, &spec, err, sizeof err) < 0 ||
		    calendar_next(&spec, base, &at) < 0)
			continue;
		if (next < 0 || at < next)
			next = at;
	}
	return next;
}

/* wall: the calendar search is redone (the timer started or elapsed); else only when
 * the clock generation moved. */
static void compute(struct unit *u, long long now, bool wall)
{
	long long mono = next_mono(u), due = mono;

	if (wall || u->timer_wall_gen != tm.wall_generation) {
		u->timer_next_wall = next_wall(u);
		u->timer_wall_gen = tm.wall_generation;
	}
	if (u->timer_next_wall >= 0) {
		long long cal = u->timer_next_wall * 1000 - wall_offset();
		cal = cal < now ? now : cal;
		due = due < 0 || cal < due ? cal : due;
	}
	u->timer_due_ms = due < 0 ? -1 : due + u->timer_random_ms;
	u->timer_gen = tm.generation;
}

/* ---- the supervisor's calls ---------------------------------------------------------- */

int timer_unit_start(struct unit *u, char *err, size_t size)
{
	char name[SERVICE_NAME_MAX];
	const struct unit *t = supervisor_find(service_trigger_target(u->svc, name, sizeof name));
	long long now_wall = wall_ms() / 1000;

	if (!t || t->state == UNIT_MASKED || t->state == UNIT_INVALID) {
		snprintf(err, size, "%s: %s, nothing to start", name, !t ? "not found"
			 : unit_state_name(t->state));
		return -1;
	}
	u->timer_start_wall = now_wall;
	if ((u->svc->timer.flags & TIMER_PERSISTENT) && u->timer_last_wall < 0)
		stamp_read(u, now_wall);
	draw_delay(u);
	compute(u, boot_ms(), true);
	return 0;
}

static void elapse(struct unit *u)
{
	char name[SERVICE_NAME_MAX], err[UNIT_ERROR_MAX];
	long long wall = wall_ms() / 1000;

	service_trigger_target(u->svc, name, sizeof name);
	/* The wall clock may read a hair before the elapse the boot clock reached: the last
	 * elapse is at least that one, so it is not found again. */
	if (u->timer_next_wall >= 0 && u->timer_next_wall <= wall + 1)
		wall = latest(wall, u->timer_next_wall);
	u->timer_last_us = boot_us();
	u->timer_last_wall = wall;
	if (u->svc->timer.flags & TIMER_PERSISTENT)
		stamp_write(u, wall);
	log_info("%s: elapsed, starting %s", u->svc->name, name);
	if (supervisor_start(name, err, sizeof err) < 0)
		log_warn("%s: %s", u->svc->name, err);
	draw_delay(u);
}

/* The elapses of one timer in the current window (the fields sockets use for theirs). */
static bool within_limit(struct unit *u, long long now)
{
	if (u->trigger_window_ms < 0 || now - u->trigger_window_ms >= TIMER_TRIGGER_WINDOW_MS) {
		u->trigger_window_ms = now;
		u->triggers = 0;
	}
	return ++u->triggers <= TIMER_TRIGGER_BURST;
}

enum timer_tick timer_unit_tick(struct unit *u, long long now)
{
	if (u->svc->kind != UNIT_TIMER || u->state != UNIT_READY)
		return TIMER_WAIT;
	if (u->timer_gen != tm.generation)
		compute(u, now, false);
	if (u->timer_due_ms < 0 || now < u->timer_due_ms)
		return TIMER_WAIT;
	if (!within_limit(u, now))
		return TIMER_LIMIT;
	elapse(u);
	compute(u, now, true);
	return u->timer_due_ms < 0 && !(u->svc->timer.flags & TIMER_KEEP) ? TIMER_DONE
									   : TIMER_WAIT;
}

long long timer_unit_due(const struct unit *u)
{
	return u->svc->kind == UNIT_TIMER && u->state == UNIT_READY ? u->timer_due_ms : -1;
}

long long timer_unit_next_wall(const struct unit *u)
{
	long long due = timer_unit_due(u);

	/* The next elapse on the wall clock, whichever trigger it is. */
	return due < 0 ? -1 : (wall_ms() + due - boot_ms() + 500) / 1000; /* the nearest second */
}

long long timer_unit_last_wall(const struct unit *u)
{
	return u->svc->kind == UNIT_TIMER ? u->timer_last_wall : -1;
}

/* ---- the clock watch ---------------------------------------------------------------- */

/* Armed at the earliest calendar elapse (or a year ahead, only to hear of a clock that
 * is set), with TFD_TIMER_CANCEL_ON_SET: a read then fails with ECANCELED. Arming fails
 * with ECANCELED instead when the clock was set since the last read, and that takes the
 * news from the next read: so the watch is armed in the past, to be read at once, and
 * the read is told what happened. */
static void arm(long long wall)
{
	struct itimerspec its = { .it_value = { .tv_sec = (time_t)wall } };
	const int flags = TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;

	if (wall == tm.armed_wall)
		return;
	if (timerfd_settime(tm.clock_fd, flags, &its, NULL) == 0) {
		tm.armed_wall = wall;
		return;
	}
	if (errno == ECANCELED) {
		struct itimerspec now = { .it_value = { .tv_sec = 1 } };
		tm.clock_set = true;
		if (timerfd_settime(tm.clock_fd, flags, &now, NULL) == 0 || errno == ECANCELED)
			return;
	}
	log_warn("timers: cannot watch the clock: %s", strerror(errno));
}

size_t timer_units_pollfds(const struct unit *units, size_t n, struct pollfd *fds, size_t max)
{
	long long earliest = -1;
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		const struct unit *u = &units[i];
		if (u->svc->kind != UNIT_TIMER || u->state != UNIT_READY || !u->svc->timer.calendar)
			continue;
		any = true;
		long long at = u->timer_next_wall + (long long)u->timer_random_ms / 1000;
		if (u->timer_next_wall >= 0 && (earliest < 0 || at < earliest))
			earliest = at;
	}
	if (!any || max == 0)
		return 0;
	if (tm.clock_fd < 0) {
		tm.clock_fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
		if (tm.clock_fd < 0)
			return 0;
	}
	arm(earliest >= 0 ? earliest : wall_ms() / 1000 + 365LL * 86400);
	fds[0] = (struct pollfd){ .fd = tm.clock_fd, .events = POLLIN };
	return 1;
}

/* The clock was set (NTP stepping a phone's clock from 1970, or back). A timer that has
 * not elapsed yet counts from now, not from its start on the old clock: otherwise every
 * daily timer would elapse at once after the step. A last elapse that now lies in the
 * future is taken as now, so the timer does not wait for the old clock to come back. */
static void rebase(struct unit *units, size_t n)
{
	long long wall = wall_ms() / 1000;

	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		if (u->svc->kind != UNIT_TIMER)
			continue;
		if (u->timer_last_wall < 0)
			u->timer_start_wall = wall;
		else if (u->timer_last_wall > wall)
			u->timer_last_wall = wall;
	}
}

/* Read the clock watch: the clock was set, or a calendar elapse is due (also just after
 * a resume); nothing when the watch has nothing to say. The offset is looked at too: a
 * step fires the watch's timer (it was armed at the earliest elapse the step jumped
 * over) a moment before the kernel marks the watch cancelled, and that expiration alone
 * would read as an elapse that is due. */
static void read_clock(struct unit *units, size_t n)
{
	uint64_t expirations;
	ssize_t r = read(tm.clock_fd, &expirations, sizeof expirations);
	long long offset = wall_ms() - boot_ms();
	bool stepped = tm.offset_known && llabs(offset - tm.offset_ms) > CLOCK_STEP_MS;

	tm.offset_ms = offset;
	tm.offset_known = true;
	if (r < 0 && errno == EAGAIN && !tm.clock_set && !stepped)
		return;
	tm.armed_wall = -1; /* re-armed on the next turn */
	if ((r < 0 && errno == ECANCELED) || tm.clock_set || stepped) {
		tm.clock_set = false;
		log_info("timers: the clock was set, computing the next elapses again");
		rebase(units, n);
		timer_units_recompute_all();
	} else {
		timer_units_changed();
	}
}

/* Before the turn's timers are looked at: a clock set while PID 1 was busy (not in its
 * poll) would otherwise make every calendar timer it jumped over elapse first. */
void timer_units_check_clock(struct unit *units, size_t n)
{
	if (tm.clock_fd >= 0)
		read_clock(units, n);
}

void timer_units_handle_pollfds(struct unit *units, size_t n_units, const struct pollfd *fds,
				size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tm.clock_fd >= 0 && fds[i].fd == tm.clock_fd && fds[i].revents)
			read_clock(units, n_units);
}
