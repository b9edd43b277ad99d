/* LF301: a lock path removed by name with no identity check binding the
 * removal to the object that was judged.
 *
 * Works on lock identity by use (lf_pylock): a path is a lock because the
 * module creates it exclusively, flocks it, writes its pid there or hands it to
 * a lock class or helper (or claims it by writing it, and names it a lock:
 * lf_pylock's LF_LOCK_CLAIM, where the name is the only tie-breaker between a
 * check-then-write lock and a cache); never by its name alone, and a package-manager
 * lock file never is one. A removal (os.remove/unlink/rmdir, shutil.rmtree,
 * Path.unlink/rmdir, or one of the module's functions that removes its
 * argument, such as `rmlink(self.name)`) of such a lock is reported when:
 *  - the lock is an OS lock (flock/lockf/fcntl): removing the file lets a
 *    waiter lock the old, unlinked inode while a newcomer locks a fresh file
 *    (POSIX; Windows refuses to delete a file another process holds open, so
 *    msvcrt-only locks are left alone), unless the module's acquisition
 *    checks, once locked, that the path still names the locked inode and
 *    retries when not (LF_LOCK_INODE_VERIFIED);
 *  - the lock is an exclusive-create/pid lock and the removal follows a
 *    judgement in the same function that it is stale: a pid probe (two
 *    breakers race; the slower deletes the faster one's fresh lock) or its
 *    existence, stat or age (whatever is there by then is deleted);
 *  - the lock is released (or removed after an ownership check) by name in a
 *    module whose protocol breaks it by name: on existence or age alone, a
 *    holder paused past that judgement removes its successor's lock; after a
 *    pid probe, two breakers race, the slower deletes the faster one's fresh
 *    lock, and the faster one, still running, releases the slower one's.
 * A removal after an identity check (st_ino/st_dev, samefile/samestat) in the
 * same function is not reported; a plain release of a lock no code path ever
 * breaks is not either, nor a removal in a function that stops the owner
 * itself (`os.kill(pid, SIGTERM)`, before or after: a stop command's cleanup).
 *
 * One finding per root bug: a removal through a helper whose own removal is
 * reported is not reported again at each caller, and a function gets one
 * stale break per judgement it acts on (an age, a pid probe, a failed
 * create), one break of a lock it failed to read, one removal of an flocked
 * file and one release finding (decide()). Messages name the lock's path,
 * never a call. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf301_py_site.h"
#include "lf_check.h"
#include "lf_pygate.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"
#include "lf_witness_build.h"

/* What a removal amounts to, before callers and duplicates are weighed. */
typedef enum verdict {
    V_NONE = 0,   /* not a finding */
    V_FLOCK,      /* removal of an flock'ed file */
    V_LIVENESS,   /* removed after a pid probe in its function */
    V_PRESENCE,   /* removed after existence/stat/age in its function */
    V_RELEASE,    /* released (or owner-checked) by name; broken on age elsewhere */
} verdict;

/* How far a function's removals already account for a bug, for its callers:
 * a caller of a helper whose removal is the bug is the same bug again. */
enum { COVER_NONE = 0, COVER_WEAK, COVER_STRONG };

static verdict judge(const lf_pylock *l, const lf_pylock_event *ev, TSNode failed_read) {
    unsigned f = l->keys[ev->key].flags;
    if (f & LF_LOCK_FLOCK) {
        /* a protocol that re-checks the locked inode removes the file while
         * it holds the lock: a waiter on the removed inode sees the mismatch
         * and retries (its judgements are made under the lock too) */
        if (f & LF_LOCK_INODE_VERIFIED)
            return V_NONE;
        /* a log or queue whose appends the OS lock orders: removing it loses
         * the appends of a writer waiting on it (LF104's drained queue), it
         * hands no lock to two holders */
        if ((f & LF_LOCK_APPENDED) && !(f & (LF_LOCK_PID | LF_LOCK_EXCL | LF_LOCK_CLAIM)))
            return V_NONE;
        if (f & LF_LOCK_OS_EXCLUSIVE)
            return V_FLOCK;
        /* only ever share-locked (LOCK_SH: a reader's lock on a data file
         * that a writer replaces or deletes): it excludes no one */
        if (!(f & LF_LOCK_USES & ~LF_LOCK_FLOCK))
            return V_NONE;
    }
    /* the holder's own release: a break only matters where the module breaks
     * a live holder's lock (on existence or age alone), which a holder paused
     * between its check and its removal can have lost. A break after a pid
     * probe takes a live lock only when two breakers race, and the loser's
     * owner check then finds the winner's record: only a release without one
     * deletes the winner's lock (below). */
    /* a pid lock known only by its breaker's protocol (LF_LOCK_PID_READ):
     * who holds it and how is not in view, so a plain removal elsewhere may
     * be a stop command's cleanup or a marker cleared; only its breaks are
     * judged */
    int holder_known = !(f & LF_LOCK_PID_READ);
    if (ts_node_is_null(failed_read) && ev->owner_checked)
        return (f & LF_LOCK_BROKEN_LIVE) && holder_known ? V_RELEASE : V_NONE;
    if (ev->judged == LF_JUDGED_LIVENESS)
        return V_LIVENESS;
    /* a removal because the read of the lock failed breaks it, whatever an
     * owner check after that read would have said: nothing was read */
    if (ev->judged == LF_JUDGED_PRESENCE || !ts_node_is_null(failed_read))
        return V_PRESENCE;
    if ((f & (LF_LOCK_BROKEN_LIVE | LF_LOCK_BROKEN_RACING)) && holder_known)
        return V_RELEASE;
    return V_NONE;
}

