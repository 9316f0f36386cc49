/* One service file's bytes -> struct service. Syntax and key meanings: docs/services.md.
 * No I/O, no allocation: strings go to the service's own bounded text storage. */
#include "service.h"

#include "exec-context.h"

#include <arpa/inet.h> /* exec keys (sandbox-more): IPAddress*= */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dbus-wire.h"
#include "condition.h"
#include "exec-line.h"
#include "kmsg-forward.h"
#include "unit-compat.h"
#include "io.h"
#include "parse.h"
#include "socket-unit.h"
#include "unit-runtime-keys.h" /* unit-runtime2 */
#include "unit-kinds.h"
#include "unit-timer.h"
#include "unit-path.h"
#include "dynamic-user.h"
#include "utmp.h"
#include "power.h" /* POWER_SIGRTMIN */

enum section { SECTION_NONE, SECTION_UNIT, SECTION_SERVICE, SECTION_SKIPPED,
	       SECTION_SOCKET, /* U4: [Socket] of .socket units, keys in socket-unit.c */
	       SECTION_INSTALL, /* U1 */
	       SECTION_MOUNT, SECTION_SLICE, /* unit kinds (unit-kinds): init/unit-kinds.c */
	       SECTION_TIMER, /* timer units: init/unit-timer.c */
	       SECTION_PATH, /* path units: init/unit-path.c */
	       SECTION_SWAP, /* swap units: init/unit-kinds.c */
	       SECTION_AUTOMOUNT /* automount units: init/unit-kinds.c */ };

struct parser {
	struct service *svc;
	const struct service_diag *diag;
	unsigned line;
	enum section section;
	unsigned long long memory_limit; /* MemoryLimit= of this file, ~0ULL: none */
};

/* ---- failure and diagnostics ---------------------------------------------------------- */

static void report(const struct service_diag *diag, enum service_severity severity,
		   const char *file, unsigned line, const char *message)
{
	if (diag && diag->report)
		diag->report(diag->ctx, severity, file, line, message);
}

void service_fail(struct service *svc, const struct service_diag *diag, unsigned line,
		  const char *fmt, ...)
{
	char message[SERVICE_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (!svc->failed) {
		if (line)
			snprintf(svc->error, sizeof svc->error, "line %u: %.*s", line,
				 (int)sizeof svc->error - 20, message);
		else
			snprintf(svc->error, sizeof svc->error, "%s", message);
	}
	svc->failed = true;
	report(diag, SERVICE_ERROR, svc->path, line, message);
}

static void warn(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct parser *p, const char *fmt, ...)
{
	char message[SERVICE_ERROR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	report(p->diag, SERVICE_WARNING, p->svc->path, p->line, message);
}

/* Something that changes nothing against systemd: reported only where notes are asked
 * for (emberctl verify --verbose). */
static void note(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct parser *p, const char *fmt, ...)
{
	char message[SERVICE_ERROR_MAX];
	va_list ap;

	if (!p->diag || !p->diag->notes)
		return;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	report(p->diag, SERVICE_NOTE, p->svc->path, p->line, message);
}

/* An invalid value: "KEY=VALUE: why". The value is cut short so the message fits. */
static int invalid(struct parser *p, const char *key, const char *value, const char *why)
{
	service_fail(p->svc, p->diag, p->line, "%s=%.48s%s: %s", key, value,
		     strlen(value) > 48 ? "..." : "", why);
	return -1;
}

/* ---- text storage --------------------------------------------------------------------- */

const char *service_str(const struct service *svc, strref ref)
{
	return ref ? svc->text + ref : "";
}

size_t service_used_size(const struct service *svc)
{
	return offsetof(struct service, text) + svc->text_used;
}

void service_copy(struct service *dst, const struct service *src)
{
	memcpy(dst, src, service_used_size(src));
}

size_t service_list_count(const struct service_name_list *list)
{
	return (size_t)list->count + list->more_count;
}

const char *service_list_name(const struct service *svc, const struct service_name_list *list,
			      size_t i, char *buf)
{
	const char *p;
	size_t len;

	if (i < list->count)
		return service_str(svc, list->name[i]);
	p = service_str(svc, list->more);
	for (i -= list->count; i > 0 && p; i--)
		p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
	if (!p)
		return "";
	len = strcspn(p, " ");
	if (len >= SERVICE_NAME_MAX)
		len = SERVICE_NAME_MAX - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return buf;
}

bool service_lists(const struct service *svc, const struct service_name_list *list,
		   const char *name)
{
	char buf[SERVICE_NAME_MAX];

	for (size_t i = 0; i < service_list_count(list); i++)
		if (strcmp(service_list_name(svc, list, i, buf), name) == 0)
			return true;
	return false;
}

/* U5: the execution environment's strings. */
static size_t execenv_refs(struct service *s, strref **refs, size_t n)
{
	refs[n++] = &s->execenv.input_path;
	refs[n++] = &s->execenv.tty_path;
	refs[n++] = &s->execenv.pam_name;
	refs[n++] = &s->execenv.utmp_id;
	for (int i = 0; i < SERVICE_DIR_KINDS; i++)
		refs[n++] = &s->execenv.dirs[i];
	for (int i = 0; i < SERVICE_PATH_KINDS; i++)
		refs[n++] = &s->execenv.paths[i];
	for (int i = 0; i < SECCOMP_TEXT_KINDS; i++) /* seccomp keys */
		refs[n++] = &s->execenv.seccomp_text[i];
	/* exec keys (sandbox-more) */
	refs[n++] = &s->execmore.cpu_affinity;
	refs[n++] = &s->execmore.device_allow;
	refs[n++] = &s->execmore.ip_allow;
	refs[n++] = &s->execmore.ip_deny;
	refs[n++] = &s->execmore.credentials;
	refs[n++] = &s->execmore.unset_env;
	refs[n++] = &s->execmore.pass_env;
	refs[n++] = &s->execmore.apparmor_profile;
	return n;
}
#define EXECENV_REFS (4 + SERVICE_DIR_KINDS + SERVICE_PATH_KINDS + SECCOMP_TEXT_KINDS + 8 /* sandbox-more */)

/* Every live strref, so storage can be compacted after values were replaced. */
#define REFS_MAX (1 + 4 * SERVICE_DEPS_MAX + LIST_MORE_REFS + SERVICE_CONDITION_MAX + 3 * SERVICE_EXEC_MAX + \
		  2 + SERVICE_GROUPS_MAX + 1 + SERVICE_ENV_MAX + SERVICE_ENVFILE_MAX + 2 + \
		  U2_REFS_MAX + SOCKET_LISTEN_MAX + SOCKET_SYMLINKS_MAX + 5 /* U4 */ + REFS_U1 + \
		  EXECENV_REFS + 1 /* sockets-accept */ + 1 /* journal */ + 15 /* kinds, timers, paths */ + \
		  SERVICE_EXEC_MAX /* socket-exec */)
/* U2: lifecycle strings */
#define LIST_MORE_REFS 14 /* the overflow of each name list */
#define U2_REFS_MAX (4 * SERVICE_EXEC_MAX + 2 * SERVICE_DEPS_MAX + 1)
#define REFS_U1 (8 * SERVICE_DEPS_MAX + 1) /* U1: more dependencies, [Install] */

static size_t add_list_refs(strref **refs, size_t n, strref *list, size_t count)
{
	for (size_t i = 0; i < count; i++)
		refs[n++] = &list[i];
	return n;
}

static size_t collect_refs(struct service *s, strref **refs)
{
	size_t n = 0;

	refs[n++] = &s->description;
	n = add_list_refs(refs, n, s->after.name, s->after.count);
	refs[n++] = &s->after.more;
	n = add_list_refs(refs, n, s->before.name, s->before.count);
	refs[n++] = &s->before.more;
	n = add_list_refs(refs, n, s->requires.name, s->requires.count);
	refs[n++] = &s->requires.more;
	n = add_list_refs(refs, n, s->wants.name, s->wants.count);
	refs[n++] = &s->wants.more;
	for (size_t i = 0; i < s->condition_count; i++)
		refs[n++] = &s->condition[i].value;
	n = add_list_refs(refs, n, s->exec_start_pre.line, s->exec_start_pre.count);
	n = add_list_refs(refs, n, s->exec_start.line, s->exec_start.count);
	n = add_list_refs(refs, n, s->exec_stop.line, s->exec_stop.count);
	refs[n++] = &s->user;
	refs[n++] = &s->group;
	n = add_list_refs(refs, n, s->supplementary_group, s->group_count);
	refs[n++] = &s->working_directory;
	n = add_list_refs(refs, n, s->env, s->env_count);
	for (size_t i = 0; i < s->envfile_count; i++)
		refs[n++] = &s->envfile[i].path;
	refs[n++] = &s->std_output.path;
	refs[n++] = &s->std_error.path;
	refs[n++] = &s->syslog_identifier; /* journal */
	/* U2: lifecycle */
	n = add_list_refs(refs, n, s->exec_start_post.line, s->exec_start_post.count);
	n = add_list_refs(refs, n, s->exec_condition.line, s->exec_condition.count);
	n = add_list_refs(refs, n, s->exec_reload.line, s->exec_reload.count);
	n = add_list_refs(refs, n, s->exec_stop_post.line, s->exec_stop_post.count);
	n = add_list_refs(refs, n, s->on_failure.name, s->on_failure.count);
	refs[n++] = &s->on_failure.more;
	n = add_list_refs(refs, n, s->on_success.name, s->on_success.count);
	refs[n++] = &s->on_success.more;
	refs[n++] = &s->pid_file;
	/* U4: socket units and Type=dbus */
	for (size_t i = 0; i < s->sock.listen_count; i++)
		refs[n++] = &s->sock.listen[i].address;
	refs[n++] = &s->sock.user;
	refs[n++] = &s->sock.group;
	refs[n++] = &s->sock.fdname;
	refs[n++] = &s->sock.service;
	n = add_list_refs(refs, n, s->sock.symlink, s->sock.symlink_count);
	n = add_list_refs(refs, n, s->sock.exec_stop_pre.line, s->sock.exec_stop_pre.count);
	refs[n++] = &s->bus_name;
	refs[n++] = &s->also_named; /* sockets-accept */
	/* U1: more dependencies, [Install] */
	n = add_list_refs(refs, n, s->requisite.name, s->requisite.count);
	refs[n++] = &s->requisite.more;
	n = add_list_refs(refs, n, s->binds_to.name, s->binds_to.count);
	refs[n++] = &s->binds_to.more;
	n = add_list_refs(refs, n, s->part_of.name, s->part_of.count);
	refs[n++] = &s->part_of.more;
	n = add_list_refs(refs, n, s->conflicts.name, s->conflicts.count);
	refs[n++] = &s->conflicts.more;
	n = add_list_refs(refs, n, s->wanted_by.name, s->wanted_by.count);
	refs[n++] = &s->wanted_by.more;
	n = add_list_refs(refs, n, s->required_by.name, s->required_by.count);
	refs[n++] = &s->required_by.more;
	n = add_list_refs(refs, n, s->alias.name, s->alias.count);
	refs[n++] = &s->alias.more;
	n = add_list_refs(refs, n, s->also.name, s->also.count);
	refs[n++] = &s->also.more;
	refs[n++] = &s->default_instance;
	/* unit kinds, runtime keys and timer units: every other string of the unit */
	refs[n++] = &s->kinds.what;
	refs[n++] = &s->kinds.where;
	refs[n++] = &s->kinds.fstype;
	refs[n++] = &s->kinds.options;
	refs[n++] = &s->kinds.slice;
	refs[n++] = &s->kinds.mounts_for[0];
	refs[n++] = &s->kinds.mounts_for[1];
	refs[n++] = &s->kinds.delegate_subgroup;
	refs[n++] = &s->sockets;
	refs[n++] = &s->reload_from;
	refs[n++] = &s->reload_to;
	refs[n++] = &s->timer.calendar;
	refs[n++] = &s->timer.unit;
	refs[n++] = &s->path_unit.watches;
	refs[n++] = &s->path_unit.unit;
	return execenv_refs(s, refs, n);
}

/* Drop the text of replaced values by copying the live strings to the front. */
static void text_compact(struct service *svc)
{
	char old[SERVICE_TEXT_MAX];
	strref *refs[REFS_MAX];
	size_t n = collect_refs(svc, refs);

	memcpy(old, svc->text, svc->text_used);
	svc->text_used = 1;
	for (size_t i = 0; i < n; i++) {
		size_t len;
		if (!*refs[i])
			continue;
		len = strlen(old + *refs[i]) + 1;
		memcpy(svc->text + svc->text_used, old + *refs[i], len);
		*refs[i] = svc->text_used;
		svc->text_used = (uint16_t)(svc->text_used + len);
	}
}

/* Store s; returns its ref, or 0 when the storage is full even after compaction. */
static strref text_add(struct service *svc, const char *s)
{
	size_t len = strlen(s) + 1;
	strref ref;

	if (svc->text_used + len > SERVICE_TEXT_MAX)
		text_compact(svc);
	if (svc->text_used + len > SERVICE_TEXT_MAX)
		return 0;
	ref = svc->text_used;
	memcpy(svc->text + ref, s, len);
	svc->text_used = (uint16_t)(svc->text_used + len);
	return ref;
}

strref service_text_store(struct service *svc, const char *s)
{
	return text_add(svc, s);
}

static int store(struct parser *p, const char *key, const char *value, strref *ref)
{
	*ref = 0; /* the old text becomes garbage, reclaimed by compaction */
	*ref = text_add(p->svc, value);
	if (!*ref)
		return invalid(p, key, value, "too much text in this file (limit "
				   "8192 bytes of values per service)");
	return 0;
}

/* ---- names and lookups ---------------------------------------------------------------- */

bool service_name_valid(const char *name)
{
	return strlen(name) < SERVICE_NAME_MAX && unit_name_valid(name);
}

struct name_value {
	const char *name;
	int value;
};

#define SIGNAL_MAX 64 /* the kernel's last signal, RTMAX in both libcs */

static const struct name_value signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "ILL", SIGILL },
	{ "TRAP", SIGTRAP }, { "ABRT", SIGABRT }, { "BUS", SIGBUS }, { "FPE", SIGFPE },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CHLD", SIGCHLD },
	{ "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN },
	{ "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "IO", SIGIO },
	{ "PWR", SIGPWR }, { "SYS", SIGSYS },
};

/* RTMIN, RTMIN+n, RTMAX, RTMAX-n as systemd reads them: numbered from 34 as glibc does
 * (POWER_SIGRTMIN; musl's SIGRTMIN is 35), so that ReloadSignal=RTMIN+25 reaches systemd
 * --user's 59 whatever libc ember is built with. -1 if bare is none of them. */
static int realtime_signal(const char *bare)
{
	bool min = str_starts_with(bare, "RTMIN");
	unsigned long n = 0;

	if (!min && !str_starts_with(bare, "RTMAX"))
		return -1;
	bare += 5;
	if (*bare && (*bare != (min ? '+' : '-') ||
		      parse_ulong(bare + 1, 0, SIGNAL_MAX - POWER_SIGRTMIN, &n) < 0))
		return -1;
	return min ? POWER_SIGRTMIN + (int)n : SIGNAL_MAX - (int)n;
}

int service_signal_from_name(const char *s)
{
	unsigned long n;
	const char *bare = str_starts_with(s, "SIG") ? s + 3 : s;

	if (parse_ulong(s, 1, SIGNAL_MAX, &n) == 0)
		return (int)n;
	for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
		if (strcmp(bare, signals[i].name) == 0)
			return signals[i].value;
	return realtime_signal(bare);
}

/* Capability numbers are kernel ABI (linux/capability.h); PID 1 links no libcap. */
/* As systemd: a CAP_* name in any case, or a number; the table is lib/exec-context's. */
int service_capability_from_name(const char *s)
{
	if (strncasecmp(s, "cap_", 4) != 0 && !isdigit((unsigned char)*s))
		return -1;
	return exec_cap_from_name(s);
}

/* How each Limit*= value reads. */
enum rlimit_kind { RL_COUNT, RL_SIZE, RL_SECONDS, RL_USEC, RL_NICE };

static const struct {
	const char *key;
	int resource;
	enum rlimit_kind kind;
} rlimit_keys[] = {
	{ "LimitCPU", RLIMIT_CPU, RL_SECONDS }, { "LimitFSIZE", RLIMIT_FSIZE, RL_SIZE },
	{ "LimitDATA", RLIMIT_DATA, RL_SIZE }, { "LimitSTACK", RLIMIT_STACK, RL_SIZE },
	{ "LimitCORE", RLIMIT_CORE, RL_SIZE }, { "LimitRSS", RLIMIT_RSS, RL_SIZE },
	{ "LimitNOFILE", RLIMIT_NOFILE, RL_COUNT }, { "LimitAS", RLIMIT_AS, RL_SIZE },
	{ "LimitNPROC", RLIMIT_NPROC, RL_COUNT }, { "LimitMEMLOCK", RLIMIT_MEMLOCK, RL_SIZE },
	{ "LimitLOCKS", RLIMIT_LOCKS, RL_COUNT }, { "LimitSIGPENDING", RLIMIT_SIGPENDING, RL_COUNT },
	{ "LimitMSGQUEUE", RLIMIT_MSGQUEUE, RL_SIZE }, { "LimitNICE", RLIMIT_NICE, RL_NICE },
	{ "LimitRTPRIO", RLIMIT_RTPRIO, RL_COUNT }, { "LimitRTTIME", RLIMIT_RTTIME, RL_USEC },
};
#define RLIMIT_KEY_COUNT (sizeof rlimit_keys / sizeof *rlimit_keys)

int service_rlimit_from_key(const char *key)
{
	for (size_t i = 0; i < RLIMIT_KEY_COUNT; i++)
		if (strcmp(key, rlimit_keys[i].key) == 0)
			return rlimit_keys[i].resource;
	return -1;
}

/* ---- value parsers: each returns 0, or -1 after invalid() ------------------------------ */

/* A systemd.time(7) span: "90", "1min 30s", "1.5h", "500ms", "infinity" -> ms, read by
 * the one reader emberctl shares (lib/parse.c), so a unit means the same everywhere. */
static int parse_timespan_ms(const char *s, unsigned long *out)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return parse_duration_ms(s, out);
}

static void *field(struct parser *p, size_t offset)
{
	return (char *)p->svc + offset;
}

