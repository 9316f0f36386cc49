/* Condition*= / Assert*= values: checked when a file is read, tested before a start.
 * Semantics follow systemd.unit(5); where ember differs, docs/services.md says so. */
#include "condition.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "machine-id.h" /* the first boot flag */
#include "parse.h"
#include "service.h"

#define FACT_MAX 4096      /* bytes of one /proc or /sys file we look at */
#define SYSTEM_UID_MAX 999 /* "@system" users, as Debian and systemd define them */

static const char *const kind_names[CONDITION_KIND_COUNT] = {
	[CONDITION_PATH_EXISTS] = "PathExists",
	[CONDITION_PATH_EXISTS_GLOB] = "PathExistsGlob",
	[CONDITION_PATH_IS_DIRECTORY] = "PathIsDirectory",
	[CONDITION_PATH_IS_SYMBOLIC_LINK] = "PathIsSymbolicLink",
	[CONDITION_PATH_IS_MOUNT_POINT] = "PathIsMountPoint",
	[CONDITION_PATH_IS_READ_WRITE] = "PathIsReadWrite",
	[CONDITION_PATH_IS_ENCRYPTED] = "PathIsEncrypted",
	[CONDITION_DIRECTORY_NOT_EMPTY] = "DirectoryNotEmpty",
	[CONDITION_FILE_NOT_EMPTY] = "FileNotEmpty",
	[CONDITION_FILE_IS_EXECUTABLE] = "FileIsExecutable",
	[CONDITION_VIRTUALIZATION] = "Virtualization",
	[CONDITION_KERNEL_COMMAND_LINE] = "KernelCommandLine",
	[CONDITION_KERNEL_VERSION] = "KernelVersion",
	[CONDITION_ARCHITECTURE] = "Architecture",
	[CONDITION_FIRMWARE] = "Firmware",
	[CONDITION_HOST] = "Host",
	[CONDITION_SECURITY] = "Security",
	[CONDITION_CAPABILITY] = "Capability",
	[CONDITION_AC_POWER] = "ACPower",
	[CONDITION_FIRST_BOOT] = "FirstBoot",
	[CONDITION_NEEDS_UPDATE] = "NeedsUpdate",
	[CONDITION_USER] = "User",
	[CONDITION_GROUP] = "Group",
	[CONDITION_CONTROL_GROUP_CONTROLLER] = "ControlGroupController",
	[CONDITION_ENVIRONMENT] = "Environment",
	[CONDITION_CREDENTIAL] = "Credential",
	[CONDITION_MEMORY] = "Memory",
	[CONDITION_CPUS] = "CPUs",
	[CONDITION_CPU_FEATURE] = "CPUFeature",
	[CONDITION_OS_RELEASE] = "OSRelease",
	[CONDITION_MEMORY_PRESSURE] = "MemoryPressure",
	[CONDITION_CPU_PRESSURE] = "CPUPressure",
	[CONDITION_IO_PRESSURE] = "IOPressure",
};

const char *condition_kind_name(enum condition_kind kind)
{
	return (unsigned)kind < CONDITION_KIND_COUNT ? kind_names[kind] : "?";
}

int condition_kind_from_key(const char *key, bool *assert)
{
	const char *rest;

	if (str_starts_with(key, "Condition")) {
		rest = key + strlen("Condition");
		*assert = false;
	} else if (str_starts_with(key, "Assert")) {
		rest = key + strlen("Assert");
		*assert = true;
	} else {
		return -1;
	}
	for (int k = 0; k < CONDITION_KIND_COUNT; k++)
		if (strcmp(rest, kind_names[k]) == 0)
			return k;
	return -1;
}

/* ---- comparisons: KernelVersion=, OSRelease=, Memory=, CPUs=, Firmware=smbios-field -- */

enum compare_op { OP_NONE, OP_LT, OP_LE, OP_EQ, OP_NE, OP_GE, OP_GT, OP_GLOB, OP_NOT_GLOB };

/* Take an operator off the front of *s (longest first). */
static enum compare_op take_op(const char **s)
{
	static const struct { const char *text; enum compare_op op; } ops[] = {
		{ "!$=", OP_NOT_GLOB }, { "$=", OP_GLOB }, { "<=", OP_LE }, { ">=", OP_GE },
		{ "!=", OP_NE }, { "<", OP_LT }, { ">", OP_GT }, { "=", OP_EQ },
	};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
		if (str_starts_with(*s, ops[i].text)) {
			*s += strlen(ops[i].text);
			while (**s == ' ')
				(*s)++;
			return ops[i].op;
		}
	return OP_NONE;
}

static bool op_holds(enum compare_op op, int cmp)
{
	switch (op) {
	case OP_LT: return cmp < 0;
	case OP_LE: return cmp <= 0;
	case OP_EQ: return cmp == 0;
	case OP_NE: return cmp != 0;
	case OP_GE: return cmp >= 0;
	case OP_GT: return cmp > 0;
	default: return false;
	}
}

