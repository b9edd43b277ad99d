/* LF104's site: the span of one unlocked read-modify-write, as the check
 * recognised it (checks/lf104_unlocked_rmw.c pairs the read and the write;
 * lf104_py_site.c finds the statements around them), handed to the fix
 * (fixes/lf104_lockrt.c), which wraps that span in
 *
 *     with lockrt.exclusive_lock(<path> + ".lock", unlocked_on_error=True):
 *
 * and changes nothing else. The span is the run of sibling statements, in
 * the innermost block holding both, from the one holding the read to the one
 * holding the write. The site is declined (the finding says why) when taking
 * a lock there would change more than who waits for whom: a `yield` or an
 * `await` inside it, a path that is not the same value at the lock and at the
 * write, a path that is not spelled in this function, a multi-line string
 * that re-indenting would change, statements sharing a line. */
#ifndef LF104_SITE_H
#define LF104_SITE_H

#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_pysem.h"
#include "lf_tssem.h"

typedef struct lf104_site {
    char *decline; /* why the rewrite does not apply (malloc'd), or NULL */
    TSNode first;  /* the first statement of the span (holds the read) */
    TSNode last;   /* the last one (holds the write); a sibling of first or first itself */
    TSNode path;   /* the document's path expression, evaluated again for the lock path */
    char *path_text; /* Python: the path spelled for this function when `path` is spelled in the helper that
                        reads it, with the helper's parameters replaced by this call's arguments (malloc'd), or NULL */
    int32_t scope; /* the function's scope in the semantic model */
    int async_fn;  /* TS/JS: the function is async (the lock is awaited: lockrt.cjs's promise form) */
} lf104_site;

/* How the check found the document's path: in the read's own call, through a
 * local helper's parameter or fixed path, or as the first argument of a helper
 * imported by name (`read_state("turns")`, whose argument may be a key). */
typedef enum lf104_path_kind {
    LF104_PATH_DIRECT = 0,
    LF104_PATH_HELPER,
    LF104_PATH_NAMED,
} lf104_path_kind;

/* The site of the read-modify-write from `read` to `write` (calls in function
 * scope `scope`) of the document at `path`; `write_path` is where the write
 * names it (the lock's name when the read's helper spells the path from names
 * of its own). Never NULL; `decline` says why it cannot be wrapped. */
lf104_site *lf104_py_site(lf_pysem *m, int32_t scope, TSNode read, TSNode write, TSNode path, TSNode write_path,
                          lf104_path_kind kind);
/* The same for TS/JS (lf104_ts_site.c): the span is wrapped in
 *     const release = acquireLockSync(<path> + ".lock");  (await acquireLock(...) in an async function)
 *     try { <span> } finally { release(); }
 * so a `const`/`let` of the span that later statements of its block use takes
 * the rest of the block into the span. `key` is the path argument of the read. */
lf104_site *lf104_ts_site(lf_tssem *m, TSNode read, TSNode write, TSNode key);
/* The same for a read and a write made through the module's own functions
 * (`const g = await this.loadGraph(); ...; await this.saveGraph(g)`): `key`
 * is the path those functions read, spelled in one of them; the caller
 * (checks/lf104_ts.c) has checked that it names the same file where the
 * lock is taken. */
lf104_site *lf104_ts_site_through_helpers(lf_tssem *m, TSNode read, TSNode write, TSNode key);
/* A declined site with the reason (for the shapes the TS fix never wraps). */
lf104_site *lf104_site_declined(const char *why);
void lf104_site_free(void *site);

#endif
