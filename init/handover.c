/* PID 1's state across execve(): see handover.h. The format is text, one line per
 * record, so a newer ember-init can read an older one's state and skip what it does not
 * know:
 *   ember-state 1
 *   p run_pid=N shell_pid=N rescue=0|1 started_us=N boot_ready_us=N generation=N
 *     crashes=N crash_ms=N
 *   u NAME key=N ... status=HEX error=HEX
 *   a INSTANCE SOCKET fd=N      (sockets-accept: an Accept=yes connection)
 *   w UNIT token=N expire=0|1   (an answer an automount still owes the kernel; after
 *                                the unit's "u" line, whose listen_fd0/1 it answers by)
 *   e UNIT pid=N                (an automount's idle check child, still running)
 * Numbers are decimal; the two strings are hex, so nothing in them can break a line. */
#include "handover.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"
#include "socket-accept.h"
#include "supervisor.h"
#include "unit-automount.h"
#include "unit-timer.h"
#include "fdstore.h" /* unit-runtime2 */

#define STATE_MAX (1024 * 1024) /* 256 units of ~3 KiB at most, and Accept=yes connections */
#define ARGS_MAX 64
#define ENV_MAX 64
#define STATE_MAGIC "ember-state 1\n"

enum field_type { F_INT, F_PID, F_LL, F_UNS, F_BOOL, F_STATE, F_PHASE, F_U8 };

/* The unit fields that carry over. fds are passed by number (FD_CLOEXEC cleared). */
static const struct field {
	const char *key;
	size_t off;
	enum field_type type;
	bool fd;
} unit_fields[] = {
#define UF(k, member, t, isfd) { k, offsetof(struct unit, member), t, isfd }
	UF("state", state, F_STATE, false),
	UF("phase", phase, F_PHASE, false),
	UF("exec_index", exec_index, F_UNS, false),
	UF("main_pid", main_pid, F_PID, false),
	UF("control_pid", control_pid, F_PID, false),
	UF("pgid", pgid, F_PID, false),
	UF("cg_fd", cg_fd, F_INT, true),
	UF("out_fd", out_fd, F_INT, true),
	UF("out_wfd", out_wfd, F_INT, true),
	UF("err_fd", err_fd, F_INT, true),
	UF("err_wfd", err_wfd, F_INT, true),
	UF("exec_fd", exec_fd, F_INT, true),
	UF("deadline_ms", deadline_ms, F_LL, false),
	UF("start_wanted", start_wanted, F_BOOL, false),
	UF("stop_wanted", stop_wanted, F_BOOL, false),
	UF("restart_pending", restart_pending, F_BOOL, false),
	UF("killed", killed, F_BOOL, false),
	UF("start_after_stop", start_after_stop, F_BOOL, false),
	UF("stop_deferred", stop_deferred, F_BOOL, false),
	UF("held", held, F_BOOL, false), /* sessions */
	UF("restarts", restarts, F_UNS, false),
	UF("exit_status", exit_status, F_INT, false),
	UF("run_started_ms", run_started_ms, F_LL, false),
	UF("since_us", since_us, F_LL, false),
	UF("started_us", started_us, F_LL, false),
	UF("ready_us", ready_us, F_LL, false),
	UF("failed_us", failed_us, F_LL, false),
	UF("stopped_us", stopped_us, F_LL, false),
	UF("bo_consecutive", backoff.consecutive, F_UNS, false),
	UF("bo_in_window", backoff.in_window, F_UNS, false),
	UF("bo_window_start_ms", backoff.window_start_ms, F_LL, false),
	UF("bo_starved", backoff.starved, F_UNS, false),
	/* runtime keys (unit-runtime2): the service watchdog (CLOCK_BOOTTIME carries over) */
	UF("watchdog_deadline_ms", watchdog_deadline_ms, F_LL, false),
	UF("watchdog_usec_override", watchdog_usec_override, F_LL, false),
	UF("watchdog_fired", watchdog_fired, F_BOOL, false),
	/* timer units: when they last elapsed (the next elapse is computed again) */
	UF("timer_last_us", timer_last_us, F_LL, false),
	UF("timer_last_wall", timer_last_wall, F_LL, false),
	UF("timer_start_wall", timer_start_wall, F_LL, false),
	UF("timer_random_ms", timer_random_ms, F_UNS, false),
	UF("dynamic_uid", dynamic_uid, F_UNS, false), /* DynamicUser=: still held */
	/* sockets-accept: U2 lifecycle results and U4 socket units' fds and counters */
	UF("result", result, F_U8, false),
	UF("exit_signal", exit_signal, F_U8, false),
	UF("stop_post_due", stop_post_due, F_BOOL, false),
	UF("remain", remain, F_BOOL, false),
	UF("pidfile_wait", pidfile_wait, F_BOOL, false),
	UF("reloading", reloading, F_BOOL, false),
	UF("reload_notified", reload_notified, F_BOOL, false),
	UF("reload_failed", reload_failed, F_BOOL, false),
	UF("idle_waited", idle_waited, F_BOOL, false),
	UF("reload_started_us", reload_started_us, F_LL, false),
	UF("listen_fd0", listen_fd[0], F_INT, true),
	UF("listen_fd1", listen_fd[1], F_INT, true),
	UF("listen_fd2", listen_fd[2], F_INT, true),
	UF("listen_fd3", listen_fd[3], F_INT, true),
	UF("listen_fd4", listen_fd[4], F_INT, true),
	UF("listen_fd5", listen_fd[5], F_INT, true),
	UF("listen_fd6", listen_fd[6], F_INT, true),
	UF("listen_fd7", listen_fd[7], F_INT, true),
	UF("triggers", triggers, F_UNS, false),
	UF("trigger_window_ms", trigger_window_ms, F_LL, false),
	UF("failures", failures, F_UNS, false),
	UF("failure_window_ms", failure_window_ms, F_LL, false),
	UF("busname_pid", busname_pid, F_PID, false),
#undef UF
};
#define FIELD_COUNT (sizeof unit_fields / sizeof unit_fields[0])

