#include "lf_witness_build.h"

#include <stdlib.h>
#include <string.h>

#include "lf_py.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_util.h"

/* ---- steps from nodes ---- */

/* A step whose text ends with the node's own (short) source text, so every
 * step shows the code it points at. */
static void step(lf_witness *w, const lf_source *src, unsigned p, lf_wit_event ev, TSNode at, const char *what) {
    if (ts_node_is_null(at))
        return;
    char *code = lf_py_short(src, at);
    lf_witness_step_at(w, p, ev, at, "%s: %s", what ? what : "", code);
    free(code);
}

enum { A = 0, B = 1, C = 2 };

lf_witness *lf_wit_lost_update(const lf_source *src, const char *platform, lf_wit_event entry_ev, TSNode entry,
                               const char *entry_text, TSNode read, TSNode write, TSNode path) {
    if (ts_node_is_null(read) || ts_node_is_null(write))
        return NULL;
    lf_witness *w = lf_witness_new(platform);
    if (!ts_node_is_null(entry)) {
        step(w, src, A, entry_ev, entry, entry_text);
        step(w, src, B, entry_ev, entry, entry_text);
    }
    step(w, src, A, LF_WIT_READ, read, "reads the document");
    step(w, src, B, LF_WIT_READ, read, "reads the same document, before A writes");
    step(w, src, A, LF_WIT_WRITE, write, "writes back its change");
    step(w, src, B, LF_WIT_WRITE, write, "writes back what it read plus its own change");
    char *what = ts_node_is_null(path) ? NULL : lf_py_short(src, path);
    lf_witness_set_outcome(w, "A's update is lost: B's write replaces %s with a version that never saw A's change",
                           what ? what : "the document");
    free(what);
    return w;
}

lf_witness *lf_wit_read_write(const lf_source *src, TSNode read, TSNode write, TSNode path) {
    return lf_wit_lost_update(src, "any platform", LF_WIT_READ, (TSNode){0}, "", read, write, path);
}

lf_witness *lf_wit_stale_copy(const lf_source *src, TSNode read, TSNode write, TSNode other_read, TSNode other_write) {
    if (ts_node_is_null(read) || ts_node_is_null(write) || ts_node_is_null(other_read) || ts_node_is_null(other_write))
        return NULL;
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, LF_WIT_READ, read, "reads the document");
    step(w, src, B, LF_WIT_READ, other_read, "reads it for its own read-modify-write");
    step(w, src, B, LF_WIT_WRITE, other_write, "writes back its change");
    step(w, src, A, LF_WIT_WRITE, write, "writes back the copy it read before B's write");
    lf_witness_set_outcome(w, "B's update is lost: A's write replaces the document with a copy that never saw it");
    return w;
}

lf_witness *lf_wit_unlocked_section(const lf_source *src, const char *platform, lf_wit_event entry_ev, TSNode entry,
                                    const char *entry_text, TSNode first) {
    if (ts_node_is_null(entry) || ts_node_is_null(first))
        return NULL;
    lf_witness *w = lf_witness_new(platform);
    step(w, src, A, entry_ev, entry, entry_text);
    step(w, src, B, entry_ev, entry, entry_text);
    step(w, src, A, LF_WIT_SECTION, first, "runs the critical section with no lock");
    step(w, src, B, LF_WIT_SECTION, first, "runs the same critical section at the same time");
    lf_witness_set_outcome(w, "A and B run the critical section at once: whatever it read-modify-writes, one "
                              "process's update overwrites the other's");
    return w;
}

lf_witness *lf_wit_noop_release(const lf_source *src, TSNode wait, TSNode noop, TSNode first) {
    if (ts_node_is_null(wait) || ts_node_is_null(noop) || ts_node_is_null(first))
        return NULL;
    lf_witness *w = lf_witness_new("on every platform, whenever the lock cannot be taken in time");
    step(w, src, B, LF_WIT_SECTION, first, "holds the lock and runs the critical section, past A's wait");
    step(w, src, A, LF_WIT_ACQUIRE_FAILS, wait, "gives up waiting for the lock");
    step(w, src, A, LF_WIT_ACQUIRE_FAILS, noop, "is handed a release that releases nothing, as if it held the lock");
    step(w, src, A, LF_WIT_SECTION, first, "runs the same critical section with no lock");
    lf_witness_set_outcome(w, "A and B run the critical section at once: whatever it read-modify-writes, one "
                              "process's update overwrites the other's");
    return w;
}

