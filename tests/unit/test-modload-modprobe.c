// sources: modload/modprobe.c modload/names.c modload/util.c
/* modprobe.d: blacklist, options, softdep, alias; hostile lines. */
#include "harness.h"

#include "log.h"
#include "modprobe.h"

#include <stdlib.h>

static void reads_each_command(void)
{
	struct modprobe_conf c = { 0 };
	int bad = modprobe_conf_parse("# comment\n"
				      "  # indented comment\n"
				      "blacklist pcspkr\n"
				      "options snd-hda-intel index=1 model=auto\n"
				      "options snd_hda_intel power_save=0\n"
				      "softdep ext4 pre: crc32c post: ext4-helper\n"
				      "alias my-net virtio-net\n"
				      "install fancy /bin/true\n"
				      "remove fancy /bin/false\n",
				      "t.conf", &c);
	CHECK(bad == 0);
	CHECK(modprobe_blacklisted(&c, "pcspkr"));
	CHECK(!modprobe_blacklisted(&c, "pcspk"));
	CHECK_STR(modprobe_options(&c, "snd_hda_intel"), "index=1 model=auto power_save=0");
	const struct softdep_rule *r = modprobe_softdep(&c, "ext4");
	CHECK(r && r->pre.n == 1 && r->post.n == 1);
	if (r && r->pre.n == 1 && r->post.n == 1) {
		CHECK_STR(r->pre.v[0], "crc32c");
		CHECK_STR(r->post.v[0], "ext4-helper");
	}
	CHECK(c.naliases == 1);
	CHECK(strvec_has(&c.install, "fancy"));
	modprobe_conf_free(&c);
}

static void alias_patterns_fold_dashes(void)
{
	struct modprobe_conf c = { 0 };
	struct strvec out = { 0 };
	modprobe_conf_parse("alias pci:v0000*d[0-9]* drv-a\nalias fs-foo foofs\n", "t.conf", &c);
	CHECK(modprobe_alias_match(&c, "fs_foo", &out) == 1);
	CHECK(out.n == 1 && strcmp(out.v[0], "foofs") == 0);
	strvec_free(&out);
	CHECK(modprobe_alias_match(&c, "pci:v00001234d5x", &out) == 1);
	CHECK(out.n == 1 && strcmp(out.v[0], "drv_a") == 0);
	strvec_free(&out);
	CHECK(modprobe_alias_match(&c, "pci:v00001234dx", &out) == 0);
	strvec_free(&out);
	modprobe_conf_free(&c);
}

static void continuation_lines_join(void)
{
	struct modprobe_conf c = { 0 };
	CHECK(modprobe_conf_parse("options loop \\\nmax_loop=8 \\\n  max_part=2\nblacklist x\n", "t.conf", &c) == 0);
	CHECK_STR(modprobe_options(&c, "loop"), "max_loop=8 max_part=2");
	CHECK(modprobe_blacklisted(&c, "x"));
	modprobe_conf_free(&c);
}

static void words_before_pre_belong_nowhere(void)
{
	struct modprobe_conf c = { 0 };
	modprobe_conf_parse("softdep cifs gcm\nsoftdep cifs pre: ccm\n", "modules.softdep", &c);
	const struct softdep_rule *r = modprobe_softdep(&c, "cifs");
	/* The first rule for a module is the one used (as kmod does). */
	CHECK(r && r->pre.n == 0 && r->post.n == 0);
	modprobe_conf_free(&c);
}

static void bad_lines_are_counted_and_skipped(void)
{
	struct modprobe_conf c = { 0 };
	int bad = modprobe_conf_parse("frobnicate x\nblacklist\nblacklist a b\nalias only-one\n"
				      "options bad/name x=1\nblacklist ok\n",
				      "t.conf", &c);
	CHECK(bad == 5);
	CHECK(modprobe_blacklisted(&c, "ok"));
	CHECK(c.blacklist.n == 1);
	modprobe_conf_free(&c);
}

static void huge_and_wordy_lines(void)
{
	size_t n = 100000;
	char *text = malloc(n * 4 + 64), *p = text;
	struct modprobe_conf c = { 0 };

	p += sprintf(p, "options m");
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, " a=");
	p += sprintf(p, "\nblacklist after\n");
	CHECK(modprobe_conf_parse(text, "t.conf", &c) == 1);
	CHECK(modprobe_options(&c, "m") == NULL);
	CHECK(modprobe_blacklisted(&c, "after"));
	modprobe_conf_free(&c);
	free(text);
}

static void empty_options_line_is_harmless(void)
{
	struct modprobe_conf c = { 0 };
	CHECK(modprobe_conf_parse("options m\n", "t.conf", &c) == 0);
	CHECK_STR(modprobe_options(&c, "m"), "");
	modprobe_conf_free(&c);
}

int main(void)
{
	log_open("test-modload-modprobe");
	log_set_level(LOG_LEVEL_ERROR - 1);
	RUN(reads_each_command);
	RUN(alias_patterns_fold_dashes);
	RUN(continuation_lines_join);
	RUN(words_before_pre_belong_nowhere);
	RUN(bad_lines_are_counted_and_skipped);
	RUN(huge_and_wordy_lines);
	RUN(empty_options_line_is_harmless);
	return harness_done();
}