static struct {
	char exe[PATH_MAX];
	char *argv[ARGS_MAX + 1];
	char *envp[ENV_MAX + 2];
	char env_fd[32];
	char state[STATE_MAX + 1];  /* what was received, NUL-terminated */
	size_t state_len;
} ho; /* .bss */

/* ---- the invocation ----------------------------------------------------------------- */

void handover_save_invocation(int argc, char **argv, char **envp)
{
	ssize_t n = readlink("/proc/self/exe", ho.exe, sizeof ho.exe - 1);
	size_t e = 0;

	/* An upgrade replaces the file: run the path, not the deleted inode. */
	if (n > 0) {
		ho.exe[n] = '\0';
		char *deleted = strstr(ho.exe, " (deleted)");
		if (deleted && deleted[10] == '\0')
			*deleted = '\0';
	} else if (argc > 0 && argv[0][0] == '/') {
		snprintf(ho.exe, sizeof ho.exe, "%s", argv[0]);
	}
	for (int i = 0; i < argc && i < ARGS_MAX; i++)
		ho.argv[i] = argv[i];
	for (size_t i = 0; envp && envp[i] && e < ENV_MAX; i++)
		if (strncmp(envp[i], HANDOVER_ENV "=", sizeof HANDOVER_ENV) != 0)
			ho.envp[e++] = envp[i];
	ho.envp[e] = NULL;
}