lf_witness *lf_wit_append(const lf_source *src, TSNode create, TSNode append, TSNode target) {
    if (ts_node_is_null(create) || ts_node_is_null(append))
        return NULL;
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, LF_WIT_CREATE, create, "creates the file exclusively (its first write)");
    step(w, src, A, LF_WIT_APPEND, append, "appends a record");
    step(w, src, B, LF_WIT_APPEND, append, "appends to the same file: the exclusive create never stops a later writer");
    step(w, src, A, LF_WIT_APPEND, append, "appends its next record");
    char *what = lf_py_short(src, target);
    lf_witness_set_outcome(w, "A's and B's records interleave in %s: two writers share one log, and a record "
                              "written in more than one write() can be torn",
                           what);
    free(what);
    return w;
}

lf_witness *lf_wit_missing_target(const lf_source *src, TSNode call, int node_realpath) {
    if (ts_node_is_null(call))
        return NULL;
    lf_witness *w = lf_witness_new(node_realpath ? "any platform" : "Windows path semantics");
    step(w, src, A, LF_WIT_RESOLVE, call,
         "resolves the target before it exists (its first write; on Windows also while another process's "
         "replace has it absent)");
    lf_witness_set_outcome(w, node_realpath
                                  ? "realpath throws ENOENT for the missing file: the confinement check fails for a "
                                    "legitimate file about to be created"
                                  : "realpath returns the missing path unresolved: behind a symlinked directory the "
                                    "confinement check rejects a legitimate file");
    return w;
}

/* Does key k name the resolved file: the target's own key, or the result of
 * the function that resolves it (`path = _state_file(name)` ...
 * `os.replace(tmp, path)`), as LF201 itself decides it is replaced? */
static int names_target(const lf_pylock *l, const lf_pkey *k, const lf_pkey *want, int32_t fn) {
    if (k->kind == LF_PKEY_NONE)
        return 0;
    if (want->kind != LF_PKEY_NONE && lf_pylock_key_same(l, k, want))
        return 1;
    return fn >= 0 && k->kind == LF_PKEY_CALL && k->scope == fn;
}

/* A call that moves a file onto the target (os.replace/os.rename/
 * shutil.move(src, target), tmp.replace(target)), else a removal of it. */
static TSNode replaces(lf_pylock *l, TSNode call, TSNode target, int *removal) {
    static const char *const k_move[] = {"os.replace", "os.rename", "shutil.move", NULL};
    lf_pysem *m = l->m;
    lf_pkey want = lf_pylock_key_of(l, target);
    int32_t fn = lf_pysem_scope_of(m, call);
    while (fn >= 0 && m->scopes[fn].kind != LF_PYSCOPE_FUNCTION)
        fn = m->scopes[fn].parent;
    *removal = 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node, dst = {0};
        if (lf_pylock_callee_any(m, c, k_move))
            dst = lf_pylock_arg(m, c, 1, "dst");
        else if (lf_py_method_is(m->src, c, "replace") || lf_py_method_is(m->src, c, "rename"))
            dst = lf_pylock_arg(m, c, 0, "target");
        if (ts_node_is_null(dst))
            continue;
        lf_pkey k = lf_pylock_key_of(l, dst);
        if (names_target(l, &k, &want, fn))
            return c;
    }
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_PYEV_REMOVE && l->events[i].key >= 0 &&
            names_target(l, &l->keys[l->events[i].key].key, &want, fn)) {
            *removal = 1;
            return l->events[i].node;
        }
    return (TSNode){0};
}

lf_witness *lf_wit_missing_target_py(lf_pysem *m, TSNode call, TSNode target) {
    int removal;
    TSNode by = replaces(lf_pylock_build(m), call, target, &removal);
    if (ts_node_is_null(by))
        return lf_wit_missing_target(m->src, call, 0);
    lf_witness *w = lf_witness_new("Windows");
    step(w, m->src, B, removal ? LF_WIT_REMOVE : LF_WIT_RENAME, by,
         removal ? "deletes the file (it is re-created later)"
                 : "replaces the file: while the rename runs, Windows cannot open it by name");
    step(w, m->src, A, LF_WIT_RESOLVE, call, "resolves the file just then: realpath() gets the name unresolved");
    lf_witness_set_outcome(w, "behind a symlinked or junctioned directory the confinement check rejects the "
                              "legitimate file, and A's call fails");
    return w;
}

