/* Reading cgroupfs files without trusting their size or shape: line by line through a
 * fixed buffer, strict numbers, keys matched whole. */
#include "cg-service.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bit-names.h"
#include "io.h"

static const struct cg_bit_name controllers[] = {
	{ CG_CTRL_MEMORY, "memory" },
	{ CG_CTRL_PIDS, "pids" },
	{ CG_CTRL_CPU, "cpu" },
	{ CG_CTRL_IO, "io" },
};
#define CONTROLLER_COUNT (sizeof controllers / sizeof *controllers)

const char *cg_controller_name(unsigned controller)
{
	return cg_bit_name(controllers, CONTROLLER_COUNT, controller);
}

unsigned cg_controllers_parse(const char *text)
{
	return cg_bits_named(controllers, CONTROLLER_COUNT, text, " \t\n");
}

int cg_parse_u64(const char *s, size_t len, unsigned long long *out)
{
	unsigned long long v = 0;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned digit = (unsigned char)s[i] - '0';
		if (digit > 9) {
			errno = EINVAL;
			return -1;
		}
		if (v > (~0ULL - digit) / 10) {
			errno = ERANGE;
			return -1;
		}
		v = v * 10 + digit;
	}
	*out = v;
	return 0;
}

int cg_kv_line(const char *line, size_t len, const char *key, unsigned long long *value)
{
	size_t klen = strlen(key);

	if (len <= klen || memcmp(line, key, klen) != 0 || line[klen] != ' ')
		return 0;
	if (cg_parse_u64(line + klen + 1, len - klen - 1, value) < 0) {
		errno = EBADMSG;
		return -1;
	}
	return 1;
}

/* Hand the complete lines in buf[0..*have) to fn and move the rest to the front. */
static int emit_lines(char *buf, size_t *have, bool *skipping, cg_line_fn *fn, void *ctx)
{
	size_t start = 0;

	for (;;) {
		char *nl = memchr(buf + start, '\n', *have - start);
		size_t len;
		int r = 0;

		if (!nl)
			break;
		len = (size_t)(nl - (buf + start));
		*nl = '\0';
		if (!*skipping)
			r = fn(ctx, buf + start, len);
		*skipping = false;
		start += len + 1;
		if (r != 0)
			return r;
	}
	memmove(buf, buf + start, *have - start);
	*have -= start;
	return 0;
}

int cg_read_lines(int fd, char *buf, size_t size, cg_line_fn *fn, void *ctx)
{
	size_t have = 0;
	bool skipping = false; /* inside a line too long for buf: drop up to its '\n' */

	if (size < 2) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		ssize_t n = io_read_full(fd, buf + have, size - 1 - have);
		int r;

		if (n < 0)
			return -1;
		if (n == 0)
			break;
		have += (size_t)n;
		r = emit_lines(buf, &have, &skipping, fn, ctx);
		if (r != 0)
			return r > 0 ? 1 : -1;
		if (have == size - 1) {
			skipping = true;
			have = 0;
		}
	}
	if (have == 0 || skipping)
		return 0;
	buf[have] = '\0';
	switch (fn(ctx, buf, have)) {
	case 0: return 0;
	case 1: return 1;
	default: return -1;
	}
}

struct kv_find {
	const char *key;
	unsigned long long value;
};

static int kv_find_line(void *ctx, char *line, size_t len)
{
	struct kv_find *f = ctx;
	return cg_kv_line(line, len, f->key, &f->value);
}

int cg_kv_read(int fd, const char *key, unsigned long long *value)
{
	char buf[256];
	struct kv_find f = { key, 0 };
	int r = cg_read_lines(fd, buf, sizeof buf, kv_find_line, &f);

	if (r == 1)
		*value = f.value;
	return r;
}

/* getdents64(2) records; <dirent.h>'s opendir() would allocate. */
struct raw_dirent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int visit_entries(int dirfd, const char *buf, long n, cg_child_fn *fn, void *ctx)
{
	for (long off = 0; off < n;) {
		const struct raw_dirent64 *d = (const void *)(buf + off);
		off += d->reclen;
		if (d->type != DT_DIR || strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
			continue;
		if (fn(ctx, dirfd, d->name) < 0)
			return -1;
	}
	return 0;
}

int cg_for_each_child(int dirfd, cg_child_fn *fn, void *ctx)
{
	/* A private fd: reading entries moves the offset of the fd it is done on. */
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_Alignas(struct raw_dirent64) char buf[1024];
	int r = 0, saved;

	if (fd < 0)
		return -1;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0) {
			r = n < 0 ? -1 : 0;
			break;
		}
		if (visit_entries(fd, buf, n, fn, ctx) < 0) {
			r = -1;
			break;
		}
	}
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}
