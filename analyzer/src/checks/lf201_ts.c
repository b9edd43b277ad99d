/* LF201 for TS/JS: `fs.realpathSync(p)` / `fs.realpath` / `promises.realpath`
 * / `realpathSync.native` of a path that may not exist at that moment, whose
 * result is compared with a resolved directory (`real.startsWith(root +
 * path.sep)`, `path.relative(root, real)`, `real.indexOf(root)`), the
 * directory being a realpath or path.resolve of another path. Node's realpath
 * throws ENOENT for a missing file, so the guard rejects (or crashes on) every
 * file about to be created. Not reported when the failure cannot happen or is
 * handled:
 *  - the call is guarded by an existence test of the same path
 *    (`if (fs.existsSync(p))`, `existsSync(p) && ...`);
 *  - earlier in the function the same path was made (mkdir, writeFile,
 *    copyFile, an open) or found (stat, lstat, access, readFile, readdir: each
 *    throws when it is missing), so it exists when resolved;
 *  - the call sits in a try whose catch handles the failure (it names ENOENT,
 *    or it does not throw: it skips, returns or falls back), or in a promise
 *    chain with its own `.catch`;
 *  - the comparison is handed to a test's `expect(...)`: it checks what the
 *    test produced, and guards no path. */
#include <stdlib.h>
#include <string.h>

#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

/* Is the expression a resolved directory: a realpath or path.resolve call,
 * through names and `+ path.sep` / template concatenation? */
static int resolved_dir(lf_tssem *m, TSNode n, TSNode real) {
    TSNode stack[32];
    int sp = 0, budget = 64;
    stack[sp++] = n;
    while (sp && budget-- > 0) {
        TSNode cur = lf_tssem_resolve_value(m, stack[--sp]);
        if (ts_node_is_null(cur) || ts_node_eq(cur, real))
            continue;
        if (lf_tree_is(cur, "call_expression")) {
            const char *op = lf_tslock_fs_op(m, cur);
            const char *q = lf_tssem_callee(m, cur);
            if ((op && !strcmp(op, "realpath")) || (q && !strcmp(q, "path.resolve")))
                return 1;
            continue;
        }
        if (lf_tree_is(cur, "binary_expression")) {
            if (sp + 2 <= 32) {
                stack[sp++] = lf_tree_field(cur, "left");
                stack[sp++] = lf_tree_field(cur, "right");
            }
            continue;
        }
        if (lf_tree_is(cur, "template_string")) {
            uint32_t k = ts_node_named_child_count(cur);
            for (uint32_t i = 0; i < k && sp < 32; i++) {
                TSNode c = ts_node_named_child(cur, i);
                if (lf_tree_is(c, "template_substitution") && ts_node_named_child_count(c))
                    stack[sp++] = ts_node_named_child(c, 0);
            }
        }
    }
    return 0;
}

static int is_real(lf_tssem *m, TSNode n, TSNode real) { return ts_node_eq(lf_tssem_resolve_value(m, n), real); }

/* Is the node an argument of a test assertion `expect(...)` (jest, vitest,
 * chai)? Its value is checked by the test, not used to decide anything. */
static int asserted(lf_tssem *m, TSNode n) {
    TSNode args = lf_ts_parent(lf_tssem_unwrap(n));
    while (lf_tree_is(args, "parenthesized_expression") || lf_tree_is(args, "unary_expression"))
        args = lf_ts_parent(args);
    if (!lf_tree_is(args, "arguments"))
        return 0;
    TSNode call = lf_ts_parent(args);
    TSNode f = lf_tree_field(call, "function");
    return lf_tree_is(f, "identifier") && lf_tree_text_eq(m->src, f, "expect");
}

/* A comparison in fn of the realpath result with a resolved directory. */
static int compared_with_dir(lf_tssem *m, TSNode fn, TSNode real) {
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (!lf_ts_within(c, fn) || asserted(m, c))
            continue;
        TSNode f = lf_tree_field(c, "function");
        if (lf_tree_is(f, "member_expression")) {
            TSNode p = lf_tree_field(f, "property");
            if ((lf_tree_text_eq(m->src, p, "startsWith") || lf_tree_text_eq(m->src, p, "indexOf")) &&
                is_real(m, lf_tree_field(f, "object"), real) && resolved_dir(m, lf_tssem_arg(c, 0), real))
                return 1;
        }
        const char *q = m->calls[i].callee;
        if (q && !strcmp(q, "path.relative") && is_real(m, lf_tssem_arg(c, 1), real) &&
            resolved_dir(m, lf_tssem_arg(c, 0), real))
            return 1;
    }
    return 0;
}

/* Does a catch clause let the failure pass (skip, return, fall back) rather
 * than throw: no throw statement of its own (nested functions aside)? */
