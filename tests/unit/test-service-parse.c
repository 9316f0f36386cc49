// sources: init/service.c init/unit-runtime-keys.c init/exec-line.c init/socket-unit.c init/condition.c init/unit-compat.c init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c
/* Valid service files: every supported key parses to the value the docs promise. */
#include "harness.h"
#include "exec-context.h"
#include "../../init/service.h"

#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct service svc;
static int warnings, errors;
static char last_message[512];

static void record(void *ctx, enum service_severity severity, const char *file, unsigned line,
		   const char *message)
{
	if (severity == SERVICE_WARNING)
		warnings++;
	else
		errors++;
	snprintf(last_message, sizeof last_message, "%s:%u: %s", file, line, message);
}

static const struct service_diag diag = { record, NULL, false };

static int parse(const char *text)
{
	warnings = errors = 0;
	last_message[0] = '\0';
	service_init(&svc, "demo", "/etc/ember/services/demo.service");
	return service_parse(&svc, text, strlen(text), &diag);
}

#define S(ref) service_str(&svc, (ref))
/* The i-th name of a list, past the ones stored one by one too */
static const char *L(const struct service_name_list *list, size_t i)
{
	static char buf[SERVICE_NAME_MAX];
	return service_list_name(&svc, list, i, buf);
}

static void minimal_simple_service(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(!svc.failed && warnings == 0 && errors == 0);
	CHECK(svc.type == SERVICE_SIMPLE);
	CHECK(svc.exec_start.count == 1);
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/true");
	CHECK_STR(svc.name, "demo");
}

static void defaults_are_documented_ones(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(svc.restart == RESTART_NO);
	CHECK(svc.restart_ms == 100);
	CHECK(svc.timeout_start_ms == 90000);
	CHECK(svc.timeout_stop_ms == 10000);
	CHECK(svc.kill_signal == SIGTERM);
	CHECK(!svc.essential && !svc.no_new_privileges);
	CHECK(!svc.cap_bounding_set && svc.cap_ambient == 0);
	CHECK(svc.memory_max == ~0ULL && svc.memory_high == ~0ULL && svc.tasks_max == ~0ULL);
	CHECK(svc.memory_min == 0 && svc.memory_low == 0);
	CHECK(svc.cpu_weight == 0 && svc.io_weight == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(svc.log_rate_burst == 100 && svc.log_rate_interval_ms == 5000);
	CHECK(!svc.nice.set && !svc.oom_score_adjust.set && !svc.umask_set);
	CHECK(svc.rlimit_set == 0);
	CHECK_STR(S(svc.description), "");
	CHECK_STR(S(svc.user), "");
}

static void unit_section_keys(void)
{
	CHECK(parse("[Unit]\n"
		    "Description=Demo daemon for %n\n"
		    "Documentation=man:demo(8)\n"
		    "After=a b.service\n"
		    "After=c\n"
		    "Before=z\n"
		    "Requires=a\n"
		    "Wants=w1 w2\n"
		    "ConditionPathExists=/etc/demo.conf\n"
		    "ConditionPathExists=!/run/demo.disabled\n"
		    "ConditionPathExists=|/dev/a\n"
		    "[Service]\nExecStart=/bin/true\n") == 0);
	CHECK(warnings == 0);
	CHECK_STR(S(svc.description), "Demo daemon for demo.service");
	CHECK(svc.after.count == 3);
	CHECK_STR(S(svc.after.name[0]), "a");
	CHECK_STR(S(svc.after.name[1]), "b");
	CHECK_STR(S(svc.after.name[2]), "c");
	CHECK(svc.before.count == 1 && svc.requires.count == 1 && svc.wants.count == 2);
	CHECK(svc.condition_count == 3);
	CHECK_STR(S(svc.condition[0].value), "/etc/demo.conf");
	CHECK(!svc.condition[0].negate && !svc.condition[0].trigger);
	CHECK(svc.condition[1].negate && !svc.condition[1].trigger);
	CHECK_STR(S(svc.condition[1].value), "/run/demo.disabled");
	CHECK(svc.condition[2].trigger && !svc.condition[2].negate);
}

static void service_types(void)
{
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nExecStart=/bin/b\n") == 0);
	CHECK(svc.type == SERVICE_ONESHOT && svc.exec_start.count == 2);
	CHECK(parse("[Service]\nType=oneshot\n") == 0); /* a oneshot may run nothing */
	CHECK(parse("[Service]\nType=notify\nExecStart=/bin/a\n") == 0);
	CHECK(svc.type == SERVICE_NOTIFY);
	CHECK(parse("[Service]\nType=notify\nType=\nExecStart=/bin/a\n") == 0);
	CHECK(svc.type == SERVICE_SIMPLE);
}

static void exec_lists(void)
{
	CHECK(parse("[Service]\n"
		    "ExecStartPre=-/bin/mkdir -p /run/demo\n"
		    "ExecStartPre=/bin/chown demo /run/demo\n"
		    "ExecStart=@/usr/bin/demo demo-daemon --pidfile \"/run/demo/pid\" $OPTS\n"
		    "ExecStop=/usr/bin/demo-ctl stop\n") == 0);
	CHECK(svc.exec_start_pre.count == 2);
	CHECK_STR(S(svc.exec_start_pre.line[0]), "-/bin/mkdir -p /run/demo");
	CHECK_STR(S(svc.exec_start.line[0]),
		  "@/usr/bin/demo demo-daemon --pidfile \"/run/demo/pid\" $OPTS");
	CHECK(svc.exec_stop.count == 1);
}

static void exec_empty_assignment_resets(void)
{
	CHECK(parse("[Service]\nExecStartPre=/bin/a\nExecStartPre=\nExecStartPre=/bin/b\n"
		    "ExecStart=/bin/old\nExecStart=\nExecStart=/bin/new\n") == 0);
	CHECK(svc.exec_start_pre.count == 1);
	CHECK_STR(S(svc.exec_start_pre.line[0]), "/bin/b");
	CHECK(svc.exec_start.count == 1);
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/new");
}

static void exec_specifiers(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/echo %N %p %n 100%%\n") == 0);
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/echo demo demo demo.service 100%");
}

static void restart_and_times(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestart=on-failure\nRestartSec=5\n"
		    "TimeoutStartSec=1min 30s\nTimeoutStopSec=500ms\n") == 0);
	CHECK(svc.restart == RESTART_ON_FAILURE);
	CHECK(svc.restart_ms == 5000);
	CHECK(svc.timeout_start_ms == 90000);
	CHECK(svc.timeout_stop_ms == 500);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestart=always\nRestartSec=2min30s\n"
		    "TimeoutStartSec=infinity\nTimeoutStopSec=0\n") == 0);
	CHECK(svc.restart == RESTART_ALWAYS);
	CHECK(svc.restart_ms == 150000);
	CHECK(svc.timeout_start_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(svc.timeout_stop_ms == SERVICE_TIMEOUT_INFINITY);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutSec=1h\n") == 0);
	CHECK(svc.timeout_start_ms == 3600000 && svc.timeout_stop_ms == 3600000);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestart=always\nRestart=\nRestartSec=0\n") == 0);
	CHECK(svc.restart == RESTART_NO && svc.restart_ms == 0);
}