lf_witness *lf_wit_eperm(const lf_source *src, TSNode probe, TSNode handler) {
    if (ts_node_is_null(probe) || ts_node_is_null(handler))
        return NULL;
    lf_witness *w = lf_witness_new("POSIX");
    step(w, src, B, LF_WIT_PROBE, probe, "probes the owner A's pid: A is alive but runs as another user, so the "
                                         "probe fails with EPERM");
    step(w, src, B, LF_WIT_MISREAD, handler, "reads the EPERM as \"dead\"");
    lf_witness_set_outcome(w, "B breaks A's live lock: A and B hold it at once");
    return w;
}

lf_witness *lf_wit_pid_reuse(const lf_source *src, TSNode probe) {
    if (ts_node_is_null(probe))
        return NULL;
    lf_witness *w = lf_witness_new("any platform that reuses pids");
    step(w, src, B, LF_WIT_PROBE, probe,
         "probes the pid the lock records: its owner A has exited and an unrelated process C now has that pid, so "
         "the probe succeeds");
    lf_witness_set_outcome(w, "B reads the lock as held by a live owner: it is never reclaimed, and every later "
                              "process waits forever or gives up");
    return w;
}

lf_witness *lf_wit_shared_temp(const lf_source *src, TSNode temp, TSNode rename) {
    if (ts_node_is_null(temp) || ts_node_is_null(rename))
        return NULL;
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, LF_WIT_TEMP, temp, "opens the temp name and writes its data");
    step(w, src, B, LF_WIT_TEMP, temp, "opens the same temp name, truncating A's data, and starts writing");
    step(w, src, A, LF_WIT_RENAME, rename, "renames the temp over the target while B is still writing it");
    step(w, src, B, LF_WIT_RENAME, rename, "renames a temp that is gone: the rename fails");
    lf_witness_set_outcome(w, "the target holds B's half-written data under A's name, and B's write fails");
    return w;
}

/* ---- LF301: removals by name ---- */

typedef enum race_kind { RACE_LIVENESS, RACE_PRESENCE, RACE_RELEASE, RACE_RELEASE_OVERWRITE, RACE_FLOCK } race_kind;

/* The shared shape: `take` takes the lock (create, flock, pid write), `judge`
 * judged it (may be null), `remove` removes it by name; `breaker` is the
 * removal that breaks a lock (RACE_RELEASE: elsewhere in the module). */