static lf_walk_action visit_throw(TSNode n, void *ud) {
    int *throws = ud;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "arrow_function") || !strcmp(t, "function_expression") || !strcmp(t, "function_declaration"))
        return LF_WALK_SKIP;
    if (!strcmp(t, "throw_statement")) {
        *throws = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int catch_handles(const lf_source *src, TSNode handler) {
    if (ts_node_is_null(handler))
        return 0; /* try/finally: the error goes on */
    if (lf_ts_text_has(src, handler, "ENOENT"))
        return 1;
    int throws = 0;
    lf_tree_walk(lf_tree_field(handler, "body"), visit_throw, &throws);
    return !throws;
}

/* `realpath(p).catch(...)` / `(await realpath(p)).then(..).catch(..)`: the
 * promise's rejection is handled by the chain. */
static int promise_caught(lf_tssem *m, TSNode real) {
    TSNode cur = real;
    for (int steps = 0; steps < 8; steps++) {
        TSNode p = lf_ts_parent(cur);
        if (!lf_tree_is(p, "member_expression") || !ts_node_eq(lf_tree_field(p, "object"), cur))
            return 0;
        TSNode call = lf_ts_parent(p);
        if (!lf_tree_is(call, "call_expression"))
            return 0;
        if (lf_tree_text_eq(m->src, lf_tree_field(p, "property"), "catch"))
            return 1;
        cur = call;
    }
    return 0;
}

/* File operations that, when they return, leave the path existing: they
 * create it, or they throw when it is missing (a bare existsSync answers
 * instead, and counts only as a test: guarded). */
static const char *const k_exists_after[] = {"mkdir", "writeFile", "copyFile", "cp",      "open",
                                             "stat",  "lstat",     "access",   "readFile", "readdir",
                                             "outputFile", "ensureDir", "ensureFile", "mkdirp", "mkdirs", NULL};

/* Was the same path made or found earlier in fn (in source order, on the way
 * to the call)? */
static int made_before(lf_tssem *m, TSNode real, TSNode path, TSNode fn) {
    const char *k = lf_tssem_path_key(m, path);
    uint32_t at = ts_node_start_byte(real);
    for (size_t i = 0; k && i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (ts_node_start_byte(c) >= at)
            break; /* calls are in source order */
        if (!lf_ts_within(c, fn) || lf_ts_within(real, c))
            continue;
        const char *op = lf_tslock_fs_op(m, c);
        int hit = 0;
        for (size_t j = 0; op && k_exists_after[j] && !hit; j++)
            hit = !strcmp(op, k_exists_after[j]);
        if (hit && lf_tssem_path_key(m, lf_tssem_arg(c, 0)) == k)
            return 1;
    }
    return 0;
}

/* Guarded by an existence test of the same path, or a catch that handles the
 * failure? */
static int guarded(lf_tssem *m, TSNode real, TSNode path, TSNode fn) {
    const char *k = lf_tssem_path_key(m, path);
    TSNode cur = real;
    for (int steps = 0; steps < 200; steps++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p) || ts_node_eq(cur, fn))
            break;
        TSNode test = {0};
        if (lf_tree_is(p, "if_statement") && !ts_node_eq(lf_tree_field(p, "condition"), cur))
            test = lf_tree_field(p, "condition");
        else if (lf_tree_is(p, "binary_expression") && ts_node_eq(lf_tree_field(p, "right"), cur))
            test = lf_tree_field(p, "left");
        else if (lf_tree_is(p, "ternary_expression") && !ts_node_eq(lf_tree_field(p, "condition"), cur))
            test = lf_tree_field(p, "condition");
        else if (lf_tree_is(p, "try_statement") && ts_node_eq(lf_tree_field(p, "body"), cur) &&
                 catch_handles(m->src, lf_tree_field(p, "handler")))
            return 1;
        if (!ts_node_is_null(test)) {
            for (size_t i = 0; i < m->n_calls; i++) {
                TSNode c = m->calls[i].node;
                if (!lf_ts_within(c, test))
                    continue;
                const char *op = lf_tslock_fs_op(m, c);
                if (op && (!strcmp(op, "exists") || !strcmp(op, "access") || !strcmp(op, "lstat") ||
                           !strcmp(op, "pathExists")) &&
                    lf_tssem_path_key(m, lf_tssem_arg(c, 0)) == k)
                    return 1;
            }
        }
        cur = p;
    }
    return 0;
}

void lf201_ts_run(lf_check_ctx *ctx) {
    if (lf_ctx_match_count(ctx) == 0)
        return; /* reports only at its matches: no model for a file without one */
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    size_t n = lf_ctx_match_count(ctx);
    for (size_t i = 0; i < n; i++) {
        TSNode real;
        if (!lf_ctx_capture(ctx, i, "real", &real))
            continue;
        const char *op = lf_tslock_fs_op(m, real);
        if (!op || strcmp(op, "realpath") != 0)
            continue;
        TSNode path = lf_tssem_arg(real, 0);
        TSNode fn = lf_ts_fn_node(m, real);
        if (ts_node_is_null(path) || !compared_with_dir(m, fn, real) || guarded(m, real, path, fn) ||
            promise_caught(m, real) || made_before(m, real, path, fn))
            continue;
        char *r = lf_py_short(src, real);
        char *msg = lf_xasprintf("%s resolves a path that may not exist yet and is compared with a resolved "
                                 "directory: Node's realpath throws ENOENT for a missing file, so the confinement "
                                 "check fails for every file about to be created (check the name, and the symlink "
                                 "only when the file exists)",
                                 r);
        lf_ctx_emit(ctx, real, msg, SIZE_MAX);
        lf_ctx_witness(ctx, lf_wit_missing_target(src, real, 1));
        free(msg);
        free(r);
    }
}