/* systemd.time(7) spans in every Sec= key, as the lib/parse.c reader takes them: a
 * fraction, a space before the unit, capital M (month), the µ sign, "d" and "w". */
static void time_span_forms(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutSec=1.5s\nRestartSec=0.25\n") == 0);
	CHECK(svc.timeout_start_ms == 1500 && svc.timeout_stop_ms == 1500);
	CHECK(svc.restart_ms == 250);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutStartSec=2 min 1.5 s\n"
		    "TimeoutStopSec=1500\xc2\xb5s\nRestartSec=1.5h\n") == 0);
	CHECK(svc.timeout_start_ms == 121500);
	CHECK(svc.timeout_stop_ms == 2); /* below a millisecond rounds up */
	CHECK(svc.restart_ms == 5400000);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutStopSec=1d\nRestartSec=1w\n") == 0);
	CHECK(svc.timeout_stop_ms == 86400000UL && svc.restart_ms == 604800000UL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutSec=1.5.5s\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutSec=5 parsecs\n") < 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTimeoutSec=-5s\n") < 0);
}

static void restart_mode_values(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestart=on-failure\nRestartMode=direct\n") == 0);
	CHECK(svc.restart_direct);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartMode=direct\nRestartMode=debug\n") == 0);
	CHECK(!svc.restart_direct);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartMode=direct\nRestartMode=\n") == 0);
	CHECK(!svc.restart_direct);
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestartMode=fast\n") < 0);
}

static void kill_signal_forms(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nKillSignal=SIGINT\n") == 0);
	CHECK(svc.kill_signal == SIGINT);
	CHECK(parse("[Service]\nExecStart=/bin/a\nKillSignal=HUP\n") == 0);
	CHECK(svc.kill_signal == SIGHUP);
	CHECK(parse("[Service]\nExecStart=/bin/a\nKillSignal=9\n") == 0);
	CHECK(svc.kill_signal == 9);
	CHECK(service_signal_from_name("SIGPWR") == SIGPWR);
	CHECK(service_signal_from_name("SIGFOO") == -1);
	CHECK(service_signal_from_name("0") == -1);
	/* real-time names in systemd's numbering from 34 (musl's SIGRTMIN is 35): systemd's
	 * user@.service has ReloadSignal=RTMIN+25, and systemd --user reloads on 59 */
	CHECK(service_signal_from_name("RTMIN+25") == 59);
	CHECK(service_signal_from_name("SIGRTMIN+3") == 37);
	CHECK(service_signal_from_name("RTMIN") == 34);
	CHECK(service_signal_from_name("RTMIN+0") == 34);
	CHECK(service_signal_from_name("RTMIN+30") == 64);
	CHECK(service_signal_from_name("RTMAX") == 64);
	CHECK(service_signal_from_name("SIGRTMAX-2") == 62);
	CHECK(service_signal_from_name("RTMAX-30") == 34);
	CHECK(service_signal_from_name("RTMIN+31") == -1);
	CHECK(service_signal_from_name("RTMAX-31") == -1);
	CHECK(service_signal_from_name("RTMIN-1") == -1);
	CHECK(service_signal_from_name("RTMAX+1") == -1);
	CHECK(service_signal_from_name("RTMIN+") == -1);
	CHECK(service_signal_from_name("RTMIN+ 1") == -1);
	CHECK(service_signal_from_name("RTMINX") == -1);
	CHECK(service_signal_from_name("rtmin+1") == -1);
	CHECK(parse("[Service]\nType=notify-reload\nExecStart=/bin/a\nReloadSignal=RTMIN+25\n"
		    "KillSignal=SIGRTMIN+3\n") == 0);
	CHECK(svc.kill_signal == 37 && svc.reload_signal == 59);
}

