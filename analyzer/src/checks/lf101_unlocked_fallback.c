/* LF101: the critical section is reachable without the lock.
 *
 * One recogniser, shared with the fix through the site it attaches
 * (lf101_site.h). Working on the semantic model, never on spellings:
 *  1. every call taking an exclusive lock (`fcntl.flock`, `fcntl.lockf`,
 *     `fcntl.fcntl`, `msvcrt.locking`, whatever the import's alias) is a
 *     candidate; the lock module is optional when the model says so
 *     (conditional import with a None/False/stand-in fallback, flags beside it);
 *  2. around it: the handle (`with open(P) as f`, `f = open(P)` / `os.open(P)`
 *     closed in a `finally`), the locked BODY (a `try/finally` that releases,
 *     or the rest of the `with`), the acquisition's own `try` when its errors
 *     are swallowed;
 *  3. the unlocked path: the code after an `if PRESENT:` whose locked branch
 *     returns, its `else:`, an early `if ABSENT: ...; return`, the handler of
 *     a `try` around the lock, or a BODY that runs whether or not the lock was
 *     taken (`if PRESENT: flock(...)` inside the `with`);
 *  4. a finding when that unlocked path runs the locked work: all of BODY for
 *     the rewrite, or, short of that, at least one of BODY's calls (then the
 *     finding says why no fix is offered).
 * One finding per function. Statement comparisons ignore layout and comments. */
#include <stdlib.h>
#include <string.h>

#include "lf101_indirect.h"
#include "lf101_site.h"
#include "lf_ts.h"
#include "lf_engine_internal.h"
#include "lf_pygate.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_witness_build.h"

#define EQ_FLAGS (LF_TREE_EQ_IGNORE_ANNOTATION | LF_TREE_EQ_STRING_CONTENT)

void lf101_site_free(void *p) {
    lf101_site *s = p;
    if (!s)
        return;
    free(s->decline);
    free(s->portable_imports);
    free(s);
}

/* ---- lock calls ---- */

typedef enum lock_op { OP_NONE = 0, OP_EXCLUSIVE, OP_EXCLUSIVE_NB, OP_SHARED, OP_UNLOCK } lock_op;

typedef struct name_set {
    const char *names[16];
    size_t n;
    int ints[8];
    size_t n_ints;
} name_set;

/* The qualified names and integer literals an operation argument combines
 * (`fcntl.LOCK_EX | fcntl.LOCK_NB`, `LOCK_EX`, `2`). */
static void op_names(lf_pysem *m, TSNode op, name_set *out) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, op);
    /* Bounded: a value that names itself (`op = op | LOCK_NB`) stops here. */
    for (size_t steps = 0; stack.len && steps < 64; steps++) {
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (lf_tree_is(n, "identifier") && !lf_pysem_qualname(m, n)) {
            /* `mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH`: the value it holds. */
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n))
                LF_VEC_PUSH(&stack, v);
            continue;
        }
        if (lf_tree_is(n, "attribute") && !lf_pysem_qualname(m, n)) {
            /* `self.mode`: the values the class assigns it (`mode | fcntl.LOCK_EX`) */
            TSNode vals[4];
            size_t nv = lf_pylock_field_values(lf_pylock_build(m), n, vals, 4);
            for (size_t i = 0; i < nv; i++)
                LF_VEC_PUSH(&stack, vals[i]);
            continue;
        }
        if (lf_tree_is(n, "conditional_expression")) {
            /* Either alternative may be the operation (the condition is not). */
            LF_VEC_PUSH(&stack, ts_node_named_child(n, 0));
            LF_VEC_PUSH(&stack, ts_node_named_child(n, 2));
            continue;
        }
        if (lf_tree_is(n, "binary_operator")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "left"));
            LF_VEC_PUSH(&stack, lf_tree_field(n, "right"));
        } else if (lf_tree_is(n, "integer") && out->n_ints < 8) {
            out->ints[out->n_ints++] = (int)strtol(m->src->text + ts_node_start_byte(n), NULL, 0);
        } else if (out->n < 16) {
            const char *q = lf_pysem_qualname(m, n);
            if (q)
                out->names[out->n++] = q;
        }
    }
    LF_VEC_FREE(&stack);
}

static int has_name(const name_set *s, const char *q) {
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], q) == 0)
            return 1;
    return 0;
}

static int has_int(const name_set *s, int bits) {
    for (size_t i = 0; i < s->n_ints; i++)
        if (s->ints[i] & bits)
            return 1;
    return 0;
}

/* The i-th positional argument of a call (keyword arguments skipped), or `kw=`. */
static TSNode call_arg(lf_pysem *m, TSNode call, uint32_t index, const char *kw) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t k = 0;
    TSTreeCursor c = ts_tree_cursor_new(args);
    TSNode found = (TSNode){0};
    if (!ts_node_is_null(args) && ts_tree_cursor_goto_first_child(&c)) {
        do {
            TSNode a = ts_tree_cursor_current_node(&c);
            if (!ts_node_is_named(a) || lf_tree_is(a, "comment"))
                continue;
            if (lf_tree_is(a, "keyword_argument")) {
                if (kw && lf_tree_text_eq(m->src, lf_tree_field(a, "name"), kw)) {
                    found = lf_tree_field(a, "value");
                    break;
                }
                continue;
            }
            if (lf_tree_is(a, "list_splat") || lf_tree_is(a, "dictionary_splat"))
                break;
            if (k++ == index) {
                found = a;
                break;
            }
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return found;
}

/* What a lock call does, and which lock it is. */
static lock_op lock_call(lf_pysem *m, TSNode call, lf101_lock_kind *kind) {
    const char *q = lf_pysem_callee(m, call);
    if (!q)
        return OP_NONE;
    name_set ops;
    memset(&ops, 0, sizeof ops);
    if (!strcmp(q, "fcntl.flock") || !strcmp(q, "fcntl.lockf")) {
        *kind = q[6] == 'f' ? LF101_LOCK_FLOCK : LF101_LOCK_LOCKF;
        TSNode op = call_arg(m, call, 1, !strcmp(q, "fcntl.lockf") ? "cmd" : "operation");
        if (ts_node_is_null(op))
            return OP_NONE;
        op_names(m, op, &ops);
        if (has_name(&ops, "fcntl.LOCK_UN") || has_int(&ops, 8))
            return OP_UNLOCK;
        int nb = has_name(&ops, "fcntl.LOCK_NB") || has_int(&ops, 4);
        if (has_name(&ops, "fcntl.LOCK_EX") || has_int(&ops, 2))
            return nb ? OP_EXCLUSIVE_NB : OP_EXCLUSIVE;
        if (has_name(&ops, "fcntl.LOCK_SH") || has_int(&ops, 1))
            return OP_SHARED;
        return OP_NONE;
    }
    if (!strcmp(q, "fcntl.fcntl")) {
        *kind = LF101_LOCK_FCNTL;
        TSNode op = call_arg(m, call, 1, "cmd");
        if (ts_node_is_null(op))
            return OP_NONE;
        op_names(m, op, &ops);
        if (has_name(&ops, "fcntl.F_SETLKW"))
            return OP_EXCLUSIVE;
        if (has_name(&ops, "fcntl.F_SETLK") || has_name(&ops, "fcntl.F_OFD_SETLK"))
            return OP_EXCLUSIVE_NB;
        if (has_name(&ops, "fcntl.F_OFD_SETLKW"))
            return OP_EXCLUSIVE;
        return OP_NONE;
    }
    /* portalocker's module functions: lock(file, flags) and unlock(file). */
    if (!strcmp(q, "portalocker.unlock") || !strcmp(q, "portalocker.portalocker.unlock")) {
        *kind = LF101_LOCK_FLOCK;
        return OP_UNLOCK;
    }
    if (!strcmp(q, "portalocker.lock") || !strcmp(q, "portalocker.portalocker.lock")) {
        *kind = LF101_LOCK_FLOCK;
        TSNode op = call_arg(m, call, 1, "flags");
        if (ts_node_is_null(op))
            return OP_NONE;
        op_names(m, op, &ops);
        int nb = has_name(&ops, "portalocker.LOCK_NB") || has_name(&ops, "portalocker.LockFlags.NON_BLOCKING") ||
                 has_name(&ops, "portalocker.constants.LOCK_NB") ||
                 has_name(&ops, "portalocker.constants.LockFlags.NON_BLOCKING");
        if (has_name(&ops, "portalocker.LOCK_EX") || has_name(&ops, "portalocker.LockFlags.EXCLUSIVE") ||
            has_name(&ops, "portalocker.constants.LOCK_EX") ||
            has_name(&ops, "portalocker.constants.LockFlags.EXCLUSIVE"))
            return nb ? OP_EXCLUSIVE_NB : OP_EXCLUSIVE;
        if (has_name(&ops, "portalocker.LOCK_SH") || has_name(&ops, "portalocker.LockFlags.SHARED") ||
            has_name(&ops, "portalocker.constants.LOCK_SH") ||
            has_name(&ops, "portalocker.constants.LockFlags.SHARED"))
            return OP_SHARED;
        return OP_NONE;
    }
    if (!strcmp(q, "msvcrt.locking")) {
        *kind = LF101_LOCK_MSVCRT;
        TSNode op = call_arg(m, call, 1, "mode");
        if (ts_node_is_null(op))
            return OP_NONE;
        op_names(m, op, &ops);
        if (has_name(&ops, "msvcrt.LK_UNLCK") || has_int(&ops, 0))
            return OP_UNLOCK;
        if (has_name(&ops, "msvcrt.LK_LOCK") || has_name(&ops, "msvcrt.LK_RLCK"))
            return OP_EXCLUSIVE;
        if (has_name(&ops, "msvcrt.LK_NBLCK") || has_name(&ops, "msvcrt.LK_NBRLCK"))
            return OP_EXCLUSIVE_NB;
        return OP_NONE;
    }
    return OP_NONE;
}

/* The name a call's callee starts from (`fcntl` of `fcntl.flock(...)`), or null. */
static TSNode callee_root(TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    while (lf_tree_is(fn, "attribute"))
        fn = lf_tree_unparen(lf_tree_field(fn, "object"));
    return lf_tree_is(fn, "identifier") ? fn : (TSNode){0};
}

/* The optional module a call's callee goes through (`fcntl.flock` with fcntl
 * optional; `flock(...)` from an optional `from fcntl import flock`). */
static const lf_pyoptional *callee_optional(lf_pysem *m, TSNode call) {
    TSNode fn = callee_root(call);
    if (ts_node_is_null(fn))
        return NULL;
    char *name = lf_tree_text(m->src, fn);
    const lf_pyoptional *o = lf_pysem_optional(m, name);
    free(name);
    if (!o)
        return NULL;
    /* The use must see the module-level binding, not a local of the same name. */
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, fn), o->name, ts_node_start_byte(fn));
    return b && b->scope == 0 ? o : NULL;
}

/* The function's own import of the module the lock call goes through
 * (`import fcntl` in the function that calls `fcntl.flock`), or NULL. */
static const lf_pybinding *function_import(lf_pysem *m, TSNode call) {
    TSNode fn = callee_root(call);
    if (ts_node_is_null(fn))
        return NULL;
    char *name = lf_tree_text(m->src, fn);
    int32_t scope = lf_pysem_scope_of(m, fn);
    const lf_pybinding *b = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(fn));
    free(name);
    if (!b || b->scope != scope || scope == 0 || b->kind != LF_PYBIND_IMPORT || !b->qualname || b->stmt < 0)
        return NULL;
    return b;
}

/* Fills s->local_module with the import b and returns it. */
static const lf_pyoptional *set_local_module(lf101_site *s, const lf_pybinding *b, int platform_gated) {
    memset(&s->local_module, 0, sizeof s->local_module);
    s->local_module.name = b->name;
    s->local_module.module = b->qualname;
    s->local_module.import = b;
    s->local_module.guard = -1;
    s->local_module.platform_gated = platform_gated;
    return &s->local_module;
}

