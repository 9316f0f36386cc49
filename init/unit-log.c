#include "unit-log.h"

#include <stddef.h>

#include "log.h"
#include "service.h"

/* The state PID 1 keeps about output rings. In .bss: a ring's pages become resident only
 * once a unit writes into it. */
static struct {
	bool taken[SERVICE_COUNT_MAX];
	bool full_reported;
	struct logbuf ring[SERVICE_COUNT_MAX];
} pool;

static const struct logbuf empty;

struct logbuf *unit_log_take(void)
{
	for (size_t i = 0; i < SERVICE_COUNT_MAX; i++) {
		if (pool.taken[i])
			continue;
		pool.taken[i] = true;
		pool.ring[i].head = pool.ring[i].used = 0;
		pool.ring[i].total = 0;
		return &pool.ring[i];
	}
	if (!pool.full_reported)
		log_error("output rings: all %d taken; output of further units is dropped",
			  SERVICE_COUNT_MAX);
	pool.full_reported = true;
	return NULL;
}

void unit_log_release(struct logbuf *b)
{
	if (!b || b < pool.ring || b >= pool.ring + SERVICE_COUNT_MAX)
		return;
	pool.taken[b - pool.ring] = false;
}

const struct logbuf *unit_log_view(const struct logbuf *b)
{
	return b ? b : &empty;
}
