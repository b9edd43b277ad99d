/* LF201: realpath()/resolve() of a path that may not exist yet, compared against
 * a resolved directory. realpath() of a missing path returns it unresolved, so
 * when the directory sits behind a symlink the comparison rejects a legitimate
 * file (or the file is briefly missing between another writer's temp write and
 * its rename). The query finds the resolving calls; this check decides which
 * side of a confinement comparison each one is on, and whether an existence
 * test guards it. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf201_site.h"
#include "lf_py.h"
#include "lf_pygate.h"
#include "lf_pylock.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_witness_build.h"

static const char *const k_exist_tests[] = {"islink", "exists", "lexists", "isfile", "isdir",
                                            "is_symlink", "is_file", "is_dir", NULL};

static const char *const k_realpath[] = {"os.path.realpath", "posixpath.realpath", "ntpath.realpath", NULL};

/* realpath through the module's imports (`os.path.realpath`, `from os.path
 * import realpath`, `import os.path as osp`), or a no-argument `.resolve()`. */
static int is_resolve_call(lf_pysem *m, const lf_source *src, TSNode n) {
    TSNode name;
    if (!lf_py_call_name(n, &name))
        return 0;
    if (lf_py_is(src, name, "resolve") && lf_py_call_nargs(n) == 0 && lf_tree_is(lf_tree_field(n, "function"), "attribute"))
        return 1;
    if (m && lf_pysem_call_is(m, n, k_realpath))
        return 1;
    /* Without a model (or with an unknown callee), the bare name, as before. */
    return (!m || !lf_pysem_callee(m, n)) && lf_py_is(src, name, "realpath");
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
        } else if (strcmp(t, "conditional_expression") == 0) {
            /* `realpath(P) if lexists(P) else ...` */
            TSNode body = ts_node_named_child(cur, 0), cond = ts_node_named_child(cur, 1);
            if (ts_node_eq(body, child) && !ts_node_is_null(cond) && has_exist_test(src, cond, target))
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
    lf_pysem *m;
    const lf_source *src;
    TSNode name;
    int found;
} resolved_ctx;

static int visit_any_resolve(TSNode n, void *ud) {
    resolved_ctx *r = ud;
    if (is_resolve_call(r->m, r->src, n)) {
        r->found = 1;
        return 0;
    }
    return 1;
}

static int contains_resolve(lf_pysem *m, const lf_source *src, TSNode n) {
    resolved_ctx r = {m, src, n, 0};
    lf_py_walk(n, "call", 0, visit_any_resolve, &r);
    return r.found;
}

static int visit_resolved_assignment(TSNode n, void *ud) {
    resolved_ctx *r = ud;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (!ts_node_is_null(left) && !ts_node_is_null(right) && lf_py_same_text(r->src, left, r->name) &&
        contains_resolve(r->m, r->src, right)) {
        r->found = 1;
        return 0;
    }
    return 1;
}

/* A resolved directory: an expression with a realpath/resolve in it, or names
 * assigned from one (in this function or at module level). */
static int is_resolved_expr(lf_pysem *m, const lf_source *src, TSNode n, TSNode scope, TSNode root) {
    if (contains_resolve(m, src, n))
        return 1;
    while (lf_tree_is(n, "binary_operator")) /* real_dir + os.sep: the left operand */
        n = lf_tree_field(n, "left");
    resolved_ctx r = {m, src, n, 0};
    const char *t = ts_node_is_null(n) ? "" : ts_node_type(n);
    if (strcmp(t, "identifier") != 0 && strcmp(t, "attribute") != 0)
        return 0;
    lf_py_walk(scope, "assignment", 1, visit_resolved_assignment, &r);
    if (!r.found && !ts_node_eq(scope, root))
        lf_py_walk(root, "assignment", 1, visit_resolved_assignment, &r);
    return r.found;
}

