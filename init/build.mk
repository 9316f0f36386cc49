EMBER_INIT_SRC = init/main.c init/apifs.c init/cmdline.c init/console.c init/emergency.c \
	init/power.c init/watchdog.c init/measure.c init/notify.c init/notify-msg.c \
	init/control.c init/supervisor.c init/spawn.c init/svc-cgroup.c init/backoff.c \
	init/logbuf.c init/kmsg-forward.c init/service.c init/service-load.c init/depgraph.c \
	init/unit-targets.c init/unit-deps.c \
	init/exec-line.c init/socket-unit.c init/sockets.c init/busname-watch.c \
	init/condition.c init/condition-probe.c init/unit-compat.c init/spawn-execenv.c init/sysctl.c init/handover.c
EMBER_INIT_SRC += init/svc-lifecycle.c init/svc-pidfile.c # U2: service types and lifecycle
EMBER_INIT_SRC += init/control-verbs.c # emberctl verbs (issue 17)
$(eval $(call musl_prog,ember-init,$(EMBER_INIT_SRC)))
