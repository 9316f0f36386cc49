#ifndef EMBER_MODLOAD_NAMES_H
#define EMBER_MODLOAD_NAMES_H
/* Module names. The kernel treats '-' and '_' in a module name as the same character;
 * ember-modload stores every name with '_'. */
#include <stdbool.h>
#include <stddef.h>

/* Longest name ember-modload accepts from configuration (as systemd-modules-load). */
#define MODNAME_MAX 4096

enum compression { COMP_NONE, COMP_GZIP, COMP_XZ, COMP_ZSTD };

/* '-' -> '_' in place. */
void modname_normalize(char *s);
/* As modname_normalize, but leaves bracket expressions of a wildcard alone
 * ("pci:v*d[0-9]*" keeps its range). */
void alias_normalize(char *s);
/* A requested name must be non-empty, shorter than MODNAME_MAX, and hold no blank or
 * control character and no '/'. */
bool modname_valid(const char *s);
/* "kernel/net/foo-bar.ko.xz" (len bytes) -> "foo_bar". Returns -1 when the path does
 * not name a module file (*.ko, *.ko.gz, *.ko.xz, *.ko.zst) or the name does not fit. */
int modname_from_path(const char *path, size_t len, char *buf, size_t size);
enum compression module_compression(const char *path);
const char *compression_name(enum compression c);
#endif
