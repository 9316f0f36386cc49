#ifndef EMBER_EXEC_MORE_H
#define EMBER_EXEC_MORE_H
/* Per-process settings of the exec keys added by sandbox-more: I/O scheduling
 * (IOSchedulingClass=, IOSchedulingPriority=), CPU scheduling (CPUSchedulingPolicy=,
 * CPUSchedulingPriority=, CPUSchedulingResetOnFork=) and CPUAffinity=. Applied in the
 * forked child while it is still root (real-time policies and raising priority need
 * CAP_SYS_NICE), before the identity switch, with plain syscalls: they survive execve
 * and so reach the service through ember-sandbox and ember-caps too. */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define EXEC_CPUS_MAX 1024

struct exec_more {
	bool ioprio_set;
	int ioprio_class;         /* IOPRIO_CLASS_*: 0 none, 1 realtime, 2 best-effort, 3 idle */
	int ioprio_level;         /* 0..7 */
	bool sched_set;
	int sched_policy;         /* SCHED_* */
	int sched_priority;
	bool sched_reset_on_fork;
	const uint64_t *affinity; /* EXEC_CPUS_MAX bits, NULL: inherited */
	/* Credentials (lib/exec-cred.c): the directory, "/run/credentials/UNIT", and the
	 * entries, '\n'-separated "lID[:PATH]" (LoadCredential=) or "sID:VALUE"; NULL: none */
	const char *cred_dir, *cred_list;
	uid_t cred_uid;           /* the service's User= and Group=, also on "+" lines */
	gid_t cred_gid;
	unsigned secure_bits;     /* SecureBits=; see exec_final_apply */
	const char *apparmor_profile;
};

struct exec_failure;
/* 0, or -1 with *f (EXEC_STEP_IOPRIO, EXEC_STEP_SCHED, EXEC_STEP_AFFINITY,
 * EXEC_STEP_CREDENTIALS). */
int exec_more_apply(const struct exec_more *m, struct exec_failure *f);
/* The credentials directory, if m names one; 0 or -1/errno. */
int exec_credentials_setup(const struct exec_more *m);

/* The last steps before the command's execve, run by whichever program executes it
 * (exec_context_exec, or ember-caps after the identity switch): SecureBits= (bits 0..5,
 * the kernel's SECBIT_* order; 0: left alone) and AppArmorProfile= (NULL: none; a
 * leading "-": a profile the kernel does not know is skipped). AppArmor not enabled:
 * the profile is skipped, as systemd does. 0, or -1 with *f (EXEC_STEP_SECUREBITS,
 * EXEC_STEP_APPARMOR). */
int exec_final_apply(unsigned secure_bits, const char *apparmor_profile,
		     struct exec_failure *f);

/* "0 2-3,5" -> bits; 0, or -1 on a malformed list or a CPU >= EXEC_CPUS_MAX. */
int exec_cpu_list_parse(const char *s, uint64_t bits[EXEC_CPUS_MAX / 64]);
#endif
