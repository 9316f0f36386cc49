/* BindPaths=, BindReadOnlyPaths=, NoExecPaths=, ExecPaths= (systemd.exec(5)).
 *
 * A source is opened (O_PATH) before the sandbox mounts anything, so it is the file the
 * host has there even where PrivateDevices= or PrivateTmp= later put a fresh /dev or
 * /tmp over it, and a detached copy of its mounts is taken then (open_tree(2)), so each
 * keeps the access the host gave it whatever the read-only passes do to this
 * namespace's tree; the copy is moved onto the destination (on kernels before 5.2 it is
 * bound from /proc/self/fd). A missing destination is made as
 * systemd makes it (a directory, or an empty file for anything else), first on the real
 * file system while that is still writable, and again just before the bind if a fresh
 * tmpfs came over it. Binds come after the read-only passes, so each keeps the access it
 * asked for: BindPaths= writable, BindReadOnlyPaths= read-only, with what is below it
 * for rbind (the default). NoExecPaths= and ExecPaths= come last of all, on the tree as
 * the service will see it.
 *
 * A name is looked up once: the service's user may swap one in a directory it owns for
 * a symlink at any moment (to /, say). So paths are walked component by component,
 * following only root's symlinks, and every later step works on what was opened: the
 * bind onto the opened destination (before Linux 5.2, its access on the new mount's root
 * found again and checked to be the source), ExecPaths= on a clone of the opened tree. See
 * ember-sandbox(8). */
#include "setup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec-context.h"
#include "path-walk.h"

#define BIND_PATH_MAX 4096

/* The new mount API (Linux 5.2), declared here: libc headers do not all have it. */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#define SB_OPEN_TREE_CLONE 1
#define SB_AT_EMPTY_PATH 0x1000
#define SB_AT_RECURSIVE 0x8000
#define SB_MOVE_MOUNT_F_EMPTY_PATH 0x4
#define SB_MOVE_MOUNT_T_EMPTY_PATH 0x40

static int failed(struct sandbox_error *e, const char *path)
{
	e->op = EXEC_SANDBOX_BIND;
	e->err = errno;
	e->path = path;
	return -1;
}

