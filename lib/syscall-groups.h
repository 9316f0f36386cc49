#ifndef EMBER_SYSCALL_GROUPS_H
#define EMBER_SYSCALL_GROUPS_H
/* The @groups of SystemCallFilter= (lib/syscall-groups.c, generated). */
#include <stddef.h>

struct syscall_group {
	const char *name;    /* "@system-service" */
	const char *members; /* names and @groups, one space between */
};

extern const struct syscall_group syscall_groups[];
extern const size_t syscall_group_count;

/* The members of "@name", or NULL for an unknown group. */
const char *syscall_group_members(const char *name);
#endif
