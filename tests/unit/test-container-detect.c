// sources: init/container.c
/* ember-init's container detection against fixture trees: what runtimes say, and the
 * PID namespace seen through /proc when nothing says anything (docker run without
 * container=, unshare --pid). A machine's PID 1 has kthreadd as PID 2. */
#include "harness.h"
#include "../../init/container.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/ember-container-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];
	FILE *f;

	snprintf(path, sizeof path, "%s%s", root, rel);
	snprintf(dir, sizeof dir, "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	if ((f = fopen(path, "w"))) {
		fputs(text, f);
		fclose(f);
	}
}

static void reset(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s/proc %s/.dockerenv %s/run", root, root, root);
	if (system(cmd) != 0)
		printf("  reset failed\n");
}

static void container_env_wins(void)
{
	reset();
	CHECK_STR(container_detect(root, "podman"), "podman");
	CHECK_STR(container_detect(root, "a b\nc"), "a_b_c"); /* kept printable */
}

static void no_proc_and_no_sign_is_a_machine(void)
{
	reset();
	CHECK(container_detect(root, NULL) == NULL);
	CHECK(container_detect(root, "") == NULL);
}

static void runtime_files(void)
{
	reset();
	put("/.dockerenv", "");
	CHECK_STR(container_detect(root, NULL), "docker");
	reset();
	put("/run/.containerenv", "");
	CHECK_STR(container_detect(root, NULL), "podman");
}

static void kthreadd_as_pid_2_is_a_machine(void)
{
	reset();
	put("/proc/self/stat", "1 (ember-init) S 0 1 1 0 -1 4194560\n");
	put("/proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984\n");
	CHECK(container_detect(root, NULL) == NULL);
}

static void a_pid_namespace_without_kthreadd(void)
{
	reset();
	put("/proc/self/stat", "1 (ember-init) S 0 1 1 0 -1 4194560\n");
	CHECK_STR(container_detect(root, NULL), "pid-namespace"); /* no PID 2 yet */
	put("/proc/2/stat", "2 (sh) S 1 2 2 0 -1 4194560\n");
	CHECK_STR(container_detect(root, NULL), "pid-namespace");
	put("/proc/2/stat", "2 (kthreadd-x) S 0 0 0 0 -1 2129984\n");
	CHECK_STR(container_detect(root, NULL), "pid-namespace");
}

static void the_hosts_proc_seen_from_a_namespace(void)
{
	reset();
	put("/proc/self/stat", "48213 (ember-init) S 48200 1 1 0 -1 4194560\n");
	put("/proc/2/stat", "2 (kthreadd) S 0 0 0 0 -1 2129984\n");
	CHECK_STR(container_detect(root, NULL), "pid-namespace");
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(container_env_wins);
	RUN(no_proc_and_no_sign_is_a_machine);
	RUN(runtime_files);
	RUN(kthreadd_as_pid_2_is_a_machine);
	RUN(a_pid_namespace_without_kthreadd);
	RUN(the_hosts_proc_seen_from_a_namespace);
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		return 1;
	return harness_done();
}