/* The lock's path expression for a message: the field or module path the key
 * names, else what the removal was given; never the call itself. */
static char *lock_name(const lf_pylock *l, const lf_source *src, const lf_pylock_event *ev) {
    const lf_pkey *k = &l->keys[ev->key].key;
    if (k->kind == LF_PKEY_FIELD)
        return lf_xasprintf("self.%s", k->name);
    TSNode path = lf_pylock_key_path(l, k);
    if (!ts_node_is_null(path))
        return lf_py_short(src, path);
    if (k->kind == LF_PKEY_CALL && k->scope >= 0)
        return lf_xasprintf("the path %s() returns", l->m->scopes[k->scope].name);
    return lf_py_short(src, ts_node_is_null(ev->target) ? ev->node : ev->target);
}

/* Is the probe a kill() itself, whose failure raises into the handler (a
 * helper that probes answers with a value)? */
static int raises_into_handler(const lf_source *src, TSNode probe) {
    TSNode fn = lf_tree_field(probe, "function");
    if (lf_tree_is(fn, "attribute"))
        fn = lf_tree_field(fn, "attribute");
    return lf_tree_is(fn, "identifier") && lf_tree_text_eq(src, fn, "kill");
}

/* Does the except clause catch what a failed os.kill raises (OSError and its
 * subclasses)? A bare `except:` and `except Exception` do. */
static int catches_probe_errors(const lf_source *src, TSNode handler) {
    static const char *const caught[] = {"OSError",         "IOError",   "EnvironmentError", "ProcessLookupError",
                                         "PermissionError", "Exception", "BaseException",    NULL};
    int named = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(handler); i++) {
        TSNode c = ts_node_named_child(handler, i);
        if (lf_tree_is(c, "block") || lf_tree_is(c, "comment"))
            continue;
        named = 1;
        const char *t = src->text + ts_node_start_byte(c);
        size_t n = ts_node_end_byte(c) - ts_node_start_byte(c);
        for (size_t k = 0; caught[k]; k++) {
            size_t w = strlen(caught[k]);
            for (const char *p = t; p + w <= t + n; p++)
                if (memcmp(p, caught[k], w) == 0 && (p == t || !lf_pygate_ident_byte((unsigned char)p[-1])) &&
                    (p + w == t + n || !lf_pygate_ident_byte((unsigned char)p[w])))
                    return 1;
        }
    }
    return !named;
}

/* Does the block hold, among its own statements, a `return` of nothing or of None? */
static int block_returns_none(const lf_source *src, TSNode block) {
    for (uint32_t i = 0; i < ts_node_named_child_count(block); i++) {
        TSNode st = ts_node_named_child(block, i);
        if (!lf_tree_is(st, "return_statement"))
            continue;
        TSNode v = ts_node_named_child_count(st) ? lf_tree_unparen(ts_node_named_child(st, 0)) : (TSNode){0};
        if (ts_node_is_null(v) || (lf_tree_is(v, "none") && lf_tree_text_eq(src, v, "None")))
            return 1;
    }
    return 0;
}

