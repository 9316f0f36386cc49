/* The seccomp keys as classic BPF, built by hand (seccomp.h). One program per concern:
 * the kernel runs every installed program and the strictest answer wins, which is the
 * semantics systemd gets from its separate filters. Each program first refuses any
 * other ABI than the one this binary was built for (a filter written with this ABI's
 * numbers would not hold for it). The SystemCallFilter= program comes last: an allow
 * list need not allow seccomp() itself. */
#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscall-groups.h"

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#define X32_SYSCALL_BIT 0x40000000u /* x32 shares the arch value: told apart by this bit */
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_I386
#elif defined(__arm__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_ARM
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_RISCV64
#else
#error "ember-sandbox: seccomp: add this architecture's AUDIT_ARCH_ value"
#endif

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000u
#endif
#define PROG_MAX 4096 /* BPF_MAXINSNS */
#define RET_ALLOW SECCOMP_RET_ALLOW
#define RET_KILL SECCOMP_RET_KILL_PROCESS
#define RET_ERRNO(e) (SECCOMP_RET_ERRNO | ((uint32_t)(e) & SECCOMP_RET_DATA))

#define PROT_WRITE_EXEC (PROT_WRITE | PROT_EXEC)
#define S_SUID_SGID (S_ISUID | S_ISGID)
#define SHM_EXEC_FLAG 0100000
#define O_TMPFILE_BIT 020000000 /* __O_TMPFILE on x86, arm, aarch64, riscv */
#define SCHED_RESET_ON_FORK_FLAG 0x40000000u
#define PERSONALITY_QUERY 0xffffffffu

/* Where the low 32 bits of argument i are in struct seccomp_data. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#else
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#endif

/* Jump targets of a rule's conditional instructions, resolved at the rule's end. */
enum jump { J_NEXT, J_DENY, J_PASS };

struct prog {
	struct sock_filter insn[PROG_MAX];
	uint8_t jt_to[PROG_MAX], jf_to[PROG_MAX];
	unsigned len, rule; /* rule: index of the open rule's JEQ on the number */
	bool overflow;
};

static void emit(struct prog *p, uint16_t code, enum jump jt, enum jump jf, uint32_t k)
{
	if (p->len >= PROG_MAX) {
		p->overflow = true;
		return;
	}
	p->insn[p->len] = (struct sock_filter){ code, 0, 0, k };
	p->jt_to[p->len] = (uint8_t)jt;
	p->jf_to[p->len] = (uint8_t)jf;
	p->len++;
}

static void load_nr(struct prog *p)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, J_NEXT, J_NEXT, offsetof(struct seccomp_data, nr));
}

static void load_arg(struct prog *p, unsigned i)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, J_NEXT, J_NEXT, (uint32_t)ARG_LOW(i));
}

/* Any other ABI: killed, as a call of an architecture not in SystemCallArchitectures=. */
static void prologue(struct prog *p)
{
	p->len = 0;
	p->overflow = false;
	emit(p, BPF_LD | BPF_W | BPF_ABS, J_NEXT, J_NEXT, offsetof(struct seccomp_data, arch));
	p->insn[p->len] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0);
	p->jt_to[p->len] = p->jf_to[p->len] = J_NEXT;
	p->len++;
	emit(p, BPF_RET | BPF_K, J_NEXT, J_NEXT, RET_KILL);
	load_nr(p);
#ifdef X32_SYSCALL_BIT
	p->insn[p->len] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
	p->jt_to[p->len] = p->jf_to[p->len] = J_NEXT;
	p->len++;
	emit(p, BPF_RET | BPF_K, J_NEXT, J_NEXT, RET_KILL);
#endif
}

/* A whole call: nr -> action. */
static void whole(struct prog *p, int nr, uint32_t action)
{
	if (nr < 0)
		return;
	if (p->len + 2 > PROG_MAX) {
		p->overflow = true;
		return;
	}
	p->insn[p->len++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1);
	p->insn[p->len++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
}

/* A rule with argument tests: rule_begin, tests that jump to J_DENY or J_PASS (or fall
 * through), rule_end. Falling off the tests denies. */
static bool rule_begin(struct prog *p, int nr)
{
	if (nr < 0)
		return false;
	p->rule = p->len;
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, J_NEXT, J_NEXT, (uint32_t)nr);
	return true;
}

