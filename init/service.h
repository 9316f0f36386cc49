#ifndef EMBER_SERVICE_H
#define EMBER_SERVICE_H
/* Service files -> validated plain structs. See docs/services.md and ember.service(5).
 *
 * Data flows one way: the loader (service-load.c) finds and reads the files, the parser
 * (service.c) turns one file's bytes into a struct service, the dependency graph
 * (depgraph.c) orders them; acting on them is the supervisor's job. Nothing here
 * allocates: every struct has fixed, bounded storage, so PID 1's memory stays bounded.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "unit-name.h"

/* ---- limits (each one is documented in docs/services.md) ---- */
#define SERVICE_NAME_MAX 128        /* canonical name bytes incl. NUL (systemd: 255) */
#define SERVICE_PATH_MAX 320        /* path of the file it was read from, incl. NUL */
#define SERVICE_FILE_MAX 65536      /* bytes per service file */
#define SERVICE_LINE_MAX 4096       /* bytes per logical line (after joining `\` lines) */
#define SERVICE_TEXT_MAX 8192       /* string storage per service */
#define SERVICE_COUNT_MAX 256       /* services per boot (the loader's default capacity) */
#define SERVICE_DEPS_MAX 4          /* names per dependency list kept one by one (After=,
				     * Requires=, ...); the rest share one string */
#define SERVICE_EXEC_MAX 8          /* command lines per Exec*= list */
#define SERVICE_ENV_MAX 64          /* Environment= assignments */
#define SERVICE_ENVFILE_MAX 8       /* EnvironmentFile= entries */
#define SERVICE_CONDITION_MAX 16    /* Condition*= and Assert*= entries together */
#define SERVICE_GROUPS_MAX 16       /* SupplementaryGroups= entries */
#define SERVICE_ERROR_MAX 192       /* the first error, kept for status output */
#define SOCKET_LISTEN_MAX 8         /* U4: Listen*= entries per socket unit */
#define SOCKET_SYMLINKS_MAX 4       /* U4: Symlinks= entries per socket unit */

/* Where service files live, highest priority first: a file in an earlier directory
 * overrides a same-named file in a later one. */
#define SERVICE_DIR_ETC "/etc/ember/services"
#define SERVICE_DIR_RUN "/run/ember/services"
#define SERVICE_DIR_LIB "/usr/lib/ember/services"
#define SERVICE_SUFFIX ".service"

/* U1: unit kinds: enum unit_kind { UNIT_SERVICE, UNIT_SOCKET, UNIT_TARGET } lives in
 * lib/unit-name.h (emberctl needs it too). The canonical name of a service has no suffix
 * ("sshd", "getty@tty1"); every other kind keeps its suffix ("dbus.socket",
 * "multi-user.target"). Dependency lists hold canonical names. */

#define SERVICE_TIMEOUT_INFINITY (~0UL) /* for timeout_*_ms */
#define RESTART_MAX_DELAY_DEFAULT_MS SERVICE_TIMEOUT_INFINITY /* RestartMaxDelaySec= */
#define START_LIMIT_BURST_DEFAULT 5u          /* StartLimitBurst= */
#define START_LIMIT_INTERVAL_DEFAULT_MS 10000UL /* StartLimitIntervalSec= */
#define LOG_RATE_LIMIT_BURST_DEFAULT 100u            /* LogRateLimitBurst= */
#define SYSLOG_PRIORITY_DEFAULT (3u << 3 | 6u)         /* daemon.info, as systemd */
#define LOG_RATE_LIMIT_INTERVAL_DEFAULT_MS 5000UL    /* LogRateLimitIntervalSec= */
#define SERVICE_CAPS_ALL (~(uint64_t)0)

/* A string lives in the service's own text storage; a strref is its offset there, so a
 * struct service may be copied with memcpy. 0 means "not set". Read with service_str(). */
typedef uint16_t strref;

/* U2: the types and Restart= modes of systemd.service(5); docs/services.md says how each
 * behaves under ember. New values go at the end: the numbers are not stored anywhere. */
enum service_type {
	SERVICE_SIMPLE, SERVICE_ONESHOT, SERVICE_NOTIFY,
	SERVICE_EXEC, SERVICE_FORKING, SERVICE_IDLE, SERVICE_NOTIFY_RELOAD,
	SERVICE_DBUS, /* U4: ready once BusName= is owned on the system bus */
};
#define SOCKET_SUFFIX ".socket" /* U4 */
/* Backlog= unset: as large as the kernel allows (it holds listen()'s value to
 * net.core.somaxconn), as systemd's default; not the C library's SOMAXCONN, which is 128
 * in musl against glibc's 4096. */
