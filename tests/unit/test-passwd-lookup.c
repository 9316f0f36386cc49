// sources:
/* lib/passwd.c against fixture trees: lookups by name and id, and hostile files. */
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

/* Write root/etc/NAME with len bytes of text (len lets a NUL byte in). */
static void write_etc(const char *name, const char *text, size_t len)
{
	char path[128];
	int fd;

	snprintf(path, sizeof path, "%s/etc/%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static void passwd(const char *text) { write_etc("passwd", text, strlen(text)); }
static void group(const char *text) { write_etc("group", text, strlen(text)); }

static void finds_user_by_name_and_uid(void)
{
	struct passwd_user u;

	passwd("root:x:0:0:root:/root:/bin/sh\n"
	       "www-data:x:33:33:www:/var/www:/usr/sbin/nologin\n");
	CHECK(passwd_user_by_name(root, "www-data", &u) == 0);
	CHECK_STR(u.name, "www-data");
	CHECK(u.uid == 33 && u.gid == 33);
	CHECK_STR(u.home, "/var/www");
	CHECK_STR(u.shell, "/usr/sbin/nologin");
	CHECK(passwd_user_by_uid(root, 0, &u) == 0);
	CHECK_STR(u.name, "root");
	CHECK(passwd_user_lookup(root, "33", &u) == 0);
	CHECK_STR(u.name, "www-data");
	CHECK(passwd_user_lookup(root, "root", &u) == 0 && u.uid == 0);
}

static void missing_user_and_file_are_enoent(void)
{
	struct passwd_user u;
	struct passwd_group g;
	char empty[96];

	passwd("root:x:0:0:root:/root:/bin/sh\n");
	errno = 0;
	CHECK(passwd_user_by_name(root, "nobody", &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_uid(root, 1000, &u) < 0 && errno == ENOENT);
	snprintf(empty, sizeof empty, "%s/nonexistent", root);
	CHECK(passwd_user_by_name(empty, "root", &u) < 0 && errno == ENOENT);
	CHECK(passwd_group_by_name(empty, "root", &g) < 0 && errno == ENOENT);
	/* a prefix of a name is not the name */
	CHECK(passwd_user_by_name(root, "roo", &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_name(root, "root2", &u) < 0 && errno == ENOENT);
}

static void skips_comments_blank_and_short_lines(void)
{
	struct passwd_user u;

	passwd("# comment:x:5:5::/:/bin/sh\n"
	       "\n"
	       "short:x:1:1\n"
	       "long:x:2:2:g:/h:/s:extra\n"
	       ":x:3:3::/:/bin/sh\n"
	       "ok:x:4:4::/home/ok:/bin/sh\n");
	CHECK(passwd_user_by_name(root, "short", &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_name(root, "long", &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_uid(root, 3, &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_uid(root, 5, &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_name(root, "ok", &u) == 0 && u.uid == 4);
}

static void skips_bad_ids(void)
{
	struct passwd_user u;

	passwd("neg:x:-1:0::/:/bin/sh\n"
	       "word:x:abc:0::/:/bin/sh\n"
	       "empty:x::0::/:/bin/sh\n"
	       "minus1:x:4294967295:0::/:/bin/sh\n"
	       "sixteen:x:65535:0::/:/bin/sh\n"
	       "huge:x:99999999999999999999:0::/:/bin/sh\n"
	       "space:x: 7:0::/:/bin/sh\n"
	       "badgid:x:8:x::/:/bin/sh\n"
	       "max:x:4294967294:4294967294::/:/bin/sh\n");
	for (const char *const *n = (const char *const[]){ "neg", "word", "empty", "minus1",
			"sixteen", "huge", "space", "badgid", NULL }; *n; n++) {
		if (passwd_user_by_name(root, *n, &u) == 0) {
			printf("  accepted %s\n", *n);
			harness_case_failed = 1;
		}
	}
	CHECK(passwd_user_by_name(root, "max", &u) == 0 && u.uid == 4294967294u);
	/* numeric lookups refuse the "no change" ids outright */
	CHECK(passwd_user_lookup(root, "4294967295", &u) < 0 && errno == ERANGE);
	CHECK(passwd_user_lookup(root, "65535", &u) < 0 && errno == ERANGE);
}

static void first_duplicate_wins(void)
{
	struct passwd_user u;

	passwd("dup:x:10:10::/first:/bin/sh\n"
	       "dup:x:11:11::/second:/bin/sh\n"
	       "other:x:10:12::/third:/bin/sh\n");
	CHECK(passwd_user_by_name(root, "dup", &u) == 0 && u.uid == 10);
	CHECK_STR(u.home, "/first");
	CHECK(passwd_user_by_uid(root, 10, &u) == 0);
	CHECK_STR(u.name, "dup");
}

static void overlong_line_is_skipped_whole(void)
{
	static char text[3 * PASSWD_LINE_MAX];
	struct passwd_user u;
	size_t len;

	/* an overlong line whose tail looks like an entry must not yield one */
	strcpy(text, "a:x:1:1::/:/bin/sh\nlong:x:2:2:");
	len = strlen(text);
	memset(text + len, 'g', 2 * PASSWD_LINE_MAX);
	len += 2 * PASSWD_LINE_MAX;
	len += (size_t)sprintf(text + len, "\ntail:x:3:3::/:/bin/sh\nz:x:4:4::/z:/bin/sh\n");
	write_etc("passwd", text, len);
	CHECK(passwd_user_by_name(root, "a", &u) == 0);
	CHECK(passwd_user_by_name(root, "long", &u) < 0 && errno == ENOENT);
	CHECK(passwd_user_by_name(root, "tail", &u) == 0 && u.uid == 3);
	CHECK(passwd_user_by_name(root, "z", &u) == 0 && u.uid == 4);
}

static void many_lines_cross_buffer_refills(void)
{
	static char text[8 * PASSWD_LINE_MAX];
	struct passwd_user u;
	size_t len = 0;

	for (int i = 0; i < 2000; i++)
		len += (size_t)sprintf(text + len, "user%d:x:%d:%d::/home/user%d:/bin/sh\n",
				       i, 1000 + i, 1000 + i, i);
	write_etc("passwd", text, len);
	CHECK(passwd_user_by_name(root, "user1999", &u) == 0 && u.uid == 2999);
	CHECK_STR(u.home, "/home/user1999");
	CHECK(passwd_user_by_uid(root, 1500, &u) == 0);
	CHECK_STR(u.name, "user500");
}

static void last_line_without_newline(void)
{
	struct passwd_user u;

	passwd("a:x:1:1::/:/bin/sh\nlast:x:9:9::/l:/bin/ash");
	CHECK(passwd_user_by_name(root, "last", &u) == 0 && u.uid == 9);
	CHECK_STR(u.shell, "/bin/ash");
}

static void nul_byte_line_is_skipped(void)
{
	static const char text[] = "ev\0il:x:5:5::/:/bin/sh\nev:x:6:6::/:/bin/sh\n";
	struct passwd_user u;

	write_etc("passwd", text, sizeof text - 1);
	CHECK(passwd_user_by_name(root, "ev", &u) == 0 && u.uid == 6);
	CHECK(passwd_user_by_uid(root, 5, &u) < 0 && errno == ENOENT);
}

static void too_long_home_is_an_error(void)
{
	static char text[PASSWD_LINE_MAX];
	struct passwd_user u;
	int len = sprintf(text, "deep:x:7:7::/");

	memset(text + len, 'd', PASSWD_PATH_MAX + 10);
	len += PASSWD_PATH_MAX + 10;
	len += sprintf(text + len, ":/bin/sh\n");
	write_etc("passwd", text, (size_t)len);
	CHECK(passwd_user_by_name(root, "deep", &u) < 0 && errno == ENAMETOOLONG);
}

static void finds_groups(void)
{
	struct passwd_group g;

	group("# c\nroot:x:0:\nwheel:x:10:alice,bob\nbad:x:zz:alice\nwheel:x:11:\n");
	CHECK(passwd_group_by_name(root, "wheel", &g) == 0 && g.gid == 10);
	CHECK(passwd_group_by_gid(root, 0, &g) == 0);
	CHECK_STR(g.name, "root");
	CHECK(passwd_group_lookup(root, "10", &g) == 0);
	CHECK_STR(g.name, "wheel");
	CHECK(passwd_group_by_name(root, "bad", &g) < 0 && errno == ENOENT);
	/* first wins per key: "wheel" finds gid 10, gid 11 still finds its own line */
	CHECK(passwd_group_by_gid(root, 11, &g) == 0);
	CHECK_STR(g.name, "wheel");
}

static void parses_ids_strictly(void)
{
	uint32_t id = 42;

	CHECK(passwd_parse_id("0", &id) == 0 && id == 0);
	CHECK(passwd_parse_id("4294967294", &id) == 0 && id == 4294967294u);
	CHECK(passwd_parse_id("4294967295", &id) < 0 && errno == ERANGE);
	CHECK(passwd_parse_id("65535", &id) < 0 && errno == ERANGE);
	CHECK(passwd_parse_id("-1", &id) < 0 && errno == EINVAL);
	CHECK(passwd_parse_id("#0", &id) < 0 && errno == EINVAL);
	CHECK(passwd_parse_id("", &id) < 0 && errno == EINVAL);
	CHECK(passwd_parse_id("1 ", &id) < 0 && errno == EINVAL);
	CHECK(id == 4294967294u);
}

int main(void)
{
	char etc[96];

	strcpy(root, "/tmp/ember-passwd-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(etc, sizeof etc, "%s/etc", root);
	mkdir(etc, 0755);
	RUN(finds_user_by_name_and_uid);
	RUN(missing_user_and_file_are_enoent);
	RUN(skips_comments_blank_and_short_lines);
	RUN(skips_bad_ids);
	RUN(first_duplicate_wins);
	RUN(overlong_line_is_skipped_whole);
	RUN(many_lines_cross_buffer_refills);
	RUN(last_line_without_newline);
	RUN(nul_byte_line_is_skipped);
	RUN(too_long_home_is_an_error);
	RUN(finds_groups);
	RUN(parses_ids_strictly);
	char path[128];
	snprintf(path, sizeof path, "%s/passwd", etc);
	unlink(path);
	snprintf(path, sizeof path, "%s/group", etc);
	unlink(path);
	rmdir(etc);
	rmdir(root);
	return harness_done();
}
