// sources: modload/depindex.c modload/kmodindex.c modload/modprobe.c modload/names.c modload/util.c
/* The module index: modules.dep text, the kmod binary trie, aliases, builtins;
 * damaged and missing files. */
#include "harness.h"
#include "test-modload-fixture.h"

#include "depindex.h"
#include "kmodindex.h"
#include "log.h"

#include <errno.h>
#include <stdint.h>

static void dep_text_indexes_lines(void)
{
	char text[] = "kernel/a.ko: kernel/b-x.ko kernel/c.ko.xz\n"
		      "# comment\n"
		      "\n"
		      "garbage without colon\n"
		      "kernel/notamodule.txt:\n"
		      "kernel/b-x.ko:\n"
		      "other/a.ko: first one wins\n"
		      "kernel/c.ko.xz:";
	struct strmap m = { 0 };
	struct depinfo info;

	CHECK(dep_text_index(text, &m) == 2);
	CHECK(m.n == 3);
	CHECK(depline_parse(strmap_get(&m, "a"), &info));
	CHECK_STR(info.path, "kernel/a.ko");
	CHECK(info.deps.n == 2);
	if (info.deps.n == 2) {
		CHECK_STR(info.deps.v[0], "b_x");
		CHECK_STR(info.paths.v[1], "kernel/c.ko.xz");
	}
	depinfo_free(&info);
	CHECK(strmap_get(&m, "c") != NULL);
	strmap_free(&m);
}

static void depline_skips_junk_and_duplicates(void)
{
	struct depinfo info;
	CHECK(!depline_parse(": x.ko", &info));
	CHECK(depline_parse("a.ko:  b.ko\tjunk b.ko c.ko  ", &info));
	CHECK(info.deps.n == 2);
	depinfo_free(&info);
}

static void dep_text_huge_line(void)
{
	size_t n = 200000;
	char *text = malloc(n * 8 + 64), *p = text;
	struct strmap m = { 0 };
	struct depinfo info;

	p += sprintf(p, "kernel/big.ko:");
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, " d%zu.ko", i % 1000);
	p += sprintf(p, "\nkernel/next.ko:\n");
	CHECK(dep_text_index(text, &m) == 0);
	CHECK(depline_parse(strmap_get(&m, "big"), &info));
	CHECK(info.deps.n == 1000);
	depinfo_free(&info);
	CHECK(strmap_has(&m, "next"));
	strmap_free(&m);
	free(text);
}

static void alias_text_matches_patterns(void)
{
	const char *text = "# Aliases extracted from modules themselves.\n"
			   "alias crypto-crc32c crc32c_generic\n"
			   "alias crypto-crc32c crc32c-intel\n"
			   "alias pci:v00008086d*sv*sd*bc02sc00i* e1000e\n"
			   "alias fs-ext4 ext4\n"
			   "alias broken\n"
			   "alias\n";
	struct strvec out = { 0 };
	CHECK(alias_text_match(text, "crypto_crc32c", &out) == 2);
	CHECK(strvec_has(&out, "crc32c_intel"));
	strvec_free(&out);
	CHECK(alias_text_match(text, "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00", &out) == 1);
	strvec_free(&out);
	CHECK(alias_text_match(text, "fs_ext4", &out) == 1);
	strvec_free(&out);
	CHECK(alias_text_match(text, "broken", &out) == 0);
	strvec_free(&out);
}

/* A hand-built trie: "ab" -> v1, "ac*" -> w. */
struct trie {
	unsigned char b[128];
	size_t len;
};

static void put_u32(struct trie *t, uint32_t v)
{
	t->b[t->len++] = (unsigned char)(v >> 24);
	t->b[t->len++] = (unsigned char)(v >> 16);
	t->b[t->len++] = (unsigned char)(v >> 8);
	t->b[t->len++] = (unsigned char)v;
}

static void put_str(struct trie *t, const char *s)
{
	memcpy(t->b + t->len, s, strlen(s) + 1);
	t->len += strlen(s) + 1;
}