/* `expr == <resolved dir>` / `expr != <resolved dir>` (either side). */
static int equated_with_resolved(lf_pysem *m, const lf_source *src, TSNode expr, TSNode scope, TSNode root) {
    TSNode cmp = ts_node_parent(expr);
    while (lf_tree_is(cmp, "parenthesized_expression"))
        expr = cmp, cmp = ts_node_parent(cmp);
    if (!lf_tree_is(cmp, "comparison_operator") || ts_node_named_child_count(cmp) != 2)
        return 0;
    int eq = 0;
    for (uint32_t i = 0; i < ts_node_child_count(cmp); i++) {
        TSNode c = ts_node_child(cmp, i);
        if (!ts_node_is_named(c) && (lf_tree_text_eq(src, c, "==") || lf_tree_text_eq(src, c, "!=")))
            eq = 1;
    }
    TSNode other = ts_node_named_child(cmp, 0);
    if (ts_node_eq(other, expr))
        other = ts_node_named_child(cmp, 1);
    return eq && is_resolved_expr(m, src, lf_tree_unparen(other), scope, root);
}

static const char *const k_dirname[] = {"os.path.dirname", "posixpath.dirname", "ntpath.dirname", NULL};

/* Is `value` (the resolved target, or a name holding it) the target side of a
 * confinement comparison? */
static int compared_as_target(lf_pysem *m, const lf_source *src, TSNode value, TSNode scope, TSNode root) {
    TSNode p = ts_node_parent(value);
    if (ts_node_is_null(p))
        return 0;
    /* os.path.dirname(value) != real_dir: the target must sit directly in the dir. */
    if (lf_tree_is(p, "argument_list") && ts_node_named_child_count(p) == 1) {
        TSNode call = ts_node_parent(p);
        return m && lf_pysem_call_is(m, call, k_dirname) && equated_with_resolved(m, src, call, scope, root);
    }
    /* value.parent != real_dir */
    if (lf_tree_is(p, "attribute") && lf_tree_text_eq(src, lf_tree_field(p, "attribute"), "parent") &&
        !lf_tree_is(ts_node_parent(p), "call"))
        return equated_with_resolved(m, src, p, scope, root);
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
            return is_resolved_expr(m, src, arg, scope, root);
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
                if (!ts_node_eq(other, value) && is_resolved_expr(m, src, other, scope, root))
                    return 1;
            }
        }
    }
    return 0;
}

typedef struct uses_ctx {
    lf_pysem *m;
    const lf_source *src;
    TSNode var, after, scope, root;
    int found;
} uses_ctx;

static int visit_use(TSNode n, void *ud) {
    uses_ctx *u = ud;
    if (ts_node_start_byte(n) > ts_node_end_byte(u->after) && lf_py_same_text(u->src, n, u->var) &&
        compared_as_target(u->m, u->src, n, u->scope, u->root)) {
        u->found = 1;
        return 0;
    }
    return 1;
}

void lf201_site_free(void *site) {
    lf201_site *s = site;
    if (s)
        free(s->decline);
    free(s);
}

static const char *const k_pure_calls[] = {"os.path.join", "os.path.abspath", "os.path.normpath", "os.path.expanduser",
                                           "os.fspath", "str", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
                                           "pathlib.WindowsPath", NULL};

/* Can the rewrite evaluate `e` several times? Names, attributes, literals, and
 * `+`/`/` or the path builders above over such operands. Explicit stack. */
