#ifndef EMBER_EMPOWERD_TARGET_H
#define EMBER_EMPOWERD_TARGET_H
/* The command a session will run, found and opened with the caller's filesystem
 * identity (fsuid, fsgid, its real groups): root never looks at a path for someone who
 * could not reach it, and the answer for an unreachable file is the same whether it
 * exists or not. The file is kept as an O_PATH fd and executed through that fd
 * (ember-caps execs /proc/self/fd/N with execveat), so what was checked is what runs. */
#include <stdbool.h>
#include <stddef.h>

#include "peer.h"

#define PATH_MAX_LEN 4096

/* Switch filesystem access to the caller's ids and groups, and back to root. 0 or -1. */
int caller_fs_enter(const struct peer *p);
void caller_fs_leave(void);

/* Open name for execution as the caller: with a '/' relative to base_fd, else searched
 * in ENV_SAFE_PATH. Returns an O_PATH fd (close-on-exec) and the path in path, or -1
 * with errno (ENOENT: not found; EACCES, ENOTDIR, EISDIR...). */
int target_open(int base_fd, const char *name, char *path, size_t size);

/* Every directory on the way to the file fd (its real path) and every component of
 * path as written (symlinks included) is owned by root and writable by nobody else,
 * and so is the file. false with why set otherwise. */
bool target_path_trusted(int fd, const char *path, char *why, size_t size);
#endif
