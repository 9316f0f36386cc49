# empowerd: the daemon behind empower(1). Links libxcrypt for crypt(3); capabilities
# are raised by ember-caps (libcap), which it execs through lib/exec-context.c.
ifeq ($(WITH_EMPOWER),1)
EMPOWERD_SRC = empowerd/main.c empowerd/session.c empowerd/policy.c empowerd/env.c \
               empowerd/peer.c empowerd/target.c \
               empowerd/auth.c empowerd/shadow.c empower/proto.c
$(eval $(call lib_prog,empowerd,$(EMPOWERD_SRC),libxcrypt,))
MANPAGES += man/empowerd.8.scd man/empower.conf.5.scd
endif