/* Version order as systemd's: runs of digits compare as numbers, the rest bytewise. */
static int version_cmp(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = strtoul(a, (char **)&a, 10);
			unsigned long y = strtoul(b, (char **)&b, 10);
			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

/* "left OP right" for strings: globs for $= and !$=, version order for the rest. */
static bool string_op_holds(enum compare_op op, const char *left, const char *right)
{
	if (op == OP_GLOB)
		return fnmatch(right, left, 0) == 0;
	if (op == OP_NOT_GLOB)
		return fnmatch(right, left, 0) != 0;
	return op_holds(op, version_cmp(left, right));
}

/* The next whitespace-separated word of *s into buf; false at the end. */
static bool next_word(const char **s, char *buf, size_t size)
{
	size_t n = 0;

	while (**s == ' ' || **s == '\t' || **s == '\n')
		(*s)++;
	if (!**s)
		return false;
	while (**s && **s != ' ' && **s != '\t' && **s != '\n') {
		if (n + 1 < size)
			buf[n++] = **s;
		(*s)++;
	}
	buf[n] = '\0';
	return true;
}

/* ---- small fact readers -------------------------------------------------------------- */

static ssize_t fact(const struct condition_probe *p, const char *path, char *buf, size_t size)
{
	ssize_t n = p->read_file ? p->read_file(p->ctx, path, buf, size) : -1;
	if (n < 0)
		buf[0] = '\0';
	return n;
}

static bool exists(const struct condition_probe *p, const char *path)
{
	struct stat st;
	return p->stat(p->ctx, path, &st, true) == 0;
}

/* Does a file hold text (case-insensitive), e.g. a DMI vendor string? */
static bool fact_contains(const struct condition_probe *p, const char *path, const char *text)
{
	char buf[256];
	if (fact(p, path, buf, sizeof buf) < 0)
		return false;
	for (char *c = buf; *c; c++)
		if (strncasecmp(c, text, strlen(text)) == 0)
			return true;
	return false;
}

/* Does the whitespace-separated list in text hold word? */
static bool list_has_word(const char *text, const char *word)
{
	char w[128];
	while (next_word(&text, w, sizeof w))
		if (strcmp(w, word) == 0)
			return true;
	return false;
}

/* Copy the value of the first "Key<blanks>: value" line of text (as in /proc/cpuinfo,
 * /proc/self/status, /proc/meminfo) into out. False when no line has that key. */
static bool line_value(const char *text, const char *key, char *out, size_t size)
{
	size_t len = strlen(key);

	for (const char *line = text; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *v = line + len;
		if (strncmp(line, key, len) != 0)
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != ':')
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		snprintf(out, size, "%.*s", (int)strcspn(v, "\n"), v);
		return true;
	}
	return false;
}

/* ---- virtualization ------------------------------------------------------------------- */

struct vendor { const char *text; const char *id; };

/* DMI vendor and product strings -> systemd's ids. */
static const struct vendor dmi_vendors[] = {
	{ "KVM", "kvm" }, { "Amazon EC2", "amazon" }, { "QEMU", "qemu" },
	{ "VMware", "vmware" }, { "VMW", "vmware" }, { "innotek GmbH", "oracle" },
	{ "VirtualBox", "oracle" }, { "Oracle Corporation", "oracle" }, { "Xen", "xen" },
	{ "Bochs", "bochs" }, { "Parallels", "parallels" }, { "BHYVE", "bhyve" },
	{ "Hyper-V", "microsoft" }, { "Google Compute Engine", "google" },
	{ "Apple Virtualization", "apple" },
};

static const char *const dmi_files[] = {
	"/sys/class/dmi/id/product_name", "/sys/class/dmi/id/sys_vendor",
	"/sys/class/dmi/id/board_vendor", "/sys/class/dmi/id/bios_vendor",
	"/sys/class/dmi/id/product_version",
};

/* The id of the first vendor a DMI file names (each file is read once). */
static const char *dmi_vendor(const struct condition_probe *p, const char *path)
{
	char buf[256];

	if (fact(p, path, buf, sizeof buf) < 0)
		return NULL;
	for (size_t v = 0; v < sizeof dmi_vendors / sizeof *dmi_vendors; v++)
		for (const char *c = buf; *c; c++)
			if (strncasecmp(c, dmi_vendors[v].text, strlen(dmi_vendors[v].text)) == 0)
				return dmi_vendors[v].id;
	return NULL;
}