/* A lock module imported in the function itself, as the first statement of
 * a try whose handler catches the failed import: `try: import fcntl; ...
 * except ImportError: <the work, unlocked>`. Fills s->local_module. */
static const lf_pyoptional *local_optional(lf_pysem *m, TSNode call, lf101_site *s) {
    const lf_pybinding *b = function_import(m, call);
    if (!b || m->stmts[b->stmt].clause != LF_PYCLAUSE_TRY_BODY)
        return NULL;
    int32_t tr = m->stmts[b->stmt].parent;
    if (tr < 0 || !lf_tree_is(m->stmts[tr].node, "try_statement") ||
        lf_pysem_first_in_block(m, lf_tree_field(m->stmts[tr].node, "body")) != b->stmt)
        return NULL;
    int caught = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(m->stmts[tr].node); i++) {
        TSNode c = ts_node_named_child(m->stmts[tr].node, i);
        if (lf_tree_is(c, "except_clause") && lf101_catches_import_error(m, c))
            caught = 1;
    }
    return caught ? set_local_module(s, b, 0) : NULL;
}

/* A POSIX-only lock module the function imports itself, outside any try,
 * past an early way out on a platform test (`if sys.platform == "win32":
 * yield None; return` ... `import fcntl`): absent wherever that test holds.
 * Fills s->local_module. */
static const lf_pyoptional *platform_local(lf_pysem *m, TSNode call, lf101_site *s) {
    const lf_pybinding *b = function_import(m, call);
    if (!b || !lf_pysem_posix_only_module(b->qualname) || m->stmts[b->stmt].clause != LF_PYCLAUSE_TOP)
        return NULL;
    return set_local_module(s, b, 1);
}

static int is_local_module(const lf101_site *s) {
    return s->module && s->module == &s->local_module && !s->local_module.platform_gated;
}

static int is_platform_gated(const lf101_site *s) { return s->module && s->module->platform_gated; }

/* ---- statements ---- */

static TSNode expr_of_statement(TSNode stmt) {
    if (!lf_tree_is(stmt, "expression_statement") || lf_tree_child_count(stmt) != 1)
        return (TSNode){0};
    return lf_tree_unparen(lf_tree_child(stmt, 0));
}

static int is_return(TSNode stmt) { return lf_tree_is(stmt, "return_statement"); }
static int is_bare_return(TSNode stmt) { return is_return(stmt) && lf_tree_child_count(stmt) == 0; }

/* Statements of a block (comments aside), as model indices, appended to out. */
typedef LF_VEC(int32_t) idx_vec;

static void block_statements(lf_pysem *m, TSNode block, idx_vec *out) {
    for (int32_t s = lf_pysem_first_in_block(m, block); s >= 0; s = lf_pysem_next_sibling(m, s))
        LF_VEC_PUSH(out, s);
}

/* The siblings from `first` to the end of its block. */
static void rest_of_block(lf_pysem *m, int32_t first, idx_vec *out) {
    for (int32_t s = first; s >= 0; s = lf_pysem_next_sibling(m, s))
        LF_VEC_PUSH(out, s);
}

/* Is the statement a block of a function body (so falling off its end returns None)? */
static int at_function_top(const lf_pysem *m, int32_t s) {
    return m->stmts[s].clause == LF_PYCLAUSE_TOP && m->scopes[m->stmts[s].scope].kind == LF_PYSCOPE_FUNCTION;
}

/* Two paths run the same statements: equal one for one, where a bare `return`
 * at the end of one equals falling off the end of a function body in the other. */
static int same_path(lf_pysem *m, const idx_vec *a, const idx_vec *b, int function_top) {
    size_t na = a->len, nb = b->len;
    if (function_top) {
        if (na && is_bare_return(m->stmts[a->items[na - 1]].node))
            na--;
        if (nb && is_bare_return(m->stmts[b->items[nb - 1]].node))
            nb--;
    }
    if (na != nb || na == 0)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (!lf_tree_equal(m->src, m->stmts[a->items[i]].node, m->src, m->stmts[b->items[i]].node, EQ_FLAGS))
            return 0;
    return 1;
}

/* Does every path through the statements end in a return? (The last
 * statement is a return, or an if/else or try whose every branch ends so.) */
static int always_returns(lf_pysem *m, const idx_vec *stmts) {
    if (!stmts->len)
        return 0;
    TSNode last = m->stmts[stmts->items[stmts->len - 1]].node;
    if (is_return(last) || lf_tree_is(last, "raise_statement"))
        return 1;
    return 0;
}

/* ---- calls shared by two paths: the detection's weaker notion of a copy ---- */

static const char *const k_not_work[] = {"print", "len", "str", "int", "float", "bool", "repr", "isinstance",
                                         "time.sleep", "time.time", "time.monotonic", "os.getpid", "os.close",
                                         "logging.debug", "logging.info", "logging.warning", "logging.error",
                                         "logging.exception", NULL};

static int is_work_call(lf_pysem *m, TSNode call, const lf_pyoptional *module) {
    const char *q = lf_pysem_callee(m, call);
    if (q) {
        for (size_t i = 0; k_not_work[i]; i++)
            if (!strcmp(q, k_not_work[i]))
                return 0;
        if (module && strncmp(q, module->module, strlen(module->module)) == 0)
            return 0;
        size_t n = strlen(q);
        /* Logging through any logger object, and closing handles, is not the work. */
        static const char *const tails[] = {".debug", ".info", ".warning", ".warn", ".error", ".exception",
                                            ".critical", ".close", ".fileno", ".flush", NULL};
        for (size_t i = 0; tails[i]; i++) {
            size_t t = strlen(tails[i]);
            if (n >= t && !strcmp(q + n - t, tails[i]))
                return 0;
        }
    } else {
        TSNode fn = lf_tree_field(call, "function");
        if (lf_tree_is(fn, "attribute")) {
            TSNode a = lf_tree_field(fn, "attribute");
            static const char *const names[] = {"debug", "info", "warning", "warn", "error", "exception",
                                                "critical", "close", "fileno", "flush", NULL};
            for (size_t i = 0; names[i]; i++)
                if (lf_tree_text_eq(m->src, a, names[i]))
                    return 0;
        }
    }
    return 1;
}

typedef struct call_collect {
    lf_pysem *m;
    const lf_pyoptional *module;
    LF_VEC(TSNode) calls;
} call_collect;

static lf_walk_action visit_call(TSNode n, void *ud) {
    call_collect *c = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "call") && is_work_call(c->m, n, c->module)) {
        lock_op op;
        lf101_lock_kind k;
        op = lock_call(c->m, n, &k);
        if (op == OP_NONE)
            LF_VEC_PUSH(&c->calls, n);
    }
    return LF_WALK_CONTINUE;
}

static void collect_work_calls(lf_pysem *m, const idx_vec *stmts, const lf_pyoptional *module, call_collect *out) {
    out->m = m;
    out->module = module;
    for (size_t i = 0; i < stmts->len; i++)
        lf_tree_walk(m->stmts[stmts->items[i]].node, visit_call, out);
}

/* The first call of `unlocked` that equals a work call of `locked`, or null. */
static TSNode shared_call(lf_pysem *m, const idx_vec *locked, const idx_vec *unlocked, const lf_pyoptional *module) {
    call_collect a = {0}, b = {0};
    collect_work_calls(m, locked, module, &a);
    collect_work_calls(m, unlocked, module, &b);
    TSNode found = (TSNode){0};
    if (a.calls.len && b.calls.len) {
        /* Hash the locked calls into a small open-addressing table. */
        size_t cap = 16;
        while (cap < 2 * a.calls.len)
            cap *= 2;
        uint64_t *keys = lf_xcalloc(cap, sizeof *keys);
        size_t *vals = lf_xcalloc(cap, sizeof *vals);
        /* One pass per statement hashes all its calls, however deeply they nest. */
        uint64_t *ha = lf_xcalloc(a.calls.len, sizeof *ha), *hb = lf_xcalloc(b.calls.len, sizeof *hb);
        for (size_t i = 0; i < locked->len; i++)
            lf_tree_hash_nodes(m->src, m->stmts[locked->items[i]].node, EQ_FLAGS, a.calls.items, a.calls.len, ha);
        for (size_t i = 0; i < unlocked->len; i++)
            lf_tree_hash_nodes(m->src, m->stmts[unlocked->items[i]].node, EQ_FLAGS, b.calls.items, b.calls.len, hb);
        for (size_t i = 0; i < a.calls.len; i++) {
            uint64_t h = ha[i] | 1;
            size_t k = (size_t)(h >> 7) & (cap - 1);
            while (keys[k] && keys[k] != h)
                k = (k + 1) & (cap - 1);
            if (!keys[k]) {
                keys[k] = h;
                vals[k] = i;
            }
        }
        for (size_t i = 0; i < b.calls.len && ts_node_is_null(found); i++) {
            uint64_t h = hb[i] | 1;
            size_t k = (size_t)(h >> 7) & (cap - 1);
            for (; keys[k]; k = (k + 1) & (cap - 1)) {
                if (keys[k] == h &&
                    lf_tree_equal(m->src, a.calls.items[vals[k]], m->src, b.calls.items[i], EQ_FLAGS)) {
                    found = b.calls.items[i];
                    break;
                }
            }
        }
        free(keys);
        free(vals);
        free(ha);
        free(hb);
    }
    LF_VEC_FREE(&a.calls);
    LF_VEC_FREE(&b.calls);
    return found;
}

/* ---- a context manager's critical section: its yield ---- */

typedef struct yield_find {
    TSNode found;
} yield_find;