/* ---- writing -------------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t size, len;
	bool full;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->full = true;
		return;
	}
	o->len += (size_t)n;
}

static void put_hex(struct out *o, const char *key, const char *s)
{
	static const char digits[] = "0123456789abcdef";

	put(o, " %s=", key);
	for (; *s && !o->full; s++) {
		if (o->size - o->len < 3) {
			o->full = true;
			return;
		}
		o->buf[o->len++] = digits[(unsigned char)*s >> 4];
		o->buf[o->len++] = digits[(unsigned char)*s & 15];
		o->buf[o->len] = '\0';
	}
	if (!*s)
		put(o, "%s", "");
}

static long long field_get(const struct unit *u, const struct field *f)
{
	const char *p = (const char *)u + f->off;

	switch (f->type) {
	case F_INT: return *(const int *)p;
	case F_PID: return *(const pid_t *)p;
	case F_LL: return *(const long long *)p;
	case F_UNS: return *(const unsigned *)p;
	case F_BOOL: return *(const bool *)p;
	case F_STATE: return *(const enum unit_state *)p;
	case F_PHASE: return *(const enum unit_phase *)p;
	case F_U8: return *(const uint8_t *)p;
	}
	return 0;
}

static void field_set(struct unit *u, const struct field *f, long long v)
{
	char *p = (char *)u + f->off;

	switch (f->type) {
	case F_INT: *(int *)p = (int)v; break;
	case F_PID: *(pid_t *)p = (pid_t)v; break;
	case F_LL: *(long long *)p = v; break;
	case F_UNS: *(unsigned *)p = (unsigned)v; break;
	case F_BOOL: *(bool *)p = v != 0; break;
	case F_STATE:
		if (v >= UNIT_INACTIVE && v <= UNIT_CONDITION)
			*(enum unit_state *)p = (enum unit_state)v;
		break;
	case F_PHASE:
		if ((v >= PHASE_NONE && v <= PHASE_STOP_POST) || v == PHASE_SWAPOFF)
			*(enum unit_phase *)p = (enum unit_phase)v;
		break;
	case F_U8:
		if (v >= 0 && v <= 255)
			*(uint8_t *)p = (uint8_t)v;
		break;
	}
}

static void put_unit(struct out *o, const struct unit *u)
{
	put(o, "u %s", u->svc->name);
	for (size_t i = 0; i < FIELD_COUNT; i++)
		put(o, " %s=%lld", unit_fields[i].key, field_get(u, &unit_fields[i]));
	put_hex(o, "status", u->status_text);
	put_hex(o, "error", u->error);
	put(o, "\n");
}

/* ---- sockets-accept: Accept=yes connections --------------------------------------- */

static bool number_of(const char *line, const char *end, const char *key, long long *v);

static void put_connections(struct out *o)
{
	const char *instance, *sock;
	int fd;

	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		if (accept_conn_get(i, &instance, &sock, &fd))
			put(o, "a %s %s fd=%d\n", instance, sock, fd);
}

static void connection_fds_inherit(bool inherit)
{
	const char *instance, *sock;
	int fd;

	for (size_t i = 0; i < ACCEPT_CONN_MAX; i++)
		if (accept_conn_get(i, &instance, &sock, &fd))
			fcntl(fd, F_SETFD, inherit ? 0 : FD_CLOEXEC);
}

/* "INSTANCE SOCKET fd=N": the instance joins the new table, its connection is held again
 * (close-on-exec once more); without its template the connection is closed. */
static void adopt_connection(const char *line, const char *end)
{
	char instance[SERVICE_NAME_MAX], sock[SERVICE_NAME_MAX];
	const char *sp = memchr(line, ' ', (size_t)(end - line)), *sp2;
	long long fd;

	if (!sp || (size_t)(sp - line) >= sizeof instance || !number_of(line, end, "fd", &fd) ||
	    fd < 3 || fd > INT_MAX)
		return;
	sp2 = memchr(sp + 1, ' ', (size_t)(end - sp - 1));
	if (!sp2 || (size_t)(sp2 - sp - 1) >= sizeof sock) {
		close((int)fd);
		return;
	}
	memcpy(instance, line, (size_t)(sp - line));
	instance[sp - line] = '\0';
	memcpy(sock, sp + 1, (size_t)(sp2 - sp - 1));
	sock[sp2 - sp - 1] = '\0';
	fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	if (!service_name_valid(instance) || !supervisor_adopt_instance(instance) ||
	    accept_conn_restore(instance, sock, (int)fd) < 0) {
		log_warn("re-execution: %s: cannot take its connection back; closed", instance);
		close((int)fd);
	}
}

/* ---- automounts: the answers owed to processes waiting in the kernel ------------------ */

static void put_owed(struct out *o)
{
	uint32_t token;
	bool expire;

	for (size_t i = 0; i < supervisor_count(); i++) {
		const struct unit *u = supervisor_unit(i);
		for (size_t w = 0; automount_owed_at(u, w, &token, &expire); w++)
			put(o, "w %s token=%u expire=%d\n", u->svc->name, (unsigned)token,
			    expire ? 1 : 0);
		if (automount_expire_pid(u) > 0)
			put(o, "e %s pid=%d\n", u->svc->name, (int)automount_expire_pid(u));
	}
}

/* "UNIT token=N expire=0|1": owed again by the new PID 1. A token is the kernel's, so a
 * record that does not parse is dropped: answering a wrong token could wake a stranger. */
