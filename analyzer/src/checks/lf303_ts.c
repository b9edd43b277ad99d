/* LF303 for TS/JS: a `process.kill(pid, 0)` liveness probe read wrongly.
 *  1. Every error read as "dead": the probe sits in a try whose catch gives a
 *     dead verdict (returns false/null/undefined/0, assigns false, or removes
 *     a file), or answers with a boolean the try's success path does not give
 *     (an `isStale` whose catch returns true, a callback handed `false`),
 *     without looking at the error's code: EPERM (the process exists
 *     but belongs to another user) then reads as dead. A catch that tests
 *     `code`/`errno`, names EPERM or ESRCH, or rethrows is never reported.
 *  2. Pid reuse: the probe's pid was read from a file (JSON.parse / parseInt
 *     of a readFile, directly or through the module's functions), its success
 *     is trusted, and nothing in the module reads a process start time
 *     (identifiers and strings, never comments).
 * Either way only a probe whose verdict decides a lock:
 *  - the function that probes, or one of the module's functions that calls
 *    it (three calls up at most, the verdict returned to it), removes,
 *    rewrites, creates or acquires a path the module uses as a lock
 *    (lf_tslock), itself or through its helpers; or the probe, or such a
 *    call, runs in a callback that a function of the module acting on a lock
 *    runs (the verdict is taken under the lock: `withLock(() => { if
 *    (isRunning()) return; spawn() })`);
 *    or one of them calls a module function that acts on a lock;
 *  - or the verdict leaves the module (a function on the way has no caller
 *    in it: code the analysis does not see decides), nothing on the way acts
 *    on a file that is not a lock, and it judges a lock's owner: the module
 *    has a lock, or the pid comes from a record (read from a file, or a
 *    record's `.pid`) in a module that reads records from files.
 * A generic process-status utility of a module without locks, a cleanup of
 * files that are no lock (a registry of pid files swept), a status command, a
 * test waiting for its child judge no lock: whatever they read from EPERM,
 * nobody's lock is broken. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lf303_ts_site.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

typedef struct verdict_walk {
    const lf_source *src;
    lf_tssem *m;
    int dead, reads_code, rethrows;
    int verdict; /* a boolean literal the block gives as its answer: returned, or handed to a callback
                    (`done(null, false)`); 't', 'f', or 0 */
} verdict_walk;

/* A boolean literal: 't', 'f', else 0. */
static int bool_literal(TSNode n) {
    n = lf_tree_unparen(n);
    return lf_tree_is(n, "true") ? 't' : lf_tree_is(n, "false") ? 'f' : 0;
}

/* The verdict a return or a callback call gives, when it is a boolean literal. */
static int verdict_of(TSNode n) {
    if (lf_tree_is(n, "return_statement"))
        return bool_literal(ts_node_named_child(n, 0));
    if (lf_tree_is(n, "call_expression") && lf_tree_is(lf_tree_field(n, "function"), "identifier")) {
        size_t k = lf_tssem_nargs(n);
        for (uint32_t i = 0; i < k && i < 4; i++)
            if (bool_literal(lf_tssem_arg(n, i)))
                return bool_literal(lf_tssem_arg(n, i));
    }
    return 0;
}

static int falsy_literal(const lf_source *src, TSNode n) {
    n = lf_tree_unparen(n);
    return lf_tree_is(n, "false") || lf_tree_is(n, "null") || lf_tree_is(n, "undefined") ||
           lf_tree_text_eq(src, n, "0") || lf_tree_text_eq(src, n, "undefined");
}

/* Is the call one of the module's functions that removes a file (`removePidFile()`,
 * its own removal or a helper's): the catch acting on "dead" as a direct unlink does. */
static int removing_helper(lf_tssem *m, TSNode call) {
    int32_t s = lf_tssem_local_callee(m, call);
    if (s <= 0)
        return 0;
    lf_tslock *l = lf_tslock_build(m);
    for (int32_t e = lf_tslock_first_event(l, s); e >= 0; e = lf_tslock_next_event(l, e))
        if (l->events[e].kind == LF_TSEV_REMOVE)
            return 1;
    return 0;
}

