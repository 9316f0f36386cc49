# empower: the unprivileged client (libc only, no setuid bit). It passes its fds over a
# Unix socket to empowerd(8), which decides and runs the command.
ifeq ($(WITH_EMPOWER),1)
EMPOWER_SRC = empower/main.c empower/terminal.c empower/proto.c
$(eval $(call musl_prog,empower,$(EMPOWER_SRC)))
MANPAGES += man/empower.1.scd
endif