struct key;
typedef int parse_fn(struct parser *p, const struct key *k, const char *value);

struct key {
	enum section section;
	const char *name;
	parse_fn *parse;
	size_t offset;   /* the field in struct service */
	long min, max;   /* range for integer keys */
	bool specifiers; /* expand %n, %N, %p, %% first */
};

static int parse_string(struct parser *p, const struct key *k, const char *value)
{
	strref *ref = field(p, k->offset);

	if (!*value) {
		*ref = 0;
		return 0;
	}
	return store(p, k->name, value, ref);
}

static int parse_bool_key(struct parser *p, const struct key *k, const char *value)
{
	bool *b = field(p, k->offset);

	if (!*value) {
		*b = k->min != 0; /* the key's default */
		return 0;
	}
	if (parse_bool(value, b) < 0)
		return invalid(p, k->name, value, "expected yes or no");
	return 0;
}

static int parse_int_key(struct parser *p, const struct key *k, const char *value)
{
	struct service_int *v = field(p, k->offset);
	long n;

	if (!*value) {
		v->set = false;
		return 0;
	}
	if (parse_long(value, k->min, k->max, &n) < 0) {
		char why[64];
		snprintf(why, sizeof why, "expected an integer from %ld to %ld", k->min, k->max);
		return invalid(p, k->name, value, why);
	}
	v->set = true;
	v->value = (int)n;
	return 0;
}

static int parse_weight(struct parser *p, const struct key *k, const char *value)
{
	unsigned *w = field(p, k->offset);
	unsigned long n;

	if (!*value) {
		*w = 0;
		return 0;
	}
	if (parse_ulong(value, 1, 10000, &n) < 0)
		return invalid(p, k->name, value, "expected a weight from 1 to 10000");
	*w = (unsigned)n;
	return 0;
}

/* "N%" or "N.NN%" (0 to 100) in hundredths of a percent; -1 when value is not one. */
static long parse_percent(const char *value)
{
	unsigned long whole, frac = 0;
	const char *dot = strchr(value, '.'), *pct = strchr(value, '%');
	char digits[16];
	size_t n;

	if (!pct || pct[1] || pct == value || (size_t)(pct - value) >= sizeof digits)
		return -1;
	n = (size_t)((dot && dot < pct ? dot : pct) - value);
	memcpy(digits, value, n);
	digits[n] = '\0';
	if (parse_ulong(digits, 0, 100, &whole) < 0)
		return -1;
	if (dot && dot < pct) {
		n = (size_t)(pct - dot - 1);
		if (n < 1 || n > 2)
			return -1;
		memcpy(digits, dot + 1, n);
		digits[n] = '\0';
		if (parse_ulong(digits, 0, 99, &frac) < 0)
			return -1;
		if (n == 1)
			frac *= 10;
	}
	return whole * 100 + frac > 10000 ? -1 : (long)(whole * 100 + frac);
}

/* What systemd takes a percentage of: MemoryMax=, MemoryHigh=, MemorySwapMax=, MemoryMin=,
 * MemoryLow= of the RAM,
 * TasksMax= of the most tasks the kernel allows: the smaller of kernel.pid_max - 1 (PIDs
 * stay below pid_max, and 0 is none) and kernel.threads-max, as systemd's
 * system_tasks_max() (a service's and a slice's TasksMax= alike). */
static unsigned long long percent_base(const struct key *k)
{
	static const char *const task_limits[] = { "/proc/sys/kernel/pid_max",
						   "/proc/sys/kernel/threads-max" };
	unsigned long long base = ~0ULL;
	char text[32];
	unsigned long n;

	if (k->offset != offsetof(struct service, tasks_max)) {
		long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		return pages > 0 && size > 0 ? (unsigned long long)pages * (unsigned long long)size
					     : ~0ULL;
	}
	for (size_t i = 0; i < sizeof task_limits / sizeof *task_limits; i++) {
		ssize_t len = io_read_file(task_limits[i], text, sizeof text);
		if (len <= 0)
			continue;
		text[strcspn(text, "\n")] = '\0';
		if (parse_ulong(text, 1, ~0UL, &n) < 0)
			continue;
		if (i == 0)
			n--; /* pid_max: 0 is no PID */
		if (n > 0 && n < base)
			base = n;
	}
	return base;
}

/* A limit given as a percentage: computed when the file is read, as systemd does. */
static int limit_from_percent(struct parser *p, const struct key *k, const char *value,
			      unsigned long long *v)
{
	long bp = parse_percent(value);
	unsigned long long base = percent_base(k);

	if (bp < 0)
		return invalid(p, k->name, value, "expected a percentage from 0% to 100%");
	if (base == ~0ULL) {
		*v = ~0ULL;
		return 0;
	}
	*v = base / 10000 * (unsigned long long)bp + base % 10000 * (unsigned long long)bp / 10000;
	if (*v == 0)
		*v = 1;
	return 0;
}

static int parse_bytes(struct parser *p, const struct key *k, const char *value)
{
	unsigned long long *v = field(p, k->offset);

	if (!*value) {
		*v = ~0ULL;
		return 0;
	}
	if (strchr(value, '%'))
		return limit_from_percent(p, k, value, v);
	if (parse_size(value, v) < 0)
		return invalid(p, k->name, value,
			       "expected bytes with an optional K, M, G or T suffix, a percentage "
			       "or infinity");
	return 0;
}

/* MemoryLimit=, cgroup v1's name: as systemd on cgroup2, it is applied as MemoryMax= when
 * the unit sets neither MemoryMax= nor MemoryHigh= (see apply_memory_limit()). */
static int parse_memory_limit(struct parser *p, const struct key *k, const char *value)
{
	unsigned long long v = ~0ULL;

	if (*value && strchr(value, '%'))
		return limit_from_percent(p, k, value, &p->memory_limit);
	if (*value && parse_size(value, &v) < 0)
		return invalid(p, k->name, value,
			       "expected bytes with an optional K, M, G or T suffix, a percentage "
			       "or infinity");
	p->memory_limit = v;
	return 0;
}

static void apply_memory_limit(const struct parser *p)
{
	if (p->memory_limit != ~0ULL && p->svc->memory_max == ~0ULL &&
	    p->svc->memory_high == ~0ULL)
		p->svc->memory_max = p->memory_limit;
}

/* MemoryMin=, MemoryLow=: memory the kernel does not reclaim from the service (systemd-oomd
 * keeps 64M). Unlike the limits, an empty value is the default, no protection (0). */
static int parse_protection(struct parser *p, const struct key *k, const char *value)
{
	unsigned long long *v = field(p, k->offset);

	if (!*value) {
		*v = 0;
		return 0;
	}
	return parse_bytes(p, k, value);
}

static int parse_count(struct parser *p, const struct key *k, const char *value)
{
	unsigned long long *v = field(p, k->offset);
	unsigned long n;

	if (!*value || strcmp(value, "infinity") == 0) {
		*v = ~0ULL;
		return 0;
	}
	if (strchr(value, '%'))
		return limit_from_percent(p, k, value, v);
	if (parse_ulong(value, 1, ~0UL, &n) < 0)
		return invalid(p, k->name, value,
			       "expected a positive number, a percentage or infinity");
	*v = n;
	return 0;
}

/* OOMPolicy=: ember leaves a unit alone when the kernel's OOM killer ends one of its
 * processes, which is systemd's "continue" (Apache's unit asks for it); "stop" and "kill"
 * are what it does not do. */
static int parse_oom_policy(struct parser *p, const struct key *k, const char *value)
{
	if (!*value || strcmp(value, "stop") == 0 || strcmp(value, "kill") == 0) {
		warn(p, "%s: not supported by ember: the kernel's OOM kill of one process does "
			"not stop the unit", k->name);
		return 0;
	}
	if (strcmp(value, "continue") != 0)
		return invalid(p, k->name, value, "expected continue, stop or kill");
	return 0;
}

static int parse_type(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value types[] = {
		{ "", SERVICE_SIMPLE }, { "simple", SERVICE_SIMPLE },
		{ "oneshot", SERVICE_ONESHOT }, { "notify", SERVICE_NOTIFY },
		{ "exec", SERVICE_EXEC }, { "forking", SERVICE_FORKING }, { "idle", SERVICE_IDLE },
		{ "notify-reload", SERVICE_NOTIFY_RELOAD },
		{ "dbus", SERVICE_DBUS }, /* U4 */
	};
	for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
		if (strcmp(value, types[i].name) == 0) {
			p->svc->type = (enum service_type)types[i].value;
			p->svc->type_set = *value != '\0'; /* sockets-accept */
			return 0;
		}
	}
	return invalid(p, k->name, value, "expected simple, exec, forking, oneshot, notify, "
				   "notify-reload, dbus or idle");
}

/* U4: BusName=: a well-known D-Bus name, checked as the bus would check it. */
static int parse_bus_name(struct parser *p, const struct key *k, const char *value)
{
	if (*value && !dbus_name_valid(value))
		return invalid(p, k->name, value, "not a valid well-known D-Bus name (two or more "
			       "dot-separated elements of A-Z a-z 0-9 _ -, not starting with a digit)");
	return parse_string(p, k, value);
}

static int parse_restart(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value modes[] = {
		{ "", RESTART_NO }, { "no", RESTART_NO },
		{ "on-failure", RESTART_ON_FAILURE }, { "always", RESTART_ALWAYS },
		{ "on-success", RESTART_ON_SUCCESS }, { "on-abnormal", RESTART_ON_ABNORMAL },
		{ "on-abort", RESTART_ON_ABORT }, { "on-watchdog", RESTART_ON_WATCHDOG },
	};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		if (strcmp(value, modes[i].name) == 0) {
			p->svc->restart = (enum service_restart)modes[i].value;
			return 0;
		}
	}
	return invalid(p, k->name, value, "expected no, always, on-success, on-failure, "
				   "on-abnormal, on-abort or on-watchdog");
}

/* RestartMode=: debug (more logging while restarts go on) is read as normal. */
static int parse_restart_mode(struct parser *p, const struct key *k, const char *value)
{
	if (!*value || strcmp(value, "normal") == 0 || strcmp(value, "debug") == 0 ||
	    strcmp(value, "direct") == 0) {
		p->svc->restart_direct = strcmp(value, "direct") == 0;
		return 0;
	}
	return invalid(p, k->name, value, "expected normal, direct or debug");
}

/* RestartSec=: a time span; "infinity" makes no sense between restarts. */
static int parse_restart_sec(struct parser *p, const struct key *k, const char *value)
{
	unsigned long ms;

	if (!*value) {
		p->svc->restart_ms = 100;
		return 0;
	}
	if (parse_timespan_ms(value, &ms) < 0 || ms == SERVICE_TIMEOUT_INFINITY)
		return invalid(p, k->name, value, "expected a time span such as 5s, 500ms or 1min");
	p->svc->restart_ms = ms;
	return 0;
}

/* RestartMaxDelaySec=, StartLimitIntervalSec=, LogRateLimitIntervalSec=: a time span;
 * "" restores the default (k->min); k->max, when not 0, is a ceiling in ms. */
static int parse_span_key(struct parser *p, const struct key *k, const char *value)
{
	unsigned long *v = field(p, k->offset), ms;
	char why[96];

	if (!*value) {
		*v = (unsigned long)k->min;
		return 0;
	}
	if (parse_timespan_ms(value, &ms) < 0 || (k->max > 0 && ms > (unsigned long)k->max)) {
		int n = snprintf(why, sizeof why, "expected a time span such as 5s, 500ms or 1min");
		if (k->max > 0)
			snprintf(why + n, sizeof why - (size_t)n, ", up to %lds", k->max / 1000);
		return invalid(p, k->name, value, why);
	}
	*v = ms;
	return 0;
}

/* StartLimitBurst= (failures), LogRateLimitBurst= (lines): a count up to k->max, 0
 * turning the limit off; "" restores the default (k->min). */
static int parse_count_key(struct parser *p, const struct key *k, const char *value)
{
	unsigned *v = field(p, k->offset);
	unsigned long n;
	char why[64];

	if (!*value) {
		*v = (unsigned)k->min;
		return 0;
	}
	if (parse_ulong(value, 0, (unsigned long)k->max, &n) < 0) {
		snprintf(why, sizeof why, "expected a number up to %ld (0: no limit)", k->max);
		return invalid(p, k->name, value, why);
	}
	*v = (unsigned)n;
	return 0;
}

/* Timeout*Sec=: a time span; 0 and "infinity" both mean no timeout (as in systemd). */
static int parse_timeout(struct parser *p, const char *key, const char *value,
			 unsigned long *out, unsigned long dflt)
{
	unsigned long ms;

	if (!*value) {
		*out = dflt;
		return 0;
	}
	if (parse_timespan_ms(value, &ms) < 0)
		return invalid(p, key, value, "expected a time span such as 90s or infinity");
	*out = ms == 0 ? SERVICE_TIMEOUT_INFINITY : ms;
	return 0;
}

#define TIMEOUT_START_DEFAULT_MS 90000UL
#define TIMEOUT_STOP_DEFAULT_MS 10000UL

static int parse_timeout_key(struct parser *p, const struct key *k, const char *value)
{
	unsigned long dflt = k->offset == offsetof(struct service, timeout_start_ms)
				     ? TIMEOUT_START_DEFAULT_MS : TIMEOUT_STOP_DEFAULT_MS;
	return parse_timeout(p, k->name, value, field(p, k->offset), dflt);
}

/* TimeoutSec= sets both. */
static int parse_timeout_both(struct parser *p, const struct key *k, const char *value)
{
	if (parse_timeout(p, k->name, value, &p->svc->timeout_start_ms,
			  TIMEOUT_START_DEFAULT_MS) < 0)
		return -1;
	return parse_timeout(p, k->name, value, &p->svc->timeout_stop_ms, TIMEOUT_STOP_DEFAULT_MS);
}

static int parse_signal(struct parser *p, const struct key *k, const char *value)
{
	int sig = *value ? service_signal_from_name(value) : SIGTERM;

	if (sig < 0)
		return invalid(p, k->name, value, "expected a signal name (SIGTERM, TERM) or number");
	p->svc->kill_signal = sig;
	return 0;
}

static int parse_umask(struct parser *p, const struct key *k, const char *value)
{
	unsigned long mask = 0;

	if (!*value) {
		p->svc->umask_set = false;
		return 0;
	}
	for (const char *c = value; *c; c++) {
		if (*c < '0' || *c > '7' || mask > 0777)
			return invalid(p, k->name, value, "expected an octal mode from 0000 to 0777");
		mask = mask * 8 + (unsigned long)(*c - '0');
	}
	if (mask > 0777)
		return invalid(p, k->name, value, "expected an octal mode from 0000 to 0777");
	p->svc->umask_set = true;
	p->svc->umask = (unsigned)mask;
	return 0;
}

/* User and group names as shadow-utils accepts them, or numeric ids. */
bool service_account_name_valid(const char *s)
{
	unsigned long id;
	size_t len = strlen(s);

	if (parse_ulong(s, 0, 4294967294UL, &id) == 0)
		return true;
	if (len == 0 || len > 31 || s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
			  (c == '$' && i == len - 1);
		if (!ok)
			return false;
	}
	return true;
}

static int parse_account(struct parser *p, const struct key *k, const char *value)
{
	if (*value && !service_account_name_valid(value))
		return invalid(p, k->name, value, "not a valid user or group name or id");
	return parse_string(p, k, value);
}

static bool path_absolute_clean(const char *path)
{
	return path[0] == '/' && !strstr(path, "/../") &&
	       !(strlen(path) >= 3 && strcmp(path + strlen(path) - 3, "/..") == 0);
}

static int parse_working_directory(struct parser *p, const struct key *k, const char *value)
{
	struct service *svc = p->svc;
	bool optional = value[0] == '-';
	const char *path = optional ? value + 1 : value;

	if (!*value) {
		svc->working_directory = 0;
		svc->working_directory_optional = false;
		return 0;
	}
	if (strcmp(path, "~") != 0 && !path_absolute_clean(path))
		return invalid(p, k->name, value, "expected an absolute path or ~");
	svc->working_directory_optional = optional;
	return store(p, k->name, path, &svc->working_directory);
}

static int parse_groups(struct parser *p, const struct key *k, const char *value)
{
	struct service *svc = p->svc;
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	if (!*value) {
		svc->group_count = 0;
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *g = strtok_r(copy, " \t", &save); g; g = strtok_r(NULL, " \t", &save)) {
		if (!service_account_name_valid(g))
			return invalid(p, k->name, g, "not a valid group name or id");
		if (svc->group_count >= SERVICE_GROUPS_MAX)
			return invalid(p, k->name, value, "more than 16 groups");
		if (store(p, k->name, g, &svc->supplementary_group[svc->group_count]) < 0)
			return -1;
		svc->group_count++;
	}
	return 0;
}

static bool name_listed(const struct service *svc, const struct service_name_list *list,
			const char *name)
{
	return service_lists(svc, list, name);
}

/* unit kinds (unit-kinds): a dependency on a kind ember does not have. Ordering against
 * a unit that never runs, and anything about a scope (made at run time by logind or a
 * container manager, never by a file), changes nothing: a note. Pulling in or enabling
 * a unit of a kind ember cannot run is a warning. */
static void foreign_dependency(struct parser *p, const char *key, const char *full)
{
	size_t n = strlen(full);
	bool scope = n > 6 && strcmp(full + n - 6, ".scope") == 0;
	char message[SERVICE_ERROR_MAX];

	if (scope || strcmp(key, "After") == 0 || strcmp(key, "Before") == 0) {
		if (p->diag && p->diag->notes) {
			if (snprintf(message, sizeof message, "%s=%.100s: ember has no units of this "
				     "kind; %s", key, full, scope ? "scopes are made at run time, ignored"
				     : "ordering against a unit that never runs changes nothing") < 0)
				return;
			report(p->diag, SERVICE_NOTE, p->svc->path, p->line, message);
		}
		return;
	}
	warn(p, "%s=%s: ember has no units of this kind, ignored", key, full);
}

/* Dependency names are full unit names ("foo.service", "x.target"; a bare "foo" means a
 * service) stored canonically. Kinds ember does not have are noted and ignored. */
