// sources: emberctl/records.c emberctl/show.c emberctl/timers.c
/* emberctl's views of list and status replies, from fixed record texts: the table,
 * the systemctl-like status, JSON, and never a raw control byte on the terminal. */
#include "harness.h"
#include "records.h"
#include "show.h"
#include "timers.h"

#include <stdlib.h>

static char text[8192];
static struct record_set set;
static char *out;
static size_t out_len;

static void load(const char *records)
{
	char err[256];
	records_free(&set);
	strcpy(text, records);
	if (records_load(text, strlen(text), &set, err, sizeof err) < 0)
		printf("  records_load: %s\n", err);
}

static FILE *capture(void)
{
	free(out);
	out = NULL;
	return open_memstream(&out, &out_len);
}

static const char list_reply[] =
	"name=sshd\nstate=running\nmain_pid=412\nrestarts=0\nsince_us=1000000\n"
	"description=OpenSSH server\nstatus_text=\nerror=\ntype=notify\n\n"
	"name=network-online\nstate=ready\nmain_pid=0\nrestarts=2\nsince_us=61000000\n"
	"description=Wait for \\x1b[31mnetwork\ntype=oneshot\n\n"
	"name=bad\nstate=failed\nmain_pid=0\nrestarts=3\nsince_us=-1\ndescription=\n"
	"error=exec /bin/nope: No such file or directory\ntype=simple\n\n";

static void list_is_a_table(void)
{
	FILE *f;
	load(list_reply);
	CHECK(set.count == 3);
	f = capture();
	show_list(f, &set, 121000000);
	fclose(f);
	CHECK_STR(out,
		  "NAME            STATE    PID  RESTARTS  SINCE        DESCRIPTION\n"
		  "sshd            running  412  0         2min 0s ago  OpenSSH server\n"
		  "network-online  ready    -    2         1min 0s ago  Wait for \\x1b[31mnetwork\n"
		  "bad             failed   -    3         -            (exec /bin/nope: No such file or directory)\n"
		  "\n3 services listed.\n");
}

static void empty_list(void)
{
	FILE *f;
	load("");
	CHECK(set.count == 0);
	f = capture();
	show_list(f, &set, 0);
	fclose(f);
	CHECK_STR(out, "NAME  STATE  PID  RESTARTS  SINCE  DESCRIPTION\n\n0 services listed.\n");
	f = capture();
	show_list_json(f, &set);
	fclose(f);
	CHECK_STR(out, "[]\n");
}

static void list_json_types_values(void)
{
	FILE *f;
	load(list_reply);
	f = capture();
	show_list_json(f, &set);
	fclose(f);
	CHECK_STR(out,
		  "[{\"name\":\"sshd\",\"state\":\"running\",\"main_pid\":412,\"restarts\":0,"
		  "\"since_us\":1000000,\"description\":\"OpenSSH server\",\"status_text\":\"\","
		  "\"error\":\"\",\"type\":\"notify\"},"
		  "{\"name\":\"network-online\",\"state\":\"ready\",\"main_pid\":0,\"restarts\":2,"
		  "\"since_us\":61000000,\"description\":\"Wait for \\u001b[31mnetwork\","
		  "\"type\":\"oneshot\"},"
		  "{\"name\":\"bad\",\"state\":\"failed\",\"main_pid\":0,\"restarts\":3,"
		  "\"since_us\":-1,\"description\":\"\","
		  "\"error\":\"exec /bin/nope: No such file or directory\",\"type\":\"simple\"}]\n");
}

static const char status_reply[] =
	"name=sshd\nstate=running\nmain_pid=412\nrestarts=1\nsince_us=2500000\n"
	"description=OpenSSH server\nstatus_text=Ready to accept \"connections\"\\nnow\n"
	"error=\ntype=notify\nmemory_current=4404019\nmemory_peak=5242880\nhugetlb_bytes=0\n"
	"pids_current=3\ncpu_usage_usec=120000\nexit_status=-1\ncgroup=/ember/sshd\n"
	"after=network,udev\nrequires=network\nfuture_key=ignored by the text view\n\n";

