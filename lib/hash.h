#ifndef EMBER_HASH_H
#define EMBER_HASH_H
/* FNV-1a: a short, stable hash of text. Its values are kept in nothing on disk, but two
 * of them must not change between builds: a dynamic user's name and UID, and a timer's
 * FixedRandomDelay=, are drawn from them. Not for anything an attacker must not steer. */
#include <stddef.h>
#include <stdint.h>

#define HASH_FNV32_START 2166136261u
#define HASH_FNV64_START 0xcbf29ce484222325ull

/* Hash len bytes of s into h, which is a start value above or an earlier result. */
uint32_t hash_fnv32(uint32_t h, const char *s, size_t len);
uint64_t hash_fnv64(uint64_t h, const char *s, size_t len);
#endif