#define SOCKET_BACKLOG_DEFAULT INT_MAX
enum service_restart {
	RESTART_NO, RESTART_ON_FAILURE, RESTART_ALWAYS,
	RESTART_ON_SUCCESS, RESTART_ON_ABNORMAL, RESTART_ON_ABORT, RESTART_ON_WATCHDOG,
};
/* KillMode=: who gets KillSignal= on a stop. */
enum service_kill_mode { KILL_CONTROL_GROUP, KILL_MIXED, KILL_PROCESS, KILL_NONE };
/* ExitType=: main (the service ends with its main process) or cgroup (with the last one). */
enum service_exit_type { EXIT_TYPE_MAIN, EXIT_TYPE_CGROUP };
/* Where stdout/stderr go. OUTPUT_INHERIT is only valid for stderr: same as stdout.
 * OUTPUT_KMSG: as OUTPUT_LOG, and each line also to the kernel log (init/kmsg-forward.h). */
enum service_output {
	OUTPUT_LOG, OUTPUT_CONSOLE, OUTPUT_NULL, OUTPUT_FILE, OUTPUT_APPEND, OUTPUT_TRUNCATE,
	OUTPUT_INHERIT, OUTPUT_KMSG,
	/* U5: execution environment. OUTPUT_INHERIT on stdout: a copy of stdin (systemd). */
	OUTPUT_TTY,    /* the service's TTYPath= (default /dev/console) */
	OUTPUT_SOCKET, /* the socket passed by the .socket unit (see spawn.c) */
};

/* Flags of one command line; the same bits exec_line_split() reports. */
#define EXEC_IGNORE_FAILURE 0x1u /* "-": a non-zero exit counts as success */
#define EXEC_ARGV0 0x2u          /* "@": the second word is argv[0] */
#define EXEC_NO_ENV_EXPAND 0x4u  /* ":": no $VAR expansion */
#define EXEC_PRIVILEGED 0x8u     /* "+": full privileges: no User=, capabilities, sandbox */
#define EXEC_NO_SETUID 0x10u     /* "!": no User=/Group= switch; everything else applies */
#define EXEC_NO_SETUID_AMBIENT 0x20u /* "!!": as "!", but only where the kernel lacks ambient
				      * capabilities (so on every kernel ember runs on: no-op) */

struct service_exec_list {
	uint8_t count;
	strref line[SERVICE_EXEC_MAX]; /* the raw line, prefixes included; see exec-line.h */
};

struct service_name_list {
	uint8_t count;
	strref name[SERVICE_DEPS_MAX]; /* canonical unit names (see enum unit_kind) */
	/* Names past SERVICE_DEPS_MAX (a target many units are enabled into, a long Requires=
	 * line: systemd has no limit), space-separated in the text store. Walk a list with
	 * service_list_count() and service_list_name(), never with count and name[]. */
	uint16_t more_count;
	strref more;
};

struct service_output_spec {
	enum service_output kind;
	strref path; /* for file:, append:, truncate: */
	bool also_console; /* U5: journal+console, syslog+console, kmsg+console */
	bool journal;      /* OUTPUT_LOG: journald's stream where it listens (journal-stream.c) */
};

/* ---- U5: execution environment (docs/services.md, "Execution environment") ---- */
enum service_input {
	INPUT_NULL, INPUT_TTY, INPUT_TTY_FORCE, INPUT_TTY_FAIL, INPUT_FILE, INPUT_SOCKET,
};
/* RuntimeDirectory= ... ConfigurationDirectory=, in this order everywhere. */
enum service_dir_kind {
	DIR_RUNTIME, DIR_STATE, DIR_CACHE, DIR_LOGS, DIR_CONFIGURATION, SERVICE_DIR_KINDS
};
enum service_preserve { PRESERVE_NO, PRESERVE_YES, PRESERVE_RESTART };
enum service_protect_system {
	PROTECT_SYSTEM_NO, PROTECT_SYSTEM_YES, PROTECT_SYSTEM_FULL, PROTECT_SYSTEM_STRICT
};
enum service_protect_home {
	PROTECT_HOME_NO, PROTECT_HOME_YES, PROTECT_HOME_READ_ONLY, PROTECT_HOME_TMPFS
};
/* ReadOnlyPaths=, ReadWritePaths=, InaccessiblePaths=, BindPaths=, BindReadOnlyPaths=,
 * NoExecPaths=, ExecPaths=, in this order. */
enum service_path_kind {
	PATHS_READ_ONLY, PATHS_READ_WRITE, PATHS_INACCESSIBLE, PATHS_BIND, PATHS_BIND_RO,
	PATHS_NO_EXEC, PATHS_EXEC, SERVICE_PATH_KINDS
};

/* seccomp keys: the list keys' raw text, and the booleans as bits. */
enum service_seccomp_text {
	SECCOMP_FILTER, SECCOMP_ERROR_NUMBER, SECCOMP_ARCHITECTURES, SECCOMP_ADDRESS_FAMILIES,
	SECCOMP_NAMESPACES, SECCOMP_TEXT_KINDS
};
#define SECCOMP_FLAG_MEMORY_DENY_WRITE_EXECUTE 0x01u
#define SECCOMP_FLAG_RESTRICT_REALTIME 0x02u
#define SECCOMP_FLAG_LOCK_PERSONALITY 0x04u
#define SECCOMP_FLAG_RESTRICT_SUID_SGID 0x08u
#define SECCOMP_FLAG_PROTECT_HOSTNAME 0x10u
#define SECCOMP_FLAG_PROTECT_KERNEL_LOGS 0x20u
#define SECCOMP_FLAG_PROTECT_CLOCK 0x40u

