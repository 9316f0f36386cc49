#ifndef EMBER_EXITCODE_H
#define EMBER_EXITCODE_H
/* Exit codes shared by every ember program (s6 convention). Codes 1..99 are the
 * program's own and documented in its man page. */
enum {
	EXIT_OK = 0,
	EXIT_USAGE = 100,  /* bad command line */
	EXIT_SYSTEM = 111, /* a system call or resource failed */
};
#endif
