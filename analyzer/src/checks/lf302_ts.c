/* LF302 for TS/JS: a lock judged stale by the time since its mtime or ctime
 * (`Date.now() - st.mtimeMs > stale`, `Date.now() - st.mtime.getTime()`,
 * `st.ctimeMs < Date.now() - stale`), where `st` is a stat of a path the
 * module uses as a lock (lf_tslock). Reported at the comparison: the age's
 * own, or the first comparison of the name it is bound to (the age
 * subtraction when there is none). Ages of
 * caches and logs are not locks, whatever they are called; a comparison with
 * another mtime is a freshness check, not an age. Nor is an age that only
 * decides for a lock without a readable owner record: the age test comes
 * after (or in the else of) an `if (owner)` whose owner was read from a file
 * and whose branch judges the owner's pid (a probe, directly or through the
 * module's functions) and leaves: a live holder, paused or not, has its
 * record and is judged by liveness, and the age applies only to a lock whose
 * holder died before writing one. Nor an age that only gates that
 * judgement: `if (age < MIN) return false;` and, past it, a read of the
 * owner record and a probe of its pid (age_gates_probe); nor an age tested
 * only past `if (alive(pid)) return;` (dead_holder_first). */
#include <stdlib.h>
#include <string.h>

#include "lf301_ts_site.h"
#include "lf302_ts_site.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

typedef struct walk {
    lf_check_ctx *ctx;
    lf_tssem *m;
    lf_tslock *l;
} walk;

static const char *const k_clock[] = {"Date.now", "new Date", "performance.timeOrigin", "getTime()", NULL};

static int clock_read(lf_tssem *m, TSNode n);

/* A clock handed in: a parameter every call of its function in this module
 * fills with a clock reading (`acquire(path, Date.now(), STALE)`), or, with
 * no such call here (an exported API: `nowMs` "injected so tests stay
 * deterministic"), a parameter named for the current time (`now`,
 * `nowMs`). */
static int injected_clock(lf_tssem *m, TSNode n) {
    n = lf_tssem_unwrap(n);
    const lf_tsbinding *bd = lf_tree_is(n, "identifier") ? lf_tssem_binding_of(m, n) : NULL;
    if (!bd || bd->kind != LF_TSBIND_PARAM || bd->member || bd->scope <= 0)
        return 0;
    int j = lf_tssem_param_index(m, bd->scope, bd);
    if (j < 0)
        return 0;
    size_t calls = 0;
    for (int32_t c = lf_tssem_first_caller(m, bd->scope); c >= 0; c = lf_tssem_next_caller(m, c)) {
        TSNode a = lf_tssem_arg(m->calls[c].node, (uint32_t)j);
        if (ts_node_is_null(a) || !clock_read(m, a))
            return 0;
        calls++;
    }
    if (calls)
        return 1;
    const char *name = bd->name;
    return !strncmp(name, "now", 3) && (name[3] == '\0' || (name[3] >= 'A' && name[3] <= 'Z') || name[3] == '_');
}

/* Does an operand read the clock (through a name it is bound to, or a clock
 * handed in as a parameter)? */
static int clockish(lf_tssem *m, TSNode n) {
    return clock_read(m, n) || injected_clock(m, n);
}

static int clock_read(lf_tssem *m, TSNode n) {
    n = lf_tssem_resolve_value(m, n);
    if (lf_tree_is(n, "binary_expression")) {
        TSNode l = lf_tssem_resolve_value(m, lf_tree_field(n, "left"));
        TSNode r = lf_tssem_resolve_value(m, lf_tree_field(n, "right"));
        for (size_t i = 0; k_clock[i]; i++)
            if (lf_ts_text_has(m->src, l, k_clock[i]) || lf_ts_text_has(m->src, r, k_clock[i]))
                return 1;
    }
    for (size_t i = 0; k_clock[i]; i++)
        if (lf_ts_text_has(m->src, n, k_clock[i]))
            return 1;
    return 0;
}

static int mentions_mtime(const lf_source *src, TSNode n) {
    return lf_ts_text_has(src, n, "mtime") || lf_ts_text_has(src, n, "ctime");
}

/* The stat call whose callback receives parameter `obj` (`fs.stat(p, (err, st) => ...)`,
 * `fsp.stat(p).then((st) => ...)`), or null. */
static TSNode callback_stat(lf_tssem *m, TSNode obj) {
    if (!lf_tree_is(obj, "identifier"))
        return (TSNode){0};
    uint32_t a = ts_node_start_byte(obj), b = ts_node_end_byte(obj);
    const lf_tsbinding *bd =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, obj), lf_tssem_intern(m, m->src->text + a, b - a), a);
    if (!bd || bd->kind != LF_TSBIND_PARAM || bd->scope <= 0)
        return (TSNode){0};
    TSNode args = lf_ts_parent(m->scopes[bd->scope].node);
    TSNode call = lf_ts_parent(args);
    if (!lf_tree_is(args, "arguments") || !lf_tree_is(call, "call_expression"))
        return (TSNode){0};
    /* `stat(p).then((st) => ...)`: the promise's stat */
    TSNode f = lf_tree_field(call, "function");
    if (lf_tree_is(f, "member_expression") && lf_tree_text_eq(m->src, lf_tree_field(f, "property"), "then") &&
        lf_tree_is(lf_tssem_unwrap(lf_tree_field(f, "object")), "call_expression"))
        return lf_tssem_unwrap(lf_tree_field(f, "object"));
    return call;
}

/* The stat'ed path a `X.mtimeMs` object comes from, or null. The object is
 * resolved through local bindings; a parameter of one of the module's
 * functions (`isLockStale(stat, opts)`) is followed into what its callers pass
 * (two calls deep at most), and a stat callback's parameter to its stat call.
 * An explicit stack replaces the recursion through callers: EVAL entries are
 * tried in the order the callers appear, each parameter's own callback
 * reading (CALLBACK) only after all of them. */
typedef struct stat_step {
    enum { STAT_EVAL, STAT_CALLBACK } kind;
    TSNode node;
    int depth;
} stat_step;
typedef LF_VEC(stat_step) stat_step_vec;

/* Push, in reverse order, what the callers of the function whose parameter
 * `obj` is pass for it; nothing when obj is not such a parameter. */
static void push_passed_args(lf_tssem *m, TSNode obj, int depth, stat_step_vec *stack) {
    if (!lf_tree_is(obj, "identifier") || depth > 2)
        return;
    uint32_t a = ts_node_start_byte(obj), b = ts_node_end_byte(obj);
    const lf_tsbinding *bd =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, obj), lf_tssem_intern(m, m->src->text + a, b - a), a);
    if (!bd || bd->kind != LF_TSBIND_PARAM || bd->scope <= 0 || bd->member)
        return;
    const lf_tsscope *sc = &m->scopes[bd->scope];
    uint32_t index = 0;
    for (int32_t j = sc->first_param; j < sc->first_param + sc->n_params; j++) {
        if (&m->bindings[j] == bd)
            break;
        if (!m->bindings[j].member)
            index++;
    }
    /* pushed last caller first, so the first caller is tried first */
    size_t base = stack->len;
    for (int32_t i = lf_tssem_first_caller(m, bd->scope); i >= 0; i = lf_tssem_next_caller(m, i))
        LF_VEC_PUSH(stack, ((stat_step){STAT_EVAL, lf_tssem_arg(m->calls[i].node, index), depth + 1}));
    for (size_t lo = base, hi = stack->len; hi > lo + 1; lo++, hi--) {
        stat_step t = stack->items[lo];
        stack->items[lo] = stack->items[hi - 1];
        stack->items[hi - 1] = t;
    }
}

/* The path argument when `st` is a stat/lstat call, else null. */
static TSNode stat_call_path(lf_tssem *m, TSNode st) {
    if (!lf_tree_is(st, "call_expression"))
        return (TSNode){0};
    const char *op = lf_tslock_fs_op(m, st);
    if (!op || (strcmp(op, "stat") != 0 && strcmp(op, "lstat") != 0))
        return (TSNode){0};
    return lf_tslock_fs_path(m, st);
}

/* A stat made inside a wrapper the result comes out of: a retry or timeout
 * helper handed a callback (`await withRetry(() => stat(p))`) or a promise
 * (`withTimeout(Promise.resolve(statSync(p)), 3000)`): the path, or null. */
static TSNode wrapped_stat_path(lf_tssem *m, TSNode call) {
    size_t n = lf_tssem_nargs(call);
    for (uint32_t i = 0; i < n && i < 4; i++) {
        TSNode a = lf_tssem_unwrap(lf_tssem_arg(call, i));
        for (int hop = 0; hop < 3 && !ts_node_is_null(a); hop++) {
            if (lf_tree_is(a, "arrow_function")) {
                a = lf_tssem_unwrap(lf_tree_field(a, "body"));
                continue;
            }
            if (lf_tree_is(a, "await_expression")) {
                a = lf_tssem_unwrap(ts_node_named_child(a, 0));
                continue;
            }
            if (!lf_tree_is(a, "call_expression"))
                break;
            TSNode p = stat_call_path(m, a);
            if (!ts_node_is_null(p))
                return p;
            /* `Promise.resolve(statSync(p))` */
            a = lf_tssem_unwrap(lf_tssem_arg(a, 0));
        }
    }
    return (TSNode){0};
}

static TSNode stat_path(lf_tssem *m, TSNode obj) {
    stat_step_vec stack = {0};
    TSNode found = {0};
    LF_VEC_PUSH(&stack, ((stat_step){STAT_EVAL, obj, 0}));
    while (stack.len && ts_node_is_null(found)) {
        stat_step s = stack.items[--stack.len];
        if (ts_node_is_null(s.node))
            continue;
        if (s.kind == STAT_CALLBACK) {
            found = stat_call_path(m, callback_stat(m, s.node));
            continue;
        }
        TSNode st = lf_tssem_resolve_value(m, s.node);
        /* `await stat(p).catch(() => null)`: the stat, its failure a null */
        for (int hop = 0; hop < 2 && lf_tree_is(st, "call_expression"); hop++) {
            TSNode f = lf_tree_field(st, "function");
            if (!lf_tree_is(f, "member_expression") || !lf_tree_text_eq(m->src, lf_tree_field(f, "property"), "catch"))
                break;
            st = lf_tssem_unwrap(lf_tree_field(f, "object"));
        }
        if (lf_tree_is(st, "call_expression")) {
            found = stat_call_path(m, st);
            if (ts_node_is_null(found))
                found = wrapped_stat_path(m, st);
            continue;
        }
        LF_VEC_PUSH(&stack, ((stat_step){STAT_CALLBACK, st, s.depth}));
        push_passed_args(m, st, s.depth, &stack);
    }
    LF_VEC_FREE(&stack);
    return found;
}

static int is_cmp(const lf_source *src, TSNode op) {
    return lf_tree_text_eq(src, op, "<") || lf_tree_text_eq(src, op, ">") || lf_tree_text_eq(src, op, "<=") ||
           lf_tree_text_eq(src, op, ">=");
}