static void credentials(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nUser=demo\nGroup=1000\n"
		    "SupplementaryGroups=audio video\nSupplementaryGroups=input\n") == 0);
	CHECK_STR(S(svc.user), "demo");
	CHECK_STR(S(svc.group), "1000");
	CHECK(svc.group_count == 3);
	CHECK_STR(S(svc.supplementary_group[2]), "input");
	CHECK(parse("[Service]\nExecStart=/bin/a\nSupplementaryGroups=audio\n"
		    "SupplementaryGroups=\nSupplementaryGroups=video\nUser=x\nUser=\n") == 0);
	CHECK(svc.group_count == 1);
	CHECK_STR(S(svc.supplementary_group[0]), "video");
	CHECK(svc.user == 0);
}

static void working_directory_forms(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nWorkingDirectory=/var/lib/demo\n") == 0);
	CHECK_STR(S(svc.working_directory), "/var/lib/demo");
	CHECK(!svc.working_directory_optional);
	CHECK(parse("[Service]\nExecStart=/bin/a\nWorkingDirectory=-/var/lib/%N\n") == 0);
	CHECK_STR(S(svc.working_directory), "/var/lib/demo");
	CHECK(svc.working_directory_optional);
	CHECK(parse("[Service]\nExecStart=/bin/a\nWorkingDirectory=~\n") == 0);
	CHECK_STR(S(svc.working_directory), "~");
}

static void environment_assignments(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "Environment=A=1 \"B=two words\" C=\n"
		    "Environment='D=x\\ty' E=$NOT_EXPANDED\n"
		    "EnvironmentFile=/etc/default/demo\n"
		    "EnvironmentFile=-/etc/default/demo.local\n") == 0);
	CHECK(svc.env_count == 5);
	CHECK_STR(S(svc.env[0]), "A=1");
	CHECK_STR(S(svc.env[1]), "B=two words");
	CHECK_STR(S(svc.env[2]), "C=");
	CHECK_STR(S(svc.env[3]), "D=x\ty");
	CHECK_STR(S(svc.env[4]), "E=$NOT_EXPANDED");
	CHECK(svc.envfile_count == 2);
	CHECK(!svc.envfile[0].optional && svc.envfile[1].optional);
	CHECK_STR(S(svc.envfile[1].path), "/etc/default/demo.local");
	CHECK(parse("[Service]\nExecStart=/bin/a\nEnvironment=A=1\nEnvironment=\n"
		    "Environment=B=2\n") == 0);
	CHECK(svc.env_count == 1);
	CHECK_STR(S(svc.env[0]), "B=2");
}

static void process_attributes(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nUMask=0027\nNice=-5\nOOMScoreAdjust=-1000\n"
		    "NoNewPrivileges=yes\nEssential=true\n") == 0);
	CHECK(svc.umask_set && svc.umask == 027);
	CHECK(svc.nice.set && svc.nice.value == -5);
	CHECK(svc.oom_score_adjust.set && svc.oom_score_adjust.value == -1000);
	CHECK(svc.no_new_privileges && svc.essential);
	CHECK(parse("[Service]\nExecStart=/bin/a\nUMask=77\nNice=19\nNice=\n") == 0);
	CHECK(svc.umask == 077 && !svc.nice.set);
}

static void rlimits(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "LimitNOFILE=1024:4096\nLimitCORE=infinity\nLimitMEMLOCK=64K\n"
		    "LimitCPU=1min\nLimitRTTIME=500\nLimitNICE=-5\nLimitSTACK=8M:infinity\n") == 0);
	CHECK(svc.rlimit_set & (1u << RLIMIT_NOFILE));
	CHECK(svc.rlimit[RLIMIT_NOFILE].rlim_cur == 1024 && svc.rlimit[RLIMIT_NOFILE].rlim_max == 4096);
	CHECK(svc.rlimit[RLIMIT_CORE].rlim_cur == RLIM_INFINITY);
	CHECK(svc.rlimit[RLIMIT_CORE].rlim_max == RLIM_INFINITY);
	CHECK(svc.rlimit[RLIMIT_MEMLOCK].rlim_cur == 65536);
	CHECK(svc.rlimit[RLIMIT_CPU].rlim_cur == 60);
	CHECK(svc.rlimit[RLIMIT_RTTIME].rlim_cur == 500);
	CHECK(svc.rlimit[RLIMIT_NICE].rlim_cur == 25);
	CHECK(svc.rlimit[RLIMIT_STACK].rlim_cur == 8u << 20);
	CHECK(svc.rlimit[RLIMIT_STACK].rlim_max == RLIM_INFINITY);
	CHECK(!(svc.rlimit_set & (1u << RLIMIT_AS)));
	CHECK(parse("[Service]\nExecStart=/bin/a\nLimitNOFILE=10\nLimitNOFILE=\n") == 0);
	CHECK(svc.rlimit_set == 0);
	CHECK(service_rlimit_from_key("LimitSIGPENDING") == RLIMIT_SIGPENDING);
	CHECK(service_rlimit_from_key("LimitBOGUS") == -1);
}

