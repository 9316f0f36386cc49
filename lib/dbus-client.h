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

struct dbus_conn {
	int fd;
	uint32_t serial;          /* of the last call sent */
	size_t len;               /* bytes in buf */
	size_t pending;           /* size of the message handed out last, dropped on the next read */
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
void dbus_conn_close(struct dbus_conn *c);

/* Send a call to the bus driver (see dbus_call_build); its serial in *serial. 0 or -1. */
int dbus_conn_call(struct dbus_conn *c, const char *member, const char *arg, bool with_u32,
		   uint32_t u32, uint32_t *serial);

/* The next whole message into *m (pointing into c->buf, valid until the next read).
 * 1: a message; 0: deadline passed; -1: error, end of file or a malformed message
 * (errno EBADMSG). */
int dbus_conn_read(struct dbus_conn *c, struct dbus_msg *m, long long deadline_ms);

/* Read until the reply (return or error) to serial: 1 return, 0 deadline, -1 error
 * (an ERROR reply: errno EREMOTEIO, its name in m->error_name). */
int dbus_conn_wait_reply(struct dbus_conn *c, uint32_t serial, struct dbus_msg *m,
			 long long deadline_ms);

long long dbus_now_ms(void); /* CLOCK_MONOTONIC */
#endif
