#include "depindex.h"

#include "kmodindex.h"
#include "log.h"
#include "names.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Index files are trusted more than configuration but still bounded. */
#define INDEX_MAX (256u << 20)

static char *read_index(const struct modindex *ix, const char *file, size_t *len)
{
	char *path = xconcat(ix->dir, "/", file, NULL);
	char *text = read_whole(path, INDEX_MAX, len);
	if (!text && errno != ENOENT)
		log_warn("%s: cannot read: %s", path, strerror(errno));
	free(path);
	return text;
}

size_t dep_text_index(char *text, struct strmap *lines)
{
	size_t bad = 0;
	char name[MODNAME_MAX];

	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n'), *colon;
		if (nl)
			*nl = '\0';
		colon = strchr(line, ':');
		if (line[0] == '#' || line[0] == '\0') {
			/* comment or blank line */
		} else if (!colon || modname_from_path(line, (size_t)(colon - line), name, sizeof name) < 0) {
			bad++;
		} else if (!strmap_has(lines, name)) {
			strmap_put(lines, name, line);
		}
		line = nl ? nl + 1 : NULL;
	}
	return bad;
}

/* The binary index answers a lookup by touching a few pages; the text file must be
 * read whole. Prefer the binary one, fall back to text when it is absent or damaged. */
int modindex_open(struct modindex *ix, const char *dir)
{
	char *bin = xconcat(dir, "/modules.dep.bin", NULL);

	memset(ix, 0, sizeof *ix);
	ix->dir = xstrdup(dir);
	ix->dep_bin = kmod_index_open(bin);
	free(bin);
	if (ix->dep_bin)
		return 0;
	ix->dep_text = read_index(ix, "modules.dep", NULL);
	if (ix->dep_text) {
		size_t bad = dep_text_index(ix->dep_text, &ix->dep_lines);
		if (bad)
			log_warn("%s/modules.dep: %zu malformed lines skipped", dir, bad);
		return 0;
	}
	{
		int saved = errno ? errno : ENOENT;
		modindex_close(ix);
		errno = saved;
	}
	return -1;
}

bool depline_parse(const char *line, struct depinfo *info)
{
	const char *colon = strchr(line, ':'), *p;
	char name[MODNAME_MAX];

	memset(info, 0, sizeof *info);
	if (!colon || colon == line)
		return false;
	info->path = xstrndup(line, (size_t)(colon - line));
	for (p = colon + 1; *p;) {
		size_t len;
		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t\r\n");
		if (len == 0)
			break;
		if (modname_from_path(p, len, name, sizeof name) == 0 && strvec_add_unique(&info->deps, name)) {
			char *path = xstrndup(p, len);
			strvec_push(&info->paths, path);
			free(path);
		}
		p += len;
	}
	return true;
}

void depinfo_free(struct depinfo *info)
{
	free(info->path);
	strvec_free(&info->deps);
	strvec_free(&info->paths);
	memset(info, 0, sizeof *info);
}

bool modindex_dep(struct modindex *ix, const char *name, struct depinfo *info)
{
	if (ix->dep_text) {
		const char *line = strmap_get(&ix->dep_lines, name);
		return line && depline_parse(line, info);
	}
	if (ix->dep_bin) {
		struct strvec values = { 0 };
		bool ok = kmod_index_get(ix->dep_bin, name, &values) > 0 && depline_parse(values.v[0], info);
		strvec_free(&values);
		return ok;
	}
	return false;
}

static void read_builtin(struct modindex *ix)
{
	char *text = read_index(ix, "modules.builtin", NULL);
	char name[MODNAME_MAX];

	ix->builtin_read = true;
	if (!text)
		return;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (modname_from_path(line, len, name, sizeof name) == 0)
			strmap_put(&ix->builtin, name, ix);
		line = nl ? nl + 1 : NULL;
	}
	free(text);
}

bool modindex_builtin(struct modindex *ix, const char *name)
{
	if (!ix->builtin_read)
		read_builtin(ix);
	return strmap_has(&ix->builtin, name);
}

/* Patterns may be long; match through a normalized copy. */
static bool alias_matches(const char *pattern, size_t len, const char *name)
{
	char small[256], *copy = len < sizeof small ? small : xmalloc(len + 1);
	bool match;

	/* Cheap reject: a literal first character must equal the name's. */
	if (strchr("*?[\\", pattern[0]) == NULL && pattern[0] != name[0] &&
	    !(pattern[0] == '-' && name[0] == '_')) {
		if (copy != small)
			free(copy);
		return false;
	}
	memcpy(copy, pattern, len);
	copy[len] = '\0';
	alias_normalize(copy);
	match = fnmatch(copy, name, 0) == 0;
	if (copy != small)
		free(copy);
	return match;
}

