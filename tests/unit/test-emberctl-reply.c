// sources: emberctl/client.c emberctl/records.c
/* emberctl's reply reader against hostile servers: unknown packet kinds, a missing or
 * malformed final status, packets after it, cut record lines and oversized packets are
 * protocol errors, never crashes or misreads; text and errors reach the terminal with
 * control bytes escaped. */
#include "harness.h"
#include "client.h"
#include "ctl.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static struct reply r;
static char *text_out, *err_out;
static size_t text_len, err_len;
static FILE *text_f, *err_f;
static char err[256];

static void start(bool tty)
{
	text_f = open_memstream(&text_out, &text_len);
	err_f = open_memstream(&err_out, &err_len);
	reply_init(&r, text_f, tty, err_f);
}

static void finish_streams(void)
{
	fclose(text_f);
	fclose(err_f);
}

static void done(void)
{
	reply_free(&r);
	free(text_out);
	free(err_out);
	text_out = err_out = NULL;
}

static int pkt(const char *p)
{
	return reply_packet(&r, p, strlen(p), err, sizeof err);
}

static void a_normal_reply(void)
{
	start(false);
	CHECK(pkt("Rname=a\nstate=running\n") == CLIENT_MORE);
	CHECK(pkt("R\nname=b\n\n") == CLIENT_MORE);
	CHECK(pkt("Tline one\n") == CLIENT_MORE);
	CHECK(pkt("Ewarning: something") == CLIENT_MORE);
	CHECK(pkt("X0") == CLIENT_DONE);
	finish_streams();
	CHECK(r.status == 0);
	CHECK_STR(r.records, "name=a\nstate=running\n\nname=b\n\n");
	CHECK(r.records_len == strlen(r.records));
	CHECK_STR(text_out, "line one\n");
	CHECK_STR(err_out, "ember: warning: something\n");
	done();
}

static void status_passes_through(void)
{
	start(false);
	CHECK(pkt("Esshd: no such service") == CLIENT_MORE);
	CHECK(pkt("X4") == CLIENT_DONE);
	CHECK(r.status == 4);
	finish_streams();
	done();
}

static void protocol_errors(void)
{
	static const char *const bad[] = {
		"Zgarbage", "r lower case kind", "X", "X-1", "X256", "X01", "X0 ", "Xabc",
		"Rname=a", "R", "\x01", "{\"json\":1}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		start(false);
		err[0] = '\0';
		int res = pkt(bad[i]);
		CHECK(res == CLIENT_PROTOCOL);
		if (res != CLIENT_PROTOCOL)
			printf("  packet %zu was taken\n", i);
		CHECK(err[0] != '\0');
		finish_streams();
		done();
	}
	start(false);
	CHECK(reply_packet(&r, "", 0, err, sizeof err) == CLIENT_PROTOCOL);
	CHECK(reply_packet(&r, "X0\0", 3, err, sizeof err) == CLIENT_PROTOCOL);
	CHECK(pkt("X1") == CLIENT_DONE);
	CHECK(pkt("Tafter the end") == CLIENT_PROTOCOL);
	CHECK(strstr(err, "after the final status") != NULL);
	finish_streams();
	done();
}

static void control_bytes_are_escaped_on_terminals(void)
{
	start(true);
	CHECK(reply_packet(&r, "Tok\tline\n\x1b[2J\0end\n", 18, err, sizeof err) == CLIENT_MORE);
	CHECK(reply_packet(&r, "Ebad\nerror\x1b[0m\0", 15, err, sizeof err) == CLIENT_MORE);
	finish_streams();
	CHECK_STR(text_out, "ok\tline\n\\x1b[2J\\x00end\n");
	CHECK_STR(err_out, "ember: bad\\nerror\\x1b[0m\\x00\n");
	done();
	/* Not a terminal: log lines pass as they are. */
	start(false);
	CHECK(reply_packet(&r, "Ta\x1b" "b\n", 5, err, sizeof err) == CLIENT_MORE);
	finish_streams();
	CHECK(text_len == 4 && memcmp(text_out, "a\x1b" "b\n", 4) == 0);
	done();
}

/* A server end that sends packets, then closes. Small packets: they fit the socket
 * buffer, so no second thread is needed. */
static int exchange(const char *const *packets, size_t n, const char *big, size_t big_len)
{
	int sv[2];
	int res;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0)
		return -100;
	for (size_t i = 0; i < n; i++)
		send(sv[1], packets[i], strlen(packets[i]), 0);
	if (big)
		send(sv[1], big, big_len, 0);
	close(sv[1]);
	start(false);
	res = client_exchange(sv[0], "list", 4, &r, err, sizeof err);
	finish_streams();
	close(sv[0]);
	return res;
}

static void exchange_over_a_socket(void)
{
	static const char *const good[] = { "Rname=a\n\n", "X0" };
	static const char *const no_exit[] = { "Rname=a\n\n", "Tsome text\n" };
	static const char *const nothing[] = { NULL };
	char big[CTL_PACKET_MAX + 100];

	CHECK(exchange(good, 2, NULL, 0) == CLIENT_DONE);
	CHECK(r.status == 0 && strcmp(r.records, "name=a\n\n") == 0);
	done();
	CHECK(exchange(no_exit, 2, NULL, 0) == CLIENT_PROTOCOL);
	CHECK(strstr(err, "closed before the final status") != NULL);
	done();
	CHECK(exchange(nothing, 0, NULL, 0) == CLIENT_PROTOCOL);
	done();
	memset(big, 'a', sizeof big);
	big[0] = 'T';
	CHECK(exchange(nothing, 0, big, sizeof big) == CLIENT_PROTOCOL);
	CHECK(strstr(err, "longer than 4096") != NULL);
	done();
	/* Exactly CTL_PACKET_MAX is fine. */
	static const char *const then_exit[] = { "X0" };
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	send(sv[1], big, CTL_PACKET_MAX, 0);
	send(sv[1], then_exit[0], 2, 0);
	close(sv[1]);
	start(false);
	CHECK(client_exchange(sv[0], "list", 4, &r, err, sizeof err) == CLIENT_DONE);
	finish_streams();
	close(sv[0]);
	CHECK(text_len == CTL_PACKET_MAX - 1);
	done();
}

static void connect_failures_name_the_socket(void)
{
	char path[200];
	CHECK(client_connect("/nonexistent/ember-control", err, sizeof err) == -1);
	CHECK(strstr(err, "/nonexistent/ember-control: cannot connect") != NULL);
	memset(path, 'p', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	CHECK(client_connect(path, err, sizeof err) == -1);
	CHECK(strstr(err, "socket path longer than") != NULL);
}

int main(void)
{
	RUN(a_normal_reply);
	RUN(status_passes_through);
	RUN(protocol_errors);
	RUN(control_bytes_are_escaped_on_terminals);
	RUN(exchange_over_a_socket);
	RUN(connect_failures_name_the_socket);
	return harness_done();
}
