// sources: emberctl/records.c emberctl/analyze.c
/* emberctl analyze from fixed record texts: the critical chain follows the After=
 * dependency that became ready last before each service started, survives cycles and
 * dangling names, and the JSON and the SVG boot chart show the same data. */
#include "harness.h"
#include "analyze.h"

#include <stdlib.h>

static char text[8192];
static struct record_set set;
static struct boot_times bt;
static char *out;
static size_t out_len;

static void load(const char *records)
{
	char err[256];
	records_free(&set);
	strcpy(text, records);
	if (records_load(text, strlen(text), &set, err, sizeof err) < 0)
		printf("  records_load: %s\n", err);
	analyze_compute(&set, &bt);
}

static FILE *capture(void)
{
	free(out);
	out = NULL;
	return open_memstream(&out, &out_len);
}

/* A boot: PID 1 started 1 s after the kernel, was ready 2 s later. */
static const char boot[] =
	"kind=service\nname=udev\nstate=ready\nstarted_us=1100000\nready_us=1600000\n"
	"failed_us=-1\nstopped_us=-1\nafter=\n\n"
	"kind=service\nname=dbus\nstate=ready\nstarted_us=1200000\nready_us=1400000\n"
	"failed_us=-1\nstopped_us=-1\nafter=\n\n"
	"kind=boot\nuserspace_start_us=1000000\nready_us=3000000\n\n"
	"kind=service\nname=network\nstate=ready\nstarted_us=1600000\nready_us=2600000\n"
	"failed_us=-1\nstopped_us=-1\nafter=udev\n\n"
	"kind=service\nname=sshd\nstate=running\nstarted_us=2600000\nready_us=2800000\n"
	"failed_us=-1\nstopped_us=-1\nafter=network,dbus\n\n"
	"name=ui\nstate=running\nstarted_us=1400000\nready_us=2000000\nafter=dbus\n\n"
	"kind=service\nname=late\nstate=running\nstarted_us=2700000\nready_us=2900000\n"
	"failed_us=-1\nstopped_us=-1\nafter=dbus,missing,network,ui\n\n"
	"kind=service\nname=broken\nstate=failed\nstarted_us=1500000\nready_us=-1\n"
	"failed_us=1700000\nstopped_us=-1\nafter=udev\n\n"
	"kind=service\nname=slow\nstate=starting\nstarted_us=2900000\nready_us=-1\n"
	"failed_us=-1\nstopped_us=-1\nafter=late\n\n"
	"kind=service\nname=masked\nstate=masked\nstarted_us=-1\nready_us=-1\n"
	"failed_us=-1\nstopped_us=-1\nafter=\n\n"
	"kind=future\nname=not a service\nready_us=9999999\n\n";

static const char *chain_name(size_t k)
{
	return k < bt.chain_len ? rec_str(&set.rec[bt.chain[k]], "name") : "(none)";
}

static void chain_follows_the_last_ready_dependency(void)
{
	load(boot);
	CHECK(bt.boot == &set.rec[2]);
	CHECK(bt.base_us == 1000000);
	CHECK(bt.chain_len == 3);
	CHECK_STR(chain_name(0), "late");
	CHECK_STR(chain_name(1), "network");
	CHECK_STR(chain_name(2), "udev");
}

static void chain_text(void)
{
	FILE *f;
	load(boot);
	f = capture();
	analyze_print(f, &set, &bt);
	fclose(f);
	CHECK_STR(out,
		  "Userspace ready after 2.000s (PID 1 started 1.000s after boot).\n"
		  "The time a service became ready is printed after \"@\" (counted from PID 1's\n"
		  "start), the time it took to start after \"+\".\n\n"
		  "late @1.900s +200ms\n"
		  "`-network @1.600s +1.000s\n"
		  "  `-udev @600ms +500ms\n"
		  "Failed: broken @700ms\n");
}

static void dependency_ready_after_the_start_is_not_a_blocker(void)
{
	load("name=x\nstarted_us=100\nready_us=200\nafter=y\n\n"
	     "name=y\nstarted_us=0\nready_us=150\n\n");
	CHECK(bt.chain_len == 1);
	CHECK_STR(chain_name(0), "x");
	CHECK(bt.boot == NULL && bt.base_us == 0);
}

/* PID 1 names the blocker from its graph (a target's implied After= is in no file): the
 * name wins over the After= list, and an empty one ends the chain. */
static void blocked_by_from_pid1_wins(void)
{
	load("name=multi-user.target\nstarted_us=300\nready_us=300\nafter=basic.target\n"
	     "blocked_by=late.service\n\n"
	     "name=basic.target\nstarted_us=100\nready_us=100\nafter=\nblocked_by=\n\n"
	     "name=late.service\nstarted_us=120\nready_us=290\nafter=basic.target\n"
	     "blocked_by=basic.target\n\n");
	CHECK(bt.chain_len == 3);
	CHECK_STR(chain_name(0), "multi-user.target");
	CHECK_STR(chain_name(1), "late.service");
	CHECK_STR(chain_name(2), "basic.target");
	load("name=a\nstarted_us=100\nready_us=200\nafter=b\nblocked_by=\n\n"
	     "name=b\nstarted_us=0\nready_us=50\n\n");
	CHECK(bt.chain_len == 1);
	load("name=a\nstarted_us=100\nready_us=200\nblocked_by=gone\n\n");
	CHECK(bt.chain_len == 1);
}

static void cycles_end_the_chain(void)
{
	load("name=a\nstarted_us=25\nready_us=20\nafter=b\n\n"
	     "name=b\nstarted_us=30\nready_us=10\nafter=a\n\n");
	CHECK(bt.chain_len == 2);
	CHECK_STR(chain_name(0), "a");
	CHECK_STR(chain_name(1), "b");
}

