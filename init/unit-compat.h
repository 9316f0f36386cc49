#ifndef EMBER_UNIT_COMPAT_H
#define EMBER_UNIT_COMPAT_H
/* The keys systemd documents that ember does NOT implement, each with what ember does
 * instead (docs/services.md, "Compatibility", is generated from this table and the
 * parser's own key table by scripts/compat-table.sh).
 *
 * The parser (init/service.c) asks this table about every key it does not know:
 *   HARMLESS  ignored silently (`emberctl verify --verbose` shows the note): the unit
 *             runs as systemd would run it, or the key only tunes something ember does
 *             not have (accounting, systemd-oomd, the journal's fields).
 *   CHANGES   ignored with the warning "Key: not supported by ember: <note>": the unit
 *             runs, but differently; the note says how.
 *   REFUSED   the unit fails to load ("Key: refused by ember: <note>"): running it
 *             without the key would do something the unit's author ruled out.
 * An empty value, or a value equal to the row's `harmless` one (the default, e.g.
 * PrivateTmp=no), asks for nothing ember lacks: it is always HARMLESS.
 *
 * A key ember implements is in the parser's table and must NOT be here: when you
 * implement a key, delete its row (tests/unit/test-unit-compat.c fails on a key that is
 * in both tables).
 */
#include <stdbool.h>
#include <stddef.h>

enum unit_compat_class { COMPAT_HARMLESS, COMPAT_CHANGES, COMPAT_REFUSED };

/* The sections a row applies to, as a bit mask. */
#define COMPAT_UNIT 0x1u
#define COMPAT_SERVICE 0x2u
#define COMPAT_SOCKET 0x4u
#define COMPAT_INSTALL 0x8u
/* sections of the other unit kinds: the docs' table names them (no row uses them) */
#define COMPAT_MOUNT 0x10u
#define COMPAT_TIMER 0x20u
#define COMPAT_SWAP 0x40u
#define COMPAT_SLICE 0x80u
#define COMPAT_PATH 0x100u
#define COMPAT_AUTOMOUNT 0x200u
/* systemd.exec(5), systemd.kill(5) and systemd.resource-control(5) keys */
#define COMPAT_EXEC (COMPAT_SERVICE | COMPAT_SOCKET)

struct unit_compat {
	const char *key;
	unsigned sections;
	enum unit_compat_class class;
	const char *harmless; /* NULL, or the value that asks for ember's behaviour */
	const char *note;     /* what ember does instead, or why ignoring is harmless */
};

extern const struct unit_compat unit_compat_table[];
extern const size_t unit_compat_count;

/* "Unit" -> COMPAT_UNIT ...; 0 for a section the table does not know. */
unsigned unit_compat_section(const char *section);
const char *unit_compat_section_name(unsigned section_bit);
const char *unit_compat_class_name(enum unit_compat_class class);

/* The row for key in section ("Unit", "Service", ...), or NULL. */
const struct unit_compat *unit_compat_find(const char *section, const char *key);

/* The class of one assignment (a value may ask only for the default; see above). */
enum unit_compat_class unit_compat_classify(const struct unit_compat *row, const char *value);

/* What a specifier ember cannot expand usually stands for, so a diagnostic can name
 * the replacement ("%t: the runtime directory, /run for system units"); NULL when
 * unknown. */
const char *unit_compat_specifier_hint(char specifier);
#endif
