/* CHECK for the engine's C test programs: counts checks and failures, prints
 * each failure with its place, and lets the program run on to report them all.
 * lf_test_check_summary() prints the totals and gives the exit status. */
#ifndef LF_TEST_CHECK_H
#define LF_TEST_CHECK_H

#include <stdio.h>

static int g_fail, g_run;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        g_run++;                                                                                                       \
        if (!(cond)) {                                                                                                 \
            g_fail++;                                                                                                  \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

static inline int lf_test_check_summary(void) {
    printf("%d checks, %d failures\n", g_run, g_fail);
    return g_fail ? 1 : 0;
}

#endif
