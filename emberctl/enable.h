#ifndef EMBERCTL_ENABLE_H
#define EMBERCTL_ENABLE_H
/* emberctl enable | disable | mask | unmask | is-enabled: offline file operations on the
 * unit directories, as systemctl does them (see man/emberctl.8.scd). */
#include <stdbool.h>

/* Is word one of the verbs above? */
bool enable_is_verb(const char *word);
/* Run the verb; argv as main's. Returns the exit code. */
int enable_main(int argc, char **argv);
#endif