size_t alias_text_match(const char *text, const char *name, struct strvec *out)
{
	size_t found = 0;

	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n'), *pat, *mod;
		size_t plen, mlen;

		if (strncmp(line, "alias ", 6) != 0)
			goto next;
		pat = line + 6;
		pat += strspn(pat, " \t");
		plen = strcspn(pat, " \t\n");
		mod = pat + plen;
		mod += strspn(mod, " \t");
		mlen = strcspn(mod, " \t\r\n");
		if (plen == 0 || mlen == 0 || mlen >= MODNAME_MAX)
			goto next;
		if (alias_matches(pat, plen, name)) {
			char *module = xstrndup(mod, mlen);
			modname_normalize(module);
			if (strvec_add_unique(out, module))
				found++;
			free(module);
		}
next:
		line = nl ? nl + 1 : NULL;
	}
	return found;
}

/* modules.builtin.modinfo holds "module.alias=PATTERN" records for built-in modules. */
size_t modindex_builtin_alias(struct modindex *ix, const char *name, struct strvec *out)
{
	size_t found = 0;

	if (!ix->modinfo_read) {
		ix->modinfo = read_index(ix, "modules.builtin.modinfo", &ix->modinfo_len);
		ix->modinfo_read = true;
	}
	for (size_t off = 0; ix->modinfo && off < ix->modinfo_len;) {
		const char *rec = ix->modinfo + off, *dot = strchr(rec, '.');
		size_t len = strlen(rec);
		if (dot && strncmp(dot, ".alias=", 7) == 0 && alias_matches(dot + 7, strlen(dot + 7), name)) {
			char *module = xstrndup(rec, (size_t)(dot - rec));
			modname_normalize(module);
			if (strvec_add_unique(out, module))
				found++;
			free(module);
		}
		off += len + 1;
	}
	return found;
}

/* Open FILE.bin, else read FILE: the binary trie answers without reading it all. */
static void read_alias_file(struct modindex *ix, const char *file, struct kmod_index **bin, char **text)
{
	char *path = xconcat(ix->dir, "/", file, ".bin", NULL);
	*bin = kmod_index_open(path);
	free(path);
	if (!*bin)
		*text = read_index(ix, file, NULL);
}

static size_t alias_lookup(struct kmod_index *bin, const char *text, const char *name, struct strvec *out)
{
	struct strvec found = { 0 };
	size_t added = 0;

	if (bin)
		kmod_index_match(bin, name, &found);
	else if (text)
		alias_text_match(text, name, &found);
	for (size_t i = 0; i < found.n; i++) {
		modname_normalize(found.v[i]);
		if (strvec_add_unique(out, found.v[i]))
			added++;
	}
	strvec_free(&found);
	return added;
}

size_t modindex_alias(struct modindex *ix, const char *name, struct strvec *out)
{
	if (strncmp(name, "symbol:", 7) == 0) {
		if (!ix->symbols_read) {
			read_alias_file(ix, "modules.symbols", &ix->symbols_bin, &ix->symbols_text);
			ix->symbols_read = true;
		}
		return alias_lookup(ix->symbols_bin, ix->symbols_text, name, out);
	}
	if (!ix->alias_read) {
		read_alias_file(ix, "modules.alias", &ix->alias_bin, &ix->alias_text);
		ix->alias_read = true;
	}
	return alias_lookup(ix->alias_bin, ix->alias_text, name, out);
}

const struct softdep_rule *modindex_softdep(struct modindex *ix, const char *name)
{
	if (!ix->softdeps_read) {
		char *text = read_index(ix, "modules.softdep", NULL);
		ix->softdeps_read = true;
		if (text) {
			char *file = xconcat(ix->dir, "/modules.softdep", NULL);
			modprobe_conf_parse(text, file, &ix->softdeps);
			free(file);
			free(text);
		}
	}
	return modprobe_softdep(&ix->softdeps, name);
}

void modindex_close(struct modindex *ix)
{
	free(ix->dir);
	free(ix->dep_text);
	strmap_free(&ix->dep_lines);
	if (ix->dep_bin)
		kmod_index_close(ix->dep_bin);
	if (ix->alias_bin)
		kmod_index_close(ix->alias_bin);
	if (ix->symbols_bin)
		kmod_index_close(ix->symbols_bin);
	free(ix->alias_text);
	free(ix->symbols_text);
	strmap_free(&ix->builtin);
	free(ix->modinfo);
	modprobe_conf_free(&ix->softdeps);
	memset(ix, 0, sizeof *ix);
}
