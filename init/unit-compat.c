/* The table of systemd keys ember does not implement. Classes and what they mean:
 * unit-compat.h. Sources: systemd.unit(5), systemd.service(5), systemd.socket(5),
 * systemd.exec(5), systemd.kill(5), systemd.resource-control(5) as of v259.
 *
 * When a helper implements a key, its row is deleted here (a unit test checks that no
 * key is both in the parser's table and in this one). Keep rows grouped by man page.
 */
#include "unit-compat.h"

#include <string.h>

#include "parse.h"

#define U COMPAT_UNIT
#define S COMPAT_SERVICE
#define K COMPAT_SOCKET
#define I COMPAT_INSTALL
#define E COMPAT_EXEC

#define H(key, sect, note) { key, sect, COMPAT_HARMLESS, NULL, note }
#define C(key, sect, note) { key, sect, COMPAT_CHANGES, NULL, note }
#define CV(key, sect, ok, note) { key, sect, COMPAT_CHANGES, ok, note }
#define R(key, sect, note) { key, sect, COMPAT_REFUSED, NULL, note }
#define RV(key, sect, ok, note) { key, sect, COMPAT_REFUSED, ok, note }

/* Notes shared by many rows. */
#define NO_SANDBOX "the service runs without this restriction (no sandboxing)"
#define NO_CGROUP_KNOB "this cgroup limit is not set"
#define NO_SOCKETS "this kind of socket is not supported: the service would not get it"
#define ACCOUNTING "accounting only; ember's cgroups count what the kernel counts anyway"