static int repeatable(lf_pysem *m, TSNode e) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, e);
    int ok = 1;
    while (ok && stack.len) {
        TSNode n = stack.items[--stack.len];
        if (ts_node_is_null(n)) { /* a part the grammar's recovery left out */
            ok = 0;
            break;
        }
        const char *t = ts_node_type(n);
        if (!strcmp(t, "identifier") || !strcmp(t, "string") || !strcmp(t, "integer") || !strcmp(t, "comment"))
            continue;
        if (!strcmp(t, "attribute")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
        } else if (!strcmp(t, "parenthesized_expression")) {
            LF_VEC_PUSH(&stack, ts_node_named_child(n, 0));
        } else if (!strcmp(t, "binary_operator")) {
            TSNode op = lf_tree_field(n, "operator");
            ok = !ts_node_is_null(op) && (!strcmp(ts_node_type(op), "+") || !strcmp(ts_node_type(op), "/"));
            LF_VEC_PUSH(&stack, lf_tree_field(n, "left"));
            LF_VEC_PUSH(&stack, lf_tree_field(n, "right"));
        } else if (!strcmp(t, "call")) {
            ok = lf_pysem_call_is(m, n, k_pure_calls);
            TSNode args = lf_tree_field(n, "arguments");
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(args); i++) {
                TSNode a = ts_node_named_child(args, i);
                if (lf_tree_is(a, "keyword_argument") || lf_tree_is(a, "list_splat") ||
                    lf_tree_is(a, "dictionary_splat"))
                    ok = 0;
                else
                    LF_VEC_PUSH(&stack, a);
            }
        } else {
            ok = 0;
        }
    }
    LF_VEC_FREE(&stack);
    return ok;
}

/* Arguments of a call, positional and keyword. */
static uint32_t all_args(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t k = 0;
    for (uint32_t i = 0; !ts_node_is_null(args) && i < ts_node_named_child_count(args); i++)
        k += !lf_tree_is(ts_node_named_child(args, i), "comment");
    return k;
}

/* What the fix needs beyond the finding: the call's own shape. */
static lf201_site *make_site(lf_pysem *m, const lf_source *src, TSNode call) {
    lf201_site *s = lf_xcalloc(1, sizeof *s);
    s->call = call;
    s->scope = m ? lf_pysem_scope_of(m, call) : 0;
    TSNode fn = lf_tree_field(call, "function");
    if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "resolve") &&
        lf_py_call_nargs(call) == 0 && !(m && lf_pysem_call_is(m, call, k_realpath))) {
        s->kind = LF201_RESOLVE;
        s->target = lf_tree_field(fn, "object");
    } else {
        s->kind = LF201_REALPATH;
        lf_py_call_arg(call, 0, &s->target);
    }
    if (!m || src->lang != LF_LANG_PYTHON)
        s->decline = lf_xstrdup("this fix rewrites Python only");
    else if (s->kind == LF201_REALPATH && !lf_pysem_call_is(m, call, k_realpath))
        s->decline = lf_xstrdup("the resolving call is not `os.path.realpath` (its callee does not resolve to it)");
    else if (s->kind == LF201_REALPATH && all_args(call) != 1)
        s->decline = lf_xstrdup("realpath() has more arguments than the path (strict= keeps a missing target an error)");
    else if (ts_node_is_null(s->target) || !repeatable(m, s->target))
        s->decline = lf_xasprintf("the resolved path is computed by an expression with possible side effects, which "
                                  "the rewrite would evaluate several times");
    return s;
}

/* ---- evidence the target may be missing ---- */

static const char *const k_joins[] = {"os.path.join", "posixpath.join", "ntpath.join", NULL};
static const char *const k_listings[] = {"os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.iglob", NULL};
static const char *const k_listing_methods[] = {"iterdir", "glob", "rglob", NULL};
static const char *const k_wrappers[] = {"str", "os.fspath", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
                                         "pathlib.WindowsPath", "os.path.abspath", "os.path.normpath",
                                         "os.path.expanduser", "sorted", "list", "tuple", NULL};

/* Follow an expression through local names and wrappers that keep the file it
 * names (`str(p)`, `Path(p)`, `os.path.abspath(p)`, `sorted(...)`). */
static TSNode follow(lf_pysem *m, TSNode e) {
    for (int hops = 0; hops < 16 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call") && lf_pysem_call_is(m, e, k_wrappers) && lf_py_call_nargs(e) == 1) {
            TSNode a;
            if (!lf_py_call_arg(e, 0, &a))
                return e;
            e = a;
            continue;
        }
        if (!lf_tree_is(e, "identifier"))
            return e;
        TSNode v = lf_pysem_resolve_value(m, e);
        if (ts_node_eq(v, e))
            return e;
        e = v;
    }
    return e;
}

