#include "lf_ts.h"

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

int lf_ts_lock_held(lf_tssem *m, lf_tslock *l, TSNode n) {
    int32_t scope = lf_tssem_scope_of(m, n);
    int32_t fn = lf_tslock_fn_of(m, scope);
    /* a lock taken only after n, in source order, does not cover it (the
     * reindex lock a handler takes after its unlocked write) */
    uint32_t at = ts_node_start_byte(n);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *ev = &l->events[i];
        if (ev->fn == fn && ts_node_start_byte(ev->node) < at && (ev->kind == LF_TSEV_ACQUIRE ||
                             (ev->kind == LF_TSEV_CREATE && ev->key >= 0 && lf_tslock_is_lock(l->keys[ev->key].flags))))
            return 1;
    }
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (lf_tslock_fn_of(m, c->scope) != fn || ts_node_start_byte(c->node) >= at)
            continue;
        TSNode f = lf_tree_field(c->node, "function");
        TSNode name = lf_tree_is(f, "member_expression") ? lf_tree_field(f, "property") : f;
        if (lockish_name(m->src, name))
            return 1;
    }
    /* callbacks handed to a lock wrapper, up the scope chain */
    for (int32_t s = scope; s > 0; s = m->scopes[s].parent) {
        TSNode args = lf_ts_parent(m->scopes[s].node);
        if (!lf_tree_is(args, "arguments"))
            continue;
        TSNode call = lf_ts_parent(args);
        TSNode f = lf_tree_field(call, "function");
        TSNode name = lf_tree_is(f, "member_expression") ? lf_tree_field(f, "property") : f;
        if (lockish_name(m->src, name))
            return 1;
    }
    return 0;
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
