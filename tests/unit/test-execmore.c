// sources: init/svc-bpf.c init/spawn-execmore.c init/service.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-runtime-keys.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* sandbox-more: the exec keys parse to what docs/services.md promises; the BPF programs
 * built for DeviceAllow=/DevicePolicy= and IPAddressAllow=/Deny= decide as
 * systemd.resource-control(5) says (run here by a small interpreter of the instructions
 * they use; as root the kernel's verifier must accept them too); UnsetEnvironment= and
 * PermissionsStartOnly= do what systemd does. */
#include "harness.h"
#include "../../init/service.h"
#include "../../init/svc-bpf.h"
#include "../../init/spawn-execmore.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct service svc;
static int warnings, errors;

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	(void)ctx; (void)file; (void)line;
	if (severity == SERVICE_WARNING)
		warnings++;
	else if (severity == SERVICE_ERROR) {
		errors++;
		printf("  # %s\n", message);
	}
}

static const struct service_diag diag = { record, NULL, false };

static int parse(const char *body)
{
	char text[2048];

	snprintf(text, sizeof text, "[Service]\nExecStart=/bin/a\n%s", body);
	warnings = errors = 0;
	service_init(&svc, "x", "/etc/ember/services/x.service");
	return service_parse(&svc, text, strlen(text), &diag);
}

#define M svc.execmore
#define S(ref) service_str(&svc, (ref))

/* ---- a tiny interpreter for the instructions svc-bpf.c emits ---- */

struct vm {
	const uint8_t *packet; /* from the network header */
	size_t packet_len;
	uint32_t protocol;     /* __sk_buff.protocol, network order */
	uint32_t dev_ctx[3];   /* bpf_cgroup_dev_ctx */
	bool is_skb;
};

static int64_t run(const struct svc_bpf_insn *p, int n, struct vm *vm)
{
	uint64_t r[11] = { 0 };
	uint8_t stack[512];

	r[10] = 512; /* stack offsets relative to the end of stack[] */
	for (int pc = 0; pc < n; pc++) {
		const struct svc_bpf_insn *i = &p[pc];
		int dst = i->regs & 0xf, src = i->regs >> 4;
		int64_t imm = i->imm;
		switch (i->code) {
		case 0x61: /* ldx w */
			if (src == 10) {
				uint32_t v;
				memcpy(&v, stack + r[10] + i->off, 4);
				r[dst] = v;
			} else if (vm->is_skb) {
				r[dst] = i->off == 16 ? vm->protocol : 0;
			} else {
				r[dst] = vm->dev_ctx[i->off / 4];
			}
			break;
		case 0xbf: r[dst] = r[src]; break;
		case 0xb7: r[dst] = (uint64_t)imm; break;
		case 0xbc: r[dst] = (uint32_t)r[src]; break;
		case 0x57: r[dst] &= (uint64_t)imm; break;
		case 0x54: r[dst] = (uint32_t)r[dst] & (uint32_t)imm; break;
		case 0x77: r[dst] >>= imm; break;
		case 0x07: r[dst] += (uint64_t)imm; break;
		case 0x15: if (r[dst] == (uint64_t)imm) pc += i->off; break;
		case 0x55: if (r[dst] != (uint64_t)imm) pc += i->off; break;
		case 0x56: if ((uint32_t)r[dst] != (uint32_t)imm) pc += i->off; break;
		case 0x85: /* skb_load_bytes(ctx, off, to, len) */
			if (r[2] + r[4] > vm->packet_len) {
				r[0] = (uint64_t)-14;
			} else {
				memcpy(stack + r[3], vm->packet + r[2], r[4]);
				r[0] = 0;
			}
			break;
		case 0x95: return (int64_t)r[0];
		default:
			printf("  # unknown opcode 0x%02x at %d\n", i->code, pc);
			return -99;
		}
	}
	return -98; /* fell off the end */
}