/* Does module function fn read the lock's record inside a try whose handler
 * answers None (`try: return Rec(**json.loads(p.read_text())) except
 * ValueError: return None`)? Then a caller's `if not rec:` after it is the
 * test of a failed read, as an except clause of its own would be. */
static int answers_none_on_failed_read(const lf_pylock *l, int32_t fn) {
    for (size_t j = 0; fn >= 0 && j < l->n_events; j++) {
        const lf_pylock_event *r = &l->events[j];
        if (r->scope != fn || r->kind != LF_PYEV_JUDGE || !r->content || r->via_helper)
            continue;
        TSNode body = lf_tree_enclosing(r->node, "block", lf_pysem_is_function_node);
        TSNode try_st = lf_tree_enclosing(r->node, "try_statement", lf_pysem_is_function_node);
        if (ts_node_is_null(try_st) || ts_node_is_null(body) ||
            !lf_tree_within(body, lf_tree_field(try_st, "body")))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(try_st); i++) {
            TSNode c = ts_node_named_child(try_st, i);
            if (!lf_tree_is(c, "except_clause"))
                continue;
            /* `except FileNotFoundError: return None` answers a missing
             * lock, not a record that failed to parse */
            TSNode caught = ts_node_named_child(c, 0);
            if (!ts_node_is_null(caught) && !lf_tree_is(caught, "block") &&
                lf_tree_text_eq(l->m->src, caught, "FileNotFoundError"))
                continue;
            for (uint32_t k = 0; k < ts_node_named_child_count(c); k++)
                if (lf_tree_is(ts_node_named_child(c, k), "block") &&
                    block_returns_none(l->m->src, ts_node_named_child(c, k)))
                    return 1;
        }
    }
    return 0;
}

/* The read, through one of the module's helpers that answers None when it
 * fails, that the removal ev is guarded by: `rec = self._read_lock(p)` and
 * then `if not rec: ... remove(p)` (or `if rec is None:`), else null. */
static TSNode failed_read_by_answer(const lf_pylock *l, const lf_pylock_event *ev) {
    TSNode none = {0};
    TSNode ifs = lf_tree_enclosing(ev->node, "if_statement", lf_pysem_is_function_node);
    if (ts_node_is_null(ifs) || !lf_tree_within(ev->node, lf_tree_field(ifs, "consequence")))
        return none;
    TSNode cond = lf_tree_unparen(lf_tree_field(ifs, "condition")), name = none;
    if (lf_tree_is(cond, "not_operator")) {
        name = lf_tree_unparen(lf_tree_field(cond, "argument"));
    } else if (lf_tree_is(cond, "comparison_operator") && ts_node_named_child_count(cond) == 2 &&
               lf_tree_is(ts_node_named_child(cond, 1), "none")) {
        TSNode op = ts_node_child(cond, 1);
        if (!ts_node_is_null(op) && !strcmp(ts_node_type(op), "is"))
            name = ts_node_named_child(cond, 0);
    }
    if (!lf_tree_is(name, "identifier"))
        return none;
    TSNode v = lf_tree_unparen(lf_pysem_resolve_value(l->m, name));
    if (!lf_tree_is(v, "call") || ts_node_start_byte(v) >= ts_node_start_byte(ev->node))
        return none;
    for (size_t j = 0; j < l->n_events; j++) {
        const lf_pylock_event *r = &l->events[j];
        if (r->kind != LF_PYEV_JUDGE || !r->via_helper || r->scope != ev->scope || r->key < 0 ||
            !ts_node_eq(r->node, v) || !lf_pylock_key_eq(l->m, &l->keys[r->key].key, &l->keys[ev->key].key))
            continue;
        int skip = 0;
        int32_t f = lf_pylock_local_callee((lf_pylock *)l, r->node, &skip);
        if (f >= 0 && answers_none_on_failed_read(l, f))
            return r->node;
    }
    return none;
}

/* Is what the probe raises caught by a try nested inside `body` (`try:
 * os.kill(pid, 0) except OSError: <dead>` within the read's try)? Then it
 * never reaches the outer handler. */
static int caught_before(const lf_source *src, TSNode probe, TSNode body) {
    for (TSNode cur = probe, p = ts_node_parent(probe); !ts_node_is_null(p) && !ts_node_eq(cur, body);
         cur = p, p = ts_node_parent(p)) {
        if (!lf_tree_is(p, "try_statement") || !ts_node_eq(lf_tree_field(p, "body"), cur))
            continue;
        for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
            TSNode c = ts_node_named_child(p, i);
            if (lf_tree_is(c, "except_clause") && catches_probe_errors(src, c))
                return 1;
        }
    }
    return 0;
}

