/* Built-in targets with systemd's standard relations, and the default target from the
 * kernel command line. Definitions are unit file text, read by the same parser as files. */
#include "unit-targets.h"

#include <stdio.h>
#include <string.h>

#include "unit-name.h"

struct builtin {
	const char *name, *text;
};

/* As systemd ships them (special targets, bootup(7)), without the units ember lacks. */
static const struct builtin builtins[] = {
	{ "basic.target", "[Unit]\nDescription=Basic System\nRequires=sysinit.target\n"
	  "Wants=sockets.target timers.target paths.target\n"
	  "After=sysinit.target sockets.target paths.target timers.target\n" },
	{ "emergency.target", "[Unit]\nDescription=Emergency Mode\n" },
	{ "getty.target", "[Unit]\nDescription=Login Prompts\n" },
	{ "graphical.target", "[Unit]\nDescription=Graphical Interface\n"
	  "Requires=multi-user.target\nConflicts=rescue.target\n"
	  "After=multi-user.target rescue.target\n" },
	{ "local-fs-pre.target", "[Unit]\nDescription=Preparation for Local File Systems\n"
	  "DefaultDependencies=no\nBefore=local-fs.target\n" },
	{ "local-fs.target", "[Unit]\nDescription=Local File Systems\nDefaultDependencies=no\n"
	  "Conflicts=shutdown.target\nAfter=local-fs-pre.target\n" },
	{ "multi-user.target", "[Unit]\nDescription=Multi-User System\nRequires=basic.target\n"
	  "Wants=getty.target\nConflicts=rescue.target\nAfter=basic.target rescue.target\n" },
	{ "network-online.target", "[Unit]\nDescription=Network is Online\n"
	  "After=network.target\n" },
	{ "network-pre.target", "[Unit]\nDescription=Preparation for Network\n" },
	{ "network.target", "[Unit]\nDescription=Network\nAfter=network-pre.target\n" },
	{ "nss-lookup.target", "[Unit]\nDescription=Host and Network Name Lookups\n" },
	{ "paths.target", "[Unit]\nDescription=Path Units\n" },
	{ "remote-fs.target", "[Unit]\nDescription=Remote File Systems\n" },
	{ "rescue.target", "[Unit]\nDescription=Rescue Mode\nRequires=sysinit.target\n"
	  "After=sysinit.target\n" },
	{ "shutdown.target", "[Unit]\nDescription=System Shutdown\nDefaultDependencies=no\n" },
	{ "sockets.target", "[Unit]\nDescription=Socket Units\n" },
	{ "swap.target", "[Unit]\nDescription=Swaps\n" },
	{ "sysinit.target", "[Unit]\nDescription=System Initialization\nDefaultDependencies=no\n"
	  "Conflicts=emergency.target\nWants=local-fs.target swap.target\n"
	  "After=local-fs.target swap.target emergency.target\n" },
	{ "time-set.target", "[Unit]\nDescription=System Time Set\nDefaultDependencies=no\n" },
	{ "time-sync.target", "[Unit]\nDescription=System Time Synchronized\n"
	  "After=time-set.target\n" },
	{ "timers.target", "[Unit]\nDescription=Timer Units\n" },
};

const char *unit_target_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return builtins[i].text;
	return NULL;
}

int unit_default_from_cmdline(const char *cmdline, char *out, size_t size)
{
	static const char *const keys[] = { "systemd.unit=", "ember.unit=" };
	int found = -1;

	for (const char *w = cmdline; *w;) {
		size_t len;
		w += strspn(w, " \t\n");
		len = strcspn(w, " \t\n");
		for (size_t k = 0; k < 2 && len; k++) {
			size_t klen = strlen(keys[k]);
			char value[UNIT_NAME_MAX];
			if (len <= klen || strncmp(w, keys[k], klen) != 0 ||
			    len - klen >= sizeof value)
				continue;
			snprintf(value, sizeof value, "%.*s", (int)(len - klen), w + klen);
			if (unit_name_canonical(value, out, size, NULL) == 0 &&
			    !unit_name_is_template(out))
				found = 0;
		}
		w += len;
	}
	return found;
}
