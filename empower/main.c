/* empower: run a command as yourself (or USER) with every capability, through
 * empowerd(8) — no setuid binary (empower(1), docs/empower.md). This side holds no
 * privilege: it passes its working directory and terminal or standard fds over a Unix
 * socket, relays the PTY and signals, and exits with the command's status. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "exitcode.h"
#include "io.h"
#include "log.h"
#include "parse.h"
#include "proto.h"
#include "terminal.h"

#define RELAY_BUF 4096
#define DRAIN_WAIT_MS 200 /* PTY output still in flight after the command exited */
#define SOCKET_ENV "EMPOWER_SOCKET"

extern char **environ;

enum mode { MODE_AUTO, MODE_PIPE, MODE_PTY };

struct options {
	const char *user, *chdir, *socket;
	enum mode mode;
	struct empower_request req;
};

struct client {
	int sock, tty, sigfd;
	struct pty pty;
	bool use_pty, stdin_open, master_open;
	char to_master[RELAY_BUF];
	size_t pending;
	char buf[EMPOWER_MSG_MAX];
};

static void daemon_message(struct client *c);

static void usage(FILE *f)
{
	fprintf(f, "usage: empower [-u USER] [--pipe|--pty] [--chdir DIR] [--setenv VAR=VAL]... "
		   "[--] [CMD [ARG...]]\n"
		   "Run CMD (default: the user's shell) as yourself or USER with every capability,\n"
		   "through empowerd(8) and the policy in /etc/ember/empower.conf.\n"
		   "  -u, --user USER      run as USER (name or uid) instead of yourself\n"
		   "      --pipe           connect the command to this stdin, stdout and stderr\n"
		   "      --pty            run it on a new terminal (default when on a terminal)\n"
		   "  -D, --chdir DIR      working directory (default: the current one)\n"
		   "      --setenv VAR=VAL set a variable (rules without cmd only)\n"
		   "      --socket PATH    empowerd's socket (default $%s or %s)\n"
		   "  -h, --help           this text\n"
		   "  -V, --version        the version\n",
		   SOCKET_ENV, EMPOWER_SOCKET);
}

/* "-u X", "--user X" or "--user=X": the value, or NULL when a is not this option. */
static const char *option_value(int argc, char **argv, int *i, const char *short_name,
				const char *long_name)
{
	const char *a = argv[*i];
	size_t n = strlen(long_name);
	if (strncmp(a, long_name, n) == 0 && a[n] == '=')
		return a + n + 1;
	if (strcmp(a, long_name) != 0 && !(short_name && strcmp(a, short_name) == 0))
		return NULL;
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "%s: needs a value", a);
	return argv[++*i];
}

/* Options end at the first word that is not one: the rest is the command, untouched. */
static void parse_options(int argc, char **argv, struct options *o)
{
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if ((v = option_value(argc, argv, &i, "-u", "--user"))) {
			if (!v[0])
				die(EXIT_USAGE, "%s: empty user name", a);
			o->user = v;
		} else if (strcmp(a, "--pipe") == 0) {
			o->mode = MODE_PIPE;
		} else if (strcmp(a, "--pty") == 0) {
			o->mode = MODE_PTY;
		} else if ((v = option_value(argc, argv, &i, "-D", "--chdir"))) {
			if (!v[0])
				die(EXIT_USAGE, "%s: empty directory", a);
			o->chdir = v;
		} else if ((v = option_value(argc, argv, &i, NULL, "--setenv"))) {
			char shown[256];
			if (!strchr(v, '=') || v[0] == '=')
				die(EXIT_USAGE, "--setenv %s: expected VAR=VALUE",
				    escape_text(v, shown, sizeof shown));
			if (o->req.setenvc >= EMPOWER_SETENV_MAX)
				die(EXIT_USAGE, "--setenv: more than %d", EMPOWER_SETENV_MAX);
			o->req.setenv[o->req.setenvc++] = v;
		} else if ((v = option_value(argc, argv, &i, NULL, "--socket"))) {
			o->socket = v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(0);
		} else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
			print_version("empower");
			exit(0);
		} else {
			char shown[256];
			usage(stderr);
			die(EXIT_USAGE, "%s: unknown option", escape_text(a, shown, sizeof shown));
		}
	}
	if (argc - i > EMPOWER_ARGS_MAX)
		die(EXIT_USAGE, "more than %d arguments", EMPOWER_ARGS_MAX);
	o->req.argc = (size_t)(argc - i);
	for (size_t k = 0; k < o->req.argc; k++)
		o->req.argv[k] = argv[i + (int)k];
	if (o->req.argc && !o->req.argv[0][0])
		die(EXIT_USAGE, "empty command name");
}

