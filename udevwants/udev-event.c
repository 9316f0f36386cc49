/* udev's two ways of saying what a device asks for: its netlink event and its database
 * entry (udev-wants.h). Everything here is bounded by the input's length; nothing is
 * trusted to be NUL-terminated or in range. */
#include "udev-wants.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "escape.h"
#include "unit-name.h"

/* The header udevd puts before its properties (libudev's monitor format). */
struct udev_header {
	char prefix[8];           /* "libudev" */
	uint32_t magic;           /* 0xfeedcafe, network order */
	uint32_t header_size;
	uint32_t properties_off;
	uint32_t properties_len;
	uint32_t filter_hashes[4];
};
#define UDEV_MAGIC 0xfeedcafeu

/* What the properties say, as they are met. */
struct props {
	const char *action, *devpath, *wants, *tags, *current_tags, *ready;
	size_t devpath_len, wants_len, tags_len, current_tags_len, ready_len, action_len;
};

static void take(const char *kv, size_t len, const char *key, const char **v, size_t *vlen)
{
	size_t k = strlen(key);

	if (len > k && memcmp(kv, key, k) == 0 && kv[k] == '=') {
		*v = kv + k + 1;
		*vlen = len - k - 1;
	}
}

static void property(struct props *p, const char *kv, size_t len)
{
	take(kv, len, "ACTION", &p->action, &p->action_len);
	take(kv, len, "DEVPATH", &p->devpath, &p->devpath_len);
	take(kv, len, "SYSTEMD_WANTS", &p->wants, &p->wants_len);
	take(kv, len, "TAGS", &p->tags, &p->tags_len);
	take(kv, len, "CURRENT_TAGS", &p->current_tags, &p->current_tags_len);
	take(kv, len, "SYSTEMD_READY", &p->ready, &p->ready_len);
}

static bool is(const char *v, size_t len, const char *text)
{
	return v && len == strlen(text) && memcmp(v, text, len) == 0;
}

/* ":a:systemd:b:" has the tag "systemd". */
static bool has_systemd_tag(const char *tags, size_t len)
{
	static const char tag[] = ":systemd:";

	for (size_t i = 0; tags && i + sizeof tag - 1 <= len; i++)
		if (memcmp(tags + i, tag, sizeof tag - 1) == 0)
			return true;
	return false;
}

/* The properties into out: 1, 0 or -1 as udev_event_parse(). */
static int conclude(const struct props *p, struct udev_device_wants *out, char *err,
		    size_t errlen)
{
	if (!p->devpath || p->devpath_len == 0 || p->devpath_len >= sizeof out->devpath ||
	    memchr(p->devpath, '\0', p->devpath_len)) {
		snprintf(err, errlen, "no DEVPATH, or one of more than %zu bytes",
			 sizeof out->devpath - 1);
		return -1;
	}
	memcpy(out->devpath, p->devpath, p->devpath_len);
	out->devpath[p->devpath_len] = '\0';
	out->removed = is(p->action, p->action_len, "remove");
	out->wants[0] = '\0';
	/* the tags of this event where udev says them apart (as systemd asks), else all; a
	 * removed device's event still says what it wanted, for its wants to be let go */
	if (!(p->current_tags ? has_systemd_tag(p->current_tags, p->current_tags_len)
			      : has_systemd_tag(p->tags, p->tags_len)) || !p->wants || p->wants_len == 0 ||
	    (!out->removed && is(p->ready, p->ready_len, "0")))
		return out->removed ? 1 : 0;
	if (p->wants_len >= sizeof out->wants) {
		if (out->removed) /* such a list was never started: only forget the device */
			return 1;
		snprintf(err, errlen, "SYSTEMD_WANTS= of more than %zu bytes", sizeof out->wants - 1);
		return -1;
	}
	memcpy(out->wants, p->wants, p->wants_len);
	out->wants[p->wants_len] = '\0';
	return 1;
}

