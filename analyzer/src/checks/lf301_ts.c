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
#include <stdlib.h>
#include <string.h>

#include "lf301_ts_site.h"
#include "lf_pyshort.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

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
