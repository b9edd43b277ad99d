/* LF302: a lock judged stale by the time elapsed since its mtime.
 *
 * On the semantic model: a comparison that reads the mtime of a path
 * (`os.path.getmtime(p)`, `os.stat(p).st_mtime`, `st.st_mtime` with `st`
 * bound to a stat of p, `p.stat().st_mtime`), directly or through a name bound
 * to such an age (`age = time.time() - st.st_mtime`), against a clock or a
 * limit (not against another mtime: that is a freshness check). Reported when p
 * is a lock by use (lf_pylock): created exclusively, flocked, holding a pid,
 * given to a lock class or helper, or passed by a caller that holds it as a
 * lock. Ages of caches and logs are not locks, whatever they are called (a
 * check-then-write lock is one by its protocol and its name: LF_LOCK_CLAIM).
 *
 * The same judgement read from a time recorded in the lock (`time.time() -
 * float(lock.read_text().split("|")[1]) > 60`, `now - data["ts"]` of a
 * json.load of it) is reported too, unless the module writes a time into the
 * lock from a second function (the holder refreshes it: a heartbeat). A name
 * bound more than once (in a try and its handler, or unpacked from a tuple)
 * carries each of its earlier values. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"
#include "lf_witness_build.h"

static const char *const k_stats[] = {"os.stat", "os.lstat", "pathlib.Path.stat", "pathlib.Path.lstat", NULL};
static const char *const k_getmtime[] = {"os.path.getmtime", NULL};
static const char *const k_clocks[] = {"time.time", "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow",
                                       "datetime.datetime.today", NULL};

/* The path whose mtime a node reads, or null. */
static TSNode mtime_of(lf_pysem *m, TSNode n) {
    if (lf_tree_is(n, "call") && lf_pylock_callee_any(m, n, k_getmtime))
        return lf_pylock_arg(m, n, 0, "path");
    if (!lf_tree_is(n, "attribute") || !lf_tree_text_eq(m->src, lf_tree_field(n, "attribute"), "st_mtime"))
        return (TSNode){0};
    TSNode st = lf_pysem_resolve_value(m, lf_tree_field(n, "object"));
    st = lf_tree_unparen(st);
    if (!lf_tree_is(st, "call"))
        return (TSNode){0};
    TSNode fn = lf_tree_unparen(lf_tree_field(st, "function"));
    int method = lf_tree_is(fn, "attribute") && (lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "stat") ||
                                                 lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "lstat"));
    /* os.stat(p) in any spelling (`stat(p)`, `_os.stat(p)`, lockrt's stat_judged(p)) */
    if (lf_pylock_callee_any(m, st, k_stats) &&
        (!method || (lf_pysem_qualname(m, fn) && strncmp(lf_pysem_qualname(m, fn), "os.", 3) == 0)))
        return lf_pylock_arg(m, st, 0, "path");
    if (method)
        return lf_tree_field(fn, "object"); /* p.stat() */
    return (TSNode){0};
}

typedef struct operand_facts {
    TSNode mtime_path; /* first mtime read */
    int mtimes;        /* how many */
    int clock;
    TSNode record_path; /* first path whose contents are read (a recorded time) */
    int record_via_helper; /* read by a module function that returns the record */
} operand_facts;

typedef LF_VEC(TSNode) node_vec;

/* A name the model cannot pin to one value (`age` bound in a try and again
 * in its handler, `age = 0.0` after a FileNotFoundError): every assignment of
 * it in the use's function before the use is a value it may hold, and an age
 * read on any of those paths is an age the comparison judges (the value
 * lf_pysem_resolve_value already picked is not pushed twice). */
static void push_earlier_values(lf_pysem *m, TSNode use, TSNode resolved, node_vec *stack) {
    int32_t scope = lf_pysem_scope_of(m, use);
    uint32_t at = ts_node_start_byte(use);
    const char *name = lf_pysem_intern(m, m->src->text + ts_node_start_byte(use),
                                       ts_node_end_byte(use) - ts_node_start_byte(use));
    size_t nb = 0;
    const lf_pybinding *const *bs = lf_pysem_bindings_of(m, scope, name, &nb);
    for (size_t i = 0; i < nb && i < 16; i++) {
        const lf_pybinding *b = bs[i];
        if (b->scope != scope || (b->kind != LF_PYBIND_ASSIGN && b->kind != LF_PYBIND_WALRUS) ||
            ts_node_start_byte(b->target) >= at)
            continue;
        TSNode v = b->value;
        /* `pid, stamp = lock.read_text().split("|")`: an unpacked name holds
         * a part of the right-hand side */
        if (ts_node_is_null(v) && b->stmt >= 0) {
            TSNode st = m->stmts[b->stmt].node;
            TSNode as = lf_tree_is(st, "expression_statement") ? ts_node_named_child(st, 0) : st;
            if (lf_tree_is(as, "assignment"))
                v = lf_tree_field(as, "right");
        }
        if (ts_node_is_null(v) || ts_node_eq(lf_tree_unparen(v), resolved))
            continue;
        LF_VEC_PUSH(stack, v);
    }
}