/* The variables empowerd may keep; it checks them again and drops the rest. */
static void collect_env(struct empower_request *r)
{
	for (char **e = environ; e && *e && r->envc < EMPOWER_ENV_MAX; e++)
		if (str_starts_with(*e, "TERM=") || str_starts_with(*e, "COLORTERM=") ||
		    str_starts_with(*e, "NO_COLOR=") || str_starts_with(*e, "LANG=") ||
		    str_starts_with(*e, "LC_"))
			r->env[r->envc++] = *e;
}

static int connect_daemon(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char shown[256];
	escape_text(path, shown, sizeof shown);
	if (str_copy(addr.sun_path, sizeof addr.sun_path, path) < 0)
		die(EXIT_USAGE, "%s: socket path too long", shown);
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die(EXIT_SYSTEM, "socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
		die(EXIT_SYSTEM, "%s: cannot connect to empowerd: %s", shown, strerror(errno));
	/* Whatever path the environment or the options named: only a server running as root
	 * gets our terminal, our directory or a password. */
	struct ucred peer;
	socklen_t len = sizeof peer;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0)
		die(EXIT_SYSTEM, "%s: cannot identify the server: %s", shown, strerror(errno));
	if (peer.uid != 0)
		die(EXIT_SYSTEM, "%s: the server runs as uid %u, not root: refusing to talk to it",
		    shown, (unsigned)peer.uid);
	return fd;
}

/* A closed standard fd would be taken by the next open(): refuse instead. */
static void check_standard_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0)
			die(EXIT_USAGE, "standard fd %d is closed", fd);
}

static void send_request(struct client *c, struct options *o)
{
	int fds[EMPOWER_FDS_MAX];
	size_t n = 0;
	int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cwd < 0)
		die(EXIT_SYSTEM, "the working directory: %s", strerror(errno));
	fds[n++] = cwd;
	o->req.flags = 0;
	if (c->tty >= 0) {
		o->req.flags |= EMPOWER_F_TTY;
		fds[n++] = c->tty;
	}
	if (c->use_pty) {
		o->req.flags |= EMPOWER_F_PTY;
		fds[n++] = c->pty.slave;
	} else {
		o->req.flags |= EMPOWER_F_PIPE;
		for (int k = 0; k < 3; k++)
			fds[n++] = k;
	}
	o->req.user = o->user ? o->user : "";
	o->req.chdir = o->chdir ? o->chdir : "";
	long len = empower_request_encode(&o->req, c->buf, sizeof c->buf);
	if (len < 0)
		die(EXIT_USAGE, "the command line is too long for one request");
	if (empower_send(c->sock, c->buf, (size_t)len, fds, n) < 0) {
		int err = errno;
		struct pollfd p = { .fd = c->sock, .events = POLLIN };
		if (poll(&p, 1, 0) > 0) /* turned away at once: the daemon says why */
			daemon_message(c);
		die(EXIT_SYSTEM, "sending the request: %s", strerror(err));
	}
	close(cwd);
	if (c->use_pty) {
		close(c->pty.slave); /* the session holds it now */
		c->pty.slave = -1;
	}
}

/* The signals relayed to the command. An ignored signal is dropped, not queued for the
 * signalfd (a shell ignores SIGINT for background jobs): take them back first. */