static uint8_t offset_to(struct prog *p, unsigned from, unsigned to)
{
	if (to <= from || to - from - 1 > 255) {
		p->overflow = true;
		return 0;
	}
	return (uint8_t)(to - from - 1);
}

static void rule_end(struct prog *p, uint32_t action)
{
	unsigned deny = p->len, pass = p->len + 1;

	emit(p, BPF_RET | BPF_K, J_NEXT, J_NEXT, action);
	load_nr(p);
	if (p->overflow)
		return;
	p->insn[p->rule].jf = offset_to(p, p->rule, p->len);
	for (unsigned i = p->rule + 1; i < deny; i++) {
		if (p->jt_to[i] != J_NEXT)
			p->insn[i].jt = offset_to(p, i, p->jt_to[i] == J_DENY ? deny : pass);
		if (p->jf_to[i] != J_NEXT)
			p->insn[i].jf = offset_to(p, i, p->jf_to[i] == J_DENY ? deny : pass);
	}
}

static void jset(struct prog *p, uint32_t bits, enum jump jt, enum jump jf)
{
	emit(p, BPF_JMP | BPF_JSET | BPF_K, jt, jf, bits);
}

static void jeq(struct prog *p, uint32_t v, enum jump jt, enum jump jf)
{
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, jt, jf, v);
}

/* nr's argument arg has any of bits -> action. */
static void arg_bits(struct prog *p, int nr, unsigned arg, uint32_t bits, uint32_t action)
{
	if (!rule_begin(p, nr))
		return;
	load_arg(p, arg);
	jset(p, bits, J_DENY, J_PASS);
	rule_end(p, action);
}

static int nr_of(const char *name)
{
	int i = syscall_name_index(name);
	return i < 0 ? -1 : syscall_names[i].nr;
}

/* ---- the concerns ---- */

/* MemoryDenyWriteExecute=: no W+X mapping, no turning memory executable, no SHM_EXEC. */
static void memory_wx(struct prog *p)
{
	const uint32_t eperm = RET_ERRNO(EPERM);

	if (rule_begin(p, nr_of("mmap"))) {
		load_arg(p, 2);
		emit(p, BPF_ALU | BPF_AND | BPF_K, J_NEXT, J_NEXT, PROT_WRITE_EXEC);
		jeq(p, PROT_WRITE_EXEC, J_DENY, J_PASS);
		rule_end(p, eperm);
	}
	if (rule_begin(p, nr_of("mmap2"))) {
		load_arg(p, 2);
		emit(p, BPF_ALU | BPF_AND | BPF_K, J_NEXT, J_NEXT, PROT_WRITE_EXEC);
		jeq(p, PROT_WRITE_EXEC, J_DENY, J_PASS);
		rule_end(p, eperm);
	}
	arg_bits(p, nr_of("mprotect"), 2, PROT_EXEC, eperm);
	arg_bits(p, nr_of("pkey_mprotect"), 2, PROT_EXEC, eperm);
	arg_bits(p, nr_of("shmat"), 2, SHM_EXEC_FLAG, eperm);
}

/* RestrictRealtime=: only SCHED_OTHER, SCHED_BATCH and SCHED_IDLE may be chosen.
 * sched_setattr() passes the policy in memory a filter cannot read: refused whole. */
static void realtime(struct prog *p)
{
	if (rule_begin(p, nr_of("sched_setscheduler"))) {
		load_arg(p, 1);
		emit(p, BPF_ALU | BPF_AND | BPF_K, J_NEXT, J_NEXT, ~SCHED_RESET_ON_FORK_FLAG);
		jeq(p, 0 /* SCHED_OTHER */, J_PASS, J_NEXT);
		jeq(p, 3 /* SCHED_BATCH */, J_PASS, J_NEXT);
		jeq(p, 5 /* SCHED_IDLE */, J_PASS, J_DENY);
		rule_end(p, RET_ERRNO(EPERM));
	}
	whole(p, nr_of("sched_setattr"), RET_ERRNO(EPERM));
}

