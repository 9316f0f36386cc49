// sources: init/condition.c init/service.c init/unit-runtime-keys.c init/unit-compat.c init/exec-line.c init/socket-unit.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* Every Condition*= / Assert*= kind against a fake system (a table of files), with "!",
 * "|" and asserts, and the values the parser refuses. */
#include "harness.h"
#include "../../init/condition.h"
#include "../../init/service.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- the fake system ---- */
struct fake_file {
	const char *path;
	mode_t mode;        /* S_IFREG | 0644 ... */
	const char *content;
	size_t size;        /* 0: strlen(content) */
	long mtime;
	dev_t dev;
};

#define REG(p, c) (struct fake_file){ p, S_IFREG | 0644, c, 0, 0, 1 }
#define BIN(p, c, n) (struct fake_file){ p, S_IFREG | 0644, c, n, 0, 1 }
#define DIR_(p) (struct fake_file){ p, S_IFDIR | 0755, "", 0, 0, 1 }

static struct fake_file files[64];
static size_t nfiles;
static const char *env_name, *env_value;
static struct utsname uts;
static uid_t my_uid;
static gid_t my_gid, my_groups[2];
static int my_ngroups;
static bool read_only_root;

static void reset(void)
{
	nfiles = 0;
	env_name = env_value = NULL;
	memset(&uts, 0, sizeof uts);
	strcpy(uts.release, "6.1.0-18-amd64");
	strcpy(uts.machine, "x86_64");
	strcpy(uts.nodename, "Phone-7");
	my_uid = 0;
	my_gid = 0;
	my_ngroups = 0;
	read_only_root = false;
}

static void add(struct fake_file f)
{
	if (nfiles < sizeof files / sizeof *files)
		files[nfiles++] = f;
}

static const struct fake_file *lookup(const char *path)
{
	for (size_t i = 0; i < nfiles; i++)
		if (strcmp(files[i].path, path) == 0)
			return &files[i];
	return NULL;
}

static ssize_t fake_read(void *ctx, const char *path, char *buf, size_t size)
{
	const struct fake_file *f = lookup(path);
	size_t n;

	(void)ctx;
	if (!f || !S_ISREG(f->mode)) {
		buf[0] = '\0';
		return -1;
	}
	n = f->size ? f->size : strlen(f->content);
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, f->content, n);
	buf[n] = '\0';
	return (ssize_t)n;
}

static int fake_stat(void *ctx, const char *path, struct stat *st, bool follow)
{
	char resolved[256];
	const struct fake_file *f;

	(void)ctx;
	/* "x/.." is the parent directory */
	if (strlen(path) > 3 && strcmp(path + strlen(path) - 3, "/..") == 0) {
		snprintf(resolved, sizeof resolved, "%.*s", (int)(strlen(path) - 3), path);
		*strrchr(resolved, '/') = '\0';
		path = resolved[0] ? resolved : "/";
	}
	f = lookup(path);
	if (!f) {
		errno = ENOENT;
		return -1;
	}
	if (follow && S_ISLNK(f->mode))
		return fake_stat(ctx, f->content, st, true);
	memset(st, 0, sizeof *st);
	st->st_mode = f->mode;
	st->st_size = (off_t)(f->size ? f->size : strlen(f->content));
	st->st_mtim.tv_sec = f->mtime;
	st->st_dev = f->dev;
	st->st_ino = (ino_t)(f - files) + 1;
	return 0;
}

static int fake_access(void *ctx, const char *path, int mode)
{
	struct stat st;
	if (fake_stat(ctx, path, &st, true) < 0)
		return -1;
	return (mode & X_OK) && !(st.st_mode & 0111) ? -1 : 0;
}

static int fake_dir_each(void *ctx, const char *path, int (*fn)(void *, const char *), void *arg)
{
	size_t len = strlen(path);
	const struct fake_file *d = lookup(path);

	(void)ctx;
	if (!d || !S_ISDIR(d->mode))
		return -1;
	for (size_t i = 0; i < nfiles; i++) {
		const char *p = files[i].path;
		if (strncmp(p, path, len) == 0 && p[len] == '/' && !strchr(p + len + 1, '/')) {
			int r = fn(arg, p + len + 1);
			if (r)
				return r;
		}
	}
	return 0;
}