static lf_witness *lock_race(const lf_source *src, race_kind kind, TSNode take, lf_wit_event take_ev, TSNode judge,
                             lf_wit_event judge_ev, TSNode remove, TSNode breaker, const char *platform) {
    if (ts_node_is_null(remove))
        return NULL;
    lf_witness *w = lf_witness_new(platform);
    switch (kind) {
    case RACE_FLOCK:
        step(w, src, A, LF_WIT_LOCK, take, "opens the lock file and locks it");
        step(w, src, B, LF_WIT_LOCK, take, "opens the same file and waits for its lock");
        step(w, src, A, LF_WIT_REMOVE, remove, "removes the lock file by name on release");
        step(w, src, C, LF_WIT_LOCK, take, "finds no file: creates a fresh one and locks it");
        lf_witness_set_outcome(w, "B's wait returns with a lock on the removed inode while C holds the new file: "
                                  "B and C hold the lock at once");
        return w;
    case RACE_RELEASE:
    case RACE_RELEASE_OVERWRITE: /* broken by writing over it (a lock claimed by writing: LF_LOCK_CLAIM) */
        step(w, src, A, take_ev, take, "takes the lock, then pauses (stopped, swapped out) past the staleness limit");
        step(w, src, B, judge_ev, judge, "judges the lock stale");
        if (kind == RACE_RELEASE_OVERWRITE) {
            step(w, src, B, LF_WIT_WRITE, breaker, "writes its own claim over it: takes it over");
        } else {
            step(w, src, B, LF_WIT_REMOVE, breaker, "breaks it by name");
            step(w, src, B, take_ev, take, "takes the lock");
        }
        step(w, src, A, LF_WIT_REMOVE, remove, "resumes and releases \"its\" lock by name: it removes B's");
        step(w, src, C, take_ev, take, "takes the lock, now free");
        lf_witness_set_outcome(w, ts_node_is_null(take)
                                      ? "A's release deletes the lock B took after breaking it: B and the next "
                                        "process to take it hold it at once"
                                      : "B's live lock is deleted: B and C hold the lock at once");
        return w;
    case RACE_LIVENESS:
    case RACE_PRESENCE:
        break;
    }
    const char *why = kind == RACE_LIVENESS ? "judges the owner dead" : "looks at the lock (existence, stat or age)";
    step(w, src, A, judge_ev, judge, why);
    step(w, src, B, judge_ev, judge, kind == RACE_LIVENESS ? "judges the same owner dead" : "looks at it too");
    step(w, src, B, LF_WIT_REMOVE, remove, "removes it by name");
    step(w, src, B, take_ev, take, "takes the lock: its own, live");
    if (ts_node_is_null(take)) { /* the lock is taken in another module: whoever takes it in between */
        step(w, src, A, LF_WIT_REMOVE, remove, "removes by name what it judged: by now another process's lock");
        lf_witness_set_outcome(w, "the lock a process took between B's removal and A's is deleted: its holder and "
                                  "the next process to take it run at once");
        return w;
    }
    step(w, src, A, LF_WIT_REMOVE, remove, "removes by name what it judged: the lock B just took");
    step(w, src, C, take_ev, take, "takes the lock, now free");
    lf_witness_set_outcome(w, "B's live lock is deleted: B and C hold the lock at once");
    return w;
}

/* The last event of `kind` (for `key`, or any key when key < 0) in the same
 * scope before `before`. */
static TSNode py_last_before(const lf_pylock *l, lf_pylock_event_kind kind, int32_t scope, int32_t key, TSNode before,
                             int content) {
    TSNode found = {0};
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *e = &l->events[i];
        if (ts_node_start_byte(e->node) >= ts_node_start_byte(before))
            break;
        if (e->kind == kind && e->scope == scope && (key < 0 || e->key == key) &&
            (content < 0 || !e->content == !content))
            found = e->node;
    }
    return found;
}

/* How the module takes lock k, and where (the first use that made it one). */
static lf_wit_event py_take_event(const lf_pylock_key *k) {
    if (k->evidence_flag & (LF_LOCK_EXCL | LF_LOCK_SYMLINK))
        return LF_WIT_CREATE;
    if (k->evidence_flag & (LF_LOCK_PID | LF_LOCK_CLAIM))
        return LF_WIT_WRITE;
    return LF_WIT_LOCK;
}

/* Where the lock is taken, for a witness: null for a pid lock by its
 * protocol alone (LF_LOCK_PID_READ), which its owner writes elsewhere. */
static TSNode py_take_node(const lf_pylock_key *k) {
    return (k->flags & LF_LOCK_PID_READ) && k->evidence_flag == LF_LOCK_PID ? (TSNode){0} : k->evidence;
}

