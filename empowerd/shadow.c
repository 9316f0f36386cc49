/* Finding a user's hash in the text of /etc/shadow (auth.h); pure, so unit tests need
 * no crypt library. */
#include "auth.h"

#include <errno.h>
#include <string.h>

int auth_shadow_hash(const char *text, size_t len, const char *user, char *hash, size_t size)
{
	size_t ulen = strlen(user);
	const char *end = text + len;
	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		if ((size_t)(stop - line) > ulen && memcmp(line, user, ulen) == 0 && line[ulen] == ':') {
			const char *h = line + ulen + 1;
			const char *colon = memchr(h, ':', (size_t)(stop - h));
			size_t n = (size_t)((colon ? colon : stop) - h);
			if (n >= size) {
				errno = ENAMETOOLONG;
				return -1;
			}
			memcpy(hash, h, n);
			hash[n] = '\0';
			return 0;
		}
		line = stop + 1;
	}
	errno = ENOENT;
	return -1;
}