static void adopt_owed(const char *line, const char *end)
{
	char name[SERVICE_NAME_MAX];
	const char *sp = memchr(line, ' ', (size_t)(end - line));
	long long token, expire;
	struct unit *u;

	if (!sp || (size_t)(sp - line) >= sizeof name || !number_of(line, end, "token", &token) ||
	    token < 0 || token > UINT32_MAX || !number_of(line, end, "expire", &expire) ||
	    (expire != 0 && expire != 1)) {
		log_warn("re-execution: an automount answer record does not parse; ignored");
		return;
	}
	memcpy(name, line, (size_t)(sp - line));
	name[sp - line] = '\0';
	u = supervisor_unit_for_handover(name);
	if (!u || automount_owe_again(u, (uint32_t)token, expire != 0) < 0)
		log_warn("re-execution: %s: no autofs to answer token %lld through; dropped", name,
			 token);
}

/* "UNIT pid=N": the idle check's child, ours still (execve() keeps the children). An
 * older PID 1 wrote none: its child is then reaped as a stranger's, as before. */
static void adopt_expire(const char *line, const char *end)
{
	char name[SERVICE_NAME_MAX];
	const char *sp = memchr(line, ' ', (size_t)(end - line));
	long long pid;
	struct unit *u;

	if (!sp || (size_t)(sp - line) >= sizeof name || !number_of(line, end, "pid", &pid) ||
	    pid <= 1 || pid > INT_MAX) {
		log_warn("re-execution: an automount idle check record does not parse; ignored");
		return;
	}
	memcpy(name, line, (size_t)(sp - line));
	name[sp - line] = '\0';
	u = supervisor_unit_for_handover(name);
	if (!u || automount_adopt_expire(u, (pid_t)pid) < 0)
		log_warn("re-execution: %s: idle check %lld not taken back; reaped as a stranger",
			 name, pid);
}

size_t handover_format(char *buf, size_t size, const struct handover_pid1 *p)
{
	struct out o = { buf, size, 0, false };

	put(&o, "%s", STATE_MAGIC);
	put(&o, "p run_pid=%d shell_pid=%d rescue=%d started_us=%lld boot_ready_us=%lld "
		"generation=%u crashes=%u crash_ms=%lld notify_fd=%d\n",
	    (int)p->run_pid, (int)p->shell_pid, p->rescue ? 1 : 0, p->started_us, p->boot_ready_us,
	    p->generation, p->crashes, p->crash_ms, p->notify_fd);
	for (size_t i = 0; i < supervisor_count(); i++)
		put_unit(&o, supervisor_unit(i));
	/* unit-runtime2: the fd store, "f UNIT fd=N name=HEX" */
	for (size_t i = 0; fdstore_entry_at(i); i++) {
		put(&o, "f %s fd=%d", fdstore_entry_at(i)->unit, fdstore_entry_at(i)->fd);
		put_hex(&o, "name", fdstore_entry_at(i)->name);
		put(&o, "\n");
	}
	put_connections(&o); /* sockets-accept */
	put_owed(&o);        /* after every "u" line: adopted once the fds are */
	return o.full ? 0 : o.len;
}

/* Keep (or no longer keep) every unit fd open across execve(). */
static void unit_fds_inherit(bool inherit)
{
	for (size_t i = 0; i < supervisor_count(); i++) {
		const struct unit *u = supervisor_unit(i);
		for (size_t f = 0; f < FIELD_COUNT; f++) {
			int fd = unit_fields[f].fd ? (int)field_get(u, &unit_fields[f]) : -1;
			if (fd >= 0)
				fcntl(fd, F_SETFD, inherit ? 0 : FD_CLOEXEC);
		}
	}
	fdstore_inherit(inherit); /* unit-runtime2 */
}

static int state_memfd(void)
{
#ifdef SYS_memfd_create
	int fd = (int)syscall(SYS_memfd_create, "ember-state", 0u);
	if (fd >= 0)
		return fd;
#endif
	/* No memfd (an old kernel): an unlinked file on /run, a tmpfs. */
	char path[] = "/run/ember/.state-XXXXXX";
	int tmp = mkstemp(path);
	if (tmp >= 0)
		unlink(path);
	return tmp;
}

