#include "cgroup2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bit-names.h"
#include "io.h"
#include "parse.h"

/* From linux/mount.h, which clashes with <sys/mount.h> on some libcs. */
#define FSOPEN_CLOEXEC_FLAG 0x00000001
#define FSCONFIG_SET_FLAG_CMD 0
#define FSCONFIG_SET_FD_CMD 5
#define CG2_MOUNT_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RELATIME)
#define CG2_FEATURES_FILE "/sys/kernel/cgroup/features"
#define CG2_SUPER_MAGIC 0x63677270 /* linux/magic.h */

static const struct cg_bit_name cg2_names[] = {
	{ CG2_NSDELEGATE, "nsdelegate" },
	{ CG2_MEMORY_RECURSIVEPROT, "memory_recursiveprot" },
	{ CG2_MEMORY_HUGETLB_ACCOUNTING, "memory_hugetlb_accounting" },
};
#define CG2_NAMES_COUNT (sizeof cg2_names / sizeof *cg2_names)

const char *cg2_option_name(unsigned option)
{
	return cg_bit_name(cg2_names, CG2_NAMES_COUNT, option);
}

unsigned cg2_options_parse(const char *opts)
{
	if (strnlen(opts, CG2_OPTIONS_MAX) == CG2_OPTIONS_MAX)
		return 0; /* longer than any option string ember reads: not trusted */
	return cg_bits_named(cg2_names, CG2_NAMES_COUNT, opts, ",\n");
}

/* -1: the kernel cannot tell (no new mount API, or seccomp); else 0/1. */
static int fsconfig_probe(int fsfd, const char *key)
{
	if (syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FLAG_CMD, key, NULL, 0) == 0)
		return 1;
	return errno == EINVAL ? 0 : -1;
}

static int probe_with_fsopen(unsigned wanted, unsigned *supported)
{
	int fsfd = (int)syscall(SYS_fsopen, "cgroup2", FSOPEN_CLOEXEC_FLAG);
	int ok = 0;

	if (fsfd < 0)
		return -1;
	/* A filesystem not converted to the new mount API accepts any flag: a nonsense
	 * option that is not rejected with EINVAL means the answers cannot be trusted. */
	if (fsconfig_probe(fsfd, "ember_no_such_option") != 0) {
		close(fsfd);
		return -1;
	}
	*supported = 0;
	for (size_t i = 0; i < CG2_NAMES_COUNT && ok == 0; i++) {
		int r;
		if (!(wanted & cg2_names[i].bit))
			continue;
		r = fsconfig_probe(fsfd, cg2_names[i].name);
		if (r < 0)
			ok = -1;
		else if (r == 1)
			*supported |= cg2_names[i].bit;
	}
	close(fsfd);
	return ok;
}

unsigned cg2_probe(unsigned wanted)
{
	char features[1024];
	unsigned supported;

	if (probe_with_fsopen(wanted, &supported) == 0)
		return supported;
	if (io_read_file(CG2_FEATURES_FILE, features, sizeof features) >= 0)
		return wanted & cg2_options_parse(features);
	/* Nothing can tell: ask for everything and let the mount fallback sort it out. */
	return wanted;
}

static int unescape_path_cmp(const char *escaped, const char *path)
{
	/* mountinfo escapes space, tab, newline and backslash as \ooo. */
	char buf[4096];
	size_t n = 0;
	for (const char *p = escaped; *p && n + 1 < sizeof buf; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' && p[2] && p[3]) {
			buf[n++] = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return strcmp(buf, path);
}

/* mountinfo: id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
static int mountinfo_match(char *line, const char *path, char *opts, size_t size)
{
	char *save = NULL, *fields[5], *tok;
	int i = 0;

	for (tok = strtok_r(line, " ", &save); tok && i < 5; tok = strtok_r(NULL, " ", &save))
		fields[i++] = tok;
	if (i < 5 || unescape_path_cmp(fields[4], path) != 0)
		return 0;
	while (tok && strcmp(tok, "-") != 0)
		tok = strtok_r(NULL, " ", &save);
	if (!tok)
		return 0;
	tok = strtok_r(NULL, " ", &save); /* fstype */
	if (!tok || strcmp(tok, "cgroup2") != 0)
		return -2; /* the path is mounted, but not as cgroup2 */
	strtok_r(NULL, " ", &save); /* source */
	tok = strtok_r(NULL, " \n", &save);
	if (str_copy(opts, size, tok ? tok : "") < 0)
		opts[0] = '\0';
	return 1;
}

