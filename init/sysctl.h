#ifndef EMBER_INIT_SYSCTL_H
#define EMBER_INIT_SYSCTL_H
/* Kernel settings ember-init applies at boot from its options (init.conf, then the
 * kernel command line, which wins): ember.legacy_tiocsti=0 turns off
 * dev.tty.legacy_tiocsti, so no unprivileged process can push input into a terminal
 * with TIOCSTI (empower(1) refuses interactive sessions while it is on). */
void sysctl_apply_boot(const char *options);
#endif