static uint32_t put_value_node(struct trie *t, const char *value)
{
	uint32_t at = (uint32_t)t->len;
	put_u32(t, 1);
	put_u32(t, 0);
	put_str(t, value);
	return at | 0x40000000u;
}

static void build_trie(struct trie *t, bool self_loop)
{
	uint32_t b, star, c, root;
	t->len = 12;
	b = put_value_node(t, "v1");
	star = put_value_node(t, "w");
	c = (uint32_t)t->len | 0x20000000u;
	t->b[t->len++] = '*';
	t->b[t->len++] = '*';
	put_u32(t, self_loop ? c : star);
	root = (uint32_t)t->len | 0x80000000u | 0x20000000u;
	put_str(t, "a");
	t->b[t->len++] = 'b';
	t->b[t->len++] = 'c';
	put_u32(t, b);
	put_u32(t, c);
	{
		size_t end = t->len;
		t->len = 0;
		put_u32(t, 0xB007F457u);
		put_u32(t, 0x00020001u);
		put_u32(t, root);
		t->len = end;
	}
}

static struct kmod_index *open_trie(const struct trie *t, size_t len)
{
	char path[128];
	snprintf(path, sizeof path, "%s/x.bin", fixture_root);
	FILE *f = fopen(path, "w");
	fwrite(t->b, 1, len, f);
	fclose(f);
	return kmod_index_open(path);
}

static void kmod_index_exact_and_wildcard(void)
{
	struct trie t;
	struct strvec out = { 0 };
	struct kmod_index *ix;

	fixture_make();
	build_trie(&t, false);
	ix = open_trie(&t, t.len);
	CHECK(ix != NULL);
	if (ix) {
		CHECK(kmod_index_get(ix, "ab", &out) == 1 && strcmp(out.v[0], "v1") == 0);
		strvec_free(&out);
		CHECK(kmod_index_get(ix, "ac*", &out) == 1);
		strvec_free(&out);
		CHECK(kmod_index_get(ix, "a", &out) == 0);
		CHECK(kmod_index_get(ix, "abc", &out) == 0);
		CHECK(kmod_index_get(ix, "zz", &out) == 0);
		CHECK(kmod_index_match(ix, "acxyz", &out) == 1 && strcmp(out.v[0], "w") == 0);
		strvec_free(&out);
		CHECK(kmod_index_match(ix, "ab", &out) == 1);
		strvec_free(&out);
		CHECK(kmod_index_match(ix, "ad", &out) == 0);
		kmod_index_close(ix);
	}
	fixture_remove();
}

static void kmod_index_damaged_files(void)
{
	struct trie t;
	struct strvec out = { 0 };
	struct kmod_index *ix;

	fixture_make();
	build_trie(&t, false);
	/* Truncated anywhere: opens or not, but never reads past the end. */
	for (size_t len = 0; len < t.len; len++) {
		ix = open_trie(&t, len);
		if (ix) {
			kmod_index_get(ix, "ab", &out);
			kmod_index_match(ix, "acxyz", &out);
			kmod_index_close(ix);
		}
	}
	strvec_free(&out);
	t.b[0] = 0;
	CHECK(open_trie(&t, t.len) == NULL && errno == EINVAL);
	/* A child pointing back at its parent: the walk ends. */
	build_trie(&t, true);
	ix = open_trie(&t, t.len);
	CHECK(ix != NULL);
	if (ix) {
		CHECK(kmod_index_match(ix, "acxyz", &out) == 0);
		CHECK(kmod_index_get(ix, "ac****", &out) == 0);
		kmod_index_close(ix);
	}
	strvec_free(&out);
	fixture_remove();
}

/* 26 bytes: a header and a root whose three children ('*', '+', ',') are the root again.
 * Each wildcard search used to expand 3^depth nodes (a million, seconds per lookup);
 * a node is now expanded at most once, so a search costs at most the file's size. */
