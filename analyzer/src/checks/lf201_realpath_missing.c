/* LF201: realpath()/resolve() of a path that may not exist yet, compared against
 * a resolved directory. realpath() of a missing path returns it unresolved, so
 * when the directory sits behind a symlink the comparison rejects a legitimate
 * file (or the file is briefly missing between another writer's temp write and
 * its rename). The query finds the resolving calls; this check decides which
 * side of a confinement comparison each one is on, and whether an existence
 * test guards it. */
#include <string.h>

#include "lf_py.h"

static const char *const k_exist_tests[] = {"islink", "exists", "lexists", "isfile", "isdir",
                                            "is_symlink", "is_file", "is_dir", NULL};

static int is_resolve_call(const lf_source *src, TSNode n) {
    TSNode name;
    if (!lf_py_call_name(n, &name))
        return 0;
    return lf_py_is(src, name, "realpath") || (lf_py_is(src, name, "resolve") && lf_py_call_nargs(n) == 0);
}

typedef struct find_ctx {
    const lf_source *src;
    TSNode target; /* existence test on this path text */
    int found;
} find_ctx;

static int visit_exist_test(TSNode call, void *ud) {
    find_ctx *f = ud;
    TSNode name, arg;
    if (!lf_py_call_name(call, &name))
        return 1;
    int known = 0;
    for (size_t i = 0; k_exist_tests[i]; i++)
        if (lf_py_is(f->src, name, k_exist_tests[i]))
            known = 1;
    if (!known)
        return 1;
    if ((lf_py_call_arg(call, 0, &arg) && lf_py_same_text(f->src, lf_py_unwrap_path(f->src, arg), f->target)) ||
        (lf_py_call_nargs(call) == 0 && lf_py_call_receiver(call, &arg) &&
         lf_py_same_text(f->src, lf_py_unwrap_path(f->src, arg), f->target))) {
        f->found = 1;
        return 0;
    }
    return 1;
}

static int has_exist_test(const lf_source *src, TSNode where, TSNode target) {
    find_ctx f = {src, target, 0};
    lf_py_walk(where, "call", 1, visit_exist_test, &f);
    return f.found;
}

/* realpath(P) applied only when P exists: `exists(P) and realpath(P)...` or
 * inside `if exists(P):`. */
static int guarded_by_existence(const lf_source *src, TSNode call, TSNode target, TSNode scope) {
    TSNode child = call;
    TSNode cur = ts_node_parent(call);
    for (int steps = 0; steps < 256 && !ts_node_is_null(cur) && lf_py_within(cur, scope); steps++) {
        const char *t = ts_node_type(cur);
        if (strcmp(t, "boolean_operator") == 0) {
            TSNode left = ts_node_child_by_field_name(cur, "left", 4);
            TSNode op = ts_node_child_by_field_name(cur, "operator", 8);
            if (!ts_node_is_null(op) && lf_py_is(src, op, "and") && !ts_node_eq(left, child) &&
                has_exist_test(src, left, target))
                return 1;
        } else if (strcmp(t, "if_statement") == 0 || strcmp(t, "elif_clause") == 0) {
            TSNode cond = ts_node_child_by_field_name(cur, "condition", 9);
            TSNode body = ts_node_child_by_field_name(cur, "consequence", 11);
            if (!ts_node_is_null(body) && lf_py_within(call, body) && has_exist_test(src, cond, target))
                return 1;
        }
        child = cur;
        cur = ts_node_parent(cur);
    }
    return 0;
}

typedef struct resolved_ctx {
    const lf_source *src;
    TSNode name;
    int found;
} resolved_ctx;

static int visit_any_resolve(TSNode n, void *ud) {
    resolved_ctx *r = ud;
    if (is_resolve_call(r->src, n)) {
        r->found = 1;
        return 0;
    }
    return 1;
}

static int contains_resolve(const lf_source *src, TSNode n) {
    resolved_ctx r = {src, n, 0};
    lf_py_walk(n, "call", 0, visit_any_resolve, &r);
    return r.found;
}

static int visit_resolved_assignment(TSNode n, void *ud) {
    resolved_ctx *r = ud;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (!ts_node_is_null(left) && !ts_node_is_null(right) && lf_py_same_text(r->src, left, r->name) &&
        contains_resolve(r->src, right)) {
        r->found = 1;
        return 0;
    }
    return 1;
}

/* A resolved directory: an expression with a realpath/resolve in it, or names
 * assigned from one (in this function or at module level). */
