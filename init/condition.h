#ifndef EMBER_CONDITION_H
#define EMBER_CONDITION_H
/* Condition*= and Assert*= of [Unit] (systemd.unit(5)): parsing a value and checking it
 * against the running system. docs/services.md lists the kinds and what each tests.
 *
 * Every check asks a probe (struct condition_probe) for the facts it needs, so unit
 * tests run the same logic against a fake system. The real probe reads /proc, /sys and
 * /etc through fixed buffers on the stack: checking a unit's conditions allocates
 * nothing, except PathExistsGlob= (glob(3)).
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>

enum condition_kind {
	CONDITION_PATH_EXISTS, CONDITION_PATH_EXISTS_GLOB, CONDITION_PATH_IS_DIRECTORY,
	CONDITION_PATH_IS_SYMBOLIC_LINK, CONDITION_PATH_IS_MOUNT_POINT,
	CONDITION_PATH_IS_READ_WRITE, CONDITION_PATH_IS_ENCRYPTED,
	CONDITION_DIRECTORY_NOT_EMPTY, CONDITION_FILE_NOT_EMPTY, CONDITION_FILE_IS_EXECUTABLE,
	CONDITION_VIRTUALIZATION, CONDITION_KERNEL_COMMAND_LINE, CONDITION_KERNEL_VERSION,
	CONDITION_ARCHITECTURE, CONDITION_FIRMWARE, CONDITION_HOST, CONDITION_SECURITY,
	CONDITION_CAPABILITY, CONDITION_AC_POWER, CONDITION_FIRST_BOOT,
	CONDITION_NEEDS_UPDATE, CONDITION_USER, CONDITION_GROUP,
	CONDITION_CONTROL_GROUP_CONTROLLER, CONDITION_ENVIRONMENT, CONDITION_CREDENTIAL,
	CONDITION_MEMORY, CONDITION_CPUS, CONDITION_CPU_FEATURE, CONDITION_OS_RELEASE,
	CONDITION_MEMORY_PRESSURE, CONDITION_CPU_PRESSURE, CONDITION_IO_PRESSURE,
	CONDITION_KIND_COUNT
};

/* The kind named by a [Unit] key: "ConditionPathExists" or "AssertPathExists" (then
 * *assert is set). -1 when the key is neither. */
int condition_kind_from_key(const char *key, bool *assert);
/* "PathExists" for CONDITION_PATH_EXISTS: the key without its Condition/Assert prefix. */
const char *condition_kind_name(enum condition_kind kind);

/* Check a value (after "!" and "|" were taken off) when the file is read, so a typo is
 * reported by `emberctl verify` instead of silently failing at boot. Returns 0, or -1
 * with the reason in why. */
int condition_value_check(enum condition_kind kind, const char *value, char *why, size_t size);

/* The facts a check may need. Every function returns -1 (or NULL, false) when the fact
 * is not available; the check then fails closed as systemd's does. ctx is passed back. */
struct condition_probe {
	void *ctx;
	/* Up to size-1 bytes of a file, NUL-terminated: the byte count or -1. */
	ssize_t (*read_file)(void *ctx, const char *path, char *buf, size_t size);
	int (*stat)(void *ctx, const char *path, struct stat *st, bool follow);
	int (*access)(void *ctx, const char *path, int mode);
	/* Calls fn(arg, name) for each entry but "." and ".."; stops at the first non-zero
	 * return and returns it; 0 after the last entry; -1 when path is no directory. */
	int (*dir_each)(void *ctx, const char *path, int (*fn)(void *arg, const char *name),
			void *arg);
	bool (*glob_any)(void *ctx, const char *pattern);
	int (*read_only_fs)(void *ctx, const char *path); /* 1 read-only, 0 writable, -1 */
	const char *(*getenv)(void *ctx, const char *name);
	int (*uname)(void *ctx, struct utsname *u);
	/* The manager's identity: uid, gid and up to max supplementary groups (count). */
	int (*identity)(void *ctx, uid_t *uid, gid_t *gid, gid_t *groups, int max);
	int (*user_id)(void *ctx, const char *name, uid_t *uid);
	int (*group_id)(void *ctx, const char *name, gid_t *gid);
	long (*cpus)(void *ctx); /* CPUs this process may run on */
	/* Is something mounted at path (symlinks followed), a file bind-mounted over
	 * included? NULL: told by the device of path and its parent. */
	bool (*is_mount_point)(void *ctx, const char *path);
};

/* The running system. */
extern const struct condition_probe condition_probe_system;

/* Does the condition hold, before "!" is applied? */
bool condition_test(const struct condition_probe *probe, enum condition_kind kind,
		    const char *value);

/* The detected virtualization: "none", or systemd's id ("kvm", "qemu", "docker", ...);
 * *container tells which family it belongs to. */
const char *condition_detect_virtualization(const struct condition_probe *probe,
					    bool *container);
/* systemd's name for the machine's architecture ("x86-64", "arm64"; uname's own word,
 * copied to buf, when systemd has none), or NULL when uname fails. */
const char *condition_architecture(const struct condition_probe *probe, char *buf,
				   size_t size);
/* First boot: PID 1 found /etc/machine-id missing or "uninitialized" at boot (it made
 * /run/systemd/first-boot, init/machine-id.h), or systemd.condition-first-boot= on the
 * kernel command line says so (systemd's test). */
bool condition_first_boot(const struct condition_probe *probe);
#endif
