// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* DynamicUser=: what it implies at load, the user name it runs under, and the id pick
 * against fixture /etc/passwd and /etc/group files: range, stability, sharing, static
 * users and groups in the way, exhaustion, and a file that cannot be read. */
#include "harness.h"
#include "../../init/dynamic-user.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct service svc;
static char root[] = "/tmp/ember-dynuser-XXXXXX";

static void ignore(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx; (void)severity; (void)file; (void)line; (void)message;
}

static const struct service_diag diag = { ignore, NULL, false };

static int load(const char *name, const char *text)
{
	service_init(&svc, name, "/etc/ember/services/x.service");
	if (service_parse(&svc, text, strlen(text), &diag) < 0)
		return -1;
	return service_validate(&svc, &diag);
}

static void write_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static uint32_t pick(const char *name, const struct dynamic_held *held, size_t n)
{
	uint32_t id = 0;
	return dynamic_user_pick(root, name, held, n, &id) == 0 ? id : 0;
}

static void implies_the_sandbox(void)
{
	CHECK(load("earlyoom", "[Service]\nDynamicUser=true\nExecStart=/usr/bin/earlyoom\n") == 0);
	CHECK(svc.execmore.dynamic_user && svc.execmore.remove_ipc && svc.no_new_privileges);
	CHECK(svc.execenv.protect_system == PROTECT_SYSTEM_STRICT);
	CHECK(svc.execenv.protect_home == PROTECT_HOME_READ_ONLY && svc.execenv.private_tmp);
	CHECK(svc.execenv.seccomp_flags & SECCOMP_FLAG_RESTRICT_SUID_SGID);
	CHECK(service_sandboxed(&svc));
}

static void keeps_a_stronger_protect_home(void)
{
	CHECK(load("a", "[Service]\nDynamicUser=yes\nProtectHome=tmpfs\nProtectSystem=yes\n"
		       "ExecStart=/bin/a\n") == 0);
	CHECK(svc.execenv.protect_home == PROTECT_HOME_TMPFS);
	CHECK(svc.execenv.protect_system == PROTECT_SYSTEM_STRICT); /* as systemd: always */
}

static void off_changes_nothing(void)
{
	CHECK(load("a", "[Service]\nDynamicUser=no\nExecStart=/bin/a\n") == 0);
	CHECK(!svc.execmore.remove_ipc && !svc.no_new_privileges && !svc.execenv.private_tmp);
	CHECK(svc.execenv.protect_system == PROTECT_SYSTEM_NO && !service_sandboxed(&svc));
}

