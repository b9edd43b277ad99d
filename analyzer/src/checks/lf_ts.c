#include "lf_ts.h"

#include <stdint.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_util.h"

TSNode lf_ts_parent(TSNode n) { return ts_node_is_null(n) ? n : ts_node_parent(n); }

int lf_ts_text_has(const lf_source *src, TSNode n, const char *needle) {
    if (ts_node_is_null(n))
        return 0;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return memmem(src->text + a, b - a, needle, strlen(needle)) != NULL;
}

int lf_ts_within(TSNode inner, TSNode outer) { return lf_tree_within(inner, outer); }

TSNode lf_ts_fn_node(lf_tssem *m, TSNode n) {
    return m->scopes[lf_tslock_fn_of(m, lf_tssem_scope_of(m, n))].node;
}

/* A call that takes (or wraps work in) a lock, by its name: acquire*,
 * *withLock*, *exclusive*, mutex*, lock/lockSync/tryLock, anything ending in
 * "lock" (takeWriterLock, unlock). Not names that merely mention a lock
 * (lockPathOf, compactionLockPath). */
static int lockish_name(const lf_source *src, TSNode name) {
    if (ts_node_is_null(name))
        return 0;
    uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
    char buf[96];
    size_t n = 0;
    for (uint32_t i = a; i < b && n + 1 < sizeof buf; i++)
        buf[n++] = (char)((src->text[i] >= 'A' && src->text[i] <= 'Z') ? src->text[i] + 32 : src->text[i]);
    buf[n] = '\0';
    if (strstr(buf, "acquire") || strstr(buf, "withlock") || strstr(buf, "exclusive") || strstr(buf, "mutex"))
        return 1;
    if (!strcmp(buf, "locksync") || !strcmp(buf, "trylocksync"))
        return 1;
    if (n >= 5 && !strcmp(buf + n - 5, "block"))
        return 0; /* codexMcpBlock, unblock: a block, not a lock */
    return n >= 4 && !strcmp(buf + n - 4, "lock");
}

int lf_ts_lockish_call(lf_tssem *m, TSNode call) {
    TSNode f = lf_tree_field(call, "function");
    return lockish_name(m->src, lf_tree_is(f, "member_expression") ? lf_tree_field(f, "property") : f);
}

/* Does declared function fn take a lock by the lock facts (a lock library
 * or lock helper call, an exclusive create of a lock) before byte `at`? Its
 * events only, in source order. */
static int acquires_before(lf_tslock *l, int32_t fn, uint32_t at, int32_t but) {
    for (int32_t i = lf_tslock_first_event(l, fn); i >= 0; i = lf_tslock_next_event(l, i)) {
        const lf_tslock_event *ev = &l->events[i];
        if (ts_node_start_byte(ev->node) >= at)
            break;
        if ((but < 0 || ev->key != but) &&
            (ev->kind == LF_TSEV_ACQUIRE ||
             (ev->kind == LF_TSEV_CREATE && ev->key >= 0 && lf_tslock_is_lock(l->keys[ev->key].flags))))
            return 1;
    }
    return 0;
}

/* Is an argument of the call a function (`withFileLockSync(p, () => ...)`):
 * a wrapper that holds the lock only while it runs that function? */
static int takes_callback(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    for (uint32_t i = 0, k = ts_node_named_child_count(args); i < k; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "arrow_function") || lf_tree_is(a, "function_expression") || lf_tree_is(a, "function"))
            return 1;
    }
    return 0;
}

/* Is n in the catch of a try whose body holds `create` (the handling of
 * that create's failure: a removal there breaks another holder's lock, it
 * does not release this one)? */
static int in_failed_create_handler(TSNode n, TSNode create) {
    for (TSNode t = lf_ts_parent(create); !ts_node_is_null(t) && !lf_tssem_is_function_node(t); t = lf_ts_parent(t)) {
        if (!lf_tree_is(t, "try_statement"))
            continue;
        TSNode handler = lf_tree_field(t, "handler");
        if (lf_tree_within(create, lf_tree_field(t, "body")) && !ts_node_is_null(handler) && lf_tree_within(n, handler))
            return 1;
    }
    return 0;
}

/* Does an exclusive create of a lock, event `ev` of function h, stay held
 * when h returns: no removal of that lock after it in h's own body (its
 * release is a function h returns or registers; a break in the handler of
 * the create's failure releases nothing of its)? */
