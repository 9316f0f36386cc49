/* systemd's generators (systemd.generator(7)): programs that turn other configuration
 * (/etc/fstab, the kernel's console, /etc/init.d, zram settings, ...) into units at boot.
 * Each runs with three output directories; ember reads them at systemd's places on its
 * search path (early before /etc/systemd/system, normal after /run/systemd/system, late
 * last). They run before the first load and on every daemon-reload, all at once, each
 * killed after the timeout: a generator never holds PID 1 for longer. */
#ifndef EMBER_INIT_GENERATORS_H
#define EMBER_INIT_GENERATORS_H
#include <stddef.h>

#define GENERATORS_MAX 64           /* programs run per load; more are skipped, said once */
#define GENERATOR_TIMEOUT_MS 90000  /* systemd's DEFAULT_TIMEOUT_USEC */
#define GENERATOR_OUT_BASE "/run/systemd"
#define GENERATOR_PATH "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#define GENERATOR_ENV_MAX 8         /* assignments beside PATH; more are dropped */
#define GENERATOR_DIR_EARLY "/run/systemd/generator.early"
#define GENERATOR_DIR_NORMAL "/run/systemd/generator"
#define GENERATOR_DIR_LATE "/run/systemd/generator.late"
/* systemd's system generator directories, first one wins for a name */
#define GENERATOR_SEARCH_DEFAULT "/run/systemd/system-generators:/etc/systemd/system-generators:" \
	"/usr/local/lib/systemd/system-generators:/usr/lib/systemd/system-generators:"       \
	"/lib/systemd/system-generators"

/* What one run did, for the log and the tests. */
struct generators_result {
	unsigned ran, failed, killed, masked, skipped;
};

/* Empty the three output directories below out_base (generator, generator.early,
 * generator.late; PID 1: GENERATOR_OUT_BASE), then run every generator found in search
 * (a ':'-separated list, NULL: GENERATOR_SEARCH_DEFAULT). A name found again in a later
 * directory is the same generator (the first wins); one that is a link to /dev/null or
 * an empty file is masked. Each runs with GENERATOR_PATH and env (NAME=value strings,
 * NULL-terminated; NULL for none): systemd.generator(7)'s $SYSTEMD_SCOPE and the facts
 * after it. Never fails as a whole: what went wrong is logged. */
void generators_run(const char *search, const char *out_base, long timeout_ms,
		    const char *const *env, struct generators_result *res);
#endif