/* The read of the lock's contents when the removal ev is in an except clause
 * of a try whose body makes it (`try: rec = json.loads(lock.read_text())
 * ... except: lock.unlink()`), else a null node. The handler judges the lock
 * corrupt because a read failed, and a lock its acquirer is still writing
 * reads as corrupt too: that removal deletes a live lock whether or not
 * anyone raced the look, a bug of its own beside the function's stale break
 * on age. So is the removal under `if not rec:` after a read through a
 * helper that answers None when the read fails (failed_read_by_answer). */
static TSNode failed_read_before(const lf_pylock *l, const lf_pylock_event *ev) {
    TSNode none = {0};
    if (ev->kind != LF_PYEV_REMOVE || ev->key < 0)
        return none;
    TSNode handler = lf_tree_enclosing(ev->node, "except_clause", lf_pysem_is_function_node);
    if (ts_node_is_null(handler))
        return failed_read_by_answer(l, ev);
    TSNode body = lf_tree_field(ts_node_parent(handler), "body");
    if (ts_node_is_null(body))
        return none;
    TSNode read = none;
    int probed = 0;
    for (size_t j = 0; j < l->n_events; j++) {
        const lf_pylock_event *r = &l->events[j];
        if (r->scope != ev->scope || !lf_tree_within(r->node, body) ||
            !lf_tree_runs_in(r->node, body, lf_pysem_is_function_node))
            continue;
        if (r->kind == LF_PYEV_PROBE && raises_into_handler(l->m->src, r->node) &&
            !caught_before(l->m->src, r->node, body))
            probed = 1;
        if (ts_node_is_null(read) && r->kind == LF_PYEV_JUDGE && (r->content || r->record_read) && r->key >= 0 &&
            lf_pylock_key_eq(l->m, &l->keys[r->key].key, &l->keys[ev->key].key))
            read = r->node;
    }
    /* the file opened around the try, read inside it */
    for (size_t j = 0; ts_node_is_null(read) && j < l->n_events; j++) {
        const lf_pylock_event *r = &l->events[j];
        if (r->scope == ev->scope && r->kind == LF_PYEV_JUDGE && r->content && r->key >= 0 &&
            ts_node_start_byte(r->node) < ts_node_start_byte(body) &&
            lf_pylock_key_eq(l->m, &l->keys[r->key].key, &l->keys[ev->key].key) &&
            lf_pylock_reads_through(l->m, body, r->node))
            read = r->node;
    }
    /* after a pid probe, a handler that catches what the probe raises is
     * (also) its verdict: the owner judged dead, a stale break */
    return probed && catches_probe_errors(l->m->src, handler) ? none : read;
}

/* failed_read_before of every event (null nodes where none), asked once. */
static TSNode *failed_reads(const lf_pylock *l) {
    TSNode *out = lf_xcalloc(l->n_events ? l->n_events : 1, sizeof *out);
    for (size_t i = 0; i < l->n_events; i++)
        out[i] = failed_read_before(l, &l->events[i]);
    return out;
}

