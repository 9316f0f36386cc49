#include "utmp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The record as glibc writes it (bits/utmp.h). x86 keeps 32-bit session and time fields
 * on both word sizes (__WORDSIZE_TIME64_COMPAT32); the other 64-bit ABIs (aarch64,
 * riscv64, ppc64le) use long and struct timeval. musl's own struct utmpx matches neither
 * on x86-64, so it cannot be used. Other 32-bit ABIs: no record is written. */
#if defined(__x86_64__) || defined(__i386__)
typedef int32_t ut_session_t;
typedef int32_t ut_time_t;
#define RECORD_SIZE 384
#elif defined(__LP64__)
typedef int64_t ut_session_t;
typedef int64_t ut_time_t;
#define RECORD_SIZE 400
#endif

enum { T_INIT_PROCESS = 5, T_LOGIN_PROCESS = 6, T_USER_PROCESS = 7, T_DEAD_PROCESS = 8 };

#define SCAN_MAX 4096   /* records looked at for a match: the file is group utmp's too */
#define LOCK_TRIES 50   /* x 10 ms, in the child only */

#ifdef RECORD_SIZE
struct record {
	int16_t type;
	int16_t pad;
	int32_t pid;
	char line[32];
	char id[4];
	char user[32];
	char host[256];
	int16_t termination, exit;
	ut_session_t session;
	ut_time_t sec, usec;
	int32_t addr_v6[4];
	char reserved[20];
};
_Static_assert(sizeof(struct record) == RECORD_SIZE, "glibc's utmp record size");

bool utmp_supported(void) { return true; }

static void set_now(struct record *r)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	r->sec = (ut_time_t)ts.tv_sec;
	r->usec = (ut_time_t)(ts.tv_nsec / 1000);
}

/* strncpy's padding is what the format wants: fixed fields, NUL-padded, not always
 * terminated. */
static void set_field(char *dst, size_t size, const char *src)
{
	memset(dst, 0, size);
	if (src)
		memcpy(dst, src, strnlen(src, size));
}

/* An id longer than the field keeps its end: "ttyS0" is "tyS0", as agetty writes it. */
static void set_id(struct record *r, const char *id)
{
	size_t len = strlen(id);

	set_field(r->id, sizeof r->id, len > sizeof r->id ? id + len - sizeof r->id : id);
}

static int lock_file(int fd, short type, int tries)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };
	const struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (int i = 0;; i++) {
		if (fcntl(fd, F_SETLK, &fl) == 0)
			return 0;
		if ((errno != EAGAIN && errno != EACCES) || i + 1 >= tries) {
			errno = EAGAIN;
			return -1;
		}
		nanosleep(&pause, NULL);
	}
}

static void unlock_file(int fd)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };

	fcntl(fd, F_SETLK, &fl);
}