static lf_walk_action visit_yield(TSNode n, void *ud) {
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "yield")) {
        ((yield_find *)ud)->found = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static TSNode first_yield(lf_pysem *m, const idx_vec *stmts) {
    yield_find y;
    memset(&y, 0, sizeof y);
    for (size_t i = 0; i < stmts->len && ts_node_is_null(y.found); i++)
        lf_tree_walk(m->stmts[stmts->items[i]].node, visit_yield, &y);
    return y.found;
}

typedef struct lock_find {
    lf_pysem *m;
    int found;
} lock_find;

static lf_walk_action visit_other_lock(TSNode n, void *ud) {
    lock_find *f = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "call"))
        return LF_WALK_CONTINUE;
    lf101_lock_kind k;
    lock_op op = lock_call(f->m, n, &k);
    if (op == OP_EXCLUSIVE || op == OP_EXCLUSIVE_NB || lf_pysem_call_is(f->m, n, lf101_lock_classes)) {
        f->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Does the "unlocked" path take a lock of its own (`with FileLock(P):` where
 * fcntl is missing)? Then it is another lock, not a fallback. */
static int path_locks(lf_pysem *m, const idx_vec *stmts) {
    lock_find f = {m, 0};
    for (size_t i = 0; i < stmts->len && !f.found; i++)
        lf_tree_walk(m->stmts[stmts->items[i]].node, visit_other_lock, &f);
    return f.found;
}

/* In a @contextmanager, the caller's with body runs at the yield: two paths
 * that both yield share that critical section. The unlocked path's yield. */
static TSNode shared_yield(lf_pysem *m, TSNode call, const idx_vec *locked, const idx_vec *unlocked) {
    int32_t sc = lf_pysem_scope_of(m, call);
    if (sc <= 0 || !lf101_is_contextmanager(m, m->scopes[sc].node) || ts_node_is_null(first_yield(m, locked)))
        return (TSNode){0};
    /* `yield False`: the caller is told the lock was not taken; whether it
     * goes on regardless is judged at the callers (lf101_helper.c). */
    TSNode y = first_yield(m, unlocked);
    if (!ts_node_is_null(y) && lf_tree_is(lf_tree_unparen(ts_node_named_child(y, 0)), "false"))
        return (TSNode){0};
    return y;
}

/* ---- recognition ---- */

typedef struct recog {
    lf_pysem *m;
    TSNode call;           /* the lock call */
    int with_lock;         /* the call is `with LockClass(path):`, taking the lock for the with body */
    lock_op op;
    lf101_site *site;
    idx_vec body;          /* BODY statements */
    idx_vec cont;          /* what the locked path runs after the region (the early-out shape) */
    idx_vec copy;          /* the unlocked path's statements */
    int32_t acquire_stmt;  /* statement (or retry loop / conditional if) that takes the lock */
    int32_t region_unit_first, region_unit_last; /* the locked region (with / open..try) */
    TSNode at;             /* where the finding goes */
    int32_t function_top;  /* the copy's block is a function body */
    TSNode handler;        /* a swallowing except clause */
    int opened_in_test;    /* `if PRESENT: h = open(P); <acquire h>`: the handle exists only on the locked path */
} recog;

static int decline(lf101_site *s, char *reason) {
    if (!s->decline)
        s->decline = reason;
    else
        free(reason);
    return 0;
}

/* `while True: try: <acquire NB>; break / except BlockingIOError: sleep(...)`:
 * a non-blocking acquisition retried until it succeeds, i.e. a blocking one. */
static int32_t retry_loop(lf_pysem *m, int32_t s) {
    int32_t tr = m->stmts[s].parent;
    if (tr < 0 || m->stmts[s].clause != LF_PYCLAUSE_TRY_BODY || !lf_tree_is(m->stmts[tr].node, "try_statement"))
        return -1;
    int32_t loop = m->stmts[tr].parent;
    if (loop < 0 || m->stmts[tr].clause != LF_PYCLAUSE_LOOP_BODY || !lf_tree_is(m->stmts[loop].node, "while_statement"))
        return -1;
    TSNode cond = lf_tree_unparen(lf_tree_field(m->stmts[loop].node, "condition"));
    if (!lf_tree_is(cond, "true") && !lf_tree_text_eq(m->src, cond, "1"))
        return -1;
    /* The loop holds only the try; the try's body is the acquire and `break`. */
    idx_vec in = {0};
    block_statements(m, lf_tree_field(m->stmts[loop].node, "body"), &in);
    int ok = in.len == 1 && in.items[0] == tr;
    in.len = 0;
    block_statements(m, lf_tree_field(m->stmts[tr].node, "body"), &in);
    ok = ok && in.len == 2 && in.items[0] == s && lf_tree_is(m->stmts[in.items[1]].node, "break_statement");
    LF_VEC_FREE(&in);
    return ok ? loop : -1;
}

static int is_plain_release(lf_pysem *m, TSNode stmt, const char *h);
static int is_log_stmt(lf_pysem *m, TSNode stmt);

/* The exception names an except clause lists (`except (A, B) as e:`), each
 * as its qualified name or NULL where the model cannot place it, in out[];
 * how many, or -1 for a bare `except:`. */
enum { MAX_EXCEPT_NAMES = 32 };
static int except_names(lf_pysem *m, TSNode clause, const char *out[MAX_EXCEPT_NAMES]) {
    TSNode v = lf_tree_field(clause, "value");
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    if (ts_node_is_null(v))
        return -1;
    int listed = lf_tree_is(v, "tuple") || lf_tree_is(v, "parenthesized_expression");
    uint32_t n = listed ? ts_node_named_child_count(v) : 1;
    int k = 0;
    for (uint32_t i = 0; i < n && k < MAX_EXCEPT_NAMES; i++)
        out[k++] = lf_pysem_qualname(m, listed ? ts_node_named_child(v, i) : v);
    if (n > MAX_EXCEPT_NAMES)
        out[MAX_EXCEPT_NAMES - 1] = NULL; /* more than that: one name it cannot place */
    return k;
}

/* `try: <release> except OSError: <pass or log>`: a release whose error is
 * ignored (lockrt's release raises nothing for an unlock that fails). */
static int is_guarded_release(lf_pysem *m, TSNode stmt, const char *h) {
    int body = 0, handlers = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
        TSNode c = ts_node_named_child(stmt, i);
        idx_vec in = {0};
        if (lf_tree_is(c, "block")) {
            block_statements(m, c, &in);
            body = in.len > 0;
            for (size_t k = 0; k < in.len && body; k++)
                body = is_plain_release(m, m->stmts[in.items[k]].node, h);
        } else if (lf_tree_is(c, "except_clause")) {
            /* OSError, or a tuple of its names (`except (OSError, IOError):`). */
            const char *names[MAX_EXCEPT_NAMES];
            int nv = except_names(m, c, names);
            int ok = nv > 0;
            for (int j = 0; ok && j < nv; j++)
                ok = names[j] && (!strcmp(names[j], "OSError") || !strcmp(names[j], "IOError") ||
                                  !strcmp(names[j], "EnvironmentError"));
            for (uint32_t j = 0; ok && j < ts_node_named_child_count(c); j++)
                if (lf_tree_is(ts_node_named_child(c, j), "block"))
                    block_statements(m, ts_node_named_child(c, j), &in);
            for (size_t k = 0; k < in.len && ok; k++)
                ok = lf_tree_is(m->stmts[in.items[k]].node, "pass_statement") ||
                     is_log_stmt(m, m->stmts[in.items[k]].node);
            handlers = ok && in.len ? handlers + 1 : -1000;
        } else if (!lf_tree_is(c, "comment")) {
            LF_VEC_FREE(&in);
            return 0;
        }
        LF_VEC_FREE(&in);
    }
    return body && handlers > 0;
}

/* A statement that only releases the lock or closes the handle `h`. */
static int is_release(lf_pysem *m, TSNode stmt, const char *h) {
    return lf_tree_is(stmt, "try_statement") ? is_guarded_release(m, stmt, h) : is_plain_release(m, stmt, h);
}

static int is_plain_release(lf_pysem *m, TSNode stmt, const char *h) {
    TSNode e = expr_of_statement(stmt);
    if (!lf_tree_is(e, "call"))
        return 0;
    lf101_lock_kind k;
    if (lock_call(m, e, &k) == OP_UNLOCK)
        return 1;
    const char *q = lf_pysem_callee(m, e);
    if (q && !strcmp(q, "os.close"))
        return lf_tree_text_eq(m->src, call_arg(m, e, 0, NULL), h);
    TSNode fn = lf_tree_field(e, "function");
    return lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "close") &&
           lf_tree_text_eq(m->src, lf_tree_field(fn, "object"), h);
}

static lf_walk_action visit_has_call(TSNode n, void *ud) {
    if (lf_tree_is(n, "call")) {
        *(int *)ud = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* A statement that only logs: `logger.debug("...")` through a logger from
 * logging.getLogger(), `logging.info(...)`, `warnings.warn(...)`, with no call
 * in its arguments (nothing else runs). */
static int is_log_stmt(lf_pysem *m, TSNode stmt) {
    TSNode e = expr_of_statement(stmt);
    if (!lf_tree_is(e, "call"))
        return 0;
    int calls = 0;
    lf_tree_walk(lf_tree_field(e, "arguments"), visit_has_call, &calls);
    if (calls)
        return 0;
    static const char *const levels[] = {"debug", "info", "warning", "warn", "error", "critical", NULL};
    const char *q = lf_pysem_callee(m, e);
    if (q && !strcmp(q, "warnings.warn"))
        return 1;
    TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
    if (!lf_tree_is(fn, "attribute"))
        return 0;
    int level = 0;
    for (size_t i = 0; levels[i]; i++)
        if (lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), levels[i]))
            level = 1;
    if (!level)
        return 0;
    TSNode obj = lf_tree_unparen(lf_tree_field(fn, "object"));
    const char *oq = lf_pysem_qualname(m, obj);
    if (oq && !strcmp(oq, "logging"))
        return 1;
    TSNode v = lf_pysem_resolve_value(m, obj);
    return lf_tree_is(v, "call") && lf_pysem_callee(m, v) && !strcmp(lf_pysem_callee(m, v), "logging.getLogger");
}

/* `if h:` / `if h is not None:`: a test that the handle was opened. */
static int tests_handle(lf_pysem *m, TSNode cond, const char *h) {
    cond = lf_tree_unparen(cond);
    if (lf_tree_is(cond, "identifier"))
        return lf_tree_text_eq(m->src, cond, h);
    if (!lf_tree_is(cond, "comparison_operator") || ts_node_named_child_count(cond) != 2)
        return 0;
    TSNode l = lf_tree_unparen(ts_node_named_child(cond, 0)), r = lf_tree_unparen(ts_node_named_child(cond, 1));
    if (!lf_tree_is(l, "identifier") || !lf_tree_text_eq(m->src, l, h) || !lf_tree_is(r, "none"))
        return 0;
    /* The operator between them is `is not`. */
    uint32_t a = ts_node_end_byte(l), b = ts_node_start_byte(r);
    char op[16];
    size_t n = 0;
    for (uint32_t i = a; i < b && n + 1 < sizeof op; i++)
        if (m->src->text[i] != ' ' && m->src->text[i] != '\t')
            op[n++] = m->src->text[i];
    op[n] = 0;
    return !strcmp(op, "isnot");
}

/* `if PRESENT: <release>` (the conditional shape) and `if h is not None:
 * <release>` (a handle opened only where the lock module is present) count as
 * a release too. */
static int is_release_stmt(lf_pysem *m, TSNode stmt, const char *h) {
    if (lf_tree_is(stmt, "if_statement") && ts_node_is_null(lf_tree_field(stmt, "alternative"))) {
        idx_vec in = {0};
        block_statements(m, lf_tree_field(stmt, "consequence"), &in);
        int ok = in.len > 0;
        for (size_t i = 0; i < in.len && ok; i++)
            ok = is_release(m, m->stmts[in.items[i]].node, h);
        LF_VEC_FREE(&in);
        const lf_pyoptional *o;
        TSNode cond = lf_tree_field(stmt, "condition");
        return ok && (lf_pysem_presence_test(m, cond, &o) > 0 || tests_handle(m, cond, h));
    }
    return is_release(m, stmt, h);
}

/* The finally clause of a `try` that has nothing but its body and that
 * clause (no handler, no else), or null. */
static TSNode finally_only(TSNode tr) {
    TSNode fin = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
        TSNode c = ts_node_named_child(tr, i);
        if (lf_tree_is(c, "finally_clause"))
            fin = c;
        else if (!lf_tree_is(c, "block") && !lf_tree_is(c, "comment"))
            return (TSNode){0};
    }
    return fin;
}

/* Does the finally clause only release the lock or close the handle `h`
 * (at least one statement, each a release)? */
static int finally_releases(lf_pysem *m, TSNode fin, const char *h) {
    idx_vec rel = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(fin); i++)
        if (lf_tree_is(ts_node_named_child(fin, i), "block"))
            block_statements(m, ts_node_named_child(fin, i), &rel);
    int ok = rel.len > 0;
    for (size_t i = 0; i < rel.len && ok; i++)
        ok = is_release_stmt(m, m->stmts[rel.items[i]].node, h);
    LF_VEC_FREE(&rel);
    return ok;
}

/* BODY after the acquisition, in the statements `after` (the rest of a with
 * body, or what follows the acquisition): a try/finally that releases, or the
 * statements up to trailing releases. */
static int locked_body(recog *r, const idx_vec *after, const char *h) {
    lf_pysem *m = r->m;
    if (after->len == 1 && lf_tree_is(m->stmts[after->items[0]].node, "try_statement")) {
        TSNode tr = m->stmts[after->items[0]].node;
        TSNode fin = finally_only(tr);
        if (!ts_node_is_null(fin)) {
            if (!finally_releases(m, fin, h))
                return decline(r->site, lf_xstrdup("the `finally` after the lock does more than unlock and close the "
                                                   "lock file, which the rewrite would drop"));
            block_statements(m, lf_tree_field(tr, "body"), &r->body);
            return r->body.len > 0;
        }
    }
    size_t n = after->len;
    while (n > 0 && is_release_stmt(m, m->stmts[after->items[n - 1]].node, h))
        n--;
    for (size_t i = 0; i < n; i++)
        LF_VEC_PUSH(&r->body, after->items[i]);
    return r->body.len > 0;
}

