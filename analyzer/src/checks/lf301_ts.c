/* LF301 for TS/JS: a lock path removed by name with no identity check binding
 * the removal to the lock that was judged (on lf_tslock: locks by use).
 * Reported, unless the function reads the lock's inode identity (.ino/.dev):
 *  - a removal (rm, rmSync, unlink, rmdir, promises.rm, rimraf, an injected
 *    options.fs.rmdir, or a rename of the lock away) after a pid probe in
 *    the same function: two breakers that both judged the owner dead race,
 *    and the slower deletes the lock the faster has just taken;
 *  - a removal after looking at the lock (stat, exists, mtime): a stale
 *    takeover by name deletes whatever is there by then;
 *  - a release, or a removal after a separate read-compare of the owner
 *    token, of a lock the module breaks: a holder paused past that judgement
 *    (or whose lock two breakers raced for) deletes its successor's lock.
 *    An owner-checked release (`if (rec.pid === process.pid) rm(lock)`:
 *    lf_tsowner.h) only where the module breaks the lock on existence or
 *    age alone: where it breaks it only after judging its holder dead, a
 *    live holder's lock cannot change hands before the removal.
 * Package-manager lock files never count; removals through the module's own
 * helpers are reported at the call of the helper, unless the removal inside
 * the helper is reported itself (one finding per root bug), and a call is
 * not a new judgement of the lock. Not reported either: the rollback of this
 * process's own create, when the very next step of acquiring it (writing the
 * owner record into it, probing its mtime: file operations, or calls handed
 * the lock) fails: nobody can have judged and retaken a lock made a moment
 * ago; nor a removal after the function sent the owner a real signal
 * (`process.kill(pid, "SIGTERM")`: a stop command's cleanup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf301_ts_site.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_tscfg.h"
#include "lf_util.h"
#include "lf_witness_build.h"

/* Distinct paths the module's calls hand to the helper parameter `pk`
 * (removal events moved up to its callers), up to 2; a parameter handed on
 * is not a path of its own. */
static int handed_paths(const lf_tslock *l, int32_t pk) {
    int32_t first = -1;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        /* a caller's own parameter hands on what its callers give it (the
         * same lock, `tryAcquireLock(lockPath)` -> `releaseLock(lockPath)`) */
        if (e->kind != LF_TSEV_REMOVE || !e->via_helper || e->helper_key != pk || e->key < 0 ||
            !strncmp(l->keys[e->key].key, "param:", 6))
            continue;
        if (first < 0)
            first = e->key;
        else if (e->key != first)
            return 2;
    }
    return first < 0 ? 0 : 1;
}

/* A file helper's parameter (`deleteFile(filename)`) that the module hands
 * several different paths: each removal's root bug is at the call that
 * removes that lock, not in the helper every path shares. */
static int generic_param(const lf_tslock *l, int32_t k) {
    return k >= 0 && !strncmp(l->keys[k].key, "param:", 6) && handed_paths(l, k) > 1;
}

/* Is the removal inside a helper whose parameter is `pk` reported there (a
 * release helper of one lock the module breaks, `releaseLock(lockPath)`)?
 * Then its callers' calls are the same root bug. */
static int reported_inside(const lf_tslock *l, int32_t pk) {
    unsigned f = l->keys[pk].flags;
    return lf_tslock_is_lock(f) && (f & LF_TSLOCK_BREAKABLE) && !generic_param(l, pk);
}

/* Is every call inside n part of acquiring the lock key k: a file-system
 * operation, or a call handed the lock (an argument naming k, or a path
 * joined onto it)? A critical section (`fn()`, `work()`) is not. */
static int acquiring_steps(lf_tssem *m, TSNode n, const char *k) {
    int any = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (!lf_ts_within(c, n))
            continue;
        any = 1;
        if (lf_tslock_fs_op(m, c))
            continue;
        const char *q = m->calls[i].callee;
        if (q && (!strcmp(q, "path.join") || !strcmp(q, "path.resolve") || !strcmp(q, "JSON.stringify") ||
                  !strcmp(q, "Date.now") || !strcmp(q, "String")))
            continue;
        if (q && !strcmp(q, LF301_TS_VENDOR_MODULE ".killProbeSync"))
            return 0; /* a pid probe handed the lock (LF303's fix): a judgement of it, not a step of taking it */
        TSNode callee = lf_tree_field(c, "function");
        TSNode prop = lf_tree_is(callee, "member_expression") ? lf_tree_field(callee, "property") : (TSNode){0};
        if (lf_tree_text_eq(m->src, prop, "toISOString") || lf_tree_text_eq(m->src, prop, "toString"))
            continue; /* formatting the record: `new Date().toISOString()` */
        int handed = 0;
        for (uint32_t a = 0; a < lf_tssem_nargs(c) && a < 8 && !handed; a++)
            handed = lf_tssem_path_key(m, lf_tssem_arg(c, a)) == k;
        /* `.write()`/`.close()` of a handle a file operation returned */
        TSNode f = lf_tree_field(c, "function");
        TSNode obj = lf_tree_is(f, "member_expression")
                         ? lf_tssem_unwrap(lf_tssem_resolve_value(m, lf_tree_field(f, "object")))
                         : (TSNode){0};
        if (!handed && !(lf_tree_is(obj, "call_expression") && lf_tslock_fs_op(m, obj)))
            return 0;
    }
    return any;
}

/* The function (arrow or function expression) around n, below `stop`; null. */
static TSNode inner_fn(TSNode n, TSNode stop) {
    for (TSNode cur = lf_ts_parent(n); !ts_node_is_null(cur) && !ts_node_eq(cur, stop); cur = lf_ts_parent(cur))
        if (lf_tree_is(cur, "arrow_function") || lf_tree_is(cur, "function_expression"))
            return cur;
    return (TSNode){0};
}

/* Is the node in the branch an error-first callback takes on its error
 * (`(err) => { if (err) { <n> } }`), that callback being handed to a call of
 * an acquiring step? The callback is returned through *cb. */
static int in_error_branch(lf_tssem *m, TSNode n, TSNode stop, TSNode *cb) {
    TSNode f = inner_fn(n, stop);
    if (ts_node_is_null(f))
        return 0;
    TSNode params = lf_tree_field(f, "parameters");
    TSNode first = ts_node_is_null(params) ? lf_tree_field(f, "parameter") : ts_node_named_child(params, 0);
    if (lf_tree_is(first, "required_parameter") || lf_tree_is(first, "optional_parameter"))
        first = lf_tree_field(first, "pattern");
    if (!lf_tree_is(first, "identifier"))
        return 0;
    for (TSNode cur = n; !ts_node_eq(cur, f); cur = lf_ts_parent(cur)) {
        TSNode p = lf_ts_parent(cur);
        if (lf_tree_is(p, "if_statement") && ts_node_eq(lf_tree_field(p, "consequence"), cur)) {
            TSNode c = lf_tssem_unwrap(lf_tree_field(p, "condition"));
            uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(first);
            if (lf_tree_is(c, "identifier") && ts_node_end_byte(c) - ts_node_start_byte(c) == b - a &&
                !memcmp(m->src->text + ts_node_start_byte(c), m->src->text + a, b - a)) {
                *cb = f;
                return 1;
            }
        }
    }
    return 0;
}

/* The name a create's result is assigned to (`fd = fs.openSync(...)`,
 * `const h = await open(...)`), or a null node. */
static TSNode result_name(TSNode create) {
    TSNode cur = create;
    for (int up = 0; up < 4; up++) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p))
            break;
        if (lf_tree_is(p, "assignment_expression") && ts_node_eq(lf_tssem_unwrap(lf_tree_field(p, "right")),
                                                                  lf_tssem_unwrap(create)))
            return lf_tree_is(lf_tree_field(p, "left"), "identifier") ? lf_tree_field(p, "left") : (TSNode){0};
        if (lf_tree_is(p, "variable_declarator"))
            return lf_tree_is(lf_tree_field(p, "name"), "identifier") ? lf_tree_field(p, "name") : (TSNode){0};
        if (!lf_tree_is(p, "await_expression") && !lf_tree_is(p, "parenthesized_expression"))
            break;
        cur = p;
    }
    return (TSNode){0};
}