struct service_execenv {
	enum service_input std_input;
	strref input_path;            /* StandardInput=file:PATH */
	bool std_output_set;          /* false: stdout follows stdin when that is a tty */
	strref tty_path;              /* TTYPath=; 0: /dev/console */
	strref pam_name;              /* PAMName=: a logind session (ember-session(8)); 0: none */
	bool tty_reset, tty_vhangup, tty_vt_disallocate;
	bool ignore_sigpipe;          /* IgnoreSIGPIPE=, default yes as systemd's */
	uint8_t keyring_mode;         /* KeyringMode=: enum exec_keyring, default private */
	strref utmp_id;               /* UtmpIdentifier=: 0: no utmp records (init/utmp.h) */
	uint8_t utmp_mode;            /* UtmpMode=: enum utmp_mode */
	strref dirs[SERVICE_DIR_KINDS];      /* space-separated relative paths */
	uint16_t dir_mode[SERVICE_DIR_KINDS]; /* *DirectoryMode=, default 0755 */
	enum service_preserve runtime_preserve;
	/* Sandboxing: applied by ember-sandbox(8), outside PID 1. */
	bool private_tmp, private_devices, private_network, private_ipc;
	bool protect_kernel_tunables, protect_kernel_modules, protect_control_groups;
	enum service_protect_system protect_system;
	enum service_protect_home protect_home;
	strref paths[SERVICE_PATH_KINDS];    /* space-separated absolute paths, "-" kept */
	/* seccomp keys: checked and applied by ember-sandbox (sandbox/seccomp*.c); PID 1
	 * keeps the raw lines ("\n" between lines of a key) and one bit per boolean. */
	strref seccomp_text[SECCOMP_TEXT_KINDS];
	uint8_t seccomp_flags;               /* SECCOMP_FLAG_* */
};

/* ---- exec keys (sandbox-more): docs/services.md "More execution keys" ---- */
enum service_protect_proc {
	PROTECT_PROC_DEFAULT, PROTECT_PROC_NOACCESS, PROTECT_PROC_INVISIBLE, PROTECT_PROC_PTRACEABLE
};
enum service_device_policy { DEVICE_POLICY_AUTO, DEVICE_POLICY_CLOSED, DEVICE_POLICY_STRICT };
/* MountFlags=: the propagation of the sandbox's mounts at the end of its set-up */
enum service_mount_propagation {
	MOUNT_PROPAGATION_UNSET, MOUNT_PROPAGATION_SHARED, MOUNT_PROPAGATION_SLAVE,
	MOUNT_PROPAGATION_PRIVATE
};
/* PrivateUsers=: which ids the user namespace maps (ember-sandbox --private-users=) */
enum service_private_users {
	PRIVATE_USERS_NO, PRIVATE_USERS_SELF, PRIVATE_USERS_IDENTITY, PRIVATE_USERS_FULL
};
struct service_exec_more {
	uint8_t protect_proc;        /* enum service_protect_proc (ember-sandbox) */
	bool proc_subset_pid;        /* ProcSubset=pid (ember-sandbox) */
	bool private_mounts;         /* (ember-sandbox) */
	uint8_t private_users;       /* enum service_private_users (ember-sandbox) */
	uint8_t mount_propagation;   /* MountFlags=: enum service_mount_propagation (ember-sandbox) */
	bool permissions_start_only; /* applied by the parser: "+" on the other Exec*= lines */
	bool remove_ipc;             /* RemoveIPC=: the user's IPC objects go at stop */
	bool dynamic_user;           /* DynamicUser=: init/dynamic-user.c picks the ids */
	uint8_t secure_bits;         /* SecureBits=: SECBIT_* bits 0..5 */
	uint8_t io_class;            /* IOSchedulingClass=: 0 unset, else IOPRIO_CLASS_* + 1 */
	uint8_t io_priority;         /* IOSchedulingPriority=: 0..7, 8 = unset */
	uint8_t cpu_policy;          /* CPUSchedulingPolicy=: 0 unset, else SCHED_* + 1 */
	uint8_t cpu_priority;        /* CPUSchedulingPriority=: 0..99 */
	bool cpu_reset_on_fork;      /* CPUSchedulingResetOnFork= */
	uint8_t device_policy;       /* enum service_device_policy */
	strref cpu_affinity;         /* CPUAffinity=, as written: "0 2-3" */
	strref device_allow;         /* DeviceAllow=: "SPEC MODE" lines, '\n'-separated */
	strref ip_allow, ip_deny;    /* IPAddressAllow=/Deny=: space-separated words */
	strref credentials;          /* "lID:PATH" (LoadCredential=), "sID:VALUE" (Set...), '\n' */
	strref unset_env;            /* UnsetEnvironment=: space-separated NAME or NAME=VALUE */
	strref pass_env;             /* PassEnvironment=: space-separated names */
	strref apparmor_profile;     /* AppArmorProfile=, a leading "-" kept */
};
#define SERVICE_CPUS_MAX 1024 /* CPUAffinity=: CPU numbers below this */
struct service;
bool service_bpf_wanted(const struct service *svc); /* DeviceAllow=, DevicePolicy=, IPAddress*= */
/* ---- end exec keys (sandbox-more) ---- */

