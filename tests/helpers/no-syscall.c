/* no-syscall: run a command on which the given system calls fail with ENOSYS, as they do
 * on a kernel too old to have them (a seccomp filter, inherited across exec). Used to
 * test the fall-backs for kernels before mount_setattr(2). */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define MAX_CALLS 8

int main(int argc, char **argv)
{
	struct sock_filter f[2 + 2 * MAX_CALLS + 1];
	struct sock_fprog prog = { .filter = f };
	int n = 0, i = 1;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
					      offsetof(struct seccomp_data, nr));
	for (; i < argc && strcmp(argv[i], "--") != 0 && i <= MAX_CALLS; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)atoi(argv[i]), 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						      SECCOMP_RET_ERRNO | ENOSYS);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	if (i >= argc - 1 || strcmp(argv[i], "--") != 0) {
		fprintf(stderr, "usage: no-syscall NR... -- COMMAND [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0) {
		perror("no-syscall: seccomp");
		return 1;
	}
	execvp(argv[i + 1], argv + i + 1);
	perror("no-syscall: exec");
	return 127;
}