/* A packet from src to dst, through the ingress (1) or egress (0) program of svc. */
static int64_t ip_verdict(int ingress, const char *src, const char *dst)
{
	struct svc_bpf_insn prog[SVC_BPF_INSNS_MAX];
	uint8_t packet[40] = { 0 };
	struct vm vm = { .packet = packet, .is_skb = true };
	bool v6 = strchr(src, ':') != NULL;
	int n = svc_bpf_ip_program(&svc, ingress, prog, SVC_BPF_INSNS_MAX);

	if (n < 0)
		return -97;
	if (v6) {
		inet_pton(AF_INET6, src, packet + 8);
		inet_pton(AF_INET6, dst, packet + 24);
		vm.packet_len = 40;
		vm.protocol = htons(0x86dd);
	} else {
		inet_pton(AF_INET, src, packet + 12);
		inet_pton(AF_INET, dst, packet + 16);
		vm.packet_len = 20;
		vm.protocol = htons(0x0800);
	}
	return run(prog, n, &vm);
}

static int fake_stat(const char *path, char *type, uint32_t *major, uint32_t *minor)
{
	static const struct { const char *path; char type; uint32_t major, minor; } devs[] = {
		{ "/dev/null", 'c', 1, 3 }, { "/dev/zero", 'c', 1, 5 }, { "/dev/full", 'c', 1, 7 },
		{ "/dev/random", 'c', 1, 8 }, { "/dev/urandom", 'c', 1, 9 }, { "/dev/tty", 'c', 5, 0 },
		{ "/dev/ptmx", 'c', 5, 2 }, { "/dev/net/tun", 'c', 10, 200 },
	};
	for (size_t i = 0; i < sizeof devs / sizeof *devs; i++)
		if (strcmp(path, devs[i].path) == 0) {
			*type = devs[i].type;
			*major = devs[i].major;
			*minor = devs[i].minor;
			return 0;
		}
	return -1;
}

static const char proc_devices[] =
	"Character devices:\n  1 mem\n  4 tty\n  5 /dev/tty\n 10 misc\n136 pts\n226 drm\n"
	"254 rtc\n\nBlock devices:\n  7 loop\n  8 sd\n259 blkext\n";

/* access: 'r', 'w', 'm' letters; type 'c' or 'b' */
static int64_t dev_verdict(char type, uint32_t major, uint32_t minor, const char *access)
{
	struct svc_bpf_device_rule rules[SVC_BPF_DEVICE_RULES_MAX];
	struct svc_bpf_insn prog[SVC_BPF_INSNS_MAX];
	struct vm vm = { .is_skb = false };
	uint32_t acc = 0;
	int n = svc_bpf_device_rules(&svc, fake_stat, proc_devices, rules, SVC_BPF_DEVICE_RULES_MAX);

	if (n < 0)
		return 1; /* no program: everything allowed */
	n = svc_bpf_device_program(rules, (size_t)n, prog, SVC_BPF_INSNS_MAX);
	for (; *access; access++)
		acc |= *access == 'm' ? 1 : *access == 'r' ? 2 : 4;
	vm.dev_ctx[0] = acc << 16 | (type == 'b' ? 1 : 2);
	vm.dev_ctx[1] = major;
	vm.dev_ctx[2] = minor;
	return run(prog, n, &vm);
}

/* ---- parsing ---- */

static void defaults_are_off(void)
{
	CHECK(parse("") == 0);
	CHECK(M.protect_proc == PROTECT_PROC_DEFAULT && !M.proc_subset_pid && !M.private_users);
	CHECK(M.io_class == 0 && M.io_priority == 8 && M.cpu_policy == 0 && !M.cpu_affinity);
	CHECK(!service_bpf_wanted(&svc) && !service_sandboxed(&svc));
}

