// sources: init/spawn-execenv.c init/service.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-runtime-keys.c init/spawn-execmore.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* The seccomp keys' syntax as systemd.exec(5) defines it (lib/syscall-filter.c), and
 * what PID 1 keeps of them and hands to ember-sandbox (init/service.c,
 * init/spawn-execenv.c). */
#include "harness.h"
#include "syscall-filter.h"
#include "syscall-groups.h"
#include "../../init/service.h"
#include "../../init/spawn-execenv.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

static struct syscall_filter f;
static char err[256];

static bool listed(const char *name)
{
	int i = syscall_name_index(name);
	return i >= 0 && f.listed[i];
}

static int action(const char *name)
{
	return f.action[syscall_name_index(name)];
}

static void names_are_sorted_and_numbered(void)
{
	CHECK(syscall_name_count <= SYSCALL_NAMES_MAX);
	for (size_t i = 1; i < syscall_name_count; i++)
		CHECK(strcmp(syscall_names[i - 1].name, syscall_names[i].name) < 0);
	CHECK(syscall_names[syscall_name_index("read")].nr == SYS_read);
	CHECK(syscall_names[syscall_name_index("execve")].nr == SYS_execve);
#ifdef __x86_64__
	CHECK(syscall_names[syscall_name_index("open")].nr == SYS_open);
	CHECK(syscall_names[syscall_name_index("mmap2")].nr == -1); /* 32-bit arm/x86 only */
#endif
	CHECK(syscall_name_index("no_such_call") == -1);
}

static void every_group_member_is_known(void)
{
	for (size_t g = 0; g < syscall_group_count; g++) {
		syscall_filter_init(&f);
		char line[80];
		snprintf(line, sizeof line, "%s", syscall_groups[g].name);
		if (syscall_filter_add(&f, line, err, sizeof err) < 0)
			printf("  %s: %s\n", line, err);
		CHECK(f.set);
	}
	CHECK(syscall_group_members("@system-service") != NULL);
	CHECK(syscall_group_members("@sandbox") != NULL);
	CHECK(syscall_group_members("@nonsense") == NULL);
}

static void allow_list_starts_with_default(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "@basic-io", err, sizeof err) == 0);
	CHECK(f.set && f.allow_list);
	CHECK(listed("read") && listed("write"));
	CHECK(listed("execve") && listed("exit_group") && listed("rt_sigreturn")); /* @default */
	CHECK(!listed("socket") && !listed("mount"));
}

static void groups_nest(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "@system-service", err, sizeof err) == 0);
	CHECK(listed("read") && listed("openat") && listed("socket") && listed("setresuid"));
	CHECK(!listed("mount") && !listed("reboot") && !listed("init_module"));
}

static void later_deny_line_removes(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "@system-service", err, sizeof err) == 0);
	CHECK(syscall_filter_add(&f, "~@privileged @resources", err, sizeof err) == 0);
	CHECK(f.allow_list);
	CHECK(!listed("setresuid") && !listed("chown") && !listed("sched_setscheduler"));
	CHECK(listed("read") && listed("socket"));
	/* "read write" then "~write": write leaves the set (systemd.exec(5)'s example) */
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "read write", err, sizeof err) == 0);
	CHECK(syscall_filter_add(&f, "~write", err, sizeof err) == 0);
	CHECK(listed("read") && !listed("write"));
}

static void deny_list_with_errno(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "~uname:EPERM @swap:13 reboot:kill mount", err, sizeof err) == 0);
	CHECK(f.set && !f.allow_list);
	CHECK(listed("uname") && action("uname") == EPERM);
	CHECK(listed("swapon") && action("swapon") == 13);
	CHECK(action("reboot") == SYSCALL_ACTION_KILL);
	CHECK(action("mount") == SYSCALL_ACTION_DEFAULT);
	CHECK(!listed("execve")); /* no @default in a deny list */
	CHECK(syscall_filter_add(&f, "uname", err, sizeof err) == 0); /* allowed again */
	CHECK(!listed("uname"));
}

