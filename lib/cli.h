#ifndef EMBER_CLI_H
#define EMBER_CLI_H
/* "NAME (ember) VERSION" on stdout, as every program's --version prints it. */
void print_version(const char *prog);

/* A long option's value, given as "--name value" or "--name=value": the value, or NULL
 * when argv[*i] is not --name. Advances *i past a separate value; a missing one ends
 * the program with a usage error. */
const char *cli_option_value(int argc, char **argv, int *i, const char *name);
#endif
