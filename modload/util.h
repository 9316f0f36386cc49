#ifndef EMBER_MODLOAD_UTIL_H
#define EMBER_MODLOAD_UTIL_H
/* Small containers for ember-modload: a string vector, a string-keyed hash map and
 * whole-file reading. ember-modload is not PID 1: running out of memory is fatal
 * (EXIT_SYSTEM), so callers never check the x* helpers. */
#include <stdbool.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* "a" + "b" + "c" (NULL ends the list), freshly allocated. */
char *xconcat(const char *first, ...);

struct strvec {
	char **v;
	size_t n, cap;
};
void strvec_push(struct strvec *sv, const char *s); /* copies s */
bool strvec_has(const struct strvec *sv, const char *s);
/* Push unless already present; returns true when added. */
bool strvec_add_unique(struct strvec *sv, const char *s);
void strvec_free(struct strvec *sv);

/* Open addressing, FNV-1a. Keys are copied; values are the caller's. */
struct strmap {
	char **keys;
	void **vals;
	size_t cap, n;
};
/* Returns the previous value (NULL if none) and keeps the first key. */
void *strmap_put(struct strmap *m, const char *key, void *val);
void *strmap_get(const struct strmap *m, const char *key);
bool strmap_has(const struct strmap *m, const char *key);
/* Visit every entry (order unspecified). */
void strmap_each(const struct strmap *m, void (*fn)(const char *key, void *val, void *ctx), void *ctx);
void strmap_free(struct strmap *m);

/* Read a whole file (at most max bytes) into a NUL-terminated malloc'd buffer.
 * Returns NULL with errno set (EFBIG when the file is larger than max). */
char *read_whole(const char *path, size_t max, size_t *len);

/* Monotonic clock in microseconds. */
long long now_us(void);
#endif