/* The handler swallows errors and does nothing else (`except OSError: pass`). */
static int handler_passes(lf_pysem *m, TSNode exc) {
    for (uint32_t j = 0; j < ts_node_named_child_count(exc); j++) {
        TSNode b = ts_node_named_child(exc, j);
        if (!lf_tree_is(b, "block"))
            continue;
        idx_vec in = {0};
        block_statements(m, b, &in);
        int ok = in.len > 0;
        for (size_t i = 0; i < in.len && ok; i++) {
            TSNode s = m->stmts[in.items[i]].node;
            TSNode e = expr_of_statement(s);
            ok = lf_tree_is(s, "pass_statement") || lf_tree_is(e, "ellipsis");
        }
        LF_VEC_FREE(&in);
        return ok;
    }
    return 0;
}

/* The handler catches what the acquisition raises: OSError or one of its
 * subclasses, or everything. `absent` also needs what calling a None module
 * raises (AttributeError/TypeError). */
static int handler_catches(lf_pysem *m, TSNode exc, int need_absent) {
    const char *names[MAX_EXCEPT_NAMES];
    int n = except_names(m, exc, names);
    if (n < 0)
        return 1; /* bare except */
    static const char *const os_errors[] = {"OSError",         "IOError",      "EnvironmentError", "BlockingIOError",
                                            "PermissionError", "TimeoutError", "Exception",        "BaseException",
                                            NULL};
    int os = 0, absent = 0;
    for (int i = 0; i < n; i++) {
        const char *q = names[i];
        if (!q)
            continue;
        for (size_t k = 0; os_errors[k]; k++)
            if (!strcmp(q, os_errors[k]))
                os = 1;
        if (!strcmp(q, "AttributeError") || !strcmp(q, "TypeError") || !strcmp(q, "Exception") ||
            !strcmp(q, "BaseException"))
            absent = 1;
    }
    return need_absent ? absent : os;
}

/* A BODY that is one `try: WORK finally: <unlock/close h>` (the unlock in a
 * finally of its own, inside the try/finally that closes the handle) is WORK:
 * the rewrite's `with` releases the lock the same way. Iterative. */
static void peel_release_try(recog *r, const char *h) {
    lf_pysem *m = r->m;
    while (r->body.len == 1 && lf_tree_is(m->stmts[r->body.items[0]].node, "try_statement")) {
        TSNode tr = m->stmts[r->body.items[0]].node;
        TSNode fin = finally_only(tr);
        if (ts_node_is_null(fin))
            return;
        int ok = finally_releases(m, fin, h);
        idx_vec in = {0};
        block_statements(m, lf_tree_field(tr, "body"), &in);
        if (!ok || !in.len) {
            LF_VEC_FREE(&in);
            return;
        }
        r->body.len = 0;
        for (size_t i = 0; i < in.len; i++)
            LF_VEC_PUSH(&r->body, in.items[i]);
        LF_VEC_FREE(&in);
    }
}

/* ---- a try whose handlers stay around the rewrite ---- */

/* Names of exceptions that are no OSError: a handler naming only these never
 * saw the old lock's errors and will not see lockrt's. */
static const char *const k_not_os_errors[] = {
    "ValueError",   "KeyError",          "TypeError",          "IndexError",     "LookupError",
    "AttributeError", "UnicodeError",    "UnicodeDecodeError", "RuntimeError",   "NotImplementedError",
    "KeyboardInterrupt", "json.JSONDecodeError", "json.decoder.JSONDecodeError", NULL};
/* OSError and what holds it: a handler naming one of these catches them all. */
static const char *const k_all_os_errors[] = {"OSError",   "IOError",       "EnvironmentError",
                                              "Exception", "BaseException", NULL};

/* How much of OSError an except clause catches: 1 all of it, 0 none of it,
 * -1 some (a subclass such as PermissionError) or a name it cannot tell. */
static int handler_os_reach(lf_pysem *m, TSNode exc) {
    const char *names[MAX_EXCEPT_NAMES];
    int n = except_names(m, exc, names);
    if (n < 0)
        return 1; /* bare except */
    int all = 0, unknown = 0;
    for (int i = 0; i < n; i++) {
        if (lf_str_in_list(names[i], k_all_os_errors))
            all = 1;
        else if (!lf_str_in_list(names[i], k_not_os_errors))
            unknown = 1;
    }
    return all ? 1 : unknown ? -1 : 0;
}

/* A handler statement that needs no lock: pass, `...`, a return of a value
 * computed without a call, a raise, or a log or print line. */
static int handler_stmt_needs_no_lock(lf_pysem *m, TSNode st) {
    if (lf_tree_is(st, "pass_statement") || lf_tree_is(st, "raise_statement") ||
        lf_tree_is(expr_of_statement(st), "ellipsis") || is_log_stmt(m, st))
        return 1;
    int calls = 0;
    if (is_return(st)) {
        lf_tree_walk(st, visit_has_call, &calls);
        return !calls;
    }
    TSNode e = expr_of_statement(st);
    if (!lf_tree_is(e, "call"))
        return 0;
    const char *q = lf_pysem_callee(m, e);
    if (!q || (strcmp(q, "print") != 0 && strcmp(q, "sys.stderr.write") != 0))
        return 0;
    lf_tree_walk(lf_tree_field(e, "arguments"), visit_has_call, &calls);
    return !calls;
}

/* `try: h = open(P); <acquire h>; BODY  except ...: HANDLER  finally: <release h>`:
 * may the rewrite keep the except clauses around its `with`? An error taking
 * lockrt's lock is an OSError (LockrtError), so it meets them where the old
 * lock's errors did when each clause catches all of OSError or none of it.
 * A handler ran before the finally released the lock and will run after the
 * `with` released it, so it may do only what needs no lock. Returns 1 (kept),
 * 0 (not this shape) or 0 with the site declined. */
static int keepable_try(recog *r, TSNode tr, const char *h) {
    lf_pysem *m = r->m;
    TSNode fin = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
        TSNode c = ts_node_named_child(tr, i);
        if (lf_tree_is(c, "finally_clause"))
            fin = c;
        else if (!lf_tree_is(c, "block") && !lf_tree_is(c, "except_clause"))
            return 0; /* an else clause, except*, a comment between clauses */
    }
    if (ts_node_is_null(fin))
        return 0;
    if (!finally_releases(m, fin, h))
        return decline(r->site, lf_xstrdup("the `finally` after the lock does more than unlock and close the lock "
                                           "file, which the rewrite would drop"));
    for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
        TSNode c = ts_node_named_child(tr, i);
        if (!lf_tree_is(c, "except_clause"))
            continue;
        uint32_t line, col;
        lf_source_position(m->src, ts_node_start_byte(c), &line, &col);
        if (handler_os_reach(m, c) < 0)
            return decline(r->site, lf_xasprintf("the handler at line %u catches some OSErrors but not all: the old "
                                                 "lock's errors could be among them, and lockrt raises its own "
                                                 "(LockrtError), which that handler would not catch",
                                                 line));
        idx_vec in = {0};
        for (uint32_t j = 0; j < ts_node_named_child_count(c); j++)
            if (lf_tree_is(ts_node_named_child(c, j), "block"))
                block_statements(m, ts_node_named_child(c, j), &in);
        int ok = in.len > 0 && !lf_tree_mentions(m->src, c, h, NULL);
        for (size_t k = 0; k < in.len && ok; k++)
            ok = handler_stmt_needs_no_lock(m, m->stmts[in.items[k]].node);
        LF_VEC_FREE(&in);
        if (!ok)
            return decline(r->site, lf_xasprintf("the handler at line %u does more than return, raise or log: it ran "
                                                 "while the lock was held, and would run after lockrt's lock is "
                                                 "released",
                                                 line));
    }
    return 1;
}

/* Is the name used outside the byte range [lo, hi)? */
typedef struct outside_use {
    const lf_source *src;
    const char *name;
    uint32_t lo, hi;
    int found;
} outside_use;