static const char *detect_container(const struct condition_probe *p)
{
	static char id[32];
	char buf[FACT_MAX];
	ssize_t n;

	/* What container managers tell their payload, in the order systemd trusts it. */
	if (fact(p, "/run/systemd/container", buf, sizeof buf) > 0) {
		snprintf(id, sizeof id, "%.*s", (int)strcspn(buf, "\n"), buf);
		return id;
	}
	n = fact(p, "/proc/1/environ", buf, sizeof buf);
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (str_starts_with(buf + i, "container=") && buf[i + 10]) {
			snprintf(id, sizeof id, "%s", buf + i + 10);
			return id;
		}
	if (exists(p, "/.dockerenv"))
		return "docker";
	if (exists(p, "/run/.containerenv"))
		return "podman";
	if (exists(p, "/proc/vz") && !exists(p, "/proc/bc"))
		return "openvz";
	if (fact_contains(p, "/proc/sys/kernel/osrelease", "Microsoft") ||
	    fact_contains(p, "/proc/sys/kernel/osrelease", "WSL"))
		return "wsl";
	return NULL;
}

static const char *detect_vm(const struct condition_probe *p)
{
	char buf[FACT_MAX], flags[FACT_MAX];
	bool hypervisor;

	/* KVM under a QEMU machine: DMI says QEMU, the clock source says KVM (systemd
	 * reports "kvm" then, from cpuid). */
	if (fact_contains(p, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
			  "kvm-clock"))
		return "kvm";
	if (fact_contains(p, "/proc/device-tree/hypervisor/compatible", "linux,kvm"))
		return "kvm";
	if (fact_contains(p, "/proc/device-tree/hypervisor/compatible", "xen") ||
	    fact_contains(p, "/sys/hypervisor/type", "xen"))
		return "xen";
	for (size_t f = 0; f < sizeof dmi_files / sizeof *dmi_files; f++) {
		const char *id = dmi_vendor(p, dmi_files[f]);
		if (id)
			return id;
	}
	if (fact_contains(p, "/sys/class/dmi/id/sys_vendor", "Microsoft Corporation") &&
	    fact_contains(p, "/sys/class/dmi/id/product_name", "Virtual Machine"))
		return "microsoft";
	if (fact_contains(p, "/proc/device-tree/compatible", "qemu") ||
	    fact_contains(p, "/proc/device-tree/compatible", "linux,dummy-virt"))
		return "qemu";
	/* The cpuid hypervisor bit, as the kernel shows it. */
	fact(p, "/proc/cpuinfo", buf, sizeof buf);
	hypervisor = line_value(buf, "flags", flags, sizeof flags) &&
		     list_has_word(flags, "hypervisor");
	return hypervisor ? "vm-other" : NULL;
}

const char *condition_detect_virtualization(const struct condition_probe *p, bool *container)
{
	const char *id = detect_container(p);

	*container = id != NULL;
	if (!id)
		id = detect_vm(p);
	return id ? id : "none";
}

static bool private_users(const struct condition_probe *p)
{
	char buf[256], a[32], b[32], c[32];
	const char *s = buf;

	if (fact(p, "/proc/self/uid_map", buf, sizeof buf) < 0)
		return false;
	if (!next_word(&s, a, sizeof a) || !next_word(&s, b, sizeof b) ||
	    !next_word(&s, c, sizeof c))
		return false;
	return !(strcmp(a, "0") == 0 && strcmp(b, "0") == 0 && strcmp(c, "4294967295") == 0);
}

static bool test_virtualization(const struct condition_probe *p, const char *value)
{
	bool container, yes;
	const char *id = condition_detect_virtualization(p, &container);
	bool virt = strcmp(id, "none") != 0;

	if (strcmp(value, "private-users") == 0)
		return private_users(p);
	if (parse_bool(value, &yes) == 0)
		return virt == yes;
	if (strcmp(value, "vm") == 0)
		return virt && !container;
	if (strcmp(value, "container") == 0)
		return container;
	return strcmp(value, id) == 0;
}

/* ---- the kernel, the machine, the firmware --------------------------------------------- */

/* The kernel command line into buf, its newlines made spaces: 0, or -1. */
static int kernel_cmdline(const struct condition_probe *p, char *buf, size_t size)
{
	if (fact(p, "/proc/cmdline", buf, size) < 0)
		return -1;
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return 0;
}

/* Words of the kernel command line; value "x" matches "x" and "x=...", "x=y" only itself. */
static bool test_kernel_command_line(const struct condition_probe *p, const char *value)
{
	char buf[FACT_MAX], word[FACT_MAX];
	const char *s = buf;
	size_t len = strlen(value);
	bool has_eq = strchr(value, '=') != NULL;

	if (kernel_cmdline(p, buf, sizeof buf) < 0)
		return false;
	while (next_word(&s, word, sizeof word)) {
		if (strcmp(word, value) == 0)
			return true;
		if (!has_eq && strncmp(word, value, len) == 0 && word[len] == '=')
			return true;
	}
	return false;
}

