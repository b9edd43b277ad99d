/* LF401's TS/JS site: a write through a temp name fixed by its target, as the
 * TS check recognised it (checks/lf401_ts.c), handed to the fix
 * (fixes/lf401_ts_unique_temp.c), which renders edits and recognises nothing.
 *
 * The shape the fix takes, in one statement list (a function body or the
 * module's top level):
 *
 *     const tmp = `${final}.tmp`;              // or final + ".tmp", path.join(dir, name + ".tmp")
 *     ...                                       // statements not using tmp
 *     fs.writeFileSync(tmp, data);              // the region: from the first use of tmp ...
 *     ...                                       // (writeFile/open "w", chmod, chown, utimes of tmp)
 *     fs.renameSync(tmp, final);                // ... to the rename (awaited for the promise API)
 *
 * A temp spelled inline at each use (`writeFileSync(final + ".tmp", d);
 * renameSync(final + ".tmp", final)`) is named once, in a new const before
 * the first, and each spelling reads it; nothing the name reads may be
 * assigned in between, and no spelling may lie outside the region.
 *
 * The temp name gets `.${process.pid}.${randomUUID()}` before its suffix; the
 * region goes in a try whose catch removes the temp and rethrows. The write
 * itself does not change, so the temp is created by the same call with the
 * same mode (and a chmod of it stays), and the target keeps the permissions
 * the old code gave it. Anything else is declined with the reason. */
#ifndef LF401_TS_SITE_H
#define LF401_TS_SITE_H

#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_source.h"
#include "lf_tssem.h"

typedef struct lf401_ts_site {
    char *decline; /* why the rewrite does not apply (malloc'd), or NULL */

    int template_form; /* 1: `${base}.tmp` (suffix = its string_fragment); 0: base + ".tmp" (suffix = the literal) */
    TSNode temp, suffix;
    TSNode expr;       /* the whole temp expression (<temp>, or path.join(dir, <temp>)) */
    TSNode var;        /* the identifier the temp is held in; null when spelled inline */
    TSNode *spellings; /* inline: each spelling of expr in the region, in source order */
    size_t n_spellings, n_outside;
    char *new_name;    /* inline: the new variable's name (fresh in fn) */
    TSNode rename;     /* the rename call */
    TSNode rename_fn;  /* its callee expression */
    int async;         /* the promise API, awaited */
    int32_t scope;     /* of the region */
    TSNode region_first, region_last; /* sibling statements wrapped in the try */
    uint32_t region_end;              /* end of region_last, with a comment ending its line */
    TSNode fn;                        /* the enclosing function (or program): names must be fresh there */
} lf401_ts_site;

/* Recognise the site for temp expression `temp` renamed by `rename` (never NULL). */
lf401_ts_site *lf401_ts_site_make(lf_tssem *m, TSNode temp, TSNode rename);
void lf401_ts_site_free(void *site);

#endif
