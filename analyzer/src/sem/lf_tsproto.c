/* lf_tsproto: a module's own lock protocol (TS/JS); see lf_tsproto.h. */
#include "lf_tsproto.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_util.h"

/* ---- small readings of the tree ---- */

static TSNode parent(TSNode n) { return ts_node_is_null(n) ? n : ts_node_parent(n); }

static int within(TSNode inner, TSNode outer) {
    return !ts_node_is_null(inner) && !ts_node_is_null(outer) &&
           ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

static unsigned line_of(TSNode n) { return ts_node_start_point(n).row + 1; }

/* `await X`, `(X)` -> X */
static TSNode bare(TSNode n) {
    for (;;) {
        n = lf_tssem_unwrap(n);
        if (lf_tree_is(n, "await_expression"))
            n = ts_node_named_child(n, 0);
        else
            return n;
    }
}

/* A call chained with `.catch(...)`, `.then(...)`, `.finally(...)`: the call
 * it chains on (`await fsp.unlink(P).catch(() => {})` -> `fsp.unlink(P)`). */
static TSNode unchain(const lf_source *src, TSNode n) {
    n = bare(n);
    for (int steps = 0; steps < 8 && lf_tree_is(n, "call_expression"); steps++) {
        TSNode f = lf_tree_field(n, "function");
        TSNode prop = lf_tree_is(f, "member_expression") ? lf_tree_field(f, "property") : (TSNode){0};
        if (ts_node_is_null(prop) ||
            !(lf_tree_text_eq(src, prop, "catch") || lf_tree_text_eq(src, prop, "then") ||
              lf_tree_text_eq(src, prop, "finally")))
            break;
        n = bare(lf_tree_field(f, "object"));
    }
    return n;
}

static int is_now(lf_tssem *m, TSNode n) {
    n = bare(n);
    const char *q = lf_tree_is(n, "call_expression") ? lf_tssem_callee(m, n) : NULL;
    return q && !strcmp(q, "Date.now");
}

static int is_fn_node(TSNode n) {
    return lf_tree_is(n, "function_declaration") || lf_tree_is(n, "function_expression") ||
           lf_tree_is(n, "function") || lf_tree_is(n, "arrow_function") || lf_tree_is(n, "method_definition") ||
           lf_tree_is(n, "generator_function_declaration");
}

/* The innermost function node around n (null at module level). */
static TSNode fn_around(TSNode n) {
    for (TSNode p = parent(n); !ts_node_is_null(p); p = parent(p))
        if (is_fn_node(p))
            return p;
    return (TSNode){0};
}

static int is_async(TSNode fn) {
    uint32_t k = ts_node_child_count(fn);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_child(fn, i);
        if (lf_tree_is(c, "async"))
            return 1;
        if (ts_node_is_named(c))
            break;
    }
    return 0;
}

/* The statement holding n whose parent is a statement block (or null). */
static TSNode stmt_in_block(TSNode n) {
    for (TSNode p = n; !ts_node_is_null(p); p = parent(p)) {
        TSNode pp = parent(p);
        if (lf_tree_is(pp, "statement_block"))
            return p;
        if (is_fn_node(pp) || lf_tree_is(pp, "program"))
            return (TSNode){0};
    }
    return (TSNode){0};
}

/* A name bound in `block`'s own statements before `before` by `const N = V`
 * (the one declarator of its declaration): V, else null. */
static TSNode const_value(const lf_source *src, TSNode block, TSNode before, TSNode name) {
    TSNode hit = {0};
    for (TSNode s = ts_node_named_child(block, 0); !ts_node_is_null(s) && !ts_node_eq(s, before);
         s = ts_node_next_named_sibling(s)) {
        if (!lf_tree_is(s, "lexical_declaration") || ts_node_named_child_count(s) != 1)
            continue;
        TSNode d = ts_node_named_child(s, 0);
        if (lf_tree_is(d, "variable_declarator") && lf_tree_same_text(src, lf_tree_field(d, "name"), name))
            hit = lf_tree_field(d, "value");
    }
    return hit;
}

/* ---- the protocol ---- */

typedef struct recog {
    lf_tssem *m;
    lf_tslock *l;
    lf_tsproto *p;
    TSNode try_stmt;
    TSNode handle; /* the name the create's result is bound to, or null */
    int no_loop;   /* the create is not a statement of a try in a retry loop */
    /* the module's functions the wait calls, to be checked like the wait
     * itself (a worklist: no recursion through the helpers' calls) */
    LF_VEC(struct pending_helper { int32_t fn; int depth; }) pending;
} recog;

static void decline(lf_tsproto *p, char *why) {
    if (!p->decline)
        p->decline = why;
    else
        free(why);
}

/* `h.close()` (awaited, chained with .catch) of the create's handle. */
static int closes_handle(recog *r, TSNode stmt) {
    if (ts_node_is_null(r->handle) || !lf_tree_is(stmt, "expression_statement"))
        return 0;
    TSNode c = unchain(r->m->src, ts_node_named_child(stmt, 0));
    TSNode f = lf_tree_is(c, "call_expression") ? lf_tree_field(c, "function") : (TSNode){0};
    if (!lf_tree_is(f, "member_expression") || !lf_tree_text_eq(r->m->src, lf_tree_field(f, "property"), "close"))
        return 0;
    TSNode obj = lf_tree_field(f, "object");
    if (lf_tree_is(obj, "optional_chain"))
        return 0;
    return lf_tree_same_text(r->m->src, lf_tssem_unwrap(obj), r->handle);
}

static int pure_decl(recog *r, TSNode s);

/* An owner record written right after the create: `h.writeFile(...)`,
 * `h.write(...)`, `fs.writeSync(h, ...)`, a plain writeFile of the lock, or
 * a `try { ...declarations...; <one of those> } catch {}` around it. */
