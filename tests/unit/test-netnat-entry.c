// sources: netnat/entry.c
#include "harness.h"
#include "entry.h"

#include <netinet/in.h>
#include <stdlib.h>

static struct nat_error err;

static int prefix(const char *s, struct masq_entry *m)
{
	err.msg[0] = '\0';
	return nat_parse_prefix(s, m, &err);
}

static int fwd(const char *proto, const char *listen, const char *target, struct fwd_entry *f)
{
	err.msg[0] = '\0';
	return nat_parse_forward(proto, listen, target, f, &err);
}

static void prefix_accepts_both_families(void)
{
	struct masq_entry m;
	char text[NAT_TEXT_MAX];

	CHECK(prefix("10.0.0.0/24", &m) == 0 && m.prefix.family == NAT_IPV4 && m.len == 24);
	nat_format_masq(&m, text, sizeof text);
	CHECK_STR(text, "10.0.0.0/24");
	CHECK(prefix("fd00:1::/64", &m) == 0 && m.prefix.family == NAT_IPV6 && m.len == 64);
	nat_format_masq(&m, text, sizeof text);
	CHECK_STR(text, "fd00:1::/64");
	CHECK(prefix("192.168.1.7", &m) == 0 && m.len == 32);
	CHECK(prefix("fd00::1", &m) == 0 && m.len == 128);
	CHECK(prefix("128.0.0.0/1", &m) == 0 && m.len == 1);
}

static void prefix_rejects_bad_lengths(void)
{
	struct masq_entry m;

	CHECK(prefix("10.0.0.0/33", &m) < 0);
	CHECK_STR(err.msg, "10.0.0.0/33: prefix length out of range (1-32)");
	CHECK(prefix("10.0.0.0/0", &m) < 0);
	CHECK(prefix("fd00::/129", &m) < 0);
	CHECK(prefix("10.0.0.0/", &m) < 0);
	CHECK(prefix("10.0.0.0/-1", &m) < 0);
	CHECK(prefix("10.0.0.0/ 8", &m) < 0);
	CHECK(prefix("10.0.0.0/8x", &m) < 0);
	CHECK(prefix("10.0.0.0/99999999999999999999", &m) < 0);
}

static void prefix_rejects_host_bits_and_garbage(void)
{
	struct masq_entry m;

	CHECK(prefix("10.0.0.1/24", &m) < 0);
	CHECK_STR(err.msg, "10.0.0.1/24: host bits set (did you mean 10.0.0.0/24?)");
	CHECK(prefix("fd00::1/64", &m) < 0);
	CHECK(prefix("", &m) < 0);
	CHECK(prefix("/24", &m) < 0);
	CHECK(prefix("10.0.0/24", &m) < 0);
	CHECK(prefix("256.0.0.0/8", &m) < 0);
	CHECK(prefix("10.0.0.0.0/8", &m) < 0);
	CHECK(prefix("fd00:::1/64", &m) < 0);
	CHECK(prefix("fe80::1%eth0/64", &m) < 0);
	CHECK(prefix("hello", &m) < 0);
	CHECK(prefix("10.0.0.0/24/8", &m) < 0);
}

static void prefix_rejects_overlong_input(void)
{
	struct masq_entry m;
	char *s = malloc(5000);

	memset(s, '1', 4999);
	s[4999] = '\0';
	CHECK(prefix(s, &m) < 0);
	CHECK(strlen(err.msg) < sizeof err.msg);
	free(s);
}

static void forward_parses_all_forms(void)
{
	struct fwd_entry f;
	char text[NAT_TEXT_MAX];

	CHECK(fwd("tcp", "8080", "10.0.0.2:80", &f) == 0);
	CHECK(f.proto == IPPROTO_TCP && !f.has_listen && f.port == 8080 && f.target_port == 80);
	nat_format_fwd(&f, text, sizeof text);
	CHECK_STR(text, "tcp 8080 10.0.0.2:80");
	CHECK(fwd("udp", "203.0.113.1:53", "10.0.0.3", &f) == 0);
	CHECK(f.has_listen && f.port == 53 && f.target_port == 53 && f.target.family == NAT_IPV4);
	nat_format_fwd(&f, text, sizeof text);
	CHECK_STR(text, "udp 203.0.113.1:53 10.0.0.3:53");
	CHECK(fwd("tcp", "[2001:db8::1]:443", "[fd00::2]:8443", &f) == 0);
	nat_format_fwd(&f, text, sizeof text);
	CHECK_STR(text, "tcp [2001:db8::1]:443 [fd00::2]:8443");
	CHECK(fwd("tcp", "22", "fd00::2", &f) == 0 && f.target.family == NAT_IPV6 && f.target_port == 22);
	CHECK(fwd("tcp", "22", "[fd00::2]", &f) == 0 && f.target_port == 22);
}