static int add_dependency(struct parser *p, const struct key *k, struct service_name_list *list,
			  const char *full)
{
	char name[SERVICE_NAME_MAX];
	enum unit_kind kind;
	int rc = unit_name_canonical(full, name, sizeof name, &kind);

	if (rc == -2) { /* unit kinds (unit-kinds): scopes */
		foreign_dependency(p, k->name, full);
		return 0;
	}
	if (rc < 0)
		return invalid(p, k->name, full, "not a valid unit name");
	if (!strchr(full, '.'))
		/* ember's own shorthand; systemd refuses such a name and drops the dependency
		 * (inputlirc.service: After=udev lircd) */
		note(p, "%s=%s: no unit type; ember reads %s.service, systemd ignores the name",
		     k->name, full, full);
	if (kind == UNIT_DEVICE && strcmp(k->name, "Before") == 0) {
		/* a device is there when the kernel says so: nothing can make it wait */
		note(p, "Before=%s: ignored, as systemd ignores it (.device units cannot be "
		     "delayed)", full);
		return 0;
	}
	if (strcmp(name, p->svc->name) == 0) {
		/* dropped, as systemd drops it (keystone.service: After= itself); an Alias=
		 * read through its own link (emberctl verify of garbd.service, a link to
		 * garb.service) the same */
		if (strcmp(k->name, "Alias") != 0)
			note(p, "%s=%s: names the unit itself, dropped, as systemd drops it",
			     k->name, full);
		return 0;
	}
	if (name_listed(p->svc, list, name))
		return 0;
	if (list->count >= SERVICE_DEPS_MAX)
		return service_add_name(p->svc, list, name) < 0 ?
		       invalid(p, k->name, full, "too much text in this file (limit 8192 bytes "
			       "of values per service)") : 0;
	if (store(p, k->name, name, &list->name[list->count]) < 0)
		return -1;
	list->count++;
	return 0;
}

static int parse_names(struct parser *p, const struct key *k, const char *value)
{
	struct service_name_list *list = field(p, k->offset);
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	if (!*value) {
		list->count = 0;
		list->more_count = 0; /* the loader's overflow goes too */
		list->more = 0;
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *n = strtok_r(copy, " \t", &save); n; n = strtok_r(NULL, " \t", &save))
		if (add_dependency(p, k, list, n) < 0)
			return -1;
	return 0;
}

/* U3: Condition*= and Assert*=. An empty value resets the conditions (or the asserts)
 * read so far, as systemd does. */
static int parse_condition(struct parser *p, const char *key, const char *value)
{
	struct service *svc = p->svc;
	struct service_condition c = { 0 };
	bool assert = false;
	int kind = condition_kind_from_key(key, &assert);
	const char *rest = value;
	char why[128];

	c.kind = (uint8_t)kind;
	c.assert = assert;
	if (!*value) {
		size_t kept = 0;
		for (size_t i = 0; i < svc->condition_count; i++)
			if (svc->condition[i].assert != assert)
				svc->condition[kept++] = svc->condition[i];
		svc->condition_count = (uint8_t)kept;
		return 0;
	}
	for (;; rest++) {
		if (*rest == '|' && !c.trigger)
			c.trigger = true;
		else if (*rest == '!' && !c.negate)
			c.negate = true;
		else if (*rest != ' ')
			break;
	}
	if (condition_value_check((enum condition_kind)kind, rest, why, sizeof why) < 0)
		return invalid(p, key, value, why);
	if (svc->condition_count >= SERVICE_CONDITION_MAX)
		return invalid(p, key, value, "more than 16 conditions and asserts");
	if (store(p, key, rest, &c.value) < 0)
		return -1;
	svc->condition[svc->condition_count++] = c;
	return 0;
}

static int parse_exec(struct parser *p, const struct key *k, const char *value)
{
	struct service_exec_list *list = field(p, k->offset);
	struct exec_argv scratch;

	if (!*value) {
		list->count = 0;
		return 0;
	}
	if (exec_line_check(value, &scratch) < 0)
		return invalid(p, k->name, value, scratch.error);
	if (scratch.relaxed)
		warn(p, "%s=: unknown escape sequences are kept as written (the backslash too), "
		     "as systemd corrects them", k->name);
	if (list->count >= SERVICE_EXEC_MAX)
		return invalid(p, k->name, value, "more than 8 command lines for this key");
	if (store(p, k->name, value, &list->line[list->count]) < 0)
		return -1;
	list->count++;
	return 0;
}

static bool env_name_valid(const char *s, size_t len)
{
	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

static int add_env(struct parser *p, const struct key *k, const char *assignment)
{
	struct service *svc = p->svc;
	const char *eq = strchr(assignment, '=');

	if (!eq || !env_name_valid(assignment, (size_t)(eq - assignment)))
		return invalid(p, k->name, assignment, "expected NAME=value with NAME of "
						       "letters, digits and _");
	if (svc->env_count >= SERVICE_ENV_MAX)
		return invalid(p, k->name, assignment, "more than 64 assignments");
	if (store(p, k->name, assignment, &svc->env[svc->env_count]) < 0)
		return -1;
	svc->env_count++;
	return 0;
}

static int parse_environment(struct parser *p, const struct key *k, const char *value)
{
	struct exec_argv words;

	if (!*value) {
		p->svc->env_count = 0;
		return 0;
	}
	if (exec_words_split(value, &words) < 0)
		return invalid(p, k->name, value, words.error);
	for (size_t i = 0; i < words.argc; i++)
		if (add_env(p, k, words.argv[i]) < 0)
			return -1;
	return 0;
}

static int parse_envfile(struct parser *p, const struct key *k, const char *value)
{
	struct service *svc = p->svc;
	struct service_envfile e = { .optional = value[0] == '-' };
	const char *path = e.optional ? value + 1 : value;

	if (!*value) {
		svc->envfile_count = 0;
		return 0;
	}
	if (!path_absolute_clean(path))
		return invalid(p, k->name, value, "expected an absolute path, optionally after -");
	if (svc->envfile_count >= SERVICE_ENVFILE_MAX)
		return invalid(p, k->name, value, "more than 8 environment files");
	if (store(p, k->name, path, &e.path) < 0)
		return -1;
	svc->envfile[svc->envfile_count++] = e;
	return 0;
}

/* CapabilityBoundingSet= and AmbientCapabilities=: the first line sets, later lines add
 * ("~" lines remove); an empty assignment is the empty set. As systemd.exec(5). */
static int parse_caps(struct parser *p, const struct key *k, const char *value)
{
	bool bounding = k->offset == offsetof(struct service, cap_bounding);
	bool *set = bounding ? &p->svc->cap_bounding_set : NULL;
	uint64_t *caps = field(p, k->offset);
	bool first = bounding ? !*set : *caps == 0;
	bool invert = value[0] == '~';
	uint64_t listed = 0;
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	str_copy(copy, sizeof copy, invert ? value + 1 : value);
	for (char *c = strtok_r(copy, " \t", &save); c; c = strtok_r(NULL, " \t", &save)) {
		int cap = service_capability_from_name(c);
		if (cap < 0)
			return invalid(p, k->name, c, "unknown capability (expected CAP_* names "
						      "from capabilities(7))");
		listed |= (uint64_t)1 << cap;
	}
	if (!*value)
		*caps = 0;
	else if (first)
		*caps = invert ? ~listed : listed;
	else
		*caps = invert ? (*caps & ~listed) : (*caps | listed);
	if (set)
		*set = true;
	return 0;
}


/* ---- Limit*= ---------------------------------------------------------------------------- */

static int rlimit_value(enum rlimit_kind kind, const char *s, rlim_t *out)
{
	unsigned long long bytes;
	unsigned long n;
	long nice;

	if (strcmp(s, "infinity") == 0) {
		*out = RLIM_INFINITY;
		return 0;
	}
	switch (kind) {
	case RL_SIZE:
		if (parse_size(s, &bytes) < 0)
			return -1;
		*out = bytes == ~0ULL ? RLIM_INFINITY : (rlim_t)bytes;
		return 0;
	case RL_COUNT:
		if (parse_ulong(s, 0, ~0UL, &n) < 0)
			return -1;
		*out = n;
		return 0;
	case RL_SECONDS:
		if (parse_timespan_ms(s, &n) < 0)
			return -1;
		*out = n / 1000 + (n % 1000 != 0); /* round up: 0 would kill at once */
		return 0;
	case RL_USEC:
		if (parse_ulong(s, 0, ~0UL, &n) == 0) {
			*out = n;
			return 0;
		}
		if (parse_timespan_ms(s, &n) < 0 || n > ~0UL / 1000)
			return -1;
		*out = (rlim_t)n * 1000;
		return 0;
	case RL_NICE:
		/* "+5"/"-5" are nice levels (20 - nice), a bare number is the raw 0..40. */
		if ((s[0] == '+' || s[0] == '-') && parse_long(s, -20, 19, &nice) == 0) {
			*out = (rlim_t)(20 - nice);
			return 0;
		}
		if (parse_ulong(s, 0, 40, &n) < 0)
			return -1;
		*out = n;
		return 0;
	}
	return -1;
}

static int parse_rlimit(struct parser *p, const char *key, const char *value)
{
	struct service *svc = p->svc;
	char soft[64], *hard;
	size_t i = 0;

	while (strcmp(rlimit_keys[i].key, key) != 0)
		i++;
	if (!*value) {
		svc->rlimit_set &= ~(1u << rlimit_keys[i].resource);
		return 0;
	}
	if (str_copy(soft, sizeof soft, value) < 0)
		return invalid(p, key, value, "value too long");
	hard = strchr(soft, ':');
	if (hard)
		*hard++ = '\0';
	struct rlimit *r = &svc->rlimit[rlimit_keys[i].resource];
	if (rlimit_value(rlimit_keys[i].kind, soft, &r->rlim_cur) < 0 ||
	    rlimit_value(rlimit_keys[i].kind, hard ? hard : soft, &r->rlim_max) < 0)
		return invalid(p, key, value, "expected a limit, SOFT:HARD, or infinity "
					      "(see docs/services.md for units)");
	if (r->rlim_cur > r->rlim_max)
		return invalid(p, key, value, "the soft limit is above the hard limit");
	svc->rlimit_set |= 1u << rlimit_keys[i].resource;
	return 0;
}

/* ---- U5: execution environment (stdio, tty, directories, sandboxing) ---------------------- */

#define EXECENV(member) offsetof(struct service, execenv.member)

/* StandardOutput=/StandardError=. journal and syslog go to journald's stream where it
 * listens, else to ember's log (emberctl log), as "log" always does; the "+console" forms
 * also copy each line to the console; see docs/services.md. */
static int parse_output_key(struct parser *p, const struct key *k, const char *value)
{
	static const struct {
		const char *name;
		enum service_output kind;
		bool console, journal;
	} plain[] = {
		{ "log", OUTPUT_LOG, false, false }, { "journal", OUTPUT_LOG, false, true },
		{ "syslog", OUTPUT_LOG, false, true }, { "console", OUTPUT_CONSOLE, false, false },
		{ "null", OUTPUT_NULL, false, false }, { "inherit", OUTPUT_INHERIT, false, false },
		{ "kmsg", OUTPUT_KMSG, false, false }, { "tty", OUTPUT_TTY, false, false },
		{ "socket", OUTPUT_SOCKET, false, false },
		{ "journal+console", OUTPUT_LOG, true, true },
		{ "syslog+console", OUTPUT_LOG, true, true },
		{ "kmsg+console", OUTPUT_KMSG, true, false },
	};
	static const struct { const char *prefix; enum service_output kind; } files[] = {
		{ "file:", OUTPUT_FILE }, { "append:", OUTPUT_APPEND },
		{ "truncate:", OUTPUT_TRUNCATE },
	};
	struct service_output_spec *out = field(p, k->offset);
	bool is_stderr = k->offset == offsetof(struct service, std_error);

	if (!is_stderr)
		p->svc->execenv.std_output_set = *value != '\0';
	if (!*value)
		value = is_stderr ? "inherit" : "journal";
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
		if (strcmp(value, plain[i].name) != 0)
			continue;
		out->kind = plain[i].kind;
		out->also_console = plain[i].console;
		out->journal = plain[i].journal;
		out->path = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		const char *path = value + strlen(files[i].prefix);
		if (!str_starts_with(value, files[i].prefix))
			continue;
		if (!path_absolute_clean(path))
			return invalid(p, k->name, value, "the file must be an absolute path");
		out->kind = files[i].kind;
		out->also_console = false;
		out->journal = false;
		return store(p, k->name, path, &out->path);
	}
	return invalid(p, k->name, value, "expected inherit, null, tty, journal, syslog, kmsg, "
				      "log, console, socket, X+console, file:, append: or truncate:");
}

/* ---- journal: the header of the stream to journald (journal-stream.c) ---- */

static int parse_syslog_identifier(struct parser *p, const struct key *k, const char *value)
{
	if (!*value) {
		p->svc->syslog_identifier = 0;
		return 0;
	}
	return store(p, k->name, value, &p->svc->syslog_identifier);
}

static int parse_syslog_level(struct parser *p, const struct key *k, const char *value)
{
	static const char *const levels[] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
	};
	uint8_t *prio = &p->svc->syslog_priority;

	if (!*value)
		value = "info";
	for (unsigned i = 0; i < sizeof levels / sizeof *levels; i++)
		if (strcmp(value, levels[i]) == 0) {
			*prio = (uint8_t)((*prio & ~7u) | i);
			return 0;
		}
	return invalid(p, k->name, value, "expected emerg, alert, crit, err, warning, notice, "
				      "info or debug");
}

static int parse_syslog_facility(struct parser *p, const struct key *k, const char *value)
{
	static const char *const facilities[] = {
		"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp",
		"cron", "authpriv", "ftp", NULL, NULL, NULL, NULL, "local0", "local1", "local2",
		"local3", "local4", "local5", "local6", "local7",
	};
	uint8_t *prio = &p->svc->syslog_priority;

	if (!*value)
		value = "daemon";
	for (unsigned i = 0; i < sizeof facilities / sizeof *facilities; i++)
		if (facilities[i] && strcmp(value, facilities[i]) == 0) {
			*prio = (uint8_t)(i << 3 | (*prio & 7u));
			return 0;
		}
	return invalid(p, k->name, value, "expected a syslog facility (daemon, user, local0, ...)");
}

static int parse_input_key(struct parser *p, const struct key *k, const char *value)
{
	static const struct { const char *name; enum service_input kind; } kinds[] = {
		{ "", INPUT_NULL }, { "null", INPUT_NULL }, { "tty", INPUT_TTY },
		{ "tty-force", INPUT_TTY_FORCE }, { "tty-fail", INPUT_TTY_FAIL },
		{ "socket", INPUT_SOCKET },
	};
	struct service_execenv *e = &p->svc->execenv;

	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		if (strcmp(value, kinds[i].name) == 0) {
			e->std_input = kinds[i].kind;
			e->input_path = 0;
			return 0;
		}
	}
	if (str_starts_with(value, "file:")) {
		if (!path_absolute_clean(value + 5))
			return invalid(p, k->name, value, "the file must be an absolute path");
		e->std_input = INPUT_FILE;
		return store(p, k->name, value + 5, &e->input_path);
	}
	return invalid(p, k->name, value, "expected null, tty, tty-force, tty-fail, socket or "
				      "file:PATH (data is not supported)");
}

static int parse_tty_path(struct parser *p, const struct key *k, const char *value)
{
	if (!*value) {
		p->svc->execenv.tty_path = 0;
		return 0;
	}
	if (!path_absolute_clean(value) || !str_starts_with(value, "/dev/"))
		return invalid(p, k->name, value, "expected a terminal under /dev/");
	return store(p, k->name, value, &p->svc->execenv.tty_path);
}

/* UtmpIdentifier=: the utmp id (its last 4 bytes are kept, init/utmp.c); printable,
 * as `who` prints what it finds there. */
static int parse_utmp_id(struct parser *p, const struct key *k, const char *value)
{
	size_t n = strlen(value);

	if (!*value) {
		p->svc->execenv.utmp_id = 0;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)value[i] <= ' ' || (unsigned char)value[i] >= 0x7f)
			n = 0;
	if (n == 0 || n > 32)
		return invalid(p, k->name, value, "expected up to 32 printable characters");
	return store(p, k->name, value, &p->svc->execenv.utmp_id);
}

/* PAMName=: a PAM service is a file name in /etc/pam.d; ember-session(8) passes it to
 * logind as the session's service. */
static int parse_pam_name(struct parser *p, const struct key *k, const char *value)
{
	size_t n = strlen(value);

	if (!*value) {
		p->svc->execenv.pam_name = 0;
		return 0;
	}
	if (n >= 256 || value[0] == '.' ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+") != n)
		return invalid(p, k->name, value, "expected a PAM service name (a file in /etc/pam.d)");
	return store(p, k->name, value, &p->svc->execenv.pam_name);
}

static int parse_octal_mode(struct parser *p, const struct key *k, const char *value)
{
	uint16_t *mode = field(p, k->offset);
	unsigned long m = 0;

	if (!*value) {
		*mode = 0755;
		return 0;
	}
	for (const char *c = value; *c; c++) {
		if (*c < '0' || *c > '7' || m > 07777)
			return invalid(p, k->name, value, "expected an octal mode from 0000 to 7777");
		m = m * 8 + (unsigned long)(*c - '0');
	}
	if (m > 07777)
		return invalid(p, k->name, value, "expected an octal mode from 0000 to 7777");
	*mode = (uint16_t)m;
	return 0;
}

static int parse_preserve(struct parser *p, const struct key *k, const char *value)
{
	bool b;

	if (strcmp(value, "restart") == 0) {
		p->svc->execenv.runtime_preserve = PRESERVE_RESTART;
		return 0;
	}
	if (!*value)
		b = false;
	else if (parse_bool(value, &b) < 0)
		return invalid(p, k->name, value, "expected yes, no or restart");
	p->svc->execenv.runtime_preserve = b ? PRESERVE_YES : PRESERVE_NO;
	return 0;
}

/* A directory name below /run, /var/lib, ...: relative, no "." or ".." component, no
 * empty component. systemd's "path:symlink" form is refused, not misread. */
static const char *dir_entry_problem(const char *s)
{
	if (*s == '/')
		return "must be relative (it goes below /run, /var/lib, /var/cache, /var/log or /etc)";
	if (strchr(s, ':'))
		return "the PATH:SYMLINK form is not supported";
	for (const char *c = s; *c; ) {
		size_t len = strcspn(c, "/");
		if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
			return "no empty, \".\" or \"..\" components allowed";
		c += len;
		if (*c == '/')
			c++;
		if (*c == '\0' && c[-1] == '/')
			return "no trailing /";
	}
	return NULL;
}

/* "-" (a missing path is fine) and "+" are prefixes; the rest must be an absolute path. */
/* A "." component: ember-sandbox refuses it in every path it is given (systemd's "not
 * normalized"), so the unit is refused. */
static bool bind_path_clean(const char *s)
{
	size_t n = strlen(s);

	return path_absolute_clean(s) && !strstr(s, "/./") &&
	       !(n >= 2 && strcmp(s + n - 2, "/.") == 0);
}

static const char *sandbox_path_problem(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '+')
		return "the + prefix (relative to RootDirectory=) is not supported";
	return bind_path_clean(s) ? NULL : "expected an absolute path, optionally after -";
}

