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
