#include "unit-log.h"

#include <stddef.h>
#include <string.h>

#include "log.h"
#include "service.h"

/* The state PID 1 keeps about units' output. In .bss: a slot's pages become resident
 * only once a unit writes. */
static struct {
	bool taken[SERVICE_COUNT_MAX];
	bool full_reported;
	struct unit_output slot[SERVICE_COUNT_MAX];
} pool;

static const struct logbuf empty;

struct unit_output *unit_output_take(void)
{
	for (size_t i = 0; i < SERVICE_COUNT_MAX; i++) {
		struct unit_output *o = &pool.slot[i];
		if (pool.taken[i])
			continue;
		pool.taken[i] = true;
		memset(&o->kmsg, 0, sizeof o->kmsg);
		o->log.head = o->log.used = 0;
		o->log.total = 0;
		return o;
	}
	if (!pool.full_reported)
		log_error("output: all %d slots taken; output of further units is dropped",
			  SERVICE_COUNT_MAX);
	pool.full_reported = true;
	return NULL;
}

void unit_output_release(struct unit_output *o)
{
	if (!o || o < pool.slot || o >= pool.slot + SERVICE_COUNT_MAX)
		return;
	pool.taken[o - pool.slot] = false;
}

const struct logbuf *unit_log_view(const struct unit_output *o)
{
	return o ? &o->log : &empty;
}