static const int relayed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH };

static int setup_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof relayed / sizeof relayed[0]; i++) {
		signal(relayed[i], SIG_DFL);
		sigaddset(&set, relayed[i]);
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		die(EXIT_SYSTEM, "signalfd: %s", strerror(errno));
	return fd;
}

static noreturn void finish(int code)
{
	terminal_restore();
	exit(code);
}

static void forward_signals(struct client *c)
{
	struct signalfd_siginfo si;
	char buf[64];
	while (read(c->sigfd, &si, sizeof si) == sizeof si) {
		if (si.ssi_signo == SIGWINCH && c->use_pty) {
			pty_copy_winsize(c->pty.master, c->tty >= 0 ? c->tty : 0);
			continue;
		}
		long n = empower_msg_encode(EMPOWER_SIGNAL, (int32_t)si.ssi_signo, "", buf, sizeof buf);
		if (n > 0)
			empower_send(c->sock, buf, (size_t)n, NULL, 0);
	}
}

static void answer_password(struct client *c, const char *prompt)
{
	char password[EMPOWER_PASSWORD_MAX + 1], buf[EMPOWER_PASSWORD_MAX + 64];
	int cancel = 0;
	/* The prompt starts from the caller's own modes (not the relay's raw ones): a ^Z
	 * while it is up must leave the shell a normal terminal. */
	bool was_raw = terminal_is_raw();
	terminal_restore();
	if (c->tty < 0 ||
	    terminal_read_password(c->tty, prompt, password, sizeof password, c->sigfd, &cancel) < 0)
		password[0] = '\0';
	if (was_raw && !cancel)
		terminal_raw(0);
	if (cancel) { /* interrupted: nothing is sent, the daemon runs nothing */
		explicit_bzero(password, sizeof password);
		terminal_restore();
		fprintf(stderr, "empower: cancelled\n");
		exit(128 + cancel);
	}
	long n = empower_msg_encode(EMPOWER_AUTH, 0, password, buf, sizeof buf);
	explicit_bzero(password, sizeof password);
	if (n > 0)
		empower_send(c->sock, buf, (size_t)n, NULL, 0);
	explicit_bzero(buf, sizeof buf);
}

/* The rest of the PTY output after the command exited. */
static void drain_master(struct client *c)
{
	char buf[RELAY_BUF];
	struct pollfd p = { .fd = c->pty.master, .events = POLLIN };
	while (c->master_open && poll(&p, 1, DRAIN_WAIT_MS) > 0) {
		ssize_t n = read(c->pty.master, buf, sizeof buf);
		if (n <= 0)
			break;
		io_write_all(1, buf, (size_t)n);
	}
}

static void print_line(const char *text)
{
	/* The terminal may be raw: end lines with CR LF. */
	fprintf(stderr, "empower: %s%s", text, terminal_is_raw() ? "\r\n" : "\n");
}

static void daemon_message(struct client *c)
{
	struct empower_msg m;
	int fds[EMPOWER_FDS_MAX];
	size_t nfds;
	long n = empower_recv(c->sock, c->buf, sizeof c->buf, fds, &nfds);
	for (size_t i = 0; n > 0 && i < nfds; i++)
		close(fds[i]);
	if (n <= 0) {
		terminal_restore();
		die(EXIT_SYSTEM, "empowerd closed the connection%s%s", n < 0 ? ": " : "",
		    n < 0 ? strerror(errno) : "");
	}
	if (empower_msg_decode(c->buf, (size_t)n, &m) < 0) {
		terminal_restore();
		die(EXIT_SYSTEM, "malformed message from empowerd");
	}
	switch (m.type) {
	case EMPOWER_ASK:
		answer_password(c, m.text);
		break;
	case EMPOWER_NOTICE:
		print_line(m.text);
		break;
	case EMPOWER_REFUSED:
		terminal_restore();
		print_line(m.text);
		finish(m.value > 0 && m.value < 256 ? m.value : EXIT_SYSTEM);
	case EMPOWER_EXIT:
		if (c->use_pty)
			drain_master(c);
		finish(m.value >= 0 ? m.value & 255 : 128 + ((-m.value) & 127));
	default:
		break;
	}
}