/* O_NOFOLLOW and a regular file only: no FIFO or device is ever written to. */
static int open_regular(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

static bool is_process_entry(const struct record *r)
{
	return r->type >= T_INIT_PROCESS && r->type <= T_DEAD_PROCESS;
}

/* The offset of the process entry with id (as glibc's getutid() finds it), read into
 * *found, or of the end of the file when there is none; -1 on a read error. *hit says
 * which. */
static off_t find_slot(int fd, const char *id, struct record *found, bool *hit)
{
	off_t off = 0;

	*hit = false;
	for (int n = 0; n < SCAN_MAX; n++, off += RECORD_SIZE) {
		ssize_t got = pread(fd, found, RECORD_SIZE, off);
		if (got < 0)
			return -1;
		if (got < RECORD_SIZE)
			return off;
		if (is_process_entry(found) && memcmp(found->id, id, sizeof found->id) == 0) {
			*hit = true;
			return off;
		}
	}
	return off;
}

static int write_utmp(int fd, const struct record *r)
{
	struct record old;
	bool hit;
	off_t off = find_slot(fd, r->id, &old, &hit);

	if (off < 0)
		return -1;
	return pwrite(fd, r, RECORD_SIZE, off) == RECORD_SIZE ? 0 : -1;
}

/* wtmp is a log: each record appended. A missing file stays missing, as for glibc. */
static void append_wtmp(const char *path, const struct record *r, int tries)
{
	int fd = open_regular(path, O_WRONLY | O_APPEND);

	if (fd < 0)
		return;
	if (lock_file(fd, F_WRLCK, tries) == 0) {
		if (write(fd, r, RECORD_SIZE) != RECORD_SIZE) {
			/* a short write leaves a torn record: ignored, as glibc does */
		}
		unlock_file(fd);
	}
	close(fd);
}

static const char *utmp_path(const struct utmp_files *f)
{
	return f && f->utmp ? f->utmp : UTMP_PATH;
}

static const char *wtmp_path(const struct utmp_files *f)
{
	return f && f->wtmp ? f->wtmp : WTMP_PATH;
}

/* Write r as type, to utmp (fd) and to wtmp. */
static int put_both(const struct utmp_files *f, int fd, struct record *r, int16_t type)
{
	r->type = type;
	if (write_utmp(fd, r) < 0)
		return -1;
	append_wtmp(wtmp_path(f), r, LOCK_TRIES);
	return 0;
}

int utmp_put_start(const struct utmp_files *f, const char *id, pid_t pid, pid_t sid,
		   const char *line, enum utmp_mode mode, const char *user)
{
	struct record r;
	int fd, rc;

	memset(&r, 0, sizeof r);
	r.pid = (int32_t)pid;
	r.session = (ut_session_t)sid;
	set_id(&r, id);
	set_field(r.line, sizeof r.line, line);
	set_now(&r);
	fd = open_regular(utmp_path(f), O_RDWR);
	if (fd < 0)
		return -1;
	if (lock_file(fd, F_WRLCK, LOCK_TRIES) < 0) {
		close(fd);
		return -1;
	}
	rc = put_both(f, fd, &r, T_INIT_PROCESS);
	if (rc == 0 && mode != UTMP_MODE_INIT)
		rc = put_both(f, fd, &r, T_LOGIN_PROCESS);
	if (rc == 0 && mode == UTMP_MODE_USER) {
		set_field(r.user, sizeof r.user, user);
		rc = put_both(f, fd, &r, T_USER_PROCESS);
	}
	unlock_file(fd);
	close(fd);
	return rc;
}

int utmp_put_dead(const struct utmp_files *f, const char *id, pid_t pid, int code, int status)
{
	struct record r, key;
	bool hit;
	off_t off;
	int fd = open_regular(utmp_path(f), O_RDWR), rc = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (lock_file(fd, F_WRLCK, 1) < 0) {
		close(fd);
		return -1;
	}
	memset(&key, 0, sizeof key);
	set_id(&key, id);
	off = find_slot(fd, key.id, &r, &hit);
	if (off < 0)
		rc = -1;
	else if (hit && r.pid == (int32_t)pid && r.type != T_DEAD_PROCESS) {
		r.type = T_DEAD_PROCESS;
		r.termination = (int16_t)code;
		r.exit = (int16_t)status;
		memset(r.user, 0, sizeof r.user);
		memset(r.host, 0, sizeof r.host);
		r.sec = r.usec = 0;
		rc = pwrite(fd, &r, RECORD_SIZE, off) == RECORD_SIZE ? 0 : -1;
		set_now(&r); /* wtmp wants the time it ended */
		if (rc == 0)
			append_wtmp(wtmp_path(f), &r, 1);
	}
	unlock_file(fd);
	close(fd);
	return rc;
}

int utmp_log_login(const struct utmp_files *f, pid_t pid, const char *line, const char *user,
		   const char *host)
{
	struct record r;

	memset(&r, 0, sizeof r);
	r.type = T_USER_PROCESS;
	r.pid = (int32_t)pid;
	set_field(r.line, sizeof r.line, line);
	set_field(r.user, sizeof r.user, user);
	set_field(r.host, sizeof r.host, host);
	set_now(&r);
	append_wtmp(wtmp_path(f), &r, LOCK_TRIES);
	return 0;
}

/* glibc's struct lastlog: the time is 32 bits where utmp's is (x86) */
struct lastlog_entry {
	ut_time_t time;
	char line[32];
	char host[256];
};
#if defined(__x86_64__) || defined(__i386__)
_Static_assert(sizeof(struct lastlog_entry) == 292, "glibc's lastlog record size");
#endif

int utmp_put_lastlog(const char *lastlog, uid_t uid, const char *line, const char *host)
{
	struct lastlog_entry e;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = (off_t)uid * (off_t)sizeof e, .l_len = sizeof e };
	int fd = open_regular(lastlog ? lastlog : LASTLOG_PATH, O_RDWR), rc;

	if (fd < 0)
		return -1;
	memset(&e, 0, sizeof e);
	e.time = (ut_time_t)time(NULL);
	set_field(e.line, sizeof e.line, line);
	set_field(e.host, sizeof e.host, host);
	if (fcntl(fd, F_SETLKW, &fl) < 0) {
		close(fd);
		return -1;
	}
	rc = pwrite(fd, &e, sizeof e, fl.l_start) == (ssize_t)sizeof e ? 0 : -1;
	fl.l_type = F_UNLCK;
	fcntl(fd, F_SETLK, &fl);
	close(fd);
	return rc;
}

#else /* no known layout */

bool utmp_supported(void) { return false; }

int utmp_put_start(const struct utmp_files *f, const char *id, pid_t pid, pid_t sid,
		   const char *line, enum utmp_mode mode, const char *user)
{
	(void)f, (void)id, (void)pid, (void)sid, (void)line, (void)mode, (void)user;
	errno = ENOSYS;
	return -1;
}

int utmp_put_dead(const struct utmp_files *f, const char *id, pid_t pid, int code, int status)
{
	(void)f, (void)id, (void)pid, (void)code, (void)status;
	return 0;
}

int utmp_log_login(const struct utmp_files *f, pid_t pid, const char *line, const char *user,
		   const char *host)
{
	(void)f, (void)pid, (void)line, (void)user, (void)host;
	errno = ENOSYS;
	return -1;
}

int utmp_put_lastlog(const char *lastlog, uid_t uid, const char *line, const char *host)
{
	(void)lastlog, (void)uid, (void)line, (void)host;
	errno = ENOSYS;
	return -1;
}
#endif
