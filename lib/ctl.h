#ifndef EMBER_CTL_H
#define EMBER_CTL_H
/* The control protocol between emberctl and ember-init (PID 1): the wire format, shared
 * by both ends. docs/control-protocol.md is the specification; this is its code.
 *
 * One request packet per connection on an AF_UNIX SOCK_SEQPACKET socket; the reply is
 * one or more packets whose first byte says what they hold (CTL_KIND_*), an 'X' packet
 * with the exit status always last. Records (service state, boot timings) are key=value
 * lines ending with an empty line, values escaped so nothing can break the framing.
 *
 * Nothing here allocates: PID 1 uses the parser and the writer on its own paths.
 */
#include <stdbool.h>
#include <stddef.h>

#define CTL_SOCKET_PATH "/run/ember/control"
#define CTL_SOCKET_ENV "EMBER_CONTROL_SOCKET" /* emberctl: another socket, for tests */

#define CTL_REQUEST_MAX 512   /* bytes in a request packet */
#define CTL_PACKET_MAX 4096   /* bytes in a reply packet, the kind byte included */
#define CTL_NAME_MAX 64       /* a service name's bytes incl. NUL: at most 63 */
#define CTL_KEY_MAX 32        /* a record key's bytes, NUL excluded */
#define CTL_RECORD_FIELDS_MAX 64
#define CTL_OPTIONS_MAX 8     /* options in one request */

/* Reply packet kinds: the first byte of every reply packet. */
#define CTL_KIND_RECORD 'R' /* complete key=value lines of records */
#define CTL_KIND_TEXT 'T'   /* text to print as is (log lines) */
#define CTL_KIND_ERROR 'E'  /* one error message, for stderr */
#define CTL_KIND_EXIT 'X'   /* decimal exit status; always the last packet */

/* The exit statuses a server sends in 'X' (emberctl exits with them). */
enum ctl_status {
	CTL_STATUS_OK = 0,
	CTL_STATUS_FAILED = 1,      /* the request failed; an 'E' packet says why */
	CTL_STATUS_BAD_REQUEST = 2, /* the server could not parse the request */
	CTL_STATUS_NOT_RUNNING = 3, /* reserved: emberctl derives it from the state */
	CTL_STATUS_NO_SUCH_SERVICE = 4,
	CTL_STATUS_MAX = 4,         /* highest status a server may send */
};

enum ctl_verb {
	CTL_LIST, CTL_STATUS, CTL_START, CTL_STOP, CTL_RESTART, CTL_RELOAD, CTL_LOG,
	CTL_ANALYZE, CTL_POWEROFF, CTL_REBOOT, CTL_HALT,
	/* PID 1 hardening (issue 14) */
	CTL_DAEMON_REEXEC,
	/* emberctl verbs (issue 17) */
	CTL_KILL,
	CTL_VERB_COUNT,
};

/* Request options: bits of ctl_request.options. */
#define CTL_OPT_FOLLOW 0x1u /* "follow": log keeps sending new lines */
/* emberctl verbs (issue 17) */
#define CTL_OPT_STAMPED 0x2u /* "stamped": log sends records with each line's time */
/* sessions: "hold" on start: the unit counts as needed (StopWhenUnneeded=) until it is
 * stopped by name, as a logind session's scope needs user-runtime-dir@ (ember-activator) */
#define CTL_OPT_HOLD 0x4u
/* "release" on stop: only the hold is dropped; the unit stops when nothing else needs it
 * (a device that wanted it went away: ember-udev-wants) */
#define CTL_OPT_RELEASE 0x8u
/* "no-start" on reload without a name: the units the reload newly loads and would start
 * stay stopped, each named in a "not started NAME" line (Debian's dpkg hook asks
 * policy-rc.d about them first, as deb-systemd-invoke would) */
#define CTL_OPT_NO_START 0x10u

/* kill's "whom=": which of the service's processes get the signal (systemctl
 * --kill-whom=). Every process of its cgroup is the default, as for systemctl. */
enum ctl_whom { CTL_WHOM_ALL, CTL_WHOM_MAIN, CTL_WHOM_CONTROL, CTL_WHOM_COUNT };
#define CTL_SIGNAL_MAX 64 /* kill's "signal=": 1..64, Linux's signal numbers */

struct ctl_request {
	enum ctl_verb verb;
	char name[CTL_NAME_MAX]; /* "" for verbs without a service name */
	unsigned options;        /* CTL_OPT_* */
	/* emberctl verbs (issue 17): options with a value ("word=value"); 0 when absent */
	unsigned long long from; /* log follow: "from=CURSOR", the cursor a stamped reply
				  * ended with (0: the whole buffer) */
	int signal;              /* kill: "signal=N", 1..CTL_SIGNAL_MAX (required) */
	enum ctl_whom whom;      /* kill: "whom=main|control|all" */
};

/* "all", "main", "control"; NULL when out of range. */
const char *ctl_whom_name(enum ctl_whom whom);