static void kmod_index_cyclic_root_bounded_by_size(void)
{
	struct trie t = { .len = 0 };
	struct strvec out = { 0 };
	struct kmod_index *ix;
	uint32_t root = 12 | 0x20000000u;

	fixture_make();
	put_u32(&t, 0xB007F457u);
	put_u32(&t, 0x00020001u);
	put_u32(&t, root);
	t.b[t.len++] = '*';
	t.b[t.len++] = ',';
	for (int i = 0; i < 3; i++)
		put_u32(&t, root);
	CHECK(t.len == 26);
	ix = open_trie(&t, t.len);
	CHECK(ix != NULL);
	if (ix) {
		CHECK(kmod_index_match(ix, "pci:v00008086d00001237", &out) == 0);
		CHECK(kmod_index_last_visits(ix) >= 1);
		CHECK(kmod_index_last_visits(ix) <= t.len);
		CHECK(kmod_index_match(ix, "**", &out) == 0);
		CHECK(kmod_index_last_visits(ix) <= t.len);
		kmod_index_close(ix);
	}
	strvec_free(&out);
	fixture_remove();
}

static void modindex_missing_files(void)
{
	struct modindex ix;
	struct strvec out = { 0 };

	fixture_make();
	errno = 0;
	CHECK(modindex_open(&ix, fixture_root) < 0 && errno == ENOENT);
	fixture_write("modules.dep", "kernel/a.ko:\n");
	CHECK(modindex_open(&ix, fixture_root) == 0);
	/* No alias, builtin or softdep files: lookups just find nothing. */
	CHECK(modindex_alias(&ix, "x", &out) == 0);
	CHECK(!modindex_builtin(&ix, "a"));
	CHECK(modindex_softdep(&ix, "a") == NULL);
	CHECK(modindex_builtin_alias(&ix, "x", &out) == 0);
	modindex_close(&ix);
	fixture_remove();
}

static void modindex_prefers_bin_and_falls_back(void)
{
	struct modindex ix;
	struct depinfo info;

	fixture_make();
	fixture_write("modules.dep", "kernel/a.ko: kernel/b.ko\nkernel/b.ko:\n");
	fixture_write("modules.dep.bin", "not an index");
	CHECK(modindex_open(&ix, fixture_root) == 0);
	CHECK(modindex_dep(&ix, "a", &info) && info.deps.n == 1);
	depinfo_free(&info);
	modindex_close(&ix);
	fixture_remove();
}

static void builtin_and_builtin_aliases(void)
{
	struct modindex ix;
	struct strvec out = { 0 };
	static const char modinfo[] = "ext4.alias=fs-ext4\0ext4.license=GPL\0crc32c.alias=crypto-crc32c\0x";

	fixture_make();
	fixture_write("modules.dep", "");
	fixture_write("modules.builtin", "kernel/fs/ext4/ext4.ko\nkernel/lib/crc-t10dif.ko\nnonsense\n");
	{
		char path[128];
		snprintf(path, sizeof path, "%s/modules.builtin.modinfo", fixture_root);
		FILE *f = fopen(path, "w");
		fwrite(modinfo, 1, sizeof modinfo - 1, f);
		fclose(f);
	}
	CHECK(modindex_open(&ix, fixture_root) == 0);
	CHECK(modindex_builtin(&ix, "ext4"));
	CHECK(modindex_builtin(&ix, "crc_t10dif"));
	CHECK(!modindex_builtin(&ix, "nonsense"));
	CHECK(modindex_builtin_alias(&ix, "fs_ext4", &out) == 1 && strcmp(out.v[0], "ext4") == 0);
	strvec_free(&out);
	modindex_close(&ix);
	fixture_remove();
}

int main(void)
{
	log_open("test-modload-index");
	log_set_level(LOG_LEVEL_ERROR - 1);
	RUN(dep_text_indexes_lines);
	RUN(depline_skips_junk_and_duplicates);
	RUN(dep_text_huge_line);
	RUN(alias_text_matches_patterns);
	RUN(kmod_index_exact_and_wildcard);
	RUN(kmod_index_damaged_files);
	RUN(kmod_index_cyclic_root_bounded_by_size);
	RUN(modindex_missing_files);
	RUN(modindex_prefers_bin_and_falls_back);
	RUN(builtin_and_builtin_aliases);
	return harness_done();
}
