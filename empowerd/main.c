/* empowerd: the privileged side of empower(1) (empowerd(8), docs/empower.md). Listens on
 * a SOCK_SEQPACKET socket, takes each caller's identity from SO_PEERCRED at accept, and
 * forks one process per connection (session.c) so a hostile or slow client can only
 * hurt its own session. The daemon itself keeps only the bounded client table and the
 * persist timestamps, and never blocks on a client. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "empower/proto.h"
#include "exec-context.h"
#include "exitcode.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "policy.h"
#include "session.h"

/* Each uid has its own few slots; the total only bounds the process count, so a few
 * users (or system accounts) cannot take every slot from the others. */
#define CLIENTS_MAX 256         /* sessions at once */
#define CLIENTS_PER_UID_MAX 8   /* sessions at once per caller */
#define LISTEN_BACKLOG 16
#define CGROUP_MOUNT "/sys/fs/cgroup"

struct client {
	pid_t pid; /* the session process; 0: free slot */
	uid_t uid;
};

struct daemon_state {
	int listen_fd, sig_fd, notify_rd, notify_wr;
	struct client client[CLIENTS_MAX];
	size_t clients;
	struct persist_table persist;
	struct session_config cfg;
	const char *socket_path;
	bool stopping;
};

static void usage(void)
{
	printf("usage: empowerd [OPTION...]\n"
	       "Serve empower(1) requests: run commands as the caller with every capability.\n"
	       "  --socket PATH        listen here (default %s)\n"
	       "  --config PATH        the policy (default %s)\n"
	       "  --caps-helper PATH   ember-caps (default %s)\n"
	       "  --cgroup DIR|none    put each session in a cgroup below DIR (default: the\n"
	       "                       daemon's own cgroup when it is a service cgroup)\n"
	       "  --legacy-tiocsti refuse|warn\n"
	       "                       interactive sessions while TIOCSTI is allowed\n"
	       "                       (default: refuse)\n"
	       "  --debug              log debug messages\n"
	       "  -h, --help           this text\n"
	       "  -V, --version        the version\n",
	       EMPOWER_SOCKET, POLICY_PATH, EXEC_CAPS_HELPER);
}

static int listen_on(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct stat st;
	char dir[sizeof addr.sun_path];
	if (str_copy(addr.sun_path, sizeof addr.sun_path, path) < 0)
		die(EXIT_USAGE, "%s: socket path too long", path);
	str_copy(dir, sizeof dir, path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (io_mkdir_p(dir, 0755) < 0)
			die(EXIT_SYSTEM, "%s: cannot create: %s", dir, strerror(errno));
	}
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			die(EXIT_SYSTEM, "%s: exists and is not a socket", path);
		unlink(path); /* a stale socket from an earlier run */
	}
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die(EXIT_SYSTEM, "socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
		die(EXIT_SYSTEM, "%s: bind: %s", path, strerror(errno));
	/* Anyone may ask; the policy decides. */
	if (chmod(path, 0666) < 0 || listen(fd, LISTEN_BACKLOG) < 0)
		die(EXIT_SYSTEM, "%s: %s", path, strerror(errno));
	return fd;
}

/* The daemon's own cgroup when ember-init put it in a service cgroup (".../x.service"),
 * so sessions nest below it and stop with it. */