/* BindPaths=, BindReadOnlyPaths=: [-]SOURCE[:DESTINATION[:rbind|norbind]], both paths
 * absolute and clean (ember-sandbox opens the source before any mount of its own). */
static const char *bind_entry_problem(const char *s)
{
	char part[3][SERVICE_LINE_MAX];
	size_t n = 0;

	if (*s == '-')
		s++;
	for (const char *p = s; n < 3; n++) {
		size_t len = strcspn(p, ":");
		snprintf(part[n], sizeof part[n], "%.*s", (int)len, p);
		if (!p[len]) {
			n++;
			break;
		}
		p += len + 1;
		if (n == 2)
			return "expected SOURCE[:DESTINATION[:OPTIONS]]";
	}
	if (!bind_path_clean(part[0]) || (n > 1 && !bind_path_clean(part[1])))
		return "expected absolute paths: [-]SOURCE[:DESTINATION[:OPTIONS]]";
	if (n == 3 && strcmp(part[2], "rbind") != 0 && strcmp(part[2], "norbind") != 0)
		return "the only options are rbind and norbind";
	return NULL;
}

/* A list key: space-separated words, lines add to the list, an empty value resets it. */
static int parse_word_list(struct parser *p, const struct key *k, const char *value,
			   const char *(*problem)(const char *word))
{
	strref *ref = field(p, k->offset);
	char joined[SERVICE_LINE_MAX], copy[SERVICE_LINE_MAX];
	char *save = NULL;
	size_t n;

	if (!*value) {
		*ref = 0;
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		const char *why = problem(w);
		if (why)
			return invalid(p, k->name, w, why);
	}
	n = (size_t)snprintf(joined, sizeof joined, "%s%s%s", service_str(p->svc, *ref),
			     *ref ? " " : "", value);
	if (n >= sizeof joined)
		return invalid(p, k->name, value, "list too long");
	return store(p, k->name, joined, ref);
}

/* sockets-accept: systemd simplifies each entry first (path_simplify(): "a//b/./c/" is
 * "a/b/c"), then checks it; Debian's irqbalance.service says RuntimeDirectory=irqbalance/. */
static void simplify_dir_entry(const char *in, char *out, size_t size)
{
	size_t n = 0;

	if (*in == '/') /* stays absolute, to be refused with the reason */
		out[n++] = '/';
	while (*in) {
		size_t len;
		while (*in == '/')
			in++;
		len = strcspn(in, "/");
		if (len && !(len == 1 && in[0] == '.') && n + len + 2 <= size) {
			if (n > 0 && out[n - 1] != '/')
				out[n++] = '/';
			memcpy(out + n, in, len);
			n += len;
		}
		in += len;
	}
	out[n] = '\0';
}

static int parse_dir_list(struct parser *p, const struct key *k, const char *value)
{
	char simplified[SERVICE_LINE_MAX], copy[SERVICE_LINE_MAX], word[SERVICE_LINE_MAX];
	char *save = NULL;
	size_t n = 0;

	str_copy(copy, sizeof copy, value);
	simplified[0] = '\0';
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		simplify_dir_entry(w, word, sizeof word);
		n += (size_t)snprintf(simplified + n, sizeof simplified - n, "%s%s", n ? " " : "",
				      *word ? word : ".");
		if (n >= sizeof simplified)
			return invalid(p, k->name, value, "list too long");
	}
	return parse_word_list(p, k, simplified, dir_entry_problem);
}

static int parse_path_list(struct parser *p, const struct key *k, const char *value)
{
	return parse_word_list(p, k, value, sandbox_path_problem);
}

static int parse_bind_list(struct parser *p, const struct key *k, const char *value)
{
	return parse_word_list(p, k, value, bind_entry_problem);
}

static int parse_protect_system(struct parser *p, const struct key *k, const char *value)
{
	struct service_execenv *e = &p->svc->execenv;
	bool b;

	if (strcmp(value, "full") == 0)
		e->protect_system = PROTECT_SYSTEM_FULL;
	else if (strcmp(value, "strict") == 0)
		e->protect_system = PROTECT_SYSTEM_STRICT;
	else if (!*value || parse_bool(value, &b) == 0)
		e->protect_system = *value && b ? PROTECT_SYSTEM_YES : PROTECT_SYSTEM_NO;
	else
		return invalid(p, k->name, value, "expected yes, no, full or strict");
	return 0;
}

static int parse_protect_home(struct parser *p, const struct key *k, const char *value)
{
	struct service_execenv *e = &p->svc->execenv;
	bool b;

	if (strcmp(value, "read-only") == 0)
		e->protect_home = PROTECT_HOME_READ_ONLY;
	else if (strcmp(value, "tmpfs") == 0)
		e->protect_home = PROTECT_HOME_TMPFS;
	else if (!*value || parse_bool(value, &b) == 0)
		e->protect_home = *value && b ? PROTECT_HOME_YES : PROTECT_HOME_NO;
	else
		return invalid(p, k->name, value, "expected yes, no, read-only or tmpfs");
	return 0;
}

/* ---- seccomp keys (ember-sandbox checks the names: sandbox/seccomp*.c) ---- */

/* SystemCallFilter=, SystemCallArchitectures=, RestrictAddressFamilies=,
 * RestrictNamespaces=: every line is kept, in order ("" resets), for ember-sandbox. */
static int parse_seccomp_lines(struct parser *p, const struct key *k, const char *value)
{
	strref *ref = field(p, k->offset);
	char joined[SERVICE_LINE_MAX];

	if (!*value) {
		*ref = 0;
		return 0;
	}
	for (const char *c = value; *c; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return invalid(p, k->name, value, "control characters are not allowed");
	if ((size_t)snprintf(joined, sizeof joined, "%s%s%s", service_str(p->svc, *ref),
			     *ref ? "\n" : "", value) >= sizeof joined)
		return invalid(p, k->name, value, "too many lines");
	return store(p, k->name, joined, ref);
}

/* SystemCallErrorNumber=: an errno name or number, or kill; the last line wins. */
static int parse_seccomp_word(struct parser *p, const struct key *k, const char *value)
{
	strref *ref = field(p, k->offset);

	if (strcspn(value, " \t") != strlen(value))
		return invalid(p, k->name, value, "expected one errno name or number, or kill");
	if (!*value) {
		*ref = 0;
		return 0;
	}
	return store(p, k->name, value, ref);
}

/* The boolean seccomp keys: k->min is their SECCOMP_FLAG_ bit. */
static int parse_seccomp_flag(struct parser *p, const struct key *k, const char *value)
{
	uint8_t *flags = &p->svc->execenv.seccomp_flags;
	bool b = false;

	if (*value && parse_bool(value, &b) < 0)
		return invalid(p, k->name, value, "expected yes or no");
	*flags = (uint8_t)(b ? *flags | (unsigned)k->min : *flags & ~(unsigned)k->min);
	return 0;
}

static bool seccomp_wanted(const struct service_execenv *e)
{
	return e->seccomp_flags || e->seccomp_text[SECCOMP_FILTER] ||
	       e->seccomp_text[SECCOMP_ARCHITECTURES] || e->seccomp_text[SECCOMP_ADDRESS_FAMILIES] ||
	       e->seccomp_text[SECCOMP_NAMESPACES];
}
/* ---- end seccomp keys ---- */

static bool paths_set(const struct service_execenv *e)
{
	for (int k = 0; k < SERVICE_PATH_KINDS; k++)
		if (e->paths[k])
			return true;
	return false;
}

bool service_sandboxed(const struct service *svc)
{
	return seccomp_wanted(&svc->execenv) || service_mount_namespace(svc);
}

bool service_mount_namespace(const struct service *svc)
{
	const struct service_execenv *e = &svc->execenv;

	return e->private_tmp || e->private_devices || e->private_network || e->private_ipc ||
	       (e->seccomp_flags & SECCOMP_FLAG_PROTECT_KERNEL_LOGS) || /* hides /dev/kmsg */
	       e->protect_kernel_tunables || e->protect_kernel_modules ||
	       e->protect_control_groups || e->protect_system != PROTECT_SYSTEM_NO ||
	       e->protect_home != PROTECT_HOME_NO || paths_set(e) ||
	       /* exec keys (sandbox-more) */
	       svc->execmore.protect_proc != PROTECT_PROC_DEFAULT ||
	       svc->execmore.proc_subset_pid || svc->execmore.private_mounts ||
	       svc->execmore.private_users || svc->systemd_view ||
	       /* as systemd: slave or private asks for a mount namespace, shared does not */
	       svc->execmore.mount_propagation >= MOUNT_PROPAGATION_SLAVE;
}

static void execenv_defaults(struct service *svc)
{
	for (int i = 0; i < SERVICE_DIR_KINDS; i++)
		svc->execenv.dir_mode[i] = 0755;
	svc->execenv.ignore_sigpipe = true;
	svc->execenv.keyring_mode = EXEC_KEYRING_PRIVATE; /* systemd's, for services */
}

/* systemd: with a terminal or a socket on stdin and no StandardOutput=, stdout goes there
 * too (and stderr, which inherits stdout): inetd-style units such as Debian's
 * tinysshd@.service name only StandardInput=socket and answer on stdout. */
static void validate_execenv(struct service *svc)
{
	struct service_execenv *e = &svc->execenv;
	bool both_ways = e->std_input == INPUT_TTY || e->std_input == INPUT_TTY_FORCE ||
			 e->std_input == INPUT_TTY_FAIL || e->std_input == INPUT_SOCKET;

	if (both_ways && !e->std_output_set)
		svc->std_output.kind = OUTPUT_INHERIT;
}

/* ---- exec keys (sandbox-more): process properties, namespaces, BPF filters, credentials ---- */

#define EXECMORE(member) offsetof(struct service, execmore.member)

/* A choice key stored as a uint8_t: names[i] gives i (+ base); "" resets to 0. */
static int parse_more_choice(struct parser *p, const struct key *k, const char *value,
			     const char *const *names, size_t n, const char *expected)
{
	uint8_t *v = field(p, k->offset);

	if (!*value) {
		*v = 0;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(value, names[i]) == 0) {
			*v = (uint8_t)i;
			return 0;
		}
	return invalid(p, k->name, value, expected);
}

static int parse_protect_proc(struct parser *p, const struct key *k, const char *value)
{
	static const char *const names[] = { "default", "noaccess", "invisible", "ptraceable" };
	return parse_more_choice(p, k, value, names, 4,
				 "expected noaccess, invisible, ptraceable or default");
}

static int parse_mount_flags(struct parser *p, const struct key *k, const char *value)
{
	static const char *const names[] = { NULL, "shared", "slave", "private" };
	return parse_more_choice(p, k, value, names, 4, "expected shared, slave or private");
}

static int parse_proc_subset(struct parser *p, const struct key *k, const char *value)
{
	if (!*value || strcmp(value, "all") == 0 || strcmp(value, "pid") == 0) {
		p->svc->execmore.proc_subset_pid = strcmp(value, "pid") == 0;
		return 0;
	}
	return invalid(p, k->name, value, "expected all or pid");
}

/* systemd 257's disconnected, fresh tmpfs instances not backed by the host's /tmp, is
 * what yes always gives here (docs/services.md, PrivateTmp=). */
static int parse_private_tmp(struct parser *p, const struct key *k, const char *value)
{
	if (strcmp(value, "disconnected") == 0) {
		p->svc->execenv.private_tmp = true;
		return 0;
	}
	return parse_bool_key(p, k, value);
}

/* yes is self; managed needs systemd-nsresourced's id ranges, which ember has not. */
static int parse_private_users(struct parser *p, const struct key *k, const char *value)
{
	static const char *const modes[] = { "self", "identity", "full" };
	bool b = false;

	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		if (strcmp(value, modes[i]) == 0) {
			p->svc->execmore.private_users = (uint8_t)(PRIVATE_USERS_SELF + i);
			return 0;
		}
	if (*value && parse_bool(value, &b) < 0)
		return invalid(p, k->name, value, "expected yes, no, self, identity or full "
				   "(managed is not supported)");
	p->svc->execmore.private_users = b ? PRIVATE_USERS_SELF : PRIVATE_USERS_NO;
	return 0;
}

static int parse_device_policy(struct parser *p, const struct key *k, const char *value)
{
	static const char *const names[] = { "auto", "closed", "strict" };
	return parse_more_choice(p, k, value, names, 3, "expected auto, closed or strict");
}

static int parse_io_class(struct parser *p, const struct key *k, const char *value)
{
	/* stored + 1, so 0 stays "unset": none, realtime, best-effort, idle (0..3) */
	static const char *const names[] = { NULL, "none", "realtime", "best-effort", "idle",
					     "0", "1", "2", "3" };
	uint8_t *v = &p->svc->execmore.io_class;

	if (parse_more_choice(p, k, value, names, 9, "expected realtime, best-effort, idle, "
						     "none or 0..3") < 0)
		return -1;
	if (*v > 4)
		*v = (uint8_t)(*v - 4);
	return 0;
}

static int parse_io_priority(struct parser *p, const struct key *k, const char *value)
{
	unsigned long n;

	if (!*value) {
		p->svc->execmore.io_priority = 8;
		return 0;
	}
	if (parse_ulong(value, 0, 7, &n) < 0)
		return invalid(p, k->name, value, "expected 0 (highest) .. 7 (lowest)");
	p->svc->execmore.io_priority = (uint8_t)n;
	return 0;
}

static int parse_cpu_policy(struct parser *p, const struct key *k, const char *value)
{
	/* stored + 1: SCHED_OTHER 0, FIFO 1, RR 2, BATCH 3, IDLE 5 */
	static const char *const names[] = { NULL, "other", "fifo", "rr", "batch", NULL, "idle" };
	return parse_more_choice(p, k, value, names, 7, "expected other, batch, idle, fifo or rr");
}

static int parse_cpu_priority(struct parser *p, const struct key *k, const char *value)
{
	unsigned long n = 0;

	if (*value && parse_ulong(value, 0, 99, &n) < 0)
		return invalid(p, k->name, value, "expected 0..99 (1..99 for fifo and rr)");
	p->svc->execmore.cpu_priority = (uint8_t)n;
	return 0;
}

/* "0 2-3,5": CPU numbers and ranges, separated by spaces or commas. */
static const char *cpu_list_problem(const char *s)
{
	while (*s) {
		unsigned long a, b;
		char *end;
		if (*s == ' ' || *s == ',' || *s == '\t') {
			s++;
			continue;
		}
		if (*s < '0' || *s > '9')
			return "expected CPU numbers and ranges like 0 2-3 (numa is not supported)";
		a = b = strtoul(s, &end, 10);
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return "expected a range like 2-3";
			b = strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= SERVICE_CPUS_MAX)
			return "CPU numbers go from 0 to 1023, ranges upwards";
		s = end;
		if (*s && *s != ' ' && *s != ',' && *s != '\t')
			return "expected CPU numbers and ranges like 0 2-3";
	}
	return NULL;
}

/* Store value, or append it to the list ref already holds with separator sep. */
static int append_more(struct parser *p, const struct key *k, const char *value, strref *ref,
		       char sep)
{
	char joined[SERVICE_LINE_MAX];
	size_t n;

	if (!*value) {
		*ref = 0;
		return 0;
	}
	n = (size_t)snprintf(joined, sizeof joined, "%s%s%s", service_str(p->svc, *ref),
			     *ref ? (sep == '\n' ? "\n" : " ") : "", value);
	if (n >= sizeof joined)
		return invalid(p, k->name, value, "list too long");
	return store(p, k->name, joined, ref);
}

static int parse_cpu_affinity(struct parser *p, const struct key *k, const char *value)
{
	const char *why = cpu_list_problem(value);

	if (why)
		return invalid(p, k->name, value, why);
	return append_more(p, k, value, &p->svc->execmore.cpu_affinity, ' ');
}

static int parse_secure_bits(struct parser *p, const struct key *k, const char *value)
{
	static const char *const names[] = { "noroot", "noroot-locked", "no-setuid-fixup",
					     "no-setuid-fixup-locked", "keep-caps",
					     "keep-caps-locked" };
	char copy[SERVICE_LINE_MAX], *save = NULL;
	uint8_t bits = 0;

	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t i = 0;
		while (i < 6 && strcmp(w, names[i]) != 0)
			i++;
		if (i == 6)
			return invalid(p, k->name, w, "expected keep-caps, no-setuid-fixup, noroot "
					   "or their -locked forms");
		bits |= (uint8_t)(1u << i); /* the kernel's SECBIT_* order */
	}
	p->svc->execmore.secure_bits = *value ? (uint8_t)(p->svc->execmore.secure_bits | bits) : 0;
	return 0;
}

/* DeviceAllow=SPEC [rwm]: SPEC is /dev/..., char-NAME or block-NAME (NAME from
 * /proc/devices, '*' as a wildcard); resolved when the service starts. */
static const char *device_allow_problem(const char *value)
{
	const char *sp = strpbrk(value, " \t"), *mode = sp ? sp + strspn(sp, " \t") : "";
	size_t len = sp ? (size_t)(sp - value) : strlen(value);

	if (strncmp(value, "/dev/", 5) != 0 && strncmp(value, "char-", 5) != 0 &&
	    strncmp(value, "block-", 6) != 0)
		return "expected /dev/PATH, char-NAME or block-NAME, then r, w, m";
	if (len <= 5 || (value[0] == 'b' && len <= 6))
		return "expected a device path or name after the prefix";
	if (strspn(mode, "rwm") != strlen(mode))
		return "the access mode is made of r, w and m";
	return NULL;
}

