/* exec-argv: execve PATH with an argument vector a shell cannot build (hostile tests of
 * empower, the PwnKit class).
 *   exec-argv PATH --none            argv = { NULL } (argc 0)
 *   exec-argv PATH --empty [ARG...]  argv = { "", ARG... }
 *   exec-argv PATH --argv0 S [ARG...] argv = { S, ARG... }
 * The environment is passed as it is. Exits 127 when execve fails. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *none[] = { NULL };
	char *vec[256];
	int n = 0, first;
	if (argc < 3) {
		fprintf(stderr, "usage: exec-argv PATH --none|--empty|--argv0 S [ARG...]\n");
		return 100;
	}
	if (strcmp(argv[2], "--none") == 0) {
		execve(argv[1], none, environ);
		perror("execve");
		return 127;
	}
	if (strcmp(argv[2], "--empty") == 0) {
		vec[n++] = "";
		first = 3;
	} else if (strcmp(argv[2], "--argv0") == 0 && argc > 3) {
		vec[n++] = argv[3];
		first = 4;
	} else {
		return 100;
	}
	for (int i = first; i < argc && n < 255; i++)
		vec[n++] = argv[i];
	vec[n] = NULL;
	execve(argv[1], vec, environ);
	perror("execve");
	return 127;
}
