#ifndef EMBER_CLI_H
#define EMBER_CLI_H
#include <stddef.h>

/* "NAME (ember) VERSION" on stdout, as every program's --version prints it. */
void print_version(const char *prog);

/* -h/--help (usage() on stdout) and --version end the program with success; any other
 * argument returns. */
void cli_help_version(const char *arg, const char *prog, void (*usage)(void));

/* A long option's value, given as "--name value" or "--name=value": the value, or NULL
 * when argv[*i] is not --name. Advances *i past a separate value; a missing one ends
 * the program with a usage error. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name);

/* "OPT: VALUE: WHY" (or "OPT: WHY" when value is NULL) into err, OPT and VALUE escaped
 * (they come from the command line); returns -1, for "return cli_option_error(...)". */
int cli_option_error(char *err, size_t size, const char *opt, const char *value,
		     const char *why);
#endif
