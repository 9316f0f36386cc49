# ember-udev-wants: starts the units udev's rules ask for (SYSTEMD_WANTS=) through
# ember-init's control socket. libc only; PID 1 reads no udev data itself.
$(eval $(call musl_prog,ember-udev-wants,udevwants/main.c udevwants/udev-event.c))
MANPAGES += man/ember-udev-wants.8.scd
