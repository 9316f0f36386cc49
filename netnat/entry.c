#include "entry.h"

#include "parse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Echo at most this much of a bad word in a message, so garbage stays readable. */
#define ECHO "%.64s"

static int fail(struct nat_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct nat_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	errno = EINVAL;
	return -1;
}

static unsigned addr_bits(const struct nat_addr *a)
{
	return a->family == NAT_IPV4 ? 32 : 128;
}

static unsigned addr_bytes(const struct nat_addr *a)
{
	return a->family == NAT_IPV4 ? 4 : 16;
}

static size_t count_char(const char *s, char c)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == c;
	return n;
}

int nat_parse_addr(const char *s, struct nat_addr *out, struct nat_error *err)
{
	struct nat_addr a;

	memset(&a, 0, sizeof a);
	if (!*s)
		return fail(err, "missing address");
	if (strlen(s) >= INET6_ADDRSTRLEN)
		return fail(err, ECHO ": address too long", s);
	a.family = strchr(s, ':') ? NAT_IPV6 : NAT_IPV4;
	if (inet_pton(a.family == NAT_IPV4 ? AF_INET : AF_INET6, s, a.bytes) != 1)
		return fail(err, ECHO ": not an IPv%c address", s, a.family == NAT_IPV4 ? '4' : '6');
	*out = a;
	return 0;
}

static bool bit_is_set(const struct nat_addr *a, unsigned bit)
{
	return a->bytes[bit / 8] & (0x80 >> (bit % 8));
}

static bool host_bits_clear(const struct nat_addr *a, unsigned len)
{
	for (unsigned bit = len; bit < addr_bits(a); bit++)
		if (bit_is_set(a, bit))
			return false;
	return true;
}

static void clear_host_bits(struct nat_addr *a, unsigned len)
{
	for (unsigned bit = len; bit < addr_bits(a); bit++)
		a->bytes[bit / 8] &= (uint8_t)~(0x80 >> (bit % 8));
}

int nat_parse_prefix(const char *s, struct masq_entry *out, struct nat_error *err)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	unsigned long len;
	struct masq_entry m;

	if (str_copy(buf, sizeof buf, s) < 0)
		return fail(err, ECHO "...: prefix too long", s);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (nat_parse_addr(buf, &m.prefix, err) < 0)
		return -1;
	len = addr_bits(&m.prefix);
	if (slash && !slash[1])
		return fail(err, ECHO ": missing prefix length after '/'", s);
	if (slash && parse_ulong(slash + 1, 0, 255, &len) < 0)
		return fail(err, ECHO ": prefix length is not a number", s);
	if (len < 1 || len > addr_bits(&m.prefix))
		return fail(err, ECHO ": prefix length out of range (1-%u)", s, addr_bits(&m.prefix));
	m.len = (uint8_t)len;
	if (!host_bits_clear(&m.prefix, m.len)) {
		char net[INET6_ADDRSTRLEN];
		clear_host_bits(&m.prefix, m.len);
		nat_format_addr(&m.prefix, net, sizeof net);
		return fail(err, ECHO ": host bits set (did you mean %s/%u?)", s, net, m.len);
	}
	*out = m;
	return 0;
}

int nat_parse_proto(const char *s, uint8_t *out, struct nat_error *err)
{
	if (strcmp(s, "tcp") == 0)
		*out = IPPROTO_TCP;
	else if (strcmp(s, "udp") == 0)
		*out = IPPROTO_UDP;
	else
		return fail(err, ECHO ": unknown protocol (expected tcp or udp)", s);
	return 0;
}

int nat_parse_port(const char *s, uint16_t *out, struct nat_error *err)
{
	unsigned long port;

	if (!*s)
		return fail(err, "missing port");
	if (parse_ulong(s, 1, 65535, &port) < 0) {
		if (errno == ERANGE)
			return fail(err, ECHO ": port out of range (1-65535)", s);
		return fail(err, ECHO ": port is not a number", s);
	}
	*out = (uint16_t)port;
	return 0;
}

/* "[v6]rest" -> address into a, *rest points after ']'. */
static int parse_bracketed(const char *s, struct nat_addr *a, const char **rest,
			   struct nat_error *err)
{
	char buf[INET6_ADDRSTRLEN];
	const char *close = strchr(s, ']');
	size_t len;

