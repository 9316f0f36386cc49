/* Automount units at run time: the autofs mount, its packets, the answers, the idle
 * expiry. See unit-automount.h and docs/services.md "Automount units".
 *
 * Why PID 1 may mount on its own autofs: the mount unit's mount(2) (unit-mount.c) runs
 * in PID 1 and looks Where= up; for anyone but the autofs daemon that lookup would send
 * a packet and sleep until the daemon answers, and the daemon is PID 1: a deadlock. The
 * kernel skips the wait for the process group named by pgrp= at mount time ("oz mode"),
 * so that group must be PID 1's. PID 1 never calls setsid(), so its group is the kernel's
 * group 0, which pgrp= cannot name (the kernel looks the number up and finds no group
 * 0): then pgrp= is left out, and the kernel takes the mounting process's own group,
 * the same one. The children PID 1 forks share it until they call setsid() (every
 * service does, first thing), so the expiry child below runs in oz mode too. The cost:
 * a helper PID 1 runs without setsid() (a generator) does not trigger automounts; it
 * sees the empty directory.
 *
 * The first autofs mount may make the kernel load the autofs module (request_module()
 * runs modprobe and waits for it), once, as systemd loads it at its start.
 *
 * Per automount, PID 1 keeps the answers it owes (a token per packet) in a table keyed
 * by the pipe's fd. A re-execution hands the tokens over (handover.c, "w" records):
 * the process that looked at the path waits in the kernel, not in PID 1, so without
 * them it would wait until the automount is stopped. Packets not read yet stay in the
 * pipe, which is handed over too. So does the idle check's child ("e" record): it sleeps
 * in the kernel until PID 1 answers the expiry, and the kernel holds every look at the
 * path meanwhile, so the check must go on across the re-execution, not be killed (a
 * killed check releases those looks onto a mount PID 1 is about to unmount); the new
 * PID 1 must know it to reap it, to kill it on a stop, and not to start a second. */
#include "unit-automount.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <linux/auto_dev-ioctl.h>

#include "io.h"
#include "log.h"
#include "supervisor.h"
#include "unit-kinds.h"

#define AUTOMOUNT_MAX 32           /* automount units up at once */
#define EXPIRE_MIN_INTERVAL_MS 1000 /* as systemd: the idle check runs every third of */
#define UNMOUNT_TRIES 8            /* TimeoutIdleSec=, at least every second */

struct waiter {
	uint32_t token;
	bool expire; /* an expiry: answered once the mount unit stopped */
};

struct automount {
	int key;                 /* the pipe's fd + 1; 0: a free slot */
	bool lost;               /* the pipe hung up: the autofs is gone */
	pid_t expire_pid;        /* the child in AUTOFS_DEV_IOCTL_EXPIRE, 0 none */
	long long expire_at_ms;  /* when it runs next, -1 none */
	uint8_t count;
	struct waiter wait[AUTOMOUNT_WAIT_MAX];
};

static struct automount table[AUTOMOUNT_MAX];

/* The automount's entry, or NULL when it has none yet. */
static struct automount *lookup(const struct unit *u)
{
	int fd = u->listen_fd[AUTOMOUNT_PIPE];

	if (u->svc->kind != UNIT_AUTOMOUNT || fd < 0)
		return NULL;
	for (size_t i = 0; i < AUTOMOUNT_MAX; i++)
		if (table[i].key == fd + 1)
			return &table[i];
	return NULL;
}

/* The automount's entry; one is made for a unit a re-execution handed over. */
static struct automount *entry_of(const struct unit *u)
{
	int fd = u->listen_fd[AUTOMOUNT_PIPE];
	struct automount *free_slot = lookup(u);

	if (free_slot || u->svc->kind != UNIT_AUTOMOUNT || fd < 0)
		return free_slot;
	for (size_t i = 0; i < AUTOMOUNT_MAX && !free_slot; i++)
		if (table[i].key == 0)
			free_slot = &table[i];
	if (free_slot)
		*free_slot = (struct automount){ .key = fd + 1, .expire_at_ms = -1 };
	return free_slot;
}

