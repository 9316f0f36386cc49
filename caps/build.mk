# ember-caps: identity + capability sets before exec (libcap). ember-init and empower exec
# it when a service or session asks for capabilities; PID 1 itself links no libcap.
WITH_CAPS ?= 1
ifeq ($(WITH_CAPS),1)
EMBER_CAPS_SRC = caps/main.c caps/args.c caps/apply.c
$(eval $(call lib_prog,ember-caps,$(EMBER_CAPS_SRC),libcap,))
MANPAGES += man/ember-caps.8.scd
endif