/* True when the service asks for any sandboxing key (it then starts via ember-sandbox). */
struct service;
bool service_sandboxed(const struct service *svc);
/* ... for one that systemd runs in a mount namespace of its own (not seccomp alone):
 * there NoNewPrivileges= makes every mount nosuid. */
bool service_mount_namespace(const struct service *svc);

/* U3: conditions and asserts. One Condition*= or Assert*= line (init/condition.h). */
struct service_condition {
	strref value;  /* after "|" and "!" */
	uint8_t kind;  /* enum condition_kind */
	bool negate;   /* "!": the test must fail */
	bool trigger;  /* "|": at least one trigger of its group (conditions or asserts) must hold */
	bool assert;   /* Assert*=: failing fails the start instead of skipping it */
};

/* U2: SuccessExitStatus=, RestartPreventExitStatus=, RestartForceExitStatus=: exit codes
 * 0..255 and signals 1..64 ("SIGKILL", "KILL"), as bitmaps. */
struct service_status_set {
	uint8_t code[32];
	uint64_t signal; /* bit sig-1 */
};

struct service_int {
	bool set; /* false: leave the inherited value alone */
	int value;
};

struct service_envfile {
	strref path;
	bool optional; /* "-": a missing file is not an error */
};

/* ---- U4: socket units ([Socket], init/socket-unit.c) ---- */
enum socket_listen_type {
	LISTEN_STREAM, LISTEN_DATAGRAM, LISTEN_SEQPACKET, LISTEN_FIFO, LISTEN_NETLINK,
	LISTEN_SPECIAL, /* sockets-accept: ListenSpecial= (a character device, /proc file) */
};

struct socket_listen {
	uint8_t type;    /* enum socket_listen_type */
	strref address;  /* as written: "/run/x.sock", "@abstract", "80", "[::1]:80", ... */
};

struct socket_spec {
	uint8_t listen_count;
	struct socket_listen listen[SOCKET_LISTEN_MAX]; /* in file order: the fd order */
	unsigned socket_mode, directory_mode;           /* SocketMode=, DirectoryMode= */
	strref user, group;     /* SocketUser=, SocketGroup=: names or ids */
	strref fdname;          /* FileDescriptorName=; unset: the unit's name */
	strref service;         /* Service=, canonical ("dbus"); unset: same name */
	int backlog;            /* Backlog=; SOCKET_BACKLOG_DEFAULT by default */
	bool remove_on_stop, pass_credentials, pass_security, reuse_port;
	bool free_bind, transparent;
	unsigned long long receive_buffer, send_buffer; /* bytes; 0: the kernel's default */
	uint8_t bind_ipv6_only;  /* BindIPv6Only=: 0 default (both), 1 both, 2 ipv6-only */
	uint8_t symlink_count;
	strref symlink[SOCKET_SYMLINKS_MAX]; /* Symlinks=: links to the one path socket */
	/* sockets-accept: Accept=yes and the one-setsockopt keys (socket-unit.c, sockets.c) */
	bool accept, keep_alive, no_delay, broadcast, pass_packet_info, writable;
	uint8_t timestamping;       /* 0 off, 1 us (SO_TIMESTAMP), 2 ns (SO_TIMESTAMPNS) */
	uint8_t keep_alive_probes;  /* KeepAliveProbes=, 0: the kernel's */
	uint16_t max_connections;   /* MaxConnections=, 0: the default (64) */
	uint16_t max_per_source;    /* MaxConnectionsPerSource=, 0: as MaxConnections= */
	uint16_t keep_alive_time_s, keep_alive_interval_s, defer_accept_s; /* 0: unset */
	int16_t ip_tos, ip_ttl;     /* IPTOS=, IPTTL=; -1 unset */
	int32_t priority;           /* Priority=; -1 unset */
	uint32_t mark;              /* Mark=; with mark_set */
	bool mark_set;
	/* socket-exec: ExecStopPre= (its other commands use the service's lists:
	 * exec_start_pre, exec_start_post, exec_stop_post; see init/supervisor.c) */
	struct service_exec_list exec_stop_pre;
};

/* unit kinds (unit-kinds): mount, device, slice, swap and automount units, Slice=, Delegate=,
 * RequiresMountsFor= (init/unit-kinds.h, docs/services.md "Mount, device and slice units") */
