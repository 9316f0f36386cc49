/* ember-session for systemd's per-user manager (user@UID.service, PAMName=systemd-user):
 * what pam_systemd and a systemd host give it (docs/dbus.md, "The per-user manager").
 *
 * `systemd --user` starts only where /run/systemd/system/ exists (sd_booted()). ember
 * does not make that directory: it is the sign every systemd tool and package script
 * reads as "systemd is PID 1, use its manager API", which ember does not offer. The user
 * manager gets it in a mount namespace of its own instead, and its children with it:
 * there /run/systemd is a tmpfs (as large as the real one's file system, for systemd
 * --user's daemon-reload) holding an empty system/ and, bound in, each entry
 * of the real /run/systemd (the journal's sockets, logind's state, ...), so what they
 * read and write is the host's own. Nothing of it is seen outside. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "session.h"

/* pam_systemd makes no session for the user manager: logind itself asked for that unit,
 * and a session of it would keep the user's sessions from ever ending. It only gets the
 * runtime directory. */
void user_manager_env(uid_t uid)
{
	static char var[64]; /* putenv keeps the pointer */
	struct stat st;

	snprintf(var, sizeof var, "XDG_RUNTIME_DIR=/run/user/%u", (unsigned)uid);
	if (stat(var + 16, &st) == 0 && S_ISDIR(st.st_mode) && putenv(var) != 0)
		log_warn("%s: %m", var);
}

/* pam_systemd's legacy export: where the user's runtime directory has the user bus
 * (dbus.socket of the user manager, which logind started before it answered), programs
 * that do not look for it themselves are told. */
void user_bus_env(uid_t uid)
{
	static char var[80]; /* putenv keeps the pointer */
	char rt[40];
	const char *have = getenv("XDG_RUNTIME_DIR");

	snprintf(rt, sizeof rt, "/run/user/%u", (unsigned)uid);
	if (!have || strcmp(have, rt) != 0)
		return;
	snprintf(var, sizeof var, "DBUS_SESSION_BUS_ADDRESS=unix:path=%s/bus", rt);
	if (access(var + 35, F_OK) == 0 && putenv(var) != 0)
		log_warn("%s: %m", var);
}
