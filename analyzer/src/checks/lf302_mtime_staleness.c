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

#include "lf302_py_site.h"
#include "lf_check.h"
#include "lf_pygate.h"
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

/* `stat.ST_MTIME` (or `ST_MTIME` imported from stat, or 8): the mtime's
 * index in a stat result read as a tuple. */
static int mtime_index(lf_pysem *m, TSNode i) {
    i = lf_tree_unparen(i);
    if (lf_tree_is(i, "integer"))
        return lf_tree_text_eq(m->src, i, "8");
    const char *q = lf_pysem_qualname(m, i);
    return q && !strcmp(q, "stat.ST_MTIME");
}

/* The path whose mtime a node reads, or null. */
static TSNode mtime_of(lf_pysem *m, TSNode n) {
    if (lf_tree_is(n, "call") && lf_pylock_callee_any(m, n, k_getmtime))
        return lf_pylock_arg(m, n, 0, "path");
    TSNode stat_result;
    if (lf_tree_is(n, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(n, "attribute"), "st_mtime"))
        stat_result = lf_tree_field(n, "object");
    else if (lf_tree_is(n, "subscript") && mtime_index(m, lf_tree_field(n, "subscript")))
        stat_result = lf_tree_field(n, "value"); /* `os.stat(p)[stat.ST_MTIME]` */
    else
        return (TSNode){0};
    TSNode st = lf_pysem_resolve_value(m, stat_result);
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

/* The values a call of the module's own helper that takes no argument of
 * its own returns (`self.get_age()` returning `time.time() -
 * os.path.getmtime(self.lock_dir_path)`): an age read through it is read
 * here. Its fields and module names mean what they mean here; a helper with
 * parameters is not followed (their values are its callers'). At most cap. */
static size_t helper_returns(lf_pylock *l, TSNode call, TSNode *out, size_t cap) {
    lf_pysem *m = l->m;
    if (!lf_tree_is(call, "call"))
        return 0;
    int skip = 0;
    int32_t f = lf_pylock_local_callee(l, call, &skip);
    if (f <= 0 || m->scopes[f].kind != LF_PYSCOPE_FUNCTION || m->scopes[f].stmt < 0 ||
        ts_node_named_child_count(lf_tree_field(call, "arguments")) != 0)
        return 0;
    TSNode params = lf_tree_field(m->scopes[f].node, "parameters");
    if (ts_node_named_child_count(params) != (uint32_t)skip)
        return 0;
    size_t n = 0;
    uint32_t stop = ts_node_end_byte(m->scopes[f].node);
    for (size_t i = (size_t)m->scopes[f].stmt + 1;
         i < m->n_stmts && n < cap && ts_node_start_byte(m->stmts[i].node) < stop; i++)
        if (m->stmts[i].scope == f && lf_tree_is(m->stmts[i].node, "return_statement") &&
            ts_node_named_child_count(m->stmts[i].node) == 1)
            out[n++] = ts_node_named_child(m->stmts[i].node, 0);
    return n;
}

/* What an operand reads, following names to their values (each at most once). */
static void scan_operand(lf_pylock *l, TSNode op, operand_facts *f) {
    lf_pysem *m = l->m;
    node_vec stack = {0};
    lf_node_set seen = {0}; /* a value reached on two paths is read once */
    LF_VEC_PUSH(&stack, op);
    size_t budget = 256 + m->n_bindings; /* nodes and hops: bounded, so never loops */
    while (stack.len && budget) {
        budget--;
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (ts_node_is_null(n) || lf_tree_is(n, "lambda") || !lf_node_set_add(&seen, n))
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
        TSNode rets[8];
        size_t nr = helper_returns(l, n, rets, 8);
        if (nr) {
            for (size_t k = nr; k-- > 0;)
                LF_VEC_PUSH(&stack, rets[k]);
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
    lf_node_set_free(&seen);
}

typedef LF_VEC(lf_pkey) pkey_vec;

typedef struct walk {
    lf_check_ctx *ctx;
    lf_pysem *m;
    lf_pylock *l;
    /* per scope, once asked (probed_known): the keys of the lock records whose
     * pid field the function probes (probes_recorded_pid) */
    pkey_vec *probed;
    unsigned char *probed_known;
} walk;

/* ---- the fix's site ---- */

void lf302_py_site_free(void *site) {
    lf302_py_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s);
}

static lf302_py_site *site_declined(char *why) {
    lf302_py_site *s = lf_xcalloc(1, sizeof *s);
    s->decline = why;
    return s;
}

static int reads_lock(const operand_facts *f) { return f->mtimes || !ts_node_is_null(f->record_path); }

static operand_facts facts_of(lf_pylock *l, TSNode n) {
    operand_facts f;
    memset(&f, 0, sizeof f);
    scan_operand(l, n, &f);
    return f;
}

/* Is the call lockrt's holder_alive (a fixed module's)? */
static int holder_alive_call(lf_pysem *m, TSNode n) {
    n = lf_tree_unparen(n);
    return lf_tree_is(n, "call") && lf_pylock_lockrt_call(m, n, "holder_alive");
}

/* The age test already asks about the holder (a fixed module): `(C and not
 * lockrt.holder_alive(P))` or `(C or lockrt.holder_alive(P))`. */
static int holder_guarded(lf_pysem *m, TSNode cmp) {
    TSNode cur = cmp, p = ts_node_parent(cmp);
    while (lf_tree_is(p, "parenthesized_expression")) {
        cur = p;
        p = ts_node_parent(p);
    }
    if (!lf_tree_is(p, "boolean_operator"))
        return 0;
    TSNode other = ts_node_eq(lf_tree_field(p, "left"), cur) ? lf_tree_field(p, "right") : lf_tree_field(p, "left");
    other = lf_tree_unparen(other);
    TSNode op = lf_tree_field(p, "operator");
    if (lf_tree_text_eq(m->src, op, "or"))
        return holder_alive_call(m, other);
    return lf_tree_text_eq(m->src, op, "and") && lf_tree_is(other, "not_operator") &&
           holder_alive_call(m, lf_tree_field(other, "argument"));
}

/* How a value that reads the lock's time grows with that time: */
enum {
    FORM_NONE,    /* reads nothing of the lock (`age = 0.0` in a handler): no side to take */
    FORM_TIME,    /* the time itself, or the time plus or minus a constant: grows with it */
    FORM_AGE,     /* `clock - time`: shrinks as the time grows, grows as the lock ages */
    FORM_UNKNOWN, /* anything else (a negation, a product with a name, two forms): not oriented */
};

static int is_number(TSNode n) { return lf_tree_is(n, "integer") || lf_tree_is(n, "float"); }

/* Does the subtree (names not followed) negate anything: unary minus, or a
 * subtraction whose right side reads the lock? */
static int negates(lf_pylock *l, TSNode n) {
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, n);
    int found = 0;
    for (size_t budget = 256; !found && todo.len; budget--) {
        TSNode c = todo.items[--todo.len];
        if (ts_node_is_null(c))
            continue;
        if (!budget || (lf_tree_is(c, "unary_operator") && lf_tree_text_eq(l->m->src, lf_tree_field(c, "operator"), "-")))
            found = 1;
        else if (lf_tree_is(c, "binary_operator") && lf_tree_text_eq(l->m->src, lf_tree_field(c, "operator"), "-")) {
            operand_facts r = facts_of(l, lf_tree_field(c, "right"));
            found = reads_lock(&r);
        }
        for (uint32_t i = 0; !found && i < ts_node_named_child_count(c); i++)
            LF_VEC_PUSH(&todo, ts_node_named_child(c, i));
    }
    LF_VEC_FREE(&todo);
    return found;
}

/* What a path from the compared operand down to one value does to that
 * value's form: each entry maps the value's form to the operand's. */
typedef struct form_map {
    unsigned char of[4];
} form_map;

static const form_map k_same = {{FORM_NONE, FORM_TIME, FORM_AGE, FORM_UNKNOWN}};
static const form_map k_aged = {{FORM_NONE, FORM_AGE, FORM_UNKNOWN, FORM_UNKNOWN}};  /* `clock - value` */
static const form_map k_timed = {{FORM_NONE, FORM_TIME, FORM_UNKNOWN, FORM_UNKNOWN}}; /* `value + c` */

static form_map form_then(form_map outer, form_map inner) {
    form_map m;
    for (int i = 0; i < 4; i++)
        m.of[i] = outer.of[inner.of[i]];
    return m;
}

typedef struct form_item {
    TSNode n;
    form_map map;
} form_item;

/* The form of operand `v`: every value it may hold (names followed to each
 * of their values, as scan_operand follows them) is taken down to the lock's
 * time, and the forms met agree, or the operand is not oriented. A value
 * that reads nothing of the lock (`age = 0.0` in a handler) takes no side. */
static int form_of(lf_pylock *l, TSNode v) {
    lf_pysem *m = l->m;
    const lf_source *src = m->src;
    LF_VEC(form_item) todo = {0};
    LF_VEC_PUSH(&todo, ((form_item){v, k_same}));
    int form = FORM_NONE;
    for (size_t budget = 64; todo.len && form != FORM_UNKNOWN; budget--) {
        form_item it = todo.items[--todo.len];
        TSNode n = lf_tree_unparen(it.n);
        int leaf = FORM_UNKNOWN;
        operand_facts f = facts_of(l, n);
        TSNode rets[8];
        size_t nrets = 0;
        if (!budget) {
            leaf = FORM_UNKNOWN;
        } else if (!reads_lock(&f)) {
            leaf = FORM_NONE;
        } else if (!ts_node_is_null(mtime_of(m, n))) {
            leaf = FORM_TIME;
        } else if (lf_tree_is(n, "identifier")) {
            TSNode val = lf_pysem_resolve_value(m, n);
            if (ts_node_eq(val, n)) {
                leaf = FORM_TIME; /* a parameter: the record its callers read and pass */
            } else {
                node_vec vals = {0};
                LF_VEC_PUSH(&vals, val);
                push_earlier_values(m, n, lf_tree_unparen(val), &vals);
                for (size_t i = 0; i < vals.len; i++)
                    LF_VEC_PUSH(&todo, ((form_item){vals.items[i], it.map}));
                LF_VEC_FREE(&vals);
                continue;
            }
        } else if (lf_tree_is(n, "binary_operator")) {
            TSNode left = lf_tree_field(n, "left"), right = lf_tree_field(n, "right");
            operand_facts fl = facts_of(l, left), fr = facts_of(l, right);
            TSNode op = lf_tree_field(n, "operator");
            int minus = lf_tree_text_eq(src, op, "-"), plus = lf_tree_text_eq(src, op, "+");
            TSNode next = {0};
            form_map how = k_same;
            if (minus && fl.clock && !reads_lock(&fl) && !fr.clock) {
                next = right, how = k_aged;
            } else if ((minus || plus) && !fr.clock && !reads_lock(&fr) && !fl.clock) {
                next = left, how = k_timed;
            } else if (plus && !fl.clock && !reads_lock(&fl) && !fr.clock) {
                next = right, how = k_timed;
            } else if ((lf_tree_text_eq(src, op, "/") || lf_tree_text_eq(src, op, "//") ||
                        lf_tree_text_eq(src, op, "*")) &&
                       is_number(lf_tree_unparen(right))) {
                next = left; /* an age in other units: `(now - mtime) / 60` */
            }
            if (!ts_node_is_null(next)) {
                LF_VEC_PUSH(&todo, ((form_item){next, form_then(it.map, how)}));
                continue;
            }
        } else if (lf_tree_is(n, "call") && (nrets = helper_returns(l, n, rets, 8)) > 0) {
            for (size_t i = 0; i < nrets; i++) /* `self.get_age()`: each value it returns */
                LF_VEC_PUSH(&todo, ((form_item){rets[i], it.map}));
            continue;
        } else if (lf_tree_is(n, "call") && lf_tree_is(lf_tree_field(n, "function"), "attribute") &&
                   lf_tree_text_eq(src, lf_tree_field(lf_tree_field(n, "function"), "attribute"), "total_seconds") &&
                   ts_node_named_child_count(lf_tree_field(n, "arguments")) == 0) {
            /* `(now - locked_at).total_seconds()` */
            LF_VEC_PUSH(&todo, ((form_item){lf_tree_field(lf_tree_field(n, "function"), "object"), it.map}));
            continue;
        } else {
            /* a time read from the record as it is (`float(parts[1])`,
             * `data.get("ts", 0)`, `datetime.fromisoformat(rec["at"])`) */
            leaf = f.clock || negates(l, n) ? FORM_UNKNOWN : FORM_TIME;
        }
        int got = it.map.of[leaf];
        if (got != FORM_NONE)
            form = form == FORM_NONE || form == got ? got : FORM_UNKNOWN;
    }
    LF_VEC_FREE(&todo);
    return form;
}

/* Does the pid expression read the record's "pid" field or its first field
 * (`data.get("pid")`, `rec["pid"]`, `int(parts[0])`, `int(content)`), the
 * places holder_alive reads it from? Names are followed to their values. */
static int reads_pid_field(lf_pysem *m, TSNode n) {
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, n);
    int found = 0;
    for (size_t budget = 128; !found && todo.len && budget; budget--) {
        TSNode c = lf_tree_unparen(todo.items[--todo.len]);
        if (lf_tree_is(c, "string")) {
            char *t = lf_tree_text(m->src, c);
            found = !strcmp(t, "\"pid\"") || !strcmp(t, "'pid'");
            free(t);
        } else if (lf_tree_is(c, "subscript")) {
            TSNode i = lf_tree_unparen(lf_tree_field(c, "subscript"));
            found = lf_tree_is(i, "integer") && lf_tree_text_eq(m->src, i, "0");
        } else if (lf_tree_is(c, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, c);
            if (!ts_node_eq(v, c))
                LF_VEC_PUSH(&todo, v);
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(c) && !lf_tree_is(c, "identifier"); i++)
            LF_VEC_PUSH(&todo, ts_node_named_child(c, i));
    }
    LF_VEC_FREE(&todo);
    return found;
}

