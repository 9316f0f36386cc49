#include "kmodindex.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define INDEX_MAGIC 0xB007F457u
#define INDEX_VERSION 0x00020001u
#define NODE_PREFIX 0x80000000u
#define NODE_VALUES 0x40000000u
#define NODE_CHILDS 0x20000000u
#define NODE_MASK 0x0FFFFFFFu
/* Bound the walk over a damaged trie: its depth, and no node expanded twice in one
 * wildcard search. A real trie is a tree, so a node reached a second time means the
 * file is cyclic (or shares subtrees): skipping it bounds a search by the number of
 * distinct offsets, i.e. by the file's size. */
#define MAX_DEPTH 4096

/* What the last wildcard search cost; the index itself stays read-only. */
struct walk_stats {
	unsigned long visits;
};

struct kmod_index {
	const unsigned char *base;
	size_t size;
	uint32_t root;
	struct walk_stats *stats;
};

/* One wildcard search: a bit per file offset for the nodes already expanded. */
struct walk {
	const struct kmod_index *ix;
	unsigned char *seen;
	unsigned long visits;
};

/* Mark the node at ref as expanded; false if it already was (or is outside the file). */
static bool first_visit(struct walk *w, uint32_t ref)
{
	size_t off = ref & NODE_MASK;
	unsigned char bit;

	if (off >= w->ix->size)
		return false;
	bit = (unsigned char)(1u << (off % 8));
	if (w->seen[off / 8] & bit)
		return false;
	w->seen[off / 8] |= bit;
	w->visits++;
	return true;
}

/* A decoded node: pointers into the mapping. */
struct node {
	const char *prefix;
	unsigned first, last;
	size_t children; /* offset of the child table */
	size_t values;   /* offset of the value count, 0 if none */
};

static bool read_u32(const struct kmod_index *ix, size_t off, uint32_t *v)
{
	const unsigned char *p = ix->base + off;
	if (off > ix->size || ix->size - off < 4)
		return false;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return true;
}

/* The NUL-terminated string at off, or NULL if it runs off the end. */
static const char *read_str(const struct kmod_index *ix, size_t off, size_t *len)
{
	const char *s = (const char *)ix->base + off;
	const char *nul;
	if (off >= ix->size)
		return NULL;
	nul = memchr(s, '\0', ix->size - off);
	if (!nul)
		return NULL;
	*len = (size_t)(nul - s);
	return s;
}

static bool read_node(const struct kmod_index *ix, uint32_t ref, struct node *n)
{
	size_t off = ref & NODE_MASK, len;

	memset(n, 0, sizeof *n);
	n->prefix = "";
	if (off == 0)
		return false;
	if (ref & NODE_PREFIX) {
		n->prefix = read_str(ix, off, &len);
		if (!n->prefix)
			return false;
		off += len + 1;
	}
	if (ref & NODE_CHILDS) {
		if (off + 2 > ix->size)
			return false;
		n->first = ix->base[off];
		n->last = ix->base[off + 1];
		if (n->last < n->first)
			return false;
		n->children = off + 2;
		off += 2 + 4 * (size_t)(n->last - n->first + 1);
		if (off > ix->size)
			return false;
	} else {
		n->first = 1;
		n->last = 0; /* no children */
	}
	if (ref & NODE_VALUES)
		n->values = off;
	return true;
}

static uint32_t child_ref(const struct kmod_index *ix, const struct node *n, unsigned ch)
{
	uint32_t ref = 0;
	if (ch < n->first || ch > n->last)
		return 0;
	read_u32(ix, n->children + 4 * (size_t)(ch - n->first), &ref);
	return ref;
}

static size_t push_values(const struct kmod_index *ix, const struct node *n, struct strvec *out)
{
	uint32_t count;
	size_t off = n->values, added = 0;

	if (!off || !read_u32(ix, off, &count))
		return 0;
	off += 4;
	for (uint32_t i = 0; i < count; i++) {
		size_t len;
		const char *s = read_str(ix, off + 4, &len);
		if (!s)
			break;
		if (strvec_add_unique(out, s))
			added++;
		off += 4 + len + 1;
	}
	return added;
}

