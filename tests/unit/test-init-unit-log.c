// sources: init/unit-log.c init/logbuf.c init/kmsg-forward.c
/* The pool of units' output (rings and kmsg forwarding state): a slot is taken on a
 * unit's first output and given back when the unit leaves, a slot taken again starts
 * empty (a new unit never shows an old unit's lines), and a full pool says so and hands
 * out nothing instead of overwriting a slot in use. */
#include "harness.h"
#include "service.h"
#include "unit-log.h"

#include <stdbool.h>

static char out[LOGBUF_SIZE * 2];
static size_t out_len;

static void collect(void *ctx, const char *data, size_t len)
{
	(void)ctx;
	memcpy(out + out_len, data, len);
	out_len += len;
	out[out_len] = '\0';
}

static const char *text_of(const struct unit_output *o)
{
	out_len = 0;
	out[0] = '\0';
	logbuf_read(unit_log_view(o), 0, collect, NULL);
	return out;
}

static struct unit_output *held[SERVICE_COUNT_MAX];

static void unit_without_output_reads_empty(void)
{
	CHECK(unit_log_view(NULL) != NULL);
	CHECK(unit_log_view(NULL)->total == 0);
	CHECK_STR(text_of(NULL), "");
}

static void slot_taken_again_starts_empty(void)
{
	struct unit_output *a = unit_output_take(), *b;

	CHECK(a != NULL);
	if (!a)
		return;
	logbuf_append(&a->log, "old unit\n", 9);
	a->kmsg.stream[KMSG_STDOUT].len = 5; /* an unfinished forwarded line */
	CHECK_STR(text_of(a), "old unit\n");
	unit_output_release(a);
	b = unit_output_take();
	CHECK(b == a); /* the first free slot */
	if (!b)
		return;
	CHECK_STR(text_of(b), "");
	CHECK(b->log.total == 0 && b->log.used == 0);
	CHECK(b->kmsg.stream[KMSG_STDOUT].len == 0);
	logbuf_append(&b->log, "new\n", 4);
	CHECK_STR(text_of(b), "new\n");
	unit_output_release(b);
}

static void full_pool_hands_out_nothing(void)
{
	size_t n = 0;

	for (size_t i = 0; i < SERVICE_COUNT_MAX; i++) {
		held[i] = unit_output_take();
		n += held[i] != NULL;
	}
	CHECK(n == SERVICE_COUNT_MAX); /* one slot per possible unit */
	CHECK(unit_output_take() == NULL);
	CHECK(unit_output_take() == NULL);
	/* every slot distinct: none was handed out twice */
	for (size_t i = 0; i < SERVICE_COUNT_MAX; i++)
		for (size_t j = i + 1; j < SERVICE_COUNT_MAX; j++)
			CHECK(held[i] != held[j]);
	unit_output_release(held[7]);
	CHECK(unit_output_take() == held[7]);
	for (size_t i = 0; i < SERVICE_COUNT_MAX; i++)
		unit_output_release(held[i]);
	unit_output_release(NULL); /* harmless */
}

static void foreign_pointer_is_not_released(void)
{
	struct unit_output elsewhere;
	struct unit_output *a = unit_output_take(), *b;

	unit_output_release(&elsewhere); /* not from the pool: ignored */
	CHECK(a != NULL);
	b = unit_output_take();
	CHECK(b != a); /* a is still taken */
	unit_output_release(a);
	unit_output_release(b);
}

int main(void)
{
	RUN(unit_without_output_reads_empty);
	RUN(slot_taken_again_starts_empty);
	RUN(full_pool_hands_out_nothing);
	RUN(foreign_pointer_is_not_released);
	return harness_done();
}
