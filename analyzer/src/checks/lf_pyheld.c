/* lf_pyheld: is a lock held at a point of a Python module (lf_pyheld.h). */
#include <stdlib.h>
#include <string.h>

#include "lf_cfg.h"
#include "lf_py.h"
#include "lf_pycfg.h"
#include "lf_pyheld.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"

typedef LF_VEC(int32_t) i32_vec;
typedef LF_VEC(TSNode) node_vec;

typedef struct named_method {
    const char *name; /* interned: compared by pointer */
    int32_t scope;
} named_method;

struct lf_pyheld {
    lf_pylock *l;
    named_method *methods; /* every method, sorted by name pointer */
    size_t n_methods;
    unsigned char *class_held;  /* per scope: a class holding a lock across its methods */
    unsigned char *called_held; /* per scope: every call of the function happens with a lock held */
    node_vec *releases;         /* per scope: its lock releases, once found */
    unsigned char *releases_done;
    unsigned char *decorated;   /* per scope: 0 unknown, 1 no, 2 decorated with a lock */
    lf_cfg **cfg;               /* per scope: its control-flow graph, once needed */
    lf_cfg_lockstate *state;    /* per scope: lock state over it (slot 0: some lock) */
    unsigned char *placed;      /* per scope: some acquisition sits on a statement of the graph */
    unsigned char **after_acquire; /* per scope, per graph node: some acquisition reaches it */
    unsigned char *contained;      /* per scope: 0 unknown, 1 no, 2 it gives back every lock it takes
                                      before it returns (`with FileLock(p): return json.load(f)`) */
    unsigned char *only_contained; /* per scope: its only acquisitions are calls of contained functions */
    unsigned char *unlocker;       /* per scope: it gives back an OS lock and takes none (`_unlock_file(f)`) */
};

static const char *intern_node(lf_pysem *m, TSNode n) {
    return lf_pysem_intern(m, m->src->text + ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

/* Does an identifier spell a lock (`lock`, `_locked`, `FileLock`, `file_mutex`,
 * `synchronized`)? Split at underscores and case changes; compare whole words. */
static int names_lock(const lf_source *src, TSNode ident) {
    static const char *const words[] = {"lock",  "locked",  "locking", "locks",        "flock",
                                        "rlock", "mutex",   "lockfile", "synchronized", "interprocess",
                                        NULL};
    const char *s = src->text + ts_node_start_byte(ident);
    size_t len = ts_node_end_byte(ident) - ts_node_start_byte(ident);
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == '_' || (s[i] >= '0' && s[i] <= '9')))
            i++;
        size_t start = i;
        if (i < len && s[i] >= 'A' && s[i] <= 'Z') {
            i++;
            if (i < len && s[i] >= 'A' && s[i] <= 'Z') { /* RLock, FILELOCK */
                while (i < len && s[i] >= 'A' && s[i] <= 'Z' && !(i + 1 < len && s[i + 1] >= 'a' && s[i + 1] <= 'z'))
                    i++;
            }
        }
        while (i < len && s[i] >= 'a' && s[i] <= 'z')
            i++;
        if (i == start) {
            i++;
            continue;
        }
        char word[32];
        size_t w = i - start;
        if (w >= sizeof word)
            continue;
        for (size_t k = 0; k < w; k++)
            word[k] = (char)((s[start + k] >= 'A' && s[start + k] <= 'Z') ? s[start + k] - 'A' + 'a' : s[start + k]);
        word[w] = 0;
        if (lf_str_in_list(word, words))
            return 1;
    }
    return 0;
}

static int acquire_event_at(const lf_pylock *l, TSNode call) {
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_PYEV_ACQUIRE && ts_node_eq(l->events[i].node, call))
            return 1;
    return 0;
}

/* Is a with-item's context manager a lock? A call that takes a lock (per
 * lf_pylock) or whose callee is named as one; an object (a name or field)
 * named as one, or holding the result of such a call. */
