/* tiocsti: push TEXT (and a newline) into this process's controlling terminal with
 * TIOCSTI, as a hostile job on the caller's terminal would (empower's threat model).
 * Prints "injected" or "refused: ERRNO TEXT"; exits 0 when the kernel took it, 1 when it
 * refused, 2 without a terminal. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: tiocsti TEXT\n");
		return 100;
	}
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY);
	if (fd < 0) {
		printf("no terminal: %s\n", strerror(errno));
		return 2;
	}
	size_t len = strlen(argv[1]);
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? argv[1][i] : '\n';
		if (ioctl(fd, TIOCSTI, &c) < 0) {
			printf("refused: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("injected\n");
	return 0;
}