/* Does the function of `cmp` probe, as the lock's holder, the pid it reads
 * from the lock's record (`pid = int(data.get("pid", 0)); alive =
 * _pid_alive(pid)` with `data` read from the lock)? The module's own notion
 * of its holder, though the record is written elsewhere. */
static int probes_recorded_pid(walk *w, TSNode cmp, TSNode path) {
    lf_pylock *l = w->l;
    int32_t scope = lf_pysem_scope_of(w->m, cmp);
    if (scope < 0)
        return 0;
    if (!w->probed) {
        size_t ns = w->m->n_scopes ? w->m->n_scopes : 1;
        w->probed = lf_xcalloc(ns, sizeof *w->probed);
        w->probed_known = lf_xcalloc(ns, 1);
    }
    pkey_vec *keys = &w->probed[scope];
    /* The function's probes are looked at once, however many age checks ask. */
    if (!w->probed_known[scope]) {
        w->probed_known[scope] = 1;
        for (size_t i = 0; i < l->n_events; i++) {
            const lf_pylock_event *e = &l->events[i];
            if (e->kind != LF_PYEV_PROBE || e->scope != scope || !lf_tree_is(e->node, "call"))
                continue;
            TSNode pid = lf_pylock_arg(w->m, e->node, 0, NULL);
            if (ts_node_is_null(pid))
                continue;
            operand_facts f = facts_of(l, pid);
            if (ts_node_is_null(f.record_path) || !reads_pid_field(w->m, pid))
                continue;
            lf_pkey got = lf_pylock_key_of(l, f.record_path);
            LF_VEC_PUSH(keys, got);
        }
    }
    lf_pkey want = lf_pylock_key_of(l, path);
    for (size_t i = 0; i < keys->len; i++)
        if (lf_pylock_key_same(l, &want, &keys->items[i]))
            return 1;
    return 0;
}