static bool fake_glob(void *ctx, const char *pattern)
{
	(void)ctx;
	for (size_t i = 0; i < nfiles; i++)
		if (fnmatch(pattern, files[i].path, FNM_PATHNAME) == 0)
			return true;
	return false;
}

static int fake_ro(void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	return read_only_root ? 1 : 0;
}

static const char *fake_getenv(void *ctx, const char *name)
{
	(void)ctx;
	return env_name && strcmp(name, env_name) == 0 ? env_value : NULL;
}

static int fake_uname(void *ctx, struct utsname *u)
{
	(void)ctx;
	*u = uts;
	return 0;
}

static int fake_identity(void *ctx, uid_t *uid, gid_t *gid, gid_t *groups, int max)
{
	(void)ctx;
	*uid = my_uid;
	*gid = my_gid;
	for (int i = 0; i < my_ngroups && i < max; i++)
		groups[i] = my_groups[i];
	return my_ngroups;
}

static int fake_user(void *ctx, const char *name, uid_t *uid)
{
	(void)ctx;
	if (strcmp(name, "root") == 0)
		*uid = 0;
	else if (strcmp(name, "alice") == 0)
		*uid = 1000;
	else
		return -1;
	return 0;
}

static int fake_group(void *ctx, const char *name, gid_t *gid)
{
	(void)ctx;
	if (strcmp(name, "root") == 0)
		*gid = 0;
	else if (strcmp(name, "video") == 0)
		*gid = 44;
	else
		return -1;
	return 0;
}

static long fake_cpus(void *ctx)
{
	(void)ctx;
	return 4;
}

static const struct condition_probe fake = {
	NULL, fake_read, fake_stat, fake_access, fake_dir_each, fake_glob, fake_ro,
	fake_getenv, fake_uname, fake_identity, fake_user, fake_group, fake_cpus, NULL,
};

#define HOLDS(kind, value) condition_test(&fake, kind, value)

/* ---- the kinds ---- */

static void path_kinds(void)
{
	reset();
	add(DIR_("/"));
	add(DIR_("/etc"));
	add(REG("/etc/demo.conf", "x=1\n"));
	add(REG("/etc/empty.conf", ""));
	add(DIR_("/etc/demo.d"));
	add(REG("/etc/demo.d/a.conf", "a"));
	add(DIR_("/etc/none.d"));
	add((struct fake_file){ "/etc/link", S_IFLNK | 0777, "/etc/demo.conf", 0, 0, 1 });
	add((struct fake_file){ "/usr/bin/tool", S_IFREG | 0755, "#!", 0, 0, 1 });
	add((struct fake_file){ "/mnt", S_IFDIR | 0755, "", 0, 0, 2 }); /* another device */
	CHECK(HOLDS(CONDITION_PATH_EXISTS, "/etc/demo.conf"));
	CHECK(!HOLDS(CONDITION_PATH_EXISTS, "/etc/missing"));
	CHECK(HOLDS(CONDITION_PATH_EXISTS_GLOB, "/etc/demo.d/*.conf"));
	CHECK(!HOLDS(CONDITION_PATH_EXISTS_GLOB, "/etc/none.d/*.conf"));
	CHECK(HOLDS(CONDITION_PATH_IS_DIRECTORY, "/etc/demo.d"));
	CHECK(!HOLDS(CONDITION_PATH_IS_DIRECTORY, "/etc/demo.conf"));
	CHECK(HOLDS(CONDITION_PATH_IS_SYMBOLIC_LINK, "/etc/link"));
	CHECK(!HOLDS(CONDITION_PATH_IS_SYMBOLIC_LINK, "/etc/demo.conf"));
	CHECK(HOLDS(CONDITION_PATH_IS_MOUNT_POINT, "/mnt"));
	CHECK(!HOLDS(CONDITION_PATH_IS_MOUNT_POINT, "/etc"));
	CHECK(HOLDS(CONDITION_PATH_IS_READ_WRITE, "/etc"));
	read_only_root = true;
	CHECK(!HOLDS(CONDITION_PATH_IS_READ_WRITE, "/etc"));
	CHECK(!HOLDS(CONDITION_PATH_IS_ENCRYPTED, "/etc"));
	CHECK(HOLDS(CONDITION_DIRECTORY_NOT_EMPTY, "/etc/demo.d"));
	CHECK(!HOLDS(CONDITION_DIRECTORY_NOT_EMPTY, "/etc/none.d"));
	CHECK(!HOLDS(CONDITION_DIRECTORY_NOT_EMPTY, "/etc/demo.conf"));
	CHECK(HOLDS(CONDITION_FILE_NOT_EMPTY, "/etc/demo.conf"));
	CHECK(HOLDS(CONDITION_FILE_NOT_EMPTY, "/etc/link")); /* follows the link */
	CHECK(!HOLDS(CONDITION_FILE_NOT_EMPTY, "/etc/empty.conf"));
	CHECK(!HOLDS(CONDITION_FILE_NOT_EMPTY, "/etc/demo.d"));
	CHECK(HOLDS(CONDITION_FILE_IS_EXECUTABLE, "/usr/bin/tool"));
	CHECK(!HOLDS(CONDITION_FILE_IS_EXECUTABLE, "/etc/demo.conf"));
	CHECK(!HOLDS(CONDITION_FILE_IS_EXECUTABLE, "/etc/demo.d"));
}

