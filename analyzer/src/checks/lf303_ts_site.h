/* LF303's TS/JS site: a `process.kill(pid, 0)` probe whose catch reads every
 * error as "dead", as the check recognised it (checks/lf303_ts.c), handed to
 * the fix (fixes/lf303_ts_esrch.c), which renders edits and recognises nothing.
 *
 * The shape the fix takes: a try whose body is the probe, then nothing or one
 * `return` (what a live owner gets), and a catch with a plain or no binding:
 *
 *     try { process.kill(pid, 0); return true; } catch { return false; }
 *     try { process.kill(pid, 0); } catch (e) { fs.unlinkSync(lockPath); }
 *
 * EPERM (the process exists, another user's) then takes the success path:
 * the try's `return` (a guard at the top of the catch), or past the try (the
 * catch's old statements run only when the code is not EPERM). ESRCH and any
 * other error keep the catch's old verdict. */
#ifndef LF303_TS_SITE_H
#define LF303_TS_SITE_H

#include <tree_sitter/api.h>

typedef struct lf303_ts_site {
    char *decline;  /* why the rewrite does not apply (malloc'd), or NULL */
    /* A probe that trusts a pid read from a file (`reuse`): the probe becomes
     * the vendored lockrt.cjs's killProbeSync(pid, FILE), which also throws
     * ESRCH for a live process that started after FILE was last written. */
    int reuse;
    TSNode probe;   /* reuse: the process.kill(pid, 0) call */
    TSNode file;    /* reuse: the path the pid was read from, valid at the probe */
    TSNode handler; /* the catch_clause */
    TSNode param;   /* its identifier, or null for `catch {` */
    TSNode body;    /* its statement_block (at least one statement) */
    TSNode alive;   /* the try's `return` after the probe, or null: success falls through */
    TSNode fn;      /* the enclosing function: a new binding's name must be fresh there */
    /* The try holds more than the probe (a read before it, more statements
     * after it): the probe's own statement becomes `try { probe; } catch (e)
     * { if (e.code !== "EPERM") throw e; }`, so EPERM goes on along the
     * success path and every other error reaches the old catch as before. */
    TSNode wrap_stmt;
} lf303_ts_site;

void lf303_ts_site_free(void *site);

#endif
