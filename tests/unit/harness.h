#ifndef EMBER_TEST_HARNESS_H
#define EMBER_TEST_HARNESS_H
/* A tiny unit-test harness. Each case prints "PASS name" or "FAIL name"; tests/run counts
 * them. Usage:
 *   static void parses_empty_file(void) { CHECK(x == 0); }
 *   int main(void) { RUN(parses_empty_file); return harness_done(); }
 */
#include <stdio.h>
#include <string.h>

static int harness_failed_cases;
static int harness_case_failed;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			harness_case_failed = 1;                                      \
		}                                                                     \
	} while (0)

#define CHECK_STR(a, b)                                                               \
	do {                                                                          \
		const char *ha_ = (a), *hb_ = (b);                                    \
		if (!ha_ || !hb_ || strcmp(ha_, hb_) != 0) {                          \
			printf("  %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__,     \
			       ha_ ? ha_ : "(null)", hb_ ? hb_ : "(null)");           \
			harness_case_failed = 1;                                      \
		}                                                                     \
	} while (0)

#define RUN(fn)                                                                       \
	do {                                                                          \
		harness_case_failed = 0;                                              \
		fn();                                                                 \
		printf("%s %s\n", harness_case_failed ? "FAIL" : "PASS", #fn);        \
		fflush(stdout);                                                       \
		harness_failed_cases += harness_case_failed;                          \
	} while (0)

static inline int harness_done(void)
{
	return harness_failed_cases ? 1 : 0;
}
#endif
