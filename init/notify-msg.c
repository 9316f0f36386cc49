#include "notify-msg.h"

#include <string.h>

#include "parse.h"

#define PID_MAX_VALUE 4194304UL /* PID_MAX_LIMIT on 64-bit */

static void copy_status(char *dst, const char *src, size_t len)
{
	size_t n = len < NOTIFY_STATUS_MAX - 1 ? len : NOTIFY_STATUS_MAX - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ? ' ' : src[i];
	dst[n] = '\0';
}

/* runtime keys (unit-runtime2): a decimal number of at most 20 digits. */
static int parse_u64(const char *s, size_t len, unsigned long long *out)
{
	unsigned long long v = 0;

	if (len == 0 || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (~0ULL - 9) / 10)
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

static bool is(const char *line, size_t len, const char *var)
{
	size_t n = strlen(var);
	return len >= n && memcmp(line, var, n) == 0;
}

/* WATCHDOG=, WATCHDOG_USEC=, FDSTORE=, FDSTOREREMOVE=, FDNAME=: 0 done, -1 invalid,
 * 1 not one of them. */
static int runtime_line(const char *line, size_t len, struct notify_msg *m)
{
	if (is(line, len, "WATCHDOG=")) {
		if (len == 10 && line[9] == '1')
			m->watchdog_ping = true;
		else if (len == 16 && memcmp(line + 9, "trigger", 7) == 0)
			m->watchdog_trigger = true;
		else
			return -1;
		return 0;
	}
	if (is(line, len, "WATCHDOG_USEC=")) {
		m->has_watchdog_usec = true;
		return parse_u64(line + 14, len - 14, &m->watchdog_usec);
	}
	if (is(line, len, "FDSTORE=") || is(line, len, "FDSTOREREMOVE=")) {
		size_t n = line[7] == '=' ? 8 : 14;
		if (len != n + 1 || line[n] != '1')
			return -1;
		*(n == 8 ? &m->fdstore : &m->fdstore_remove) = true;
		return 0;
	}
	if (is(line, len, "FDNAME=")) {
		size_t n = len - 7;
		m->fdname_invalid = n == 0 || n >= NOTIFY_FDNAME_MAX;
		for (size_t i = 7; i < len && !m->fdname_invalid; i++)
			m->fdname_invalid = line[i] < 0x21 || line[i] > 0x7e || line[i] == ':';
		if (!m->fdname_invalid) {
			memcpy(m->fdname, line + 7, n);
			m->fdname[n] = '\0';
		}
		return 0;
	}
	return 1;
}

static int apply_line(const char *line, size_t len, struct notify_msg *m)
{
	char value[32];
	size_t vlen;
	unsigned long pid;

	if (len >= 7 && memcmp(line, "STATUS=", 7) == 0) {
		m->has_status = true;
		copy_status(m->status, line + 7, len - 7);
		return 0;
	}
	if (len >= 6 && memcmp(line, "READY=", 6) == 0) {
		if (len != 7 || line[6] != '1')
			return -1;
		m->ready = true;
		return 0;
	}
	if (len >= 9 && memcmp(line, "STOPPING=", 9) == 0) {
		if (len != 10 || line[9] != '1')
			return -1;
		m->stopping = true;
		return 0;
	}
	/* U2: Type=notify-reload */
	if (len >= 10 && memcmp(line, "RELOADING=", 10) == 0) {
		if (len != 11 || line[10] != '1')
			return -1;
		m->reloading = true;
		return 0;
	}
	if (len >= 15 && memcmp(line, "MONOTONIC_USEC=", 15) == 0) {
		unsigned long long usec = 0;
		if (len == 15 || len > 15 + 20)
			return -1;
		for (size_t i = 15; i < len; i++) {
			if (line[i] < '0' || line[i] > '9' || usec > (~0ULL - 9) / 10)
				return -1;
			usec = usec * 10 + (unsigned)(line[i] - '0');
		}
		m->monotonic_usec = usec;
		return 0;
	}
	if (runtime_line(line, len, m) != 1) /* runtime keys (unit-runtime2) */
		return runtime_line(line, len, m);
	if (len >= 8 && memcmp(line, "MAINPID=", 8) == 0) {
		vlen = len - 8;
		if (vlen == 0 || vlen >= sizeof value)
			return -1;
		memcpy(value, line + 8, vlen);
		value[vlen] = '\0';
		if (parse_ulong(value, 1, PID_MAX_VALUE, &pid) < 0)
			return -1;
		m->mainpid = (pid_t)pid;
	}
	return 0;
}

int notify_parse(const char *buf, size_t len, struct notify_msg *m)
{
	const char *p = buf, *end = buf + len;

	memset(m, 0, sizeof *m);
	if (len == 0 || len > NOTIFY_MSG_MAX || memchr(buf, '\0', len))
		return -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (line_len > 0 && apply_line(p, line_len, m) < 0)
			return -1;
		p += line_len + 1;
	}
	return 0;
}
