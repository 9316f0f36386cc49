# ember-busname-wait: waits until a D-Bus name is owned on the system bus (Type=dbus
# readiness). libc only; PID 1 starts it and speaks no D-Bus itself.
$(eval $(call musl_prog,ember-busname-wait,busname/main.c))
MANPAGES += man/ember-busname-wait.8.scd