static lf_walk_action visit_outside_use(TSNode n, void *ud) {
    outside_use *u = ud;
    uint32_t at = ts_node_start_byte(n);
    if (at >= u->lo && at < u->hi)
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "identifier") && lf_tree_text_eq(u->src, n, u->name)) {
        u->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* `h = None` right before the try statement `tr`, in a function that uses h
 * nowhere else: it goes with the rewrite of the try. Its index, or -1. */
static int32_t none_init_before(lf_pysem *m, int32_t tr, const char *h) {
    int32_t prev = -1;
    for (int32_t x = lf_pysem_first_in_block(m, m->stmts[tr].block); x >= 0 && x != tr; x = lf_pysem_next_sibling(m, x))
        prev = x;
    TSNode pe = prev >= 0 ? expr_of_statement(m->stmts[prev].node) : (TSNode){0};
    TSNode fn = m->scopes[m->stmts[tr].scope].node;
    if (!lf_tree_is(pe, "assignment") || !lf_tree_text_eq(m->src, lf_tree_field(pe, "left"), h) ||
        !lf_tree_is(lf_tree_unparen(lf_tree_field(pe, "right")), "none") || !lf_tree_is(fn, "function_definition"))
        return -1;
    outside_use u = {m->src, h, ts_node_start_byte(m->stmts[prev].node), ts_node_end_byte(m->stmts[tr].node), 0};
    lf_tree_walk(lf_tree_field(fn, "body"), visit_outside_use, &u);
    return u.found ? -1 : prev;
}

/* Find the handle's opening and the locked region around the acquisition. */
static int locked_region(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    TSNode target = lf_tree_unparen(call_arg(m, r->call, 0, "fd"));
    /* `f.fileno()` locks f. */
    if (lf_tree_is(target, "call")) {
        TSNode fn = lf_tree_field(target, "function");
        if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "fileno") &&
            lf_tree_child_count(lf_tree_field(target, "arguments")) == 0)
            target = lf_tree_unparen(lf_tree_field(fn, "object"));
    }
    if (!lf_tree_is(target, "identifier"))
        return decline(s, lf_xstrdup("the lock is taken on an expression, not on a handle opened in this function"));
    char *h = lf_tree_text(m->src, target);
    int32_t scope = lf_pysem_scope_of(m, target);
    const lf_pybinding *b = lf_pysem_binding_at(m, scope, h, ts_node_start_byte(target));
    int ok = 0;
    if (!b || b->scope != scope || (b->kind != LF_PYBIND_WITH && b->kind != LF_PYBIND_ASSIGN) ||
        ts_node_is_null(b->value)) {
        decline(s, lf_xasprintf("the lock file handle `%s` is not opened in this function", h));
        goto out;
    }
    s->handle = b->target;
    TSNode opener = lf_tree_unparen(b->value);
    const char *oq = lf_tree_is(opener, "call") ? lf_pysem_callee(m, opener) : NULL;
    if (oq && (!strcmp(oq, "open") || !strcmp(oq, "io.open") || !strcmp(oq, "os.open") || !strcmp(oq, "codecs.open")))
        s->lock_path = call_arg(m, opener, 0, !strcmp(oq, "os.open") ? "path" : "file");
    else if (oq && !strcmp(oq, "pathlib.Path.open"))
        s->lock_path = lf_tree_field(lf_tree_field(opener, "function"), "object");
    if (ts_node_is_null(s->lock_path)) {
        decline(s, lf_xasprintf("the lock file handle `%s` does not come from open(), io.open(), os.open() or "
                                "Path.open()",
                                h));
        goto out;
    }
    if (s->kind == LF101_LOCK_MSVCRT && !(oq && !strcmp(oq, "os.open"))) {
        /* msvcrt.locking locks from the file position: append mode starts at the end. */
        TSNode mode = call_arg(m, opener, 1, "mode");
        if (!ts_node_is_null(mode) && memchr(m->src->text + ts_node_start_byte(mode), 'a',
                                             ts_node_end_byte(mode) - ts_node_start_byte(mode))) {
            decline(s, lf_xstrdup("msvcrt.locking on a file opened for appending locks bytes at its end, which "
                                  "lockrt's byte-0 lock would not exclude"));
            goto out;
        }
    }
    idx_vec after = {0};
    if (b->kind == LF_PYBIND_WITH) {
        int32_t w = b->stmt;
        if (w < 0 || (size_t)w >= m->n_stmts) {
            /* A `with` target no statement holds: the `with` sits inside an
             * ERROR node (a file mid-edit), so there is no block to read. */
            decline(s, lf_xstrdup("the `with` opening the lock file is not a whole statement"));
            goto out;
        }
        TSNode wn = m->stmts[w].node;
        TSNode clause = lf_tree_child(wn, 0);
        if (lf_tree_child_count(clause) != 1) {
            decline(s, lf_xstrdup("the `with` opening the lock file holds other context managers too"));
            goto out;
        }
        TSNode body = lf_tree_field(wn, "body");
        if (ts_node_is_null(body)) {
            decline(s, lf_xstrdup("the `with` opening the lock file has no body (the file does not parse there)"));
            goto out;
        }
        idx_vec in = {0};
        block_statements(m, body, &in);
        if (!in.len || in.items[0] != r->acquire_stmt) {
            LF_VEC_FREE(&in);
            decline(s, lf_xstrdup("the lock is not the first thing done in the `with` that opens the lock file"));
            goto out;
        }
        for (size_t i = 1; i < in.len; i++)
            LF_VEC_PUSH(&after, in.items[i]);
        LF_VEC_FREE(&in);
        r->region_unit_first = r->region_unit_last = w;
    } else if (r->opened_in_test) {
        /* `[h = None] try: if PRESENT: h = open(P); <acquire h>  BODY
         * finally: if h is not None: <unlock h; close h>`. */
        int32_t ifs = r->acquire_stmt, tr = m->stmts[ifs].parent;
        TSNode trn = tr >= 0 ? m->stmts[tr].node : (TSNode){0};
        TSNode fin = lf_tree_is(trn, "try_statement") ? finally_only(trn) : (TSNode){0};
        if (m->stmts[b->stmt].parent != ifs || m->stmts[ifs].clause != LF_PYCLAUSE_TRY_BODY ||
            lf_pysem_first_in_block(m, lf_tree_field(trn, "body")) != ifs || ts_node_is_null(fin)) {
            decline(s, lf_xstrdup("the lock file is opened and locked only on the locked path, outside a "
                                  "try/finally that releases it"));
            goto out;
        }
        TSNode lp = lf_tree_unparen(s->lock_path);
        if (!lf_tree_is(lp, "identifier") && !lf_tree_is(lp, "string")) {
            /* The rewrite evaluates the path on every path, not only where the lock module is present. */
            decline(s, lf_xstrdup("the lock path is computed only where the lock module is present; the rewrite "
                                  "would compute it on every platform"));
            goto out;
        }
        if (!finally_releases(m, fin, h)) {
            decline(s, lf_xstrdup("the `finally` after the lock does more than unlock and close the lock file"));
            goto out;
        }
        for (int32_t x = lf_pysem_next_sibling(m, ifs); x >= 0; x = lf_pysem_next_sibling(m, x))
            LF_VEC_PUSH(&r->body, x);
        peel_release_try(r, h);
        r->region_unit_first = r->region_unit_last = tr;
        /* `h = None` right before the try goes with it when nothing else uses h. */
        int32_t prev = none_init_before(m, tr, h);
        if (prev >= 0)
            r->region_unit_first = prev;
        ok = r->body.len > 0;
        if (!ok)
            decline(s, lf_xstrdup("nothing is done under the lock"));
        goto out;
    } else {
        int32_t hs = b->stmt;
        /* `h = open(P)`, then the acquisition, then try/finally; or `h = open(P)`
         * then `try: <acquire>; BODY finally: ...`. */
        int32_t next = lf_pysem_next_sibling(m, hs);
        if (next == r->acquire_stmt) {
            rest_of_block(m, lf_pysem_next_sibling(m, next), &after);
            /* Only the try/finally belongs to the region; what follows it is not BODY. */
            if (after.len && lf_tree_is(m->stmts[after.items[0]].node, "try_statement"))
                after.len = 1;
            r->region_unit_first = hs;
            r->region_unit_last = after.len ? after.items[after.len - 1] : r->acquire_stmt;
        } else if (next >= 0 && lf_tree_is(m->stmts[next].node, "try_statement") &&
                   m->stmts[r->acquire_stmt].parent == next &&
                   m->stmts[r->acquire_stmt].clause == LF_PYCLAUSE_TRY_BODY) {
            /* Acquire inside the try: BODY is the rest of that try's body. */
            idx_vec in = {0};
            block_statements(m, lf_tree_field(m->stmts[next].node, "body"), &in);
            if (!in.len || in.items[0] != r->acquire_stmt) {
                LF_VEC_FREE(&in);
                decline(s, lf_xstrdup("the lock is not the first thing done after opening the lock file"));
                goto out;
            }
            LF_VEC_FREE(&in);
            LF_VEC_PUSH(&after, next); /* reuse the try/finally shape below */
            r->region_unit_first = hs;
            r->region_unit_last = next;
            TSNode tr = m->stmts[next].node;
            TSNode fin = (TSNode){0};
            for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++)
                if (lf_tree_is(ts_node_named_child(tr, i), "finally_clause"))
                    fin = ts_node_named_child(tr, i);
            if (ts_node_is_null(fin)) {
                decline(s, lf_xstrdup("the lock file is not released in a `finally`"));
                LF_VEC_FREE(&after);
                goto out;
            }
            if (!finally_releases(m, fin, h)) {
                decline(s, lf_xstrdup("the `finally` after the lock does more than unlock and close the lock file"));
                LF_VEC_FREE(&after);
                goto out;
            }
            idx_vec tb = {0};
            block_statements(m, lf_tree_field(tr, "body"), &tb);
            for (size_t i = 1; i < tb.len; i++)
                LF_VEC_PUSH(&r->body, tb.items[i]);
            LF_VEC_FREE(&tb);
            LF_VEC_FREE(&after);
            peel_release_try(r, h);
            ok = r->body.len > 0;
            if (!ok)
                decline(s, lf_xstrdup("nothing is done under the lock"));
            goto out;
        } else {
            decline(s, lf_xasprintf("the lock is not taken right after opening the lock file into `%s`", h));
            goto out;
        }
    }
    ok = locked_body(r, &after, h);
    if (ok)
        peel_release_try(r, h);
    if (!ok)
        decline(s, lf_xstrdup("nothing is done under the lock"));
    LF_VEC_FREE(&after);
out:
    free(h);
    return ok;
}

/* ---- the unlocked path ---- */

/* Statements of the block that the statements [first..] start, before `stop`. */
static void siblings_before(lf_pysem *m, TSNode block, int32_t stop, idx_vec *out) {
    for (int32_t s = lf_pysem_first_in_block(m, block); s >= 0 && s != stop; s = lf_pysem_next_sibling(m, s))
        LF_VEC_PUSH(out, s);
}

static int presence_of_if(lf_pysem *m, TSNode ifs, const lf_pyoptional *module, const lf_pyoptional **which) {
    const lf_pyoptional *o = NULL;
    if (module && module->platform_gated) { /* Windows sends the function away before the import */
        int w = lf_pysem_windows_test(m, lf_tree_field(ifs, "condition"));
        *which = module;
        return -w;
    }
    int p = lf_pysem_presence_test(m, lf_tree_field(ifs, "condition"), &o);
    if (!p || !o || (module && o != module))
        return 0;
    *which = o;
    return p;
}

static int has_elif(TSNode ifs) {
    for (uint32_t i = 0; i < ts_node_named_child_count(ifs); i++)
        if (lf_tree_is(ts_node_named_child(ifs, i), "elif_clause"))
            return 1;
    return 0;
}

static TSNode else_body(TSNode ifs) {
    TSNode alt = lf_tree_field(ifs, "alternative");
    return lf_tree_is(alt, "else_clause") ? lf_tree_field(alt, "body") : (TSNode){0};
}

/* Look for the unlocked path around the region unit [first, last]; fill the
 * site's shape, region, pre, copy. 1 when an unlocked path was found. */
