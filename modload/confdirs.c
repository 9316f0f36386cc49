#include "confdirs.h"

#include "log.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry {
	char *name;
	char *path; /* NULL: masked */
};

static bool is_conf_name(const char *name)
{
	size_t len = strlen(name);
	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".conf") == 0;
}

static bool is_dev_null_link(const char *path)
{
	char target[16];
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "/dev/null") == 0;
}

static bool seen(const struct entry *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return true;
	return false;
}

/* Add the *.conf files of one directory unless a higher directory already named them. */
static int scan_dir(const char *dir, struct entry **v, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		log_error("%s: cannot read directory: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *path;
		struct stat st;

		if (!is_conf_name(de->d_name) || seen(*v, *n, de->d_name))
			continue;
		path = xconcat(dir, "/", de->d_name, NULL);
		if (is_dev_null_link(path)) {
			free(path);
			path = NULL;
		} else if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			/* Dangling links and non-regular files are not configuration. */
			free(path);
			continue;
		}
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*v = xrealloc(*v, *cap * sizeof **v);
		}
		(*v)[*n].name = xstrdup(de->d_name);
		(*v)[*n].path = path;
		(*n)++;
	}
	closedir(d);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

int conf_list_dirs(const char *root, const char *const *dirs, struct conf_list *out)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0, kept = 0;
	int ret = 0;

	for (size_t i = 0; dirs[i]; i++) {
		char *dir = xconcat(root, dirs[i], NULL);
		if (scan_dir(dir, &v, &n, &cap) < 0)
			ret = -1;
		free(dir);
	}
	if (n)
		qsort(v, n, sizeof *v, by_name);
	out->v = xcalloc(n, sizeof *out->v);
	for (size_t i = 0; i < n; i++) {
		if (!v[i].path) {
			free(v[i].name);
			continue;
		}
		out->v[kept].name = v[i].name;
		out->v[kept].path = v[i].path;
		kept++;
	}
	out->n = kept;
	free(v);
	return ret;
}

void conf_list_free(struct conf_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].path);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
