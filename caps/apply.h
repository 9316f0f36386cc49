#ifndef EMBER_CAPS_APPLY_H
#define EMBER_CAPS_APPLY_H
/* Apply a caps_request to this process with libcap, in the order ember-caps(8) lists:
 * bounding set, groups and gid, uid (capabilities kept), inheritable + ambient,
 * no_new_privs, working directory. The caller then execs the command. */
#include "args.h"
#include "exec-context.h"

/* 0, or -1 with *fail naming the step (EXEC_STEP_CAP_UNAVAILABLE: a requested
 * capability is outside bounding ∩ permitted; nothing was changed then). */
int caps_apply(const struct caps_request *req, struct exec_failure *fail);
#endif
