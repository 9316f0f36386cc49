/* mem-fill MIB FILE: fill MIB MiB of private memory with bytes zram cannot store as one
 * repeated word, create FILE, then sleep until killed. Run in a cgroup with a small
 * memory.max, its pages go to swap: a swapoff then has them all to read back
 * (test-swap.sh: PID 1 answers while a swap unit's swapoff runs). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t size, i;
	unsigned *p, x = 2463534242u;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: mem-fill MIB FILE\n");
		return 100;
	}
	size = strtoul(argv[1], NULL, 10) << 20;
	p = malloc(size);
	if (!p) {
		perror("mem-fill: malloc");
		return 111;
	}
	for (i = 0; i < size / sizeof *p; i++) { /* xorshift32: compresses poorly */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = x;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror("mem-fill: open");
		return 111;
	}
	close(fd);
	for (;;)
		pause();
}