static void virtualization(void)
{
	bool container;

	reset();
	CHECK_STR(condition_detect_virtualization(&fake, &container), "none");
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "no") && !HOLDS(CONDITION_VIRTUALIZATION, "yes"));
	CHECK(!HOLDS(CONDITION_VIRTUALIZATION, "vm") && !HOLDS(CONDITION_VIRTUALIZATION, "container"));

	add(REG("/sys/class/dmi/id/sys_vendor", "QEMU\n"));
	CHECK_STR(condition_detect_virtualization(&fake, &container), "qemu");
	CHECK(!container);
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "yes") && HOLDS(CONDITION_VIRTUALIZATION, "vm"));
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "qemu") && !HOLDS(CONDITION_VIRTUALIZATION, "kvm"));
	CHECK(!HOLDS(CONDITION_VIRTUALIZATION, "container"));

	add(REG("/sys/devices/system/clocksource/clocksource0/available_clocksource",
		"kvm-clock tsc hpet acpi_pm\n"));
	CHECK_STR(condition_detect_virtualization(&fake, &container), "kvm");

	reset();
	add(REG("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
				 "flags\t\t: fpu vme hypervisor lahf_lm\n"));
	CHECK_STR(condition_detect_virtualization(&fake, &container), "vm-other");

	reset();
	add(BIN("/proc/1/environ", "HOME=/\0container=lxc\0TERM=linux\0", 31));
	CHECK_STR(condition_detect_virtualization(&fake, &container), "lxc");
	CHECK(container && HOLDS(CONDITION_VIRTUALIZATION, "container"));
	CHECK(!HOLDS(CONDITION_VIRTUALIZATION, "vm") && HOLDS(CONDITION_VIRTUALIZATION, "lxc"));

	reset();
	add(REG("/.dockerenv", ""));
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "docker"));
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "true"));

	reset();
	add(REG("/proc/self/uid_map", "         0          0 4294967295\n"));
	CHECK(!HOLDS(CONDITION_VIRTUALIZATION, "private-users"));
	files[0].content = "         0     100000      65536\n";
	CHECK(HOLDS(CONDITION_VIRTUALIZATION, "private-users"));
}