static void names(void)
{
	char name[DYNAMIC_USER_NAME_MAX];

	CHECK(load("earlyoom", "[Service]\nDynamicUser=yes\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, name) == 0);
	CHECK_STR(name, "earlyoom");
	CHECK(load("systemd-journal-upload", "[Service]\nDynamicUser=yes\n"
		   "User=systemd-journal-upload\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, name) == 0);
	CHECK_STR(name, "systemd-journal-upload");
	CHECK(load("worker@7", "[Service]\nDynamicUser=yes\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, name) == 0);
	CHECK_STR(name, "worker"); /* instances share the template's user */
}

static void unit_names_that_are_no_user_names_are_hashed(void)
{
	char a[DYNAMIC_USER_NAME_MAX], b[DYNAMIC_USER_NAME_MAX];

	CHECK(load("9lives", "[Service]\nDynamicUser=yes\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, a) == 0);
	CHECK(load("a.really-long-service-name-beyond-thirty-one", "[Service]\nDynamicUser=yes\n"
		   "ExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, b) == 0);
	CHECK(strncmp(a, "_du", 3) == 0 && strlen(a) == 19 && strncmp(b, "_du", 3) == 0);
	CHECK(strcmp(a, b) != 0);
	/* the same name on every build and machine: files it owns keep their owner */
	CHECK_STR(a, "_du4957136e68217d47");
}

static void a_user_that_is_no_user_name_is_refused(void)
{
	char name[DYNAMIC_USER_NAME_MAX];

	CHECK(load("a", "[Service]\nDynamicUser=yes\nUser=dot.name\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, name) == -1);
	CHECK(load("a", "[Service]\nDynamicUser=yes\nUser=1234\nExecStart=/bin/a\n") == 0);
	CHECK(dynamic_user_name(&svc, name) == -1);
}

static void ids_are_in_range_and_stable(void)
{
	uint32_t a, b;

	write_file("etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	write_file("etc/group", "root:x:0:\n");
	a = pick("earlyoom", NULL, 0);
	b = pick("earlyoom", NULL, 0);
	CHECK(a >= DYNAMIC_UID_MIN && a <= DYNAMIC_UID_MAX && a == b);
	CHECK(pick("earlyoom2", NULL, 0) != a);
}

static void static_users_and_groups_are_skipped(void)
{
	char line[128];
	uint32_t a, b, c;

	write_file("etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	write_file("etc/group", "root:x:0:\n");
	a = pick("svc", NULL, 0);
	snprintf(line, sizeof line, "root:x:0:0::/root:/bin/sh\nsquat:x:%u:100::/:/bin/false\n",
		 (unsigned)a);
	write_file("etc/passwd", line);
	b = pick("svc", NULL, 0);
	CHECK(b != a && b >= DYNAMIC_UID_MIN && b <= DYNAMIC_UID_MAX);
	snprintf(line, sizeof line, "root:x:0:\nsquatgrp:x:%u:\n", (unsigned)b);
	write_file("etc/group", line);
	c = pick("svc", NULL, 0);
	CHECK(c != a && c != b && c >= DYNAMIC_UID_MIN);
}

static void held_ids_are_shared_by_name_and_skipped_otherwise(void)
{
	struct dynamic_held held[1];
	uint32_t a;

	write_file("etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	write_file("etc/group", "root:x:0:\n");
	a = pick("one", NULL, 0);
	held[0] = (struct dynamic_held){ "other", a };
	CHECK(pick("one", held, 1) != a);
	held[0] = (struct dynamic_held){ "one", 61190 };
	CHECK(pick("one", held, 1) == 61190); /* what a running unit of that name has */
}

static void exhaustion_is_an_error(void)
{
	char *text = malloc(DYNAMIC_USER_PROBES * 64 + 64);
	size_t used = 0;
	uint32_t first, id = 1;

	write_file("etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	write_file("etc/group", "root:x:0:\n");
	first = pick("crowded", NULL, 0);
	if (!text)
		return;
	for (unsigned i = 0; i < DYNAMIC_USER_PROBES; i++) {
		uint32_t u = DYNAMIC_UID_MIN + (first - DYNAMIC_UID_MIN + i) %
			     (DYNAMIC_UID_MAX - DYNAMIC_UID_MIN + 1);
		used += (size_t)sprintf(text + used, "u%u:x:%u:1::/:/bin/false\n", i, (unsigned)u);
	}
	write_file("etc/passwd", text);
	free(text);
	errno = 0;
	CHECK(dynamic_user_pick(root, "crowded", NULL, 0, &id) == -1 && errno == EUSERS);
	CHECK(id == 1);
}

static void an_unreadable_passwd_is_no_free_id(void)
{
	char path[256];
	uint32_t id = 1;

	snprintf(path, sizeof path, "%s/etc/passwd", root);
	unlink(path);
	mkdir(path, 0755); /* read(2) fails: EISDIR */
	CHECK(dynamic_user_pick(root, "x", NULL, 0, &id) == -1 && errno != EUSERS && id == 1);
	rmdir(path);
}

int main(void)
{
	char etc[64];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(etc, sizeof etc, "%s/etc", root);
	mkdir(etc, 0755);
	RUN(implies_the_sandbox);
	RUN(keeps_a_stronger_protect_home);
	RUN(off_changes_nothing);
	RUN(names);
	RUN(unit_names_that_are_no_user_names_are_hashed);
	RUN(a_user_that_is_no_user_name_is_refused);
	RUN(ids_are_in_range_and_stable);
	RUN(static_users_and_groups_are_skipped);
	RUN(held_ids_are_shared_by_name_and_skipped_otherwise);
	RUN(exhaustion_is_an_error);
	RUN(an_unreadable_passwd_is_no_free_id);
	snprintf(etc, sizeof etc, "rm -rf %s", root);
	if (system(etc) != 0)
		return 1;
	return harness_done();
}
