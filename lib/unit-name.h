#ifndef EMBER_UNIT_NAME_H
#define EMBER_UNIT_NAME_H
/* Unit names as systemd spells them: kinds and suffixes, templates and instances, the
 * escaping of systemd-escape, and specifier expansion (%i, %n, %t, ...). Shared by PID 1
 * (the parser and the loader) and emberctl (enable, verify). Pure functions except
 * unit_host_probe(), which reads the host facts some specifiers need. See
 * docs/services.md "Templates and specifiers".
 */
#include <stdbool.h>
#include <stddef.h>

/* The kinds of unit ember knows. The canonical name of a service has no suffix ("sshd",
 * "getty@tty1"); every other kind keeps its suffix ("dbus.socket", "multi-user.target"). */
enum unit_kind { UNIT_SERVICE, UNIT_SOCKET, UNIT_TARGET,
	/* unit kinds (unit-kinds): init/unit-kinds.h */
	UNIT_MOUNT, UNIT_DEVICE, UNIT_SLICE,
	UNIT_TIMER, /* timer units: init/unit-timer.h */
	UNIT_PATH, /* path units: init/unit-path.h */
	UNIT_SWAP, /* swap units: init/unit-kinds.h */
	UNIT_AUTOMOUNT /* automount units: init/unit-automount.h */ };
#define UNIT_KIND_LAST UNIT_AUTOMOUNT

#define UNIT_NAME_MAX 256 /* a unit name's bytes incl. suffix and NUL (systemd: 255) */

/* The suffix of kind: ".service", ".socket", ".target", ".mount", ".device", ".slice",
 * ".timer", ".path", ".swap", ".automount". */
const char *unit_kind_suffix(enum unit_kind kind);

/* Is name (without suffix) made of systemd's unit name characters [A-Za-z0-9:_.@\-\\],
 * 1..255 bytes with suffix, not starting with '.', '-' or '@'? "name@" (a template) and
 * "name@inst" (an instance) are valid. */
bool unit_name_valid(const char *canonical);

/* A full unit name ("sshd.service", "x.target", or "sshd" meaning a service) -> canonical
 * name and kind. Returns 0, -1 when the name is invalid, -2 when it is valid but of a
 * kind ember does not have (".scope"). */
int unit_name_canonical(const char *full, char *out, size_t size, enum unit_kind *kind);
/* The kind of a canonical name. */
enum unit_kind unit_name_kind(const char *canonical);
/* canonical -> full file name ("sshd" -> "sshd.service"). -1 when it does not fit. */
int unit_name_full(const char *canonical, char *out, size_t size);

/* Templates: "getty@" is a template, "getty@tty1" an instance of it. */
bool unit_name_is_template(const char *canonical);
bool unit_name_is_instance(const char *canonical);
/* The template of an instance ("getty@tty1" -> "getty@", "x@y.socket" -> "x@.socket"). */
int unit_name_template_of(const char *canonical, char *out, size_t size);
/* template + instance -> "getty@tty1" (instance must already be escaped). */
int unit_name_instantiate(const char *template_name, const char *instance, char *out,
			  size_t size);

/* systemd-escape: bytes outside [A-Za-z0-9:_.] become \xNN, '/' becomes '-', a leading
 * '.' is escaped. -1 when out is too small. */
int unit_name_escape(const char *s, char *out, size_t size);
/* The reverse: '-' -> '/', \xNN -> the byte. -1 on a bad escape or a NUL byte. */
int unit_name_unescape(const char *s, char *out, size_t size);
/* path as systemd's path_simplify() leaves it, absolute: "//a/./b/" -> "/a/b", "" -> "/".
 * -1 for a ".." component or when out is too small. */
int unit_path_simplify(const char *path, char *out, size_t size);
/* systemd-escape --path: slashes collapsed and trimmed, "/" itself is "-". */
int unit_name_path_escape(const char *path, char *out, size_t size);
/* The reverse, with the leading '/': "dev-ttyS0" -> "/dev/ttyS0". */
int unit_name_path_unescape(const char *s, char *out, size_t size);

/* Facts about the host some specifiers need (%H %l %m %b %v %a %o %w %W %B %A %M).
 * unit_host_probe() fills the struct once (uname, /etc/machine-id, boot_id,
 * /etc/os-release); the expander calls it only when such a specifier occurs. */
struct unit_host {
	bool probed;
	char hostname[65], machine_id[33], boot_id[33], kernel[65], arch[16];
	char os_id[64], os_version_id[64], os_variant_id[64], os_build_id[64];
	char image_id[64], image_version[64];
};
void unit_host_probe(struct unit_host *h);

/* What the expander knows about the unit. */
struct unit_spec_ctx {
	const char *name;         /* canonical name of the unit ("getty@tty1") */
	const char *path;         /* the file it came from, for %y %Y; may be NULL */
	struct unit_host *host;   /* probed on first need; NULL: those specifiers fail */
};

/* Expand every %X in in. Returns 0, or -1 with err naming the specifier and, when there
 * is one, its usual replacement ("%d (credentials directory) is not supported: ..."). */
int unit_specifiers_expand(const struct unit_spec_ctx *ctx, const char *in, char *out,
			   size_t size, char *err, size_t err_size);
/* The cgroup path of a slice below the root slice: "" for none or "-.slice",
 * "a.slice/a-b.slice" for "a-b.slice". -1 when it does not fit or has an empty level
 * ("a--b.slice", "-a.slice"). (ember-init for Slice=, ember-activator for scopes.) */
int unit_slice_path(const char *slice, char *out, size_t size);
#endif
