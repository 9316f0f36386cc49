// sources: empower/proto.c empowerd/shadow.c
/* The empower wire format: what an unprivileged client sends the root daemon. A decoded
 * request encodes again. */
#include "fuzz.h"
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct empower_request req;
	static struct empower_msg msg;
	static char buf[EMPOWER_MSG_MAX];

	if (empower_request_decode((const char *)data, size, &req) == 0 &&
	    empower_request_encode(&req, buf, sizeof buf) < 0)
		abort();
	empower_msg_decode((const char *)data, size, &msg);
	return 0;
}
