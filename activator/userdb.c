/* systemd's dynamic user database (io.systemd.UserDatabase, service
 * io.systemd.DynamicUser), answered for ember-init (ember-activator --userdb, docs/dbus.md
 * "Dynamic users").
 *
 * systemd's manager answers there for the users its DynamicUser= services run as, and
 * nss-systemd (passwd: files systemd) asks it: so `ls -l`, `ps` and a service's own
 * getpwuid() see a name, not a number. ember-init knows the same (the list's
 * dynamic_uid and dynamic_user); each connection asks it once per call. Anyone may ask,
 * as anyone may call getpwuid(): the socket is open to all, the answer holds nothing
 * else, and each call is read with a deadline and a size limit, at most CALLS_MAX of
 * them per connection. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl-client.h"
#include "log.h"
#include "parse.h"
#include "passwd.h"
#include "userdb.h"
#include "varlink.h"

#define SERVICE "io.systemd.DynamicUser"
#define IFACE "io.systemd.UserDatabase."
#define REQUEST_MS 5000
#define REQUEST_MAX 4096
#define CALLS_MAX 16
#define LIST_MS 5000
#define LIST_MAX (4u << 20) /* a list of every unit: well under this */
#define NAME_MAX_LEN 31

enum kind { USER, GROUP };

struct query {
	enum kind kind;
	bool by_id, by_name;
	unsigned long id;
	char name[64];
};

static int error_reply(int fd, const char *error)
{
	char json[256];

	snprintf(json, sizeof json, "{\"error\":\"%s\",\"parameters\":{}}", error);
	return varlink_reply(fd, json);
}