static void kernel_and_machine(void)
{
	reset();
	add(REG("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/vda quiet ember.debug\n"));
	CHECK(HOLDS(CONDITION_KERNEL_COMMAND_LINE, "quiet"));
	CHECK(HOLDS(CONDITION_KERNEL_COMMAND_LINE, "root"));             /* root=... */
	CHECK(HOLDS(CONDITION_KERNEL_COMMAND_LINE, "root=/dev/vda"));
	CHECK(!HOLDS(CONDITION_KERNEL_COMMAND_LINE, "root=/dev/sda"));
	CHECK(!HOLDS(CONDITION_KERNEL_COMMAND_LINE, "quie"));            /* whole words */
	CHECK(HOLDS(CONDITION_KERNEL_COMMAND_LINE, "ember.debug"));

	CHECK(HOLDS(CONDITION_KERNEL_VERSION, ">=5.10"));
	CHECK(HOLDS(CONDITION_KERNEL_VERSION, ">= 6.1.0"));
	CHECK(!HOLDS(CONDITION_KERNEL_VERSION, "<6"));
	CHECK(HOLDS(CONDITION_KERNEL_VERSION, ">6.0 <6.2"));
	CHECK(!HOLDS(CONDITION_KERNEL_VERSION, ">6.0 <6.1"));
	CHECK(HOLDS(CONDITION_KERNEL_VERSION, "6.1.*"));                 /* a glob */
	CHECK(!HOLDS(CONDITION_KERNEL_VERSION, "5.*"));
	CHECK(HOLDS(CONDITION_KERNEL_VERSION, ">=6.1.0-9"));             /* 18 > 9 as numbers */

	CHECK(HOLDS(CONDITION_ARCHITECTURE, "x86-64"));
	CHECK(!HOLDS(CONDITION_ARCHITECTURE, "arm64"));
	CHECK(HOLDS(CONDITION_ARCHITECTURE, "native"));
	strcpy(uts.machine, "aarch64");
	CHECK(HOLDS(CONDITION_ARCHITECTURE, "arm64"));

	CHECK(HOLDS(CONDITION_HOST, "phone-7"));                          /* case-insensitive */
	CHECK(HOLDS(CONDITION_HOST, "Phone-*"));
	CHECK(!HOLDS(CONDITION_HOST, "laptop"));
	add(REG("/etc/machine-id", "0123456789abcdef0123456789abcdef\n"));
	CHECK(HOLDS(CONDITION_HOST, "0123456789abcdef0123456789abcdef"));

	CHECK(!HOLDS(CONDITION_FIRMWARE, "uefi"));
	add(DIR_("/sys/firmware/efi"));
	CHECK(HOLDS(CONDITION_FIRMWARE, "uefi"));
	add(BIN("/proc/device-tree/compatible", "pine64,pinephone\0allwinner,sun50i-a64\0", 39));
	CHECK(HOLDS(CONDITION_FIRMWARE, "device-tree-compatible(pine64,pinephone)"));
	CHECK(!HOLDS(CONDITION_FIRMWARE, "device-tree-compatible(pine64)"));
	add(REG("/sys/class/dmi/id/board_name", "PinePhone\n"));
	CHECK(HOLDS(CONDITION_FIRMWARE, "smbios-field(board_name = PinePhone)"));
	CHECK(!HOLDS(CONDITION_FIRMWARE, "smbios-field(board_name != PinePhone)"));
	CHECK(HOLDS(CONDITION_FIRMWARE, "smbios-field(board_name $= Pine*)"));
}

static void security_and_capabilities(void)
{
	reset();
	CHECK(!HOLDS(CONDITION_SECURITY, "apparmor") && !HOLDS(CONDITION_SECURITY, "selinux"));
	add(REG("/sys/kernel/security/lsm", "lockdown,capability,landlock,yama,apparmor\n"));
	CHECK(HOLDS(CONDITION_SECURITY, "apparmor") && HOLDS(CONDITION_SECURITY, "landlock"));
	CHECK(!HOLDS(CONDITION_SECURITY, "selinux") && !HOLDS(CONDITION_SECURITY, "smack"));
	CHECK(!HOLDS(CONDITION_SECURITY, "no-such-lsm"));
	add(BIN("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
		"\x06\0\0\0\x01", 5));
	CHECK(HOLDS(CONDITION_SECURITY, "uefi-secureboot"));
	files[nfiles - 1].content = "\x06\0\0\0\0";
	CHECK(!HOLDS(CONDITION_SECURITY, "uefi-secureboot"));
	add(REG("/sys/class/tpm/tpm0/tpm_version_major", "2\n"));
	CHECK(HOLDS(CONDITION_SECURITY, "tpm2"));
	add(REG("/proc/self/loginuid", "4294967295"));
	CHECK(HOLDS(CONDITION_SECURITY, "audit"));

	/* CAP_SYS_ADMIN is bit 21, CAP_NET_ADMIN bit 12 */
	add(REG("/proc/self/status", "Name:\tinit\nCapBnd:\t0000000000201000\n"));
	CHECK(HOLDS(CONDITION_CAPABILITY, "CAP_SYS_ADMIN"));
	CHECK(HOLDS(CONDITION_CAPABILITY, "CAP_NET_ADMIN"));
	CHECK(!HOLDS(CONDITION_CAPABILITY, "CAP_SYS_MODULE"));
}

