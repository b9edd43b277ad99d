/* LF303's Python site: a kill(pid, 0) probe whose handler reads EPERM as
 * "dead", as the check recognised it (checks/lf303_liveness.c), handed to the
 * fix (fixes/lf303_eperm_alive.c), which renders edits and recognises nothing.
 *
 * The shape the fix takes: a try whose body is the probe, then nothing, `pass`
 * or one `return` (what a live owner gets), with no `else`:
 *
 *     try:                                   try:
 *         os.kill(pid, 0)                        os.kill(pid, 0)
 *         return True                            return True
 *     except OSError:              ->        except PermissionError:
 *         return False                           return True
 *                                            except OSError:
 *                                                return False
 *
 * A PermissionError then takes the success path (the try's `return`, or `pass`
 * when success falls through past the try); the first matching clause wins,
 * so ESRCH and every other error keep the old handler. Where PermissionError
 * has a clause of its own, that clause's body becomes the success path.
 *
 * Any other try (statements before the probe, several after it, an `else`
 * that does more than return) gets the probe statement itself wrapped, so
 * that EPERM from the probe alone goes on as success does, whatever follows:
 *
 *         os.kill(pid, 0)          ->        try:
 *                                                os.kill(pid, 0)
 *                                            except PermissionError:
 *                                                pass
 */
#ifndef LF303_SITE_H
#define LF303_SITE_H

#include <tree_sitter/api.h>

typedef struct lf303_site {
    char *decline;   /* why the rewrite does not apply (malloc'd), or NULL */
    TSNode clause;   /* the first except clause that catches PermissionError */
    int dedicated;   /* that clause catches PermissionError alone: its body is rewritten */
    TSNode alive;    /* the try's `return` after the probe, or null: success falls through */
    TSNode probe;    /* with `nested`: the probe's own statement (`os.kill(pid, 0)`, one line) */
    int nested;      /* wrap the probe statement instead of adding a clause */
} lf303_site;

void lf303_site_free(void *site);

#endif