static int with_item_locks(lf_pylock *l, TSNode v) {
    lf_pysem *m = l->m;
    v = lf_tree_unparen(v);
    if (lf_tree_is(v, "as_pattern"))
        v = lf_tree_unparen(ts_node_named_child(v, 0));
    /* `with self._lock:` over a threading.RLock(): other processes go on */
    if (lf_pylock_in_process_lock(l, v))
        return 0;
    for (int hops = 0; hops < 4 && !ts_node_is_null(v); hops++) {
        if (lf_tree_is(v, "call")) {
            if (acquire_event_at(l, v))
                return 1;
            TSNode name = lf_py_callee_last(v);
            if (!ts_node_is_null(name) && names_lock(m->src, name))
                return 1;
            /* `with self._lock.acquire_ctx():` / `with lock_for(p).write():` */
            TSNode recv = lf_py_callee_object(v);
            if (ts_node_is_null(recv))
                return 0;
            v = lf_tree_unparen(recv);
            continue;
        }
        if (lf_tree_is(v, "attribute")) {
            if (names_lock(m->src, lf_tree_field(v, "attribute")))
                return 1;
            return 0;
        }
        if (lf_tree_is(v, "identifier")) {
            if (names_lock(m->src, v))
                return 1;
            TSNode r = lf_pysem_resolve_value(m, v);
            if (ts_node_eq(r, v))
                return 0;
            v = lf_tree_unparen(r);
            continue;
        }
        return 0;
    }
    return 0;
}

/* Is the node inside a `with` (within function fn) over a lock? */
static int under_lock_with(lf_pylock *l, TSNode n, TSNode fn) {
    /* Up the statements, not the expressions: a site deep in an expression
     * costs its statement depth only. */
    lf_pysem *m = l->m;
    for (int32_t i = lf_pysem_stmt_of(m, n); i >= 0; i = m->stmts[i].parent) {
        TSNode cur = m->stmts[i].node;
        if (ts_node_eq(cur, fn) || !lf_tree_within(cur, fn))
            break;
        if (!lf_tree_is(cur, "with_statement"))
            continue;
        for (uint32_t c = 0; c < ts_node_named_child_count(cur); c++) {
            TSNode clause = ts_node_named_child(cur, c);
            if (!lf_tree_is(clause, "with_clause"))
                continue;
            for (uint32_t k = 0; k < ts_node_named_child_count(clause); k++) {
                TSNode item = ts_node_named_child(clause, k);
                if (with_item_locks(l, lf_tree_field(item, "value")))
                    return 1;
            }
        }
    }
    return 0;
}

/* Does the module function `name` take a lock itself or in a function nested
 * in it (a decorator whose wrapper locks around the call it wraps)? */
static int module_function_locks(lf_pylock *l, TSNode name) {
    lf_pysem *m = l->m;
    for (size_t s = 1; s < m->n_scopes; s++) {
        const lf_pyscope *sc = &m->scopes[s];
        if (sc->kind != LF_PYSCOPE_FUNCTION || sc->parent != 0 || !lf_tree_text_eq(m->src, name, sc->name))
            continue;
        for (size_t i = 0; i < l->n_events; i++) {
            const lf_pylock_event *e = &l->events[i];
            if (e->kind == LF_PYEV_ACQUIRE && e->scope > 0 && lf_tree_within(e->node, sc->node))
                return 1;
        }
    }
    return 0;
}

/* Is the function (or a class or function around it) decorated with a lock
 * (`@synchronized`, `@lockutils.synchronized(...)`, `@fasteners.interprocess_locked(p)`,
 * or one of the module's own decorators whose wrapper takes a lock)? */
static int decorated_with_lock(lf_pylock *l, TSNode fn) {
    lf_pysem *m = l->m;
    for (TSNode cur = fn; !ts_node_is_null(cur); cur = ts_node_parent(cur)) {
        TSNode dd = ts_node_parent(cur);
        if (ts_node_is_null(dd) || !lf_tree_is(dd, "decorated_definition"))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(dd); i++) {
            TSNode d = ts_node_named_child(dd, i);
            if (!lf_tree_is(d, "decorator"))
                continue;
            TSNode e = lf_tree_unparen(ts_node_named_child(d, 0));
            if (lf_tree_is(e, "call"))
                e = lf_tree_unparen(lf_tree_field(e, "function"));
            int local = lf_tree_is(e, "identifier");
            if (lf_tree_is(e, "attribute"))
                e = lf_tree_field(e, "attribute");
            if (lf_tree_is(e, "identifier") && (names_lock(m->src, e) || (local && module_function_locks(l, e))))
                return 1;
        }
    }
    return 0;
}

/* Where a function releases a lock (`self._lock.release()` on a lock object,
 * `fcntl.flock(fd, LOCK_UN)` & co): a lock is held before that point, taken by
 * a caller or by an earlier call on the same object. */
typedef struct release_search {
    lf_pyheld *h;
    lf_pysem *m;
    LF_VEC(TSNode) found;
} release_search;

