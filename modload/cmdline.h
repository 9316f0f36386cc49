#ifndef EMBER_MODLOAD_CMDLINE_H
#define EMBER_MODLOAD_CMDLINE_H
/* What ember-modload takes from the kernel command line:
 *   modules_load=a,b       (modules-load= too) modules to load
 *   rd.modules_load=a,b    the same, honoured only inside an initramfs
 *   MODULE.PARAM=VALUE     module options, appended after modprobe.d's
 *   modprobe.blacklist=a,b and module_blacklist=a,b: refuse these modules */
#include <stdbool.h>

#include "loadconf.h"
#include "util.h"

struct cmdline {
	struct request_list modules;
	struct strvec blacklist;  /* normalized names */
	struct strmap options;    /* normalized module name -> char* "p=v q=w" */
};

/* Parse /proc/cmdline text. Words are separated by blanks; double quotes group blanks
 * into one word and are kept for module options (the kernel's parameter parser reads
 * them). */
void cmdline_parse(const char *text, bool in_initrd, struct cmdline *out);
void cmdline_free(struct cmdline *c);
#endif