int udev_event_parse(const char *buf, size_t len, struct udev_device_wants *out, char *err,
		     size_t errlen)
{
	struct udev_header h;
	struct props p = { 0 };
	size_t pos, end;

	memset(out, 0, sizeof *out);
	if (len < sizeof h) {
		snprintf(err, errlen, "%zu bytes: shorter than udev's header", len);
		return -1;
	}
	memcpy(&h, buf, sizeof h);
	if (memcmp(h.prefix, "libudev", 8) != 0 || ntohl(h.magic) != UDEV_MAGIC) {
		snprintf(err, errlen, "not udev's message format (prefix or magic)");
		return -1;
	}
	pos = h.properties_off;
	if (pos < sizeof h || pos > len || h.properties_len > len - pos) {
		snprintf(err, errlen, "properties at %u+%u outside the %zu bytes", h.properties_off,
			 h.properties_len, len);
		return -1;
	}
	end = pos + h.properties_len;
	while (pos < end) {
		const char *nul = memchr(buf + pos, '\0', end - pos);
		size_t n = nul ? (size_t)(nul - (buf + pos)) : end - pos;
		property(&p, buf + pos, n);
		pos += n + 1;
	}
	return conclude(&p, out, err, errlen);
}

int udev_db_parse(const char *id, const char *text, struct udev_device_wants *out, char *err,
		  size_t errlen)
{
	struct props p = { 0 };
	bool tagged = false;
	char key[UDEV_DEVPATH_MAX];

	memset(out, 0, sizeof *out);
	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n");
		if (n >= 2 && line[1] == ':' && line[0] == 'E')
			property(&p, line + 2, n - 2);
		else if (n >= 2 && line[1] == ':' && (line[0] == 'G' || line[0] == 'Q'))
			tagged |= n - 2 == 7 && memcmp(line + 2, "systemd", 7) == 0;
		line += n + (line[n] == '\n');
	}
	if (snprintf(key, sizeof key, "db:%s", id) >= (int)sizeof key) {
		snprintf(err, errlen, "a database id of more than %zu bytes", sizeof key - 4);
		return -1;
	}
	p.devpath = key;
	p.devpath_len = strlen(key);
	p.tags = tagged ? ":systemd:" : NULL;
	p.tags_len = tagged ? 9 : 0;
	return conclude(&p, out, err, errlen);
}

int udev_wants_next(const char *list, size_t *pos, char *name, size_t size, char *bad,
		    size_t badsize)
{
	char word[UNIT_NAME_MAX];
	size_t start, n;

	*pos += strspn(list + *pos, " \t\n");
	if (!list[*pos])
		return 0;
	start = *pos;
	n = strcspn(list + start, " \t\n");
	*pos = start + n;
	if (n < sizeof word) {
		memcpy(word, list + start, n);
		word[n] = '\0';
		if (unit_name_canonical(word, name, size, NULL) == 0 && ctl_name_valid(name))
			return 1;
	} else {
		memcpy(word, list + start, sizeof word - 1);
		word[sizeof word - 1] = '\0';
	}
	escape_text(word, bad, badsize);
	return -1;
}

/* FNV-1a: a table key, not a defence (the table is bounded either way). */
static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

bool udev_seen_update(struct udev_seen *s, const struct udev_device_wants *w)
{
	uint64_t key = hash(w->devpath), list = hash(w->wants);

	for (size_t i = 0; i < UDEV_SEEN_MAX; i++) {
		if (s->key[i] != key)
			continue;
		if (w->removed) {
			s->key[i] = s->list[i] = 0;
			return false;
		}
		if (s->list[i] == list)
			return false;
		s->list[i] = list;
		return true;
	}
	if (w->removed)
		return false;
	s->key[s->next] = key;
	s->list[s->next] = list;
	s->next = (s->next + 1) % UDEV_SEEN_MAX;
	return true;
}
