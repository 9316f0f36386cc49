#ifndef EMBER_INIT_NOTIFY_H
#define EMBER_INIT_NOTIFY_H
/* The sd_notify socket: a datagram socket whose messages carry the sender's
 * credentials (SO_PASSCRED), so a message counts only for the service the sending
 * process belongs to. */

/* Bind the socket at path. Returns the fd or -1. */
int notify_open(const char *path);
/* Read every pending datagram and hand it to the supervisor. */
void notify_handle(int fd);
#endif