static lf_walk_action visit_release(TSNode n, void *ud) {
    release_search *r = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "call"))
        return LF_WALK_CONTINUE;
    static const char *const unlock_calls[] = {"fcntl.flock", "fcntl.lockf", NULL};
    int found = 0;
    if (lf_py_method_is(r->m->src, n, "release") || lf_py_method_is(r->m->src, n, "unlock")) {
        TSNode recv = lf_tree_unparen(lf_py_callee_object(n));
        TSNode name = lf_tree_is(recv, "attribute") ? lf_tree_field(recv, "attribute") : recv;
        found = lf_tree_is(name, "identifier") && names_lock(r->m->src, name);
    } else {
        int skip = 0;
        int32_t f = lf_pylock_local_callee(r->h->l, n, &skip);
        found = lf_pylock_callee_any(r->m, n, unlock_calls) || (f > 0 && r->h->unlocker[f]);
    }
    if (found)
        LF_VEC_PUSH(&r->found, n);
    return LF_WALK_CONTINUE;
}

/* The releases of function `scope`, in source order (found once). */
static const node_vec *releases(lf_pyheld *h, int32_t scope) {
    if (!h->releases_done[scope]) {
        release_search r;
        memset(&r, 0, sizeof r);
        r.h = h;
        r.m = h->l->m;
        /* a function's body, or the module's top level (it has no body field) */
        TSNode fn = h->l->m->scopes[scope].node, body = lf_tree_field(fn, "body");
        lf_tree_walk(ts_node_is_null(body) ? fn : body, visit_release, &r);
        h->releases[scope].items = r.found.items;
        h->releases[scope].len = r.found.len;
        h->releases_done[scope] = 1;
    }
    return &h->releases[scope];
}

/* The part of the function a lock taken or released at `n` covers: the block
 * holding its statement; for a release in a `finally`, the whole `try`. */
static TSNode covered_by(lf_pysem *m, TSNode n) {
    int32_t st = lf_pysem_stmt_of(m, n);
    TSNode block = st < 0 ? (TSNode){0} : ts_node_parent(m->stmts[st].node);
    TSNode p = ts_node_is_null(block) ? block : ts_node_parent(block);
    if (!ts_node_is_null(p) && lf_tree_is(p, "finally_clause"))
        return ts_node_parent(p);
    return block;
}

/* The `with` statement whose `as` name is the handle a flock/lockf call
 * locks (`with open(p, "w") as f: fcntl.flock(f, LOCK_EX)`), or one of the
 * module's lock helpers is handed (`_lock_file(f)`), or null: closing the
 * file at the with's exit gives the lock back. */
static TSNode closing_with(lf_pylock *l, TSNode call) {
    static const char *const flocks[] = {"fcntl.flock", "fcntl.lockf", NULL};
    lf_pysem *m = l->m;
    int skip = 0;
    TSNode h;
    if (lf_pylock_callee_any(m, call, flocks))
        h = lf_pylock_arg(m, call, 0, "fd");
    else if (lf_pylock_local_callee(l, call, &skip) > 0)
        h = lf_pylock_arg(m, call, 0, NULL);
    else
        return (TSNode){0};
    h = lf_tree_unparen(h);
    if (lf_tree_is(h, "call") && lf_py_method_is(m->src, h, "fileno"))
        h = lf_tree_unparen(lf_py_callee_object(h));
    if (!lf_tree_is(h, "identifier"))
        return (TSNode){0};
    for (int32_t i = lf_pysem_stmt_of(m, call); i >= 0; i = m->stmts[i].parent) {
        TSNode w = m->stmts[i].node;
        if (lf_tree_is(w, "function_definition") || lf_tree_is(w, "class_definition"))
            break;
        if (!lf_tree_is(w, "with_statement"))
            continue;
        for (uint32_t c = 0; c < ts_node_named_child_count(w); c++) {
            TSNode clause = ts_node_named_child(w, c);
            for (uint32_t k = 0; lf_tree_is(clause, "with_clause") && k < ts_node_named_child_count(clause); k++) {
                TSNode item = lf_tree_unparen(lf_tree_field(ts_node_named_child(clause, k), "value"));
                TSNode alias = lf_tree_is(item, "as_pattern") ? lf_tree_field(item, "alias") : (TSNode){0};
                if (!ts_node_is_null(alias) && ts_node_named_child_count(alias) == 1)
                    alias = ts_node_named_child(alias, 0);
                if (!ts_node_is_null(alias) && lf_py_same_text(m->src, alias, h))
                    return w;
            }
        }
    }
    return (TSNode){0};
}

enum {
    GK_FILTER = 1, /* a call of a contained function is no acquisition */
    GK_SCOPED = 2, /* nor one a `with` gives back (its own, or the file it locks): the
                      graph sends a return in a with body straight to the exit */
};

