// sources: init/service.c init/socket-unit.c init/condition.c init/unit-compat.c init/exec-line.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-slice.c init/unit-runtime-keys.c init/dynamic-user.c
/* Mount, device, slice and swap units in the parser (issue 12, unit kinds): [Mount] and
 * [Swap] keys, Where=/What= against the name, implicit dependencies (slice parents,
 * Slice=, a mount's default dependencies, a swap's device or mounts), RequiresMountsFor=
 * paths, Delegate= values, JobTimeoutSec= for devices, and the slice -> cgroup path
 * rule. */
#include "harness.h"
#include "../../init/service.h"
#include "../../init/unit-kinds.h"
#include "../../init/unit-slice.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-service.h"

static struct service svc;
static int warnings, errors;
static char first_error[512], first_warning[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	char *dst = severity == SERVICE_WARNING ? first_warning : first_error;
	int *count = severity == SERVICE_WARNING ? &warnings : &errors;

	(void)ctx;
	(void)file;
	(void)line;
	if (severity == SERVICE_NOTE)
		return;
	if ((*count)++ == 0)
		snprintf(dst, sizeof first_error, "%s", message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse_unit(const char *name, const char *path, const char *text)
{
	warnings = errors = 0;
	first_error[0] = first_warning[0] = '\0';
	service_init(&svc, name, path);
	svc.kind = unit_name_kind(name);
	return service_parse(&svc, text, strlen(text), &diag);
}

static bool listed(const struct service_name_list *l, const char *name)
{
	return service_lists(&svc, l, name);
}

#define S(ref) service_str(&svc, (ref))

static void tmp_mount_as_shipped(void)
{
	CHECK(parse_unit("tmp.mount", "/lib/systemd/system/tmp.mount",
			 "[Unit]\nDescription=Temporary Directory /tmp\nConditionPathIsSymbolicLink=!/tmp\n"
			 "DefaultDependencies=no\nConflicts=umount.target\n"
			 "Before=local-fs.target umount.target\nAfter=swap.target\n\n[Mount]\n"
			 "What=tmpfs\nWhere=/tmp\nType=tmpfs\n"
			 "Options=mode=1777,strictatime,nosuid,nodev,size=50%%,nr_inodes=1m\n\n"
			 "[Install]\nWantedBy=local-fs.target\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK_STR(S(svc.kinds.what), "tmpfs");
	CHECK_STR(S(svc.kinds.where), "/tmp");
	CHECK_STR(S(svc.kinds.fstype), "tmpfs");
	CHECK_STR(S(svc.kinds.options), "mode=1777,strictatime,nosuid,nodev,size=50%,nr_inodes=1m");
	CHECK(!listed(&svc.after, "local-fs-pre.target")); /* DefaultDependencies=no */
}

static void mount_keys_and_checks(void)
{
	CHECK(parse_unit("var-lib-x.mount", "/etc/systemd/system/var-lib-x.mount",
			 "[Mount]\nWhat=/dev/vdb\nWhere=/var/lib/x/\nType=ext4\nDirectoryMode=0700\n"
			 "LazyUnmount=yes\nForceUnmount=yes\nReadWriteOnly=yes\nTimeoutSec=20s\n") == -1);
	CHECK(strstr(first_error, "does not match the unit name") != NULL); /* trailing slash */
	CHECK(parse_unit("var-lib-x.mount", "/etc/systemd/system/var-lib-x.mount",
			 "[Mount]\nWhat=/dev/vdb\nWhere=/var/lib/x\nType=ext4\nDirectoryMode=0700\n"
			 "LazyUnmount=yes\nForceUnmount=yes\nReadWriteOnly=yes\nTimeoutSec=20s\n") == 0);
	CHECK(svc.kinds.directory_mode == 0700);
	CHECK(svc.kinds.mount_flags == (UNIT_MOUNT_LAZY | UNIT_MOUNT_FORCE | UNIT_MOUNT_RW_ONLY));
	CHECK(listed(&svc.after, "local-fs-pre.target") && listed(&svc.before, "local-fs.target"));
	CHECK(parse_unit("home.mount", "/etc/systemd/system/home.mount",
			 "[Mount]\nWhere=/home\nType=ext4\n") == -1);
	CHECK(strstr(first_error, "What= is missing") != NULL);
	CHECK(parse_unit("home.mount", "/etc/x/home.mount", "[Mount]\nWhat=/dev/a\nWhere=/srv\n") == -1);
	CHECK(parse_unit("home.mount", "/etc/x/home.mount",
			 "[Mount]\nWhat=/dev/a\nDirectoryMode=755\n") == -1);
	CHECK(parse_unit("home.mount", "/etc/x/home.mount",
			 "[Mount]\nWhat=/dev/a\nWhere=relative\n") == -1);
	/* [Mount] only in mount units, [Service] not in them */
	CHECK(parse_unit("x.slice", "/etc/x/x.slice", "[Mount]\nWhat=/dev/a\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "unknown section") != NULL);
}

static void builtin_kinds_need_no_file(void)
{
	CHECK(parse_unit("-.mount", "(built-in)", "[Unit]\nDescription=x\nDefaultDependencies=no\n") == 0);
	CHECK(parse_unit("dev-ttyS0.device", "(built-in)", "[Unit]\nJobTimeoutSec=5s\n") == 0);
	CHECK(svc.timeout_start_ms == 5000);
	CHECK(parse_unit("dev-ttyS0.device", "(built-in)", "[Unit]\nJobTimeoutSec=infinity\n") == 0);
	CHECK(parse_unit("a.service", "/x/a.service", "[Unit]\nJobTimeoutSec=5s\n[Service]\n"
			 "ExecStart=/bin/a\n") == 0);
	CHECK(warnings == 0 && svc.job_timeout_ms == 5000); /* a service: unit-runtime-keys.c */
}

static void slices_nest_by_dashes(void)
{
	char path[UNIT_SLICE_PATH_MAX];

	CHECK(parse_unit("a-b-c.slice", "(built-in)", "[Unit]\n") == 0);
	CHECK(listed(&svc.requires, "a-b.slice") && listed(&svc.after, "a-b.slice"));
	CHECK(parse_unit("system.slice", "(built-in)", "[Unit]\n") == 0);
	CHECK(listed(&svc.requires, "-.slice"));
	CHECK(parse_unit("-.slice", "(built-in)", "[Unit]\n") == 0);
	CHECK(svc.requires.count == 0);
	CHECK(unit_slice_path("a-b-c.slice", path, sizeof path) == 0);
	CHECK_STR(path, "a.slice/a-b.slice/a-b-c.slice");
	CHECK(unit_slice_path("system.slice", path, sizeof path) == 0);
	CHECK_STR(path, "system.slice");
	CHECK(unit_slice_path("-.slice", path, sizeof path) == 0 && path[0] == '\0');
	CHECK(unit_slice_path("a--b.slice", path, sizeof path) == -1);
	CHECK(unit_slice_path("a-b.slice", path, 10) == -1);
}

/* unit_slice_open() hands each level to the caller, parent first, as its directory and
 * slice name (where PID 1 writes that slice unit's [Slice] limits); none for -.slice. */
static char levels_seen[256];

static void note_level(int dirfd, const char *slice)
{
	struct stat st;
	size_t n = strlen(levels_seen);

	snprintf(levels_seen + n, sizeof levels_seen - n, "%s%s", slice,
		 fstat(dirfd, &st) == 0 && S_ISDIR(st.st_mode) ? " " : "(no dir) ");
}

static void slice_levels_reach_the_caller(void)
{
	char dir[] = "/tmp/ember-test-slices.XXXXXX", path[128];
	int top, fd = -1;

	CHECK(mkdtemp(dir) != NULL);
	top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(top >= 0);
	levels_seen[0] = '\0';
	CHECK(unit_slice_open(top, "a-b-c.slice", 0, note_level, &fd) == 0 && fd >= 0);
	CHECK_STR(levels_seen, "a.slice a-b.slice a-b-c.slice ");
	snprintf(path, sizeof path, "%s/a.slice/a-b.slice/a-b-c.slice", dir);
	CHECK(access(path, F_OK) == 0);
	close(fd);
	levels_seen[0] = '\0';
	CHECK(unit_slice_open(top, "-.slice", 0, note_level, &fd) == 0 && fd >= 0);
	CHECK_STR(levels_seen, "");
	close(fd);
	CHECK(unit_slice_open(top, "a-b.slice", 0, NULL, &fd) == 0 && fd >= 0); /* no function */
	close(fd);
	close(top);
	rmdir(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	rmdir(dir);
}

static void service_slice_and_delegate(void)
{
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Slice=machine-qemu.slice\nDelegate=yes\n") == 0);
	CHECK_STR(S(svc.kinds.slice), "machine-qemu.slice");
	CHECK(listed(&svc.requires, "machine-qemu.slice") && listed(&svc.after, "machine-qemu.slice"));
	CHECK(svc.kinds.delegate == UNIT_DELEGATE_YES);
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Delegate=cpu blkio\n") == 0);
	CHECK(svc.kinds.delegate == (UNIT_DELEGATE_YES | CG_CTRL_CPU | CG_CTRL_IO));
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Delegate=cpuset\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "cpuset") != NULL);
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Delegate=yes\nDelegate=no\n") == 0);
	CHECK(svc.kinds.delegate == 0);
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Delegate=frobnicator\n") == -1);
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Slice=foo.service\n") == -1);
	CHECK(strstr(first_error, "expected a slice unit name") != NULL);
	/* DelegateSubgroup= (Debian 13's udevd: udev; user@: init.scope) */
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "Delegate=yes\nDelegateSubgroup=init.scope\n") == 0 && warnings == 0);
	CHECK_STR(S(svc.kinds.delegate_subgroup), "init.scope");
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "DelegateSubgroup=udev\nDelegateSubgroup=\n") == 0);
	CHECK(svc.kinds.delegate_subgroup == 0);
	static const char *const bad[] = { "a/b", "cgroup.procs", "memory.max", "pids.max",
					   ".hidden", "_x", "..", "cpu.weight" };
	char text[128];
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\nDelegateSubgroup=%s\n",
			 bad[i]);
		CHECK(parse_unit("d.service", "/x/d.service", text) == -1);
	}
	CHECK(parse_unit("d.service", "/x/d.service", "[Service]\nExecStart=/bin/a\n"
			 "DelegateSubgroup=memory\n") == 0); /* no dot: no kernel file has it */
}

