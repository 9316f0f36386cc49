#ifndef EMBERCTL_KILL_H
#define EMBERCTL_KILL_H
/* emberctl kill -s SIG: a signal by name or number. Names with or without "SIG"
 * (TERM, SIGHUP), numbers 1..64, and the real-time signals in systemd's numbering as
 * ember-init(8) documents it: RTMIN is 34 whatever the libc, RTMIN+n, RTMAX-n, RTMAX 64. */
int kill_signal_parse(const char *s);
#endif
