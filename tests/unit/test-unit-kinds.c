// sources: init/service.c init/socket-unit.c init/condition.c init/unit-compat.c init/exec-line.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-slice.c init/unit-runtime-keys.c init/dynamic-user.c
/* Mount, device and slice units in the parser (issue 12, unit kinds): [Mount] keys,
 * Where= against the name, implicit dependencies (slice parents, Slice=, a mount's
 * default dependencies), RequiresMountsFor= paths, Delegate= values, JobTimeoutSec= for
 * devices, and the slice -> cgroup path rule. */
#include "harness.h"
#include "../../init/service.h"
#include "../../init/unit-kinds.h"
#include "../../init/unit-slice.h"

#include <stdio.h>
#include <string.h>

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
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(service_str(&svc, l->name[i]), name) == 0)
			return true;
	return false;
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

int main(void)
{
	RUN(tmp_mount_as_shipped);
	RUN(mount_keys_and_checks);
	RUN(builtin_kinds_need_no_file);
	RUN(slices_nest_by_dashes);
	RUN(service_slice_and_delegate);
	RUN(requires_mounts_for_paths);
	RUN(kind_paths);
	return harness_done();
}
