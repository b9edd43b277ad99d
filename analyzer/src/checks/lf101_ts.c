/* LF101 for TS/JS: an acquisition whose failure is swallowed, so the work
 * runs unlocked (on lf_tslock: locks by use).
 *
 * Reported at the catch clause when:
 *  - a try body in function F takes a lock: an exclusive create of a lock
 *    (`wx`, mkdir, O_EXCL), a call into a lock library or one of the module's
 *    lock helpers, or the write of the owner record of a lock the module
 *    judges;
 *  - its catch swallows the failure: the catch neither throws, returns, exits
 *    the process, nor tells errors apart (`e.code === 'EEXIST'`: contention
 *    handled on purpose);
 *  - the try is not inside a loop of F (a retry);
 *  - work follows: statements after the try in F, or, when F is a helper that
 *    ends with the try, callers that go on after calling it (or none in the
 *    module: F is exported).
 * Also reported: a lock helper that hands its caller the release where it
 * took the lock and a release that does nothing where it gave up waiting
 * (`return async () => {}`), at that no-op return.
 * One finding per function. No fix: what the code should do when the lock
 * cannot be taken (wait, fail, skip) is the owner's choice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lf101_site.h"
#include "lf_cfg.h"
#include "lf_tscfg.h"
#include "lf_ts.h"
#include "lf_tree.h"
#include "lf_tsgate.h"
#include "lf_util.h"
#include "lf_witness_build.h"

#define MAX_CLIMB 64 /* syntax levels climbed from an acquisition to its try */

static int is_loop_node(TSNode n) {
    return lf_tree_is(n, "for_statement") || lf_tree_is(n, "for_in_statement") || lf_tree_is(n, "while_statement") ||
           lf_tree_is(n, "do_statement");
}

/* The innermost try whose body holds n, within n's function, or null; null
 * too when a loop of that function holds the try (a retry loop). */
static TSNode acquiring_try(TSNode n) {
    TSNode none = {0}, found = {0};
    TSNode prev = n;
    TSNode cur = lf_ts_parent(n);
    for (int k = 0; k < MAX_CLIMB && !ts_node_is_null(cur); k++, prev = cur, cur = lf_ts_parent(cur)) {
        if (lf_tssem_is_function_node(cur))
            return found;
        if (ts_node_is_null(found) && lf_tree_is(cur, "try_statement") &&
            ts_node_eq(lf_tree_field(cur, "body"), prev))
            found = cur;
        else if (!ts_node_is_null(found) && is_loop_node(cur))
            return none;
    }
    return ts_node_is_null(cur) ? found : none;
}

typedef struct catch_scan {
    const lf_source *src;
    int decides;
    int returns_go_on; /* a return is no decision (returns_acquired judges it) */
} catch_scan;