static char *message(const lf_pylock *l, const lf_source *src, const lf_pylock_event *ev, verdict v,
                     TSNode failed_read) {
    const lf_pylock_key *k = &l->keys[ev->key];
    char *call = lf_py_short(src, ev->node);
    char *what = lock_name(l, src, ev);
    char *msg = NULL;
    switch (v) {
    case V_FLOCK:
        msg = lf_xasprintf("%s removes the lock file %s by name while it is locked with flock/lockf (line %u): "
                           "a process waiting on the old file then holds a lock on an unlinked inode while a "
                           "newcomer creates and locks a fresh file, so two holders run at once (POSIX; on "
                           "Windows the removal fails while another process has the file open)",
                           call, what, lf_py_line(src, k->evidence));
        break;
    case V_LIVENESS:
    case V_PRESENCE:
        if (!ts_node_is_null(failed_read)) {
            msg = lf_xasprintf("%s removes the lock %s by name when reading it failed (line %u): a lock its owner is "
                               "still writing reads as empty or corrupt, so the removal deletes a live lock, and "
                               "two holders run at once (every platform)",
                               call, what, lf_py_line(src, failed_read));
            break;
        }
        if (v == V_PRESENCE)
            goto presence;
        msg = lf_xasprintf("%s removes the lock %s by name after judging its owner dead: two processes that both "
                           "judged it stale race, and the slower one deletes the lock the faster one has just "
                           "taken, so two holders run at once (every platform)",
                           call, what);
        break;
    presence:
        if (!ts_node_is_null(ev->failed_create)) {
            msg = lf_xasprintf("%s removes the lock %s by name in the handler of its failed exclusive create (line "
                               "%u): the failure only says that someone holds the lock, so the removal deletes "
                               "whatever holds it by then, a live holder or a successor, and two holders run at "
                               "once (every platform)",
                               call, what, lf_py_line(src, ev->failed_create));
            break;
        }
        msg = lf_xasprintf("%s removes the lock %s by name after looking at it (existence, stat or age): nothing "
                           "binds the removal to what was judged, so a lock another process took in between is "
                           "deleted and two holders run at once (every platform)",
                           call, what);
        break;
    case V_RELEASE: {
        /* broken by a removal, or taken over by writing a claim over it */
        int removal = 0;
        for (size_t i = 0; i < l->n_events && !removal; i++)
            removal = l->events[i].kind == LF_PYEV_REMOVE && ts_node_eq(l->events[i].node, k->broken_at);
        const char *does = ev->judged == LF_JUDGED_CONTENT ? "checks the owner, then removes" : "releases";
        if (!(k->flags & LF_LOCK_BROKEN_LIVE)) { /* broken only after a pid probe, by name */
            msg = lf_xasprintf("%s %s the lock %s by name, and line %u breaks that lock by name after a pid probe: "
                               "two breakers that judged the same dead owner race, the slower one deletes the "
                               "faster one's fresh lock and takes it, and the faster one, still running, deletes "
                               "that lock here, so two holders run at once (every platform)",
                               call, does, what, lf_py_line(src, k->broken_at));
            break;
        }
        msg = lf_xasprintf("%s %s the lock %s by name, and line %u %s while its holder may be alive: "
                           "a holder paused past that judgement deletes its successor's lock here, and two "
                           "holders run at once (every platform)",
                           call, does, what, lf_py_line(src, k->broken_at),
                           removal ? "breaks that lock" : "takes that lock over by writing its own claim");
        break;
    }
    case V_NONE:
        break;
    }
    free(call);
    free(what);
    return msg;
}

/* Per function, where its first `yield` starts (not counting nested
 * functions, classes or lambdas): position + 1, UINT32_MAX for none, 0 not
 * looked for yet. Each function is walked once, however many removals ask. */
typedef struct first_yields {
    uint32_t *at;
} first_yields;

static uint32_t first_yield(lf_pysem *m, first_yields *y, int32_t scope) {
    if (!y->at)
        y->at = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *y->at);
    if (y->at[scope])
        return y->at[scope];
    TSNode fn = m->scopes[scope].node;
    TSTreeCursor c = ts_tree_cursor_new(fn);
    uint32_t found = UINT32_MAX;
    /* Pre-order walk of the function, not entering nested functions/classes. */
    for (int more = 1; more;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        lf_work(1);
        int nested = !ts_node_eq(n, fn) && lf_pysem_is_function_node(n);
        if (lf_tree_is(n, "yield")) {
            found = ts_node_start_byte(n) + 1;
            break;
        }
        more = lf_tree_cursor_step(&c, !nested);
    }
    ts_tree_cursor_delete(&c);
    return y->at[scope] = found;
}

/* Is the removal after a `yield` of its generator function? In a
 * @contextmanager lock helper that code runs when the caller's block ends: the
 * holder's release, whatever the acquire loop before the yield judged. */
static int after_yield(lf_pysem *m, first_yields *y, const lf_pylock_event *ev) {
    if (ev->scope < 0)
        return 0;
    uint32_t at = first_yield(m, y, ev->scope);
    return at != UINT32_MAX && at - 1 < ts_node_start_byte(ev->node);
}

/* Is the key the owner record inside a lock directory (`D / "pid"`,
 * `os.path.join(D, "owner")` with D created exclusively by mkdir)? Emptying
 * the directory before removing it is one step of removing the lock D: the
 * finding belongs to D's removal, not to its record's. */