/* "OP VERSION ..." (all must hold) or a glob without an operator. */
static bool test_kernel_version(const struct condition_probe *p, const char *value)
{
	struct utsname u;
	char word[128];
	const char *s = value;

	if (!p->uname || p->uname(p->ctx, &u) < 0)
		return false;
	while (*s) {
		enum compare_op op;
		while (*s == ' ')
			s++;
		op = take_op(&s);
		if (!next_word(&s, word, sizeof word))
			break;
		if (op == OP_NONE ? fnmatch(word, u.release, 0) != 0
				  : !string_op_holds(op, u.release, word))
			return false;
	}
	return true;
}

static const struct { const char *machine; const char *arch; } architectures[] = {
	{ "x86_64", "x86-64" }, { "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
	{ "i686", "x86" }, { "aarch64_be", "arm64-be" }, { "aarch64", "arm64" },
	{ "armv8b", "arm-be" }, { "armv7b", "arm-be" }, { "arm", "arm" },
	{ "riscv64", "riscv64" }, { "riscv32", "riscv32" }, { "ppc64le", "ppc64-le" },
	{ "ppc64", "ppc64" }, { "ppcle", "ppc-le" }, { "ppc", "ppc" }, { "s390x", "s390x" },
	{ "s390", "s390" }, { "mips64", "mips64-le" }, { "mips", "mips-le" },
	{ "loongarch64", "loongarch64" }, { "parisc", "parisc" }, { "sparc64", "sparc64" },
	{ "sh", "sh" }, { "alpha", "alpha" }, { "m68k", "m68k" }, { "arc", "arc" },
};

const char *condition_architecture(const struct condition_probe *p, char *buf, size_t size)
{
	struct utsname u;

	if (!p->uname || p->uname(p->ctx, &u) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof architectures / sizeof *architectures; i++)
		if (str_starts_with(u.machine, architectures[i].machine))
			return architectures[i].arch;
	snprintf(buf, size, "%s", u.machine);
	return buf;
}

static bool test_architecture(const struct condition_probe *p, const char *value)
{
	char machine[sizeof ((struct utsname *)0)->machine];
	const char *arch;

	if (strcmp(value, "native") == 0)
		return true;
	arch = condition_architecture(p, machine, sizeof machine);
	return arch && strcmp(value, arch) == 0;
}

/* Is word one of the NUL-separated strings of a device-tree property? */
static bool dt_compatible(const struct condition_probe *p, const char *word)
{
	char buf[FACT_MAX];
	ssize_t n = fact(p, "/proc/device-tree/compatible", buf, sizeof buf);

	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
		if (strcmp(buf + i, word) == 0)
			return true;
	return false;
}

/* "smbios-field(FIELD OP VALUE)": a /sys/class/dmi/id file against VALUE. */
static bool smbios_field(const struct condition_probe *p, const char *arg)
{
	char field[64], path[128], actual[256], want[256];
	size_t n = strcspn(arg, " =!<>$");
	enum compare_op op;
	const char *s;

	if (n == 0 || n >= sizeof field)
		return false;
	memcpy(field, arg, n);
	field[n] = '\0';
	s = arg + n;
	while (*s == ' ')
		s++;
	op = take_op(&s);
	snprintf(want, sizeof want, "%.*s", (int)strcspn(s, ")"), s);
	snprintf(path, sizeof path, "/sys/class/dmi/id/%s", field);
	if (op == OP_NONE || strchr(field, '/') || fact(p, path, actual, sizeof actual) < 0)
		return false;
	actual[strcspn(actual, "\n")] = '\0';
	return string_op_holds(op, actual, strip(want));
}

static bool test_firmware(const struct condition_probe *p, const char *value)
{
	char arg[256];
	const char *open = strchr(value, '(');

	if (strcmp(value, "uefi") == 0)
		return exists(p, "/sys/firmware/efi");
	if (strcmp(value, "device-tree") == 0)
		return exists(p, "/sys/firmware/devicetree/base");
	if (!open || value[strlen(value) - 1] != ')')
		return false;
	snprintf(arg, sizeof arg, "%.*s", (int)(strlen(open) - 2), open + 1);
	if (str_starts_with(value, "device-tree-compatible("))
		return dt_compatible(p, arg);
	if (str_starts_with(value, "smbios-field("))
		return smbios_field(p, arg);
	return false;
}

static bool test_host(const struct condition_probe *p, const char *value)
{
	struct utsname u;
	char id[64];

	if (fact(p, "/etc/machine-id", id, sizeof id) > 0) {
		id[strcspn(id, "\n")] = '\0';
		if (strcasecmp(id, value) == 0)
			return true;
	}
	if (!p->uname || p->uname(p->ctx, &u) < 0)
		return false;
	return fnmatch(value, u.nodename, FNM_CASEFOLD) == 0;
}

/* The LSMs the kernel runs, from securityfs. */
static bool lsm_active(const struct condition_probe *p, const char *name)
{
	char buf[512], word[64];
	const char *s = buf;

	if (fact(p, "/sys/kernel/security/lsm", buf, sizeof buf) < 0)
		return false;
	for (char *c = buf; *c; c++)
		if (*c == ',' || *c == '\n')
			*c = ' ';
	while (next_word(&s, word, sizeof word))
		if (strcmp(word, name) == 0)
			return true;
	return false;
}

#define EFI_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"

static bool test_security(const struct condition_probe *p, const char *value)
{
	char buf[64];

	if (strcmp(value, "selinux") == 0)
		return exists(p, "/sys/fs/selinux/enforce") || lsm_active(p, "selinux");
	if (strcmp(value, "apparmor") == 0)
		return lsm_active(p, "apparmor") ||
		       fact_contains(p, "/sys/module/apparmor/parameters/enabled", "Y");
	if (strcmp(value, "smack") == 0)
		return exists(p, "/sys/fs/smackfs") || lsm_active(p, "smack");
	if (strcmp(value, "tomoyo") == 0)
		return lsm_active(p, "tomoyo") || exists(p, "/sys/kernel/security/tomoyo/version");
	if (strcmp(value, "landlock") == 0)
		return lsm_active(p, "landlock");
	if (strcmp(value, "ima") == 0)
		return exists(p, "/sys/kernel/security/ima");
	if (strcmp(value, "audit") == 0)
		return exists(p, "/proc/self/loginuid");
	if (strcmp(value, "uefi-secureboot") == 0) /* 4 attribute bytes, then the flag */
		return fact(p, "/sys/firmware/efi/efivars/SecureBoot-" EFI_GLOBAL, buf, sizeof buf) >= 5 &&
		       buf[4] == 1;
	if (strcmp(value, "tpm2") == 0)
		return fact_contains(p, "/sys/class/tpm/tpm0/tpm_version_major", "2");
	if (strcmp(value, "measured-uki") == 0)
		return exists(p, "/sys/firmware/efi/efivars/StubPcrKernelImage-"
			      "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f");
	return false; /* "cvm" and names this kernel has never heard of */
}

/* A capability in the bounding set of this process (CapBnd: in /proc/self/status). */
static bool test_capability(const struct condition_probe *p, const char *value)
{
	char buf[FACT_MAX], hex[32];
	int cap = service_capability_from_name(value);
	unsigned long long set;

	if (cap < 0 || fact(p, "/proc/self/status", buf, sizeof buf) < 0 ||
	    !line_value(buf, "CapBnd", hex, sizeof hex))
		return false;
	set = strtoull(hex, NULL, 16);
	return cap < 64 && (set >> cap & 1);
}

/* ---- power, first boot, updates ------------------------------------------------------ */

struct ac_scan {
	const struct condition_probe *probe;
	bool online, offline;
};

static int ac_supply(void *arg, const char *name)
{
	struct ac_scan *scan = arg;
	char path[256], buf[64];

	snprintf(path, sizeof path, "/sys/class/power_supply/%s/type", name);
	if (fact(scan->probe, path, buf, sizeof buf) < 0 || !str_starts_with(buf, "Mains"))
		return 0;
	snprintf(path, sizeof path, "/sys/class/power_supply/%s/online", name);
	if (fact(scan->probe, path, buf, sizeof buf) < 0)
		return 0;
	if (buf[0] == '1')
		scan->online = true;
	else
		scan->offline = true;
	return 0;
}

/* On mains power, or no mains supply known at all (a board without a battery). */
static bool on_ac_power(const struct condition_probe *p)
{
	struct ac_scan scan = { p, false, false };

	p->dir_each(p->ctx, "/sys/class/power_supply", ac_supply, &scan);
	return scan.online || !scan.offline;
}

/* The last "key=bool" word of the kernel command line, into *yes: false when none. */
static bool kernel_bool(const struct condition_probe *p, const char *key, bool *yes)
{
	char buf[FACT_MAX], word[FACT_MAX];
	const char *s = buf;
	size_t len = strlen(key);
	bool found = false;

	if (kernel_cmdline(p, buf, sizeof buf) < 0)
		return false;
	while (next_word(&s, word, sizeof word))
		if (strncmp(word, key, len) == 0 && word[len] == '=' && parse_bool(word + len + 1, yes) == 0)
			found = true;
	return found;
}

/* systemd's test: PID 1 found a first boot (machine-id.c made the flag), unless the
 * kernel command line says otherwise. */
bool condition_first_boot(const struct condition_probe *p)
{
	bool yes;

	if (kernel_bool(p, "systemd.condition-first-boot", &yes))
		return yes;
	return p->access && p->access(p->ctx, MACHINE_ID_FIRST_BOOT_FLAG, F_OK) == 0;
}

/* /usr changed after DIR/.updated was last touched (or it never was). */
static bool needs_update(const struct condition_probe *p, const char *dir)
{
	char path[SERVICE_PATH_MAX];
	struct stat usr, stamp;

	if (p->stat(p->ctx, "/usr", &usr, true) < 0)
		return false;
	snprintf(path, sizeof path, "%s/.updated", dir);
	if (p->stat(p->ctx, path, &stamp, false) < 0)
		return true;
	return usr.st_mtim.tv_sec > stamp.st_mtim.tv_sec ||
	       (usr.st_mtim.tv_sec == stamp.st_mtim.tv_sec &&
		usr.st_mtim.tv_nsec > stamp.st_mtim.tv_nsec);
}

/* ---- who the manager runs as ----------------------------------------------------------- */

#define GROUPS_MAX 64

static bool test_user(const struct condition_probe *p, const char *value)
{
	uid_t uid, want;
	gid_t gid, groups[GROUPS_MAX];
	unsigned long n;

	if (p->identity(p->ctx, &uid, &gid, groups, GROUPS_MAX) < 0)
		return false;
	if (strcmp(value, "@system") == 0)
		return uid <= SYSTEM_UID_MAX;
	if (parse_ulong(value, 0, 4294967294UL, &n) == 0)
		return uid == (uid_t)n;
	return p->user_id(p->ctx, value, &want) == 0 && want == uid;
}

static bool test_group(const struct condition_probe *p, const char *value)
{
	uid_t uid;
	gid_t gid, want, groups[GROUPS_MAX];
	unsigned long n;
	int count = p->identity(p->ctx, &uid, &gid, groups, GROUPS_MAX);

	if (count < 0)
		return false;
	if (parse_ulong(value, 0, 4294967294UL, &n) == 0)
		want = (gid_t)n;
	else if (p->group_id(p->ctx, value, &want) < 0)
		return false;
	if (gid == want)
		return true;
	for (int i = 0; i < count; i++)
		if (groups[i] == want)
			return true;
	return false;
}

/* ---- cgroups, environment, credentials ------------------------------------------------- */

static bool test_cgroup_controller(const struct condition_probe *p, const char *value)
{
	char have[FACT_MAX], word[64];
	const char *s = value;
	bool v2 = fact(p, "/sys/fs/cgroup/cgroup.controllers", have, sizeof have) >= 0;

	while (next_word(&s, word, sizeof word)) {
		if (strcmp(word, "v2") == 0) {
			if (!v2)
				return false;
		} else if (strcmp(word, "v1") == 0) {
			return false; /* ember supports only the unified hierarchy */
		} else if (!v2 || !list_has_word(have, word)) {
			return false;
		}
	}
	return true;
}

static bool test_environment(const struct condition_probe *p, const char *value)
{
	char name[256];
	const char *eq = strchr(value, '=');
	const char *actual;

	snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - value) : (int)strlen(value), value);
	actual = p->getenv ? p->getenv(p->ctx, name) : NULL;
	if (!actual)
		return false;
	return !eq || strcmp(actual, eq + 1) == 0;
}

