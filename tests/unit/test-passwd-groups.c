// sources:
/* passwd_user_groups(): a user's groups from /etc/group member lists, as getgrouplist. */
#include "harness.h"
#include "passwd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void group(const char *text, size_t len)
{
	char path[128];
	int fd;

	snprintf(path, sizeof path, "%s/etc/group", root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
}

#define GROUP(text) group(text, strlen(text))

static void primary_first_then_members_in_file_order(void)
{
	gid_t g[8];
	size_t n = 99;

	GROUP("audio:x:29:pulse,alice\n"
	      "alice:x:1000:\n"
	      "video:x:44:alice\n"
	      "wheel:x:10:bob\n"
	      "plugdev:x:46:bob,alice,carol\n");
	CHECK(passwd_user_groups(root, "alice", 1000, g, 8, &n) == 0);
	CHECK(n == 4);
	CHECK(g[0] == 1000 && g[1] == 29 && g[2] == 44 && g[3] == 46);
}

static void member_names_match_exactly(void)
{
	gid_t g[8];
	size_t n;

	GROUP("a:x:1:alice2,xalice,alic\nb:x:2:,alice,\nc:x:3: alice\n");
	CHECK(passwd_user_groups(root, "alice", 100, g, 8, &n) == 0);
	CHECK(n == 2 && g[0] == 100 && g[1] == 2);
}

static void each_gid_once(void)
{
	gid_t g[8];
	size_t n;

	GROUP("users:x:100:alice\nusers2:x:100:alice\nx:x:5:alice,alice\n");
	CHECK(passwd_user_groups(root, "alice", 100, g, 8, &n) == 0);
	CHECK(n == 2 && g[0] == 100 && g[1] == 5);
}

static void skips_malformed_lines(void)
{
	gid_t g[8];
	size_t n;

	GROUP("bad:x:abc:alice\nneg:x:-4:alice\nnone:x:4294967295:alice\nshort:x:7\n"
	      "#c:x:8:alice\nok:x:9:alice\n");
	CHECK(passwd_user_groups(root, "alice", 100, g, 8, &n) == 0);
	CHECK(n == 2 && g[1] == 9);
}

static void too_many_groups_is_erange(void)
{
	gid_t g[2];
	size_t n;

	GROUP("a:x:1:alice\nb:x:2:alice\n");
	CHECK(passwd_user_groups(root, "alice", 100, g, 2, &n) < 0 && errno == ERANGE);
}

/* A line too long to read might list the user: the answer would be a guess. */
static void overlong_group_line_is_eoverflow(void)
{
	static char text[2 * PASSWD_LINE_MAX];
	gid_t g[8];
	size_t n, len;

	strcpy(text, "big:x:50:");
	len = strlen(text);
	memset(text + len, 'm', PASSWD_LINE_MAX);
	len += PASSWD_LINE_MAX;
	len += (size_t)sprintf(text + len, ",alice\nok:x:9:alice\n");
	group(text, len);
	CHECK(passwd_user_groups(root, "alice", 100, g, 8, &n) < 0 && errno == EOVERFLOW);
}

static void missing_group_file_gives_primary_only(void)
{
	char path[128];
	gid_t g[8];
	size_t n;

	snprintf(path, sizeof path, "%s/etc/group", root);
	unlink(path);
	CHECK(passwd_user_groups(root, "alice", 100, g, 8, &n) == 0);
	CHECK(n == 1 && g[0] == 100);
}

int main(void)
{
	char etc[96];

	strcpy(root, "/tmp/ember-group-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(etc, sizeof etc, "%s/etc", root);
	mkdir(etc, 0755);
	RUN(primary_first_then_members_in_file_order);
	RUN(member_names_match_exactly);
	RUN(each_gid_once);
	RUN(skips_malformed_lines);
	RUN(too_many_groups_is_erange);
	RUN(overlong_group_line_is_eoverflow);
	RUN(missing_group_file_gives_primary_only);
	rmdir(etc);
	rmdir(root);
	return harness_done();
}