/* Is the removal, inside the catch clause `clause`, under an if whose
 * condition tests the name the create's result went to: the create
 * succeeded, and the next step failed? */
static int guarded_by_result(lf_tssem *m, TSNode create, TSNode removal, TSNode clause) {
    TSNode name = result_name(create);
    if (ts_node_is_null(name))
        return 0;
    uint32_t a = ts_node_start_byte(name), len = ts_node_end_byte(name) - a;
    for (TSNode cur = removal; !ts_node_eq(cur, clause);) {
        TSNode p = lf_ts_parent(cur);
        if (ts_node_is_null(p))
            return 0;
        if (lf_tree_is(p, "if_statement") && ts_node_eq(lf_tree_field(p, "consequence"), cur)) {
            lf_tsnode_vec ids = {0};
            LF_VEC_PUSH(&ids, lf_tree_field(p, "condition"));
            int hit = 0;
            for (size_t budget = 64; ids.len && budget && !hit; budget--) {
                TSNode x = ids.items[--ids.len];
                if (lf_tree_is(x, "identifier") && ts_node_end_byte(x) - ts_node_start_byte(x) == len &&
                    !memcmp(m->src->text + ts_node_start_byte(x), m->src->text + a, len))
                    hit = 1;
                for (uint32_t i = 0; i < ts_node_named_child_count(x); i++)
                    LF_VEC_PUSH(&ids, ts_node_named_child(x, i));
            }
            LF_VEC_FREE(&ids);
            if (hit)
                return 1;
        }
        cur = p;
    }
    return 0;
}

static int is_function_like(TSNode n) { return lf_tssem_is_function_node(n) || lf_tree_is(n, "class_body"); }

/* The read of the lock's record when the removal ev is in the catch clause
 * of a try whose block makes it (`try { rec = JSON.parse(readFileSync(p)) }
 * catch { unlinkSync(p) }`), else a null node: the handler takes a failed
 * read for a corrupt lock, and a lock its owner is still writing reads as
 * corrupt, so the removal deletes a live lock, race or no race. */
static TSNode failed_read_before(const lf_tslock *l, const lf_tslock_event *ev) {
    TSNode none = {0};
    if (ev->kind != LF_TSEV_REMOVE || ev->via_helper || ev->key < 0)
        return none;
    TSNode handler = lf_tree_enclosing(ev->node, "catch_clause", is_function_like);
    if (ts_node_is_null(handler))
        return none;
    TSNode body = lf_tree_field(ts_node_parent(handler), "body");
    if (ts_node_is_null(body))
        return none;
    TSNode read = none;
    for (size_t j = 0; j < l->n_events; j++) {
        const lf_tslock_event *r = &l->events[j];
        if (r->fn != ev->fn || !lf_tree_within(r->node, body) ||
            !lf_tree_runs_in(r->node, body, is_function_like))
            continue;
        if (r->kind == LF_TSEV_PROBE)
            return none; /* the catch is (also) the probe's verdict: the owner judged dead */
        if (ts_node_is_null(read) && r->kind == LF_TSEV_JUDGE && r->content && !r->via_helper && r->key == ev->key)
            read = r->node;
    }
    return read;
}

/* Is the removal made while its function holds a resource lock on the same
 * path, taken before it and not let go before it (`const release = await
 * lock(p)`, ..., `await unlink(p); await release()`)? proper-lockfile's lock
 * is `${p}.lock`: `p` itself is the document it guards, removed under it by
 * the holder, and no one else holds that lock meanwhile. */
static int under_resource_lock(lf_tssem *m, lf_tslock *l, const lf_tslock_event *ev) {
    uint32_t at = ts_node_start_byte(ev->node);
    for (int32_t e = lf_tslock_first_event(l, ev->fn); e >= 0; e = lf_tslock_next_event(l, e)) {
        const lf_tslock_event *a = &l->events[e];
        if (ts_node_start_byte(a->node) >= at)
            break;
        if (a->kind != LF_TSEV_ACQUIRE || a->key >= 0 || ts_node_is_null(a->target) ||
            lf_tslock_key_index(l, a->target) != ev->key)
            continue;
        /* the name its release is bound to (`const release = await lock(p)`) */
        TSNode up = ts_node_parent(a->node);
        if (lf_tree_is(up, "await_expression"))
            up = ts_node_parent(up);
        TSNode name = lf_tree_is(up, "variable_declarator") ? lf_tree_field(up, "name") : (TSNode){0};
        if (!lf_tree_is(name, "identifier"))
            continue;
        int released = 0;
        for (size_t i = 0; i < m->n_calls && !released; i++) {
            TSNode c = m->calls[i].node;
            uint32_t s = ts_node_start_byte(c);
            if (s <= ts_node_end_byte(a->node) || s >= at)
                continue;
            TSNode fn = lf_tssem_unwrap(lf_tree_field(c, "function"));
            const char *callee = m->calls[i].callee;
            released = (lf_tree_is(fn, "identifier") && lf_tree_equal(m->src, fn, m->src, name, 0)) ||
                       (callee && (!strcmp(callee, "proper-lockfile.unlock") ||
                                   !strcmp(callee, "proper-lockfile.unlockSync")));
        }
        if (!released)
            return 1;
    }
    return 0;
}

/* Is the removal ev the rollback of this process's own create of the same
 * lock, when the next step of acquiring it fails (see the top)? Two forms:
 *  - `mkdir(lock); try { writeOwner(join(lock, "owner")) } catch { rmdir(lock); throw }`:
 *    the create before the try, the try only acquiring steps;
 *  - `fd = openSync(lock, O_EXCL); write(fd, owner) } catch { if (fd !== null) rm(lock) }`:
 *    the create in the try, the removal under a test of its result;
 *  - `mkdir(lock, (err) => { if (!err) probe(lock, (e) => { if (e) rmdir(lock) }) })`:
 *    the removal in the error branch of a callback handed to an acquiring
 *    step inside the create's own callback. */
static int rollback_of_create(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev) {
    if (ev->via_helper || ev->key < 0)
        return 0;
    const char *k = l->keys[ev->key].key;
    TSNode fn = lf_ts_fn_node(m, ev->node);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind != LF_TSEV_CREATE || c->key != ev->key || c->fn != ev->fn || c->via_helper ||
            ts_node_start_byte(c->node) >= ts_node_start_byte(ev->node))
            continue;
        /* try form: the removal in a catch whose try follows the create */
        for (TSNode cur = ev->node; !ts_node_eq(cur, fn);) {
            TSNode p = lf_ts_parent(cur);
            if (ts_node_is_null(p))
                break;
            if (lf_tree_is(cur, "catch_clause") && lf_tree_is(p, "try_statement")) {
                TSNode body = lf_tree_field(p, "body");
                if (!lf_ts_within(c->node, p) && ts_node_end_byte(c->node) <= ts_node_start_byte(p) &&
                    inner_fn(c->node, fn).id == inner_fn(p, fn).id && acquiring_steps(m, body, k))
                    return 1;
                /* guarded form: the create in the try, the removal under a
                 * test that the create returned (`fd = openSync(lock, O_EXCL);
                 * write(fd) } catch { if (fd !== null) rmSync(lock) }`) */
                if (lf_ts_within(c->node, body) && inner_fn(c->node, fn).id == inner_fn(p, fn).id &&
                    guarded_by_result(m, c->node, ev->node, cur) && acquiring_steps(m, body, k))
                    return 1;
                break;
            }
            cur = p;
        }
        /* callback form */
        TSNode cb;
        if (!in_error_branch(m, ev->node, fn, &cb))
            continue;
        TSNode step = lf_ts_parent(lf_ts_parent(cb)); /* cb -> arguments -> call */
        if (!lf_tree_is(step, "call_expression") || ts_node_eq(step, c->node))
            continue;
        for (uint32_t a = 0; a < lf_tssem_nargs(c->node); a++) {
            TSNode done = lf_tssem_arg(c->node, a);
            if ((lf_tree_is(done, "arrow_function") || lf_tree_is(done, "function_expression")) &&
                lf_ts_within(step, done) && !ts_node_eq(cb, done)) {
                /* the step itself (its callback aside) only acquires */
                int handed = 0;
                for (uint32_t j = 0; j < lf_tssem_nargs(step) && j < 8 && !handed; j++)
                    handed = lf_tssem_path_key(m, lf_tssem_arg(step, j)) == k;
                if (handed || lf_tslock_fs_op(m, step))
                    return 1;
            }
        }
    }
    return 0;
}