/* From a read of the time up through the expression around it: the
 * comparison that judges its age, or the age subtraction when the age is
 * compared elsewhere through a name; null when it is no age test. */
static TSNode climb(lf_tssem *m, TSNode read) {
    const lf_source *src = m->src;
    TSNode cur = read, sub = {0}, at = {0};
    for (int steps = 0; steps < 12 && ts_node_is_null(at); steps++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p))
            break;
        const char *t = ts_node_type(p);
        if (!strcmp(t, "member_expression") || !strcmp(t, "call_expression") || !strcmp(t, "parenthesized_expression") ||
            !strcmp(t, "unary_expression") || !strcmp(t, "await_expression") || !strcmp(t, "arguments")) {
            if (!strcmp(t, "arguments")) { /* Number(st.mtime), Math.floor(...) */
                TSNode call = lf_ts_parent(p);
                if (!lf_tree_is(call, "call_expression"))
                    break;
                p = call;
            }
            cur = p;
            continue;
        }
        if (strcmp(t, "binary_expression") != 0)
            break;
        TSNode op = lf_tree_field(p, "operator");
        TSNode left = lf_tree_field(p, "left"), right = lf_tree_field(p, "right");
        TSNode other = ts_node_eq(left, cur) ? right : left;
        if (lf_tree_text_eq(src, op, "-")) {
            if (!clockish(m, other))
                break;
            sub = p;
            cur = p;
            continue;
        }
        if (lf_tree_text_eq(src, op, "+") && ts_node_is_null(sub)) { /* mtime + stale < now */
            cur = p;
            continue;
        }
        if (is_cmp(src, op)) {
            if (!ts_node_is_null(sub) || (clockish(m, other) && !mentions_mtime(src, other)))
                at = p;
        }
        break;
    }
    return ts_node_is_null(at) ? sub : at;
}

/* Does the expression hold an owner record read from a file: a name bound to
 * (an await of) readFile/readJson, JSON.parse, or a call of one of the
 * module's functions that reads a file's content? */
static int record_read(lf_tssem *m, const lf_tslock *l, TSNode e) {
    TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, lf_tssem_unwrap(e)));
    if (!lf_tree_is(v, "call_expression"))
        return 0;
    const char *op = lf_tslock_fs_op(m, v);
    const char *q = lf_tssem_callee(m, v);
    if ((op && (!strcmp(op, "readFile") || !strcmp(op, "readJson"))) || (q && !strcmp(q, "JSON.parse")))
        return 1;
    int32_t f = lf_tssem_local_callee(m, v);
    for (size_t i = 0; f > 0 && i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_JUDGE && l->events[i].content && l->events[i].fn == f)
            return 1;
    return 0;
}

/* The record a condition tests present: `owner`, `owner != null`, `owner !==
 * undefined`, `owner && ...`; else null. */
static TSNode present_test(lf_tssem *m, TSNode c) {
    /* down the left operands of `&&` (a bounded climb, no recursion) */
    for (int steps = 0; steps < 16; steps++) {
        c = lf_tssem_unwrap(c);
        if (lf_tree_is(c, "identifier"))
            return c;
        if (!lf_tree_is(c, "binary_expression"))
            return (TSNode){0};
        TSNode op = lf_tree_field(c, "operator"), left = lf_tssem_unwrap(lf_tree_field(c, "left"));
        TSNode right = lf_tssem_unwrap(lf_tree_field(c, "right"));
        if (lf_tree_text_eq(m->src, op, "&&")) {
            c = left;
            continue;
        }
        if ((lf_tree_text_eq(m->src, op, "!=") || lf_tree_text_eq(m->src, op, "!==")) &&
            (lf_tree_is(right, "null") || lf_tree_is(right, "undefined")) && lf_tree_is(left, "identifier"))
            return left;
        return (TSNode){0};
    }
    return (TSNode){0};
}

/* The record a condition tests absent: `!owner`, `owner === null`,
 * `owner == null`, `owner === undefined`; else null. */
static TSNode absent_test(lf_tssem *m, TSNode c) {
    c = lf_tssem_unwrap(c);
    if (lf_tree_is(c, "unary_expression") && lf_tree_text_eq(m->src, lf_tree_field(c, "operator"), "!")) {
        TSNode a = lf_tssem_unwrap(lf_tree_field(c, "argument"));
        return lf_tree_is(a, "identifier") ? a : (TSNode){0};
    }
    if (!lf_tree_is(c, "binary_expression"))
        return (TSNode){0};
    TSNode op = lf_tree_field(c, "operator"), left = lf_tssem_unwrap(lf_tree_field(c, "left"));
    TSNode right = lf_tssem_unwrap(lf_tree_field(c, "right"));
    if ((lf_tree_text_eq(m->src, op, "==") || lf_tree_text_eq(m->src, op, "===")) &&
        (lf_tree_is(right, "null") || lf_tree_is(right, "undefined")) && lf_tree_is(left, "identifier"))
        return left;
    return (TSNode){0};
}

/* Is there a pid probe (process.kill(pid, 0), or a call of the module's
 * function that probes: the lock model places it at the call) inside n? */
static int probes_in(const lf_tslock *l, TSNode n) { return lf_tslock_event_within(l, LF_TSEV_PROBE, -1, n); }

static int stale_when_true(lf_tssem *m, TSNode cmp, TSNode read);

/* The stale-when-true form of a gate: `if (age > STALE) { ... if (owner &&
 * alive(owner.pid)) continue; ... remove }`: inside the old-lock branch, a
 * probe of the owner leaves before anything is broken, so the age only picks
 * the locks worth probing. */
static int old_lock_probed_first(lf_tssem *m, const lf_tslock *l, TSNode cmp, TSNode read) {
    TSNode cond = cmp, ifs = lf_ts_parent(cmp);
    while (lf_tree_is(ifs, "parenthesized_expression")) {
        cond = ifs;
        ifs = lf_ts_parent(ifs);
    }
    /* `const age = now - mtime; if (age > STALE)`: the comparison of the name */
    if (!lf_tree_is(ifs, "if_statement") || !ts_node_eq(lf_tree_field(ifs, "condition"), cond) ||
        !stale_when_true(m, cmp, read))
        return 0;
    TSNode body = lf_tree_field(ifs, "consequence");
    if (!lf_tree_is(body, "statement_block"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode x = ts_node_named_child(body, i);
        if (lf_tree_is(x, "if_statement") && probes_in(l, lf_tree_field(x, "condition")) &&
            lf_tssem_leaves(lf_tree_field(x, "consequence")))
            return 1;
        for (size_t k = 0; k < l->n_events; k++)
            if (l->events[k].kind == LF_TSEV_REMOVE && lf_ts_within(l->events[k].node, x))
                return 0; /* something is broken before any probe decides */
    }
    return 0;
}

typedef struct record_walk {
    lf_tssem *m;
    const lf_tslock *l;
    int found;
} record_walk;

static lf_walk_action find_record_read(TSNode n, void *ud) {
    record_walk *r = ud;
    if (lf_tree_is(n, "call_expression") && record_read(r->m, r->l, n)) {
        r->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Is `c` the catch clause of a try whose body reads the owner record and
 * probes the pid it names? Then what the handler runs decides only for a
 * lock whose record could not be read or parsed: as `if (!owner)`, a holder
 * that died before writing it, or is writing it now. */
static int unreadable_record_handler(lf_tssem *m, const lf_tslock *l, TSNode c) {
    TSNode t = lf_ts_parent(c);
    if (!lf_tree_is(c, "catch_clause") || !lf_tree_is(t, "try_statement"))
        return 0;
    TSNode body = lf_tree_field(t, "body");
    if (ts_node_is_null(body) || !probes_in(l, body))
        return 0;
    record_walk rw = {m, l, 0};
    lf_tree_walk(body, find_record_read, &rw);
    return rw.found;
}

/* Does the age at `at` decide only where the owner record could not be
 * read: in the handler of a failed read (unreadable_record_handler), or
 * returned by a module function every call of which, one or more, is in
 * such a handler (`const age = lockAge(p)` in the catch)? */
static int age_without_record(lf_tssem *m, const lf_tslock *l, TSNode at) {
    TSNode fn = lf_ts_fn_node(m, at), cur = at;
    int returned = 0;
    for (int steps = 0; steps < 64 && !ts_node_is_null(cur) && !ts_node_eq(cur, fn); steps++) {
        if (unreadable_record_handler(m, l, cur))
            return 1;
        returned |= lf_tree_is(cur, "return_statement");
        cur = lf_ts_parent(cur);
    }
    int32_t h = returned ? lf_tslock_fn_of(m, lf_tssem_scope_of(m, at)) : -1;
    if (h <= 0)
        return 0;
    size_t calls = 0;
    for (int32_t i = lf_tssem_first_caller(m, h); i >= 0; i = lf_tssem_next_caller(m, i)) {
        TSNode c = m->calls[i].node;
        int inside = 0;
        TSNode cf = lf_ts_fn_node(m, c);
        for (TSNode x = lf_ts_parent(c); !inside && !ts_node_is_null(x) && !ts_node_eq(x, cf); x = lf_ts_parent(x))
            inside = unreadable_record_handler(m, l, x);
        if (!inside)
            return 0;
        calls++;
    }
    return calls > 0;
}

/* An `if (owner) { ...probe...; leave }` / `owner ? probe : age` that decides
 * before the age at `at`, or an `if (!owner) { ...age... }` (or the handler of
 * a failed record read) around it, in at's function (see the top of the
 * file). */
static int owner_decides_first(lf_tssem *m, const lf_tslock *l, TSNode at) {
    if (age_without_record(m, l, at))
        return 1;
    TSNode fn = lf_ts_fn_node(m, at);
    TSNode cur = at;
    for (int steps = 0; steps < 64 && !ts_node_eq(cur, fn); steps++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p))
            break;
        TSNode rec = {0};
        /* `if (!owner) { ...age... }`: the age decides only without a record */
        if (lf_tree_is(p, "if_statement") && ts_node_eq(lf_tree_field(p, "consequence"), cur)) {
            TSNode absent = absent_test(m, lf_tree_field(p, "condition"));
            if (!ts_node_is_null(absent) && record_read(m, l, absent))
                return 1;
        }
        if (lf_tree_is(p, "ternary_expression") && ts_node_eq(lf_tree_field(p, "alternative"), cur) &&
            probes_in(l, lf_tree_field(p, "consequence")))
            rec = present_test(m, lf_tree_field(p, "condition"));
        else if (lf_tree_is(p, "else_clause")) {
            TSNode ifs = lf_ts_parent(p);
            if (lf_tree_is(ifs, "if_statement") && probes_in(l, lf_tree_field(ifs, "consequence")))
                rec = present_test(m, lf_tree_field(ifs, "condition"));
        } else if (lf_tree_is(p, "statement_block") || lf_tree_is(p, "program")) {
            /* an earlier `if (owner) { ...probe...; return }` in the same block */
            for (TSNode x = ts_node_prev_named_sibling(cur); !ts_node_is_null(x) && ts_node_is_null(rec);
                 x = ts_node_prev_named_sibling(x)) {
                TSNode cons = lf_tree_field(x, "consequence");
                if (lf_tree_is(x, "if_statement") && ts_node_is_null(lf_tree_field(x, "alternative")) &&
                    lf_tssem_leaves(cons) && probes_in(l, cons))
                    rec = present_test(m, lf_tree_field(x, "condition"));
            }
        }
        if (!ts_node_is_null(rec) && record_read(m, l, rec))
            return 1;
        cur = p;
    }
    return 0;
}

/* Is the comparison `cmp`, whose age (or time) is read by `read`, true when
 * the lock is stale? `now - mtime > limit` and `mtime < now - limit` are;
 * `now - mtime < limit` and `mtime + limit > now` are not. */
static int stale_when_true(lf_tssem *m, TSNode cmp, TSNode read) {
    TSNode left = lf_tree_field(cmp, "left");
    int read_left = lf_ts_within(read, left) || ts_node_eq(read, left);
    TSNode side = read_left ? left : lf_tree_field(cmp, "right");
    int is_age = clockish(m, side); /* now - mtime: an age; else a time (mtime, mtime + ttl) */
    TSNode op = lf_tree_field(cmp, "operator");
    int greater = lf_tree_text_eq(m->src, op, ">") || lf_tree_text_eq(m->src, op, ">=");
    int read_larger = read_left ? greater : !greater; /* the read side is the larger when true */
    return is_age ? read_larger : !read_larger;
}

/* Does the age only gate the owner's liveness? `if (age < STALE) return
 * false;` (the branch taken while the lock is young leaves, with no else;
 * or `if (age <= STALE || isAlive(pid)) return;`, the probe in the test),
 * and what runs past it in the function reads the owner record and probes
 * the pid it names (directly or through the module's functions): an old lock
 * is broken only when its recorded holder is gone, or when it has no
 * readable record (the case owner_decides_first spares too). A paused holder
 * is alive and keeps its lock; the age only spares young locks the probe.
 * Python's age_gates_probe (checks/lf302_mtime_staleness.c) asks the same of
 * its removals. */
static int age_gates_probe(lf_tssem *m, const lf_tslock *l, TSNode cmp, TSNode read) {
    if (old_lock_probed_first(m, l, cmp, read))
        return 1;
    /* the young test may be one arm of `||` (`if (!st || age <= stale ||
     * isAlive(pid)) return;`): a probe in another arm decides with it */
    TSNode cond = cmp, ifs = lf_ts_parent(cmp);
    int probe_arm = 0;
    while (lf_tree_is(ifs, "parenthesized_expression") ||
           (lf_tree_is(ifs, "binary_expression") && lf_tree_text_eq(m->src, lf_tree_field(ifs, "operator"), "||"))) {
        if (lf_tree_is(ifs, "binary_expression")) {
            TSNode other = ts_node_eq(lf_tree_field(ifs, "left"), cond) ? lf_tree_field(ifs, "right")
                                                                        : lf_tree_field(ifs, "left");
            probe_arm |= probes_in(l, other);
        }
        cond = ifs;
        ifs = lf_ts_parent(ifs);
    }
    if (!lf_tree_is(ifs, "if_statement") || !ts_node_eq(lf_tree_field(ifs, "condition"), cond) ||
        !ts_node_is_null(lf_tree_field(ifs, "alternative")) || !lf_tssem_leaves(lf_tree_field(ifs, "consequence")) ||
        stale_when_true(m, cmp, read))
        return 0;
    if (probe_arm)
        return 1; /* young or alive leaves: old and gone goes on */
    TSNode fn = lf_ts_fn_node(m, ifs);
    int probed = 0;
    record_walk rw = {m, l, 0};
    TSNode cur = ifs;
    for (int steps = 0; steps < 64 && !ts_node_eq(cur, fn) && !(probed && rw.found); steps++) {
        for (TSNode x = ts_node_next_named_sibling(cur); !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
            probed = probed || probes_in(l, x);
            if (!rw.found)
                lf_tree_walk(x, find_record_read, &rw);
        }
        cur = lf_ts_parent(cur);
        if (ts_node_is_null(cur))
            break;
    }
    return probed && rw.found;
}

/* Does `b` always leave its block: a return, throw, continue or break, itself
 * or as the last statement of a block? */
static int leaves(TSNode b) {
    if (lf_tree_is(b, "statement_block")) {
        uint32_t n = ts_node_named_child_count(b);
        b = n ? ts_node_named_child(b, n - 1) : (TSNode){0};
    }
    return lf_tree_is(b, "return_statement") || lf_tree_is(b, "throw_statement") ||
           lf_tree_is(b, "continue_statement") || lf_tree_is(b, "break_statement");
}

static int is_probe(const lf_tslock *l, TSNode c) {
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_PROBE && ts_node_eq(l->events[i].node, c))
            return 1;
    return 0;
}

