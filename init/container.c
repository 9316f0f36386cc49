/* See container.h. */
#include "container.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool exists(const char *root, const char *path)
{
	char full[512];

	snprintf(full, sizeof full, "%s%s", root, path);
	return access(full, F_OK) == 0;
}

/* The first line of a /proc/PID/stat below root: "PID (COMM) STATE PPID ..."; 0 or -1. */
static int read_stat(const char *root, const char *which, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	bool ok;

	snprintf(path, sizeof path, "%s/proc/%s/stat", root, which);
	if (!(f = fopen(path, "re")))
		return -1;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

/* With a /proc to ask: is this the first PID namespace, where PID 2 is kthreadd? */
static bool pid_namespace_is_nested(const char *root)
{
	char self[256], two[256];

	if (read_stat(root, "self", self, sizeof self) < 0)
		return false; /* no /proc yet (a machine booting without an initramfs) */
	if (strncmp(self, "1 ", 2) != 0)
		return true; /* PID 1 here, another number in this /proc: not our namespace */
	return read_stat(root, "2", two, sizeof two) < 0 || strncmp(two, "2 (kthreadd) ", 13) != 0;
}

/* container= comes from whoever started us: kept to a short, printable name. */
static const char *env_name(const char *value)
{
	static char name[32];
	size_t i;

	for (i = 0; value[i] && i < sizeof name - 1; i++) {
		char c = value[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
		name[i] = plain ? c : '_';
	}
	name[i] = '\0';
	return name;
}

const char *container_detect(const char *root, const char *container_env)
{
	if (container_env && *container_env)
		return env_name(container_env);
	if (exists(root, "/.dockerenv"))
		return "docker";
	if (exists(root, "/run/.containerenv"))
		return "podman";
	return pid_namespace_is_nested(root) ? "pid-namespace" : NULL;
}
