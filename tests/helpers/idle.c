/* idle: a service that does nothing until it is stopped. The boot benchmark runs it under
 * both inits, so that the "all services run" check counts the same program either way
 * (busybox may run its own applets, sleep included, without exec). */
#include <unistd.h>

int main(void)
{
	for (;;)
		pause();
}