/* Gen and kill over scope's graph: taken at each acquisition (per lf_pylock),
 * freed at each release and at the exit of a `with` that takes a lock (a
 * flock on the file a `with` opened stays taken here: the unlocked copy after
 * such a `with` is LF101's root bug, not a second one). With GK_FILTER, a call of one of
 * the module's functions that gives back every lock it takes (h->contained,
 * settled beforehand by settle_callees) is no acquisition: the caller holds
 * nothing after it; with GK_SCOPED, neither is
 * a lock a `with` gives back. *skipped counts both. Returns whether some
 * acquisition sits on the graph. */
static int lock_gen_kill(lf_pyheld *h, int32_t scope, const lf_cfg *g, uint64_t *gen, uint64_t *kill, int mode,
                         size_t *skipped) {
    lf_pylock *l = h->l;
    lf_pysem *m = l->m;
    size_t n = lf_cfg_size(g);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *e = &l->events[i];
        if (e->kind != LF_PYEV_ACQUIRE || e->scope != scope)
            continue;
        int32_t id = lf_pycfg_node_of(m, g, e->node);
        if (id < 0)
            continue;
        int skip = 0;
        int32_t f = (mode & GK_FILTER) ? lf_pylock_local_callee(l, e->node, &skip) : -1;
        if (f > 0 && f != scope && m->scopes[f].kind == LF_PYSCOPE_FUNCTION && h->contained[f] == 2) {
            (*skipped)++;
            continue;
        }
        TSNode w = closing_with(l, e->node);
        if ((mode & GK_SCOPED) &&
            (!ts_node_is_null(w) || lf_tree_is(lf_cfg_node_at(g, (uint32_t)id)->stmt, "with_statement"))) {
            (*skipped)++;
            continue;
        }
        gen[id] = 1;
    }
    const node_vec *rs = releases(h, scope);
    for (size_t i = 0; i < rs->len; i++) {
        int32_t id = lf_pycfg_node_of(m, g, rs->items[i]);
        if (id >= 0 && !gen[id])
            kill[id] = 1;
    }
    /* a `with` that takes a lock gives it back at the end of its block */
    int any = 0;
    for (uint32_t v = 2; v < n; v++) {
        const lf_cfg_node *nd = lf_cfg_node_at(g, v);
        any |= gen[v] != 0;
        if (nd->kind == LF_CFG_WITH_EXIT) {
            int32_t w = lf_cfg_find(g, nd->stmt);
            if (w >= 0 && gen[w])
                kill[v] = 1;
        }
    }
    return any;
}

/* Does function f give back, on every path, every lock it takes before it
 * returns (a reader that locks around its own read)? Its own acquisitions
 * only: a call in it of another locking function counts as taking a lock
 * (no recursion; a nested helper makes the answer "no"). */
static int contained(lf_pyheld *h, int32_t f) {
    if (h->contained[f])
        return h->contained[f];
    h->contained[f] = 1; /* while computing: a call of f in its own body is no answer */
    lf_pysem *m = h->l->m;
    lf_cfg *g = lf_pycfg_build(m->src, m->scopes[f].node);
    size_t n = lf_cfg_size(g), scoped = 0;
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    if (lock_gen_kill(h, f, g, gen, kill, GK_SCOPED, &scoped)) {
        lf_cfg_lockstate st;
        lf_cfg_lockstate_run(g, gen, kill, 0, &st);
        h->contained[f] = st.may_in[LF_CFG_EXIT_ID] == 0 ? 2 : 1;
        lf_cfg_lockstate_free(&st);
    } else if (scoped) {
        h->contained[f] = 2; /* every lock it takes, a `with` gives back */
    }
    free(gen);
    free(kill);
    lf_cfg_free(g);
    return h->contained[f];
}

/* Settles contained() for every module function whose call acquires in
 * scope, before lock_gen_kill reads the answers (one level: contained()
 * itself reads none). */
static void settle_callees(lf_pyheld *h, int32_t scope) {
    lf_pylock *l = h->l;
    lf_pysem *m = l->m;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *e = &l->events[i];
        if (e->kind != LF_PYEV_ACQUIRE || e->scope != scope)
            continue;
        int skip = 0;
        int32_t f = lf_pylock_local_callee(l, e->node, &skip);
        if (f > 0 && f != scope && m->scopes[f].kind == LF_PYSCOPE_FUNCTION)
            contained(h, f);
    }
}

/* The function's graph and its lock state: taken at each acquisition (per
 * lf_pylock), freed at each release. An acquisition that raises took nothing
 * (the graph's exceptional edges carry the state from before it). */
