#include "control.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control-verbs.h" /* emberctl verbs (issue 17) */
#include "ctl.h"
#include "dynamic-user.h"
#include "io.h"
#include "log.h"
#include "pages.h"
#include "supervisor.h"
#include "unit-timer.h" /* timer units */
#include "unit-path.h" /* path units */
#include "svc-runtime.h" /* unit-runtime2 */
#include "svc-cgroup.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS 59 /* Linux 4.13; older libc headers lack it */
#endif

/* Fairness (docs/control-protocol.md, "Access and limits"): no user can hold every
 * slot. Users other than root share NONROOT_MAX slots, at most PER_UID_MAX each, and
 * at most PER_UID_FOLLOWERS of those may follow a log; root's followers are bounded
 * too, so root always has slots left for list, stop and poweroff. Every connection that
 * is not following a log is dropped REQUEST_DEADLINE_MS after it connected. */
#define NONROOT_MAX 16
#define ROOT_RESERVED 8
#define PER_UID_MAX 4
#define PER_UID_FOLLOWERS 2
#define ROOT_FOLLOWERS 4
#define ACCEPTS_PER_TURN 64      /* drain the backlog: refused peers leave at once */
#define REQUEST_DEADLINE_MS 2000 /* to send the request; the reply is never waited for */
#define PEER_GROUPS_MAX 64

/* A slot holds a 4 KiB reply packet. Aligned to pages, a slot's pages are its own, and a
 * closed slot gives them back (pages_release()): every slot a burst of clients once
 * filled stayed resident for good, up to ~100 KiB. (With larger pages than this,
 * nothing is given back, and nothing breaks.) */
#define CLIENT_ALIGN 4096

struct client {
	_Alignas(CLIENT_ALIGN) bool open; /* compact: false (zero) is a free slot: nothing to
				      * initialise, so free slots' pages are never touched */
	int fd;
	uid_t uid;
	bool may_change;             /* root, or a member of the control group */
	long long deadline_ms;       /* -1: following a log */
	const struct unit *follow;   /* log follow: the unit and how far it has been sent */
	unsigned long long cursor;
	struct ctl_writer w;
};

static struct {
	int listen_fd;
	struct client clients[CONTROL_CLIENTS_MAX];
	void (*power_cb)(enum power_action a);
	void (*reexec_cb)(void);
	bool group_set;              /* ember.ctl_group= given */
	gid_t group;
} ctl; /* zero-initialised (stays in .bss); control_open() sets the fds */

void control_on_power(void (*cb)(enum power_action a)) { ctl.power_cb = cb; }
void control_on_reexec(void (*cb)(void)) { ctl.reexec_cb = cb; }

void control_set_group(gid_t gid)
{
	ctl.group = gid;
	ctl.group_set = true;
}

int control_open(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	ctl.listen_fd = -1;
	if (strlen(path) >= sizeof sa.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, ACCEPTS_PER_TURN) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	chmod(path, 0666); /* reads are open to all; changes check the peer's uid */
	ctl.listen_fd = fd;
	return fd;
}

/* A socket inherited across re-execution (state handover): listen on it again. */
void control_adopt(int fd)
{
	ctl.listen_fd = fd;
}

int control_listen_fd(void) { return ctl.listen_fd; }

static int send_packet(void *ctx, const char *packet, size_t len)
{
	struct client *c = ctx;
	return send(c->fd, packet, len, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static void drop(struct client *c)
{
	if (!c->open) /* a released slot reads fd 0: never close that */
		return;
	close(c->fd);
	c->fd = -1;
	c->open = false;
	c->follow = NULL;
	pages_release(c, sizeof *c); /* reads as zeros again: a free slot */
}

/* How many slots uid holds, and how many of them follow a log; and the slots every
 * user but root holds. */
static void count_clients(uid_t uid, int *mine, int *my_followers, int *nonroot)
{
	*mine = *my_followers = *nonroot = 0;
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++) {
		const struct client *c = &ctl.clients[i];
		if (!c->open)
			continue;
		*nonroot += c->uid != 0;
		if (c->uid == uid) {
			(*mine)++;
			*my_followers += c->follow != NULL;
		}
	}
}

/* May a new connection of uid take a slot? */
static bool slot_allowed(uid_t uid)
{
	int mine, followers, nonroot;

	if (uid == 0)
		return true; /* the ROOT_RESERVED slots are never handed to anyone else */
	count_clients(uid, &mine, &followers, &nonroot);
	return mine < PER_UID_MAX && nonroot < NONROOT_MAX;
}

static bool in_control_group(int fd, gid_t primary)
{
	gid_t groups[PEER_GROUPS_MAX];
	socklen_t len = sizeof groups;

	if (!ctl.group_set)
		return false;
	if (primary == ctl.group)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) < 0)
		return false; /* ERANGE (too many groups) or an old kernel: primary only */
	for (size_t i = 0; i < len / sizeof groups[0]; i++)
		if (groups[i] == ctl.group)
			return true;
	return false;
}

