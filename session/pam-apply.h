#ifndef EMBER_SESSION_PAM_APPLY_H
#define EMBER_SESSION_PAM_APPLY_H
/* pam_env and pam_limits for ember-session (pam.h does the parsing; this file the
 * reading and the setting). */
#include "pam.h"

struct pam_apply {
	struct pam_stack stack;
	struct penv env;
	struct {
		struct limits_plan plan;
		bool optional;
	} plans[PAM_ENTRIES_MAX];
	size_t nplans;
	bool lastlog;            /* a pam_lastlog line, for a user /etc/passwd knows */
	unsigned lastlog_flags;  /* PAM_LASTLOG_*, of the first such line */
	char user[256];          /* the user's name, for its records */
};

/* Read service's stack and run its pam_env lines over the environment (environ then
 * points into a->env); keep its pam_limits lines' limits in a->plans. Problems are
 * logged and skip what they concern. */
void pam_apply_env(struct pam_apply *a, uid_t uid, const char *service, const char *tty);
/* Set the kept limits. -1 when a limit of a line that is not "optional" could not be
 * set (as a required pam_limits fails the session under PAM). */
int pam_apply_limits(const struct pam_apply *a, uid_t uid);
/* pam_lastlog's records of the session, as its session part writes them: the user's
 * lastlog entry and a wtmp login record for this process on tty ("/dev/tty7"; NULL:
 * none). Nothing without a pam_lastlog line; a file that cannot be written is noted. */
void pam_apply_lastlog(const struct pam_apply *a, uid_t uid, const char *tty);
#endif
