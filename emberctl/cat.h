#ifndef EMBERCTL_CAT_H
#define EMBERCTL_CAT_H
/* emberctl cat NAME... and the file facts of emberctl show: a unit's fragment and its
 * drop-ins, found as ember-init finds them (init/service-load.c), read by emberctl with
 * the caller's own permissions. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#define UNIT_DROPINS_MAX 32

struct unit_files {
	char fragment[PATH_MAX]; /* "" when there is none */
	bool masked;
	size_t ndropins;
	char dropin[UNIT_DROPINS_MAX][PATH_MAX]; /* in the order they apply */
};

/* The files of canonical name. fragment: the path ember-init read it from (its status
 * record's fragment_path), or NULL to look it up. Drop-ins are looked up in the
 * directories ember-init uses by default, or, when the fragment lies outside them
 * (ember.services=DIR), in the fragment's directory. Returns 0, or -1 when no file is
 * found. */
int unit_files_find(const char *name, const char *fragment, struct unit_files *uf);
/* Print the files as systemctl cat does: "# PATH" before each, a blank line between.
 * tty: control bytes of the contents are escaped. Returns 0, or -1 when a file cannot
 * be read (reported). */
int unit_files_print(FILE *out, const struct unit_files *uf, bool tty);
#endif