static void empty_line_resets(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "~uname", err, sizeof err) == 0);
	CHECK(syscall_filter_add(&f, "", err, sizeof err) == 0);
	CHECK(!f.set && !listed("uname"));
	CHECK(syscall_filter_add(&f, "read", err, sizeof err) == 0);
	CHECK(f.allow_list); /* the first line after a reset decides again */
}

static void bad_words_are_named(void)
{
	syscall_filter_init(&f);
	CHECK(syscall_filter_add(&f, "read bogus_call", err, sizeof err) < 0);
	CHECK(strstr(err, "bogus_call") != NULL);
	CHECK(syscall_filter_add(&f, "@no-such-group", err, sizeof err) < 0);
	CHECK(strstr(err, "@no-such-group") != NULL);
	CHECK(syscall_filter_add(&f, "~uname:EWHATEVER", err, sizeof err) < 0);
	CHECK(syscall_filter_add(&f, "~uname:4096", err, sizeof err) < 0);
	int e;
	CHECK(syscall_action_parse("kill", &e) == 0 && e == SYSCALL_ACTION_KILL);
	CHECK(syscall_action_parse("EUCLEAN", &e) == 0 && e == EUCLEAN);
	CHECK(syscall_action_parse("4095", &e) == 0 && e == 4095);
	CHECK(syscall_action_parse("", &e) < 0);
}

static void address_families(void)
{
	struct af_filter a;

	af_filter_init(&a);
	CHECK(af_filter_add(&a, "AF_UNIX AF_INET AF_INET6", err, sizeof err) == 0);
	CHECK(a.set && a.allow_list && a.families == (1ull << 1 | 1ull << 2 | 1ull << 10));
	CHECK(af_filter_add(&a, "~AF_INET6", err, sizeof err) == 0);
	CHECK(a.families == (1ull << 1 | 1ull << 2));
	CHECK(af_filter_add(&a, "none", err, sizeof err) == 0);
	CHECK(a.set && a.allow_list && a.families == 0);
	CHECK(af_filter_add(&a, "", err, sizeof err) == 0 && !a.set);
	CHECK(af_filter_add(&a, "~AF_PACKET", err, sizeof err) == 0);
	CHECK(!a.allow_list && a.families == 1ull << 17);
	CHECK(af_filter_add(&a, "AF_BOGUS", err, sizeof err) < 0 && strstr(err, "AF_BOGUS"));
}

static void namespaces_merge(void)
{
	uint32_t allowed = NAMESPACES_ALL;
	bool first = false;

	CHECK(namespaces_add(&allowed, &first, "yes", err, sizeof err) == 0 && allowed == 0);
	CHECK(namespaces_add(&allowed, &first, "no", err, sizeof err) == 0 &&
	      allowed == NAMESPACES_ALL);
	/* systemd.exec(5)'s examples */
	CHECK(namespaces_add(&allowed, &first, "cgroup ipc", err, sizeof err) == 0);
	CHECK(namespaces_add(&allowed, &first, "cgroup net", err, sizeof err) == 0);
	CHECK(allowed == (0x02000000u | 0x08000000u | 0x40000000u));
	allowed = NAMESPACES_ALL, first = false;
	CHECK(namespaces_add(&allowed, &first, "cgroup ipc", err, sizeof err) == 0);
	CHECK(namespaces_add(&allowed, &first, "~cgroup net", err, sizeof err) == 0);
	CHECK(allowed == 0x08000000u);
	allowed = NAMESPACES_ALL, first = false;
	CHECK(namespaces_add(&allowed, &first, "~user", err, sizeof err) == 0);
	CHECK(allowed == (NAMESPACES_ALL & ~0x10000000u));
	CHECK(namespaces_add(&allowed, &first, "time", err, sizeof err) < 0);
}

static void architectures(void)
{
	bool native, foreign;

	CHECK(syscall_archs_parse("native", &native, &foreign, err, sizeof err) == 0);
	CHECK(native && !foreign);
	CHECK(syscall_archs_parse("", &native, &foreign, err, sizeof err) == 0 && !native);
	CHECK(syscall_archs_parse("native x32", &native, &foreign, err, sizeof err) == 0);
	CHECK(native && foreign);
	CHECK(syscall_archs_parse("vax", &native, &foreign, err, sizeof err) < 0);
}

