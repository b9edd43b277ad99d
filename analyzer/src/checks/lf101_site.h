/* LF101's site: what the check recognised at an unlocked fallback, handed to
 * the fix generator (fixes/lf101_lockrt.c), which rewrites from it without
 * recognising anything again.
 *
 * Every recognised site has a locked path (BODY, run under the lock) and an
 * unlocked path (COPY, run when the lock module is missing or, where the
 * error is swallowed, when acquiring fails) that runs the same statements. The
 * rewrite replaces the statements [region_first, region_last] of one block by
 *
 *     PRE...
 *     with lockrt.exclusive_lock(PATH[, unlocked_on_error=True]) as acquired:
 *         BODY
 *
 * and leaves everything after the region as it was. When the lock was taken
 * inside a try whose handlers decide what a failure means (kept_try), the
 * `with` goes inside `try:` and those handlers follow it, byte for byte.
 */
#ifndef LF101_SITE_H
#define LF101_SITE_H

#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_pysem.h"

/* Where the unlocked path sits relative to the locked one. */
typedef enum lf101_shape {
    LF101_FALLTHROUGH = 0, /* if PRESENT: <locked; returns> ... then COPY after the if */
    LF101_ELSE,            /* if PRESENT: <locked> else: COPY */
    LF101_EARLY_OUT,       /* if ABSENT: COPY; return ... then <locked> */
    LF101_HANDLER,         /* try: <locked> except (AttributeError, OSError, ...): COPY */
    LF101_CONDITIONAL,     /* <handle>; if PRESENT: acquire; BODY  (the same BODY either way) */
    LF101_SWALLOWED,       /* try: <locked; returns> except OSError: pass, then COPY (no optional module) */
} lf101_shape;

/* Which lock the old code takes: the rewrite must exclude it during a rollout. */
typedef enum lf101_lock_kind {
    LF101_LOCK_FLOCK = 0, /* fcntl.flock: lockrt's OS lock on POSIX */
    LF101_LOCK_LOCKF,     /* fcntl.lockf: POSIX record locks */
    LF101_LOCK_FCNTL,     /* fcntl.fcntl(F_SETLK/F_SETLKW): POSIX record locks */
    LF101_LOCK_MSVCRT,    /* msvcrt.locking: byte-range locks on Windows */
    LF101_LOCK_OTHER,     /* a helper, portalocker, a lock directory, ... */
} lf101_lock_kind;

typedef struct lf101_site {
    /* Why the rewrite does not apply (malloc'd), or NULL when it does. */
    char *decline;

    lf101_shape shape;
    lf101_lock_kind kind;
    const lf_pyoptional *module; /* the optional lock module; NULL for LF101_SWALLOWED */
    /* A lock module imported inside the function (`try: import fcntl ...
     * except ImportError: COPY`): `module` points here; guard is -1. */
    lf_pyoptional local_module;
    TSNode test;                 /* the presence test's `if`, or null */
    TSNode acquire;              /* the lock call (or the helper call) */
    TSNode handle;               /* the handle's bound name, or null */
    TSNode lock_path;            /* the path the lock file is opened at */
    int swallows;                /* acquisition errors fall back to the unlocked path */
    int try_once;                /* one non-blocking attempt: a held lock means "run unlocked now" */
    TSNode kept_try;             /* the try whose except clauses stay around the `with`, or null */

    /* The portable-fcntl rewrite (lf101_portable.c), for a lock helper that
     * imports fcntl itself and goes on unlocked where that import fails: the
     * module's function-local `import fcntl [as X]` statements (model
     * indices, malloc'd), each to become `X = lockrt.fcntl`. */
    int32_t *portable_imports;
    size_t n_portable_imports;
    int32_t portable_guard; /* the module-level guard (if/try) replaced whole by one such line, or -1 */
    int work_uses_lock; /* declined because the locked work uses the lock's handle or module: the rewrite's
                           own limit, not the site's (fcntl from lockrt may still apply) */

    /* The rewrite: statements (indices into the model's statements). */
    int32_t region_first, region_last; /* siblings replaced by the new `with` */
    int32_t pre_first, pre_last;       /* statements kept before the `with` (-1: none) */
    int32_t body_first, body_last;     /* BODY, siblings in one block */
    int32_t copy_first;                /* first statement of the unlocked copy (for messages) */

    /* For the witness (lf_witness.h): where a process enters the unlocked
     * path (the presence test, or the handler that swallows the error), and
     * the unlocked copy's read and write of the shared state (null when it
     * has none the check can name). */
    TSNode entry;
    TSNode copy_read, copy_write;
} lf101_site;

void lf101_site_free(void *site);

/* The portable-fcntl rewrite of a lock helper whose root bug is fcntl missing:
 * its own failed `import fcntl`, or (`module`, else NULL) the module-level
 * optional fcntl it tests. Fills s->portable_imports and s->portable_guard,
 * or returns why it cannot apply (malloc'd). */
char *lf101_plan_portable(lf_pysem *m, lf101_site *s, const lf_pyoptional *module);

#endif