lf_witness *lf_wit_removal_py(lf_pylock *l, const lf_pylock_event *ev) {
    const lf_source *src = l->m->src;
    const lf_pylock_key *k = &l->keys[ev->key];
    lf_wit_event take = py_take_event(k);
    if (k->flags & LF_LOCK_FLOCK)
        return lock_race(src, RACE_FLOCK, k->evidence, LF_WIT_LOCK, (TSNode){0}, LF_WIT_JUDGE, ev->node, (TSNode){0},
                         "POSIX");
    if (ev->judged == LF_JUDGED_LIVENESS) {
        TSNode probe = py_last_before(l, LF_PYEV_PROBE, ev->scope, -1, ev->node, -1);
        return lock_race(src, RACE_LIVENESS, py_take_node(k), take, probe, LF_WIT_PROBE, ev->node, (TSNode){0},
                         "any platform");
    }
    if (ev->judged == LF_JUDGED_PRESENCE) {
        TSNode judge = py_last_before(l, LF_PYEV_JUDGE, ev->scope, ev->key, ev->node, 0);
        return lock_race(src, RACE_PRESENCE, py_take_node(k), take, judge, LF_WIT_JUDGE, ev->node, (TSNode){0},
                         "any platform");
    }
    /* A release of a lock the module breaks elsewhere (k->broken_at). */
    int32_t bscope = -1;
    for (size_t i = 0; i < l->n_events && bscope < 0; i++)
        if (ts_node_eq(l->events[i].node, k->broken_at) && l->events[i].kind == LF_PYEV_REMOVE)
            bscope = l->events[i].scope;
    /* ...or writes over elsewhere: a claim taken over (lf_pylock's
     * mark_overwrite_takeovers), judged in the writing function */
    int overwrite = 0;
    if (bscope < 0 && !ts_node_is_null(k->broken_at)) {
        const lf_pycall *c = lf_pysem_call(l->m, k->broken_at);
        bscope = c ? c->scope : -1;
        overwrite = 1;
    }
    TSNode judge = bscope < 0 ? (TSNode){0} : py_last_before(l, LF_PYEV_JUDGE, bscope, ev->key, k->broken_at, -1);
    return lock_race(src, overwrite ? RACE_RELEASE_OVERWRITE : RACE_RELEASE, py_take_node(k), take, judge, LF_WIT_JUDGE,
                     ev->node, k->broken_at, "any platform");
}

/* A removal in the handler of a failed read: A has taken the lock (at
 * `take`) but not written its record, B reads it, fails and removes it. */
static lf_witness *failed_read_race(const lf_source *src, TSNode take, lf_wit_event take_ev, TSNode read,
                                    TSNode remove) {
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, take_ev, take, "takes the lock; its record is not written yet");
    step(w, src, B, LF_WIT_JUDGE, read, "reads the lock before A's record is in it: the read fails");
    step(w, src, B, LF_WIT_REMOVE, remove, "takes it for corrupt and removes it by name");
    step(w, src, C, take_ev, take, "takes the lock, now free");
    lf_witness_set_outcome(w, ts_node_is_null(take) ? "A's live lock is deleted: A and the next process to take it "
                                                      "hold it at once"
                                                    : "A's live lock is deleted: A and C hold the lock at once");
    return w;
}

lf_witness *lf_wit_failed_read_py(lf_pylock *l, const lf_pylock_event *ev, TSNode read) {
    const lf_pylock_key *k = &l->keys[ev->key];
    return failed_read_race(l->m->src, k->evidence, py_take_event(k), read, ev->node);
}

static TSNode ts_last_before(const lf_tslock *l, lf_tslock_event_kind kind, int32_t fn, int32_t key, TSNode before,
                             int content) {
    TSNode found = {0};
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *e = &l->events[i];
        if (ts_node_start_byte(e->node) >= ts_node_start_byte(before))
            break;
        if (e->kind == kind && e->fn == fn && (key < 0 || e->key == key) && (content < 0 || !e->content == !content))
            found = e->node;
    }
    return found;
}

/* The exclusive create of key k (the module's first), or null when the
 * module never takes the lock itself (its evidence is then a pid compare or
 * a lock library call, not a place where it is taken). */
static TSNode ts_take(const lf_tslock *l, int32_t k, lf_wit_event *ev) {
    *ev = LF_WIT_CREATE;
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_CREATE && l->events[i].key == k)
            return l->events[i].node;
    return (TSNode){0};
}

/* A takeover by rewriting the lock's record over the one judged (no removal):
 * two processes that both judged it take it at once. */
static lf_witness *overwrite_race(const lf_source *src, TSNode judge, lf_wit_event judge_ev, TSNode write) {
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, judge_ev, judge, "judges the lock's owner gone");
    step(w, src, B, judge_ev, judge, "judges the same owner gone");
    step(w, src, B, LF_WIT_WRITE, write, "writes its own record over the lock: takes it");
    step(w, src, A, LF_WIT_WRITE, write, "writes its own record over B's: takes it too");
    lf_witness_set_outcome(w, "A and B both went on as the lock's holder: they hold it at once");
    return w;
}

lf_witness *lf_wit_failed_read_ts(lf_tslock *l, const lf_tslock_event *ev, TSNode read) {
    lf_wit_event take_ev;
    TSNode take = ts_take(l, ev->key, &take_ev);
    return failed_read_race(l->m->src, take, take_ev, read, ev->node);
}