static lf_walk_action visit_catch(TSNode n, void *ud) {
    verdict_walk *w = ud;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "comment") || !strcmp(t, "arrow_function") || !strcmp(t, "function_expression"))
        return LF_WALK_SKIP;
    if (!w->verdict)
        w->verdict = verdict_of(n);
    if (!strcmp(t, "throw_statement")) {
        w->rethrows = 1;
    } else if (!strcmp(t, "return_statement")) {
        TSNode v = ts_node_named_child(n, 0);
        if (ts_node_is_null(v) || falsy_literal(w->src, v))
            w->dead = 1;
    } else if (!strcmp(t, "assignment_expression")) {
        if (falsy_literal(w->src, lf_tree_field(n, "right")))
            w->dead = 1;
    } else if (!strcmp(t, "call_expression")) {
        const char *op = lf_tslock_fs_op(w->m, n);
        if ((op && (!strcmp(op, "rm") || !strcmp(op, "unlink") || !strcmp(op, "rmdir"))) || removing_helper(w->m, n))
            w->dead = 1;
    } else if (!strcmp(t, "property_identifier") || !strcmp(t, "string_fragment") || !strcmp(t, "identifier")) {
        if (lf_tree_text_eq(w->src, n, "code") || lf_tree_text_eq(w->src, n, "errno") ||
            lf_tree_text_eq(w->src, n, "EPERM") || lf_tree_text_eq(w->src, n, "ESRCH"))
            w->reads_code = 1;
    }
    return LF_WALK_CONTINUE;
}

/* Does the node hold a return or throw (outside nested functions)? */
static int leaves_block(TSNode n) {
    lf_tsnode_vec st = {0};
    LF_VEC_PUSH(&st, n);
    int found = 0;
    for (size_t budget = 4096; st.len && budget && !found; budget--) {
        TSNode x = st.items[--st.len];
        if (ts_node_is_null(x) || lf_tree_is(x, "arrow_function") || lf_tree_is(x, "function_expression") ||
            lf_tree_is(x, "function_declaration"))
            continue;
        found = lf_tree_is(x, "return_statement") || lf_tree_is(x, "throw_statement");
        for (uint32_t i = 0; i < ts_node_named_child_count(x); i++)
            LF_VEC_PUSH(&st, ts_node_named_child(x, i));
    }
    LF_VEC_FREE(&st);
    return found;
}

/* A catch that falls through (`try { kill(pid, 0); return } catch { log() }`):
 * the try's success path leaves the function, the catch neither returns nor
 * throws, so the statements after the try run only when the probe failed,
 * whatever its error. They are the dead verdict when they remove a file or
 * return a falsy answer, or answer with a boolean the try's success path does
 * not give (`isStale`: try { kill(pid, 0); return false } catch {} ...
 * return true). The statements following the try are read up through the
 * blocks that fall through to their parent's next statement: an enclosing
 * try's body (its catch is another path) and an if's branches (a loop's body
 * runs again instead). */
static int falls_through_dead(const lf_source *src, lf_tssem *m, TSNode probe, TSNode handler) {
    TSNode try_stmt = lf_ts_parent(handler);
    TSNode try_body = lf_tree_field(try_stmt, "body");
    if (!leaves_block(try_body) || leaves_block(lf_tree_field(handler, "body")))
        return 0;
    (void)probe;
    verdict_walk w = {src, m, 0, 0, 0, 0};
    TSNode cur = try_stmt;
    for (int up = 0; up < 8 && !w.dead && !w.verdict; up++) {
        for (TSNode x = ts_node_next_named_sibling(cur); !ts_node_is_null(x); x = ts_node_next_named_sibling(x))
            lf_tree_walk(x, visit_catch, &w);
        if (w.dead || w.verdict)
            break;
        TSNode block = lf_ts_parent(cur), outer = lf_ts_parent(block);
        if (lf_tree_is(outer, "else_clause"))
            outer = lf_ts_parent(outer);
        int from_try_body = lf_tree_is(outer, "try_statement") && ts_node_eq(lf_tree_field(outer, "body"), block);
        if (!lf_tree_is(block, "statement_block") || (!from_try_body && !lf_tree_is(outer, "if_statement")))
            break;
        cur = outer;
    }
    if (!w.dead && w.verdict) {
        verdict_walk tw = {src, m, 0, 0, 0, 0};
        lf_tree_walk(try_body, visit_catch, &tw);
        w.dead = tw.verdict && tw.verdict != w.verdict;
    }
    return w.dead && !w.reads_code;
}