/* Does the expression list a directory (os.listdir, scandir, os.walk, glob,
 * Path.iterdir/glob/rglob)? */
static int is_listing(lf_pysem *m, TSNode e) {
    e = follow(m, e);
    if (!lf_tree_is(e, "call"))
        return 0;
    if (lf_pysem_call_is(m, e, k_listings))
        return 1;
    TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
    if (!lf_tree_is(fn, "attribute"))
        return 0;
    for (size_t i = 0; k_listing_methods[i]; i++)
        if (lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), k_listing_methods[i]))
            return 1;
    return 0;
}

/* Is the name an entry just found on disk: the variable of a loop over a
 * listing (`for p in glob(...)`, `for name in os.listdir(d)`, `for f in files`
 * with `files` from `os.walk`), or a comprehension over one? */
static int found_on_disk(lf_pysem *m, TSNode e) {
    for (int hops = 0; hops < 4 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(e, "attribute"), "path"))
            e = lf_tree_unparen(lf_tree_field(e, "object")); /* a DirEntry's .path */
        if (!lf_tree_is(e, "identifier"))
            return 0;
        char *name = lf_tree_text(m->src, e);
        const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
        free(name);
        if (!b)
            return 0;
        if (b->kind == LF_PYBIND_ASSIGN || b->kind == LF_PYBIND_WALRUS) {
            TSNode v = follow(m, b->value);
            if (ts_node_is_null(v) || ts_node_eq(v, e))
                return 0;
            e = v;
            continue;
        }
        if (b->kind != LF_PYBIND_FOR)
            return 0;
        TSNode iter = b->value;
        if (ts_node_is_null(iter) && b->stmt >= 0 && lf_tree_is(m->stmts[b->stmt].node, "for_statement"))
            iter = lf_tree_field(m->stmts[b->stmt].node, "right"); /* unpacked: `for d, _, files in os.walk(t)` */
        if (ts_node_is_null(iter))
            return 0;
        if (is_listing(m, iter))
            return 1;
        e = iter; /* `for f in files`, files bound by an outer loop over os.walk */
    }
    return 0;
}

/* Evidence that the resolved path may not exist: it names a child built from
 * a directory and a name (`os.path.join(d, name)`, `d / name`, `d + os.sep +
 * name`, `d.joinpath(name)`) or computed by a helper (`path_for(key)`), the
 * shapes of a path about to be created or looked up by a name from outside. A
 * path handed in whole (a parameter, a field) or an entry just listed from
 * disk gives none: realpath() of an existing file resolves it fully on every
 * platform. */
static int may_be_missing(lf_pysem *m, TSNode target) {
    if (!m)
        return 1;
    TSNode e = follow(m, target);
    TSNode name = {0};
    if (lf_tree_is(e, "call") && lf_pysem_call_is(m, e, k_joins) && lf_py_call_nargs(e) >= 2) {
        lf_py_call_arg(e, (uint32_t)lf_py_call_nargs(e) - 1, &name);
    } else if (lf_tree_is(e, "binary_operator")) {
        TSNode op = lf_tree_field(e, "operator");
        if (!lf_tree_is(op, "/") && !lf_tree_is(op, "+"))
            return 0;
        name = lf_tree_field(e, "right");
    } else if (lf_tree_is(e, "call")) {
        TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
        if (!lf_tree_is(fn, "attribute") || !lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "joinpath") ||
            !lf_py_call_arg(e, (uint32_t)lf_py_call_nargs(e) - 1, &name))
            return !is_listing(m, e); /* computed by a helper (`_state_file(name)`): it may name a new file */
    } else {
        return 0;
    }
    return !found_on_disk(m, name);
}