const struct unit_compat unit_compat_table[] = {
	/* ---- [Unit]: systemd.unit(5) ---- */
	H("Documentation", U, "documentation links only"),
	H("SourcePath", U, "informational: the file a generator read"),
	C("Upholds", U, "the named units are not restarted when they stop"),
	H("OnFailureJobMode", U, "only matters with OnFailure="),
	C("PropagatesStopTo", U, "stops are not passed on"),
	C("StopPropagatedFrom", U, "stops are not passed on"),
	C("JoinsNamespaceOf", U, "the service does not share the other unit's namespaces"),
	H("AllowIsolate", U, "ember has no isolate operation"),
	H("IgnoreOnIsolate", U, "ember has no isolate operation"),
	H("CollectMode", U, "ember keeps every loaded unit's status until the next boot"),
	/* systemd still reads RebootArgument= in [Service], where it used to be */
	H("FailureActionExitStatus", U, "only matters with FailureAction="),
	H("SuccessActionExitStatus", U, "only matters with SuccessAction="),
	C("JobRunningTimeoutSec", U, "no timeout on waiting for the unit's dependencies"),
	H("JobTimeoutRebootArgument", U, "only matters with JobTimeoutAction="),
	H("RebootArgument", U | S, "only matters with the *Action= keys"),

	/* ---- [Install]: systemd.unit(5); ember enables by directory, not by links ---- */
	C("UpheldBy", I, "enablement is not read: a unit in ember's directories starts at boot"),

	/* ---- [Service]: systemd.service(5) ---- */
	C("TimeoutAbortSec", S, "aborting uses TimeoutStopSec="),
	C("TimeoutStartFailureMode", S, "a start timeout always sends KillSignal= then SIGKILL"),
	C("TimeoutStopFailureMode", S, "a stop timeout always sends SIGKILL"),
	C("RuntimeRandomizedExtraSec", S, "the service is stopped at RuntimeMaxSec=, not later"),
	H("RootDirectoryStartOnly", S, "only matters with RootDirectory="),
	C("USBFunctionDescriptors", S, "the descriptors are not written to the FunctionFS endpoint"),
	C("USBFunctionStrings", S, "the strings are not written to the FunctionFS endpoint"),
	C("OpenFile", S, "the file is not opened and passed to the service"),

	/* ---- resource control: systemd.resource-control(5) ---- */
	H("CPUAccounting", E, ACCOUNTING),
	H("MemoryAccounting", E, ACCOUNTING),
	H("TasksAccounting", E, ACCOUNTING),
	H("IOAccounting", E, ACCOUNTING),
	H("IPAccounting", E, "accounting only"),
	H("BlockIOAccounting", E, ACCOUNTING),
	C("StartupCPUWeight", E, NO_CGROUP_KNOB),
	C("CPUQuota", E, NO_CGROUP_KNOB),
	C("CPUQuotaPeriodSec", E, NO_CGROUP_KNOB),
	C("AllowedCPUs", E, NO_CGROUP_KNOB),
	C("StartupAllowedCPUs", E, NO_CGROUP_KNOB),
	C("AllowedMemoryNodes", E, NO_CGROUP_KNOB),
	C("StartupAllowedMemoryNodes", E, NO_CGROUP_KNOB),
	C("MemoryMin", K, NO_CGROUP_KNOB), /* services: init/service.c */
	C("MemoryLow", K, NO_CGROUP_KNOB),
	C("StartupMemoryLow", E, NO_CGROUP_KNOB),
	C("StartupMemoryHigh", E, NO_CGROUP_KNOB),
	C("StartupMemoryMax", E, NO_CGROUP_KNOB),
	C("StartupMemorySwapMax", E, NO_CGROUP_KNOB),
	C("MemoryZSwapMax", E, NO_CGROUP_KNOB),
	C("StartupMemoryZSwapMax", E, NO_CGROUP_KNOB),
	C("MemoryZSwapWriteback", E, NO_CGROUP_KNOB),
	C("StartupIOWeight", E, NO_CGROUP_KNOB),
	C("IODeviceWeight", E, NO_CGROUP_KNOB),
	C("IOReadBandwidthMax", E, NO_CGROUP_KNOB),
	C("IOWriteBandwidthMax", E, NO_CGROUP_KNOB),
	C("IOReadIOPSMax", E, NO_CGROUP_KNOB),
	C("IOWriteIOPSMax", E, NO_CGROUP_KNOB),
	C("IODeviceLatencyTargetSec", E, NO_CGROUP_KNOB),
	C("CPUShares", E, "old name of CPUWeight=, not read: " NO_CGROUP_KNOB),
	C("StartupCPUShares", E, NO_CGROUP_KNOB),
	C("BlockIOWeight", E, "old name of IOWeight=, not read: " NO_CGROUP_KNOB),
	C("StartupBlockIOWeight", E, NO_CGROUP_KNOB),
	C("BlockIODeviceWeight", E, NO_CGROUP_KNOB),
	C("BlockIOReadBandwidth", E, NO_CGROUP_KNOB),
	C("BlockIOWriteBandwidth", E, NO_CGROUP_KNOB),
	C("IPIngressFilterPath", E, "the BPF filter is not attached"),
	C("IPEgressFilterPath", E, "the BPF filter is not attached"),
	C("SocketBindAllow", E, "binding to ports is not restricted"),
	C("SocketBindDeny", E, "binding to ports is not restricted"),
	C("RestrictNetworkInterfaces", E, "all network interfaces are usable"),
	C("NFTSet", E, "the cgroup is not added to the nftables set"),
	C("BPFProgram", E, "the BPF program is not attached"),
	C("DisableControllers", E, "controllers are not disabled for this cgroup"),
	H("ManagedOOMSwap", E, "for systemd-oomd, which ember does not run"),
	H("ManagedOOMMemoryPressure", E, "for systemd-oomd, which ember does not run"),
	H("ManagedOOMMemoryPressureLimit", E, "for systemd-oomd, which ember does not run"),
	H("ManagedOOMMemoryPressureDurationSec", E, "for systemd-oomd, which ember does not run"),
	H("ManagedOOMPreference", E, "for systemd-oomd, which ember does not run"),
	H("MemoryPressureWatch", E, "$MEMORY_PRESSURE_WATCH is not set: the service does not "
				    "watch memory pressure, as when PSI is unavailable"),
	H("MemoryPressureThresholdSec", E, "only matters with MemoryPressureWatch="),
	H("CoredumpReceive", E, "for systemd-coredump, which ember does not run"),

	/* ---- exec, paths: systemd.exec(5) ---- */
	C("ExecSearchPath", E, "bare program names use ember's fixed search path"),
	R("RootDirectory", E, "the service would run in the host's root file system instead"),
	R("RootImage", E, "the service would run in the host's root file system instead"),
	H("RootImageOptions", E, "only matters with RootImage="),
	R("RootEphemeral", E, "the service would run in the host's root file system instead"),
	H("RootHash", E, "only matters with RootImage="),
	H("RootHashSignature", E, "only matters with RootImage="),
	H("RootVerity", E, "only matters with RootImage="),
	H("RootImagePolicy", E, "only matters with RootImage="),
	H("MountImagePolicy", E, "only matters with MountImages="),
	H("ExtensionImagePolicy", E, "only matters with ExtensionImages="),
	H("MountAPIVFS", E, "only matters with RootDirectory="),
	H("BindLogSockets", E, "only matters with RootDirectory="),
	R("MountImages", E, "the images are not mounted: the service would miss their files"),
	R("ExtensionImages", E, "the images are not mounted: the service would miss their files"),
	R("ExtensionDirectories", E, "the directories are not overlaid: the service would miss "
				     "their files"),

	/* ---- exec, credentials and process properties ---- */
	/* DynamicUser= is implemented for services (init/dynamic-user.c) */
	CV("DynamicUser", K, "no", "the socket's files stay root's and its Exec*= commands run "
				   "as User= (root by default), with no dynamic user"),
	H("SetLoginEnvironment", E, "ember opens no login sessions"),
	/* PAMName= is implemented for services (ember-session: the logind session) */
	C("PAMName", K, "no session is opened for the socket's commands"),
	C("SELinuxContext", E, "the SELinux context is not changed (where SELinux is off, as "
	  "by default on Debian and postmarketOS, systemd ignores it too)"),
	C("SmackProcessLabel", E, "the SMACK label is not changed"),
	C("CoredumpFilter", E, "the core dump filter is inherited"),
	/* KeyringMode= is implemented for services (a session keyring of their own) */
	H("KeyringMode", K, "the socket's commands share ember's session keyring"),
	/* MountFlags= is implemented for services (ember-sandbox's mount namespace) */
	C("MountFlags", K, "the socket's commands see ember's mounts, shared"),
	H("TimerSlackNSec", E, "only changes timer precision"),
	C("Personality", E, "the execution domain is not changed"),
	C("NUMAPolicy", E, "the NUMA policy is inherited"),
	C("NUMAMask", E, "the NUMA policy is inherited"),
	H("MemoryKSM", E, "only allows kernel same-page merging"),
	H("UtmpIdentifier", K, "no utmp records are written for the socket's commands"),
	H("UtmpMode", K, "no utmp records are written for the socket's commands"),

	/* ---- exec, sandboxing ---- */
	H("TimeoutCleanSec", E, "ember has no clean operation"),
	C("TemporaryFileSystem", E, "no tmpfs is mounted over the paths"),
	C("NetworkNamespacePath", E, "the service runs in ember's network namespace"),
	C("IPCNamespacePath", E, "the service runs in ember's IPC namespace"),
	C("RestrictFileSystems", E, "every file system type is allowed"),
	H("SystemCallLog", E, "only logs system calls"),

	/* ---- exec, environment, input, logging ---- */
	C("StandardInputText", E, "standard input is /dev/null"),
	C("StandardInputData", E, "standard input is /dev/null"),
	H("LogLevelMax", E, "ember's log keeps every line the service writes"),
	H("LogExtraFields", E, "ember's log has no structured fields"),
	H("LogFilterPatterns", E, "ember's log keeps every line the service writes"),
	H("LogNamespace", E, "ember has one log"),
	C("TTYRows", E, "the terminal size is not set"),
	C("TTYColumns", E, "the terminal size is not set"),

	/* ---- [Socket]: systemd.socket(5) ---- */
	R("ListenMessageQueue", K, NO_SOCKETS),
	R("ListenUSBFunction", K, NO_SOCKETS),
	C("SocketProtocol", K, "not applied to the socket ember creates"),
	C("BindToDevice", K, "not applied to the socket ember creates"),
	C("FlushPending", K, "not applied to the socket ember creates"),
	C("SmackLabel", K, "not applied to the socket ember creates"),
	C("SmackLabelIPIn", K, "not applied to the socket ember creates"),
	C("SmackLabelIPOut", K, "not applied to the socket ember creates"),
	C("SELinuxContextFromNet", K, "not applied to the socket ember creates"),
	C("PipeSize", K, "not applied to the socket ember creates"),
	C("MessageQueueMaxMessages", K, "not applied to the socket ember creates"),
	C("MessageQueueMessageSize", K, "not applied to the socket ember creates"),
	C("PassFileDescriptorsToExec", K, "not applied to the socket ember creates"),
	C("TCPCongestion", K, "not applied to the socket ember creates"),
	C("TriggerLimitIntervalSec", K, "not applied to the socket ember creates"),
	C("TriggerLimitBurst", K, "not applied to the socket ember creates"),
	C("PollLimitIntervalSec", K, "not applied to the socket ember creates"),
	C("PollLimitBurst", K, "not applied to the socket ember creates"),
	C("DeferTrigger", K, "not applied to the socket ember creates"),
	C("DeferTriggerMaxSec", K, "not applied to the socket ember creates"),
};

