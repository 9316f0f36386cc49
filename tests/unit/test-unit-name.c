// sources: init/unit-targets.c
/* Unit names, systemd-escape's rules, templates and the specifiers, checked against what
 * systemd-escape and systemd.unit(5) give for the same input. */
#include "harness.h"
#include "unit-name.h"
#include "../../init/unit-targets.h"

#include <string.h>

static char out[512], err[256];

static const char *esc(const char *s)
{
	return unit_name_escape(s, out, sizeof out) == 0 ? out : "(error)";
}

static const char *unesc(const char *s)
{
	return unit_name_unescape(s, out, sizeof out) == 0 ? out : "(error)";
}

static void escaping_matches_systemd_escape(void)
{
	CHECK_STR(esc("tty1"), "tty1");
	CHECK_STR(esc("/dev/ttyS0"), "-dev-ttyS0");
	CHECK_STR(esc("a-b"), "a\\x2db");
	CHECK_STR(esc("hello world"), "hello\\x20world");
	CHECK_STR(esc(".hidden"), "\\x2ehidden");
	CHECK_STR(esc("a.b:c_d"), "a.b:c_d");
	CHECK_STR(esc("ä"), "\\xc3\\xa4");
	CHECK_STR(esc("back\\slash"), "back\\x5cslash");
	CHECK(unit_name_escape("abcdef", out, 4) < 0); /* never overruns */
}

static void unescaping_reverses_it(void)
{
	CHECK_STR(unesc("-dev-ttyS0"), "/dev/ttyS0");
	CHECK_STR(unesc("a\\x2db"), "a-b");
	CHECK_STR(unesc("hello\\x20world"), "hello world");
	CHECK_STR(unesc("\\xc3\\xa4"), "ä");
	CHECK_STR(unesc("bad\\x2"), "(error)");
	CHECK_STR(unesc("bad\\y41"), "(error)");
	CHECK_STR(unesc("nul\\x00"), "(error)");
}

static void path_escaping(void)
{
	CHECK(unit_name_path_escape("/dev/sda1", out, sizeof out) == 0);
	CHECK_STR(out, "dev-sda1");
	CHECK(unit_name_path_escape("//var//lib/./x/", out, sizeof out) == 0);
	CHECK_STR(out, "var-lib-x");
	CHECK(unit_name_path_escape("/", out, sizeof out) == 0);
	CHECK_STR(out, "-");
	CHECK(unit_name_path_escape("/a/../b", out, sizeof out) < 0);
	CHECK(unit_name_path_unescape("dev-ttyS0", out, sizeof out) == 0);
	CHECK_STR(out, "/dev/ttyS0");
	CHECK(unit_name_path_unescape("-", out, sizeof out) == 0);
	CHECK_STR(out, "/");
}

