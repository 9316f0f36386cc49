#ifndef NETNAT_FORWARDING_H
#define NETNAT_FORWARDING_H
/* IP forwarding: turned on for a family only when the user asks (--forwarding), never
 * turned off. */
#include "entry.h"

/* Returns 0 or -1/errno; *path says which sysctl file failed. */
int forwarding_enable(enum nat_family f, const char **path);
#endif
