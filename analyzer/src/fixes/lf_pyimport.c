#include "lf_pyimport.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pyfix.h"
#include "lf_tree.h"
#include "lf_util.h"

/* Does binding `b` (an import naming `bq`) reach `qual`, and with what suffix? */
static const char *covers(const char *bq, const char *qual) {
    size_t n = strlen(bq);
    if (bq[0] == '.' || strncmp(bq, qual, n) != 0)
        return NULL;
    if (qual[n] == '\0' || qual[n] == '.')
        return qual + n;
    return NULL;
}

/* 1 when every top-level `import x` of the module aliases x to `_x`. */
static int underscore_style(const lf_pysem *m) {
    int plain = 0, aliased = 0;
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || b->scope != 0 || b->stmt < 0)
            continue;
        TSNode st = m->stmts[b->stmt].node;
        if (!lf_tree_is(st, "import_statement") || m->stmts[b->stmt].parent != -1)
            continue;
        if (b->name[0] == '_' && strcmp(b->name + 1, b->qualname) == 0)
            aliased++;
        else
            plain++;
    }
    return aliased > 0 && plain == 0;
}

char *lf_pyimport_ref(lf_pysem *m, int32_t scope, uint32_t at, const char *qual, lf_fix *fix, char **why) {
    /* The longest bound prefix wins: `from os import path` covers "os.path.x"
     * better than `import os`. Only bindings a use at `at` really sees count. */
    const lf_pybinding *best = NULL;
    const char *best_rest = NULL;
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || !b->qualname)
            continue;
        const char *rest = covers(b->qualname, qual);
        if (!rest || (best && strlen(rest) >= strlen(best_rest)))
            continue;
        if (lf_pysem_binding_at(m, scope, b->name, at) != b)
            continue;
        best = b;
        best_rest = rest;
    }
    if (best)
        return lf_xasprintf("%s%s", best->name, best_rest);
    /* Nothing binds it: import its top-level module. */
    const char *dot = strchr(qual, '.');
    char *top = dot ? lf_xstrndup(qual, (size_t)(dot - qual)) : lf_xstrdup(qual);
    int under = underscore_style(m);
    char *local = under ? lf_xasprintf("_%s", top) : lf_xstrdup(top);
    size_t n = 0;
    lf_pysem_bindings_of(m, scope, local, &n);
    size_t n_mod = 0;
    lf_pysem_bindings_of(m, 0, local, &n_mod);
    char *out = NULL;
    if (n > 0 || n_mod > 0) {
        *why = lf_xasprintf("`%s` is bound to something other than the `%s` module here, so the fix cannot import it",
                            local, top);
    } else {
        lf_pyfix_ensure_import_as(m->src, m->root, top, under ? local : NULL, fix);
        out = lf_xasprintf("%s%s", local, dot ? dot : "");
    }
    free(top);
    free(local);
    return out;
}