/* Is condition c true when the probe finds the holder alive, and false only
 * when it finds it dead or there is no recorded pid to ask about: the probe
 * itself, `status(pid) !== "dead"`, `status(pid) === "alive"`, or `rec?.pid
 * && <one of those>` (a lock without a pid record is the ownerless case the
 * age may decide, as `if (!owner)` does)? */
static int leaves_when_alive(lf_tssem *m, const lf_tslock *l, TSNode c) {
    const lf_source *src = m->src;
    c = lf_tssem_unwrap(c);
    if (lf_tree_is(c, "binary_expression") && lf_tree_text_eq(src, lf_tree_field(c, "operator"), "&&")) {
        TSNode a = lf_tssem_unwrap(lf_tree_field(c, "left"));
        if (!lf_tree_is(a, "member_expression") && !lf_tree_is(a, "identifier"))
            return 0;
        c = lf_tssem_unwrap(lf_tree_field(c, "right"));
    }
    if (is_probe(l, c))
        return 1;
    if (!lf_tree_is(c, "binary_expression"))
        return 0;
    TSNode op = lf_tree_field(c, "operator");
    TSNode left = lf_tssem_unwrap(lf_tree_field(c, "left")), right = lf_tree_field(c, "right");
    if (!is_probe(l, left) || !lf_tree_is(right, "string"))
        return 0;
    int negated = lf_tree_text_eq(src, op, "!==") || lf_tree_text_eq(src, op, "!=");
    if (!negated && !lf_tree_text_eq(src, op, "===") && !lf_tree_text_eq(src, op, "=="))
        return 0;
    int dead = lf_ts_text_has(src, right, "dead"), alive = lf_ts_text_has(src, right, "alive");
    return negated ? dead && !alive : alive && !dead;
}

/* Which of function h's first 8 parameters the stat'ed path `pv` (unwrapped)
 * names, through the key its name resolves to; -1 when none: the argument
 * position h's callers fill with the path they hand it. */
static int path_param_slot(lf_tssem *m, int32_t h, TSNode pv) {
    const lf_tsbinding *pb = lf_tree_is(pv, "identifier") ? lf_tssem_key_param(m, lf_tssem_path_key(m, pv)) : NULL;
    int j = pb && h > 0 && pb->scope == h ? lf_tssem_param_index(m, h, pb) : -1;
    return j < 8 ? j : -1;
}

/* Is the comparison reached only once a probe found the holder dead: an
 * earlier statement of a block around it, in its function, is `if
 * (pidIsAlive(info.pid)) return;` (the probe the whole condition, its branch
 * leaving, no else; or a condition leaves_when_alive reads)? The age then
 * only sorts the locks of dead holders, and no live holder, paused or not,
 * loses its lock to it (Python's probe_gates_age). */
static int dead_holder_first(lf_tssem *m, const lf_tslock *l, TSNode cmp) {
    for (TSNode up = cmp; !ts_node_is_null(up) && !lf_tssem_is_function_node(up); up = lf_ts_parent(up)) {
        if (!lf_tree_is(lf_ts_parent(up), "statement_block"))
            continue;
        for (TSNode st = ts_node_prev_named_sibling(up); !ts_node_is_null(st); st = ts_node_prev_named_sibling(st)) {
            if (!lf_tree_is(st, "if_statement") || !ts_node_is_null(lf_tree_field(st, "alternative")) ||
                !leaves(lf_tree_field(st, "consequence")))
                continue;
            if (leaves_when_alive(m, l, lf_tree_field(st, "condition")))
                return 1;
        }
    }
    return 0;
}

/* The comparison `cmp` is what a module function returns (`function
 * isStale(dir, ms) { return Date.now() - statSync(dir).mtimeMs >= ms }`),
 * its stat'ed path a parameter: is every call of that function that hands
 * it a lock reached only once a probe found the holder dead
 * (dead_holder_first at the call)? The verdict then only ever sorts dead
 * holders' locks. */
static int verdict_calls_after_dead_probe(lf_tssem *m, lf_tslock *l, TSNode cmp, TSNode path) {
    TSNode ret = lf_ts_parent(cmp);
    while (lf_tree_is(ret, "parenthesized_expression"))
        ret = lf_ts_parent(ret);
    if (!lf_tree_is(ret, "return_statement"))
        return 0;
    int32_t h = lf_tslock_fn_of(m, lf_tssem_scope_of(m, ret));
    int j = path_param_slot(m, h, lf_tssem_unwrap(path));
    if (j < 0)
        return 0;
    size_t gated = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (lf_tssem_local_callee(m, c) != h)
            continue;
        TSNode arg = lf_tssem_arg(c, (uint32_t)j);
        int32_t k = ts_node_is_null(arg) ? -1 : lf_tslock_key_index(l, arg);
        if (k < 0 || !lf_tslock_is_lock(l->keys[k].flags))
            continue;
        if (!dead_holder_first(m, l, c))
            return 0;
        gated++;
    }
    return gated > 0;
}

/* Is `b` a throw: the statement itself, or a block holding only one? */
static int only_throws(TSNode b) {
    if (lf_tree_is(b, "statement_block"))
        b = ts_node_named_child_count(b) == 1 ? ts_node_named_child(b, 0) : (TSNode){0};
    return lf_tree_is(b, "throw_statement");
}

/* Does an old lock only make the code refuse it? `if (age > STALE) throw
 * ...;`, or `if (age < STALE) return ...;` followed by a throw: the age
 * decides between waiting on the lock and failing, and no branch of it takes
 * the lock over, so a paused holder keeps it (lockrt's own wait on a record
 * it cannot read). */