static bool clean_absolute(const char *p, size_t len)
{
	if (len == 0 || p[0] != '/' || len >= BIND_PATH_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (p[i] == '/' && i + 1 < len && p[i + 1] == '.' &&
		    (i + 2 == len || p[i + 2] == '/' ||
		     (p[i + 2] == '.' && (i + 3 == len || p[i + 3] == '/'))))
			return false;
	return true;
}

/* Absolute, and no "." or ".." component: systemd refuses such a path in a unit ("not
 * normalized"), and a ".." after a directory the service's user owns lands wherever that
 * user moves the directory to. */
bool sandbox_path_clean(const char *path)
{
	return clean_absolute(path, strlen(path));
}

/* The strings point into value (an argv string): split in place at the colons. */
int sandbox_bind_option(struct sandbox_binds *b, const char *value, bool read_only)
{
	struct sandbox_bind *it;
	char *s = (char *)value, *dst, *opts;

	if (b->count >= SANDBOX_PATHS_MAX)
		return -1;
	it = &b->item[b->count];
	*it = (struct sandbox_bind){ .optional = *s == '-', .recursive = true,
				     .read_only = read_only, .fd = -1, .tree = -1 };
	s += it->optional;
	dst = strchr(s, ':');
	opts = dst ? strchr(dst + 1, ':') : NULL;
	if (dst)
		*dst++ = '\0';
	if (opts)
		*opts++ = '\0';
	if (!clean_absolute(s, strlen(s)) || (dst && !clean_absolute(dst, strlen(dst))))
		return -1;
	if (opts && strcmp(opts, "norbind") == 0)
		it->recursive = false;
	else if (opts && strcmp(opts, "rbind") != 0)
		return -1;
	it->src = s;
	it->dst = dst ? dst : s;
	b->count++;
	return 0;
}

/* A missing destination: a directory, or an empty file; one that is there is kept. */
static int make_leaf(int dir, const char *name, bool directory)
{
	int fd;

	if (directory)
		return mkdirat(dir, name, 0755) < 0 && errno != EEXIST ? -1 : 0;
	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno == EEXIST ? 0 : -1;
	close(fd);
	return 0;
}

/* name in dir, never followed (a symlink there is refused): an O_PATH fd of it, or of
 * the root of what is mounted on it. */
static int open_leaf(int dir, const char *name)
{
	struct stat st;
	int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

/* The destination's directory (an O_PATH fd; the last component in name), with the
 * destination made there when missing, as systemd makes it: a directory for a directory
 * source, an empty file otherwise. */
static int make_destination(const char *dst, bool directory, char name[static PATH_WALK_NAME_MAX])
{
	int dir = path_walk_parent(dst, true, name);

	if (dir >= 0 && make_leaf(dir, name, directory) < 0) {
		close(dir);
		return -1;
	}
	return dir;
}

/* A copy of the source's mounts, taken before the read-only passes and never attached
 * to this namespace's tree until it is moved onto its destination: every mount in it
 * keeps the access the host gave it (a writable bind turns nothing writable that the
 * host made read-only), and a read-only bind is made so before it is attached, with no
 * name looked up again. ENOSYS (before Linux 5.2): the bind is made from the fd later. */
static int detach_source(struct sandbox_bind *it)
{
	it->tree = (int)syscall(SYS_open_tree, it->fd, "", SB_OPEN_TREE_CLONE | O_CLOEXEC |
				SB_AT_EMPTY_PATH | (it->recursive ? SB_AT_RECURSIVE : 0));
	if (it->tree < 0)
		return errno == ENOSYS ? 0 : -1;
	if (!it->read_only ||
	    sandbox_mount_attr(it->tree, "", SANDBOX_ATTR_RDONLY, 0, it->recursive) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	close(it->tree); /* 5.2 to 5.11: bound from the fd and remounted read-only after */
	it->tree = -1;
	return 0;
}

int sandbox_binds_open(struct sandbox_binds *b, struct sandbox_error *e)
{
	for (size_t i = 0; i < b->count; i++) {
		struct sandbox_bind *it = &b->item[i];
		char name[PATH_WALK_NAME_MAX];
		struct stat st;
		struct statvfs vfs;

		/* walked: a symlink the service's user planted or swapped in (to /, say) would
		 * be bound writable under ProtectSystem=strict */
		it->fd = path_walk_open(it->src);
		if (it->fd < 0) {
			if (it->optional && errno == ENOENT)
				continue;
			return failed(e, it->src);
		}
		/* as the host has it, before the read-only passes change this namespace's copy */
		it->src_read_only = fstatvfs(it->fd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY);
		if (detach_source(it) < 0)
			return failed(e, it->src);
		/* made now, while the file system is still writable; again below if a fresh
		 * tmpfs comes over it */
		if (fstat(it->fd, &st) == 0) {
			int dir = make_destination(it->dst, S_ISDIR(st.st_mode), name);
			if (dir >= 0)
				close(dir);
		}
	}
	return 0;
}

static const char *proc_fd(char path[static 32], int fd)
{
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	return path;
}

/* The source bound onto the opened destination, not onto a name: the detached copy moved
 * there, or (before Linux 5.2) a bind from the source's fd. */
static int mount_onto(const struct sandbox_bind *it, int dir, const char *name)
{
	char src[32], dst[32];
	int fd = open_leaf(dir, name), r, err;

	if (fd < 0)
		return -1;
	if (it->tree >= 0)
		r = (int)syscall(SYS_move_mount, it->tree, "", fd, "",
				 SB_MOVE_MOUNT_F_EMPTY_PATH | SB_MOVE_MOUNT_T_EMPTY_PATH);
	else
		r = mount(proc_fd(src, it->fd), proc_fd(dst, fd), NULL,
			  MS_BIND | (it->recursive ? MS_REC : 0), NULL);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

/* BindReadOnlyPaths=: read-only with everything below. BindPaths=: the top writable
 * again (the read-only passes made this namespace's copy of the source read-only), unless
 * the host had it read-only; what is mounted below keeps its own access, so a mount the
 * host made read-only under the source stays so. */
static int bind_access(const struct sandbox_bind *it, int fd)
{
	if (it->read_only)
		return sandbox_mount_attr(fd, "", SANDBOX_ATTR_RDONLY, 0, it->recursive);
	if (it->src_read_only)
		return 0;
	return sandbox_mount_attr(fd, "", 0, SANDBOX_ATTR_RDONLY, false);
}

/* The new mount's access, set through an fd of its root found again from the directory
 * holding it and checked to be the source: the name alone could have been swapped
 * meanwhile (a symlink to / in a directory the service's user owns), and the access
 * would go to another mount, / made writable under ProtectSystem=strict. */
static int set_access(const struct sandbox_bind *it, int dir, const char *name,
		      const struct stat *src)
{
	char path[32];
	struct stat st;
	int fd = open_leaf(dir, name), r, err;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || st.st_dev != src->st_dev || st.st_ino != src->st_ino) {
		close(fd);
		errno = ELOOP; /* something else came in its place */
		return -1;
	}
	r = bind_access(it, fd);
	if (r < 0 && errno == ENOSYS) /* before Linux 5.12: the top mount only */
		r = mount(NULL, proc_fd(path, fd), NULL,
			  MS_REMOUNT | MS_BIND | (it->read_only || it->src_read_only ? MS_RDONLY : 0),
			  NULL);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

static int bind_one(const struct sandbox_bind *it, struct sandbox_error *e)
{
	char name[PATH_WALK_NAME_MAX];
	struct stat src;
	int dir, r;

	if (fstat(it->fd, &src) < 0 ||
	    (dir = make_destination(it->dst, S_ISDIR(src.st_mode), name)) < 0)
		return failed(e, it->dst);
	r = mount_onto(it, dir, name);
	/* a detached copy already has its access, unless mount_setattr(2) was missing */
	if (r == 0 && it->tree < 0)
		r = set_access(it, dir, name, &src);
	if (r < 0)
		failed(e, it->dst);
	close(dir);
	return r;
}

int sandbox_binds_mount(const struct sandbox_binds *b, struct sandbox_error *e)
{
	for (size_t i = 0; i < b->count; i++)
		if (b->item[i].fd >= 0 && bind_one(&b->item[i], e) < 0)
			return -1;
	return 0;
}

/* Before Linux 5.12 (no mount_setattr): from (an O_PATH fd) bound onto the opened path
 * (onto), and the bind given flags by a remount, on an fd of its root found again and
 * checked to be from (a remount of anything but a mount root fails). */
static int remount_walked(int from, int onto, const char *path, unsigned long flags)
{
	char a[32], b[32];
	struct stat was, now;
	int root, r, err;

	if (fstat(from, &was) < 0 ||
	    mount(proc_fd(a, from), proc_fd(b, onto), NULL, MS_BIND | MS_REC, NULL) < 0)
		return -1;
	if ((root = path_walk_open(path)) < 0)
		return -1;
	r = fstat(root, &now);
	if (r == 0 && (now.st_dev != was.st_dev || now.st_ino != was.st_ino)) {
		errno = ELOOP; /* something else came in its place */
		r = -1;
	}
	if (r == 0)
		r = mount(NULL, proc_fd(a, root), NULL, MS_REMOUNT | MS_BIND | flags, NULL);
	err = errno;
	close(root);
	errno = err;
	return r;
}

/* A detached copy of the mount of the opened object from (and of the mounts below it, when
 * recursive) gets the attributes set, loses clear, and is then moved onto the opened
 * object onto (open_tree, mount_setattr, move_mount): no name is looked up again. */
static int attach_copy(int from, int onto, uint64_t set, uint64_t clear, bool recursive)
{
	int tree = (int)syscall(SYS_open_tree, from, "", SB_OPEN_TREE_CLONE | O_CLOEXEC |
				SB_AT_EMPTY_PATH | (recursive ? SB_AT_RECURSIVE : 0));
	int r, err;

	if (tree < 0)
		return -1;
	r = sandbox_mount_attr(tree, "", set, clear, recursive);
	if (r == 0)
		r = (int)syscall(SYS_move_mount, tree, "", onto, "",
				 SB_MOVE_MOUNT_F_EMPTY_PATH | SB_MOVE_MOUNT_T_EMPTY_PATH);
	err = errno;
	close(tree);
	errno = err;
	return r;
}

/* path (a symlink on it followed only when root owns it: Debian's /lib) gets the mount
 * attributes set and loses clear, with what is below it. Worked on the opened object: a
 * mount root is changed as it is; anything else gets a mount of its own, a copy of its
 * tree set up before it is attached. */
int sandbox_path_attr(const char *path, uint64_t set, uint64_t clear)
{
	int fd = path_walk_open(path), r, err;

	if (fd < 0)
		return -1;
	r = sandbox_mount_attr(fd, "", set, clear, true);
	if (r < 0 && errno == EINVAL) /* not a mount root */
		r = attach_copy(fd, fd, set, clear, true);
	/* ENOSYS: read-only or writable still can be done the old way; noexec cannot */
	if (r < 0 && errno == ENOSYS && (set | clear) == SANDBOX_ATTR_RDONLY)
		r = remount_walked(fd, fd, path, set ? MS_RDONLY : 0);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

/* InaccessiblePaths=: path (walked as above) covered by a bind of object (an O_PATH fd
 * of an empty mode-0000 directory, or file, as path is one or not), read-only, nosuid,
 * nodev, noexec. The copy of object gets its flags before it is attached, onto the opened
 * path; before Linux 5.2, or 5.12, a bind from the fd and a remount as remount_walked()
 * makes it. A name swapped meanwhile hides nothing else: the user's symlink is refused. */
#define HIDE_ATTRS (SANDBOX_ATTR_RDONLY | SANDBOX_ATTR_NOSUID | SANDBOX_ATTR_NODEV | \
		    SANDBOX_ATTR_NOEXEC)
int sandbox_path_hide(const char *path, int dir_object, int file_object)
{
	struct stat st;
	int fd = path_walk_open(path), object, r = -1, err;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0) {
		object = S_ISDIR(st.st_mode) ? dir_object : file_object;
		r = attach_copy(object, fd, HIDE_ATTRS, 0, false);
		if (r < 0 && errno == ENOSYS)
			r = remount_walked(object, fd, path,
					   MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC);
	}
	err = errno;
	close(fd);
	errno = err;
	return r;
}

/* NoExecPaths=, ExecPaths=: path noexec, or executable again, with what is below it. */
static int set_exec(const struct sandbox_path *p, bool exec, struct sandbox_error *e)
{
	if (sandbox_path_attr(p->path, exec ? 0 : SANDBOX_ATTR_NOEXEC,
			      exec ? SANDBOX_ATTR_NOEXEC : 0) == 0)
		return 0;
	return p->optional && errno == ENOENT ? 0 : failed(e, p->path);
}

static size_t depth(const char *path)
{
	size_t n = 0;

	for (const char *p = path; *p; p++)
		n += *p == '/' && p[1] && p[1] != '/';
	return n;
}

/* As systemd orders them: the shallower path first, so a NoExecPaths= entry below an
 * ExecPaths= one (/usr/local/bin below /usr) is noexec again; for the same depth
 * NoExecPaths= first. */
int sandbox_exec_paths(const struct sandbox_request *r, struct sandbox_error *e)
{
	struct exec_entry { const struct sandbox_path *p; bool exec; } all[2 * SANDBOX_PATHS_MAX];
	size_t n = 0;

	for (size_t i = 0; i < r->no_exec.count; i++)
		all[n].p = &r->no_exec.item[i], all[n++].exec = false;
	for (size_t i = 0; i < r->exec.count; i++)
		all[n].p = &r->exec.item[i], all[n++].exec = true;
	for (size_t i = 1; i < n; i++) /* insertion sort: stable, at most 128 entries */
		for (size_t j = i; j > 0 && depth(all[j - 1].p->path) > depth(all[j].p->path); j--) {
			struct exec_entry t = all[j];
			all[j] = all[j - 1];
			all[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++)
		if (set_exec(all[i].p, all[i].exec, e) < 0)
			return -1;
	return 0;
}