static int writes_owner_call(recog *r, TSNode stmt);

/* The calls that name a file of a lock directory: `path.join(LOCK, "info")`. */
static const char *const k_dir_joins[] = {"path.join", "path.resolve", "node:path.join", "node:path.resolve", NULL};

/* Is `a` a file of the lock directory itself: `path.join(LOCK, "info")`, a
 * literal name under the lock's path (a directory lock's owner record)? */
static int in_lock_dir(recog *r, TSNode a) {
    if (!r->p->dir)
        return 0;
    TSNode c = lf_tssem_unwrap(a);
    if (lf_tree_is(c, "identifier")) /* `const infoPath = path.join(lockPath, "info")` */
        c = lf_tssem_unwrap(lf_tssem_resolve_value(r->m, c));
    const char *q = lf_tree_is(c, "call_expression") ? lf_tssem_callee(r->m, c) : NULL;
    if (!q || !lf_str_in_list(q, k_dir_joins) || lf_tssem_nargs(c) != 2 ||
        lf_tslock_key_index(r->l, lf_tssem_arg(c, 0)) != r->p->key)
        return 0;
    TSNode name = lf_tssem_unwrap(lf_tssem_arg(c, 1));
    if (!lf_tree_is(name, "string"))
        return 0;
    char *t = lf_tree_text(r->m->src, name);
    int plain = strchr(t, '/') == NULL && strchr(t, '\\') == NULL && strcmp(t + 1, ".\"") && strcmp(t + 1, "..\"") &&
                strcmp(t + 1, ".'") && strcmp(t + 1, "..'");
    free(t);
    return plain;
}