static const struct unit *mount_unit(const struct unit *u)
{
	char name[SERVICE_NAME_MAX];

	return supervisor_find(automount_mount_name(u->svc->name, name, sizeof name));
}

/* ---- /dev/autofs -------------------------------------------------------------------- */

/* Opened once (again after a re-execution, as it is close-on-exec). */
static int dev_autofs(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = open("/dev/autofs", O_RDWR | O_CLOEXEC);
	return fd;
}

static void param_init(struct autofs_dev_ioctl *p, size_t size, int ioctl_fd)
{
	memset(p, 0, size);
	p->ver_major = AUTOFS_DEV_IOCTL_VERSION_MAJOR;
	p->ver_minor = AUTOFS_DEV_IOCTL_VERSION_MINOR;
	p->size = (uint32_t)size;
	p->ioctlfd = ioctl_fd;
}

/* The mount's ioctl fd, found by its device: the kernel resolves the path in PID 1's
 * oz mode, PID 1 itself never opens it. -1 with errno. */
static int open_mount(const char *where, dev_t dev)
{
	union {
		struct autofs_dev_ioctl p;
		char bytes[sizeof(struct autofs_dev_ioctl) + UNIT_MOUNT_PATH_MAX];
	} buf;
	size_t len = strlen(where) + 1;

	if (dev_autofs() < 0)
		return -1;
	param_init(&buf.p, sizeof buf.p + len, -1);
	memcpy(buf.p.path, where, len);
	buf.p.openmount.devid = (uint32_t)dev;
	if (ioctl(dev_autofs(), AUTOFS_DEV_IOCTL_OPENMOUNT, &buf.p) < 0)
		return -1;
	return buf.p.ioctlfd;
}

static int set_timeout(int ioctl_fd, uint32_t seconds)
{
	struct autofs_dev_ioctl p;

	param_init(&p, sizeof p, ioctl_fd);
	p.timeout.timeout = seconds;
	return ioctl(dev_autofs(), AUTOFS_DEV_IOCTL_TIMEOUT, &p);
}

/* status 0: READY (the waiting lookup goes on), else FAIL with -status as its errno. */
static void answer(const struct unit *u, uint32_t token, int status)
{
	struct autofs_dev_ioctl p;
	int fd = u->listen_fd[AUTOMOUNT_IOCTL];

	param_init(&p, sizeof p, fd);
	if (status == 0) {
		p.ready.token = token;
		if (ioctl(dev_autofs(), AUTOFS_DEV_IOCTL_READY, &p) == 0)
			return;
	} else {
		p.fail.token = token;
		p.fail.status = -status;
		if (ioctl(dev_autofs(), AUTOFS_DEV_IOCTL_FAIL, &p) == 0)
			return;
	}
	log_warn("%s: cannot answer the kernel (token %u, %s): %s", u->svc->name, token,
		 status ? strerror(status) : "ready", strerror(errno));
}

/* ---- starting and stopping ---------------------------------------------------------- */

/* fd=, pgrp= (see the top of the file), the v5 protocol, one direct mount. */
static int mount_autofs(const struct service *s, const char *where, int pipe_wfd)
{
	char options[UNIT_MOUNT_PATH_MAX + 96], pgrp[24] = "";
	const char *extra = service_str(s, s->kinds.options);

	if (getpgrp() > 0)
		snprintf(pgrp, sizeof pgrp, "pgrp=%d,", (int)getpgrp());
	if (snprintf(options, sizeof options, "fd=%d,%sminproto=5,maxproto=5,direct%s%s",
		     pipe_wfd, pgrp, *extra ? "," : "", extra) >= (int)sizeof options) {
		errno = E2BIG;
		return -1;
	}
	return mount("ember", where, "autofs", 0, options);
}

/* Unmount what is at where until its autofs is gone: the mount unit's file system on
 * top first (as systemd's repeat_unmount()), detached so a busy one goes too. */
static void unmount_autofs(const char *where)
{
	dev_t dev;

	for (int i = 0; i < UNMOUNT_TRIES && unit_mount_autofs_dev(where, &dev) == 0; i++)
		if (umount2(where, MNT_DETACH | UMOUNT_NOFOLLOW) < 0)
			break;
}