/* What an operand reads, following names to their values (each at most once). */
static void scan_operand(lf_pylock *l, TSNode op, operand_facts *f) {
    lf_pysem *m = l->m;
    node_vec stack = {0};
    LF_VEC_PUSH(&stack, op);
    size_t budget = 256 + m->n_bindings; /* nodes and hops: bounded, so never loops */
    while (stack.len && budget) {
        budget--;
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (ts_node_is_null(n) || lf_tree_is(n, "lambda"))
            continue;
        TSNode p = mtime_of(m, n);
        if (!ts_node_is_null(p)) {
            if (!f->mtimes++)
                f->mtime_path = p;
            continue;
        }
        if (lf_tree_is(n, "call") && lf_pylock_callee_any(m, n, k_clocks)) {
            f->clock = 1;
            continue;
        }
        TSNode rec = lf_pylock_content_read(l, n);
        int via = 0;
        if (ts_node_is_null(rec)) {
            rec = lf_pylock_returned_record(l, n);
            via = !ts_node_is_null(rec);
        }
        if (!ts_node_is_null(rec)) {
            if (ts_node_is_null(f->record_path)) {
                f->record_path = rec;
                f->record_via_helper = via;
            }
            continue;
        }
        if (lf_tree_is(n, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n)) {
                LF_VEC_PUSH(&stack, v);
            } else {
                /* A parameter: what the module's callers pass for it (a
                 * `_is_stale(record)` helper handed the record read from the
                 * lock by its caller). */
                char *name = lf_tree_text(m->src, n);
                const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, n), name, ts_node_start_byte(n));
                free(name);
                if (b && b->kind == LF_PYBIND_PARAM) {
                    TSNode args[8];
                    size_t na = lf_pylock_param_args(l, b, args, 8);
                    for (size_t k = na; k-- > 0;) /* the first call's argument is looked at first */
                        LF_VEC_PUSH(&stack, args[k]);
                }
            }
            push_earlier_values(m, n, v, &stack);
            continue;
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
}

typedef struct walk {
    lf_check_ctx *ctx;
    lf_pysem *m;
    lf_pylock *l;
} walk;

/* A lock judged stale by the time its acquirer wrote into it. Reported when
 * the module breaks or takes over that lock (removes it, or writes it again)
 * and no second function writes a time into it: the holder never refreshes
 * the record, so one that merely runs long or is paused loses its lock. A
 * heartbeat the holder rewrites is a liveness signal, not this bug. */
static lf_walk_action recorded_age(walk *w, TSNode cmp_node, TSNode path) {
    unsigned fl = lf_pylock_flags_of(w->l, path);
    if (!lf_pylock_is_lock(fl) || (fl & LF_LOCK_REFRESHED) || !(fl & (LF_LOCK_REMOVED | LF_LOCK_PID | LF_LOCK_EXCL)))
        return LF_WALK_SKIP;
    const lf_source *src = lf_ctx_source(w->ctx);
    char *cmp = lf_py_short(src, cmp_node);
    char *p = lf_py_short(src, path);
    char *msg = lf_xasprintf("%s judges the lock %s stale by the time recorded in it, which its holder never "
                             "refreshes: a holder that runs long or is merely paused (stopped, descheduled, stalled "
                             "on I/O) loses a lock it still holds, and two holders run at once (every platform)",
                             cmp, p);
    lf_ctx_emit(w->ctx, cmp_node, msg, SIZE_MAX);
    lf_ctx_witness(w->ctx, lf_wit_stale_age_py(w->l, cmp_node, path));
    free(msg);
    free(cmp);
    free(p);
    return LF_WALK_SKIP;
}