static void capabilities(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n"
		    "CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_NET_RAW\n"
		    "CapabilityBoundingSet=cap_chown\n"
		    "AmbientCapabilities=CAP_NET_BIND_SERVICE\n") == 0);
	CHECK(svc.cap_bounding_set);
	CHECK(svc.cap_bounding == ((1ULL << 10) | (1ULL << 13) | (1ULL << 0)));
	CHECK(svc.cap_ambient == (1ULL << 10));
	/* "~" inverts; later "~" lines remove from what is there. */
	CHECK(parse("[Service]\nExecStart=/bin/a\nCapabilityBoundingSet=~CAP_SYS_ADMIN\n"
		    "CapabilityBoundingSet=~CAP_SYS_MODULE\n") == 0);
	CHECK(svc.cap_bounding == ~((1ULL << 21) | (1ULL << 16)));
	/* An empty assignment is the empty set (drops everything). */
	CHECK(parse("[Service]\nExecStart=/bin/a\nCapabilityBoundingSet=CAP_KILL\n"
		    "CapabilityBoundingSet=\n") == 0);
	CHECK(svc.cap_bounding_set && svc.cap_bounding == 0);
}

/* Cross-check the table against the kernel's own header. */
static void capability_table_matches_kernel_numbers(void)
{
#define C(name) { #name, name }
	static const struct { const char *name; int value; } kernel[] = {
		C(CAP_CHOWN),
		C(CAP_DAC_OVERRIDE),
		C(CAP_DAC_READ_SEARCH),
		C(CAP_FOWNER),
		C(CAP_FSETID),
		C(CAP_KILL),
		C(CAP_SETGID),
		C(CAP_SETUID),
		C(CAP_SETPCAP),
		C(CAP_LINUX_IMMUTABLE),
		C(CAP_NET_BIND_SERVICE),
		C(CAP_NET_BROADCAST),
		C(CAP_NET_ADMIN),
		C(CAP_NET_RAW),
		C(CAP_IPC_LOCK),
		C(CAP_IPC_OWNER),
		C(CAP_SYS_MODULE),
		C(CAP_SYS_RAWIO),
		C(CAP_SYS_CHROOT),
		C(CAP_SYS_PTRACE),
		C(CAP_SYS_PACCT),
		C(CAP_SYS_ADMIN),
		C(CAP_SYS_BOOT),
		C(CAP_SYS_NICE),
		C(CAP_SYS_RESOURCE),
		C(CAP_SYS_TIME),
		C(CAP_SYS_TTY_CONFIG),
		C(CAP_MKNOD),
		C(CAP_LEASE),
		C(CAP_AUDIT_WRITE),
		C(CAP_AUDIT_CONTROL),
		C(CAP_SETFCAP),
		C(CAP_MAC_OVERRIDE),
		C(CAP_MAC_ADMIN),
		C(CAP_SYSLOG),
		C(CAP_WAKE_ALARM),
		C(CAP_BLOCK_SUSPEND),
		C(CAP_AUDIT_READ),
		C(CAP_PERFMON),
		C(CAP_BPF),
		C(CAP_CHECKPOINT_RESTORE),
	};
#undef C
	for (size_t i = 0; i < sizeof kernel / sizeof *kernel; i++) {
		CHECK(service_capability_from_name(kernel[i].name) == kernel[i].value);
		CHECK(exec_cap_name(kernel[i].value) && strcasecmp(exec_cap_name(kernel[i].value), kernel[i].name) == 0);
	}
	CHECK(service_capability_from_name("cap_sys_admin") == CAP_SYS_ADMIN);
	CHECK(service_capability_from_name("12") == 12);
	CHECK(service_capability_from_name("CAP_NONSENSE") == -1);
	CHECK(service_capability_from_name("SYS_ADMIN") == -1);
	CHECK(service_capability_from_name("64") == -1);
	CHECK(exec_cap_name(CAP_LAST_CAP + 1) == NULL);
}

static void cgroup_settings(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryMax=64M\nMemoryHigh=48M\nTasksMax=32\n"
		    "CPUWeight=50\nIOWeight=10000\n") == 0);
	CHECK(svc.memory_max == 64ULL << 20 && svc.memory_high == 48ULL << 20);
	CHECK(svc.tasks_max == 32 && svc.cpu_weight == 50 && svc.io_weight == 10000);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryMax=1G\nMemoryMax=infinity\n"
		    "TasksMax=infinity\nCPUWeight=5\nCPUWeight=\n") == 0);
	CHECK(svc.memory_max == ~0ULL && svc.tasks_max == ~0ULL && svc.cpu_weight == 0);
	CHECK(svc.memory_swap_max == ~0ULL); /* unset */
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemorySwapMax=64M\n") == 0); /* mpdscribble */
	CHECK(svc.memory_swap_max == 64ULL << 20);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemorySwapMax=lots\n") != 0);
}

/* A unit read through its alias link has the alias's name: its Alias= naming it is a
 * no-op, not a warning (Debian's garbd.service, a link to garb.service). */
static void alias_of_itself_quiet(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n[Install]\nAlias=demo.service\n") == 0);
	CHECK(warnings == 0);
}

/* GuessMainPID= (systemd's rc-local.service, Debian's ltsp.service): yes by default. */
static void guess_main_pid(void)
{
	CHECK(parse("[Service]\nType=forking\nExecStart=/bin/a\n") == 0);
	CHECK(svc.guess_main_pid);
	CHECK(parse("[Service]\nType=forking\nExecStart=/bin/a\nGuessMainPID=no\n") == 0);
	CHECK(!svc.guess_main_pid);
	CHECK(parse("[Service]\nType=forking\nExecStart=/bin/a\nGuessMainPID=maybe\n") != 0);
}

