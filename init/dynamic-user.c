/* DynamicUser=: see dynamic-user.h. */
#include "dynamic-user.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "passwd.h"

#define RANGE (DYNAMIC_UID_MAX - DYNAMIC_UID_MIN + 1u)

void dynamic_user_imply(struct service *svc)
{
	struct service_execenv *e = &svc->execenv;

	if (!svc->execmore.dynamic_user)
		return;
	e->protect_system = PROTECT_SYSTEM_STRICT;
	if (e->protect_home == PROTECT_HOME_NO)
		e->protect_home = PROTECT_HOME_READ_ONLY;
	e->private_tmp = true;
	e->seccomp_flags |= SECCOMP_FLAG_RESTRICT_SUID_SGID;
	svc->execmore.remove_ipc = true;
	svc->no_new_privileges = true;
}

/* systemd's strict rule: a letter or "_", then letters, digits, "_" and "-". */
static bool valid_user_name(const char *s, size_t len)
{
	if (len == 0 || len >= DYNAMIC_USER_NAME_MAX ||
	    !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

int dynamic_user_name(const struct service *svc, char name[DYNAMIC_USER_NAME_MAX])
{
	const char *user = service_str(svc, svc->user);
	size_t len;

	if (*user) {
		len = strlen(user);
		if (!valid_user_name(user, len))
			return -1;
		memcpy(name, user, len + 1);
		return 0;
	}
	len = strcspn(svc->name, "@");
	if (valid_user_name(svc->name, len)) {
		memcpy(name, svc->name, len);
		name[len] = '\0';
	} else {
		snprintf(name, DYNAMIC_USER_NAME_MAX, "_du%016llx",
			 (unsigned long long)hash_fnv64(HASH_FNV64_START, svc->name, len));
	}
	return 0;
}

/* 1 when id is taken by a static user or group, 0 when free, -1 when unknown. */
static int taken_statically(const char *root, uint32_t id)
{
	struct passwd_user pw;
	struct passwd_group gr;

	if (passwd_user_by_uid(root, id, &pw) == 0)
		return 1;
	if (errno != ENOENT)
		return -1;
	if (passwd_group_by_gid(root, id, &gr) == 0)
		return 1;
	return errno == ENOENT ? 0 : -1;
}

static bool held_by_other(const struct dynamic_held *held, size_t n, const char *name,
			  uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (held[i].uid == id && strcmp(held[i].name, name) != 0)
			return true;
	return false;
}

int dynamic_user_pick(const char *root, const char *name, const struct dynamic_held *held,
		      size_t nheld, uint32_t *uid)
{
	uint64_t start = hash_fnv64(HASH_FNV64_START, name, strlen(name)) % RANGE;

	for (size_t i = 0; i < nheld; i++)
		if (strcmp(held[i].name, name) == 0) {
			*uid = held[i].uid;
			return 0;
		}
	for (unsigned probe = 0; probe < DYNAMIC_USER_PROBES; probe++) {
		uint32_t id = DYNAMIC_UID_MIN + (uint32_t)((start + probe) % RANGE);
		int r;

		if (held_by_other(held, nheld, name, id))
			continue;
		if ((r = taken_statically(root, id)) < 0)
			return -1;
		if (r == 0) {
			*uid = id;
			return 0;
		}
	}
	errno = EUSERS;
	return -1;
}
