#ifndef EMBER_UNIT_SLICE_H
#define EMBER_UNIT_SLICE_H
/* Slices as cgroup paths below ember's subtree, and Delegate= (init/unit-slice.c). */
#include <stddef.h>

#include "service.h"
#include "unit-name.h"

#define UNIT_SLICE_PATH_MAX 512
/* unit_slice_path() is in lib/unit-name.h: ember-activator places session scopes too. */
/* Called with each level's directory and slice name ("a.slice", then "a-b.slice") as
 * unit_slice_open() opens it, after its controllers are enabled: where the slice units'
 * [Slice] limits are written (svc-cgroup.c). */
typedef void unit_slice_level_fn(int dirfd, const char *slice);
/* Create (EEXIST is fine) every level of slice below subtree_fd, enable controllers in
 * each level's subtree_control, call level (unless NULL) for it, and open the last one
 * into *fd (a dup of subtree_fd for none). 0, or -1 with errno. */
int unit_slice_open(int subtree_fd, const char *slice, unsigned controllers,
		    unit_slice_level_fn *level, int *fd);
/* Delegate=: give the cgroup cg_fd to the service's User=/Group=. 0, or -1 with err. */
int unit_delegate(int cg_fd, const struct service *s, char *err, size_t size);
#endif
