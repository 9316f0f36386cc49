#ifndef EMBER_CLI_H
#define EMBER_CLI_H
/* "NAME (ember) VERSION" on stdout, as every program's --version prints it. */
void print_version(const char *prog);
#endif