/* MemoryLimit= (freeradius.service): applied as MemoryMax= on cgroup2, as systemd does,
 * unless the unit sets MemoryMax= or MemoryHigh= itself; bad values fail the unit. */
static void memory_limit_old_name(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryLimit=2G\n") == 0);
	CHECK(warnings == 0 && svc.memory_max == 2ULL << 30);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryLimit=2G\nMemoryMax=1G\n") == 0);
	CHECK(svc.memory_max == 1ULL << 30);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryMax=1G\nMemoryLimit=2G\n") == 0);
	CHECK(svc.memory_max == 1ULL << 30);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryHigh=1G\nMemoryLimit=2G\n") == 0);
	CHECK(svc.memory_max == ~0ULL && svc.memory_high == 1ULL << 30);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryLimit=2G\nMemoryLimit=\n") == 0);
	CHECK(svc.memory_max == ~0ULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryLimit=lots\n") < 0);
	CHECK(svc.failed);
}

/* MemoryMin=/MemoryLow= (systemd-oomd.service): memory the kernel keeps for the service;
 * empty is the kernel's default, none; infinity protects everything; a percentage is of
 * the physical memory, as for MemoryMax=. */
static void memory_protection(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	unsigned long long ram = (unsigned long long)pages * (unsigned long long)size;

	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryMin=64M\nMemoryLow=25%\n") == 0);
	CHECK(warnings == 0 && errors == 0);
	CHECK(svc.memory_min == 64ULL << 20 && svc.memory_low == ram / 4);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryMin=1G\nMemoryMin=\n"
		    "MemoryLow=infinity\n") == 0);
	CHECK(svc.memory_min == 0 && svc.memory_low == ~0ULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nMemoryLow=some\n") < 0);
	CHECK(svc.failed);
}

/* The loader's .wants/ links past the list's 32 names (a target many units are enabled
 * into) are kept in the text store, which compacts as the overflow is stored again and
 * again; every other list has such an overflow too (systemd has no limit), kept through
 * the compaction. */
static void names_past_the_list_limit(void)
{
	char name[32], buf[SERVICE_NAME_MAX];
	int i;

	CHECK(parse("[Unit]\nDescription=many\n[Service]\nExecStart=/bin/a\n") == 0);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof name, "enabled-unit-%03d", i);
		CHECK(service_add_name(&svc, &svc.wants, name) == 0);
	}
	CHECK(service_add_name(&svc, &svc.wants, "enabled-unit-150") == 0); /* no duplicate */
	CHECK(service_list_count(&svc.wants) == 200);
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof name, "enabled-unit-%03d", i);
		CHECK(service_lists(&svc, &svc.wants, name));
		CHECK_STR(service_list_name(&svc, &svc.wants, (size_t)i, buf), name);
	}
	CHECK_STR(S(svc.description), "many");
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/a");
	for (i = 0; i < 32; i++) {
		snprintf(name, sizeof name, "before-%02d", i);
		CHECK(service_add_name(&svc, &svc.before, name) == 0);
	}
	CHECK(service_add_name(&svc, &svc.before, "one-more") == 0);
	for (i = 200; i < 210; i++) { /* stored again: compacts with before's overflow */
		snprintf(name, sizeof name, "enabled-unit-%03d", i);
		CHECK(service_add_name(&svc, &svc.wants, name) == 0);
	}
	CHECK(service_list_count(&svc.before) == 33 && service_list_count(&svc.wants) == 210);
	CHECK_STR(service_list_name(&svc, &svc.before, 32, buf), "one-more");
	CHECK_STR(service_list_name(&svc, &svc.wants, 209, buf), "enabled-unit-209");
	/* An empty Wants= (a drop-in's reset) empties the overflow too. */
	CHECK(service_parse(&svc, "[Unit]\nWants=\n", 13, &diag) == 0);
	CHECK(service_list_count(&svc.wants) == 0);
	CHECK(!service_lists(&svc, &svc.wants, "enabled-unit-150"));
}

/* Percentages (MariaDB's TasksMax=99%): of the kernel's task limit (systemd's: the smaller
 * of pid_max - 1 and threads-max) and of the RAM. */
static void cgroup_percentages(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	unsigned long long ram = (unsigned long long)pages * (unsigned long long)size;
	unsigned long long tasks = ~0ULL;
	const char *files[] = { "/proc/sys/kernel/pid_max", "/proc/sys/kernel/threads-max" };

	for (size_t i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		unsigned long long n;
		if (f && fscanf(f, "%llu", &n) == 1 && n - (i == 0) < tasks)
			tasks = n - (i == 0); /* systemd: pid_max - 1 */
		if (f)
			fclose(f);
	}
	CHECK(parse("[Service]\nExecStart=/bin/a\nTasksMax=50%\nMemoryMax=25%\nMemoryHigh=12.5%\n") == 0);
	CHECK(svc.tasks_max == tasks / 2);
	CHECK(svc.memory_max == ram / 4);
	CHECK(svc.memory_high == ram / 8);
	CHECK(parse("[Service]\nExecStart=/bin/a\nTasksMax=100%\nMemoryMax=0%\n") == 0);
	CHECK(svc.tasks_max == tasks && svc.memory_max == 1);
}

