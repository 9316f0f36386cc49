#ifndef EMBER_MODLOAD_DEPINDEX_H
#define EMBER_MODLOAD_DEPINDEX_H
/* The module index depmod writes to /lib/modules/RELEASE:
 *   modules.dep       "kernel/x/a.ko: kernel/y/b.ko ..." (every dependency, nearest last)
 *   modules.alias     "alias PATTERN MODULE" (also modules.symbols for "symbol:" names)
 *   modules.softdep   "softdep MODULE pre: ... post: ..."
 *   modules.builtin   "kernel/x/c.ko", modules.builtin.modinfo "c.alias=..." records
 * Files other than modules.dep are read only when a lookup needs them. */
#include <stdbool.h>
#include <stddef.h>

#include "modprobe.h"
#include "util.h"

struct kmod_index;

struct modindex {
	char *dir;
	char *dep_text;          /* modules.dep, lines NUL-terminated in place */
	struct strmap dep_lines; /* name -> line */
	struct kmod_index *dep_bin; /* modules.dep.bin when there is no text file */
	struct kmod_index *alias_bin, *symbols_bin; /* preferred over the text files */
	char *alias_text, *symbols_text;
	bool alias_read, symbols_read;
	struct strmap builtin;   /* name -> non-NULL */
	bool builtin_read;
	char *modinfo;           /* modules.builtin.modinfo, NUL-separated records */
	size_t modinfo_len;
	bool modinfo_read;
	struct modprobe_conf softdeps; /* modules.softdep */
	bool softdeps_read;
};

struct depinfo {
	char *path;           /* as written in modules.dep (relative to dir, or absolute) */
	struct strvec deps;   /* dependency names, normalized */
	struct strvec paths;  /* their paths, same order */
};

/* Read modules.dep (text, else modules.dep.bin). Returns 0, or -1 with errno. */
int modindex_open(struct modindex *ix, const char *dir);
/* Fills info for a module file known to modules.dep; false when unknown. */
bool modindex_dep(struct modindex *ix, const char *name, struct depinfo *info);
/* Parse one modules.dep line ("path: dep dep") into info; false when malformed. */
bool depline_parse(const char *line, struct depinfo *info);
void depinfo_free(struct depinfo *info);
bool modindex_builtin(struct modindex *ix, const char *name);
/* Modules that an alias of modules.alias (or modules.symbols for "symbol:NAME") names;
 * appends, returns how many. */
size_t modindex_alias(struct modindex *ix, const char *name, struct strvec *out);
/* Built-in modules with a matching alias in modules.builtin.modinfo. */
size_t modindex_builtin_alias(struct modindex *ix, const char *name, struct strvec *out);
const struct softdep_rule *modindex_softdep(struct modindex *ix, const char *name);
/* Parse modules.dep text (NUL-terminating lines in place) into name -> line. Returns
 * the number of malformed lines, which are skipped. */
size_t dep_text_index(char *text, struct strmap *lines);
/* Every "alias PATTERN MODULE" line of text whose pattern matches name. */
size_t alias_text_match(const char *text, const char *name, struct strvec *out);
void modindex_close(struct modindex *ix);
#endif