/* For a lock that records no pid: can its one create record it (lf302_py_site.h)?
 * Fills s->record_*, or returns why not (malloc'd). */
static char *plan_pid_record(walk *w, TSNode path, lf302_py_site *s) {
    lf_pylock *l = w->l;
    lf_pysem *m = w->m;
    lf_pkey want = lf_pylock_key_of(l, path);
    int32_t k = lf_pylock_find(l, &want);
    for (size_t i = 0; k >= 0 && i < l->n_events; i++)
        if (l->events[i].kind == LF_PYEV_JUDGE && l->events[i].content && l->events[i].key == k)
            return lf_xstrdup("the lock records no pid of its holder, and the module reads what it holds: a pid "
                              "written into it would change what that read sees");
    TSNode writers[2];
    size_t n = lf_pylock_writers(l, path, writers, 2);
    if (n != 1)
        return lf_xstrdup("the lock records no pid of its holder, and it is not created and written in exactly "
                          "one place in this module the fix could make record it");
    TSNode create = writers[0];
    static const char *const os_open[] = {"os.open", NULL};
    static const char *const opens[] = {"open", "io.open", NULL};
    TSNode flags = lf_pylock_arg(m, create, 1, "flags");
    /* `with open(LOCK, "x") as f:` (text mode): f.write(str(os.getpid())) opens its body */
    TSNode mode = lf_tree_unparen(lf_pylock_arg(m, create, 1, "mode"));
    if (lf_pylock_callee_any(m, create, opens) && lf_tree_is(mode, "string") &&
        lf_pylock_open_mode(m->src, mode, 'x', 0) && !lf_pylock_open_mode(m->src, mode, 'b', 0)) {
        TSNode item = ts_node_parent(create), as = {0};
        if (lf_tree_is(item, "as_pattern")) {
            as = lf_tree_field(item, "alias");
            if (lf_tree_is(as, "as_pattern_target"))
                as = ts_node_named_child(as, 0);
            item = ts_node_parent(item);
        }
        TSNode clause = lf_tree_is(item, "with_item") ? ts_node_parent(item) : (TSNode){0};
        TSNode with = lf_tree_is(clause, "with_clause") ? ts_node_parent(clause) : (TSNode){0};
        TSNode body = lf_tree_field(with, "body");
        TSNode first = {0};
        for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++)
            if (!lf_tree_is(ts_node_named_child(body, i), "comment")) {
                first = ts_node_named_child(body, i);
                break;
            }
        if (!lf_tree_is(as, "identifier") || !lf_tree_is(with, "with_statement") ||
            ts_node_named_child_count(clause) != 1 || ts_node_is_null(first) || !lf_tree_starts_line(m->src, first))
            return lf_xstrdup("the lock records no pid of its holder, and its `open(..., \"x\")` is not the one "
                              "item of a `with ... as f:` whose body the fix could begin with the pid");
        s->record_stmt = first;
        s->record_fd = as;
        s->record_with = 1;
        return NULL;
    }
    if (!lf_pylock_callee_any(m, create, os_open) || !lf_pylock_mentions(m, flags, "os.O_EXCL"))
        return lf_xstrdup("the lock records no pid of its holder, and its create is neither an os.open with O_EXCL "
                          "whose descriptor the fix could write it through nor a `with open(..., \"x\") as f:`");
    TSNode up = ts_node_parent(create);
    TSNode fd = lf_tree_is(up, "assignment") ? lf_tree_field(up, "left") : (TSNode){0};
    TSNode stmt = lf_tree_is(up, "assignment") ? ts_node_parent(up) : (TSNode){0};
    if (!lf_tree_is(fd, "identifier") || !lf_tree_is(stmt, "expression_statement") ||
        !ts_node_eq(lf_tree_unparen(lf_tree_field(up, "right")), create))
        return lf_xstrdup("the lock records no pid of its holder, and the descriptor its exclusive open returns is "
                          "not kept in a name by a statement of its own");
    s->record_stmt = stmt;
    s->record_fd = fd;
    return NULL;
}

