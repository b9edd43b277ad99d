/* LF201's site: the call that resolves a confinement check's target, as the
 * check recognised it (checks/lf201_realpath_missing.c), handed to the fix
 * (fixes/lf201_confined_path.c), which rewrites that call and nothing else.
 *
 * The rewrite keeps the comparison exactly as it was (prefix with os.sep or
 * "/", `and resolved != base`, commonpath, is_relative_to, intermediate
 * variables, a directory from a function call): only the target's resolution
 * changes, from "resolve the path" to "resolve the path when it exists, else
 * resolve its directory and join the last name", which is what realpath()
 * computes on POSIX for a missing target, without depending on the platform
 * resolving components that do not exist. */
#ifndef LF201_SITE_H
#define LF201_SITE_H

#include <stdint.h>
#include <tree_sitter/api.h>

typedef enum lf201_resolver {
    LF201_REALPATH = 0, /* os.path.realpath(P) (any spelling of it) */
    LF201_RESOLVE,      /* P.resolve() on a Path */
} lf201_resolver;

typedef struct lf201_site {
    char *decline;        /* why the rewrite does not apply (malloc'd), or NULL */
    lf201_resolver kind;
    TSNode call;          /* the resolving call */
    TSNode target;        /* realpath's argument / resolve's receiver: repeated by the rewrite */
    int32_t scope;        /* semantic-model scope of the call */
} lf201_site;

void lf201_site_free(void *site);

#endif