static struct client *free_slot(void)
{
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++)
		if (!ctl.clients[i].open)
			return &ctl.clients[i];
	return NULL;
}

/* Returns false when the backlog is empty. */
static bool accept_client(long long now)
{
	struct client *c;
	struct ucred cred;
	socklen_t len = sizeof cred;
	int fd = accept4(ctl.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return errno == EINTR || errno == ECONNABORTED;
	c = free_slot();
	if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 ||
	    !slot_allowed(cred.uid)) {
		close(fd); /* busy: the client sees the connection close and retries */
		return true;
	}
	c->fd = fd;
	c->open = true;
	c->uid = cred.uid;
	c->may_change = cred.uid == 0 || in_control_group(fd, cred.gid);
	c->deadline_ms = now + REQUEST_DEADLINE_MS;
	c->follow = NULL;
	ctl_writer_init(&c->w, send_packet, c);
	return true;
}

static void fail_reply(struct client *c, int status, const char *msg);

/* ---- records ---------------------------------------------------------------------- */

static void add_names(struct ctl_writer *w, const char *key, const struct service *s,
		      const struct service_name_list *l)
{
	char buf[1024];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < service_list_count(l); i++) {
		char name[SERVICE_NAME_MAX];
		int n = snprintf(buf + len, sizeof buf - len, "%s%s", i ? "," : "",
				 service_list_name(s, l, i, name));
		if (n < 0 || (size_t)n >= sizeof buf - len)
			break;
		len += (size_t)n;
	}
	ctl_record_add_str(w, key, buf);
}

/* path units: "PathExists=/x\nPathChanged=/y", the entries as systemctl names them. */
static void add_path_entries(struct ctl_writer *w, const struct service *s)
{
	static const char kinds[] = { PATH_EXISTS, PATH_EXISTS_GLOB, PATH_CHANGED,
				      PATH_MODIFIED, PATH_DIR_NOT_EMPTY };
	static const char *const keys[] = { "PathExists", "PathExistsGlob", "PathChanged",
					    "PathModified", "DirectoryNotEmpty" };
	char buf[1024], path[SERVICE_PATH_MAX], kind;
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; unit_path_entry(s, i, &kind, path, sizeof path); i++) {
		const char *key = "?";
		int n;
		for (size_t k = 0; k < sizeof kinds; k++)
			if (kinds[k] == kind)
				key = keys[k];
		n = snprintf(buf + len, sizeof buf - len, "%s%s=%s", len ? "\n" : "", key, path);
		if (n < 0 || (size_t)n >= sizeof buf - len)
			break;
		len += (size_t)n;
	}
	ctl_record_add_str(w, "paths", buf);
}

static const char *type_name(enum service_type t)
{
	static const char *const names[] = {
		[SERVICE_SIMPLE] = "simple",	 [SERVICE_ONESHOT] = "oneshot",
		[SERVICE_NOTIFY] = "notify",	 [SERVICE_EXEC] = "exec",
		[SERVICE_FORKING] = "forking",	 [SERVICE_IDLE] = "idle",
		[SERVICE_NOTIFY_RELOAD] = "notify-reload", [SERVICE_DBUS] = "dbus",
	};
	return (unsigned)t < sizeof names / sizeof *names && names[t] ? names[t] : "simple";
}

/* DynamicUser=: the id this run holds and its name, in every list record: what
 * ember-activator --userdb answers name lookups from. */
static void add_dynamic_user(struct ctl_writer *w, const struct unit *u)
{
	char name[DYNAMIC_USER_NAME_MAX];

	if (!u->dynamic_uid || dynamic_user_name(u->svc, name) < 0)
		return;
	ctl_record_add_int(w, "dynamic_uid", u->dynamic_uid);
	ctl_record_add_str(w, "dynamic_user", name);
}