/* The fix's site for comparison `cmp`, which ages the lock at `path`. */
static lf302_py_site *holder_site(walk *w, TSNode cmp, TSNode path) {
    lf_pylock *l = w->l;
    lf_pysem *m = w->m;
    const lf_source *src = m->src;
    if (lf_pylock_made_as_directory(l, path))
        return site_declined(lf_xstrdup("the lock is a directory: the pid its holder records is in a file the fix "
                                        "does not know"));
    lf302_py_site plan;
    memset(&plan, 0, sizeof plan);
    if (!(lf_pylock_flags_of(l, path) & LF_LOCK_PID) && !probes_recorded_pid(w, cmp, path)) {
        char *why = plan_pid_record(w, path, &plan);
        if (why)
            return site_declined(why);
    }
    if (lf_tree_child_count(cmp) != 2 || ts_node_child_count(cmp) != 3)
        return site_declined(lf_xstrdup("the comparison is chained: the fix rewrites one comparison of the age"));
    TSNode left = lf_tree_child(cmp, 0), op = ts_node_child(cmp, 1), right = lf_tree_child(cmp, 1);
    int greater = lf_tree_text_eq(src, op, ">") || lf_tree_text_eq(src, op, ">=");
    int less = lf_tree_text_eq(src, op, "<") || lf_tree_text_eq(src, op, "<=");
    operand_facts fl = facts_of(l, left), fr = facts_of(l, right);
    int read_left = reads_lock(&fl);
    operand_facts *other = read_left ? &fr : &fl;
    int form = form_of(l, read_left ? left : right);
    if ((!greater && !less) || reads_lock(other) || form == FORM_UNKNOWN || form == FORM_NONE ||
        (form == FORM_AGE && other->clock))
        return site_declined(lf_xstrdup("the age is not tested in a form the fix can orient (one `<`, `<=`, `>` or "
                                        "`>=` of the time, or of `clock - time`, against a limit)"));
    if (!lf_pylock_nameable_at(l, path, path, cmp, 0)) {
        char *p = lf_py_short(src, path);
        char *why = lf_xasprintf("the lock path `%s` is not a name bound the same where the age is tested (or a "
                                 "literal): the test cannot name the lock again",
                                 p);
        free(p);
        return site_declined(why);
    }
    /* the read side is larger when `greater` and it is on the left */
    int read_larger = read_left ? greater : !greater;
    lf302_py_site *s = lf_xcalloc(1, sizeof *s);
    s->cmp = cmp;
    s->path = lf_tree_unparen(path);
    s->stale_when_true = form == FORM_AGE ? read_larger : !read_larger;
    s->record_stmt = plan.record_stmt;
    s->record_fd = plan.record_fd;
    s->record_with = plan.record_with;
    return s;
}

