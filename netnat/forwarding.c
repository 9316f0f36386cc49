#include "forwarding.h"

#include "io.h"

int forwarding_enable(enum nat_family f, const char **path)
{
	/* Both files are per network namespace. */
	*path = f == NAT_IPV4 ? "/proc/sys/net/ipv4/ip_forward" : "/proc/sys/net/ipv6/conf/all/forwarding";
	return io_write_file(*path, "1");
}
