#ifndef EMBER_INIT_WATCHDOG_H
#define EMBER_INIT_WATCHDOG_H
/* The hardware watchdog: PID 1 opens it, sets the timeout and pets it from its main
 * loop, so a hung PID 1 reboots the device. It is never closed with the magic 'V':
 * if PID 1 stops petting, for whatever reason, the hardware resets. */

/* Arm /dev/watchdog0 (else /dev/watchdog) with timeout_sec. Its driver may be a module
 * that a service loads later in boot: until the device appears, opening is retried
 * every WATCHDOG_RETRY_MS from watchdog_pet(). */
void watchdog_want(unsigned long timeout_sec);
/* Pet it if it is due, or retry opening it (called every loop turn; cheap). */
void watchdog_pet(long long now_ms);
/* Pet now, whatever the schedule (before long steps of shutdown). */
void watchdog_pet_now(void);
/* Milliseconds until the next pet is due, -1 without a watchdog. */
long long watchdog_next_ms(void);
#endif
