#ifndef NETNAT_NETNAT_H
#define NETNAT_NETNAT_H
/* netnat's own exit codes (man/netnat.8.scd); 100 and 111 come from lib/exitcode.h. */
enum {
	NETNAT_EXIT_INVALID = 1,     /* bad entry or file; nothing changed */
	NETNAT_EXIT_CONFLICT = 2,    /* exists already, not present, or clashes with an entry */
	NETNAT_EXIT_UNSUPPORTED = 3, /* the kernel lacks nf_tables or NAT support */
	NETNAT_EXIT_PERMISSION = 4,  /* no CAP_NET_ADMIN */
	NETNAT_EXIT_REJECTED = 5,    /* the kernel refused the change for another reason */
};
#endif