static void power_boot_update(void)
{
	reset();
	add(DIR_("/sys/class/power_supply"));
	CHECK(HOLDS(CONDITION_AC_POWER, "true")); /* no supply known: on AC, as systemd says */
	add(DIR_("/sys/class/power_supply/BAT0"));
	add(REG("/sys/class/power_supply/BAT0/type", "Battery\n"));
	add(DIR_("/sys/class/power_supply/AC"));
	add(REG("/sys/class/power_supply/AC/type", "Mains\n"));
	add(REG("/sys/class/power_supply/AC/online", "0\n"));
	CHECK(!HOLDS(CONDITION_AC_POWER, "true") && HOLDS(CONDITION_AC_POWER, "false"));
	files[nfiles - 1].content = "1\n";
	CHECK(HOLDS(CONDITION_AC_POWER, "yes") && !HOLDS(CONDITION_AC_POWER, "no"));

	/* FirstBoot: what PID 1 found at boot (its flag), not the machine-id file now, which
	 * PID 1 filled in meanwhile; the kernel command line overrides both ways. */
	reset();
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "no") && !HOLDS(CONDITION_FIRST_BOOT, "yes"));
	add(REG("/etc/machine-id", "uninitialized\n"));
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "no"));
	add(REG("/run/systemd/first-boot", ""));
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "yes"));
	add(REG("/proc/cmdline", "quiet systemd.condition-first-boot=no\n"));
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "no"));
	reset();
	add(REG("/proc/cmdline", "systemd.condition-first-boot=1 ro\n"));
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "yes"));
	files[nfiles - 1].content = "systemd.condition-first-boot=maybe systemd.condition-first-boot\n";
	CHECK(HOLDS(CONDITION_FIRST_BOOT, "no")); /* not a boolean, no value: ignored */

	reset();
	add((struct fake_file){ "/usr", S_IFDIR | 0755, "", 0, 2000, 1 });
	CHECK(HOLDS(CONDITION_NEEDS_UPDATE, "/etc")); /* never updated */
	add((struct fake_file){ "/etc/.updated", S_IFREG | 0644, "", 0, 1000, 1 });
	CHECK(HOLDS(CONDITION_NEEDS_UPDATE, "/etc"));
	files[1].mtime = 3000;
	CHECK(!HOLDS(CONDITION_NEEDS_UPDATE, "/etc"));
}

static void identity_and_environment(void)
{
	reset();
	CHECK(HOLDS(CONDITION_USER, "root") && HOLDS(CONDITION_USER, "0"));
	CHECK(HOLDS(CONDITION_USER, "@system") && !HOLDS(CONDITION_USER, "alice"));
	my_uid = 1000;
	CHECK(HOLDS(CONDITION_USER, "alice") && !HOLDS(CONDITION_USER, "@system"));
	CHECK(!HOLDS(CONDITION_USER, "nobody-known"));
	CHECK(HOLDS(CONDITION_GROUP, "root") && !HOLDS(CONDITION_GROUP, "video"));
	my_groups[0] = 44;
	my_ngroups = 1;
	CHECK(HOLDS(CONDITION_GROUP, "video") && HOLDS(CONDITION_GROUP, "44"));

	CHECK(!HOLDS(CONDITION_ENVIRONMENT, "EMBER_MODE"));
	env_name = "EMBER_MODE";
	env_value = "factory";
	CHECK(HOLDS(CONDITION_ENVIRONMENT, "EMBER_MODE"));
	CHECK(HOLDS(CONDITION_ENVIRONMENT, "EMBER_MODE=factory"));
	CHECK(!HOLDS(CONDITION_ENVIRONMENT, "EMBER_MODE=user"));

	CHECK(!HOLDS(CONDITION_CREDENTIAL, "wifi.psk"));
	add(REG("/run/credentials/@system/wifi.psk", "secret"));
	CHECK(HOLDS(CONDITION_CREDENTIAL, "wifi.psk"));

	CHECK(!HOLDS(CONDITION_CONTROL_GROUP_CONTROLLER, "v2"));
	add(REG("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n"));
	CHECK(HOLDS(CONDITION_CONTROL_GROUP_CONTROLLER, "v2"));
	CHECK(HOLDS(CONDITION_CONTROL_GROUP_CONTROLLER, "cpu memory"));
	CHECK(!HOLDS(CONDITION_CONTROL_GROUP_CONTROLLER, "cpu hugetlb"));
	CHECK(!HOLDS(CONDITION_CONTROL_GROUP_CONTROLLER, "v1"));
}

