/* Password check against /etc/shadow with crypt(3) (auth.h). */
#include "auth.h"

/* libxcrypt (glibc systems) declares crypt() in <crypt.h>; musl in <unistd.h>. */
#if defined(__has_include)
#if __has_include(<crypt.h>)
#include <crypt.h>
#endif
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "parse.h"

#define SHADOW_PATH "/etc/shadow"
#define SHADOW_MAX (1024 * 1024)
#define HASH_MAX 512

/* Comparison whose time does not depend on where the strings differ. */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;
	for (size_t i = 0; i < la && i < lb; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

static char shadow_text[SHADOW_MAX];

int auth_check_password(const char *shadow, const char *user, const char *password,
			char *reason, size_t reason_size)
{
	char hash[HASH_MAX];
	ssize_t len = io_read_file(shadow ? shadow : SHADOW_PATH, shadow_text, sizeof shadow_text);
	if (len < 0)
		return -1;
	int found = auth_shadow_hash(shadow_text, (size_t)len, user, hash, sizeof hash);
	explicit_bzero(shadow_text, sizeof shadow_text);
	if (found < 0) {
		snprintf(reason, reason_size, "%s: no password entry", user);
		return 0;
	}
	if (hash[0] == '\0' || hash[0] == '!' || hash[0] == '*') {
		snprintf(reason, reason_size, "%s: the account has no usable password", user);
		return 0;
	}
	/* crypt(), not crypt_r(): musl's headers lack struct crypt_data on some systems, and
	 * a session is one single-threaded process. */
	const char *out = crypt(password, hash);
	bool ok = out && out[0] != '*' && same(out, hash);
	explicit_bzero(hash, sizeof hash);
	if (!ok)
		snprintf(reason, reason_size, "%s: wrong password", user);
	return ok;
}