/* The module's own helper a via-helper removal event was moved up from: its
 * direct removal of the same key, when it is reported there (judged in the
 * helper, or a release of a lock the module breaks). */
static int reported_in_helper(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev) {
    int32_t h = lf_tssem_local_callee(m, ev->node);
    if (h <= 0)
        return 0;
    unsigned f = l->keys[ev->key].flags;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *d = &l->events[i];
        if (d->kind != LF_TSEV_REMOVE || d->via_helper || d->key != ev->key || d->fn != h)
            continue;
        if (d->judged == LF_TSJUDGED_LIVENESS || d->judged == LF_TSJUDGED_PRESENCE ||
            (f & (LF_TSLOCK_BROKEN_LIVE | LF_TSLOCK_BREAKABLE)))
            return !rollback_of_create(m, l, d);
    }
    return 0;
}

/* Is the probing helper call p handed a pid out of what its own function read
 * of the lock `key` (`const data = readPidfile(); if (!isPidAlive(data.pid))`)? */
static int probes_record_of(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *p, int32_t key) {
    TSNode a = lf_tssem_unwrap(lf_tssem_arg(p->node, 0));
    for (int hops = 0; hops < 4 && lf_tree_is(a, "member_expression"); hops++)
        a = lf_tssem_unwrap(lf_tree_field(a, "object"));
    if (!lf_tree_is(a, "identifier"))
        return 0;
    TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, a));
    if (ts_node_is_null(v) || ts_node_eq(v, a))
        return 0;
    /* through the parse of what was read (`info = JSON.parse(content)`,
     * `content = await fs.readFile(lock, "utf-8")`), a few names deep */
    static const char *const parses[] = {"JSON.parse", "parseInt", "Number", "parseFloat", NULL};
    for (int hops = 0; hops < 4 && !ts_node_is_null(v); hops++) {
        for (size_t j = 0; j < l->n_events; j++) {
            const lf_tslock_event *r = &l->events[j];
            if (r->kind == LF_TSEV_JUDGE && r->content && r->fn == p->fn && r->key == key && ts_node_eq(r->node, v))
                return 1;
        }
        if (lf_tree_is(v, "call_expression") && lf_tssem_call_is(m, v, parses))
            v = lf_tssem_unwrap(lf_tssem_arg(v, 0));
        else if (lf_tree_is(v, "identifier")) {
            TSNode next = lf_tssem_unwrap(lf_tssem_resolve_value(m, v));
            v = ts_node_eq(next, v) ? (TSNode){0} : next;
        } else
            break;
    }
    return 0;
}

/* Did a pid probe before the removal ev, in its function, judge this lock's
 * owner: the pid read (where the probe is: here, or in the module's function
 * the probing call reaches) from the lock itself or from a path joined onto
 * it (`path.join(lockDir, "pid")`)? A probe of another file's pid (a daemon's
 * pid file) judges something else. */
static int probe_of_lock(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev) {
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *p = &l->events[i];
        if (p->kind != LF_TSEV_PROBE || p->fn != ev->fn || ts_node_start_byte(p->node) >= ts_node_start_byte(ev->node))
            continue;
        int32_t where = lf_tssem_local_callee(m, p->node);
        if (where <= 0)
            where = p->fn;
        else if (probes_record_of(m, l, p, ev->key))
            return 1;
        for (size_t j = 0; j < l->n_events; j++) {
            const lf_tslock_event *r = &l->events[j];
            if (r->kind != LF_TSEV_JUDGE || !r->content || r->fn != where)
                continue;
            if (r->key == ev->key)
                return 1;
            TSNode v = lf_tssem_unwrap(lf_tssem_resolve_value(m, r->target));
            const char *q = lf_tree_is(v, "call_expression") ? lf_tssem_callee(m, v) : NULL;
            if (q && (!strcmp(q, "path.join") || !strcmp(q, "path.resolve")) &&
                lf_tssem_path_key(m, lf_tssem_arg(v, 0)) == l->keys[ev->key].key)
                return 1;
        }
    }
    return 0;
}

/* Are the removals of the key inside the helper the via-helper removal ev
 * calls all the rollback of the helper's own create (rollback_of_create)? */
static int helper_only_rolls_back(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev) {
    int32_t h = lf_tssem_local_callee(m, ev->node);
    size_t n = 0;
    for (int32_t i = h > 0 ? lf_tslock_first_event((lf_tslock *)l, h) : -1; i >= 0; i = lf_tslock_next_event(l, i)) {
        const lf_tslock_event *d = &l->events[i];
        if (d->kind != LF_TSEV_REMOVE || d->via_helper || d->key != ev->helper_key)
            continue;
        if (!rollback_of_create(m, l, d))
            return 0;
        n++;
    }
    return n > 0;
}

/* A break by quarantine: the lock renamed aside (`renameSync(lockDir,
 * staleDir)`) and, in the same function, renamed back onto the lock path
 * from there (`renameSync(staleDir, lockDir)`, when what was moved aside
 * does not match what was judged). Only a check of the moved object decides
 * its removal, and a lock that changed hands in between is put back: the
 * verification the rule asks for, done after the move instead of before. */
static int quarantine_with_restore(lf_tssem *m, lf_tslock *l, const lf_tslock_event *ev) {
    if (ev->via_helper)
        return 0;
    const char *op = lf_tslock_fs_op(m, ev->node);
    if (!op || strcmp(op, "rename") != 0)
        return 0;
    const char *aside = lf_tssem_path_key(m, lf_tssem_arg(ev->node, 1));
    const char *lock = l->keys[ev->key].key;
    if (!aside || !lock || !strcmp(aside, lock))
        return 0;
    for (int32_t i = m->scopes[ev->fn].first_call; i >= 0; i = m->calls[i].next_in_fn) {
        TSNode c = m->calls[i].node;
        if (ts_node_eq(c, ev->node) || ts_node_start_byte(c) <= ts_node_start_byte(ev->node))
            continue;
        const char *cop = lf_tslock_fs_op(m, c);
        if (cop && !strcmp(cop, "rename") && lf_tssem_path_key(m, lf_tssem_arg(c, 0)) == aside &&
            lf_tssem_path_key(m, lf_tssem_arg(c, 1)) == lock)
            return 1;
    }
    return 0;
}

/* ---- breakers' locks ----
 *
 * A module may serialise its stale takeovers with a second lock that every
 * breaker takes first (`${lock}.breaker`, `.steal`), and judge the lock again
 * once it holds it. A second breaker then waits for (or gives up on) that
 * lock, and judges afresh once it has it: the lock the first breaker's
 * successor took is live by then and stays. Two breakers cannot race. */

/* Is `v` tested by `stmt` so that the function leaves when it is falsy
 * (`if (!v) return ...;`, `if (v === null) throw ...`)? */
