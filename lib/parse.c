#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !isdigit((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	if (errno == ERANGE || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;
	const char *digits = (s && (*s == '-' || *s == '+')) ? s + 1 : s;

	if (!s || !isdigit((unsigned char)*digits)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	if (errno == ERANGE || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on", "y", "t" };
	static const char *const no[] = { "0", "no", "false", "off", "n", "f" };
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	errno = EINVAL;
	return -1;
}

struct unit_factor {
	const char *suffix;
	unsigned long long factor;
};

static int parse_with_units(const char *s, const struct unit_factor *units, size_t n,
			    unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(end, units[i].suffix) != 0)
			continue;
		if (units[i].factor && v > ULLONG_MAX / units[i].factor) {
			errno = ERANGE;
			return -1;
		}
		*out = v * units[i].factor;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

int parse_duration_ms(const char *s, unsigned long *out)
{
	static const struct unit_factor units[] = {
		{ "", 1000 }, { "s", 1000 }, { "sec", 1000 }, { "ms", 1 }, { "m", 60000 },
		{ "min", 60000 }, { "h", 3600000 }, { "hr", 3600000 },
	};
	unsigned long long v;

	if (s && strcmp(s, "infinity") == 0) {
		*out = ~0UL;
		return 0;
	}
	if (parse_with_units(s, units, sizeof units / sizeof *units, &v) < 0)
		return -1;
	if (v >= ~0UL) {
		errno = ERANGE;
		return -1;
	}
	*out = (unsigned long)v;
	return 0;
}

int parse_size(const char *s, unsigned long long *out)
{
	static const struct unit_factor units[] = {
		{ "", 1 }, { "K", 1ULL << 10 }, { "M", 1ULL << 20 }, { "G", 1ULL << 30 },
		{ "T", 1ULL << 40 },
	};
	if (s && strcmp(s, "infinity") == 0) {
		*out = ~0ULL;
		return 0;
	}
	return parse_with_units(s, units, sizeof units / sizeof *units, out);
}

int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

bool str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_copy(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);
	if (len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dst, src, len + 1);
	return 0;
}
