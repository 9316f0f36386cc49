#ifndef EMBER_ESCAPE_H
#define EMBER_ESCAPE_H
/* Untrusted text (paths, command names, arguments, user input) made safe for one log
 * line or a terminal: what could end a line, move the cursor, start an escape sequence
 * or hide as something else is written as C-style \xNN, so nobody can forge a log line
 * or send a terminal control sequence through a message. */
#include <stddef.h>

/* Copy s to out (size bytes, always NUL-terminated when size > 0). Kept as is:
 * printable ASCII except '\\', '\'' and '"', and well-formed UTF-8 of U+00A0 and up
 * other than the line/paragraph separators and the bidirectional controls. Every other
 * byte (controls, DEL, C1 controls, invalid or overlong UTF-8, backslash, quotes)
 * becomes \xNN. When it does not fit, the text ends in "...". Returns out. */
char *escape_text(const char *s, char *out, size_t size);
#endif
