#ifndef EMBER_CONTAINER_H
#define EMBER_CONTAINER_H
/* Whether ember-init runs as the init of a container rather than of the machine. In a
 * container it must not act on the host: not read the host's kernel command line, not
 * mount cgroup2 (its options are superblock-wide), not remount file systems read-only at
 * shutdown (the superblocks are the host's too). See ember-init(8), CONTAINER MODE. */
#include <stdbool.h>

/* The container's name for the log ("docker", "podman", the container= value, or
 * "pid-namespace"), or NULL on a machine. A container says so with container= in the
 * environment (systemd's convention), /.dockerenv or /run/.containerenv; a runtime that
 * says nothing is still seen: a machine's PID 1 always has the kernel's kthreadd as PID
 * 2, and a PID namespace's init never does (kernel threads live in the first one), nor
 * is it PID 1 in a /proc of another namespace. root: "" or a fixture tree for tests;
 * with no /proc mounted there is nothing to see and only the first signs count. */
const char *container_detect(const char *root, const char *container_env);
#endif