/* A path whose age LF302 reports: a lock, or a parameter some caller passes
 * a lock to (a package-manager lock file never). */
static int age_judged_of(unsigned fl) {
    return lf_pylock_is_lock(fl) || ((fl & LF_LOCK_ARG) && !(fl & LF_LOCK_PKG));
}

/* A lock judged stale by the time its acquirer wrote into it. Reported when
 * the module breaks or takes over that lock (removes it, or writes it again)
 * and no second function writes a time into it: the holder never refreshes
 * the record, so one that merely runs long or is paused loses its lock. A
 * heartbeat the holder rewrites is a liveness signal, not this bug. */
static lf_walk_action recorded_age(walk *w, TSNode cmp_node, TSNode path) {
    unsigned fl = lf_pylock_flags_of(w->l, path);
    /* a lock, or a parameter its callers hand a lock (`is_lock_held(path)`) */
    if (!age_judged_of(fl) || (fl & LF_LOCK_REFRESHED) || !(fl & (LF_LOCK_REMOVED | LF_LOCK_PID | LF_LOCK_EXCL)))
        return LF_WALK_SKIP;
    const lf_source *src = lf_ctx_source(w->ctx);
    char *cmp = lf_py_short(src, cmp_node);
    char *p = lf_py_short(src, path);
    char *msg = lf_xasprintf("%s judges the lock %s stale by the time recorded in it, which its holder never "
                             "refreshes: a holder that runs long or is merely paused (stopped, descheduled, stalled "
                             "on I/O) loses a lock it still holds, and two holders run at once (every platform)",
                             cmp, p);
    lf_ctx_emit_site(w->ctx, cmp_node, msg, holder_site(w, cmp_node, path), lf302_py_site_free);
    lf_ctx_witness(w->ctx, lf_wit_stale_age_py(w->l, cmp_node, path));
    free(msg);
    free(cmp);
    free(p);
    return LF_WALK_SKIP;
}

