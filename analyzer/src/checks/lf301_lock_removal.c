/* LF301: a lock path removed by name with no identity check binding the
 * removal to the object that was judged.
 *
 * Works on lock identity by use (lf_pylock): a path is a lock because the
 * module creates it exclusively, flocks it, writes its pid there or hands it to
 * a lock class or helper; never because of its name, and a package-manager
 * lock file never is one. A removal (os.remove/unlink/rmdir, shutil.rmtree,
 * Path.unlink/rmdir, or one of the module's functions that removes its
 * argument, such as `rmlink(self.name)`) of such a lock is reported when:
 *  - the lock is an OS lock (flock/lockf/fcntl): removing the file lets a
 *    waiter lock the old, unlinked inode while a newcomer locks a fresh file
 *    (POSIX; Windows refuses to delete a file another process holds open, so
 *    msvcrt-only locks are left alone);
 *  - the lock is an exclusive-create/pid lock and the removal follows a
 *    judgement in the same function that it is stale: a pid probe (two
 *    breakers race; the slower deletes the faster one's fresh lock) or its
 *    existence, stat or age (whatever is there by then is deleted);
 *  - the lock is released (or removed after an ownership check) by name in a
 *    module whose protocol breaks it on existence or age alone: a holder
 *    paused past that judgement removes its successor's lock. Breaking only
 *    after a pid probe cannot hit a live holder, so its releases are fine.
 * A removal after an identity check (st_ino/st_dev, samefile/samestat) in the
 * same function is not reported; a plain release of a lock no code path ever
 * breaks is not either. */
#include "lf_ts.h"
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_util.h"
#include "lf_witness_build.h"

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf301_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    lf_pylock *l = lf_pylock_build(m);
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    uint32_t *identity_at = lf_xcalloc(ns, sizeof *identity_at);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *ev = &l->events[i];
        if (ev->kind == LF_PYEV_IDENTITY) {
            identity_at[ev->scope] = ts_node_start_byte(ev->node) + 1;
            continue;
        }
        if (ev->kind != LF_PYEV_REMOVE || ev->key < 0 || identity_at[ev->scope])
            continue;
        const lf_pylock_key *k = &l->keys[ev->key];
        if (!lf_pylock_is_lock(k->flags))
            continue;
        char *call = lf_py_short(src, ev->node);
        char *what = lf_py_short(src, ts_node_is_null(ev->target) ? ev->node : ev->target);
        unsigned ev_line = lf_py_line(src, k->evidence);
        char *msg = NULL;
        if (k->flags & LF_LOCK_FLOCK) {
            msg = lf_xasprintf("%s removes the lock file %s by name while it is locked with flock/lockf (line %u): "
                               "a process waiting on the old file then holds a lock on an unlinked inode while a "
                               "newcomer creates and locks a fresh file, so two holders run at once (POSIX; on "
                               "Windows the removal fails while another process has the file open)",
                               call, what, ev_line);
        } else if (ev->judged == LF_JUDGED_LIVENESS) {
            msg = lf_xasprintf("%s removes the lock %s by name after judging its owner dead: two processes that both "
                               "judged it stale race, and the slower one deletes the lock the faster one has just "
                               "taken, so two holders run at once (every platform)",
                               call, what);
        } else if (ev->judged == LF_JUDGED_PRESENCE) {
            msg = lf_xasprintf("%s removes the lock %s by name after looking at it (existence, stat or age): nothing "
                               "binds the removal to what was judged, so a lock another process took in between is "
                               "deleted and two holders run at once (every platform)",
                               call, what);
        } else if (k->flags & LF_LOCK_BROKEN_LIVE) {
            msg = lf_xasprintf("%s %s the lock %s by name, and line %u breaks that lock while its holder may be alive: "
                               "a holder paused past that judgement deletes its successor's lock here, and two "
                               "holders run at once (every platform)",
                               call, ev->judged == LF_JUDGED_CONTENT ? "checks the owner, then removes" : "releases",
                               what, lf_py_line(src, k->broken_at));
        }
        if (msg) {
            lf_ctx_emit(ctx, ev->node, msg, SIZE_MAX);
            lf_ctx_witness(ctx, lf_wit_removal_py(l, ev));
        }
        free(msg);
        free(call);
        free(what);
    }
    free(identity_at);
}

const lf_check lf301_lock_removal_check = {"lf301_lock_removal", run};
