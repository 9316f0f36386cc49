#ifndef EMBER_INIT_CMDLINE_H
#define EMBER_INIT_CMDLINE_H
#include <stdbool.h>
#include <limits.h>

/* A value's bytes, NUL included. The kernel's whole command line is at most 2048 bytes on
 * x86 (COMMAND_LINE_SIZE); PATH_MAX each made five pages of PID 1 resident for good. */
#define CMDLINE_VALUE_MAX 1024

/* What the kernel command line asks of ember-init (see man/ember-init.8.scd). */
struct boot_options {
	char run[CMDLINE_VALUE_MAX];      /* ember.run=PATH: test mode, run PATH and power off */
	char shell[CMDLINE_VALUE_MAX];    /* ember.shell=PATH: a console shell (none unless asked for) */
	bool debug;              /* ember.debug: log at debug level */
	bool quiet;              /* quiet (the kernel's word): only warnings on the console */
	bool no_shell;           /* no ember.shell=PATH, or ember.shell=none */
	bool debug_exit;         /* ember.debug_exit=0 turns off the isa-debug-exit report */
	char services[CMDLINE_VALUE_MAX]; /* ember.services=DIR: read services only from DIR */
	char generators[CMDLINE_VALUE_MAX]; /* ember.generators=DIR[:DIR...]|none: systemd generators */
	char cgroup[CMDLINE_VALUE_MAX];   /* ember.cgroup=PATH: cgroup2 mount for ember's subtree */
	bool rescue;             /* ember.rescue: essential services and a root shell only */
	bool measure;            /* ember.measure=0 turns boot measurement off */
	unsigned long watchdog_sec; /* ember.watchdog=SEC: hardware watchdog timeout, 0 off */
	/* PID 1 hardening (issue 14) */
	char ctl_group[64];      /* ember.ctl_group=NAME|GID: may change services too */
	unsigned long failed_retry_sec; /* ember.failed_retry=SEC: retry given-up services, 0 never */
	bool crash_shell;        /* ember.crash_shell=1: a shell, not re-execution, on a crash */
	char machine_id[64];     /* systemd.machine_id=ID|firmware, as given (init/machine-id.h) */
};

/* Parse a kernel command line (the contents of /proc/cmdline). Unknown words are
 * ignored; "quoted values" keep their spaces. Never fails: bad values are logged and
 * the default kept. */
void cmdline_parse(const char *cmdline, struct boot_options *opts);
#endif
