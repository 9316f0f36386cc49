/* crash-pid1: make a process really crash, the way a bug would, without any test hook in
 * it: attach with ptrace, point its instruction pointer at address 0 and let it go. The
 * kernel then raises SIGSEGV with si_code SEGV_MAPERR (> 0), a genuine fault, which
 * no kill(2) can fake. Needs CAP_SYS_PTRACE (root); x86-64 only.
 *
 *   crash-pid1 [PID]      (default 1)
 * Exit: 0 the fault was injected, 77 not supported here, 111 ptrace failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#if defined(__x86_64__)
#include <sys/user.h>
#endif

int main(int argc, char **argv)
{
	pid_t pid = argc > 1 ? (pid_t)atoi(argv[1]) : 1;
#if defined(__x86_64__)
	struct user_regs_struct regs;
	int status;

	/* SEIZE + INTERRUPT: no SIGSTOP, which an init may never see. */
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) < 0 || ptrace(PTRACE_INTERRUPT, pid, 0, 0) < 0) {
		fprintf(stderr, "crash-pid1: attach %d: %s\n", (int)pid, strerror(errno));
		return 111;
	}
	if (waitpid(pid, &status, __WALL) < 0 || ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0) {
		fprintf(stderr, "crash-pid1: %d: %s\n", (int)pid, strerror(errno));
		return 111;
	}
	/* Stopped inside a system call (poll): no restart, just jump to 0. */
	regs.orig_rax = (unsigned long long)-1;
	regs.rip = 0;
	if (ptrace(PTRACE_SETREGS, pid, 0, &regs) < 0 || ptrace(PTRACE_DETACH, pid, 0, 0) < 0) {
		fprintf(stderr, "crash-pid1: %d: %s\n", (int)pid, strerror(errno));
		return 111;
	}
	return 0;
#else
	(void)pid;
	fprintf(stderr, "crash-pid1: only on x86-64\n");
	return 77;
#endif
}
