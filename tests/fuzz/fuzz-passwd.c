// sources:
/* /etc/passwd and /etc/group as read without NSS (lib/passwd.c): the input is written
 * as both files of a private root, then looked up by name, id and membership. */
#include "fuzz.h"
#include "passwd.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void write_file(const char *name, const uint8_t *data, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/etc/%s", root, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct passwd_user u;
	struct passwd_group g;
	gid_t groups[16];
	size_t n;
	uint32_t id;

	if (!root[0]) {
		char dir[128];
		snprintf(root, sizeof root, "/tmp/ember-fuzz-passwd.%d", (int)getpid());
		snprintf(dir, sizeof dir, "%s/etc", root);
		mkdir(root, 0700);
		mkdir(dir, 0700);
	}
	write_file("passwd", data, size);
	write_file("group", data, size);
	passwd_user_lookup(root, "root", &u);
	passwd_user_lookup(root, "0", &u);
	passwd_user_by_uid(root, 1000, &u);
	passwd_group_lookup(root, "wheel", &g);
	passwd_group_by_gid(root, 0, &g);
	passwd_user_groups(root, "alice", 100, groups, 16, &n);
	if (size < 64) {
		char *s = fuzz_string(data, size);
		passwd_parse_id(s, &id);
		free(s);
	}
	return 0;
}
