/*
 * A small test runner in the style of libuv's: each test is a function; each runs
 * in a forked child (a crash or an abort is a failure of that test, not of the
 * run) inside its own fresh temporary directory, with a watchdog alarm.
 *
 *   <group> [test-name ...]     run all tests, or the named ones
 * Output: one line per test ("ok", "FAIL", "skip"), a summary; exit 1 on failure.
 */
#ifndef LOCKRT_TEST_RUNNER_H
#define LOCKRT_TEST_RUNNER_H

#include <stdio.h>
#include <stdlib.h>

typedef struct lrt_test {
    const char *name;
    void (*fn)(void);
} lrt_test;

int lrt_run(const lrt_test *tests, size_t count, int argc, char **argv);

/* The test's private directory (the child's cwd); an absolute path. */
const char *lrt_dir(void);
/* Path of `name` inside lrt_dir(), in a static rotating buffer. */
const char *lrt_path(const char *name);

#define LRT_EXIT_SKIP 77
/* lrt_run's exit status when no case failed but some were skipped (ctest SKIP_RETURN_CODE). */
#define LRT_EXIT_RUN_SKIPPED 77

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "    %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
            fflush(stderr);                                                             \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                              \
    do {                                                                                \
        long long lrt_a_ = (long long)(a), lrt_b_ = (long long)(b);                     \
        if (lrt_a_ != lrt_b_) {                                                         \
            fprintf(stderr, "    %s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n",     \
                    __FILE__, __LINE__, #a, lrt_a_, #b, lrt_b_);                        \
            fflush(stderr);                                                             \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

#define SKIP(msg)                                                                       \
    do {                                                                                \
        fprintf(stderr, "    skipped: %s\n", msg);                                      \
        fflush(stderr);                                                                 \
        exit(LRT_EXIT_SKIP);                                                            \
    } while (0)

#define LRT_TEST(name) {#name, name}
#endif