/* The kernel's task limit as systemd computes a TasksMax= percentage of it: the smaller
 * of kernel.pid_max - 1 and kernel.threads-max. */
static unsigned long long system_tasks_max(void)
{
	const char *files[] = { "/proc/sys/kernel/pid_max", "/proc/sys/kernel/threads-max" };
	unsigned long long tasks = ~0ULL, n;

	for (size_t i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		if (f && fscanf(f, "%llu", &n) == 1 && n - (i == 0) < tasks)
			tasks = n - (i == 0);
		if (f)
			fclose(f);
	}
	return tasks;
}

/* [Slice] takes the resource keys of [Service] (Debian's user-.slice.d/10-defaults.conf
 * as shipped); a bad value fails the slice; keys ember does not set still warn. */
static void slice_resource_keys(void)
{
	unsigned long long tasks = system_tasks_max();

	CHECK(parse_unit("user-1000.slice", "/usr/lib/systemd/system/user-.slice.d/10-defaults.conf",
			 "[Unit]\nDescription=User Slice of UID %j\nDocumentation=man:user@.service(5)\n"
			 "After=systemd-user-sessions.service\nStopWhenUnneeded=yes\n\n"
			 "[Slice]\nTasksMax=33%\n") == 0);
	CHECK(warnings == 0 && errors == 0 && !svc.failed);
	CHECK(tasks != ~0ULL && svc.tasks_max == tasks * 3300 / 10000);
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nTasksMax=40\nMemoryMax=64M\n"
			 "MemoryHigh=48M\nMemoryMin=1M\nMemoryLow=2M\nCPUWeight=50\nIOWeight=200\n") == 0);
	CHECK(warnings == 0 && errors == 0);
	CHECK(svc.tasks_max == 40 && svc.memory_max == 64ULL << 20 && svc.memory_high == 48ULL << 20);
	CHECK(svc.memory_min == 1ULL << 20 && svc.memory_low == 2ULL << 20);
	CHECK(svc.cpu_weight == 50 && svc.io_weight == 200);
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nTasksMax=40\nTasksMax=infinity\n"
			 "MemoryLimit=32M\n") == 0);
	CHECK(svc.tasks_max == ~0ULL && svc.memory_max == 32ULL << 20);
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nTasksMax=lots\n") == -1);
	CHECK(svc.failed && strstr(first_error, "TasksMax") &&
	      strstr(first_error, "expected a positive number, a percentage or infinity"));
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nTasksMax=133%\n") == -1);
	CHECK(strstr(first_error, "expected a percentage from 0% to 100%"));
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nCPUWeight=0\n") == -1);
	CHECK(strstr(first_error, "expected a weight from 1 to 10000"));
	CHECK(parse_unit("x.slice", "/x/x.slice", "[Slice]\nCPUQuota=20%\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "CPUQuota: unknown key in [Slice], ignored"));
}

static void requires_mounts_for_paths(void)
{
	CHECK(parse_unit("m", "/x/m.service", "[Unit]\nRequiresMountsFor=/var/lib/a /srv\n"
			 "RequiresMountsFor=/home/%N\nWantsMountsFor=/mnt\n"
			 "[Service]\nExecStart=/bin/a\n") == 0);
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/var/lib/a /srv /home/m");
	CHECK_STR(S(svc.kinds.mounts_for[1]), "/mnt");
	CHECK(parse_unit("m", "/x/m.service", "[Unit]\nRequiresMountsFor=/a\n"
			 "RequiresMountsFor=\n[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(svc.kinds.mounts_for[0] == 0);
	CHECK(parse_unit("m", "/x/m.service", "[Unit]\nRequiresMountsFor=var/lib\n"
			 "[Service]\nExecStart=/bin/a\n") == -1);
	CHECK(parse_unit("m", "/x/m.service", "[Unit]\nRequiresMountsFor=/a/../b\n"
			 "[Service]\nExecStart=/bin/a\n") == -1);
}

static void kind_paths(void)
{
	char p[UNIT_MOUNT_PATH_MAX];

	CHECK(unit_kind_path("-.mount", p, sizeof p) == 0);
	CHECK_STR(p, "/");
	CHECK(unit_kind_path("var-lib-nfs-rpc_pipefs.mount", p, sizeof p) == 0);
	CHECK_STR(p, "/var/lib/nfs/rpc_pipefs");
	CHECK(unit_kind_path("dev-disk-by\\x2duuid-1234.device", p, sizeof p) == 0);
	CHECK_STR(p, "/dev/disk/by-uuid/1234");
	CHECK(unit_kind_path("sys-subsystem-net-devices-wlan0.device", p, sizeof p) == 0);
	CHECK_STR(p, "/sys/subsystem/net/devices/wlan0");
	/* hostile names: no unit for a path that is not normalized */
	CHECK(unit_kind_path("mnt-..-etc.mount", p, sizeof p) == -1);
	CHECK(unit_kind_path("dev-.-sda.device", p, sizeof p) == -1);
	CHECK(unit_kind_path("mnt--x.mount", p, sizeof p) == -1);
	CHECK(unit_kind_path("mnt-\\x2f.mount", p, sizeof p) == -1);
	CHECK(parse_unit("mnt-..-etc.mount", "(built-in)", "[Unit]\n") == -1);
	CHECK(strstr(first_error, "does not name a mount point") != NULL);
}

/* ---- swap units: the [Swap] keys, What= against the name, the implicit dependencies
 * of the units zram-generator and systemd-fstab-generator write ---- */

#define SWAP_PATH "/run/systemd/generator/x"

/* zram-generator's unit, as it writes it. */
static void zram_generator_unit(void)
{
	CHECK(parse_unit("dev-zram0.swap", SWAP_PATH,
			 "[Unit]\nDescription=Compressed Swap on /dev/zram0\n"
			 "Documentation=man:zram-generator(8) man:zram-generator.conf(5)\n"
			 "Requires=systemd-zram-setup@zram0.service\n"
			 "After=systemd-zram-setup@zram0.service\n\n"
			 "[Swap]\nWhat=/dev/zram0\nPriority=100\nOptions=discard\n") == 0);
	CHECK(errors == 0 && warnings == 0 && !svc.failed);
	CHECK(svc.kind == UNIT_SWAP);
	CHECK_STR(S(svc.kinds.what), "/dev/zram0");
	CHECK(svc.kinds.swap_priority == 100);
	CHECK(svc.kinds.swap_flags == UNIT_SWAP_DISCARD);
	CHECK(listed(&svc.binds_to, "dev-zram0.device"));
	CHECK(listed(&svc.after, "dev-zram0.device"));
	CHECK(listed(&svc.after, "systemd-zram-setup@zram0"));
	CHECK(listed(&svc.before, "swap.target"));
	CHECK(svc.kinds.mounts_for[0] == 0);
}

/* systemd-fstab-generator's unit for "UUID=1234-abcd none swap pri=5,discard=once,nofail". */
static void fstab_generator_unit(void)
{
	CHECK(parse_unit("dev-disk-by\\x2duuid-1234\\x2dabcd.swap", SWAP_PATH,
			 "# Automatically generated by systemd-fstab-generator\n\n[Unit]\n"
			 "Documentation=man:fstab(5) man:systemd-fstab-generator(8)\n"
			 "SourcePath=/etc/fstab\n\n[Swap]\nWhat=/dev/disk/by-uuid/1234-abcd\n"
			 "Options=pri=5,discard=once,nofail\n") == 0);
	CHECK(errors == 0 && warnings == 0 && !svc.failed);
	CHECK(svc.kinds.swap_priority == -1 && svc.kinds.swap_pri_option == 5);
	CHECK(svc.kinds.swap_flags == (UNIT_SWAP_DISCARD | UNIT_SWAP_DISCARD_ONCE));
	CHECK(listed(&svc.binds_to, "dev-disk-by\\x2duuid-1234\\x2dabcd.device"));
	CHECK(listed(&svc.after, "dev-disk-by\\x2duuid-1234\\x2dabcd.device"));
	CHECK(parse_unit("dev-sda2.swap", SWAP_PATH, "[Swap]\nWhat=/dev/sda2\nOptions=discard=pages,sw,x-foo\n"
			 "TimeoutSec=10s\n") == 0);
	CHECK(errors == 0 && warnings == 0); /* x-foo: a note only */
	CHECK(svc.kinds.swap_flags == (UNIT_SWAP_DISCARD | UNIT_SWAP_DISCARD_PAGES));
	CHECK(svc.kinds.swap_priority == -1 && svc.kinds.swap_pri_option == -1);
	CHECK(svc.timeout_start_ms == 10000); /* bounds the swapoff child */
}

/* TimeoutSec=: the swapoff child's limit (timeout_start_ms, which unit_kind_timeout_ms()
 * gives the supervisor); 90 s unset or empty, 0 none, as systemd. */
static void timeout_bounds_swapoff(void)
{
	CHECK(parse_unit("dev-sda2.swap", SWAP_PATH, "[Swap]\nWhat=/dev/sda2\n") == 0);
	CHECK(svc.timeout_start_ms == UNIT_SWAP_TIMEOUT_MS);
	CHECK(parse_unit("dev-sda2.swap", SWAP_PATH, "[Swap]\nWhat=/dev/sda2\nTimeoutSec=2min\n") == 0);
	CHECK(errors == 0 && svc.timeout_start_ms == 120000);
	CHECK(parse_unit("dev-sda2.swap", SWAP_PATH, "[Swap]\nWhat=/dev/sda2\nTimeoutSec=0\n") == 0);
	CHECK(svc.timeout_start_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(parse_unit("dev-sda2.swap", SWAP_PATH, "[Swap]\nWhat=/dev/sda2\nTimeoutSec=5s\nTimeoutSec=\n") == 0);
	CHECK(svc.timeout_start_ms == UNIT_SWAP_TIMEOUT_MS);
}

/* A swap file: no device unit; it needs the file systems its path is on. */
static void swap_file_needs_its_mounts(void)
{
	CHECK(parse_unit("var-swap\\x20file.swap", SWAP_PATH, "[Swap]\nWhat=/var/swap file\nPriority=0\n") == 0);
	CHECK(errors == 0 && !svc.failed);
	CHECK(svc.kinds.swap_priority == 0);
	CHECK(svc.binds_to.count == 0);
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/var/swap file");
	CHECK(parse_unit("swapfile.swap", SWAP_PATH, "[Unit]\nDefaultDependencies=no\n"
			 "RequiresMountsFor=/srv\n[Swap]\nWhat=/swapfile\n") == 0);
	CHECK(errors == 0);
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/srv /swapfile");
	CHECK(!listed(&svc.before, "swap.target"));
}

/* As systemd: a unit whose What= is not its name, or that has none, is not loaded. */
static void bad_swap_units_fail_with_a_reason(void)
{
	CHECK(parse_unit("dev-zram1.swap", SWAP_PATH, "[Swap]\nWhat=/dev/zram0\n") < 0 || svc.failed);
	CHECK(svc.failed && strstr(svc.error, "does not match the unit name") &&
	      strstr(svc.error, "dev-zram0.swap"));
	CHECK(parse_unit("dev-zram0.swap", SWAP_PATH, "[Unit]\nDescription=x\n") < 0 || svc.failed);
	CHECK(svc.failed && strstr(svc.error, "What= is missing"));
	CHECK(parse_unit("dev-zram0.swap", SWAP_PATH, "[Swap]\nWhat=dev/zram0\n") < 0 || svc.failed);
	CHECK(svc.failed && strstr(svc.error, "absolute path"));
	static const char *const bad[] = { "Priority=32768", "Priority=-2", "Priority=high",
		"Options=pri=", "Options=pri=x", "Options=discard=all", "TimeoutSec=soon" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[128];
		snprintf(text, sizeof text, "[Swap]\nWhat=/dev/zram0\n%s\n", bad[i]);
		CHECK(parse_unit("dev-zram0.swap", SWAP_PATH, text) < 0 || svc.failed);
		if (!svc.failed)
			printf("  accepted: %s\n", bad[i]);
	}
	/* A path whose unit name would be too long: refused, never cut. */
	char text[400], long_what[255];
	memset(long_what, 'a', sizeof long_what - 1);
	long_what[0] = '/';
	long_what[sizeof long_what - 1] = '\0';
	snprintf(text, sizeof text, "[Swap]\nWhat=%s\n", long_what);
	CHECK(parse_unit("aaaa.swap", SWAP_PATH, text) < 0 || svc.failed);
	CHECK(svc.failed && strstr(svc.error, "too long"));
	CHECK(parse_unit("dev-zram0.swap", SWAP_PATH, "[Swap]\nWhat=/dev/zram0\nPriority=32767\n"
			 "Priority=-1\n") == 0 && svc.kinds.swap_priority == -1 && !svc.failed);
}

static void swap_section_only_in_swap_units(void)
{
	CHECK(parse_unit("demo", SWAP_PATH, "[Service]\nExecStart=/bin/true\n[Swap]\nWhat=/dev/zram0\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "[Swap]"));
	CHECK(svc.kinds.what == 0);
	CHECK(parse_unit("dev-zram0.swap", SWAP_PATH, "[Swap]\nWhat=/dev/zram0\nWhere=/x\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "Where"));
}

/* automount units: Debian's own, as shipped (DefaultDependencies=no: only Before= its
 * mount and RequiresMountsFor= the directory it sits in). */
static void binfmt_automount_as_shipped(void)
{
	CHECK(parse_unit("proc-sys-fs-binfmt_misc.automount",
			 "/lib/systemd/system/proc-sys-fs-binfmt_misc.automount",
			 "[Unit]\nDescription=Arbitrary Executable File Formats File System Automount "
			 "Point\nDefaultDependencies=no\nBefore=sysinit.target\nConflicts=shutdown.target\n"
			 "ConditionPathExists=/proc/sys/fs/binfmt_misc/\n"
			 "ConditionPathIsReadWrite=/proc/sys/\n\n[Automount]\n"
			 "Where=/proc/sys/fs/binfmt_misc\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK(svc.kind == UNIT_AUTOMOUNT);
	CHECK_STR(S(svc.kinds.where), "/proc/sys/fs/binfmt_misc");
	CHECK(listed(&svc.before, "proc-sys-fs-binfmt_misc.mount"));
	CHECK(listed(&svc.before, "sysinit.target"));
	CHECK(!listed(&svc.before, "umount.target") && !listed(&svc.conflicts, "umount.target"));
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/proc/sys/fs");
	CHECK(svc.kinds.idle_timeout_s == 0);
}

/* What systemd-fstab-generator writes for x-systemd.automount,x-systemd.idle-timeout=5min
 * (no ordering of its own: the default dependencies give it). */
static void fstab_generator_automount(void)
{
	CHECK(parse_unit("mnt-lazy.automount", "/run/systemd/generator/mnt-lazy.automount",
			 "# Automatically generated by systemd-fstab-generator\n\n[Unit]\n"
			 "SourcePath=/etc/fstab\nDocumentation=man:fstab(5) "
			 "man:systemd-fstab-generator(8)\n\n[Automount]\nWhere=/mnt/lazy\n"
			 "TimeoutIdleSec=5min\n") == 0);
	CHECK(errors == 0 && warnings == 0);
	CHECK(svc.kinds.idle_timeout_s == 300);
	CHECK(listed(&svc.before, "mnt-lazy.mount"));
	CHECK(listed(&svc.after, "local-fs-pre.target") && listed(&svc.before, "local-fs.target"));
	CHECK(listed(&svc.before, "umount.target") && listed(&svc.conflicts, "umount.target"));
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/mnt");
}

static void automount_keys(void)
{
	CHECK(parse_unit("home-x.automount", "/etc/systemd/system/home-x.automount",
			 "[Automount]\nWhere=/home/x\nDirectoryMode=0700\nTimeoutIdleSec=1500ms\n"
			 "ExtraOptions=strictexpire\nFrobnicate=yes\n") == 0);
	CHECK(errors == 0 && warnings == 1);
	CHECK(strstr(first_warning, "Frobnicate") != NULL); /* unknown keys warn */
	CHECK(svc.kinds.directory_mode == 0700);
	CHECK(svc.kinds.idle_timeout_s == 2); /* whole seconds, rounded up */
	CHECK_STR(S(svc.kinds.options), "strictexpire");
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/home");
	/* No Where=: the name says where; "infinity" and "0" never expire. */
	CHECK(parse_unit("srv.automount", "/etc/systemd/system/srv.automount",
			 "[Automount]\nTimeoutIdleSec=infinity\n") == 0);
	CHECK(errors == 0 && svc.kinds.idle_timeout_s == 0);
	CHECK_STR(S(svc.kinds.mounts_for[0]), "/");
	CHECK(listed(&svc.before, "srv.mount"));
	CHECK(parse_unit("srv.automount", "/x/srv.automount", "[Automount]\nTimeoutIdleSec=0\n") == 0);
	CHECK(svc.kinds.idle_timeout_s == 0);
}

static void bad_automounts_fail_with_a_reason(void)
{
	CHECK(parse_unit("home-x.automount", "/x/home-x.automount", "[Automount]\nWhere=/home/y\n") == -1);
	CHECK(strstr(first_error, "does not match the unit name") != NULL);
	CHECK(parse_unit("home-x.automount", "/x/home-x.automount", "[Automount]\nWhere=home/x\n") == -1);
	CHECK(strstr(first_error, "expected an absolute path") != NULL);
	CHECK(parse_unit("home-x.automount", "/x/home-x.automount",
			 "[Automount]\nTimeoutIdleSec=soon\n") == -1);
	CHECK(strstr(first_error, "TimeoutIdleSec=soon: expected a time span") != NULL);
	CHECK(parse_unit("home-x.automount", "/x/home-x.automount",
			 "[Automount]\nDirectoryMode=755\n") == -1);
	CHECK(strstr(first_error, "expected an octal mode") != NULL);
	CHECK(parse_unit("-.automount", "/x/-.automount", "[Automount]\n") == -1); /* not "/" */
	CHECK(parse_unit("mnt-..-etc.automount", "/x/mnt-..-etc.automount", "[Automount]\n") == -1);
	CHECK(strstr(first_error, "does not name a mount point") != NULL);
	/* [Automount] belongs to automount units, [Mount] is not theirs */
	CHECK(parse_unit("home-x.automount", "/x/home-x.automount", "[Mount]\nWhat=/dev/vdb\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "[Mount]") != NULL);
	CHECK(parse_unit("home-x.mount", "/x/home-x.mount",
			 "[Automount]\nWhere=/home/x\n[Mount]\nWhat=/dev/vdb\n") == 0);
	CHECK(warnings == 1 && strstr(first_warning, "[Automount]") != NULL);
}

/* Debian's nbd@.service (nbd-client): Before=dev-%i.device, which systemd ignores with a
 * message (".device units cannot be delayed"); After= a device and Requires= stay. */
static void before_a_device_is_ignored(void)
{
	CHECK(parse_unit("nbd@nbd0", "/lib/systemd/system/nbd@.service",
			 "[Unit]\nDefaultDependencies=no\nBefore=dev-nbd0.device network-online.target\n"
			 "After=dev-sda.device\nRequires=dev-sda.device\n[Service]\nType=forking\n"
			 "ExecStart=/sbin/nbd-client -p -systemd-mark -N nbd0 host /dev/nbd0\n") == 0);
	CHECK(warnings == 0 && errors == 0);
	CHECK(!listed(&svc.before, "dev-nbd0.device") && listed(&svc.before, "network-online.target"));
	CHECK(listed(&svc.after, "dev-sda.device") && listed(&svc.requires, "dev-sda.device"));
}

/* Debian's keystone.service: After= names the unit itself. systemd drops it, as ember
 * does, so it changes nothing against systemd and is no warning (a note for --verbose). */
static void after_itself_is_dropped_quietly(void)
{
	CHECK(parse_unit("keystone", "/lib/systemd/system/keystone.service",
			 "[Unit]\nAfter=network.target keystone.service\n[Service]\n"
			 "ExecStart=/usr/bin/keystone-wsgi-public\n") == 0);
	CHECK(warnings == 0 && errors == 0);
	CHECK(!listed(&svc.after, "keystone.service") && listed(&svc.after, "network.target"));
}

int main(void)
{
	RUN(tmp_mount_as_shipped);
	RUN(mount_keys_and_checks);
	RUN(builtin_kinds_need_no_file);
	RUN(slices_nest_by_dashes);
	RUN(service_slice_and_delegate);
	RUN(slice_resource_keys);
	RUN(slice_levels_reach_the_caller);
	RUN(requires_mounts_for_paths);
	RUN(kind_paths);
	RUN(zram_generator_unit);
	RUN(fstab_generator_unit);
	RUN(timeout_bounds_swapoff);
	RUN(swap_file_needs_its_mounts);
	RUN(bad_swap_units_fail_with_a_reason);
	RUN(swap_section_only_in_swap_units);
	RUN(binfmt_automount_as_shipped); /* automount units */
	RUN(fstab_generator_automount);
	RUN(automount_keys);
	RUN(bad_automounts_fail_with_a_reason);
	RUN(before_a_device_is_ignored);
	RUN(after_itself_is_dropped_quietly);
	return harness_done();
}
