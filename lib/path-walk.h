#ifndef EMBER_PATH_WALK_H
#define EMBER_PATH_WALK_H
/* Paths root works on where a service's user may write (its StateDirectory=, its
 * LogsDirectory=, a directory it owns on the way): walked from / one component at a
 * time, a symlink followed only when root owns it (Debian's /var/run -> /run, /lib ->
 * usr/lib), one anyone else made refused with ELOOP, so a link planted, or swapped in
 * while root works, cannot point root elsewhere. Each name is looked up once; callers
 * work on the fds. Used by ember-sandbox (binds.c, setup.c) and by PID 1 for the files
 * of StandardInput=/StandardOutput=. -1/errno on failure everywhere. */
#include <stdbool.h>
#include <sys/types.h>

#define PATH_WALK_NAME_MAX 256

/* name in dir: an O_PATH fd of it (of a root-owned symlink's target). directory: it
 * must be one (ENOTDIR). */
int path_walk_component(int dir, const char *name, bool directory);
/* The directory holding path's last component (an O_PATH fd; missing directories made,
 * root's and 0755, when create is set); that component goes to name ("" for "/"). */
int path_walk_parent(const char *path, bool create, char name[static PATH_WALK_NAME_MAX]);
/* path itself, its last component walked too: an O_PATH fd. */
int path_walk_open(const char *path);
/* A service's standard input or output file, opened by root (PID 1) with flags
 * (O_RDONLY, or O_WRONLY with O_APPEND or O_TRUNC; made with mode when missing):
 * walked as above; never blocking (a FIFO with nobody at the other end: ENXIO, where a
 * plain open would hang PID 1); a regular file with more than one link (a hard link to
 * a root file, made where fs.protected_hardlinks is off) refused with EMLINK, and only
 * then truncated. The fd is blocking again. */
int path_walk_open_file(const char *path, int flags, mode_t mode);
#endif