static void build_state(lf_pyheld *h, int32_t scope) {
    lf_pylock *l = h->l;
    lf_pysem *m = l->m;
    lf_cfg *g = lf_pycfg_build(m->src, m->scopes[scope].node);
    size_t n = lf_cfg_size(g), filtered = 0;
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    settle_callees(h, scope);
    int any = lock_gen_kill(h, scope, g, gen, kill, GK_FILTER, &filtered);
    h->placed[scope] = (unsigned char)any;
    h->only_contained[scope] = (unsigned char)(!any && filtered > 0);
    lf_cfg_lockstate_run(g, gen, kill, 0, &h->state[scope]);
    /* what an acquisition reaches: "taken, then given back" needs it (a
     * statement no acquisition reaches runs before the lock is taken, or
     * beside it on another branch, which LF101 and the callers' reasoning own) */
    h->after_acquire[scope] = lf_xcalloc(n, 1);
    uint32_t *stack = lf_xmalloc(n * sizeof *stack);
    size_t sp = 0;
    for (uint32_t v = 2; v < n; v++)
        if (gen[v])
            stack[sp++] = v;
    while (sp) {
        uint32_t v = stack[--sp];
        const lf_cfg_node *nd = lf_cfg_node_at(g, v);
        const lf_cfg_edge *e = lf_cfg_edges_of(g, v);
        for (uint32_t k = 0; k < nd->n_succ; k++)
            if (!h->after_acquire[scope][e[k].to]) {
                h->after_acquire[scope][e[k].to] = 1;
                stack[sp++] = e[k].to;
            }
    }
    free(stack);
    free(gen);
    free(kill);
    h->cfg[scope] = g;
}

/* Is a lock the function takes itself held at `at` on every path that
 * reaches it (or, !every, on some path)? At the acquiring statement itself:
 * when the acquisition comes first. */
static int held_on_paths(lf_pyheld *h, int32_t scope, TSNode at, int every) {
    lf_pylock *l = h->l;
    if (!h->cfg[scope])
        build_state(h, scope);
    int32_t id = lf_pycfg_node_of(l->m, h->cfg[scope], at);
    if (id < 0)
        return 0;
    if ((every ? h->state[scope].must_in[id] : h->state[scope].may_in[id]) & 1)
        return 1;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *e = &l->events[i];
        if (e->kind == LF_PYEV_ACQUIRE && e->scope == scope && ts_node_end_byte(e->node) <= ts_node_start_byte(at) &&
            lf_pycfg_node_of(l->m, h->cfg[scope], e->node) == id)
            return 1;
    }
    return 0;
}

/* Is `at` past a lock the function took and then gave back on every path
 * (reached from an acquisition, held on no path)? */
static int released_before(lf_pyheld *h, int32_t scope, TSNode at) {
    int32_t id = lf_pycfg_node_of(h->l->m, h->cfg[scope], at);
    return id >= 0 && h->after_acquire[scope][id] && !held_on_paths(h, scope, at, 0);
}

/* Held at `at` by what function `scope` itself does or how it is defined.
 * Loose (what LF104 asks of the function it reports in): a function that
 * takes a lock holds it throughout, except past the point where every path
 * gave it back (lf_pycfg's graph: a read-modify-write after the release is
 * unlocked); or it releases one anywhere after `at` (taken by a caller).
 * Strict (a call site, for the callers' reasoning): the function's own
 * acquisitions hold it on every path to `at` (lf_pycfg's graph, so a release
 * before `at`, a branch that skips the acquisition or an acquisition whose
 * failure is caught leave it unheld), or a release after `at` covers it (the
 * lock was taken by a caller). */
static int held_locally(lf_pyheld *h, int32_t scope, TSNode at, int strict) {
    lf_pylock *l = h->l;
    lf_pysem *m = l->m;
    TSNode fn = m->scopes[scope].node;
    if (!h->decorated[scope])
        h->decorated[scope] = (unsigned char)(1 + decorated_with_lock(l, fn));
    if (h->decorated[scope] == 2 || under_lock_with(l, at, fn))
        return 1;
    if (l->acquires[scope] && !h->cfg[scope])
        build_state(h, scope);
    /* locks taken only inside the helpers it calls, each given back before
     * the helper returns, are held at no point of this function */
    if (l->acquires[scope] && !h->only_contained[scope]) {
        if (!strict && (!h->placed[scope] || !released_before(h, scope, at)))
            return 1;
        if (strict && held_on_paths(h, scope, at, 1))
            return 1;
    }
    const node_vec *rs = releases(h, scope);
    for (size_t i = 0; i < rs->len; i++)
        if (ts_node_start_byte(rs->items[i]) >= ts_node_end_byte(at) &&
            (!strict || lf_tree_within(at, covered_by(m, rs->items[i]))))
            return 1;
    return 0;
}

/* ---- classes that hold a lock across their methods ---- */