static void status_is_systemctl_like(void)
{
	FILE *f;
	load(status_reply);
	f = capture();
	show_status(f, &set.rec[0], 62500000);
	fclose(f);
	CHECK_STR(out,
		  "sshd - OpenSSH server\n"
		  "       State: running since 2.500s after boot (1min 0s ago)\n"
		  "        Type: notify\n"
		  "    Main PID: 412\n"
		  "    Restarts: 1\n"
		  "      Status: Ready to accept \"connections\"\\nnow\n"
		  "      Memory: 4.2M (peak 5.0M)\n"
		  "       Tasks: 3\n"
		  "         CPU: 120ms\n"
		  "      CGroup: /ember/sshd\n"
		  "       After: network, udev\n"
		  "    Requires: network\n");
	CHECK(status_running(&set.rec[0]));
}

static void status_of_a_failed_service(void)
{
	FILE *f;
	load("name=x\nstate=failed\nmain_pid=0\nrestarts=5\nsince_us=-1\nerror=exited 2\n"
	     "exit_status=2\nmemory_current=-1\n\n");
	f = capture();
	show_status(f, &set.rec[0], 0);
	fclose(f);
	CHECK_STR(out, "x\n"
		       "       State: failed\n"
		       "    Restarts: 5\n"
		       "       Error: exited 2\n"
		       "        Exit: status 2\n");
	CHECK(!status_running(&set.rec[0]));
	load("name=x\nstate=stopped\nexit_signal=9\nexit_status=-1\n\n");
	f = capture();
	show_status(f, &set.rec[0], 0);
	fclose(f);
	CHECK(strstr(out, "Exit: killed by signal 9\n") != NULL);
	CHECK(!status_running(&set.rec[0]));
	load("name=x\nstate=ready\n\n");
	CHECK(status_running(&set.rec[0]));
	load("name=x\n\n");
	CHECK(!status_running(&set.rec[0]));
}

static void status_json_has_arrays_and_numbers(void)
{
	FILE *f;
	load(status_reply);
	f = capture();
	show_status_json(f, &set.rec[0]);
	fclose(f);
	CHECK(strstr(out, "\"after\":[\"network\",\"udev\"],\"requires\":[\"network\"]") != NULL);
	CHECK(strstr(out, "\"memory_current\":4404019,") != NULL);
	CHECK(strstr(out, "\"exit_status\":-1,") != NULL);
	CHECK(strstr(out, "\"status_text\":\"Ready to accept \\\"connections\\\"\\nnow\"") != NULL);
	CHECK(strstr(out, "\"future_key\":\"ignored by the text view\"}") != NULL);
	CHECK(out[0] == '{' && out[strlen(out) - 1] == '\n');
}

static void bad_integers_stay_strings_in_json(void)
{
	FILE *f;
	load("name=x\nmain_pid=12abc\nafter=\n\n");
	f = capture();
	show_status_json(f, &set.rec[0]);
	fclose(f);
	CHECK_STR(out, "{\"name\":\"x\",\"main_pid\":\"12abc\",\"after\":[]}\n");
}

static void durations_and_sizes(void)
{
	char b[32];
	format_duration(b, sizeof b, -1);        CHECK_STR(b, "-");
	format_duration(b, sizeof b, 0);         CHECK_STR(b, "0us");
	format_duration(b, sizeof b, 999);       CHECK_STR(b, "999us");
	format_duration(b, sizeof b, 120000);    CHECK_STR(b, "120ms");
	format_duration(b, sizeof b, 1234567);   CHECK_STR(b, "1.234s");
	format_duration(b, sizeof b, 123000000); CHECK_STR(b, "2min 3s");
	format_duration(b, sizeof b, 3720000000LL); CHECK_STR(b, "1h 2min");
	format_bytes(b, sizeof b, -1);           CHECK_STR(b, "-");
	format_bytes(b, sizeof b, 512);          CHECK_STR(b, "512B");
	format_bytes(b, sizeof b, 1536);         CHECK_STR(b, "1.5K");
	format_bytes(b, sizeof b, 3LL << 30);    CHECK_STR(b, "3.0G");
}

