// sources: init/unit-compat.c init/service.c init/unit-runtime-keys.c init/condition.c init/exec-line.c init/socket-unit.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* The compatibility table (init/unit-compat.c) and the parser's use of it: no key is both
 * implemented and in the table, every row says why, and each class does what its name
 * promises (harmless: silent, changes: a warning naming what changes, refused: the unit
 * fails). */
#include "harness.h"
#include "../../init/socket-unit.h"
#include "../../init/service.h"
#include "../../init/unit-compat.h"

#include <stdio.h>
#include <string.h>

static struct service svc;
static int warnings, errors, notes;
static char last_message[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx;
	if (severity == SERVICE_WARNING)
		warnings++;
	else if (severity == SERVICE_ERROR)
		errors++;
	else
		notes++;
	snprintf(last_message, sizeof last_message, "%s:%u: %s", file, line, message);
}

static int parse_with(const char *text, bool with_notes)
{
	struct service_diag diag = { record, NULL, with_notes };

	warnings = errors = notes = 0;
	last_message[0] = '\0';
	service_init(&svc, "demo", "/etc/ember/services/demo.service");
	return service_parse(&svc, text, strlen(text), &diag);
}

static void no_key_is_implemented_and_in_the_table(void)
{
	const char *section, *key;
	size_t n = 0;

	for (size_t i = 0; (key = service_key_at(i, &section)); i++, n++) {
		const struct unit_compat *row = unit_compat_find(section, key);
		if (row)
			printf("      [%s] %s is implemented: delete its row in init/unit-compat.c\n",
			       section, key);
		CHECK(row == NULL);
	}
	CHECK(n > 100); /* the parser's keys, Limit*= and every Condition*=/Assert*= */
	/* sockets-accept: the [Socket] keys of init/socket-unit.c's own table */
	for (const char *const *k = socket_unit_keys(); *k; k++) {
		if (unit_compat_find("Socket", *k))
			printf("      [Socket] %s is implemented: delete its row in init/unit-compat.c\n",
			       *k);
		CHECK(unit_compat_find("Socket", *k) == NULL);
	}
}

static void every_row_is_well_formed(void)
{
	for (size_t i = 0; i < unit_compat_count; i++) {
		const struct unit_compat *r = &unit_compat_table[i];
		CHECK(r->key && r->key[0] && r->note && strlen(r->note) > 10);
		CHECK(r->sections != 0);
		CHECK(r->class == COMPAT_HARMLESS || r->class == COMPAT_CHANGES ||
		      r->class == COMPAT_REFUSED);
		/* the note completes "Key: not supported by ember: ..." */
		CHECK(r->note[strlen(r->note) - 1] != '.');
		for (size_t j = i + 1; j < unit_compat_count; j++) {
			bool dup = strcmp(r->key, unit_compat_table[j].key) == 0 &&
				   (r->sections & unit_compat_table[j].sections);
			if (dup)
				printf("      %s is listed twice\n", r->key);
			CHECK(!dup);
		}
	}
	/* Every key systemd documents is either implemented or in the table: together they
	 * are the ~300 keys of the man pages (rows leave the table as keys get implemented). */
	size_t implemented = 0;
	const char *section;

	while (service_key_at(implemented, &section))
		implemented++;
	CHECK(unit_compat_count + implemented > 250);
}

static void documented_keys_are_classified(void)
{
	/* a sample from each man page */
	static const struct { const char *section, *key; enum unit_compat_class class; } want[] = {
		{ "Unit", "Documentation", COMPAT_HARMLESS },
		{ "Unit", "Upholds", COMPAT_CHANGES },
		{ "Service", "RestrictFileSystems", COMPAT_CHANGES },
		{ "Service", "TimeoutAbortSec", COMPAT_CHANGES },
		{ "Service", "RootImage", COMPAT_REFUSED },
		{ "Service", "RootDirectory", COMPAT_REFUSED },
		{ "Service", "CPUAccounting", COMPAT_HARMLESS },
		{ "Socket", "ListenMessageQueue", COMPAT_REFUSED },
		{ "Socket", "BindToDevice", COMPAT_CHANGES },
		{ "Socket", "RestrictFileSystems", COMPAT_CHANGES },
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct unit_compat *row = unit_compat_find(want[i].section, want[i].key);
		CHECK(row && row->class == want[i].class);
	}
	CHECK(unit_compat_find("Unit", "SystemCallFilter") == NULL); /* wrong section */
	CHECK(unit_compat_find("Bogus", "SystemCallFilter") == NULL);
	CHECK(unit_compat_find("Service", "NoSuchKey") == NULL);
}