/* Is this resolving call the target side of a confinement check, unguarded? */
static int flags_call(lf_pysem *m, const lf_source *src, TSNode root, TSNode call, TSNode target) {
    target = lf_py_unwrap_path(src, target);
    TSNode scope = lf_py_scope(call);
    if (guarded_by_existence(src, call, target, scope) || !may_be_missing(m, target))
        return 0;
    if (compared_as_target(m, src, call, scope, root))
        return 1;
    /* real = realpath(p) ... real.startswith(real_dir) */
    TSNode p = ts_node_parent(call);
    if (!ts_node_is_null(p) && strcmp(ts_node_type(p), "assignment") == 0) {
        TSNode left = ts_node_child_by_field_name(p, "left", 4);
        if (!ts_node_is_null(left) && strcmp(ts_node_type(left), "identifier") == 0) {
            uses_ctx u = {m, src, left, call, scope, root, 0};
            lf_py_walk(scope, "identifier", 1, visit_use, &u);
            return u.found;
        }
    }
    return 0;
}

/* Python's non-strict realpath()/resolve() resolves the directories above a
 * missing file (POSIX; Windows since 3.8), so "may not exist yet" alone does
 * not break a confinement guard. What does is a file other processes are
 * replacing at that moment: on Windows a file mid-`os.replace` cannot be
 * opened, realpath() returns it unresolved, and a guard over a symlinked or
 * junctioned directory rejects it. So the resolved file must be one the module
 * replaces whole (a rename's destination) or deletes: the target itself, or
 * the path returned by the function that holds the guard (`_state_file(name)`
 * checked there, then `os.replace(tmp, _state_file(name))` elsewhere). */
static int replaced_or_deleted(lf_pysem *m, TSNode call, TSNode target) {
    const unsigned gone = LF_LOCK_REPLACED | LF_LOCK_REMOVED;
    lf_pylock *l = lf_pylock_build(m);
    if (lf_pylock_flags_of(l, target) & gone)
        return 1;
    int32_t s = lf_pysem_scope_of(m, call);
    while (s >= 0 && m->scopes[s].kind != LF_PYSCOPE_FUNCTION)
        s = m->scopes[s].parent;
    for (size_t i = 0; s >= 0 && i < l->n_keys; i++)
        if (l->keys[i].key.kind == LF_PKEY_CALL && l->keys[i].key.scope == s && (l->keys[i].flags & gone))
            return 1;
    return 0;
}

/* Does the module import a POSIX-only module unconditionally, at its top level
 * and outside any try or if (`import fcntl`)? Then it never runs on Windows,
 * the only platform where the failure above happens. */
static int posix_only_module(const lf_pysem *m) {
    static const char *const posix[] = {"fcntl", "pwd", "grp", "termios", "resource", "posix", NULL};
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || b->scope != 0 || b->stmt < 0 || !b->qualname ||
            m->stmts[b->stmt].parent != -1)
            continue;
        for (size_t k = 0; posix[k]; k++) {
            size_t n = strlen(posix[k]);
            if (!strncmp(b->qualname, posix[k], n) && (b->qualname[n] == '\0' || b->qualname[n] == '.'))
                return 1;
        }
    }
    return 0;
}

