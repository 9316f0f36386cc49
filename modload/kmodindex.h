#ifndef EMBER_MODLOAD_KMODINDEX_H
#define EMBER_MODLOAD_KMODINDEX_H
/* Reader for the binary trie depmod writes (modules.dep.bin, modules.alias.bin, ...).
 * Layout, all integers big-endian:
 *   header: u32 magic 0xB007F457, u32 version 0x00020001, u32 root node offset
 *   node offset: low 28 bits = file offset, flag bits PREFIX 0x80000000,
 *     VALUES 0x40000000, CHILDS 0x20000000; offset 0 = no node
 *   node: [prefix string NUL] [u8 first, u8 last, (last-first+1) x u32 child]
 *         [u32 count, count x (u32 priority, value string NUL)]
 * Every read is bounds-checked: a damaged file yields "not found", never a crash. */
#include <stddef.h>

#include "util.h"

struct kmod_index;

/* mmap the file and check its header; NULL with errno (EINVAL: not an index). */
struct kmod_index *kmod_index_open(const char *path);
/* Values stored under exactly key; returns how many were appended. */
size_t kmod_index_get(const struct kmod_index *ix, const char *key, struct strvec *out);
/* Values of every stored pattern (fnmatch) that matches key, plus exact matches. */
size_t kmod_index_match(const struct kmod_index *ix, const char *key, struct strvec *out);
/* Nodes the last kmod_index_match() expanded: never more than the file has bytes. */
unsigned long kmod_index_last_visits(const struct kmod_index *ix);
void kmod_index_close(struct kmod_index *ix);
#endif