static lf_walk_action visit_catch(TSNode n, void *ud) {
    catch_scan *c = ud;
    if (lf_tssem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "throw_statement") || (lf_tree_is(n, "return_statement") && !c->returns_go_on)) {
        c->decides = 1;
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "call_expression")) {
        TSNode f = lf_tree_field(n, "function");
        if (lf_tree_text_eq(c->src, f, "process.exit") || lf_tree_text_eq(c->src, f, "process.abort")) {
            c->decides = 1;
            return LF_WALK_STOP;
        }
    }
    if (lf_tree_is(n, "member_expression") &&
        (lf_tree_text_eq(c->src, lf_tree_field(n, "property"), "code") ||
         lf_tree_text_eq(c->src, lf_tree_field(n, "property"), "errno"))) {
        c->decides = 1; /* tells errors apart: contention handled on purpose */
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Does the catch hand the error it caught on (`cb(err)`, `reject(err)`,
 * `done(err)`), other than to a logger? Then the failure is reported. */
typedef struct hand_on {
    const lf_source *src;
    TSNode param;
    int found;
} hand_on;

static lf_walk_action visit_hand_on(TSNode n, void *ud) {
    hand_on *h = ud;
    if (!lf_tree_is(n, "call_expression"))
        return LF_WALK_CONTINUE;
    TSNode f = lf_tree_field(n, "function");
    TSNode obj = lf_tree_is(f, "member_expression") ? lf_tree_field(f, "object") : f;
    static const char *const loggers[] = {"console", "log", "logger", "debug", NULL};
    for (size_t i = 0; loggers[i]; i++)
        if (lf_tree_text_eq(h->src, obj, loggers[i]))
            return LF_WALK_SKIP;
    TSNode args = lf_tree_field(n, "arguments");
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        char *name = lf_tree_text(h->src, h->param);
        int hit = lf_tree_mentions(h->src, a, name, NULL);
        free(name);
        if (hit && !lf_tree_is(a, "template_string") && !lf_tree_is(a, "binary_expression")) {
            h->found = 1;
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* Does the catch clause go on as if nothing failed? With returns_go_on, a
 * return counts as going on too (what it returns is asked separately). */
static int swallows(const lf_source *src, TSNode handler, int returns_go_on) {
    if (ts_node_is_null(handler))
        return 0;
    catch_scan c = {src, 0, returns_go_on};
    lf_tree_walk(lf_tree_field(handler, "body"), visit_catch, &c);
    if (c.decides || lf_ts_text_has(src, handler, "EEXIST"))
        return 0;
    TSNode param = lf_tree_field(handler, "parameter");
    if (lf_tree_is(param, "identifier")) {
        hand_on h = {src, param, 0};
        lf_tree_walk(lf_tree_field(handler, "body"), visit_hand_on, &h);
        if (h.found)
            return 0;
    }
    return 1;
}

typedef struct return_scan {
    const lf_source *src;
    TSNode want; /* a returned value to find; null: collect the first */
    TSNode found;
    lf_tslock *l; /* with want: skip a return after a take of key in `within` */
    int32_t key;
    TSNode within;
} return_scan;

/* Does the lock get taken again (a create, rewrite or library take of key)
 * inside `within` before `at`? A handler's `return true` after its own
 * retake (`catch { ...break the stale lock...; writeFileSync(p, t, { flag:
 * "wx" }); return true; }`) reports a lock it holds. */
static int retaken_before(lf_tslock *l, int32_t key, TSNode within, TSNode at) {
    if (!l)
        return 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *r = &l->events[i];
        if ((r->kind == LF_TSEV_CREATE || r->kind == LF_TSEV_OVERWRITE || r->kind == LF_TSEV_ACQUIRE) &&
            r->key == key && lf_ts_within(r->node, within) && ts_node_end_byte(r->node) <= ts_node_start_byte(at))
            return 1;
    }
    /* a create the model keeps no event for (its failure unhandled: it
     * throws out of the handler), of the same path */
    lf_tssem *m = l->m;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (!lf_ts_within(c, within) || ts_node_end_byte(c) > ts_node_start_byte(at))
            continue;
        const char *op = lf_tslock_fs_op(m, c);
        TSNode p = {0};
        if (op && (!strcmp(op, "symlink") || !strcmp(op, "link")))
            p = lf_tssem_arg(c, 1); /* the link made: its second argument */
        else if (op && (!strcmp(op, "mkdir") || !strcmp(op, "writeFile") || !strcmp(op, "open")))
            p = lf_tssem_arg(c, 0);
        if (!ts_node_is_null(p) && lf_tslock_key_index(l, p) == key)
            return 1;
    }
    return 0;
}

static lf_walk_action visit_return_value(TSNode n, void *ud) {
    return_scan *r = ud;
    if (lf_tssem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "return_statement"))
        return LF_WALK_CONTINUE;
    TSNode v = ts_node_named_child_count(n) ? lf_tssem_unwrap(ts_node_named_child(n, 0)) : (TSNode){0};
    if (ts_node_is_null(v) || lf_tree_is(v, "false") || lf_tree_is(v, "null") || lf_tree_is(v, "undefined"))
        return LF_WALK_CONTINUE;
    if (ts_node_is_null(r->want)) {
        r->found = v;
        return LF_WALK_STOP;
    }
    if (lf_tree_same_text(r->src, v, r->want) && !retaken_before(r->l, r->key, r->within, n)) {
        r->found = v;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Does the catch of an acquiring try return what the try returns once it has
 * taken the lock (`return true; // Proceed anyway on error` beside the try's
 * `return true`)? The failure then reads as the success to every caller:
 * their checks of the result cannot tell, and they go on unlocked. */
static int returns_acquired(const lf_source *src, lf_tslock *l, int32_t key, TSNode tr, TSNode handler) {
    if (ts_node_is_null(handler))
        return 0;
    return_scan ok;
    memset(&ok, 0, sizeof ok);
    ok.src = src;
    lf_tree_walk(lf_tree_field(tr, "body"), visit_return_value, &ok);
    if (ts_node_is_null(ok.found))
        return 0;
    return_scan bad;
    memset(&bad, 0, sizeof bad);
    bad.src = src;
    bad.want = ok.found;
    bad.l = l;
    bad.key = key;
    bad.within = handler;
    lf_tree_walk(lf_tree_field(handler, "body"), visit_return_value, &bad);
    return !ts_node_is_null(bad.found);
}

/* The next named statement after `st` in its block, or null. */
static TSNode next_statement(TSNode st) {
    for (TSNode s = ts_node_next_named_sibling(st); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
        if (!lf_tree_is(s, "comment"))
            return s;
    TSNode none = {0};
    return none;
}

/* The module's calls by the name they spell (`f()`, `x.f()`: f), sorted by
 * that name then source order, built on first use: caller_going_on asks it
 * once per helper, where a walk of every call per helper grew with helpers
 * times calls. */
typedef struct spelled_call {
    const char *name;
    uint32_t len, call;
} spelled_call;

typedef struct spelled_index {
    spelled_call *items;
    size_t n;
    int built;
} spelled_index;

static int spelled_order(const void *pa, const void *pb) {
    const spelled_call *a = pa, *b = pb;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    int c = memcmp(a->name, b->name, a->len);
    if (c)
        return c;
    return a->call < b->call ? -1 : a->call > b->call;
}

static void spelled_build(lf_tssem *m, spelled_index *ix) {
    ix->built = 1;
    ix->items = lf_xcalloc(m->n_calls ? m->n_calls : 1, sizeof *ix->items);
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode f = lf_tree_field(m->calls[i].node, "function");
        if (lf_tree_is(f, "member_expression"))
            f = lf_tree_field(f, "property");
        if (ts_node_is_null(f))
            continue;
        uint32_t a = ts_node_start_byte(f), b = ts_node_end_byte(f);
        ix->items[ix->n++] = (spelled_call){m->src->text + a, b - a, (uint32_t)i};
    }
    qsort(ix->items, ix->n, sizeof *ix->items, spelled_order);
}

/* The first entry spelling `name`, or ix->n. */
static size_t spelled_first(const spelled_index *ix, const char *name) {
    spelled_call key = {name, (uint32_t)strlen(name), 0};
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (spelled_order(&ix->items[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A statement of the module calling F by name (`acquireLock();`,
 * `await acquireLock();`) that more work follows: the first one, or null.
 * *calls counts every call of F by name. When F's result lies (its failure
 * returns what its success does), a caller keeping the result goes on too. */
static TSNode caller_going_on(lf_tssem *m, spelled_index *ix, int32_t fn, size_t *calls, int result_lies) {
    TSNode none = {0};
    *calls = 0;
    const char *name = m->scopes[fn].name;
    if (!name || !*name)
        return none;
    if (!ix->built)
        spelled_build(m, ix);
    size_t len = strlen(name);
    for (size_t k = spelled_first(ix, name); k < ix->n && ix->items[k].len == len &&
                                             memcmp(ix->items[k].name, name, len) == 0;
         k++) {
        size_t i = ix->items[k].call;
        TSNode call = m->calls[i].node;
        if (lf_tssem_scope_within(m, m->calls[i].scope, fn))
            continue;
        (*calls)++;
        TSNode st = lf_ts_parent(call);
        if (lf_tree_is(st, "await_expression"))
            st = lf_ts_parent(st);
        if (result_lies) {
            /* `if (!acquire()) return;`: the check passes on the failure */
            TSNode up = st;
            while (lf_tree_is(up, "unary_expression") || lf_tree_is(up, "parenthesized_expression"))
                up = lf_ts_parent(up);
            if (lf_tree_is(up, "if_statement") && lf_tssem_leaves(lf_tree_field(up, "consequence")) &&
                ts_node_is_null(lf_tree_field(up, "alternative")))
                st = up;
        }
        if (result_lies && lf_tree_is(st, "variable_declarator")) {
            /* `const ok = await acquire(); if (!ok) return;`: the check
             * passes on the failure too; the work is what follows it */
            st = lf_ts_parent(st);
            TSNode check = next_statement(st);
            if (lf_tree_is(check, "if_statement") && lf_tssem_leaves(lf_tree_field(check, "consequence")))
                st = check;
        } else if (!lf_tree_is(st, "expression_statement") && !(result_lies && lf_tree_is(st, "if_statement"))) {
            continue; /* its result is used: the caller may check it (a lying one passes `if (!f()) return;`) */
        }
        TSNode next = next_statement(st);
        if (!ts_node_is_null(next))
            return next;
    }
    return none;
}

/* Does the write (`writeFile(p, data)`) write back what the read bound
 * (`const info = await readInfo(p)`): does the written data read the name
 * the read's result is declared as (`JSON.stringify(info)`, `{ info }`)? */
static int writes_back_read(lf_tssem *m, TSNode read, TSNode write) {
    static const char *const uses[] = {"identifier", "shorthand_property_identifier", NULL};
    TSNode up = ts_node_parent(read);
    if (lf_tree_is(up, "await_expression"))
        up = ts_node_parent(up);
    TSNode name = lf_tree_is(up, "variable_declarator") ? lf_tree_field(up, "name") : (TSNode){0};
    TSNode data = lf_tssem_arg(write, 1);
    if (!lf_tree_is(name, "identifier") || ts_node_is_null(data))
        return 0;
    char *n = lf_tree_text(m->src, name);
    int found = lf_tree_mentions(m->src, data, n, uses);
    free(n);
    return found;
}

/* Does the event take a lock? A call into a lock library or lock helper; an
 * exclusive create of a path the module uses as a lock (it holds a pid, or
 * the module judges and breaks it), not a unique temp opened `wx`; the
 * rewrite of a lock the module breaks (a takeover), not the write of an
 * informational pid file. */
static int acquires(const lf_tslock *l, const lf_tslock_event *e) {
    if (e->kind == LF_TSEV_ACQUIRE)
        return 1;
    if (e->key < 0 || !lf_tslock_is_lock(l->keys[e->key].flags))
        return 0;
    unsigned f = l->keys[e->key].flags;
    unsigned broken = LF_TSLOCK_BROKEN | LF_TSLOCK_BREAKABLE;
    if (e->kind == LF_TSEV_CREATE)
        return (f & (broken | LF_TSLOCK_PID | LF_TSLOCK_HELPER)) != 0;
    if (e->kind != LF_TSEV_OVERWRITE || !(f & broken))
        return 0;
    /* a takeover: the same function judged the lock before rewriting it (a
     * write of the owner record into a lock already taken is no acquisition;
     * nor is writing back the record it read, one field changed: `info =
     * await readInfo(); info.lastAccess = now; writeFile(p, info)`) */
    for (const lf_tslock_event *j = l->events; j < e; j++)
        if (j->fn == e->fn && (j->kind == LF_TSEV_JUDGE || j->kind == LF_TSEV_PROBE) && j->key == e->key &&
            !(j->kind == LF_TSEV_JUDGE && writes_back_read(l->m, j->node, e->node)))
            return 1;
    return 0;
}

/* ---- the gate: could this text hold an acquisition? ----
 *
 * The check starts only at an event acquires() takes: a lock library's call
 * (lockfile, proper-lockfile, async-lock, lockrt), an exclusive create (a
 * `wx`/`ax` flag, O_EXCL, mkdir, link, symlink), or the rewrite of a lock
 * (writeFile, open). A helper's events are its callee's, spelled in the same
 * module. The prefilter's "lock" also passes every `block` and `Clock` of a
 * bundle, and "pid" every `rapid`. */
static int gate_on_name(const char *s, size_t n, void *ud) {
    static const char *const ops[] = {"link", "linkSync", "symlink", "symlinkSync", "open", "openSync", NULL};
    (void)ud;
    return lf_tsgate_run_is_any(s, n, ops);
}

int lf101_ts_gate(const char *text, size_t len) {
    static const char *const words[] = {"lockfile", "lockrt", "async-lock", "mkdir", "O_EXCL", "writeFile",
                                        "'wx",      "\"wx",   "`wx",        "'ax",   "\"ax",   "`ax",
                                        NULL};
    return lf_tsgate_has_any(text, len, words) || lf_tsgate_each_name(text, len, gate_on_name, NULL);
}

/* Can the function of the acquisition `e` (in try `tr`) complete normally
 * after that acquisition failed, without taking the lock again first? The
 * catch's state (a failed take) flows through the function's graph and a
 * later take of the same lock ends it (`catch {}`, then judge the holder and
 * either throw or break the lock and create it again): a normal return with
 * that state still on is the unlocked fallback. */
static int completes_without_retake(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *e, TSNode tr,
                                    TSNode handler) {
    TSNode fn = m->scopes[e->fn].node;
    lf_cfg *g = lf_tscfg_build(m->src, fn);
    size_t n = lf_cfg_size(g);
    int nested = 0;
    int32_t at = lf_cfg_find(g, handler);
    if (at < 0) {
        lf_cfg_free(g);
        return 1; /* no evidence against */
    }
    uint64_t *gen = lf_xcalloc(n, sizeof *gen), *kill = lf_xcalloc(n, sizeof *kill);
    gen[at] = 1;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *r = &l->events[i];
        if (r->fn != e->fn || r == e || (r->kind != LF_TSEV_CREATE && r->kind != LF_TSEV_ACQUIRE) ||
            r->key != e->key || ts_node_start_byte(r->node) < ts_node_end_byte(tr))
            continue;
        int32_t id = lf_tscfg_node_of(g, fn, r->node, &nested);
        if (id >= 0 && !nested)
            kill[id] = 1;
    }
    lf_cfg_lockstate st;
    lf_cfg_lockstate_run(g, gen, kill, 0, &st);
    int found = 0;
    for (uint32_t v = 0; v < n && !found; v++) {
        const lf_cfg_node *nd = lf_cfg_node_at(g, v);
        if (v == LF_CFG_EXIT_ID || !st.reachable[v] || lf_tree_is(nd->stmt, "throw_statement"))
            continue;
        uint64_t out = (st.may_in[v] | gen[v]) & ~kill[v];
        const lf_cfg_edge *ed = lf_cfg_edges_of(g, v);
        for (uint32_t k = 0; k < nd->n_succ && !found; k++)
            found = ed[k].to == LF_CFG_EXIT_ID && !ed[k].exceptional && (out & 1u);
    }
    lf_cfg_lockstate_free(&st);
    free(gen);
    free(kill);
    lf_cfg_free(g);
    return found;
}

/* A TS/JS site, which the Python rewrite never fixes, declined for `why`. */
static lf101_site *declined_site(const char *why) {
    lf101_site *s = lf_xcalloc(1, sizeof *s);
    s->kind = LF101_LOCK_OTHER;
    s->decline = lf_xstrdup(why);
    s->region_first = s->region_last = s->body_first = s->body_last = s->pre_first = s->pre_last = -1;
    s->copy_first = -1;
    return s;
}

/* A function expression (`async () => {}`, `function () {}`) whose body
 * does nothing: a release that releases nothing. */
static int noop_function(TSNode v) {
    if (!lf_tree_is(v, "arrow_function") && !lf_tree_is(v, "function_expression") && !lf_tree_is(v, "function"))
        return 0;
    TSNode body = lf_tree_field(v, "body");
    if (!lf_tree_is(body, "statement_block"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
        if (!lf_tree_is(ts_node_named_child(body, i), "comment"))
            return 0;
    return 1;
}

typedef struct release_returns {
    TSNode noop;    /* the first `return () => {}` of the function */
    int releasing;  /* it also returns a function that does something: its release */
} release_returns;

static lf_walk_action visit_returns(TSNode n, void *ud) {
    release_returns *r = ud;
    if (lf_tssem_is_function_node(n))
        return LF_WALK_SKIP;
    if (!lf_tree_is(n, "return_statement") || !ts_node_named_child_count(n))
        return LF_WALK_CONTINUE;
    TSNode v = ts_node_named_child(n, 0);
    while (lf_tree_is(v, "parenthesized_expression") && ts_node_named_child_count(v))
        v = ts_node_named_child(v, 0);
    if (noop_function(v)) {
        if (ts_node_is_null(r->noop))
            r->noop = n;
    } else if (lf_tree_is(v, "arrow_function") || lf_tree_is(v, "function_expression")) {
        r->releasing = 1;
    }
    return LF_WALK_SKIP;
}

/* The no-op stand-in of a lock helper's release: a function that takes a
 * lock and hands its caller the release (`return async () => { await
 * rmdir(lockDir) }`) and, on another way out (the wait's deadline passed,
 * "proceed without lock"), hands it a release that does nothing (`return
 * async () => {}`). The caller cannot tell the two apart, so its critical
 * section runs unlocked. The no-op return, or null. */
static TSNode noop_release_return(lf_tssem *m, int32_t fn) {
    TSNode body = lf_tree_field(m->scopes[fn].node, "body");
    release_returns r;
    memset(&r, 0, sizeof r);
    if (lf_tree_is(body, "statement_block"))
        lf_tree_walk(body, visit_returns, &r);
    return r.releasing ? r.noop : (TSNode){0};
}

/* The statement after the first call of fn in the module (`const release =
 * await lockFile(p);` then its try: the work the release was for), or
 * `otherwise` when no caller is in this file. */
static TSNode first_work_after_call(lf_tssem *m, int32_t fn, TSNode otherwise) {
    int32_t c = lf_tssem_first_caller(m, fn);
    if (c < 0)
        return otherwise;
    TSNode st = m->calls[c].node;
    while (!ts_node_is_null(st) && !lf_tree_is(lf_ts_parent(st), "statement_block") && !lf_tssem_is_function_node(st))
        st = lf_ts_parent(st);
    TSNode next = ts_node_is_null(st) || lf_tssem_is_function_node(st) ? (TSNode){0} : next_statement(st);
    return ts_node_is_null(next) ? otherwise : next;
}

/* Reports the no-op stand-in release of function fn, whose acquisition is
 * `take`, where its callers (or those of other modules: it is exported) go
 * on to their work. */
static void report_noop_release(lf_check_ctx *ctx, lf_tssem *m, int32_t fn, TSNode take, spelled_index *spelled) {
    TSNode ret = noop_release_return(m, fn);
    if (ts_node_is_null(ret))
        return;
    size_t calls = 0;
    (void)caller_going_on(m, spelled, fn, &calls, 0);
    /* `export function f`, or `export const f = async () => {...}` (the
     * arrow's declarator, its declaration, then the export) */
    int exported = 0;
    TSNode up = m->scopes[fn].node;
    for (int k = 0; k < 3 && !exported && !ts_node_is_null(up = lf_ts_parent(up)); k++)
        exported = lf_tree_is(up, "export_statement");
    if (!calls && !exported)
        return;
    const char *name = m->scopes[fn].name && *m->scopes[fn].name ? m->scopes[fn].name : "the function";
    char *msg = lf_xasprintf("the critical section is reachable without the lock: `%s()` hands its caller a release "
                             "that does nothing here, where it did not take the lock, as if it held it (it returns "
                             "a real release where it did): the caller's work runs unlocked, on every platform, "
                             "whenever the lock cannot be taken in time",
                             name);
    lf101_site *s = declined_site("the helper chose to go on without the lock; whether to wait longer, fail or skip "
                                  "the work is the code owner's choice");
    lf_ctx_emit_site(ctx, ret, msg, s, lf101_site_free);
    /* the wait that gives up: the retry loop around the take, if any */
    TSNode wait = ret;
    for (TSNode t = lf_ts_parent(take); !ts_node_is_null(t) && !lf_tssem_is_function_node(t); t = lf_ts_parent(t))
        if (is_loop_node(t)) {
            wait = t;
            break;
        }
    lf_ctx_witness(ctx, lf_wit_noop_release(m->src, wait, ret, first_work_after_call(m, fn, ret)));
    free(msg);
}

/* Emits an unlocked fallback at `at` (msg and entry are freed here), declined
 * for `why`, with the witness of two processes entering at `entry_node` and
 * running `first` together. */
static void report_fallback(lf_check_ctx *ctx, lf_tssem *m, TSNode at, char *msg, const char *why,
                            const char *platform, TSNode entry_node, char *entry, TSNode first) {
    lf_ctx_emit_site(ctx, at, msg, declined_site(why), lf101_site_free);
    lf_ctx_witness(ctx, lf_wit_unlocked_section(m->src, platform, LF_WIT_ACQUIRE_FAILS, entry_node, entry, first));
    free(entry);
    free(msg);
}

/* ---- a wait that gives up, then takes the lock anyway ---- */

/* The statement of its block that `n` is in, or null. */
static TSNode block_statement(TSNode n) {
    for (TSNode up = n; !ts_node_is_null(up) && !lf_tssem_is_function_node(up); up = lf_ts_parent(up)) {
        TSNode p = lf_ts_parent(up);
        if (lf_tree_is(p, "statement_block") || lf_tree_is(p, "program"))
            return up;
    }
    return (TSNode){0};
}

/* Is there a look at key k (a JUDGE event) inside n? */
static int looks_at(const lf_tslock *l, int32_t k, TSNode n) { return lf_tslock_event_within(l, LF_TSEV_JUDGE, k, n); }

/* `while (existsSync(lock) && waited < maxWait) { ... }` then
 * `writeFileSync(lock, pid)`: the wait for the lock to go away also ends at
 * its deadline, with the lock still there, and nothing after the loop asks
 * which; the write then takes over whatever holder is inside, and the work
 * runs beside it. Reported at the loop's condition, once per function. */
static void find_giveup_overwrite(lf_check_ctx *ctx, lf_tssem *m, lf_tslock *l, unsigned char *done) {
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->kind != LF_TSEV_OVERWRITE || e->via_helper || e->fn <= 0 || done[e->fn] || e->key < 0 ||
            !lf_tslock_is_lock(l->keys[e->key].flags))
            continue;
        TSNode st = block_statement(e->node);
        TSNode loop = {0};
        for (TSNode p = ts_node_prev_named_sibling(st); !ts_node_is_null(p); p = ts_node_prev_named_sibling(p)) {
            if (lf_tree_is(p, "while_statement") || lf_tree_is(p, "for_statement") ||
                lf_tree_is(p, "do_statement")) {
                loop = p;
                break;
            }
            if (looks_at(l, e->key, p) || lf_tssem_leaves(p))
                break; /* asked again after the wait, or may leave: not this shape */
        }
        TSNode cond = lf_tssem_unwrap(lf_tree_field(loop, "condition"));
        if (!lf_tree_is(cond, "binary_expression") || !lf_tree_text_eq(m->src, lf_tree_field(cond, "operator"), "&&"))
            continue;
        TSNode left = lf_tree_field(cond, "left"), right = lf_tree_field(cond, "right");
        int waits_on_lock = looks_at(l, e->key, left) != looks_at(l, e->key, right);
        if (!waits_on_lock || lf_tslock_loop_breaks(loop))
            continue; /* a break is a way out the code chose; the wait's end is then asked there */
        done[e->fn] = 1;
        const char *name = m->scopes[e->fn].name && *m->scopes[e->fn].name ? m->scopes[e->fn].name : "the function";
        TSNode work = next_statement(st);
        char *msg = lf_xasprintf("the critical section is reachable without the lock: the wait in `%s()` also ends "
                                 "at its limit with the lock still held, and nothing after it asks which ended it, "
                                 "so line %u writes the lock over its holder and the work runs beside it: unlocked "
                                 "on every platform, whenever a holder keeps the lock longer than the wait",
                                 name, ts_node_start_point(e->node).row + 1);
        report_fallback(ctx, m, cond, msg,
                        "what the code should do when the wait runs out (fail, skip, wait longer) is the code "
                        "owner's choice",
                        "on every platform, whenever the wait runs out", loop,
                        lf_xasprintf("waits in `%s()` until the limit, the lock still held", name),
                        ts_node_is_null(work) ? e->node : work);
    }
}

void lf101_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    lf_tslock *l = lf_tslock_build(m);
    unsigned char *done = lf_xcalloc(m->n_scopes + 1, 1);
    spelled_index spelled = {0};
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->fn <= 0 || done[e->fn] || !acquires(l, e))
            continue;
        if (!ts_node_is_null(noop_release_return(m, e->fn))) {
            done[e->fn] = 1;
            report_noop_release(ctx, m, e->fn, e->node, &spelled);
            continue;
        }
        TSNode tr = acquiring_try(e->node);
        if (ts_node_is_null(tr))
            continue;
        TSNode handler = lf_tree_field(tr, "handler");
        /* a catch that tells no errors apart and returns what the taken
         * lock returns goes on too, as far as its callers can tell */
        int lies = !swallows(m->src, handler, 0) && swallows(m->src, handler, 1) &&
                   returns_acquired(m->src, l, e->key, tr, handler);
        if ((!lies && !swallows(m->src, handler, 0)) || !ts_node_is_null(lf_tree_field(tr, "finalizer")))
            continue;
        if (!completes_without_retake(m, l, e, tr, handler))
            continue; /* every way on from the failure takes the lock again, or leaves by a throw */
        TSNode work = next_statement(tr);
        size_t calls = 0;
        int helper = ts_node_is_null(work);
        if (helper) {
            work = caller_going_on(m, &spelled, e->fn, &calls, lies);
            if (ts_node_is_null(work) && calls)
                continue; /* every caller stops after it, or checks what it returns */
        }
        done[e->fn] = 1;
        const char *name = m->scopes[e->fn].name && *m->scopes[e->fn].name ? m->scopes[e->fn].name : "the function";
        char *sect = ts_node_is_null(work) ? lf_xstrdup("the work of its callers in other modules runs unlocked")
                                           : lf_xasprintf("the work at line %u runs unlocked",
                                                          ts_node_start_point(work).row + 1);
        char *msg = lf_xasprintf("the critical section is reachable without the lock: `%s()` goes on as if it held "
                                 "the lock when taking it fails, since this catch %s, so %s: "
                                 "unlocked on every platform, whenever taking the lock fails",
                                 name,
                                 lies ? "returns what a taken lock returns, and its callers' checks pass"
                                      : "swallows the error",
                                 sect);
        report_fallback(ctx, m, handler, msg,
                        "the catch decides what a failed acquisition means; what the code should do without the "
                        "lock (wait, fail, skip) is the code owner's choice",
                        "on every platform, whenever taking the lock fails", handler,
                        lf_xasprintf("fails to take the lock in `%s()`, and the catch goes on", name),
                        ts_node_is_null(work) ? handler : work);
        free(sect);
    }
    find_giveup_overwrite(ctx, m, l, done);
    free(spelled.items);
    free(done);
}
