# ember-activator: owns org.freedesktop.systemd1 on the system bus for ember-init, so
# D-Bus activation (SystemdService=) starts units through PID 1's control socket.
# libc only; PID 1 speaks no D-Bus itself.
$(eval $(call musl_prog,ember-activator,activator/main.c activator/bus.c activator/props.c activator/scope.c activator/jobs.c activator/peer.c activator/unitfiles.c activator/managed-oom.c activator/varlink.c activator/userdb.c))
MANPAGES += man/ember-activator.8.scd
