#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "exitcode.h"
#include "log.h"

void print_version(const char *prog)
{
	printf("%s (ember) %s\n", prog, EMBER_VERSION);
}

void cli_help_version(const char *arg, const char *prog, void (*usage)(void))
{
	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
		usage();
		exit(EXIT_OK);
	}
	if (strcmp(arg, "--version") == 0) {
		print_version(prog);
		exit(EXIT_OK);
	}
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

int cli_option_error(char *err, size_t size, const char *opt, const char *value,
		     const char *why)
{
	char a[128], b[256];

	escape_text(opt, a, sizeof a);
	if (value)
		snprintf(err, size, "%s: %s: %s", a, escape_text(value, b, sizeof b), why);
	else
		snprintf(err, size, "%s: %s", a, why);
	return -1;
}