struct unit_kinds_spec {
	strref what, where, fstype, options; /* [Mount] What= Where= Type= Options= */
	strref slice;            /* Slice=, canonical ("foo.slice"); 0: ember's own subtree */
	strref mounts_for[2];    /* RequiresMountsFor=, WantsMountsFor=: space-separated paths */
	uint16_t directory_mode; /* [Mount] DirectoryMode=, 0755 by default */
	uint8_t mount_flags;     /* UNIT_MOUNT_LAZY, _FORCE, _RW_ONLY (unit-kinds.h) */
	uint8_t delegate;        /* Delegate=: 0 no, else UNIT_DELEGATE_YES | controllers */
	strref delegate_subgroup; /* DelegateSubgroup=: the main process's cgroup, below */
	/* swap units: [Swap] What= (in what), Priority=, Options= (in options; what the
	 * kernel reads of it below) */
	int16_t swap_priority;   /* Priority=: -1 unset (the kernel's default) */
	int16_t swap_pri_option; /* Options=pri=N: -1 unset; Priority= wins */
	uint8_t swap_flags;      /* UNIT_SWAP_DISCARD, _ONCE, _PAGES (unit-kinds.h) */
	/* automount units: [Automount] Where= (in where), DirectoryMode= (in directory_mode),
	 * ExtraOptions= (in options), TimeoutIdleSec=: */
	uint32_t idle_timeout_s; /* seconds, rounded up as systemd does; 0: never expires */
};

/* timer units (init/unit-timer.h, docs/timers.md): the [Timer] section */
#define TIMER_MONO_MAX 8 /* OnActiveSec=, OnBootSec= ... assignments in one unit */
struct timer_spec {
	strref calendar;          /* OnCalendar=: the events as written, "\n"-separated */
	strref unit;              /* Unit=: canonical; 0: the service named as the timer */
	uint64_t mono_ms[TIMER_MONO_MAX]; /* the On*Sec= spans, in file order */
	uint8_t mono_base[TIMER_MONO_MAX]; /* enum timer_base of each */
	uint8_t mono_count;
	uint8_t flags;            /* TIMER_PERSISTENT, TIMER_KEEP, TIMER_FIXED_DELAY */
	uint32_t random_delay_ms; /* RandomizedDelaySec= (capped at ~49 days) */
};

/* path units (init/unit-path.h, docs/path-units.md): the [Path] section */
struct path_spec {
	strref watches;           /* Path*= entries: "E/path\n..." (the kind letters of unit-path.h) */
	strref unit;              /* Unit=: canonical; 0: the service named as the unit */
	uint16_t directory_mode;  /* DirectoryMode=; 0: 0755 */
	uint8_t flags;            /* PATH_MAKE_DIRECTORY, PATH_LIMIT_*_SET */
	uint8_t count;            /* entries in watches */
	uint32_t limit_interval_ms; /* TriggerLimitIntervalSec= (when PATH_LIMIT_INTERVAL_SET) */
	uint32_t limit_burst;     /* TriggerLimitBurst= (when PATH_LIMIT_BURST_SET) */
};

/* A loaded unit is kept packed: its fixed part and the text it uses, ~2.5 KiB for a
 * typical unit, one after another (the supervisor's store, init/supervisor.c); a full
 * struct service, with its whole text store, exists only while a unit is read. */
struct service {
	char name[SERVICE_NAME_MAX]; /* canonical: "sshd" for sshd.service, "x.target" */
	char path[SERVICE_PATH_MAX]; /* the file it came from */
	enum unit_kind kind;         /* U1: from the file name's suffix */
	bool masked;                 /* empty file or symlink to /dev/null: never started */
	bool failed;                 /* invalid: never started; error[] says why */
	char error[SERVICE_ERROR_MAX];

	/* [Unit] */
	strref description;
	struct service_name_list after, before, requires, wants;
	/* U1: more dependencies */
	struct service_name_list requisite, binds_to, part_of, conflicts;
	bool default_dependencies; /* DefaultDependencies= (default yes) */
	uint8_t condition_count;
	struct service_condition condition[SERVICE_CONDITION_MAX];