static void proc_and_namespace_keys(void)
{
	CHECK(parse("ProtectProc=invisible\nProcSubset=pid\n") == 0 && warnings == 0);
	CHECK(M.protect_proc == PROTECT_PROC_INVISIBLE && M.proc_subset_pid);
	CHECK(service_sandboxed(&svc));
	CHECK(parse("PrivateMounts=yes\n") == 0 && M.private_mounts && service_sandboxed(&svc));
	/* MountFlags=: slave and private ask for a mount namespace, shared does not */
	CHECK(parse("MountFlags=private\n") == 0 && M.mount_propagation == MOUNT_PROPAGATION_PRIVATE &&
	      service_sandboxed(&svc));
	CHECK(parse("MountFlags=slave\n") == 0 && M.mount_propagation == MOUNT_PROPAGATION_SLAVE &&
	      service_sandboxed(&svc));
	CHECK(parse("MountFlags=shared\n") == 0 && M.mount_propagation == MOUNT_PROPAGATION_SHARED &&
	      !service_sandboxed(&svc) && warnings == 0);
	CHECK(parse("MountFlags=rslave\n") < 0);
	CHECK(parse("PrivateUsers=yes\n") == 0 && M.private_users && service_sandboxed(&svc));
	CHECK(parse("PrivateUsers=no\n") == 0 && !M.private_users && !service_sandboxed(&svc));
	CHECK(parse("ProtectProc=hidden\n") < 0 && errors == 1);
	CHECK(parse("ProcSubset=some\n") < 0);
	/* systemd 257's self and identity, 258's full; managed needs systemd-nsresourced */
	CHECK(parse("PrivateUsers=self\n") == 0 && M.private_users == PRIVATE_USERS_SELF &&
	      service_sandboxed(&svc));
	CHECK(parse("PrivateUsers=yes\n") == 0 && M.private_users == PRIVATE_USERS_SELF);
	CHECK(parse("PrivateUsers=identity\n") == 0 && M.private_users == PRIVATE_USERS_IDENTITY);
	CHECK(parse("PrivateUsers=full\n") == 0 && M.private_users == PRIVATE_USERS_FULL);
	CHECK(parse("PrivateUsers=full\nPrivateUsers=\n") == 0 && !M.private_users);
	CHECK(parse("PrivateUsers=managed\n") < 0); /* refused, not run without it */
	CHECK(parse("PrivateUsers=Identity\n") < 0);
	CHECK(parse("ProtectProc=noaccess\nProtectProc=\n") == 0 && M.protect_proc == 0);
}

static void scheduling_keys(void)
{
	CHECK(parse("IOSchedulingClass=idle\nIOSchedulingPriority=7\n") == 0 && warnings == 0);
	CHECK(M.io_class == 3 + 1 && M.io_priority == 7);
	CHECK(parse("IOSchedulingClass=best-effort\n") == 0 && M.io_class == 2 + 1);
	CHECK(parse("IOSchedulingClass=2\n") == 0 && M.io_class == 2 + 1);
	CHECK(parse("IOSchedulingClass=fast\n") < 0);
	CHECK(parse("IOSchedulingPriority=8\n") < 0);
	CHECK(parse("CPUSchedulingPolicy=idle\n") == 0 && M.cpu_policy == 5 + 1);
	CHECK(parse("CPUSchedulingPolicy=fifo\nCPUSchedulingPriority=50\n"
		    "CPUSchedulingResetOnFork=yes\n") == 0);
	CHECK(M.cpu_policy == 1 + 1 && M.cpu_priority == 50 && M.cpu_reset_on_fork);
	CHECK(parse("CPUSchedulingPriority=100\n") < 0);
	CHECK(parse("CPUAffinity=0 2-3,5\n") == 0 && strcmp(S(M.cpu_affinity), "0 2-3,5") == 0);
	CHECK(parse("CPUAffinity=0\nCPUAffinity=1\n") == 0 && strcmp(S(M.cpu_affinity), "0 1") == 0);
	CHECK(parse("CPUAffinity=0\nCPUAffinity=\n") == 0 && !M.cpu_affinity);
	CHECK(parse("CPUAffinity=3-1\n") < 0);
	CHECK(parse("CPUAffinity=numa\n") < 0);
	CHECK(parse("CPUAffinity=1024\n") < 0);
}