static int age_only_refuses(lf_tssem *m, TSNode cmp, TSNode read) {
    TSNode cond = cmp, ifs = lf_ts_parent(cmp);
    while (lf_tree_is(ifs, "parenthesized_expression")) {
        cond = ifs;
        ifs = lf_ts_parent(ifs);
    }
    if (!lf_tree_is(ifs, "if_statement") || !ts_node_eq(lf_tree_field(ifs, "condition"), cond) ||
        !ts_node_is_null(lf_tree_field(ifs, "alternative")))
        return 0;
    TSNode cons = lf_tree_field(ifs, "consequence");
    if (stale_when_true(m, cmp, read))
        return only_throws(cons);
    return lf_tssem_leaves(cons) && lf_tree_is(ts_node_next_named_sibling(ifs), "throw_statement");
}

typedef struct uses_walk {
    lf_tssem *m;
    TSNode decl; /* the declared name */
    LF_VEC(TSNode) uses;
} uses_walk;

/* The uses of a declared name that see that declaration, in source order. */
static lf_walk_action collect_use(TSNode n, void *ud) {
    uses_walk *u = ud;
    if (!lf_tree_is(n, "identifier") || ts_node_eq(n, u->decl))
        return LF_WALK_CONTINUE;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    uint32_t da = ts_node_start_byte(u->decl), db = ts_node_end_byte(u->decl);
    if (b - a != db - da || memcmp(u->m->src->text + a, u->m->src->text + da, b - a) != 0)
        return LF_WALK_CONTINUE;
    const lf_tsbinding *bd =
        lf_tssem_binding_at(u->m, lf_tssem_scope_of(u->m, n), lf_tssem_intern(u->m, u->m->src->text + a, b - a), a);
    if (bd && ts_node_eq(bd->target, u->decl))
        LF_VEC_PUSH(&u->uses, n);
    return LF_WALK_CONTINUE;
}

/* ---- an age that is only shown ---- */

typedef struct prop_reads {
    const lf_source *src;
    TSNode prop; /* the property name written */
    LF_VEC(TSNode) reads;
    int other; /* read in a form not followed here (destructured, computed) */
} prop_reads;

/* Every `X.prop` read of the file (not an assignment's target), and whether
 * the property is taken any other way (`{ prop } = X`, `X["prop"]`). */
static lf_walk_action find_prop_read(TSNode n, void *ud) {
    prop_reads *r = ud;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "member_expression")) {
        TSNode pr = lf_tree_field(n, "property");
        TSNode up = lf_ts_parent(n);
        if (!ts_node_is_null(pr) && lf_tree_same_text(r->src, pr, r->prop) &&
            !(lf_tree_is(up, "assignment_expression") && ts_node_eq(lf_tree_field(up, "left"), n)))
            LF_VEC_PUSH(&r->reads, n);
    } else if ((!strcmp(t, "shorthand_property_identifier_pattern") || !strcmp(t, "property_identifier") ||
                !strcmp(t, "string_fragment")) &&
               lf_tree_same_text(r->src, n, r->prop)) {
        TSNode up = lf_ts_parent(n);
        if (lf_tree_is(up, "string"))
            up = lf_ts_parent(up);
        if (!strcmp(t, "shorthand_property_identifier_pattern") || lf_tree_is(up, "pair_pattern") ||
            lf_tree_is(up, "subscript_expression"))
            r->other = 1;
    }
    return LF_WALK_CONTINUE;
}

/* Is e a string made for people: a literal, a template, a concatenation
 * starting or ending with one, or a choice between two literals? */
static int display_string(const lf_source *src, TSNode e) {
    for (int steps = 0; steps < 8; steps++) {
        while (lf_tree_is(e, "parenthesized_expression"))
            e = ts_node_named_child(e, 0);
        if (lf_tree_is(e, "string") || lf_tree_is(e, "template_string"))
            return 1;
        if (lf_tree_is(e, "binary_expression") && lf_tree_text_eq(src, lf_tree_field(e, "operator"), "+")) {
            TSNode l = lf_tree_field(e, "left");
            e = lf_tree_is(l, "string") || lf_tree_is(l, "template_string") ? l : lf_tree_field(e, "right");
            continue;
        }
        if (lf_tree_is(e, "ternary_expression")) { /* `n > 1 ? "s" : ""` */
            TSNode c = lf_tree_field(e, "consequence"), a = lf_tree_field(e, "alternative");
            return (lf_tree_is(c, "string") || lf_tree_is(c, "template_string")) &&
                   (lf_tree_is(a, "string") || lf_tree_is(a, "template_string"));
        }
        return 0;
    }
    return 0;
}

/* Does the age computed at `at` only reach text shown to people: a message's
 * template, a string concatenation, a choice between two wordings, through
 * names, arithmetic and properties read only that way (`uptime = Math.floor
 * ((Date.now() - rec.startTime) / 1000)` for "running for 3 minutes", a
 * diagnostic's `stale` field printed in a timeout error)? Such an age judges
 * nothing: no branch of it breaks, takes or keeps a lock. Bounded: a value
 * that flows anywhere else, or too far, is a judgement. */
static int age_only_displayed(lf_tssem *m, TSNode at) {
    const lf_source *src = m->src;
    LF_VEC(TSNode) work = {0};
    LF_VEC_PUSH(&work, at);
    int shown = 1;
    size_t seen = 0;
    for (size_t wi = 0; wi < work.len && shown; wi++) {
        if (++seen > 24) {
            shown = 0;
            break;
        }
        TSNode cur = work.items[wi];
        for (int steps = 0; steps < 16; steps++) {
            TSNode p = lf_ts_parent(cur);
            const char *t = ts_node_is_null(p) ? "" : ts_node_type(p);
            if (!strcmp(t, "parenthesized_expression") || !strcmp(t, "unary_expression")) {
                cur = p;
                continue;
            }
            if (!strcmp(t, "template_substitution"))
                break; /* shown */
            if (!strcmp(t, "arguments")) { /* Math.floor(age / 1000), String(age) */
                TSNode call = lf_ts_parent(p);
                const char *q = lf_tree_is(call, "call_expression") ? lf_tssem_callee(m, call) : NULL;
                if (!q || (strncmp(q, "Math.", 5) && strcmp(q, "String") && strcmp(q, "Number"))) {
                    shown = 0;
                    break;
                }
                cur = call;
                continue;
            }
            if (!strcmp(t, "member_expression")) { /* age.toFixed(1) */
                TSNode call = lf_ts_parent(p);
                TSNode pr = lf_tree_field(p, "property");
                if (!lf_tree_is(call, "call_expression") || !(lf_tree_text_eq(src, pr, "toFixed") ||
                                                              lf_tree_text_eq(src, pr, "toString"))) {
                    shown = 0;
                    break;
                }
                cur = call;
                continue;
            }
            if (!strcmp(t, "binary_expression")) {
                TSNode op = lf_tree_field(p, "operator");
                TSNode other = ts_node_eq(lf_tree_field(p, "left"), cur) ? lf_tree_field(p, "right")
                                                                         : lf_tree_field(p, "left");
                if (lf_tree_text_eq(src, op, "+") && display_string(src, other))
                    break; /* "age " + age */
                if (lf_tree_text_eq(src, op, "+") || lf_tree_text_eq(src, op, "-") || lf_tree_text_eq(src, op, "*") ||
                    lf_tree_text_eq(src, op, "/") || lf_tree_text_eq(src, op, "%") || is_cmp(src, op)) {
                    cur = p;
                    continue;
                }
                shown = 0;
                break;
            }
            if (!strcmp(t, "ternary_expression")) { /* `mins > 0 ? `${mins} minutes` : `${s} seconds`` */
                if (!ts_node_eq(lf_tree_field(p, "condition"), cur) ||
                    !display_string(src, lf_tree_field(p, "consequence")) ||
                    !display_string(src, lf_tree_field(p, "alternative"))) {
                    shown = 0;
                    break;
                }
                cur = p;
                continue;
            }
            TSNode name = {0}, prop = {0};
            if (!strcmp(t, "variable_declarator") && ts_node_eq(lf_tree_field(p, "value"), cur))
                name = lf_tree_field(p, "name");
            else if (!strcmp(t, "assignment_expression") && ts_node_eq(lf_tree_field(p, "right"), cur)) {
                TSNode left = lf_tree_field(p, "left");
                if (lf_tree_is(left, "identifier")) {
                    name = left; /* an assignment binds anew: later reads see it */
                } else if (lf_tree_is(left, "member_expression")) {
                    prop = lf_tree_field(left, "property");
                }
            } else if (!strcmp(t, "pair") && ts_node_eq(lf_tree_field(p, "value"), cur)) {
                prop = lf_tree_field(p, "key");
            }
            if (lf_tree_is(name, "identifier")) {
                uses_walk uw = {m, name, {0}};
                TSNode scope = m->scopes[lf_tssem_scope_of(m, name)].node;
                lf_tree_walk(scope, collect_use, &uw);
                size_t reads = 0;
                for (size_t i = 0; i < uw.uses.len; i++) {
                    TSNode u = uw.uses.items[i], up = lf_ts_parent(u);
                    if (lf_tree_is(up, "assignment_expression") && ts_node_eq(lf_tree_field(up, "left"), u))
                        continue; /* rebinding, not a read */
                    LF_VEC_PUSH(&work, u);
                    reads++;
                }
                LF_VEC_FREE(&uw.uses);
                /* `return { age }` reads it as a shorthand property, which is
                 * no identifier; a name read nowhere we can see decides
                 * nothing we can follow */
                char *spelled = lf_tree_text(src, name);
                static const char *const k_shorthand[] = {"shorthand_property_identifier", NULL};
                if (!reads || lf_tree_mentions(src, scope, spelled, k_shorthand))
                    shown = 0;
                free(spelled);
            } else if (lf_tree_is(prop, "property_identifier")) {
                prop_reads r = {src, prop, {0}, 0};
                lf_tree_walk(m->root, find_prop_read, &r);
                for (size_t i = 0; i < r.reads.len; i++)
                    LF_VEC_PUSH(&work, r.reads.items[i]);
                if (r.other)
                    shown = 0;
                LF_VEC_FREE(&r.reads);
            } else {
                shown = 0;
            }
            break;
        }
    }
    LF_VEC_FREE(&work);
    return shown;
}

/* ---- the fix's site ---- */

void lf302_ts_site_free(void *site) {
    lf302_ts_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s);
}

static lf302_ts_site *site_declined(char *why) {
    lf302_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->decline = why;
    return s;
}

/* Is the call lockrt.cjs's holderAliveSync? */
static int holder_alive_call(lf_tssem *m, TSNode n) {
    n = lf_tssem_unwrap(n);
    const char *q = lf_tree_is(n, "call_expression") ? lf_tssem_callee(m, n) : NULL;
    return q && !strcmp(q, LF301_TS_VENDOR_MODULE ".holderAliveSync");
}

/* The age test already asks about the holder (a fixed module): `(C &&
 * !holderAliveSync(P))` or `(C || holderAliveSync(P))`. */
