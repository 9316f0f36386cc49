/* The machine ID at boot; see machine-id.h and docs/services.md "The machine ID". */
#include "machine-id.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"
#include "id128.h"
#include "io.h"
#include "log.h"
#include "parse.h"

#define ID_LEN 32

/* An ID in text: 32 hex digits (plain), or a UUID with its four dashes (8-4-4-4-12),
 * then a newline or the end; not all zeros. Stored in id as 32 lowercase digits. */
static bool id_parse(const char *s, bool dashed, char *id)
{
	bool nonzero = false;
	int n = 0, i = 0;

	for (; n < ID_LEN; i++) {
		if (dashed && (i == 8 || i == 13 || i == 18 || i == 23)) {
			if (s[i] != '-')
				return false;
			continue;
		}
		int v = hex_digit_value(s[i]);
		if (v < 0)
			return false;
		id[n++] = "0123456789abcdef"[v];
		nonzero |= v != 0;
	}
	id[ID_LEN] = '\0';
	return nonzero && (s[i] == '\n' || s[i] == '\0');
}

/* A file's ID in systemd's plain form, lowercase as machine-id(5) writes it. */
static bool id_valid(const char *s)
{
	char id[ID_LEN + 1];

	return id_parse(s, false, id) && strncmp(s, id, ID_LEN) == 0;
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

static enum machine_id_outcome transient(const struct machine_id_sources *p, const char *id)
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

/* The firmware's UUID (a VM manager's ID for the VM: QEMU's -uuid); none when missing,
 * all zeros or all f (firmware that has no UUID to give). */
static bool read_product(const struct machine_id_sources *p, char *id)
{
	char buf[64];
	ssize_t n = io_read_file(p->product, buf, sizeof buf);

	if (n < 0 && errno == ENOENT && p->product_dt)
		n = io_read_file(p->product_dt, buf, sizeof buf);
	return n >= 0 && id_parse(buf, true, id) && strspn(id, "f") != ID_LEN;
}

/* A new ID, from the first source that has one (systemd's order); says where from. */
static bool acquire(const struct machine_id_sources *p, bool firmware, char *id)
{
	const char *from = "a random draw";

	if (read_valid(p->run, true, id))
		from = "an earlier stage of this boot (its transient file)";
	else if (read_valid(p->dbus, true, id))
		from = "D-Bus's machine ID";
	else if (p->container && p->container_uuid &&
		 (id_parse(p->container_uuid, false, id) || id_parse(p->container_uuid, true, id)))
		from = "$container_uuid";
	else if (!p->container && p->product && (firmware || (p->vm && p->vm())) &&
		 read_product(p, id))
		from = "the firmware's UUID";
	else if (!id128_draw(id, true)) {
		log_error("machine-id: no random bytes for an ID: %m");
		return false;
	}
	log_info("machine-id: an ID from %s", from);
	return true;
}

/* systemd.machine_id=: an ID (plain or a UUID), or "firmware". */
static bool requested_id(const struct machine_id_sources *p, bool *firmware, char *id)
{
	char shown[96];

	*firmware = p->requested && strcmp(p->requested, "firmware") == 0;
	if (!p->requested || *firmware)
		return false;
	if (id_parse(p->requested, false, id) || id_parse(p->requested, true, id))
		return true;
	log_warn("machine-id: systemd.machine_id=%s: not an ID or \"firmware\", ignored",
		 escape_text(p->requested, shown, sizeof shown));
	return false;
}

enum machine_id_outcome machine_id_setup(const struct machine_id_sources *p, char *id)
{
	bool first = machine_id_first_boot(p->etc), firmware;
	bool requested = requested_id(p, &firmware, id);
	char on_disk[ID_LEN + 1];
	/* fd < 0: nothing may be written (a container, a read-only /etc): transient */
	int fd = p->container ? -1 : open(p->etc, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0444);
	enum machine_id_outcome done;

	if (first)
		mark_first_boot(p->flag);
	if (read_valid(p->etc, false, on_disk) && (!requested || strcmp(on_disk, id) == 0)) {
		memcpy(id, on_disk, sizeof on_disk);
		if (fd >= 0)
			close(fd);
		return MACHINE_ID_KEPT;
	}
	if (requested)
		log_info("machine-id: the ID from the kernel command line");
	else if (!acquire(p, firmware, id)) {
		if (fd >= 0)
			close(fd);
		return MACHINE_ID_FAILED;
	}
	if (!first && fd >= 0 && write_line(fd, id) == 0) {
		close(fd);
		log_info("machine-id: written into %s", p->etc);
		return MACHINE_ID_WRITTEN;
	}
	/* A first boot keeps "uninitialized" on disk until it is complete; a missing file
	 * must exist to be mounted over. */
	if (first && fd >= 0 && write_line(fd, "uninitialized") < 0)
		log_warn("machine-id: cannot mark %s uninitialized: %m", p->etc);
	if (fd >= 0)
		close(fd);
	done = transient(p, id);
	if (done == MACHINE_ID_TRANSIENT)
		log_info("machine-id: %s: a transient ID until it is committed", p->etc);
	return done;
}
