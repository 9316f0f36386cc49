#ifndef EMBER_INIT_MEASURE_H
#define EMBER_INIT_MEASURE_H
#include <stdbool.h>
/* Boot measurement: PID 1 links only libc, so it runs `boot-measure phase WORD` (tpm2-tss
 * lives there) and waits for it, a few seconds at most. No TPM, no boot-measure binary,
 * or ember.measure=0: nothing is measured and boot goes on. */
/* on: measure at all; path: the boot-measure program. */
void measure_enable(bool on, const char *path);
void measure_phase(const char *word);
#endif
