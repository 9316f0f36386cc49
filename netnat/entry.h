#ifndef NETNAT_ENTRY_H
#define NETNAT_ENTRY_H
/* NAT entries as plain structs: parsed from words and validated with no I/O. Everything
 * that reaches the kernel went through nat_state_check() first. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nat_family { NAT_IPV4 = 0, NAT_IPV6 = 1 };
#define NAT_FAMILIES 2

/* Bounds on input, so that hostile files fail early and cheaply. */
#define NAT_MAX_ENTRIES 16384
#define NAT_MAX_LINE 512
#define NAT_MAX_FILE (1024 * 1024)

/* An address of either family; bytes in network order, IPv4 in the first 4. */
struct nat_addr {
	uint8_t family;
	uint8_t bytes[16];
};

/* masquerade PREFIX: traffic from PREFIX leaving the host gets the outgoing address. */
struct masq_entry {
	struct nat_addr prefix;
	uint8_t len;
};

/* forward PROTO [LISTEN:]PORT TARGET[:TARGET_PORT]; the family is the target's. */
struct fwd_entry {
	uint8_t proto; /* IPPROTO_TCP or IPPROTO_UDP */
	bool has_listen;
	struct nat_addr listen;
	uint16_t port;
	struct nat_addr target;
	uint16_t target_port;
};

/* A complete set of entries: what a file asks for, or what the kernel holds. */
struct nat_state {
	struct masq_entry *masq;
	size_t n_masq, cap_masq;
	struct fwd_entry *fwd;
	size_t n_fwd, cap_fwd;
};

/* Parse and validation errors: "10.0.0.0/33: prefix length out of range". */
struct nat_error {
	char msg[256];
};

/* Formatting buffer large enough for any entry's text form. */
#define NAT_TEXT_MAX 128

int nat_parse_addr(const char *s, struct nat_addr *out, struct nat_error *err);
int nat_parse_prefix(const char *s, struct masq_entry *out, struct nat_error *err);
int nat_parse_proto(const char *s, uint8_t *out, struct nat_error *err);
int nat_parse_port(const char *s, uint16_t *out, struct nat_error *err);
/* "[ADDR:]PORT": ADDR is IPv4 or a bracketed IPv6 address. */
int nat_parse_listen(const char *s, struct fwd_entry *out, struct nat_error *err);
/* "ADDR[:PORT]", "[ADDR6]:PORT" or a bare IPv6 address; port defaults to the listen port. */
int nat_parse_target(const char *s, struct fwd_entry *out, struct nat_error *err);
/* Both words of a forward, plus the checks that need both (same family, usable addresses). */
int nat_parse_forward(const char *proto, const char *listen, const char *target,
		      struct fwd_entry *out, struct nat_error *err);

const char *nat_family_name(enum nat_family f); /* "ip" / "ip6", as nft names them */
const char *nat_proto_name(uint8_t proto);
void nat_format_addr(const struct nat_addr *a, char *buf, size_t size);
void nat_format_masq(const struct masq_entry *m, char *buf, size_t size);
/* "tcp 8080 10.0.0.2:80": the same words the CLI and the file take. */
void nat_format_fwd(const struct fwd_entry *f, char *buf, size_t size);

void nat_state_init(struct nat_state *s);
void nat_state_free(struct nat_state *s);
int nat_state_add_masq(struct nat_state *s, const struct masq_entry *m);
int nat_state_add_fwd(struct nat_state *s, const struct fwd_entry *f);
/* dst (initialised) gets a copy of src's entries, minus `skip_masq`/`skip_fwd` if not NULL. */
int nat_state_copy(struct nat_state *dst, const struct nat_state *src,
		   const struct masq_entry *skip_masq, const struct fwd_entry *skip_fwd);
/* Order entries (by family first) so lookups and diffs are O(log n). */
void nat_state_sort(struct nat_state *s);
/* Duplicates, overlapping prefixes, two forwards for one port, too many entries. Sorts s. */
int nat_state_check(struct nat_state *s, struct nat_error *err);
size_t nat_state_count(const struct nat_state *s, enum nat_family f);

/* Lookups in a sorted state. */
const struct masq_entry *nat_find_masq(const struct nat_state *s, const struct masq_entry *m);
/* The forward for the same (family, protocol, listen address, port), whatever its target. */
const struct fwd_entry *nat_find_fwd_key(const struct nat_state *s, const struct fwd_entry *f);
bool nat_fwd_equal(const struct fwd_entry *a, const struct fwd_entry *b);
bool nat_masq_equal(const struct masq_entry *a, const struct masq_entry *b);

/* What turns `from` into `to`: entries to delete and to add. Both inputs must be sorted. */
struct nat_diff {
	struct nat_state del, add;
};
int nat_diff(const struct nat_state *from, const struct nat_state *to, struct nat_diff *out);
void nat_diff_free(struct nat_diff *d);

/* The first address after the prefix (interval end); false when it wraps past the top. */
bool nat_prefix_end(const struct masq_entry *m, struct nat_addr *end);
/* Split [start, end) into prefixes (end NULL = up to the top of the address space), as the
 * kernel may hold ranges that nft merged. Appends to s. */
int nat_range_to_prefixes(const struct nat_addr *start, const struct nat_addr *end,
			  struct nat_state *s);
#endif
