#ifndef EMBER_ACTIVATOR_USERDB_H
#define EMBER_ACTIVATOR_USERDB_H
/* systemd's io.systemd.DynamicUser user database, answered on fd (one Accept=yes
 * connection): the users and groups of DynamicUser= services, for nss-systemd. See
 * userdb.c. control: ember-init's control socket. Returns the exit status. */
int userdb_serve(int fd, const char *control);
#endif
