/* Starting a process inside a cgroup: atomically with clone3(CLONE_INTO_CGROUP) (5.7+),
 * else by the child moving itself before it execs. */
#include "cg-service.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io.h"

#ifndef SYS_clone3
#define SYS_clone3 435 /* the same number on every architecture */
#endif
#define CG_CLONE_INTO_CGROUP 0x200000000ULL

/* struct clone_args up to `cgroup` (CLONE_ARGS_SIZE_VER2, 88 bytes); defined here so
 * older kernel headers build it too. Kernels before 5.7 answer E2BIG to this size. */
struct cg_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
	uint64_t set_tid;
	uint64_t set_tid_size;
	uint64_t cgroup;
};

pid_t cg_clone_into(int fd)
{
	struct cg_clone_args args;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	memset(&args, 0, sizeof args);
	args.flags = CG_CLONE_INTO_CGROUP;
	args.exit_signal = SIGCHLD;
	args.cgroup = (uint64_t)fd;
	/* No CLONE_VM and no stack: the child gets a copy of the address space and
	 * returns from here like fork()'s child. */
	return (pid_t)syscall(SYS_clone3, &args, sizeof args);
}

bool cg_clone_unsupported(int err)
{
	/* EPERM: seccomp policies that predate clone3 refuse it that way; should it be a
	 * real permission problem, cg_attach_self() in the fallback reports it. */
	return err == ENOSYS || err == E2BIG || err == EINVAL || err == EPERM;
}

int cg_attach_self(int fd)
{
	return io_write_file_at(fd, "cgroup.procs", "0");
}
