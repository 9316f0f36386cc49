/* keyring-id: prints the serial of the calling process's session keyring (without making
 * one), for the KeyringMode= tests: services that share a keyring print the same number. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEYCTL_GET_KEYRING_ID 0
#define KEY_SPEC_SESSION_KEYRING (-3)

int main(void)
{
	long id = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0);

	if (id < 0) {
		perror("keyctl");
		return 1;
	}
	printf("%ld\n", id);
	return 0;
}