static void forward_rejects_bad_ports(void)
{
	struct fwd_entry f;

	CHECK(fwd("tcp", "0", "10.0.0.2", &f) < 0);
	CHECK_STR(err.msg, "0: port out of range (1-65535)");
	CHECK(fwd("tcp", "65536", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "80", "10.0.0.2:0", &f) < 0);
	CHECK(fwd("tcp", "80", "10.0.0.2:65536", &f) < 0);
	CHECK(fwd("tcp", "-1", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "http", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "10.0.0.1:", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "80", "10.0.0.2:", &f) < 0);
	CHECK(fwd("tcp", "65535", "10.0.0.2:65535", &f) == 0);
	CHECK(fwd("tcp", "1", "10.0.0.2:1", &f) == 0);
}

static void forward_rejects_bad_protocols_and_addresses(void)
{
	struct fwd_entry f;

	CHECK(fwd("sctp", "80", "10.0.0.2", &f) < 0);
	CHECK(fwd("TCP", "80", "10.0.0.2", &f) < 0);
	CHECK(fwd("", "80", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "fd00::1:80", "fd00::2", &f) < 0);
	CHECK(fwd("tcp", "[10.0.0.1]:80", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "[fd00::1]80", "fd00::2", &f) < 0);
	CHECK(fwd("tcp", "[fd00::1:80", "fd00::2", &f) < 0);
	CHECK(fwd("tcp", "10.0.0.1:80", "[fd00::2]:80", &f) < 0);
	CHECK(fwd("tcp", "80", "127.0.0.1", &f) < 0);
	CHECK(fwd("tcp", "80", "0.0.0.0", &f) < 0);
	CHECK(fwd("tcp", "80", "224.0.0.1", &f) < 0);
	CHECK(fwd("tcp", "80", "255.255.255.255", &f) < 0);
	CHECK(fwd("tcp", "80", "::1", &f) < 0);
	CHECK(fwd("tcp", "80", "::", &f) < 0);
	CHECK(fwd("tcp", "80", "ff02::1", &f) < 0);
	CHECK(fwd("tcp", "80", "::ffff:10.0.0.1", &f) < 0);
	CHECK(fwd("tcp", "127.0.0.1:80", "10.0.0.2", &f) < 0);
	CHECK(fwd("tcp", "80", "10.0.0.2:80:80", &f) < 0);
	CHECK(fwd("tcp", "80", "host.example", &f) < 0);
}

static void state_rejects_duplicates_and_overlaps(void)
{
	struct nat_state s;
	struct masq_entry a, b;
	struct fwd_entry f, g;

	nat_state_init(&s);
	CHECK(prefix("10.0.0.0/24", &a) == 0 && prefix("10.0.0.0/16", &b) == 0);
	nat_state_add_masq(&s, &a);
	CHECK(nat_state_check(&s, &err) == 0);
	nat_state_add_masq(&s, &a);
	CHECK(nat_state_check(&s, &err) < 0);
	CHECK_STR(err.msg, "masquerade 10.0.0.0/24: duplicate entry");
	nat_state_free(&s);

	nat_state_add_masq(&s, &a);
	nat_state_add_masq(&s, &b);
	CHECK(nat_state_check(&s, &err) < 0);
	CHECK_STR(err.msg, "masquerade 10.0.0.0/24 overlaps masquerade 10.0.0.0/16");
	nat_state_free(&s);

	CHECK(fwd("tcp", "80", "10.0.0.2", &f) == 0 && fwd("tcp", "80", "10.0.0.3", &g) == 0);
	nat_state_add_fwd(&s, &f);
	nat_state_add_fwd(&s, &g);
	CHECK(nat_state_check(&s, &err) < 0);
	nat_state_free(&s);

	/* Same port: different protocol, family or listen address are different keys. */
	nat_state_add_fwd(&s, &f);
	CHECK(fwd("udp", "80", "10.0.0.2", &g) == 0);
	nat_state_add_fwd(&s, &g);
	CHECK(fwd("tcp", "80", "fd00::2", &g) == 0);
	nat_state_add_fwd(&s, &g);
	CHECK(fwd("tcp", "10.9.9.9:80", "10.0.0.2", &g) == 0);
	nat_state_add_fwd(&s, &g);
	CHECK(prefix("10.1.0.0/24", &a) == 0 && prefix("fd00::/8", &b) == 0);
	nat_state_add_masq(&s, &a);
	nat_state_add_masq(&s, &b);
	CHECK(nat_state_check(&s, &err) == 0);
	CHECK(nat_state_count(&s, NAT_IPV4) == 4 && nat_state_count(&s, NAT_IPV6) == 2);
	nat_state_free(&s);
}