static char *python_message(const lf_source *src, TSNode call) {
    char *text = lf_node_text(src, call);
    char *msg = lf_xasprintf(
        "%s resolves a file this module replaces (a temp renamed onto it) or deletes: on Windows, while another "
        "process is replacing it the file cannot be opened and realpath() returns the path unresolved, so when the "
        "directory is reached through a symlink or junction the confinement check rejects a legitimate file and "
        "the call fails (Windows only: on Linux and macOS realpath() resolves the directories above a missing file)",
        text);
    free(text);
    return msg;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf201_ts_run(ctx);
        return;
    }
    const lf_source *src = lf_ctx_source(ctx);
    TSNode root = lf_ctx_root(ctx);
    lf_pysem *m = src->lang == LF_LANG_PYTHON ? lf_ctx_pysem(ctx) : NULL;
    if (m && posix_only_module(m))
        return; /* never imported on Windows: the failure cannot happen */
    for (size_t i = 0; i < lf_ctx_match_count(ctx); i++) {
        TSNode call, target;
        if (!lf_ctx_capture(ctx, i, "real", &call) || !lf_ctx_capture(ctx, i, "target", &target))
            continue;
        if (!is_resolve_call(m, src, call) || !flags_call(m, src, root, call, target))
            continue;
        if (!m) {
            lf_ctx_emit_match_site(ctx, call, i, make_site(m, src, call), lf201_site_free);
            lf_ctx_witness(ctx, lf_wit_missing_target(src, call, 0));
        } else if (replaced_or_deleted(m, call, lf_py_unwrap_path(src, target))) {
            char *msg = python_message(src, call);
            lf_ctx_emit_site(ctx, call, msg, make_site(m, src, call), lf201_site_free);
            lf_ctx_witness(ctx, lf_wit_missing_target_py(m, call, lf_py_unwrap_path(src, target)));
            free(msg);
        }
    }
    /* realpath under another name (`from os.path import realpath as real`,
     * `rp = os.path.realpath`), which the query cannot spell. */
    for (size_t i = 0; m && i < m->n_calls; i++) {
        TSNode call = m->calls[i].node, name, target;
        if (!lf_pysem_call_is(m, call, k_realpath) || !lf_py_call_name(call, &name) ||
            lf_tree_text_eq(src, name, "realpath") || all_args(call) != 1 || !lf_py_call_arg(call, 0, &target))
            continue;
        if (flags_call(m, src, root, call, target) && replaced_or_deleted(m, call, lf_py_unwrap_path(src, target))) {
            char *msg = python_message(src, call);
            lf_ctx_emit_site(ctx, call, msg, make_site(m, src, call), lf201_site_free);
            lf_ctx_witness(ctx, lf_wit_missing_target_py(m, call, lf_py_unwrap_path(src, target)));
            free(msg);
        }
    }
}

/* ---- the gate (Python): could a resolved file be one the module replaces? ----
 *
 * A Python finding needs the resolved file to be replaced whole or deleted
 * by the module (replaced_or_deleted: a rename's destination, a removal), so
 * a file where lf_pygate_may_remove finds no removal or rename is skipped;
 * and so is one that imports a POSIX-only module at its top level
 * (posix_only_module), spelled `import fcntl` or `from fcntl import ...` at
 * the start of a line: a statement at column 0 is neither in a try nor in
 * an if. */
static int posix_only_text(const char *m, size_t n) {
    static const char *const posix[] = {"fcntl", "pwd", "grp", "termios", "resource", "posix", NULL};
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(m + i, '\n', n - i);
        size_t next = nl ? (size_t)(nl - m) + 1 : n, k = i;
        if (n - i > 7 && !memcmp(m + i, "import ", 7))
            k = i + 7;
        else if (n - i > 5 && !memcmp(m + i, "from ", 5))
            k = i + 5;
        if (k != i) {
            while (k < n && m[k] == ' ')
                k++;
            size_t e = k;
            while (e < n && lf_pygate_ident_byte((unsigned char)m[e]))
                e++;
            /* the first module named, whole or as a package: `import fcntl`, `from fcntl import x`, `import posix.x` */
            if (e < n && (m[e] == '\n' || m[e] == ' ' || m[e] == '.' || m[e] == ',' || m[e] == '\r' || m[e] == ';'))
                for (size_t p = 0; posix[p]; p++)
                    if (strlen(posix[p]) == e - k && !memcmp(m + k, posix[p], e - k))
                        return 1;
        }
        i = next;
    }
    return 0;
}

static int gate(lf_gate_text *in) {
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    if (mk->m && mk->balanced && posix_only_text(mk->m, in->len))
        return 0;
    return lf_pygate_may_remove(in);
}

const lf_check lf201_realpath_missing_check = {"lf201_realpath_missing", run,
                                              LF_LANG_BIT(LF_LANG_PYTHON) | LF_LANG_BIT(LF_LANG_TYPESCRIPT) |
                                                  LF_LANG_BIT(LF_LANG_TSX),
                                              0, gate};