static bool test_credential(const struct condition_probe *p, const char *value)
{
	char path[SERVICE_PATH_MAX];
	const char *dir = p->getenv ? p->getenv(p->ctx, "CREDENTIALS_DIRECTORY") : NULL;

	if (strchr(value, '/'))
		return false;
	if (dir && *dir) {
		snprintf(path, sizeof path, "%s/%s", dir, value);
		if (exists(p, path))
			return true;
	}
	snprintf(path, sizeof path, "/run/credentials/@system/%s", value);
	return exists(p, path);
}

/* ---- hardware ------------------------------------------------------------------------ */

/* "[OP]NUMBER" against actual; no operator means ">=". */
static bool number_holds(const char *value, unsigned long long actual, bool size)
{
	const char *s = value;
	enum compare_op op = take_op(&s);
	unsigned long long want;
	unsigned long n;

	if (op == OP_NONE)
		op = OP_GE;
	if (size ? parse_size(s, &want) < 0 : parse_ulong(s, 0, ~0UL, &n) < 0)
		return false;
	if (!size)
		want = n;
	return op_holds(op, actual < want ? -1 : actual > want);
}

static bool test_memory(const struct condition_probe *p, const char *value)
{
	char buf[FACT_MAX], total[64];

	if (fact(p, "/proc/meminfo", buf, sizeof buf) < 0 ||
	    !line_value(buf, "MemTotal", total, sizeof total))
		return false;
	return number_holds(value, strtoull(total, NULL, 10) * 1024, true);
}

