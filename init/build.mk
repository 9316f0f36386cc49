EMBER_INIT_SRC = init/main.c init/apifs.c init/cmdline.c init/console.c init/emergency.c \
	init/power.c init/watchdog.c init/measure.c init/notify.c init/notify-msg.c \
	init/control.c init/supervisor.c init/spawn.c init/svc-cgroup.c init/backoff.c \
	init/logbuf.c init/kmsg-forward.c init/service.c init/service-load.c init/depgraph.c \
	init/exec-line.c init/handover.c
$(eval $(call musl_prog,ember-init,$(EMBER_INIT_SRC)))