/* LockPersonality=: personality() may only query or keep the current domain. */
static void personality_lock(struct prog *p)
{
	uint32_t current = (uint32_t)personality(PERSONALITY_QUERY);

	if (!rule_begin(p, nr_of("personality")))
		return;
	load_arg(p, 0);
	jeq(p, PERSONALITY_QUERY, J_PASS, J_NEXT);
	jeq(p, current, J_PASS, J_DENY);
	rule_end(p, RET_ERRNO(EPERM));
}

/* open/openat/creat with O_CREAT (or O_TMPFILE) and a set-id mode. */
static void create_mode(struct prog *p, const char *call, unsigned flags_arg, unsigned mode_arg)
{
	if (!rule_begin(p, nr_of(call)))
		return;
	load_arg(p, flags_arg);
	jset(p, O_CREAT | O_TMPFILE_BIT, J_NEXT, J_PASS);
	load_arg(p, mode_arg);
	jset(p, S_SUID_SGID, J_DENY, J_PASS);
	rule_end(p, RET_ERRNO(EPERM));
}

/* RestrictSUIDSGID=: no set-user-id or set-group-id bit on anything created or chmod'ed.
 * openat2() carries its mode in memory: ENOSYS, so libc falls back to openat(). */
static void suid_sgid(struct prog *p)
{
	static const struct { const char *call; unsigned arg; } modes[] = {
		{ "chmod", 1 }, { "fchmod", 1 }, { "fchmodat", 2 }, { "fchmodat2", 2 },
		{ "mkdir", 1 }, { "mkdirat", 2 }, { "mknod", 1 }, { "mknodat", 2 }, { "creat", 1 },
	};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		arg_bits(p, nr_of(modes[i].call), modes[i].arg, S_SUID_SGID, RET_ERRNO(EPERM));
	create_mode(p, "open", 1, 2);
	create_mode(p, "openat", 2, 3);
	whole(p, nr_of("openat2"), RET_ERRNO(ENOSYS));
}

/* RestrictNamespaces=: the types not allowed may not be created or joined; setns() with
 * 0 (any type) is refused. clone3() passes flags in memory: ENOSYS, libc falls back. */
static void namespaces(struct prog *p, uint32_t allowed)
{
	uint32_t denied = NAMESPACES_ALL & ~allowed;

	arg_bits(p, nr_of("unshare"), 0, denied, RET_ERRNO(EPERM));
	arg_bits(p, nr_of("clone"), 0, denied, RET_ERRNO(EPERM));
	whole(p, nr_of("clone3"), RET_ERRNO(ENOSYS));
	if (rule_begin(p, nr_of("setns"))) {
		load_arg(p, 1);
		jeq(p, 0, J_DENY, J_NEXT);
		jset(p, denied, J_DENY, J_PASS);
		rule_end(p, RET_ERRNO(EPERM));
	}
}

/* RestrictAddressFamilies=: socket()'s domain, as systemd (socketpair() makes only
 * connected local sockets and stays allowed). */
static void address_families(struct prog *p, const struct af_filter *f)
{
	if (!rule_begin(p, nr_of("socket")))
		return;
	load_arg(p, 0);
	for (unsigned af = 0; af < 64; af++)
		if (f->families & (1ull << af))
			jeq(p, af, f->allow_list ? J_PASS : J_DENY, J_NEXT);
	if (!f->allow_list) /* fell through a deny list: allowed, jump over the RET */
		emit(p, BPF_JMP | BPF_JA, J_NEXT, J_NEXT, 1);
	rule_end(p, RET_ERRNO(EAFNOSUPPORT));
}

/* Every member of a group (one level: the groups used here have no subgroups). */
static void group_whole(struct prog *p, const char *group, uint32_t action)
{
	const char *m = syscall_group_members(group);
	char name[64];

	while (m && *m) {
		size_t len = strcspn(m, " ");
		if (len < sizeof name) {
			memcpy(name, m, len);
			name[len] = '\0';
			whole(p, nr_of(name), action);
		}
		m += len;
		m += strspn(m, " ");
	}
}

