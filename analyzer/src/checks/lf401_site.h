/* LF401's site: a write through a temp name fixed by its target, as the check
 * recognised it (checks/lf401_shared_temp.c), handed to the fix
 * (fixes/lf401_unique_temp.c), which renders the edits and recognises nothing.
 *
 * The rewrite makes the temp name unique (a random uuid4 component before the
 * suffix: `path + "." + uuid.uuid4().hex + ".tmp"`, or after the name when it
 * only has a prefix: `"tmp_" + name + "." + uuid.uuid4().hex`) and leaves the write and
 * the rename as they were, so the temp is created by the same open() call
 * (mode 0666 minus the umask, as before: the target keeps the permissions the
 * old code gave it). A unique temp is never overwritten by the next write, so
 * a failing write must remove its own: either a handler of an enclosing `try`
 * already does (then an `except BaseException` clause does it for what that
 * handler does not catch), or the statements from the write to the rename go
 * into a `try` whose `except BaseException` removes the temp and re-raises. */
#ifndef LF401_SITE_H
#define LF401_SITE_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

typedef enum lf401_form {
    LF401_CONCAT = 0, /* P + ".tmp", p.with_suffix(".tmp"), p.with_name(p.name + ".tmp") */
    LF401_FSTRING,    /* f"{P}.tmp" */
    LF401_PERCENT,    /* "%s.tmp" % P */
    LF401_FORMAT,     /* "{}.tmp".format(P) */
    LF401_TAIL,       /* "tmp_" + name: no suffix; operand = the `+` chain, suffix = a literal of it (its quotes) */
} lf401_form;

typedef enum lf401_cleanup {
    LF401_CLEAN_WRAP = 0,   /* wrap statements [region_first, region_last] in try/except BaseException */
    LF401_CLEAN_CLAUSE,     /* add `except BaseException:` after the last handler of `try_stmt` */
    LF401_CLEAN_HANDLED,    /* a handler of `try_stmt` catching everything removes the temp already */
    LF401_CLEAN_NONE,       /* no cleanup (the region holds a multi-line string re-indenting would change) */
} lf401_cleanup;

typedef struct lf401_site {
    char *decline; /* why the rewrite does not apply (malloc'd), or NULL */

    lf401_form form;
    TSNode temp;    /* the temp-name expression (first one, when spelled inline) */
    TSNode suffix;  /* the string_content holding the suffix */
    TSNode base;    /* the target expression the name is built from */
    TSNode operand; /* PERCENT: the right operand; FORMAT: the argument */
    TSNode rename;  /* the rename call */
    int32_t scope;

    /* The temp held in a variable (`tmp = <temp>`), or spelled inline at each use. */
    TSNode var;        /* the assigned identifier, or null when inline */
    TSNode *inline_uses; /* inline: every spelling of the temp up to the rename (temp first) */
    size_t n_inline_uses;

    TSNode name_at;                   /* inline: the statement the new variable goes before */
    lf401_cleanup cleanup;
    TSNode region_first, region_last; /* WRAP: the sibling statements wrapped */
    TSNode try_stmt;                  /* CLAUSE / HANDLED */
} lf401_site;

void lf401_site_free(void *site);

#endif
