#ifndef EMBER_INIT_NOTIFY_H
#define EMBER_INIT_NOTIFY_H
/* The sd_notify socket: a datagram socket whose messages carry the sender's
 * credentials (SO_PASSCRED), so a message counts only for the service the sending
 * process belongs to. */

/* Bind the socket at path. Returns the fd or -1. */
int notify_open(const char *path);
/* The socket the last PID 1 handed over (fd, -1 for none), if it is still the one bound
 * at path: it is kept, so services that connected to it once (journald does) still
 * reach PID 1. Otherwise fd is closed and a new socket is bound. Returns the fd or -1. */
int notify_reopen(int fd, const char *path);
/* Read every pending datagram and hand it to the supervisor. */
void notify_handle(int fd);
#endif