static bool test_cpus(const struct condition_probe *p, const char *value)
{
	long n = p->cpus ? p->cpus(p->ctx) : -1;
	return n > 0 && number_holds(value, (unsigned long long)n, false);
}

static bool test_cpu_feature(const struct condition_probe *p, const char *value)
{
	char buf[FACT_MAX], flags[FACT_MAX];

	if (fact(p, "/proc/cpuinfo", buf, sizeof buf) < 0)
		return false;
	if (!line_value(buf, "flags", flags, sizeof flags) &&
	    !line_value(buf, "Features", flags, sizeof flags))
		return false;
	return list_has_word(flags, value);
}

/* ---- os-release ------------------------------------------------------------------------ */

/* The value of KEY= in an os-release file, quotes removed. */
static bool os_release_value(const char *text, const char *key, char *out, size_t size)
{
	size_t len = strlen(key);

	for (const char *line = text; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		const char *v = line + len + 1;
		size_t n;
		if (strncmp(line, key, len) != 0 || line[len] != '=')
			continue;
		n = strcspn(v, "\n");
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v++;
			n -= 2;
		}
		snprintf(out, size, "%.*s", (int)n, v);
		return true;
	}
	return false;
}

/* "KEY OP VALUE ..." (all must hold). */
static bool test_os_release(const struct condition_probe *p, const char *value)
{
	char text[FACT_MAX], word[256], key[64], actual[256];
	const char *s = value;

	if (fact(p, "/etc/os-release", text, sizeof text) < 0 &&
	    fact(p, "/usr/lib/os-release", text, sizeof text) < 0)
		return false;
	while (next_word(&s, word, sizeof word)) {
		size_t n = strcspn(word, "=!<>$");
		const char *rest = word + n;
		enum compare_op op = take_op(&rest);
		if (n == 0 || n >= sizeof key || op == OP_NONE)
			return false;
		memcpy(key, word, n);
		key[n] = '\0';
		if (!os_release_value(text, key, actual, sizeof actual))
			actual[0] = '\0';
		if (!string_op_holds(op, actual, rest))
			return false;
	}
	return true;
}