static int start_failed(char *err, size_t size, const char *what, const char *where)
{
	snprintf(err, size, "%s %.*s: %s", what, UNIT_MOUNT_PATH_MAX, where, strerror(errno));
	return -1;
}

int automount_unit_start(struct unit *u, char *err, size_t size)
{
	const struct service *s = u->svc;
	char where[UNIT_MOUNT_PATH_MAX], target[32];
	int p[2], fd;
	dev_t dev;

	if (u->listen_fd[AUTOMOUNT_PIPE] >= 0)
		return 0; /* mounted still */
	if (unit_kind_path(s->name, where, sizeof where) < 0) {
		snprintf(err, size, "the name does not name a mount point");
		return -1;
	}
	if (unit_mount_is_mountpoint(where) || unit_mount_autofs_dev(where, &dev) == 0) {
		snprintf(err, size, "%.*s is a mount point already, refusing to mount autofs "
			 "on it", UNIT_MOUNT_PATH_MAX, where);
		return -1;
	}
	if ((fd = unit_mount_target(where, s->kinds.directory_mode, target, sizeof target)) < 0)
		return start_failed(err, size, "cannot create or walk to (root's symlinks only)",
				    where);
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0) {
		close(fd);
		return start_failed(err, size, "pipe for", where);
	}
	if (mount_autofs(s, target, p[1]) < 0) {
		int e = errno;
		close(fd);
		close(p[0]);
		close(p[1]);
		errno = e;
		return start_failed(err, size, "cannot mount autofs on", where);
	}
	close(fd);
	close(p[1]); /* the kernel holds the write end now */
	if (unit_mount_autofs_dev(where, &dev) < 0 || (fd = open_mount(where, dev)) < 0 ||
	    set_timeout(fd, s->kinds.idle_timeout_s) < 0) {
		start_failed(err, size, "cannot open the autofs mount (/dev/autofs) on", where);
		unmount_autofs(where);
		close(p[0]);
		return -1;
	}
	u->listen_fd[AUTOMOUNT_PIPE] = p[0];
	u->listen_fd[AUTOMOUNT_IOCTL] = fd;
	if (!entry_of(u))
		log_warn("%s: more than %d automounts: its waiters are answered at once",
			 s->name, AUTOMOUNT_MAX);
	return 0;
}

void automount_unit_stop(struct unit *u)
{
	struct automount *a = entry_of(u);
	char where[UNIT_MOUNT_PATH_MAX];

	if (a) {
		for (size_t i = 0; i < a->count; i++)
			answer(u, a->wait[i].token, EHOSTDOWN); /* as systemd's stop */
		if (a->expire_pid > 0)
			kill(a->expire_pid, SIGKILL); /* reaped as any other child */
		*a = (struct automount){ 0 };
	}
	if (u->listen_fd[AUTOMOUNT_PIPE] >= 0 &&
	    unit_kind_path(u->svc->name, where, sizeof where) == 0)
		unmount_autofs(where);
	for (int i = AUTOMOUNT_PIPE; i <= AUTOMOUNT_IOCTL; i++) {
		if (u->listen_fd[i] >= 0)
			close(u->listen_fd[i]);
		u->listen_fd[i] = -1;
	}
}

/* ---- packets ------------------------------------------------------------------------ */

static void owe(struct unit *u, struct automount *a, uint32_t token, bool expire)
{
	if (!a || a->count == AUTOMOUNT_WAIT_MAX) {
		answer(u, token, EAGAIN); /* never leave a process waiting */
		return;
	}
	a->wait[a->count++] = (struct waiter){ token, expire };
}

bool automount_owed_at(const struct unit *u, size_t i, uint32_t *token, bool *expire)
{
	const struct automount *a = lookup(u);

	if (!a || i >= a->count)
		return false;
	*token = a->wait[i].token;
	*expire = a->wait[i].expire;
	return true;
}

int automount_owe_again(struct unit *u, uint32_t token, bool expire)
{
	if (u->svc->kind != UNIT_AUTOMOUNT || u->listen_fd[AUTOMOUNT_PIPE] < 0 ||
	    u->listen_fd[AUTOMOUNT_IOCTL] < 0)
		return -1; /* no autofs to answer through */
	owe(u, entry_of(u), token, expire); /* no room: answered at once, never left waiting */
	return 0;
}