static int record_in_lock_dir(lf_pylock *l, const lf_pylock_key *k) {
    if (k->key.kind != LF_PKEY_EXPR)
        return 0;
    TSNode e = lf_tree_unparen(k->key.node), dir = {0};
    static const char *const joins[] = {"os.path.join", "posixpath.join", NULL};
    if (lf_tree_is(e, "binary_operator") && lf_tree_is(lf_tree_field(e, "operator"), "/"))
        dir = lf_tree_field(e, "left");
    else if (lf_tree_is(e, "call") && lf_pylock_callee_any(l->m, e, joins))
        dir = lf_pylock_arg(l->m, e, 0, NULL);
    if (ts_node_is_null(dir))
        return 0;
    lf_pkey dk = lf_pylock_key_of(l, dir);
    int32_t di = lf_pylock_find(l, &dk);
    return di >= 0 && (l->keys[di].flags & LF_LOCK_EXCL) && (l->keys[di].flags & LF_LOCK_REMOVED);
}

/* Which removals to report: one finding per root bug.
 *  - A removal the function makes itself is judged on its own (verdict).
 *  - A removal through one of the module's helpers is the helper's bug when
 *    the helper already accounts for it (its own removal is reported, or it
 *    stops the owner first): the caller is not reported again. A caller that
 *    judged the lock itself (stale by a probe or by its presence) before a
 *    helper that only releases by name is named in the helper's finding
 *    ("also reached from"), whose release is reported because of that very
 *    break; only a call in the handler of a failed read of the lock is a
 *    bug of its own (the read was wrong, whatever the removal binds to).
 *  - Per function, one stale break per judgement it follows (its branches
 *    after one look are one bug; after an age and after a pid probe, two),
 *    and at most one break of a lock whose read failed (failed_read_before),
 *    one removal of an flocked file and one release.
 * Helpers may come after their callers in source order, so the cover of each
 * function is settled by repeated passes; it only grows, so at most one pass
 * per function is needed. */
/* A removal of a lock: a key the module uses as one, or a helper's parameter
 * its callers hand a lock (`read_pid(self.pidfile)`, `delete_pid(p)`), so
 * that the bug is reported once, in the helper, and not at each call. */
static int removes_lock(unsigned flags) {
    return lf_pylock_is_lock(flags) || ((flags & LF_LOCK_ARG) && !(flags & LF_LOCK_PKG));
}

