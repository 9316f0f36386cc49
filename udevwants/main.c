/* ember-udev-wants: starts, through ember-init's control socket, the units a device's
 * udev rules ask for (SYSTEMD_WANTS=), as systemd does when a device tagged "systemd"
 * appears: bluetooth.target for a Bluetooth controller, systemd-backlight@ and
 * systemd-rfkill for a phone's backlight and radios (ember-udev-wants(8)).
 *
 * Devices there before it started come from udev's database; later ones from udev's
 * netlink group, taken only from udevd (a sender port, credentials of root). A list it
 * has started for a device is not asked for again until it changes or the device goes;
 * when it goes, what no other device wants is released.
 * PID 1 stays out of it: it reads no udev data itself. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "ctl-client.h"
#include "escape.h"
#include "exitcode.h"
#include "log.h"
#include "udev-wants.h"

#define UDEV_GROUP 2u            /* udevd's events, after its rules ran */
#define CONTROL_TIMEOUT_MS 10000
#define DB_ENTRY_MAX 16384       /* a database entry is read up to this */

static const char *control = CTL_SOCKET_PATH;
static const char *udev_dir = "/run/udev";
static struct udev_seen seen;

static void usage(void)
{
	printf("usage: ember-udev-wants [--control PATH] [--udev-dir DIR]\n"
	       "Start the units udev's rules ask for with SYSTEMD_WANTS= (ember-udev-wants(8)).\n"
	       "  --control PATH   ember-init's control socket (default: $%s or %s)\n"
	       "  --udev-dir DIR   udev's run directory, its database (default /run/udev)\n"
	       "  -h, --help       this help\n"
	       "      --version    version\n",
	       CTL_SOCKET_ENV, CTL_SOCKET_PATH);
}

static void parse_args(int argc, char **argv)
{
	const char *value;

	for (int i = 1; i < argc; i++) {
		cli_help_version(argv[i], "ember-udev-wants", usage);
		if ((value = cli_option_value(argc, argv, &i, "--control"))) {
			control = value;
		} else if ((value = cli_option_value(argc, argv, &i, "--udev-dir"))) {
			udev_dir = value;
		} else {
			log_error("%.64s: unknown argument (see --help)", argv[i]);
			exit(EXIT_USAGE);
		}
	}
}

/* Each unit of the device's list, unless this list was started for it already. */
static void start_wants(const struct udev_device_wants *w)
{
	char name[CTL_NAME_MAX], bad[256], err[CTL_PACKET_MAX], dev[3 * UDEV_DEVPATH_MAX];
	size_t pos = 0;
	int r;

	if (!udev_seen_update(&seen, w))
		return;
	escape_text(w->devpath, dev, sizeof dev);
	while ((r = udev_wants_next(w->wants, &pos, name, sizeof name, bad, sizeof bad)) != 0) {
		if (r < 0) {
			log_warn("%s: SYSTEMD_WANTS=: \"%s\" is not a unit name; skipped", dev, bad);
			continue;
		}
		log_info("%s: starting %s", dev, name);
		/* held: the device wants it, so it counts as needed (bluetooth.target has
		 * StopWhenUnneeded=yes), as systemd's device unit does */
		if (ember_request_opts(control, CTL_START, name, CTL_OPT_HOLD, CONTROL_TIMEOUT_MS, err,
				       sizeof err) != CTL_STATUS_OK)
			log_warn("%s: %s: %s", dev, name, err[0] ? err : "not started");
	}
}

/* One database entry, read whole or not at all: true with w set. */
static bool db_entry(int data_fd, const char *id, struct udev_device_wants *w)
{
	static char text[DB_ENTRY_MAX + 1];
	char err[128], shown[256];
	int fd = openat(data_fd, id, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, text, DB_ENTRY_MAX + 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0 || n > DB_ENTRY_MAX)
		return false; /* gone meanwhile, or not udev's */
	text[n] = '\0';
	if (strlen(text) != (size_t)n) /* a NUL inside: not udev's */
		return false;
	if (udev_db_parse(id, text, w, err, sizeof err) < 0) {
		log_warn("%s/data/%s: %s", udev_dir, escape_text(id, shown, sizeof shown), err);
		return false;
	}
	return !w->removed && w->wants[0];
}

/* Each device in udev's database tagged "systemd" that wants something; stops early when
 * fn returns true, and says so. */
