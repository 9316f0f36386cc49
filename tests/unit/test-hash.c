// sources:
/* lib/hash.c: FNV-1a as published (the reference vectors of its authors), so that what
 * is drawn from it (dynamic users' names and ids, FixedRandomDelay=) stays the same from
 * one build of ember to the next. */
#include "harness.h"
#include "../../lib/hash.h"

#include <string.h>

static uint32_t h32(const char *s)
{
	return hash_fnv32(HASH_FNV32_START, s, strlen(s));
}

static uint64_t h64(const char *s)
{
	return hash_fnv64(HASH_FNV64_START, s, strlen(s));
}

static void thirty_two_bits_match_the_reference(void)
{
	CHECK(h32("") == 0x811c9dc5u);
	CHECK(h32("a") == 0xe40c292cu);
	CHECK(h32("foobar") == 0xbf9cf968u);
}

static void sixty_four_bits_match_the_reference(void)
{
	CHECK(h64("") == 0xcbf29ce484222325ull);
	CHECK(h64("a") == 0xaf63dc4c8601ec8cull);
	CHECK(h64("foobar") == 0x85944171f73967e8ull);
}

static void hashing_in_parts_is_hashing_the_whole(void)
{
	CHECK(hash_fnv32(h32("foo"), "bar", 3) == h32("foobar"));
	CHECK(hash_fnv64(h64("foo"), "bar", 3) == h64("foobar"));
}

static void bytes_above_ascii_are_unsigned(void)
{
	/* a signed char would fold 0xff into the hash as -1 */
	CHECK(hash_fnv32(HASH_FNV32_START, "\xff", 1) == ((0x811c9dc5u ^ 0xffu) * 16777619u));
}

int main(void)
{
	RUN(thirty_two_bits_match_the_reference);
	RUN(sixty_four_bits_match_the_reference);
	RUN(hashing_in_parts_is_hashing_the_whole);
	RUN(bytes_above_ascii_are_unsigned);
	return harness_done();
}