static int default_cgroup(void)
{
	char text[1024], path[1200];
	if (io_read_file("/proc/self/cgroup", text, sizeof text) < 0 || !str_starts_with(text, "0::/"))
		return -1;
	char *nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	size_t n = strlen(text);
	if (n < 8 || strcmp(text + n - 8, ".service") != 0)
		return -1;
	snprintf(path, sizeof path, "%s%s", CGROUP_MOUNT, text + 3);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static int open_cgroup_option(const char *arg)
{
	if (!arg)
		return default_cgroup();
	if (strcmp(arg, "none") == 0)
		return -1;
	int fd = open(arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		die(EXIT_SYSTEM, "%s: cannot open the cgroup directory: %s", arg, strerror(errno));
	return fd;
}

static size_t clients_of(const struct daemon_state *d, uid_t uid)
{
	size_t n = 0;
	for (size_t i = 0; i < CLIENTS_MAX; i++)
		n += d->client[i].pid && d->client[i].uid == uid;
	return n;
}

static void turn_away(int conn, const char *why)
{
	char buf[256];
	long n = empower_msg_encode(EMPOWER_REFUSED, EXIT_REFUSED, why, buf, sizeof buf);
	if (n > 0)
		send(conn, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void start_session(struct daemon_state *d, int conn, const struct ucred *peer)
{
	size_t slot = 0;
	while (d->client[slot].pid)
		slot++;
	pid_t pid = fork();
	if (pid < 0) {
		log_error("fork: %s", strerror(errno));
		turn_away(conn, "the daemon cannot fork");
		return;
	}
	if (pid == 0) {
		close(d->listen_fd);
		close(d->sig_fd);
		close(d->notify_rd);
		int flags = fcntl(conn, F_GETFL);
		fcntl(conn, F_SETFL, flags & ~O_NONBLOCK);
		struct timeval tv = { .tv_sec = 10 }; /* a client that stops reading */
		setsockopt(conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		d->cfg.notify_fd = d->notify_wr;
		d->cfg.persist = &d->persist;
		session_serve(conn, peer->uid, peer->pid, &d->cfg);
	}
	d->client[slot].pid = pid;
	d->client[slot].uid = peer->uid;
	d->clients++;
}

static void accept_clients(struct daemon_state *d)
{
	for (;;) {
		struct ucred peer;
		socklen_t len = sizeof peer;
		int conn = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (conn < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
				log_warn("accept: %s", strerror(errno));
			return;
		}
		/* The identity is the one the kernel recorded at connect(2): no pid races. */
		if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0) {
			log_warn("SO_PEERCRED: %s", strerror(errno));
		} else if (d->stopping) {
			turn_away(conn, "the daemon is stopping");
		} else if (d->clients >= CLIENTS_MAX) {
			turn_away(conn, "too many sessions");
		} else if (clients_of(d, peer.uid) >= CLIENTS_PER_UID_MAX) {
			turn_away(conn, "too many sessions for this user");
		} else {
			start_session(d, conn, &peer);
		}
		close(conn);
	}
}

static void reap(struct daemon_state *d)
{
	pid_t pid;
	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (size_t i = 0; i < CLIENTS_MAX; i++)
			if (d->client[i].pid == pid) {
				d->client[i].pid = 0;
				d->clients--;
			}
}

/* A session authenticated with persist: remember it (replacing the same key, else the
 * oldest-expiring entry when full). */
static void remember(struct daemon_state *d)
{
	struct persist_entry e;
	while (read(d->notify_rd, &e, sizeof e) == sizeof e) {
		struct persist_table *t = &d->persist;
		size_t slot = t->count;
		uint64_t now = boottime_ms();
		for (size_t i = 0; i < t->count; i++) {
			const struct persist_entry *o = &t->entry[i];
			if ((o->uid == e.uid && o->tty_dev == e.tty_dev && o->tty_sid == e.tty_sid &&
			     o->leader_start == e.leader_start && o->tty_birth == e.tty_birth) ||
			    o->expires_ms <= now)
				slot = i;
		}
		if (slot == PERSIST_MAX) {
			slot = 0;
			for (size_t i = 1; i < t->count; i++)
				if (t->entry[i].expires_ms < t->entry[slot].expires_ms)
					slot = i;
		}
		t->entry[slot] = e;
		if (slot == t->count)
			t->count++;
	}
}

static void stop_sessions(struct daemon_state *d)
{
	d->stopping = true;
	for (size_t i = 0; i < CLIENTS_MAX; i++)
		if (d->client[i].pid)
			kill(d->client[i].pid, SIGTERM);
}

static void handle_signals(struct daemon_state *d)
{
	struct signalfd_siginfo si;
	while (read(d->sig_fd, &si, sizeof si) == sizeof si) {
		if (si.ssi_signo == SIGCHLD)
			reap(d);
		else if (!d->stopping) {
			log_info("stopping on signal %u", si.ssi_signo);
			stop_sessions(d);
		}
	}
}

static void serve(struct daemon_state *d)
{
	for (;;) {
		struct pollfd p[3] = { { .fd = d->stopping ? -1 : d->listen_fd, .events = POLLIN },
				       { .fd = d->sig_fd, .events = POLLIN },
				       { .fd = d->notify_rd, .events = POLLIN } };
		if (d->stopping && d->clients == 0)
			return;
		if (poll(p, 3, -1) < 0 && errno != EINTR)
			die(EXIT_SYSTEM, "poll: %s", strerror(errno));
		if (p[1].revents & POLLIN)
			handle_signals(d);
		if (p[2].revents & POLLIN)
			remember(d);
		if (p[0].revents & POLLIN)
			accept_clients(d);
	}
}

/* Started with 0, 1 or 2 closed, the next socket or pipe would take that number and log
 * lines would be written into it: hold them with /dev/null first. */
static void open_standard_fds(void)
{
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		int n = open("/dev/null", O_RDWR | O_NOCTTY);
		if (n < 0)
			_exit(EXIT_SYSTEM); /* nowhere to say it */
		if (n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
}

/* Whatever fds the daemon was started with must not reach a session. */
static void cloexec_inherited_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned long fd;
	if (!dir)
		die(EXIT_SYSTEM, "/proc/self/fd: %s", strerror(errno));
	while ((e = readdir(dir)))
		if (parse_ulong(e->d_name, 3, 1UL << 30, &fd) == 0 && (int)fd != dirfd(dir))
			fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	closedir(dir);
}

static int setup_signals(void)
{
	signal(SIGPIPE, SIG_IGN);
	int fd = empowerd_signal_fd();
	if (fd < 0)
		die(EXIT_SYSTEM, "signalfd: %s", strerror(errno));
	return fd;
}

int main(int argc, char **argv)
{
	static struct daemon_state d;
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "config", required_argument, NULL, 'c' },
		{ "caps-helper", required_argument, NULL, 'H' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "debug", no_argument, NULL, 'd' },
		{ "legacy-tiocsti", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const char *cgroup = NULL;
	int o, pipefd[2];
	open_standard_fds();
	log_open("empowerd");
	d.socket_path = EMPOWER_SOCKET;
	d.cfg.policy_path = POLICY_PATH;
	while ((o = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (o) {
		case 's': d.socket_path = optarg; break;
		case 'c': d.cfg.policy_path = optarg; break;
		case 'H': d.cfg.caps_helper = optarg; break;
		case 'g': cgroup = optarg; break;
		case 'd': log_set_level(LOG_LEVEL_DEBUG); break;
		case 't':
			if (strcmp(optarg, "warn") != 0 && strcmp(optarg, "refuse") != 0)
				die(EXIT_USAGE, "--legacy-tiocsti: expected refuse or warn");
			d.cfg.tiocsti_warn = strcmp(optarg, "warn") == 0;
			break;
		case 'h': usage(); return 0;
		case 'V': print_version("empowerd"); return 0;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "%s: unexpected argument", argv[optind]);
	if (geteuid() != 0)
		die(EXIT_SYSTEM, "must run as root (it starts commands as other users)");
	cloexec_inherited_fds();
	d.cfg.cgroup_fd = open_cgroup_option(cgroup);
	session_grant_warning(d.cfg.grant_warning, sizeof d.cfg.grant_warning);
	d.cfg.backoff = mmap(NULL, sizeof *d.cfg.backoff, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (d.cfg.backoff == MAP_FAILED)
		die(EXIT_SYSTEM, "mmap: %s", strerror(errno));
	d.sig_fd = setup_signals();
	d.cfg.signals_to_reset = session_signals_to_reset();
	if (pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0)
		die(EXIT_SYSTEM, "pipe: %s", strerror(errno));
	d.notify_rd = pipefd[0];
	d.notify_wr = pipefd[1];
	d.listen_fd = listen_on(d.socket_path);
	log_info("listening on %s, policy %s", d.socket_path, d.cfg.policy_path);
	serve(&d);
	unlink(d.socket_path);
	return 0;
}