static int holder_guarded(lf_tssem *m, TSNode cmp) {
    TSNode cur = cmp, p = lf_ts_parent(cmp);
    while (lf_tree_is(p, "parenthesized_expression")) {
        cur = p;
        p = lf_ts_parent(p);
    }
    if (!lf_tree_is(p, "binary_expression"))
        return 0;
    TSNode other = ts_node_eq(lf_tree_field(p, "left"), cur) ? lf_tree_field(p, "right") : lf_tree_field(p, "left");
    other = lf_tssem_unwrap(other);
    TSNode op = lf_tree_field(p, "operator");
    if (lf_tree_text_eq(m->src, op, "||"))
        return holder_alive_call(m, other);
    if (!lf_tree_text_eq(m->src, op, "&&") || !lf_tree_is(other, "unary_expression") ||
        !lf_tree_text_eq(m->src, lf_tree_field(other, "operator"), "!"))
        return 0;
    return holder_alive_call(m, lf_tree_field(other, "argument"));
}

/* Does the value hold this process's pid (`String(process.pid)`,
 * `JSON.stringify({ pid: process.pid })`, a template or object made of names
 * bound to one)? */
static int holds_own_pid(lf_tssem *m, TSNode v) {
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, lf_tssem_unwrap(v));
    int found = 0;
    for (size_t budget = 256; !found && todo.len && budget; budget--) {
        TSNode n = todo.items[--todo.len];
        if (ts_node_is_null(n)) {
            continue; /* a write given no data (`handle.writeFile()`) */
        } else if (lf_tree_is(n, "member_expression") && lf_ts_text_has(m->src, n, "process.pid")) {
            found = 1;
        } else if (lf_tree_is(n, "identifier")) {
            TSNode r = lf_tssem_resolve_value(m, n);
            if (!ts_node_eq(r, n) && budget > 128)
                LF_VEC_PUSH(&todo, r);
        } else {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                LF_VEC_PUSH(&todo, ts_node_named_child(n, i));
        }
    }
    LF_VEC_FREE(&todo);
    return found;
}

/* Is `n` the same descriptor as `kept` (what an open's result was assigned
 * to): the same binding for a name, the same text for `this.fd`? */
static int same_kept(lf_tssem *m, TSNode n, TSNode kept) {
    n = lf_tssem_unwrap(n);
    if (!lf_tree_equal(m->src, n, m->src, kept, 0))
        return 0;
    if (!lf_tree_is(kept, "identifier"))
        return 1;
    uint32_t a = ts_node_start_byte(n), b = ts_node_start_byte(kept);
    const char *name = lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(n) - a);
    return lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), name, a) ==
           lf_tssem_binding_at(m, lf_tssem_scope_of(m, kept), name, b);
}

/* Is `n` a use of the name bound by declarator `decl`? */
static int uses_decl(lf_tssem *m, TSNode n, TSNode decl) {
    n = lf_tssem_unwrap(n);
    if (!lf_tree_is(n, "identifier"))
        return 0;
    uint32_t a = ts_node_start_byte(n);
    const lf_tsbinding *b =
        lf_tssem_binding_at(m, lf_tssem_scope_of(m, n), lf_tssem_intern(m, m->src->text + a, ts_node_end_byte(n) - a), a);
    return b && ts_node_eq(b->target, decl);
}

/* Is path expression p the lock of key k: its key, or, when k is a
 * function's parameter (`isLockStale(lockPath)`), any parameter of the
 * module's functions (the path every caller passes)? */
static int same_lock(lf_tssem *m, lf_tslock *l, TSNode p, int32_t k) {
    int32_t pk = lf_tslock_key_index(l, p);
    if (pk == k)
        return 1;
    if (pk < 0)
        return 0;
    const lf_tsbinding *b = lf_tssem_key_param(m, l->keys[k].key);
    if (b && lf_tssem_key_param(m, l->keys[pk].key))
        return 1;
    /* `isLockStale(lockPath)` judging its parameter: a caller hands it the
     * lock the caller opens (`const lockPath = ...; open(lockPath, "wx")`) */
    int j = b ? lf_tssem_param_index(m, b->scope, b) : -1;
    for (size_t i = 0; j >= 0 && j < 8 && i < m->n_calls; i++)
        if (lf_tssem_local_callee(m, m->calls[i].node) == b->scope &&
            lf_tslock_key_index(l, lf_tssem_arg(m->calls[i].node, (uint32_t)j)) == pk)
            return 1;
    return 0;
}

/* Does the module write its pid into the lock of key k: a writeFile of it,
 * or a write through the descriptor or FileHandle an open of it returns
 * (`const h = await open(lock, "wx"); await h.writeFile(String(process.pid))`,
 * `fs.writeSync(fd, ...)`)? */
static int records_pid(lf_tssem *m, lf_tslock *l, int32_t k) {
    if (l->keys[k].flags & LF_TSLOCK_PID)
        return 1;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        const char *op = lf_tslock_fs_op(m, call);
        if (!op || !same_lock(m, l, lf_tssem_arg(call, 0), k))
            continue;
        if (!strcmp(op, "writeFile") && holds_own_pid(m, lf_tssem_arg(call, 1)))
            return 1;
        if (strcmp(op, "open"))
            continue;
        TSNode up = lf_ts_parent(call);
        while (lf_tree_is(up, "await_expression") || lf_tree_is(up, "parenthesized_expression"))
            up = lf_ts_parent(up);
        /* `this.fd = openSync(lock, "wx")` then `writeSync(this.fd, String(process.pid))` */
        TSNode kept = lf_tree_is(up, "assignment_expression") ? lf_tree_field(up, "left") : (TSNode){0};
        if (lf_tree_is(kept, "member_expression") || lf_tree_is(kept, "identifier")) {
            for (size_t j = i + 1; j < m->n_calls; j++) {
                TSNode c = m->calls[j].node;
                const char *wop = lf_tslock_fs_op(m, c);
                if (wop && !strcmp(wop, "write") && same_kept(m, lf_tssem_arg(c, 0), kept) &&
                    holds_own_pid(m, lf_tssem_arg(c, 1)))
                    return 1;
                /* `h = await open(lock, "wx")` then `await h.writeFile(String(process.pid))` */
                TSNode cf = lf_tree_field(c, "function");
                if (lf_tree_is(cf, "member_expression") && same_kept(m, lf_tree_field(cf, "object"), kept) &&
                    lf_tree_text_eq(m->src, lf_tree_field(cf, "property"), "writeFile") &&
                    holds_own_pid(m, lf_tssem_arg(c, 0)))
                    return 1;
            }
        }
        TSNode name = lf_tree_is(up, "variable_declarator") ? lf_tree_field(up, "name") : (TSNode){0};
        if (!lf_tree_is(name, "identifier"))
            continue;
        for (size_t j = i + 1; j < m->n_calls; j++) {
            TSNode c = m->calls[j].node, fn = lf_tree_field(c, "function");
            const char *wop = lf_tslock_fs_op(m, c);
            if (wop && (!strcmp(wop, "write") || !strcmp(wop, "writeFile")) && uses_decl(m, lf_tssem_arg(c, 0), name) &&
                holds_own_pid(m, lf_tssem_arg(c, 1)))
                return 1;
            if (lf_tree_is(fn, "member_expression") && uses_decl(m, lf_tree_field(fn, "object"), name) &&
                (lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "writeFile") ||
                 lf_tree_text_eq(m->src, lf_tree_field(fn, "property"), "write")) &&
                holds_own_pid(m, lf_tssem_arg(c, 0)))
                return 1;
        }
    }
    return 0;
}

/* Is the flag of an open (`"wx"`, an O_EXCL expression, through a name) or of
 * a writeFile's options (`{ flag: "wx" }`, or the string itself) exclusive? */
static int excl_flag(lf_tssem *m, TSNode fl) {
    fl = lf_tssem_unwrap(fl);
    if (lf_tree_is(fl, "object")) {
        TSNode v = (TSNode){0};
        for (uint32_t i = 0; i < ts_node_named_child_count(fl); i++) {
            TSNode p = ts_node_named_child(fl, i);
            if (lf_tree_is(p, "pair") && lf_tree_text_eq(m->src, lf_tree_field(p, "key"), "flag"))
                v = lf_tssem_unwrap(lf_tree_field(p, "value"));
        }
        fl = v;
    }
    /* `constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY`, through a name */
    TSNode v = lf_tssem_resolve_value(m, fl);
    if (lf_ts_text_has(m->src, fl, "O_EXCL") || lf_ts_text_has(m->src, v, "O_EXCL"))
        return 1;
    fl = v;
    if (!lf_tree_is(fl, "string"))
        return 0;
    return lf_tree_text_eq(m->src, fl, "\"wx\"") || lf_tree_text_eq(m->src, fl, "'wx'") ||
           lf_tree_text_eq(m->src, fl, "\"wx+\"") || lf_tree_text_eq(m->src, fl, "'wx+'");
}

/* For a lock of key k that records no pid: can its one exclusive create write
 * the pid (lf302_ts_site.h)? Fills s->record*, or returns why not (malloc'd).
 * Nothing else may write the lock, nothing may read what it holds, and the
 * create must be a statement of its own in one of the two forms. */