/* The call of the release function a lock library's take returned (`const
 * release = await lock(file); ... await release()`), in the function of
 * `before` and ahead of it; null when none is in view. */
static TSNode library_release_call(lf_tssem *m, TSNode take, TSNode before) {
    TSNode d = take;
    while (!ts_node_is_null(d) && !lf_tree_is(d, "variable_declarator") && !lf_tree_is(d, "statement_block"))
        d = ts_node_parent(d);
    TSNode name = lf_tree_is(d, "variable_declarator") ? lf_tree_field(d, "name") : (TSNode){0};
    if (!lf_tree_is(name, "identifier"))
        return (TSNode){0};
    const char *text = m->src->text;
    uint32_t at = ts_node_start_byte(name), n = ts_node_end_byte(name) - at;
    TSNode found = {0};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node, fn = lf_tree_field(c, "function");
        uint32_t f = ts_node_start_byte(fn);
        if (ts_node_start_byte(c) > ts_node_start_byte(take) && ts_node_start_byte(c) < ts_node_start_byte(before) &&
            lf_tree_is(fn, "identifier") && ts_node_end_byte(fn) - f == n && !memcmp(text + f, text + at, n))
            found = c;
    }
    return found;
}

lf_witness *lf_wit_removal_ts(lf_tslock *l, const lf_tslock_event *ev) {
    const lf_source *src = l->m->src;
    const lf_tslock_key *lk = &l->keys[ev->key];
    if ((lk->flags & LF_TSLOCK_LIBDIR) && !ts_node_is_null(lk->library_take)) {
        TSNode take = lk->library_take;
        lf_witness *w = lf_witness_new("any platform");
        step(w, src, A, LF_WIT_LOCK, take, "takes the lock through the library");
        step(w, src, A, LF_WIT_REMOVE, library_release_call(l->m, take, ev->node),
             "releases it through the library: the directory is gone");
        step(w, src, B, LF_WIT_LOCK, take, "takes the lock: the library makes the directory again, B's");
        step(w, src, A, LF_WIT_REMOVE, ev->node, "removes the lock directory by name: B's live lock");
        step(w, src, C, LF_WIT_LOCK, take, "takes the lock, now free");
        lf_witness_set_outcome(w, "B's live lock is deleted: B and C hold the lock at once");
        return w;
    }
    if (ev->kind == LF_TSEV_OVERWRITE) {
        /* the judgement it acts on: a pid probe, else a look at the lock (its age or its record) */
        lf_wit_event judge_ev = LF_WIT_PROBE;
        TSNode judge = ts_last_before(l, LF_TSEV_PROBE, ev->fn, -1, ev->node, -1);
        if (ts_node_is_null(judge)) {
            judge = ts_last_before(l, LF_TSEV_JUDGE, ev->fn, ev->key, ev->node, -1);
            judge_ev = LF_WIT_JUDGE;
        }
        return ts_node_is_null(judge) ? NULL : overwrite_race(src, judge, judge_ev, ev->node);
    }
    lf_wit_event take_ev;
    TSNode take = ts_take(l, ev->key, &take_ev);
    if (ev->judged == LF_TSJUDGED_LIVENESS) {
        TSNode probe = ts_last_before(l, LF_TSEV_PROBE, ev->fn, -1, ev->node, -1);
        return lock_race(src, RACE_LIVENESS, take, take_ev, probe, LF_WIT_PROBE, ev->node, (TSNode){0},
                         "any platform");
    }
    if (ev->judged == LF_TSJUDGED_PRESENCE) {
        TSNode judge = ts_last_before(l, LF_TSEV_JUDGE, ev->fn, ev->key, ev->node, 0);
        return lock_race(src, RACE_PRESENCE, take, take_ev, judge, LF_WIT_JUDGE, ev->node, (TSNode){0},
                         "any platform");
    }
    TSNode broken = l->keys[ev->key].broken_at;
    int32_t bfn = -1;
    int overwrite = 0;
    for (size_t i = 0; i < l->n_events && bfn < 0; i++)
        if (ts_node_eq(l->events[i].node, broken) &&
            (l->events[i].kind == LF_TSEV_REMOVE || l->events[i].kind == LF_TSEV_OVERWRITE)) {
            bfn = l->events[i].fn;
            overwrite = l->events[i].kind == LF_TSEV_OVERWRITE;
        }
    TSNode judge = bfn < 0 ? (TSNode){0} : ts_last_before(l, LF_TSEV_JUDGE, bfn, ev->key, broken, 0);
    if (overwrite) { /* broken by rewriting its record, not by a removal */
        lf_wit_event judge_ev = LF_WIT_JUDGE;
        if (ts_node_is_null(judge)) {
            judge = ts_last_before(l, LF_TSEV_PROBE, bfn, -1, broken, -1);
            judge_ev = LF_WIT_PROBE;
        }
        lf_witness *w = lf_witness_new("any platform");
        step(w, src, A, take_ev, take, "takes the lock, then pauses (stopped, swapped out) past the staleness limit");
        step(w, src, B, judge_ev, judge,
             judge_ev == LF_WIT_PROBE ? "judges the lock's owner dead" : "judges the lock stale");
        step(w, src, B, LF_WIT_WRITE, broken, "writes its own record over it: takes it over");
        step(w, src, A, LF_WIT_REMOVE, ev->node, "resumes and releases \"its\" lock by name: it removes B's");
        step(w, src, C, take_ev, take, "takes the lock, now free");
        lf_witness_set_outcome(w, "B's live lock is deleted: B and C hold the lock at once");
        return w;
    }
    return lock_race(src, RACE_RELEASE, take, take_ev, judge, LF_WIT_JUDGE, ev->node, broken, "any platform");
}

