#include "apply.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "io.h"

static uint64_t bit(int cap)
{
	return (uint64_t)1 << cap;
}

static int fail_at(struct exec_failure *f, enum exec_step step, int64_t arg)
{
	f->step = step;
	f->err = errno;
	f->arg = arg;
	return -1;
}

/* The capabilities this kernel knows (at most 64, the width of a mask). */
static int known_caps(void)
{
	int max = cap_max_bits();
	return max > EXEC_CAP_MAX + 1 ? EXEC_CAP_MAX + 1 : max;
}

static uint64_t known_mask(int max)
{
	return max >= 64 ? ~(uint64_t)0 : bit(max) - 1;
}

/* One set of this process from /proc/self/status ("CapBnd:\t000001ffffffffff"). The
 * bounding and ambient sets have no call that reads them whole, only one prctl() per
 * capability; one read of the file costs about as much as six of those (syscalls are
 * slow in VMs), and every launch reads both sets. -1 where /proc is not there. */
static int status_set(const char *field, int max, uint64_t *mask)
{
	char text[8192], key[16];
	ssize_t n = io_read_file("/proc/self/status", text, sizeof text);
	if (n < 0)
		return -1;
	int len = snprintf(key, sizeof key, "\n%s:\t", field);
	const char *at = strstr(text, key);
	if (!at)
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(at + len, &end, 16);
	if (errno || end == at + len || *end != '\n')
		return -1;
	*mask = (uint64_t)v & known_mask(max);
	return 0;
}

static uint64_t bounding_by_prctl(int max)
{
	uint64_t mask = 0;
	for (int c = 0; c < max; c++)
		if (cap_get_bound(c) == 1)
			mask |= bit(c);
	return mask;
}

static uint64_t ambient_by_prctl(int max)
{
	uint64_t mask = 0;
	for (int c = 0; c < max; c++)
		if (cap_get_ambient(c) == 1)
			mask |= bit(c);
	return mask;
}

/* This process's bounding and permitted sets as masks. */
static int read_sets(int max, uint64_t *bounding, uint64_t *permitted)
{
	cap_t proc = cap_get_proc();

	if (!proc)
		return -1;
	if (status_set("CapBnd", max, bounding) < 0)
		*bounding = bounding_by_prctl(max);
	*permitted = 0;
	for (int c = 0; c < max; c++) {
		cap_flag_value_t v = CAP_CLEAR;
		if (cap_get_flag(proc, c, CAP_PERMITTED, &v) == 0 && v == CAP_SET)
			*permitted |= bit(c);
	}
	cap_free(proc);
	return 0;
}

/* The ambient set to raise: "all" is whatever bounding ∩ permitted holds at run time
 * (a reduced bounding set is normal: containers, hardened boots). An explicit set must
 * be fully available, or nothing runs. */
static int choose_ambient(uint64_t wanted, uint64_t available, uint64_t *ambient,
			  struct exec_failure *f)
{
	if (wanted == EXEC_CAPS_ALL) {
		*ambient = available;
		return 0;
	}
	for (int c = 0; c <= EXEC_CAP_MAX; c++) {
		if ((wanted & bit(c)) && !(available & bit(c))) {
			errno = EPERM;
			return fail_at(f, EXEC_STEP_CAP_UNAVAILABLE, c);
		}
	}
	*ambient = wanted;
	return 0;
}

/* First, while the effective set is still full: dropping needs CAP_SETPCAP. */
static int drop_bounding(int max, uint64_t bounding, uint64_t keep, struct exec_failure *f)
{
	for (int c = 0; c < max; c++)
		if ((bounding & bit(c)) && !(keep & bit(c)) && cap_drop_bound(c) < 0)
			return fail_at(f, EXEC_STEP_BOUNDING, c);
	return 0;
}

/* cap_setgroups and cap_setuid raise CAP_SETGID/CAP_SETUID for the call and keep the
 * permitted set across the uid change (PR_SET_KEEPCAPS); the effective set ends empty. */
static int switch_ids(const struct caps_request *req, struct exec_failure *f)
{
	gid_t gid = req->gid_set ? req->gid : getgid();

	if (!req->uid_set && !req->gid_set && !req->groups_set)
		return 0;
	if (cap_setgroups(gid, req->group_count, req->groups) < 0)
		return fail_at(f, EXEC_STEP_SETGID, gid);
	if (req->uid_set && cap_setuid(req->uid) < 0)
		return fail_at(f, EXEC_STEP_SETUID, req->uid);
	return 0;
}