/* ---- paths -------------------------------------------------------------------------------- */

static int any_entry(void *arg, const char *name)
{
	(void)arg;
	(void)name;
	return 1;
}

/* The probe's mount table; without one, a mount point sits on another device than its
 * parent, or is the root itself. */
static bool mount_point(const struct condition_probe *p, const char *path)
{
	char parent[SERVICE_PATH_MAX];
	struct stat st, up;

	if (p->is_mount_point)
		return p->is_mount_point(p->ctx, path);
	if (p->stat(p->ctx, path, &st, false) < 0 || !S_ISDIR(st.st_mode))
		return false;
	snprintf(parent, sizeof parent, "%s/..", path);
	if (p->stat(p->ctx, parent, &up, true) < 0)
		return false;
	return st.st_dev != up.st_dev || st.st_ino == up.st_ino;
}

static bool test_path(const struct condition_probe *p, enum condition_kind kind,
		      const char *path)
{
	struct stat st;
	bool ok = p->stat(p->ctx, path, &st, kind != CONDITION_PATH_IS_SYMBOLIC_LINK) == 0;

	switch (kind) {
	case CONDITION_PATH_EXISTS:
		return ok;
	case CONDITION_PATH_EXISTS_GLOB:
		return p->glob_any && p->glob_any(p->ctx, path);
	case CONDITION_PATH_IS_DIRECTORY:
		return ok && S_ISDIR(st.st_mode);
	case CONDITION_PATH_IS_SYMBOLIC_LINK:
		return ok && S_ISLNK(st.st_mode);
	case CONDITION_PATH_IS_MOUNT_POINT:
		return mount_point(p, path);
	case CONDITION_PATH_IS_READ_WRITE:
		return ok && p->read_only_fs && p->read_only_fs(p->ctx, path) == 0;
	case CONDITION_PATH_IS_ENCRYPTED:
		return false; /* ember does not look below the file system: see docs */
	case CONDITION_DIRECTORY_NOT_EMPTY:
		return ok && S_ISDIR(st.st_mode) && p->dir_each(p->ctx, path, any_entry, NULL) > 0;
	case CONDITION_FILE_NOT_EMPTY:
		return ok && S_ISREG(st.st_mode) && st.st_size > 0;
	case CONDITION_FILE_IS_EXECUTABLE:
		return ok && S_ISREG(st.st_mode) && (st.st_mode & 0111) &&
		       p->access(p->ctx, path, X_OK) == 0;
	default:
		return false;
	}
}