	if (!close)
		return fail(err, ECHO ": missing ']'", s);
	len = (size_t)(close - s - 1);
	if (len >= sizeof buf)
		return fail(err, ECHO ": address too long", s);
	memcpy(buf, s + 1, len);
	buf[len] = '\0';
	if (nat_parse_addr(buf, a, err) < 0)
		return -1;
	if (a->family != NAT_IPV6)
		return fail(err, ECHO ": brackets are for IPv6 addresses only", s);
	*rest = close + 1;
	return 0;
}

/* "ADDR:PORT" with one colon (IPv4): split into the two words. */
static int split_v4(const char *s, char *addr, size_t size, const char **port,
		    struct nat_error *err)
{
	const char *colon = strchr(s, ':');
	size_t len = (size_t)(colon - s);

	if (len >= size)
		return fail(err, ECHO ": address too long", s);
	memcpy(addr, s, len);
	addr[len] = '\0';
	*port = colon + 1;
	return 0;
}

int nat_parse_listen(const char *s, struct fwd_entry *out, struct nat_error *err)
{
	char addr[INET6_ADDRSTRLEN];
	const char *port = s;
	size_t colons = count_char(s, ':');

	out->has_listen = false;
	memset(&out->listen, 0, sizeof out->listen);
	if (s[0] == '[') {
		if (parse_bracketed(s, &out->listen, &port, err) < 0)
			return -1;
		if (*port != ':')
			return fail(err, ECHO ": expected [ADDRESS]:PORT", s);
		port++;
		out->has_listen = true;
	} else if (colons > 1) {
		return fail(err, ECHO ": an IPv6 listen address needs brackets: [ADDRESS]:PORT", s);
	} else if (colons == 1) {
		if (split_v4(s, addr, sizeof addr, &port, err) < 0 ||
		    nat_parse_addr(addr, &out->listen, err) < 0)
			return -1;
		out->has_listen = true;
	}
	return nat_parse_port(port, &out->port, err);
}

int nat_parse_target(const char *s, struct fwd_entry *out, struct nat_error *err)
{
	char addr[INET6_ADDRSTRLEN];
	const char *port = NULL;
	size_t colons = count_char(s, ':');

	out->target_port = 0;
	if (s[0] == '[') {
		if (parse_bracketed(s, &out->target, &port, err) < 0)
			return -1;
		if (*port == '\0')
			port = NULL;
		else if (*port++ != ':')
			return fail(err, ECHO ": expected [ADDRESS]:PORT", s);
	} else if (colons == 1) {
		if (split_v4(s, addr, sizeof addr, &port, err) < 0 ||
		    nat_parse_addr(addr, &out->target, err) < 0)
			return -1;
	} else if (nat_parse_addr(s, &out->target, err) < 0) {
		return -1;
	}
	if (port && nat_parse_port(port, &out->target_port, err) < 0)
		return -1;
	return 0;
}

/* Why an address cannot take part in NAT, or NULL when it can. */
static const char *unusable_reason(const struct nat_addr *a)
{
	static const uint8_t v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t zero[16];
	const uint8_t *b = a->bytes;

	if (a->family == NAT_IPV4) {
		if (b[0] == 0)
			return "not a usable address (0.0.0.0/8)";
		if (b[0] == 127)
			return "loopback addresses are never forwarded";
		if (b[0] >= 224 && b[0] <= 239)
			return "multicast address";
		if (b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255)
			return "broadcast address";
		return NULL;
	}
	if (memcmp(b, zero, 16) == 0)
		return "unspecified address";
	if (memcmp(b, zero, 15) == 0 && b[15] == 1)
		return "loopback addresses are never forwarded";
	if (b[0] == 0xff)
		return "multicast address";
	if (memcmp(b, v4_mapped, 12) == 0)
		return "IPv4-mapped address (use the IPv4 address)";
	return NULL;
}

int nat_parse_forward(const char *proto, const char *listen, const char *target,
		      struct fwd_entry *out, struct nat_error *err)
{
	struct fwd_entry f;
	const char *why;