void lf303_ts_site_free(void *site) {
    lf303_ts_site *s = site;
    if (s)
        free(s->decline);
    free(s);
}

static lf303_ts_site *site_decline(const char *why) {
    lf303_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->decline = lf_xstrdup(why);
    return s;
}

/* What the fix may rewrite around a probe whose catch reads every error as
 * dead (lf303_ts_site.h). */
/* The probe's own statement wrapped (lf303_ts_site.h, wrap_stmt): the try
 * holds more than the probe, so the catch cannot tell the probe's errors
 * from the others; the probe, alone in its statement, can. */
static lf303_ts_site *wrap_site(TSNode stmt, TSNode fn) {
    lf303_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->wrap_stmt = stmt;
    s->fn = fn;
    return s;
}

static lf303_ts_site *make_site(TSNode call, TSNode handler, TSNode fn) {
    TSNode stmt = lf_ts_parent(call);
    TSNode body = lf_ts_parent(stmt);
    TSNode try_stmt = lf_ts_parent(handler);
    if (!lf_tree_is(stmt, "expression_statement"))
        return site_decline("the probe is part of a larger expression: the fix cannot give EPERM the path a "
                            "successful probe takes");
    if (!ts_node_eq(body, lf_tree_field(try_stmt, "body")) || !ts_node_eq(ts_node_named_child(body, 0), stmt))
        return wrap_site(stmt, fn); /* a read before the probe, a branch around it */
    /* after the probe: nothing, or one return (comments aside) */
    TSNode alive = {0};
    for (TSNode x = ts_node_next_named_sibling(stmt); !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        if (lf_tree_is(x, "comment"))
            continue;
        if (!ts_node_is_null(alive) || !lf_tree_is(x, "return_statement"))
            return wrap_site(stmt, fn); /* more work after it: EPERM goes on along it */
        alive = x;
    }
    TSNode param = lf_tree_field(handler, "parameter");
    if (!ts_node_is_null(param) && !lf_tree_is(param, "identifier"))
        return site_decline("the catch destructures its error");
    TSNode cbody = lf_tree_field(handler, "body");
    if (ts_node_named_child_count(cbody) == 0)
        return site_decline("the catch is empty");
    lf303_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->handler = handler;
    s->param = param;
    s->body = cbody;
    s->alive = alive;
    s->fn = fn;
    return s;
}

/* The catch clause of the try whose body holds the call, within its function. */
static TSNode enclosing_catch(TSNode call, TSNode fn) {
    TSNode cur = call;
    for (int steps = 0; steps < 200; steps++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p) || ts_node_eq(cur, fn))
            break;
        if (lf_tree_is(p, "try_statement") && ts_node_eq(lf_tree_field(p, "body"), cur))
            return lf_tree_field(p, "handler");
        cur = p;
    }
    return (TSNode){0};
}

/* Was the pid read from a file? Follows names, `.pid` of a parsed record,
 * parseInt/Number/JSON.parse, `.toString()`/`.trim()`, and the module's own
 * functions (one that reads a file returns what it read). */
