// sources: modload/loadconf.c modload/cmdline.c modload/confdirs.c modload/names.c modload/util.c
/* modules-load.d files, their directories, and the kernel command line. */
#include "harness.h"
#include "test-modload-fixture.h"

#include "cmdline.h"
#include "confdirs.h"
#include "loadconf.h"
#include "log.h"
#include "names.h"

static void names_fold_dash_and_underscore(void)
{
	char a[] = "virtio-net", b[] = "pci:v*d[a-f]*-x";
	char buf[64];
	modname_normalize(a);
	CHECK_STR(a, "virtio_net");
	alias_normalize(b);
	CHECK_STR(b, "pci:v*d[a-f]*_x");
	CHECK(modname_from_path("kernel/net/foo-bar.ko.xz", 24, buf, sizeof buf) == 0);
	CHECK_STR(buf, "foo_bar");
	CHECK(modname_from_path("kernel/net/foo.o", 16, buf, sizeof buf) < 0);
	CHECK(modname_from_path(".ko", 3, buf, sizeof buf) < 0);
	CHECK(module_compression("a/b.ko.zst") == COMP_ZSTD);
	CHECK(module_compression("a/b.ko") == COMP_NONE);
}

static void modules_load_skips_comments_and_blanks(void)
{
	struct request_list l = { 0 };
	int bad = modules_load_parse("# comment\n; also comment\n\n  virtio-net  \n\tloop\n#x\n", "f.conf", &l);
	CHECK(bad == 0);
	CHECK(l.n == 2);
	if (l.n == 2) {
		CHECK_STR(l.v[0].name, "virtio_net");
		CHECK_STR(l.v[0].source, "f.conf:4");
		CHECK_STR(l.v[1].name, "loop");
	}
	request_list_free(&l);
}

static void modules_load_has_no_inline_comments(void)
{
	struct request_list l = { 0 };
	/* "loop # x" is one (invalid) name, as systemd reads it: not a silent "loop". */
	int bad = modules_load_parse("loop # x\n", "f.conf", &l);
	CHECK(bad == 1);
	CHECK(l.n == 0);
	request_list_free(&l);
}

static void modules_load_dedups_after_folding(void)
{
	struct request_list l = { 0 };
	modules_load_parse("a-b\na_b\nc\n", "1.conf", &l);
	modules_load_parse("c\nA_B\n", "2.conf", &l);
	CHECK(l.n == 3); /* a_b, c, A_B: case matters */
	request_list_free(&l);
}

static void modules_load_rejects_huge_line(void)
{
	size_t size = 1u << 20;
	char *text = malloc(size + 16);
	struct request_list l = { 0 };
	memset(text, 'x', size);
	strcpy(text + size, "\nloop\n");
	CHECK(modules_load_parse(text, "huge.conf", &l) == 1);
	CHECK(l.n == 1 && strcmp(l.v[0].name, "loop") == 0);
	request_list_free(&l);
	free(text);
}

static void modules_load_survives_many_lines(void)
{
	/* 200k distinct names: adding stays linear (a quadratic dedup would time out). */
	size_t n = 200000;
	char *text = malloc(n * 12);
	struct request_list l = { 0 };
	char *p = text;
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "m%zu\n", i);
	CHECK(modules_load_parse(text, "many.conf", &l) == 0);
	CHECK(l.n == n);
	request_list_free(&l);
	free(text);
}

static void modules_load_handles_no_final_newline_and_nul(void)
{
	struct request_list l = { 0 };
	modules_load_parse("a\r\nb", "f.conf", &l);
	CHECK(l.n == 2);
	if (l.n == 2)
		CHECK_STR(l.v[1].name, "b");
	request_list_free(&l);
}

static const char *const dirs[] = { "/etc/m.d", "/run/m.d", "/usr/lib/m.d", NULL };

static void confdirs_override_mask_and_sort(void)
{
	struct conf_list l = { 0 };

	fixture_make();
	fixture_write("usr/lib/m.d/10-vendor.conf", "vendor\n");
	fixture_write("usr/lib/m.d/20-masked.conf", "masked\n");
	fixture_write("usr/lib/m.d/30-over.conf", "old\n");
	fixture_write("usr/lib/m.d/ignored.txt", "no\n");
	fixture_write("usr/lib/m.d/.hidden.conf", "no\n");
	fixture_write("etc/m.d/30-over.conf", "new\n");
	fixture_write("run/m.d/05-run.conf", "run\n");
	fixture_symlink("/dev/null", "etc/m.d/20-masked.conf");
	fixture_symlink("/nonexistent", "run/m.d/40-dangling.conf");
	fixture_write("run/m.d/50-dir.conf/x", "");
	CHECK(conf_list_dirs(fixture_root, dirs, &l) == 0);
	CHECK(l.n == 3);
	if (l.n == 3) {
		/* Sorted by name across directories, not directory by directory. */
		CHECK_STR(l.v[0].name, "05-run.conf");
		CHECK_STR(l.v[1].name, "10-vendor.conf");
		CHECK_STR(l.v[2].name, "30-over.conf");
		CHECK(strstr(l.v[2].path, "/etc/m.d/30-over.conf") != NULL);
	}
	conf_list_free(&l);
	fixture_remove();
}

