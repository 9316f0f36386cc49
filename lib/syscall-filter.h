#ifndef EMBER_SYSCALL_FILTER_H
#define EMBER_SYSCALL_FILTER_H
/* The seccomp keys' value syntax, as systemd.exec(5) defines it, parsed into plain sets:
 * SystemCallFilter=, SystemCallErrorNumber=, SystemCallArchitectures=,
 * RestrictAddressFamilies=, RestrictNamespaces=. Used by ember-sandbox (which turns the
 * sets into BPF, sandbox/seccomp.c) and by emberctl verify (which only checks). PID 1
 * keeps the raw text and never links this. Every function: 0, or -1 with a message in
 * err that names the offending word. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscall-names.h"

/* Actions: an errno (0..4095) or one of these. */
#define SYSCALL_ACTION_DEFAULT (-1) /* SystemCallErrorNumber=, or kill */
#define SYSCALL_ACTION_KILL (-2)
#define SYSCALL_ERRNO_MAX 4095

struct syscall_filter {
	bool set;        /* any non-empty SystemCallFilter= line */
	bool allow_list; /* the first line had no "~": listed calls are allowed */
	uint8_t listed[SYSCALL_NAMES_MAX];  /* by index in syscall_names */
	int16_t action[SYSCALL_NAMES_MAX];  /* deny list: what a listed call gets */
};

void syscall_filter_init(struct syscall_filter *f);
/* One SystemCallFilter= value: "" resets; "[~]WORD[:ERRNO] ..." where WORD is a name
 * or @group. The first line decides allow or deny list (an allow list starts with
 * @default); later lines of the other kind remove their calls. */
int syscall_filter_add(struct syscall_filter *f, const char *line, char *err, size_t size);

/* "EPERM", "13" (0..4095) -> errno. */
int syscall_errno_parse(const char *s, int *out);
/* SystemCallErrorNumber=: an errno or "kill" -> errno or SYSCALL_ACTION_KILL. */
int syscall_action_parse(const char *s, int *out);

/* RestrictAddressFamilies=: the first line decides allow or deny list, "none" denies
 * all, "" resets. Families are 0..63 (AF_MAX is far below). */
struct af_filter {
	bool set, allow_list;
	uint64_t families;
};
void af_filter_init(struct af_filter *f);
int af_filter_add(struct af_filter *f, const char *line, char *err, size_t size);

/* RestrictNamespaces=: *allowed is a mask of CLONE_NEW* flags (initially
 * NAMESPACES_ALL: no restriction). yes/no/list/~list, lines merge by OR or AND. */
#define NAMESPACES_ALL 0x7e020000u /* cgroup ipc net mnt pid user uts */
int namespaces_add(uint32_t *allowed, bool *first_done, const char *line, char *err,
		   size_t size);

/* SystemCallArchitectures=: "native" and the names of architectures systemd knows.
 * *native_only: the list restricts (any non-empty list does: ember filters only the
 * native ABI, other ABIs stay blocked); *foreign: a non-native name was listed. */
int syscall_archs_parse(const char *line, bool *native_only, bool *foreign, char *err,
			size_t size);
#endif