static int unlocked_path(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    int32_t first = r->region_unit_first, last = r->region_unit_last;
    s->pre_first = s->pre_last = -1;

    /* The conditional shape: `if PRESENT: <acquire>` inside the locked region. */
    if (lf_tree_is(m->stmts[r->acquire_stmt].node, "if_statement")) {
        s->shape = LF101_CONDITIONAL;
        s->test = m->stmts[r->acquire_stmt].node;
        r->at = s->test;
        s->region_first = first;
        s->region_last = last;
        for (size_t i = 0; i < r->body.len; i++)
            LF_VEC_PUSH(&r->copy, r->body.items[i]);
        s->copy_first = r->body.len ? r->body.items[0] : r->acquire_stmt;
        return 1;
    }

    /* The acquisition's own try, when it holds only [pre..., region]. */
    int32_t unit_first = first, unit_last = last, pre_first = -1;
    int32_t p = m->stmts[first].parent;
    TSNode handler_copy = (TSNode){0};
    if (p >= 0 && m->stmts[first].clause == LF_PYCLAUSE_TRY_BODY && lf_tree_is(m->stmts[p].node, "try_statement")) {
        TSNode tr = m->stmts[p].node;
        idx_vec in = {0};
        block_statements(m, lf_tree_field(tr, "body"), &in);
        int tail_is_region = in.len && in.items[in.len - 1] == last;
        int handlers = 0, passing = 0, extra = 0;
        TSNode lone = (TSNode){0};
        for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
            TSNode c = ts_node_named_child(tr, i);
            if (lf_tree_is(c, "except_clause")) {
                handlers++;
                lone = c;
                if (handler_passes(m, c) && handler_catches(m, c, 0))
                    passing++;
            } else if (!lf_tree_is(c, "block") && !lf_tree_is(c, "comment")) {
                extra = 1;
            }
        }
        /* `try: import fcntl; [pre...]; <region> except ImportError: COPY`: the
         * import goes with the rewrite, so it is no PRE statement. */
        int local = is_local_module(s) && s->module->import->stmt == in.items[0] && in.len > 1;
        if (local && tail_is_region && !extra && handlers == 1 && lf101_catches_import_error(m, lone)) {
            handler_copy = lone;
            if (in.items[1] != first)
                pre_first = in.items[1];
            unit_first = unit_last = p;
        } else if (tail_is_region && !extra && handlers && passing == handlers) {
            s->swallows = 1;
            r->handler = lone;
            if (in.items[0] != first)
                pre_first = in.items[0];
            unit_first = unit_last = p;
        } else if (tail_is_region && !extra && handlers == 1 && !handler_passes(m, lone) &&
                   handler_catches(m, lone, 1)) {
            handler_copy = lone;
            if (in.items[0] != first)
                pre_first = in.items[0];
            unit_first = unit_last = p;
        } else if (tail_is_region && !extra && handlers) {
            /* A handler that logs (or re-raises selectively): detected, not rewritten. */
            s->swallows = 1;
            r->handler = lone;
            unit_first = unit_last = p;
            decline(s, lf_xstrdup("the handler around the lock does more than `pass` (it logs or handles the "
                                  "error), which the rewrite would drop"));
        } else if (tail_is_region && in.items[0] == first && !ts_node_is_null(s->handle)) {
            /* The try opens the handle and its finally releases it: the try
             * keeps its handlers around the `with`; `h = None` before it goes
             * when nothing else uses h. */
            char *h = lf_tree_text(m->src, s->handle);
            if (keepable_try(r, tr, h)) {
                s->kept_try = tr;
                unit_first = unit_last = p;
                int32_t prev = none_init_before(m, p, h);
                if (prev >= 0)
                    unit_first = prev;
            }
            free(h);
        }
        LF_VEC_FREE(&in);
    }
    if (pre_first >= 0) {
        s->pre_first = pre_first;
        s->pre_last = -1;
        for (int32_t x = pre_first; x >= 0 && x != first; x = lf_pysem_next_sibling(m, x))
            s->pre_last = x;
    }

    /* The handler shape: `try: <locked> except (AttributeError, ...): COPY`. */
    if (!ts_node_is_null(handler_copy)) {
        s->shape = LF101_HANDLER;
        /* A handler for the failed import alone lets the lock's errors pass. */
        s->swallows = is_local_module(s) ? handler_catches(m, handler_copy, 0) : 1;
        r->at = is_local_module(s) ? handler_copy : m->stmts[unit_first].node;
        s->region_first = unit_first;
        s->region_last = unit_last;
        for (uint32_t j = 0; j < ts_node_named_child_count(handler_copy); j++)
            if (lf_tree_is(ts_node_named_child(handler_copy, j), "block"))
                block_statements(m, ts_node_named_child(handler_copy, j), &r->copy);
        s->copy_first = r->copy.len ? r->copy.items[0] : -1;
        return r->copy.len > 0;
    }

    /* Inside `if PRESENT:` (with maybe statements before the unit). */
    int32_t ip = m->stmts[unit_first].parent;
    const lf_pyoptional *o = NULL;
    if (ip >= 0 && lf_tree_is(m->stmts[ip].node, "if_statement") && !has_elif(m->stmts[ip].node)) {
        TSNode ifs = m->stmts[ip].node;
        int pres = presence_of_if(m, ifs, s->module, &o);
        lf_pyclause cl = m->stmts[unit_first].clause;
        TSNode other = (TSNode){0};
        if (pres > 0 && cl == LF_PYCLAUSE_IF_BODY)
            other = else_body(ifs);
        else if (pres < 0 && cl == LF_PYCLAUSE_ELSE_BODY)
            other = lf_tree_field(ifs, "consequence");
        else
            pres = 0;
        if (pres) {
            TSNode mine = pres > 0 ? lf_tree_field(ifs, "consequence") : else_body(ifs);
            idx_vec in = {0};
            block_statements(m, mine, &in);
            int tail = in.len && in.items[in.len - 1] == unit_last;
            if (tail && in.items[0] != unit_first && s->pre_first < 0) {
                s->pre_first = in.items[0];
                for (int32_t x = in.items[0]; x >= 0 && x != unit_first; x = lf_pysem_next_sibling(m, x))
                    s->pre_last = x;
            } else if (tail && in.items[0] != unit_first) {
                tail = 0; /* statements both before the try and inside it */
            }
            LF_VEC_FREE(&in);
            if (!tail)
                return decline(s, lf_xstrdup("the locked branch does more than take the lock around the work"));
            s->module = o;
            s->test = ifs;
            r->at = ifs;
            if (!ts_node_is_null(other)) {
                s->shape = LF101_ELSE;
                s->region_first = s->region_last = ip;
                block_statements(m, other, &r->copy);
            } else {
                s->shape = LF101_FALLTHROUGH;
                int32_t after = lf_pysem_next_sibling(m, ip);
                rest_of_block(m, after, &r->copy);
                s->region_first = ip;
                s->region_last = r->copy.len ? r->copy.items[r->copy.len - 1] : ip;
                r->function_top = after >= 0 && at_function_top(m, after);
            }
            s->copy_first = r->copy.len ? r->copy.items[0] : -1;
            return r->copy.len > 0;
        }
    }

    /* An early way out before the unit: `if ABSENT: COPY; return`. */
    {
        TSNode block = m->stmts[unit_first].block;
        idx_vec before = {0};
        siblings_before(m, block, unit_first, &before);
        for (size_t i = before.len; i-- > 0;) {
            TSNode st = m->stmts[before.items[i]].node;
            if (!lf_tree_is(st, "if_statement") || has_elif(st))
                continue;
            int pres = presence_of_if(m, st, s->module, &o);
            if (pres >= 0 || !ts_node_is_null(else_body(st)))
                continue;
            idx_vec c = {0};
            block_statements(m, lf_tree_field(st, "consequence"), &c);
            if (!always_returns(m, &c)) {
                LF_VEC_FREE(&c);
                continue;
            }
            s->shape = LF101_EARLY_OUT;
            s->module = o;
            s->test = st;
            r->at = st;
            s->region_first = before.items[i];
            s->region_last = unit_last;
            /* Statements between the test and the unit run on the locked path only. */
            if (i + 1 < before.len) {
                if (s->pre_first < 0) {
                    s->pre_first = before.items[i + 1];
                    s->pre_last = before.items[before.len - 1];
                } else {
                    LF_VEC_FREE(&c);
                    LF_VEC_FREE(&before);
                    return decline(s, lf_xstrdup("statements sit both between the test and the lock and inside "
                                                 "the lock's try"));
                }
            }
            for (size_t k = 0; k < c.len; k++)
                LF_VEC_PUSH(&r->copy, c.items[k]);
            s->copy_first = c.len ? c.items[0] : -1;
            LF_VEC_FREE(&c);
            /* The locked path goes on after the unit. */
            rest_of_block(m, lf_pysem_next_sibling(m, unit_last), &r->cont);
            r->function_top = at_function_top(m, unit_first);
            LF_VEC_FREE(&before);
            return r->copy.len > 0;
        }
        LF_VEC_FREE(&before);
    }

    /* Swallowed acquisition errors, then the work again after the try. */
    if (s->swallows && unit_first == unit_last && lf_tree_is(m->stmts[unit_first].node, "try_statement")) {
        s->shape = LF101_SWALLOWED;
        r->at = m->stmts[unit_first].node;
        int32_t after = lf_pysem_next_sibling(m, unit_last);
        rest_of_block(m, after, &r->copy);
        s->region_first = unit_first;
        s->region_last = r->copy.len ? r->copy.items[r->copy.len - 1] : unit_last;
        r->function_top = after >= 0 && at_function_top(m, after);
        s->copy_first = r->copy.len ? r->copy.items[0] : -1;
        return r->copy.len > 0;
    }
    return 0;
}

/* Without a recognisable locked region: an enclosing `if PRESENT:` (or a try
 * swallowing the acquisition's errors) whose other path shares work with the
 * locked one is still an unlocked fallback; it is reported, not rewritten. */
static int coarse_unlocked_path(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    int32_t fn_stmt = m->scopes[m->stmts[r->acquire_stmt].scope].stmt;
    for (int32_t x = r->acquire_stmt, up = m->stmts[x].parent; x >= 0 && x != fn_stmt;
         x = up, up = up >= 0 ? m->stmts[up].parent : -1) {
        const lf_pyoptional *o = NULL;
        /* An early way out before x: `if ABSENT: <work>; return`. */
        idx_vec before = {0};
        siblings_before(m, m->stmts[x].block, x, &before);
        for (size_t i = before.len; i-- > 0;) {
            TSNode st = m->stmts[before.items[i]].node;
            if (!lf_tree_is(st, "if_statement") || has_elif(st) || !ts_node_is_null(else_body(st)) ||
                presence_of_if(m, st, s->module, &o) >= 0)
                continue;
            idx_vec c = {0};
            block_statements(m, lf_tree_field(st, "consequence"), &c);
            if (!always_returns(m, &c)) {
                LF_VEC_FREE(&c);
                continue;
            }
            r->body.len = r->copy.len = 0;
            rest_of_block(m, x, &r->body);
            for (size_t k = 0; k < c.len; k++)
                LF_VEC_PUSH(&r->copy, c.items[k]);
            LF_VEC_FREE(&c);
            LF_VEC_FREE(&before);
            s->module = o;
            s->test = st;
            s->shape = LF101_EARLY_OUT;
            r->at = st;
            return 1;
        }
        LF_VEC_FREE(&before);
        if (up < 0 || up == fn_stmt)
            break;
        TSNode un = m->stmts[up].node;
        if (lf_tree_is(un, "if_statement") && !has_elif(un)) {
            int pres = presence_of_if(m, un, s->module, &o);
            lf_pyclause cl = m->stmts[x].clause;
            TSNode mine = (TSNode){0}, other = (TSNode){0};
            if (pres > 0 && cl == LF_PYCLAUSE_IF_BODY) {
                mine = lf_tree_field(un, "consequence");
                other = else_body(un);
            } else if (pres < 0 && cl == LF_PYCLAUSE_ELSE_BODY) {
                mine = else_body(un);
                other = lf_tree_field(un, "consequence");
            }
            if (ts_node_is_null(mine))
                continue;
            r->body.len = r->copy.len = 0;
            block_statements(m, mine, &r->body);
            if (!ts_node_is_null(other))
                block_statements(m, other, &r->copy);
            else
                rest_of_block(m, lf_pysem_next_sibling(m, up), &r->copy);
            s->module = o;
            s->test = un;
            s->shape = ts_node_is_null(other) ? LF101_FALLTHROUGH : LF101_ELSE;
            r->at = un;
            return 1;
        }
        if (lf_tree_is(un, "try_statement") && m->stmts[x].clause == LF_PYCLAUSE_TRY_BODY) {
            int swallows = 0;
            for (uint32_t i = 0; i < ts_node_named_child_count(un); i++) {
                TSNode c = ts_node_named_child(un, i);
                if (lf_tree_is(c, "except_clause") && handler_catches(m, c, 0))
                    swallows = 1;
            }
            /* A handler that raises or returns refuses to go on unlocked. */
            for (uint32_t i = 0; swallows && i < ts_node_named_child_count(un); i++) {
                TSNode c = ts_node_named_child(un, i);
                if (!lf_tree_is(c, "except_clause"))
                    continue;
                idx_vec hb = {0};
                for (uint32_t j = 0; j < ts_node_named_child_count(c); j++)
                    if (lf_tree_is(ts_node_named_child(c, j), "block"))
                        block_statements(m, ts_node_named_child(c, j), &hb);
                if (always_returns(m, &hb))
                    swallows = 0;
                LF_VEC_FREE(&hb);
            }
            if (!swallows)
                continue;
            r->body.len = r->copy.len = 0;
            rest_of_block(m, lf_pysem_next_sibling(m, up), &r->copy);
            /* Nothing after the try in its block: the unlocked copy is further
             * out (after an enclosing `if PRESENT:`), so keep climbing. */
            if (!r->copy.len)
                continue;
            block_statements(m, lf_tree_field(un, "body"), &r->body);
            s->swallows = 1;
            s->shape = LF101_SWALLOWED;
            r->at = un;
            return 1;
        }
    }
    return 0;
}

/* Is the critical section really reachable without the lock? Fills r->site
 * (with a decline reason when the rewrite cannot keep every path's behaviour);
 * returns 1 for a finding. */