const size_t unit_compat_count = sizeof unit_compat_table / sizeof *unit_compat_table;

static const struct { const char *name; unsigned bit; } sections[] = {
	{ "Unit", COMPAT_UNIT }, { "Service", COMPAT_SERVICE }, { "Socket", COMPAT_SOCKET },
	{ "Install", COMPAT_INSTALL }, { "Mount", COMPAT_MOUNT }, { "Timer", COMPAT_TIMER },
	{ "Swap", COMPAT_SWAP }, /* swap units */
	{ "Slice", COMPAT_SLICE }, { "Path", COMPAT_PATH }, { "Automount", COMPAT_AUTOMOUNT },
};

unsigned unit_compat_section(const char *section)
{
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		if (strcmp(section, sections[i].name) == 0)
			return sections[i].bit;
	return 0;
}

const char *unit_compat_section_name(unsigned bit)
{
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		if (sections[i].bit == bit)
			return sections[i].name;
	return "?";
}

const char *unit_compat_class_name(enum unit_compat_class class)
{
	switch (class) {
	case COMPAT_HARMLESS: return "harmless";
	case COMPAT_CHANGES: return "changes";
	case COMPAT_REFUSED: return "refused";
	}
	return "?";
}

const struct unit_compat *unit_compat_find(const char *section, const char *key)
{
	unsigned bit = unit_compat_section(section);

	for (size_t i = 0; bit && i < unit_compat_count; i++)
		if ((unit_compat_table[i].sections & bit) && strcmp(unit_compat_table[i].key, key) == 0)
			return &unit_compat_table[i];
	return NULL;
}