/* Is the comparison's verdict acted on: inside a return statement, or in a
 * function that removes or acquires a lock (lf_pylock's events, or a removal
 * LF301's fix bound: lockrt's unlink_judged and the like)? */
static int verdict_acted_on(walk *w, TSNode cmp) {
    for (TSNode p = ts_node_parent(cmp), below = cmp; !ts_node_is_null(p); below = p, p = ts_node_parent(p)) {
        if (lf_tree_is(p, "return_statement"))
            return 1;
        /* `if age > LIMIT: return True`: the verdict is the function's answer */
        if ((lf_tree_is(p, "if_statement") || lf_tree_is(p, "elif_clause")) &&
            ts_node_eq(lf_tree_field(p, "condition"), below)) {
            TSNode body = lf_tree_field(p, "consequence");
            for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
                if (lf_tree_is(ts_node_named_child(body, i), "return_statement") &&
                    ts_node_named_child_count(ts_node_named_child(body, i)) > 0)
                    return 1;
            break;
        }
        if (lf_tree_is(p, "function_definition") || lf_tree_is(p, "lambda") || lf_tree_is(p, "block"))
            break;
    }
    int32_t scope = lf_pysem_scope_of(w->m, cmp);
    for (size_t i = 0; i < w->l->n_events; i++) {
        const lf_pylock_event *e = &w->l->events[i];
        if (e->scope == scope && (e->kind == LF_PYEV_REMOVE || e->kind == LF_PYEV_ACQUIRE))
            return 1;
    }
    for (size_t i = 0; i < w->m->n_calls; i++)
        if (w->m->calls[i].scope == scope && lf_pylock_bound_removal(&w->m->calls[i]))
            return 1;
    return 0;
}

/* Does the age only gate a liveness probe? `if age < MIN: return` and then
 * the lock is broken only after its holder's pid was found dead: every
 * removal of the lock after the comparison in its function was last judged by
 * a pid probe (lf_pylock's LF_JUDGED_LIVENESS), so no age breaks a live
 * holder's lock. A function that removes nothing (hands the verdict to its
 * caller) is not this. */
/* Is the probe `probe` evaluated on every path to the statement holding
 * `at`: its statement (the try around it, for `try: os.kill(pid, 0)`) is an
 * earlier sibling of `at`'s statement or of one enclosing it, and the probe is
 * that statement's whole test or value (`if is_alive(pid): return`,
 * `alive = is_alive(pid)`), not one arm of an `and`/`or`? */