static int writes_owner(recog *r, TSNode stmt) {
    if (!lf_tree_is(stmt, "try_statement"))
        return writes_owner_call(r, stmt);
    if (!ts_node_is_null(lf_tree_field(stmt, "finalizer")))
        return 0;
    TSNode body = lf_tree_field(stmt, "body");
    int writes = 0;
    for (TSNode s = ts_node_named_child(body, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (writes_owner_call(r, s))
            writes++;
        else if (!lf_tree_is(s, "lexical_declaration") || !pure_decl(r, s))
            return 0;
    }
    return writes == 1;
}

/* One statement writing the owner record (no try around it). */
static int writes_owner_call(recog *r, TSNode stmt) {
    const lf_source *src = r->m->src;
    if (!lf_tree_is(stmt, "expression_statement"))
        return 0;
    TSNode c = unchain(src, ts_node_named_child(stmt, 0));
    if (!lf_tree_is(c, "call_expression"))
        return 0;
    TSNode f = lf_tree_field(c, "function");
    if (!ts_node_is_null(r->handle) && lf_tree_is(f, "member_expression") &&
        lf_tree_same_text(src, lf_tssem_unwrap(lf_tree_field(f, "object")), r->handle) &&
        (lf_tree_text_eq(src, lf_tree_field(f, "property"), "writeFile") ||
         lf_tree_text_eq(src, lf_tree_field(f, "property"), "write")))
        return 1;
    const char *op = lf_tslock_fs_op(r->m, c);
    if (op && !strcmp(op, "write") && !ts_node_is_null(r->handle) &&
        lf_tree_same_text(src, lf_tssem_unwrap(lf_tssem_arg(c, 0)), r->handle))
        return 1;
    return op && !strcmp(op, "writeFile") &&
           (lf_tslock_key_index(r->l, lf_tssem_arg(c, 0)) == r->p->key || in_lock_dir(r, lf_tssem_arg(c, 0))) &&
           !lf_tree_mentions(src, c, "wx", NULL);
}

/* Is the remove call `c` a removal of the lock (an fs removal the model
 * records, or the release lockrt.cjs's LF301 fix left: unlinkOwned ...)? */
static int removes_lock(recog *r, TSNode c) {
    if (!lf_tree_is(c, "call_expression") || lf_tslock_key_index(r->l, lf_tssem_arg(c, 0)) != r->p->key)
        return 0;
    const char *op = lf_tslock_fs_op(r->m, c);
    if (op && (!strcmp(op, "unlink") || !strcmp(op, "rm") || !strcmp(op, "rmdir") || !strcmp(op, "remove")))
        return 1;
    const char *q = lf_tssem_callee(r->m, c);
    static const char *const owned[] = {"unlinkOwnedSync", "unlinkOwned", "rmOwnedSync", "rmOwned",
                                        "releaseIfOwnedSync", "releaseIfOwned", NULL};
    for (size_t i = 0; q && !strncmp(q, "./lockrt.cjs.", 13) && owned[i]; i++)
        if (!strcmp(q + 13, owned[i]))
            return 1;
    return 0;
}

static lf_walk_action visit_held(TSNode n, void *ud) {
    recog *r = ud;
    const lf_source *src = r->m->src;
    if (lf_tree_is(n, "expression_statement")) {
        if (closes_handle(r, n)) {
            LF_VEC_PUSH(&r->p->drops, n);
            return LF_WALK_SKIP;
        }
        TSNode c = unchain(src, ts_node_named_child(n, 0));
        if (removes_lock(r, c)) {
            if (!lf_tree_is(parent(n), "statement_block")) {
                decline(r->p, lf_xasprintf("the release at line %u is one branch of a statement, not a statement "
                                           "of its own",
                                           line_of(n)));
                return LF_WALK_STOP;
            }
            LF_VEC_PUSH(&r->p->releases, n);
            return LF_WALK_SKIP;
        }
    }
    if (lf_tree_is(n, "continue_statement") || lf_tree_is(n, "break_statement")) {
        /* one aimed at the retry loop (no loop, switch or function of the
         * held code's own in between) would have no loop once it moves */
        TSNode q = parent(n);
        while (!ts_node_is_null(q) && !ts_node_eq(q, r->p->loop) && !is_fn_node(q) &&
               !lf_tree_is(q, "for_statement") && !lf_tree_is(q, "for_in_statement") &&
               !lf_tree_is(q, "while_statement") && !lf_tree_is(q, "do_statement") &&
               !(lf_tree_is(n, "break_statement") && lf_tree_is(q, "switch_statement")))
            q = parent(q);
        if (ts_node_eq(q, r->p->loop) || !ts_node_is_null(lf_tree_field(n, "label"))) {
            decline(r->p, lf_xasprintf("the held code goes round the retry loop again or leaves it at line %u",
                                       line_of(n)));
            return LF_WALK_STOP;
        }
    }
    if (lf_tree_is(n, "identifier") && !ts_node_is_null(r->handle) && lf_tree_same_text(src, n, r->handle)) {
        char *t = lf_tree_text(src, n);
        decline(r->p, lf_xasprintf("the held code uses the create's handle `%s` at line %u: lockrt keeps its own",
                                   t, line_of(n)));
        free(t);
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "call_expression")) {
        const char *op = lf_tslock_fs_op(r->m, n);
        if (op && lf_tslock_key_index(r->l, lf_tssem_arg(n, 0)) == r->p->key) {
            decline(r->p, lf_xasprintf("the held code %s the lock itself at line %u (not only its release): "
                                       "lockrt's record would not be what it reads",
                                       op, line_of(n)));
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* Does the statement always leave (a return or throw last, or a try whose
 * block does)? */
static int always_leaves(TSNode s) {
    for (int steps = 0; steps < 8; steps++) {
        if (lf_tree_is(s, "return_statement") || lf_tree_is(s, "throw_statement"))
            return 1;
        if (lf_tree_is(s, "try_statement"))
            s = lf_tree_field(s, "body");
        if (!lf_tree_is(s, "statement_block"))
            return 0;
        uint32_t k = ts_node_named_child_count(s);
        if (!k)
            return 0;
        s = ts_node_named_child(s, k - 1);
    }
    return 0;
}

/* A lock the held code hands on (`return lockPath`) and the module releases
 * in a function of its own: only through lockrt's owned release (what
 * LF301's fix made of a release by name), which removes the lock only while
 * it is the file this process created, takeLock's included. A removal by
 * name of any lock the module's callers pass in keeps the swap out. */
static int released_owned(recog *r) {
    lf_tssem *m = r->m;
    int owned = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        const char *q = m->calls[i].callee;
        owned |= q && (!strcmp(q, "./lockrt.cjs.unlinkOwned") || !strcmp(q, "./lockrt.cjs.unlinkOwnedSync") ||
                       !strcmp(q, "./lockrt.cjs.rmOwned") || !strcmp(q, "./lockrt.cjs.rmOwnedSync") ||
                       !strcmp(q, "./lockrt.cjs.releaseIfOwned") || !strcmp(q, "./lockrt.cjs.releaseIfOwnedSync"));
    }
    for (size_t i = 0; i < r->l->n_events && owned; i++) {
        const lf_tslock_event *e = &r->l->events[i];
        if (e->kind == LF_TSEV_REMOVE && !within(e->node, r->p->loop) && e->key >= 0 &&
            (e->key == r->p->key || (r->l->keys[e->key].flags & LF_TSLOCK_ARG)))
            return 0;
    }
    return owned;
}

/* The held code: the statements of the create's try block after the create
 * and the owner record it writes. */
static void read_held(recog *r, TSNode create_stmt) {
    lf_tsproto *p = r->p;
    TSNode s = ts_node_next_named_sibling(create_stmt);
    while (!ts_node_is_null(s) && (writes_owner(r, s) || closes_handle(r, s) || lf_tree_is(s, "comment"))) {
        if (!lf_tree_is(s, "comment"))
            LF_VEC_PUSH(&p->drops, s);
        s = ts_node_next_named_sibling(s);
    }
    if (ts_node_is_null(s)) {
        decline(p, lf_xasprintf("the create's try block holds nothing after the create: the lock is held past the "
                                "loop, which the swap does not follow"));
        return;
    }
    p->held_first = s;
    TSNode last = s;
    for (TSNode x = s; !ts_node_is_null(x); x = ts_node_next_named_sibling(x))
        last = x;
    p->held_last = last;
    if (!always_leaves(last)) {
        decline(p, lf_xasprintf("the held code (line %u) does not always leave with a return or throw: the loop "
                                "would go round again holding the lock",
                                line_of(s)));
        return;
    }
    for (TSNode x = s; !ts_node_is_null(x) && !p->decline; x = ts_node_next_named_sibling(x))
        lf_tree_walk(x, visit_held, r);
    if (!p->decline && p->releases.len == 0 && !released_owned(r))
        decline(p, lf_xasprintf("the held code releases the lock nowhere the swap can see (a helper, another "
                                "module, the caller)"));
}

/* Is `v` the value of a deadline, `Date.now() + T`? */
static int deadline_value(lf_tssem *m, TSNode v) {
    return lf_tree_is(v, "binary_expression") && lf_tree_text_eq(m->src, lf_tree_field(v, "operator"), "+") &&
           is_now(m, lf_tree_field(v, "left"));
}

/* A test of the wait's bound: `Date.now() >= D` (D a const of `Date.now() +
 * T`) or `Date.now() - S > T` (S a const of `Date.now()`), bound in the
 * function's body before the loop, in either order. 1: true once the
 * deadline has passed; -1: true while it has not; 0: no such test. */
static int deadline_test(recog *r, TSNode c, TSNode *deadline, TSNode *start, TSNode *limit) {
    lf_tssem *m = r->m;
    const lf_source *src = m->src;
    c = bare(c);
    if (!lf_tree_is(c, "binary_expression"))
        return 0;
    TSNode op = lf_tree_field(c, "operator");
    TSNode left = bare(lf_tree_field(c, "left")), right = bare(lf_tree_field(c, "right"));
    int gt = lf_tree_text_eq(src, op, ">") || lf_tree_text_eq(src, op, ">=");
    int lt = lf_tree_text_eq(src, op, "<") || lf_tree_text_eq(src, op, "<=");
    if (!gt && !lt)
        return 0;
    TSNode body = lf_tree_field(r->p->fn, "body");
    for (int side = 0; side < 2; side++) {
        TSNode now = side ? right : left, other = side ? left : right;
        /* the now side larger: the deadline has passed */
        int passed = side ? lt : gt;
        if (is_now(m, now) && lf_tree_is(other, "identifier") &&
            deadline_value(m, const_value(src, body, r->p->loop, other))) {
            *deadline = other;
            return passed ? 1 : -1;
        }
        if (lf_tree_is(now, "binary_expression") && lf_tree_text_eq(src, lf_tree_field(now, "operator"), "-") &&
            is_now(m, lf_tree_field(now, "left")) && lf_tree_is(lf_tree_field(now, "right"), "identifier") &&
            is_now(m, const_value(src, body, r->p->loop, lf_tree_field(now, "right")))) {
            *start = lf_tree_field(now, "right");
            *limit = other;
            return passed ? 1 : -1;
        }
    }
    return 0;
}

/* ---- the wait: what runs when the create fails ---- */

typedef struct wait_walk {
    recog *r;
    TSNode loop;
    int tests;
    int rethrows; /* the create's catch rethrows its error (the failures other than EEXIST) */ /* deadline tests seen */
    TSNode timeout_if;
} wait_walk;

static const char *const k_pure_calls[] = {
    "Date.now", "Math.min", "Math.max", "Math.random", "Math.floor", "Math.ceil", "Math.round", "Math.pow",
    "Number", "String", "Boolean", "parseInt", "parseFloat", "isNaN", "Number.isNaN", "Number.isInteger",
    "Number.isFinite", "Number.isSafeInteger", "JSON.parse", "JSON.stringify", "setTimeout", "Atomics.wait",
    "Date.parse", "Array.isArray", "Object.keys", "path.join", "path.resolve", "node:path.join",
    "node:path.resolve", NULL};

static int pure_call(const char *q) {
    for (size_t i = 0; q && k_pure_calls[i]; i++)
        if (!strcmp(q, k_pure_calls[i]))
            return 1;
    return 0;
}

/* Is the call one the wait may make: a look at or removal of the lock, a
 * probe, a sleep, a pure computation, a string or error method, or one of
 * the module's functions that makes only such calls? */
static int wait_call_ok(recog *r, TSNode c, int depth, int32_t helper, TSNode *why_at) {
    const lf_source *src = r->m->src;
    lf_tssem *m = r->m;
    const char *q = lf_tssem_callee(m, c);
    TSNode callee = lf_tree_field(c, "function");
    char *spelled = !q && (lf_tree_is(callee, "identifier") || lf_tree_is(callee, "member_expression"))
                        ? lf_tree_text(src, callee)
                        : NULL;
    int pure = pure_call(q ? q : spelled) && (q || lf_tssem_local_callee(m, c) <= 0);
    free(spelled);
    if (pure)
        return 1;
    if (q && !strcmp(q, "process.kill")) /* a probe: signal 0 */
        return lf_tssem_nargs(c) == 2 && lf_tree_text_eq(src, lf_tssem_arg(c, 1), "0");
    const char *op = lf_tslock_fs_op(m, c);
    if (op) {
        static const char *const looks[] = {"stat", "lstat", "readFile", "readJson", "exists", "access", "unlink",
                                            "rm", "rmdir", "remove", "pathExists", NULL};
        int look = 0;
        for (size_t i = 0; looks[i] && !look; i++)
            look = !strcmp(op, looks[i]);
        TSNode a = lf_tssem_arg(c, 0);
        int on_lock = helper > 0 ? lf_tree_is(lf_tssem_unwrap(a), "identifier") /* the helper's parameter */
                                 : lf_tslock_key_index(r->l, a) == r->p->key;
        /* a directory lock's owner record: read and judged by the wait */
        if (look && !on_lock && helper <= 0 && in_lock_dir(r, a) &&
            (!strcmp(op, "readFile") || !strcmp(op, "stat") || !strcmp(op, "lstat") || !strcmp(op, "exists")))
            return 1;
        if (look && on_lock)
            return 1;
        *why_at = c;
        return 0;
    }
    if (q && !strncmp(q, "./lockrt.cjs.", 13)) /* the judged drop-ins LF301's fix left */
        return 1;
    TSNode f = lf_tree_field(c, "function");
    if (lf_tree_is(f, "member_expression")) {
        TSNode prop = lf_tree_field(f, "property");
        static const char *const methods[] = {"catch", "then", "split", "trim", "startsWith", "endsWith",
                                              "includes", "toString", "getTime", "test", "slice", "toISOString",
                                              "padStart", "toFixed", "trimEnd", NULL};
        for (size_t i = 0; methods[i]; i++)
            if (lf_tree_text_eq(src, prop, methods[i]))
                return 1;
    }
    int32_t h = lf_tssem_local_callee(m, c);
    if (h > 0 && depth < 3) {
        /* checked later, as the wait's own calls are (helpers_ok) */
        for (size_t i = 0; i < r->pending.len; i++)
            if (r->pending.items[i].fn == h)
                return 1;
        struct pending_helper ph = {h, depth + 1};
        LF_VEC_PUSH(&r->pending, ph);
        return 1;
    }
    *why_at = c;
    return 0;
}

typedef struct call_walk {
    recog *r;
    int depth;
    int32_t helper;
    int ok;
    TSNode bad;
} call_walk;

static lf_walk_action visit_calls(TSNode n, void *ud) {
    call_walk *w = ud;
    if (lf_tree_is(n, "call_expression") && !wait_call_ok(w->r, n, w->depth, w->helper, &w->bad)) {
        w->ok = 0;
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "new_expression")) {
        TSNode ctor = lf_tree_field(n, "constructor");
        if (!lf_tree_text_eq(w->r->m->src, ctor, "Promise") && !lf_tree_text_eq(w->r->m->src, ctor, "Error") &&
            !lf_tree_text_eq(w->r->m->src, ctor, "Date") &&
            !lf_tree_text_eq(w->r->m->src, ctor, "Int32Array") &&
            !lf_tree_text_eq(w->r->m->src, ctor, "SharedArrayBuffer")) {
            w->ok = 0;
            w->bad = n;
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

static int pure_decl(recog *r, TSNode s) {
    call_walk w = {.r = r, .ok = 1};
    lf_tree_walk(s, visit_calls, &w);
    return w.ok;
}

/* Every helper the wait calls (and the helpers they call, three deep)
 * makes only calls the wait may make: null, or the first call that is not. */
static TSNode helpers_ok(recog *r) {
    for (size_t i = 0; i < r->pending.len; i++) {
        struct pending_helper ph = r->pending.items[i];
        TSNode fn = r->m->scopes[ph.fn].node;
        TSNode body = lf_tree_field(fn, "body");
        if (ts_node_is_null(body))
            return fn;
        call_walk w = {.r = r, .depth = ph.depth, .helper = ph.fn, .ok = 1};
        lf_tree_walk(body, visit_calls, &w);
        if (!w.ok)
            return w.bad;
    }
    return (TSNode){0};
}

/* The module's functions the wait calls: candidates for removal once the
 * wait is gone (the swap keeps any still referenced elsewhere). */
static lf_walk_action collect_helpers(TSNode n, void *ud) {
    recog *r = ud;
    if (!lf_tree_is(n, "call_expression"))
        return LF_WALK_CONTINUE;
    int32_t h = lf_tssem_local_callee(r->m, n);
    if (h <= 0 || r->m->scopes[h].parent != 0 || !lf_tree_is(r->m->scopes[h].node, "function_declaration"))
        return LF_WALK_CONTINUE;
    for (size_t i = 0; i < r->p->helpers.len; i++)
        if (ts_node_eq(r->p->helpers.items[i], r->m->scopes[h].node))
            return LF_WALK_CONTINUE;
    LF_VEC_PUSH(&r->p->helpers, r->m->scopes[h].node); /* its own calls: see recognise */
    return LF_WALK_CONTINUE;
}

static void wait_declines(recog *r, TSNode bad) {
    TSNode f = lf_tree_field(bad, "function");
    char *t = lf_tree_text(r->m->src, ts_node_is_null(f) ? bad : f);
    if (strlen(t) > 60)
        t[60] = '\0';
    decline(r->p, lf_xasprintf("the wait does more than judge the lock, break it and sleep: `%s` at line %u would "
                               "be dropped with it",
                               t, line_of(bad)));
    free(t);
}

static lf_walk_action visit_wait(TSNode n, void *ud) {
    wait_walk *w = ud;
    recog *r = w->r;
    const lf_source *src = r->m->src;
    if (is_fn_node(n)) {
        /* a callback's own returns and throws are its own (`new Promise(r =>
         * ...)`, `.catch(e => { ... throw e })`); its calls are the wait's */
        call_walk cw = {.r = r, .ok = 1};
        lf_tree_walk(n, visit_calls, &cw);
        if (!cw.ok) {
            wait_declines(r, cw.bad);
            return LF_WALK_STOP;
        }
        return LF_WALK_SKIP;
    }
    if (lf_tree_is(n, "break_statement") || lf_tree_is(n, "return_statement")) {
        if (!ts_node_is_null(w->timeout_if) && within(n, w->timeout_if))
            return LF_WALK_CONTINUE;
        decline(r->p, lf_xasprintf("the wait leaves the loop without the lock at line %u, other than at its "
                                   "deadline",
                                   line_of(n)));
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "throw_statement")) {
        if (!ts_node_is_null(w->timeout_if) && within(n, w->timeout_if))
            return LF_WALK_CONTINUE;
        /* a failure rethrown from a catch clause (the create's other than
         * EEXIST, a look at the lock's other than ENOENT): lockrt's wait
         * throws those too */
        TSNode v = lf_tssem_unwrap(ts_node_named_child(n, 0));
        for (TSNode c = parent(n); !ts_node_is_null(c) && !ts_node_eq(c, w->loop); c = parent(c))
            if (lf_tree_is(c, "catch_clause")) {
                if (lf_tree_same_text(src, v, lf_tree_field(c, "parameter"))) {
                    if (ts_node_eq(c, lf_tree_field(r->try_stmt, "handler")))
                        w->rethrows = 1;
                    return LF_WALK_CONTINUE;
                }
                break;
            }
        decline(r->p, lf_xasprintf("the wait throws at line %u for another reason than its deadline",
                                   line_of(n)));
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "if_statement")) {
        TSNode d = {0}, s = {0}, lim = {0};
        if (deadline_test(r, lf_tree_field(n, "condition"), &d, &s, &lim) == 1) {
            w->tests++;
            TSNode cons = lf_tree_field(n, "consequence");
            if (w->tests > 1 || !ts_node_is_null(lf_tree_field(n, "alternative")) || !always_leaves(cons) ||
                lf_tree_is(cons, "expression_statement")) {
                decline(r->p, lf_xasprintf("the deadline test at line %u is not one `if` whose branch leaves",
                                           line_of(n)));
                return LF_WALK_STOP;
            }
            w->timeout_if = n;
            r->p->timeout_exit = cons;
            r->p->deadline = d;
            r->p->start = s;
            r->p->limit = lim;
        }
    }
    if (lf_tree_is(n, "call_expression") || lf_tree_is(n, "new_expression")) {
        call_walk cw = {.r = r, .ok = 1};
        visit_calls(n, &cw);
        if (!cw.ok) {
            wait_declines(r, cw.bad);
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* Names the timeout's outcome (or the code after the loop) uses that the
 * wait binds: what the old code read while waiting. */
static TSNode uses_wait_binding(recog *r, TSNode outcome, TSNode loop, uint32_t own_start, uint32_t own_end) {
    lf_tssem *m = r->m;
    TSNode hit = {0};
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, outcome);
    while (todo.len && ts_node_is_null(hit)) {
        TSNode n = todo.items[--todo.len];
        int going = 0; /* a statement the swap drops or replaces */
        for (size_t i = 0; i < r->p->drops.len && !going; i++)
            going = ts_node_eq(n, r->p->drops.items[i]);
        for (size_t i = 0; i < r->p->releases.len && !going; i++)
            going = ts_node_eq(n, r->p->releases.items[i]);
        if (going)
            continue;
        if (lf_tree_is(n, "identifier")) {
            uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
            const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
            const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), name, a);
            uint32_t t = bd ? ts_node_start_byte(bd->target) : 0;
            if (bd && within(bd->target, loop) && !within(bd->target, outcome) && !(t >= own_start && t < own_end))
                hit = n;
            continue;
        }
        for (uint32_t i = 0, k = ts_node_named_child_count(n); i < k; i++)
            LF_VEC_PUSH(&todo, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&todo);
    return hit;
}

/* Does the code that moves out of the loop (`first`, and with `siblings`
 * every statement after it) use a name the loop binds outside [own_start,
 * own_end)? Then the protocol is declined, naming `what` and `whose`. */
static int uses_loop_names(recog *r, TSNode first, int siblings, uint32_t own_start, uint32_t own_end,
                           const char *what, const char *whose) {
    for (TSNode s = first; !ts_node_is_null(s); s = siblings ? ts_node_next_named_sibling(s) : (TSNode){0}) {
        TSNode use = uses_wait_binding(r, s, r->p->loop, own_start, own_end);
        if (!ts_node_is_null(use)) {
            char *t = lf_tree_text(r->m->src, use);
            decline(r->p, lf_xasprintf("%s uses `%s` at line %u, %s", what, t, line_of(use), whose));
            free(t);
            return 1;
        }
    }
    return 0;
}

/* A call the held code makes as it runs (not in a function it only
 * defines, such as the release it returns): the first. */
static lf_walk_action visit_running_call(TSNode n, void *ud) {
    TSNode *call = ud;
    if (lf_tree_is(n, "arrow_function") || lf_tree_is(n, "function_expression") || lf_tree_is(n, "function"))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "call_expression") || lf_tree_is(n, "new_expression") || lf_tree_is(n, "await_expression")) {
        *call = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* A file of the lock directory named anywhere in the module but by the
 * owner-record write the swap drops and the wait's reads of it: the first. */
typedef struct dir_walk {
    recog *r;
    TSNode other;
} dir_walk;

static lf_walk_action visit_dir_files(TSNode n, void *ud) {
    dir_walk *w = ud;
    recog *r = w->r;
    lf_tsproto *p = r->p;
    if (!lf_tree_is(n, "call_expression"))
        return LF_WALK_CONTINUE;
    const char *q = lf_tssem_callee(r->m, n);
    if (!q || !lf_str_in_list(q, k_dir_joins) || lf_tssem_nargs(n) < 2 ||
        lf_tslock_key_index(r->l, lf_tssem_arg(n, 0)) != p->key)
        return LF_WALK_CONTINUE;
    for (size_t i = 0; i < p->drops.len; i++)
        if (within(n, p->drops.items[i]))
            return LF_WALK_CONTINUE;
    int in_held = ts_node_start_byte(n) >= ts_node_start_byte(p->held_first) &&
                  ts_node_end_byte(n) <= ts_node_end_byte(p->held_last);
    if (within(n, p->loop) && !in_held && in_lock_dir(r, n))
        return LF_WALK_CONTINUE; /* the wait reads the old record: it goes with the wait */
    w->other = n;
    return LF_WALK_STOP;
}

/* Every use of the lock in the module outside the protocol's function and the
 * wait's helpers: the first, or null. */
static TSNode used_elsewhere(recog *r) {
    lf_tslock *l = r->l;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->key != r->p->key || within(e->node, r->p->fn))
            continue;
        int in_helper = 0;
        for (size_t h = 0; h < r->p->helpers.len && !in_helper; h++)
            in_helper = within(e->node, r->p->helpers.items[h]);
        if (!in_helper)
            return e->node;
    }
    return (TSNode){0};
}

/* `for (;;)`: a clause that is absent or an empty statement. */
static int empty_clause(TSNode n) { return ts_node_is_null(n) || lf_tree_is(n, "empty_statement"); }

static void recognise(recog *r, const lf_tslock_event *ev) {
    lf_tsproto *p = r->p;
    lf_tslock *l = r->l;
    p->key = ev->key;
    p->create = ev->node;
    p->path = lf_tssem_arg(ev->node, 0);
    p->fn = fn_around(ev->node);
    p->async = is_async(p->fn);
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_CREATE && l->events[i].key == ev->key && !ts_node_eq(l->events[i].node, ev->node)) {
            decline(p, lf_xasprintf("the lock is created at line %u too", line_of(l->events[i].node)));
            return;
        }
    /* the create: a statement of the try block of a statement of the loop's
     * block, the loop a statement of the function's body */
    TSNode cs = stmt_in_block(ev->node);
    TSNode block = parent(cs), tr = parent(block);
    TSNode loop_block = parent(tr), loop = parent(loop_block);
    TSNode body = lf_tree_field(p->fn, "body");
    if (ts_node_is_null(cs) || !lf_tree_is(tr, "try_statement") || !ts_node_eq(lf_tree_field(tr, "body"), block) ||
        !lf_tree_is(loop_block, "statement_block") ||
        !(lf_tree_is(loop, "while_statement") || lf_tree_is(loop, "for_statement")) ||
        !ts_node_eq(lf_tree_field(loop, "body"), loop_block) || !ts_node_eq(parent(loop), body)) {
        r->no_loop = 1; /* no retry loop around the create: not a protocol the swap knows */
        return;
    }
    /* a lock directory stays one (lockrt's takeLockDir): old and new
     * processes still exclude each other through the same mkdir */
    p->dir = (l->keys[ev->key].flags & LF_TSLOCK_DIR) != 0;
    TSNode first = ts_node_named_child(block, 0);
    while (lf_tree_is(first, "comment"))
        first = ts_node_next_named_sibling(first);
    if (!ts_node_eq(first, cs)) {
        decline(p, lf_xasprintf("the create at line %u is not the first statement of its try block",
                                line_of(ev->node)));
        return;
    }
    if (!ts_node_is_null(lf_tree_field(tr, "finalizer"))) {
        decline(p, lf_xasprintf("the create's try (line %u) has a finally that runs on both ways out",
                                line_of(tr)));
        return;
    }
    p->loop = loop;
    r->try_stmt = tr;
    /* the create's result: `const h = await open(...)` */
    if (lf_tree_is(cs, "lexical_declaration") && ts_node_named_child_count(cs) == 1) {
        TSNode d = ts_node_named_child(cs, 0);
        if (lf_tree_is(lf_tree_field(d, "name"), "identifier") && ts_node_eq(bare(lf_tree_field(d, "value")), ev->node))
            r->handle = lf_tree_field(d, "name");
    }
    if (ts_node_is_null(r->handle) &&
        !(lf_tree_is(cs, "expression_statement") && ts_node_eq(bare(ts_node_named_child(cs, 0)), ev->node))) {
        decline(p, lf_xasprintf("the create at line %u keeps its result in a way the swap does not follow",
                                line_of(ev->node)));
        return;
    }
    /* the loop's bound */
    int after_loop = 0;
    if (lf_tree_is(loop, "while_statement")) {
        TSNode c = lf_tssem_unwrap(lf_tree_field(loop, "condition"));
        TSNode d = {0}, s = {0}, lim = {0};
        if (lf_tree_is(c, "true")) {
        } else if (deadline_test(r, c, &d, &s, &lim) == -1) {
            /* while (Date.now() < deadline), while (Date.now() - start < limit) */
            p->deadline = d;
            p->start = s;
            p->limit = lim;
            after_loop = 1;
        } else {
            decline(p, lf_xasprintf("the retry loop (line %u) is bounded by its condition in a way the swap does not "
                                    "map onto lockrt's timeout (a count of attempts, a flag)",
                                    line_of(loop)));
            return;
        }
    } else if (!empty_clause(lf_tree_field(loop, "initializer")) || !empty_clause(lf_tree_field(loop, "condition")) ||
               !ts_node_is_null(lf_tree_field(loop, "increment"))) {
        decline(p, lf_xasprintf("the retry loop (line %u) counts its attempts: the swap maps only a deadline onto "
                                "lockrt's timeout",
                                line_of(loop)));
        return;
    }
    read_held(r, cs);
    if (p->decline)
        return;
    /* the wait: the catch clause, and the loop's statements besides the try */
    wait_walk w = {.r = r, .loop = loop};
    TSNode handler = lf_tree_field(tr, "handler");
    /* the deadline test first, so that its exits are known */
    for (TSNode s = ts_node_named_child(loop_block, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        TSNode scan = ts_node_eq(s, tr) ? handler : s;
        if (!ts_node_is_null(scan))
            lf_tree_walk(scan, visit_wait, &w);
        if (p->decline)
            return;
    }
    p->swallows = !w.rethrows;
    if (p->swallows) {
        /* the create's catch also catches what the held code throws, and
         * took it for a held lock: the old loop ran the held code again;
         * after the swap the error would reach the caller */
        TSNode call = {0};
        for (TSNode x = p->held_first; !ts_node_is_null(x) && ts_node_is_null(call); x = ts_node_next_named_sibling(x))
            lf_tree_walk(x, visit_running_call, &call);
        if (!ts_node_is_null(call)) {
            decline(p, lf_xasprintf("the held code calls at line %u, and the create's catch takes every error for a "
                                    "held lock: the old loop ran the held code again after an error of its own, where "
                                    "lockrt's lock would let that error reach the caller",
                                    line_of(call)));
            return;
        }
    }
    /* the held code moves out of the loop: what it uses must not be bound
     * in the loop outside it (the create's handle is declined above) */
    if (uses_loop_names(r, p->held_first, 1, ts_node_start_byte(p->held_first), ts_node_end_byte(p->held_last),
                        "the held code", "a name the loop binds outside it"))
        return;
    if (after_loop) {
        if (w.tests) {
            decline(p, lf_xasprintf("the loop is bounded by its deadline and tests it inside too"));
            return;
        }
        TSNode last = {0};
        for (TSNode s = ts_node_next_named_sibling(loop); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
            last = s;
        if (ts_node_is_null(last) || !always_leaves(last)) {
            decline(p, lf_xasprintf("nothing after the deadline-bounded loop (line %u) leaves: the timeout's "
                                    "outcome is not one the swap can keep",
                                    line_of(loop)));
            return;
        }
        p->best_effort = !lf_tree_is(last, "throw_statement");
        if (uses_loop_names(r, ts_node_next_named_sibling(loop), 1, 0, 0, "the timeout's outcome",
                            "a name the wait binds"))
            return;
    } else {
        if (ts_node_is_null(p->timeout_exit)) {
            decline(p, lf_xasprintf("the retry loop (line %u) has no deadline the swap recognises: it waits "
                                    "forever, or counts attempts",
                                    line_of(loop)));
            return;
        }
        if (uses_loop_names(r, p->timeout_exit, 0, 0, 0, "the timeout's outcome", "a name the wait binds"))
            return;
        TSNode last = p->timeout_exit;
        if (lf_tree_is(last, "statement_block"))
            last = ts_node_named_child(last, ts_node_named_child_count(last) - 1);
        p->best_effort = !lf_tree_is(last, "throw_statement");
    }
    TSNode bad = helpers_ok(r);
    if (!ts_node_is_null(bad)) {
        wait_declines(r, bad);
        return;
    }
    for (TSNode s = ts_node_named_child(loop_block, 0); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
        lf_tree_walk(ts_node_eq(s, tr) ? handler : s, collect_helpers, r);
    /* and the helpers those call (a worklist over the growing list) */
    for (size_t i = 0; i < p->helpers.len; i++)
        lf_tree_walk(lf_tree_field(p->helpers.items[i], "body"), collect_helpers, r);
    TSNode other = used_elsewhere(r);
    if (!ts_node_is_null(other)) {
        decline(p, lf_xasprintf("the lock is also used at line %u, outside %s and the helpers its wait calls",
                                line_of(other), "the function that acquires it"));
        return;
    }
    if (p->dir) {
        /* a lock directory the swap takes holds lockrt's record only: its
         * release removes the directory only when nothing else is left in it */
        dir_walk dw = {.r = r};
        lf_tree_walk(r->m->root, visit_dir_files, &dw);
        if (!ts_node_is_null(dw.other)) {
            decline(p, lf_xasprintf("the lock directory holds another file (line %u) besides the owner record the "
                                    "swap drops: lockrt's release would leave the directory, and nobody could take "
                                    "the lock again",
                                    line_of(dw.other)));
            return;
        }
    }
}

/* Per event of the lock facts, what its protocol covers once recognised:
 * the acquiring function and the helpers its wait calls, and whether there
 * is a retry loop at all. Every fix request asked every lock of the module
 * to be recognised again, so n locks cost n recognitions per request. */
typedef struct proto_span {
    int known, candidate, looped;
    TSNode fn;
    lf_tsnode_vec helpers;
} proto_span;

typedef struct proto_memo {
    proto_span *spans; /* per event */
    size_t n;
} proto_memo;

static void proto_memo_free(void *v) {
    proto_memo *pm = v;
    for (size_t i = 0; i < pm->n; i++)
        LF_VEC_FREE(&pm->spans[i].helpers);
    free(pm->spans);
    free(pm);
}

/* The protocol of event e, recognised (r->no_loop set when there is no
 * retry loop around the create). */
static lf_tsproto *recognise_event(lf_tssem *m, lf_tslock *l, const lf_tslock_event *e, int *no_loop) {
    lf_tsproto *p = lf_xcalloc(1, sizeof *p);
    recog r = {.m = m, .l = l, .p = p};
    recognise(&r, e);
    LF_VEC_FREE(&r.pending);
    *no_loop = r.no_loop;
    return p;
}

static const proto_span *span_of(lf_tssem *m, lf_tslock *l, size_t i) {
    if (!l->proto_memo) {
        proto_memo *pm = lf_xcalloc(1, sizeof *pm);
        pm->n = l->n_events;
        pm->spans = lf_xcalloc(pm->n ? pm->n : 1, sizeof *pm->spans);
        l->proto_memo = pm;
        l->proto_memo_free = proto_memo_free;
    }
    proto_span *s = &((proto_memo *)l->proto_memo)->spans[i];
    if (s->known)
        return s;
    s->known = 1;
    const lf_tslock_event *e = &l->events[i];
    if (e->kind != LF_TSEV_CREATE || e->key < 0 || !lf_tslock_is_lock(l->keys[e->key].flags) || e->via_helper)
        return s;
    s->fn = fn_around(e->node);
    if (ts_node_is_null(s->fn))
        return s;
    s->candidate = 1;
    int no_loop = 0;
    lf_tsproto *p = recognise_event(m, l, e, &no_loop);
    s->looped = !no_loop;
    s->fn = p->fn;
    for (size_t h = 0; h < p->helpers.len; h++)
        LF_VEC_PUSH(&s->helpers, p->helpers.items[h]);
    lf_tsproto_free(p);
    return s;
}

lf_tsproto *lf_tsproto_at(lf_tssem *m, TSNode at) {
    lf_tslock *l = lf_tslock_build(m);
    for (size_t i = 0; i < l->n_events; i++) {
        const proto_span *s = span_of(m, l, i);
        if (!s->candidate || !s->looped)
            continue;
        int mine = within(at, s->fn);
        for (size_t h = 0; h < s->helpers.len && !mine; h++)
            mine = within(at, s->helpers.items[h]);
        if (!mine)
            continue;
        int no_loop = 0;
        return recognise_event(m, l, &l->events[i], &no_loop);
    }
    return NULL;
}

void lf_tsproto_free(lf_tsproto *p) {
    if (!p)
        return;
    free(p->decline);
    LF_VEC_FREE(&p->drops);
    LF_VEC_FREE(&p->releases);
    LF_VEC_FREE(&p->helpers);
    free(p);
}
