/* LF104 for TS/JS: one function parses a JSON document it read
 * (`JSON.parse(fs.readFileSync(p, "utf8"))`, through names and awaits, or
 * fs-extra's readJson) and later writes the same path back (writeFile,
 * writeFileSync, promises.writeFile, writeJson, a rename onto it, or one of the
 * module's functions that writes its parameter), with no lock in play: no lock
 * library call, exclusive create or lock-named call in the function, and not
 * inside a callback handed to one. Reported at the read.
 * A class may hide both halves behind an accessor pair (configstore's
 * `get all()` parses the file, `set all(v)` writes it): a method that reads
 * `this.all` and assigns `this.all` afterwards (or in the same assignment) is
 * the read-modify-write, reported at its read of the accessor. */
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

/* Libraries whose call writes (atomically) the file named by its first argument. */
static const char *const k_atomic_writers[] = {"atomically.writeFile", "atomically.writeFileSync", "write-file-atomic",
                                               "write-file-atomic.sync", NULL};

/* The path a call writes: writeFile/writeJson and the atomic-write
 * libraries' first argument, a rename's destination; null otherwise. */
static TSNode written_path(lf_tssem *m, TSNode call) {
    const char *op = lf_tslock_fs_op(m, call);
    if (is_write_op(op) || lf_tssem_call_is(m, call, k_atomic_writers))
        return lf_tssem_arg(call, 0);
    if (op && !strcmp(op, "rename"))
        return lf_tssem_arg(call, 1);
    return (TSNode){0};
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
        TSNode target = written_path(m, m->calls[i].node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == pk)
            return 1;
    }
    return 0;
}

/* Is `n` in the catch clause of a try whose body holds `read`? There the
 * read or its parse threw, so what is written is not what was read
 * (configstore clears a config that does not parse). */
static int in_failed_read_handler(TSNode n, TSNode read) {
    for (TSNode p = lf_ts_parent(n); !ts_node_is_null(p); p = lf_ts_parent(p)) {
        if (lf_tree_is(p, "catch_clause")) {
            TSNode t = lf_ts_parent(p);
            if (lf_tree_is(t, "try_statement") && lf_ts_within(read, lf_tree_field(t, "body")))
                return 1;
        }
        if (lf_tree_is(p, "function_declaration") || lf_tree_is(p, "method_definition") ||
            lf_tree_is(p, "arrow_function") || lf_tree_is(p, "function_expression"))
            return 0;
    }
    return 0;
}

/* The first write of key `k` after `read` in function fn, or null. */
static TSNode write_after(lf_tssem *m, int32_t fn, const char *k, TSNode read) {
    uint32_t after = ts_node_start_byte(read);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) <= after || lf_tslock_fn_of(m, c->scope) != fn ||
            in_failed_read_handler(c->node, read))
            continue;
        TSNode target = written_path(m, c->node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == k)
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

typedef struct parsed_read {
    int32_t fn;
    const char *key;
} parsed_read;
typedef LF_VEC(parsed_read) parsed_vec;

/* A getter or setter method: its `get`/`set` keyword, else 0. */
static int accessor_kind(const lf_tsscope *sc) {
    if (!lf_tree_is(sc->node, "method_definition"))
        return 0;
    uint32_t k = ts_node_child_count(sc->node);
    for (uint32_t i = 0; i < k; i++) {
        const char *t = ts_node_type(ts_node_child(sc->node, i));
        if (!strcmp(t, "get") || !strcmp(t, "set"))
            return t[0];
    }
    return 0;
}

/* Does function fn write key k (writeFile/writeJson, a rename onto it)? */
static int fn_writes(lf_tssem *m, int32_t fn, const char *k) {
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        if (lf_tslock_fn_of(m, c->scope) != fn)
            continue;
        TSNode target = written_path(m, c->node);
        if (!ts_node_is_null(target) && lf_tssem_path_key(m, target) == k)
            return 1;
    }
    return 0;
}

typedef struct use_walk {
    lf_tssem *m;
    const char *name; /* the accessor's name */
    LF_VEC(TSNode) uses; /* `this.<name>` member expressions, in source order */
} use_walk;

