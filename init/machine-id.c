/* The machine ID at boot; see machine-id.h and docs/services.md "The machine ID". */
#include "machine-id.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"
#include "log.h"

#define ID_LEN 32

/* 32 lowercase hex digits, then a newline or the end, and not all zeros. */
static bool id_valid(const char *s)
{
	bool nonzero = false;

	for (int i = 0; i < ID_LEN; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
		nonzero |= s[i] != '0';
	}
	return nonzero && (s[ID_LEN] == '\n' || s[ID_LEN] == '\0');
}

bool machine_id_first_boot(const char *etc)
{
	char buf[64];
	ssize_t n = io_read_file(etc, buf, sizeof buf);

	if (n < 0)
		return errno == ENOENT;
	return strncmp(buf, "uninitialized", 13) == 0 && (buf[13] == '\n' || buf[13] == '\0');
}

static bool read_valid(const char *path, bool regular_only, char *id)
{
	char buf[64];
	struct stat st;

	if (regular_only && (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)))
		return false;
	if (io_read_file(path, buf, sizeof buf) < 0 || !id_valid(buf))
		return false;
	memcpy(id, buf, ID_LEN);
	id[ID_LEN] = '\0';
	return true;
}

/* A random version 4 UUID in systemd's notation (no dashes). */
static bool draw(char *id)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t b[16];

	if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
		return false;
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
	for (int i = 0; i < 16; i++) {
		id[2 * i] = hex[b[i] >> 4];
		id[2 * i + 1] = hex[b[i] & 15];
	}
	id[ID_LEN] = '\0';
	return true;
}

/* Write "text\n" into fd from its start, to the disk. */
static int write_line(int fd, const char *text)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%s\n", text);

	if (lseek(fd, 0, SEEK_SET) < 0 || ftruncate(fd, 0) < 0 ||
	    io_write_all(fd, line, (size_t)n) < 0 || fsync(fd) < 0)
		return -1;
	return 0;
}

static enum machine_id_outcome transient(const struct machine_id_paths *p, const char *id)
{
	char line[ID_LEN + 2];
	int fd;

	snprintf(line, sizeof line, "%s\n", id);
	unlink(p->run);
	fd = open(p->run, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0444);
	if (fd < 0 || io_write_all(fd, line, strlen(line)) < 0) {
		log_error("machine-id: cannot write %s: %m", p->run);
		if (fd >= 0)
			close(fd);
		return MACHINE_ID_FAILED;
	}
	close(fd);
	if (mount(p->run, p->etc, NULL, MS_BIND, NULL) < 0) {
		log_error("machine-id: cannot mount %s over %s: %m", p->run, p->etc);
		return MACHINE_ID_FAILED;
	}
	if (mount(NULL, p->etc, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL) < 0)
		log_warn("machine-id: %s stays writable: %m", p->etc);
	return MACHINE_ID_TRANSIENT;
}

static void mark_first_boot(const char *flag)
{
	char dir[256];
	int fd;

	snprintf(dir, sizeof dir, "%s", flag);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	io_mkdir_p(dir, 0755);
	fd = open(flag, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
	if (fd < 0)
		log_warn("machine-id: cannot create %s: %m", flag);
	else
		close(fd);
}

enum machine_id_outcome machine_id_setup(const struct machine_id_paths *p, char *id)
{
	bool first = machine_id_first_boot(p->etc);
	/* fd < 0: nothing may be written (a container, a read-only /etc): transient */
	int fd = p->persist ? open(p->etc, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0444) : -1;
	enum machine_id_outcome done;

	if (first)
		mark_first_boot(p->flag);
	if (read_valid(p->etc, false, id)) {
		if (fd >= 0)
			close(fd);
		return MACHINE_ID_KEPT;
	}
	if (!read_valid(p->dbus, true, id) && !draw(id)) {
		log_error("machine-id: no random bytes for an ID: %m");
		if (fd >= 0)
			close(fd);
		return MACHINE_ID_FAILED;
	}
	if (!first && p->persist && fd >= 0 && write_line(fd, id) == 0) {
		close(fd);
		log_info("machine-id: %s was empty or invalid: a new ID written", p->etc);
		return MACHINE_ID_WRITTEN;
	}
	/* A first boot keeps "uninitialized" on disk until it is complete; a missing file
	 * must exist to be mounted over. */
	if (first && p->persist && fd >= 0 && write_line(fd, "uninitialized") < 0)
		log_warn("machine-id: cannot mark %s uninitialized: %m", p->etc);
	if (fd >= 0)
		close(fd);
	done = transient(p, id);
	if (done == MACHINE_ID_TRANSIENT)
		log_info("machine-id: %s: a transient ID until it is committed", p->etc);
	return done;
}