static void context_from_keys(void)
{
	static struct exec_context c;
	char err[128];

	CHECK(parse("IOSchedulingPriority=6\nCPUSchedulingPolicy=batch\nCPUAffinity=1,3\n") == 0);
	CHECK(execmore_context(&svc, &c, err, sizeof err) == 0);
	/* a priority alone: best-effort, as systemd */
	CHECK(c.more.ioprio_set && c.more.ioprio_class == 2 && c.more.ioprio_level == 6);
	CHECK(c.more.sched_set && c.more.sched_policy == 3 && c.more.sched_priority == 0);
	CHECK(c.more.affinity && c.more.affinity[0] == 0xa);
	CHECK(parse("") == 0 && execmore_context(&svc, &c, err, sizeof err) == 0);
	CHECK(!c.more.ioprio_set && !c.more.sched_set && !c.more.affinity);
}

static void unset_environment(void)
{
	const char *vars[8] = { "PATH=/bin", "LANG=C", "LC_ALL=C", "LANG2=x", "KEEP=1", NULL };
	size_t n = 5;

	CHECK(parse("UnsetEnvironment=LANG LC_ALL=POSIX\nUnsetEnvironment=KEEP=1\n") == 0);
	execmore_unset_env(&svc, vars, &n);
	/* LANG goes (any value); LC_ALL=C stays (only LC_ALL=POSIX would go); LANG2 stays */
	CHECK(n == 3 && strcmp(vars[0], "PATH=/bin") == 0 && strcmp(vars[1], "LC_ALL=C") == 0 &&
	      strcmp(vars[2], "LANG2=x") == 0 && vars[3] == NULL);
	CHECK(parse("UnsetEnvironment=1BAD\n") < 0);
}

static void permissions_start_only(void)
{
	CHECK(parse("PermissionsStartOnly=yes\nUser=nobody\nExecStartPre=/bin/pre\n"
		    "ExecStartPre=!/bin/keep\nExecStartPost=-/bin/post\nExecReload=/bin/r\n"
		    "ExecStop=/bin/s\nExecStopPost=/bin/sp\n") == 0);
	CHECK(strcmp(S(svc.exec_start_pre.line[0]), "+/bin/pre") == 0);
	CHECK(strcmp(S(svc.exec_start_pre.line[1]), "!/bin/keep") == 0);
	CHECK(strcmp(S(svc.exec_start_post.line[0]), "+-/bin/post") == 0);
	CHECK(strcmp(S(svc.exec_reload.line[0]), "+/bin/r") == 0);
	CHECK(strcmp(S(svc.exec_stop.line[0]), "+/bin/s") == 0);
	CHECK(strcmp(S(svc.exec_stop_post.line[0]), "+/bin/sp") == 0);
	CHECK(strcmp(S(svc.exec_start.line[0]), "/bin/a") == 0); /* never ExecStart= */
	CHECK(parse("PermissionsStartOnly=no\nExecStartPre=/bin/pre\n") == 0);
	CHECK(strcmp(S(svc.exec_start_pre.line[0]), "/bin/pre") == 0);
}

static void old_directory_names(void)
{
	CHECK(parse("ReadOnlyDirectories=/\nReadWriteDirectories=-/run -/var/lib/tor\n"
		    "InaccessibleDirectories=/home\n") == 0 && warnings == 0);
	CHECK(strcmp(S(svc.execenv.paths[PATHS_READ_ONLY]), "/") == 0);
	CHECK(strcmp(S(svc.execenv.paths[PATHS_READ_WRITE]), "-/run -/var/lib/tor") == 0);
	CHECK(strcmp(S(svc.execenv.paths[PATHS_INACCESSIBLE]), "/home") == 0);
}

