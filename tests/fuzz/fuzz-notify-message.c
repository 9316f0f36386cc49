// sources: init/notify-msg.c
/* sd_notify datagrams: any local process can send them to PID 1. */
#include "fuzz.h"
#include "notify-msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct notify_msg m;
	notify_parse((const char *)data, size, &m);
	return 0;
}
