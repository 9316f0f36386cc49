#ifndef EMBER_DBUS_WIRE_H
#define EMBER_DBUS_WIRE_H
/* The few pieces of the D-Bus wire protocol ember needs (docs/dbus.md): bus name
 * validity, building method calls to the bus driver, and a bounded parser of the
 * messages the bus sends back. Pure: no I/O, no allocation. The parser takes untrusted
 * bytes: every length and offset is checked against the buffer before it is used, and a
 * message larger than DBUS_MSG_MAX is refused. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DBUS_NAME_MAX 255
#define DBUS_MSG_MAX 65536 /* the largest message read; the bus allows more, ember needs less */

enum dbus_msg_type {
	DBUS_METHOD_CALL = 1, DBUS_METHOD_RETURN = 2, DBUS_ERROR = 3, DBUS_SIGNAL = 4,
};

/* A parsed message; the strings point into the caller's buffer (NUL-terminated there,
 * checked), NULL when the header field is absent. */
struct dbus_msg {
	uint8_t type, flags;
	bool big_endian;
	uint32_t serial, reply_serial;
	const char *path, *interface, *member, *error_name, *destination, *sender, *signature;
	const uint8_t *body;
	uint32_t body_len;
	uint32_t unix_fds; /* UNIX_FDS: how many fds came with it (dbus-client.h keeps them) */
};

/* A well-known bus name: 1..255 bytes, two or more '.'-separated non-empty elements of
 * [A-Za-z0-9_-], no element starting with a digit. Unique names (":1.5") are refused. */
bool dbus_name_valid(const char *name);

/* The total size of the message that starts at buf, from its fixed 16-byte header:
 * > 0; 0 when fewer than 16 bytes are there; -1 when the header is malformed or the
 * message is larger than DBUS_MSG_MAX. */
long dbus_msg_size(const uint8_t *buf, size_t len);

/* Parse one whole message of exactly len bytes. 0, or -1 when anything is malformed. */
int dbus_msg_parse(const uint8_t *buf, size_t len, struct dbus_msg *m);

/* Body readers. The signature must be exactly "s" * n, or "b", or "u". 0 or -1. */
int dbus_body_strings(const struct dbus_msg *m, const char **out, size_t n);
int dbus_body_bool(const struct dbus_msg *m, bool *out);
int dbus_body_u32(const struct dbus_msg *m, uint32_t *out); /* signature exactly "u" */

/* A body of basic types, read in order: the signature must be exactly sig, each of
 * s o g u h b i. Strings point into the message; 'h' gives the index among the
 * message's fds, checked against its UNIX_FDS field. 0, or -1 when anything is off. */
union dbus_value {
	const char *s;
	uint32_t u;
	bool b;
};
#define DBUS_VALUES_MAX 16
int dbus_body_read(const struct dbus_msg *m, const char *sig, union dbus_value *out);

/* StartTransientUnit(name, mode, properties a(sv), aux a(sa(sv))), as logind sends it
 * for a session's scope: the name and mode, and of the properties Slice=, Description=,
 * PIDs= and Requires=/Wants= (together in wants[]); every other property and the aux
 * units are checked for form and skipped. Strings point into the message. overflow: more
 * PIDs or units than fit. 0, or -1 when the body is malformed or a property ember reads
 * has the wrong type. */
#define DBUS_TRANSIENT_PIDS_MAX 16
#define DBUS_TRANSIENT_UNITS_MAX 8
struct dbus_transient {
	const char *name, *mode, *slice, *description;
	uint32_t pids[DBUS_TRANSIENT_PIDS_MAX];
	size_t pid_count;
	/* PIDFDs= (logind 257): indices into the message's fds, each below its unix_fds */
	uint32_t pidfds[DBUS_TRANSIENT_PIDS_MAX];
	size_t pidfd_count;
	const char *wants[DBUS_TRANSIENT_UNITS_MAX];
	size_t want_count;
	bool overflow;
};
int dbus_body_transient_unit(const struct dbus_msg *m, struct dbus_transient *t);

/* A body "as" followed by booleans, exactly sig ("asb", "asbb": Disable/EnableUnitFiles):
 * up to max strings into out (pointing into the message), their number in *n. The
 * booleans are checked, not returned. 0, or -1 when malformed or more than max. */
int dbus_body_string_array(const struct dbus_msg *m, const char *sig, const char **out,
			   size_t max, size_t *n);

/* A method call to the bus driver (org.freedesktop.DBus) named member, with no argument
 * (arg NULL), a string, or a string and a uint32 (with_u32). Little-endian. Returns the
 * message's length, or 0 when it does not fit in size. */
size_t dbus_call_build(uint8_t *buf, size_t size, uint32_t serial, const char *member,
		       const char *arg, bool with_u32, uint32_t u32);

/* Any message, for a program that answers on the bus (ember-activator(8)): header fields
 * that are NULL (or reply_serial 0) are left out. The body is what signature spells, at
 * most DBUS_ARGS_MAX arguments: 's' and 'o' take args[i] at their position, 'v' too (a
 * variant holding that string), one 'u' takes u32 (JobRemoved's "uoss"). Little-endian. Returns the message's length, or 0 when it does not fit in size or
 * the signature is not of that form. */
#define DBUS_ARGS_MAX 4
struct dbus_body;
struct dbus_out {
	uint8_t type, flags;
	uint32_t serial, reply_serial;
	const char *path, *interface, *member, *error_name, *destination;
	const char *signature; /* NULL or "": no body */
	const char *args[DBUS_ARGS_MAX];
	uint32_t u32;
	/* Instead of args and u32: a body the caller wrote (struct dbus_body), for calls with
	 * other arguments (ember-session's CreateSession); signature then is any valid one. */
	const struct dbus_body *body;
	uint32_t unix_fds; /* the UNIX_FDS field when not 0 (the fds go with sendmsg) */
};
size_t dbus_msg_build(uint8_t *buf, size_t size, const struct dbus_out *o);

/* A body written by the caller, for dbus_out.body. Positions count from the body's
 * start, which is 8-aligned in a message, so the alignment rules come out the same.
 * Writes past size set full (and dbus_msg_build then fails). Little-endian. */
struct dbus_body {
	uint8_t *buf;
	size_t len, size;
	bool full;
};
void dbus_put_u32(struct dbus_body *b, uint32_t v);
void dbus_put_bool(struct dbus_body *b, bool v);
void dbus_put_string(struct dbus_body *b, const char *s); /* 's' or 'o' */
void dbus_put_empty_array(struct dbus_body *b, char element); /* "a" + element type */
void dbus_put_variant_u64(struct dbus_body *b, uint64_t v); /* 'v' holding a 't' */
/* "a{sv}" whose n values are strings (Properties.GetAll's answer). */
void dbus_put_dict_sv(struct dbus_body *b, const char *const *keys, const char *const *values,
		      size_t n);

/* "AUTH EXTERNAL <hex of the decimal uid>\r\n" into buf. Its length, or 0 if too small. */
size_t dbus_auth_line(char *buf, size_t size, unsigned long uid);
#endif