static void credentials(void)
{
	CHECK(parse("LoadCredential=tmpfiles.extra\nLoadCredential=key:/etc/k\n"
		    "SetCredential=greeting:hello world\n") == 0 && warnings == 0);
	CHECK(strcmp(S(M.credentials), "ltmpfiles.extra\nlkey:/etc/k\nsgreeting:hello world") == 0);
	CHECK(parse("LoadCredential=../x\n") < 0);
	CHECK(parse("LoadCredential=a/b:/etc/k\n") < 0);
	CHECK(parse("LoadCredential=key:rel/path\n") < 0);
	CHECK(parse("SetCredential=novalue\n") < 0);
	CHECK(parse("LoadCredentialEncrypted=key:/etc/k.cred\n") < 0 && errors == 1);
	CHECK(parse("SetCredentialEncrypted=key:abc\n") < 0);
	CHECK(parse("LoadCredential=a\nLoadCredential=\n") == 0 && !M.credentials);
	/* PassEnvironment=: names only; a bad one is skipped with a warning */
	CHECK(parse("PassEnvironment=TERM SENDMAIL\nPassEnvironment=LANG\n") == 0 && warnings == 0);
	CHECK(strcmp(S(M.pass_env), "TERM SENDMAIL LANG") == 0);
	CHECK(parse("PassEnvironment=TERM 1BAD A=B\n") == 0 && warnings == 2);
	CHECK(strcmp(S(M.pass_env), "TERM") == 0);
	CHECK(parse("PassEnvironment=TERM\nPassEnvironment=\n") == 0 && !M.pass_env);
	/* systemd 254's ImportCredential= (trixie's gettys, journald, udev, sysusers...) */
	CHECK(parse("ImportCredential=tmpfiles.*\nImportCredential=login.issue\n"
		    "ImportCredential=tty.serial.ttyS0.agetty.*:agetty.\n"
		    "ImportCredential=passwd.shell.root:shell\nImportCredential=*\n") == 0 &&
	      warnings == 0);
	CHECK(strcmp(S(M.credentials), "itmpfiles.*\nilogin.issue\n"
		     "itty.serial.ttyS0.agetty.*:agetty.\nipasswd.shell.root:shell\ni*") == 0);
	CHECK(parse("ImportCredential=a*b\n") < 0);   /* only a trailing * */
	CHECK(parse("ImportCredential=a?\n") < 0);
	CHECK(parse("ImportCredential=a[bc]\n") < 0);
	CHECK(parse("ImportCredential=../x\n") < 0);
	CHECK(parse("ImportCredential=a/b\n") < 0);
	CHECK(parse("ImportCredential=a:b/c\n") < 0);
	CHECK(parse("ImportCredential=a:\n") < 0);    /* a name needs a new name */
	CHECK(parse("ImportCredential=a.*:b*\n") < 0);
	CHECK(parse("ImportCredential=**\n") < 0);
	/* an empty assignment drops that key's entries only */
	CHECK(parse("LoadCredential=k:/etc/k\nImportCredential=x.*\nSetCredential=s:v\n"
		    "ImportCredential=y\nImportCredential=\n") == 0);
	CHECK(strcmp(S(M.credentials), "lk:/etc/k\nss:v") == 0);
	CHECK(parse("ImportCredential=x.*\nSetCredential=s:v\nLoadCredential=\n") == 0);
	CHECK(strcmp(S(M.credentials), "ix.*\nss:v") == 0);
	CHECK(parse("ImportCredential=x.*\nImportCredential=\n") == 0 && !M.credentials);
}