static int gives_up_unless(const lf_source *src, TSNode stmt, TSNode v) {
    if (!lf_tree_is(stmt, "if_statement") || !ts_node_is_null(lf_tree_field(stmt, "alternative")))
        return 0;
    TSNode cond = lf_tree_field(stmt, "condition");
    while (lf_tree_is(cond, "parenthesized_expression"))
        cond = ts_node_named_child(cond, 0);
    int tests = 0;
    if (lf_tree_is(cond, "unary_expression")) {
        TSNode arg = lf_tree_field(cond, "argument");
        tests = lf_tree_text_eq(src, lf_tree_field(cond, "operator"), "!") && lf_tree_equal(src, arg, src, v, 0);
    } else if (lf_tree_is(cond, "binary_expression")) {
        TSNode op = lf_tree_field(cond, "operator"), right = lf_tree_field(cond, "right");
        tests = (lf_tree_text_eq(src, op, "===") || lf_tree_text_eq(src, op, "==")) &&
                lf_tree_equal(src, lf_tree_field(cond, "left"), src, v, 0) &&
                (lf_tree_is(right, "null") || lf_tree_is(right, "undefined") || lf_tree_is(right, "false"));
    }
    if (!tests)
        return 0;
    TSNode then = lf_tree_field(stmt, "consequence");
    if (lf_tree_is(then, "statement_block") && ts_node_named_child_count(then) == 1)
        then = ts_node_named_child(then, 0);
    return lf_tree_is(then, "return_statement") || lf_tree_is(then, "throw_statement");
}

/* The graph node after which the create `c` of a lock (a create call, or a
 * call of the module's helper that creates one) has succeeded on every way
 * on: the call's own statement when its failure throws (a direct create, or
 * a helper's called for its effect: the exceptional edge carries what held
 * before it), or the test that gives up when a helper returned a falsy result
 * (`const s = tryTake(); if (!s) return false;`). -1 when neither holds (a
 * callback form, a swallowed failure). */
static int32_t create_done_node(lf_tssem *m, const lf_cfg *g, TSNode fn, TSNode c, int via_helper) {
    int nested = 0;
    int32_t id = lf_tscfg_node_of(g, fn, c, &nested);
    if (id < 0 || nested)
        return -1;
    /* where the call's value goes, past `await` and parentheses */
    TSNode top = c, p = lf_ts_parent(c);
    while (lf_tree_is(p, "await_expression") || lf_tree_is(p, "parenthesized_expression")) {
        top = p;
        p = lf_ts_parent(p);
    }
    if (!via_helper) {
        for (uint32_t a = 0; a < lf_tssem_nargs(c); a++) {
            TSNode arg = lf_tssem_arg(c, a);
            if (lf_tree_is(arg, "arrow_function") || lf_tree_is(arg, "function_expression"))
                return -1; /* the callback form: its failure is an argument */
        }
        if (lf_tree_is(p, "member_expression"))
            return -1; /* `.catch(...)`, `.then(ok, failed)`: the failure is handled there */
        return id;
    }
    if (lf_tree_is(p, "expression_statement"))
        return id;
    /* `if (await tryTake(guard)) { ...; }`: taken in the consequence */
    if (lf_tree_is(p, "if_statement") && ts_node_eq(lf_tree_field(p, "condition"), top)) {
        TSNode first = lf_tree_field(p, "consequence");
        /* the first statement run in it: into blocks and try bodies */
        while (lf_tree_is(first, "statement_block") || lf_tree_is(first, "try_statement")) {
            TSNode block = lf_tree_is(first, "try_statement") ? lf_tree_field(first, "body") : first;
            if (ts_node_is_null(block))
                return -1; /* a try the parser recovered without its body */
            first = ts_node_named_child(block, 0);
            while (lf_tree_is(first, "comment"))
                first = ts_node_next_named_sibling(first);
        }
        if (ts_node_is_null(first))
            return -1;
        int32_t in = lf_tscfg_node_of(g, fn, first, &nested);
        return nested || in == id ? -1 : in;
    }
    /* `const s = tryTake(); if (!s) return false;` */
    TSNode name = result_name(c);
    TSNode stmt = ts_node_is_null(name) ? name : lf_ts_parent(lf_ts_parent(name)); /* past the declarator or = */
    if (!(lf_tree_is(stmt, "lexical_declaration") || lf_tree_is(stmt, "variable_declaration") ||
          lf_tree_is(stmt, "expression_statement")))
        return -1;
    TSNode next = ts_node_next_named_sibling(stmt);
    while (lf_tree_is(next, "comment"))
        next = ts_node_next_named_sibling(next);
    if (!gives_up_unless(m->src, next, name))
        return -1;
    int32_t test = lf_tscfg_node_of(g, fn, next, &nested);
    return nested ? -1 : test;
}

enum { BREAKER_TAKES = 16 };

/* A lock the function takes: its key, and where (a create, or the call of
 * the module's helper that creates it). */
typedef struct lock_take {
    int32_t key;
    TSNode node;
    int via_helper;
} lock_take;

/* For the removal ev of lock k in function ev->fn: is some other lock of
 * the module, taken by this function (itself, or through a helper of the
 * module that creates it), held on every way to the removal, and was k
 * judged again (a look, a read of its record, a pid probe) after it was taken, on every
 * way (*judged_under)? Is k itself taken by this function and held on every
 * way to the removal (*held_self)? */
static void locks_held_at(lf_tslock *l, const lf_tslock_event *ev, int *judged_under, int *held_self) {
    lf_tssem *m = l->m;
    *judged_under = *held_self = 0;
    if (ev->via_helper || ev->fn < 0)
        return;
    lock_take takes[BREAKER_TAKES];
    size_t n_takes = 0;
    for (int32_t i = lf_tslock_first_event(l, ev->fn); i >= 0 && n_takes < BREAKER_TAKES;
         i = lf_tslock_next_event(l, i)) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind == LF_TSEV_CREATE && c->key >= 0 && lf_tslock_is_lock(l->keys[c->key].flags))
            takes[n_takes++] = (lock_take){c->key, c->node, c->via_helper};
    }
    /* a helper of the module that creates a lock of its own (not k) and
     * reports whether it did: `tryAcquireSteal()`. A bounded look at the
     * helpers' events: past it, fewer takes are seen, and the removal stays
     * reported. */
    size_t budget = 4096;
    for (int32_t i = m->scopes[ev->fn].first_call; i >= 0 && n_takes < BREAKER_TAKES && budget;
         i = m->calls[i].next_in_fn) {
        int32_t h = lf_tssem_local_callee(m, m->calls[i].node);
        if (h <= 0 || h == ev->fn)
            continue;
        int hands_lock = 0; /* `publishOwned(lockPath)`: this very lock, taken */
        for (uint32_t a = 0; a < lf_tssem_nargs(m->calls[i].node) && a < 8 && !hands_lock; a++)
            hands_lock = lf_tslock_key_index(l, lf_tssem_arg(m->calls[i].node, a)) == ev->key;
        for (int32_t j = lf_tslock_first_event(l, h); j >= 0 && !hands_lock && budget;
             j = lf_tslock_next_event(l, j)) {
            budget--;
            const lf_tslock_event *c = &l->events[j];
            /* the helper's exclusive create (a temp named uniquely aside):
             * a lock to the caller that tests what the helper returns */
            unsigned f = c->key >= 0 ? l->keys[c->key].flags : 0;
            if (c->kind == LF_TSEV_CREATE && !c->via_helper && c->key >= 0 && c->key != ev->key &&
                !(f & (LF_TSLOCK_UNIQUE | LF_TSLOCK_PKG))) {
                takes[n_takes++] = (lock_take){c->key, m->calls[i].node, 1};
                break;
            }
        }
    }
    if (!n_takes)
        return;
    TSNode fn = m->scopes[ev->fn].node;
    lf_cfg *g = lf_tscfg_build(m->src, fn);
    size_t n = lf_cfg_size(g);
    uint64_t *gen = lf_xcalloc(n ? n : 1, sizeof *gen), *kill = lf_xcalloc(n ? n : 1, sizeof *kill);
    uint64_t judged_bits = 0;
    for (size_t k = 0; k < n_takes; k++) {
        uint64_t held = 1ull << (2 * k), judged = 2ull << (2 * k);
        judged_bits |= judged;
        int32_t done = create_done_node(m, g, fn, takes[k].node, takes[k].via_helper);
        if (done >= 0) {
            gen[done] |= held;
            kill[done] |= judged; /* a look before the lock was taken judged nothing under it */
        }
    }
    for (int32_t i = lf_tslock_first_event(l, ev->fn); i >= 0; i = lf_tslock_next_event(l, i)) {
        const lf_tslock_event *e = &l->events[i];
        int nested = 0;
        int32_t id = lf_tscfg_node_of(g, fn, e->node, &nested);
        if (id < 0 || nested || e == ev)
            continue;
        for (size_t k = 0; k < n_takes; k++)
            if (e->kind == LF_TSEV_REMOVE && e->key == takes[k].key)
                kill[id] |= 1ull << (2 * k);
        /* a look at the lock, or a probe of a pid (its owner's, read from its
         * record), made again under the breakers' lock */
        if ((e->kind == LF_TSEV_JUDGE && e->key == ev->key) || e->kind == LF_TSEV_PROBE)
            gen[id] |= judged_bits;
    }
    int nested = 0;
    int32_t at = lf_tscfg_node_of(g, fn, ev->node, &nested);
    if (at >= 0 && !nested) {
        lf_cfg_lockstate st;
        lf_cfg_lockstate_run(g, gen, kill, 0, &st);
        for (size_t k = 0; k < n_takes && st.reachable[at]; k++) {
            uint64_t both = 3ull << (2 * k);
            if (takes[k].key == ev->key)
                *held_self |= (st.must_in[at] & (1ull << (2 * k))) != 0;
            else
                *judged_under |= (st.must_in[at] & both) == both;
        }
        lf_cfg_lockstate_free(&st);
    }
    free(gen);
    free(kill);
    lf_cfg_free(g);
}

