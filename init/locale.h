/* The system locale every service gets, as systemd's PID 1 gives it: the locale keys
 * (LANG, LANGUAGE, LC_*) of /etc/locale.conf, or of Debian's /etc/default/locale where
 * that file is missing (Debian's systemd reads it so); LANG=C.UTF-8 when neither sets
 * anything. Read at boot and at each daemon-reload; a service's own Environment= wins. */
#ifndef EMBER_INIT_LOCALE_H
#define EMBER_INIT_LOCALE_H

/* Reads the locale files under root ("" for /), replacing what was read before. */
void locale_load(const char *root);
/* Passes each "KEY=value" of the system locale to add. */
void locale_env(int (*add)(void *ctx, const char *assignment), void *ctx);
#endif