	/* [Service] */
	enum service_type type;
	bool essential; /* ember: failure drops the device to the rescue shell */
	bool restart_direct; /* RestartMode=direct: a failed start that restarts fails no job */
	struct service_exec_list exec_start_pre, exec_start, exec_stop;
	enum service_restart restart;
	unsigned long restart_ms, timeout_start_ms, timeout_stop_ms;
	unsigned long restart_max_delay_ms;  /* RestartMaxDelaySec=: where RestartSteps= ends */
	unsigned restart_steps;              /* RestartSteps=: 0, every restart waits restart_ms */
	unsigned start_limit_burst;          /* StartLimitBurst=: 0 = no limit */
	unsigned long start_limit_interval_ms; /* StartLimitIntervalSec= */
	int kill_signal;
	strref user, group; /* names or numeric ids, resolved when the service starts */
	uint8_t group_count;
	strref supplementary_group[SERVICE_GROUPS_MAX];
	strref working_directory;   /* absolute path, or "~" for the user's home */
	bool working_directory_optional; /* "-" prefix */
	uint8_t env_count;
	strref env[SERVICE_ENV_MAX]; /* "NAME=value", in file order; later wins */
	uint8_t envfile_count;
	struct service_envfile envfile[SERVICE_ENVFILE_MAX];
	bool umask_set;
	unsigned umask;
	uint32_t rlimit_set; /* bit r set: rlimit[r] applies */
	struct rlimit rlimit[RLIM_NLIMITS];
	struct service_int nice, oom_score_adjust;
	bool no_new_privileges;
	bool cap_bounding_set; /* false: leave the bounding set alone */
	uint64_t cap_bounding;
	uint64_t cap_ambient;
	unsigned long long memory_max, memory_high, tasks_max; /* ~0ULL = unset/infinity */
	unsigned long long memory_swap_max; /* MemorySwapMax=: ~0ULL = unset/infinity */
	unsigned long long memory_min, memory_low; /* 0 = unset, ~0ULL = infinity */
	unsigned cpu_weight, io_weight;                          /* 0 = unset */
	struct service_output_spec std_output, std_error;
	unsigned log_rate_burst;            /* LogRateLimitBurst=: 0 = no limit */
	unsigned long log_rate_interval_ms; /* LogRateLimitIntervalSec=: 0 = no limit */
	/* journal: the stream's header (SyslogIdentifier=, SyslogFacility= | SyslogLevel=,
	 * SyslogLevelPrefix=); see docs/services.md "Output to the journal". */
	strref syslog_identifier;
	uint8_t syslog_priority;
	bool syslog_level_prefix;
	struct service_execenv execenv;     /* U5: directories, stdin/tty, sandboxing */
	struct service_exec_more execmore;  /* exec keys (sandbox-more) */

	/* U2: lifecycle (docs/services.md "Lifecycle"; runtime in svc-lifecycle.c) */
	struct service_exec_list exec_start_post, exec_reload, exec_stop_post;
	struct service_exec_list exec_condition; /* run first: 1..254 skips the start */
	struct service_name_list on_failure, on_success; /* [Unit] OnFailure=, OnSuccess= */
	struct service_status_set success_status, restart_prevent, restart_force;
	strref pid_file;                /* PIDFile=: absolute ("x" becomes "/run/x") */
	uint8_t kill_mode;              /* enum service_kill_mode */
	uint8_t exit_type;              /* enum service_exit_type */
	uint8_t final_kill_signal;      /* FinalKillSignal=, default SIGKILL */
	uint8_t restart_kill_signal;    /* RestartKillSignal=, 0: KillSignal= */
	uint8_t reload_signal;          /* ReloadSignal=, default SIGHUP */
	bool remain_after_exit;         /* RemainAfterExit= */
	bool guess_main_pid;            /* GuessMainPID= (default yes): Type=forking only */
	bool send_sigkill;              /* SendSIGKILL=, default yes */
	bool send_sighup;               /* SendSIGHUP= */
	/* U4: socket units and Type=dbus */
	struct socket_spec sock;    /* kind == UNIT_SOCKET only */
	strref bus_name;            /* BusName=: a well-known D-Bus name */
	bool non_blocking;          /* sockets-accept: NonBlocking=: passed fds get O_NONBLOCK */
	bool type_set;              /* sockets-accept: Type= was given (else systemd's guess) */
	strref also_named;          /* sockets-accept: the alias (a symlink) it was loaded by */
	/* U1: [Install] (used by emberctl enable; PID 1 only asks has_install) */
	bool has_install; /* the file has an [Install] section */
	bool pulled;      /* the loader: pulled in from the default target, so it starts at
			   * boot even where a socket unit could activate it */
	bool conflicted;  /* the loader: wanted at boot, but a unit the boot starts says
			   * Conflicts= of it, so it is not started (systemd's transaction) */
	bool systemd_view; /* the loader: the service syslog.socket starts, which sees
			    * /run/systemd/system/ (ember-sandbox --systemd-view) */
	bool on_demand;   /* the loader: loaded only because a socket, timer or path unit
			   * starts it or what it wants: not started at boot */
	struct service_name_list wanted_by, required_by, alias, also;
	strref default_instance;
	struct unit_kinds_spec kinds; /* unit kinds (unit-kinds) */
	struct timer_spec timer;      /* timer units: kind == UNIT_TIMER only */
	struct path_spec path_unit;   /* path units: kind == UNIT_PATH only */

