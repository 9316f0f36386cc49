# ember-session: a systemd-logind session for a service with PAMName=, asked of logind
# over the system bus as pam_systemd would (no PAM: ember's programs are static), and
# what the service's PAM stack asks of pam_env and pam_limits (session/pam.h). ember-init
# execs it first in the chain of such a service; libc only.
$(eval $(call musl_prog,ember-session,session/main.c session/hold.c session/args.c session/logind.c session/pamstack.c session/pamenv.c session/pamlimits.c session/pamlastlog.c session/pam-apply.c session/user-manager.c init/utmp.c))
MANPAGES += man/ember-session.8.scd
