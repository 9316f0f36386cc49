EMBER_INIT_SRC = init/main.c init/apifs.c init/cmdline.c init/console.c init/emergency.c init/power.c
$(eval $(call musl_prog,ember-init,$(EMBER_INIT_SRC)))