static int pid_from_file_at(lf_tssem *m, TSNode pid, TSNode *read) {
    TSNode cur = pid;
    for (int hop = 0; hop < 16 && !ts_node_is_null(cur); hop++) {
        cur = lf_tssem_resolve_value(m, cur);
        if (lf_tree_is(cur, "identifier")) {
            /* destructured from a record: `const [pidStr, ts] = content.split(":")`,
             * `const { pid } = JSON.parse(raw)` */
            char *name = lf_tree_text(m->src, cur);
            const lf_tsbinding *b = lf_tssem_binding_at(m, lf_tssem_scope_of(m, cur),
                                                        lf_tssem_intern(m, name, strlen(name)), ts_node_start_byte(cur));
            free(name);
            if (!b || b->kind != LF_TSBIND_VAR || !b->member || ts_node_is_null(b->value))
                return 0;
            cur = b->value;
            continue;
        }
        if (lf_tree_is(cur, "member_expression")) {
            cur = lf_tree_field(cur, "object");
            continue;
        }
        if (lf_tree_is(cur, "subscript_expression")) {
            cur = lf_tree_field(cur, "object");
            continue;
        }
        if (!lf_tree_is(cur, "call_expression"))
            return 0;
        const char *op = lf_tslock_fs_op(m, cur);
        if (op && (!strcmp(op, "readFile") || !strcmp(op, "readJson"))) {
            *read = cur;
            return 1;
        }
        const char *q = lf_tssem_callee(m, cur);
        if (q && (!strcmp(q, "JSON.parse") || !strcmp(q, "parseInt") || !strcmp(q, "Number") ||
                  !strcmp(q, "Number.parseInt") || !strcmp(q, "parseFloat"))) {
            cur = lf_tssem_arg(cur, 0);
            continue;
        }
        TSNode fn = lf_tree_field(cur, "function");
        if (lf_tree_is(fn, "member_expression")) { /* s.toString().trim() */
            cur = lf_tree_field(fn, "object");
            continue;
        }
        int32_t s = lf_tssem_local_callee(m, cur);
        if (s > 0) {
            for (size_t i = 0; i < m->n_calls; i++) {
                if (lf_tslock_fn_of(m, m->calls[i].scope) != s)
                    continue;
                const char *o = lf_tslock_fs_op(m, m->calls[i].node);
                if (o && (!strcmp(o, "readFile") || !strcmp(o, "readJson"))) {
                    *read = m->calls[i].node;
                    return 1;
                }
            }
        }
        return 0;
    }
    return 0;
}

static int pid_from_file(lf_tssem *m, TSNode pid) {
    TSNode read = {0};
    return pid_from_file_at(m, pid, &read);
}

typedef struct start_walk {
    const lf_source *src;
    int found;
} start_walk;

static lf_walk_action visit_start(TSNode n, void *ud) {
    start_walk *w = ud;
    const char *t = ts_node_type(n);
    if (!strcmp(t, "comment"))
        return LF_WALK_SKIP;
    if (strcmp(t, "identifier") && strcmp(t, "property_identifier") && strcmp(t, "string_fragment") &&
        strcmp(t, "shorthand_property_identifier") && strcmp(t, "shorthand_property_identifier_pattern"))
        return LF_WALK_CONTINUE;
    /* letters only, lower-cased: startTime, start_time, STARTED_AT, lstart, /proc/<pid>/stat */
    char buf[128];
    size_t k = 0;
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    for (uint32_t i = a; i < b && k + 1 < sizeof buf; i++)
        if (isalpha((unsigned char)w->src->text[i]) || w->src->text[i] == '/')
            buf[k++] = (char)tolower((unsigned char)w->src->text[i]);
    buf[k] = '\0';
    if (strstr(buf, "starttime") || strstr(buf, "startedat") || strstr(buf, "lstart") || strstr(buf, "boottime") ||
        strstr(buf, "proc/") || (strstr(buf, "/stat") && !strstr(buf, "/status")))
        w->found = 1;
    return w->found ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

enum { ACTS_LOCK = 1, ACTS_OTHER = 2 };

/* What declared function fn does to files: ACTS_LOCK when it removes,
 * rewrites, creates or acquires a key the module uses as a lock (its helpers'
 * actions count: the lock model moves them to the call), or takes a lock
 * library's lock; ACTS_OTHER when it does so to a file that is no lock. */
static unsigned acts_on(const lf_tslock *l, int32_t fn) {
    unsigned acts = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->fn != fn || (e->kind != LF_TSEV_REMOVE && e->kind != LF_TSEV_OVERWRITE &&
                            e->kind != LF_TSEV_CREATE && e->kind != LF_TSEV_ACQUIRE))
            continue;
        if (e->key < 0)
            acts |= e->kind == LF_TSEV_ACQUIRE ? ACTS_LOCK : 0u;
        else
            acts |= lf_tslock_is_lock(l->keys[e->key].flags) ? ACTS_LOCK : ACTS_OTHER;
    }
    return acts;
}

static int module_has_lock(const lf_tslock *l) {
    for (size_t i = 0; i < l->n_keys; i++)
        if (lf_tslock_is_lock(l->keys[i].flags))
            return 1;
    return 0;
}

#define DECIDE_MAX 32 /* functions visited up the callers */

static int pid_from_file(lf_tssem *m, TSNode pid);

/* Is the node inside a callback that one of the module's functions acting on
 * a lock runs (`withStartupLock(async () => { if (await isRunning()) ... })`):
 * a verdict taken under the lock, deciding what the holder does? */
