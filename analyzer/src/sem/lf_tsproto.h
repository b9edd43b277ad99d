/* lf_tsproto: a module's own lock protocol (TS/JS), read off the lock facts
 * (lf_tslock.h), for the protocol swap (fixes/lf_tsswap.c).
 *
 * The protocol is the function that acquires a lock file by retrying its
 * exclusive create, and what that function does around the create:
 *
 *     const deadline = Date.now() + TIMEOUT;         // or const start = Date.now()
 *     while (true) {                                 // for (;;), or while (Date.now() < deadline)
 *       try {
 *         const h = await fsp.open(LOCK, "wx");      // the create (writeFile with a wx flag too)
 *         await h.writeFile(JSON.stringify({ pid })); // an owner record: dropped by the swap
 *         try { return await fn(); }                 // the held code: it always leaves with a return
 *         finally { await h.close(); await fsp.unlink(LOCK); }   // the close is dropped, the
 *       } catch (err) {                              // release becomes lockrt's
 *         if (err.code !== "EEXIST") throw err;      // the wait: judgements of LOCK (its age,
 *         if (await isStale(LOCK)) { await fsp.unlink(LOCK); continue; }  // its owner's pid), its
 *         if (Date.now() >= deadline) throw new Error("timed out");      // takeover, sleeps, and
 *         await sleep(50);                           // one test of the deadline whose branch
 *       }                                            // leaves: the timeout's outcome
 *     }
 *     return undefined;                              // for a loop bounded by the deadline: the outcome
 *
 * Recognised: where it acquires (the create), what it runs while it holds the
 * lock, how the wait is bounded (a deadline or a start and a limit) and what
 * the timeout does (throws, returns), how it releases (removals by name of
 * LOCK inside the held code: in a finally, or in a release function it
 * returns), and what the wait does besides judging the lock (nothing, or the
 * protocol is declined). A lock directory (mkdir) is recognised the same way,
 * its owner record a file named in it (`path.join(LOCK, "info")`): written
 * after the create (dropped) and read by the wait. Declined, with the reason,
 * when what callers see could not be kept: a lock directory that holds other
 * files (lockrt removes only an empty one), held code that calls anything
 * while the create's catch takes every error for a held lock (the old loop
 * ran it again after its own error), the lock
 * used by another function of the module, the held code using the create's
 * handle or reading the lock, a timeout outcome that uses what the wait read,
 * a wait bounded by a count of attempts, a wait that does anything but judge,
 * break and sleep (logging, writing other files). */
#ifndef LF_TSPROTO_H
#define LF_TSPROTO_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_tslock.h"
#include "lf_tssem.h"

typedef struct lf_tsproto {
    char *decline;       /* why no swap (malloc'd), or NULL: then every field below is set */
    int32_t key;         /* the lock's key (lf_tslock) */
    TSNode fn;           /* the function that acquires */
    int async;           /* its waits are awaited: lockrt's takeLock, else takeLockSync */
    int dir;             /* the lock is a directory (mkdir): lockrt's takeLockDir(Sync) */
    TSNode create;       /* the exclusive create call */
    TSNode path;         /* its path argument */
    TSNode loop;         /* the retry loop: the swap replaces it */
    TSNode held_first;   /* the held code: statements [held_first, held_last] of the create's try block */
    TSNode held_last;
    TSNode timeout_exit; /* the timeout's outcome: the consequence of the in-loop deadline test, or
                            null when the statements after a deadline-bounded loop are */
    int best_effort;     /* the timeout returns (runs on, unlocked) rather than throws */
    int swallows;        /* the create's catch rethrows nothing: every failure of the create was taken
                            for a held lock, so a lock lockrt cannot take meets the timeout's outcome */
    TSNode deadline;     /* `deadline` of `Date.now() + T`, or null */
    TSNode start, limit; /* `start` of `Date.now()` and the limit it is tested against, or null */
    lf_tsnode_vec drops;    /* statements of the held code the swap removes (owner writes, handle closes) */
    lf_tsnode_vec releases; /* statements of the held code that release the lock by name */
    lf_tsnode_vec helpers;  /* the module's functions only the wait calls (its judges, its sleep) */
} lf_tsproto;

/* The protocol whose function (or one of its wait's helpers) holds `at`:
 * recognised, or declined with the reason; NULL when `at` is in no function
 * that acquires a lock by a retried exclusive create. Free with
 * lf_tsproto_free. */
lf_tsproto *lf_tsproto_at(lf_tssem *m, TSNode at);
void lf_tsproto_free(lf_tsproto *p);

#endif
