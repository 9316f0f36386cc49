# ember-modload: parallel kernel module loader (libc only: no libkmod, no modprobe).
ifeq ($(WITH_MODLOAD),1)
MODLOAD_SRC = modload/main.c modload/cmdline.c modload/confdirs.c modload/depindex.c \
              modload/kmodindex.c modload/loadconf.c modload/loader.c modload/modprobe.c \
              modload/names.c modload/output.c modload/plan.c modload/util.c
$(eval $(call musl_prog,ember-modload,$(MODLOAD_SRC)))
endif
