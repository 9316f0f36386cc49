// sources: init/machine-id.c init/id128.c
/* systemd's machine ID at boot (init/machine-id.c), on real files in a scratch tree: a
 * valid ID is kept; an empty or broken file gets a new one written in (not a first boot);
 * dbus's regular file is taken over, its symlink is not; a missing file or
 * "uninitialized" is a first boot: the flag is made, the disk says "uninitialized", and
 * the ID is mounted over it from the transient copy, read-only (in a mount namespace of
 * the test's own: needs root). Where a new ID comes from: systemd.machine_id= (an ID wins
 * over the file's; "firmware"), the transient one of an earlier stage, $container_uuid in a
 * container, the firmware's UUID in a VM (not on bare metal, not all zeros or all f, the
 * device-tree file when DMI has none). */
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
static char etc[512], run[512], dbus[512], flag[512], product[512], product_dt[512];
static struct machine_id_sources paths = { .etc = etc, .run = run, .dbus = dbus, .flag = flag,
					   .product = product,
					   .product_dt = product_dt };

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

static bool a_vm(void) { return true; }

static void fresh(void)
{
	unlink(etc);
	unlink(run);
	unlink(dbus);
	unlink(flag);
	unlink(product);
	unlink(product_dt);
	paths.requested = paths.container_uuid = NULL;
	paths.vm = NULL;
	paths.container = false;
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
	/* "uninitialized" on disk: the same again, a new ID each boot until committed (run
	 * is a new tmpfs each boot) */
	unlink(flag);
	unlink(run);
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_TRANSIENT);
	CHECK(exists(flag) && drawn_id(slurp(etc)));
	umount(etc);
}

static const char *setup_id(enum machine_id_outcome want)
{
	static char id[40];
	return machine_id_setup(&paths, id) == want ? id : "(another outcome)";
}

static void requested_id_wins(void)
{
	fresh();
	put(etc, "0123456789abcdef0123456789abcdef\n");
	paths.requested = "8B5A4C3E-1D2F-4A6B-9C8D-7E6F5A4B3C2D"; /* a UUID, upper case */
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d");
	CHECK_STR(slurp(etc), "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d\n");
	paths.requested = "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d"; /* the same, plain: nothing to do */
	CHECK_STR(setup_id(MACHINE_ID_KEPT), "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d");
	/* not an ID: ignored, the file's kept */
	static const char *const bad[] = { "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2", "xyz",
					   "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d0", "",
					   "00000000000000000000000000000000",
					   "8b5a4c3e-1d2f4a6b-9c8d-7e6f5a4b3c2d" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		paths.requested = bad[i];
		CHECK_STR(setup_id(MACHINE_ID_KEPT), "8b5a4c3e1d2f4a6b9c8d7e6f5a4b3c2d");
	}
}

static void vm_uuid_taken(void)
{
	fresh();
	put(etc, "");
	put(product, "9F2C1B7A-0E3D-4C5B-8A69-1F2E3D4C5B6A\n");
	paths.vm = a_vm;
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "9f2c1b7a0e3d4c5b8a691f2e3d4c5b6a");
	/* D-Bus's ID comes first */
	put(etc, "");
	put(dbus, "fedcba9876543210fedcba9876543210\n");
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "fedcba9876543210fedcba9876543210");
	unlink(dbus);
	/* firmware without a UUID to give */
	put(etc, "");
	put(product, "00000000-0000-0000-0000-000000000000\n");
	setup_id(MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
	put(etc, "");
	put(product, "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF\n");
	setup_id(MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
	/* no DMI: the device tree's */
	put(etc, "");
	unlink(product);
	put(product_dt, "0a1b2c3d-4e5f-4061-8293-a4b5c6d7e8f9");
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "0a1b2c3d4e5f40618293a4b5c6d7e8f9");
	/* bare metal: every board of a model may carry the same UUID, drawn instead */
	put(etc, "");
	put(product, "9F2C1B7A-0E3D-4C5B-8A69-1F2E3D4C5B6A\n");
	paths.vm = NULL;
	setup_id(MACHINE_ID_WRITTEN);
	CHECK(drawn_id(slurp(etc)));
	/* ... unless systemd.machine_id=firmware asks for it; a valid file still wins */
	put(etc, "");
	paths.requested = "firmware";
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "9f2c1b7a0e3d4c5b8a691f2e3d4c5b6a");
	put(etc, "0123456789abcdef0123456789abcdef\n");
	CHECK_STR(setup_id(MACHINE_ID_KEPT), "0123456789abcdef0123456789abcdef");
}

/* /run/machine-id made by an earlier stage of this boot (an initramfs): the same ID. */
static void earlier_stage_id_kept(void)
{
	fresh();
	put(etc, "");
	put(run, "3c2d1e0f9a8b47c6b5a4f3e2d1c0b9a8\n");
	paths.vm = a_vm;
	put(product, "9F2C1B7A-0E3D-4C5B-8A69-1F2E3D4C5B6A\n");
	CHECK_STR(setup_id(MACHINE_ID_WRITTEN), "3c2d1e0f9a8b47c6b5a4f3e2d1c0b9a8");
}

/* In a container nothing is written to etc: an empty one gets a transient ID. */
static void container_never_writes(void)
{
	char id[40];

	fresh();
	put(etc, "");
	paths.container = true;
	CHECK(machine_id_setup(&paths, id) == MACHINE_ID_TRANSIENT);
	CHECK(drawn_id(slurp(etc)) && !exists(flag));
	CHECK(umount(etc) == 0);
	CHECK_STR(slurp(etc), "");
	unlink(run);
	/* $container_uuid is the container's ID; the firmware's is the host's, never taken */
	paths.container_uuid = "5D4C3B2A-1F0E-4D9C-8B7A-6F5E4D3C2B1A";
	CHECK_STR(setup_id(MACHINE_ID_TRANSIENT), "5d4c3b2a1f0e4d9c8b7a6f5e4d3c2b1a");
	CHECK(umount(etc) == 0);
	unlink(run);
	paths.container_uuid = "not-a-uuid";
	paths.requested = "firmware";
	put(product, "9F2C1B7A-0E3D-4C5B-8A69-1F2E3D4C5B6A\n");
	setup_id(MACHINE_ID_TRANSIENT);
	CHECK(drawn_id(slurp(etc)));
	CHECK(umount(etc) == 0);
	paths.container = false;
}

int main(void)
{
	if (!mkdtemp(root))
		return 1;
	snprintf(etc, sizeof etc, "%s/machine-id", root);
	snprintf(run, sizeof run, "%s/run-machine-id", root);
	snprintf(dbus, sizeof dbus, "%s/dbus-machine-id", root);
	snprintf(flag, sizeof flag, "%s/systemd/first-boot", root);
	snprintf(product, sizeof product, "%s/product_uuid", root);
	snprintf(product_dt, sizeof product_dt, "%s/vm,uuid", root);
	RUN(valid_id_kept);
	RUN(empty_file_gets_an_id_written);
	RUN(dbus_id_taken_over_unless_a_link);
	RUN(requested_id_wins);
	RUN(vm_uuid_taken);
	RUN(earlier_stage_id_kept);
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
