/* TEST ONLY: `lockfix-robusthooks` is lockfix (the same main and core library)
 * with the write seams of lf_fix and lf_report driven by the environment, so
 * the tests in tests/robust can stop or disturb a real write at an exact point:
 *
 *   LOCKFIX_HOOK_PAUSE=commit|exchange|report  print "PAUSED <path>" on stderr
 *       and wait for a signal: the temp is complete, the rename/exchange not done;
 *   LOCKFIX_HOOK_APPEND=TEXT   append TEXT to the file right before the exchange
 *       (after lockfix's last check), or, with LOCKFIX_HOOK_APPEND_AT=commit,
 *       before that last check;
 *   LOCKFIX_HOOK_HOLD=TEXT     right before the exchange, fork a child that holds
 *       the file open for 300 ms, then appends TEXT through that descriptor;
 *   LOCKFIX_HOOK_EMULATE_EXCHANGE=1  exchange names as on a filesystem without
 *       RENAME_EXCHANGE.
 * Built only with the tests and never installed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lf_fix.h"
#include "lf_report.h"

static void pause_if(const char *where, const char *path) {
    const char *want = getenv("LOCKFIX_HOOK_PAUSE");
    if (!want || strcmp(want, where) != 0)
        return;
    fprintf(stderr, "PAUSED %s\n", path);
    fflush(stderr);
    for (;;)
        pause();
}

static void append(int fd, const char *text) {
    size_t n = strlen(text);
    if (write(fd, text, n) != (ssize_t)n)
        _exit(3);
}

static void append_if(const char *where, const char *path) {
    const char *at = getenv("LOCKFIX_HOOK_APPEND_AT");
    const char *text = getenv("LOCKFIX_HOOK_APPEND");
    if (text && strcmp(at ? at : "exchange", where) == 0) {
        int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd >= 0) {
            append(fd, text);
            close(fd);
        }
    }
}

static void before_commit(const char *path) {
    pause_if("commit", path);
    append_if("commit", path);
}

static void before_exchange(const char *path) {
    pause_if("exchange", path);
    append_if("exchange", path);
    const char *text = getenv("LOCKFIX_HOOK_HOLD");
    if (text) {
        int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd < 0)
            return;
        pid_t pid = fork();
        if (pid == 0) {
            struct timespec ts = {0, 300 * 1000000L};
            nanosleep(&ts, NULL);
            append(fd, text);
            _exit(0);
        }
        close(fd); /* only the child holds it now */
    }
}

static void before_report_rename(const char *tmp) { pause_if("report", tmp); }

__attribute__((constructor)) static void install_hooks(void) {
    lf_fix_before_commit_hook = before_commit;
    lf_fix_before_exchange_hook = before_exchange;
    lf_report_before_rename_hook = before_report_rename;
    lf_fix_emulate_exchange = getenv("LOCKFIX_HOOK_EMULATE_EXCHANGE") != NULL;
}
