#ifndef EMBER_INIT_EMERGENCY_H
#define EMBER_INIT_EMERGENCY_H
#include <stdnoreturn.h>

/* PID 1 must never exit: its death panics the kernel. A crash signal or a fatal
 * condition lands here instead. The documented emergency action: log why, sync, start
 * an emergency shell on the console, and reboot when it exits (or after
 * EMERGENCY_REBOOT_DELAY seconds if no shell can be started). */
void emergency_install_crash_handlers(void);
/* The signals it catches, as a mask (bit n-1 for signal n). */
unsigned long long emergency_caught_signals(void);
noreturn void emergency(const char *why);
#endif