bool condition_test(const struct condition_probe *p, enum condition_kind kind, const char *value)
{
	bool yes = false;

	switch (kind) {
	case CONDITION_VIRTUALIZATION: return test_virtualization(p, value);
	case CONDITION_KERNEL_COMMAND_LINE: return test_kernel_command_line(p, value);
	case CONDITION_KERNEL_VERSION: return test_kernel_version(p, value);
	case CONDITION_ARCHITECTURE: return test_architecture(p, value);
	case CONDITION_FIRMWARE: return test_firmware(p, value);
	case CONDITION_HOST: return test_host(p, value);
	case CONDITION_SECURITY: return test_security(p, value);
	case CONDITION_CAPABILITY: return test_capability(p, value);
	case CONDITION_AC_POWER:
		return parse_bool(value, &yes) == 0 && on_ac_power(p) == yes;
	case CONDITION_FIRST_BOOT:
		return parse_bool(value, &yes) == 0 && condition_first_boot(p) == yes;
	case CONDITION_NEEDS_UPDATE: return needs_update(p, value);
	case CONDITION_USER: return test_user(p, value);
	case CONDITION_GROUP: return test_group(p, value);
	case CONDITION_CONTROL_GROUP_CONTROLLER: return test_cgroup_controller(p, value);
	case CONDITION_ENVIRONMENT: return test_environment(p, value);
	case CONDITION_CREDENTIAL: return test_credential(p, value);
	case CONDITION_MEMORY: return test_memory(p, value);
	case CONDITION_CPUS: return test_cpus(p, value);
	case CONDITION_CPU_FEATURE: return test_cpu_feature(p, value);
	case CONDITION_OS_RELEASE: return test_os_release(p, value);
	case CONDITION_MEMORY_PRESSURE:
	case CONDITION_CPU_PRESSURE:
	case CONDITION_IO_PRESSURE:
		return true; /* ember does not watch PSI: documented as always holding */
	default:
		return test_path(p, kind, value);
	}
}

/* ---- checking values when the file is read ---------------------------------------------- */

static int check_failed(char *why, size_t size, const char *text)
{
	snprintf(why, size, "%s", text);
	return -1;
}

/* Absolute, and no ".." component: the parser's rule for every path. */
static bool absolute_path(const char *s)
{
	size_t len = strlen(s);
	return s[0] == '/' && !strstr(s, "/../") && !(len >= 3 && strcmp(s + len - 3, "/..") == 0);
}

/* "OP VALUE" words (KernelVersion=) or KEY OP VALUE words (OSRelease=). */
static int check_comparisons(const char *value, bool keyed, char *why, size_t size)
{
	char word[256];
	const char *s = value;

	while (*s) {
		const char *w;
		enum compare_op op;
		while (*s == ' ')
			s++;
		if (!keyed) {
			op = take_op(&s);
			if (!next_word(&s, word, sizeof word))
				return op == OP_NONE ? 0 : check_failed(why, size, "an operator without a version");
			continue;
		}
		if (!next_word(&s, word, sizeof word))
			break;
		w = word + strcspn(word, "=!<>$");
		if (w == word || take_op(&w) == OP_NONE)
			return check_failed(why, size, "expected KEY=VALUE or KEY OP VALUE (OP one of = != < <= > >= $= !$=)");
	}
	return 0;
}

int condition_value_check(enum condition_kind kind, const char *value, char *why, size_t size)
{
	bool b;
	const char *s = value;

	if (kind <= CONDITION_FILE_IS_EXECUTABLE || kind == CONDITION_NEEDS_UPDATE)
		return absolute_path(value) ? 0 : check_failed(why, size, "expected an absolute path");
	if (!*value)
		return check_failed(why, size, "empty value");
	switch (kind) {
	case CONDITION_AC_POWER:
	case CONDITION_FIRST_BOOT:
		return parse_bool(value, &b) == 0 ? 0 : check_failed(why, size, "expected a boolean");
	case CONDITION_CAPABILITY:
		return service_capability_from_name(value) >= 0
			       ? 0 : check_failed(why, size, "unknown capability (expected a CAP_* name)");
	case CONDITION_KERNEL_VERSION:
		return check_comparisons(value, false, why, size);
	case CONDITION_OS_RELEASE:
		return check_comparisons(value, true, why, size);
	case CONDITION_MEMORY:
	case CONDITION_CPUS: {
		unsigned long long n;
		unsigned long u;
		take_op(&s);
		if (kind == CONDITION_MEMORY ? parse_size(s, &n) < 0 : parse_ulong(s, 0, ~0UL, &u) < 0)
			return check_failed(why, size, kind == CONDITION_MEMORY
				? "expected [OP]SIZE such as >=1G" : "expected [OP]COUNT such as >2");
		return 0;
	}
	case CONDITION_CREDENTIAL:
		return strchr(value, '/') ? check_failed(why, size, "a credential name has no '/'") : 0;
	default:
		return 0;
	}
}
