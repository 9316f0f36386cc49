/* Swap units at run time: is What= in /proc/swaps, swapon(2) with the unit's priority and
 * discard flags, swapoff(2). No swapon(8) or swapoff(8). PID 1 calls swapon(2) itself, as
 * it calls mount(2) for mount units: it is quick (it reads the header, maps a file's
 * extents), though Options=discard on a large device can take seconds. swapoff(2) of a
 * swap holding many pages reads them all back and can take much longer: a forked child
 * makes that call, the unit's control process, so PID 1 goes on reaping, answering
 * emberctl and petting the watchdog (docs/services.md "Swap units").
 * Nothing allocates; /proc/swaps is read through unit_kinds_each_line(). */
#include "unit-kinds.h"
#include "rlimits.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#include "escape.h"
#include "log.h"

#define SWAPS_PATH "/proc/swaps"

/* Not in every libc's <sys/swap.h> (the kernel's since Linux 3.11). */
#ifndef SWAP_FLAG_DISCARD
#define SWAP_FLAG_DISCARD 0x10000
#endif
#ifndef SWAP_FLAG_DISCARD_ONCE
#define SWAP_FLAG_DISCARD_ONCE 0x20000
#endif
#ifndef SWAP_FLAG_DISCARD_PAGES
#define SWAP_FLAG_DISCARD_PAGES 0x40000
#endif

/* The same object: a block device by its number, a file by device and inode (a
 * /dev/disk/by-uuid/ link and /dev/sda2 are one swap). */
static bool same_object(const struct stat *a, const struct stat *b)
{
	if (S_ISBLK(a->st_mode) || S_ISBLK(b->st_mode))
		return S_ISBLK(a->st_mode) && S_ISBLK(b->st_mode) && a->st_rdev == b->st_rdev;
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

struct swaps_find {
	const char *what;
	struct stat st;
	bool have_st;
	bool header_done;
};

static int swaps_line(void *ctx, char *line)
{
	struct swaps_find *f = ctx;
	char name[UNIT_MOUNT_PATH_MAX * 2];
	struct stat st;

	if (!f->header_done) { /* "Filename Type Size Used Priority" */
		f->header_done = true;
		return 0;
	}
	/* The kernel escapes ' ', '\t', '\n' and '\\' in the name as \ooo. */
	if (unit_kinds_next_field(&line, name, sizeof name) < 0)
		return 0;
	if (strcmp(name, f->what) == 0)
		return 1;
	return f->have_st && stat(name, &st) == 0 && same_object(&f->st, &st);
}

static bool swap_active(const char *what)
{
	struct swaps_find f = { .what = what };

	f.have_st = stat(what, &f.st) == 0;
	return unit_kinds_each_line(SWAPS_PATH, swaps_line, &f) == 1;
}

struct swaps_off {
	bool header_done;
	unsigned off;  /* turned off in this pass */
	bool last;     /* the last pass: a failure is logged */
	void (*between)(void);
};

static int swap_off_line(void *ctx, char *line)
{
	struct swaps_off *o = ctx;
	char name[UNIT_MOUNT_PATH_MAX * 2], shown[UNIT_MOUNT_PATH_MAX * 8];

	if (!o->header_done) {
		o->header_done = true;
		return 0;
	}
	if (unit_kinds_next_field(&line, name, sizeof name) < 0)
		return 0;
	escape_text(name, shown, sizeof shown);
	if (o->between)
		o->between(); /* a large swap takes a while to read back */
	if (swapoff(name) == 0) {
		log_info("shutdown: swap %s turned off", shown);
		o->off++;
	} else if (o->last || errno != EINVAL) {
		log_warn("shutdown: swapoff %s: %s", shown, strerror(errno));
	}
	return 0;
}

/* Passes, because /proc/swaps changes under the reader as swaps go; one that went
 * already is EINVAL on a later pass. */
void unit_swaps_off_all(void (*between)(void))
{
	struct swaps_off o = { .off = 1 };

	for (int pass = 0; pass < 3 && o.off > 0; pass++) {
		o = (struct swaps_off){ .last = pass == 2, .between = between };
		(void)unit_kinds_each_line(SWAPS_PATH, swap_off_line, &o);
	}
}

/* swapon(2)'s flags: Priority= (else Options=pri=) and the discard policy. */
static int swap_flags(const struct service *s)
{
	int prio = s->kinds.swap_priority >= 0 ? s->kinds.swap_priority : s->kinds.swap_pri_option;
	int flags = 0;

	if (prio >= 0)
		flags |= SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	if (s->kinds.swap_flags & UNIT_SWAP_DISCARD)
		flags |= SWAP_FLAG_DISCARD;
	if (s->kinds.swap_flags & UNIT_SWAP_DISCARD_ONCE)
		flags |= SWAP_FLAG_DISCARD_ONCE;
	if (s->kinds.swap_flags & UNIT_SWAP_DISCARD_PAGES)
		flags |= SWAP_FLAG_DISCARD_PAGES;
	return flags;
}

enum unit_kind_result unit_kind_swap_start(const struct service *s, char *err, size_t size)
{
	const char *what = service_str(s, s->kinds.what);

	if (!s->kinds.what) { /* the parser refuses such a unit; a reference without a file */
		snprintf(err, size, "no .swap file says what to turn on");
		return UNIT_KIND_NOT_FOUND;
	}
	if (swap_active(what)) /* on already (by an earlier init, a script): active */
		return UNIT_KIND_ACTIVE;
	if (swapon(what, swap_flags(s)) < 0 && !(errno == EBUSY && swap_active(what))) {
		snprintf(err, size, "swapon %.128s: %s", what, strerror(errno));
		return UNIT_KIND_FAILED;
	}
	return UNIT_KIND_ACTIVE;
}

bool unit_kind_swap_present(const struct service *s)
{
	return s->kinds.what && swap_active(service_str(s, s->kinds.what));
}

/* The forked child: PID 1 blocks every signal, the child must die of the SIGKILL a
 * timeout sends (a fatal signal makes swapoff(2) give up and put the swap back). Only
 * async-signal-safe calls; the status is 0 or swapoff(2)'s errno (ENOMEM, EINVAL...). */
static _Noreturn void swapoff_child(const char *what)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	_exit(swapoff(what) < 0 ? errno : 0); /* errno values fit an exit status */
}

pid_t unit_kind_swap_stop(const struct service *s)
{
	const char *what = service_str(s, s->kinds.what);
	pid_t pid;

	if (!s->kinds.what || !swap_active(what))
		return 0;
	pid = fork(); /* in PID 1's own cgroup: a passive unit has none of its own */
	if (pid == 0) {
		rlimits_for_child();
		swapoff_child(what);
	}
	return pid;
}
