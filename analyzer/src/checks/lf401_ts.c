/* LF401 for TS/JS: a temp name fixed by the target (`${final}.tmp`,
 * `final + ".tmp"`, `path.join(dir, name + ".tmp")`) that is then renamed onto
 * that target with fs.rename/renameSync/promises.rename (any spelling
 * lf_tssem resolves). The query finds the temp expressions and the renames;
 * the check follows names to their values and compares paths by key, so the
 * temp and the target may be spelled through locals, fields or parameters.
 * Each finding carries what the fix may rewrite (lf401_ts_site.h). */
#include <stdlib.h>
#include <string.h>

#include "lf401_ts_site.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"

typedef struct temp_site {
    TSNode temp, base;
    size_t match;
} temp_site;

static int same_key(lf_tssem *m, TSNode a, TSNode b) {
    const char *ka = lf_tssem_path_key(m, a), *kb = lf_tssem_path_key(m, b);
    return ka && ka == kb;
}

static int is_join(lf_tssem *m, TSNode n) {
    const char *q = lf_tree_is(n, "call_expression") ? lf_tssem_callee(m, n) : NULL;
    return q && (!strcmp(q, "path.join") || !strcmp(q, "path.resolve") || !strcmp(q, "path.posix.join") ||
                 !strcmp(q, "path.win32.join"));
}

/* Does the renamed source `from` (resolved) name temp t of target `to`? */
static int names_temp(lf_tssem *m, const temp_site *t, TSNode from, TSNode to) {
    if (ts_node_eq(from, t->temp) || (lf_tree_is(from, ts_node_type(t->temp)) && same_key(m, from, t->temp)))
        return same_key(m, t->base, to);
    /* path.join(dir, name + ".tmp") onto path.join(dir, name) */
    if (!is_join(m, from))
        return 0;
    TSNode dst = lf_tssem_resolve_value(m, to);
    if (!is_join(m, dst))
        return 0;
    size_t n = lf_tssem_nargs(from);
    if (n == 0 || n != lf_tssem_nargs(dst) || !ts_node_eq(lf_tssem_unwrap(lf_tssem_arg(from, (uint32_t)n - 1)), t->temp))
        return 0;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (!same_key(m, lf_tssem_arg(from, i), lf_tssem_arg(dst, i)))
            return 0;
    return same_key(m, t->base, lf_tssem_arg(dst, (uint32_t)n - 1));
}

void lf401_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    size_t n = lf_ctx_match_count(ctx);
    LF_VEC(temp_site) temps = {0};
    for (size_t i = 0; i < n; i++) {
        temp_site t = {.match = i};
        if (lf_ctx_capture(ctx, i, "temp", &t.temp) && lf_ctx_capture(ctx, i, "base", &t.base))
            LF_VEC_PUSH(&temps, t);
    }
    /* one finding per temp expression, however many renames use it */
    unsigned char *reported = lf_xcalloc(temps.len ? temps.len : 1, 1);
    for (size_t i = 0; i < n && temps.len; i++) {
        TSNode rename, from, to;
        if (!lf_ctx_capture(ctx, i, "rename", &rename) || !lf_ctx_capture(ctx, i, "src", &from) ||
            !lf_ctx_capture(ctx, i, "dst", &to))
            continue;
        const char *op = lf_tslock_fs_op(m, rename);
        if (!op || strcmp(op, "rename") != 0)
            continue;
        TSNode src_val = lf_tssem_resolve_value(m, from);
        TSNode fn = lf_ts_fn_node(m, rename);
        for (size_t k = 0; k < temps.len; k++) {
            const temp_site *t = &temps.items[k];
            if (reported[k] || (!lf_ts_within(t->temp, fn) && lf_tssem_scope_of(m, t->temp) != 0) ||
                !names_temp(m, t, src_val, to))
                continue;
            /* the first spelling in source order: the one the write opened */
            reported[k] = 1;
            lf_ctx_emit_match_site(ctx, t->temp, t->match, lf401_ts_site_make(m, t->temp, rename), lf401_ts_site_free);
            break;
        }
    }
    free(reported);
    LF_VEC_FREE(&temps);
}