static int under_lock_callback(lf_tssem *m, const lf_tslock *l, TSNode n) {
    TSNode cur = n;
    for (int steps = 0; steps < 64; steps++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p))
            return 0;
        if ((lf_tree_is(cur, "arrow_function") || lf_tree_is(cur, "function_expression")) &&
            lf_tree_is(p, "arguments")) {
            TSNode call = lf_ts_parent(p);
            int32_t h = lf_tree_is(call, "call_expression") ? lf_tssem_local_callee(m, call) : -1;
            if (h > 0 && (acts_on(l, h) & ACTS_LOCK))
                return 1;
        }
        if (lf_tree_is(p, "function_declaration") || lf_tree_is(p, "method_definition") ||
            lf_tree_is(p, "class_body") || lf_tree_is(p, "program"))
            return 0; /* out of the declared function */
        cur = p;
    }
    return 0;
}

/* Does a module function that fn calls act on a lock (`acquire()` calling
 * `this._tryAcquire()` and `this.release()`)? */
static int helpers_act_on_lock(lf_tssem *m, const lf_tslock *l, int32_t fn) {
    if (fn < 0 || (size_t)fn >= m->n_scopes)
        return 0;
    for (int32_t c = m->scopes[fn].first_call; c >= 0; c = m->calls[c].next_in_fn) {
        int32_t h = lf_tssem_local_callee(m, m->calls[c].node);
        if (h > 0 && h != fn && (acts_on(l, h) & ACTS_LOCK))
            return 1;
    }
    return 0;
}

/* A pid taken from a record: read from a file, or an object's `.pid`. */
static int record_pid(lf_tssem *m, TSNode pid) {
    TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, lf_tssem_unwrap(pid)));
    if (lf_tree_is(v, "member_expression") && lf_tree_text_eq(m->src, lf_tree_field(v, "property"), "pid"))
        return 1;
    return pid_from_file(m, pid);
}

/* Does the module read a file's content anywhere (a record)? */
static int module_reads(const lf_tslock *l) {
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_JUDGE && l->events[i].content)
            return 1;
    return 0;
}

/* Does the module read a pid file: a record read from a path that holds a
 * pid, or one whose name or reading function says pid (`readPid(pidPath)`)?
 * An exported liveness probe beside it judges the pids those files hold. */
static int module_reads_pid(lf_tssem *m, const lf_tslock *l) {
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->kind != LF_TSEV_JUDGE || !e->content)
            continue;
        if (e->key >= 0 && ((l->keys[e->key].flags & LF_TSLOCK_PID) || strcasestr(l->keys[e->key].key, "pid")))
            return 1;
        const char *fn = e->fn >= 0 ? m->scopes[e->fn].name : NULL;
        if (fn && strcasestr(fn, "pid"))
            return 1;
    }
    return 0;
}

/* Does the probe's verdict decide a lock? Breadth first from its function up
 * through the module's callers (three levels, a bounded set): one of them
 * acts on a lock, itself or through a helper it calls, or a call on the way
 * runs in a callback a lock-taking function runs. Otherwise the verdict
 * decides a lock only when it leaves the module (a function on the way has
 * no caller here), nothing on the way acts on a file that is no lock, and it
 * is about a lock's owner: the module has a lock, or the pid comes from a
 * record (read from a file, or a record's `.pid`) in a module that reads
 * records, or the module reads pid files (module_reads_pid). */
static int pid_from_file_at(lf_tssem *m, TSNode pid, TSNode *read);

/* The key of the file a pid expression was read from, added to out (at most
 * DECIDE_MAX, no repeats). */
static void pidfile_of(lf_tssem *m, TSNode pid, const char **out, size_t *n) {
    TSNode read = {0};
    if (*n >= DECIDE_MAX || !pid_from_file_at(m, pid, &read))
        return;
    const char *k = lf_tssem_path_key(m, lf_tssem_arg(read, 0));
    for (size_t i = 0; k && i < *n; i++)
        if (out[i] == k)
            return;
    if (k)
        out[(*n)++] = k;
}

/* Does function fn remove (itself or through its helpers) a file the probed
 * pid was read from, a fixed path of the module (not one built from the
 * function's locals: a directory entry of a swept registry is a record, not
 * what keeps a second process out)? The verdict then decides the removal of
 * a daemon's pid file: read as dead on EPERM, a live daemon's record is
 * deleted and a second one is started beside it. */
