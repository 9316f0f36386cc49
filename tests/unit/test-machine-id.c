// sources: init/machine-id.c
/* systemd's machine ID at boot (init/machine-id.c), on real files in a scratch tree: a
 * valid ID is kept; an empty or broken file gets a new one written in (not a first boot);
 * dbus's regular file is taken over, its symlink is not; a missing file or
 * "uninitialized" is a first boot: the flag is made, the disk says "uninitialized", and
 * the ID is mounted over it from the transient copy, read-only (in a mount namespace of
 * the test's own: needs root). */
#include "harness.h"
#include "../../init/machine-id.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/ember-machine-id-XXXXXX";
static char etc[512], run[512], dbus[512], flag[512];
static struct machine_id_paths paths = { etc, run, dbus, flag, true };

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static const char *slurp(const char *path)
{
	static char buf[128];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void fresh(void)
{
	unlink(etc);
	unlink(run);
	unlink(dbus);
	unlink(flag);
}

/* 32 lowercase hex digits and a newline, version 4 bits set (a drawn one). */
static bool drawn_id(const char *s)
{
	if (strlen(s) != 33 || s[32] != '\n' || strspn(s, "0123456789abcdef") != 32)
		return false;
	return s[12] == '4' && strchr("89ab", s[16]) != NULL;
}

static void valid_id_kept(void)
{
	char id[40];

	fresh();
	put(etc, "0123456789abcdef0123456789abcdef\n");
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_KEPT);
	CHECK_STR(id, "0123456789abcdef0123456789abcdef");
	CHECK_STR(slurp(etc), "0123456789abcdef0123456789abcdef\n");
	CHECK(!exists(flag) && !exists(run));
}

static void empty_file_gets_an_id_written(void)
{
	char id[40], want[64];

	fresh();
	put(etc, "");
	CHECK(!machine_id_first_boot(etc));
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
	snprintf(want, sizeof want, "%s\n", id);
	CHECK_STR(slurp(etc), want);
	CHECK(!exists(flag) && !exists(run));
	/* all zeros is no ID either */
	put(etc, "00000000000000000000000000000000\n");
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
}

static void dbus_id_taken_over_unless_a_link(void)
{
	char id[40], link[600];

	fresh();
	put(etc, "garbage\n");
	put(dbus, "fedcba9876543210fedcba9876543210\n");
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_WRITTEN);
	CHECK_STR(slurp(etc), "fedcba9876543210fedcba9876543210\n");
	fresh();
	put(etc, "");
	snprintf(link, sizeof link, "%s.real", dbus);
	put(link, "fedcba9876543210fedcba9876543210\n");
	CHECK(symlink(link, dbus) == 0);
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
	unlink(link);
}

static void first_boot_is_transient(void)
{
	char id[40], want[64];
	struct stat st;

	fresh();
	CHECK(machine_id_first_boot(etc)); /* missing */
	put(etc, "uninitialized\n");
	CHECK(machine_id_first_boot(etc));
	unlink(etc);
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_TRANSIENT);
	CHECK(exists(flag));
	snprintf(want, sizeof want, "%s\n", id);
	CHECK_STR(slurp(run), want);
	CHECK_STR(slurp(etc), want); /* the mount */
	CHECK(stat(etc, &st) == 0 && access(etc, W_OK) < 0);
	CHECK(umount(etc) == 0);
	CHECK_STR(slurp(etc), "uninitialized\n"); /* the disk, for the commit later */
	/* "uninitialized" on disk: the same again, a new ID each boot until committed */
	unlink(flag);
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_TRANSIENT);
	CHECK(exists(flag) && drawn_id(slurp(etc)));
	umount(etc);
}

/* In a container nothing is written to etc: an empty one gets a transient ID. */
static void container_never_writes(void)
{
	char id[40];

	fresh();
	put(etc, "");
	paths.persist = false;
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_TRANSIENT);
	CHECK(drawn_id(slurp(etc)) && !exists(flag));
	CHECK(umount(etc) == 0);
	CHECK_STR(slurp(etc), "");
	paths.persist = true;
}

int main(void)
{
	if (!mkdtemp(root))
		return 1;
	snprintf(etc, sizeof etc, "%s/machine-id", root);
	snprintf(run, sizeof run, "%s/run-machine-id", root);
	snprintf(dbus, sizeof dbus, "%s/dbus-machine-id", root);
	snprintf(flag, sizeof flag, "%s/systemd/first-boot", root);
	RUN(valid_id_kept);
	RUN(empty_file_gets_an_id_written);
	RUN(dbus_id_taken_over_unless_a_link);
	if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
	{
		RUN(first_boot_is_transient);
		RUN(container_never_writes);
	} else {
		printf("SKIP first_boot_is_transient, container_never_writes: needs root (a mount namespace)\n");
	}
	fresh();
	{
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf %s", root);
		if (system(cmd) != 0)
			return 1;
	}
	return harness_done();
}