/* Inheritable = ambient = exactly the chosen set, in the order the kernel's invariants
 * need: a capability enters the ambient set only from permitted ∩ inheritable. The
 * bounding set is already cut (drop_bounding). One call clears whatever ambient set
 * there was and one raises each capability: libcap's IAB would first probe every
 * capability of the kernel and drop the bounding set a second time, some 45 system
 * calls more per launch. The ambient set is then read back: the command must get
 * exactly what was asked. */
static int set_inheritable(uint64_t ambient)
{
	cap_t proc = cap_get_proc();
	int r = proc ? cap_clear_flag(proc, CAP_INHERITABLE) : -1;

	for (cap_value_t c = 0; r == 0 && c <= EXEC_CAP_MAX; c++)
		if (ambient & bit(c))
			r = cap_set_flag(proc, CAP_INHERITABLE, 1, &c, CAP_SET);
	if (r == 0)
		r = cap_set_proc(proc);
	if (proc)
		cap_free(proc);
	return r;
}

static int raise_ambient(int max, uint64_t ambient, struct exec_failure *f)
{
	if (set_inheritable(ambient) < 0 ||
	    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return fail_at(f, EXEC_STEP_AMBIENT, 0);
	for (int c = 0; c < max; c++)
		if ((ambient & bit(c)) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, c, 0, 0) < 0)
			return fail_at(f, EXEC_STEP_AMBIENT, c);
	uint64_t now;
	if (status_set("CapAmb", max, &now) < 0)
		now = ambient_by_prctl(max);
	for (int c = 0; c < max; c++) {
		if ((ambient & bit(c)) && !(now & bit(c))) {
			errno = EPERM;
			return fail_at(f, EXEC_STEP_AMBIENT, c);
		}
	}
	return 0;
}

/* PR_SET_SECUREBITS needs CAP_SETPCAP in the effective set, which the uid change
 * emptied; the permitted set kept it (switch_ids), as systemd's does for SecureBits=.
 * Raised for that call only: the exec computes the effective set anew. Where it cannot
 * be raised the securebits step itself says so. */
static void raise_setpcap(void)
{
	cap_t proc = cap_get_proc();
	cap_value_t c = CAP_SETPCAP;

	if (proc && cap_set_flag(proc, CAP_EFFECTIVE, 1, &c, CAP_SET) == 0)
		(void)cap_set_proc(proc);
	if (proc)
		cap_free(proc);
}

static int enter_workdir(const struct caps_request *req, struct exec_failure *f)
{
	int r;

	if (req->chdir_fd >= 0) {
		r = fchdir(req->chdir_fd);
		if (req->chdir_fd > 2)
			close(req->chdir_fd);
	} else if (req->chdir_path) {
		r = chdir(req->chdir_path);
	} else {
		return 0;
	}
	if (r < 0 && !req->chdir_optional)
		return fail_at(f, EXEC_STEP_CHDIR, req->chdir_fd);
	return 0;
}

int caps_apply(const struct caps_request *req, struct exec_failure *f)
{
	int max = known_caps();
	uint64_t bounding, permitted, keep, ambient = 0;

	if (read_sets(max, &bounding, &permitted) < 0)
		return fail_at(f, EXEC_STEP_AMBIENT, 0);
	keep = req->bounding_set ? bounding & req->bounding : bounding;
	if (req->ambient && choose_ambient(req->ambient, keep & permitted, &ambient, f) < 0)
		return -1;
	if (drop_bounding(max, bounding, keep, f) < 0 || switch_ids(req, f) < 0)
		return -1;
	if ((req->ambient || req->bounding_set) && raise_ambient(max, ambient, f) < 0)
		return -1;
	if (req->no_new_privs && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return fail_at(f, EXEC_STEP_NO_NEW_PRIVS, 0);
	if (enter_workdir(req, f) < 0)
		return -1;
	/* exec keys (sandbox-more): last, right before the command's execve */
	if (req->secure_bits && req->uid_set && req->uid != 0)
		raise_setpcap();
	return exec_final_apply(req->secure_bits, req->apparmor_profile, f);
}