static void finish(struct prog *p, uint32_t action)
{
	emit(p, BPF_RET | BPF_K, J_NEXT, J_NEXT, action);
}

/* Everything but SystemCallFilter=: one program. */
static bool build_hardening(const struct seccomp_request *r, struct prog *p)
{
	bool any = false;

	prologue(p);
	if (r->memory_deny_write_execute)
		memory_wx(p), any = true;
	if (r->restrict_realtime)
		realtime(p), any = true;
	if (r->lock_personality)
		personality_lock(p), any = true;
	if (r->restrict_suid_sgid)
		suid_sgid(p), any = true;
	if (r->ns_allowed != NAMESPACES_ALL)
		namespaces(p, r->ns_allowed), any = true;
	if (r->families.set)
		address_families(p, &r->families), any = true;
	if (r->protect_hostname) {
		whole(p, nr_of("sethostname"), RET_ERRNO(EPERM));
		whole(p, nr_of("setdomainname"), RET_ERRNO(EPERM));
		any = true;
	}
	if (r->protect_kernel_logs)
		whole(p, nr_of("syslog"), RET_ERRNO(EPERM)), any = true;
	if (r->protect_clock)
		group_whole(p, "@clock", RET_ERRNO(EPERM)), any = true;
	if (r->deny_raw_io)
		group_whole(p, "@raw-io", RET_ERRNO(EPERM)), any = true;
	finish(p, RET_ALLOW);
	return any || r->archs_native;
}

static uint32_t action_of(int action, int error_number)
{
	if (action == SYSCALL_ACTION_DEFAULT)
		action = error_number;
	return action == SYSCALL_ACTION_KILL ? RET_KILL : RET_ERRNO(action);
}

static bool build_filter(const struct seccomp_request *r, struct prog *p)
{
	const struct syscall_filter *f = &r->filter;

	if (!f->set)
		return false;
	prologue(p);
	for (size_t i = 0; i < syscall_name_count; i++) {
		if (!f->listed[i])
			continue;
		whole(p, syscall_names[i].nr,
		      f->allow_list ? RET_ALLOW : action_of(f->action[i], r->error_number));
	}
	finish(p, f->allow_list ? action_of(SYSCALL_ACTION_DEFAULT, r->error_number) : RET_ALLOW);
	return true;
}

/* ---- installing ---- */

static bool has_sys_admin(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return false;
	return d[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
}

static int load(const struct prog *p)
{
	struct sock_fprog fp = { (unsigned short)p->len, (struct sock_filter *)p->insn };

	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) == 0)
		return 0;
	if (errno != ENOSYS)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0);
}

int seccomp_install(const struct seccomp_request *r, bool install, char *err, size_t size)
{
	static struct prog hardening, filter;
	bool want_hardening = build_hardening(r, &hardening);
	bool want_filter = build_filter(r, &filter);

	if (hardening.overflow || filter.overflow) {
		snprintf(err, size, "the seccomp program is too long (more than %d instructions)",
			 PROG_MAX);
		return -1;
	}
	if (!install || (!want_hardening && !want_filter))
		return 0;
	/* systemd: these keys imply NoNewPrivileges= unless the service keeps CAP_SYS_ADMIN
	 * (the kernel requires one or the other). */
	if (!has_sys_admin() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		snprintf(err, size, "no_new_privs: %s", strerror(errno));
		return -1;
	}
	if ((want_hardening && load(&hardening) < 0) || (want_filter && load(&filter) < 0)) {
		snprintf(err, size, "seccomp filter: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- stage 1: what is not a filter ---- */

int seccomp_prepare(const struct seccomp_request *r)
{
	int drop[3], n = 0;

	if (r->protect_hostname && unshare(CLONE_NEWUTS) < 0)
		return -1;
	if (r->protect_kernel_logs)
		drop[n++] = CAP_SYSLOG;
	if (r->protect_clock) {
		drop[n++] = CAP_SYS_TIME;
		drop[n++] = CAP_WAKE_ALARM;
	}
	for (int i = 0; i < n; i++)
		if (prctl(PR_CAPBSET_DROP, drop[i], 0, 0, 0) < 0 && errno != EINVAL)
			return -1;
	return 0;
}