int handover_exec(const struct handover_pid1 *p)
{
	static char buf[STATE_MAX];
	size_t len = handover_format(buf, sizeof buf, p);
	int fd, e;
	size_t envc = 0;

	if (len == 0 || !ho.exe[0] || !ho.argv[0]) {
		errno = len == 0 ? EOVERFLOW : ENOENT;
		return -1;
	}
	fd = state_memfd();
	if (fd < 0)
		return -1;
	if (write(fd, buf, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	while (ho.envp[envc])
		envc++;
	snprintf(ho.env_fd, sizeof ho.env_fd, "%s=%d", HANDOVER_ENV, fd);
	ho.envp[envc] = ho.env_fd;
	ho.envp[envc + 1] = NULL;
	unit_fds_inherit(true);
	connection_fds_inherit(true); /* sockets-accept */
	if (p->notify_fd >= 0)
		fcntl(p->notify_fd, F_SETFD, 0);
	execve(ho.exe, ho.argv, ho.envp);
	e = errno;
	unit_fds_inherit(false);
	connection_fds_inherit(false);
	if (p->notify_fd >= 0)
		fcntl(p->notify_fd, F_SETFD, FD_CLOEXEC);
	ho.envp[envc] = NULL;
	close(fd);
	errno = e;
	return -1;
}

/* ---- reading -------------------------------------------------------------------------- */

/* The value of " key=" in line (up to its end), or NULL. Values hold no spaces. */
static const char *value_of(const char *line, const char *end, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = line; p < end; p++)
		if (*p == ' ' && (size_t)(end - p) > klen + 1 && memcmp(p + 1, key, klen) == 0 &&
		    p[klen + 1] == '=')
			return p + klen + 2;
	return NULL;
}

static bool number_of(const char *line, const char *end, const char *key, long long *v)
{
	const char *s = value_of(line, end, key);
	char *stop;

	if (!s)
		return false;
	errno = 0;
	*v = strtoll(s, &stop, 10);
	return errno == 0 && stop != s && (stop == end || *stop == ' ');
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void hex_of(const char *line, const char *end, const char *key, char *out, size_t size)
{
	const char *s = value_of(line, end, key);
	size_t n = 0;

	out[0] = '\0';
	if (!s)
		return;
	while (s + 1 < end && n + 1 < size && hexval(s[0]) >= 0 && hexval(s[1]) >= 0) {
		char c = (char)(hexval(s[0]) << 4 | hexval(s[1]));
		out[n++] = c ? c : '?';
		s += 2;
	}
	out[n] = '\0';
}

bool handover_parse_pid1(const char *text, struct handover_pid1 *p)
{
	const char *line, *end;
	long long v;

	memset(p, 0, sizeof *p);
	p->boot_ready_us = -1;
	p->notify_fd = -1;
	if (strncmp(text, STATE_MAGIC, strlen(STATE_MAGIC)) != 0)
		return false;
	line = strstr(text, "\np ");
	if (!line)
		return false;
	line += 2;
	end = strchr(line, '\n');
	if (!end)
		return false;
	if (number_of(line, end, "run_pid", &v) && v > 0 && v <= INT_MAX)
		p->run_pid = (pid_t)v;
	if (number_of(line, end, "shell_pid", &v) && v > 0 && v <= INT_MAX)
		p->shell_pid = (pid_t)v;
	if (number_of(line, end, "rescue", &v))
		p->rescue = v != 0;
	if (number_of(line, end, "started_us", &v))
		p->started_us = v;
	if (number_of(line, end, "boot_ready_us", &v))
		p->boot_ready_us = v;
	if (number_of(line, end, "generation", &v) && v >= 0 && v < UINT_MAX)
		p->generation = (unsigned)v;
	if (number_of(line, end, "crashes", &v) && v >= 0 && v < UINT_MAX)
		p->crashes = (unsigned)v;
	if (number_of(line, end, "crash_ms", &v))
		p->crash_ms = v;
	if (number_of(line, end, "notify_fd", &v) && v >= 3 && v <= INT_MAX)
		p->notify_fd = (int)v;
	return true;
}

bool handover_receive(struct handover_pid1 *p)
{
	const char *var = getenv(HANDOVER_ENV);
	char *stop;
	long fd;
	ssize_t n;

	if (!var)
		return false;
	fd = strtol(var, &stop, 10);
	unsetenv(HANDOVER_ENV); /* children must not see it */
	if (*stop || fd < 3 || fd > INT_MAX)
		return false;
	ho.state_len = 0;
	while (ho.state_len < STATE_MAX &&
	       (n = read((int)fd, ho.state + ho.state_len, STATE_MAX - ho.state_len)) > 0)
		ho.state_len += (size_t)n;
	close((int)fd);
	ho.state[ho.state_len] = '\0';
	if (!handover_parse_pid1(ho.state, p)) {
		log_error("re-execution: the state handed over is not readable; starting afresh");
		ho.state_len = 0;
		return false;
	}
	return true;
}

/* A unit of the old PID 1 that the new service files no longer have: its processes run
 * on unsupervised (reaped as orphans); its fds are closed. */
static void orphan_unit(const char *name, const char *line, const char *end)
{
	long long v;

	log_warn("re-execution: %s is no longer loaded; its processes are left alone", name);
	for (size_t f = 0; f < FIELD_COUNT; f++)
		if (unit_fields[f].fd && number_of(line, end, unit_fields[f].key, &v) && v >= 3 &&
		    v <= INT_MAX)
			close((int)v);
}

static void adopt_line(const char *line, const char *end, unsigned *adopted)
{
	char name[SERVICE_NAME_MAX];
	const char *sp = memchr(line, ' ', (size_t)(end - line));
	struct unit *u;
	long long v;

	if (!sp || (size_t)(sp - line) >= sizeof name)
		return;
	memcpy(name, line, (size_t)(sp - line));
	name[sp - line] = '\0';
	u = supervisor_unit_for_handover(name);
	if (!u) {
		orphan_unit(name, line, end);
		return;
	}
	for (size_t f = 0; f < FIELD_COUNT; f++)
		if (number_of(line, end, unit_fields[f].key, &v))
			field_set(u, &unit_fields[f], v);
	/* a re-execution from a version that kept the timer's last elapse in ms */
	if (u->timer_last_us < 0 && number_of(line, end, "timer_last_ms", &v) && v >= 0)
		u->timer_last_us = v * 1000;
	if (u->svc->kind == UNIT_TIMER)
		timer_unit_adopted(u, number_of(line, end, "timer_random_ms", &v));
	hex_of(line, end, "status", u->status_text, sizeof u->status_text);
	hex_of(line, end, "error", u->error, sizeof u->error);
	(*adopted)++;
}

/* unit-runtime2: one stored fd; a unit no longer loaded loses it. */
static void adopt_fdstore(const char *line, const char *end)
{
	char unit[SERVICE_NAME_MAX], name[NOTIFY_FDNAME_MAX];
	const char *sp = memchr(line, ' ', (size_t)(end - line));
	long long fd;

	if (!sp || (size_t)(sp - line) >= sizeof unit || !number_of(line, end, "fd", &fd) ||
	    fd < 3 || fd > INT_MAX)
		return;
	memcpy(unit, line, (size_t)(sp - line));
	unit[sp - line] = '\0';
	hex_of(line, end, "name", name, sizeof name);
	if (!supervisor_find(unit) || !name[0]) {
		close((int)fd);
		return;
	}
	fdstore_adopt(unit, (int)fd, name);
}

static void adopt_record(char kind, const char *line, const char *end, unsigned *adopted)
{
	switch (kind) {
	case 'a': adopt_connection(line, end); break; /* sockets-accept */
	case 'u': adopt_line(line, end, adopted); break;
	case 'f': adopt_fdstore(line, end); break;    /* unit-runtime2 */
	case 'w': adopt_owed(line, end); break;       /* automount units */
	case 'e': adopt_expire(line, end); break;
	}
}

/* One pass over the state: the records whose kind letter is in kinds, in order. */
static void adopt_records(const char *kinds, unsigned *adopted)
{
	for (const char *line = ho.state; ho.state_len && line && *line;) {
		const char *end = strchr(line, '\n');
		if (!end)
			break;
		if (line[1] == ' ' && strchr(kinds, line[0]))
			adopt_record(line[0], line + 2, end, adopted);
		line = end + 1;
	}
}

unsigned handover_adopt_units(void)
{
	unsigned adopted = 0;

	adopt_records("a", &adopted);  /* sockets-accept: their instances must exist for "u" */
	adopt_records("uf", &adopted);
	adopt_records("we", &adopted); /* automounts answer through fds the "u" lines adopted */
	ho.state_len = 0;
	return adopted;
}
