/* pkg-svccheck DIR: load the service files in DIR with ember-init's own parser and
 * dependency graph, print every diagnostic and then the start order as
 * "WAVE:NAME ...". Exit 1 if there was any diagnostic (warnings included), 0 if none.
 * Built by test-pkg-pmos-provider.sh with ember's sources; not installed. */
#include "../../init/depgraph.h"
#include "../../init/service.h"

#include <stdio.h>
#include <string.h>

static struct service svcs[64];
static struct depgraph graph;
static int problems;

static void record(void *ctx, enum service_severity severity, const char *file,
		   unsigned line, const char *message)
{
	printf("%s:%u: %s\n", file, line, message);
	problems++;
}

int main(int argc, char **argv)
{
	const struct service_diag diag = { record, NULL, false };
	size_t count = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: pkg-svccheck DIR\n");
		return 100;
	}
	const char *dirs[1] = { argv[1] };
	if (service_load(dirs, 1, svcs, 64, &count, &diag) != 0)
		problems++;
	depgraph_from_services(&graph, svcs, count, &diag);
	for (size_t i = 0; i < graph.order_count; i++)
		printf("%s%u:%s", i ? " " : "order: ", (unsigned)graph.wave[graph.order[i]],
		       graph.name[graph.order[i]]);
	printf("\n");
	return problems ? 1 : 0;
}