	/* runtime keys (unit-runtime2): parsed by unit-runtime-keys.c, acted on by
	 * svc-runtime.c and fdstore.c */
	bool refuse_manual_start, refuse_manual_stop, stop_when_unneeded;
	uint8_t notify_access;          /* enum notify_access */
	uint8_t watchdog_signal;        /* WatchdogSignal=, default SIGABRT */
	uint8_t success_action, failure_action, start_limit_action, job_timeout_action;
	uint8_t fdstore_preserve;       /* FileDescriptorStorePreserve=: enum service_preserve */
	uint16_t fdstore_max;           /* FileDescriptorStoreMax=, 0: no store */
	unsigned long watchdog_ms;      /* WatchdogSec=, 0: off */
	unsigned long job_timeout_ms;   /* JobTimeoutSec=, SERVICE_TIMEOUT_INFINITY: none */
	unsigned long runtime_max_ms;   /* RuntimeMaxSec=, SERVICE_TIMEOUT_INFINITY: none */
	strref sockets;                 /* Sockets=: canonical names, space-separated */
	strref reload_from, reload_to;  /* ReloadPropagatedFrom=, PropagatesReloadTo= */

	/* string storage behind every strref; text_used counts bytes in use */
	uint16_t text_used;
	char text[SERVICE_TEXT_MAX];
};

/* Diagnostics: every warning and error goes to report() with the file, the line (0 when
 * it concerns the whole file) and a message that names the key and the reason. A NULL
 * struct or report drops them (the first error is still kept in service.error). */
enum service_severity { SERVICE_WARNING, SERVICE_ERROR, SERVICE_NOTE };
struct service_diag {
	void (*report)(void *ctx, enum service_severity severity, const char *file,
		       unsigned line, const char *message);
	void *ctx;
	bool notes; /* U3: also report SERVICE_NOTE: harmless keys that are ignored */
};

/* Reset svc to defaults for a service called name read from path. Returns 0, or -1 when
 * the name is unsafe (the service is then marked failed). */
int service_init(struct service *svc, const char *name, const char *path);

/* Parse one file's bytes (no NUL needed; a NUL byte is an error) into svc, which
 * service_init() prepared, then validate the whole. Unknown keys are warnings; invalid
 * values, syntax errors and a file that fails validation mark the service failed.
 * Returns 0 when the service is usable, -1 when it failed. */
int service_parse(struct service *svc, const char *text, size_t len,
		  const struct service_diag *diag);

/* Mark svc failed with a message (kept in svc->error and reported). Used by the
 * parser, the loader and the dependency graph; the supervisor may use it too. */
void service_fail(struct service *svc, const struct service_diag *diag, unsigned line,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Store s in svc's text storage: its ref, or 0 when the storage is full (the kind-specific
 * parsers, e.g. socket-unit.c, use it). */
strref service_text_store(struct service *svc, const char *s);
/* U1: parse a drop-in onto svc (as service_parse, without the whole-unit checks), then
 * check the whole once every file is in. */
int service_parse_more(struct service *svc, const char *text, size_t len,
		       const struct service_diag *diag);
int service_validate(struct service *svc, const struct service_diag *diag);
/* U1: add a canonical name to one of svc's lists (duplicates and itself are skipped).
 * 0, or -1 when the list or the text storage is full. */
int service_add_name(struct service *svc, struct service_name_list *list, const char *name);
/* Timer and path units: the unit one starts, canonical (Unit=, else the service named as
 * the unit: "apt-daily" for apt-daily.timer); NULL for other kinds. */
const char *service_trigger_target(const struct service *svc, char *out, size_t size);
/* Unit= of a timer or path unit into *unit ("" clears it): 0, or -1 (svc failed with the
 * reason) for a name that is invalid, a template or of svc's own kind. */
int service_trigger_unit_parse(struct service *svc, const struct service_diag *diag,
			       unsigned line, const char *value, strref *unit);
/* Does a timer or path unit among all[0..n) start the unit called name? */
bool service_triggered(struct service *const *all, size_t n, const char *name);

/* U1: forget the host facts specifiers use (%H %m %b ...): read again when next needed. */
void service_forget_host(void);

/* runtime keys (unit-runtime2): a systemd time span ("1min 30s", "infinity") in ms. */
int service_timespan_ms(const char *s, unsigned long *out);

/* compact: copy src to dst, the fixed part and the text in use only (the rest of the
 * 8 KiB store is never read, so PID 1 does not touch its pages). dst and src are
 * distinct. */
void service_copy(struct service *dst, const struct service *src);
/* compact: the bytes service_copy() copies; what follows is unused text store. */
size_t service_used_size(const struct service *svc);

/* The lists that name other units (not [Install]'s), as an initializer of an array of
 * pointers, const or not: what alias rewriting and "does a unit name X" walk. */
#define SERVICE_DEP_LISTS(s) { &(s)->after, &(s)->before, &(s)->requires, &(s)->wants, \
	&(s)->requisite, &(s)->binds_to, &(s)->part_of, &(s)->conflicts, &(s)->on_failure, \
	&(s)->on_success }

