/* Minimal assertions for the C unit tests: a failed check prints file:line and
 * the values, the test keeps going, and main returns non-zero at the end. */
#ifndef LF_TEST_H
#define LF_TEST_H

#include <stdio.h>
#include <string.h>

static int lf_test_failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            lf_test_failures++;                                                      \
        }                                                                            \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        if (!g_ || !w_ || strcmp(g_, w_) != 0) {                                                   \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s\n   got: %s\n  want: %s\n", __FILE__, __LINE__, \
                    #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");                                 \
            lf_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#define CHECK_INT(got, want)                                                                      \
    do {                                                                                          \
        long long g_ = (long long)(got), w_ = (long long)(want);                                  \
        if (g_ != w_) {                                                                           \
            fprintf(stderr, "%s:%d: CHECK_INT failed: %s == %lld, want %lld\n", __FILE__, __LINE__, \
                    #got, g_, w_);                                                                \
            lf_test_failures++;                                                                   \
        }                                                                                         \
    } while (0)

#define TEST_MAIN_END()                                                         \
    do {                                                                        \
        if (lf_test_failures)                                                   \
            fprintf(stderr, "%d check(s) failed\n", lf_test_failures);          \
        return lf_test_failures ? 1 : 0;                                        \
    } while (0)

#endif
