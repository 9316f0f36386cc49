#ifndef EMBERCTL_PROPS_H
#define EMBERCTL_PROPS_H
/* emberctl show: a unit's properties as systemctl show prints them, KEY=VALUE, from the
 * status record PID 1 sends and the unit's files. Pure: the facts come in, text goes out. */
#include <stdbool.h>
#include <stdio.h>

#include "cat.h"
#include "ctl.h"

struct props_in {
	const char *name;              /* canonical ("sshd", "dbus.socket") */
	const struct ctl_record *rec;  /* the status record; NULL: not loaded */
	const struct unit_files *files;/* NULL: none found */
	const char *unit_file_state;   /* as is-enabled prints it */
	long long boot_to_real_us;     /* CLOCK_REALTIME - CLOCK_BOOTTIME, now */
};

struct props_filter {
	char *const *want;  /* property names (-p); none: every property */
	size_t nwant;
	bool value_only;    /* --value */
};

/* Print the properties. Returns how many were printed. */
size_t props_print(FILE *f, const struct props_in *in, const struct props_filter *pf);
/* "Fri 2026-12-04 10:24:02 UTC" for µs since the epoch, local time ("" for < 0). */
void props_format_time(char *buf, size_t size, long long real_us);
#endif
