// sources: init/cmdline.c
#include "harness.h"
#include "cmdline.h"

#include <stdlib.h>

static void defaults_without_ember_words(void)
{
	struct boot_options o;
	cmdline_parse("console=ttyS0 quiet root=/dev/vda\n", &o);
	CHECK_STR(o.run, "");
	CHECK(!o.debug && o.debug_exit);
	/* No word about a shell: no console shell (a missing init.conf is not a root shell). */
	CHECK(o.no_shell);
}

static void reads_ember_words(void)
{
	struct boot_options o;
	cmdline_parse("quiet ember.run=/test/x.sh ember.shell=/bin/ash ember.debug ember.debug_exit=0", &o);
	CHECK_STR(o.run, "/test/x.sh");
	CHECK_STR(o.shell, "/bin/ash");
	CHECK(!o.no_shell);
	CHECK(o.debug);
	CHECK(!o.debug_exit);
}

static void generators_word(void)
{
	struct boot_options o;
	cmdline_parse("ember.generators=/a/gen:/b/gen", &o);
	CHECK_STR(o.generators, "/a/gen:/b/gen");
	cmdline_parse("ember.generators=none", &o);
	CHECK_STR(o.generators, "none");
	cmdline_parse("ember.generators=relative", &o);
	CHECK_STR(o.generators, "");
	cmdline_parse("quiet", &o);
	CHECK_STR(o.generators, "");
}

/* systemd's word (either spelling), kept as given: init/machine-id.c checks it. */
static void machine_id_word(void)
{
	struct boot_options o;
	cmdline_parse("systemd.machine_id=0123456789abcdef0123456789abcdef", &o);
	CHECK_STR(o.machine_id, "0123456789abcdef0123456789abcdef");
	cmdline_parse("systemd.machine-id=firmware", &o);
	CHECK_STR(o.machine_id, "firmware");
	cmdline_parse("systemd.machine_id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0", &o);
	CHECK_STR(o.machine_id, "(too long)");
	cmdline_parse("systemd.machine_id quiet", &o);
	CHECK_STR(o.machine_id, "");
}

static void quoted_values_keep_spaces(void)
{
	struct boot_options o;
	cmdline_parse("a=\"b c\" ember.run=\"/test/with space\" x", &o);
	CHECK_STR(o.run, "/test/with space");
}

static void rejects_relative_and_overlong_paths(void)
{
	struct boot_options o;
	char *line = malloc(9000);
	cmdline_parse("ember.run=relative ember.shell=sh", &o);
	CHECK_STR(o.run, "");
	CHECK(o.no_shell);
	cmdline_parse("ember.shell=/bin/sh ember.shell=sh", &o);
	CHECK(o.no_shell);
	memcpy(line, "ember.run=/", 11);
	memset(line + 11, 'a', 8000);
	line[8011] = '\0';
	cmdline_parse(line, &o);
	CHECK(strlen(o.run) < sizeof o.run);
	free(line);
}

static void shell_none_and_bad_bools(void)
{
	struct boot_options o;
	cmdline_parse("ember.shell=none ember.debug=maybe ember.debug_exit=perhaps ember.run", &o);
	CHECK(o.no_shell);
	CHECK(!o.debug);
	CHECK(o.debug_exit);
	CHECK_STR(o.run, "");
}

static void unterminated_quote_and_empty(void)
{
	struct boot_options o;
	cmdline_parse("ember.run=\"/x", &o);
	CHECK_STR(o.run, "/x");
	cmdline_parse("", &o);
	CHECK_STR(o.run, "");
	cmdline_parse("   \t\n ", &o);
	CHECK(o.no_shell);
}

int main(void)
{
	RUN(defaults_without_ember_words);
	RUN(reads_ember_words);
	RUN(generators_word);
	RUN(machine_id_word);
	RUN(quoted_values_keep_spaces);
	RUN(rejects_relative_and_overlong_paths);
	RUN(shell_none_and_bad_bools);
	RUN(unterminated_quote_and_empty);
	return harness_done();
}