static int is_resolved_expr(const lf_source *src, TSNode n, TSNode scope, TSNode root) {
    if (contains_resolve(src, n))
        return 1;
    /* real_dir + os.sep: the left operand decides. A loop, not recursion (a
     * 100k-term `+` chain); n's subtree holds no resolve call, so neither does
     * any left operand's. */
    while (!ts_node_is_null(n) && strcmp(ts_node_type(n), "binary_operator") == 0)
        n = ts_node_child_by_field_name(n, "left", 4);
    if (ts_node_is_null(n))
        return 0;
    resolved_ctx r = {src, n, 0};
    const char *t = ts_node_type(n);
    if (strcmp(t, "identifier") != 0 && strcmp(t, "attribute") != 0)
        return 0;
    lf_py_walk(scope, "assignment", 1, visit_resolved_assignment, &r);
    if (!r.found && !ts_node_eq(scope, root))
        lf_py_walk(root, "assignment", 1, visit_resolved_assignment, &r);
    return r.found;
}

/* Is `value` (the resolved target, or a name holding it) the target side of a
 * confinement comparison? */
static int compared_as_target(const lf_source *src, TSNode value, TSNode scope, TSNode root) {
    TSNode p = ts_node_parent(value);
    if (ts_node_is_null(p))
        return 0;
    /* value.startswith(dir) / value.is_relative_to(dir) / value.relative_to(dir) */
    if (strcmp(ts_node_type(p), "attribute") == 0) {
        TSNode call = ts_node_parent(p);
        TSNode name, arg;
        if (!ts_node_is_null(call) && lf_py_call_name(call, &name) &&
            (lf_py_is(src, name, "startswith") || lf_py_is(src, name, "is_relative_to") ||
             lf_py_is(src, name, "relative_to")) &&
            lf_py_call_arg(call, 0, &arg)) {
            if (strcmp(ts_node_type(arg), "tuple") == 0)
                arg = ts_node_named_child(arg, 0);
            return is_resolved_expr(src, arg, scope, root);
        }
        return 0;
    }
    /* os.path.commonpath([value, dir]) */
    if (strcmp(ts_node_type(p), "list") == 0 || strcmp(ts_node_type(p), "tuple") == 0) {
        TSNode args = ts_node_parent(p);
        TSNode call = ts_node_is_null(args) ? args : ts_node_parent(args);
        TSNode name;
        if (!ts_node_is_null(call) && lf_py_call_name(call, &name) && lf_py_is(src, name, "commonpath")) {
            /* commonpath([real, base]) != base: the directory is the operand compared
             * with the result; the other element is the target. */
            TSNode cmp = ts_node_parent(call);
            if (ts_node_is_null(cmp) || strcmp(ts_node_type(cmp), "comparison_operator") != 0)
                return 0;
            TSNode other_side = ts_node_named_child(cmp, 0);
            if (ts_node_eq(other_side, call))
                other_side = ts_node_named_child(cmp, 1);
            if (ts_node_is_null(other_side) || lf_py_same_text(src, other_side, value))
                return 0;
            for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
                TSNode other = ts_node_named_child(p, i);
                if (!ts_node_eq(other, value) && is_resolved_expr(src, other, scope, root))
                    return 1;
            }
        }
    }
    return 0;
}

typedef struct uses_ctx {
    const lf_source *src;
    TSNode var, after, scope, root;
    int found;
} uses_ctx;

static int visit_use(TSNode n, void *ud) {
    uses_ctx *u = ud;
    if (ts_node_start_byte(n) > ts_node_end_byte(u->after) && lf_py_same_text(u->src, n, u->var) &&
        compared_as_target(u->src, n, u->scope, u->root)) {
        u->found = 1;
        return 0;
    }
    return 1;
}

static void run(lf_check_ctx *ctx) {
    const lf_source *src = lf_ctx_source(ctx);
    TSNode root = lf_ctx_root(ctx);
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode call, target;
        if (!lf_ctx_capture(ctx, i, "real", &call) || !lf_ctx_capture(ctx, i, "target", &target))
            continue;
        target = lf_py_unwrap_path(src, target);
        TSNode scope = lf_py_scope(call);
        if (guarded_by_existence(src, call, target, scope))
            continue;
        int flagged = compared_as_target(src, call, scope, root);
        if (!flagged) {
            /* real = realpath(p) ... real.startswith(real_dir) */
            TSNode p = ts_node_parent(call);
            if (!ts_node_is_null(p) && strcmp(ts_node_type(p), "assignment") == 0) {
                TSNode left = ts_node_child_by_field_name(p, "left", 4);
                if (!ts_node_is_null(left) && strcmp(ts_node_type(left), "identifier") == 0) {
                    uses_ctx u = {src, left, call, scope, root, 0};
                    lf_py_walk(scope, "identifier", 1, visit_use, &u);
                    flagged = u.found;
                }
            }
        }
        if (flagged)
            lf_ctx_emit(ctx, call, NULL, i);
    }
}

const lf_check lf201_realpath_missing_check = {"lf201_realpath_missing", run};
