// sources: netnat/conffile.c netnat/entry.c
#include "harness.h"
#include "conffile.h"

#include <stdlib.h>

static struct nat_error err;

static int parse(const char *text, struct nat_state *s)
{
	nat_state_init(s);
	err.msg[0] = '\0';
	return conf_parse(text, strlen(text), s, &err);
}

static void parses_entries_comments_and_blank_lines(void)
{
	struct nat_state s;

	CHECK(parse("# NAT for the hotspot\n"
		    "\n"
		    "masquerade 192.168.42.0/24\n"
		    "  masquerade   fd00:42::/64   # IPv6 too\n"
		    "forward tcp 2222 192.168.42.10:22\r\n"
		    "forward udp [fd00::1]:53 [fd00:42::53]\n"
		    "forward tcp 203.0.113.1:443 192.168.42.10",
		    &s) == 0);
	CHECK(s.n_masq == 2 && s.n_fwd == 3);
	nat_state_free(&s);
	CHECK(parse("", &s) == 0 && s.n_masq == 0 && s.n_fwd == 0);
	nat_state_free(&s);
	CHECK(parse("\n\n# only comments\n", &s) == 0);
	nat_state_free(&s);
}

static void reports_line_numbers(void)
{
	struct nat_state s;

	CHECK(parse("masquerade 10.0.0.0/24\n\nmasquerade 10.0.0.0/33\n", &s) < 0);
	CHECK_STR(err.msg, "3: 10.0.0.0/33: prefix length out of range (1-32)");
	nat_state_free(&s);
	CHECK(parse("forward tcp 0 10.0.0.2\n", &s) < 0);
	CHECK_STR(err.msg, "1: 0: port out of range (1-65535)");
	nat_state_free(&s);
}

static void rejects_malformed_lines(void)
{
	struct nat_state s;
	static const char *const bad[] = {
		"masquerade\n",
		"masquerade 10.0.0.0/24 10.1.0.0/24\n",
		"masq 10.0.0.0/24\n",
		"forward tcp 80\n",
		"forward tcp 80 10.0.0.2 extra\n",
		"forward tcp 80 10.0.0.2 extra more words\n",
		"forward sctp 80 10.0.0.2\n",
		"forward tcp 65536 10.0.0.2\n",
		"forward tcp 80 10.0.0.2:0\n",
		"\x01\x02\x03\n",
		"masquerade 10.0.0.0/24#no space before the comment\n",
		"[section]\n",
		"masquerade=10.0.0.0/24\n",
	};

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int r = parse(bad[i], &s);
		if (r == 0)
			printf("  accepted: %s", bad[i]);
		CHECK(r < 0);
		CHECK(err.msg[0] != '\0');
		nat_state_free(&s);
	}
}

static void rejects_duplicates_across_lines(void)
{
	struct nat_state s;

	CHECK(parse("masquerade 10.0.0.0/24\nmasquerade 10.0.0.0/24\n", &s) < 0);
	CHECK_STR(err.msg, "masquerade 10.0.0.0/24: duplicate entry");
	nat_state_free(&s);
	CHECK(parse("masquerade 10.0.0.0/8\nmasquerade 10.3.0.0/16\n", &s) < 0);
	nat_state_free(&s);
	CHECK(parse("forward tcp 80 10.0.0.2\nforward tcp 80 10.0.0.3:8080\n", &s) < 0);
	nat_state_free(&s);
	CHECK(parse("forward tcp 80 10.0.0.2\nforward tcp 80 10.0.0.2:80\n", &s) < 0);
	nat_state_free(&s);
}

static void rejects_nul_bytes(void)
{
	struct nat_state s;
	static const char text[] = "masquerade 10.0.0.0/24\nmasq\0uerade 10.1.0.0/24\n";

	nat_state_init(&s);
	CHECK(conf_parse(text, sizeof text - 1, &s, &err) < 0);
	CHECK_STR(err.msg, "2: line contains a NUL byte");
	nat_state_free(&s);
}

static void rejects_overlong_lines_and_files(void)
{
	struct nat_state s;
	size_t len = NAT_MAX_LINE + 100;
	char *text = malloc(len + 1);

	memset(text, ' ', len);
	memcpy(text, "masquerade", 10);
	text[len] = '\0';
	CHECK(parse(text, &s) < 0);
	CHECK_STR(err.msg, "1: line longer than 512 bytes");
	nat_state_free(&s);
	free(text);

	/* A line of exactly the limit is fine. */
	text = malloc(NAT_MAX_LINE + 1);
	memset(text, ' ', NAT_MAX_LINE);
	text[NAT_MAX_LINE] = '\0';
	CHECK(parse(text, &s) == 0);
	nat_state_free(&s);
	free(text);

	nat_state_init(&s);
	CHECK(conf_parse("", (size_t)NAT_MAX_FILE + 1, &s, &err) < 0);
	nat_state_free(&s);
}

static void rejects_too_many_entries(void)
{
	struct nat_state s;
	size_t n = NAT_MAX_ENTRIES + 1, per = 40, len = 0;
	char *text = malloc(n * per);

	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, per, "forward tcp %zu 10.0.%zu.%zu\n",
					i % 60000 + 1, i / 250 % 250, i % 250 + 1);
	CHECK(parse(text, &s) < 0);
	CHECK(strstr(err.msg, "more than") != NULL);
	nat_state_free(&s);
	free(text);
}

static void words_form_matches_the_file_form(void)
{
	struct masq_entry m;
	struct fwd_entry f;
	bool is_masq;
	char *masq[] = { "masquerade", "10.0.0.0/24" };
	char *fwd[] = { "forward", "udp", "53", "10.0.0.53" };
	char *short_fwd[] = { "forward", "udp", "53" };

	CHECK(conf_parse_words(masq, 2, &m, &f, &is_masq, &err) == 0 && is_masq && m.len == 24);
	CHECK(conf_parse_words(fwd, 4, &m, &f, &is_masq, &err) == 0 && !is_masq && f.port == 53);
	CHECK(conf_parse_words(short_fwd, 3, &m, &f, &is_masq, &err) < 0);
	CHECK(conf_parse_words(fwd, 0, &m, &f, &is_masq, &err) < 0);
}

int main(void)
{
	RUN(parses_entries_comments_and_blank_lines);
	RUN(reports_line_numbers);
	RUN(rejects_malformed_lines);
	RUN(rejects_duplicates_across_lines);
	RUN(rejects_nul_bytes);
	RUN(rejects_overlong_lines_and_files);
	RUN(rejects_too_many_entries);
	RUN(words_form_matches_the_file_form);
	return harness_done();
}
