#ifndef EMBER_TEST_MODLOAD_FIXTURE_H
#define EMBER_TEST_MODLOAD_FIXTURE_H
/* Temporary directory trees for ember-modload's unit tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fixture_root[64];

static inline void fixture_make(void)
{
	strcpy(fixture_root, "/tmp/ember-modload-test.XXXXXX");
	if (!mkdtemp(fixture_root)) {
		perror("mkdtemp");
		exit(1);
	}
}

/* Write text to root/rel, creating directories. */
static inline void fixture_write(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", fixture_root, rel);
	for (char *p = path + strlen(fixture_root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static inline void fixture_symlink(const char *target, const char *rel)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", fixture_root, rel);
	if (symlink(target, path) != 0) {
		perror(path);
		exit(1);
	}
}

static inline void fixture_remove(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fixture_root);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fixture_root);
}
#endif
