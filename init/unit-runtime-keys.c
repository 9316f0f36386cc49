/* unit-runtime2: parsing the runtime keys (see unit-runtime-keys.h). Pure: no I/O. */
#include "unit-runtime-keys.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "unit-name.h"

void runtime_keys_defaults(struct service *svc)
{
	svc->watchdog_signal = WATCHDOG_SIGNAL_DEFAULT;
	svc->job_timeout_ms = SERVICE_TIMEOUT_INFINITY;
	svc->runtime_max_ms = SERVICE_TIMEOUT_INFINITY;
	svc->fdstore_preserve = PRESERVE_RESTART;
}

static const char *const action_words[] = {
	[UNIT_ACTION_NONE] = "none", [UNIT_ACTION_EXIT] = "exit", [UNIT_ACTION_REBOOT] = "reboot",
	[UNIT_ACTION_POWEROFF] = "poweroff", [UNIT_ACTION_HALT] = "halt",
};

const char *unit_action_name(uint8_t action, char *buf, size_t size)
{
	static const char *const how[] = { "", "-force", "-immediate" };
	unsigned what = UNIT_ACTION_WHAT(action), h = UNIT_ACTION_HOW(action);

	snprintf(buf, size, "%s%s", what <= UNIT_ACTION_HALT ? action_words[what] : "?",
		 h <= UNIT_ACTION_IMMEDIATE ? how[h] : "");
	return buf;
}

/* systemd's emergency actions. kexec and soft-reboot are reboots to ember (it has neither);
 * "exit" has no exit code to return in PID 1, so it powers off as systemd's system
 * manager does when it exits in a container. */
static int parse_action(const char *value, uint8_t *out, bool allow_immediate)
{
	static const struct { const char *word; enum unit_action_what what; } words[] = {
		{ "none", UNIT_ACTION_NONE }, { "exit", UNIT_ACTION_EXIT },
		{ "reboot", UNIT_ACTION_REBOOT }, { "kexec", UNIT_ACTION_REBOOT },
		{ "soft-reboot", UNIT_ACTION_REBOOT }, { "poweroff", UNIT_ACTION_POWEROFF },
		{ "halt", UNIT_ACTION_HALT },
	};
	char word[32];
	const char *dash;
	enum unit_action_how how = UNIT_ACTION_ORDERLY;

	if (!*value) {
		*out = 0;
		return 0;
	}
	if (str_copy(word, sizeof word, value) < 0)
		return -1;
	dash = strrchr(word, '-');
	if (dash && strcmp(dash, "-force") == 0)
		how = UNIT_ACTION_FORCE;
	else if (dash && strcmp(dash, "-immediate") == 0 && allow_immediate)
		how = UNIT_ACTION_IMMEDIATE;
	if (how != UNIT_ACTION_ORDERLY)
		word[dash - word] = '\0';
	for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
		if (strcmp(word, words[i].word) != 0)
			continue;
		if (words[i].what == UNIT_ACTION_NONE && how != UNIT_ACTION_ORDERLY)
			return -1;
		if (words[i].what == UNIT_ACTION_EXIT && how == UNIT_ACTION_IMMEDIATE)
			return -1;
		*out = UNIT_ACTION(words[i].what, how);
		return 0;
	}
	return -1;
}

static const char *const access_words[] = {
	[NOTIFY_ACCESS_UNSET] = "", [NOTIFY_ACCESS_NONE] = "none", [NOTIFY_ACCESS_MAIN] = "main",
	[NOTIFY_ACCESS_EXEC] = "exec", [NOTIFY_ACCESS_ALL] = "all",
};

const char *notify_access_name(uint8_t access)
{
	return access <= NOTIFY_ACCESS_ALL && access ? access_words[access] : "(ember's default)";
}

bool runtime_name_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && memcmp(p, name, n) == 0)
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* A space-separated list of unit names, kept canonical ("foo" for foo.service) in one
 * string; lines add up, an empty value resets. kind_suffix, when set, is required. */
static int parse_name_list(struct service *svc, strref *ref, const char *value,
			   const char *kind_suffix, bool add_wants_after, char *why, size_t size)
{
	char list[SERVICE_LINE_MAX], copy[SERVICE_LINE_MAX];
	char *save = NULL;
	strref r;

	if (!*value) {
		*ref = 0;
		return 0;
	}
	str_copy(list, sizeof list, service_str(svc, *ref));
	str_copy(copy, sizeof copy, value);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char name[SERVICE_NAME_MAX];
		size_t len = strlen(w), slen = kind_suffix ? strlen(kind_suffix) : 0;
		if (kind_suffix && (len <= slen || strcmp(w + len - slen, kind_suffix) != 0)) {
			snprintf(why, size, "%.64s: expected a %s unit", w, kind_suffix + 1);
			return -1;
		}
		if (unit_name_canonical(w, name, sizeof name, NULL) < 0 ||
		    !service_name_valid(name) || unit_name_is_template(name)) {
			snprintf(why, size, "%.64s: not a valid unit name", w);
			return -1;
		}
		if (strcmp(name, svc->name) == 0 || runtime_name_listed(list, name))
			continue;
		if (strlen(list) + strlen(name) + 2 > sizeof list) {
			snprintf(why, size, "list too long");
			return -1;
		}
		if (list[0])
			strcat(list, " ");
		strcat(list, name);
		/* Sockets=: systemd adds Wants= and After= on each socket unit. */
		if (add_wants_after && (service_add_name(svc, &svc->wants, name) < 0 ||
					service_add_name(svc, &svc->after, name) < 0)) {
			snprintf(why, size, "too many names");
			return -1;
		}
	}
	r = service_text_store(svc, list);
	if (!r) {
		snprintf(why, size, "no room left for the names in this unit's text storage");
		return -1;
	}
	*ref = r;
	return 0;
}