/* Is the comparison's verdict acted on: inside a return statement, or in a
 * function that removes or acquires a lock (lf_pylock's events)? */
static int verdict_acted_on(walk *w, TSNode cmp) {
    for (TSNode p = ts_node_parent(cmp); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (lf_tree_is(p, "return_statement"))
            return 1;
        if (lf_tree_is(p, "function_definition") || lf_tree_is(p, "lambda"))
            break;
    }
    int32_t scope = lf_pysem_scope_of(w->m, cmp);
    for (size_t i = 0; i < w->l->n_events; i++) {
        const lf_pylock_event *e = &w->l->events[i];
        if (e->scope == scope && (e->kind == LF_PYEV_REMOVE || e->kind == LF_PYEV_ACQUIRE))
            return 1;
    }
    return 0;
}

static lf_walk_action visit(TSNode n, void *ud) {
    walk *w = ud;
    if (!lf_tree_is(n, "comparison_operator"))
        return LF_WALK_CONTINUE;
    operand_facts all;
    memset(&all, 0, sizeof all);
    int with_mtime = 0, without_mtime = 0;
    uint32_t k = lf_tree_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        operand_facts f;
        memset(&f, 0, sizeof f);
        scan_operand(w->l, lf_tree_child(n, i), &f);
        if (f.mtimes && !all.mtimes)
            all.mtime_path = f.mtime_path;
        if (ts_node_is_null(all.record_path)) {
            all.record_path = f.record_path;
            all.record_via_helper = f.record_via_helper;
        }
        all.mtimes += f.mtimes;
        all.clock |= f.clock;
        if (f.mtimes)
            with_mtime++;
        else
            without_mtime++;
    }
    /* A time recorded in the lock (`time.time() - float(parts[1]) > 60`,
     * `now - data["timestamp"]`) against the clock. */
    if (!all.mtimes && all.clock && !ts_node_is_null(all.record_path)) {
        /* A record read through the module's reader (`info = _read_lock(p)`)
         * is judged where the verdict is acted on: returned to a caller
         * (`_is_stale()`), or in a function that removes or takes a lock. A
         * status listing that only prints "[STALE]" breaks nothing. */
        if (all.record_via_helper && !verdict_acted_on(w, n))
            return LF_WALK_SKIP;
        return recorded_age(w, n, all.record_path);
    }
    /* An age: the mtime against a clock, or one mtime against a limit. Two mtimes
     * compared with no clock is a freshness check. */
    if (!all.mtimes || (!all.clock && (all.mtimes > 1 || !without_mtime)))
        return LF_WALK_SKIP;
    (void)with_mtime;
    unsigned fl = lf_pylock_flags_of(w->l, all.mtime_path);
    if (!lf_pylock_is_lock(fl) && !((fl & LF_LOCK_ARG) && !(fl & LF_LOCK_PKG)))
        return LF_WALK_SKIP;
    const lf_source *src = lf_ctx_source(w->ctx);
    char *cmp = lf_py_short(src, n);
    char *path = lf_py_short(src, all.mtime_path);
    char *msg = lf_xasprintf("%s judges the lock %s stale by its age (mtime): a holder that is merely paused (stopped, "
                             "descheduled, stalled on I/O) loses a lock it still holds, and two holders run at once "
                             "(every platform)",
                             cmp, path);
    lf_ctx_emit(w->ctx, n, msg, SIZE_MAX);
    lf_ctx_witness(w->ctx, lf_wit_stale_age_py(w->l, n, all.mtime_path));
    free(msg);
    free(cmp);
    free(path);
    return LF_WALK_SKIP;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf302_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    /* Every age judged here reads an mtime (`.st_mtime`, getmtime) or a
     * clock call: a module with neither has nothing to judge, and the search
     * behind each comparison (names followed to their values) is skipped. The
     * model records every call, so the calls are the only place a clock or a
     * getmtime can be. */
    if (!memmem(m->src->text, m->src->len, "st_mtime", 8)) {
        size_t i = 0;
        while (i < m->n_calls && !lf_pylock_callee_any(m, m->calls[i].node, k_getmtime) &&
               !lf_pylock_callee_any(m, m->calls[i].node, k_clocks))
            i++;
        if (i == m->n_calls)
            return;
    }
    walk w = {ctx, m, lf_pylock_build(m)};
    lf_tree_walk(m->root, visit, &w);
}

const lf_check lf302_mtime_staleness_check = {"lf302_mtime_staleness", run};
