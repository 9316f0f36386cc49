EMBER_INIT_SRC = init/main.c init/container.c init/apifs.c init/cmdline.c init/console.c init/emergency.c \
	init/power.c init/watchdog.c init/measure.c init/notify.c init/notify-msg.c \
	init/control.c init/supervisor.c init/spawn.c init/svc-cgroup.c init/backoff.c \
	init/logbuf.c init/kmsg-forward.c init/service.c init/service-load.c init/depgraph.c \
	init/unit-targets.c init/unit-deps.c \
	init/unit-kinds.c init/unit-kinds-run.c init/unit-mount.c init/unit-device.c init/unit-slice.c \
	init/unit-timer.c init/unit-timer-run.c init/unit-path.c init/unit-path-run.c \
	init/unit-automount.c \
	init/dynamic-user.c \
	init/exec-line.c init/socket-unit.c init/sockets.c init/busname-watch.c \
	init/rlimits.c init/condition.c init/condition-probe.c init/machine-id.c init/id128.c init/utmp.c init/loopback.c init/unit-compat.c init/spawn-execenv.c init/sysctl.c init/handover.c
EMBER_INIT_SRC += init/spawn-execmore.c init/svc-bpf.c # exec keys (sandbox-more)
EMBER_INIT_SRC += init/svc-lifecycle.c init/svc-pidfile.c # U2: service types and lifecycle
EMBER_INIT_SRC += init/unit-runtime-keys.c init/svc-runtime.c init/fdstore.c # runtime keys (unit-runtime2)
EMBER_INIT_SRC += init/socket-accept.c # sockets-accept: Accept=yes connections
EMBER_INIT_SRC += init/journal-stream.c init/journal-log.c # journal: output to journald, PID 1 too
EMBER_INIT_SRC += init/control-verbs.c # emberctl verbs (issue 17)
EMBER_INIT_SRC += init/unit-log.c # rss-diet: output rings in a pool, taken on first output
EMBER_INIT_SRC += init/pages.c # compact: scratch pages given back after a load
EMBER_INIT_SRC += init/generators.c # systemd generators at boot and daemon-reload
EMBER_INIT_SRC += init/unit-swap.c # swap units
EMBER_INIT_SRC += init/locale.c # the system locale services get
$(eval $(call musl_prog,ember-init,$(EMBER_INIT_SRC)))