static void stdin_to_buffer(struct client *c)
{
	ssize_t n = read(0, c->to_master, sizeof c->to_master);
	if (n > 0) {
		c->pending = (size_t)n;
		return;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	c->stdin_open = false;
	if (!isatty(0)) { /* end of piped input: end of file on the terminal too */
		struct termios tio;
		char eof = tcgetattr(c->pty.master, &tio) == 0 ? (char)tio.c_cc[VEOF] : 4;
		c->to_master[0] = eof;
		c->pending = 1;
	}
}

static void buffer_to_master(struct client *c)
{
	ssize_t n = write(c->pty.master, c->to_master, c->pending);
	if (n > 0) {
		memmove(c->to_master, c->to_master + n, c->pending - (size_t)n);
		c->pending -= (size_t)n;
	} else if (n < 0 && errno != EAGAIN && errno != EINTR) {
		c->pending = 0;
		c->stdin_open = false;
	}
}

static void master_to_stdout(struct client *c)
{
	char buf[RELAY_BUF];
	ssize_t n = read(c->pty.master, buf, sizeof buf);
	if (n > 0)
		io_write_all(1, buf, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		c->master_open = false; /* EIO: every slave fd is closed */
}

static noreturn void relay(struct client *c)
{
	for (;;) {
		bool pty = c->use_pty;
		struct pollfd p[4] = {
			{ .fd = c->sock, .events = POLLIN },
			{ .fd = c->sigfd, .events = POLLIN },
			{ .fd = pty && c->stdin_open && !c->pending ? 0 : -1, .events = POLLIN },
			{ .fd = pty && c->master_open ? c->pty.master : -1,
			  .events = POLLIN | (c->pending ? POLLOUT : 0) },
		};
		if (poll(p, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			terminal_restore();
			die(EXIT_SYSTEM, "poll: %s", strerror(errno));
		}
		if (p[1].revents & POLLIN)
			forward_signals(c);
		if (p[2].revents & (POLLIN | POLLHUP | POLLERR))
			stdin_to_buffer(c);
		if (p[3].revents & POLLOUT)
			buffer_to_master(c);
		if (p[3].revents & (POLLIN | POLLHUP | POLLERR))
			master_to_stdout(c);
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR))
			daemon_message(c);
	}
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct client c;
	log_open("empower");
	/* PwnKit: with argc 0, argv[1] would be the environment; the kernel (5.18+) turns
	 * it into one empty argv[0]. Neither is an invocation anyone typed. */
	if (argc < 1 || !argv[0] || !argv[0][0])
		die(EXIT_USAGE, "no program name (argc is 0 or argv[0] is empty): refusing to run");
	check_standard_fds();
	parse_options(argc, argv, &o);
	if (!o.socket)
		o.socket = getenv(SOCKET_ENV) && *getenv(SOCKET_ENV) ? getenv(SOCKET_ENV) : EMPOWER_SOCKET;
	collect_env(&o.req);
	c.tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
	c.use_pty = o.mode == MODE_PTY || (o.mode == MODE_AUTO && isatty(0) && isatty(1));
	c.sigfd = setup_signals();
	c.sock = connect_daemon(o.socket);
	if (c.use_pty) {
		int term = isatty(0) ? 0 : c.tty;
		if (pty_open(&c.pty, term) < 0)
			die(EXIT_SYSTEM, "cannot open a PTY: %s", strerror(errno));
		fcntl(c.pty.master, F_SETFL, fcntl(c.pty.master, F_GETFL) | O_NONBLOCK);
		c.stdin_open = c.master_open = true;
	}
	send_request(&c, &o);
	if (c.use_pty && isatty(0))
		terminal_raw(0);
	relay(&c);
}
