/* Private to lf_tssem*.c: the name tables and helpers the walk and the
 * resolver share. */
#ifndef LF_TSSEM_INTERNAL_H
#define LF_TSSEM_INTERNAL_H

#include "lf_tree.h"
#include "lf_tssem.h"

/* A set of interned names (pointer identity), open addressing. */
typedef struct lf_tsname_set {
    const char **slots;
    size_t n, cap;
} lf_tsname_set;

typedef struct lf_tssubtree_names {
    const void *id; /* the subtree's node id; NULL: empty slot */
    lf_tsname_set names;
} lf_tssubtree_names;

/* What a class field holds when the constructor sets it once from a
 * parameter and the module constructs the class once: that argument. */
typedef struct lf_tsfield_flow {
    int32_t cls;
    const char *field; /* interned: "path", "[kPath]" */
    TSNode value;      /* null: no such flow */
} lf_tsfield_flow;

typedef struct lf_tssem_internal {
    char **strs; /* interned strings, open addressing */
    size_t n_strs, cap_strs;
    const char **name_keys; /* binding name -> first binding */
    int32_t *name_heads;
    size_t cap_names;
    /* (name, scope) -> first binding of that name declared in that scope,
     * chained through scope_next in source order: lf_tssem_binding_at asks one
     * scope at a time, and a file's chain for a short name (`e`, `t`, `i` in
     * bundled code) runs to thousands of bindings. */
    const char **ns_names;
    int32_t *ns_scopes, *ns_heads, *scope_next;
    size_t cap_ns;
    /* lf_tssem_first_caller's index, built on first use: per scope, the
     * calls whose local callee it is, chained in source order */
    int32_t *caller_head, *caller_next;
    /* lf_tssem_call, once the calls are sorted */
    lf_node_index calls_by_node;
    /* lf_tssem_file_mentions' set of the file's names (interned), built on
     * first use (mentions_built) */
    lf_tsname_set mentions;
    int mentions_built;
    /* lf_tssem_names_in's sets, one per subtree asked about, by node id
     * (open addressing) */
    struct lf_tssubtree_names *subtrees;
    size_t n_subtrees, cap_subtrees;
    /* lf_tssem_imports: the indices of the import bindings, in order */
    LF_VEC(size_t) imports;
    int imports_built;
    /* constructed_field's: the `new Name(...)` expressions of the file (built
     * on first use), and its answers per class field */
    LF_VEC(TSNode) news;
    int news_built;
    LF_VEC(lf_tsfield_flow) field_flows;
} lf_tssem_internal;


/* First binding of an interned name (chained through .next), or -1. */
int32_t lf_tssem_first_binding(const lf_tssem *m, const char *name);
/* "a" + "." + "b", canonical ("fs.promises.x" -> "fs/promises.x"), interned. */
const char *lf_tssem_join(lf_tssem *m, const char *a, const char *b);
/* A module specifier as the model names it ("node:fs" -> "fs"). */
const char *lf_tssem_module_name(lf_tssem *m, const char *spec);
const char *lf_tssem_callee_uncached(lf_tssem *m, TSNode call);
/* qsort order of lf_tssem.calls, the key lf_tssem_call searches by. */
int lf_tscall_order(const void *a, const void *b);
/* `exports` / `module.exports` */
int lf_tssem_is_exports(const lf_source *src, TSNode obj);

#endif
