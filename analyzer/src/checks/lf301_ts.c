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
 *    token, of a lock the module breaks on existence or age alone: a holder
 *    paused past that judgement deletes its successor's lock.
 * Package-manager lock files never count; removals through the module's own
 * helpers are reported at the call of the helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf301_ts_site.h"
#include "lf_pyshort.h"
#include "lf_ts.h"
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

void lf301_ts_run(lf_check_ctx *ctx) {
    lf_tssem *m = lf_ctx_tssem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    lf_tslock *l = lf_tslock_build(m);
    unsigned char *identity = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, 1);
    for (size_t i = 0; i < l->n_events; i++)
        if (l->events[i].kind == LF_TSEV_IDENTITY)
            identity[l->events[i].fn] = 1;
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_tslock_event *ev = &l->events[i];
        if (ev->kind != LF_TSEV_REMOVE || ev->key < 0 || identity[ev->fn])
            continue;
        const lf_tslock_key *k = &l->keys[ev->key];
        if (!lf_tslock_is_lock(k->flags))
            continue;
        /* rmdir cannot remove a lock made as a file or symlink (ENOTDIR):
         * pidlock's belt-and-braces rmdir after its unlink removes nothing */
        const char *op = ev->via_helper ? NULL : lf_tslock_fs_op(m, ev->node);
        if (op && !strcmp(op, "rmdir") && (k->flags & LF_TSLOCK_FILE) && !(k->flags & LF_TSLOCK_DIR))
            continue;
        if (ev->via_helper && ev->helper_key >= 0) {
            int own = ev->helper_key == ev->key; /* the helper removes a path of its own */
            /* its release is reported at the removal inside it; a call is
             * reported when the caller judged the lock first */
            if (own && ev->judged != LF_TSJUDGED_LIVENESS && ev->judged != LF_TSJUDGED_PRESENCE)
                continue;
            /* a parameter the helper judges itself is reported inside it */
            if (!own && (l->keys[ev->helper_key].flags & LF_TSLOCK_BROKEN))
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
        }
        char *call = lf_py_short(src, ev->node);
        char *what = lf_py_short(src, ev->target);
        char *msg = NULL;
        if (ev->judged == LF_TSJUDGED_LIVENESS) {
            msg = lf_xasprintf("%s removes the lock %s by name after judging its owner dead: two processes that both "
                               "judged it stale race, and the slower one deletes the lock the faster one has just "
                               "taken, so two holders run at once",
                               call, what);
        } else if (ev->judged == LF_TSJUDGED_PRESENCE) {
            msg = lf_xasprintf("%s removes the lock %s by name after looking at it (existence, stat or age): nothing "
                               "binds the removal to what was judged, so a lock another process took in between is "
                               "deleted and two holders run at once",
                               call, what);
        } else if (k->flags & LF_TSLOCK_BROKEN_LIVE) {
            msg = lf_xasprintf("%s %s the lock %s by name, and line %u breaks that lock while its holder may be alive: "
                               "a holder paused past that judgement deletes its successor's lock here, and two "
                               "holders run at once",
                               call,
                               ev->judged == LF_TSJUDGED_CONTENT ? "reads the owner record, then separately removes"
                                                                 : "releases",
                               what, lf_py_line(src, k->broken_at));
        }
        if (!msg && (k->flags & LF_TSLOCK_BREAKABLE)) {
            unsigned at = ts_node_is_null(k->broken_at) ? 0 : lf_py_line(src, k->broken_at);
            char where[48] = "elsewhere";
            if (at)
                snprintf(where, sizeof where, "at line %u", at);
            msg = lf_xasprintf("%s %s the lock %s by name, and the module breaks that lock %s: a holder whose lock "
                               "was broken (two breakers racing, or its pid judged dead or reused) deletes its "
                               "successor's lock here, and two holders run at once",
                               call,
                               ev->judged == LF_TSJUDGED_CONTENT ? "reads the owner record, then separately removes"
                                                                 : "releases",
                               what, where);
        }
        if (msg) {
            lf_ctx_emit_site(ctx, ev->node, msg, lf301_ts_site_make(l, ev), lf301_ts_site_free);
            lf_ctx_witness(ctx, lf_wit_removal_ts(l, ev));
        }
        free(msg);
        free(call);
        free(what);
    }
    free(identity);
}