static void output_targets(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=console\nStandardError=null\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_CONSOLE && svc.std_error.kind == OUTPUT_NULL);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=file:/var/log/%N.log\n"
		    "StandardError=append:/var/log/err\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_FILE);
	CHECK_STR(S(svc.std_output.path), "/var/log/demo.log");
	CHECK(svc.std_error.kind == OUTPUT_APPEND);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=journal\n"
		    "StandardError=truncate:/tmp/x\nStandardError=inherit\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(svc.std_error.path == 0);
}

static void output_to_kmsg(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=kmsg\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_KMSG && svc.std_error.kind == OUTPUT_INHERIT);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardError=kmsg\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_LOG && svc.std_error.kind == OUTPUT_KMSG);
	CHECK(parse("[Service]\nExecStart=/bin/a\nStandardOutput=kmsg\nStandardError=kmsg\n"
		    "LogRateLimitBurst=10\nLogRateLimitIntervalSec=2s\n") == 0);
	CHECK(svc.std_output.kind == OUTPUT_KMSG && svc.std_error.kind == OUTPUT_KMSG);
	CHECK(svc.log_rate_burst == 10 && svc.log_rate_interval_ms == 2000);
	CHECK(warnings == 0 && errors == 0);
	/* 0 turns the limit off; an empty value restores the default. */
	CHECK(parse("[Service]\nExecStart=/bin/a\nLogRateLimitBurst=0\nLogRateLimitIntervalSec=0\n") == 0);
	CHECK(svc.log_rate_burst == 0 && svc.log_rate_interval_ms == 0);
	CHECK(parse("[Service]\nExecStart=/bin/a\nLogRateLimitBurst=7\nLogRateLimitBurst=\n"
		    "LogRateLimitIntervalSec=1min\nLogRateLimitIntervalSec=\n") == 0);
	CHECK(svc.log_rate_burst == 100 && svc.log_rate_interval_ms == 5000);
}

static void syntax_comments_blanks_continuations(void)
{
	CHECK(parse("# a comment\n; another\n\n   \n[Unit]\n  Description = spaced out  \n"
		    "[Service]\r\nExecStart=/bin/echo one \\\n"
		    "  # a comment inside a continuation is skipped\n"
		    "  two \\\n"
		    "  three\r\n") == 0);
	CHECK_STR(S(svc.description), "spaced out");
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/echo one    two    three");
	CHECK(warnings == 0 && errors == 0);
}

static void backslash_on_the_last_line(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/echo a \\") == 0);
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/echo a");
}

static void no_final_newline(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/true") == 0);
	CHECK_STR(S(svc.exec_start.line[0]), "/bin/true");
}

static void install_and_extension_sections_are_silent(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nX-Custom=1\n[Install]\nWantedBy=multi-user.target\n"
		    "[X-Vendor]\nFoo=bar\n") == 0);
	CHECK(warnings == 0);
}

static void repeated_sections_merge(void)
{
	CHECK(parse("[Unit]\nAfter=a\n[Service]\nExecStart=/bin/a\n[Unit]\nAfter=b\n") == 0);
	CHECK(svc.after.count == 2);
}

static void scalar_keys_last_assignment_wins(void)
{
	CHECK(parse("[Unit]\nDescription=one\nDescription=two\n[Service]\nExecStart=/bin/a\n"
		    "User=a\nUser=b\nNice=1\nNice=2\nType=notify\nType=simple\n") == 0);
	CHECK_STR(S(svc.description), "two");
	CHECK_STR(S(svc.user), "b");
	CHECK(svc.nice.value == 2 && svc.type == SERVICE_SIMPLE);
}

