#include "loopback.h"

#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"

/* IFF_UP is all it takes: the kernel gives lo 127.0.0.1/8 and ::1 when it comes up. */
int loopback_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = -1;

	if (fd < 0) {
		log_warn("lo: no socket to bring it up: %m");
		return -1;
	}
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		log_warn("lo: cannot read its flags: %m");
	} else if (ifr.ifr_flags & IFF_UP) {
		r = 0;
	} else {
		ifr.ifr_flags |= IFF_UP;
		r = ioctl(fd, SIOCSIFFLAGS, &ifr);
		if (r < 0)
			log_warn("lo: cannot bring it up: %m");
		else
			log_debug("lo: up");
	}
	close(fd);
	return r;
}