static void terminal_output_is_escaped(void)
{
	FILE *f = capture();
	print_safe(f, "a\x1b]0;title\x07\\b\n");
	print_safe_n(f, "\0z", 2);
	fclose(f);
	CHECK_STR(out, "a\\x1b]0;title\\x07\\\\b\\n\\x00z");
	CHECK(safe_width("\xc3\xa9t\x01") == 6);
}

/* timer units: list-timers shows the active timers only, in local time (TZ=UTC here),
 * with hostile names escaped; status adds Trigger/Triggers/Last. */
static const char timer_reply[] =
	"name=apt-daily.timer\nstate=ready\ntype=timer\ntriggers=apt-daily\n"
	"next_elapse_s=1796544000\nlast_elapse_s=-1\n\n"
	"name=sshd\nstate=running\ntype=notify\n\n"
	"name=gone.timer\nstate=stopped\ntype=timer\ntriggers=gone\nnext_elapse_s=-1\n"
	"last_elapse_s=1796450000\n\n"
	"name=x\\x1b[2J.timer\nstate=ready\ntype=timer\ntriggers=e\\x1b]0;t\nnext_elapse_s=-1\n"
	"last_elapse_s=1796450000\n\n"
	"name=prometheus-node-exporter-apt.timer\nstate=ready\ntype=timer\n"
	"triggers=prometheus-node-exporter-apt\nnext_elapse_s=-1\nlast_elapse_s=-1\n\n";

static void list_timers_table(void)
{
	FILE *f;

	setenv("TZ", "UTC", 1);
	load(timer_reply);
	f = capture();
	show_timers(f, &set, 1796540400); /* Sun 2026-12-06 07:00 UTC, 1 h before apt-daily */
	fclose(f);
	CHECK(strstr(out, "Sun 2026-12-06 08:00:00 UTC  1h 0min") != NULL);
	CHECK(strstr(out, "apt-daily.timer              apt-daily\n") != NULL);
	CHECK(strstr(out, "gone.timer") == NULL && strstr(out, "sshd") == NULL);
	CHECK(strstr(out, "x\\x1b[2J.timer") != NULL && strchr(out, 0x1b) == NULL);
	CHECK(strstr(out, "n/a") != NULL);
	/* a name longer than its column keeps a space before the unit it starts */
	CHECK(strstr(out, "prometheus-node-exporter-apt.timer prometheus-node-exporter-apt\n") != NULL);
	CHECK(strstr(out, "3 timers listed.") != NULL);
	f = capture();
	show_timers_json(f, &set);
	fclose(f);
	CHECK(strstr(out, "\"next_elapse_s\":1796544000") != NULL);
	CHECK(strstr(out, "gone.timer") == NULL);
	f = capture();
	show_status(f, &set.rec[0], 0);
	fclose(f);
	CHECK(strstr(out, "     Trigger: Sun 2026-12-06 08:00:00 UTC (in ") != NULL);
	CHECK(strstr(out, "    Triggers: apt-daily\n") != NULL);
	CHECK(strstr(out, "        Last: n/a\n") != NULL);
}

static void malformed_records_are_refused(void)
{
	char err[256];
	records_free(&set);
	strcpy(text, "name=x\nstate=running\n");
	CHECK(records_load(text, strlen(text), &set, err, sizeof err) == -1);
	CHECK(set.count == 0 && set.rec == NULL);
	CHECK(strstr(err, "truncated") != NULL);
}

int main(void)
{
	RUN(list_is_a_table);
	RUN(empty_list);
	RUN(list_json_types_values);
	RUN(status_is_systemctl_like);
	RUN(status_of_a_failed_service);
	RUN(status_json_has_arrays_and_numbers);
	RUN(bad_integers_stay_strings_in_json);
	RUN(durations_and_sizes);
	RUN(terminal_output_is_escaped);
	RUN(malformed_records_are_refused);
	RUN(list_timers_table);
	records_free(&set);
	free(out);
	return harness_done();
}