static int recognise(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    s->acquire = r->call;
    s->module = callee_optional(m, r->call);
    if (!s->module)
        s->module = local_optional(m, r->call, s);
    if (!s->module)
        s->module = platform_local(m, r->call, s);
    int32_t st = lf_pysem_stmt_of(m, r->call);
    if (st < 0 || (!r->with_lock && !ts_node_eq(expr_of_statement(m->stmts[st].node), r->call)))
        return 0;
    r->acquire_stmt = st;
    if (r->op == OP_EXCLUSIVE_NB) {
        /* Retried until it succeeds it is a blocking lock; tried once, a held
         * lock sends the caller wherever its error goes. */
        int32_t loop = retry_loop(m, st);
        if (loop >= 0)
            r->acquire_stmt = loop;
        else
            s->try_once = 1;
    }
    /* `if PRESENT: <acquire>` alone: the conditional shape. */
    int32_t ip = m->stmts[r->acquire_stmt].parent;
    if (ip >= 0 && m->stmts[r->acquire_stmt].clause == LF_PYCLAUSE_IF_BODY &&
        lf_tree_is(m->stmts[ip].node, "if_statement") && ts_node_is_null(lf_tree_field(m->stmts[ip].node, "alternative"))) {
        idx_vec in = {0};
        block_statements(m, lf_tree_field(m->stmts[ip].node, "consequence"), &in);
        const lf_pyoptional *o = NULL;
        if (in.len == 1 && presence_of_if(m, m->stmts[ip].node, s->module, &o) > 0) {
            r->acquire_stmt = ip;
            s->module = o;
        } else if (!r->with_lock && in.len == 2 && in.items[1] == st &&
                   lf_tree_is(expr_of_statement(m->stmts[in.items[0]].node), "assignment") &&
                   presence_of_if(m, m->stmts[ip].node, s->module, &o) > 0) {
            /* `if PRESENT: h = open(P); flock(h)`: locked_region checks that h
             * is what the assignment binds. */
            r->acquire_stmt = ip;
            r->opened_in_test = 1;
            s->module = o;
        }
        LF_VEC_FREE(&in);
    }
    int precise;
    if (r->with_lock) {
        /* `with portalocker.Lock(P):` / `with FileLock(P):` takes the lock for its body. */
        r->region_unit_first = r->region_unit_last = st;
        block_statements(m, lf_tree_field(m->stmts[st].node, "body"), &r->body);
        s->lock_path = call_arg(m, r->call, 0, NULL);
        precise = r->body.len > 0 && unlocked_path(r);
    } else {
        precise = locked_region(r) && unlocked_path(r);
    }
    if (!precise) {
        r->cont.len = 0;
        if (!coarse_unlocked_path(r))
            return 0;
        if (!s->decline)
            decline(s, lf_xstrdup("the locked path is not a lock file opened, locked and released around the work "
                                  "in a shape the rewrite knows"));
    }
    if (!s->module && s->shape != LF101_SWALLOWED)
        return 0;
    if (s->shape != LF101_CONDITIONAL && path_locks(m, &r->copy))
        return 0;
    /* An unlocked path that raises refuses to proceed: the correct shape. */
    if (s->shape != LF101_CONDITIONAL && r->copy.len &&
        lf_tree_is(m->stmts[r->copy.items[r->copy.len - 1]].node, "raise_statement"))
        return 0;
    /* The rewrite's precondition: both paths run the same statements. */
    int same = 1;
    if (s->shape != LF101_CONDITIONAL) {
        idx_vec locked = {0};
        for (size_t i = 0; i < r->body.len; i++)
            LF_VEC_PUSH(&locked, r->body.items[i]);
        for (size_t i = 0; i < r->cont.len; i++)
            LF_VEC_PUSH(&locked, r->cont.items[i]);
        same = precise && same_path(m, &locked, &r->copy, r->function_top);
        if (!same && precise && r->copy.len && is_log_stmt(m, m->stmts[r->copy.items[0]].node)) {
            /* The unlocked path first says it runs unlocked (`logger.debug("no
             * fcntl: unlocked")`); the rewrite leaves no unlocked path to say it. */
            idx_vec rest = {0};
            size_t k = 0;
            while (k < r->copy.len && is_log_stmt(m, m->stmts[r->copy.items[k]].node))
                k++;
            for (; k < r->copy.len; k++)
                LF_VEC_PUSH(&rest, r->copy.items[k]);
            same = same_path(m, &locked, &rest, r->function_top);
            LF_VEC_FREE(&rest);
        }
        if (!same) {
            TSNode shared = shared_call(m, &locked, &r->copy, s->module);
            if (ts_node_is_null(shared))
                shared = shared_yield(m, r->call, &locked, &r->copy);
            if (ts_node_is_null(shared)) {
                LF_VEC_FREE(&locked);
                return 0; /* the other path does other work: no unlocked copy */
            }
            s->copy_first = lf_pysem_stmt_of(m, shared);
            if (precise) {
                /* Name the first statements where the two paths part. */
                size_t i = 0;
                while (i < locked.len && i < r->copy.len &&
                       lf_tree_equal(m->src, m->stmts[locked.items[i]].node, m->src, m->stmts[r->copy.items[i]].node,
                                     EQ_FLAGS))
                    i++;
                int32_t a = i < r->copy.len ? r->copy.items[i] : r->copy.items[r->copy.len - 1];
                int32_t b = i < locked.len ? locked.items[i] : locked.items[locked.len - 1];
                uint32_t l1, l2, c;
                lf_source_position(m->src, ts_node_start_byte(m->stmts[a].node), &l1, &c);
                lf_source_position(m->src, ts_node_start_byte(m->stmts[b].node), &l2, &c);
                decline(s, lf_xasprintf("the unlocked path differs from the locked one (line %u vs line %u), so "
                                        "collapsing them would change what the unlocked path does",
                                        l1, l2));
            }
            LF_VEC_FREE(&locked);
        } else {
            LF_VEC_FREE(&locked);
        }
    }
    if ((s->shape == LF101_FALLTHROUGH || s->shape == LF101_SWALLOWED) && !always_returns(m, &r->body))
        decline(s, lf_xstrdup("the locked path does not end in `return`, so the code after it runs on both paths"));
    if (r->body.len) {
        s->body_first = r->body.items[0];
        s->body_last = r->body.items[r->body.len - 1];
    } else {
        s->body_first = s->body_last = -1;
    }
    return 1;
}

/* ---- the rewrite's own preconditions ---- */

static void check_rewrite(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    if (s->decline)
        return;
    if (s->kind == LF101_LOCK_OTHER) {
        char *callee = lf_tree_text(m->src, lf_tree_field(s->acquire, "function"));
        decline(s, lf_xasprintf("the old code locks through `%s`, whose waiting and errors the rewrite would not "
                                "reproduce; only fcntl.flock and msvcrt.locking locks are swapped for lockrt",
                                callee));
        free(callee);
        return;
    }
    if (s->try_once && !s->swallows) {
        decline(s, lf_xstrdup("a failed non-blocking lock attempt raises in the old code; the rewrite would run the "
                              "work unlocked instead"));
        return;
    }
    if (s->kind == LF101_LOCK_LOCKF || s->kind == LF101_LOCK_FCNTL) {
        decline(s, lf_xstrdup("the old code takes POSIX record locks (fcntl.lockf/fcntl.fcntl), which do not exclude "
                              "the flock() lockrt takes on POSIX: patched and unpatched processes would not exclude "
                              "each other while the fix rolls out"));
        return;
    }
    char *h = lf_tree_text(m->src, s->handle);
    for (size_t i = 0; i < r->body.len; i++) {
        TSNode st = m->stmts[r->body.items[i]].node;
        if (lf_tree_mentions(m->src, st, h, NULL)) {
            s->work_uses_lock = !s->decline; /* the first reason: the only one */
            decline(s, lf_xasprintf("the locked work uses the lock file handle `%s`, which the rewrite removes", h));
            break;
        }
        if (s->module && lf_tree_mentions(m->src, st, s->module->name, NULL)) {
            s->work_uses_lock = !s->decline;
            decline(s, lf_xasprintf("the locked work itself uses `%s`", s->module->name));
            break;
        }
    }
    if (!ts_node_is_null(s->kept_try) && s->module && lf_tree_mentions(m->src, s->kept_try, s->module->name, NULL)) {
        /* Only the finally (which goes) may name the lock module. */
        for (uint32_t i = 0; i < ts_node_named_child_count(s->kept_try); i++) {
            TSNode c = ts_node_named_child(s->kept_try, i);
            if (lf_tree_is(c, "except_clause") && lf_tree_mentions(m->src, c, s->module->name, NULL))
                decline(s, lf_xasprintf("a handler kept around the lock uses `%s`", s->module->name));
        }
    }
    free(h);
}

/* ---- the check ---- */

/* Classes whose instances take a file lock for a `with` body. */
const char *const lf101_lock_classes[] = {"portalocker.Lock",       "portalocker.RLock",
                                             "filelock.FileLock",      "filelock.SoftFileLock",
                                             "filelock.UnixFileLock",  "lockfile.LockFile",
                                             "fasteners.InterProcessLock", "zc.lockfile.LockFile", NULL};

/* The call is the value of a with-item: `with LockClass(path) [as l]:`. */
static int is_with_lock(lf_pysem *m, const lf_pycall *c) {
    if (!lf_pysem_call_is(m, c->node, lf101_lock_classes) || c->stmt < 0 ||
        !lf_tree_is(m->stmts[c->stmt].node, "with_statement"))
        return 0;
    TSNode clause = lf_tree_child(m->stmts[c->stmt].node, 0);
    for (uint32_t i = 0; i < lf_tree_child_count(clause); i++) {
        TSNode v = lf_tree_field(lf_tree_child(clause, i), "value");
        if (lf_tree_is(v, "as_pattern"))
            v = ts_node_named_child(v, 0);
        if (ts_node_eq(lf_tree_unparen(v), c->node))
            return 1;
    }
    return 0;
}

/* The flag the presence test reads (`if HAVE_FCNTL:`, set beside the
 * import: malloc'd), or NULL when it tests the module's own name. */
static char *flag_of_test(const lf_source *src, const lf101_site *s) {
    TSNode cond = lf_tree_unparen(lf_tree_field(s->test, "condition"));
    if (!lf_tree_is(cond, "identifier") || !s->module || lf_tree_text_eq(src, cond, s->module->name))
        return NULL;
    return lf_tree_text(src, cond);
}

static char *message(recog *r) {
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    const char *mod = s->module ? s->module->name : NULL;
    uint32_t l1 = 0, l2 = 0, c;
    int32_t locked = r->body.len ? r->body.items[0] : r->acquire_stmt;
    lf_source_position(m->src, ts_node_start_byte(m->stmts[locked].node), &l1, &c);
    if (s->copy_first >= 0)
        lf_source_position(m->src, ts_node_start_byte(m->stmts[s->copy_first].node), &l2, &c);
    const char *lockname = s->module ? s->module->module : "fcntl";
    if (s->shape == LF101_SWALLOWED || !mod)
        return lf_xasprintf("the critical section is reachable without the lock: the locked path (line %u) has "
                            "an unlocked copy starting at line %u, run when acquiring the lock fails (the error is "
                            "swallowed): unlocked on every platform, whenever the lock cannot be taken",
                            l1, l2);
    char *where = lf101_where_missing(lockname);
    char *msg;
    char *flag = s->shape == LF101_CONDITIONAL ? flag_of_test(m->src, s) : NULL;
    if (is_platform_gated(s)) {
        char *test = lf_py_short(m->src, lf_tree_field(s->test, "condition"));
        msg = lf_xasprintf("the critical section is reachable without the %s lock: the locked path (line %u) has an "
                           "unlocked copy starting at line %u, run where `%s` holds (the function leaves before "
                           "`import %s`)%s: unlocked %s%s",
                           lockname, l1, l2, test, lockname, s->swallows ? " or when acquiring the lock fails" : "",
                           where, s->swallows ? ", and on every platform when the lock cannot be taken" : "");
        free(test);
    } else if (is_local_module(s)) {
        msg = lf_xasprintf("the critical section is reachable without the %s lock: the locked path (line %u) has an "
                           "unlocked copy starting at line %u, run when `import %s` in the function fails%s: "
                           "unlocked %s%s",
                           lockname, l1, l2, lockname, s->swallows ? " or when acquiring the lock fails" : "", where,
                           s->swallows ? ", and on every platform when the lock cannot be taken" : "");
    } else if (flag) {
        msg = lf_xasprintf("the critical section is reachable without the %s lock: the work at line %u runs "
                           "unlocked when `%s` is false (set where the import of %s fails): unlocked %s",
                           lockname, l1, flag, lockname, where);
        free(flag);
    } else if (s->shape == LF101_CONDITIONAL)
        msg = lf_xasprintf("the critical section is reachable without the %s lock: the work at line %u runs "
                           "unlocked when `%s` is None/False (the conditional import's fallback): unlocked %s",
                           lockname, l1, mod, where);
    else
        msg = lf_xasprintf("the critical section is reachable without the %s lock: the locked path (line %u) has an "
                           "unlocked copy starting at line %u, run when `%s` is None/False (the conditional import's "
                           "fallback)%s: unlocked %s%s",
                           lockname, l1, l2, mod, s->swallows ? " or when acquiring the lock fails" : "", where,
                           s->swallows ? ", and on every platform when the lock cannot be taken" : "");
    free(where);
    return msg;
}

