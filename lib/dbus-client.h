#ifndef EMBER_DBUS_CLIENT_H
#define EMBER_DBUS_CLIENT_H
/* A minimal D-Bus client over one unix socket: connect, authenticate (EXTERNAL, as the
 * caller's uid), Hello, method calls to the bus driver and bounded reads of whole
 * messages (dbus-wire.h). For ember-busname-wait(8) and the tests; no library. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dbus-wire.h"

#define DBUS_SYSTEM_BUS_DEFAULT "unix:path=/run/dbus/system_bus_socket"
/* fds received and not yet handed out with their message: the system bus sends at most
 * 16 with one message and keeps at most 64 in flight to one connection (dbus-daemon's
 * max_message_unix_fds, max_outgoing_unix_fds) */
#define DBUS_CONN_FDS_MAX 64

struct dbus_conn {
	int fd;
	uint32_t serial;          /* of the last call sent */
	size_t len;               /* bytes in buf */
	size_t pending;           /* size of the message handed out last, dropped on the next read */
	/* Unix fds (SCM_RIGHTS, close-on-exec), in the order they came: the first
	 * pending_fds belong to the message handed out last and are closed on the next read
	 * unless taken (dbus_conn_take_fd). */
	int fds[DBUS_CONN_FDS_MAX];
	/* where in buf the bytes an fd came with end: an fd whose bytes all belong to one
	 * message is that message's, or surplus (closed when the message is read) */
	size_t fd_end[DBUS_CONN_FDS_MAX];
	size_t nfds, pending_fds;
	/* more came than fit: until buf is consumed past lost_end, the bytes the last lost fd
	 * came with, a message that names fds is dropped (a flood costs its senders, not the
	 * connection); dropped counts them */
	bool fds_lost;
	size_t lost_end;
	unsigned long dropped;
	uint8_t buf[DBUS_MSG_MAX];
};

/* The first unix:path= or unix:abstract= address in a D-Bus address list ("a;b", keys
 * after ',' ignored, %XX escapes decoded) into path (abstract: a leading '@'). 0 or -1. */
int dbus_address_unix(const char *address, char *path, size_t size);

/* Connect to address (NULL: $DBUS_SYSTEM_BUS_ADDRESS or the default system bus),
 * authenticate and say Hello, all before deadline_ms (CLOCK_MONOTONIC; -1 none).
 * 0, or -1 with the reason in err and errno: from connect() (ENOENT, ECONNREFUSED:
 * the bus is not there yet), EINVAL (no usable address), EPROTO (refused or broken
 * conversation), ETIMEDOUT (no answer before the deadline). */
int dbus_conn_open(struct dbus_conn *c, const char *address, long long deadline_ms,
		   char *err, size_t errlen);
/* The same, and NEGOTIATE_UNIX_FD: replies may carry fds ('h'). A bus that does not
 * agree fails the open (EPROTO, "the bus does not pass file descriptors"). */
int dbus_conn_open_fds(struct dbus_conn *c, const char *address, long long deadline_ms,
		       char *err, size_t errlen);
void dbus_conn_close(struct dbus_conn *c);

/* Send any message (dbus_msg_build) with the next serial, returned in *serial. 0 or -1
 * (EMSGSIZE: it does not fit in 4 KiB). */
int dbus_conn_send(struct dbus_conn *c, struct dbus_out *o, uint32_t *serial);

/* The fd at index (an 'h' value) of the message dbus_conn_read handed out last: the
 * caller owns it from then on (close-on-exec set). -1 (EBADF) when there is none. */
int dbus_conn_take_fd(struct dbus_conn *c, uint32_t index);

/* Send a call to the bus driver (see dbus_call_build); its serial in *serial. 0 or -1. */
int dbus_conn_call(struct dbus_conn *c, const char *member, const char *arg, bool with_u32,
		   uint32_t u32, uint32_t *serial);

/* The next whole message into *m (pointing into c->buf, valid until the next read).
 * 1: a message; 0: deadline passed; -1: error, end of file or a malformed message
 * (errno EBADMSG; also when it names more fds than came with it). */
int dbus_conn_read(struct dbus_conn *c, struct dbus_msg *m, long long deadline_ms);
/* The same, and 0 also as soon as wake (>= 0) is readable: the caller reads it. */
int dbus_conn_read_or_wake(struct dbus_conn *c, struct dbus_msg *m, long long deadline_ms,
			   int wake);

/* Read until the reply (return or error) to serial: 1 return, 0 deadline, -1 error
 * (an ERROR reply: errno EREMOTEIO, its name in m->error_name). */
int dbus_conn_wait_reply(struct dbus_conn *c, uint32_t serial, struct dbus_msg *m,
			 long long deadline_ms);

/* The same, and only from sender (a unique name, or DBUS_DRIVER for the bus's own
 * replies; the bus sets every message's sender, so it cannot be forged): a reply with
 * the serial from anyone else is skipped. */
#define DBUS_DRIVER "org.freedesktop.DBus"
int dbus_conn_wait_reply_from(struct dbus_conn *c, uint32_t serial, const char *sender,
			      struct dbus_msg *m, long long deadline_ms);

long long dbus_now_ms(void); /* CLOCK_MONOTONIC */
#endif
