/* Giving scratch pages back: PID 1's tables are static (.bss), so a page once touched
 * stays resident. pages_release() hands the whole pages inside [start, start + len)
 * back to the kernel; they read as zeros afterwards. Only for memory whose contents
 * are not needed any more. Anything outside the anonymous part of .bss is left alone
 * (the stack, .data, and .bss's first page, which shares a file-backed page with
 * .data). */
#ifndef EMBER_PAGES_H
#define EMBER_PAGES_H
#include <stddef.h>

void pages_release(void *start, size_t len);
#endif
