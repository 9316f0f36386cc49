#ifndef EMBER_INIT_SYSCTL_H
#define EMBER_INIT_SYSCTL_H
/* Kernel settings ember-init applies at boot from its options (init.conf, then the
 * kernel command line, which wins): ember.legacy_tiocsti=0 turns off
 * dev.tty.legacy_tiocsti, so no unprivileged process can push input into a terminal
 * with TIOCSTI (empower(1) refuses interactive sessions while it is on). */
void sysctl_apply_boot(const char *options);

/* net.unix.max_dgram_qlen raised to SYSCTL_DGRAM_QLEN where it is lower, as systemd's
 * PID 1 does: the kernel's 10 datagrams let journald's forward to the syslog daemon and
 * sd_notify messages be dropped while a booting machine is busy. path: the sysctl's
 * file (tests give their own). 1 raised, 0 left as it was, -1 with errno. */
#define SYSCTL_DGRAM_QLEN 512
#define SYSCTL_DGRAM_QLEN_PATH "/proc/sys/net/unix/max_dgram_qlen"
int sysctl_raise_dgram_qlen(const char *path);
#endif