/* Could the removal ev be the holder's release of a breakers' lock (a
 * `finally` letting it go), "judged" only by looks at and probes of other
 * locks, in a module that never breaks it? (Whether this function took it
 * and holds it there is locks_held_at's.) */
static int unbroken_own_release_candidate(lf_tssem *m, lf_tslock *l, const lf_tslock_event *ev) {
    if (!ts_node_is_null(l->keys[ev->key].retaken_at))
        return 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->key != ev->key || e == ev)
            continue;
        if (e->kind == LF_TSEV_JUDGE && e->fn == ev->fn)
            return 0; /* it looks at this very lock */
        if (e->kind == LF_TSEV_REMOVE && (e->judged == LF_TSJUDGED_LIVENESS || e->judged == LF_TSJUDGED_PRESENCE))
            return 0; /* the module breaks it elsewhere */
    }
    return !(ev->judged == LF_TSJUDGED_LIVENESS && probe_of_lock(m, l, ev));
}

/* Breakers serialised by a lock of their own (above): the takeover judged
 * again under that lock is no race, and that lock's own release in the
 * same function, taken and held on every way to it, is the holder's. */
static int serialised_by_breakers_lock(lf_tssem *m, lf_tslock *l, const lf_tslock_event *ev) {
    int judged_under, held_self;
    locks_held_at(l, ev, &judged_under, &held_self);
    return judged_under || (held_self && unbroken_own_release_candidate(m, l, ev));
}

/* What a helper does before each removal of its parameter (the helper the
 * via-helper removal ev calls): */
typedef enum helper_removal {
    HELPER_READS_OWNER,   /* reads the owner record first (judged by content alone; its calls of
                             further helpers count) */
    HELPER_OWNER_CHECKED, /* removes only while the record names this process (lf_tsowner.h; its own
                             removals) */
} helper_removal;

/* Does every removal of the parameter inside the helper ev calls do `what`? */
static int helper_removals_all(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev, helper_removal what) {
    int32_t h = lf_tssem_local_callee(m, ev->node);
    size_t n = 0, ok = 0;
    for (size_t i = 0; h > 0 && i < l->n_events; i++) {
        const lf_tslock_event *d = &l->events[i];
        if (d->kind != LF_TSEV_REMOVE || d->fn != h || d->key != ev->helper_key ||
            (what == HELPER_OWNER_CHECKED && d->via_helper))
            continue;
        n++;
        ok += what == HELPER_READS_OWNER ? d->judged == LF_TSJUDGED_CONTENT : d->owner_checked != 0;
    }
    return n > 0 && ok == n;
}

/* Is the call one of the vendored lockrt.cjs's judged or bound removals? */
static int bound_drop_in(lf_tssem *m, TSNode call) {
    const char *q = lf_tssem_callee(m, call);
    size_t n = q ? strlen(q) : 0;
    return q && !strncmp(q, LF301_TS_VENDOR_MODULE ".", sizeof LF301_TS_VENDOR_MODULE) &&
           ((n > 10 && !strcmp(q + n - 10, "JudgedSync")) || (n > 6 && !strcmp(q + n - 6, "Judged")) ||
            (n > 9 && !strcmp(q + n - 9, "BoundSync")) || (n > 5 && !strcmp(q + n - 5, "Bound")));
}

/* A removal through the vendored lockrt.cjs's judged or bound drop-ins
 * (LF301's takeover fix), directly or by the module's helper whose removal
 * of the parameter is one (the fix rewrote it there): bound to the object
 * judged, not by name. It still takes the lock over (the key stays broken for
 * the module's releases). */
static int judged_removal(lf_tssem *m, const lf_tslock *l, const lf_tslock_event *ev) {
    if (!ev->via_helper)
        return bound_drop_in(m, ev->node);
    int32_t h = lf_tssem_local_callee(m, ev->node);
    size_t n = 0, bound = 0;
    for (size_t i = 0; h > 0 && ev->helper_key >= 0 && i < l->n_events; i++) {
        const lf_tslock_event *d = &l->events[i];
        if (d->kind == LF_TSEV_REMOVE && !d->via_helper && d->fn == h && d->key == ev->helper_key) {
            n++;
            bound += (size_t)bound_drop_in(m, d->node);
        }
    }
    return n > 0 && bound == n;
}

/* The message of a release by name (`ev` judged by no look of its own) of a
 * lock the module breaks, or NULL when the module breaks it nowhere. */
static char *release_message(const lf_source *src, const lf_tslock *l, const lf_tslock_event *ev) {
    const lf_tslock_key *k = &l->keys[ev->key];
    char *call = lf_py_short(src, ev->node);
    char *what = lf_py_short(src, ev->target);
    const char *does =
        ev->judged == LF_TSJUDGED_CONTENT ? "reads the owner record, then separately removes" : "releases";
    char *msg = NULL;
    if (k->flags & LF_TSLOCK_BROKEN_LIVE) {
        msg = lf_xasprintf("%s %s the lock %s by name, and line %u breaks that lock while its holder may be alive: "
                           "a holder paused past that judgement deletes its successor's lock here, and two "
                           "holders run at once",
                           call, does, what, lf_py_line(src, k->broken_at));
    }
    const char *lib = !ts_node_is_null(k->broken_at) && lf_tree_is(k->broken_at, "call_expression")
                          ? lf_tssem_callee(l->m, k->broken_at)
                          : NULL;
    if (!msg && lib && (!strcmp(lib, "lockfile.lock") || !strcmp(lib, "lockfile.lockSync"))) {
        msg = lf_xasprintf("%s %s the lock %s by name, and the lockfile.lock call at line %u breaks that lock by its "
                           "age (its `stale` option unlinks a lock older than that, its holder alive or not): a "
                           "holder that ran past it deletes its successor's lock here, and two holders run at once",
                           call, does, what, lf_py_line(src, k->broken_at));
    }
    if (!msg && (k->flags & LF_TSLOCK_BREAKABLE)) {
        unsigned at = ts_node_is_null(k->broken_at) ? 0 : lf_py_line(src, k->broken_at);
        char where[48] = "elsewhere";
        if (at)
            snprintf(where, sizeof where, "at line %u", at);
        msg = lf_xasprintf("%s %s the lock %s by name, and the module breaks that lock %s: a holder whose lock "
                           "was broken (two breakers racing, or its pid judged dead or reused) deletes its "
                           "successor's lock here, and two holders run at once",
                           call, does, what, where);
    }
    free(call);
    free(what);
    return msg;
}