	memset(&f, 0, sizeof f);
	if (nat_parse_proto(proto, &f.proto, err) < 0 || nat_parse_listen(listen, &f, err) < 0 ||
	    nat_parse_target(target, &f, err) < 0)
		return -1;
	if (!f.target_port)
		f.target_port = f.port;
	if (f.has_listen && f.listen.family != f.target.family)
		return fail(err, ECHO " " ECHO ": listen and target addresses are of different families",
			    listen, target);
	if (f.has_listen && (why = unusable_reason(&f.listen)))
		return fail(err, ECHO ": %s", listen, why);
	if ((why = unusable_reason(&f.target)))
		return fail(err, ECHO ": %s", target, why);
	*out = f;
	return 0;
}

const char *nat_family_name(enum nat_family f)
{
	return f == NAT_IPV4 ? "ip" : "ip6";
}

const char *nat_proto_name(uint8_t proto)
{
	return proto == IPPROTO_TCP ? "tcp" : proto == IPPROTO_UDP ? "udp" : "?";
}

void nat_format_addr(const struct nat_addr *a, char *buf, size_t size)
{
	if (!inet_ntop(a->family == NAT_IPV4 ? AF_INET : AF_INET6, a->bytes, buf, (socklen_t)size))
		snprintf(buf, size, "?");
}

void nat_format_masq(const struct masq_entry *m, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];
	nat_format_addr(&m->prefix, a, sizeof a);
	snprintf(buf, size, "%s/%u", a, m->len);
}

static void format_endpoint(const struct nat_addr *a, uint16_t port, char *buf, size_t size)
{
	char s[INET6_ADDRSTRLEN];
	nat_format_addr(a, s, sizeof s);
	snprintf(buf, size, a->family == NAT_IPV6 ? "[%s]:%u" : "%s:%u", s, port);
}

void nat_format_fwd(const struct fwd_entry *f, char *buf, size_t size)
{
	char listen[INET6_ADDRSTRLEN + 10], target[INET6_ADDRSTRLEN + 10];

	if (f->has_listen)
		format_endpoint(&f->listen, f->port, listen, sizeof listen);
	else
		snprintf(listen, sizeof listen, "%u", f->port);
	format_endpoint(&f->target, f->target_port, target, sizeof target);
	snprintf(buf, size, "%s %s %s", nat_proto_name(f->proto), listen, target);
}

void nat_state_init(struct nat_state *s)
{
	memset(s, 0, sizeof *s);
}

void nat_state_free(struct nat_state *s)
{
	free(s->masq);
	free(s->fwd);
	nat_state_init(s);
}

/* Grow an array to hold one more element; entries beyond NAT_MAX_ENTRIES are refused by
 * nat_state_check, but a dump of a hand-made set may hold more, so only memory limits this. */
static int grow(void **array, size_t *cap, size_t n, size_t elem)
{
	size_t new_cap;
	void *p;

	if (n < *cap)
		return 0;
	new_cap = *cap ? *cap * 2 : 16;
	p = realloc(*array, new_cap * elem);
	if (!p)
		return -1;
	*array = p;
	*cap = new_cap;
	return 0;
}

int nat_state_add_masq(struct nat_state *s, const struct masq_entry *m)
{
	if (grow((void **)&s->masq, &s->cap_masq, s->n_masq, sizeof *s->masq) < 0)
		return -1;
	s->masq[s->n_masq++] = *m;
	return 0;
}

int nat_state_add_fwd(struct nat_state *s, const struct fwd_entry *f)
{
	if (grow((void **)&s->fwd, &s->cap_fwd, s->n_fwd, sizeof *s->fwd) < 0)
		return -1;
	s->fwd[s->n_fwd++] = *f;
	return 0;
}

int nat_state_copy(struct nat_state *dst, const struct nat_state *src,
		   const struct masq_entry *skip_masq, const struct fwd_entry *skip_fwd)
{
	for (size_t i = 0; i < src->n_masq; i++)
		if (&src->masq[i] != skip_masq && nat_state_add_masq(dst, &src->masq[i]) < 0)
			return -1;
	for (size_t i = 0; i < src->n_fwd; i++)
		if (&src->fwd[i] != skip_fwd && nat_state_add_fwd(dst, &src->fwd[i]) < 0)
			return -1;
	return 0;
}

