#include "names.h"

#include <string.h>

void modname_normalize(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

void alias_normalize(char *s)
{
	bool in_bracket = false;
	for (; *s; s++) {
		if (*s == '[')
			in_bracket = true;
		else if (*s == ']')
			in_bracket = false;
		else if (*s == '-' && !in_bracket)
			*s = '_';
	}
}

bool modname_valid(const char *s)
{
	size_t len = strlen(s);
	if (len == 0 || len >= MODNAME_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || *s == '/')
			return false;
	return true;
}

static const struct {
	const char *suffix;
	enum compression comp;
} module_suffixes[] = {
	{ ".ko", COMP_NONE },
	{ ".ko.gz", COMP_GZIP },
	{ ".ko.xz", COMP_XZ },
	{ ".ko.zst", COMP_ZSTD },
};

/* Length of the module suffix ending path[0..len), or 0. */
static size_t module_suffix(const char *path, size_t len, enum compression *comp)
{
	for (size_t i = 0; i < sizeof module_suffixes / sizeof module_suffixes[0]; i++) {
		size_t sl = strlen(module_suffixes[i].suffix);
		if (len > sl && memcmp(path + len - sl, module_suffixes[i].suffix, sl) == 0) {
			if (comp)
				*comp = module_suffixes[i].comp;
			return sl;
		}
	}
	return 0;
}

int modname_from_path(const char *path, size_t len, char *buf, size_t size)
{
	size_t start = len, suffix = module_suffix(path, len, NULL), n;

	if (!suffix)
		return -1;
	while (start > 0 && path[start - 1] != '/')
		start--;
	n = len - suffix - start;
	if (n == 0 || n >= size)
		return -1;
	memcpy(buf, path + start, n);
	buf[n] = '\0';
	modname_normalize(buf);
	return 0;
}

enum compression module_compression(const char *path)
{
	enum compression comp = COMP_NONE;
	module_suffix(path, strlen(path), &comp);
	return comp;
}

const char *compression_name(enum compression c)
{
	switch (c) {
	case COMP_GZIP: return "gzip";
	case COMP_XZ: return "xz";
	case COMP_ZSTD: return "zstd";
	default: return "none";
	}
}