static void hostile_after_lists(void)
{
	char big[3000];
	/* A name longer than any service name, empty names, and a 1000-name list. */
	strcpy(big, "name=a\nstarted_us=10\nready_us=20\nafter=,,");
	for (int i = 0; i < 70; i++)
		strcat(big, "x");
	strcat(big, ",b,\n\nname=b\nstarted_us=0\nready_us=5\n\n");
	load(big);
	CHECK(bt.chain_len == 2);
	CHECK_STR(chain_name(1), "b");
}

static void nothing_ready_yet(void)
{
	FILE *f;
	load("name=a\nstate=starting\nstarted_us=10\nready_us=-1\n\n");
	CHECK(bt.chain_len == 0);
	f = capture();
	analyze_print(f, &set, &bt);
	fclose(f);
	CHECK_STR(out, "Boot not finished yet.\nNo service has become ready yet.\n");
	f = capture();
	analyze_json(f, &set, &bt);
	fclose(f);
	CHECK_STR(out, "{\"boot\":null,\"services\":[{\"name\":\"a\",\"state\":\"starting\","
		       "\"started_us\":10,\"ready_us\":-1}],\"critical_chain\":[]}\n");
}

static void json_has_boot_services_and_chain(void)
{
	FILE *f;
	load(boot);
	f = capture();
	analyze_json(f, &set, &bt);
	fclose(f);
	static const char head[] = "{\"boot\":{\"kind\":\"boot\",\"userspace_start_us\":1000000,"
		"\"ready_us\":3000000},\"services\":[{\"kind\":\"service\",\"name\":\"udev\"";
	CHECK(strncmp(out, head, strlen(head)) == 0);
	CHECK(strstr(out, "\"after\":[\"dbus\",\"missing\",\"network\",\"ui\"]") != NULL);
	CHECK(strstr(out, "\"critical_chain\":[{\"name\":\"late\",\"started_us\":2700000,"
			  "\"ready_us\":2900000},{\"name\":\"network\",\"started_us\":1600000,"
			  "\"ready_us\":2600000},{\"name\":\"udev\",\"started_us\":1100000,"
			  "\"ready_us\":1600000}]}\n") != NULL);
	CHECK(strstr(out, "not a service") == NULL);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void svg_has_a_bar_per_started_service(void)
{
	FILE *f;
	load(boot);
	f = capture();
	analyze_svg(f, &set, &bt);
	fclose(f);
	CHECK(strncmp(out, "<?xml version=\"1.0\"", 19) == 0);
	CHECK(strcmp(out + strlen(out) - 7, "</svg>\n") == 0);
	CHECK(count(out, "<rect class=") == 8); /* masked never started */
	CHECK(count(out, "<rect class=\"ready\"") == 6);
	CHECK(count(out, "<rect class=\"failed\"") == 1);
	CHECK(count(out, "<rect class=\"starting\"") == 1);
	/* Span: 1 s .. 3 s over 1000 px: udev from 1.1 s to 1.6 s, the first row. */
	CHECK(strstr(out, "<rect class=\"ready\" x=\"60.0\" y=\"50\" width=\"250.0\" height=\"14\">"
			  "<title>udev: ready 500ms</title>") != NULL);
	CHECK(strstr(out, ">slow (still starting)</text>") != NULL);
	CHECK(strstr(out, ">broken (200ms) failed</text>") != NULL);
	CHECK(strstr(out, "userspace ready after 2.000s, 8 services") != NULL);
	CHECK(count(out, "<line class=\"grid\"") == 21); /* every 100 ms over 2 s */
	CHECK(strstr(out, "<text class=\"tick\" x=\"1012.0\" y=\"36\">2.000s</text>") != NULL);
}

static void svg_escapes_markup(void)
{
	FILE *f;
	load("name=a<b>&\"c'\\x01\nstarted_us=0\nready_us=0\n\n");
	f = capture();
	analyze_svg(f, &set, &bt);
	fclose(f);
	CHECK(strstr(out, ">a&lt;b&gt;&amp;&quot;c&apos;? (0us)</text>") != NULL);
	CHECK(strstr(out, "<b>") == NULL);
}

static void svg_of_nothing(void)
{
	FILE *f;
	load("");
	f = capture();
	analyze_svg(f, &set, &bt);
	fclose(f);
	CHECK(count(out, "<rect class=") == 0);
	CHECK(strstr(out, "boot not finished, 0 services") != NULL);
}

/* A crashing service restarted after boot was ready did not hold the boot up. */
static void service_restarted_after_boot_does_not_end_the_chain(void)
{
	static char restarted[sizeof boot + 256];
	strcpy(restarted, boot);
	strcat(restarted, "kind=service\nname=crashy\nstate=ready\nstarted_us=3500000\n"
			  "ready_us=3600000\nfailed_us=-1\nstopped_us=-1\nafter=late\n\n");
	load(restarted);
	CHECK(bt.chain_len == 3);
	CHECK_STR(chain_name(0), "late");
}

int main(void)
{
	RUN(chain_follows_the_last_ready_dependency);
	RUN(chain_text);
	RUN(dependency_ready_after_the_start_is_not_a_blocker);
	RUN(blocked_by_from_pid1_wins);
	RUN(cycles_end_the_chain);
	RUN(service_restarted_after_boot_does_not_end_the_chain);
	RUN(hostile_after_lists);
	RUN(nothing_ready_yet);
	RUN(json_has_boot_services_and_chain);
	RUN(svg_has_a_bar_per_started_service);
	RUN(svg_escapes_markup);
	RUN(svg_of_nothing);
	records_free(&set);
	free(out);
	return harness_done();
}
