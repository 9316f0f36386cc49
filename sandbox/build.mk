# ember-sandbox: the sandboxing keys (PrivateTmp=, ProtectSystem=, ...) in a helper outside
# PID 1. ember-init execs it only for services that use them; libc only.
EMBER_SANDBOX_SRC = sandbox/main.c sandbox/setup.c sandbox/layout.c \
                    sandbox/seccomp.c sandbox/seccomp-args.c # seccomp keys
EMBER_SANDBOX_SRC += sandbox/proc.c sandbox/userns.c # exec keys (sandbox-more)
EMBER_SANDBOX_SRC += sandbox/private-dirs.c # DynamicUser=
EMBER_SANDBOX_SRC += sandbox/binds.c # BindPaths=, NoExecPaths=
$(eval $(call musl_prog,ember-sandbox,$(EMBER_SANDBOX_SRC)))
MANPAGES += man/ember-sandbox.8.scd