static int parse_device_allow(struct parser *p, const struct key *k, const char *value)
{
	const char *why = *value ? device_allow_problem(value) : NULL;

	if (why)
		return invalid(p, k->name, value, why);
	return append_more(p, k, value, &p->svc->execmore.device_allow, '\n');
}

static const char *ip_word_problem(const char *w)
{
	static const char *const words[] = { "any", "localhost", "link-local", "multicast" };
	unsigned char addr[16];
	char host[64];
	const char *slash = strchr(w, '/');
	size_t len = slash ? (size_t)(slash - w) : strlen(w);
	unsigned long prefix;
	bool v6;

	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (strcmp(w, words[i]) == 0)
			return NULL;
	if (len >= sizeof host)
		return "expected an address, ADDRESS/PREFIX, any, localhost, link-local or multicast";
	memcpy(host, w, len);
	host[len] = '\0';
	v6 = strchr(host, ':') != NULL;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, host, addr) != 1)
		return "expected an address, ADDRESS/PREFIX, any, localhost, link-local or multicast";
	if (slash && parse_ulong(slash + 1, 0, v6 ? 128 : 32, &prefix) < 0)
		return "the prefix length is 0..32 (IPv4) or 0..128 (IPv6)";
	return NULL;
}

static int parse_ip_list(struct parser *p, const struct key *k, const char *value)
{
	return parse_word_list(p, k, value, ip_word_problem);
}

/* An empty LoadCredential=, SetCredential= or ImportCredential=: that key's entries go
 * (the list's lines start with the kind letter 'l', 's' or 'i'), the others stay. */
static int reset_credentials(struct parser *p, const struct key *k, char kind)
{
	strref *ref = &p->svc->execmore.credentials;
	const char *line = service_str(p->svc, *ref);
	char kept[SERVICE_LINE_MAX];
	size_t n = 0;

	while (*ref && *line) {
		size_t len = strcspn(line, "\n");
		if (line[0] != kind) {
			memcpy(kept + n, line, len); /* kept is as large as any stored list */
			n += len;
			kept[n++] = '\n';
		}
		line += len + (line[len] == '\n');
	}
	if (n == 0) {
		*ref = 0;
		return 0;
	}
	kept[n - 1] = '\0';
	return store(p, k->name, kept, ref);
}

static bool credential_name_valid(const char *s, size_t len)
{
	return len > 0 && len <= 255 && !memchr(s, '/', len) &&
	       !(len <= 2 && s[0] == '.' && (len == 1 || s[1] == '.'));
}

/* ImportCredential=GLOB[:RENAME]: a name, or a prefix ending in the only '*' (systemd
 * allows no other wildcard); RENAME a name, or the new prefix. */
static int parse_import_credential(struct parser *p, const struct key *k, const char *value)
{
	const char *colon = strchr(value, ':');
	size_t glob_len = colon ? (size_t)(colon - value) : strlen(value);
	bool prefix = glob_len > 0 && value[glob_len - 1] == '*';
	char line[SERVICE_LINE_MAX];

	if (!*value)
		return reset_credentials(p, k, 'i');
	if (strcspn(value, "?[") < glob_len || memchr(value, '*', glob_len - prefix) ||
	    (!prefix && !credential_name_valid(value, glob_len)) ||
	    (prefix && glob_len > 1 && !credential_name_valid(value, glob_len - 1)))
		return invalid(p, k->name, value, "expected a credential name, or a prefix "
				   "ending in *, then :NEW-NAME");
	if (colon && ((!prefix && !credential_name_valid(colon + 1, strlen(colon + 1))) ||
		      strchr(colon + 1, '/') || strchr(colon + 1, '*')))
		return invalid(p, k->name, value, "the new name must be a file name");
	snprintf(line, sizeof line, "i%s", value);
	return append_more(p, k, line, &p->svc->execmore.credentials, '\n');
}

/* LoadCredential=ID[:PATH], SetCredential=ID:VALUE. ID: a file name. */
static int parse_credential(struct parser *p, const struct key *k, const char *value)
{
	bool set = k->name[0] == 'S';
	const char *colon = strchr(value, ':');
	size_t id_len = colon ? (size_t)(colon - value) : strlen(value);
	char line[SERVICE_LINE_MAX];

	if (!*value)
		return reset_credentials(p, k, set ? 's' : 'l');
	if (!credential_name_valid(value, id_len))
		return invalid(p, k->name, value, "the credential's name must be a file name");
	if (set && !colon)
		return invalid(p, k->name, value, "expected ID:VALUE");
	if (!set && colon && colon[1] != '/' && strchr(colon + 1, '/'))
		return invalid(p, k->name, value, "the path must be absolute or a credential name");
	if (set && strchr(value, '\n'))
		return invalid(p, k->name, value, "the value may not hold a newline");
	snprintf(line, sizeof line, "%c%s", set ? 's' : 'l', value);
	return append_more(p, k, line, &p->svc->execmore.credentials, '\n');
}

static int parse_credential_encrypted(struct parser *p, const struct key *k, const char *value)
{
	if (!*value)
		return 0;
	return invalid(p, k->name, value, "encrypted credentials are not supported (ember has "
			   "no credential key); use LoadCredential= with a root-only file");
}

static const char *env_word_problem(const char *w)
{
	const char *eq = strchr(w, '=');
	return env_name_valid(w, eq ? (size_t)(eq - w) : strlen(w)) ? NULL
		: "expected variable names or NAME=VALUE assignments";
}

static int parse_unset_env(struct parser *p, const struct key *k, const char *value)
{
	return parse_word_list(p, k, value, env_word_problem);
}

static const char *no_problem(const char *w)
{
	(void)w;
	return NULL;
}

/* PassEnvironment=: as systemd, a name that no variable can have is skipped with a
 * warning (the others still count). */
static int parse_pass_env(struct parser *p, const struct key *k, const char *value)
{
	char copy[SERVICE_LINE_MAX], kept[SERVICE_LINE_MAX] = "";
	char *save = NULL;
	size_t n = 0;

	if (!*value)
		return parse_word_list(p, k, value, no_problem);
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (!env_name_valid(w, strlen(w))) {
			warn(p, "%s=%s: not a variable name, ignored", k->name, w);
			continue;
		}
		n += (size_t)snprintf(kept + n, sizeof kept - n, "%s%s", n ? " " : "", w);
	}
	return n ? parse_word_list(p, k, kept, no_problem) : 0;
}

static int parse_apparmor(struct parser *p, const struct key *k, const char *value)
{
	if (strchr(value, '\n') || strlen(value) > 255)
		return invalid(p, k->name, value, "expected a profile name");
	if (!*value) {
		p->svc->execmore.apparmor_profile = 0;
		return 0;
	}
	return store(p, k->name, value, &p->svc->execmore.apparmor_profile);
}

/* PermissionsStartOnly=yes: every Exec*= line but ExecStart= runs as with "+" (systemd's
 * meaning; the key is deprecated there for exactly this prefix). Lines that already
 * carry "+", "!" or "!!" keep it. */
static void apply_permissions_start_only(struct service *svc, const struct service_diag *diag)
{
	struct service_exec_list *lists[] = { &svc->exec_condition, &svc->exec_start_pre,
					      &svc->exec_start_post,
					      &svc->exec_reload, &svc->exec_stop,
					      &svc->exec_stop_post };
	char line[SERVICE_LINE_MAX];

	if (!svc->execmore.permissions_start_only)
		return;
	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
		for (unsigned i = 0; i < lists[l]->count; i++) {
			const char *old = service_str(svc, lists[l]->line[i]);
			size_t prefix = strspn(old, "-@:+!");
			strref ref;
			if (memchr(old, '+', prefix) || memchr(old, '!', prefix))
				continue;
			snprintf(line, sizeof line, "+%s", old);
			ref = text_add(svc, line);
			if (!ref) {
				service_fail(svc, diag, 0, "PermissionsStartOnly=: too much text in "
					     "this file");
				return;
			}
			lists[l]->line[i] = ref;
		}
}

bool service_bpf_wanted(const struct service *svc)
{
	const struct service_exec_more *m = &svc->execmore;
	return m->device_allow || m->device_policy != DEVICE_POLICY_AUTO || m->ip_allow ||
	       m->ip_deny;
}
/* ---- end exec keys (sandbox-more) ---- */

/* ---- U2: lifecycle keys ------------------------------------------------------------------ */

static int parse_choice(struct parser *p, const struct key *k, const char *value,
			const struct name_value *choices, size_t n, const char *expected)
{
	uint8_t *v = field(p, k->offset);

	for (size_t i = 0; i < n; i++) {
		if (strcmp(value, choices[i].name) == 0) {
			*v = (uint8_t)choices[i].value;
			return 0;
		}
	}
	return invalid(p, k->name, value, expected);
}

static int parse_kill_mode(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value modes[] = {
		{ "", KILL_CONTROL_GROUP }, { "control-group", KILL_CONTROL_GROUP },
		{ "mixed", KILL_MIXED }, { "process", KILL_PROCESS }, { "none", KILL_NONE },
	};
	return parse_choice(p, k, value, modes, sizeof modes / sizeof *modes,
			    "expected control-group, mixed, process or none");
}

static int parse_exit_type(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value types[] = {
		{ "", EXIT_TYPE_MAIN }, { "main", EXIT_TYPE_MAIN }, { "cgroup", EXIT_TYPE_CGROUP },
	};
	return parse_choice(p, k, value, types, sizeof types / sizeof *types,
			    "expected main or cgroup");
}

static int parse_keyring_mode(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value modes[] = {
		{ "", EXEC_KEYRING_PRIVATE }, { "inherit", EXEC_KEYRING_INHERIT },
		{ "private", EXEC_KEYRING_PRIVATE }, { "shared", EXEC_KEYRING_SHARED },
	};
	return parse_choice(p, k, value, modes, sizeof modes / sizeof *modes,
			    "expected inherit, private or shared");
}

static int parse_utmp_mode(struct parser *p, const struct key *k, const char *value)
{
	static const struct name_value modes[] = {
		{ "", UTMP_MODE_INIT }, { "init", UTMP_MODE_INIT }, { "login", UTMP_MODE_LOGIN },
		{ "user", UTMP_MODE_USER },
	};
	return parse_choice(p, k, value, modes, sizeof modes / sizeof *modes,
			    "expected init, login or user");
}

/* FinalKillSignal=, RestartKillSignal=, ReloadSignal=: k->min is the default. */
static int parse_signal_u8(struct parser *p, const struct key *k, const char *value)
{
	uint8_t *v = field(p, k->offset);
	int sig = *value ? service_signal_from_name(value) : (int)k->min;

	if (sig < 0 || sig > 64)
		return invalid(p, k->name, value, "expected a signal name (SIGTERM, TERM) or number");
	*v = (uint8_t)sig;
	return 0;
}

/* The exit status names systemd.exec(5) lists: C's two and the BSD sysexits.h ones. */
static int exit_status_from_name(const char *name, unsigned long *code)
{
	static const struct name_value names[] = {
		{ "EXIT_SUCCESS", 0 }, { "EXIT_FAILURE", 1 }, { "USAGE", 64 }, { "DATAERR", 65 },
		{ "NOINPUT", 66 }, { "NOUSER", 67 }, { "NOHOST", 68 }, { "UNAVAILABLE", 69 },
		{ "SOFTWARE", 70 }, { "OSERR", 71 }, { "OSFILE", 72 }, { "CANTCREAT", 73 },
		{ "IOERR", 74 }, { "TEMPFAIL", 75 }, { "PROTOCOL", 76 }, { "NOPERM", 77 },
		{ "CONFIG", 78 },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		if (strcmp(name, names[i].name) == 0) {
			*code = (unsigned long)names[i].value;
			return 0;
		}
	}
	return -1;
}

/* Exit codes and signal names, separated by blanks; "" empties the set. Several lines add
 * up, as in systemd. */
static int parse_status_set(struct parser *p, const struct key *k, const char *value)
{
	struct service_status_set *set = field(p, k->offset);
	char copy[SERVICE_LINE_MAX];
	char *save = NULL;

	if (!*value) {
		memset(set, 0, sizeof *set);
		return 0;
	}
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		unsigned long code;
		int sig;
		if (*w >= '0' && *w <= '9') {
			if (parse_ulong(w, 0, 255, &code) < 0)
				return invalid(p, k->name, w, "an exit code is 0 to 255");
			set->code[code / 8] = (uint8_t)(set->code[code / 8] | 1u << (code % 8));
			continue;
		}
		if (exit_status_from_name(w, &code) == 0) {
			set->code[code / 8] = (uint8_t)(set->code[code / 8] | 1u << (code % 8));
			continue;
		}
		sig = service_signal_from_name(w);
		if (sig < 1 || sig > 64)
			return invalid(p, k->name, w, "expected exit codes (0-255), exit status names "
						      "(EXIT_FAILURE, DATAERR) and signal names (SIGUSR1)");
		set->signal |= 1ull << (sig - 1);
	}
	return 0;
}

/* PIDFile=: systemd takes a relative path as relative to /run. */
static int parse_pid_file(struct parser *p, const struct key *k, const char *value)
{
	char path[SERVICE_PATH_MAX];

	if (!*value) {
		p->svc->pid_file = 0;
		return 0;
	}
	if ((size_t)snprintf(path, sizeof path, "%s%s", *value == '/' ? "" : "/run/", value) >=
	    sizeof path)
		return invalid(p, k->name, value, "path too long");
	if (!path_absolute_clean(path))
		return invalid(p, k->name, value, "expected a clean path (no \"..\", no \"//\")");
	/* As systemd: the program then finds the same path in $PIDFILE whatever /var/run is. */
	if (strncmp(path, "/var/run/", 9) == 0) {
		memmove(path, path + 4, strlen(path + 4) + 1);
		note(p, "PIDFile=%s: below the legacy /var/run, read as %s, as systemd does",
		     value, path);
	}
	return store(p, k->name, path, &p->svc->pid_file);
}

/* U1: DefaultInstance= of a template: an escaped instance string. */
static int parse_default_instance(struct parser *p, const struct key *k, const char *value)
{
	char probe[SERVICE_NAME_MAX];

	if (*value && unit_name_instantiate("x@", value, probe, sizeof probe) < 0)
		return invalid(p, k->name, value, "not a valid instance name (escape it with "
				   "systemd-escape)");
	if (*value && !strchr(p->svc->name, '@'))
		warn(p, "DefaultInstance= in a unit that is not a template, ignored");
	return parse_string(p, k, value);
}

/* runtime keys (unit-runtime2): parsed in unit-runtime-keys.c */
int service_timespan_ms(const char *s, unsigned long *out) { return parse_timespan_ms(s, out); }

static int parse_runtime_key(struct parser *p, const struct key *k, const char *value)
{
	char why[160];

	if (runtime_key_parse(p->svc, k->name, value, why, sizeof why) < 0)
		return invalid(p, k->name, value, why);
	return 0;
}

/* unit kinds (unit-kinds): RequiresMountsFor=, Slice=, Delegate=, [Mount] in unit-kinds.c */
static int parse_unit_kinds(struct parser *p, const struct key *k, const char *value)
{
	return unit_kinds_parse(p->svc, p->diag, p->line, k->name, value);
}

/* timer units: the [Timer] keys (unit-timer.c) */
static int parse_unit_timer(struct parser *p, const struct key *k, const char *value)
{
	return unit_timer_parse(p->svc, p->diag, p->line, k->name, value);
}

/* path units: the [Path] keys (unit-path.c) */
static int parse_unit_path(struct parser *p, const struct key *k, const char *value)
{
	return unit_path_parse(p->svc, p->diag, p->line, k->name, value);
}

/* JobTimeoutSec=: for a device how long a start waits for it to appear (unit-kinds), for
 * every other unit how long a start waits on its dependencies (unit-runtime2). */
static int parse_job_timeout(struct parser *p, const struct key *k, const char *value)
{
	if (p->svc->kind == UNIT_DEVICE)
		return parse_unit_kinds(p, k, value);
	return parse_runtime_key(p, k, value);
}

/* ---- the key table ---------------------------------------------------------------------- */