/* systemd's strict rule for a name, which every name ember-init gives keeps. */
static bool name_valid(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= NAME_MAX_LEN && !(s[0] >= '0' && s[0] <= '9') && s[0] != '-' &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* The call's key: uid/gid and userName/groupName, either, both or none (all records).
 * Returns NULL, or the name of the parameter that is wrong. */
static const char *read_query(const struct varlink_call *call, enum kind kind, struct query *q)
{
	const struct varlink_param *id = varlink_param(call, kind == USER ? "uid" : "gid");
	const struct varlink_param *name = varlink_param(call, kind == USER ? "userName" : "groupName");

	memset(q, 0, sizeof *q);
	q->kind = kind;
	if (id && strcmp(id->value, "null") != 0) {
		if (id->is_string || parse_ulong(id->value, 0, 4294967294ul, &q->id) < 0)
			return kind == USER ? "uid" : "gid";
		q->by_id = true;
	}
	if (name && !(!name->is_string && strcmp(name->value, "null") == 0)) {
		if (!name->is_string || strlen(name->value) >= sizeof q->name)
			return kind == USER ? "userName" : "groupName";
		memcpy(q->name, name->value, strlen(name->value) + 1);
		q->by_name = true;
	}
	return NULL;
}

static bool matches(const struct query *q, unsigned long id, const char *name)
{
	return (!q->by_id || q->id == id) && (!q->by_name || strcmp(q->name, name) == 0);
}

static void record_json(char *json, size_t size, enum kind kind, unsigned long id,
			const char *name, bool continues)
{
	char record[256];

	if (kind == USER)
		snprintf(record, sizeof record, "{\"userName\":\"%s\",\"uid\":%lu,\"gid\":%lu,"
			 "\"realName\":\"Dynamic User\",\"homeDirectory\":\"/\","
			 "\"shell\":\"/usr/sbin/nologin\",\"locked\":true,\"service\":\"" SERVICE
			 "\",\"disposition\":\"dynamic\"}", name, id, id);
	else
		snprintf(record, sizeof record, "{\"groupName\":\"%s\",\"gid\":%lu,\"service\":\""
			 SERVICE "\",\"disposition\":\"dynamic\"}", name, id);
	snprintf(json, size, "{\"parameters\":{\"record\":%s,\"incomplete\":false}%s}", record,
		 continues ? ",\"continues\":true" : "");
}

/* A dynamic group is the user's: its name and id, unless a static group has the name
 * (the service then runs with that group; there is no dynamic one). */
static bool has_group(const char *name)
{
	struct passwd_group gr;

	return !(passwd_group_lookup(NULL, name, &gr) == 0 || errno != ENOENT);
}

static int send_record(int fd, enum kind kind, unsigned long id, const char *name,
		       bool continues)
{
	char json[512];

	record_json(json, sizeof json, kind, id, name, continues);
	return varlink_reply(fd, json);
}

/* Send each matching record (only the first without "more"), each but the last with
 * "continues"; NoRecordFound when none. Units sharing a name share its id: it is sent
 * once. */
static int answer(int fd, const struct query *q, bool more, char *list)
{
	char seen[64][NAME_MAX_LEN + 1];
	size_t pos = 0, nseen = 0, len = strlen(list);
	unsigned long last_id = 0;
	struct ctl_record rec;
	char err[128];

	while (nseen < sizeof seen / sizeof *seen &&
	       ctl_record_read(list, len, &pos, &rec, err, sizeof err) == 1) {
		const char *name = ctl_record_get(&rec, "dynamic_user");
		long long id;
		bool dup = false;
		if (!name || ctl_record_get_int(&rec, "dynamic_uid", &id) < 0 || !name_valid(name) ||
		    !matches(q, (unsigned long)id, name) || (q->kind == GROUP && !has_group(name)))
			continue;
		for (size_t i = 0; i < nseen; i++)
			dup |= strcmp(seen[i], name) == 0;
		if (dup)
			continue;
		if (nseen > 0 && send_record(fd, q->kind, last_id, seen[nseen - 1], true) < 0)
			return -1;
		strcpy(seen[nseen++], name);
		last_id = (unsigned long)id;
		if (!more)
			break;
	}
	if (nseen == 0)
		return error_reply(fd, IFACE "NoRecordFound");
	return send_record(fd, q->kind, last_id, seen[nseen - 1], false);
}

static int lookup(int fd, const struct varlink_call *call, enum kind kind, const char *control)
{
	const struct varlink_param *service = varlink_param(call, "service");
	const char *wrong;
	struct query q;
	char *list, err[256], json[160];
	int rc;

	if (!service || !service->is_string || strcmp(service->value, SERVICE) != 0)
		return error_reply(fd, IFACE "BadService");
	if ((wrong = read_query(call, kind, &q))) {
		snprintf(json, sizeof json, "{\"error\":\"org.varlink.service.InvalidParameter\","
			 "\"parameters\":{\"parameter\":\"%s\"}}", wrong);
		return varlink_reply(fd, json);
	}
	if (ember_request_records(control, CTL_LIST, "", LIST_MS, &list, LIST_MAX, err,
				  sizeof err) != CTL_STATUS_OK) {
		log_warn("userdb: ember-init: %s", err);
		free(list); /* NULL when it could not be asked */
		return error_reply(fd, IFACE "ServiceNotAvailable");
	}
	rc = answer(fd, &q, call->more, list);
	free(list);
	return rc;
}

/* One call: 0 when answered, -1 when the connection is to end. */
static int serve_call(int fd, const struct varlink_call *call, const char *control)
{
	if (strcmp(call->method, IFACE "GetUserRecord") == 0)
		return lookup(fd, call, USER, control);
	if (strcmp(call->method, IFACE "GetGroupRecord") == 0)
		return lookup(fd, call, GROUP, control);
	if (strcmp(call->method, IFACE "GetMemberships") == 0) { /* dynamic users have none */
		const struct varlink_param *service = varlink_param(call, "service");
		return error_reply(fd, service && service->is_string && strcmp(service->value, SERVICE) == 0
				   ? IFACE "NoRecordFound" : IFACE "BadService");
	}
	error_reply(fd, "org.varlink.service.MethodNotFound");
	return -1;
}

int userdb_serve(int fd, const char *control)
{
	char req[REQUEST_MAX + 1];
	struct varlink_call call;

	for (int calls = 0; calls < CALLS_MAX; calls++) {
		if (varlink_read(fd, req, REQUEST_MAX, REQUEST_MS) < 0)
			return 0; /* the peer is done (or silent, or sent too much) */
		if (varlink_parse_call(req, &call) < 0) {
			log_warn("userdb: a call that is not one, connection closed");
			return 1;
		}
		if (serve_call(fd, &call, control) < 0)
			return 1;
	}
	return 0;
}
