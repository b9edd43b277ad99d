/* A module's own lock protocol (lf_tsproto), read off the protocol swap's
 * cases (tests/fix/ts/swap/cases): for the swappable ones, what the swap
 * relies on (the wait's bound, what the timeout does, the releases and the
 * statements dropped, the helpers only the wait calls); for the others, the
 * exact reason. The cases are whole modules: the same files the fix tests
 * patch and run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/lf_test_check.h"
#include "sem_fixture.h"
#include "lf_lang.h"
#include "lf_tsproto.h"
#include "lf_tssem.h"
#include "lf_util.h"

#ifndef LF_SOURCE_DIR
#error "LF_SOURCE_DIR: the source tree (tests/fix/ts/swap/cases)"
#endif

typedef struct want {
    const char *file;
    const char *at;      /* the text of a call inside the protocol (or one of its helpers) */
    const char *decline; /* NULL: recognised */
    int async, best_effort, deadline, releases, drops, helpers, swallows;
    int dir; /* a lock directory (mkdir): lockrt's takeLockDir */
} want;

static const want k_cases[] = {
    {"wrapper_handle.ts", "fsp.stat(lockPath)", NULL, 1, 0, 0, 1, 2, 2, 0, 0},
    {"acquire_deadline.mjs", "stat(lock)", NULL, 1, 1, 1, 1, 0, 0, 0, 0},
    {"best_effort_swallow.mjs", "stat(lockFile)", NULL, 1, 1, 1, 1, 0, 0, 1, 0},
    {"sync_writefile.cjs", "fs.statSync(lockFile)", NULL, 0, 0, 1, 1, 0, 0, 0, 0},
    {"decline_held_uses_loop.mjs", "stat(lock)", "the held code uses `tried` at line 13, a name the loop binds outside it",
     0, 0, 0, 0, 0, 0, 0, 0},
    {"dir_record.mjs", "fs.stat(lockPath)", NULL, 1, 0, 0, 1, 1, 0, 0, 1},
    {"dir_sync.cjs", "fs.statSync(lockDir)", NULL, 0, 1, 1, 1, 0, 1, 0, 1},
    {"decline_held_errors_swallowed.cjs", "fs.statSync(lockDir)",
     "the held code calls at line 20, and the create's catch takes every error for a held lock: the old loop ran the "
     "held code again after an error of its own, where lockrt's lock would let that error reach the caller",
     0, 0, 0, 0, 0, 0, 0, 0},
    {"decline_dir_holds_files.mjs", "stat(dir)",
     "the lock directory holds another file (line 16) besides the owner record the swap drops: lockrt's release "
     "would leave the directory, and nobody could take the lock again",
     0, 0, 0, 0, 0, 0, 0, 0},
    {"decline_timeout_reads.mjs", "stat(lock)", "the timeout's outcome uses `holder` at line 26, a name the wait binds",
     0, 0, 0, 0, 0, 0, 0, 0},
    {"decline_logs.cjs", "fs.statSync(lock)",
     "the wait does more than judge the lock, break it and sleep: `console.error` at line 22 would be dropped with it",
     0, 0, 0, 0, 0, 0, 0, 0},
    {"decline_continue_in_held.mjs", "stat(lock)",
     "the held code goes round the retry loop again or leaves it at line 11", 0, 0, 0, 0, 0, 0, 0, 0},
    {"decline_release_elsewhere.mjs", "stat(lockPath)",
     "the held code releases the lock nowhere the swap can see (a helper, another module, the caller)", 0, 0, 0, 0, 0,
     0, 0, 0},
    {"decline_attempts.mjs", "stat(lock)",
     "the retry loop (line 7) counts its attempts: the swap maps only a deadline onto lockrt's timeout", 0, 0, 0, 0,
     0, 0, 0, 0},
};

static void check_case(const want *w) {
    char *path = lf_xasprintf("%s/tests/fix/ts/swap/cases/%s.in", LF_SOURCE_DIR, w->file);
    char *err = NULL;
    size_t len = 0;
    char *text = lf_read_text_file(path, "case", 1 << 20, &len, &err);
    CHECK(text != NULL, "%s: %s", path, err ? err : "unreadable");
    if (!text) {
        free(err);
        free(path);
        return;
    }
    sem_fixture fx;
    sem_fixture_parse(&fx, text, w->file, LF_LANG_TYPESCRIPT);
    lf_tssem *m = lf_tssem_build(&fx.src, ts_tree_root_node(fx.tree));
    TSNode at = sem_fixture_find(&fx, "call_expression", w->at, 0);
    CHECK(!ts_node_is_null(at), "%s: no call `%s`", w->file, w->at);
    lf_tsproto *p = ts_node_is_null(at) ? NULL : lf_tsproto_at(m, at);
    CHECK(p != NULL, "%s: `%s` lies in no protocol", w->file, w->at);
    if (p && w->decline) {
        CHECK(p->decline && !strcmp(p->decline, w->decline), "%s: decline\n  want: %s\n  got:  %s", w->file,
              w->decline, p->decline ? p->decline : "(recognised)");
    } else if (p) {
        CHECK(!p->decline, "%s: declined: %s", w->file, p->decline);
        if (!p->decline) {
            CHECK(p->async == w->async, "%s: async %d", w->file, p->async);
            CHECK(p->best_effort == w->best_effort, "%s: best effort %d", w->file, p->best_effort);
            CHECK(!ts_node_is_null(p->deadline) == w->deadline, "%s: bounded by a deadline: %d", w->file,
                  !ts_node_is_null(p->deadline));
            CHECK(ts_node_is_null(p->deadline) == !ts_node_is_null(p->start), "%s: a deadline or a start", w->file);
            CHECK(p->releases.len == (size_t)w->releases, "%s: %zu releases", w->file, p->releases.len);
            CHECK(p->drops.len == (size_t)w->drops, "%s: %zu drops", w->file, p->drops.len);
            CHECK(p->helpers.len == (size_t)w->helpers, "%s: %zu helpers", w->file, p->helpers.len);
            CHECK(p->swallows == w->swallows, "%s: swallows the create's failures: %d", w->file, p->swallows);
            CHECK(p->dir == w->dir, "%s: a lock directory: %d", w->file, p->dir);
        }
    }
    /* a call outside every protocol: the module's other function */
    TSNode outside = sem_fixture_find(&fx, "call_expression", "JSON.stringify({ n: n + 1 })", 0);
    if (!ts_node_is_null(outside)) {
        lf_tsproto *q = lf_tsproto_at(m, outside);
        CHECK(q == NULL, "%s: the caller's own code is not the protocol", w->file);
        lf_tsproto_free(q);
    }
    lf_tsproto_free(p);
    lf_tssem_free(m);
    sem_fixture_free(&fx);
    free(text);
    free(path);
}

int main(void) {
    for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++)
        check_case(&k_cases[i]);
    return lf_test_check_summary();
}