static void canonical_names_and_kinds(void)
{
	enum unit_kind kind;

	CHECK(unit_name_canonical("sshd.service", out, sizeof out, &kind) == 0);
	CHECK_STR(out, "sshd");
	CHECK(kind == UNIT_SERVICE);
	CHECK(unit_name_canonical("dbus.socket", out, sizeof out, &kind) == 0);
	CHECK_STR(out, "dbus.socket");
	CHECK(kind == UNIT_SOCKET);
	CHECK(unit_name_canonical("multi-user.target", out, sizeof out, &kind) == 0);
	CHECK(kind == UNIT_TARGET);
	CHECK(unit_name_canonical("sshd", out, sizeof out, &kind) == 0 && kind == UNIT_SERVICE);
	/* unit kinds (unit-kinds): mounts, devices, slices; automount units are their own kind */
	CHECK(unit_name_canonical("-.mount", out, sizeof out, &kind) == 0 && kind == UNIT_MOUNT);
	CHECK_STR(out, "-.mount");
	CHECK(unit_name_canonical("dev-ttyS0.device", out, sizeof out, &kind) == 0 &&
	      kind == UNIT_DEVICE);
	CHECK(unit_name_canonical("-.slice", out, sizeof out, &kind) == 0 && kind == UNIT_SLICE);
	CHECK(unit_name_canonical("system-getty.slice", out, sizeof out, &kind) == 0 &&
	      kind == UNIT_SLICE);
	CHECK(unit_name_canonical("proc-sys-fs-binfmt_misc.automount", out, sizeof out, &kind) == 0);
	CHECK_STR(out, "proc-sys-fs-binfmt_misc.automount");
	CHECK(kind == UNIT_AUTOMOUNT);
	CHECK(unit_name_kind("home-x.automount") == UNIT_AUTOMOUNT);
	CHECK_STR(unit_kind_suffix(UNIT_AUTOMOUNT), ".automount");
	CHECK(unit_name_canonical("-.service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_canonical("x.mount.service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_canonical("session-c1.scope", out, sizeof out, NULL) == -2);
	CHECK(unit_name_canonical("dev-zram0.swap", out, sizeof out, &kind) == 0 &&
	      kind == UNIT_SWAP && strcmp(out, "dev-zram0.swap") == 0); /* swap units */
	CHECK(unit_name_canonical("cups.path", out, sizeof out, &kind) == 0 &&
	      kind == UNIT_PATH && strcmp(out, "cups.path") == 0); /* path units */
	CHECK(unit_name_canonical("apt-daily.timer", out, sizeof out, &kind) == 0 &&
	      kind == UNIT_TIMER && strcmp(out, "apt-daily.timer") == 0); /* timer units */
	CHECK(unit_name_canonical("a/b.service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_canonical("x.socket.service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_canonical(".service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_canonical("@x.service", out, sizeof out, NULL) == -1);
	CHECK(unit_name_full("getty@tty1", out, sizeof out) == 0);
	CHECK_STR(out, "getty@tty1.service");
	CHECK(unit_name_full("x.target", out, sizeof out) == 0);
	CHECK_STR(out, "x.target");
}

static void templates_and_instances(void)
{
	CHECK(unit_name_is_template("getty@"));
	CHECK(unit_name_is_template("x@.socket"));
	CHECK(!unit_name_is_template("getty@tty1"));
	CHECK(unit_name_is_instance("getty@tty1"));
	CHECK(unit_name_is_instance("x@y.socket"));
	CHECK(!unit_name_is_instance("sshd"));
	CHECK(unit_name_template_of("getty@tty1", out, sizeof out) == 0);
	CHECK_STR(out, "getty@");
	CHECK(unit_name_template_of("x@y.socket", out, sizeof out) == 0);
	CHECK_STR(out, "x@.socket");
	CHECK(unit_name_template_of("sshd", out, sizeof out) < 0);
	CHECK(unit_name_instantiate("serial-getty@", "ttyS0", out, sizeof out) == 0);
	CHECK_STR(out, "serial-getty@ttyS0");
	CHECK(unit_name_instantiate("x@.socket", "a\\x2db", out, sizeof out) == 0);
	CHECK_STR(out, "x@a\\x2db.socket");
	CHECK(unit_name_instantiate("sshd", "x", out, sizeof out) < 0);
	CHECK(unit_name_instantiate("getty@", "", out, sizeof out) < 0);
	CHECK(unit_name_instantiate("getty@", "a/b", out, sizeof out) < 0);
}

static struct unit_host host = {
	.probed = true, .hostname = "phone.example", .machine_id = "0123456789abcdef0123456789abcdef",
	.boot_id = "fedcba9876543210fedcba9876543210", .kernel = "6.1.0-test", .arch = "arm64",
	.os_id = "postmarketos", .os_version_id = "v24.06", .os_variant_id = "phosh",
	.os_build_id = "b1", .image_id = "img", .image_version = "7",
};

static const char *expand(const char *name, const char *in)
{
	struct unit_spec_ctx ctx = { name, "/usr/lib/systemd/system/getty@.service", &host };

	err[0] = '\0';
	return unit_specifiers_expand(&ctx, in, out, sizeof out, err, sizeof err) == 0 ? out
										      : "(error)";
}

static void name_specifiers(void)
{
	CHECK_STR(expand("getty@tty1", "%n %N %p %P %i %I"),
		  "getty@tty1.service getty@tty1 getty getty tty1 tty1");
	CHECK_STR(expand("serial-getty@ttyS0", "%p %P %j %J"),
		  "serial-getty serial/getty getty getty");
	CHECK_STR(expand("systemd-fsck@dev-disk-by\\x2duuid-1234", "%i|%I|%f"),
		  "dev-disk-by\\x2duuid-1234|dev/disk/by-uuid/1234|/dev/disk/by-uuid/1234");
	CHECK_STR(expand("dbus.socket", "%n %N %p %i."), "dbus.socket dbus dbus .");
	CHECK_STR(expand("home-user", "%f"), "/home/user"); /* no instance: the prefix */
	CHECK_STR(expand("sshd", "100%% %%i"), "100% %i");
}

static void directory_and_user_specifiers(void)
{
	CHECK_STR(expand("x", "%t %S %C %L %E %T %V %D"),
		  "/run /var/lib /var/cache /var/log /etc /tmp /var/tmp /usr/share");
	CHECK_STR(expand("x", "%u %U %g %G %h %s"), "root 0 root 0 /root /bin/sh");
	CHECK_STR(expand("x", "%y %Y"),
		  "/usr/lib/systemd/system/getty@.service /usr/lib/systemd/system");
}

static void host_specifiers(void)
{
	CHECK_STR(expand("x", "%H %l %m %b %v %a"),
		  "phone.example phone 0123456789abcdef0123456789abcdef "
		  "fedcba9876543210fedcba9876543210 6.1.0-test arm64");
	CHECK_STR(expand("x", "%o %w %W %B %M %A"), "postmarketos v24.06 phosh b1 img 7");
}

static void probing_the_real_host(void)
{
	struct unit_host h = { .probed = false };
	struct unit_spec_ctx ctx = { "x", NULL, &h };

	CHECK(unit_specifiers_expand(&ctx, "%v", out, sizeof out, err, sizeof err) == 0);
	CHECK(h.probed && out[0] != '\0'); /* the running kernel's release */
	CHECK(unit_specifiers_expand(&ctx, "%b", out, sizeof out, err, sizeof err) == 0);
	CHECK(strlen(out) == 32 && !strchr(out, '-'));
}

static void unsupported_specifiers_say_what_to_use(void)
{
	CHECK_STR(expand("x", "%d/cred"), "(error)");
	CHECK_STR(err, "specifier %d is not supported (credentials directory: use "
		  "$CREDENTIALS_DIRECTORY in Exec lines)");
	CHECK_STR(expand("x", "%q"), "(error)");
	CHECK(strstr(err, "use %H") != NULL);
	CHECK_STR(expand("x", "%z"), "(error)");
	CHECK_STR(err, "unknown specifier %z (write %% for a %)");
	CHECK_STR(expand("x", "50%"), "(error)");
	CHECK(strstr(err, "a lone %") != NULL);
	CHECK_STR(expand("bad@a\\x2", "%I"), "(error)");
	CHECK(strstr(err, "not a valid escaped name") != NULL);
}

static void expansion_never_overruns(void)
{
	struct unit_spec_ctx ctx = { "getty@tty1", NULL, &host };
	char small[8];

	CHECK(unit_specifiers_expand(&ctx, "%n", small, sizeof small, err, sizeof err) < 0);
	CHECK(strstr(err, "too long") != NULL);
}

static void default_target_from_cmdline(void)
{
	CHECK(unit_default_from_cmdline("quiet systemd.unit=rescue.target ro", out, sizeof out) == 0);
	CHECK_STR(out, "rescue.target");
	CHECK(unit_default_from_cmdline("systemd.unit=a.target ember.unit=b.target", out,
					 sizeof out) == 0);
	CHECK_STR(out, "b.target"); /* the last wins */
	CHECK(unit_default_from_cmdline("ember.unit=x@.service", out, sizeof out) < 0);
	CHECK(unit_default_from_cmdline("systemd.unit=", out, sizeof out) < 0);
	CHECK(unit_default_from_cmdline("root=/dev/sda1", out, sizeof out) < 0);
}

static void builtin_targets_exist(void)
{
	static const char *const names[] = {
		"sysinit.target", "basic.target", "sockets.target", "timers.target",
		"paths.target", "local-fs.target", "remote-fs.target", "swap.target",
		"network-pre.target", "network.target", "network-online.target",
		"nss-lookup.target", "time-sync.target", "getty.target", "multi-user.target",
		"graphical.target", "rescue.target", "emergency.target", "shutdown.target",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		CHECK(unit_target_builtin(names[i]) != NULL);
	CHECK(unit_target_builtin("nonsense.target") == NULL);
	CHECK(strstr(unit_target_builtin("basic.target"), "Requires=sysinit.target") != NULL);
}

int main(void)
{
	RUN(escaping_matches_systemd_escape);
	RUN(unescaping_reverses_it);
	RUN(path_escaping);
	RUN(canonical_names_and_kinds);
	RUN(templates_and_instances);
	RUN(name_specifiers);
	RUN(directory_and_user_specifiers);
	RUN(host_specifiers);
	RUN(probing_the_real_host);
	RUN(unsupported_specifiers_say_what_to_use);
	RUN(expansion_never_overruns);
	RUN(default_target_from_cmdline);
	RUN(builtin_targets_exist);
	return harness_done();
}
