#ifndef EMBER_INIT_LOOPBACK_H
#define EMBER_INIT_LOOPBACK_H
/* The loopback interface up before any unit starts, as systemd's PID 1 brings it up: a
 * socket unit listening on [::1] or 127.0.0.1 (Debian's gpsd.socket) binds at once,
 * whoever configures the network later. 0, or -1 (logged). */
int loopback_up(void);
#endif
