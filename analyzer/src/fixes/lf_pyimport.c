#include "lf_pyimport.h"

#include <ctype.h>
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

/* 1 when the module imports only by `from x import y` at its top level
 * (relative and __future__ imports aside). */
static int from_style(const lf_pysem *m) {
    int plain = 0, from = 0;
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind != LF_PYBIND_IMPORT || b->scope != 0 || b->stmt < 0 || m->stmts[b->stmt].parent != -1)
            continue;
        TSNode st = m->stmts[b->stmt].node;
        if (lf_tree_is(st, "import_statement"))
            plain++;
        else if (lf_tree_is(st, "import_from_statement") && b->qualname && b->qualname[0] != '.')
            from++;
    }
    return from > 0 && plain == 0;
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

typedef struct pending_from {
    char *module, *name;
} pending_from;

struct lf_pyimporter {
    lf_pysem *m;
    lf_fix *fix;
    LF_VEC(pending_from) from;
};

lf_pyimporter *lf_pyimport_begin(lf_pysem *m, lf_fix *fix) {
    lf_pyimporter *im = lf_xcalloc(1, sizeof *im);
    im->m = m;
    im->fix = fix;
    return im;
}

static int cmp_pending(const void *a, const void *b) {
    const pending_from *x = a, *y = b;
    int c = strcmp(x->module, y->module);
    return c ? c : strcmp(x->name, y->name);
}

void lf_pyimport_end(lf_pyimporter *im) {
    if (!im)
        return;
    if (im->from.len > 1)
        qsort(im->from.items, im->from.len, sizeof *im->from.items, cmp_pending);
    for (size_t i = 0; i < im->from.len;) {
        lf_strbuf names;
        lf_strbuf_init(&names);
        size_t j = i;
        for (; j < im->from.len && strcmp(im->from.items[j].module, im->from.items[i].module) == 0; j++)
            lf_strbuf_printf(&names, "%s%s", j > i ? ", " : "", im->from.items[j].name);
        lf_pyfix_ensure_from_import(im->m->src, im->m->root, im->from.items[i].module, names.data, im->fix);
        lf_strbuf_free(&names);
        i = j;
    }
    for (size_t i = 0; i < im->from.len; i++) {
        free(im->from.items[i].module);
        free(im->from.items[i].name);
    }
    LF_VEC_FREE(&im->from);
    free(im);
}

/* Is `name` read somewhere in the module as a variable that nothing binds
 * (a global the module never assigns or imports: a NameError today, or a
 * name injected from outside)? An import of that name added by a fix would
 * change what those uses name. */
static int free_use(lf_pysem *m, const char *name) {
    size_t n = strlen(name);
    const char *text = m->src->text, *end = text + m->src->len;
    for (const char *p = text; n && (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n) {
        if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')) ||
            (p + n < end && (isalnum((unsigned char)p[n]) || p[n] == '_')))
            continue;
        uint32_t at = (uint32_t)(p - text);
        TSNode id = ts_node_descendant_for_byte_range(m->root, at, at + (uint32_t)n);
        if (!lf_tree_is(id, "identifier") || ts_node_start_byte(id) != at || ts_node_end_byte(id) != at + n)
            continue;
        TSNode parent = ts_node_parent(id);
        if (lf_tree_is(parent, "keyword_argument") && ts_node_eq(lf_tree_field(parent, "name"), id))
            continue;
        if (lf_tree_is(parent, "attribute") && ts_node_eq(lf_tree_field(parent, "attribute"), id))
            continue;
        if (!lf_pysem_binding_at(m, lf_pysem_scope_of(m, id), name, at))
            return 1;
    }
    return 0;
}

char *lf_pyimport_ref(lf_pyimporter *im, int32_t scope, uint32_t at, const char *qual, char **why) {
    lf_pysem *m = im->m;
    lf_fix *fix = im->fix;
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
    /* Nothing binds it. In a module that only from-imports: `from a.b import c`. */
    const char *last = strrchr(qual, '.');
    if (last && from_style(m)) {
        size_t n = 0, n_mod = 0;
        lf_pysem_bindings_of(m, scope, last + 1, &n);
        lf_pysem_bindings_of(m, 0, last + 1, &n_mod);
        int clash = n > 0 || n_mod > 0, known = 0;
        size_t mod_len = (size_t)(last - qual);
        for (size_t i = 0; i < im->from.len; i++) {
            if (strcmp(im->from.items[i].name, last + 1) != 0)
                continue;
            if (strlen(im->from.items[i].module) == mod_len && !strncmp(im->from.items[i].module, qual, mod_len))
                known = 1;
            else
                clash = 1;
        }
        if (!clash && !known && free_use(m, last + 1)) {
            *why = lf_xasprintf("`%s` is used in the module without being bound there, so an import of it that the "
                                "fix adds would change what those uses name",
                                last + 1);
            return NULL;
        }
        if (!clash) {
            if (!known) {
                pending_from p = {lf_xstrndup(qual, mod_len), lf_xstrdup(last + 1)};
                LF_VEC_PUSH(&im->from, p);
            }
            return lf_xstrdup(last + 1);
        }
    }
    /* Else import its top-level module. */
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
    } else if (free_use(m, local)) {
        *why = lf_xasprintf("`%s` is used in the module without being bound there, so an import of it that the fix "
                            "adds would change what those uses name",
                            local);
    } else {
        lf_pyfix_ensure_import_as(m->src, m->root, top, under ? local : NULL, fix);
        out = lf_xasprintf("%s%s", local, dot ? dot : "");
    }
    free(top);
    free(local);
    return out;
}
