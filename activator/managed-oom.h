#ifndef EMBER_ACTIVATOR_MANAGED_OOM_H
#define EMBER_ACTIVATOR_MANAGED_OOM_H
/* systemd-oomd's subscription to the manager's managed control groups, answered on fd
 * (one Accept=yes connection): see managed-oom.c. control: ember-init's control socket.
 * Returns the exit status: 0 when oomd subscribed and later went away. */
int managed_oom_serve(int fd, const char *control);
#endif
