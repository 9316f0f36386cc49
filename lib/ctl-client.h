#ifndef EMBER_LIB_CTL_CLIENT_H
#define EMBER_LIB_CTL_CLIENT_H
/* A helper's side towards ember-init (ember-activator, ember-udev-wants): one
 * control-protocol request per call (docs/control-protocol.md), over the same socket
 * emberctl uses. */
#include <stddef.h>

#include "ctl.h"

/* Send verb (with name, or "" for none) and wait up to timeout_ms for the whole reply.
 * Returns the server's status (enum ctl_status, 0 = done), with its error message (if
 * any) in err; or -1 when PID 1 could not be asked (err says why). When field is not
 * NULL, that field of the reply's first record goes to value ("" when none). */
int ember_request(const char *socket_path, enum ctl_verb verb, const char *name,
		  long timeout_ms, const char *field, char *value, size_t value_size, char *err,
		  size_t errlen);
/* The whole record stream of the reply (a list: every unit), NUL-terminated, in a buffer
 * of at most max bytes that *records gets and the caller frees (NULL on -1). Returns as
 * ember_request; -1 too when the reply is larger. */
int ember_request_records(const char *socket_path, enum ctl_verb verb, const char *name,
			  long timeout_ms, char **records, size_t max, char *err, size_t errlen);
/* The same with request options (CTL_OPT_*), no field read back. */
int ember_request_opts(const char *socket_path, enum ctl_verb verb, const char *name,
		       unsigned options, long timeout_ms, char *err, size_t errlen);
#endif