static void diff_finds_added_removed_and_changed(void)
{
	struct nat_state from, to;
	struct nat_diff d;
	struct masq_entry a, b;
	struct fwd_entry f, g, h;

	nat_state_init(&from);
	nat_state_init(&to);
	prefix("10.0.0.0/24", &a);
	prefix("10.1.0.0/24", &b);
	fwd("tcp", "80", "10.0.0.2", &f);
	fwd("tcp", "80", "10.0.0.3", &g); /* same key as f, new target */
	fwd("udp", "53", "10.0.0.5", &h);
	nat_state_add_masq(&from, &a);
	nat_state_add_fwd(&from, &f);
	nat_state_add_fwd(&from, &h);
	nat_state_add_masq(&to, &b);
	nat_state_add_fwd(&to, &g);
	nat_state_add_fwd(&to, &h);
	nat_state_sort(&from);
	nat_state_sort(&to);
	CHECK(nat_diff(&from, &to, &d) == 0);
	CHECK(d.del.n_masq == 1 && nat_masq_equal(&d.del.masq[0], &a));
	CHECK(d.add.n_masq == 1 && nat_masq_equal(&d.add.masq[0], &b));
	CHECK(d.del.n_fwd == 1 && nat_fwd_equal(&d.del.fwd[0], &f));
	CHECK(d.add.n_fwd == 1 && nat_fwd_equal(&d.add.fwd[0], &g));
	nat_diff_free(&d);
	CHECK(nat_diff(&to, &to, &d) == 0);
	CHECK(d.del.n_masq + d.del.n_fwd + d.add.n_masq + d.add.n_fwd == 0);
	nat_diff_free(&d);
	nat_state_free(&from);
	nat_state_free(&to);
}

static void prefix_end_and_ranges(void)
{
	struct masq_entry m;
	struct nat_addr end, start;
	struct nat_state s;
	char text[NAT_TEXT_MAX];

	prefix("10.0.0.0/24", &m);
	CHECK(nat_prefix_end(&m, &end));
	nat_format_addr(&end, text, sizeof text);
	CHECK_STR(text, "10.0.1.0");
	prefix("255.255.255.0/24", &m);
	CHECK(!nat_prefix_end(&m, &end));
	prefix("fd00::/8", &m);
	CHECK(nat_prefix_end(&m, &end));
	nat_format_addr(&end, text, sizeof text);
	CHECK_STR(text, "fe00::");

	/* 10.0.0.0 - 10.0.2.255 is a /23 and a /24. */
	nat_state_init(&s);
	nat_parse_addr("10.0.0.0", &start, &err);
	nat_parse_addr("10.0.3.0", &end, &err);
	CHECK(nat_range_to_prefixes(&start, &end, &s) == 0);
	CHECK(s.n_masq == 2);
	nat_format_masq(&s.masq[0], text, sizeof text);
	CHECK_STR(text, "10.0.0.0/23");
	nat_format_masq(&s.masq[1], text, sizeof text);
	CHECK_STR(text, "10.0.2.0/24");
	nat_state_free(&s);
	/* Open-ended: up to the top. */
	nat_parse_addr("255.255.255.0", &start, &err);
	CHECK(nat_range_to_prefixes(&start, NULL, &s) == 0 && s.n_masq == 1 && s.masq[0].len == 24);
	nat_state_free(&s);
	nat_parse_addr("0.0.0.0", &start, &err);
	CHECK(nat_range_to_prefixes(&start, NULL, &s) == 0 && s.n_masq == 1 && s.masq[0].len == 0);
	nat_state_free(&s);
}

int main(void)
{
	RUN(prefix_accepts_both_families);
	RUN(prefix_rejects_bad_lengths);
	RUN(prefix_rejects_host_bits_and_garbage);
	RUN(prefix_rejects_overlong_input);
	RUN(forward_parses_all_forms);
	RUN(forward_rejects_bad_ports);
	RUN(forward_rejects_bad_protocols_and_addresses);
	RUN(state_rejects_duplicates_and_overlaps);
	RUN(diff_finds_added_removed_and_changed);
	RUN(prefix_end_and_ranges);
	return harness_done();
}
