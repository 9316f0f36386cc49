/* seccomp-probe ACTION...: try each call the seccomp keys restrict and print one line
 * per ACTION, "ACTION=ok" or "ACTION=errno:N", for tests/integration/test-seccomp-*.sh.
 * Each action is harmless where it succeeds (its own UTS namespace for sethostname, a
 * settimeofday() that sets nothing, files in DIR). A killed call ends the process with
 * SIGSYS, which the test sees in the exit status. */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif

static const char *dir = "/tmp";

static int mprotect_exec(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? -1 : mprotect(p, 4096, PROT_READ | PROT_EXEC);
}

static int mmap_wx(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? -1 : 0;
}

static int mmap_rw(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? -1 : 0;
}

static int shmat_exec(void)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600), e;
	void *p;

	if (id < 0)
		return -1;
	p = shmat(id, NULL, SHM_EXEC);
	e = errno;
	shmctl(id, IPC_RMID, NULL);
	errno = e;
	return p == (void *)-1 ? -1 : 0;
}

static int sched_policy(int policy)
{
	struct sched_param sp = { .sched_priority = policy == SCHED_FIFO ? 1 : 0 };
	return (int)syscall(SYS_sched_setscheduler, 0, policy, &sp);
}

static int sched_setattr_other(void)
{
	unsigned attr[14] = { 48 }; /* size, policy 0 (SCHED_OTHER), the rest 0 */
	return (int)syscall(SYS_sched_setattr, 0, attr, 0);
}

static int make_file(const char *name, mode_t mode, bool via_chmod)
{
	char path[512];
	int fd;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, via_chmod ? 0644 : mode);
	if (fd < 0)
		return -1;
	close(fd);
	if (via_chmod && chmod(path, mode) < 0)
		return -1;
	return 0;
}

static int mkdir_sgid(void)
{
	char path[512];

	snprintf(path, sizeof path, "%s/sgid-dir", dir);
	rmdir(path);
	return mkdir(path, 02755);
}

static int sock(int family)
{
	int fd = socket(family, SOCK_DGRAM, 0);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

static int sethostname_own_ns(void)
{
	return sethostname("seccomp-probe", 13);
}

/* ok when the file gives data; errno:0 when it reads empty (hidden behind a file) */
static int read_some(const char *path)
{
	char buf[8192];
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n > 0)
		return 0;
	errno = n < 0 ? errno : 0;
	return -1;
}

/* getpid through another ABI: i386's int 0x80 (20) or x32 (39 | 0x40000000). ENOSYS
 * where the kernel lacks that ABI. */
static int foreign_getpid(bool x32)
{
#ifdef __x86_64__
	long r;
	if (x32)
		__asm__ volatile("syscall" : "=a"(r) : "a"(39L | 0x40000000L) : "rcx", "r11", "memory");
	else
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return 0;
#else
	(void)x32;
	errno = ENOSYS;
	return -1;
#endif
}

/* ok when no_new_privs is set */
static int prctl_nnp(void)
{
	int v = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	if (v == 1)
		return 0;
	errno = v < 0 ? errno : 0;
	return -1;
}

static int run(const char *a)
{
	struct utsname u;

	if (!strcmp(a, "mprotect-exec")) return mprotect_exec();
	if (!strcmp(a, "mmap-wx")) return mmap_wx();
	if (!strcmp(a, "mmap-rw")) return mmap_rw();
	if (!strcmp(a, "shmat-exec")) return shmat_exec();
	if (!strcmp(a, "sched-fifo")) return sched_policy(SCHED_FIFO);
	if (!strcmp(a, "sched-batch")) return sched_policy(SCHED_BATCH);
	if (!strcmp(a, "sched-other")) return sched_policy(SCHED_OTHER);
	if (!strcmp(a, "sched-setattr")) return sched_setattr_other();
	if (!strcmp(a, "personality-linux32")) return personality(PER_LINUX32) < 0 ? -1 : 0;
	if (!strcmp(a, "personality-query")) return personality(0xffffffff) < 0 ? -1 : 0;
	if (!strcmp(a, "chmod-suid")) return make_file("suid-chmod", 04755, true);
	if (!strcmp(a, "chmod-plain")) return make_file("plain-chmod", 0755, true);
	if (!strcmp(a, "create-sgid")) return make_file("sgid-open", 02755, false);
	if (!strcmp(a, "mkdir-sgid")) return mkdir_sgid();
	if (!strcmp(a, "socket-inet")) return sock(AF_INET);
	if (!strcmp(a, "socket-inet6")) return sock(AF_INET6);
	if (!strcmp(a, "socket-unix")) return sock(AF_UNIX);
	if (!strcmp(a, "socket-netlink")) return sock(AF_NETLINK);
	if (!strcmp(a, "unshare-net")) return unshare(CLONE_NEWNET);
	if (!strcmp(a, "unshare-uts")) return unshare(CLONE_NEWUTS);
	if (!strcmp(a, "setns-any")) return setns(open("/proc/self/ns/net", O_RDONLY), 0);
	if (!strcmp(a, "sethostname")) return sethostname_own_ns();
	if (!strcmp(a, "syslog")) return klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0) < 0 ? -1 : 0;
	if (!strcmp(a, "kmsg")) return read_some("/dev/kmsg");
	if (!strcmp(a, "proc-kmsg")) return read_some("/proc/kmsg");
	if (!strcmp(a, "settimeofday")) return (int)syscall(SYS_settimeofday, NULL, NULL);
	if (!strcmp(a, "uname")) return uname(&u);
	if (!strcmp(a, "getpid")) return getpid() > 0 ? 0 : -1;
	if (!strcmp(a, "nnp")) return prctl_nnp();
	if (!strcmp(a, "i386-getpid")) return foreign_getpid(false);
	if (!strcmp(a, "x32-getpid")) return foreign_getpid(true);
	fprintf(stderr, "seccomp-probe: unknown action %s\n", a);
	exit(100);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--dir=", 6)) {
			dir = argv[i] + 6;
			continue;
		}
		errno = 0;
		if (run(argv[i]) == 0)
			printf("%s=ok\n", argv[i]);
		else
			printf("%s=errno:%d\n", argv[i], errno);
		fflush(stdout);
	}
	return 0;
}
