/* pam_lastlog's options (pam.h): which records it writes. Pure. */
#include "pam.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

#define BLANKS " \t\r\v\f"

unsigned pam_lastlog_options(const char *args, pam_note_fn *note, void *ctx, const char *file,
			     unsigned line)
{
	static const char *const display_only[] = { "debug", "silent", "never", "nodate",
						    "noterm", "nohost", "showfailed", "unlimited" };
	char buf[PAM_ARGS_MAX], *s = buf, *w, why[PAM_ARGS_MAX + 64];
	unsigned flags = 0;

	snprintf(buf, sizeof buf, "%s", args);
	while ((w = strtok_r(s, BLANKS, &s))) {
		bool known = str_starts_with(w, "inactive="); /* pam_lastlog's auth part only */
		for (size_t i = 0; i < sizeof display_only / sizeof *display_only && !known; i++)
			known = strcmp(w, display_only[i]) == 0;
		if (strcmp(w, "noupdate") == 0)
			flags |= PAM_LASTLOG_NO_UPDATE;
		else if (strcmp(w, "nowtmp") == 0)
			flags |= PAM_LASTLOG_NO_WTMP;
		else if (!known) {
			snprintf(why, sizeof why, "pam_lastlog: option %s is not supported: ignored", w);
			note(ctx, file, line, why);
		}
	}
	return flags;
}