static void duplicate_dependency_names_collapse(void)
{
	CHECK(parse("[Unit]\nAfter=a a.service\nAfter=a\nAfter=\nAfter=b\n[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(svc.after.count == 1);
	CHECK_STR(S(svc.after.name[0]), "b");
}

static void other_unit_kinds_keep_their_suffix(void)
{
	/* unit kinds (unit-kinds): mounts, devices, timers, paths and swaps are units;
	 * ordering against a scope changes nothing (no warning) */
	CHECK(parse("[Unit]\nAfter=network.target local-fs.target real -.mount x.path c1.scope\n"
		    "Wants=dbus.socket dev-ttyS0.device getty@tty1.service apt-daily.path "
		    "apt-daily.timer dev-zram0.swap\n[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(warnings == 0);
	CHECK(service_list_count(&svc.after) == 5);
	CHECK_STR(L(&svc.after, 0), "network.target");
	CHECK_STR(L(&svc.after, 2), "real");
	CHECK_STR(L(&svc.after, 3), "-.mount");
	CHECK_STR(L(&svc.after, 4), "x.path");
	CHECK(service_list_count(&svc.wants) == 6);
	CHECK_STR(L(&svc.wants, 0), "dbus.socket");
	CHECK_STR(L(&svc.wants, 1), "dev-ttyS0.device");
	CHECK_STR(L(&svc.wants, 2), "getty@tty1");
	CHECK_STR(L(&svc.wants, 3), "apt-daily.path");
	CHECK_STR(L(&svc.wants, 4), "apt-daily.timer");
	CHECK_STR(L(&svc.wants, 5), "dev-zram0.swap");
}

/* Names past those stored one by one share one string, which grows in place: a long
 * list costs PID 1 its names, not a copy of the string for every name added. */
static void long_list_costs_its_names_only(void)
{
	char text[1024];
	size_t n = (size_t)snprintf(text, sizeof text, "[Unit]\nAfter=");

	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "n%02d ", i);
	snprintf(text + n, sizeof text - n, "\n[Service]\nExecStart=/bin/a\n");
	CHECK(parse(text) == 0);
	CHECK(service_list_count(&svc.after) == 40);
	CHECK_STR(L(&svc.after, 0), "n00");
	CHECK_STR(L(&svc.after, 39), "n39");
	/* 40 names of 3 bytes and a separator or NUL each, "/bin/a", and slack */
	CHECK(svc.text_used < 40 * 4 + 8 + 32);
}

/* Dropped, as systemd drops it (Debian's keystone.service): the service runs as under
 * systemd, so no warning (emberctl verify would call it "changes"). */
static void self_dependency_is_dropped(void)
{
	CHECK(parse("[Unit]\nAfter=demo\nWants=demo.service\n[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(warnings == 0 && svc.after.count == 0 && svc.wants.count == 0);
}

static void unknown_key_warns_with_file_and_line(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\nFrobnicate=yes\n") == 0);
	CHECK(warnings == 1 && errors == 0 && !svc.failed);
	CHECK_STR(last_message, "/etc/ember/services/demo.service:3: Frobnicate: unknown key in "
				"[Service], ignored");
	/* a key systemd documents: the warning says what ember does differently */
	CHECK(parse("[Service]\nExecStart=/bin/a\nRestrictFileSystems=ext4\n") == 0);
	CHECK(warnings == 1 && errors == 0 && !svc.failed);
	CHECK_STR(last_message, "/etc/ember/services/demo.service:3: RestrictFileSystems: not "
				"supported by ember: every file system type is allowed");
}

static void key_in_the_wrong_section_is_unknown(void)
{
	CHECK(parse("[Unit]\nExecStart=/bin/b\n[Service]\nExecStart=/bin/a\n") == 0);
	CHECK(warnings == 1);
	CHECK(strstr(last_message, "ExecStart: unknown key in [Unit]") != NULL);
}

static void unknown_section_warns_once(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/a\n[Timer]\nOnBootSec=1\nOnCalendar=daily\n") == 0);
	CHECK(warnings == 1);
	CHECK(strstr(last_message, "[Timer]") != NULL);
}

static void ten_thousand_lines(void)
{
	static char text[SERVICE_FILE_MAX];
	size_t n = 0;

	n += (size_t)snprintf(text + n, sizeof text - n, "[Service]\nExecStart=/bin/a\n");
	for (int i = 0; i < 10000 - 2 && n + 8 < sizeof text; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "#%d\n", i % 1000);
	warnings = errors = 0;
	service_init(&svc, "demo", "demo.service");
	CHECK(service_parse(&svc, text, n, &diag) == 0);
	CHECK(errors == 0);
}

static void many_reassignments_reuse_text_storage(void)
{
	static char text[SERVICE_FILE_MAX];
	size_t n = 0;
	int lines = 0;
	char want[64];

	/* Far more text than SERVICE_TEXT_MAX is assigned, but little of it stays live. */
	while (n + 128 < sizeof text) {
		n += (size_t)snprintf(text + n, sizeof text - n,
				      "[Unit]\nDescription=replaced description number %d\n"
				      "[Service]\nExecStart=\nExecStart=/bin/echo %d\n", lines, lines);
		lines++;
	}
	service_init(&svc, "demo", "demo.service");
	CHECK(lines > 500);
	CHECK(service_parse(&svc, text, n, &diag) == 0);
	CHECK(svc.exec_start.count == 1);
	snprintf(want, sizeof want, "replaced description number %d", lines - 1);
	CHECK_STR(S(svc.description), want);
	snprintf(want, sizeof want, "/bin/echo %d", lines - 1);
	CHECK_STR(S(svc.exec_start.line[0]), want);
}

static void oneshot_may_restart_on_failure(void)
{
	CHECK(parse("[Service]\nType=oneshot\nExecStart=/bin/a\nRestart=on-failure\n") == 0);
}

static void name_validation(void)
{
	CHECK(service_name_valid("sshd"));
	CHECK(service_name_valid("getty:tty1"));
	CHECK(service_name_valid("a.b_c-d"));
	CHECK(!service_name_valid(""));
	CHECK(!service_name_valid(".hidden"));
	CHECK(!service_name_valid("-dash"));
	CHECK(!service_name_valid("a/b"));
	CHECK(!service_name_valid(".."));
	CHECK(!service_name_valid("tab\tname"));
	CHECK(!service_name_valid("new\nline"));
	CHECK(service_name_valid("template@"));   /* a template */
	CHECK(service_name_valid("getty@tty1"));
	CHECK(service_name_valid("dev-disk-by\\x2duuid-1"));
	CHECK(!service_name_valid("@x"));
	CHECK(!service_name_valid("sp ace"));
	char name[300];
	memset(name, 'x', SERVICE_NAME_MAX - 1);
	name[SERVICE_NAME_MAX - 1] = '\0';
	CHECK(service_name_valid(name));
	name[SERVICE_NAME_MAX - 1] = 'x';
	name[SERVICE_NAME_MAX] = '\0';
	CHECK(!service_name_valid(name));
	CHECK(service_init(&svc, "bad/name", "x") < 0 && svc.failed);
}

static void struct_copies_keep_their_strings(void)
{
	static struct service copy;

	CHECK(parse("[Unit]\nDescription=copied\n[Service]\nExecStart=/bin/a\n") == 0);
	memcpy(&copy, &svc, sizeof copy);
	memset(&svc, 0, sizeof svc);
	CHECK_STR(service_str(&copy, copy.description), "copied");
}

static int notes;

static void count_note(void *ctx, enum service_severity severity, const char *file,
		       unsigned line, const char *message)
{
	(void)ctx;
	if (severity == SERVICE_NOTE)
		notes++;
	record(ctx, severity == SERVICE_NOTE ? SERVICE_WARNING : severity, file, line, message);
}

/* systemd reads a PIDFile= below the legacy /var/run as the same path below /run, with a
 * notice; the service then finds that path in $PIDFILE. */
static void pid_file_below_var_run_is_read_below_run(void)
{
	static const struct service_diag with_notes = { count_note, NULL, true };
	const char *text = "[Service]\nType=forking\nPIDFile=/var/run/demo/demo.pid\n"
			   "ExecStart=/bin/a\n";

	notes = warnings = errors = 0;
	service_init(&svc, "demo", "/etc/ember/services/demo.service");
	CHECK(service_parse(&svc, text, strlen(text), &with_notes) == 0);
	CHECK_STR(S(svc.pid_file), "/run/demo/demo.pid");
	CHECK(notes == 1 && errors == 0);
	CHECK(strstr(last_message, "legacy /var/run") != NULL);
	CHECK(parse("[Service]\nType=forking\nPIDFile=/var/runx/a.pid\nExecStart=/bin/a\n") == 0);
	CHECK_STR(S(svc.pid_file), "/var/runx/a.pid");
	CHECK(parse("[Service]\nType=forking\nPIDFile=/run/a.pid\nExecStart=/bin/a\n") == 0);
	CHECK_STR(S(svc.pid_file), "/run/a.pid");
}

/* inputlirc.service: After=udev lircd. ember reads a bare name as a service; systemd
 * drops it, so verify --verbose notes each such name (and it stays no warning). */
static void bare_dependency_name_noted(void)
{
	static const struct service_diag with_notes = { count_note, NULL, true };
	const char *text = "[Unit]\nAfter=udev lircd.service\n[Service]\nExecStart=/bin/a\n";

	notes = warnings = errors = 0;
	service_init(&svc, "inputlirc", "/lib/systemd/system/inputlirc.service");
	CHECK(service_parse(&svc, text, strlen(text), &with_notes) == 0);
	CHECK(notes == 1 && errors == 0);
	CHECK(strstr(last_message, "After=udev: no unit type; ember reads udev.service") != NULL);
	CHECK(service_lists(&svc, &svc.after, "udev") && service_lists(&svc, &svc.after, "lircd"));
}

/* An unknown escape in a command line: the unit loads, with a warning, as systemd
 * corrects the line; the line is kept as written. */
static void unknown_escape_loads_with_warning(void)
{
	CHECK(parse("[Service]\nExecStart=/bin/sh -c 'echo 1 | grep \"\\d\"'\n") == 0);
	CHECK(warnings == 1 && errors == 0);
	CHECK(strstr(last_message, "unknown escape sequences are kept as written") != NULL);
	CHECK(svc.exec_start.count == 1);
}

int main(void)
{
	RUN(minimal_simple_service);
	RUN(unknown_escape_loads_with_warning);
	RUN(bare_dependency_name_noted);
	RUN(pid_file_below_var_run_is_read_below_run);
	RUN(defaults_are_documented_ones);
	RUN(unit_section_keys);
	RUN(service_types);
	RUN(exec_lists);
	RUN(time_span_forms);
	RUN(exec_empty_assignment_resets);
	RUN(exec_specifiers);
	RUN(restart_and_times);
	RUN(kill_signal_forms);
	RUN(restart_mode_values);
	RUN(credentials);
	RUN(working_directory_forms);
	RUN(environment_assignments);
	RUN(process_attributes);
	RUN(rlimits);
	RUN(capabilities);
	RUN(capability_table_matches_kernel_numbers);
	RUN(cgroup_settings);
	RUN(guess_main_pid);
	RUN(alias_of_itself_quiet);
	RUN(memory_limit_old_name);
	RUN(memory_protection);
	RUN(names_past_the_list_limit);
	RUN(cgroup_percentages);
	RUN(output_targets);
	RUN(syntax_comments_blanks_continuations);
	RUN(backslash_on_the_last_line);
	RUN(no_final_newline);
	RUN(install_and_extension_sections_are_silent);
	RUN(repeated_sections_merge);
	RUN(scalar_keys_last_assignment_wins);
	RUN(duplicate_dependency_names_collapse);
	RUN(other_unit_kinds_keep_their_suffix);
	RUN(long_list_costs_its_names_only);
	RUN(self_dependency_is_dropped);
	RUN(unknown_key_warns_with_file_and_line);
	RUN(key_in_the_wrong_section_is_unknown);
	RUN(unknown_section_warns_once);
	RUN(ten_thousand_lines);
	RUN(many_reassignments_reuse_text_storage);
	RUN(oneshot_may_restart_on_failure);
	RUN(name_validation);
	RUN(struct_copies_keep_their_strings);
	RUN(output_to_kmsg);
	return harness_done();
}
