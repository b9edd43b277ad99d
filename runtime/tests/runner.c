/* The test runner (see runner.h). */
#include "runner.h"

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LRT_TEST_TIMEOUT_S 120

static char test_dir[4096];

const char *lrt_dir(void)
{
    return test_dir;
}

const char *lrt_path(const char *name)
{
    static char bufs[8][8192];
    static int next;
    char *b = bufs[next++ % 8];
    if (snprintf(b, sizeof bufs[0], "%s/%s", test_dir, name) >= (int)sizeof bufs[0])
        abort();
    return b;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        return rmdir(path);
    return unlink(path);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int lrt_run(const lrt_test *tests, size_t count, int argc, char **argv)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    size_t failed = 0, passed = 0, skipped = 0, ran = 0;
    for (size_t i = 0; i < count; i++) {
        if (!selected(tests[i].name, argc, argv))
            continue;
        ran++;
        snprintf(test_dir, sizeof test_dir, "%s/lockrt-test-%s-XXXXXX", base, tests[i].name);
        if (!mkdtemp(test_dir)) {
            fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
            return 1;
        }
        fflush(stdout);
        fflush(stderr);
        double t0 = now_ms();
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            if (chdir(test_dir) != 0)
                _exit(1);
            setpgid(0, 0); /* the test's own process group: leftovers get killed */
            alarm(LRT_TEST_TIMEOUT_S);
            tests[i].fn();
            fflush(NULL);
            exit(0);
        }
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        kill(-pid, SIGKILL); /* any helper the test left behind */
        double ms = now_ms() - t0;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            printf("ok     %-48s %8.0f ms\n", tests[i].name, ms);
            passed++;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == LRT_EXIT_SKIP) {
            printf("skip   %-48s\n", tests[i].name);
            skipped++;
        } else {
            if (WIFSIGNALED(status))
                printf("FAIL   %-48s killed by signal %d%s\n", tests[i].name, WTERMSIG(status),
                       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
            else
                printf("FAIL   %-48s exit %d\n", tests[i].name, WEXITSTATUS(status));
            failed++;
        }
        fflush(stdout);
        nftw(test_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    if (ran == 0) {
        fprintf(stderr, "no test matched\n");
        return 2;
    }
    printf("%zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
    /* A skipped case is not a pass: ctest reports the run as skipped
     * (SKIP_RETURN_CODE 77) unless every selected case ran. */
    return failed ? 1 : skipped ? LRT_EXIT_RUN_SKIPPED : 0;
}