/* Does function fn take the lock `key` (its create, or a helper's)? */
static int takes_lock(lf_tslock *l, int32_t fn, int32_t key) {
    for (int32_t i = fn >= 0 ? lf_tslock_first_event(l, fn) : -1; i >= 0; i = lf_tslock_next_event(l, i))
        if (l->events[i].kind == LF_TSEV_CREATE && l->events[i].key == key)
            return 1;
    return 0;
}

/* Is fn a holder's release of `key`: it takes the lock itself, or some
 * function calling it takes the lock through another of the module's
 * functions first (`withLock(f) { await acquireLock(f); try { ... } finally
 * { await releaseLock(f) } }`, releaseLock removing the lock by name)? */
static int holder_release_fn(lf_tssem *m, lf_tslock *l, int32_t fn, int32_t key) {
    if (takes_lock(l, fn, key))
        return 1;
    int budget = 64; /* callers times their calls: bounded */
    for (int32_t c = fn > 0 ? lf_tssem_first_caller(m, fn) : -1; c >= 0 && budget > 0;
         c = lf_tssem_next_caller(m, c)) {
        int32_t g = m->calls[c].scope >= 0 ? m->scopes[m->calls[c].scope].fn : -1;
        if (g <= 0 || g == fn)
            continue;
        for (int32_t d = m->scopes[g].first_call; d >= 0 && budget > 0; d = m->calls[d].next_in_fn, budget--) {
            int32_t a = lf_tssem_local_callee(m, m->calls[d].node);
            if (a > 0 && a != fn && a != g && takes_lock(l, a, key))
                return 1;
        }
    }
    return 0;
}

/* The module-level function (or method) a scope belongs to: a closure's
 * enclosing API function. */
static int32_t outer_function(const lf_tssem *m, int32_t s) {
    while (s > 0 && m->scopes[s].parent > 0 && m->scopes[s].cls < 0)
        s = m->scopes[s].parent;
    return s > 0 ? m->scopes[s].fn : s;
}

/* Two protocols spelled alike over sibling functions' parameters ("expr@api"
 * keys: acquirePidLock(file) and acquireStateLock(file) each create
 * `${file}.lock` for the file its callers give): a release in a function
 * that creates the path itself, of a lock another function that creates it
 * too breaks, is that other protocol's business, not this one's. */
static int separate_protocol(lf_tssem *m, lf_tslock *l, const lf_tslock_event *ev) {
    const lf_tslock_key *k = &l->keys[ev->key];
    if (strncmp(k->key, "expr@api", 8) != 0 || ts_node_is_null(k->broken_at))
        return 0;
    int32_t mine = outer_function(m, ev->fn);
    int32_t breaker = outer_function(m, lf_tslock_fn_of(m, lf_tssem_scope_of(m, k->broken_at)));
    return mine > 0 && breaker > 0 && mine != breaker && takes_lock(l, mine, ev->key) && takes_lock(l, breaker, ev->key);
}

/* Is the module's function h (removing a lock path of its own) a takeover
 * step: declared at the top without export (`function f`, `const f = () =>`)
 * and every call of it that removes made after a judgement of the lock? */
static int takeover_step(lf_tssem *m, const lf_tslock *l, int32_t h) {
    if (h <= 0)
        return 0;
    TSNode def = m->scopes[h].node, up = ts_node_parent(def);
    if (lf_tree_is(up, "variable_declarator"))
        up = ts_node_parent(ts_node_parent(up));
    else if (!lf_tree_is(def, "function_declaration"))
        return 0;
    if (!lf_tree_is(up, "program"))
        return 0;
    size_t calls = 0;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *c = &l->events[i];
        if (c->kind != LF_TSEV_REMOVE || !c->via_helper || lf_tssem_local_callee(m, c->node) != h)
            continue;
        if (c->judged == LF_TSJUDGED_NONE)
            return 0;
        calls++;
    }
    return calls > 0;
}

/* A finding made, before the stop commands' cleanups are set aside. */
typedef struct found {
    size_t event;
    char *msg;
    TSNode failed_read; /* failed_read_before's answer for a break, else null */
    int32_t folded_into; /* a judged call of a public helper: the index of the helper's own finding, else -1 */
    int own_step;        /* the removal inside a private helper that is one takeover's step: its message names
                            the call already */
} found;

/* Did the removal's function send the owner a real signal before it
 * (`process.kill(pid, "SIGTERM")`, anything but a literal 0)? */
static int after_stop_signal(const lf_tssem *m, const lf_tslock_event *ev) {
    int32_t fn = ev->fn;
    uint32_t at = ts_node_start_byte(ev->node);
    /* the calls of the removal's declared function: its chain (lf_tssem) */
    for (int32_t i = fn >= 0 ? m->scopes[fn].first_call : -1; i >= 0; i = m->calls[i].next_in_fn) {
        const lf_tscall *c = &m->calls[i];
        if (ts_node_start_byte(c->node) >= at)
            break; /* the chain runs in source order */
        if (!c->callee || strcmp(c->callee, "process.kill") != 0 || lf_tssem_nargs(c->node) < 2)
            continue;
        TSNode sig = lf_tssem_unwrap(lf_tssem_arg(c->node, 1));
        if (!(lf_tree_is(sig, "number") && lf_tree_text_eq(m->src, sig, "0")))
            return 1;
    }
    return 0;
}

