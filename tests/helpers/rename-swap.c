/* rename-swap: swap the names A and B (renameat2 RENAME_EXCHANGE) over and over for
 * SECONDS, as a hostile service user racing root's path lookups in a directory it owns
 * would (a directory and a symlink trading places). Exits 0 after SECONDS, 1 when the
 * first swap fails, 100 on bad usage. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: rename-swap A B SECONDS\n");
		return 100;
	}
	time_t end = time(NULL) + atoi(argv[3]);
	for (unsigned long n = 0; time(NULL) < end; n++)
		if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) < 0 &&
		    n == 0) {
			printf("rename-swap: %s\n", strerror(errno));
			return 1;
		}
	return 0;
}
