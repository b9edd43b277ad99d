/* LF401: a temp name fixed by the target (`path + ".tmp"`) that is then renamed
 * onto that target. The query finds temp-name expressions and renames; whether
 * the renamed file is that temp and the destination its target needs the
 * assignment flow inside one function, which is decided here. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf_py.h"

typedef struct temp_site {
    TSNode temp, base;
    size_t match;
} temp_site;

typedef struct assign_scan {
    const lf_source *src;
    TSNode var;        /* the renamed name */
    TSNode before;     /* only assignments before the rename count */
    const temp_site *temps;
    size_t n_temps;
    TSNode dst;
    const temp_site *hit; /* last matching assignment */
} assign_scan;

static const temp_site *temp_for(const assign_scan *s, TSNode expr) {
    for (size_t i = 0; i < s->n_temps; i++) {
        if (ts_node_eq(s->temps[i].temp, expr) &&
            lf_py_same_text(s->src, lf_py_unwrap_path(s->src, s->temps[i].base), s->dst))
            return &s->temps[i];
    }
    return NULL;
}

static int visit_assignment(TSNode n, void *ud) {
    assign_scan *s = ud;
    if (ts_node_start_byte(n) >= ts_node_start_byte(s->before))
        return 0;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !lf_py_same_text(s->src, left, s->var))
        return 1;
    const temp_site *t = temp_for(s, right);
    if (t)
        s->hit = t;
    return 1;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_tssem(ctx)) {
        lf401_ts_run(ctx);
        return;
    }
    const lf_source *src = lf_ctx_source(ctx);
    size_t n = lf_ctx_match_count(ctx);
    LF_VEC(temp_site) temps = {0};
    for (size_t i = 0; i < n; i++) {
        temp_site t = {.match = i};
        if (lf_ctx_capture(ctx, i, "temp", &t.temp) && lf_ctx_capture(ctx, i, "base", &t.base))
            LF_VEC_PUSH(&temps, t);
    }
    for (size_t i = 0; i < n && temps.len; i++) {
        TSNode rename, from, to;
        if (!lf_ctx_capture(ctx, i, "rename", &rename) || !lf_ctx_capture(ctx, i, "src", &from) ||
            !lf_ctx_capture(ctx, i, "dst", &to))
            continue;
        TSNode scope = lf_py_scope(rename);
        from = lf_py_unwrap_path(src, from);
        assign_scan s = {src, from, rename, temps.items, temps.len, lf_py_unwrap_path(src, to), NULL};
        if (strcmp(ts_node_type(from), "identifier") == 0) {
            lf_py_walk(scope, "assignment", 1, visit_assignment, &s);
        } else if (temp_for(&s, from)) {
            /* The temp expression is spelled out again at the rename: report its
             * first spelling in the function, the one the write opened. */
            for (size_t k = 0; k < temps.len; k++) {
                if (lf_py_within(temps.items[k].temp, scope) && lf_py_same_text(src, temps.items[k].temp, from) &&
                    (!s.hit || ts_node_start_byte(temps.items[k].temp) < ts_node_start_byte(s.hit->temp)))
                    s.hit = &temps.items[k];
            }
        }
        if (s.hit && lf_py_within(s.hit->temp, scope))
            lf_ctx_emit(ctx, s.hit->temp, NULL, s.hit->match);
    }
    LF_VEC_FREE(&temps);
}

const lf_check lf401_shared_temp_check = {"lf401_shared_temp", run};