static void unit_summary(struct ctl_writer *w, const struct unit *u)
{
	const struct service *s = u->svc;
	ctl_record_add_str(w, "name", s->name);
	ctl_record_add_str(w, "state", unit_state_name(u->state));
	ctl_record_add_int(w, "main_pid", u->main_pid);
	ctl_record_add_int(w, "restarts", u->restarts);
	ctl_record_add_int(w, "since_us", u->since_us);
	ctl_record_add_str(w, "description", service_str(s, s->description));
	ctl_record_add_str(w, "status_text", u->status_text);
	ctl_record_add_str(w, "error", u->error);
	ctl_record_add_str(w, "type", s->kind == UNIT_SOCKET ? "socket" :
			   s->kind == UNIT_TIMER ? "timer" : s->kind == UNIT_PATH ? "path" :
			   s->kind == UNIT_AUTOMOUNT ? "automount" : type_name(s->type));
	if (s->kind == UNIT_TIMER) { /* timer units: what list-timers and status show */
		char target[SERVICE_NAME_MAX];
		ctl_record_add_str(w, "triggers", service_trigger_target(s, target, sizeof target));
		ctl_record_add_int(w, "next_elapse_s", timer_unit_next_wall(u));
		ctl_record_add_int(w, "last_elapse_s", timer_unit_last_wall(u));
	}
	if (s->kind == UNIT_AUTOMOUNT) { /* automount units: the mount unit it starts */
		char target[SERVICE_NAME_MAX];
		snprintf(target, sizeof target, "%.*s.mount",
			 (int)(strlen(s->name) - strlen(".automount")), s->name);
		ctl_record_add_str(w, "triggers", target);
	}
	if (s->kind == UNIT_PATH) { /* path units: what status and list-paths show */
		char target[SERVICE_NAME_MAX];
		ctl_record_add_str(w, "triggers", service_trigger_target(s, target, sizeof target));
		add_path_entries(w, s);
	}
	add_dynamic_user(w, u);
	verbs_add_summary(w, u); /* emberctl verbs (issue 17) */
}

static void reply_list(struct client *c)
{
	for (size_t i = 0; i < supervisor_count(); i++) {
		ctl_record_begin(&c->w);
		unit_summary(&c->w, supervisor_unit(i));
		ctl_record_end(&c->w);
	}
	ctl_write_exit(&c->w, CTL_STATUS_OK);
}

static void reply_status(struct client *c, const struct unit *u)
{
	struct svc_cgroup_stats st;

	svc_cgroup_stats(u, &st);
	ctl_record_begin(&c->w);
	unit_summary(&c->w, u);
	ctl_record_add_int(&c->w, "memory_current", st.memory_current);
	ctl_record_add_int(&c->w, "memory_peak", st.memory_peak);
	ctl_record_add_int(&c->w, "hugetlb_bytes", st.hugetlb_bytes);
	ctl_record_add_int(&c->w, "pids_current", st.pids_current);
	ctl_record_add_int(&c->w, "cpu_usage_usec", st.cpu_usage_usec);
	ctl_record_add_int(&c->w, "exit_status", u->exit_status);
	ctl_record_add_str(&c->w, "cgroup", st.path);
	add_names(&c->w, "after", u->svc, &u->svc->after);
	add_names(&c->w, "requires", u->svc, &u->svc->requires);
	verbs_add_status(&c->w, u); /* emberctl verbs (issue 17) */
	ctl_record_end(&c->w);
	ctl_write_exit(&c->w, CTL_STATUS_OK);
}

/* The unit ordered before unit i (by any edge, implied ones included) that became ready
 * last before i started: what held i up, as systemd-analyze critical-chain reads it. A
 * target's implied After= on what it wants is only in the graph, not in its file. */
static const char *blocked_by(size_t i)
{
	const struct unit *u = supervisor_unit(i);
	long long limit = u->started_us >= 0 ? u->started_us : u->ready_us, best_ready = -1;
	const char *best = "";

	for (size_t j = 0; j < supervisor_count(); j++) {
		const struct unit *b = supervisor_unit(j);
		if (j == i || b->ready_us < 0 || (limit >= 0 && b->ready_us > limit) ||
		    b->ready_us <= best_ready || !supervisor_ordered_before(j, i))
			continue;
		best_ready = b->ready_us;
		best = b->svc->name;
	}
	return best;
}

