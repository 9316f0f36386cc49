/* Loading the records of a reply, and the formatting helpers the views share. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"

/* Keys whose values are integers in every record kind (docs/control-protocol.md). */
static const char *const int_keys[] = {
	"main_pid", "restarts", "since_us", "memory_current", "memory_peak",
	"hugetlb_bytes", "pids_current", "cpu_usage_usec", "exit_status", "exit_signal",
	"started_us", "ready_us", "failed_us", "stopped_us", "userspace_start_us",
	"control_pid", "t_ms", "eol", "cursor", /* emberctl verbs (issue 17) */
	"next_elapse_s", "last_elapse_s", /* timer units */
	"dynamic_uid", /* DynamicUser= */
};
/* Keys whose values are comma-separated lists of service names. */
static const char *const list_keys[] = { "after", "requires" };

static bool in_table(const char *const *table, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(table[i], key) == 0)
			return true;
	return false;
}

int records_load(char *text, size_t len, struct record_set *set, char *err, size_t errlen)
{
	size_t pos = 0, cap = 0;
	struct ctl_record rec;
	int r;

	set->count = 0;
	set->rec = NULL;
	while ((r = ctl_record_read(text, len, &pos, &rec, err, errlen)) == 1) {
		if (set->count == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct ctl_record *n = realloc(set->rec, ncap * sizeof *n);
			if (!n) {
				snprintf(err, errlen, "out of memory for %zu records", ncap);
				records_free(set);
				return -1;
			}
			set->rec = n;
			cap = ncap;
		}
		set->rec[set->count++] = rec;
	}
	if (r < 0) {
		records_free(set);
		return -1;
	}
	return 0;
}

void records_free(struct record_set *set)
{
	free(set->rec);
	set->rec = NULL;
	set->count = 0;
}

const char *rec_str(const struct ctl_record *rec, const char *key)
{
	const char *v = ctl_record_get(rec, key);
	return v ? v : "";
}

long long rec_int(const struct ctl_record *rec, const char *key)
{
	long long v;
	return ctl_record_get_int(rec, key, &v) == 0 ? v : -1;
}

void format_duration(char *buf, size_t size, long long us)
{
	if (us < 0)
		snprintf(buf, size, "-");
	else if (us < 1000)
		snprintf(buf, size, "%lldus", us);
	else if (us < 1000000)
		snprintf(buf, size, "%lldms", us / 1000);
	else if (us < 60000000)
		snprintf(buf, size, "%lld.%03llds", us / 1000000, us / 1000 % 1000);
	else if (us < 3600000000LL)
		snprintf(buf, size, "%lldmin %llds", us / 60000000, us / 1000000 % 60);
	else
		snprintf(buf, size, "%lldh %lldmin", us / 3600000000LL, us / 60000000 % 60);
}

void format_bytes(char *buf, size_t size, long long bytes)
{
	static const char units[] = "KMGTPE";
	double v = (double)bytes;
	int u = -1;

	if (bytes < 0) {
		snprintf(buf, size, "-");
		return;
	}
	if (bytes < 1024) {
		snprintf(buf, size, "%lldB", bytes);
		return;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f%c", v, units[u]);
}

static void print_safe_byte(FILE *f, unsigned char c)
{
	if (c == '\\')
		fputs("\\\\", f);
	else if (c == '\n')
		fputs("\\n", f);
	else if (c == '\t')
		fputs("\\t", f);
	else if (c < 0x20 || c == 0x7f)
		fprintf(f, "\\x%02x", c);
	else
		fputc(c, f);
}

void print_safe(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		print_safe_byte(f, *p);
}

void print_safe_n(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		print_safe_byte(f, (unsigned char)s[i]);
}

size_t safe_width(const char *s)
{
	size_t w = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == '\n' || *p == '\t')
			w += 2;
		else if (*p < 0x20 || *p == 0x7f)
			w += 4;
		else if ((*p & 0xc0) != 0x80) /* UTF-8 continuation bytes take no column */
			w++;
	}
	return w;
}

static void json_name_list(FILE *f, const char *list)
{
	const char *p = list;

	fputc('[', f);
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char *name = strndup(p, n);
		if (p != list)
			fputc(',', f);
		json_string(f, name ? name : "");
		free(name);
		p += n;
		if (*p == ',')
			p++;
	}
	fputc(']', f);
}

void record_json(FILE *f, const struct ctl_record *rec)
{
	fputc('{', f);
	for (size_t i = 0; i < rec->count; i++) {
		const char *key = rec->field[i].key;
		long long v;
		if (i > 0)
			fputc(',', f);
		if (in_table(int_keys, sizeof int_keys / sizeof *int_keys, key) &&
		    ctl_record_get_int(rec, key, &v) == 0) {
			json_kv_int(f, key, v);
		} else if (in_table(list_keys, sizeof list_keys / sizeof *list_keys, key)) {
			json_string(f, key);
			fputc(':', f);
			json_name_list(f, rec->field[i].value);
		} else {
			json_kv_string(f, key, rec->field[i].value);
		}
	}
	fputc('}', f);
}