int cg2_mount_options(const char *path, char *opts, size_t size)
{
	char line[8192];
	int found = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -1;
	/* The last matching line is the mount that is visible at `path`. */
	while (fgets(line, sizeof line, f)) {
		int r = mountinfo_match(line, path, opts, size);
		if (r != 0)
			found = r;
	}
	fclose(f);
	return found == 1 ? 1 : 0;
}

static size_t append_option(char *buf, size_t size, size_t len, const char *opt)
{
	int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "", opt);
	if (n < 0 || (size_t)n >= size - len)
		return len;
	return len + (size_t)n;
}

/* The option string for a mount: every option already in effect (so nothing is
 * weakened) plus ember's. Generic flags (rw, nosuid, ...) are not cgroup2 options. */
static void build_options(const char *existing, unsigned bits, char *buf, size_t size)
{
	char copy[CG2_OPTIONS_MAX];
	char *save = NULL;
	size_t len = 0;

	buf[0] = '\0';
	if (existing && str_copy(copy, sizeof copy, existing) == 0) {
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (strcmp(t, "rw") == 0 || strcmp(t, "ro") == 0 || cg2_options_parse(t))
				continue;
			len = append_option(buf, size, len, t);
		}
	}
	for (size_t i = 0; i < CG2_NAMES_COUNT; i++)
		if (bits & cg2_names[i].bit)
			len = append_option(buf, size, len, cg2_names[i].name);
}

/* Drop optional options one at a time, newest kernel feature first. */
static unsigned weaker(unsigned bits)
{
	if (bits & CG2_MEMORY_HUGETLB_ACCOUNTING)
		return bits & ~(unsigned)CG2_MEMORY_HUGETLB_ACCOUNTING;
	if (bits & CG2_MEMORY_RECURSIVEPROT)
		return bits & ~(unsigned)CG2_MEMORY_RECURSIVEPROT;
	return bits & ~(unsigned)CG2_NSDELEGATE;
}

static int mount_with_fallback(const char *path, unsigned long flags, const char *existing,
			       unsigned bits, unsigned floor, unsigned *applied)
{
	char opts[CG2_OPTIONS_MAX];
	for (;;) {
		build_options(existing, bits, opts, sizeof opts);
		if (mount("cgroup2", path, "cgroup2", flags, opts) == 0) {
			*applied = bits;
			return 0;
		}
		if (errno != EINVAL || bits == floor)
			return -1;
		bits = weaker(bits) | floor;
	}
}

bool cg2_is_mounted(const char *path)
{
	struct statfs st;
	return statfs(path, &st) == 0 && st.f_type == CG2_SUPER_MAGIC;
}

/* 1: `path` was a cgroup2 mount, now with as many options as it can have; 0: it is not a
 * mount point (a directory inside one); -1 mountinfo unreadable. */
static int remount_existing(const char *path, unsigned supported, struct cg2_mount_result *res)
{
	char existing[CG2_OPTIONS_MAX];
	unsigned have;
	int found = cg2_mount_options(path, existing, sizeof existing);

	if (found != 1)
		return found;
	have = cg2_options_parse(existing);
	if ((supported & ~have) == 0) {
		res->applied = have;
	} else if (mount_with_fallback(path, MS_REMOUNT | CG2_MOUNT_FLAGS, existing,
				       supported | have, have, &res->applied) == 0) {
		res->remounted = res->applied != have;
	} else {
		res->applied = have;
	}
	if (cg2_mount_options(path, res->options, sizeof res->options) != 1)
		res->options[0] = '\0';
	return 1;
}

int cg2_mount(const char *path, unsigned wanted, struct cg2_mount_result *res)
{
	unsigned supported = cg2_probe(wanted);
	int existing;

	memset(res, 0, sizeof *res);
	/* statfs first: a boot finds nothing mounted, and needs no mountinfo. */
	existing = cg2_is_mounted(path) ? remount_existing(path, supported, res) : 0;

	if (existing < 0)
		return -1;
	if (!existing) {
		if (io_mkdir_p(path, 0755) < 0)
			return -1;
		if (mount_with_fallback(path, CG2_MOUNT_FLAGS, NULL, supported, 0, &res->applied) < 0)
			return -1;
		res->mounted = true;
		/* A new mount in the initial namespace sets the superblock options to exactly
		 * those given (each mount replaces the set; see cgroup2.h). */
		build_options(NULL, res->applied, res->options, sizeof res->options);
	}
	res->applied &= wanted;
	res->missing = wanted & ~res->applied;
	return 0;
}
