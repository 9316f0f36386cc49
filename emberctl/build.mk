# emberctl: the control client of ember-init (libc only). The protocol codec is lib/ctl.c.
EMBERCTL_SRC = emberctl/main.c emberctl/job.c emberctl/client.c emberctl/records.c emberctl/show.c \
               emberctl/analyze.c emberctl/enable.c emberctl/verify.c \
               emberctl/cat.c emberctl/filter.c emberctl/journal.c emberctl/kill.c \
               emberctl/props.c emberctl/since.c \
               emberctl/verify-seccomp.c emberctl/timers.c emberctl/calendar-cmd.c \
               init/service.c init/unit-runtime-keys.c init/socket-unit.c init/condition.c init/unit-compat.c init/exec-line.c \
               init/unit-kinds.c init/unit-timer.c init/unit-path.c init/dynamic-user.c \
               init/service-load.c init/pages.c init/depgraph.c init/unit-targets.c init/unit-kinds-run.c \
               init/unit-mount.c init/unit-swap.c init/unit-device.c init/rlimits.c
$(eval $(call musl_prog,emberctl,$(EMBERCTL_SRC)))
MANPAGES += man/emberctl.8.scd
