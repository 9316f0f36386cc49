/* Unit names, escaping and specifiers as systemd defines them; see unit-name.h. */
#include "unit-name.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "parse.h"

static const char *const suffixes[] = {
	".service", ".socket", ".target", ".mount", ".device", ".slice", /* unit-kinds */
	".timer", ".path", ".swap", ".automount",
};

/* Kinds systemd has and ember does not: a dependency on one is noted and ignored. */
static const char *const foreign_suffixes[] = {
	".scope",
};

const char *unit_kind_suffix(enum unit_kind kind)
{
	return kind <= UNIT_KIND_LAST ? suffixes[kind] : "";
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len > n && strcmp(s + len - n, suffix) == 0;
}

enum unit_kind unit_name_kind(const char *canonical)
{
	if (ends_with(canonical, ".socket"))
		return UNIT_SOCKET;
	if (ends_with(canonical, ".target"))
		return UNIT_TARGET;
	/* unit kinds (unit-kinds) */
	for (int k = UNIT_MOUNT; k <= UNIT_KIND_LAST; k++)
		if (ends_with(canonical, suffixes[k]))
			return (enum unit_kind)k;
	return UNIT_SERVICE;
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == ':' || c == '@' || c == '\\';
}

bool unit_name_valid(const char *canonical)
{
	size_t len = strlen(canonical);
	size_t full = len + (unit_name_kind(canonical) == UNIT_SERVICE ? 8 : 0);
	const char *at = strchr(canonical, '@');

	/* unit-kinds: the root's mount and slice are "-.mount" and "-.slice" */
	if (strcmp(canonical, "-.mount") == 0 || strcmp(canonical, "-.slice") == 0)
		return true;
	if (len == 0 || full >= UNIT_NAME_MAX || canonical[0] == '.' || canonical[0] == '-' ||
	    canonical[0] == '@')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_name_char(canonical[i]))
			return false;
	/* A bare suffix is no name: ".target" alone was refused above, "@.target" too. */
	return !at || at != canonical;
}

int unit_name_canonical(const char *full, char *out, size_t size, enum unit_kind *kind)
{
	enum unit_kind k = UNIT_SERVICE;
	size_t len = strlen(full);

	for (size_t i = 0; i < sizeof foreign_suffixes / sizeof *foreign_suffixes; i++)
		if (ends_with(full, foreign_suffixes[i]))
			return -2;
	if (ends_with(full, ".service"))
		len -= strlen(".service");
	else if (ends_with(full, ".socket"))
		k = UNIT_SOCKET;
	else if (ends_with(full, ".target"))
		k = UNIT_TARGET;
	else
		k = unit_name_kind(full); /* unit-kinds */
	if (len >= size)
		return -1;
	memcpy(out, full, len);
	out[len] = '\0';
	/* "x.socket.service" is a service called "x.socket": not representable. */
	if (k == UNIT_SERVICE && unit_name_kind(out) != UNIT_SERVICE)
		return -1;
	if (!unit_name_valid(out))
		return -1;
	if (kind)
		*kind = k;
	return 0;
}

