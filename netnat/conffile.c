#include "conffile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The longest valid entry has four words; one more is enough to say "too many". */
#define MAX_WORDS 5

int conf_parse_words(char **words, int n, struct masq_entry *m, struct fwd_entry *f,
		     bool *is_masq, struct nat_error *err)
{
	if (n == 0) {
		snprintf(err->msg, sizeof err->msg, "empty entry");
		return -1;
	}
	if (strcmp(words[0], "masquerade") == 0) {
		*is_masq = true;
		if (n != 2) {
			snprintf(err->msg, sizeof err->msg, "masquerade takes one PREFIX");
			return -1;
		}
		return nat_parse_prefix(words[1], m, err);
	}
	if (strcmp(words[0], "forward") == 0) {
		*is_masq = false;
		if (n != 4) {
			snprintf(err->msg, sizeof err->msg,
				 "forward takes PROTOCOL [ADDRESS:]PORT TARGET[:PORT]");
			return -1;
		}
		return nat_parse_forward(words[1], words[2], words[3], f, err);
	}
	snprintf(err->msg, sizeof err->msg, "%.64s: unknown entry (expected masquerade or forward)",
		 words[0]);
	return -1;
}

/* Split a line in place at whitespace; a word starting with '#' ends it. */
static int split_words(char *line, char **words)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == MAX_WORDS)
			return n + 1;
		words[n++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int parse_line(char *line, struct nat_state *s, struct nat_error *err)
{
	char *words[MAX_WORDS];
	struct masq_entry m;
	struct fwd_entry f;
	bool is_masq;
	int n = split_words(line, words);

	if (n == 0)
		return 0;
	if (n > MAX_WORDS - 1) {
		snprintf(err->msg, sizeof err->msg, "too many words");
		return -1;
	}
	if (conf_parse_words(words, n, &m, &f, &is_masq, err) < 0)
		return -1;
	if (s->n_masq + s->n_fwd >= NAT_MAX_ENTRIES) {
		snprintf(err->msg, sizeof err->msg, "more than %d entries", NAT_MAX_ENTRIES);
		return -1;
	}
	if ((is_masq ? nat_state_add_masq(s, &m) : nat_state_add_fwd(s, &f)) < 0) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return -1;
	}
	return 0;
}

/* Prefix err with the line number. */
static int at_line(size_t lineno, struct nat_error *err)
{
	struct nat_error why = *err;
	snprintf(err->msg, sizeof err->msg, "%zu: %.200s", lineno, why.msg);
	return -1;
}

int conf_parse(const char *text, size_t len, struct nat_state *s, struct nat_error *err)
{
	char line[NAT_MAX_LINE + 1];
	size_t lineno = 0, pos = 0;

	if (len > NAT_MAX_FILE) {
		snprintf(err->msg, sizeof err->msg, "file larger than %d bytes", NAT_MAX_FILE);
		return -1;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t n = end - pos;

		lineno++;
		if (n > NAT_MAX_LINE) {
			snprintf(err->msg, sizeof err->msg, "line longer than %d bytes", NAT_MAX_LINE);
			return at_line(lineno, err);
		}
		if (memchr(text + pos, '\0', n)) {
			snprintf(err->msg, sizeof err->msg, "line contains a NUL byte");
			return at_line(lineno, err);
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (parse_line(line, s, err) < 0)
			return at_line(lineno, err);
		pos = end + 1;
	}
	return nat_state_check(s, err);
}