static int probe_dominates(lf_pysem *m, TSNode probe, TSNode at) {
    int32_t ps = lf_pysem_stmt_of(m, probe);
    if (ps < 0)
        return 0;
    TSNode st = m->stmts[ps].node;
    TSNode whole = lf_tree_is(st, "if_statement") ? lf_tree_unparen(lf_tree_field(st, "condition"))
                   : lf_tree_is(st, "expression_statement") ? lf_tree_unparen(lf_tree_child(st, 0))
                                                            : (TSNode){0};
    if (lf_tree_is(whole, "not_operator"))
        whole = lf_tree_unparen(lf_tree_field(whole, "argument"));
    if (lf_tree_is(whole, "assignment"))
        whole = lf_tree_unparen(lf_tree_field(whole, "right"));
    if (!ts_node_eq(whole, probe))
        return 0;
    if (m->stmts[ps].clause == LF_PYCLAUSE_TRY_BODY && m->stmts[ps].parent >= 0)
        ps = m->stmts[ps].parent;
    for (int32_t r = lf_pysem_stmt_of(m, at); r >= 0; r = m->stmts[r].parent)
        if (ts_node_eq(m->stmts[r].block, m->stmts[ps].block))
            return r != ps && ts_node_start_byte(m->stmts[r].node) > ts_node_start_byte(m->stmts[ps].node);
    return 0;
}

/* Does the block end by leaving (raise, return, continue, break, an exit)? */
static int block_leaves(lf_pysem *m, TSNode block) {
    static const char *const exits[] = {"sys.exit", "exit", "quit", "os._exit", NULL};
    uint32_t n = ts_node_named_child_count(block);
    TSNode last = n ? ts_node_named_child(block, n - 1) : (TSNode){0};
    while (lf_tree_is(last, "comment") && n > 1)
        last = ts_node_named_child(block, --n - 1);
    if (lf_tree_is(last, "raise_statement") || lf_tree_is(last, "return_statement") ||
        lf_tree_is(last, "continue_statement") || lf_tree_is(last, "break_statement"))
        return 1;
    TSNode e = lf_tree_is(last, "expression_statement") ? lf_tree_unparen(lf_tree_child(last, 0)) : (TSNode){0};
    return lf_tree_is(e, "call") && lf_pysem_call_is(m, e, exits);
}

/* Is the age reached only once a probe has found the lock's holder dead?
 * `if alive(pid): raise ... else: age = ...; if age < MIN: raise`, or the
 * same with the live branch leaving before the age's statement. The age
 * then only holds back the break of a dead holder's lock (more caution, not
 * a verdict on a live one). */
static int probe_gates_age(walk *w, TSNode cmp) {
    lf_pysem *m = w->m;
    int32_t scope = lf_pysem_scope_of(m, cmp);
    for (size_t i = 0; i < w->l->n_events; i++) {
        const lf_pylock_event *p = &w->l->events[i];
        if (p->kind != LF_PYEV_PROBE || p->scope != scope || ts_node_start_byte(p->node) >= ts_node_start_byte(cmp))
            continue;
        int32_t ps = lf_pysem_stmt_of(m, p->node);
        TSNode st = ps >= 0 ? m->stmts[ps].node : (TSNode){0};
        if (!lf_tree_is(st, "if_statement"))
            continue;
        TSNode cond = lf_tree_unparen(lf_tree_field(st, "condition"));
        int negated = lf_tree_is(cond, "not_operator");
        if (negated)
            cond = lf_tree_unparen(lf_tree_field(cond, "argument"));
        if (!ts_node_eq(cond, p->node))
            continue;
        TSNode alive = negated ? (TSNode){0} : lf_tree_field(st, "consequence"), dead = (TSNode){0};
        for (uint32_t k = 0; k < ts_node_named_child_count(st); k++) {
            TSNode c = ts_node_named_child(st, k);
            if (lf_tree_is(c, "elif_clause"))
                break; /* more branches than alive and dead */
            if (lf_tree_is(c, "else_clause")) {
                if (negated)
                    alive = lf_tree_field(c, "body");
                else
                    dead = lf_tree_field(c, "body");
            }
        }
        if (negated)
            dead = lf_tree_field(st, "consequence");
        if (!ts_node_is_null(dead) && lf_tree_within(cmp, dead))
            return 1;
        if (!ts_node_is_null(alive) && block_leaves(m, alive) && probe_dominates(m, p->node, cmp))
            return 1;
    }
    return 0;
}

static int age_gates_probe(walk *w, TSNode cmp, TSNode path) {
    lf_pkey want = lf_pylock_key_of(w->l, path);
    int32_t key = lf_pylock_find(w->l, &want);
    if (key < 0)
        return 0;
    int32_t scope = lf_pysem_scope_of(w->m, cmp);
    size_t removals = 0;
    for (size_t i = 0; i < w->l->n_events; i++) {
        const lf_pylock_event *e = &w->l->events[i];
        if (e->kind != LF_PYEV_REMOVE || e->scope != scope || e->key != key ||
            ts_node_start_byte(e->node) < ts_node_end_byte(cmp))
            continue;
        if (e->judged != LF_JUDGED_LIVENESS)
            return 0;
        int dominated = 0;
        for (size_t j = 0; j < w->l->n_events && !dominated; j++) {
            const lf_pylock_event *p = &w->l->events[j];
            dominated = p->kind == LF_PYEV_PROBE && p->scope == scope &&
                        ts_node_start_byte(p->node) > ts_node_end_byte(cmp) &&
                        ts_node_start_byte(p->node) < ts_node_start_byte(e->node) &&
                        probe_dominates(w->m, p->node, e->node);
        }
        if (!dominated)
            return 0;
        removals++;
    }
    return removals > 0;
}

