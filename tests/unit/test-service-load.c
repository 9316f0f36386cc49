// sources: init/service-load.c init/pages.c init/unit-targets.c init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/unit-kinds-run.c init/unit-mount.c init/unit-swap.c init/unit-device.c init/dynamic-user.c init/rlimits.c
/* Loading from directories: priority overrides, masking, caps, odd files. Uses a fresh
 * temporary tree per case and removes it afterwards. */
#include "harness.h"
#include "../../init/service.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];
static char dir_etc[128], dir_run[128], dir_lib[128];
static const char *dirs[3] = { dir_etc, dir_run, dir_lib };
static struct service svcs[8];
static size_t count;
static int warnings, errors;
static char messages[2048];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	size_t n = strlen(messages);

	if (severity == SERVICE_WARNING)
		warnings++;
	else
		errors++;
	snprintf(messages + n, sizeof messages - n, "%s:%u: %s\n", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static void setup(void)
{
	strcpy(root, "/tmp/ember-test-load.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(dir_etc, sizeof dir_etc, "%s/etc", root);
	snprintf(dir_run, sizeof dir_run, "%s/run", root);
	snprintf(dir_lib, sizeof dir_lib, "%s/lib", root);
	mkdir(dir_etc, 0755);
	mkdir(dir_run, 0755);
	mkdir(dir_lib, 0755);
	warnings = errors = 0;
	messages[0] = '\0';
	count = 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void teardown(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *dir, const char *file, const char *target)
{
	char path[256];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	if (symlink(target, path) < 0)
		perror(path);
}

static void load(size_t cap)
{
	CHECK(service_load(dirs, 3, svcs, cap, &count, &diag) == 0);
}

static const struct service *named(const char *name)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(svcs[i].name, name) == 0)
			return &svcs[i];
	return NULL;
}

static const char *const simple = "[Service]\nExecStart=/bin/true\n";

static void loads_every_directory_sorted_by_name(void)
{
	setup();
	put(dir_lib, "zeta.service", simple);
	put(dir_run, "mid.service", simple);
	put(dir_etc, "alpha.service", simple);
	load(8);
	CHECK(count == 3 && errors == 0 && warnings == 0);
	CHECK_STR(svcs[0].name, "alpha");
	CHECK_STR(svcs[1].name, "mid");
	CHECK_STR(svcs[2].name, "zeta");
	CHECK(named("zeta") && strstr(named("zeta")->path, "/lib/zeta.service"));
	CHECK(!svcs[0].failed && !svcs[0].masked);
	teardown();
}

static void higher_priority_directory_overrides(void)
{
	const struct service *s;

	setup();
	put(dir_lib, "sshd.service", "[Unit]\nDescription=vendor\n[Service]\nExecStart=/bin/true\n");
	put(dir_run, "sshd.service", "[Unit]\nDescription=runtime\n[Service]\nExecStart=/bin/true\n");
	put(dir_etc, "sshd.service", "[Unit]\nDescription=admin\n[Service]\nExecStart=/bin/true\n");
	load(8);
	s = named("sshd");
	CHECK(count == 1 && s);
	CHECK(s && strcmp(service_str(s, s->description), "admin") == 0);
	CHECK(s && strstr(s->path, "/etc/sshd.service"));
	teardown();
}

static void run_overrides_lib(void)
{
	const struct service *s;

	setup();
	put(dir_lib, "x.service", "[Unit]\nDescription=vendor\n[Service]\nExecStart=/bin/true\n");
	put(dir_run, "x.service", "[Unit]\nDescription=runtime\n[Service]\nExecStart=/bin/true\n");
	load(8);
	s = named("x");
	CHECK(s && strcmp(service_str(s, s->description), "runtime") == 0);
	teardown();
}

static void symlink_to_dev_null_masks(void)
{
	setup();
	put(dir_lib, "bluetooth.service", simple);
	link_to(dir_etc, "bluetooth.service", "/dev/null");
	load(8);
	CHECK(count == 1 && named("bluetooth") && named("bluetooth")->masked);
	CHECK(!named("bluetooth")->failed && errors == 0);
	teardown();
}

static void empty_file_masks(void)
{
	setup();
	put(dir_lib, "modem.service", simple);
	put(dir_run, "modem.service", "");
	load(8);
	CHECK(count == 1 && named("modem")->masked && errors == 0);
	teardown();
}

static void mask_without_a_vendor_file(void)
{
	setup();
	link_to(dir_etc, "ghost.service", "/dev/null");
	load(8);
	CHECK(count == 1 && named("ghost")->masked);
	teardown();
}

static void masked_in_lower_priority_does_not_mask_higher(void)
{
	setup();
	put(dir_etc, "svc.service", simple);
	link_to(dir_lib, "svc.service", "/dev/null");
	load(8);
	CHECK(count == 1 && !named("svc")->masked && !named("svc")->failed);
	teardown();
}

static void symlink_to_a_real_file_is_followed(void)
{
	char target[256];

	setup();
	put(dir_lib, "real.service", simple);
	snprintf(target, sizeof target, "%s/real.service", dir_lib);
	link_to(dir_etc, "alias.service", target);
	load(8);
	/* sockets-accept: as on systemd, a link with another name is an alias: one unit,
	 * two names */
	CHECK(count == 1 && named("real") && !named("real")->failed && !named("real")->masked);
	CHECK(named("real") && strcmp(service_str(named("real"), named("real")->also_named),
				      "alias") == 0);
	teardown();
}

static void other_files_are_ignored(void)
{
	char path[256];

	setup();
	put(dir_etc, "README", "not a service");
	put(dir_etc, "foo.service~", simple);
	put(dir_etc, ".hidden.service", simple);
	put(dir_etc, "foo.conf", simple);
	snprintf(path, sizeof path, "%s/foo.service.d", dir_etc);
	mkdir(path, 0755);
	put(dir_etc, "foo.service", simple);
	load(8);
	CHECK(count == 1 && named("foo") && warnings == 0 && errors == 0);
	teardown();
}

static void unsafe_names_are_warned_and_skipped(void)
{
	char longname[160];

	setup();
	put(dir_etc, "with space.service", simple);
	put(dir_etc, "tmpl@.service", simple);
	put(dir_etc, "new\nline.service", simple);
	memset(longname, 'n', 128);
	strcpy(longname + 128, ".service");
	put(dir_etc, longname, simple);
	put(dir_etc, ".service", simple); /* hidden, and an empty name */
	put(dir_etc, "good.service", simple);
	load(8);
	CHECK(count == 1 && named("good")); /* a template is not a unit of its own */
	CHECK(warnings == 3 && errors == 0);
	CHECK(strstr(messages, "with space.service: unsafe or overlong unit name") != NULL);
	CHECK(strstr(messages, "new?line.service: unsafe") != NULL); /* no forged log line */
	teardown();
}

static void missing_directories_are_fine(void)
{
	const char *none[] = { "/nonexistent/ember/a", "/nonexistent/ember/b" };

	setup();
	CHECK(service_load(none, 2, svcs, 8, &count, &diag) == 0);
	CHECK(count == 0 && warnings == 0 && errors == 0);
	teardown();
}

static void a_bad_file_does_not_stop_the_others(void)
{
	setup();
	put(dir_etc, "broken.service", "[Service]\nRestart=sometimes\nExecStart=/bin/true\n");
	put(dir_etc, "fine.service", simple);
	load(8);
	CHECK(count == 2);
	CHECK(named("broken")->failed && !named("fine")->failed);
	CHECK(strstr(messages, "/etc/broken.service:2: Restart=sometimes: expected no") != NULL);
	teardown();
}

static void capacity_keeps_the_first_names(void)
{
	setup();
	put(dir_lib, "d.service", simple);
	put(dir_etc, "b.service", simple);
	put(dir_run, "c.service", simple);
	put(dir_etc, "a.service", simple);
	put(dir_lib, "e.service", simple);
	load(3);
	CHECK(count == 3);
	CHECK_STR(svcs[0].name, "a");
	CHECK_STR(svcs[1].name, "b");
	CHECK_STR(svcs[2].name, "c");
	CHECK(errors == 1);
	CHECK(strstr(messages, "2 unit files not loaded: more than 3 units") != NULL);
	teardown();
}

static void oversized_file_fails(void)
{
	static char big[SERVICE_FILE_MAX + 100];

	setup();
	memset(big, '#', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "[Service]\nExecStart=/bin/true\n", 30);
	put(dir_etc, "big.service", big);
	load(8);
	CHECK(count == 1 && named("big")->failed);
	CHECK(strstr(named("big")->error, "more than the limit of 65536") != NULL);
	teardown();
}

static void fifo_and_directory_are_not_service_files(void)
{
	char path[256];

	setup();
	snprintf(path, sizeof path, "%s/pipe.service", dir_etc);
	CHECK(mkfifo(path, 0600) == 0);
	snprintf(path, sizeof path, "%s/dir.service", dir_etc);
	CHECK(mkdir(path, 0755) == 0);
	load(8);
	CHECK(count == 2);
	CHECK(named("pipe")->failed && strcmp(named("pipe")->error, "not a regular file") == 0);
	CHECK(named("dir")->failed);
	teardown();
}

static void dangling_symlink_fails(void)
{
	setup();
	link_to(dir_etc, "gone.service", "/nonexistent/gone.service");
	load(8);
	CHECK(count == 1 && named("gone")->failed && !named("gone")->masked);
	CHECK(strstr(named("gone")->error, "cannot open") != NULL);
	teardown();
}

int main(void)
{
	RUN(loads_every_directory_sorted_by_name);
	RUN(higher_priority_directory_overrides);
	RUN(run_overrides_lib);
	RUN(symlink_to_dev_null_masks);
	RUN(empty_file_masks);
	RUN(mask_without_a_vendor_file);
	RUN(masked_in_lower_priority_does_not_mask_higher);
	RUN(symlink_to_a_real_file_is_followed);
	RUN(other_files_are_ignored);
	RUN(unsafe_names_are_warned_and_skipped);
	RUN(missing_directories_are_fine);
	RUN(a_bad_file_does_not_stop_the_others);
	RUN(capacity_keeps_the_first_names);
	RUN(oversized_file_fails);
	RUN(fifo_and_directory_are_not_service_files);
	RUN(dangling_symlink_fails);
	return harness_done();
}
