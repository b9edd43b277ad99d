/* LF302: a lock judged stale by the time elapsed since its mtime. The query
 * finds `now - mtime` compared against a limit, or assigned to a name (`age`)
 * that is compared later; this check follows the name to its comparison and
 * keeps only code that handles a lock (a function, or a module-level
 * statement, that mentions one). Ages of ordinary files (caches, logs) are not
 * locks. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
#include "lf_py.h"

static const char *const k_lock_words[] = {"lock", "Lock", "LOCK", NULL};

static int about_a_lock(const lf_source *src, TSNode n) {
    TSNode scope = lf_py_scope(n);
    TSNode where = strcmp(ts_node_type(scope), "function_definition") == 0 ? scope : lf_py_statement(n);
    return lf_py_text_has(src, where, k_lock_words);
}

typedef struct age_use {
    const lf_source *src;
    TSNode age, after;
    TSNode cmp;
    int found;
} age_use;

/* First comparison after the assignment with the age name as an operand. */
static int visit_comparison(TSNode cmp, void *ud) {
    age_use *u = ud;
    if (ts_node_start_byte(cmp) < ts_node_end_byte(u->after))
        return 1;
    for (uint32_t i = 0; i < ts_node_named_child_count(cmp); i++) {
        TSNode op = ts_node_named_child(cmp, i);
        if (strcmp(ts_node_type(op), "identifier") == 0 && lf_py_same_text(u->src, op, u->age)) {
            u->cmp = cmp;
            u->found = 1;
            return 0;
        }
    }
    return 1;
}

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode at, age;
        if (lf_ctx_capture(ctx, i, "finding", &at)) {
            if (about_a_lock(src, at))
                lf_ctx_emit(ctx, at, NULL, i);
        } else if (lf_ctx_capture(ctx, i, "age_assign", &at) && lf_ctx_capture(ctx, i, "age", &age)) {
            age_use u = {.src = src, .age = age, .after = at};
            lf_py_walk(lf_py_scope(at), "comparison_operator", 1, visit_comparison, &u);
            if (u.found && about_a_lock(src, u.cmp)) {
                /* The message names the comparison, as for the direct form. */
                TSQueryCapture cap;
                cap.node = u.cmp;
                cap.index = (uint32_t)lf_query_capture_id(ctx->query, "finding");
                char *msg = lf_render_message(lf_ctx_rule(ctx)->message, src, ctx->query, &cap, 1);
                lf_ctx_emit(ctx, u.cmp, msg, SIZE_MAX);
                free(msg);
            }
        }
    }
}

const lf_check lf302_mtime_staleness_check = {"lf302_mtime_staleness", run};