static int removes_pidfile(const lf_tslock *l, int32_t fn, const char *const *pidfile, size_t n) {
    for (size_t i = 0; i < l->n_events && n; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->fn != fn || e->kind != LF_TSEV_REMOVE || e->key < 0 || (l->keys[e->key].flags & LF_TSLOCK_PKG) ||
            !strncmp(l->keys[e->key].key, "expr@", 5))
            continue;
        for (size_t j = 0; j < n; j++)
            if (l->keys[e->key].key == pidfile[j])
                return 1;
    }
    return 0;
}

/* The call of an array method (filter, map, some, every, find, forEach, ...)
 * that function node fn is the callback of, or null. Array methods run their
 * callback at once and hand what it returns to the caller's code. */
static TSNode array_callback_call(lf_tssem *m, TSNode fn) {
    static const char *const methods[] = {"filter", "map", "flatMap", "some", "every", "find", "findIndex",
                                          "findLast", "findLastIndex", "forEach", "reduce", "reduceRight", NULL};
    TSNode args = lf_ts_parent(fn);
    if (!(lf_tree_is(fn, "arrow_function") || lf_tree_is(fn, "function_expression")) ||
        !lf_tree_is(args, "arguments"))
        return (TSNode){0};
    TSNode call = lf_ts_parent(args);
    TSNode f = lf_tree_field(call, "function");
    if (!lf_tree_is(call, "call_expression") || !lf_tree_is(f, "member_expression"))
        return (TSNode){0};
    TSNode prop = lf_tree_field(f, "property");
    for (size_t i = 0; methods[i]; i++)
        if (lf_tree_text_eq(m->src, prop, methods[i]))
            return call;
    return (TSNode){0};
}

static int decides_lock(lf_tssem *m, TSNode probe) {
    const lf_tslock *l = lf_tslock_build(m);
    const lf_tscall *pc = lf_tssem_call(m, probe);
    if (!pc)
        return 0;
    int32_t seen[DECIDE_MAX];
    int depth[DECIDE_MAX];
    size_t n = 0;
    seen[n] = lf_tslock_fn_of(m, pc->scope);
    depth[n++] = 0;
    if (under_lock_callback(m, l, probe))
        return 1;
    int record = record_pid(m, lf_tssem_arg(probe, 0)), other = 0, leaves = 0;
    const char *pidfile[DECIDE_MAX]; /* the files the probed pid was read from */
    size_t n_pidfile = 0;
    pidfile_of(m, lf_tssem_arg(probe, 0), pidfile, &n_pidfile);
    for (size_t i = 0; i < n; i++) {
        unsigned acts = acts_on(l, seen[i]);
        if ((acts & ACTS_LOCK) || helpers_act_on_lock(m, l, seen[i]) ||
            removes_pidfile(l, seen[i], pidfile, n_pidfile))
            return 1;
        other |= (acts & ACTS_OTHER) != 0;
        if (seen[i] <= 0)
            continue;
        int32_t c = lf_tssem_first_caller(m, seen[i]);
        if (c < 0) {
            /* a callback of an array method (`pids.filter((p) => isAlive(p))`)
             * returns its verdict to the code that makes the call: go on from there */
            TSNode at = array_callback_call(m, m->scopes[seen[i]].node);
            int32_t f = ts_node_is_null(at) ? -1 : lf_tslock_fn_of(m, lf_tssem_scope_of(m, at));
            int dup = ts_node_is_null(at) || n >= DECIDE_MAX || depth[i] >= 3;
            for (size_t j = 0; j < n && !dup; j++)
                dup = seen[j] == f;
            if (ts_node_is_null(at))
                leaves = 1;
            else if (!dup) {
                seen[n] = f;
                depth[n++] = depth[i] + 1;
            }
            continue;
        }
        if (depth[i] >= 3)
            continue;
        for (; c >= 0 && n < DECIDE_MAX; c = lf_tssem_next_caller(m, c)) {
            TSNode call = m->calls[c].node;
            if (under_lock_callback(m, l, call))
                return 1;
            for (uint32_t a = 0; a < lf_tssem_nargs(call) && a < 4 && !record; a++)
                record = record_pid(m, lf_tssem_arg(call, a));
            for (uint32_t a = 0; a < lf_tssem_nargs(call) && a < 4; a++)
                pidfile_of(m, lf_tssem_arg(call, a), pidfile, &n_pidfile);
            int32_t f = lf_tslock_fn_of(m, m->calls[c].scope);
            int dup = 0;
            for (size_t j = 0; j < n && !dup; j++)
                dup = seen[j] == f;
            if (!dup) {
                seen[n] = f;
                depth[n++] = depth[i] + 1;
            }
        }
    }
    /* a liveness helper handed its pid (`isPidRunning(pid)`) beside a pid-file
     * reader: its verdict is about the pids those files hold */
    TSNode arg = lf_tssem_unwrap(lf_tssem_arg(probe, 0));
    int param_pid = 0;
    if (lf_tree_is(arg, "identifier")) {
        char *name = lf_tree_text(m->src, arg);
        const lf_tsbinding *b = lf_tssem_binding_at(m, pc->scope, lf_tssem_intern(m, name, strlen(name)),
                                                    ts_node_start_byte(arg));
        param_pid = b && b->kind == LF_TSBIND_PARAM;
        free(name);
    }
    return leaves && !other &&
           (module_has_lock(l) || ((record || (param_pid && module_reads_pid(m, l))) && module_reads(l)));
}