static void decide(lf_pylock *l, first_yields *y, const TSNode *failed, unsigned char *report) {
    lf_pysem *m = l->m;
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    unsigned char *cover = lf_xcalloc(ns, 1);
    uint32_t *identity_at = lf_xcalloc(ns, sizeof *identity_at);
    for (int changed = 1, rounds = 0; changed && (size_t)rounds <= ns; rounds++) {
        changed = 0;
        memset(identity_at, 0, ns * sizeof *identity_at);
        for (size_t i = 0; i < l->n_events; i++) {
            const lf_pylock_event *ev = &l->events[i];
            report[i] = 0;
            if (ev->kind == LF_PYEV_IDENTITY) {
                identity_at[ev->scope] = ts_node_start_byte(ev->node) + 1;
                continue;
            }
            if (ev->kind != LF_PYEV_REMOVE || ev->key < 0 || identity_at[ev->scope] ||
                !removes_lock(l->keys[ev->key].flags) || record_in_lock_dir(l, &l->keys[ev->key]))
                continue;
            unsigned c = COVER_NONE;
            verdict v = judge(l, ev, failed[i]);
            int skip = 0;
            int32_t callee = ev->via_helper ? lf_pylock_local_callee(l, ev->node, &skip) : -1;
            if (ev->after_stop) { /* a stop command's cleanup */
                c = COVER_STRONG;
            } else if (callee >= 0 && callee != ev->scope && cover[callee]) {
                int own_judgement = v == V_LIVENESS || v == V_PRESENCE;
                /* A caller that judged the lock itself (a pid probe, a
                 * look) and then calls a helper that only releases it by
                 * name: the helper's release is reported because the
                 * module breaks the lock, here, so the call is named in
                 * that finding ("also reached from") as one root bug; a
                 * call in the handler of a failed read is a bug of its own.
                 * A helper whose removal is reported for its own look
                 * (remove() checking exists() first) covers every caller,
                 * one that probed the owner first too: binding that
                 * removal to what was judged mends both. */
                if (own_judgement && cover[callee] == COVER_WEAK) {
                    report[i] = !ts_node_is_null(failed[i]);
                    c = COVER_STRONG;
                } else {
                    c = cover[callee];
                }
            } else if (v != V_NONE) {
                report[i] = 1;
                c = v == V_RELEASE ? COVER_WEAK : COVER_STRONG;
            }
            if (c > cover[ev->scope]) {
                cover[ev->scope] = (unsigned char)c;
                changed = 1;
            }
        }
    }
    /* Per function, one break of each kind and one release: its first
     * reported removal of each (a stale break, the break of a lock whose read
     * failed, the removal of an flocked file, and the holder's own release by
     * name, after its generator's yield, are four bugs); stale breaks once
     * per kind of judgement (below). */
    unsigned char *seen = lf_xcalloc(ns, 1);
    uint32_t *first_break = lf_xcalloc(ns, sizeof *first_break); /* per scope: its first break after a look */
    int32_t *first_break_key = lf_xcalloc(ns, sizeof *first_break_key); /* and the lock it broke */
    for (size_t i = 0; i < l->n_events; i++) {
        if (!report[i])
            continue;
        verdict v = judge(l, &l->events[i], failed[i]);
        unsigned bit = v == V_RELEASE || after_yield(m, y, &l->events[i]) ? 2u
                       : !ts_node_is_null(failed[i])                      ? 4u
                       : v == V_FLOCK                                     ? 8u
                                                                          : 1u;
        /* stale breaks once per kind of judgement: after a look (an age,
         * its existence), after a pid probe, after a failed create are three
         * bugs; two after one kind are its branches (`if p.is_dir():
         * rmtree(p) else: p.unlink()`) */
        if (bit == 1u)
            bit = !ts_node_is_null(l->events[i].failed_create) ? 16u : v == V_LIVENESS ? 32u : 64u;
        /* a break after a look of its own, made after the function's first
         * break of that kind (`else:` of an unparsable record, aged anew),
         * is a second judgement, not a branch of the first */
        int32_t sc = l->events[i].scope;
        int own_look = bit == 64u && first_break[sc] && l->events[i].judged_at > first_break[sc] &&
                       l->events[i].key == first_break_key[sc];
        if ((seen[sc] & bit) && !own_look)
            report[i] = 0;
        if (bit == 64u && !(seen[sc] & bit)) {
            first_break[sc] = ts_node_start_byte(l->events[i].node) + 1;
            first_break_key[sc] = l->events[i].key;
        }
        seen[sc] |= (unsigned char)bit;
    }
    free(seen);
    free(first_break);
    free(first_break_key);
    free(identity_at);
    free(cover);
}

/* The other stale breaks of the lock in the function of break i that decide()
 * folded into it (its branches: a break on age beside a break after a probe)
 * join its fix, so that one round binds them all: fixed alone, the next round
 * would find the next branch and fix it then. */
static void absorb_folded_breaks(lf_pylock *l, first_yields *y, const unsigned char *report, const TSNode *failed,
                                 size_t i, lf301_py_site *site) {
    const lf_pylock_event *ev = &l->events[i];
    for (size_t j = 0; j < l->n_events; j++) {
        const lf_pylock_event *o = &l->events[j];
        if (j == i || report[j] || o->kind != LF_PYEV_REMOVE || o->scope != ev->scope || o->key < 0 ||
            o->via_helper || !lf_pylock_key_eq(l->m, &l->keys[o->key].key, &l->keys[ev->key].key))
            continue;
        verdict v = judge(l, o, failed[j]);
        if ((v != V_LIVENESS && v != V_PRESENCE) || after_yield(l->m, y, o) || !ts_node_is_null(failed[j]))
            continue;
        lf301_py_site_absorb(site, lf301_py_site_make(l, o, 0));
    }
}


/* One finding per root bug, with its other sites named: per reported
 * removal in a helper, the calls of that helper whose removal is not
 * reported again (`__del__` calling `self.remove()`, a breaker calling it
 * after its judgement), as "f (line N)", at most four. One pass over the
 * events: each unreported call goes to the first reported removal of the
 * function it calls. */
