/* lf_sem: the semantic model of one parsed file, built on first use by whichever
 * rule, predicate or fix asks for it, and shared by all of them for that file. */
#ifndef LF_SEM_H
#define LF_SEM_H

#include <tree_sitter/api.h>

#include "lf_source.h"

struct lf_pysem;
struct lf_tssem;

typedef struct lf_filesem {
    const lf_source *src;
    TSNode root;
    struct lf_pysem *py; /* Python model, NULL until first asked for */
    struct lf_tssem *ts; /* TS/JS model, NULL until first asked for */
    size_t builds;       /* models built so far (tests check laziness) */
} lf_filesem;

void lf_filesem_init(lf_filesem *fs, const lf_source *src, TSNode root);
void lf_filesem_release(lf_filesem *fs);

/* The Python model of the file (NULL for other languages). */
struct lf_pysem *lf_filesem_python(lf_filesem *fs);

/* The TS/JS model of the file (NULL for other languages). */
struct lf_tssem *lf_filesem_typescript(lf_filesem *fs);

/* Qualified name of what `node` names: for a call, its callee ("os.replace");
 * for an identifier or attribute, the module member or builtin it names.
 * NULL when unknown or when the language has no model. Lives as long as fs. */
const char *lf_filesem_qualname(lf_filesem *fs, TSNode node);

#endif
