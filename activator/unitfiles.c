/* The unit-file calls of systemd's Manager that settings services make: systemd-timedated
 * turns automatic time on and off (a phone's settings switch) with EnableUnitFiles or
 * DisableUnitFiles of the NTP daemon's unit, then Reload, then StartUnit or StopUnit, and
 * reads the unit's UnitFileState first (Properties.GetAll, props.c). emberctl carries the
 * unit-file part out (enable, disable, is-enabled: it knows ember's and systemd's unit
 * directories), ember-init the reload. Root callers only: bus.c asks the bus who called.
 * docs/dbus.md, "Unit files". */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "activator.h"
#include "ctl-client.h"
#include "escape.h"
#include "log.h"

#define CONTROL_TIMEOUT_MS 5000
#define EMBERCTL_ARGS_MAX (4 + DBUS_TRANSIENT_UNITS_MAX + 1)

static const char *unit_root; /* --unit-root: emberctl's --root (an image, a test) */

void unit_files_set_root(const char *root)
{
	unit_root = root;
}

int unit_files_op(const char *member)
{
	if (!member)
		return -1;
	if (strcmp(member, "EnableUnitFiles") == 0)
		return UNIT_FILES_ENABLE;
	if (strcmp(member, "DisableUnitFiles") == 0)
		return UNIT_FILES_DISABLE;
	return strcmp(member, "Reload") == 0 ? UNIT_FILES_RELOAD : -1;
}

/* emberctl next to this program (a build tree), in ../bin (installed: sbin and bin), or
 * on PATH. */
static const char *emberctl_path(void)
{
	static char path[PATH_MAX + 32];
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;

	if (path[0])
		return path;
	snprintf(path, sizeof path, "emberctl");
	if (n <= 0)
		return path;
	self[n] = '\0';
	if (!(slash = strrchr(self, '/')))
		return path;
	*slash = '\0';
	snprintf(path, sizeof path, "%s/emberctl", self);
	if (access(path, X_OK) == 0)
		return path;
	snprintf(path, sizeof path, "%s/../bin/emberctl", self);
	if (access(path, X_OK) == 0)
		return path;
	snprintf(path, sizeof path, "emberctl");
	return path;
}

/* Run emberctl with words (NULL-terminated) after the common options; its first line of
 * output into out when out is not NULL, else its output to ours (the journal: the links
 * enable and disable made). Its exit status, or -1. */
static int run_emberctl(const char *const *words, char *out, size_t size)
{
	const char *argv[EMBERCTL_ARGS_MAX + 2];
	int fds[2] = { -1, -1 }, status;
	size_t n = 0, got = 0;
	pid_t pid;

	argv[n++] = emberctl_path();
	if (unit_root) {
		argv[n++] = "--root";
		argv[n++] = unit_root;
	}
	for (; *words && n < EMBERCTL_ARGS_MAX; words++)
		argv[n++] = *words;
	argv[n] = NULL;
	if (out && pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (out)
			dup2(fds[1], STDOUT_FILENO);
		dup2(null, STDIN_FILENO);
		if (strchr(argv[0], '/'))
			execv(argv[0], (char *const *)argv);
		else
			execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (out) {
		ssize_t r;
		close(fds[1]);
		while (pid > 0 && got + 1 < size && (r = read(fds[0], out + got, size - 1 - got)) > 0)
			got += (size_t)r;
		close(fds[0]);
		out[got] = '\0';
		out[strcspn(out, "\n")] = '\0';
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void unit_file_state(const char *unit, char *out, size_t size)
{
	const char *words[] = { "is-enabled", unit, NULL };

	if (run_emberctl(words, out, size) < 0 || !out[0])
		snprintf(out, size, "%s", "");
}

/* EnableUnitFiles answers (carries_install_info, changes a(sss)); DisableUnitFiles the
 * changes alone. emberctl said what it changed on its own output; callers such as
 * timedated read nothing of it, so the list is empty. */
static void reply_changes(struct activator *a, const struct dbus_msg *call, bool enable)
{
	uint8_t buf[64];
	struct dbus_body body = { buf, 0, sizeof buf, false };
	struct dbus_out o = { .type = DBUS_METHOD_RETURN, .reply_serial = call->serial,
			      .destination = call->sender, .body = &body,
			      .signature = enable ? "ba(sss)" : "a(sss)" };

	if (enable)
		dbus_put_bool(&body, true);
	dbus_put_empty_array(&body, '(');
	if (!(call->flags & NO_REPLY_EXPECTED))
		bus_send(a, &o);
}

void unit_files_carry_out(struct activator *a, const struct dbus_msg *call, int op,
			  const struct scope_request *req)
{
	const char *words[DBUS_TRANSIENT_UNITS_MAX + 2];
	char err[CTL_PACKET_MAX], safe[CTL_NAME_MAX * 4];
	size_t n = 0;
	int status;

	if (op == UNIT_FILES_RELOAD) {
		log_info("daemon-reload requested over D-Bus");
		if (ember_request(a->control, CTL_RELOAD, "", CONTROL_TIMEOUT_MS, NULL, NULL, 0, err,
				  sizeof err) != CTL_STATUS_OK) {
			reply_error(a, call, "org.freedesktop.DBus.Error.Failed", err);
			return;
		}
		reply_return(a, call, NULL, NULL);
		return;
	}
	words[n++] = op == UNIT_FILES_ENABLE ? "enable" : "disable";
	for (size_t i = 0; i < req->want_count; i++)
		words[n++] = req->wants[i];
	words[n] = NULL;
	status = run_emberctl(words, NULL, 0);
	for (size_t i = 0; i < req->want_count; i++)
		log_info("%s %s over D-Bus: %s", words[0], escape_text(req->wants[i], safe, sizeof safe),
			 status == 0 ? "done" : "failed");
	if (status != 0) {
		reply_error(a, call, "org.freedesktop.DBus.Error.Failed",
			    status < 0 ? "emberctl could not be run" : "emberctl refused it");
		return;
	}
	reply_changes(a, call, op == UNIT_FILES_ENABLE);
}