static bool each_db_device(bool (*fn)(const struct udev_device_wants *w, const void *ctx),
			   const void *ctx)
{
	static struct udev_device_wants w;
	char path[512];
	int data_fd;
	DIR *tags;
	struct dirent *e;
	bool stop = false;

	snprintf(path, sizeof path, "%s/data", udev_dir);
	if ((data_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return false; /* no udev database (yet): its events will come */
	snprintf(path, sizeof path, "%s/tags/systemd", udev_dir);
	if ((tags = opendir(path))) {
		while (!stop && (e = readdir(tags)) != NULL)
			if (e->d_name[0] != '.' && db_entry(data_fd, e->d_name, &w))
				stop = fn(&w, ctx);
		closedir(tags);
	}
	close(data_fd);
	return stop;
}

static bool start_db_device(const struct udev_device_wants *w, const void *ctx)
{
	(void)ctx;
	start_wants(w);
	return false;
}

/* Devices udev processed before this program listened: the ones tagged "systemd". */
static void scan_database(void)
{
	each_db_device(start_db_device, NULL);
}

static bool wants_unit(const struct udev_device_wants *w, const void *name)
{
	char unit[CTL_NAME_MAX], bad[8];
	size_t pos = 0;
	int r;

	while ((r = udev_wants_next(w->wants, &pos, unit, sizeof unit, bad, sizeof bad)) != 0)
		if (r > 0 && strcmp(unit, name) == 0)
			return true;
	return false;
}

/* A device went away: each unit it wanted that no device left in udev's database wants
 * (udevd drops a removed device's entry before it tells of the removal) is released: its
 * hold dropped, it stops once no unit needs it, as when systemd's device unit goes. */
static void release_wants(const struct udev_device_wants *w)
{
	char name[CTL_NAME_MAX], bad[256], err[CTL_PACKET_MAX], dev[3 * UDEV_DEVPATH_MAX];
	size_t pos = 0;
	int r;

	(void)udev_seen_update(&seen, w); /* forgotten: back again, it starts them again */
	escape_text(w->devpath, dev, sizeof dev);
	while ((r = udev_wants_next(w->wants, &pos, name, sizeof name, bad, sizeof bad)) != 0) {
		if (r < 0)
			continue;
		if (each_db_device(wants_unit, name)) {
			log_info("%s: gone; %s is still wanted by another device", dev, name);
			continue;
		}
		log_info("%s: gone, releasing %s", dev, name);
		if (ember_request_opts(control, CTL_STOP, name, CTL_OPT_RELEASE, CONTROL_TIMEOUT_MS,
				       err, sizeof err) != CTL_STATUS_OK)
			log_warn("%s: %s: %s", dev, name, err[0] ? err : "not released");
	}
}

static int open_monitor(void)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = UDEV_GROUP };
	int one = 1, size = 1 << 20;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof one) < 0) {
		log_error("udev's netlink group: %m");
		exit(EXIT_SYSTEM);
	}
	/* a burst at boot (the trigger replays every device) must not be lost */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	return fd;
}

/* Only udevd speaks on its group: a message from the kernel (port 0), from a process
 * that is not root, or cut short is dropped. */
static bool from_udevd(const struct msghdr *m, const struct sockaddr_nl *sender, ssize_t n)
{
	const struct cmsghdr *c = CMSG_FIRSTHDR(m);
	struct ucred cred;

	if (n <= 0 || (m->msg_flags & MSG_TRUNC) || sender->nl_pid == 0 || !c ||
	    c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_CREDENTIALS)
		return false;
	memcpy(&cred, CMSG_DATA(c), sizeof cred);
	return cred.uid == 0;
}

static void serve(int fd)
{
	static char buf[UDEV_MSG_MAX];
	char control_buf[CMSG_SPACE(sizeof(struct ucred))];

	for (;;) {
		struct sockaddr_nl sender;
		struct iovec iov = { buf, sizeof buf };
		struct msghdr m = { .msg_name = &sender, .msg_namelen = sizeof sender,
				    .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = control_buf, .msg_controllen = sizeof control_buf };
		struct udev_device_wants w;
		char err[160];
		ssize_t n = recvmsg(fd, &m, 0);

		if (n < 0 && errno == ENOBUFS) {
			log_warn("udev events were lost (a burst): reading udev's database again");
			scan_database();
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			log_error("udev's netlink group: %m");
			exit(EXIT_SYSTEM);
		}
		if (!from_udevd(&m, &sender, n))
			continue;
		if (udev_event_parse(buf, (size_t)n, &w, err, sizeof err) < 0)
			log_warn("a udev event refused: %s", err);
		else if (w.removed)
			release_wants(&w);
		else if (w.wants[0])
			start_wants(&w);
	}
}

int main(int argc, char **argv)
{
	const char *env = getenv(CTL_SOCKET_ENV);
	int fd;

	log_open("ember-udev-wants");
	if (env && env[0])
		control = env;
	parse_args(argc, argv);
	fd = open_monitor(); /* listening first: a device processed meanwhile is not missed */
	scan_database();
	serve(fd);
}