static void reply_analyze(struct client *c)
{
	for (size_t i = 0; i < supervisor_count(); i++) {
		const struct unit *u = supervisor_unit(i);
		ctl_record_begin(&c->w);
		ctl_record_add_str(&c->w, "name", u->svc->name);
		ctl_record_add_str(&c->w, "state", unit_state_name(u->state));
		ctl_record_add_int(&c->w, "started_us", u->started_us);
		ctl_record_add_int(&c->w, "ready_us", u->ready_us);
		ctl_record_add_int(&c->w, "failed_us", u->failed_us);
		ctl_record_add_int(&c->w, "stopped_us", u->stopped_us);
		add_names(&c->w, "after", u->svc, &u->svc->after);
		ctl_record_add_str(&c->w, "blocked_by", blocked_by(i));
		ctl_record_end(&c->w);
	}
	ctl_record_begin(&c->w);
	ctl_record_add_str(&c->w, "kind", "boot");
	ctl_record_add_int(&c->w, "userspace_start_us", supervisor_userspace_start_us());
	ctl_record_add_int(&c->w, "ready_us", supervisor_ready_us());
	ctl_record_end(&c->w);
	ctl_write_exit(&c->w, CTL_STATUS_OK);
}

static void emit_text(void *ctx, const char *data, size_t len)
{
	ctl_write_text(ctx, data, len);
}

/* Followers never time out, so they are bounded: PER_UID_FOLLOWERS for each user but
 * root, ROOT_FOLLOWERS for root (who keeps slots for requests). */
static bool follow_allowed(const struct client *c)
{
	int mine, followers, nonroot;

	count_clients(c->uid, &mine, &followers, &nonroot);
	return followers < (c->uid == 0 ? ROOT_FOLLOWERS : PER_UID_FOLLOWERS);
}

static void reply_log(struct client *c, const struct unit *u, const struct ctl_request *r)
{
	bool follow = r->options & CTL_OPT_FOLLOW;

	/* emberctl verbs (issue 17): each line with its time, for --since, -n and --all */
	if (r->options & CTL_OPT_STAMPED) {
		verbs_reply_stamped_log(&c->w, u);
		return;
	}
	if (follow && !follow_allowed(c)) {
		fail_reply(c, CTL_STATUS_FAILED, "too many log followers for this user");
		return;
	}
	/* emberctl verbs (issue 17): from= goes on where a stamped reply ended */
	c->cursor = logbuf_read(unit_log_view(u->output), r->from, emit_text, &c->w);
	ctl_writer_flush(&c->w);
	if (!follow) {
		ctl_write_exit(&c->w, CTL_STATUS_OK);
		return;
	}
	c->follow = u;
	c->deadline_ms = -1;
}

static void report_line(void *ctx, const char *line)
{
	struct ctl_writer *w = ctx;
	ctl_write_text(w, line, strlen(line));
	ctl_write_text(w, "\n", 1);
}

/* ---- dispatch --------------------------------------------------------------------- */

static void fail_reply(struct client *c, int status, const char *msg)
{
	ctl_write_error(&c->w, msg);
	ctl_write_exit(&c->w, status);
}

static void change(struct client *c, const struct ctl_request *r)
{
	char err[256] = "";
	int rc = 0;

	/* unit-runtime2: RefuseManualStart=/RefuseManualStop= (systemctl's exit status 1) */
	if ((r->verb == CTL_START || r->verb == CTL_STOP || r->verb == CTL_RESTART) &&
	    !(r->options & CTL_OPT_RELEASE) && /* not a stop asked for: only a hold dropped */
	    runtime_refuse_manual(r->name, r->verb == CTL_START ? "start" : r->verb == CTL_STOP
				  ? "stop" : "restart", err, sizeof err) < 0) {
		fail_reply(c, CTL_STATUS_FAILED, err);
		return;
	}
	switch (r->verb) {
	case CTL_START:
		rc = supervisor_start(r->name, err, sizeof err);
		if (rc == 0 && (r->options & CTL_OPT_HOLD)) /* sessions */
			supervisor_hold(r->name);
		break;
	case CTL_STOP:
		rc = r->options & CTL_OPT_RELEASE ? supervisor_release(r->name, err, sizeof err)
						  : supervisor_stop(r->name, err, sizeof err);
		break;
	case CTL_RESTART: rc = supervisor_restart(r->name, err, sizeof err); break;
	case CTL_RELOAD: /* U2: with a name, reload that service (ExecReload=) */
		if (r->name[0])
			rc = supervisor_reload_unit(r->name, err, sizeof err);
		else
			supervisor_daemon_reload(report_line, &c->w, r->options & CTL_OPT_NO_START);
		break;
	/* emberctl verbs (issue 17) */
	case CTL_KILL: {
		int status;
		if (verbs_kill(r->name, r->signal, r->whom, c->uid, &status, err, sizeof err) < 0) {
			fail_reply(c, status, err);
			return;
		}
		break;
	}
	case CTL_DAEMON_REEXEC:
		log_info("control: re-execution requested by uid %u", (unsigned)c->uid);
		/* The reply goes out first: the new PID 1 does not know this client. */
		ctl_write_exit(&c->w, CTL_STATUS_OK);
		if (ctl.reexec_cb)
			ctl.reexec_cb();
		return;
	default: {
		enum power_action a = r->verb == CTL_POWEROFF ? POWER_POWEROFF
				      : r->verb == CTL_REBOOT ? POWER_REBOOT : POWER_HALT;
		log_info("control: %s requested by uid %u", power_action_name(a), (unsigned)c->uid);
		if (ctl.power_cb)
			ctl.power_cb(a);
	}
	}
	if (rc < 0)
		fail_reply(c, supervisor_find(r->name) ? CTL_STATUS_FAILED : CTL_STATUS_NO_SUCH_SERVICE, err);
	else
		ctl_write_exit(&c->w, CTL_STATUS_OK);
}

