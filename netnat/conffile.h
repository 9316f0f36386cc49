#ifndef NETNAT_CONFFILE_H
#define NETNAT_CONFFILE_H
/* The declarative file (docs/netnat.md): one entry per line,
 *   masquerade PREFIX
 *   forward tcp|udp [ADDR:]PORT TARGET[:PORT]
 * '#' starts a comment. Parsing works on a buffer; the caller reads the file. */
#include "entry.h"

/* Parse text[0..len) into s (appending) and validate the result as a whole. On error,
 * err says "LINE: why" (or "why" for whole-file problems) and s is unspecified. */
int conf_parse(const char *text, size_t len, struct nat_state *s, struct nat_error *err);
/* Parse one entry given as words (the CLI form, without add/del): "masquerade P" or
 * "forward PROTO LISTEN TARGET". Returns 0 and fills exactly one of m/f (*is_masq says
 * which). */
int conf_parse_words(char **words, int n, struct masq_entry *m, struct fwd_entry *f,
		     bool *is_masq, struct nat_error *err);
#endif