static int cmp_addr(const struct nat_addr *a, const struct nat_addr *b)
{
	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	return memcmp(a->bytes, b->bytes, addr_bytes(a));
}

static int cmp_masq(const void *pa, const void *pb)
{
	const struct masq_entry *a = pa, *b = pb;
	int c = cmp_addr(&a->prefix, &b->prefix);
	return c ? c : (int)a->len - (int)b->len;
}

/* Orders by the key: family, protocol, listen address, port. */
static int cmp_fwd_key(const void *pa, const void *pb)
{
	const struct fwd_entry *a = pa, *b = pb;
	int c;

	if (a->target.family != b->target.family)
		return a->target.family < b->target.family ? -1 : 1;
	if (a->proto != b->proto)
		return a->proto < b->proto ? -1 : 1;
	if (a->has_listen != b->has_listen)
		return a->has_listen ? 1 : -1;
	if (a->has_listen && (c = cmp_addr(&a->listen, &b->listen)))
		return c;
	return (int)a->port - (int)b->port;
}

bool nat_masq_equal(const struct masq_entry *a, const struct masq_entry *b)
{
	return cmp_masq(a, b) == 0;
}

bool nat_fwd_equal(const struct fwd_entry *a, const struct fwd_entry *b)
{
	return cmp_fwd_key(a, b) == 0 && cmp_addr(&a->target, &b->target) == 0 &&
	       a->target_port == b->target_port;
}

void nat_state_sort(struct nat_state *s)
{
	if (s->n_masq)
		qsort(s->masq, s->n_masq, sizeof *s->masq, cmp_masq);
	if (s->n_fwd)
		qsort(s->fwd, s->n_fwd, sizeof *s->fwd, cmp_fwd_key);
}

const struct masq_entry *nat_find_masq(const struct nat_state *s, const struct masq_entry *m)
{
	if (!s->n_masq)
		return NULL;
	return bsearch(m, s->masq, s->n_masq, sizeof *s->masq, cmp_masq);
}

const struct fwd_entry *nat_find_fwd_key(const struct nat_state *s, const struct fwd_entry *f)
{
	if (!s->n_fwd)
		return NULL;
	return bsearch(f, s->fwd, s->n_fwd, sizeof *s->fwd, cmp_fwd_key);
}

/* Does prefix a contain b's first address? Prefixes either nest or are disjoint. */
static bool prefix_contains(const struct masq_entry *a, const struct masq_entry *b)
{
	struct nat_addr masked = b->prefix;

	if (a->prefix.family != b->prefix.family || b->len < a->len)
		return false;
	clear_host_bits(&masked, a->len);
	return memcmp(masked.bytes, a->prefix.bytes, 16) == 0;
}

static int check_masq(const struct nat_state *s, struct nat_error *err)
{
	char a[NAT_TEXT_MAX], b[NAT_TEXT_MAX];

	/* Sorted by start address, any overlap shows up between neighbours. */
	for (size_t i = 1; i < s->n_masq; i++) {
		const struct masq_entry *prev = &s->masq[i - 1], *cur = &s->masq[i];
		if (!prefix_contains(prev, cur))
			continue;
		nat_format_masq(prev, a, sizeof a);
		nat_format_masq(cur, b, sizeof b);
		if (nat_masq_equal(prev, cur))
			return fail(err, "masquerade %s: duplicate entry", a);
		return fail(err, "masquerade %s overlaps masquerade %s", b, a);
	}
	return 0;
}

static int check_fwd(const struct nat_state *s, struct nat_error *err)
{
	char a[NAT_TEXT_MAX], b[NAT_TEXT_MAX];

	for (size_t i = 1; i < s->n_fwd; i++) {
		const struct fwd_entry *prev = &s->fwd[i - 1], *cur = &s->fwd[i];
		if (cmp_fwd_key(prev, cur) != 0)
			continue;
		nat_format_fwd(prev, a, sizeof a);
		nat_format_fwd(cur, b, sizeof b);
		if (nat_fwd_equal(prev, cur))
			return fail(err, "forward %s: duplicate entry", a);
		return fail(err, "forward %s conflicts with forward %s (same protocol and port)", b, a);
	}
	return 0;
}