static char **callers_of_reported(lf_pylock *l, const lf_source *src, const unsigned char *report) {
    lf_pysem *m = l->m;
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    char **out = lf_xcalloc(l->n_events ? l->n_events : 1, sizeof *out);
    int32_t *first = lf_xmalloc(ns * sizeof *first); /* scope -> its first reported removal, or -1 */
    unsigned char *count = lf_xcalloc(l->n_events ? l->n_events : 1, 1);
    for (size_t s = 0; s < ns; s++)
        first[s] = -1;
    for (size_t i = 0; i < l->n_events; i++)
        if (report[i] && l->events[i].scope >= 0 && first[l->events[i].scope] < 0)
            first[l->events[i].scope] = (int32_t)i;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *ev = &l->events[i];
        if (report[i] || ev->kind != LF_PYEV_REMOVE || !ev->via_helper || ev->scope < 0)
            continue;
        int skip = 0;
        int32_t f = lf_pylock_local_callee(l, ev->node, &skip);
        if (f < 0 || f == ev->scope || first[f] < 0)
            continue;
        int32_t r = first[f];
        if (count[r] >= 4 || (i > 0 && ts_node_eq(l->events[i - 1].node, ev->node) && !report[i - 1] &&
                              l->events[i - 1].kind == LF_PYEV_REMOVE))
            continue; /* one call removing two keys is one site */
        const lf_pyscope *sc = &m->scopes[ev->scope];
        const char *name = sc->kind == LF_PYSCOPE_MODULE                  ? "module level"
                           : sc->kind == LF_PYSCOPE_LAMBDA || !sc->name || !*sc->name ? "a lambda"
                                                                             : sc->name;
        char *prev = out[r];
        out[r] = prev ? lf_xasprintf("%s, %s (line %u)", prev, name, lf_py_line(src, ev->node))
                      : lf_xasprintf("%s (line %u)", name, lf_py_line(src, ev->node));
        free(prev);
        count[r]++;
    }
    free(count);
    free(first);
    return out;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf301_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    lf_pylock *l = lf_pylock_build(m);
    if (!l->n_events)
        return;
    unsigned char *report = lf_xcalloc(l->n_events, 1);
    first_yields yields = {0};
    TSNode *failed = failed_reads(l);
    decide(l, &yields, failed, report);
    char **callers = callers_of_reported(l, lf_ctx_source(ctx), report);
    for (size_t i = 0; i < l->n_events; i++) {
        if (!report[i])
            continue;
        const lf_pylock_event *ev = &l->events[i];
        verdict as = judge(l, ev, failed[i]);
        char *msg = message(l, lf_ctx_source(ctx), ev, as, failed[i]);
        if (msg && callers[i]) {
            char *with = lf_xasprintf("%s; also reached from %s (the same bug, not reported again)", msg, callers[i]);
            free(msg);
            msg = with;
        }
        free(callers[i]);
        if (msg) {
            verdict v = as;
            int release = v == V_RELEASE || (v != V_FLOCK && after_yield(m, &yields, ev));
            /* Binding the removal to what was read does not mend a failed
             * read: the lock read as corrupt is the live one its owner is
             * still writing, and it is unchanged until that write lands. */
            TSNode failed_read = v != V_FLOCK ? failed[i] : (TSNode){0};
            lf301_py_site *site =
                !ts_node_is_null(failed_read)
                    ? lf301_py_site_declined(lf_xstrdup(
                          "the removal follows a failed read of the lock: a lock its owner is still writing reads "
                          "as corrupt and stays unchanged until that write lands, so binding the removal to what "
                          "was read would still delete it; whether to wait, retry the read or fail is the code "
                          "owner's choice"))
                    : lf301_py_site_make(l, ev, release);
            if (!release && (as == V_LIVENESS || as == V_PRESENCE) && ts_node_is_null(failed_read))
                absorb_folded_breaks(l, &yields, report, failed, i, site);
            lf_ctx_emit_site(ctx, ev->node, msg, site, lf301_py_site_free);
            lf_ctx_witness(ctx, ts_node_is_null(failed_read) ? lf_wit_removal_py(l, ev)
                                                             : lf_wit_failed_read_py(l, ev, failed_read));
        }
        free(msg);
    }
    free(callers);
    free(report);
    free(failed);
    free(yields.at);
}

/* ---- the gate: could anything here remove a lock by name? ----
 *
 * Every removal the model reads is one lf_pygate_may_remove looks for, and a
 * removal is reported only of a lock (lf_pylock_is_lock): a file in which
 * lf_pygate_may_hold_lock finds no lock use has none to remove. */
static int gate(lf_gate_text *in) {
    return in->lang != LF_LANG_PYTHON || (lf_pygate_may_hold_lock(in) && lf_pygate_may_remove(in));
}

const lf_check lf301_lock_removal_check = {"lf301_lock_removal", run, 0, 0, gate}; /* asks the model, not the query */