/* A process looked the path up: the mount unit starts, the answer comes once it settled. */
static void missing(struct unit *u, struct automount *a, const struct autofs_v5_packet *pk)
{
	char name[SERVICE_NAME_MAX], err[UNIT_ERROR_MAX];

	automount_mount_name(u->svc->name, name, sizeof name);
	log_info("%s: accessed by process %u, starting %s", u->svc->name, pk->pid, name);
	if (supervisor_start(name, err, sizeof err) < 0) {
		log_warn("%s: %s", u->svc->name, err);
		answer(u, pk->wait_queue_token, ENODEV);
		return;
	}
	owe(u, a, pk->wait_queue_token, false);
}

/* Idle for TimeoutIdleSec=: the mount unit stops; READY once it is unmounted. */
static void expire(struct unit *u, struct automount *a, const struct autofs_v5_packet *pk)
{
	char name[SERVICE_NAME_MAX], err[UNIT_ERROR_MAX];

	automount_mount_name(u->svc->name, name, sizeof name);
	log_info("%s: idle, stopping %s", u->svc->name, name);
	if (supervisor_stop(name, err, sizeof err) < 0) {
		log_warn("%s: %s", u->svc->name, err);
		answer(u, pk->wait_queue_token, EBUSY);
		return;
	}
	owe(u, a, pk->wait_queue_token, true);
}

static void drain(struct unit *u)
{
	union autofs_v5_packet_union pk;
	struct automount *a = entry_of(u);
	ssize_t n;

	/* A packet pipe: each read returns one whole packet. */
	while ((n = read(u->listen_fd[AUTOMOUNT_PIPE], &pk, sizeof pk)) > 0) {
		if ((size_t)n < sizeof pk.v5_packet)
			continue;
		if (pk.hdr.type == autofs_ptype_missing_direct)
			missing(u, a, &pk.v5_packet);
		else if (pk.hdr.type == autofs_ptype_expire_direct)
			expire(u, a, &pk.v5_packet);
		else /* indirect packets: not on a direct mount */
			answer(u, pk.v5_packet.wait_queue_token, EINVAL);
	}
	if (n == 0 && a)
		a->lost = true; /* the kernel closed its end: the autofs was unmounted */
}

size_t automount_units_pollfds(struct unit *units, size_t n, struct pollfd *fds, size_t max)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct unit *u = &units[i];
		const struct automount *a;
		if (u->svc->kind != UNIT_AUTOMOUNT || u->listen_fd[AUTOMOUNT_PIPE] < 0)
			continue;
		if (u->state != UNIT_READY) { /* failed or stopped some other way */
			automount_unit_stop(u);
			continue;
		}
		a = entry_of(u);
		if (k < max && !(a && a->lost))
			fds[k++] = (struct pollfd){ .fd = u->listen_fd[AUTOMOUNT_PIPE], .events = POLLIN };
	}
	return k;
}

void automount_units_handle_pollfds(struct unit *units, size_t n_units,
				    const struct pollfd *fds, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (!fds[k].revents)
			continue;
		for (size_t i = 0; i < n_units; i++) {
			struct unit *u = &units[i];
			if (u->svc->kind == UNIT_AUTOMOUNT && u->state == UNIT_READY &&
			    u->listen_fd[AUTOMOUNT_PIPE] == fds[k].fd)
				drain(u);
		}
	}
}

/* ---- answers and expiry ------------------------------------------------------------- */

static bool settling(const struct unit *m)
{
	return m && (m->state == UNIT_WAITING || m->state == UNIT_STARTING ||
		     m->state == UNIT_RUNNING || m->state == UNIT_STOPPING);
}