/* "list", "status", ...; NULL when verb is out of range. */
const char *ctl_verb_name(enum ctl_verb verb);
/* The verb called word, or -1. */
int ctl_verb_from_name(const char *word);
/* Does the verb change anything (start, stop, ..., poweroff, daemon-reexec)? Every
 * other verb only reads, and is open to every user. */
bool ctl_verb_changes(enum ctl_verb verb);
/* Does the verb take a service name (status, start, stop, restart, log)? reload re-reads
 * every file and takes none. */
bool ctl_verb_takes_name(enum ctl_verb verb);
/* U2: verbs with an optional service name ("reload" vs "reload NAME"). */
bool ctl_verb_name_optional(enum ctl_verb verb);
/* 1..63 bytes of [A-Za-z0-9_.:-], not starting with '.' or '-' (as service names). */
bool ctl_name_valid(const char *name);

/* Parse a request packet of len bytes (no NUL terminator needed; a NUL byte is an
 * error). Returns 0, or -1 with a message in err (which names what was wrong, never
 * quoting more than a short, printable excerpt) and req zeroed. */
int ctl_request_parse(const char *buf, size_t len, struct ctl_request *req, char *err,
		      size_t errlen);
/* Format req as a request packet into buf (NUL-terminated; the packet is the bytes
 * before the NUL). Returns its length, or -1 with a message in err when req is not a
 * request ctl_request_parse() would accept. */
int ctl_request_format(const struct ctl_request *req, char *buf, size_t size, char *err,
		       size_t errlen);

/* ---- the server's writer -------------------------------------------------------------
 * Records and text are packed into packets of at most CTL_PACKET_MAX bytes in the
 * writer's own buffer; a full packet goes to send(). A record line never spans two
 * packets (a value too long for one packet is cut, at an escape boundary); a record
 * may. Kinds never mix in one packet. After a failed send() the writer is "failed":
 * every later call does nothing and returns -1, so the server may write a whole reply
 * and check once at the end. */
typedef int (*ctl_send_fn)(void *ctx, const char *packet, size_t len); /* 0 or -1 */

struct ctl_writer {
	ctl_send_fn send;
	void *ctx;
	bool failed;    /* a send failed: the reply is lost */
	bool in_record; /* between ctl_record_begin() and ctl_record_end() */
	bool finished;  /* the 'X' packet went out */
	size_t len;     /* bytes in packet[], kind byte included; 0: empty */
	char packet[CTL_PACKET_MAX];
};

void ctl_writer_init(struct ctl_writer *w, ctl_send_fn send, void *ctx);
/* Send the packet being filled, if any. For "log follow": call after new lines. */
int ctl_writer_flush(struct ctl_writer *w);

int ctl_record_begin(struct ctl_writer *w);
/* key: 1..CTL_KEY_MAX bytes of [a-z0-9_]. value: any C string (NULL: ""); escaped on
 * the wire. */
int ctl_record_add_str(struct ctl_writer *w, const char *key, const char *value);
int ctl_record_add_int(struct ctl_writer *w, const char *key, long long value);
int ctl_record_end(struct ctl_writer *w);

/* Text for 'T' packets, split over as many as needed; consecutive calls share packets
 * until a flush. */
int ctl_write_text(struct ctl_writer *w, const char *text, size_t len);
/* One 'E' packet (flushes what is pending first); cut to fit one packet. */
int ctl_write_error(struct ctl_writer *w, const char *message);
/* Flush, then the final 'X' packet. status: 0..255 (see enum ctl_status). */
int ctl_write_exit(struct ctl_writer *w, int status);

/* ---- the client's reader ------------------------------------------------------------- */

/* Bytes needed to escape value (its escaped length), and the escape itself into out
 * (NUL-terminated, size >= that length + 1). Exposed for tests and tools. */
size_t ctl_escaped_len(const char *value);
void ctl_escape(const char *value, char *out);

/* An 'X' packet's payload (the bytes after 'X'): 1..3 digits, 0..255, no sign, no
 * leading zero. Returns 0 with *status set, or -1. */
int ctl_parse_exit(const char *payload, size_t len, int *status);

struct ctl_field {
	const char *key;
	const char *value;
};

struct ctl_record {
	size_t count;
	struct ctl_field field[CTL_RECORD_FIELDS_MAX];
};

/* Read the next record from the record stream text[*pos..len) (the 'R' payloads of a
 * reply, concatenated). Parses in place: keys and values are NUL-terminated and values
 * unescaped inside text, and rec points into it. Returns 1 with rec filled and *pos
 * past the record, 0 at the end of the stream, or -1 with a message in err on a
 * malformed stream: a truncated record, a line without '=', a bad key, a raw control
 * byte, a bad escape, a duplicate key, an empty record, too many fields. */
int ctl_record_read(char *text, size_t len, size_t *pos, struct ctl_record *rec,
		    char *err, size_t errlen);
/* The value of key, or NULL when the record has none. */
const char *ctl_record_get(const struct ctl_record *rec, const char *key);
/* The value of key as an integer. Returns 0, or -1 when missing or not a number. */
int ctl_record_get_int(const struct ctl_record *rec, const char *key, long long *out);
#endif