static void hardware_and_os(void)
{
	reset();
	add(REG("/proc/meminfo", "MemTotal:        2048000 kB\nMemFree:  1000 kB\n"));
	CHECK(HOLDS(CONDITION_MEMORY, "1G") && HOLDS(CONDITION_MEMORY, ">=1G"));
	CHECK(!HOLDS(CONDITION_MEMORY, ">4G") && HOLDS(CONDITION_MEMORY, "<4G"));
	CHECK(HOLDS(CONDITION_CPUS, ">=2") && HOLDS(CONDITION_CPUS, "4") && !HOLDS(CONDITION_CPUS, ">4"));
	add(REG("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 avx2\n"));
	CHECK(HOLDS(CONDITION_CPU_FEATURE, "avx2") && !HOLDS(CONDITION_CPU_FEATURE, "avx512f"));
	add(REG("/etc/os-release", "NAME=\"postmarketOS\"\nID=postmarketos\nVERSION_ID=\"v24.06\"\n"));
	CHECK(HOLDS(CONDITION_OS_RELEASE, "ID=postmarketos"));
	CHECK(!HOLDS(CONDITION_OS_RELEASE, "ID=debian"));
	CHECK(HOLDS(CONDITION_OS_RELEASE, "ID!=debian VERSION_ID>=v24"));
	CHECK(HOLDS(CONDITION_OS_RELEASE, "NAME$=post*"));
	CHECK(HOLDS(CONDITION_MEMORY_PRESSURE, "20%")); /* documented: always holds */
}

/* ---- through the parser: "!", "|", asserts, resets, what the supervisor gets ---- */

static struct service svc;
static int errors;
static char last_error[256];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx;
	(void)file;
	(void)line;
	if (severity == SERVICE_ERROR) {
		errors++;
		snprintf(last_error, sizeof last_error, "%s", message);
	}
}

static const struct service_diag diag = { record, NULL, false };

static enum service_conditions_result check_unit(const char *unit_section, char *what)
{
	char text[1024];

	snprintf(text, sizeof text, "[Unit]\n%s[Service]\nExecStart=/bin/true\n", unit_section);
	errors = 0;
	service_init(&svc, "demo", "/etc/ember/services/demo.service");
	if (service_parse(&svc, text, strlen(text), &diag) < 0)
		return (enum service_conditions_result)-1;
	return service_conditions_check(&svc, &fake, what, 128);
}