static lf_walk_action collect_this_uses(TSNode n, void *ud) {
    use_walk *u = ud;
    if (lf_tree_is(n, "member_expression") && lf_tree_is(lf_tree_field(n, "object"), "this") &&
        lf_tree_text_eq(u->m->src, lf_tree_field(n, "property"), u->name))
        LF_VEC_PUSH(&u->uses, n);
    return LF_WALK_CONTINUE;
}

/* The assignment a `this.x` use is the target of, or null (a read). */
static TSNode assigned_by(TSNode use) {
    TSNode p = lf_ts_parent(use);
    return lf_tree_is(p, "assignment_expression") && ts_node_eq(lf_tree_field(p, "left"), use) ? p : (TSNode){0};
}

static void accessor_rmw(lf_check_ctx *ctx, lf_tssem *m, lf_tslock **l, const parsed_vec *reads) {
    const lf_source *src = m->src;
    for (size_t c = 0; c < m->n_classes; c++) {
        for (int32_t g = m->classes[c].first_method; g >= 0; g = m->scopes[g].next_method) {
            if (accessor_kind(&m->scopes[g]) != 'g')
                continue;
            const char *key = NULL;
            for (size_t i = 0; i < reads->len && !key; i++)
                if (reads->items[i].fn == g)
                    key = reads->items[i].key;
            int32_t setter = -1;
            for (int32_t s = m->classes[c].first_method; s >= 0 && key && setter < 0; s = m->scopes[s].next_method)
                if (accessor_kind(&m->scopes[s]) == 's' && !strcmp(m->scopes[s].name, m->scopes[g].name) &&
                    fn_writes(m, s, key))
                    setter = s;
            if (setter < 0)
                continue;
            use_walk u = {m, m->scopes[g].name, {0}};
            lf_tree_walk(m->classes[c].node, collect_this_uses, &u);
            /* per method: its first read of the accessor, then an assignment
             * to it that ends after that read */
            for (size_t i = 0; i < u.uses.len; i++) {
                TSNode r = u.uses.items[i];
                int32_t fn = lf_tslock_fn_of(m, lf_tssem_scope_of(m, r));
                if (fn == g || fn == setter || !ts_node_is_null(assigned_by(r)))
                    continue;
                int first = 1;
                for (size_t j = 0; j < i && first; j++)
                    if (lf_tslock_fn_of(m, lf_tssem_scope_of(m, u.uses.items[j])) == fn &&
                        ts_node_is_null(assigned_by(u.uses.items[j])))
                        first = 0;
                if (!first)
                    continue;
                TSNode w = {0};
                for (size_t j = 0; j < u.uses.len && ts_node_is_null(w); j++) {
                    TSNode a = assigned_by(u.uses.items[j]);
                    if (!ts_node_is_null(a) && lf_tslock_fn_of(m, lf_tssem_scope_of(m, a)) == fn &&
                        ts_node_end_byte(a) > ts_node_end_byte(r))
                        w = a;
                }
                if (ts_node_is_null(w))
                    continue;
                if (!*l)
                    *l = lf_tslock_build(m);
                if (lf_ts_lock_held(m, *l, r))
                    continue;
                char *what = lf_py_short(src, r);
                char *msg = lf_xasprintf("%s reads the file its getter (line %u) parses, and line %u writes it back "
                                         "through the setter with no lock held: concurrent processes overwrite each "
                                         "other's updates",
                                         what, lf_py_line(src, m->scopes[g].node), lf_py_line(src, w));
                lf_ctx_emit(ctx, r, msg, SIZE_MAX);
                free(msg);
                free(what);
            }
            LF_VEC_FREE(&u.uses);
        }
    }
}

void lf104_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    lf_tslock *l = NULL;
    parsed_vec reads = {0};
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
        LF_VEC_PUSH(&reads, ((parsed_read){fn, k}));
        TSNode write = write_after(m, fn, k, read);
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
    if (reads.len)
        accessor_rmw(ctx, m, &l, &reads);
    LF_VEC_FREE(&reads);
    lf_tslock_free(l);
}
