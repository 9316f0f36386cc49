#ifndef EMBER_EMPOWER_PROTO_H
#define EMBER_EMPOWER_PROTO_H
/* The empower protocol: one AF_UNIX SOCK_SEQPACKET connection per session, one datagram
 * per message (docs/empower.md). Every message starts with a uint32 type. The client
 * sends a REQUEST with its fds attached (SCM_RIGHTS), the daemon may send ASK (a
 * password prompt) and the client answers with AUTH; the daemon then sends NOTICE
 * lines, and finally REFUSED or EXIT. While the command runs the client may send SIGNAL.
 *
 * Decoding never trusts the peer: lengths are checked, strings must be NUL-terminated
 * inside the message, counts are bounded. Decoded strings point into the caller's
 * buffer; nothing is allocated. */
#include <stddef.h>
#include <stdint.h>

#define EMPOWER_SOCKET "/run/ember/empower"
#define EMPOWER_MSG_MAX 65536   /* bytes per datagram */
#define EMPOWER_ARGS_MAX 1024   /* command arguments */
#define EMPOWER_ENV_MAX 64      /* environment entries passed by the client */
#define EMPOWER_SETENV_MAX 32   /* --setenv entries */
#define EMPOWER_FDS_MAX 5       /* cwd, tty, and stdin/stdout/stderr or the PTY */
#define EMPOWER_PASSWORD_MAX 512

enum empower_msg_type {
	EMPOWER_REQUEST = 1, /* client: the request (struct empower_request) */
	EMPOWER_AUTH = 2,    /* client: text = the password */
	EMPOWER_SIGNAL = 3,  /* client: value = a signal for the command */
	EMPOWER_ASK = 10,    /* daemon: text = the prompt */
	EMPOWER_NOTICE = 11, /* daemon: text = a line for the user (a warning) */
	EMPOWER_REFUSED = 12,/* daemon: value = exit code, text = why; nothing ran */
	EMPOWER_EXIT = 13,   /* daemon: value = exit code or -signal of the command */
};

/* Request flags: which fds follow the cwd fd, in this order. */
enum {
	EMPOWER_F_TTY = 1u << 0,  /* the caller's terminal (password prompt, persist key) */
	EMPOWER_F_PIPE = 1u << 1, /* stdin, stdout, stderr */
	EMPOWER_F_PTY = 1u << 2,  /* the PTY's terminal side */
	EMPOWER_F_KNOWN = EMPOWER_F_TTY | EMPOWER_F_PIPE | EMPOWER_F_PTY,
};

struct empower_request {
	uint32_t flags;
	const char *user;  /* "" = the caller */
	const char *chdir; /* "" = the passed directory fd */
	size_t envc;
	const char *env[EMPOWER_ENV_MAX];
	size_t setenvc;
	const char *setenv[EMPOWER_SETENV_MAX];
	size_t argc;       /* 0: the target user's shell */
	const char *argv[EMPOWER_ARGS_MAX + 1]; /* NULL-terminated */
};

/* A message other than REQUEST: a value and a text (may be ""). */
struct empower_msg {
	uint32_t type;
	int32_t value;
	const char *text;
};

/* Number of fds a request with these flags carries (-1: invalid flags). */
int empower_request_fds(uint32_t flags);

/* Encode into buf: the length, or -1/E2BIG. */
long empower_request_encode(const struct empower_request *r, char *buf, size_t size);
long empower_msg_encode(uint32_t type, int32_t value, const char *text, char *buf, size_t size);
/* Decode: 0, or -1/EBADMSG (malformed) or E2BIG (too many items). buf[len] need not be
 * NUL; strings point into buf. */
int empower_request_decode(const char *buf, size_t len, struct empower_request *out);
int empower_msg_decode(const char *buf, size_t len, struct empower_msg *out);

/* One datagram with fds (nfds may be 0). 0 or -1/errno. */
int empower_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds);
/* Receive one datagram into buf (size >= EMPOWER_MSG_MAX is wise) and up to
 * EMPOWER_FDS_MAX fds (close-on-exec). Returns the length, 0 at end of file, or
 * -1/errno: EMSGSIZE when the datagram or its fds were truncated (any fds received
 * are closed). */
long empower_recv(int sock, void *buf, size_t size, int *fds, size_t *nfds);
#endif
