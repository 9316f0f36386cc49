#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"

void print_version(const char *prog)
{
	printf("%s (ember) %s\n", prog, EMBER_VERSION);
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len) != 0)
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		die(EXIT_USAGE, "%s needs a value (see --help)", name);
	return argv[++*i];
}