/* `self.F` in a method of a class: the field name F (interned), or NULL. */
static const char *self_field(lf_pysem *m, TSNode e, int32_t *cls) {
    e = lf_tree_unparen(e);
    if (!lf_tree_is(e, "attribute"))
        return NULL;
    TSNode obj = lf_tree_unparen(lf_tree_field(e, "object"));
    TSNode attr = lf_tree_field(e, "attribute");
    if (!lf_tree_is(obj, "identifier") || !lf_tree_is(attr, "identifier"))
        return NULL;
    int32_t s = lf_pysem_scope_of(m, obj);
    if (s <= 0 || m->scopes[s].kind != LF_PYSCOPE_FUNCTION || m->scopes[s].cls < 0)
        return NULL;
    /* the method's first parameter */
    TSNode params = lf_tree_field(m->scopes[s].node, "parameters");
    TSNode first = lf_tree_child(params, 0);
    if (ts_node_is_null(first) || !lf_tree_is(first, "identifier") || !lf_py_same_text(m->src, first, obj))
        return NULL;
    *cls = m->scopes[s].cls;
    return intern_node(m, attr);
}

typedef struct field_use {
    int32_t cls, method;
    const char *field;
    int release;
} field_use;

/* A class holds a lock across its methods when one method acquires a field
 * (`self.F.acquire()`, `self.F = X.acquire()`) and another releases it
 * (`self.F.release()`). */
static void find_held_classes(lf_pyheld *h) {
    lf_pysem *m = h->l->m;
    LF_VEC(field_use) uses = {0};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        int32_t scope = m->calls[i].scope;
        if (scope <= 0 || m->scopes[scope].kind != LF_PYSCOPE_FUNCTION || m->scopes[scope].cls < 0)
            continue;
        int acq = lf_py_method_is(m->src, call, "acquire"), rel = lf_py_method_is(m->src, call, "release");
        if (!acq && !rel)
            continue;
        int32_t cls = -1;
        const char *f = self_field(m, lf_py_callee_object(call), &cls);
        if (!f && acq) {
            /* self.F = X(...).acquire() */
            TSNode p = ts_node_parent(call);
            if (!ts_node_is_null(p) && lf_tree_is(p, "assignment") && ts_node_eq(lf_tree_field(p, "right"), call))
                f = self_field(m, lf_tree_field(p, "left"), &cls);
        }
        if (!f || cls != m->scopes[scope].cls)
            continue;
        field_use u = {cls, scope, f, rel};
        LF_VEC_PUSH(&uses, u);
    }
    for (size_t i = 0; i < uses.len; i++)
        for (size_t k = 0; k < uses.len; k++) {
            const field_use *a = &uses.items[i], *r = &uses.items[k];
            if (!a->release && r->release && a->cls == r->cls && a->field == r->field && a->method != r->method)
                h->class_held[a->cls] = 1;
        }
    LF_VEC_FREE(&uses);
}

int lf_pyheld_class(const lf_pyheld *h, int32_t cls) { return cls >= 0 && h->class_held[cls]; }

/* Held at `at` in `scope` for reasons that do not depend on its callers. */
static int held_here(lf_pyheld *h, int32_t scope, TSNode at, int strict) {
    lf_pysem *m = h->l->m;
    if (scope == 0) /* a script's top level: only what it does itself */
        return held_locally(h, 0, at, strict);
    for (size_t hops = 0; scope > 0 && hops < m->n_scopes; hops++) {
        const lf_pyscope *sc = &m->scopes[scope];
        if (sc->kind != LF_PYSCOPE_FUNCTION)
            return 0;
        if (held_locally(h, scope, at, strict) || h->called_held[scope])
            return 1;
        if (sc->cls >= 0 && h->class_held[sc->cls] && strcmp(sc->name, "__init__") != 0 &&
            strcmp(sc->name, "__del__") != 0)
            return 1;
        /* a nested function: as held as its definition is in the function around it */
        at = sc->node;
        scope = sc->parent;
    }
    return 0;
}

/* ---- callers ---- */

/* Is the module a script: a top-level `if __name__ == "__main__":`? A hook
 * script's functions are its own (`ralph-loop.py` is run, not imported). */
static int is_script(const lf_pysem *m) {
    TSNode root = m->root;
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        TSNode st = ts_node_named_child(root, i);
        if (!lf_tree_is(st, "if_statement"))
            continue;
        TSNode c = lf_tree_unparen(lf_tree_field(st, "condition"));
        static const char *const text[] = {"string_content", NULL};
        if (lf_tree_is(c, "comparison_operator") && lf_tree_mentions(m->src, c, "__name__", NULL) &&
            lf_tree_mentions(m->src, c, "__main__", text))
            return 1;
    }
    return 0;
}