struct kmod_index *kmod_index_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct kmod_index *ix;
	struct stat st;
	uint32_t magic = 0, version = 0;
	void *map;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size < 12) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	ix = xcalloc(1, sizeof *ix);
	ix->stats = xcalloc(1, sizeof *ix->stats);
	ix->base = map;
	ix->size = (size_t)st.st_size;
	if (!read_u32(ix, 0, &magic) || !read_u32(ix, 4, &version) || !read_u32(ix, 8, &ix->root) ||
	    magic != INDEX_MAGIC || version >> 16 != INDEX_VERSION >> 16) {
		kmod_index_close(ix);
		errno = EINVAL;
		return NULL;
	}
	return ix;
}

size_t kmod_index_get(const struct kmod_index *ix, const char *key, struct strvec *out)
{
	uint32_t ref = ix->root;
	size_t i = 0;

	for (unsigned depth = 0; depth < MAX_DEPTH; depth++) {
		struct node n;
		size_t plen;
		if (!read_node(ix, ref, &n))
			return 0;
		plen = strlen(n.prefix);
		if (strncmp(n.prefix, key + i, plen) != 0)
			return 0;
		i += plen;
		if (key[i] == '\0')
			return push_values(ix, &n, out);
		ref = child_ref(ix, &n, (unsigned char)key[i]);
		i++;
	}
	return 0;
}

static bool is_wild(int ch)
{
	return ch == '*' || ch == '?' || ch == '[';
}

#define PATTERN_MAX 4096

/* Walk every key below ref (from offset j of its prefix on), building it in pat after
 * plen bytes, and take the values of those that match subkey as a pattern. */
static size_t match_all(struct walk *w, uint32_t ref, size_t j, char *pat, size_t plen,
			const char *subkey, struct strvec *out, unsigned depth)
{
	const struct kmod_index *ix = w->ix;
	struct node n;
	size_t len, added = 0;

	if (depth > MAX_DEPTH || !first_visit(w, ref) || !read_node(ix, ref, &n))
		return 0;
	len = strlen(n.prefix);
	if (j > len)
		return 0;
	len -= j;
	if (plen + len + 2 > PATTERN_MAX)
		return 0;
	memcpy(pat + plen, n.prefix + j, len);
	plen += len;
	for (unsigned ch = n.first; ch <= n.last; ch++) {
		uint32_t child = child_ref(ix, &n, ch);
		if (!child)
			continue;
		pat[plen] = (char)ch;
		added += match_all(w, child, 0, pat, plen + 1, subkey, out, depth + 1);
	}
	pat[plen] = '\0';
	if (n.values && fnmatch(pat, subkey, 0) == 0)
		added += push_values(ix, &n, out);
	return added;
}

static size_t match_walk(struct walk *w, const char *key, struct strvec *out)
{
	const struct kmod_index *ix = w->ix;
	char pat[PATTERN_MAX];
	uint32_t ref = ix->root;
	size_t i = 0, added = 0;

	/* Bounded by the key: every step consumes at least one of its bytes. */
	for (unsigned depth = 0; depth < MAX_DEPTH; depth++) {
		struct node n;
		size_t j;
		if (!read_node(ix, ref, &n))
			return added;
		for (j = 0; n.prefix[j]; j++) {
			if (is_wild((unsigned char)n.prefix[j]))
				return added + match_all(w, ref, j, pat, 0, key + i + j, out, 0);
			if (n.prefix[j] != key[i + j])
				return added;
		}
		i += j;
		/* Patterns whose wildcard starts right here. */
		for (unsigned ch = n.first; ch <= n.last; ch++) {
			uint32_t child = is_wild((int)ch) ? child_ref(ix, &n, ch) : 0;
			if (!child)
				continue;
			pat[0] = (char)ch;
			added += match_all(w, child, 0, pat, 1, key + i, out, 0);
		}
		if (key[i] == '\0')
			return added + push_values(ix, &n, out);
		ref = child_ref(ix, &n, (unsigned char)key[i]);
		i++;
	}
	return added;
}

size_t kmod_index_match(const struct kmod_index *ix, const char *key, struct strvec *out)
{
	struct walk w = { .ix = ix, .seen = xcalloc(ix->size / 8 + 1, 1) };
	size_t added = match_walk(&w, key, out);

	free(w.seen);
	ix->stats->visits = w.visits;
	return added;
}

unsigned long kmod_index_last_visits(const struct kmod_index *ix)
{
	return ix->stats->visits;
}

void kmod_index_close(struct kmod_index *ix)
{
	if (!ix)
		return;
	munmap((void *)ix->base, ix->size);
	free(ix->stats);
	free(ix);
}
