#ifndef EMBERCTL_CLIENT_H
#define EMBERCTL_CLIENT_H
/* The client end of the control protocol: connect, send one request, collect the
 * reply. 'T' and 'E' packets are written out as they arrive (log follow streams);
 * 'R' payloads are collected for the views. */
#include <stdbool.h>
#include <stdio.h>

#define CLIENT_RECORDS_MAX (16u << 20) /* bytes of records a reply may hold */

enum client_result {
	CLIENT_DONE = 1,      /* the 'X' packet arrived */
	CLIENT_MORE = 0,      /* packet taken, expect more */
	CLIENT_PROTOCOL = -1, /* the server broke the protocol; err says how */
	CLIENT_SYSTEM = -2,   /* a system call failed; err says which */
	CLIENT_TIMEOUT = -3,  /* no (complete) answer before the deadline */
};

struct reply {
	char *records;      /* the 'R' payloads, concatenated (malloc'd) */
	size_t records_len;
	int status;         /* from the 'X' packet; -1 before it */
	FILE *text;         /* where 'T' payloads go */
	size_t text_len;    /* bytes of them so far */
	bool text_tty;      /* text is a terminal: escape control bytes in 'T' */
	FILE *errors;       /* where 'E' messages go, as "emberctl: message" */
};

void reply_init(struct reply *r, FILE *text, bool text_tty, FILE *errors);
void reply_free(struct reply *r);
/* Take one reply packet. Returns CLIENT_DONE, CLIENT_MORE or CLIENT_PROTOCOL. */
int reply_packet(struct reply *r, const char *packet, size_t len, char *err, size_t errlen);

#define CLIENT_TIMEOUT_MS_DEFAULT 10000 /* emberctl --timeout */

/* Connect to the control socket. Returns the fd, or -1 with err set. */
int client_connect(const char *path, char *err, size_t errlen);
/* Bound every later step on fd (connect, send, each wait for a packet) by timeout_ms
 * from now; 0 = no bound. A server that accepts and never answers makes
 * client_exchange() fail with CLIENT_TIMEOUT instead of hanging. */
void client_set_deadline(long timeout_ms);
/* Connect, within the deadline if one is set (a full backlog blocks connect). */
int client_connect_timed(const char *path, char *err, size_t errlen);
/* Send the request, then read packets into r until the 'X' packet. Returns
 * CLIENT_DONE, CLIENT_PROTOCOL, CLIENT_SYSTEM or CLIENT_TIMEOUT. follow: once the
 * first packet is in, wait for later ones without a deadline (log -f). */
int client_exchange(int fd, const char *request, size_t len, struct reply *r, char *err,
		    size_t errlen);
int client_exchange_follow(int fd, const char *request, size_t len, struct reply *r, char *err,
			   size_t errlen, bool follow);
#endif
