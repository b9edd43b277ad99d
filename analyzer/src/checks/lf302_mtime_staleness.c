/* LF302: a lock judged stale by the time elapsed since its mtime. The query
 * finds `now - mtime` compared against a limit; this check keeps the ones in
 * code that handles a lock (a function, or a module-level statement, that
 * mentions one). Ages of ordinary files (caches, logs) are not locks. */
#include <string.h>

#include "lf_py.h"

static const char *const k_lock_words[] = {"lock", "Lock", "LOCK", NULL};

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode cmp;
        if (!lf_ctx_capture(ctx, i, "finding", &cmp))
            continue;
        TSNode scope = lf_py_scope(cmp);
        TSNode where = strcmp(ts_node_type(scope), "function_definition") == 0 ? scope : lf_py_statement(cmp);
        if (lf_py_text_has(src, where, k_lock_words))
            lf_ctx_emit(ctx, cmp, NULL, i);
    }
}

const lf_check lf302_mtime_staleness_check = {"lf302_mtime_staleness", run};