static void negation_triggers_and_asserts(void)
{
	char what[128];

	reset();
	add(REG("/present", "x"));
	add(REG("/also", "x"));
	CHECK(check_unit("ConditionPathExists=/present\n", what) == SERVICE_CONDITIONS_MET);
	CHECK(check_unit("ConditionPathExists=/absent\n", what) == SERVICE_CONDITION_FAILED);
	CHECK_STR(what, "ConditionPathExists=/absent");
	CHECK(check_unit("ConditionPathExists=!/absent\n", what) == SERVICE_CONDITIONS_MET);
	CHECK(check_unit("ConditionPathExists=!/present\n", what) == SERVICE_CONDITION_FAILED);
	CHECK_STR(what, "ConditionPathExists=!/present");
	/* triggers: one of them is enough; the non-trigger ones must all hold */
	CHECK(check_unit("ConditionPathExists=|/absent\nConditionFileNotEmpty=|/also\n", what) ==
	      SERVICE_CONDITIONS_MET);
	CHECK(check_unit("ConditionPathExists=|/absent\nConditionPathExists=|!/present\n", what) ==
	      SERVICE_CONDITION_FAILED);
	CHECK_STR(what, "ConditionPathExists=|/absent");
	CHECK(check_unit("ConditionPathExists=|/present\nConditionPathExists=/absent\n", what) ==
	      SERVICE_CONDITION_FAILED);
	CHECK(check_unit("ConditionPathExists=|!/absent\n", what) == SERVICE_CONDITIONS_MET);
	/* asserts fail the start; conditions are checked first */
	CHECK(check_unit("AssertPathExists=/absent\n", what) == SERVICE_ASSERT_FAILED);
	CHECK_STR(what, "AssertPathExists=/absent");
	CHECK(check_unit("AssertPathExists=/present\n", what) == SERVICE_CONDITIONS_MET);
	CHECK(check_unit("ConditionPathExists=/absent\nAssertPathExists=/absent\n", what) ==
	      SERVICE_CONDITION_FAILED);
	CHECK(check_unit("AssertPathExists=|/absent\nAssertPathIsDirectory=|/present\n", what) ==
	      SERVICE_ASSERT_FAILED);
	/* an empty value resets its own group only */
	CHECK(check_unit("ConditionPathExists=/absent\nConditionPathExists=\n", what) ==
	      SERVICE_CONDITIONS_MET);
	CHECK(check_unit("AssertPathExists=/absent\nConditionPathExists=\n", what) ==
	      SERVICE_ASSERT_FAILED);
	CHECK(check_unit("AssertPathExists=/absent\nAssertKernelVersion=\n", what) ==
	      SERVICE_CONDITIONS_MET);
	/* specifiers are expanded first */
	add(REG("/run/demo.service", "x"));
	CHECK(check_unit("ConditionPathExists=/run/%n\n", what) == SERVICE_CONDITIONS_MET);
	CHECK(svc.condition_count == 1 && svc.condition[0].kind == CONDITION_PATH_EXISTS);
}

static void bad_values_fail_the_unit(void)
{
	static const char *const bad[] = {
		"ConditionPathExists=relative/path\n",
		"ConditionPathExists=/a/../b\n",
		"ConditionDirectoryNotEmpty=\x7e/x\n",
		"ConditionCapability=CAP_NOPE\n",
		"ConditionACPower=maybe\n",
		"ConditionFirstBoot=sometimes\n",
		"ConditionKernelVersion=>=\n",
		"ConditionOSRelease=debian\n",
		"ConditionMemory=lots\n",
		"ConditionCPUs=>many\n",
		"ConditionCredential=../etc/shadow\n",
		"AssertNeedsUpdate=etc\n",
	};
	char what[128];

	reset();
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int r = (int)check_unit(bad[i], what);
		if (r != -1 || errors != 1)
			printf("      %s", bad[i]);
		CHECK(r == -1 && errors == 1);
	}
	/* the message names the key and the value */
	check_unit("ConditionCapability=CAP_NOPE\n", what);
	CHECK(strstr(last_error, "ConditionCapability=CAP_NOPE") != NULL);
	CHECK(strstr(last_error, "capability") != NULL);
}

static void too_many_conditions(void)
{
	char text[2048] = "", what[128];

	reset();
	for (int i = 0; i < SERVICE_CONDITION_MAX + 1; i++)
		strcat(text, "ConditionPathExists=/x\n");
	CHECK((int)check_unit(text, what) == -1);
	CHECK(strstr(last_error, "more than 16") != NULL);
}

static void every_kind_has_a_key(void)
{
	bool assert;

	for (int k = 0; k < CONDITION_KIND_COUNT; k++) {
		char key[64];
		snprintf(key, sizeof key, "Condition%s", condition_kind_name(k));
		CHECK(condition_kind_from_key(key, &assert) == k && !assert);
		snprintf(key, sizeof key, "Assert%s", condition_kind_name(k));
		CHECK(condition_kind_from_key(key, &assert) == k && assert);
	}
	CHECK(condition_kind_from_key("ConditionNope", &assert) < 0);
	CHECK(condition_kind_from_key("PathExists", &assert) < 0);
}

int main(void)
{
	RUN(path_kinds);
	RUN(virtualization);
	RUN(kernel_and_machine);
	RUN(security_and_capabilities);
	RUN(power_boot_update);
	RUN(identity_and_environment);
	RUN(hardware_and_os);
	RUN(negation_triggers_and_asserts);
	RUN(bad_values_fail_the_unit);
	RUN(too_many_conditions);
	RUN(every_kind_has_a_key);
	return harness_done();
}