static int create_kept(lf_tssem *m, lf_tslock *l, int32_t h, const lf_tslock_event *ev) {
    for (int32_t j = lf_tslock_first_event(l, h); j >= 0; j = lf_tslock_next_event(l, j)) {
        const lf_tslock_event *rm = &l->events[j];
        if (rm->kind == LF_TSEV_REMOVE && rm->key == ev->key &&
            ts_node_start_byte(rm->node) > ts_node_start_byte(ev->node) && lf_tssem_scope_of(m, rm->node) == h &&
            !in_failed_create_handler(rm->node, ev->node))
            return 0;
    }
    return 1;
}

enum { HELD_DEPTH = 3, HELD_FNS = 32 };

/* Does the module's function h leave a lock held when it returns: a lock
 * library call that hands back its release (`return lockfile.lock(dir)`), or
 * an exclusive create of a lock that its own body does not remove again? A
 * helper that takes and releases a lock inside (a writer wrapping its write
 * in withFileLockSync) leaves none. A create carried up from one of the
 * module's helpers is that helper's question (a few levels down, a
 * worklist: no recursion). */
static int leaves_lock_held(lf_tssem *m, lf_tslock *l, int32_t h0) {
    int32_t todo[HELD_FNS];
    int depth[HELD_FNS];
    size_t n = 0;
    todo[n] = h0;
    depth[n++] = 0;
    for (size_t t = 0; t < n; t++) {
        int32_t h = todo[t];
        for (int32_t i = lf_tslock_first_event(l, h); i >= 0; i = lf_tslock_next_event(l, i)) {
            const lf_tslock_event *ev = &l->events[i];
            if ((ev->kind != LF_TSEV_ACQUIRE && ev->kind != LF_TSEV_CREATE) || takes_callback(ev->node))
                continue; /* a wrapper holds the lock only while its callback runs */
            int32_t inner = lf_tree_is(ev->node, "call_expression") ? lf_tssem_local_callee(m, ev->node) : -1;
            if (inner > 0) {
                int seen = 0;
                for (size_t k = 0; k < n && !seen; k++)
                    seen = todo[k] == inner;
                if (!seen && depth[t] + 1 <= HELD_DEPTH && n < HELD_FNS) {
                    todo[n] = inner;
                    depth[n++] = depth[t] + 1;
                }
                continue;
            }
            if (ev->kind == LF_TSEV_ACQUIRE)
                return 1;
            if (ev->key >= 0 && lf_tslock_is_lock(l->keys[ev->key].flags) && create_kept(m, l, h, ev))
                return 1;
        }
    }
    return 0;
}

/* Is the declared function a method whose decorator wraps it in a lock
 * (`@lockfile("internal")`, `@withLock()`, `@synchronized`)? Its whole body runs
 * holding it. */
static int decorated_with_lock(lf_tssem *m, int32_t fn) {
    if (fn <= 0 || !lf_tree_is(m->scopes[fn].node, "method_definition"))
        return 0;
    /* the class body holds a method's decorators just before it */
    for (TSNode d = ts_node_prev_named_sibling(m->scopes[fn].node); lf_tree_is(d, "decorator");
         d = ts_node_prev_named_sibling(d)) {
        TSNode e = ts_node_named_child(d, 0);
        if (lf_tree_is(e, "call_expression"))
            e = lf_tree_field(e, "function");
        if (lf_tree_is(e, "member_expression"))
            e = lf_tree_field(e, "property");
        if (lockish_name(m->src, e) || lf_tree_text_eq(m->src, e, "lockfile") ||
            lf_tree_text_eq(m->src, e, "synchronized") || lf_tree_text_eq(m->src, e, "locked"))
            return 1;
    }
    return 0;
}

/* Is a lock held at n by the lock facts alone, in n's own function: taken
 * before n (by the function itself, or by one of the module's functions it
 * called first that leaves one held), by the method's lock decorator, or n in
 * a callback handed to a lock wrapper? */
static int held_in_function(lf_tssem *m, lf_tslock *l, TSNode n, int32_t but) {
    int32_t scope = lf_tssem_scope_of(m, n);
    int32_t fn = lf_tslock_fn_of(m, scope);
    uint32_t at = ts_node_start_byte(n);
    if (acquires_before(l, fn, at, but) || decorated_with_lock(m, fn))
        return 1;
    for (int32_t i = fn > 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) >= at)
            break;
        int32_t h = lf_tssem_local_callee(m, c->node);
        if (h > 0 && h != fn && leaves_lock_held(m, l, h))
            return 1;
    }
    for (int32_t s = scope; s > 0; s = m->scopes[s].parent) {
        TSNode args = lf_ts_parent(m->scopes[s].node);
        if (lf_tree_is(args, "arguments") && lf_ts_lockish_call(m, lf_ts_parent(args)))
            return 1;
    }
    return 0;
}