/* Is the key a lock or a pid file the module keeps? */
/* Does the probe trust a pid read from a file, in a module that never looks
 * at a process's start time? *start_time caches the module-wide search (-1:
 * not searched yet). */
static int trusts_reused_pid(lf_tssem *m, const lf_source *src, TSNode probe, int *start_time) {
    if (!pid_from_file(m, lf_tssem_arg(probe, 0)))
        return 0;
    if (*start_time < 0) {
        start_walk sw = {src, 0};
        lf_tree_walk(m->root, visit_start, &sw);
        *start_time = sw.found;
    }
    return !*start_time;
}

/* The fix for a probe trusting a pid read from a file: the probe becomes
 * killProbeSync(pid, FILE) when FILE, the path the pid was read from, can be
 * named again at the probe. */
static lf303_ts_site *reuse_site(lf_tssem *m, TSNode probe) {
    TSNode read = {0};
    if (!pid_from_file_at(m, lf_tssem_arg(probe, 0), &read) || ts_node_is_null(read))
        return site_decline("the pid's file is not read where the fix can see it");
    TSNode file = lf_tssem_arg(read, 0);
    if (ts_node_is_null(file) || !lf_ts_nameable_at(m, file, probe))
        return site_decline("the pid is read from a file whose path the probe cannot name again (a parameter of "
                            "another function, a computed path): the fix compares the process's start with that "
                            "file's last write");
    if (lf_tssem_nargs(probe) != 2)
        return site_decline("the probe passes more than a pid and signal 0");
    lf303_ts_site *s = lf_xcalloc(1, sizeof *s);
    s->reuse = 1;
    s->probe = probe;
    s->file = lf_tssem_unwrap(file);
    return s;
}

/* Did the probe's function signal the same pid before it (`process.kill(pid,
 * "SIGTERM")`, or no signal: SIGTERM)? Then the probe waits for a process it
 * has just told to exit: it judges no lock's owner (as in Python,
 * checks/lf303_liveness.c). */
static int waits_for_signalled(lf_tssem *m, size_t probe) {
    const lf_tscall *p = &m->calls[probe];
    TSNode pid = lf_tssem_unwrap(lf_tssem_arg(p->node, 0));
    int32_t fn = lf_tslock_fn_of(m, p->scope);
    if (ts_node_is_null(pid))
        return 0;
    for (size_t i = 0; i < probe; i++) {
        const lf_tscall *c = &m->calls[i];
        if (!c->callee || strcmp(c->callee, "process.kill") != 0 || lf_tslock_fn_of(m, c->scope) != fn ||
            ts_node_start_byte(c->node) >= ts_node_start_byte(p->node))
            continue;
        TSNode sig = lf_tssem_unwrap(lf_tssem_arg(c->node, 1));
        TSNode other = lf_tssem_unwrap(lf_tssem_arg(c->node, 0));
        if ((ts_node_is_null(sig) || !lf_tssem_signal_zero(m->src, sig)) && !ts_node_is_null(other) &&
            lf_tree_equal(m->src, other, m->src, pid, 0))
            return 1;
    }
    return 0;
}