/* ---- PID 1: raw lines kept, handed to ember-sandbox one option per line ---- */

static struct service svc;

static int parse(const char *text)
{
	service_init(&svc, "s", "/etc/ember/services/s.service");
	return service_parse(&svc, text, strlen(text), NULL);
}

static bool has_arg(char *const *args, const char *want)
{
	for (size_t i = 0; args && args[i]; i++)
		if (strcmp(args[i], want) == 0)
			return true;
	return false;
}

static void pid1_keeps_lines_and_passes_them(void)
{
	struct exec_context c;

	CHECK(parse("[Service]\nExecStart=/bin/a\nSystemCallFilter=~uname\nSystemCallFilter=\n"
		    "SystemCallFilter=@system-service\nSystemCallFilter=~@privileged @resources\n"
		    "SystemCallErrorNumber=EPERM\nSystemCallArchitectures=native\n"
		    "RestrictAddressFamilies=AF_UNIX AF_INET\nRestrictNamespaces=yes\n"
		    "MemoryDenyWriteExecute=yes\nLockPersonality=yes\nRestrictRealtime=yes\n"
		    "RestrictSUIDSGID=yes\nProtectHostname=yes\nProtectKernelLogs=yes\n"
		    "ProtectClock=yes\nProtectClock=no\n") == 0);
	CHECK(!svc.failed);
	CHECK_STR(service_str(&svc, svc.execenv.seccomp_text[SECCOMP_FILTER]),
		  "@system-service\n~@privileged @resources");
	CHECK(service_sandboxed(&svc));
	exec_context_init(&c);
	CHECK(execenv_sandbox(&svc, &c, "/x/ember-sandbox", err, sizeof err) == 0);
	CHECK(has_arg(c.sandbox_args, "--system-call-filter=@system-service"));
	CHECK(has_arg(c.sandbox_args, "--system-call-filter=~@privileged @resources"));
	CHECK(!has_arg(c.sandbox_args, "--system-call-filter=~uname"));
	CHECK(has_arg(c.sandbox_args, "--system-call-error-number=EPERM"));
	CHECK(has_arg(c.sandbox_args, "--system-call-architectures=native"));
	CHECK(has_arg(c.sandbox_args, "--restrict-address-families=AF_UNIX AF_INET"));
	CHECK(has_arg(c.sandbox_args, "--restrict-namespaces=yes"));
	CHECK(has_arg(c.sandbox_args, "--memory-deny-write-execute"));
	CHECK(has_arg(c.sandbox_args, "--lock-personality"));
	CHECK(has_arg(c.sandbox_args, "--restrict-realtime"));
	CHECK(has_arg(c.sandbox_args, "--restrict-suid-sgid"));
	CHECK(has_arg(c.sandbox_args, "--protect-hostname"));
	CHECK(has_arg(c.sandbox_args, "--protect-kernel-logs"));
	CHECK(!has_arg(c.sandbox_args, "--protect-clock")); /* the later "no" wins */
	CHECK(has_arg(c.sandbox_args, "--caps-chain"));
}

static void pid1_error_number_alone_sandboxes_nothing(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nSystemCallErrorNumber=EPERM\n") == 0);
	CHECK(!service_sandboxed(&svc));
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryDenyWriteExecute=maybe\n") < 0 ||
	      svc.failed);
}

int main(void)
{
	RUN(names_are_sorted_and_numbered);
	RUN(every_group_member_is_known);
	RUN(allow_list_starts_with_default);
	RUN(groups_nest);
	RUN(later_deny_line_removes);
	RUN(deny_list_with_errno);
	RUN(empty_line_resets);
	RUN(bad_words_are_named);
	RUN(address_families);
	RUN(namespaces_merge);
	RUN(architectures);
	RUN(pid1_keeps_lines_and_passes_them);
	RUN(pid1_error_number_alone_sandboxes_nothing);
	return harness_done();
}
