/* LF301's Python site: a holder's release by name of a lock file the same
 * module creates exclusively, as the check (checks/lf301_lock_removal.c)
 * found it, handed to the fix (fixes/lf301_py_release.c), which renders edits
 * and recognises nothing.
 *
 * The shape the fix takes: the module's exclusive creates of the lock path
 * and the reported release, all direct calls:
 *
 *     fd = os.open(P, os.O_CREAT | os.O_EXCL | ..., mode)   ->  lockrt.open_exclusive(P, ...)
 *     f = open(P, "x")                                       ->  lockrt.open_exclusive_file(P, "x")
 *     ...
 *     os.remove(P)    /  os.unlink(P)                        ->  lockrt.unlink_owned(P)
 *     P.unlink()      /  P.unlink(missing_ok=True)           ->  lockrt.unlink_owned(P, missing_ok=True)
 *
 * The drop-ins of the vendored binding (runtime/python/lockrt.py) create the
 * same file with the same flags, mode and bytes and remember which inode the
 * create made; the release removes P only while it still names that inode.
 * In a process that created nothing at P (a release with no acquisition, a
 * breaker) the release removes by name, as before; so every create of the
 * lock in the module is swapped, and nothing else may put a file at P (a
 * rename onto it: declined). Declined with the reason: a stale takeover (the
 * breaker created nothing there; binding a removal to what was judged is
 * lockrt.cjs's, not built for Python), a release through a helper, a lock
 * directory or link, a create the module does not make.
 *
 * A lock file the module locks with fcntl.flock or fcntl.lockf and removes
 * by name (the removal is the bug: a waiter on the removed inode and a
 * newcomer on a fresh file both hold it) takes another shape: every lock
 * call of it in the module, and every removal:
 *
 *     fcntl.flock(f.fileno(), fcntl.LOCK_EX)  ->  lockrt.flock_verified(f.fileno(), fcntl.LOCK_EX, path=P)
 *     fcntl.lockf(fd, fcntl.LOCK_EX)          ->  lockrt.lockf_verified(fd, fcntl.LOCK_EX, path=P)
 *     os.remove(P)                            ->  lockrt.unlink_if_free(P[, handle=f][, lock="lockf"])
 *
 * where P is the path the handle was opened from, named again at the lock
 * call (a name bound the same there, or a field of self assigned once). The
 * acquisitions then lock what P names after a removal, and only a holder
 * removes it; the file, its bytes and when it is removed stay the same. */
#ifndef LF301_PY_SITE_H
#define LF301_PY_SITE_H

#include <stddef.h>
#include <tree_sitter/api.h>

#include "lf_pylock.h"

/* One call the fix rewrites to a member of the vendored lockrt binding. */
typedef struct lf301_py_edit {
    TSNode call;
    const char *member; /* open_exclusive, open_exclusive_file, unlink_owned, flock_verified, ... */
    int method;         /* 1: `P.unlink(...)` becomes `lockrt.unlink_owned(P, ...)`; 0: the callee is swapped */
    char *args;         /* keyword arguments added after the call's own (", path=P"; malloc'd), or NULL */
} lf301_py_edit;

typedef struct lf301_py_site {
    char *decline;          /* why the rewrite does not apply (malloc'd), or NULL */
    int takeover;           /* a stale takeover bound to its judgements (else a holder's release) */
    int flocked;            /* an flock'ed lock file: verified acquisitions, removal by a holder only */
    lf301_py_edit *edits;   /* the creates, then the release (malloc'd) */
    size_t n_edits;
} lf301_py_site;

/* The site of the reported removal `ev` of `l`; `release`: the check judged it
 * a holder's release (not a stale break). Never NULL. */
lf301_py_site *lf301_py_site_make(lf_pylock *l, const lf_pylock_event *ev, int release);
/* A site the fix declines, for the reason why (malloc'd; the site owns it). */
lf301_py_site *lf301_py_site_declined(char *why);
/* Adds to s the edits of other that s has not (a branch of the same stale
 * break that the check does not report again), when neither declines; frees
 * other. The fix then binds every branch in one round, so fixing again
 * changes nothing. */
void lf301_py_site_absorb(lf301_py_site *s, lf301_py_site *other);
void lf301_py_site_free(void *site);

#endif