/* The answer owed for w now: 0 READY, an errno FAIL, -1 not yet. */
static int verdict(const struct unit *u, const struct waiter *w)
{
	const struct unit *m = mount_unit(u);
	char where[UNIT_MOUNT_PATH_MAX];

	if (settling(m))
		return -1;
	if (!w->expire)
		return m && m->state == UNIT_READY ? 0 : ENODEV;
	/* An expiry: READY once unmounted; a mount that stayed (busy) says so. */
	return unit_kind_path(u->svc->name, where, sizeof where) == 0 &&
	       unit_mount_is_mountpoint(where) ? EBUSY : 0;
}

void automount_units_settle(struct unit *units, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct automount *a = entry_of(&units[i]);
		size_t kept = 0;
		for (size_t j = 0; a && j < a->count; j++) {
			int v = verdict(&units[i], &a->wait[j]);
			if (v < 0)
				a->wait[kept++] = a->wait[j];
			else
				answer(&units[i], a->wait[j].token, v);
		}
		if (a)
			a->count = (uint8_t)kept;
	}
}

static long long expire_interval_ms(const struct unit *u)
{
	long long third = (long long)u->svc->kinds.idle_timeout_s * 1000 / 3;

	return third > EXPIRE_MIN_INTERVAL_MS ? third : EXPIRE_MIN_INTERVAL_MS;
}

/* AUTOFS_DEV_IOCTL_EXPIRE sends an expire packet and sleeps until PID 1 answers it: it
 * runs in a child, which asks until nothing is left to expire. The child does not call
 * setsid(): it stays in PID 1's process group, where the kernel allows the ioctl. */
static pid_t spawn_expire(int ioctl_fd)
{
	struct autofs_dev_ioctl p;
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	do
		param_init(&p, sizeof p, ioctl_fd);
	while (ioctl(dev_autofs(), AUTOFS_DEV_IOCTL_EXPIRE, &p) == 0);
	_exit(0);
}

enum automount_tick automount_unit_tick(struct unit *u, long long now_ms)
{
	struct automount *a = u->state == UNIT_READY ? entry_of(u) : NULL;
	const struct unit *m;

	if (!a)
		return AUTOMOUNT_OK;
	if (a->lost)
		return AUTOMOUNT_LOST;
	m = mount_unit(u);
	if (!u->svc->kinds.idle_timeout_s || !m || m->state != UNIT_READY) {
		a->expire_at_ms = -1;
		return AUTOMOUNT_OK;
	}
	if (a->expire_pid > 0)
		return AUTOMOUNT_OK;
	if (a->expire_at_ms < 0)
		a->expire_at_ms = now_ms + expire_interval_ms(u);
	if (now_ms < a->expire_at_ms)
		return AUTOMOUNT_OK;
	a->expire_pid = spawn_expire(u->listen_fd[AUTOMOUNT_IOCTL]);
	if (a->expire_pid < 0) {
		log_warn("%s: cannot fork the idle check: %s", u->svc->name, strerror(errno));
		a->expire_pid = 0;
	}
	a->expire_at_ms = -1;
	return AUTOMOUNT_OK;
}

bool automount_child_exited(pid_t pid)
{
	for (size_t i = 0; i < AUTOMOUNT_MAX; i++)
		if (table[i].key && table[i].expire_pid == pid) {
			table[i].expire_pid = 0; /* the next check counts from now */
			return true;
		}
	return false;
}

pid_t automount_expire_pid(const struct unit *u)
{
	const struct automount *a = lookup(u);

	return a ? a->expire_pid : 0;
}

int automount_adopt_expire(struct unit *u, pid_t pid)
{
	struct automount *a;

	if (pid <= 1 || u->svc->kind != UNIT_AUTOMOUNT || u->listen_fd[AUTOMOUNT_IOCTL] < 0 ||
	    !(a = entry_of(u)))
		return -1;
	a->expire_pid = pid;
	a->expire_at_ms = -1;
	return 0;
}

long long automount_unit_due(const struct unit *u)
{
	const struct automount *a;

	if (u->svc->kind != UNIT_AUTOMOUNT || u->state != UNIT_READY || !(a = entry_of(u)))
		return -1;
	return a->expire_pid > 0 ? -1 : a->expire_at_ms;
}

const char *automount_unit_sub_state(const struct unit *u)
{
	const struct unit *m = mount_unit(u);

	return m && m->state == UNIT_READY ? "running" : "waiting";
}