static int takes_exclusive_lock(lf_pysem *m, TSNode call) {
    lf101_lock_kind k;
    lock_op op = lock_call(m, call, &k);
    return op == OP_EXCLUSIVE || op == OP_EXCLUSIVE_NB;
}

/* A call's last name starts with one of the prefixes. */
static int named(const lf_source *src, TSNode call, const char *const *prefixes) {
    TSNode name = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_tree_is(name, "attribute"))
        name = lf_tree_field(name, "attribute");
    if (!lf_tree_is(name, "identifier"))
        return 0;
    uint32_t a = ts_node_start_byte(name), b = ts_node_end_byte(name);
    while (a < b && src->text[a] == '_') /* `_load_state`: a private helper is named the same way */
        a++;
    for (size_t i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (b - a >= n && memcmp(src->text + a, prefixes[i], n) == 0)
            return 1;
    }
    return 0;
}

/* The witness's events on the unlocked path: where it is entered, and the
 * copy's first read and its last write after it, named as LF104 names a
 * module's load/save helpers (read_/load_, write_/save_/store_/dump, and the
 * file methods .read()/.write()). */
static void witness_events(recog *r) {
    static const char *const k_reads[] = {"read", "load", NULL};
    static const char *const k_writes[] = {"write", "save", "store", "dump", "replace", "rename", NULL};
    lf_pysem *m = r->m;
    lf101_site *s = r->site;
    s->entry = !ts_node_is_null(s->test) ? s->test : !ts_node_is_null(r->handler) ? r->handler : r->at;
    if (lf_tree_is(s->entry, "if_statement")) /* the presence test itself, not the whole if */
        s->entry = lf_tree_field(s->entry, "condition");
    const idx_vec *path = r->copy.len ? &r->copy : &r->body;
    if (!path->len)
        return;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        /* The path's statements are siblings in source order: the one that
         * could hold the call is the last starting at or before it (a binary
         * search, so a copy of thousands of statements costs no more). */
        uint32_t at = ts_node_start_byte(c);
        size_t lo = 0, hi = path->len;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (ts_node_start_byte(m->stmts[path->items[mid]].node) <= at)
                lo = mid;
            else
                hi = mid;
        }
        if (!lf_tree_within(c, m->stmts[path->items[lo]].node))
            continue;
        if (ts_node_is_null(s->copy_read) && named(m->src, c, k_reads))
            s->copy_read = c;
        else if (!ts_node_is_null(s->copy_read) && named(m->src, c, k_writes))
            s->copy_write = c;
    }
    if (ts_node_is_null(s->copy_write))
        s->copy_read = (TSNode){0};
}

/* The witness: both processes take the unlocked path, then lose an update
 * through the copy's read and write (or, when the copy has none the check
 * can name, run its first statement together). */
static lf_witness *witness_of(const recog *r) {
    const lf101_site *s = r->site;
    const lf_source *src = r->m->src;
    const char *lockname = s->module ? s->module->module : "fcntl";
    char *platform, *entry;
    lf_wit_event entry_ev = LF_WIT_UNLOCKED;
    if (s->shape == LF101_SWALLOWED || !s->module) {
        entry_ev = LF_WIT_ACQUIRE_FAILS;
        platform = lf_xstrdup("any platform, whenever the lock cannot be taken");
        entry = lf_xstrdup("fails to take the lock; the error is swallowed and the unlocked path runs");
    } else {
        platform = lf_xasprintf("only where %s is missing%s", lockname,
                                s->swallows ? ", or on any platform when the lock cannot be taken" : "");
        char *flag = flag_of_test(src, s);
        if (is_platform_gated(s)) {
            char *test = lf_py_short(src, lf_tree_field(s->test, "condition"));
            entry = lf_xasprintf("finds `%s` true: leaves before `import %s` by the unlocked path", test,
                                 s->module->module);
            free(test);
        } else if (is_local_module(s)) {
            entry = lf_xasprintf("fails to import `%s`: takes the unlocked path", s->module->module);
        } else if (flag) {
            entry = lf_xasprintf("finds `%s` false: takes the unlocked path", flag);
            free(flag);
        } else {
            entry = lf_xasprintf("finds `%s` is None/False: takes the unlocked path", s->module->name);
        }
    }
    lf_witness *w;
    if (!ts_node_is_null(s->copy_write))
        w = lf_wit_lost_update(src, platform, entry_ev, s->entry, entry, s->copy_read, s->copy_write, (TSNode){0});
    else {
        int32_t first = s->copy_first >= 0 ? s->copy_first : r->body.len ? r->body.items[0] : -1;
        w = first < 0 ? NULL
                      : lf_wit_unlocked_section(src, platform, entry_ev, s->entry, entry, r->m->stmts[first].node);
    }
    free(platform);
    free(entry);
    return w;
}

static int takes_unlock(lf_pysem *m, TSNode call) {
    lf101_lock_kind k;
    return lock_call(m, call, &k) == OP_UNLOCK;
}

/* Where the rewrite declines because the locked work uses the lock (its
 * handle, the module) and the root bug is a module-level optional fcntl
 * (`try: import fcntl except ImportError: fcntl = None`), fcntl from lockrt
 * fixes it as for a helper (checks/lf101_portable.c): the function's own
 * locking, the lock file handle its work uses included, stays as it is, and
 * the flock it takes exists on Windows too. */
static void portable_instead(recog *r) {
    lf101_site *s = r->site;
    if (!s->decline || !s->work_uses_lock || !s->module || s->module->platform_gated || !s->module->module ||
        strcmp(s->module->module, "fcntl") != 0 || s->kind != LF101_LOCK_FLOCK)
        return;
    char *why = lf101_plan_portable(r->m, s, s->module);
    if (why) {
        free(why);
        return;
    }
    free(s->decline);
    s->decline = NULL;
}

typedef struct indirect_ctx {
    lf_check_ctx *ctx;
    lf_pysem *m;
    unsigned char *reported;
} indirect_ctx;

static void emit_indirect(void *ud, int32_t scope, TSNode at, char *message, char *decline_reason,
                          lf_witness *w, int another_root, const lf101_missing *missing) {
    indirect_ctx *ic = ud;
    if (ic->reported[scope] && !another_root) {
        free(message);
        free(decline_reason);
        lf_witness_free(w);
        return;
    }
    ic->reported[scope] = 1;
    lf101_site *s = lf_xcalloc(1, sizeof *s);
    s->kind = LF101_LOCK_OTHER;
    s->decline = decline_reason;
    s->region_first = s->region_last = s->body_first = s->body_last = s->pre_first = s->pre_last = -1;
    s->copy_first = -1;
    if (missing && ((missing->import_fallback && !strcmp(missing->import_fallback, "fcntl")) ||
                    (missing->module && !strcmp(missing->module->module, "fcntl")))) {
        /* The root bug is fcntl missing: fcntl from lockrt fixes it and
         * leaves the helper's protocol as it is. A module-level optional
         * import's helper keeps its own reason when that cannot apply. */
        char *why = lf101_plan_portable(ic->m, s, missing->module);
        if (!why || missing->import_fallback || !s->decline) {
            free(s->decline);
            s->decline = why;
        } else {
            char *both = lf_xasprintf("%s; and fcntl from lockrt cannot stand in: %s", s->decline, why);
            free(s->decline);
            free(why);
            s->decline = both;
        }
    }
    lf_ctx_emit_site(ic->ctx, at, message, s, lf101_site_free);
    lf_ctx_witness(ic->ctx, w);
    free(message);
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf101_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    unsigned char *reported = lf_xcalloc(m->n_scopes + 1, 1);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (reported[c->scope] || m->scopes[c->scope].kind != LF_PYSCOPE_FUNCTION)
            continue;
        lf101_lock_kind kind = LF101_LOCK_OTHER;
        lock_op op = lock_call(m, c->node, &kind);
        int with_lock = 0;
        if (op == OP_NONE && is_with_lock(m, c)) {
            with_lock = 1;
            op = OP_EXCLUSIVE;
            kind = LF101_LOCK_OTHER;
        }
        if (op != OP_EXCLUSIVE && op != OP_EXCLUSIVE_NB)
            continue;
        recog r;
        memset(&r, 0, sizeof r);
        r.m = m;
        r.call = c->node;
        r.op = op;
        r.with_lock = with_lock;
        r.site = lf_xcalloc(1, sizeof *r.site);
        r.site->kind = kind;
        r.site->copy_first = -1;
        r.site->region_first = r.site->region_last = -1;
        /* A @contextmanager's critical section is its callers' with bodies:
         * one that only reads is no critical section. */
        if (recognise(&r) && lf101_cm_callers_write(m, c->scope, takes_exclusive_lock, takes_unlock)) {
            check_rewrite(&r);
            portable_instead(&r);
            witness_events(&r);
            char *msg = message(&r);
            reported[c->scope] = 1;
            lf_witness *w = witness_of(&r);
            lf_ctx_emit_site(ctx, r.at, msg, r.site, lf101_site_free);
            lf_ctx_witness(ctx, w);
            free(msg);
        } else {
            lf101_site_free(r.site);
        }
        LF_VEC_FREE(&r.body);
        LF_VEC_FREE(&r.cont);
        LF_VEC_FREE(&r.copy);
    }
    indirect_ctx ic = {ctx, m, reported};
    lf101_find_indirect(m, reported, takes_exclusive_lock, takes_unlock, emit_indirect, &ic);
    free(reported);
}

/* ---- the gate: could anything here take a lock? ----
 *
 * Every lock the check follows comes from a lock module (fcntl, msvcrt,
 * portalocker, win32file, filelock, lockfile, fasteners: their calls, classes
 * and optional imports, importlib's included) or is an exclusive create
 * (os.mkdir, os.makedirs and Path.mkdir, os.open with O_EXCL, an open() mode
 * with x). The prefilter lets through every file that says mkdir or fcntl in
 * a string or a comment (a lexer's table of builtins: 'io_file_mkdir',
 * 'dio_fcntl', 'error_code_filelocked'). So, on the text with comments and
 * strings blanked (lf_pymask), a hit is: a use of a lock module's name, or of
 * mkdir, makedirs or O_EXCL; a string literal that names a lock module,
 * alone or dotted (the module importlib.import_module or __import__ would
 * load); a string literal that is an open() mode with x. Anything unsure is
 * a hit (lf_pygate.h). */
static int gate(lf_gate_text *in) {
    static const char *const creates[] = {"mkdir", "makedirs", "O_EXCL", NULL};
    if (in->lang == LF_LANG_TYPESCRIPT || in->lang == LF_LANG_TSX)
        return lf101_ts_gate(in->text, in->len);
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    if (!mk->m || !mk->balanced || mk->lock_module_named || lf_pygate_says_any(mk->m, in->len, lf_pygate_lock_modules) ||
        lf_pygate_says_any(mk->m, in->len, creates))
        return 1;
    for (size_t i = 0; i < mk->n_modes; i++)
        if (lf_pygate_mode_text(in->text + mk->modes[i].at, mk->modes[i].len, 'x', 0))
            return 1;
    return 0;
}

const lf_check lf101_unlocked_fallback_check = {"lf101_unlocked_fallback", run, 0, 0, gate}; /* asks the model, not the query */