static void confdirs_missing_dirs_are_empty(void)
{
	struct conf_list l = { 0 };
	fixture_make();
	CHECK(conf_list_dirs(fixture_root, dirs, &l) == 0);
	CHECK(l.n == 0);
	conf_list_free(&l);
	fixture_remove();
}

static void confdirs_mask_in_run_hides_usr(void)
{
	struct conf_list l = { 0 };
	fixture_make();
	fixture_write("usr/lib/m.d/a.conf", "a\n");
	fixture_write("etc/m.d/a.conf", "etc wins over the mask below it\n");
	fixture_write("usr/lib/m.d/b.conf", "b\n");
	fixture_write("run/m.d/placeholder", "");
	fixture_symlink("/dev/null", "run/m.d/b.conf");
	CHECK(conf_list_dirs(fixture_root, dirs, &l) == 0);
	CHECK(l.n == 1 && strstr(l.v[0].path, "/etc/m.d/a.conf"));
	conf_list_free(&l);
	fixture_remove();
}

static void cmdline_modules_load_both_spellings(void)
{
	struct cmdline c = { 0 };
	cmdline_parse("root=/dev/sda1 modules_load=a,b-c modules-load=d,,a quiet", false, &c);
	CHECK(c.modules.n == 3);
	if (c.modules.n == 3) {
		CHECK_STR(c.modules.v[0].name, "a");
		CHECK_STR(c.modules.v[1].name, "b_c");
		CHECK_STR(c.modules.v[2].name, "d");
		CHECK_STR(c.modules.v[0].source, "kernel command line");
	}
	cmdline_free(&c);
}

static void cmdline_rd_prefix_only_in_initrd(void)
{
	struct cmdline host = { 0 }, initrd = { 0 };
	cmdline_parse("rd.modules_load=x modules_load=y", false, &host);
	cmdline_parse("rd.modules_load=x modules_load=y", true, &initrd);
	CHECK(host.modules.n == 1);
	CHECK(initrd.modules.n == 2);
	cmdline_free(&host);
	cmdline_free(&initrd);
}

static void cmdline_module_params_and_quotes(void)
{
	struct cmdline c = { 0 };
	cmdline_parse("BOOT_IMAGE=/vmlinuz-6.1 loop.max_loop=12 nf-conntrack.hashsize=4096 "
		      "foo.bar=\"a b\" \"foo.baz=c d\" loop.max_part=3 rd.shell=1 .x=1 y.=2 modules_load",
		      false, &c);
	CHECK_STR(strmap_get(&c.options, "loop"), "max_loop=12 max_part=3");
	CHECK_STR(strmap_get(&c.options, "nf_conntrack"), "hashsize=4096");
	CHECK_STR(strmap_get(&c.options, "foo"), "bar=\"a b\" baz=\"c d\"");
	CHECK(strmap_get(&c.options, "BOOT_IMAGE=/vmlinuz-6") == NULL);
	CHECK(strmap_get(&c.options, "rd") == NULL);
	CHECK(c.options.n == 3);
	CHECK(c.modules.n == 0);
	cmdline_free(&c);
}

static void cmdline_blacklists(void)
{
	struct cmdline c = { 0 };
	cmdline_parse("modprobe.blacklist=a-b,c module_blacklist=d", false, &c);
	CHECK(c.blacklist.n == 3);
	CHECK(strvec_has(&c.blacklist, "a_b"));
	CHECK(strvec_has(&c.blacklist, "d"));
	cmdline_free(&c);
}

static void cmdline_unterminated_quote(void)
{
	struct cmdline c = { 0 };
	cmdline_parse("a.b=\"x y modules_load=z", false, &c);
	CHECK(c.modules.n == 0); /* swallowed by the open quote, as the kernel does */
	cmdline_free(&c);
}

int main(void)
{
	log_open("test-modload-conf");
	log_set_level(LOG_LEVEL_ERROR - 1); /* the hostile inputs log; keep output to results */
	RUN(names_fold_dash_and_underscore);
	RUN(modules_load_skips_comments_and_blanks);
	RUN(modules_load_has_no_inline_comments);
	RUN(modules_load_dedups_after_folding);
	RUN(modules_load_rejects_huge_line);
	RUN(modules_load_survives_many_lines);
	RUN(modules_load_handles_no_final_newline_and_nul);
	RUN(confdirs_override_mask_and_sort);
	RUN(confdirs_missing_dirs_are_empty);
	RUN(confdirs_mask_in_run_hides_usr);
	RUN(cmdline_modules_load_both_spellings);
	RUN(cmdline_rd_prefix_only_in_initrd);
	RUN(cmdline_module_params_and_quotes);
	RUN(cmdline_blacklists);
	RUN(cmdline_unterminated_quote);
	return harness_done();
}
