#include "util.h"

#include "exitcode.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void *check_alloc(void *p)
{
	if (!p)
		die(EXIT_SYSTEM, "out of memory");
	return p;
}

void *xmalloc(size_t size) { return check_alloc(malloc(size ? size : 1)); }
void *xcalloc(size_t n, size_t size) { return check_alloc(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t size) { return check_alloc(realloc(p, size ? size : 1)); }
char *xstrdup(const char *s) { return check_alloc(strdup(s)); }
char *xstrndup(const char *s, size_t n) { return check_alloc(strndup(s, n)); }

char *xconcat(const char *first, ...)
{
	va_list ap;
	size_t len = 0;
	char *out, *p;

	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		len += strlen(s);
	va_end(ap);
	out = p = xmalloc(len + 1);
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *)) {
		size_t l = strlen(s);
		memcpy(p, s, l);
		p += l;
	}
	va_end(ap);
	*p = '\0';
	return out;
}

void strvec_push(struct strvec *sv, const char *s)
{
	if (sv->n == sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 8;
		sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
	}
	sv->v[sv->n++] = xstrdup(s);
}

bool strvec_has(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

bool strvec_add_unique(struct strvec *sv, const char *s)
{
	if (strvec_has(sv, s))
		return false;
	strvec_push(sv, s);
	return true;
}

void strvec_free(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* Index of key's slot, or of the empty slot where it belongs. cap is a power of two. */
static size_t strmap_slot(const struct strmap *m, const char *key)
{
	size_t i = (size_t)hash_str(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void strmap_grow(struct strmap *m)
{
	struct strmap bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	bigger.keys = xcalloc(bigger.cap, sizeof *bigger.keys);
	bigger.vals = xcalloc(bigger.cap, sizeof *bigger.vals);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = strmap_slot(&bigger, m->keys[i]);
		bigger.keys[j] = m->keys[i];
		bigger.vals[j] = m->vals[i];
	}
	bigger.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = bigger;
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	i = strmap_slot(m, key);
	if (m->keys[i]) {
		void *old = m->vals[i];
		m->vals[i] = val;
		return old;
	}
	m->keys[i] = xstrdup(key);
	m->vals[i] = val;
	m->n++;
	return NULL;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = strmap_slot(m, key);
	return m->keys[i] ? m->vals[i] : NULL;
}

bool strmap_has(const struct strmap *m, const char *key)
{
	return m->cap && m->keys[strmap_slot(m, key)] != NULL;
}

void strmap_each(const struct strmap *m, void (*fn)(const char *key, void *val, void *ctx), void *ctx)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			fn(m->keys[i], m->vals[i], ctx);
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}

char *read_whole(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	size_t cap, used = 0;
	char *buf;

	if (fd < 0)
		return NULL;
	/* procfs files report size 0: grow as we go, starting from the stat size. */
	cap = (fstat(fd, &st) == 0 && st.st_size > 0) ? (size_t)st.st_size + 1 : 4096;
	if (cap > max + 1)
		cap = max + 1;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t n;
		if (used + 1 >= cap) {
			if (cap > max) {
				free(buf);
				close(fd);
				errno = EFBIG;
				return NULL;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return NULL;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}

long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
