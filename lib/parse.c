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

/* One unit of a time span, in µs; the letters must match a name whole ("min", not "m"
 * followed by "in"). Case matters: "M" is a month, "m" a minute. */
static unsigned long long span_unit_us(const char *name, size_t len)
{
	static const struct { const char *name; unsigned long long us; } units[] = {
		{ "", 1000000ULL }, { "us", 1 }, { "usec", 1 }, { "\xc2\xb5s", 1 },
		{ "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000ULL }, { "sec", 1000000ULL }, { "second", 1000000ULL },
		{ "seconds", 1000000ULL },
		{ "m", 60000000ULL }, { "min", 60000000ULL }, { "minute", 60000000ULL },
		{ "minutes", 60000000ULL },
		{ "h", 3600000000ULL }, { "hr", 3600000000ULL }, { "hour", 3600000000ULL },
		{ "hours", 3600000000ULL },
		{ "d", 86400000000ULL }, { "day", 86400000000ULL }, { "days", 86400000000ULL },
		{ "w", 604800000000ULL }, { "week", 604800000000ULL },
		{ "weeks", 604800000000ULL },
		{ "M", 2629800000000ULL }, { "month", 2629800000000ULL },
		{ "months", 2629800000000ULL },
		{ "y", 31557600000000ULL }, { "year", 31557600000000ULL },
		{ "years", 31557600000000ULL },
	};

	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strlen(units[i].name) == len && strncmp(units[i].name, name, len) == 0)
			return units[i].us;
	return 0;
}

static bool span_letter(char c)
{
	return isalpha((unsigned char)c) || (unsigned char)c >= 0x80;
}

/* One "1.5h" of a span, added to *total (µs). Returns the rest of s, NULL when invalid. */
static const char *span_component(const char *s, unsigned long long *total)
{
	unsigned long long whole = 0, frac = 0, scale = 1, unit;
	size_t len;

	if (!isdigit((unsigned char)*s))
		return NULL;
	for (; isdigit((unsigned char)*s); s++) {
		if (whole > (ULLONG_MAX - 9) / 10)
			return NULL;
		whole = whole * 10 + (unsigned long long)(*s - '0');
	}
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			if (scale < 1000000000000ULL) { /* digits beyond a picosecond are noise */
				frac = frac * 10 + (unsigned long long)(*s - '0');
				scale *= 10;
			}
	while (*s == ' ' || *s == '\t')
		s++;
	for (len = 0; span_letter(s[len]); len++)
		;
	unit = span_unit_us(s, len);
	if (!unit || whole > ULLONG_MAX / unit)
		return NULL;
	whole *= unit;
	/* frac < scale <= 1e12, unit <= 3.2e13: split so the product cannot overflow */
	whole += frac * (unit / scale) + frac * (unit % scale) / scale;
	if (*total > ULLONG_MAX - whole)
		return NULL;
	*total += whole;
	return s + len;
}

/* systemd.time(7) time spans: "90" (seconds), "500ms", "1.5h", "2h 30min", "1d", "1w";
 * what is below a millisecond rounds up, so only "0" is zero. */
int parse_duration_ms(const char *s, unsigned long *out)
{
	unsigned long long us = 0;

	if (s && strcmp(s, "infinity") == 0) {
		*out = ~0UL;
		return 0;
	}
	if (!s || !*s) {
		errno = EINVAL;
		return -1;
	}
	while (*s) {
		s = span_component(s, &us);
		if (!s) {
			errno = EINVAL;
			return -1;
		}
		while (*s == ' ' || *s == '\t')
			s++;
	}
	if (us / 1000 + (us % 1000 != 0) >= ~0UL) {
		errno = ERANGE;
		return -1;
	}
	*out = (unsigned long)(us / 1000 + (us % 1000 != 0));
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