static void ip_and_device_parsing(void)
{
	CHECK(parse("IPAddressDeny=any\nIPAddressAllow=localhost 10.0.0.0/8 fe80::1/64\n") == 0);
	CHECK(service_bpf_wanted(&svc) && warnings == 0);
	CHECK(parse("IPAddressDeny=10.0.0.0/33\n") < 0);
	CHECK(parse("IPAddressDeny=example.org\n") < 0);
	CHECK(parse("DeviceAllow=/dev/null rw\nDeviceAllow=char-drm\nDevicePolicy=closed\n") == 0);
	CHECK(strcmp(S(M.device_allow), "/dev/null rw\nchar-drm") == 0);
	CHECK(M.device_policy == DEVICE_POLICY_CLOSED && service_bpf_wanted(&svc));
	CHECK(parse("DeviceAllow=/dev/null rx\n") < 0);
	CHECK(parse("DeviceAllow=null rw\n") < 0);
	CHECK(parse("DevicePolicy=open\n") < 0);
}

/* ---- the programs ---- */

static void device_policy_strict(void)
{
	CHECK(parse("DevicePolicy=strict\nDeviceAllow=/dev/null rw\n") == 0);
	CHECK(dev_verdict('c', 1, 3, "rw") == 1);
	CHECK(dev_verdict('c', 1, 3, "m") == 0);  /* mknod was not allowed */
	CHECK(dev_verdict('c', 1, 5, "r") == 0);  /* /dev/zero: not listed */
	CHECK(dev_verdict('b', 1, 3, "r") == 0);  /* same numbers, a block device */
}

static void device_policy_closed_and_auto(void)
{
	CHECK(parse("DevicePolicy=closed\n") == 0);
	CHECK(dev_verdict('c', 1, 5, "rw") == 1);   /* /dev/zero: a standard device */
	CHECK(dev_verdict('c', 136, 4, "rw") == 1); /* a pty */
	CHECK(dev_verdict('c', 10, 200, "rw") == 0);
	CHECK(parse("DeviceAllow=/dev/net/tun rwm\n") == 0); /* auto with a list: closed */
	CHECK(dev_verdict('c', 10, 200, "rwm") == 1 && dev_verdict('c', 1, 3, "w") == 1);
	CHECK(dev_verdict('c', 10, 201, "r") == 0);
	CHECK(parse("DevicePolicy=auto\n") == 0 && dev_verdict('c', 10, 201, "rwm") == 1);
}

static void device_classes(void)
{
	CHECK(parse("DevicePolicy=strict\nDeviceAllow=char-drm rw\nDeviceAllow=block-* r\n"
		    "DeviceAllow=char-/dev/tty w\n") == 0);
	CHECK(dev_verdict('c', 226, 0, "rw") == 1 && dev_verdict('c', 226, 129, "r") == 1);
	CHECK(dev_verdict('b', 8, 1, "r") == 1 && dev_verdict('b', 259, 0, "r") == 1);
	CHECK(dev_verdict('b', 8, 1, "w") == 0);
	CHECK(dev_verdict('c', 5, 0, "w") == 1 && dev_verdict('c', 5, 0, "r") == 0);
	CHECK(dev_verdict('c', 254, 0, "r") == 0);
}

static void ip_deny_any_allow_localhost(void)
{
	CHECK(parse("IPAddressDeny=any\nIPAddressAllow=localhost\n") == 0);
	CHECK(ip_verdict(0, "10.0.0.1", "127.0.0.1") == 1);
	CHECK(ip_verdict(1, "127.0.0.1", "10.0.0.1") == 1);
	CHECK(ip_verdict(0, "10.0.0.1", "10.0.0.2") == 0);
	CHECK(ip_verdict(1, "192.168.1.200", "10.0.0.1") == 0); /* source, on ingress */
	CHECK(ip_verdict(0, "::1", "::1") == 1);
	CHECK(ip_verdict(0, "::1", "2001:db8::1") == 0);
	CHECK(ip_verdict(0, "10.0.0.1", "127.255.0.9") == 1);   /* all of 127/8 */
}