/* ---- LF302: a lock judged stale by its age ---- */

static lf_witness *stale_age(const lf_source *src, TSNode take, lf_wit_event take_ev, TSNode judge, TSNode remove) {
    if (ts_node_is_null(judge))
        return NULL;
    lf_witness *w = lf_witness_new("any platform");
    step(w, src, A, take_ev, take, "takes the lock, then pauses (stopped, swapped out, slow disk) past the age limit");
    step(w, src, B, LF_WIT_JUDGE, judge, "finds the lock older than the limit: judges it stale while A still holds it");
    step(w, src, B, LF_WIT_REMOVE, remove, "breaks it by name");
    step(w, src, B, take_ev, take, "takes the lock");
    lf_witness_set_outcome(w, "A resumes inside its critical section while B runs in its own: A and B hold the "
                              "lock at once");
    return w;
}

/* The first removal of key in the judgement's scope after it, or null. */
lf_witness *lf_wit_stale_age_py(lf_pylock *l, TSNode judge, TSNode path) {
    lf_pkey pk = lf_pylock_key_of(l, path);
    int32_t k = lf_pylock_find(l, &pk);
    TSNode take = k >= 0 ? l->keys[k].evidence : (TSNode){0};
    lf_wit_event take_ev = k >= 0 ? py_take_event(&l->keys[k]) : LF_WIT_LOCK;
    int32_t scope = lf_pysem_scope_of(l->m, judge);
    TSNode remove = {0};
    for (size_t i = 0; k >= 0 && i < l->n_events && ts_node_is_null(remove); i++) {
        const lf_pylock_event *e = &l->events[i];
        if (e->kind == LF_PYEV_REMOVE && e->key == k && e->scope == scope &&
            ts_node_start_byte(e->node) > ts_node_start_byte(judge))
            remove = e->node;
    }
    return stale_age(l->m->src, take, take_ev, judge, remove);
}

lf_witness *lf_wit_stale_age_ts(lf_tslock *l, TSNode judge, int32_t k) {
    lf_wit_event take_ev = LF_WIT_LOCK;
    TSNode take = k >= 0 ? ts_take(l, k, &take_ev) : (TSNode){0};
    int32_t fn = lf_tslock_fn_of(l->m, lf_tssem_scope_of(l->m, judge));
    TSNode remove = {0};
    for (size_t i = 0; k >= 0 && i < l->n_events && ts_node_is_null(remove); i++) {
        const lf_tslock_event *e = &l->events[i];
        if (e->kind == LF_TSEV_REMOVE && e->key == k && e->fn == fn &&
            ts_node_start_byte(e->node) > ts_node_start_byte(judge))
            remove = e->node;
    }
    return stale_age(l->m->src, take, take_ev, judge, remove);
}
