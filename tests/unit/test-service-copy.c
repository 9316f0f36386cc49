// sources: init/service.c init/pages.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* compact: a unit is copied by its used bytes only (service_copy()), and scratch pages
 * are given back (pages_release()); strings survive both and copies are independent. */
#include "harness.h"
#include "../../init/pages.h"
#include "../../init/service.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static struct service src, dst;

static const char unit_text[] =
	"[Unit]\nDescription=copy me\nAfter=a.service b.service\n"
	"[Service]\nExecStart=/bin/true one two\nEnvironment=K=V\n";

static void load_src(void)
{
	CHECK(service_init(&src, "c.service", "/etc/ember/c.service") == 0);
	CHECK(service_parse(&src, unit_text, sizeof unit_text - 1, NULL) == 0);
}

static void strings_survive_a_copy(void)
{
	load_src();
	memset(&dst, 0x55, sizeof dst);
	service_copy(&dst, &src);
	CHECK_STR(dst.name, "c.service");
	CHECK_STR(service_str(&dst, dst.description), "copy me");
	CHECK(dst.after.count == src.after.count && dst.after.count > 0);
	for (size_t i = 0; i < src.after.count; i++)
		CHECK_STR(service_str(&dst, dst.after.name[i]), service_str(&src, src.after.name[i]));
	CHECK_STR(service_str(&dst, dst.exec_start.line[0]), "/bin/true one two");
	CHECK(service_used_size(&dst) == service_used_size(&src));
}

static void only_the_used_bytes_move(void)
{
	load_src();
	memset(&dst, 0x55, sizeof dst);
	service_copy(&dst, &src);
	/* the unused store behind the copy is untouched: still the 0x55 fill */
	CHECK(dst.text[src.text_used] == 0x55);
	CHECK(dst.text[SERVICE_TEXT_MAX - 1] == 0x55);
	CHECK(service_used_size(&src) < sizeof src / 2);
}

static void a_copy_is_independent(void)
{
	strref r;

	load_src();
	service_copy(&dst, &src);
	r = service_text_store(&dst, "only in the copy");
	CHECK(r != 0);
	CHECK(service_add_name(&dst, &dst.after, "c2.service") == 0);
	CHECK(dst.after.count == src.after.count + 1);
	CHECK(!service_lists(&src, &src.after, "c2.service"));
	CHECK(src.text_used < dst.text_used);
	CHECK_STR(service_str(&src, src.description), "copy me");
	CHECK_STR(service_str(&dst, r), "only in the copy");
}

/* A store filled to its last byte is copied whole: nothing is cut. */
static void a_full_store_copies_whole(void)
{
	strref last = SERVICE_TEXT_MAX - 4;

	load_src();
	memset(src.text + src.text_used, 'p', SERVICE_TEXT_MAX - src.text_used);
	memcpy(src.text + last, "end", 4);
	src.text_used = SERVICE_TEXT_MAX;
	CHECK(service_used_size(&src) == offsetof(struct service, text) + SERVICE_TEXT_MAX);
	memset(&dst, 0, sizeof dst);
	service_copy(&dst, &src);
	CHECK_STR(service_str(&dst, last), "end");
	CHECK_STR(service_str(&dst, dst.description), "copy me");
}

static char all_pages[6 * 65536]; /* .bss, as PID 1's tables */

/* The whole pages inside the range read as zeros afterwards; the partial pages at its
 * ends keep their bytes (they may hold someone else's data). */
/* A store filled by values replaced again and again (drop-ins do that) is compacted:
 * every live string must move with it, whatever kind of unit holds it. */
static void churn(struct service *svc, const char *name, const char *head)
{
	static char text[SERVICE_FILE_MAX];
	size_t n;

	n = (size_t)snprintf(text, sizeof text, "%s", head);
	for (int i = 0; i < 60; i++) /* 60 x ~200 bytes: more than the 8 KiB store */
		n += (size_t)snprintf(text + n, sizeof text - n, "[Unit]\nDescription=%0190d\n", i);
	CHECK(service_init(svc, name, "/etc/ember/x") == 0);
	if (service_parse(svc, text, n, NULL) != 0) {
		printf("  %s: %s\n", name, svc->error);
		CHECK(0);
	}
}

static void compaction_keeps_every_string(void)
{
	churn(&src, "t.timer", "[Unit]\nRequiresMountsFor=/srv/data\nPropagatesReloadTo=r.service\n"
	      "[Timer]\nOnCalendar=*-*-* 6:00\nUnit=job.target\n");
	CHECK(!src.failed);
	CHECK_STR(service_str(&src, src.timer.calendar), "*-*-* 6:00");
	CHECK_STR(service_str(&src, src.timer.unit), "job.target");
	CHECK_STR(service_str(&src, src.kinds.mounts_for[0]), "/srv/data");
	CHECK_STR(service_str(&src, src.reload_to), "r");
	churn(&src, "m.mount", "[Mount]\nWhat=/dev/vda2\nWhere=/m\nType=ext4\nOptions=noatime\n");
	CHECK_STR(service_str(&src, src.kinds.what), "/dev/vda2");
	CHECK_STR(service_str(&src, src.kinds.fstype), "ext4");
	CHECK_STR(service_str(&src, src.kinds.options), "noatime");
	churn(&src, "s.service", "[Unit]\n[Service]\nExecStart=/bin/true\nSlice=a-b.slice\n"
	      "Sockets=x.socket\n");
	CHECK_STR(service_str(&src, src.kinds.slice), "a-b.slice");
	CHECK_STR(service_str(&src, src.sockets), "x.socket");
}

static void released_pages_read_as_zeros(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	/* a page-aligned base inside the array */
	char *pages = (char *)(((uintptr_t)all_pages + page - 1) & ~(uintptr_t)(page - 1));
	char *start = pages + page + 100, *end = pages + 3 * page + 100;
	char outside[64], on_stack[64];

	memset(all_pages, 'x', sizeof all_pages);
	pages_release(start, (size_t)(end - start));
	CHECK(pages[page + 99] == 'x');
	CHECK(start[0] == 'x');                      /* partial first page: kept */
	CHECK(pages[2 * page] == 0);                 /* a whole page inside: given back */
	CHECK(pages[3 * page - 1] == 0);
	CHECK(pages[3 * page] == 'x');               /* partial last page: kept */
	CHECK(end[0] == 'x');
	/* memory outside .bss is never touched */
	memset(on_stack, 'x', sizeof on_stack);
	pages_release(on_stack, sizeof on_stack);
	memcpy(outside, on_stack, sizeof outside);
	CHECK(outside[0] == 'x' && outside[63] == 'x');
}

int main(void)
{
	RUN(strings_survive_a_copy);
	RUN(only_the_used_bytes_move);
	RUN(a_copy_is_independent);
	RUN(a_full_store_copies_whole);
	RUN(compaction_keeps_every_string);
	RUN(released_pages_read_as_zeros);
	return harness_done();
}