/* A public function of the module (`def write_state(...)` at module level,
 * no leading underscore): other modules call it too, so its callers here
 * holding a lock say nothing about theirs (a hook script calling
 * write_session_state() without the flock its own module takes around it). */
static int exported(const lf_pysem *m, int script, int32_t s) {
    if (script)
        return 0;
    const lf_pyscope *sc = &m->scopes[s];
    return sc->parent == 0 && sc->cls < 0 && sc->name && sc->name[0] && sc->name[0] != '_';
}

static int named_cmp(const void *a, const void *b) {
    const named_method *x = a, *y = b;
    uintptr_t p = (uintptr_t)x->name, q = (uintptr_t)y->name;
    if (p != q)
        return p < q ? -1 : 1;
    return x->scope < y->scope ? -1 : x->scope > y->scope;
}

/* The functions a call may invoke: the module function or method it resolves
 * to, or for `x.name(...)` every method named `name` (binary search). */
static void call_targets(lf_pyheld *h, TSNode call, i32_vec *out) {
    lf_pylock *l = h->l;
    lf_pysem *m = l->m;
    out->len = 0;
    int skip = 0;
    int32_t f = lf_pylock_local_callee(l, call, &skip);
    if (f > 0) {
        LF_VEC_PUSH(out, f);
        return;
    }
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "attribute") || !h->n_methods)
        return;
    named_method key = {intern_node(m, lf_tree_field(fn, "attribute")), -1};
    size_t lo = 0, hi = h->n_methods;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (named_cmp(&h->methods[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < h->n_methods && h->methods[lo].name == key.name; lo++)
        LF_VEC_PUSH(out, h->methods[lo].scope);
}

lf_pyheld *lf_pyheld_build(lf_pylock *l) {
    lf_pysem *m = l->m;
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    lf_pyheld *h = lf_xcalloc(1, sizeof *h);
    h->l = l;
    h->class_held = lf_xcalloc(ns, 1);
    h->called_held = lf_xcalloc(ns, 1);
    h->releases = lf_xcalloc(ns, sizeof *h->releases);
    h->releases_done = lf_xcalloc(ns, 1);
    h->decorated = lf_xcalloc(ns, 1);
    h->cfg = lf_xcalloc(ns, sizeof *h->cfg);
    h->state = lf_xcalloc(ns, sizeof *h->state);
    h->placed = lf_xcalloc(ns, 1);
    h->after_acquire = lf_xcalloc(ns, sizeof *h->after_acquire);
    h->contained = lf_xcalloc(ns, 1);
    h->only_contained = lf_xcalloc(ns, 1);
    /* the module's own unlock helpers (`def _unlock_file(f):
     * msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)`): a call of one gives a
     * lock back, so a saver that locks and unlocks around its write holds
     * nothing once it returns */
    h->unlocker = lf_xcalloc(ns, 1);
    for (size_t i = 0; i < m->n_calls; i++) {
        int32_t s = m->calls[i].scope;
        int unlock = 0;
        TSNode handle;
        if (s > 0 && m->scopes[s].kind == LF_PYSCOPE_FUNCTION && !l->acquires[s] &&
            lf_pylock_lock_call(m, m->calls[i].node, &handle, &unlock))
            h->unlocker[s] |= (unsigned char)(unlock ? 1 : 2);
    }
    for (size_t s = 0; s < ns; s++) /* one that also locks is no unlock helper */
        h->unlocker[s] = h->unlocker[s] == 1;
    find_held_classes(h);
    h->methods = lf_xcalloc(ns, sizeof *h->methods);
    for (size_t i = 1; i < m->n_scopes; i++)
        if (m->scopes[i].kind == LF_PYSCOPE_FUNCTION && m->scopes[i].cls >= 0) {
            named_method nm = {m->scopes[i].name, (int32_t)i};
            h->methods[h->n_methods++] = nm;
        }
    qsort(h->methods, h->n_methods, sizeof *h->methods, named_cmp);

    /* Per function: its call sites not (yet) known to hold a lock. A function
     * whose every site holds one is called with it held, which makes the
     * sites inside it hold one too: a worklist over the call graph. */
    size_t nc = m->n_calls;
    size_t *unheld = lf_xcalloc(ns, sizeof *unheld), *sites = lf_xcalloc(ns, sizeof *sites);
    unsigned char *site_held = lf_xcalloc(nc ? nc : 1, 1);
    i32_vec targets = {0};
    /* Method targets by name are bounded: only calls whose name some method
     * has get any, and each is listed once per matching method. */
    for (size_t i = 0; i < nc; i++) {
        call_targets(h, m->calls[i].node, &targets);
        if (!targets.len)
            continue;
        int32_t s = m->calls[i].scope;
        site_held[i] = s > 0 && held_here(h, s, m->calls[i].node, 1);
        for (size_t k = 0; k < targets.len; k++) {
            sites[targets.items[k]]++;
            unheld[targets.items[k]] += !site_held[i];
        }
    }
    /* calls by their scope, scopes by their parent: a function found held
     * makes the sites in it and in the functions nested in it hold a lock */
    size_t *call_start = lf_xcalloc(ns + 1, sizeof *call_start), *kid_start = lf_xcalloc(ns + 1, sizeof *kid_start);
    for (size_t i = 0; i < nc; i++)
        if (m->calls[i].scope >= 0)
            call_start[m->calls[i].scope + 1]++;
    for (size_t s = 1; s < m->n_scopes; s++)
        if (m->scopes[s].parent >= 0)
            kid_start[m->scopes[s].parent + 1]++;
    for (size_t s = 0; s < ns; s++) {
        call_start[s + 1] += call_start[s];
        kid_start[s + 1] += kid_start[s];
    }
    size_t *by_scope = lf_xmalloc((nc ? nc : 1) * sizeof *by_scope), *kids = lf_xmalloc(ns * sizeof *kids);
    {
        size_t *fill = lf_xcalloc(ns, sizeof *fill);
        for (size_t i = 0; i < nc; i++)
            if (m->calls[i].scope >= 0)
                by_scope[call_start[m->calls[i].scope] + fill[m->calls[i].scope]++] = i;
        memset(fill, 0, ns * sizeof *fill);
        for (size_t s = 1; s < m->n_scopes; s++)
            if (m->scopes[s].parent >= 0)
                kids[kid_start[m->scopes[s].parent] + fill[m->scopes[s].parent]++] = s;
        free(fill);
    }
    i32_vec work = {0}, nest = {0};
    int script = is_script(m);
    for (size_t s = 1; s < ns; s++)
        if (sites[s] && !unheld[s] && m->scopes[s].kind == LF_PYSCOPE_FUNCTION && !exported(m, script, (int32_t)s)) {
            h->called_held[s] = 1;
            LF_VEC_PUSH(&work, (int32_t)s);
        }
    while (work.len) {
        nest.len = 0;
        LF_VEC_PUSH(&nest, work.items[--work.len]);
        while (nest.len) {
            int32_t f = nest.items[--nest.len];
            for (size_t k = kid_start[f]; k < kid_start[f + 1]; k++)
                LF_VEC_PUSH(&nest, (int32_t)kids[k]);
            for (size_t j = call_start[f]; j < call_start[f + 1]; j++) {
                size_t i = by_scope[j];
                if (site_held[i] || !held_here(h, m->calls[i].scope, m->calls[i].node, 1))
                    continue;
                site_held[i] = 1;
                call_targets(h, m->calls[i].node, &targets);
                for (size_t k = 0; k < targets.len; k++) {
                    int32_t g = targets.items[k];
                    if (--unheld[g] == 0 && !h->called_held[g] && m->scopes[g].kind == LF_PYSCOPE_FUNCTION &&
                        !exported(m, script, g)) {
                        h->called_held[g] = 1;
                        LF_VEC_PUSH(&work, g);
                    }
                }
            }
        }
    }
    free(call_start);
    free(kid_start);
    free(by_scope);
    free(kids);
    LF_VEC_FREE(&nest);
    LF_VEC_FREE(&work);
    LF_VEC_FREE(&targets);
    free(site_held);
    free(sites);
    free(unheld);
    return h;
}

void lf_pyheld_free(lf_pyheld *h) {
    if (!h)
        return;
    free(h->methods);
    free(h->class_held);
    free(h->called_held);
    for (size_t i = 0; i < h->l->m->n_scopes; i++)
        LF_VEC_FREE(&h->releases[i]);
    free(h->releases);
    free(h->releases_done);
    free(h->decorated);
    for (size_t i = 0; i < h->l->m->n_scopes; i++) {
        lf_cfg_free(h->cfg[i]);
        lf_cfg_lockstate_free(&h->state[i]);
    }
    free(h->cfg);
    free(h->state);
    free(h->placed);
    free(h->contained);
    free(h->only_contained);
    free(h->unlocker);
    for (size_t i = 0; i < h->l->m->n_scopes; i++)
        free(h->after_acquire[i]);
    free(h->after_acquire);
    free(h);
}

int lf_pyheld_at(lf_pyheld *h, int32_t scope, TSNode at) { return held_here(h, scope, at, 0); }