static char *plan_pid_record(lf_tssem *m, lf_tslock *l, int32_t k, lf302_ts_site *s) {
    TSNode create = (TSNode){0};
    size_t creates = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        /* the same locks records_pid looks at (same_lock: a parameter's lock
         * is any the module's functions are handed), so that a pid recorded
         * by this fix is the one a second run finds (idempotence) */
        if (e->key < 0 || !(e->key == k || (!e->via_helper && same_lock(m, l, lf_tssem_arg(e->node, 0), k))))
            continue;
        if (e->kind == LF_TSEV_JUDGE && e->content)
            return lf_xstrdup("the lock records no pid of its holder, and the module reads what it holds: a pid "
                              "written into it would change what that read sees");
        if (e->kind == LF_TSEV_OVERWRITE || e->kind == LF_TSEV_APPEND)
            return lf_xstrdup("the lock records no pid of its holder, and the module writes it in more than one "
                              "place (a refresh or a takeover): each would have to record the pid");
        if (e->kind == LF_TSEV_CREATE) {
            creates++;
            create = e->via_helper ? (TSNode){0} : e->node;
        }
    }
    if (creates != 1 || ts_node_is_null(create))
        return lf_xstrdup("the lock records no pid of its holder, and it is not created in exactly one place in "
                          "this module the fix could make record it");
    const char *op = lf_tslock_fs_op(m, create);
    const char *callee = lf_tssem_callee(m, create);
    int sync = callee && strlen(callee) > 4 && !strcmp(callee + strlen(callee) - 4, "Sync");
    if (op && !strcmp(op, "writeFile") && excl_flag(m, lf_tssem_arg(create, 2))) {
        TSNode data = lf_tssem_unwrap(lf_tssem_arg(create, 1));
        /* a string, or a template with no `${...}` in it */
        int literal = lf_tree_is(data, "string") || lf_tree_is(data, "template_string");
        for (uint32_t i = 0; lf_tree_is(data, "template_string") && i < ts_node_named_child_count(data); i++)
            if (lf_tree_is(ts_node_named_child(data, i), "template_substitution"))
                literal = 0;
        if (!literal)
            return lf_xstrdup("the lock records no pid of its holder, and its create writes a value the fix would "
                              "replace (not a literal)");
        s->record = LF302_TS_RECORD_DATA;
        s->record_at = lf_tssem_arg(create, 1);
        return NULL;
    }
    TSNode awaited = lf_ts_parent(create);
    int promise = !sync && lf_tree_is(awaited, "await_expression");
    if (op && !strcmp(op, "open") && (sync || promise) && excl_flag(m, lf_tssem_arg(create, 1))) {
        /* `fd = openSync(...)` / `this.fd = openSync(...)` / `const fd = openSync(...)`, a statement;
         * or `h = await open(...)`, a FileHandle */
        TSNode up = lf_ts_parent(promise ? awaited : create), fd = (TSNode){0}, stmt = (TSNode){0};
        create = promise ? awaited : create;
        if (lf_tree_is(up, "assignment_expression") && ts_node_eq(lf_tree_field(up, "right"), create)) {
            fd = lf_tree_field(up, "left");
            stmt = lf_ts_parent(up);
            if (!lf_tree_is(stmt, "expression_statement"))
                stmt = (TSNode){0};
        } else if (lf_tree_is(up, "variable_declarator") && ts_node_eq(lf_tree_field(up, "value"), create)) {
            fd = lf_tree_field(up, "name");
            stmt = lf_ts_parent(up);
            if (!lf_tree_is(stmt, "lexical_declaration") && !lf_tree_is(stmt, "variable_declaration"))
                stmt = (TSNode){0};
            else if (ts_node_named_child_count(stmt) != 1)
                stmt = (TSNode){0};
        }
        int this_field = lf_tree_is(fd, "member_expression") && lf_tree_is(lf_tree_field(fd, "object"), "this");
        if (ts_node_is_null(stmt) || !(lf_tree_is(fd, "identifier") || this_field))
            return lf_xstrdup("the lock records no pid of its holder, and the descriptor its exclusive open returns "
                              "is not kept in a name or field by a statement of its own");
        /* nothing else written through that descriptor */
        for (size_t i = 0; i < m->n_calls; i++) {
            const char *wop = lf_tslock_fs_op(m, m->calls[i].node);
            TSNode cf = lf_tree_field(m->calls[i].node, "function");
            int through = (wop && (!strcmp(wop, "write") || !strcmp(wop, "writeFile") || !strcmp(wop, "ftruncate")) &&
                           same_kept(m, lf_tssem_arg(m->calls[i].node, 0), fd)) ||
                          (lf_tree_is(cf, "member_expression") && same_kept(m, lf_tree_field(cf, "object"), fd) &&
                           (lf_tree_text_eq(m->src, lf_tree_field(cf, "property"), "write") ||
                            lf_tree_text_eq(m->src, lf_tree_field(cf, "property"), "writeFile") ||
                            lf_tree_text_eq(m->src, lf_tree_field(cf, "property"), "truncate")));
            if (through)
                return lf_xstrdup("the lock records no pid of its holder, and the module writes through its "
                                  "descriptor: what it writes would mix with a pid");
        }
        s->record = promise ? LF302_TS_RECORD_HANDLE : LF302_TS_RECORD_FD;
        s->record_at = stmt;
        s->record_fd = fd;
        return NULL;
    }
    return lf_xstrdup("the lock records no pid of its holder, and its create is neither a writeFileSync/writeFile "
                      "with { flag: \"wx\" } nor a kept openSync(..., \"wx\"): the fix could not make it record one");
}

/* Where the age at `at` is judged, for the finding's line: `at` when it is
 * the comparison, else the first comparison, after it in its function, of the
 * name it is bound or assigned to (`ageMs = Date.now() - s.mtimeMs; ... if
 * (ageMs <= STALE)`), whatever else uses the name; `at` when there is none. */
typedef struct cmp_walk {
    const lf_source *src;
    TSNode name, found;
    TSNode carry; /* the first use that is kept in another name (through Math.min, a ternary) */
    uint32_t after;
} cmp_walk;

/* The expression whose value carries e's age: e, or what wraps it without
 * ceasing to be that age or a bound of it (parentheses, a branch of a
 * ternary, an argument of Math.min or Math.max): `age = Math.min(fromJson,
 * fileStat ? Math.max(0, now - fileStat.mtimeMs) : fromJson)`. */
static TSNode carried_to(const lf_source *src, TSNode e) {
    for (int hops = 0; hops < 16; hops++) {
        TSNode p = lf_ts_parent(e);
        if (lf_tree_is(p, "parenthesized_expression")) {
            e = p;
        } else if (lf_tree_is(p, "ternary_expression") && !ts_node_eq(lf_tree_field(p, "condition"), e)) {
            e = p;
        } else if (lf_tree_is(p, "arguments")) {
            TSNode call = lf_ts_parent(p), fn = lf_tree_field(call, "function");
            if (!lf_tree_is(call, "call_expression") ||
                !(lf_tree_text_eq(src, fn, "Math.min") || lf_tree_text_eq(src, fn, "Math.max")))
                return e;
            e = call;
        } else {
            return e;
        }
    }
    return e;
}

static TSNode age_name(TSNode at, int assigned);

static lf_walk_action first_cmp_use(TSNode n, void *ud) {
    cmp_walk *w = ud;
    if (!ts_node_is_null(w->found))
        return LF_WALK_STOP;
    if (lf_tssem_is_function_node(n) && ts_node_start_byte(n) > w->after)
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "identifier") || ts_node_start_byte(n) < w->after ||
        !lf_tree_equal(w->src, n, w->src, w->name, 0))
        return LF_WALK_CONTINUE;
    TSNode p = lf_ts_parent(n);
    while (lf_tree_is(p, "parenthesized_expression"))
        p = lf_ts_parent(p);
    if (lf_tree_is(p, "binary_expression") && is_cmp(w->src, lf_tree_field(p, "operator"))) {
        w->found = p;
    } else if (ts_node_is_null(w->carry)) {
        TSNode top = carried_to(w->src, n);
        if (!ts_node_eq(top, n) && !ts_node_is_null(age_name(top, 1)))
            w->carry = top;
    }
    return LF_WALK_CONTINUE;
}

/* The name an age at `at` is kept in: the declarator's (`const age = ...`),
 * or, when `assigned`, an assignment's left side too (`age = ...`); null when
 * `at` is not so kept. */
static TSNode age_name(TSNode at, int assigned) {
    TSNode decl = lf_ts_parent(at);
    while (lf_tree_is(decl, "parenthesized_expression"))
        decl = lf_ts_parent(decl);
    TSNode name = lf_tree_is(decl, "variable_declarator")                  ? lf_tree_field(decl, "name")
                  : assigned && lf_tree_is(decl, "assignment_expression") ? lf_tree_field(decl, "left")
                                                                          : (TSNode){0};
    return lf_tree_is(name, "identifier") ? name : (TSNode){0};
}

/* ... and when the name is first kept in another one before any comparison
 * (`ageFromMtime` in `age = Math.min(ageFromJson, ageFromMtime)`), the first
 * comparison of that one, a few names on. */
static TSNode report_at(lf_tssem *m, TSNode at) {
    const lf_source *src = m->src;
    if (lf_tree_is(at, "binary_expression") && is_cmp(src, lf_tree_field(at, "operator")))
        return at;
    TSNode e = at;
    for (int hops = 0; hops < 4; hops++) {
        TSNode top = carried_to(src, e), p = lf_ts_parent(top);
        if (lf_tree_is(p, "binary_expression") && is_cmp(src, lf_tree_field(p, "operator")) && !ts_node_eq(top, at))
            return p;
        TSNode name = age_name(top, 1);
        if (ts_node_is_null(name))
            return at;
        cmp_walk w;
        memset(&w, 0, sizeof w);
        w.src = src;
        w.name = name;
        w.after = ts_node_end_byte(top);
        lf_tree_walk(m->scopes[lf_tssem_scope_of(m, top)].node, first_cmp_use, &w);
        if (!ts_node_is_null(w.found))
            return w.found;
        if (ts_node_is_null(w.carry))
            return at;
        e = w.carry;
    }
    return at;
}

/* The comparison that tests the age at `at`: `at` itself, or, for `const age
 * = Date.now() - st.mtimeMs; if (age > limit)`, the one comparison of the name
 * (*read becomes that use); null when there is none or more than one use. */
static TSNode comparison_of(lf_tssem *m, TSNode at, TSNode *read) {
    const lf_source *src = m->src;
    if (lf_tree_is(at, "binary_expression") && is_cmp(src, lf_tree_field(at, "operator")))
        return at;
    TSNode name = age_name(at, 0);
    TSNode cmp = {0}, use = {0};
    size_t cmps = 0;
    if (ts_node_is_null(name))
        return cmp;
    uses_walk uw = {m, name, {0}};
    lf_tree_walk(m->scopes[lf_tssem_scope_of(m, name)].node, collect_use, &uw);
    for (size_t i = 0; i < uw.uses.len; i++) {
        TSNode p = lf_ts_parent(uw.uses.items[i]);
        while (lf_tree_is(p, "parenthesized_expression"))
            p = lf_ts_parent(p);
        if (lf_tree_is(p, "binary_expression") && is_cmp(src, lf_tree_field(p, "operator"))) {
            cmps++;
            cmp = p;
            use = uw.uses.items[i];
        } else if (!lf_tree_is(p, "template_substitution") && !lf_tree_is(p, "arguments")) {
            cmps += 2; /* used in other arithmetic: not one plain test */
        }
    }
    LF_VEC_FREE(&uw.uses);
    if (cmps != 1)
        return (TSNode){0};
    *read = use;
    return cmp;
}

/* The fix's site for the comparison `cmp` that tests the age of lock key k
 * (comparison_of; null: none the fix could rewrite), whose stat'ed path is
 * `path` and whose age (or time) is read by `read` in it. */
static lf302_ts_site *holder_site(lf_tssem *m, const lf_tslock *l, int32_t k, TSNode cmp, TSNode read, TSNode path) {
    const lf_source *src = m->src;
    unsigned flags = l->keys[k].flags;
    if (flags & LF_TSLOCK_DIR)
        return site_declined(lf_xstrdup("the lock is a directory: the pid its holder records is in a file the fix "
                                        "does not know"));
    lf302_ts_site plan;
    memset(&plan, 0, sizeof plan);
    if (!records_pid(m, (lf_tslock *)l, k)) {
        char *why = plan_pid_record(m, (lf_tslock *)l, k, &plan);
        if (why)
            return site_declined(why);
    }
    if (ts_node_is_null(cmp))
        return site_declined(lf_xstrdup("the age is compared through a name, not in one comparison of it the "
                                        "fix could rewrite"));
    TSNode at = cmp;
    if (!lf_ts_nameable_at(m, path, at)) {
        char *p = lf_py_short(src, path);
        char *why = lf_xasprintf("the stat'ed path `%s` is not a name bound the same where the age is tested (or a "
                                 "literal): the test cannot name the lock again",
                                 p);
        free(p);
        return site_declined(why);
    }
    lf302_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->cmp = at;
    s->path = lf_tssem_unwrap(path);
    s->stale_when_true = stale_when_true(m, at, read);
    s->record = plan.record;
    s->record_at = plan.record_at;
    s->record_fd = plan.record_fd;
    return s;
}

