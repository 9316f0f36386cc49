/* Mount, device, slice and swap units for the loader and the supervisor: built-in
 * definitions, RequiresMountsFor= (both read /etc/fstab) and the run-time dispatch by
 * kind. The pure parsing is in unit-kinds.c (emberctl links it alone). See unit-kinds.h. */
#include "unit-kinds.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "unit-name.h"

static void depend(struct service *svc, const struct service_diag *diag,
		   struct service_name_list *list, const char *name)
{
	char msg[SERVICE_ERROR_MAX];

	if (service_add_name(svc, list, name) == 0 || !diag || !diag->report)
		return;
	snprintf(msg, sizeof msg, "RequiresMountsFor=: too many dependencies to add %s", name);
	diag->report(diag->ctx, SERVICE_WARNING, svc->path, 0, msg);
}

/* ---- built-in definitions ------------------------------------------------------------- */

const char *unit_kinds_builtin(const char *name)
{
	static char text[SERVICE_NAME_MAX + 128];
	char where[UNIT_MOUNT_PATH_MAX], what[8], type[8], options[8];
	enum unit_kind kind = unit_name_kind(name);

	/* The name only holds unit name characters: safe inside the text. */
	switch (kind) {
	case UNIT_MOUNT:
		if (unit_kind_path(name, where, sizeof where) < 0)
			return NULL;
		/* A mount /etc/fstab names gets systemd's default dependencies; one nothing
		 * configures is only a mount point to look at. */
		snprintf(text, sizeof text, "[Unit]\nDescription=Mount %s\n%s", name,
			 strcmp(where, "/") != 0 && unit_mount_fstab_find(where, what, sizeof what,
				type, sizeof type, options, sizeof options) == 0
			 ? "" : "DefaultDependencies=no\n");
		return text;
	case UNIT_DEVICE:
		snprintf(text, sizeof text, "[Unit]\nDescription=Device %s\nDefaultDependencies=no\n"
			 "JobTimeoutSec=%lums\n", name, UNIT_DEVICE_TIMEOUT_MS);
		return text;
	case UNIT_SLICE:
		snprintf(text, sizeof text, "[Unit]\nDescription=%s\n%s",
			 strcmp(name, "-.slice") == 0 ? "Root Slice" :
			 strcmp(name, "system.slice") == 0 ? "System Slice" :
			 strcmp(name, "user.slice") == 0 ? "User and Session Slice" :
			 strcmp(name, "machine.slice") == 0 ? "Virtual Machine and Container Slice"
							    : name,
			 strcmp(name, "-.slice") == 0 ? "DefaultDependencies=no\n" : "");
		return text;
	default:
		return NULL;
	}
}

/* ---- RequiresMountsFor= ------------------------------------------------------------- */

static void mounts_for_prefix(struct service *svc, const char *prefix, bool required,
			      bool (*has_file)(void *ctx, const char *file), void *ctx,
			      const struct service_diag *diag)
{
	char name[SERVICE_NAME_MAX], file[SERVICE_NAME_MAX], what[8], type[8], opts[8];

	if (strcmp(prefix, "/") == 0)
		str_copy(name, sizeof name, "-.mount");
	else if (unit_name_path_escape(prefix, name, sizeof name - 6) < 0)
		return;
	else
		strcat(name, ".mount");
	str_copy(file, sizeof file, name);
	if (!has_file(ctx, file) &&
	    unit_mount_fstab_find(prefix, what, sizeof what, type, sizeof type, opts, sizeof opts) < 0)
		return;
	if (strcmp(name, svc->name) == 0)
		return;
	depend(svc, diag, required ? &svc->requires : &svc->wants, name);
	depend(svc, diag, &svc->after, name);
}

void unit_kinds_mounts_for(struct service *svc, bool (*has_file)(void *ctx, const char *file),
			   void *ctx, const struct service_diag *diag)
{
	for (int k = 0; k < 2; k++) {
		char copy[SERVICE_LINE_MAX];
		char *save = NULL;
		if (!svc->kinds.mounts_for[k])
			continue;
		str_copy(copy, sizeof copy, service_str(svc, svc->kinds.mounts_for[k]));
		for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
			char prefix[UNIT_MOUNT_PATH_MAX];
			size_t len = strlen(w);
			while (len > 1 && w[len - 1] == '/')
				w[--len] = '\0';
			/* "/", "/var", "/var/lib", ... up to the path itself */
			mounts_for_prefix(svc, "/", k == 0, has_file, ctx, diag);
			for (size_t i = 1; i <= len && len > 1; i++) {
				if (i < len && w[i] != '/')
					continue;
				snprintf(prefix, sizeof prefix, "%.*s", (int)i, w);
				mounts_for_prefix(svc, prefix, k == 0, has_file, ctx, diag);
			}
		}
	}
}

/* ---- run time ------------------------------------------------------------------------- */

enum unit_kind_result unit_kind_mount_start(const struct service *s, char *err, size_t size);
void unit_kind_mount_stop(const struct service *s);

enum unit_kind_result unit_kind_start(const struct service *s, char *err, size_t size)
{
	switch (s->kind) {
	case UNIT_MOUNT:
		return unit_kind_mount_start(s, err, size);
	case UNIT_DEVICE:
		return unit_device_present(s->name) ? UNIT_KIND_ACTIVE : UNIT_KIND_WAIT;
	case UNIT_SWAP:
		return unit_kind_swap_start(s, err, size);
	default:
		return UNIT_KIND_ACTIVE;
	}
}

unsigned long unit_kind_timeout_ms(const struct service *s)
{
	return s->timeout_start_ms;
}

bool unit_kind_present(const struct service *s)
{
	char where[UNIT_MOUNT_PATH_MAX];

	switch (s->kind) {
	case UNIT_MOUNT:
		return unit_kind_path(s->name, where, sizeof where) == 0 &&
		       unit_mount_is_mountpoint(where);
	case UNIT_DEVICE:
		return unit_device_present(s->name);
	case UNIT_SWAP:
		return unit_kind_swap_present(s);
	default:
		return true;
	}
}

pid_t unit_kind_stop(const struct service *s)
{
	if (s->kind == UNIT_SWAP)
		return unit_kind_swap_stop(s);
	if (s->kind == UNIT_MOUNT)
		unit_kind_mount_stop(s);
	return 0;
}