/* held_in_function, or else: is n's function one of the module's own
 * (module-level) functions whose every call, one or more, is itself made
 * where a lock is held, a few levels up (a step of a start-up that took its
 * lifecycle lock first)? Names alone (a `readLock()` before a call) carry no
 * lock into another function. A worklist of the functions still to prove:
 * no recursion. */
static int held_by_facts(lf_tssem *m, lf_tslock *l, TSNode n, int32_t but) {
    if (held_in_function(m, l, n, but))
        return 1;
    int32_t todo[HELD_FNS];
    int depth[HELD_FNS];
    size_t k = 0;
    todo[k] = lf_tslock_fn_of(m, lf_tssem_scope_of(m, n));
    depth[k++] = 0;
    for (size_t t = 0; t < k; t++) {
        int32_t fn = todo[t];
        if (fn <= 0 || depth[t] >= HELD_DEPTH || m->scopes[fn].parent != 0)
            return 0;
        size_t calls = 0;
        for (int32_t c = lf_tssem_first_caller(m, fn); c >= 0; c = lf_tssem_next_caller(m, c), calls++) {
            int32_t caller = lf_tslock_fn_of(m, m->calls[c].scope);
            if (caller == fn)
                return 0; /* recursion */
            if (held_in_function(m, l, m->calls[c].node, -1))
                continue;
            /* a function already on the list: met again one level down
             * (two callers sharing theirs) it is proven once; met at its
             * own level or above, the calls go round in a cycle, and the
             * cycle's way in from outside the module holds nothing seen */
            int seen = 0;
            for (size_t j = 0; j < k && !seen; j++)
                if (todo[j] == caller) {
                    if (depth[j] <= depth[t])
                        return 0;
                    seen = 1;
                }
            if (seen)
                continue;
            if (k == HELD_FNS)
                return 0;
            todo[k] = caller; /* its callers must hold it, then */
            depth[k++] = depth[t] + 1;
        }
        if (!calls)
            return 0;
    }
    return 1;
}

int lf_ts_lock_held(lf_tssem *m, lf_tslock *l, TSNode n) { return lf_ts_lock_held_but(m, l, n, (TSNode){0}); }

int lf_ts_lock_held_but(lf_tssem *m, lf_tslock *l, TSNode n, TSNode path) {
    int32_t scope = lf_tssem_scope_of(m, n);
    int32_t fn = lf_tslock_fn_of(m, scope);
    int32_t but = ts_node_is_null(path) ? -1 : lf_tslock_key_index(l, path);
    /* a lock taken only after n, in source order, does not cover it (the
     * reindex lock a handler takes after its unlocked write) */
    uint32_t at = ts_node_start_byte(n);
    for (int32_t i = fn >= 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) >= at)
            break;
        TSNode f = lf_tree_field(c->node, "function");
        TSNode name = lf_tree_is(f, "member_expression") ? lf_tree_field(f, "property") : f;
        if (lockish_name(m->src, name))
            return 1;
    }
    return held_by_facts(m, l, n, but); /* which asks, first, for a callback handed to a lock wrapper */
}

int lf_ts_nameable_at(lf_tssem *m, TSNode expr, TSNode at) {
    expr = lf_tssem_unwrap(expr);
    if (lf_tree_is(expr, "string"))
        return 1;
    if (lf_tree_is(expr, "member_expression")) {
        TSNode obj = lf_tree_field(expr, "object");
        return lf_tree_is(obj, "this") && lf_tree_is(lf_tree_field(expr, "property"), "property_identifier") &&
               lf_tssem_scope_of(m, expr) == lf_tssem_scope_of(m, at);
    }
    if (!lf_tree_is(expr, "identifier"))
        return 0;
    uint32_t a = ts_node_start_byte(expr);
    const char *name = lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(expr) - a);
    const lf_tsbinding *b1 = lf_tssem_binding_at(m, lf_tssem_scope_of(m, expr), name, a);
    const lf_tsbinding *b2 = lf_tssem_binding_at(m, lf_tssem_scope_of(m, at), name, ts_node_start_byte(at));
    if (!b1 || b1 != b2)
        return 0;
    if (lf_tslock_fn_of(m, lf_tssem_scope_of(m, expr)) == lf_tslock_fn_of(m, lf_tssem_scope_of(m, at)))
        return 1;
    /* across functions: only a module-level const keeps its value */
    TSNode decl = ts_node_parent(ts_node_parent(b1->target));
    return b1->scope == 0 && b1->kind == LF_TSBIND_VAR && !b1->member && lf_tree_is(decl, "lexical_declaration") &&
           lf_tree_text_eq(m->src, ts_node_child(decl, 0), "const");
}
