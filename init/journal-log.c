/* journal-log: see journal-log.h. Only while systemd-journald.service is ready, as
 * systemd's PID 1 checks: its socket is held by a socket unit, so a line sent while
 * journald is stopped would wait there unread, and at poweroff be lost. */
#include "journal-log.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "supervisor.h"
#include "unit-name.h"

static int journal_fd = -1;

static size_t put(char *buf, size_t size, size_t at, const char *s, size_t n)
{
	if (at > size || n > size - at)
		return size + 1;
	memcpy(buf + at, s, n);
	return at + n;
}

static size_t put_field(char *buf, size_t size, size_t at, const char *key, const char *value)
{
	at = put(buf, size, at, key, strlen(key));
	at = put(buf, size, at, value, strlen(value));
	return put(buf, size, at, "\n", 1);
}

/* MESSAGE= in the protocol's binary form (name, newline, 64-bit little-endian length,
 * data, newline): a message may hold any byte, a newline too. */
static size_t put_message(char *buf, size_t size, size_t at, const char *text, size_t len)
{
	unsigned char n[8];

	for (int i = 0; i < 8; i++)
		n[i] = (unsigned char)((unsigned long long)len >> (8 * i));
	at = put(buf, size, at, "MESSAGE\n", 8);
	at = put(buf, size, at, (const char *)n, sizeof n);
	at = put(buf, size, at, text, len);
	return put(buf, size, at, "\n", 1);
}

size_t journal_log_format(char *buf, size_t size, const struct journal_log_entry *e)
{
	char priority[2] = { (char)('0' + (int)e->level), 0 };
	size_t at = put_field(buf, size, 0, "PRIORITY=", priority);

	at = put_field(buf, size, at, "SYSLOG_FACILITY=", "3"); /* daemon */
	at = put_field(buf, size, at, "SYSLOG_IDENTIFIER=", e->identifier);
	if (e->unit)
		at = put_field(buf, size, at, "UNIT=", e->unit);
	if (e->unit && e->invocation && e->invocation[0])
		at = put_field(buf, size, at, "INVOCATION_ID=", e->invocation);
	at = put_message(buf, size, at, e->text, e->len);
	return at > size ? 0 : at;
}

static bool journald_ready(void)
{
	const struct unit *j = supervisor_find(JOURNALD_UNIT);
	return j && j->state == UNIT_READY;
}

/* The unit a line is about: ember-init's lines about a unit start with its name and ": ". */
static const struct unit *unit_named_by(const char *text, size_t len)
{
	char name[UNIT_NAME_MAX];
	size_t i;

	for (i = 0; i < len && i < sizeof name - 1 && text[i] != ' '; i++) {
		if (text[i] == ':' && i + 1 < len && text[i + 1] == ' ')
			break;
		name[i] = text[i];
	}
	if (i == 0 || i >= len || text[i] != ':')
		return NULL;
	name[i] = '\0';
	return supervisor_find(name);
}

bool journal_log_line(enum log_level level, const char *text, size_t len)
{
	static const struct sockaddr_un addr = { AF_UNIX, JOURNAL_NATIVE_SOCKET };
	char dgram[2048], unit[UNIT_NAME_MAX];
	struct journal_log_entry e = { level, log_prog(), NULL, NULL, text, len };
	const struct unit *u;
	size_t n;

	if (!journald_ready())
		return false;
	u = unit_named_by(text, len);
	if (u && unit_name_full(u->svc->name, unit, sizeof unit) == 0) {
		e.unit = unit;
		e.invocation = u->invocation_id;
	}
	n = journal_log_format(dgram, sizeof dgram, &e);
	if (n == 0)
		return false;
	if (journal_fd < 0)
		journal_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (journal_fd < 0)
		return false;
	/* Never waits: a journald that does not read (stuck, or its queue full) gets nothing,
	 * and the line goes to kmsg. */
	return sendto(journal_fd, dgram, n, MSG_DONTWAIT | MSG_NOSIGNAL,
		      (const struct sockaddr *)&addr, sizeof addr) == (ssize_t)n;
}