static void default_values_are_harmless(void)
{
	const struct unit_compat *row = unit_compat_find("Socket", "DynamicUser");

	CHECK(row != NULL);
	CHECK(unit_compat_classify(row, "yes") == COMPAT_CHANGES);
	CHECK(unit_compat_classify(row, "no") == COMPAT_HARMLESS);
	CHECK(unit_compat_classify(row, "false") == COMPAT_HARMLESS);
	CHECK(unit_compat_classify(row, "") == COMPAT_HARMLESS);
	CHECK(unit_compat_classify(row, "off") == COMPAT_HARMLESS);
	row = unit_compat_find("Socket", "PAMName");
	CHECK(row != NULL);
	CHECK(unit_compat_classify(row, "login") == COMPAT_CHANGES);
	CHECK(unit_compat_find("Service", "IgnoreSIGPIPE") == NULL); /* implemented */
	CHECK(unit_compat_find("Service", "PrivateIPC") == NULL);
	CHECK(unit_compat_find("Service", "RuntimeMaxSec") == NULL);
}

static void parser_follows_the_classes(void)
{
	/* harmless: silent, a note only when asked for */
	CHECK(parse_with("[Unit]\nDocumentation=man:demo(8)\n[Service]\nExecStart=/bin/a\n"
			 "CPUAccounting=yes\n", false) == 0);
	CHECK(warnings == 0 && errors == 0 && notes == 0);
	CHECK(parse_with("[Unit]\nDocumentation=man:demo(8)\n[Service]\nExecStart=/bin/a\n", true) == 0);
	CHECK(warnings == 0 && errors == 0 && notes == 1);
	CHECK_STR(last_message, "/etc/ember/services/demo.service:2: Documentation: ignored, "
				"harmless: documentation links only");
	/* changes: a warning that says what changes; the unit still loads */
	CHECK(parse_with("[Service]\nExecStart=/bin/a\nRestrictFileSystems=ext4\n", false) == 0);
	CHECK(warnings == 1 && errors == 0 && !svc.failed);
	CHECK_STR(last_message, "/etc/ember/services/demo.service:3: RestrictFileSystems: not "
				"supported by ember: every file system type is allowed");
	CHECK(parse_with("[Service]\nExecStart=/bin/a\nRestrictFileSystems=\n", false) == 0);
	CHECK(warnings == 0);
	/* refused: the unit fails, and says why */
	CHECK(parse_with("[Service]\nExecStart=/bin/a\nRootImage=/srv/a.raw\n", false) < 0);
	CHECK(errors == 1 && svc.failed);
	CHECK(strstr(last_message, ":3: RootImage: refused by ember: ") != NULL);
	CHECK(strstr(svc.error, "RootImage") != NULL);
	/* a key systemd does not document: a warning, as systemd gives */
	CHECK(parse_with("[Service]\nExecStart=/bin/a\nFrobnicate=1\n", false) == 0);
	CHECK(warnings == 1);
	CHECK(strstr(last_message, "Frobnicate: unknown key in [Service], ignored") != NULL);
	/* the row's section matters: a [Service] key in [Unit] is unknown there */
	CHECK(parse_with("[Unit]\nProtectSystem=strict\n[Service]\nExecStart=/bin/a\n", false) == 0);
	CHECK(strstr(last_message, "ProtectSystem: unknown key in [Unit]") != NULL);
}

static void unsupported_specifier_names_its_replacement(void)
{
	CHECK(parse_with("[Service]\nExecStart=/bin/a %d/token\n", false) < 0);
	CHECK(strstr(last_message, "%d") != NULL);
	CHECK(strstr(last_message, "credentials") != NULL);
	CHECK(parse_with("[Service]\nExecStart=/bin/a %Z\n", false) < 0);
	CHECK(strstr(last_message, "unknown specifier") != NULL);
}

int main(void)
{
	RUN(no_key_is_implemented_and_in_the_table);
	RUN(every_row_is_well_formed);
	RUN(documented_keys_are_classified);
	RUN(default_values_are_harmless);
	RUN(parser_follows_the_classes);
	RUN(unsupported_specifier_names_its_replacement);
	return harness_done();
}