enum unit_compat_class unit_compat_classify(const struct unit_compat *row, const char *value)
{
	bool a, b;

	if (!*value)
		return COMPAT_HARMLESS; /* an empty value resets the key to its default */
	if (row->harmless && (strcmp(value, row->harmless) == 0 ||
			      (parse_bool(value, &a) == 0 && parse_bool(row->harmless, &b) == 0 &&
			       a == b)))
		return COMPAT_HARMLESS;
	return row->class;
}

const char *unit_compat_specifier_hint(char c)
{
	switch (c) {
	case 'i': case 'I': case 'j': case 'J':
		return "the instance name: load the template as NAME@INSTANCE";
	case 'f': return "the instance as a path: /INSTANCE with '-' read as '/'";
	case 't': return "the runtime directory: /run for system units";
	case 'S': return "the state directory: /var/lib for system units";
	case 'C': return "the cache directory: /var/cache for system units";
	case 'L': return "the logs directory: /var/log for system units";
	case 'E': return "the configuration directory: /etc for system units";
	case 'T': return "the temporary directory: /tmp";
	case 'V': return "the persistent temporary directory: /var/tmp";
	case 'h': return "the user's home directory: /root for system units";
	case 'u': return "the user name: root for system units";
	case 'U': return "the user id: 0 for system units";
	case 'g': return "the group name: root for system units";
	case 'G': return "the group id: 0 for system units";
	case 's': return "the user's shell: /bin/sh for system units";
	case 'H': return "the host name";
	case 'l': return "the short host name";
	case 'q': return "the pretty host name";
	case 'b': return "the boot id";
	case 'm': return "the machine id";
	case 'v': return "the kernel release";
	case 'a': return "the architecture";
	case 'o': case 'w': case 'W': case 'B': case 'A': case 'M':
		return "a field of /etc/os-release";
	case 'd': return "the credentials directory: not supported by ember";
	case 'y': case 'Y': return "the unit file's path or directory";
	default: return NULL;
	}
}
