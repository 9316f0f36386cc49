#ifndef EMBER_INIT_EMERGENCY_H
#define EMBER_INIT_EMERGENCY_H
#include <stdbool.h>
#include <stdnoreturn.h>

/* PID 1 must never exit: its death panics the kernel. A crash signal or a fatal
 * condition lands here instead (docs/supervision.md, "Crashes").
 *
 * A crash signal another process sent (kill -SEGV 1: si_code <= 0) is not a crash: it
 * is noted for the main loop to log, and ignored. A real crash (si_code > 0, or PID 1's
 * own abort()) calls the crash callback, which re-executes ember-init with the services
 * handed over. If that returns, or for a fatal condition: log why, sync, and reboot;
 * with ember.crash_shell=1 an emergency shell comes first, and the reboot follows when
 * it exits (or after EMERGENCY_REBOOT_DELAY seconds if no shell can be started). */
void emergency_install_crash_handlers(void);
/* The signals it catches, as a mask (bit n-1 for signal n). */
unsigned long long emergency_caught_signals(void);
/* cb runs in the signal handler of a real crash; it returns only if it failed. */
void emergency_on_crash(void (*cb)(const char *why));
void emergency_shell_wanted(bool yes);
/* A crash signal sent by a process since the last call: true with its number, sender
 * pid and uid. */
bool emergency_take_sent_signal(int *sig, int *pid, unsigned *uid);
noreturn void emergency(const char *why);
#endif