static void judge_read(walk *w, TSNode read, TSNode stat_value);

static void judge(walk *w, TSNode read) { judge_read(w, read, lf_tree_field(read, "object")); }

/* `return Date.now() - statSync(p).mtimeMs` in a module function whose
 * callers compare what it returns (`if (!(lockAge(this.path) > timeout))`):
 * the age is judged at each comparing call, of the lock its caller passes
 * for p. */
static void judge_returned_age(walk *w, TSNode read, TSNode path) {
    lf_tssem *m = w->m;
    const lf_source *src = m->src;
    TSNode cur = read, age = {0};
    for (int steps = 0; steps < 8 && ts_node_is_null(age); steps++) {
        TSNode p = lf_ts_parent(cur);
        if (lf_tree_is(p, "arguments"))
            p = lf_ts_parent(p);
        if (lf_tree_is(p, "member_expression") || lf_tree_is(p, "call_expression") ||
            lf_tree_is(p, "parenthesized_expression") || lf_tree_is(p, "await_expression")) {
            cur = p;
            continue;
        }
        if (lf_tree_is(p, "binary_expression") && lf_tree_text_eq(src, lf_tree_field(p, "operator"), "-") &&
            ts_node_eq(lf_tree_field(p, "right"), cur) && clockish(m, lf_tree_field(p, "left")))
            age = p;
        break;
    }
    TSNode ret = ts_node_is_null(age) ? age : lf_ts_parent(age);
    while (lf_tree_is(ret, "parenthesized_expression"))
        ret = lf_ts_parent(ret);
    if (!lf_tree_is(ret, "return_statement"))
        return;
    int32_t h = lf_tslock_fn_of(m, lf_tssem_scope_of(m, ret));
    TSNode pv = lf_tssem_unwrap(path);
    /* `statSync(stringifyIfPath(p))`: a one-argument conversion of the
     * parameter another package provides (not one naming another file) */
    if (lf_tree_is(pv, "call_expression") && lf_tssem_nargs(pv) == 1) {
        const char *q = lf_tssem_callee(m, pv);
        if (!q || (strncmp(q, "path.", 5) && strncmp(q, "fs.", 3)))
            pv = lf_tssem_unwrap(lf_tssem_arg(pv, 0));
    }
    int j = path_param_slot(m, h, pv);
    if (j < 0)
        return;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (lf_tssem_local_callee(m, c) != h)
            continue;
        TSNode arg = lf_tssem_arg(c, (uint32_t)j);
        int32_t k = ts_node_is_null(arg) ? -1 : lf_tslock_key_index(w->l, arg);
        if (k < 0 || !lf_tslock_is_lock(w->l->keys[k].flags))
            continue;
        TSNode use = c, at = lf_ts_parent(c);
        while (lf_tree_is(at, "await_expression") || lf_tree_is(at, "parenthesized_expression")) {
            use = at;
            at = lf_ts_parent(at);
        }
        if (!lf_tree_is(at, "binary_expression") || !is_cmp(src, lf_tree_field(at, "operator")) ||
            mentions_mtime(src, ts_node_eq(lf_tree_field(at, "left"), use) ? lf_tree_field(at, "right")
                                                                           : lf_tree_field(at, "left")) ||
            owner_decides_first(m, w->l, at))
            continue;
        /* one finding, at the age the helper computes (every caller's
         * comparison is the same root bug), naming the first comparison */
        char *what = lf_py_short(src, arg);
        char *msg = lf_xasprintf("%s() ages the lock %s (a lock by its use at line %u) by its mtime, and line %u "
                                 "judges it stale by that age: a holder that is merely paused (stopped, swapped out, "
                                 "on a slow disk) loses it to a newcomer, and two holders run at once",
                                 m->scopes[h].name, what, lf_py_line(src, w->l->keys[k].evidence),
                                 lf_py_line(src, at));
        lf_ctx_emit_site(w->ctx, age, msg,
                         site_declined(lf_xasprintf("the age is computed by %s() and compared by its caller: the fix "
                                                    "rewrites an age test made in one comparison of the stat'ed path",
                                                    m->scopes[h].name)),
                         lf302_ts_site_free);
        lf_ctx_witness(w->ctx, lf_wit_stale_age_ts(w->l, age, k)); /* the judgement's step at the reported age */
        free(msg);
        free(what);
        break;
    }
}

/* `read` reads an mtime/ctime of the stat result `stat_value`. */
static void judge_read(walk *w, TSNode read, TSNode stat_value) {
    lf_tssem *m = w->m;
    const lf_source *src = m->src;
    TSNode path = stat_path(m, stat_value);
    if (ts_node_is_null(path))
        return;
    int32_t k = lf_tslock_key_index(w->l, path);
    if (k < 0 || !lf_tslock_is_lock(w->l->keys[k].flags)) {
        judge_returned_age(w, read, path); /* a helper's parameter: its callers' locks */
        return;
    }
    TSNode at = climb(m, read), read_use = read;
    if (ts_node_is_null(at)) {
        /* `var ct = st[f].getTime(); ... Date.now() - ct`: the time is named
         * first, and its age taken at a use of the name */
        TSNode decl = lf_ts_parent(read);
        while (lf_tree_is(decl, "call_expression") || lf_tree_is(decl, "member_expression") ||
               lf_tree_is(decl, "parenthesized_expression") || lf_tree_is(decl, "await_expression"))
            decl = lf_ts_parent(decl);
        /* or assigned to a name declared before (`let t; try { t = statSync(p).mtimeMs } ...`) */
        TSNode name = lf_tree_is(decl, "variable_declarator")    ? lf_tree_field(decl, "name")
                      : lf_tree_is(decl, "assignment_expression") ? lf_tree_field(decl, "left")
                                                                  : (TSNode){0};
        if (lf_tree_is(name, "identifier")) {
            uses_walk uw = {m, name, {0}};
            lf_tree_walk(m->scopes[lf_tssem_scope_of(m, name)].node, collect_use, &uw);
            for (size_t i = 0; i < uw.uses.len && ts_node_is_null(at); i++) {
                at = climb(m, uw.uses.items[i]);
                read_use = uw.uses.items[i];
            }
            LF_VEC_FREE(&uw.uses);
        }
    }
    if (ts_node_is_null(at)) {
        judge_returned_age(w, read, path);
        return;
    }
    if (owner_decides_first(m, w->l, at))
        return;
    TSNode guard_read = read_use, tested = comparison_of(m, at, &guard_read);
    if (!ts_node_is_null(tested) && holder_guarded(m, tested))
        return; /* a fixed module: the age test asks about the holder too */
    if (!ts_node_is_null(tested) &&
        (age_gates_probe(m, w->l, tested, guard_read) || dead_holder_first(m, w->l, tested)))
        return;
    if (!ts_node_is_null(tested) && age_only_refuses(m, tested, guard_read))
        return;
    if (age_only_displayed(m, at))
        return;
    if (!ts_node_is_null(tested) && verdict_calls_after_dead_probe(m, w->l, tested, path))
        return;
    char *what = lf_py_short(src, path);
    char *msg = lf_xasprintf("the lock %s (a lock by its use at line %u) is judged stale by the age of its %s: a "
                             "holder that is merely paused (stopped, swapped out, on a slow disk) loses it to a "
                             "newcomer, and two holders run at once",
                             what, lf_py_line(src, w->l->keys[k].evidence),
                             lf_tree_is(read, "subscript_expression") ? "mtime or ctime"
                             : lf_ts_text_has(src, read, "ctime")        ? "ctime"
                                                                        : "mtime");
    TSNode judged_at = report_at(m, at);
    lf_ctx_emit_site(w->ctx, judged_at, msg, holder_site(m, w->l, k, tested, guard_read, path),
                     lf302_ts_site_free);
    lf_ctx_witness(w->ctx, lf_wit_stale_age_ts(w->l, judged_at, k));
    free(msg);
    free(what);
}

/* `const { mtimeMs } = await stat(lock)`: the name reads the stat's field. */
static void judge_destructured(walk *w, TSNode id) {
    lf_tssem *m = w->m;
    uint32_t a = ts_node_start_byte(id), b = ts_node_end_byte(id);
    const char *name = lf_tssem_intern(m, m->src->text + a, b - a);
    const lf_tsbinding *bd = lf_tssem_binding_at(m, lf_tssem_scope_of(m, id), name, a);
    if (!bd || bd->kind != LF_TSBIND_VAR || !bd->member || strcmp(bd->member, name) != 0 || ts_node_eq(bd->target, id))
        return;
    judge_read(w, id, bd->value);
}

static lf_walk_action visit(TSNode n, void *ud) {
    walk *w = ud;
    if (lf_tree_is(n, "identifier")) {
        const lf_source *src = w->m->src;
        if (lf_tree_text_eq(src, n, "mtimeMs") || lf_tree_text_eq(src, n, "mtime") ||
            lf_tree_text_eq(src, n, "ctimeMs") || lf_tree_text_eq(src, n, "ctime"))
            judge_destructured(w, n);
        return LF_WALK_CONTINUE;
    }
    if (lf_tree_is(n, "subscript_expression")) {
        /* st[field].getTime(), the field chosen at run time (mtime or ctime) */
        TSNode up = lf_ts_parent(n);
        if (lf_tree_is(up, "member_expression") && lf_tree_text_eq(w->m->src, lf_tree_field(up, "property"), "getTime"))
            judge_read(w, n, lf_tree_field(n, "object"));
        return LF_WALK_CONTINUE;
    }
    if (lf_tree_is(n, "member_expression")) {
        TSNode p = lf_tree_field(n, "property");
        const lf_source *src = w->m->src;
        if (lf_tree_text_eq(src, p, "mtimeMs") || lf_tree_text_eq(src, p, "mtime") ||
            lf_tree_text_eq(src, p, "ctimeMs") || lf_tree_text_eq(src, p, "ctime"))
            judge(w, n);
    }
    return LF_WALK_CONTINUE;
}

static int time_word(const lf_source *src, TSNode n) {
    return lf_tree_text_eq(src, n, "mtimeMs") || lf_tree_text_eq(src, n, "mtime") ||
           lf_tree_text_eq(src, n, "ctimeMs") || lf_tree_text_eq(src, n, "ctime");
}

/* What `visit` would see in a walk of the whole tree, found from the words
 * instead: every node it acts on is an identifier spelled mtime/ctime(Ms), a
 * member expression whose property is, or a subscript whose `.getTime`
 * is read. Visited in the walk's order (the first report at a node wins). */