static lf_walk_action visit(TSNode n, void *ud) {
    walk *w = ud;
    if (!lf_tree_is(n, "comparison_operator"))
        return LF_WALK_CONTINUE;
    if (holder_guarded(w->m, n))
        return LF_WALK_SKIP; /* a fixed module: the age test asks about the holder too */
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
    if (!age_judged_of(lf_pylock_flags_of(w->l, all.mtime_path)))
        return LF_WALK_SKIP;
    if (age_gates_probe(w, n, all.mtime_path) || probe_gates_age(w, n))
        return LF_WALK_SKIP;
    const lf_source *src = lf_ctx_source(w->ctx);
    char *cmp = lf_py_short(src, n);
    char *path = lf_py_short(src, all.mtime_path);
    char *msg = lf_xasprintf("%s judges the lock %s stale by its age (mtime): a holder that is merely paused (stopped, "
                             "descheduled, stalled on I/O) loses a lock it still holds, and two holders run at once "
                             "(every platform)",
                             cmp, path);
    lf_ctx_emit_site(w->ctx, n, msg, holder_site(w, n, all.mtime_path), lf302_py_site_free);
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
    /* Every verdict is reported of a lock (recorded_age) or of a path whose
     * age is judged (age_judged_of, which includes every lock): a module with
     * no such path has nothing to judge, and the comparisons need not be
     * searched. */
    lf_pylock *l = lf_pylock_build(m);
    size_t k = 0;
    while (k < l->n_keys && !age_judged_of(l->keys[k].flags))
        k++;
    if (k == l->n_keys)
        return;
    walk w = {ctx, m, l, NULL, NULL};
    lf_tree_walk(m->root, visit, &w);
    if (w.probed)
        for (size_t i = 0; i < (m->n_scopes ? m->n_scopes : 1); i++)
            LF_VEC_FREE(&w.probed[i]);
    free(w.probed);
    free(w.probed_known);
}

/* ---- the gate: could anything here read an age? ----
 *
 * run() returns at once when the text never says `st_mtime` and no call is
 * of getmtime or a clock (time.time, time.time_ns, datetime's now, utcnow
 * and today). A call of one of them names it as the callee's last word
 * (`time.time()`, `dt.now()`, `_time.time_ns()`), or through a name that an
 * alias or an assignment binds from that word (`from time import time as
 * now`, `clock = time.time`). The prefilter's words `time` and `datetime`
 * let through most files that import time to sleep. So, on the text with
 * comments and strings blanked, the file has no age when it never says
 * st_mtime or getmtime (asked of the raw text), nor time_ns, now, utcnow or
 * today, and every `time` is a receiver (`time.sleep`) or a module named by an
 * import without `as` (`import time`, `from time import sleep`). Anything
 * else is a hit. And a file where lf_pygate_may_hold_lock finds no lock use
 * has no lock to judge. */
static int gate(lf_gate_text *in) {
    static const char *const clocks[] = {"time_ns", "now", "utcnow", "today", NULL};
    static const char *const modules[] = {"time", "datetime", NULL};
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    /* an age is reported only of a lock, or of a parameter a caller passes one */
    if (!lf_pygate_may_hold_lock(in))
        return 0;
    if (memmem(in->text, in->len, "st_mtime", 8) || memmem(in->text, in->len, "getmtime", 8) ||
        lf_pygate_in_package(in, modules))
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    const char *m = mk->m;
    size_t len = in->len;
    int hit = !m || !mk->balanced || lf_pygate_says_any(m, len, clocks);
    int alone;
    for (size_t at = 0; !hit && (alone = lf_pygate_next_use(m, len, "time", &at)) != 0; at++) {
        size_t next = lf_pygate_fwd(m, len, at + 4);
        int receiver = next < len && m[next] == '.';
        int aliased = next + 2 <= len && lf_pygate_word(m, len, next, 2) > 0 && lf_pygate_is(m, next, 2, "as");
        int imported = lf_pygate_word_before(m, len, at, "from") || lf_pygate_word_before(m, len, at, "import");
        hit = alone < 0 || !(receiver || (imported && !aliased));
    }
    return hit;
}

const lf_check lf302_mtime_staleness_check = {"lf302_mtime_staleness", run, 0, 0, gate}; /* asks the model, not the query */