static void dispatch(struct client *c, const struct ctl_request *r)
{
	const struct unit *u = NULL;
	char msg[128];

	if (ctl_verb_changes(r->verb) && !c->may_change) {
		fail_reply(c, CTL_STATUS_FAILED, ctl.group_set
			   ? "permission denied: changes need root or the control group (ember.ctl_group=)"
			   : "permission denied: changes need root");
		return;
	}
	if (r->verb == CTL_DAEMON_REEXEC && c->uid != 0) {
		fail_reply(c, CTL_STATUS_FAILED, "permission denied: daemon-reexec needs root");
		return;
	}
	if (ctl_verb_takes_name(r->verb) && r->verb != CTL_RELOAD) {
		u = supervisor_find(r->name);
		if (!u && (r->verb == CTL_STATUS || r->verb == CTL_LOG)) {
			snprintf(msg, sizeof msg, "%s: no such service", r->name);
			fail_reply(c, CTL_STATUS_NO_SUCH_SERVICE, msg);
			return;
		}
	}
	switch (r->verb) {
	case CTL_LIST: reply_list(c); break;
	case CTL_STATUS: reply_status(c, u); break;
	case CTL_ANALYZE: reply_analyze(c); break;
	case CTL_LOG: reply_log(c, u, r); break;
	default: change(c, r);
	}
}

static void read_request(struct client *c)
{
	char buf[CTL_REQUEST_MAX + 1], err[128];
	struct ctl_request req;
	ssize_t n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);

	if (n < 0 && errno == EAGAIN)
		return;
	if (n <= 0 || c->follow) { /* closed, or a follower hung up */
		drop(c);
		return;
	}
	if (ctl_request_parse(buf, (size_t)n, &req, err, sizeof err) < 0)
		fail_reply(c, CTL_STATUS_BAD_REQUEST, err);
	else
		dispatch(c, &req);
	if (!c->follow)
		drop(c); /* one request per connection; the reply is out (or failed) */
}

size_t control_pollfds(struct pollfd *fds, size_t max)
{
	size_t n = 0;

	if (max < CONTROL_POLLFDS)
		return 0;
	fds[n++] = (struct pollfd){ .fd = ctl.listen_fd, .events = POLLIN };
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++)
		fds[n++] = (struct pollfd){ .fd = ctl.clients[i].open ? ctl.clients[i].fd : -1,
					    .events = POLLIN };
	return n;
}

void control_handle_pollfds(const struct pollfd *fds, size_t n, long long now)
{
	if (n < CONTROL_POLLFDS)
		return;
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++) {
		struct client *c = &ctl.clients[i];
		if (c->open && fds[1 + i].fd == c->fd && fds[1 + i].revents)
			read_request(c);
	}
	if (fds[0].revents & POLLIN)
		for (int i = 0; i < ACCEPTS_PER_TURN && accept_client(now); i++)
			;
}

void control_tick(long long now)
{
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++) {
		struct client *c = &ctl.clients[i];
		if (!c->open)
			continue;
		if (c->follow && unit_log_view(c->follow->output)->total != c->cursor) {
			c->cursor = logbuf_read(unit_log_view(c->follow->output), c->cursor,
						emit_text, &c->w);
			ctl_writer_flush(&c->w);
		}
		if (c->w.failed || (c->deadline_ms >= 0 && now >= c->deadline_ms))
			drop(c);
	}
}

long long control_next_deadline(void)
{
	long long next = -1;
	for (int i = 0; i < CONTROL_CLIENTS_MAX; i++) {
		const struct client *c = &ctl.clients[i];
		if (c->open && c->deadline_ms >= 0 && (next < 0 || c->deadline_ms < next))
			next = c->deadline_ms;
	}
	return next;
}
