#include "cli.h"

#include <stdio.h>

void print_version(const char *prog)
{
	printf("%s (ember) %s\n", prog, EMBER_VERSION);
}
