/* LF104 for TS/JS: one function parses a JSON document it read
 * (`JSON.parse(fs.readFileSync(p, "utf8"))`, through names and awaits, or
 * fs-extra's readJson) and later writes the same path back (writeFile,
 * writeFileSync, promises.writeFile, writeJson, a rename onto it, or one of the
 * module's functions that writes its parameter), with no lock in play: no lock
 * library call, exclusive create or lock-named call in the function, and not
 * inside a callback handed to one. Reported at the read. */
#include <stdlib.h>
#include <string.h>

#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"

static int is_write_op(const char *op) {
    return op && (!strcmp(op, "writeFile") || !strcmp(op, "writeJson") || !strcmp(op, "writeJSON") ||
                  !strcmp(op, "outputFile") || !strcmp(op, "outputJson"));
}

/* Strip `.toString()`, `.trim()` and the like from what JSON.parse parses. */
static TSNode parsed_source(lf_tssem *m, TSNode n) {
    for (int hop = 0; hop < 8; hop++) {
        n = lf_tssem_resolve_value(m, n);
        if (!lf_tree_is(n, "call_expression"))
            return n;
        TSNode fn = lf_tree_field(n, "function");
        if (!lf_tree_is(fn, "member_expression"))
            return n;
        TSNode p = lf_tree_field(fn, "property");
        if (!lf_tree_text_eq(m->src, p, "toString") && !lf_tree_text_eq(m->src, p, "trim"))
            return n;
        n = lf_tree_field(fn, "object");
    }
    return n;
}

/* Does function scope `s` write its parameter `param` (writeFile or rename onto it)? */
static int helper_writes(lf_tssem *m, int32_t s, const lf_tsbinding *param) {
    const char *pk = lf_tssem_path_key(m, param->target);
    for (size_t i = 0; i < m->n_calls; i++) {
        if (lf_tslock_fn_of(m, m->calls[i].scope) != s)
            continue;
        const char *op = lf_tslock_fs_op(m, m->calls[i].node);
        TSNode target = is_write_op(op) ? lf_tssem_arg(m->calls[i].node, 0)
                        : op && !strcmp(op, "rename") ? lf_tssem_arg(m->calls[i].node, 1)
                                                       : (TSNode){0};
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == pk)
            return 1;
    }
    return 0;
}

/* The first write of key `k` after byte `after` in function fn, or null. */
static TSNode write_after(lf_tssem *m, int32_t fn, const char *k, uint32_t after) {
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) <= after || lf_tslock_fn_of(m, c->scope) != fn)
            continue;
        const char *op = lf_tslock_fs_op(m, c->node);
        if (is_write_op(op) && lf_tssem_path_key(m, lf_tssem_arg(c->node, 0)) == k)
            return c->node;
        if (op && !strcmp(op, "rename") && lf_tssem_path_key(m, lf_tssem_arg(c->node, 1)) == k)
            return c->node;
        int32_t s = lf_tssem_local_callee(m, c->node);
        if (s <= 0)
            continue;
        size_t n = lf_tssem_nargs(c->node);
        for (uint32_t j = 0; j < n && j < 8; j++) {
            const lf_tsbinding *p = lf_tssem_param(m, s, j);
            if (p && lf_tssem_path_key(m, lf_tssem_arg(c->node, j)) == k && helper_writes(m, s, p))
                return c->node;
        }
    }
    return (TSNode){0};
}

void lf104_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    lf_tslock *l = NULL;
    size_t n = lf_ctx_match_count(ctx);
    for (size_t i = 0; i < n; i++) {
        TSNode read, key;
        if (!lf_ctx_capture(ctx, i, "read", &read) || !lf_ctx_capture(ctx, i, "key", &key))
            continue;
        const char *op = lf_tslock_fs_op(m, read);
        if (!op || (strcmp(op, "readFile") != 0 && strcmp(op, "readJson") != 0 && strcmp(op, "readJSON") != 0))
            continue;
        int32_t fn = lf_tslock_fn_of(m, lf_tssem_scope_of(m, read));
        int parsed = strcmp(op, "readFile") != 0;
        for (size_t c = 0; c < m->n_calls && !parsed; c++) {
            const lf_tscall *pc = &m->calls[c];
            if (pc->callee && !strcmp(pc->callee, "JSON.parse") && lf_tslock_fn_of(m, pc->scope) == fn &&
                ts_node_eq(parsed_source(m, lf_tssem_arg(pc->node, 0)), read))
                parsed = 1;
        }
        if (!parsed)
            continue;
        const char *k = lf_tssem_path_key(m, key);
        TSNode write = write_after(m, fn, k, ts_node_start_byte(read));
        if (ts_node_is_null(write))
            continue;
        if (!l)
            l = lf_tslock_build(m);
        if (lf_ts_lock_held(m, l, read))
            continue;
        char *r = lf_py_short(src, read), *what = lf_py_short(src, key);
        char *msg = lf_xasprintf("%s starts a read-modify-write of %s that line %u writes back with no lock held: "
                                 "concurrent processes overwrite each other's updates",
                                 r, what, lf_py_line(src, write));
        lf_ctx_emit(ctx, read, msg, SIZE_MAX);
        free(msg);
        free(r);
        free(what);
    }
    lf_tslock_free(l);
}