#define F(member) offsetof(struct service, member)
static const struct key keys[] = {
	{ SECTION_UNIT, "Description", parse_string, F(description), 0, 0, true },
	/* U1: dependencies and [Install] */
	{ SECTION_UNIT, "After", parse_names, F(after), 0, 0, true },
	{ SECTION_UNIT, "Before", parse_names, F(before), 0, 0, true },
	{ SECTION_UNIT, "Requires", parse_names, F(requires), 0, 0, true },
	{ SECTION_UNIT, "Wants", parse_names, F(wants), 0, 0, true },
	{ SECTION_UNIT, "Requisite", parse_names, F(requisite), 0, 0, true },
	{ SECTION_UNIT, "BindsTo", parse_names, F(binds_to), 0, 0, true },
	{ SECTION_UNIT, "PartOf", parse_names, F(part_of), 0, 0, true },
	{ SECTION_UNIT, "Conflicts", parse_names, F(conflicts), 0, 0, true },
	{ SECTION_UNIT, "DefaultDependencies", parse_bool_key, F(default_dependencies),
	  0, 0, false },
	{ SECTION_INSTALL, "WantedBy", parse_names, F(wanted_by), 0, 0, true },
	{ SECTION_INSTALL, "RequiredBy", parse_names, F(required_by), 0, 0, true },
	{ SECTION_INSTALL, "Alias", parse_names, F(alias), 0, 0, true },
	{ SECTION_INSTALL, "Also", parse_names, F(also), 0, 0, true },
	{ SECTION_INSTALL, "DefaultInstance", parse_default_instance, F(default_instance),
	  0, 0, true },
	/* end U1 */
	/* unit kinds (unit-kinds) */
	{ SECTION_UNIT, "RequiresMountsFor", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_UNIT, "WantsMountsFor", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_SERVICE, "Slice", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_SERVICE, "Delegate", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_SERVICE, "DelegateSubgroup", parse_unit_kinds, 0, 0, 0, false },
	/* timer units (unit-timer.c) */
	{ SECTION_TIMER, "OnActiveSec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnBootSec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnStartupSec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnUnitActiveSec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnUnitInactiveSec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnCalendar", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "Unit", parse_unit_timer, 0, 0, 0, true },
	{ SECTION_TIMER, "Persistent", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "RemainAfterElapse", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "RandomizedDelaySec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "FixedRandomDelay", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "AccuracySec", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "WakeSystem", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnClockChange", parse_unit_timer, 0, 0, 0, false },
	{ SECTION_TIMER, "OnTimezoneChange", parse_unit_timer, 0, 0, 0, false },
	/* path units (unit-path.c) */
	{ SECTION_PATH, "PathExists", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "PathExistsGlob", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "PathChanged", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "PathModified", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "DirectoryNotEmpty", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "Unit", parse_unit_path, 0, 0, 0, true },
	{ SECTION_PATH, "MakeDirectory", parse_unit_path, 0, 0, 0, false },
	{ SECTION_PATH, "DirectoryMode", parse_unit_path, 0, 0, 0, false },
	{ SECTION_PATH, "TriggerLimitIntervalSec", parse_unit_path, 0, 0, 0, false },
	{ SECTION_PATH, "TriggerLimitBurst", parse_unit_path, 0, 0, 0, false },
	{ SECTION_MOUNT, "What", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_MOUNT, "Where", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_MOUNT, "Type", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "Options", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_MOUNT, "DirectoryMode", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "TimeoutSec", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "LazyUnmount", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "ForceUnmount", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "ReadWriteOnly", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_MOUNT, "SloppyOptions", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_SWAP, "What", parse_unit_kinds, 0, 0, 0, true }, /* swap units */
	{ SECTION_SWAP, "Priority", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_SWAP, "Options", parse_unit_kinds, 0, 0, 0, true },
	{ SECTION_SWAP, "TimeoutSec", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_AUTOMOUNT, "Where", parse_unit_kinds, 0, 0, 0, true }, /* automount units */
	{ SECTION_AUTOMOUNT, "DirectoryMode", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_AUTOMOUNT, "TimeoutIdleSec", parse_unit_kinds, 0, 0, 0, false },
	{ SECTION_AUTOMOUNT, "ExtraOptions", parse_unit_kinds, 0, 0, 0, true },
	/* end unit kinds */
	{ SECTION_SERVICE, "Type", parse_type, 0, 0, 0, false },
	{ SECTION_SERVICE, "ExecStartPre", parse_exec, F(exec_start_pre), 0, 0, true },
	{ SECTION_SERVICE, "ExecStart", parse_exec, F(exec_start), 0, 0, true },
	{ SECTION_SERVICE, "ExecStop", parse_exec, F(exec_stop), 0, 0, true },
	{ SECTION_SERVICE, "Restart", parse_restart, 0, 0, 0, false },
	{ SECTION_SERVICE, "RestartMode", parse_restart_mode, 0, 0, 0, false },
	{ SECTION_SERVICE, "RestartSec", parse_restart_sec, 0, 0, 0, false },
	{ SECTION_SERVICE, "RestartMaxDelaySec", parse_span_key, F(restart_max_delay_ms),
	  (long)RESTART_MAX_DELAY_DEFAULT_MS, 0, false },
	{ SECTION_SERVICE, "RestartSteps", parse_count_key, F(restart_steps), 0, 3000, false },
	{ SECTION_UNIT, "StartLimitBurst", parse_count_key, F(start_limit_burst),
	  START_LIMIT_BURST_DEFAULT, 1000000, false },
	{ SECTION_SERVICE, "StartLimitBurst", parse_count_key, F(start_limit_burst),
	  START_LIMIT_BURST_DEFAULT, 1000000, false },
	{ SECTION_UNIT, "StartLimitIntervalSec", parse_span_key, F(start_limit_interval_ms),
	  START_LIMIT_INTERVAL_DEFAULT_MS, 0, false },
	{ SECTION_SERVICE, "TimeoutStartSec", parse_timeout_key, F(timeout_start_ms), 0, 0, false },
	{ SECTION_SERVICE, "TimeoutStopSec", parse_timeout_key, F(timeout_stop_ms), 0, 0, false },
	{ SECTION_SERVICE, "TimeoutSec", parse_timeout_both, 0, 0, 0, false },
	{ SECTION_SERVICE, "KillSignal", parse_signal, 0, 0, 0, false },
	{ SECTION_SERVICE, "User", parse_account, F(user), 0, 0, true }, /* sockets-accept: %i */
	{ SECTION_SERVICE, "Group", parse_account, F(group), 0, 0, true },
	{ SECTION_SERVICE, "SupplementaryGroups", parse_groups, 0, 0, 0, false },
	{ SECTION_SERVICE, "WorkingDirectory", parse_working_directory, 0, 0, 0, true },
	{ SECTION_SERVICE, "Environment", parse_environment, 0, 0, 0, true },
	{ SECTION_SERVICE, "EnvironmentFile", parse_envfile, 0, 0, 0, true },
	{ SECTION_SERVICE, "UMask", parse_umask, 0, 0, 0, false },
	{ SECTION_SERVICE, "Nice", parse_int_key, F(nice), -20, 19, false },
	{ SECTION_SERVICE, "OOMScoreAdjust", parse_int_key, F(oom_score_adjust), -1000, 1000, false },
	{ SECTION_SERVICE, "NoNewPrivileges", parse_bool_key, F(no_new_privileges), 0, 0, false },
	{ SECTION_SERVICE, "AmbientCapabilities", parse_caps, F(cap_ambient), 0, 0, false },
	{ SECTION_SERVICE, "CapabilityBoundingSet", parse_caps, F(cap_bounding), 0, 0, false },
	{ SECTION_SERVICE, "MemoryMax", parse_bytes, F(memory_max), 0, 0, false },
	{ SECTION_SERVICE, "MemoryLimit", parse_memory_limit, 0, 0, 0, false },
	{ SECTION_SERVICE, "MemoryHigh", parse_bytes, F(memory_high), 0, 0, false },
	{ SECTION_SERVICE, "MemorySwapMax", parse_bytes, F(memory_swap_max), 0, 0, false },
	{ SECTION_SERVICE, "MemoryMin", parse_protection, F(memory_min), 0, 0, false },
	{ SECTION_SERVICE, "MemoryLow", parse_protection, F(memory_low), 0, 0, false },
	{ SECTION_SERVICE, "TasksMax", parse_count, F(tasks_max), 0, 0, false },
	{ SECTION_SERVICE, "OOMPolicy", parse_oom_policy, 0, 0, 0, false },
	{ SECTION_SERVICE, "CPUWeight", parse_weight, F(cpu_weight), 0, 0, false },
	{ SECTION_SERVICE, "IOWeight", parse_weight, F(io_weight), 0, 0, false },
	/* [Slice]: the same resource keys, for the slice's own cgroup directory (written by
	 * svc-cgroup.c when the slice starts and whenever a service below opens it) */
	{ SECTION_SLICE, "MemoryMax", parse_bytes, F(memory_max), 0, 0, false },
	{ SECTION_SLICE, "MemoryLimit", parse_memory_limit, 0, 0, 0, false },
	{ SECTION_SLICE, "MemoryHigh", parse_bytes, F(memory_high), 0, 0, false },
	{ SECTION_SLICE, "MemorySwapMax", parse_bytes, F(memory_swap_max), 0, 0, false },
	{ SECTION_SLICE, "MemoryMin", parse_protection, F(memory_min), 0, 0, false },
	{ SECTION_SLICE, "MemoryLow", parse_protection, F(memory_low), 0, 0, false },
	{ SECTION_SLICE, "TasksMax", parse_count, F(tasks_max), 0, 0, false },
	{ SECTION_SLICE, "CPUWeight", parse_weight, F(cpu_weight), 0, 0, false },
	{ SECTION_SLICE, "IOWeight", parse_weight, F(io_weight), 0, 0, false },
	{ SECTION_SERVICE, "StandardOutput", parse_output_key, F(std_output), 0, 0, true },
	{ SECTION_SERVICE, "StandardError", parse_output_key, F(std_error), 0, 0, true },
	{ SECTION_SERVICE, "SyslogIdentifier", parse_syslog_identifier, 0, 0, 0, true },
	{ SECTION_SERVICE, "SyslogLevel", parse_syslog_level, 0, 0, 0, false },
	{ SECTION_SERVICE, "SyslogFacility", parse_syslog_facility, 0, 0, 0, false },
	{ SECTION_SERVICE, "SyslogLevelPrefix", parse_bool_key, F(syslog_level_prefix), 1, 0, false },
	{ SECTION_SERVICE, "LogRateLimitBurst", parse_count_key, F(log_rate_burst),
	  LOG_RATE_LIMIT_BURST_DEFAULT, KMSG_FORWARD_BURST_MAX, false },
	{ SECTION_SERVICE, "LogRateLimitIntervalSec", parse_span_key, F(log_rate_interval_ms),
	  LOG_RATE_LIMIT_INTERVAL_DEFAULT_MS, KMSG_FORWARD_INTERVAL_MAX_MS, false },
	{ SECTION_SERVICE, "Essential", parse_bool_key, F(essential), 0, 0, false },
	/* U2: lifecycle */
	{ SECTION_UNIT, "OnFailure", parse_names, F(on_failure), 0, 0, true },
	{ SECTION_UNIT, "OnSuccess", parse_names, F(on_success), 0, 0, true },
	{ SECTION_SERVICE, "ExecStartPost", parse_exec, F(exec_start_post), 0, 0, true },
	{ SECTION_SERVICE, "ExecCondition", parse_exec, F(exec_condition), 0, 0, true },
	{ SECTION_SERVICE, "ExecReload", parse_exec, F(exec_reload), 0, 0, true },
	{ SECTION_SERVICE, "ExecStopPost", parse_exec, F(exec_stop_post), 0, 0, true },
	{ SECTION_SERVICE, "RemainAfterExit", parse_bool_key, F(remain_after_exit), 0, 0, false },
	{ SECTION_SERVICE, "GuessMainPID", parse_bool_key, F(guess_main_pid), 0, 0, false },
	{ SECTION_SERVICE, "PIDFile", parse_pid_file, 0, 0, 0, true },
	{ SECTION_SERVICE, "KillMode", parse_kill_mode, F(kill_mode), 0, 0, false },
	{ SECTION_SERVICE, "ExitType", parse_exit_type, F(exit_type), 0, 0, false },
	{ SECTION_SERVICE, "FinalKillSignal", parse_signal_u8, F(final_kill_signal), SIGKILL, 0, false },
	{ SECTION_SERVICE, "RestartKillSignal", parse_signal_u8, F(restart_kill_signal), 0, 0, false },
	{ SECTION_SERVICE, "ReloadSignal", parse_signal_u8, F(reload_signal), SIGHUP, 0, false },
	{ SECTION_SERVICE, "SendSIGKILL", parse_bool_key, F(send_sigkill), 1, 0, false },
	{ SECTION_SERVICE, "SendSIGHUP", parse_bool_key, F(send_sighup), 0, 0, false },
	{ SECTION_SERVICE, "SuccessExitStatus", parse_status_set, F(success_status), 0, 0, false },
	{ SECTION_SERVICE, "RestartPreventExitStatus", parse_status_set, F(restart_prevent),
	  0, 0, false },
	{ SECTION_SERVICE, "RestartForceExitStatus", parse_status_set, F(restart_force),
	  0, 0, false },
	/* U4: Type=dbus */
	{ SECTION_SERVICE, "BusName", parse_bus_name, F(bus_name), 0, 0, true },
	/* sockets-accept */
	{ SECTION_SERVICE, "NonBlocking", parse_bool_key, F(non_blocking), 0, 0, false },
	/* U5: execution environment (StandardOutput=/StandardError= are above) */
	{ SECTION_SERVICE, "StandardInput", parse_input_key, 0, 0, 0, true },
	{ SECTION_SERVICE, "TTYPath", parse_tty_path, 0, 0, 0, true },
	{ SECTION_SERVICE, "UtmpIdentifier", parse_utmp_id, 0, 0, 0, true },
	{ SECTION_SERVICE, "UtmpMode", parse_utmp_mode, F(execenv.utmp_mode), 0, 0, false },
	{ SECTION_SERVICE, "PAMName", parse_pam_name, 0, 0, 0, true },
	{ SECTION_SERVICE, "TTYReset", parse_bool_key, EXECENV(tty_reset), 0, 0, false },
	{ SECTION_SERVICE, "TTYVHangup", parse_bool_key, EXECENV(tty_vhangup), 0, 0, false },
	{ SECTION_SERVICE, "IgnoreSIGPIPE", parse_bool_key, EXECENV(ignore_sigpipe), 0, 0, false },
	{ SECTION_SERVICE, "KeyringMode", parse_keyring_mode, EXECENV(keyring_mode), 0, 0, false },
	{ SECTION_SERVICE, "TTYVTDisallocate", parse_bool_key, EXECENV(tty_vt_disallocate), 0, 0,
	  false },
	{ SECTION_SERVICE, "RuntimeDirectory", parse_dir_list, EXECENV(dirs[DIR_RUNTIME]), 0, 0, true },
	{ SECTION_SERVICE, "StateDirectory", parse_dir_list, EXECENV(dirs[DIR_STATE]), 0, 0, true },
	{ SECTION_SERVICE, "CacheDirectory", parse_dir_list, EXECENV(dirs[DIR_CACHE]), 0, 0, true },
	{ SECTION_SERVICE, "LogsDirectory", parse_dir_list, EXECENV(dirs[DIR_LOGS]), 0, 0, true },
	{ SECTION_SERVICE, "ConfigurationDirectory", parse_dir_list,
	  EXECENV(dirs[DIR_CONFIGURATION]), 0, 0, true },
	{ SECTION_SERVICE, "RuntimeDirectoryMode", parse_octal_mode, EXECENV(dir_mode[DIR_RUNTIME]),
	  0, 0, false },
	{ SECTION_SERVICE, "StateDirectoryMode", parse_octal_mode, EXECENV(dir_mode[DIR_STATE]),
	  0, 0, false },
	{ SECTION_SERVICE, "CacheDirectoryMode", parse_octal_mode, EXECENV(dir_mode[DIR_CACHE]),
	  0, 0, false },
	{ SECTION_SERVICE, "LogsDirectoryMode", parse_octal_mode, EXECENV(dir_mode[DIR_LOGS]),
	  0, 0, false },
	{ SECTION_SERVICE, "ConfigurationDirectoryMode", parse_octal_mode,
	  EXECENV(dir_mode[DIR_CONFIGURATION]), 0, 0, false },
	{ SECTION_SERVICE, "RuntimeDirectoryPreserve", parse_preserve, 0, 0, 0, false },
	{ SECTION_SERVICE, "PrivateTmp", parse_private_tmp, EXECENV(private_tmp), 0, 0, false },
	{ SECTION_SERVICE, "PrivateDevices", parse_bool_key, EXECENV(private_devices), 0, 0, false },
	{ SECTION_SERVICE, "PrivateNetwork", parse_bool_key, EXECENV(private_network), 0, 0, false },
	{ SECTION_SERVICE, "PrivateIPC", parse_bool_key, EXECENV(private_ipc), 0, 0, false },
	{ SECTION_SERVICE, "ProtectKernelTunables", parse_bool_key,
	  EXECENV(protect_kernel_tunables), 0, 0, false },
	{ SECTION_SERVICE, "ProtectKernelModules", parse_bool_key,
	  EXECENV(protect_kernel_modules), 0, 0, false },
	{ SECTION_SERVICE, "ProtectControlGroups", parse_bool_key,
	  EXECENV(protect_control_groups), 0, 0, false },
	{ SECTION_SERVICE, "ProtectSystem", parse_protect_system, 0, 0, 0, false },
	{ SECTION_SERVICE, "ProtectHome", parse_protect_home, 0, 0, 0, false },
	{ SECTION_SERVICE, "ReadOnlyPaths", parse_path_list, EXECENV(paths[PATHS_READ_ONLY]),
	  0, 0, true },
	{ SECTION_SERVICE, "ReadWritePaths", parse_path_list, EXECENV(paths[PATHS_READ_WRITE]),
	  0, 0, true },
	{ SECTION_SERVICE, "InaccessiblePaths", parse_path_list,
	  EXECENV(paths[PATHS_INACCESSIBLE]), 0, 0, true },
	{ SECTION_SERVICE, "BindPaths", parse_bind_list, EXECENV(paths[PATHS_BIND]), 0, 0, true },
	{ SECTION_SERVICE, "BindReadOnlyPaths", parse_bind_list, EXECENV(paths[PATHS_BIND_RO]),
	  0, 0, true },
	{ SECTION_SERVICE, "NoExecPaths", parse_path_list, EXECENV(paths[PATHS_NO_EXEC]),
	  0, 0, true },
	{ SECTION_SERVICE, "ExecPaths", parse_path_list, EXECENV(paths[PATHS_EXEC]), 0, 0, true },
	/* runtime keys (unit-runtime2) */
	{ SECTION_UNIT, "RefuseManualStart", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "RefuseManualStop", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "StopWhenUnneeded", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "SuccessAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "FailureAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "FailureAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "RuntimeMaxSec", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "StartLimitAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "StartLimitAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "JobTimeoutSec", parse_job_timeout, 0, 0, 0, false },
	{ SECTION_UNIT, "JobTimeoutAction", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_UNIT, "StartLimitInterval", parse_span_key, F(start_limit_interval_ms),
	  START_LIMIT_INTERVAL_DEFAULT_MS, 0, false },
	{ SECTION_SERVICE, "StartLimitInterval", parse_span_key, F(start_limit_interval_ms),
	  START_LIMIT_INTERVAL_DEFAULT_MS, 0, false },
	{ SECTION_UNIT, "ReloadPropagatedFrom", parse_runtime_key, 0, 0, 0, true },
	{ SECTION_UNIT, "PropagatesReloadTo", parse_runtime_key, 0, 0, 0, true },
	{ SECTION_SERVICE, "WatchdogSec", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "WatchdogSignal", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "NotifyAccess", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "FileDescriptorStoreMax", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "FileDescriptorStorePreserve", parse_runtime_key, 0, 0, 0, false },
	{ SECTION_SERVICE, "Sockets", parse_runtime_key, 0, 0, 0, true },
	/* seccomp keys: ember-sandbox (sandbox/seccomp*.c) */
	{ SECTION_SERVICE, "SystemCallFilter", parse_seccomp_lines,
	  EXECENV(seccomp_text[SECCOMP_FILTER]), 0, 0, false },
	{ SECTION_SERVICE, "SystemCallErrorNumber", parse_seccomp_word,
	  EXECENV(seccomp_text[SECCOMP_ERROR_NUMBER]), 0, 0, false },
	{ SECTION_SERVICE, "SystemCallArchitectures", parse_seccomp_lines,
	  EXECENV(seccomp_text[SECCOMP_ARCHITECTURES]), 0, 0, false },
	{ SECTION_SERVICE, "RestrictAddressFamilies", parse_seccomp_lines,
	  EXECENV(seccomp_text[SECCOMP_ADDRESS_FAMILIES]), 0, 0, false },
	{ SECTION_SERVICE, "RestrictNamespaces", parse_seccomp_lines,
	  EXECENV(seccomp_text[SECCOMP_NAMESPACES]), 0, 0, false },
	{ SECTION_SERVICE, "MemoryDenyWriteExecute", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_MEMORY_DENY_WRITE_EXECUTE, 0, false },
	{ SECTION_SERVICE, "RestrictRealtime", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_RESTRICT_REALTIME, 0, false },
	{ SECTION_SERVICE, "LockPersonality", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_LOCK_PERSONALITY, 0, false },
	{ SECTION_SERVICE, "RestrictSUIDSGID", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_RESTRICT_SUID_SGID, 0, false },
	{ SECTION_SERVICE, "ProtectHostname", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_PROTECT_HOSTNAME, 0, false },
	{ SECTION_SERVICE, "ProtectKernelLogs", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_PROTECT_KERNEL_LOGS, 0, false },
	{ SECTION_SERVICE, "ProtectClock", parse_seccomp_flag, 0,
	  SECCOMP_FLAG_PROTECT_CLOCK, 0, false },
	/* exec keys (sandbox-more) */
	{ SECTION_SERVICE, "ReadOnlyDirectories", parse_path_list, EXECENV(paths[PATHS_READ_ONLY]),
	  0, 0, true },
	{ SECTION_SERVICE, "ReadWriteDirectories", parse_path_list,
	  EXECENV(paths[PATHS_READ_WRITE]), 0, 0, true },
	{ SECTION_SERVICE, "InaccessibleDirectories", parse_path_list,
	  EXECENV(paths[PATHS_INACCESSIBLE]), 0, 0, true },
	{ SECTION_SERVICE, "ProtectProc", parse_protect_proc, EXECMORE(protect_proc), 0, 0, false },
	{ SECTION_SERVICE, "MountFlags", parse_mount_flags, EXECMORE(mount_propagation), 0, 0, false },
	{ SECTION_SERVICE, "ProcSubset", parse_proc_subset, 0, 0, 0, false },
	{ SECTION_SERVICE, "PrivateMounts", parse_bool_key, EXECMORE(private_mounts), 0, 0, false },
	{ SECTION_SERVICE, "PrivateUsers", parse_private_users, 0, 0, 0, false },
	{ SECTION_SERVICE, "PermissionsStartOnly", parse_bool_key, EXECMORE(permissions_start_only),
	  0, 0, false },
	{ SECTION_SERVICE, "IOSchedulingClass", parse_io_class, EXECMORE(io_class), 0, 0, false },
	{ SECTION_SERVICE, "IOSchedulingPriority", parse_io_priority, 0, 0, 0, false },
	{ SECTION_SERVICE, "CPUSchedulingPolicy", parse_cpu_policy, EXECMORE(cpu_policy), 0, 0, false },
	{ SECTION_SERVICE, "CPUSchedulingPriority", parse_cpu_priority, 0, 0, 0, false },
	{ SECTION_SERVICE, "CPUSchedulingResetOnFork", parse_bool_key, EXECMORE(cpu_reset_on_fork),
	  0, 0, false },
	{ SECTION_SERVICE, "CPUAffinity", parse_cpu_affinity, 0, 0, 0, false },
	{ SECTION_SERVICE, "DeviceAllow", parse_device_allow, 0, 0, 0, true },
	{ SECTION_SERVICE, "DevicePolicy", parse_device_policy, EXECMORE(device_policy), 0, 0, false },
	{ SECTION_SERVICE, "IPAddressAllow", parse_ip_list, EXECMORE(ip_allow), 0, 0, false },
	{ SECTION_SERVICE, "IPAddressDeny", parse_ip_list, EXECMORE(ip_deny), 0, 0, false },
	{ SECTION_SERVICE, "LoadCredential", parse_credential, 0, 0, 0, true },
	{ SECTION_SERVICE, "SetCredential", parse_credential, 0, 0, 0, true },
	{ SECTION_SERVICE, "ImportCredential", parse_import_credential, 0, 0, 0, true },
	{ SECTION_SERVICE, "LoadCredentialEncrypted", parse_credential_encrypted, 0, 0, 0, false },
	{ SECTION_SERVICE, "SetCredentialEncrypted", parse_credential_encrypted, 0, 0, 0, false },
	{ SECTION_SERVICE, "UnsetEnvironment", parse_unset_env, EXECMORE(unset_env), 0, 0, true },
	{ SECTION_SERVICE, "PassEnvironment", parse_pass_env, EXECMORE(pass_env), 0, 0, true },
	{ SECTION_SERVICE, "SecureBits", parse_secure_bits, 0, 0, 0, false },
	{ SECTION_SERVICE, "RemoveIPC", parse_bool_key, EXECMORE(remove_ipc), 0, 0, false },
	{ SECTION_SERVICE, "DynamicUser", parse_bool_key, EXECMORE(dynamic_user), 0, 0, false },
	{ SECTION_SERVICE, "AppArmorProfile", parse_apparmor, 0, 0, 0, true },
	/* end exec keys (sandbox-more) */
	/* socket-exec: a socket unit's commands (systemd.socket(5)) and the exec keys they run
	 * with; the same fields a service's lines use, ExecStopPre= is the socket's own.
	 * TimeoutSec= bounds each command (init/supervisor.c, "socket-exec"). */
	{ SECTION_SOCKET, "ExecStartPre", parse_exec, F(exec_start_pre), 0, 0, true },
	{ SECTION_SOCKET, "ExecStartPost", parse_exec, F(exec_start_post), 0, 0, true },
	{ SECTION_SOCKET, "ExecStopPre", parse_exec, F(sock.exec_stop_pre), 0, 0, true },
	{ SECTION_SOCKET, "ExecStopPost", parse_exec, F(exec_stop_post), 0, 0, true },
	{ SECTION_SOCKET, "TimeoutSec", parse_timeout_both, 0, 0, 0, false },
	{ SECTION_SOCKET, "User", parse_account, F(user), 0, 0, true },
	{ SECTION_SOCKET, "Group", parse_account, F(group), 0, 0, true },
	{ SECTION_SOCKET, "SupplementaryGroups", parse_groups, 0, 0, 0, false },
	{ SECTION_SOCKET, "WorkingDirectory", parse_working_directory, 0, 0, 0, true },
	{ SECTION_SOCKET, "Environment", parse_environment, 0, 0, 0, true },
	{ SECTION_SOCKET, "EnvironmentFile", parse_envfile, 0, 0, 0, true },
	{ SECTION_SOCKET, "UMask", parse_umask, 0, 0, 0, false },
	{ SECTION_SOCKET, "Nice", parse_int_key, F(nice), -20, 19, false },
	{ SECTION_SOCKET, "OOMScoreAdjust", parse_int_key, F(oom_score_adjust), -1000, 1000, false },
	{ SECTION_SOCKET, "NoNewPrivileges", parse_bool_key, F(no_new_privileges), 0, 0, false },
	{ SECTION_SOCKET, "IgnoreSIGPIPE", parse_bool_key, EXECENV(ignore_sigpipe), 0, 0, false },
	{ SECTION_SOCKET, "StandardOutput", parse_output_key, F(std_output), 0, 0, true },
	{ SECTION_SOCKET, "StandardError", parse_output_key, F(std_error), 0, 0, true },
	{ SECTION_SOCKET, "SyslogIdentifier", parse_syslog_identifier, 0, 0, 0, true },
	{ SECTION_SOCKET, "KillMode", parse_kill_mode, F(kill_mode), 0, 0, false },
	{ SECTION_SOCKET, "KillSignal", parse_signal, 0, 0, 0, false },
	{ SECTION_SOCKET, "SendSIGKILL", parse_bool_key, F(send_sigkill), 1, 0, false },
};
#undef F

/* U1: specifiers (%i %n %t ...) as lib/unit-name.c resolves them. Host facts (%H %m %b
 * ...) are read once per load, only when a file uses one. */
static struct unit_host parser_host;

void service_forget_host(void)
{
	parser_host.probed = false;
}

static int expand_specifiers(struct parser *p, const char *key, const char *value, char *out,
			     size_t size)
{
	struct unit_spec_ctx ctx = { p->svc->name, p->svc->path, &parser_host };
	char why[160];

	if (unit_specifiers_expand(&ctx, value, out, size, why, sizeof why) < 0)
		return invalid(p, key, value, why);
	return 0;
}

static const struct key *find_key(enum section section, const char *name)
{
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (keys[i].section == section && strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static const char *section_name(enum section section)
{
	switch (section) {
	case SECTION_UNIT: return "Unit";
	case SECTION_SERVICE: return "Service";
	case SECTION_SOCKET: return "Socket";
	case SECTION_INSTALL: return "Install";
	case SECTION_MOUNT: return "Mount"; /* unit-kinds */
	case SECTION_SLICE: return "Slice";
	case SECTION_TIMER: return "Timer"; /* timer units */
	case SECTION_PATH: return "Path"; /* path units */
	case SECTION_SWAP: return "Swap"; /* swap units */
	case SECTION_AUTOMOUNT: return "Automount"; /* automount units */
	default: return "?";
	}
}

/* U3: a key not in the table above. systemd's keys are classified in init/unit-compat.c:
 * harmless ones are ignored (a note for `emberctl verify --verbose`), ones that change
 * what the unit does are ignored with a warning saying what changes, the rest fail the
 * unit. A key systemd does not document either is a warning, as it is for systemd. */
static void unknown_key(struct parser *p, const char *key, const char *value)
{
	const struct unit_compat *row = unit_compat_find(section_name(p->section), key);
	char message[SERVICE_ERROR_MAX];

	if (!row) {
		warn(p, "%s: unknown key in [%s], ignored", key, section_name(p->section));
		return;
	}
	switch (unit_compat_classify(row, value)) {
	case COMPAT_HARMLESS:
		if (p->diag && p->diag->notes) {
			snprintf(message, sizeof message, "%s: ignored, harmless: %s", key, row->note);
			report(p->diag, SERVICE_NOTE, p->svc->path, p->line, message);
		}
		break;
	case COMPAT_CHANGES:
		warn(p, "%s: not supported by ember: %s", key, row->note);
		break;
	case COMPAT_REFUSED:
		service_fail(p->svc, p->diag, p->line, "%s: refused by ember: %s", key, row->note);
		break;
	}
}

static void assign(struct parser *p, const char *key, const char *value)
{
	const struct key *k;
	char expanded[SERVICE_LINE_MAX];

	if (p->section == SECTION_SKIPPED || str_starts_with(key, "X-"))
		return;
	if (p->section == SECTION_NONE) {
		warn(p, "%s= before any [Unit] or [Service] header, ignored", key);
		return;
	}
	if (p->section == SECTION_SOCKET && !find_key(SECTION_SOCKET, key)) { /* U4 */
		if (expand_specifiers(p, key, value, expanded, sizeof expanded) < 0)
			return;
		if (socket_unit_assign(p->svc, p->diag, p->line, key, expanded) > 0)
			unknown_key(p, key, value);
		return;
	}
	if (p->section == SECTION_UNIT && condition_kind_from_key(key, &(bool){ false }) >= 0) {
		/* U3: Condition*= and Assert*= (init/condition.c) */
		if (expand_specifiers(p, key, value, expanded, sizeof expanded) == 0)
			parse_condition(p, key, expanded);
		return;
	}
	if (p->section == SECTION_SERVICE && service_rlimit_from_key(key) >= 0) {
		parse_rlimit(p, key, value);
		return;
	}
	k = find_key(p->section, key);
	if (!k) {
		unknown_key(p, key, value);
		return;
	}
	if (k->specifiers) {
		if (expand_specifiers(p, key, value, expanded, sizeof expanded) < 0)
			return;
		value = expanded;
	}
	k->parse(p, k, value);
}

/* ---- lines ------------------------------------------------------------------------------ */

static void section_header(struct parser *p, char *line)
{
	size_t len = strlen(line);
	char *name = line + 1;

	if (len < 3 || line[len - 1] != ']') {
		service_fail(p->svc, p->diag, p->line, "invalid section header \"%.64s\"", line);
		p->section = SECTION_SKIPPED;
		return;
	}
	line[len - 1] = '\0';
	if (strcmp(name, "Unit") == 0) {
		p->section = SECTION_UNIT;
	} else if (strcmp(name, "Service") == 0 && p->svc->kind == UNIT_SERVICE) {
		p->section = SECTION_SERVICE;
	} else if (strcmp(name, "Socket") == 0 && p->svc->kind == UNIT_SOCKET) { /* U4 */
		p->section = SECTION_SOCKET;
	} else if (strcmp(name, "Mount") == 0 && p->svc->kind == UNIT_MOUNT) { /* unit-kinds */
		p->section = SECTION_MOUNT;
	} else if (strcmp(name, "Slice") == 0 && p->svc->kind == UNIT_SLICE) {
		p->section = SECTION_SLICE;
	} else if (strcmp(name, "Timer") == 0 && p->svc->kind == UNIT_TIMER) {
		p->section = SECTION_TIMER;
	} else if (strcmp(name, "Path") == 0 && p->svc->kind == UNIT_PATH) {
		p->section = SECTION_PATH;
	} else if (strcmp(name, "Swap") == 0 && p->svc->kind == UNIT_SWAP) { /* swap units */
		p->section = SECTION_SWAP;
	} else if (strcmp(name, "Automount") == 0 && p->svc->kind == UNIT_AUTOMOUNT) {
		p->section = SECTION_AUTOMOUNT; /* automount units */
	} else if (strcmp(name, "Install") == 0) { /* U1 */
		p->section = SECTION_INSTALL;
		p->svc->has_install = true;
	} else {
		/* X- is for extensions. */
		if (!str_starts_with(name, "X-"))
			warn(p, "unknown section [%.64s], its keys are ignored", name);
		p->section = SECTION_SKIPPED;
	}
}

static void logical_line(struct parser *p, char *line)
{
	char *eq;

	line = strip(line);
	if (*line == '\0' || *line == '#' || *line == ';')
		return;
	if (*line == '[') {
		section_header(p, line);
		return;
	}
	eq = strchr(line, '=');
	if (!eq) {
		service_fail(p->svc, p->diag, p->line, "expected KEY=VALUE or [Section], got \"%.64s\"",
			     line);
		return;
	}
	*eq = '\0';
	line = strip(line);
	if (*line == '\0') {
		service_fail(p->svc, p->diag, p->line, "an assignment without a key");
		return;
	}
	assign(p, line, strip(eq + 1));
}

/* Reject bytes that have no business in a text file. Returns the offending byte or -1. */
static int bad_byte(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return c;
	}
	return -1;
}

static bool is_comment(const char *s, size_t len)
{
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	return len > 0 && (*s == '#' || *s == ';');
}

/* Joins "\"-continued lines (the backslash becomes a space; comment lines inside are
 * skipped, as systemd does) and hands each logical line to logical_line(). */
struct joiner {
	char buf[SERVICE_LINE_MAX];
	size_t len;
	bool continuing;
	bool too_long;
	unsigned first_line;
};

static bool ends_with_backslash(const char *s, size_t *len)
{
	while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t' || s[*len - 1] == '\r'))
		(*len)--;
	if (*len > 0 && s[*len - 1] == '\\') {
		(*len)--;
		return true;
	}
	return false;
}

static void join_line(struct parser *p, struct joiner *j, const char *s, size_t len)
{
	bool more;

	if (j->continuing && is_comment(s, len))
		return;
	if (!j->continuing) {
		j->len = 0;
		j->too_long = false;
		j->first_line = p->line;
	}
	more = !is_comment(s, len) && ends_with_backslash(s, &len);
	if (j->len + len + (more ? 1 : 0) + 1 > sizeof j->buf) {
		j->too_long = true;
	} else {
		memcpy(j->buf + j->len, s, len);
		j->len += len;
		if (more)
			j->buf[j->len++] = ' ';
	}
	j->continuing = more;
	if (more)
		return;
	j->buf[j->len] = '\0';
	unsigned here = p->line;
	p->line = j->first_line;
	if (j->too_long)
		service_fail(p->svc, p->diag, p->line, "line longer than %d bytes",
			     SERVICE_LINE_MAX - 1);
	else
		logical_line(p, j->buf);
	p->line = here;
}

static void parse_text(struct parser *p, const char *text, size_t len)
{
	struct joiner j = { .continuing = false };
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;
		int bad = bad_byte(text + pos, line_len);
		p->line++;
		if (bad == 0)
			service_fail(p->svc, p->diag, p->line, "a NUL byte in the file");
		else if (bad > 0)
			service_fail(p->svc, p->diag, p->line, "control character 0x%02x in the file",
				     bad);
		else
			join_line(p, &j, text + pos, line_len);
		pos += line_len + 1;
	}
	if (j.continuing) /* a final backslash line: take what was joined */
		join_line(p, &j, "", 0);
}

/* ---- whole-service checks --------------------------------------------------------------- */

static void validate(struct service *svc, const struct service_diag *diag)
{
	if (svc->kind == UNIT_SOCKET) { /* U4 */
		socket_unit_validate(svc, diag);
		return;
	}
	if (svc->type == SERVICE_DBUS && !svc->bus_name) /* U4 */
		service_fail(svc, diag, 0, "Type=dbus without BusName=");
	unit_kinds_validate(svc, diag); /* unit kinds (unit-kinds) */
	unit_timer_validate(svc, diag); /* timer units */
	unit_path_validate(svc, diag); /* path units */
	if (svc->kind != UNIT_SERVICE)
		return; /* U1: targets have nothing to run */
	dynamic_user_imply(svc);
	if (unit_name_is_template(svc->name)) {
		service_fail(svc, diag, 0, "a template: it runs only as an instance (%.*s@INSTANCE)",
			     (int)(strlen(svc->name) - 1), svc->name);
		return;
	}
	/* sockets-accept: as systemd, a service with no Type= and no ExecStart= is a oneshot
	 * if it has ExecStop= or SuccessAction= (systemd-reboot.service: SuccessAction=
	 * alone), else refused; BusName= with no Type= means Type=dbus. */
	if (!svc->type_set && svc->exec_start.count == 0 &&
	    (svc->exec_stop.count > 0 || UNIT_ACTION_WHAT(svc->success_action) != UNIT_ACTION_NONE))
		svc->type = SERVICE_ONESHOT;
	else if (!svc->type_set && svc->bus_name)
		svc->type = SERVICE_DBUS;
	if (svc->type != SERVICE_ONESHOT && svc->exec_start.count != 1) {
		service_fail(svc, diag, 0, svc->exec_start.count == 0
			     ? "no ExecStart= (only Type=oneshot may go without one)"
			     : "several ExecStart= lines (only Type=oneshot may have more than one)");
	}
	/* U2: as systemd, PIDFile= names the main process of Type=forking, and of the
	 * other types once their ExecStartPost= lines are done (supervisor.c); any type's
	 * file is removed when the service ends. */
	if (svc->type == SERVICE_ONESHOT && svc->restart == RESTART_ALWAYS)
		service_fail(svc, diag, 0, "Restart=always is not allowed with Type=oneshot");
	validate_execenv(svc);
	apply_permissions_start_only(svc, diag); /* exec keys (sandbox-more) */
	if (svc->type == SERVICE_ONESHOT && svc->restart == RESTART_ON_SUCCESS) /* U2 */
		service_fail(svc, diag, 0, "Restart=on-success is not allowed with Type=oneshot");
}

int service_init(struct service *svc, const char *name, const char *path)
{
	memset(svc, 0, offsetof(struct service, text));
	svc->text[0] = '\0';
	svc->text_used = 1; /* offset 0 is "not set" */
	svc->type = SERVICE_SIMPLE;
	svc->restart = RESTART_NO;
	svc->restart_ms = 100;
	svc->restart_max_delay_ms = RESTART_MAX_DELAY_DEFAULT_MS;
	svc->start_limit_burst = START_LIMIT_BURST_DEFAULT;
	svc->start_limit_interval_ms = START_LIMIT_INTERVAL_DEFAULT_MS;
	svc->timeout_start_ms = TIMEOUT_START_DEFAULT_MS;
	svc->timeout_stop_ms = TIMEOUT_STOP_DEFAULT_MS;
	svc->kill_signal = SIGTERM;
	svc->final_kill_signal = SIGKILL; /* U2 */
	svc->reload_signal = SIGHUP;      /* U2 */
	svc->send_sigkill = true;         /* U2 */
	svc->guess_main_pid = true;
	svc->memory_max = svc->memory_high = svc->tasks_max = svc->memory_swap_max = ~0ULL;
	svc->std_output.kind = OUTPUT_LOG;
	svc->std_output.journal = true; /* systemd's default, where journald listens */
	svc->std_error.kind = OUTPUT_INHERIT;
	svc->syslog_priority = SYSLOG_PRIORITY_DEFAULT;
	svc->syslog_level_prefix = true;
	svc->log_rate_burst = LOG_RATE_LIMIT_BURST_DEFAULT;
	svc->log_rate_interval_ms = LOG_RATE_LIMIT_INTERVAL_DEFAULT_MS;
	execenv_defaults(svc);
	svc->execmore.io_priority = 8; /* exec keys (sandbox-more): unset */
	svc->sock.socket_mode = 0666; /* U4 */
	svc->sock.directory_mode = 0755;
	svc->sock.backlog = SOCKET_BACKLOG_DEFAULT;
	runtime_keys_defaults(svc); /* unit-runtime2 */
	svc->sock.ip_tos = svc->sock.ip_ttl = -1; /* sockets-accept */
	svc->sock.priority = -1;
	svc->kinds.swap_priority = svc->kinds.swap_pri_option = -1; /* swap units */
	str_copy(svc->path, sizeof svc->path, path);
	if (!service_name_valid(name)) {
		snprintf(svc->name, sizeof svc->name, "%.*s", SERVICE_NAME_MAX - 1, name);
		service_fail(svc, NULL, 0, "unsafe service name");
		return -1;
	}
	str_copy(svc->name, sizeof svc->name, name);
	svc->kind = unit_name_kind(name); /* U1 */
	svc->default_dependencies = true;
	svc->timer.flags = TIMER_KEEP; /* RemainAfterElapse=yes */
	return 0;
}

/* U1: one more file (a drop-in) onto svc, without the whole-unit checks. */
int service_parse_more(struct service *svc, const char *text, size_t len,
		       const struct service_diag *diag)
{
	struct parser p = { .svc = svc, .diag = diag, .line = 0, .section = SECTION_NONE,
			    .memory_limit = ~0ULL };

	if (len > SERVICE_FILE_MAX)
		service_fail(svc, diag, 0, "file is %zu bytes, more than the limit of %d", len,
			     SERVICE_FILE_MAX);
	else
		parse_text(&p, text, len);
	apply_memory_limit(&p);
	return svc->failed ? -1 : 0;
}

int service_validate(struct service *svc, const struct service_diag *diag)
{
	if (!svc->failed)
		validate(svc, diag);
	return svc->failed ? -1 : 0;
}

/* A name past SERVICE_DEPS_MAX: the overflow string is stored again, one name longer
 * (the old one is garbage, reclaimed by compaction). */
static int add_more(struct service *svc, struct service_name_list *list, const char *name)
{
	char joined[SERVICE_TEXT_MAX];
	const char *old = service_str(svc, list->more);
	size_t len = strlen(name);
	strref ref;

	if (list->more_count == UINT16_MAX)
		return -1;
	/* Stored last, it grows in place: a long list read name by name leaves no copies. */
	if (list->more && list->more + strlen(old) + 1 == svc->text_used &&
	    svc->text_used + len + 1 <= SERVICE_TEXT_MAX) {
		svc->text[svc->text_used - 1] = ' ';
		memcpy(svc->text + svc->text_used, name, len + 1);
		svc->text_used = (uint16_t)(svc->text_used + len + 1);
		list->more_count++;
		return 0;
	}
	if (strlen(old) + len + 2 > sizeof joined)
		return -1;
	snprintf(joined, sizeof joined, "%s%s%s", old, *old ? " " : "", name);
	ref = text_add(svc, joined);
	if (!ref)
		return -1;
	list->more = ref;
	list->more_count++;
	return 0;
}

/* U1: a name the loader adds (.wants/.requires directories, built-in relations). */
int service_add_name(struct service *svc, struct service_name_list *list, const char *name)
{
	if (strcmp(name, svc->name) == 0 || name_listed(svc, list, name))
		return 0;
	if (list->count >= SERVICE_DEPS_MAX)
		return add_more(svc, list, name);
	list->name[list->count] = text_add(svc, name);
	if (!list->name[list->count])
		return -1;
	list->count++;
	return 0;
}

int service_parse(struct service *svc, const char *text, size_t len,
		  const struct service_diag *diag)
{
	struct parser p = { .svc = svc, .diag = diag, .line = 0, .section = SECTION_NONE,
			    .memory_limit = ~0ULL };

	if (len > SERVICE_FILE_MAX)
		service_fail(svc, diag, 0, "file is %zu bytes, more than the limit of %d", len,
			     SERVICE_FILE_MAX);
	else
		parse_text(&p, text, len);
	apply_memory_limit(&p);
	if (!svc->failed)
		validate(svc, diag);
	return svc->failed ? -1 : 0;
}

/* ---- the keys this parser knows (for unit-compat's test and the docs' table) -------- */

const char *service_key_at(size_t i, const char **section)
{
	static char condition_key[64];
	size_t nkeys = sizeof keys / sizeof *keys;

	if (i < nkeys) {
		*section = section_name(keys[i].section);
		return keys[i].name;
	}
	i -= nkeys;
	*section = "Service";
	if (i < RLIMIT_KEY_COUNT)
		return rlimit_keys[i].key;
	i -= RLIMIT_KEY_COUNT;
	*section = "Unit";
	if (i < 2 * CONDITION_KIND_COUNT) {
		snprintf(condition_key, sizeof condition_key, "%s%s", i % 2 ? "Assert" : "Condition",
			 condition_kind_name((enum condition_kind)(i / 2)));
		return condition_key;
	}
	return NULL;
}

/* ---- helpers for the supervisor -------------------------------------------------------- */

const char *service_trigger_target(const struct service *svc, char *out, size_t size)
{
	strref unit = svc->kind == UNIT_TIMER ? svc->timer.unit : svc->path_unit.unit;
	size_t stem = strlen(svc->name) - strlen(unit_kind_suffix(svc->kind));

	if (svc->kind != UNIT_TIMER && svc->kind != UNIT_PATH)
		return NULL;
	if (unit)
		str_copy(out, size, service_str(svc, unit));
	else
		snprintf(out, size, "%.*s", (int)stem, svc->name);
	return out;
}

int service_trigger_unit_parse(struct service *svc, const struct service_diag *diag,
			       unsigned line, const char *value, strref *unit)
{
	char name[SERVICE_NAME_MAX];
	enum unit_kind kind;

	if (!*value) {
		*unit = 0;
		return 0;
	}
	if (unit_name_canonical(value, name, sizeof name, &kind) < 0 || kind == svc->kind ||
	    unit_name_is_template(name)) {
		service_fail(svc, diag, line, "Unit=%.64s: expected the name of a unit to start "
			     "(not a %s unit, not a template)", value,
			     unit_kind_suffix(svc->kind) + 1);
		return -1;
	}
	*unit = service_text_store(svc, name);
	if (*unit)
		return 0;
	service_fail(svc, diag, line, "Unit=%.64s: too much text in this file", value);
	return -1;
}

bool service_triggered(struct service *const *all, size_t n, const char *name)
{
	char target[SERVICE_NAME_MAX];

	for (size_t i = 0; i < n; i++)
		if (!all[i]->failed && service_trigger_target(all[i], target, sizeof target) &&
		    strcmp(target, name) == 0)
			return true;
	return false;
}

/* U3: conditions, then asserts; see service.h. */
static bool group_holds(const struct service *svc, const struct condition_probe *probe,
			bool assert, const struct service_condition **failed)
{
	const struct service_condition *first_trigger = NULL;
	bool any_trigger = false, trigger_met = false;

	for (size_t i = 0; i < svc->condition_count; i++) {
		const struct service_condition *c = &svc->condition[i];
		bool holds;
		if (c->assert != assert)
			continue;
		if (c->trigger && trigger_met)
			continue; /* the group already holds: skip the (maybe costly) test */
		holds = condition_test(probe, c->kind, service_str(svc, c->value)) != c->negate;
		if (c->trigger) {
			any_trigger = true;
			trigger_met = holds;
			if (!first_trigger)
				first_trigger = c;
		} else if (!holds) {
			*failed = c;
			return false;
		}
	}
	if (any_trigger && !trigger_met) {
		*failed = first_trigger;
		return false;
	}
	return true;
}

static void describe_condition(const struct service *svc, const struct service_condition *c,
			       char *what, size_t size)
{
	snprintf(what, size, "%s%s=%s%s%s", c->assert ? "Assert" : "Condition",
		 condition_kind_name(c->kind), c->trigger ? "|" : "", c->negate ? "!" : "",
		 service_str(svc, c->value));
}

enum service_conditions_result service_conditions_check(const struct service *svc,
							const struct condition_probe *probe,
							char *what, size_t size)
{
	const struct service_condition *failed = NULL;

	if (size)
		what[0] = '\0';
	if (!group_holds(svc, probe, false, &failed)) {
		describe_condition(svc, failed, what, size);
		return SERVICE_CONDITION_FAILED;
	}
	if (!group_holds(svc, probe, true, &failed)) {
		describe_condition(svc, failed, what, size);
		return SERVICE_ASSERT_FAILED;
	}
	return SERVICE_CONDITIONS_MET;
}

/* ---- EnvironmentFile= contents ------------------------------------------------------------ */

struct envfile_reader {
	const char *s, *end;
	unsigned line;
	char *err;
	size_t err_size;
	unsigned skipped; /* lines that are no assignment, passed over */
};

static int envfile_error(struct envfile_reader *r, const char *why)
{
	snprintf(r->err, r->err_size, "line %u: %s", r->line, why);
	return -1;
}

/* A line systemd passes over (Debian's /etc/default files hold shell: "ulimit -n 4096"):
 * so does ember, and the first one is named in err for the caller's warning. */
static int envfile_skip(struct envfile_reader *r, unsigned line, const char *why)
{
	if (r->skipped++ == 0)
		snprintf(r->err, r->err_size, "line %u: %s, ignored", line, why);
	return 1;
}

static void skip_blanks(struct envfile_reader *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t'))
		r->s++;
}

static void skip_to_next_line(struct envfile_reader *r)
{
	while (r->s < r->end && *r->s != '\n')
		r->s++;
	if (r->s < r->end)
		r->s++;
	r->line++;
}

/* Append c to out (size SERVICE_LINE_MAX). */
static int envfile_put(struct envfile_reader *r, char *out, size_t *n, char c)
{
	if (c == '\0')
		return envfile_error(r, "a NUL byte");
	if (*n + 1 >= SERVICE_LINE_MAX)
		return envfile_error(r, "assignment too long");
	out[(*n)++] = c;
	return 0;
}

/* 'single quotes': everything literal up to the closing quote. */
static int envfile_single(struct envfile_reader *r, char *out, size_t *n)
{
	unsigned start = r->line;

	for (r->s++; r->s < r->end && *r->s != '\''; r->s++) {
		if (*r->s == '\n')
			r->line++;
		if (envfile_put(r, out, n, *r->s) < 0)
			return -1;
	}
	if (r->s >= r->end) {
		r->line = start;
		return envfile_error(r, "unterminated ' quote");
	}
	r->s++;
	return 0;
}

/* "double quotes": \" \\ \$ \` are escapes, backslash-newline joins lines. */
static int envfile_double(struct envfile_reader *r, char *out, size_t *n)
{
	unsigned start = r->line;

	for (r->s++; r->s < r->end && *r->s != '"'; r->s++) {
		char c = *r->s;
		if (c == '\\' && r->s + 1 < r->end && strchr("\"\\$`\n", r->s[1])) {
			c = *++r->s;
			if (c == '\n') {
				r->line++;
				continue;
			}
		} else if (c == '\n') {
			r->line++;
		}
		if (envfile_put(r, out, n, c) < 0)
			return -1;
	}
	if (r->s >= r->end) {
		r->line = start;
		return envfile_error(r, "unterminated \" quote");
	}
	r->s++;
	return 0;
}

/* The value after '=', up to the end of the line, read as systemd reads it: a quote
 * opens a quoted part only where the value starts or a quoted part ended (blanks there
 * are passed over); after bare text it is a character like any other (Debian's
 * /etc/default files: A=-f '/etc/x y', kept for the split of a lone $A). Trailing blanks
 * of bare text are dropped. */
static int envfile_value(struct envfile_reader *r, char *out, size_t *n)
{
	size_t keep = *n; /* length without trailing bare blanks */
	bool bare = false;

	skip_blanks(r);
	while (r->s < r->end && *r->s != '\n') {
		char c = *r->s;
		if (!bare && (c == '\'' || c == '"')) {
			if ((c == '\'' ? envfile_single(r, out, n) : envfile_double(r, out, n)) < 0)
				return -1;
			keep = *n;
			skip_blanks(r);
			continue;
		}
		bare = true;
		if (c == '\\' && r->s + 1 < r->end) {
			c = *++r->s;
			if (c == '\n') {
				r->s++;
				r->line++;
				continue;
			}
			r->s++;
			if (envfile_put(r, out, n, c) < 0)
				return -1;
			keep = *n;
			continue;
		}
		r->s++;
		if (envfile_put(r, out, n, c) < 0)
			return -1;
		if (c != ' ' && c != '\t' && c != '\r')
			keep = *n;
	}
	*n = keep;
	return 0;
}

/* 0: an assignment in out; 1: a line that is none, skipped; -1: an error in r->err. */
static int envfile_assignment(struct envfile_reader *r, char *out)
{
	size_t n = 0, name_len;
	const char *name;
	unsigned line = r->line;
	bool words = false;

	if ((size_t)(r->end - r->s) > 7 && strncmp(r->s, "export ", 7) == 0) {
		r->s += 7;
		skip_blanks(r);
	}
	name = r->s;
	while (r->s < r->end && *r->s != '=' && *r->s != '\n' && *r->s != ' ' && *r->s != '\t')
		r->s++;
	name_len = (size_t)(r->s - name);
	skip_blanks(r);
	/* systemd's name runs to the '=': "a b=c" has the name "a b" */
	for (; r->s < r->end && *r->s != '=' && *r->s != '\n'; r->s++)
		words = true;
	if (r->s >= r->end || *r->s != '=')
		return envfile_skip(r, line, "no NAME=value");
	r->s++;
	if (words || !env_name_valid(name, name_len)) {
		/* its value is read all the same: a quoted one may span lines */
		if (envfile_value(r, out, &n) < 0)
			return -1;
		return envfile_skip(r, line, "NAME is not of letters, digits and _");
	}
	for (const char *c = name; c < name + name_len; c++)
		if (envfile_put(r, out, &n, *c) < 0)
			return -1;
	if (envfile_put(r, out, &n, '=') < 0 || envfile_value(r, out, &n) < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

int service_envfile_parse(const char *text, size_t len,
			  int (*add)(void *ctx, const char *assignment), void *ctx,
			  char *err, size_t err_size)
{
	struct envfile_reader r = { text, text + len, 1, err, err_size, 0 };
	char assignment[SERVICE_LINE_MAX];
	int got;

	if (err_size > 0)
		err[0] = '\0';
	while (r.s < r.end) {
		skip_blanks(&r);
		if (r.s >= r.end)
			break;
		if (*r.s == '\n' || *r.s == '#' || *r.s == ';') {
			skip_to_next_line(&r);
			continue;
		}
		got = envfile_assignment(&r, assignment);
		if (got < 0)
			return -1;
		if (got == 0 && add(ctx, assignment) < 0)
			return envfile_error(&r, "too many assignments");
		skip_to_next_line(&r);
	}
	return 0;
}
