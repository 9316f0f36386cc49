#ifndef EMBER_SYSTEMD_VIEW_H
#define EMBER_SYSTEMD_VIEW_H
#include <stddef.h>
/* systemd's sign that it is PID 1, /run/systemd/system/, in a mount namespace of the
 * caller's own: ember never makes that directory (every systemd tool and package script
 * reads it as "use systemd's manager API", which ember does not offer), but systemd's per-
 * user manager refuses to start without it and Debian's rsyslog takes the socket it is
 * handed only with it (sd_booted()). There dir (/run/systemd) is a tmpfs, as large as
 * the real one's file system, holding an empty system/ and, bound in, each entry of the
 * real dir, so what is read and written there is the host's own; nothing of it is seen
 * outside. A dir with a system/ already is left as it is. 0, or -1 with errno. */
int systemd_view(const char *dir);
/* One entry of a real directory (host, an O_PATH fd) in another one (view, its path;
 * view_fd, an fd of it): a directory or a file of any kind is bound onto a stand-in of
 * the same kind, a symbolic link copied. The bind's source is the entry opened without
 * following it, so what is bound is what was looked at. An entry that is not there is
 * left out. 0, or -1 with errno. The view's entries; ember-sandbox's private /dev takes
 * the host's /dev/log, /dev/shm ... so. */
int bind_entry(int host, const char *view, int view_fd, const char *name);
/* The mount point of the mount path lies on (/proc/self/mountinfo). 0, or -1. */
int systemd_view_mount_of(const char *path, char *out, size_t size);
#endif