void lf303_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    int start_time = -1; /* computed once, on the first probe that needs it */
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_tscall *c = &m->calls[i];
        int fixed_probe = c->callee && !strcmp(c->callee, "./lockrt.cjs.killProbeSync");
        if (!fixed_probe && (!c->callee || strcmp(c->callee, "process.kill") != 0 ||
                             !lf_tssem_signal_zero(src, lf_tssem_arg(c->node, 1))))
            continue;
        if (!decides_lock(m, c->node))
            continue; /* a verdict no lock depends on */
        if (waits_for_signalled(m, i))
            continue; /* waiting for a process it has just stopped to exit */
        TSNode fn = lf_ts_fn_node(m, c->node);
        TSNode handler = enclosing_catch(c->node, fn);
        char *call = lf_py_short(src, c->node);
        if (!ts_node_is_null(handler)) {
            verdict_walk w = {src, m, 0, 0, 0, 0};
            lf_tree_walk(lf_tree_field(handler, "body"), visit_catch, &w);
            /* a catch answering with a boolean the try's own success path
             * does not give (`isStale`: catch { return true }; callback
             * style: try { done(null, true) } catch { done(null, false) })
             * is the "dead" answer too */
            int other = 0, falls = 0;
            if (!w.dead && !w.verdict && !w.reads_code && !w.rethrows && falls_through_dead(src, m, c->node, handler)) {
                w.dead = 1;
                falls = 1;
            }
            if (!w.dead && w.verdict) {
                verdict_walk tw = {src, m, 0, 0, 0, 0};
                TSNode try_body = lf_tree_field(lf_ts_parent(handler), "body");
                lf_tree_walk(try_body, visit_catch, &tw);
                other = tw.verdict != w.verdict;
            }
            if ((w.dead || other) && !w.reads_code && !w.rethrows) {
                /* The same probe may also trust a reused pid: say so now,
                 * since that finding only shows once this one is fixed. */
                int reuse = !fixed_probe && trusts_reused_pid(m, src, c->node, &start_time);
                lf303_ts_site *site = falls ? site_decline("the catch falls through to the code after the try, "
                                                           "which acts on the verdict: the fix cannot give EPERM "
                                                           "the path a successful probe takes")
                                      : w.dead ? make_site(c->node, handler, fn)
                                               : site_decline("the catch answers with a verdict the fix does not "
                                                              "rewrite (a `true` or a callback's argument)");
                /* the same fix swaps the probe for one that reads a reused pid as
                 * gone, when it can: both in one run */
                if (reuse && !site->decline) {
                    lf303_ts_site *r = reuse_site(m, c->node);
                    if (!r->decline) {
                        site->reuse = 1;
                        site->probe = r->probe;
                        site->file = r->file;
                    }
                    lf303_ts_site_free(r);
                }
                char *msg = lf_xasprintf("%s: the catch on line %u reads every error as \"dead\", but EPERM means "
                                         "the process exists and belongs to another user: its lock is then broken "
                                         "while it is held (tell ESRCH from EPERM through the error's code)%s",
                                         call, lf_py_line(src, handler),
                                         !reuse         ? ""
                                         : site->reuse ? "; it also trusts a reused pid (no start-time check)"
                                                       : "; it also trusts a reused pid (no start-time check), "
                                                         "reported once this is fixed");
                lf_ctx_emit_site(ctx, c->node, msg, site, lf303_ts_site_free);
                lf_ctx_witness(ctx, lf_wit_eperm(src, c->node, handler));
                free(msg);
                free(call);
                continue;
            }
        }
        if (!fixed_probe && trusts_reused_pid(m, src, c->node, &start_time)) {
            char *msg = lf_xasprintf("%s trusts a pid read from a file: after its owner exits the pid can be "
                                     "reused by an unrelated process, which then reads as the live owner and the "
                                     "lock is never reclaimed (compare the process start time recorded with the pid)",
                                     call);
            lf_ctx_emit_site(ctx, c->node, msg, reuse_site(m, c->node), lf303_ts_site_free);
            lf_ctx_witness(ctx, lf_wit_pid_reuse(src, c->node));
            free(msg);
        }
        free(call);
    }
}