static void ip_prefixes(void)
{
	CHECK(parse("IPAddressDeny=10.1.0.0/16 2001:db8::/33 link-local\n"
		    "IPAddressAllow=10.1.200.0/24\n") == 0);
	CHECK(ip_verdict(0, "1.1.1.1", "10.1.2.3") == 0);
	CHECK(ip_verdict(0, "1.1.1.1", "10.1.200.3") == 1); /* allow wins */
	CHECK(ip_verdict(0, "1.1.1.1", "10.2.2.3") == 1);   /* in neither list: passes */
	CHECK(ip_verdict(0, "1.1.1.1", "169.254.3.3") == 0);
	CHECK(ip_verdict(0, "::2", "2001:db8:7fff::1") == 0);
	CHECK(ip_verdict(0, "::2", "2001:db8:8000::1") == 1); /* bit 33 differs */
	CHECK(ip_verdict(0, "::2", "fe80::5") == 0);
	CHECK(parse("IPAddressDeny=multicast 0.0.0.0/0\n") == 0);
	CHECK(ip_verdict(0, "1.1.1.1", "224.0.0.251") == 0 && ip_verdict(0, "1.1.1.1", "8.8.8.8") == 0);
	CHECK(ip_verdict(0, "::2", "2001:db8::1") == 1);
}

/* As root, the kernel's verifier must accept the programs (loading attaches nothing). */
static int kernel_load(int type, const struct svc_bpf_insn *insns, int n)
{
	struct { uint32_t type, cnt; uint64_t insns, license; uint32_t level, size; uint64_t buf;
		 uint32_t kver, flags; char pad[88]; } a;
	static char log[65536];
	int fd;

	memset(&a, 0, sizeof a);
	a.type = (uint32_t)type;
	a.cnt = (uint32_t)n;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.license = (uint64_t)(uintptr_t)"MIT";
	a.level = 1;
	a.size = sizeof log;
	a.buf = (uint64_t)(uintptr_t)log;
	log[0] = '\0';
	fd = (int)syscall(SYS_bpf, 5, &a, sizeof a);
	if (fd < 0) {
		printf("  # verifier: %s\n%.2000s\n", strerror(errno), log);
		return -1;
	}
	close(fd);
	return 0;
}

static void kernel_accepts_programs(void)
{
	struct svc_bpf_device_rule rules[SVC_BPF_DEVICE_RULES_MAX];
	static struct svc_bpf_insn prog[SVC_BPF_INSNS_MAX];
	int n;

	if (geteuid() != 0) {
		printf("SKIP kernel_accepts_programs: not root\n");
		return;
	}
	CHECK(parse("DevicePolicy=closed\nDeviceAllow=char-drm rw\nDeviceAllow=/dev/net/tun\n"
		    "IPAddressDeny=any\nIPAddressAllow=localhost 10.1.0.0/16 2001:db8::/33\n") == 0);
	n = svc_bpf_device_rules(&svc, fake_stat, proc_devices, rules, SVC_BPF_DEVICE_RULES_MAX);
	n = svc_bpf_device_program(rules, (size_t)n, prog, SVC_BPF_INSNS_MAX);
	CHECK(n > 0 && kernel_load(15, prog, n) == 0);
	for (int ingress = 0; ingress < 2; ingress++) {
		n = svc_bpf_ip_program(&svc, ingress, prog, SVC_BPF_INSNS_MAX);
		CHECK(n > 0 && kernel_load(8, prog, n) == 0);
	}
}

int main(void)
{
	RUN(defaults_are_off);
	RUN(proc_and_namespace_keys);
	RUN(scheduling_keys);
	RUN(context_from_keys);
	RUN(unset_environment);
	RUN(permissions_start_only);
	RUN(old_directory_names);
	RUN(credentials);
	RUN(ip_and_device_parsing);
	RUN(device_policy_strict);
	RUN(device_policy_closed_and_auto);
	RUN(device_classes);
	RUN(ip_deny_any_allow_localhost);
	RUN(ip_prefixes);
	RUN(kernel_accepts_programs);
	return harness_done();
}