int nat_state_check(struct nat_state *s, struct nat_error *err)
{
	if (s->n_masq + s->n_fwd > NAT_MAX_ENTRIES)
		return fail(err, "%zu entries: more than %d", s->n_masq + s->n_fwd, NAT_MAX_ENTRIES);
	for (size_t i = 0; i < s->n_masq; i++) {
		const struct masq_entry *m = &s->masq[i];
		if (m->len < 1 || m->len > addr_bits(&m->prefix) || !host_bits_clear(&m->prefix, m->len))
			return fail(err, "masquerade entry %zu: invalid prefix", i + 1);
	}
	nat_state_sort(s);
	if (check_masq(s, err) < 0 || check_fwd(s, err) < 0)
		return -1;
	return 0;
}

size_t nat_state_count(const struct nat_state *s, enum nat_family f)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_masq; i++)
		n += s->masq[i].prefix.family == f;
	for (size_t i = 0; i < s->n_fwd; i++)
		n += s->fwd[i].target.family == f;
	return n;
}

/* Entries of `a` that `b` lacks go to out. */
static int masq_missing(const struct nat_state *a, const struct nat_state *b, struct nat_state *out)
{
	for (size_t i = 0; i < a->n_masq; i++)
		if (!nat_find_masq(b, &a->masq[i]) && nat_state_add_masq(out, &a->masq[i]) < 0)
			return -1;
	return 0;
}

static int fwd_missing(const struct nat_state *a, const struct nat_state *b, struct nat_state *out)
{
	for (size_t i = 0; i < a->n_fwd; i++) {
		const struct fwd_entry *other = nat_find_fwd_key(b, &a->fwd[i]);
		if ((!other || !nat_fwd_equal(other, &a->fwd[i])) &&
		    nat_state_add_fwd(out, &a->fwd[i]) < 0)
			return -1;
	}
	return 0;
}

int nat_diff(const struct nat_state *from, const struct nat_state *to, struct nat_diff *out)
{
	nat_state_init(&out->del);
	nat_state_init(&out->add);
	if (masq_missing(from, to, &out->del) < 0 || fwd_missing(from, to, &out->del) < 0 ||
	    masq_missing(to, from, &out->add) < 0 || fwd_missing(to, from, &out->add) < 0) {
		nat_diff_free(out);
		return -1;
	}
	return 0;
}

void nat_diff_free(struct nat_diff *d)
{
	nat_state_free(&d->del);
	nat_state_free(&d->add);
}

/* a += 2^(bits-1-bit), i.e. add one at bit position `bit` counted from the top. Returns the
 * carry out of the top bit. */
static bool add_at_bit(struct nat_addr *a, unsigned bit)
{
	int byte = (int)(bit / 8);
	unsigned carry = 0x80u >> (bit % 8);

	for (; byte >= 0 && carry; byte--) {
		unsigned v = a->bytes[byte] + carry;
		a->bytes[byte] = (uint8_t)v;
		carry = v >> 8;
	}
	return carry != 0;
}

bool nat_prefix_end(const struct masq_entry *m, struct nat_addr *end)
{
	*end = m->prefix;
	return !add_at_bit(end, m->len - 1u);
}

int nat_range_to_prefixes(const struct nat_addr *start, const struct nat_addr *end,
			  struct nat_state *s)
{
	struct nat_addr cur = *start;

	while (!end || cmp_addr(&cur, end) < 0) {
		struct masq_entry m = { .prefix = cur, .len = 0 };
		struct nat_addr next;
		bool wrapped;

		/* The shortest prefix that starts at cur and ends at or before end. */
		for (;; m.len++) {
			next = cur;
			wrapped = m.len == 0 ? true : add_at_bit(&next, m.len - 1u);
			if (!host_bits_clear(&cur, m.len))
				continue;
			if (wrapped ? !end : cmp_addr(&next, end) <= 0)
				break;
		}
		if (nat_state_add_masq(s, &m) < 0)
			return -1;
		if (wrapped)
			break;
		cur = next;
	}
	return 0;
}
