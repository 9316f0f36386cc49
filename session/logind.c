/* CreateSession, as pam_systemd asks it (session.h). Pure: no I/O. */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

#define LOGIND "org.freedesktop.login1"
#define LOGIND_PATH "/org/freedesktop/login1"
#define LOGIND_MANAGER "org.freedesktop.login1.Manager"
#define VTNR_MAX 63 /* MAX_NR_CONSOLES */

static const char *env_value(char *const *envp, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return "";
}

/* /dev/ttyN, 1 <= N <= 63: a virtual terminal's number; else 0. */
static uint32_t vt_number(const char *tty)
{
	unsigned long n;

	if (!tty || !str_starts_with(tty, "/dev/tty") || tty[8] < '1' || tty[8] > '9' ||
	    parse_ulong(tty + 8, 1, VTNR_MAX, &n) < 0)
		return 0;
	return (uint32_t)n;
}

void session_request_fill(const struct session_options *o, char *const *envp, uint32_t pid,
			  struct session_request *r)
{
	unsigned long vtnr;
	uint32_t vt = vt_number(o->tty);

	memset(r, 0, sizeof *r);
	r->uid = (uint32_t)o->uid;
	r->pid = pid;
	r->service = o->service;
	r->tty = o->tty ? o->tty + 5 : ""; /* below /dev/, as pam_systemd passes PAM_TTY */
	r->type = env_value(envp, "XDG_SESSION_TYPE");
	if (!*r->type)
		r->type = o->tty ? "tty" : "unspecified";
	r->class_ = env_value(envp, "XDG_SESSION_CLASS");
	if (!*r->class_)
		r->class_ = strcmp(r->type, "unspecified") == 0 ? "background" : "user";
	r->desktop = env_value(envp, "XDG_SESSION_DESKTOP");
	r->seat = env_value(envp, "XDG_SEAT");
	if (parse_ulong(env_value(envp, "XDG_VTNR"), 1, VTNR_MAX, &vtnr) == 0)
		r->vtnr = (uint32_t)vtnr;
	if (vt) { /* the terminal says which VT; a VT is on seat0 */
		r->vtnr = vt;
		if (!*r->seat)
			r->seat = "seat0";
	}
	if (*r->seat && strcmp(r->seat, "seat0") != 0)
		r->vtnr = 0; /* only seat0 has VTs */
}

size_t session_call_build(const struct session_request *r, uint32_t serial, uint8_t *buf,
			  size_t size)
{
	uint8_t body_buf[2048];
	struct dbus_body b = { body_buf, 0, sizeof body_buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_CALL, .serial = serial, .path = LOGIND_PATH,
			      .interface = LOGIND_MANAGER, .member = "CreateSession",
			      .destination = LOGIND, .signature = "uusssssussbssa(sv)",
			      .body = &b };

	dbus_put_u32(&b, r->uid);
	dbus_put_u32(&b, r->pid);
	dbus_put_string(&b, r->service);
	dbus_put_string(&b, r->type);
	dbus_put_string(&b, r->class_);
	dbus_put_string(&b, r->desktop);
	dbus_put_string(&b, r->seat);
	dbus_put_u32(&b, r->vtnr);
	dbus_put_string(&b, r->tty);
	dbus_put_string(&b, "");     /* display */
	dbus_put_bool(&b, false);    /* remote */
	dbus_put_string(&b, "");     /* remote user */
	dbus_put_string(&b, "");     /* remote host */
	dbus_put_empty_array(&b, '('); /* no properties */
	return dbus_msg_build(buf, size, &o);
}

/* logind's session ids: letters and digits ("3", "c1"). */
static bool id_ok(const char *s)
{
	size_t n = strlen(s);
	return n > 0 && n <= 64 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == n;
}

static bool seat_ok(const char *s)
{
	size_t n = strlen(s);
	return n == 0 || (str_starts_with(s, "seat") && n <= 255 &&
			  strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n);
}

/* An absolute path of printable bytes (it goes into the service's environment as is),
 * with no ".." component. */
static bool runtime_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0)
		return true;
	if (s[0] != '/' || n >= 512 || strstr(s, "/../") || (n >= 3 && strcmp(s + n - 3, "/..") == 0))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

int session_reply_parse(const struct dbus_msg *m, struct session_reply *r, char *err,
			size_t err_size)
{
	union dbus_value v[8];

	memset(r, 0, sizeof *r);
	if (dbus_body_read(m, "soshusub", v) < 0) {
		snprintf(err, err_size, "the reply is not (soshusub) or is malformed");
		return -1;
	}
	*r = (struct session_reply){ .id = v[0].s, .object_path = v[1].s, .runtime_path = v[2].s,
				     .fd_index = v[3].u, .original_uid = v[4].u, .seat = v[5].s,
				     .vtnr = v[6].u, .existing = v[7].b };
	if (!id_ok(r->id))
		snprintf(err, err_size, "the session id is not letters and digits");
	else if (!runtime_ok(r->runtime_path))
		snprintf(err, err_size, "the runtime directory is not an absolute path of printable bytes");
	else if (!seat_ok(r->seat))
		snprintf(err, err_size, "the seat is not a seat name");
	else if (r->vtnr > VTNR_MAX)
		snprintf(err, err_size, "the VT number is out of range");
	else
		return 0;
	return -1;
}

struct env_fill {
	struct session_env *out;
	size_t count, used;
	bool full;
};

static void env_add(struct env_fill *f, const char *name, const char *value)
{
	char *at = f->out->text + f->used;
	size_t room = sizeof f->out->text - f->used;
	int n = snprintf(at, room, "%s=%s", name, value);

	if (f->count >= SESSION_ENV_MAX || n < 0 || (size_t)n >= room) {
		f->full = true;
		return;
	}
	f->used += (size_t)n + 1;
	f->out->vars[f->count++] = at;
	f->out->vars[f->count] = NULL;
}

int session_env_build(const struct session_reply *reply, const struct session_request *req,
		      struct session_env *out)
{
	struct env_fill f = { out, 0, 0, false };
	char vtnr[16];
	size_t u = 0;

	out->vars[0] = NULL;
	env_add(&f, "XDG_SESSION_ID", reply->id);
	/* As pam_systemd: a session someone else began (its original uid) keeps its
	 * runtime directory to itself. */
	if (reply->original_uid == req->uid && *reply->runtime_path)
		env_add(&f, "XDG_RUNTIME_DIR", reply->runtime_path);
	if (*reply->seat)
		env_add(&f, "XDG_SEAT", reply->seat);
	else
		out->unset[u++] = "XDG_SEAT";
	if (reply->vtnr > 0) {
		snprintf(vtnr, sizeof vtnr, "%u", (unsigned)reply->vtnr);
		env_add(&f, "XDG_VTNR", vtnr);
	} else {
		out->unset[u++] = "XDG_VTNR";
	}
	out->unset[u] = NULL;
	env_add(&f, "XDG_SESSION_TYPE", req->type);
	env_add(&f, "XDG_SESSION_CLASS", req->class_);
	if (*req->desktop)
		env_add(&f, "XDG_SESSION_DESKTOP", req->desktop);
	return f.full ? -1 : (int)f.count;
}