void lf301_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    LF_VEC(found) out = {0};
    const lf_source *src = lf_ctx_source(ctx);
    lf_tslock *l = lf_tslock_build(m);
    /* removals in a function bound to what it judged by an identity check,
     * its own or its helper's (`if (!sameFile(seen, current)) return`) */
    const unsigned char *identity = l->identity_bound;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *ev = &l->events[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || identity[ev->fn])
            continue;
        const lf_tslock_key *k = &l->keys[ev->key];
        if (!lf_tslock_is_lock(k->flags) || judged_removal(m, l, ev))
            continue;
        /* entries of a listing of files the module names fresh: no successor
         * ever holds an entry's name, so no removal of one deletes a successor's */
        if (k->flags & LF_TSLOCK_FRESH)
            continue;
        /* a lock library's own lock directory, removed by the module by name */
        if (k->flags & LF_TSLOCK_LIBDIR) {
            if (!ev->via_helper && lf_tslock_removes_directory(m, ev->node)) {
                char *call = lf_py_short(src, ev->node), *what = lf_py_short(src, ev->target);
                found f = {.event = i,
                           .msg = lf_xasprintf("%s removes by name %s, the lock directory proper-lockfile keeps for the "
                                        "file locked at line %u: the library takes, breaks (when stale) and releases "
                                        "it itself, so once this process's lock is released (or was never taken) the "
                                        "directory is another process's live lock, which this deletes, and two "
                                        "holders run at once",
                                        call, what, lf_py_line(src, k->library_take)),
                           .folded_into = -1};
                LF_VEC_PUSH(&out, f);
                free(call);
                free(what);
            }
            continue;
        }
        /* this holder's own release (lf_tsowner.h), where nobody breaks a
         * live holder's lock: nothing can come between its read and the
         * removal; on existence or age alone, a paused holder can lose it
         * in between */
        if (ev->owner_checked && !(k->flags & LF_TSLOCK_BROKEN_LIVE))
            continue;
        /* rmdir cannot remove a lock made as a file or symlink (ENOTDIR):
         * pidlock's belt-and-braces rmdir after its unlink removes nothing */
        const char *op = ev->via_helper ? NULL : lf_tslock_fs_op(m, ev->node);
        if (op && !strcmp(op, "rmdir") && (k->flags & LF_TSLOCK_FILE) && !(k->flags & LF_TSLOCK_DIR))
            continue;
        if (ev->via_helper && ev->helper_key >= 0) {
            int own = ev->helper_key == ev->key; /* the helper removes a path of its own */
            /* an acquire helper whose only removal undoes its own create when
             * writing the owner record fails: calling it takes the lock */
            if (helper_only_rolls_back(m, l, ev))
                continue;
            /* its release is reported at the removal inside it; a call is
             * reported when the caller judged the lock first */
            if (own && ev->judged != LF_TSJUDGED_LIVENESS && ev->judged != LF_TSJUDGED_PRESENCE)
                continue;
            /* a pid probe in the caller need not be of this lock's owner (a
             * daemon's pid file probed, then a start lock taken): when it is
             * not, and the helper's own removal is reported inside it, the
             * call is that finding again. A probe of this lock's owner, or a
             * look at this very lock (presence), is a judgement of it: a
             * takeover through the helper, reported at the call. */
            if (own && ev->judged == LF_TSJUDGED_LIVENESS && !probe_of_lock(m, l, ev) && reported_in_helper(m, l, ev))
                continue;
            /* a parameter the helper judges itself is reported inside it */
            if (!own && (l->keys[ev->helper_key].flags & LF_TSLOCK_BROKEN))
                continue;
            /* a release through a helper that reads the owner record before
             * it removes (`releaseIfOwned(gate, token)`), after a probe of
             * another lock's owner: the probe judged that lock, not this one */
            if (!own && ev->judged == LF_TSJUDGED_LIVENESS && !probe_of_lock(m, l, ev) &&
                helper_removals_all(m, l, ev, HELPER_READS_OWNER))
                continue;
            /* a release through a helper that removes only while the record
             * names this process (lf_tsowner.h), where nobody breaks a live
             * holder's lock: the holder's own release, whatever the caller
             * probed before taking the lock */
            if (!own && helper_removals_all(m, l, ev, HELPER_OWNER_CHECKED) && !(k->flags & LF_TSLOCK_BROKEN_LIVE))
                continue;
            /* a plain release through a lock's own release helper, whose
             * removal is reported inside it, is that finding again; a call
             * right after a judgement is a takeover (breakers racing), a
             * root bug of its own */
            if (!own && ev->judged != LF_TSJUDGED_LIVENESS && ev->judged != LF_TSJUDGED_PRESENCE &&
                reported_inside(l, ev->helper_key))
                continue;
        } else if (generic_param(l, ev->key)) {
            continue; /* a file helper handed several paths: reported at its callers */
        } else if (rollback_of_create(m, l, ev)) {
            continue; /* undoing its own create a moment later: nothing was judged */
        } else if (under_resource_lock(m, l, ev)) {
            continue; /* the document a lock library's lock guards, removed by its holder */
        } else if ((ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE) &&
                   (serialised_by_breakers_lock(m, l, ev) || quarantine_with_restore(m, l, ev))) {
            continue; /* breakers serialised by a lock of their own (above), or that lock's release */
        }
        char *call = lf_py_short(src, ev->node);
        char *what = lf_py_short(src, ev->target);
        char *msg = NULL;
        /* a sweep of lock files that reads an entry's record and removes it:
         * no entry is this process's own, so reading the record judged
         * another holder's lock (expired, unparsable), and its removal by
         * name is a break */
        int swept = (k->flags & LF_TSLOCK_LISTED) && !ev->via_helper && ev->judged == LF_TSJUDGED_CONTENT;
        TSNode failed_read = ev->judged == LF_TSJUDGED_LIVENESS || ev->judged == LF_TSJUDGED_PRESENCE || swept
                                 ? failed_read_before(l, ev)
                                 : (TSNode){0};
        if (!ts_node_is_null(failed_read)) {
            msg = lf_xasprintf("%s removes the lock %s by name when reading it failed (line %u): a lock its owner is "
                               "still writing reads as empty or corrupt, so the removal deletes a live lock, and "
                               "two holders run at once",
                               call, what, ts_node_start_point(failed_read).row + 1);
        } else if (ev->judged == LF_TSJUDGED_LIVENESS) {
            msg = lf_xasprintf("%s removes the lock %s by name after judging its owner dead: two processes that both "
                               "judged it stale race, and the slower one deletes the lock the faster one has just "
                               "taken, so two holders run at once",
                               call, what);
        } else if (swept) {
            msg = lf_xasprintf("%s removes the lock %s by name after judging its record in a sweep of lock files: "
                               "two sweepers (or a sweeper and an acquirer breaking it) race, and the slower one "
                               "deletes the lock a process has just taken in its place, so two holders run at once",
                               call, what);
        } else if (ev->judged == LF_TSJUDGED_PRESENCE) {
            msg = lf_xasprintf("%s removes the lock %s by name after looking at it (existence, stat or age): nothing "
                               "binds the removal to what was judged, so a lock another process took in between is "
                               "deleted and two holders run at once",
                               call, what);
        } else {
            msg = separate_protocol(m, l, ev) ? NULL : release_message(src, l, ev);
        }
        if (msg) {
            found f = {.event = i, .msg = msg, .failed_read = failed_read, .folded_into = -1};
            LF_VEC_PUSH(&out, f);
        } else {
            free(msg);
        }
        free(call);
        free(what);
    }
    /* A private helper's release of its parameter (`removeDeadFiles(lock)`,
     * `releaseLock(lockDir)`) or of a lock of its own (`forceRelease()`
     * removing `this.lockDir`, `removeLock(file)` removing the file's lock
     * directory) where some of its calls are takeovers reported at the call
     * (after a pid probe or a look at the lock): the helper is no release of
     * its own but the step each caller takes. The takeovers are reported at
     * their calls; a holder's plain release through it is reported at its
     * call too (`finally { releaseLock(lockDir) }`), and nothing inside. A
     * helper used elsewhere (exported, handed on) keeps its finding inside. */
    size_t n_found = out.len;
    for (size_t j = 0; j < n_found; j++) {
        const lf_tslock_event *ev = &l->events[out.items[j].event];
        if (!out.items[j].msg || ev->via_helper || ev->judged == LF_TSJUDGED_LIVENESS ||
            ev->judged == LF_TSJUDGED_PRESENCE)
            continue;
        size_t calls = 0;
        LF_VEC(found) plain = {0};
        LF_VEC(size_t) taken = {0}; /* the calls reported as takeovers: their findings' indexes */
        for (size_t i = 0; i < l->n_events; i++) {
            const lf_tslock_event *c = &l->events[i];
            if (c->kind != LF_TSEV_REMOVE || !c->via_helper || c->helper_key != ev->key ||
                lf_tssem_local_callee(m, c->node) != ev->fn)
                continue;
            calls++;
            int reported = 0;
            size_t at = 0;
            for (size_t k = 0; k < n_found && !reported; k++)
                if (out.items[k].event == i && out.items[k].msg != NULL) {
                    reported = 1;
                    at = k;
                }
            if (reported && (c->judged == LF_TSJUDGED_LIVENESS || c->judged == LF_TSJUDGED_PRESENCE) &&
                !after_stop_signal(m, c)) {
                LF_VEC_PUSH(&taken, at);
                continue;
            }
            /* a stop command's cleanup once it signalled the owner: no release
             * (its finding, if any, is dropped below) */
            if (after_stop_signal(m, c))
                continue;
            /* a plain release through it: said at the call, when the lock the
             * caller hands it is one the module breaks */
            char *msg = !reported && c->key >= 0 && lf_tslock_is_lock(l->keys[c->key].flags) &&
                                c->judged != LF_TSJUDGED_LIVENESS && c->judged != LF_TSJUDGED_PRESENCE
                            ? release_message(src, l, c)
                            : NULL;
            found f = {.event = i, .msg = msg, .folded_into = -1}; /* a release: no failed read */
            LF_VEC_PUSH(&plain, f);
        }
        /* a step of its callers' takeovers (step_helper): a private helper,
         * or an exported one that no caller here takes the lock before (its
         * calls: takeovers, a stop command's cleanup, removals after a check
         * the model cannot judge), no holder's release either: its root bugs
         * are the calls; one a holder releases through keeps its own */
        int holder_releases = 0;
        for (size_t k = 0; k < plain.len && !holder_releases; k++) {
            const lf_tslock_event *c = &l->events[plain.items[k].event];
            holder_releases = holder_release_fn(m, l, c->fn, c->key);
        }
        int unexported = taken.len && lf301_ts_private_helper(m, ev->fn, calls);
        int step_helper = unexported || (taken.len && !holder_releases && lf301_ts_module_helper(m, ev->fn, calls));
        int moved = step_helper;
        for (size_t k = 0; k < plain.len && moved; k++)
            moved = plain.items[k].msg != NULL;
        if (step_helper && !moved) {
            /* some calls are plain (a failed read's cleanup, a release the
             * model cannot judge): the finding stays at the helper's removal,
             * and the takeovers through it are that bug again */
            for (size_t k = 0; k < taken.len; k++)
                out.items[taken.items[k]].folded_into = (int32_t)j;
        }
        if (moved && unexported && calls == 1 && taken.len == 1) {
            /* the helper is the one takeover's own removal step (called from
             * nowhere else, in no other file): reported at its removal, the
             * call named there, with the call's fix */
            out.items[taken.items[0]].folded_into = (int32_t)j;
            moved = 0;
            const lf_tslock_event *c = &l->events[out.items[taken.items[0]].event];
            char *call = lf_py_short(src, ev->node), *what = lf_py_short(src, ev->target);
            const char *who = c->fn > 0 && m->scopes[c->fn].name ? m->scopes[c->fn].name : "a callback";
            free(out.items[j].msg);
            out.items[j].msg = lf_xasprintf(
                "%s removes the lock %s by name as the stale takeover of %s (line %u), after %s: two processes "
                "that both judged it stale race, and the slower one deletes the lock the faster one has just taken, "
                "so two holders run at once",
                call, what, who, lf_py_line(src, c->node),
                c->judged == LF_TSJUDGED_LIVENESS ? "judging its owner dead"
                                                  : "looking at it (existence, stat or age)");
            out.items[j].own_step = 1;
            free(call);
            free(what);
        }
        LF_VEC_FREE(&taken);
        if (moved) {
            free(out.items[j].msg);
            out.items[j].msg = NULL;
            for (size_t k = 0; k < plain.len; k++)
                LF_VEC_PUSH(&out, plain.items[k]);
        } else {
            for (size_t k = 0; k < plain.len; k++)
                free(plain.items[k].msg);
        }
        LF_VEC_FREE(&plain);
    }
    /* A judged call of a public helper whose own release is reported inside
     * it (`await forceRemoveLock(lockPath)` after a look at the lock, with
     * forceRemoveLock exported): the helper's release is reported because
     * the module breaks the lock, through this very call. One root bug: the
     * call is named in the helper's finding, whose fix is the takeover's
     * (the judgement bound at the call, the helper's removal bound to it).
     * A private helper's finding moved to its calls above stays there. */
    for (size_t j = 0; j < out.len; j++) {
        const lf_tslock_event *ev = &l->events[out.items[j].event];
        if (!out.items[j].msg || !ev->via_helper || !ts_node_is_null(out.items[j].failed_read) ||
            (ev->judged != LF_TSJUDGED_LIVENESS && ev->judged != LF_TSJUDGED_PRESENCE) || after_stop_signal(m, ev) ||
            ev->helper_key < 0 || !reported_inside(l, ev->helper_key))
            continue;
        /* a helper removing a path of its own (`removeStaleLock()`): the
         * same bug at each call only when it is the module's takeover step,
         * called nowhere but after a judgement, and not exported */
        int32_t h = lf_tssem_local_callee(m, ev->node);
        if (ev->helper_key == ev->key && !takeover_step(m, l, h))
            continue;
        for (size_t k = 0; k < out.len && h > 0; k++) {
            const lf_tslock_event *in = &l->events[out.items[k].event];
            if (k == j || !out.items[k].msg || in->via_helper || in->fn != h || in->key != ev->helper_key ||
                in->judged == LF_TSJUDGED_LIVENESS || in->judged == LF_TSJUDGED_PRESENCE ||
                after_stop_signal(m, in))
                continue;
            out.items[j].folded_into = (int32_t)k;
            break;
        }
    }
    /* A removal after the function stopped the owner itself
     * (`process.kill(pid, "SIGTERM")`, any signal but 0) is a stop command's
     * cleanup of the lock whose holder it has just ended, not a judgement that
     * races a breaker (as in Python, checks/lf301_lock_removal.c). */
    for (size_t j = 0; j < out.len; j++) {
        const lf_tslock_event *ev = &l->events[out.items[j].event];
        if (out.items[j].msg && !after_stop_signal(m, ev) && out.items[j].folded_into < 0) {
            /* binding the removal to the failed read would still delete the
             * lock read as corrupt: it is unchanged until its owner's write */
            TSNode failed_read = out.items[j].failed_read;
            lf301_ts_site *site = NULL;
            char *callers = NULL;
            for (size_t k = 0; k < out.len; k++) {
                if (out.items[k].folded_into != (int32_t)j)
                    continue;
                const lf_tslock_event *c = &l->events[out.items[k].event];
                lf301_ts_site *cs = lf301_ts_site_make(l, c);
                /* the first call whose takeover the fix binds carries the
                 * others' edits; a declined one leaves its path as it was */
                if (!site) {
                    site = cs;
                } else if (site->decline && !cs->decline) {
                    lf301_ts_site_absorb(cs, site);
                    site = cs;
                } else {
                    lf301_ts_site_absorb(site, cs);
                }
                const char *who = c->fn > 0 && m->scopes[c->fn].name ? m->scopes[c->fn].name : "a callback";
                char *prev = callers;
                callers = prev ? lf_xasprintf("%s, %s (line %u)", prev, who, lf_py_line(src, c->node))
                               : lf_xasprintf("%s (line %u)", who, lf_py_line(src, c->node));
                free(prev);
            }
            if (callers && out.items[j].own_step) {
                free(callers);
                callers = NULL;
            }
            if (callers) {
                char *with = lf_xasprintf("%s; also reached after a judgement of the lock from %s (the same bug, not "
                                          "reported again)",
                                          out.items[j].msg, callers);
                free(out.items[j].msg);
                out.items[j].msg = with;
                free(callers);
            }
            if (!site && (l->keys[ev->key].flags & LF_TSLOCK_LIBDIR))
                site = lf301_ts_site_declined(lf_xstrdup(
                    "the directory is the lock library's own: it releases and breaks it itself, so the fix is to "
                    "drop this removal, which changes what the code does after its release; the code owner's call"));
            if (!site)
                site = ts_node_is_null(failed_read)
                           ? lf301_ts_site_make(l, ev)
                           : lf301_ts_site_declined(lf_xstrdup(
                                 "the removal follows a failed read of the lock: a lock its owner is still writing "
                                 "reads as corrupt and stays unchanged until that write lands, so binding the "
                                 "removal to what was read would still delete it; whether to wait, retry the read "
                                 "or fail is the code owner's choice"));
            lf_ctx_emit_site(ctx, ev->node, out.items[j].msg, site, lf301_ts_site_free);
            lf_ctx_witness(ctx, ts_node_is_null(failed_read) ? lf_wit_removal_ts(l, ev)
                                                             : lf_wit_failed_read_ts(l, ev, failed_read));
        }
        free(out.items[j].msg);
    }
    LF_VEC_FREE(&out);
}