static void visit_reads(walk *w) {
    const lf_source *src = w->m->src;
    lf_tsnode_vec words = {0}, visit_at = {0};
    lf_tssem_tokens(w->m, "mtime", &words);
    lf_tssem_tokens(w->m, "ctime", &words);
    lf_tssem_tokens(w->m, "getTime", &words);
    for (size_t i = 0; i < words.len; i++) {
        TSNode t = words.items[i];
        if (lf_tree_is(t, "identifier")) {
            if (time_word(src, t))
                LF_VEC_PUSH(&visit_at, t);
            continue;
        }
        TSNode up = lf_ts_parent(t);
        if (!lf_tree_is(t, "property_identifier") || !lf_tree_is(up, "member_expression") ||
            !ts_node_eq(lf_tree_field(up, "property"), t))
            continue;
        if (time_word(src, t))
            LF_VEC_PUSH(&visit_at, up);
        else if (lf_tree_text_eq(src, t, "getTime") && lf_tree_is(lf_tree_field(up, "object"), "subscript_expression"))
            LF_VEC_PUSH(&visit_at, lf_tree_field(up, "object"));
    }
    lf_tssem_preorder(&visit_at);
    for (size_t i = 0; i < visit_at.len; i++)
        visit(visit_at.items[i], w);
    LF_VEC_FREE(&words);
    LF_VEC_FREE(&visit_at);
}

/* Which parameter of module function h names the file it reads and parses
 * (`readFile(p)`, `readFile(path.join(p, "lock.info"))` with p its
 * parameter, then JSON.parse in h), or -1. */
static int record_reader_param(lf_tssem *m, int32_t h) {
    int param = -1, parses = 0;
    for (int32_t i = m->scopes[h].first_call; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node;
        const char *q = m->calls[i].callee;
        parses |= q && !strcmp(q, "JSON.parse");
        const char *op = lf_tslock_fs_op(m, c);
        if (param >= 0 || !op || (strcmp(op, "readFile") && strcmp(op, "readJson")))
            continue;
        TSNode p = lf_tssem_unwrap(lf_tssem_arg(c, 0));
        if (lf_tree_is(p, "identifier"))
            p = lf_tssem_unwrap(lf_tssem_resolve_value(m, p));
        const char *pq = lf_tree_is(p, "call_expression") ? lf_tssem_callee(m, p) : NULL;
        if (pq && (!strcmp(pq, "path.join") || !strcmp(pq, "path.resolve")))
            p = lf_tssem_unwrap(lf_tssem_arg(p, 0)); /* a record file inside the lock (directory) */
        const lf_tsbinding *b = lf_tree_is(p, "identifier") ? lf_tssem_key_param(m, lf_tssem_path_key(m, p)) : NULL;
        int j = b && b->scope == h ? lf_tssem_param_index(m, h, b) : -1;
        param = j < 8 ? j : -1;
        if (!strcmp(op, "readJson"))
            parses = 1;
    }
    return parses ? param : -1;
}

/* The path a readFile/readJson call reads, or the lock a module function
 * given it reads its record from (`const info = await readLockInfo(lockPath)`);
 * null otherwise. */
static TSNode read_file_path(lf_tssem *m, TSNode x) {
    if (!lf_tree_is(x, "call_expression"))
        return (TSNode){0};
    const char *op = lf_tslock_fs_op(m, x);
    if (op && (!strcmp(op, "readFile") || !strcmp(op, "readJson")))
        return lf_tssem_arg(x, 0);
    int32_t h = op ? -1 : lf_tssem_local_callee(m, x);
    int j = h > 0 && m->scopes[h].cls < 0 ? record_reader_param(m, h) : -1;
    return j >= 0 ? lf_tssem_arg(x, (uint32_t)j) : (TSNode){0};
}

/* The lock path a recorded time comes from: the operand of `Date.now() - X`
 * made from a read of the file (`parseInt(content.split("\n")[1], 10)`,
 * `rec.timestamp` with `rec = JSON.parse(readFileSync(p))`), through names;
 * null when none. */
static TSNode recorded_time_path(lf_tssem *m, TSNode e) { return lf_tssem_search_values(m, e, 96, 1, read_file_path); }

typedef struct param_find {
    lf_tssem *m;
    const lf_tsbinding *param;
} param_find;

static lf_walk_action find_param(TSNode n, void *ud) {
    param_find *f = ud;
    if (!lf_tree_is(n, "identifier"))
        return LF_WALK_CONTINUE;
    const lf_tsbinding *bd = lf_tssem_binding_of(f->m, n);
    if (bd && bd->kind == LF_TSBIND_PARAM) {
        f->param = bd;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* The lock whose record the module's own calls hand in as the parameter the
 * recorded time is read from (`isLockStale(payload, ms)` computing
 * `Date.now() - Date.parse(payload.createdAt)`, called with `payload =
 * readLock(path)`): the first call's record path, or null. */
static TSNode handed_record_path(lf_tssem *m, TSNode e) {
    param_find f = {m, NULL};
    lf_tree_walk(e, find_param, &f);
    if (!f.param)
        return (TSNode){0};
    int32_t h = f.param->scope;
    int j = lf_tssem_param_index(m, h, f.param);
    for (size_t i = 0; j >= 0 && j < 8 && i < m->n_calls; i++) {
        if (lf_tssem_local_callee(m, m->calls[i].node) != h)
            continue;
        TSNode path = recorded_time_path(m, lf_tssem_arg(m->calls[i].node, (uint32_t)j));
        if (!ts_node_is_null(path))
            return path;
    }
    return (TSNode){0};
}

/* The lock directory a record file sits in (`this.ownerFile` made as
 * `path.join(this.lockDir, "owner.json")`): the key of lockDir when it is a
 * lock (*dir: its expression), else -1. */
static int32_t record_dir_key(lf_tssem *m, lf_tslock *l, TSNode path, TSNode *dir) {
    TSNode p = lf_tssem_unwrap(lf_tssem_resolve_value(m, lf_tssem_unwrap(path)));
    if (lf_tree_is(p, "member_expression"))
        p = lf_tssem_unwrap(lf_tssem_this_field_value(m, p));
    const char *q = lf_tree_is(p, "call_expression") ? lf_tssem_callee(m, p) : NULL;
    if (!q || (strcmp(q, "path.join") && strcmp(q, "path.resolve")) || lf_tssem_nargs(p) != 2)
        return -1;
    *dir = lf_tssem_arg(p, 0);
    int32_t k = lf_tslock_key_index(l, *dir);
    return k >= 0 && lf_tslock_is_lock(l->keys[k].flags) && (l->keys[k].flags & LF_TSLOCK_DIR) ? k : -1;
}

/* A lock judged stale by the time its acquirer wrote into it (`Date.now() -
 * ts > STALE` with ts parsed from the lock's text or record), in a module
 * that breaks that lock: a holder that merely runs long, or is paused, loses
 * it. As Python's recorded age (checks/lf302_mtime_staleness.c). */
static lf_walk_action visit_recorded(TSNode n, void *ud) {
    walk *w = ud;
    lf_tssem *m = w->m;
    if (!lf_tree_is(n, "binary_expression") || !lf_tree_text_eq(m->src, lf_tree_field(n, "operator"), "-"))
        return LF_WALK_CONTINUE;
    TSNode left = lf_tree_field(n, "left"), right = lf_tree_field(n, "right");
    if (!clockish(m, left) || mentions_mtime(m->src, right))
        return LF_WALK_CONTINUE;
    TSNode path = recorded_time_path(m, right);
    if (ts_node_is_null(path))
        path = handed_record_path(m, right);
    if (ts_node_is_null(path))
        return LF_WALK_CONTINUE;
    int32_t k = lf_tslock_key_index(w->l, path);
    if (k < 0 || !lf_tslock_is_lock(w->l->keys[k].flags))
        k = record_dir_key(m, w->l, path, &path);
    /* broken here, or a verdict helper's parameter that the module's broken
     * lock is handed to (`isLockStale(lockPath)`: BREAKABLE flows there) */
    if (k < 0 || !lf_tslock_is_lock(w->l->keys[k].flags) ||
        !(w->l->keys[k].flags & (LF_TSLOCK_BROKEN | LF_TSLOCK_BREAKABLE)))
        return LF_WALK_CONTINUE;
    TSNode at = climb(m, right);
    if (ts_node_is_null(at) || owner_decides_first(m, w->l, at) || age_only_displayed(m, at))
        return LF_WALK_CONTINUE;
    /* `rec?.startedAt ? Date.now() - rec.startedAt : Date.now() - st.mtimeMs`:
     * one age, the mtime's judgement (visit_reads) already reports it */
    TSNode stmt = n;
    while (!ts_node_is_null(stmt) && !lf_tree_is(stmt, "lexical_declaration") &&
           !lf_tree_is(stmt, "variable_declaration") && !lf_tree_is(stmt, "expression_statement") &&
           !lf_tree_is(stmt, "return_statement") && !lf_tree_is(stmt, "if_statement"))
        stmt = lf_ts_parent(stmt);
    if (!ts_node_is_null(stmt) && !lf_tree_is(stmt, "if_statement") && mentions_mtime(m->src, stmt))
        return LF_WALK_CONTINUE;
    TSNode guard_read = right, tested = comparison_of(m, at, &guard_read);
    if (!ts_node_is_null(tested) && (holder_guarded(m, tested) || age_gates_probe(m, w->l, tested, guard_read) ||
                                     dead_holder_first(m, w->l, tested)))
        return LF_WALK_CONTINUE;
    const lf_source *src = m->src;
    char *what = lf_py_short(src, path);
    char *msg = lf_xasprintf("the lock %s (a lock by its use at line %u) is judged stale by the time recorded in it, "
                             "which its holder never refreshes: a holder that runs long or is merely paused loses it "
                             "to a newcomer, and two holders run at once",
                             what, lf_py_line(src, w->l->keys[k].evidence));
    TSNode judged_at = report_at(m, at);
    lf_ctx_emit_site(w->ctx, judged_at, msg, holder_site(m, w->l, k, tested, guard_read, path),
                     lf302_ts_site_free);
    lf_ctx_witness(w->ctx, lf_wit_stale_age_ts(w->l, judged_at, k));
    free(msg);
    free(what);
    return LF_WALK_SKIP;
}

void lf302_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    walk w = {ctx, m, lf_tslock_build(m)};
    /* every report judges the age of a lock: a module with none needs no walk */
    int any = 0, broken = 0;
    for (size_t i = 0; i < w.l->n_keys; i++) {
        any |= lf_tslock_is_lock(w.l->keys[i].flags);
        broken |= lf_tslock_is_lock(w.l->keys[i].flags) && (w.l->keys[i].flags & LF_TSLOCK_BROKEN);
    }
    if (any)
        visit_reads(&w);
    if (broken) {
        lf_tree_walk(m->root, visit_recorded, &w);
    }
}
