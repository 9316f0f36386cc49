/* fork-many N: try to fork N children that sleep, report how many forks the kernel
 * refused (a TasksMax test), then sleep until killed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, refused = 0;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0)
			refused++;
	}
	printf("fork-many: %d of %d forks refused\n", refused, n);
	fflush(stdout);
	for (;;)
		pause();
}
