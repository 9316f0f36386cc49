#ifndef EMBER_EMPOWERD_AUTH_H
#define EMBER_EMPOWERD_AUTH_H
/* Passwords: the user's hash from /etc/shadow, checked with crypt(3). Fails closed: a
 * missing entry, an empty, locked ('!', '*') or unsupported hash never matches. */
#include <stdbool.h>
#include <stddef.h>

/* 1 = the password matches, 0 = it does not (why in reason), -1/errno = the shadow file
 * could not be read. shadow: the file (NULL: /etc/shadow). */
int auth_check_password(const char *shadow, const char *user, const char *password,
			char *reason, size_t reason_size);

/* The hash field of user's line in text, copied to hash: 0, or -1/ENOENT. Pure. */
int auth_shadow_hash(const char *text, size_t len, const char *user, char *hash, size_t size);
#endif
