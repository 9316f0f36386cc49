#ifndef EMBER_ACTIVATOR_VARLINK_H
#define EMBER_ACTIVATOR_VARLINK_H
/* The Varlink side of systemd's manager that ember answers for (ManagedOOM, the dynamic
 * user database): one JSON object per message, ended by a NUL byte. A call is read with a
 * deadline and a size limit, and parsed strictly: only its method, "more" and the plain
 * values of "parameters" are kept. */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define VARLINK_PARAMS_MAX 8

struct varlink_param {
	char key[32];
	char value[256]; /* a string decoded, else the literal (61234, true, null) */
	bool is_string;
};

struct varlink_call {
	char method[128];
	bool more;
	size_t nparams;
	struct varlink_param param[VARLINK_PARAMS_MAX];
};

/* One message up to its NUL, waiting at most timeout_ms for each part. Returns its length
 * (buf NUL-terminated), or -1: the peer closed or was silent, or sent over size bytes. */
ssize_t varlink_read(int fd, char *buf, size_t size, int timeout_ms);
/* Send json and its NUL. 0, or -1. */
int varlink_reply(int fd, const char *json);
/* Parse a call: 0, or -1 when it is no JSON object, has no method, or has a key or string
 * too long for call, or more parameters than it holds. */
int varlink_parse_call(const char *json, struct varlink_call *call);
/* A parameter's value, or NULL when the call has none of that name. */
const struct varlink_param *varlink_param(const struct varlink_call *call, const char *key);
#endif