static int parse_yes_no(const char *value, bool *out, char *why, size_t size)
{
	if (!*value) {
		*out = false;
		return 0;
	}
	if (parse_bool(value, out) == 0)
		return 0;
	snprintf(why, size, "expected yes or no");
	return -1;
}

/* WatchdogSec=, JobTimeoutSec=, RuntimeMaxSec=: 0 and infinity turn them off. */
static int parse_off_span(const char *value, unsigned long *out, unsigned long off, char *why,
			  size_t size)
{
	unsigned long ms;

	if (!*value) {
		*out = off;
		return 0;
	}
	if (service_timespan_ms(value, &ms) < 0) {
		snprintf(why, size, "expected a time span such as 30s, 1min or infinity");
		return -1;
	}
	*out = ms == 0 || ms == SERVICE_TIMEOUT_INFINITY ? off : ms;
	return 0;
}

int runtime_key_parse(struct service *svc, const char *key, const char *value, char *why,
		      size_t why_size)
{
	if (strcmp(key, "RefuseManualStart") == 0)
		return parse_yes_no(value, &svc->refuse_manual_start, why, why_size);
	if (strcmp(key, "RefuseManualStop") == 0)
		return parse_yes_no(value, &svc->refuse_manual_stop, why, why_size);
	if (strcmp(key, "StopWhenUnneeded") == 0)
		return parse_yes_no(value, &svc->stop_when_unneeded, why, why_size);
	if (strcmp(key, "WatchdogSec") == 0)
		return parse_off_span(value, &svc->watchdog_ms, 0, why, why_size);
	if (strcmp(key, "JobTimeoutSec") == 0)
		return parse_off_span(value, &svc->job_timeout_ms, SERVICE_TIMEOUT_INFINITY, why,
				      why_size);
	if (strcmp(key, "RuntimeMaxSec") == 0)
		return parse_off_span(value, &svc->runtime_max_ms, SERVICE_TIMEOUT_INFINITY, why,
				      why_size);
	if (strcmp(key, "WatchdogSignal") == 0) {
		int sig = *value ? service_signal_from_name(value) : WATCHDOG_SIGNAL_DEFAULT;
		if (sig < 1 || sig > 64) {
			snprintf(why, why_size, "expected a signal name (SIGABRT, ABRT) or number");
			return -1;
		}
		svc->watchdog_signal = (uint8_t)sig;
		return 0;
	}
	if (strcmp(key, "SuccessAction") == 0 || strcmp(key, "FailureAction") == 0 ||
	    strcmp(key, "StartLimitAction") == 0 || strcmp(key, "JobTimeoutAction") == 0) {
		uint8_t *a = key[0] == 'S' && key[1] == 'u' ? &svc->success_action
			     : key[0] == 'F' ? &svc->failure_action
			     : key[0] == 'S' ? &svc->start_limit_action : &svc->job_timeout_action;
		if (parse_action(value, a, true) == 0)
			return 0;
		snprintf(why, why_size, "expected none, exit, reboot, poweroff or halt, each with "
			 "-force or -immediate");
		return -1;
	}
	if (strcmp(key, "NotifyAccess") == 0) {
		for (uint8_t i = NOTIFY_ACCESS_NONE; i <= NOTIFY_ACCESS_ALL; i++)
			if (strcmp(value, access_words[i]) == 0) {
				svc->notify_access = i;
				return 0;
			}
		if (!*value) {
			svc->notify_access = NOTIFY_ACCESS_UNSET;
			return 0;
		}
		snprintf(why, why_size, "expected none, main, exec or all");
		return -1;
	}
	if (strcmp(key, "FileDescriptorStoreMax") == 0) {
		unsigned long n = 0;
		if (*value && parse_ulong(value, 0, FDSTORE_MAX_PER_UNIT, &n) < 0) {
			snprintf(why, why_size, "expected a number from 0 to %d", FDSTORE_MAX_PER_UNIT);
			return -1;
		}
		svc->fdstore_max = (uint16_t)n;
		return 0;
	}
	if (strcmp(key, "FileDescriptorStorePreserve") == 0) {
		bool b;
		if (!*value || strcmp(value, "restart") == 0)
			svc->fdstore_preserve = PRESERVE_RESTART;
		else if (parse_bool(value, &b) == 0)
			svc->fdstore_preserve = b ? PRESERVE_YES : PRESERVE_NO;
		else {
			snprintf(why, why_size, "expected yes, no or restart");
			return -1;
		}
		return 0;
	}
	if (strcmp(key, "Sockets") == 0)
		return parse_name_list(svc, &svc->sockets, value, ".socket", true, why, why_size);
	if (strcmp(key, "ReloadPropagatedFrom") == 0)
		return parse_name_list(svc, &svc->reload_from, value, NULL, false, why, why_size);
	if (strcmp(key, "PropagatesReloadTo") == 0)
		return parse_name_list(svc, &svc->reload_to, value, NULL, false, why, why_size);
	snprintf(why, why_size, "not a runtime key");
	return -1;
}