int unit_name_full(const char *canonical, char *out, size_t size)
{
	const char *suffix = unit_name_kind(canonical) == UNIT_SERVICE ? ".service" : "";
	int n = snprintf(out, size, "%s%s", canonical, suffix);

	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Where the suffix of a canonical name starts (its end for services). */
static size_t stem_len(const char *canonical)
{
	size_t len = strlen(canonical);

	if (unit_name_kind(canonical) == UNIT_SERVICE)
		return len;
	return len - strlen(unit_kind_suffix(unit_name_kind(canonical)));
}

bool unit_name_is_template(const char *canonical)
{
	const char *at = strchr(canonical, '@');

	return at && (size_t)(at - canonical) + 1 == stem_len(canonical);
}

bool unit_name_is_instance(const char *canonical)
{
	const char *at = strchr(canonical, '@');

	return at && (size_t)(at - canonical) + 1 < stem_len(canonical);
}

int unit_name_template_of(const char *canonical, char *out, size_t size)
{
	const char *at = strchr(canonical, '@');
	const char *suffix = canonical + stem_len(canonical);
	int n;

	if (!at || at >= suffix)
		return -1;
	n = snprintf(out, size, "%.*s@%s", (int)(at - canonical), canonical, suffix);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int unit_name_instantiate(const char *template_name, const char *instance, char *out,
			  size_t size)
{
	size_t stem = stem_len(template_name);
	int n;

	if (!unit_name_is_template(template_name) || !*instance)
		return -1;
	n = snprintf(out, size, "%.*s%s%s", (int)stem, template_name, instance,
		     template_name + stem);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return unit_name_valid(out) ? 0 : -1;
}

/* ---- escaping --------------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t size, len;
	bool overflow;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len + n >= o->size) {
		o->overflow = true;
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void put_str(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static int done(struct out *o)
{
	return o->overflow ? -1 : 0;
}

static bool keeps(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == ':' || c == '_' || c == '.';
}

int unit_name_escape(const char *s, char *out, size_t size)
{
	struct out o = { out, size, 0, false };

	if (size == 0)
		return -1;
	out[0] = '\0';
	for (size_t i = 0; s[i]; i++) {
		char hex[5];
		if (s[i] == '/') {
			put(&o, "-", 1);
		} else if (keeps(s[i]) && !(i == 0 && s[i] == '.')) {
			put(&o, s + i, 1);
		} else {
			snprintf(hex, sizeof hex, "\\x%02x", (unsigned char)s[i]);
			put(&o, hex, 4);
		}
	}
	return done(&o);
}

int unit_name_unescape(const char *s, char *out, size_t size)
{
	struct out o = { out, size, 0, false };

	if (size == 0)
		return -1;
	out[0] = '\0';
	for (size_t i = 0; s[i]; i++) {
		char c = s[i];
		if (c == '-') {
			c = '/';
		} else if (c == '\\') {
			int hi, lo;
			if (s[i + 1] != 'x')
				return -1;
			hi = hex_digit_value(s[i + 2]);
			lo = hi < 0 ? -1 : hex_digit_value(s[i + 3]);
			if (lo < 0 || (hi == 0 && lo == 0))
				return -1;
			c = (char)(hi * 16 + lo);
			i += 3;
		}
		put(&o, &c, 1);
	}
	return done(&o);
}

int unit_path_simplify(const char *path, char *out, size_t size)
{
	size_t n = 0;

	/* Collapse "//", drop "." components and a trailing slash; ".." is refused, as
	 * systemd's path_simplify() with its "normalized" check. */
	for (const char *p = path; *p;) {
		size_t len;
		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (len == 0)
			break;
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return -1;
		if (!(len == 1 && p[0] == '.')) {
			if (n + 1 + len + 1 > size)
				return -1;
			out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
	}
	if (n + 2 > size)
		return -1;
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return 0;
}

int unit_name_path_escape(const char *path, char *out, size_t size)
{
	char simple[UNIT_NAME_MAX * 4];

	if (unit_path_simplify(path, simple, sizeof simple) < 0)
		return -1;
	if (strcmp(simple, "/") == 0) {
		if (size < 2)
			return -1;
		strcpy(out, "-");
		return 0;
	}
	return unit_name_escape(simple + 1, out, size);
}

int unit_name_path_unescape(const char *s, char *out, size_t size)
{
	if (size < 2)
		return -1;
	if (strcmp(s, "-") == 0 || !*s) {
		strcpy(out, "/");
		return 0;
	}
	out[0] = '/';
	return unit_name_unescape(s, out + 1, size - 1);
}

/* ---- host facts ------------------------------------------------------------------------- */

static void read_line(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n;

	out[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, out, size - 1);
	close(fd);
	if (n <= 0) {
		out[0] = '\0';
		return;
	}
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* boot_id is a UUID with dashes; %b is the 32 hex digits without them. */
static void drop_dashes(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++)
		if (*r != '-')
			*w++ = *r;
	*w = '\0';
}

static const char *arch_name(const char *machine)
{
	static const struct { const char *uname, *systemd; } map[] = {
		{ "x86_64", "x86-64" }, { "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
		{ "i686", "x86" }, { "aarch64", "arm64" }, { "aarch64_be", "arm64-be" },
		{ "armv5tel", "arm" }, { "armv6l", "arm" }, { "armv7l", "arm" }, { "armv8l", "arm" },
		{ "ppc64le", "ppc64-le" }, { "ppc64", "ppc64" }, { "ppcle", "ppc-le" },
		{ "ppc", "ppc" }, { "riscv64", "riscv64" }, { "riscv32", "riscv32" },
		{ "s390x", "s390x" }, { "s390", "s390" }, { "mips", "mips" },
		{ "mips64", "mips64" }, { "loongarch64", "loongarch64" }, { "alpha", "alpha" },
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strcmp(map[i].uname, machine) == 0)
			return map[i].systemd;
	return machine;
}

/* KEY=value or KEY="value" from os-release text into out. */
static void os_release_value(const char *text, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	out[0] = '\0';
	for (const char *line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		size_t len = strcspn(line, "\n");
		const char *v = line + klen + 1;
		size_t vlen;
		if (len <= klen || strncmp(line, key, klen) != 0 || line[klen] != '=')
			continue;
		vlen = len - klen - 1;
		if (vlen >= 2 && (v[0] == '"' || v[0] == '\'') && v[vlen - 1] == v[0]) {
			v++;
			vlen -= 2;
		}
		snprintf(out, size, "%.*s", (int)vlen, v);
		return;
	}
}

void unit_host_probe(struct unit_host *h)
{
	struct utsname u;
	char os[4096];

	memset(h, 0, sizeof *h);
	h->probed = true;
	if (uname(&u) == 0) {
		str_copy(h->hostname, sizeof h->hostname, u.nodename);
		str_copy(h->kernel, sizeof h->kernel, u.release);
		str_copy(h->arch, sizeof h->arch, arch_name(u.machine));
	}
	read_line("/etc/machine-id", h->machine_id, sizeof h->machine_id);
	char uuid[64];
	read_line("/proc/sys/kernel/random/boot_id", uuid, sizeof uuid);
	drop_dashes(uuid);
	str_copy(h->boot_id, sizeof h->boot_id, uuid);
	/* /etc/os-release, else /usr/lib/os-release: the first lines suffice for the keys. */
	int fd = open("/etc/os-release", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		fd = open("/usr/lib/os-release", O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n = fd < 0 ? -1 : read(fd, os, sizeof os - 1);
	if (fd >= 0)
		close(fd);
	os[n > 0 ? n : 0] = '\0';
	os_release_value(os, "ID", h->os_id, sizeof h->os_id);
	os_release_value(os, "VERSION_ID", h->os_version_id, sizeof h->os_version_id);
	os_release_value(os, "VARIANT_ID", h->os_variant_id, sizeof h->os_variant_id);
	os_release_value(os, "BUILD_ID", h->os_build_id, sizeof h->os_build_id);
	os_release_value(os, "IMAGE_ID", h->image_id, sizeof h->image_id);
	os_release_value(os, "IMAGE_VERSION", h->image_version, sizeof h->image_version);
}

/* ---- specifiers ------------------------------------------------------------------------- */

/* The parts of a name the specifiers refer to. */
struct name_parts {
	char full[UNIT_NAME_MAX];   /* %n */
	char stem[UNIT_NAME_MAX];   /* %N: without the suffix */
	char prefix[UNIT_NAME_MAX]; /* %p: before '@' (the stem when there is none) */
	char instance[UNIT_NAME_MAX]; /* %i */
	const char *last_dash;        /* %j: the prefix after its last '-' */
};

static int split_name(const char *name, struct name_parts *np)
{
	size_t stem = stem_len(name);
	const char *at;
	const char *dash;

	if (unit_name_full(name, np->full, sizeof np->full) < 0 || stem >= sizeof np->stem)
		return -1;
	snprintf(np->stem, sizeof np->stem, "%.*s", (int)stem, name);
	at = strchr(np->stem, '@');
	snprintf(np->prefix, sizeof np->prefix, "%.*s",
		 (int)(at ? (size_t)(at - np->stem) : stem), np->stem);
	snprintf(np->instance, sizeof np->instance, "%s", at ? at + 1 : "");
	dash = strrchr(np->prefix, '-');
	np->last_dash = dash ? dash + 1 : np->prefix;
	return 0;
}

static struct unit_host *host_of(const struct unit_spec_ctx *ctx)
{
	if (ctx->host && !ctx->host->probed)
		unit_host_probe(ctx->host);
	return ctx->host;
}

/* Specifiers ember does not resolve, with what to write instead. */
static const char *unsupported_hint(char c)
{
	switch (c) {
	case 'd': return "credentials directory: use $CREDENTIALS_DIRECTORY in Exec lines";
	case 'q': return "pretty hostname: use %H";
	case 'R': case 'r': return "no longer a specifier in systemd: remove it";
	default: return NULL;
	}
}

static int spec_error(char c, char *err, size_t err_size)
{
	const char *hint = unsupported_hint(c);

	if (c == '\0')
		snprintf(err, err_size, "a lone %% at the end (write %%%% for a %%)");
	else if (hint)
		snprintf(err, err_size, "specifier %%%c is not supported (%s)", c, hint);
	else if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
		snprintf(err, err_size, "unknown specifier %% followed by byte 0x%02x (write %%%% "
			 "for a %%)", (unsigned char)c);
	else
		snprintf(err, err_size, "unknown specifier %%%c (write %%%% for a %%)", c);
	return -1;
}

/* The replacement of %c into buf, or NULL when c is not a specifier ember knows. */
static const char *resolve(const struct unit_spec_ctx *ctx, const struct name_parts *np,
			   char c, char *buf, size_t size, bool *failed)
{
	struct unit_host *h;

	*failed = false;
	switch (c) {
	case '%': return "%";
	case 'n': return np->full;
	case 'N': return np->stem;
	case 'p': return np->prefix;
	case 'i': return np->instance;
	case 'j': return np->last_dash;
	case 'P': *failed = unit_name_unescape(np->prefix, buf, size) < 0; return buf;
	case 'I': *failed = unit_name_unescape(np->instance, buf, size) < 0; return buf;
	case 'J': *failed = unit_name_unescape(np->last_dash, buf, size) < 0; return buf;
	case 'f':
		*failed = unit_name_path_unescape(*np->instance ? np->instance : np->prefix,
						  buf, size) < 0;
		return buf;
	case 't': return "/run";
	case 'S': return "/var/lib";
	case 'C': return "/var/cache";
	case 'L': return "/var/log";
	case 'E': return "/etc";
	case 'D': return "/usr/share";
	case 'T': return "/tmp";
	case 'V': return "/var/tmp";
	/* The user of the service manager: root for the system manager. */
	case 'u': case 'g': return "root";
	case 'U': case 'G': return "0";
	case 'h': return "/root";
	case 's': return "/bin/sh";
	case 'y': return ctx->path ? ctx->path : "";
	case 'Y': {
		const char *path = ctx->path ? ctx->path : "";
		const char *slash = strrchr(path, '/');
		snprintf(buf, size, "%.*s", slash ? (int)(slash - path) : 0, path);
		if (slash == path)
			snprintf(buf, size, "/");
		return buf;
	}
	default: break;
	}
	h = host_of(ctx);
	if (!h)
		return NULL;
	switch (c) {
	case 'H': return h->hostname;
	case 'l':
		snprintf(buf, size, "%.*s", (int)strcspn(h->hostname, "."), h->hostname);
		return buf;
	case 'm': return h->machine_id;
	case 'b': return h->boot_id;
	case 'v': return h->kernel;
	case 'a': return h->arch;
	case 'o': return h->os_id;
	case 'w': return h->os_version_id;
	case 'W': return h->os_variant_id;
	case 'B': return h->os_build_id;
	case 'M': return h->image_id;
	case 'A': return h->image_version;
	default: return NULL;
	}
}

int unit_specifiers_expand(const struct unit_spec_ctx *ctx, const char *in, char *out,
			   size_t size, char *err, size_t err_size)
{
	struct out o = { out, size, 0, false };
	struct name_parts np;
	char buf[UNIT_NAME_MAX * 2];

	if (size == 0)
		return -1;
	out[0] = '\0';
	if (split_name(ctx->name, &np) < 0) {
		snprintf(err, err_size, "unit name too long for specifiers");
		return -1;
	}
	for (const char *s = in; *s; ) {
		const char *piece;
		bool failed;
		size_t plain = strcspn(s, "%");
		put(&o, s, plain);
		s += plain;
		if (!*s)
			break;
		piece = resolve(ctx, &np, s[1], buf, sizeof buf, &failed);
		if (!piece)
			return spec_error(s[1], err, err_size);
		if (failed) {
			snprintf(err, err_size, "specifier %%%c: \"%.64s\" is not a valid escaped "
				 "name", s[1], s[1] == 'f' || s[1] == 'I' ? np.instance : np.prefix);
			return -1;
		}
		put_str(&o, piece);
		s += 2; /* the '%' and the specifier's letter */
	}
	if (o.overflow) {
		snprintf(err, err_size, "too long after expanding specifiers");
		return -1;
	}
	return 0;
}

/* "a-b-c.slice" -> "a.slice/a-b.slice/a-b-c.slice": systemd's dash rule. */
int unit_slice_path(const char *slice, char *out, size_t size)
{
	size_t stem, used = 0;

	out[0] = '\0';
	if (!slice || !*slice || strcmp(slice, "-.slice") == 0)
		return 0;
	stem = strlen(slice) - strlen(".slice");
	/* "a-b-c.slice" -> "a.slice/a-b.slice/a-b-c.slice" */
	for (size_t i = 0; i <= stem; i++) {
		int n;
		if (i < stem && slice[i] != '-')
			continue;
		if (i == 0 || slice[i - 1] == '-')
			return -1; /* "-a.slice", "a--b.slice": no such level */
		n = snprintf(out + used, size - used, "%s%.*s.slice", used ? "/" : "", (int)i, slice);
		if (n < 0 || (size_t)n >= size - used)
			return -1;
		used += (size_t)n;
	}
	return 0;
}