/* The string behind ref: "" when unset. */
const char *service_str(const struct service *svc, strref ref);
/* The names of a list, the loader's overflow included: for i < service_list_count(list),
 * service_list_name() returns the name, in buf (SERVICE_NAME_MAX bytes) for an overflow
 * name. */
size_t service_list_count(const struct service_name_list *list);
const char *service_list_name(const struct service *svc, const struct service_name_list *list,
			      size_t i, char *buf);
/* Does svc's name list hold name? */
bool service_lists(const struct service *svc, const struct service_name_list *list,
		   const char *name);

/* User and group names as shadow-utils accepts them, or numeric ids. */
bool service_account_name_valid(const char *s);

/* A canonical unit name (see enum unit_kind): 1..255 bytes of [A-Za-z0-9_.:@\\-], not
 * starting with '.', '-' or '@'; "name@" is a template, "name@inst" an instance. */
bool service_name_valid(const char *name);

/* U3: Condition*= and Assert*= against the system a probe describes (init/condition.h;
 * the supervisor passes condition_probe_system, tests a fake). Conditions are checked
 * first: one failing skips the start (the unit is inactive, not failed); then asserts:
 * one failing fails the start. what gets the first failing line, e.g.
 * "ConditionPathExists=!/etc/foo" (for a group of "|" triggers: the first of them). */
enum service_conditions_result {
	SERVICE_CONDITIONS_MET, SERVICE_CONDITION_FAILED, SERVICE_ASSERT_FAILED,
};
struct condition_probe;
enum service_conditions_result service_conditions_check(const struct service *svc,
							const struct condition_probe *probe,
							char *what, size_t size);

/* U3: the keys the parser implements, for tests and generated docs: the i-th key's
 * name and section ("Unit", "Service"), or NULL after the last. */
const char *service_key_at(size_t i, const char **section);

/* Parse an EnvironmentFile's bytes: calls add(ctx, "NAME=value") for each assignment.
 * Lines are NAME=value, optionally with "export ", quotes and comments as in
 * docs/services.md. Returns 0, or -1 with a message in err naming the line. Lines that
 * are no assignment ("ulimit -n 4096", "a b=c") are passed over, as systemd does; then
 * err names the first of them on a return of 0 (empty when there was none). */
int service_envfile_parse(const char *text, size_t len,
			  int (*add)(void *ctx, const char *assignment), void *ctx,
			  char *err, size_t err_size);

/* Lookups shared with the tests and the supervisor. */
int service_signal_from_name(const char *s);      /* "SIGTERM", "TERM", "15"; -1 if bad */
int service_capability_from_name(const char *s);  /* "CAP_CHOWN" (any case) or "0"; -1 if bad */
int service_rlimit_from_key(const char *key);     /* "LimitNOFILE" -> RLIMIT_NOFILE; -1 */

/* Loading from the directories (service-load.c). dirs: highest priority first; NULL
 * means the three SERVICE_DIR_*. Fills out[0..*count) sorted by name: one entry per
 * distinct name, masked ones included (masked = true), failed ones included (failed =
 * true). A missing directory is not an error. More than cap names: the first cap in
 * name order are kept and an error says how many were dropped. Files are read with
 * a SERVICE_FILE_MAX cap (a 64 KiB stack buffer). Returns 0: problems with single files or
 * directories are reported through diag and never stop the others. */
int service_load(const char *const *dirs, size_t ndirs, struct service *out, size_t cap,
		 size_t *count, const struct service_diag *diag);
/* emberctl verify: svc's drop-ins (NAME.d/, its template's, its dash prefixes', the
 * kind's service.d/) from dirs, highest priority first, applied as the loader applies
 * them; each drop-in's messages name the drop-in. Call between the fragment's
 * service_parse_more() and service_validate(). Allocates the loader's state: not for
 * PID 1. */
void service_load_dropins(struct service *svc, const char *const *dirs, size_t ndirs,
			  const struct service_diag *diag);

/* U1: the loader with every option. dirs: as above; an entry may list several,
 * "/a:/b". A directory whose path has a "/systemd/" component is a systemd directory:
 * its units load only when pulled in; units in the others (ember's own) without
 * [Install] load and start as always. The default target (default_target, else
 * default.target, else multi-user.target) is loaded with everything it pulls in when
 * a systemd directory exists or a unit has [Install]. extra: units to load as well
 * (started by name). Only reachable units are kept. */
struct service_load_config {
	const char *const *dirs;
	size_t ndirs;
	const char *default_target; /* canonical, NULL: default.target's choice */
	const char *const *extra;
	size_t nextra;
};
int service_load_from(const struct service_load_config *cfg, struct service *out, size_t cap,
		      size_t *count, const struct service_diag *diag);
/* sockets-accept: load the one unit name (canonical, e.g. an instance of a template) into
 * *out, with its drop-ins, nothing it pulls in. 0, or -1 when there is no such unit. */
int service_load_one(const struct service_load_config *cfg, const char *name,
		     struct service *out, const struct service_diag *diag);
#endif
