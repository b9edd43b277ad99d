/* Internals shared by the files of the Python semantic model. */
#ifndef LF_PYSEM_INTERNAL_H
#define LF_PYSEM_INTERNAL_H

#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"

/* A (scope, name) key's bindings, in source order. */
typedef struct lf_pyname_slot {
    int32_t scope;
    const char *name; /* interned: compared by pointer */
    LF_VEC(int32_t) bindings;
} lf_pyname_slot;

typedef struct lf_pyunlink {
    uint64_t hash;   /* lf_tree_hash of target, flags 0 */
    int32_t scope;   /* of the call */
    uint32_t at;     /* the call's start byte */
    TSNode target;   /* what it removes (one-argument wrappers taken off) */
} lf_pyunlink;

struct lf_pysem_internal {
    /* interned strings: open addressing over `strings` */
    char **strings;
    size_t n_strings, cap_strings;
    /* (scope, name) -> slot */
    lf_pyname_slot *slots;
    size_t n_slots, cap_slots;
    /* next_sib[i]: lf_pysem_next_sibling(i), computed once at build (a scan
     * past each statement's nested ones per call was quadratic in a block of
     * many compound statements) */
    int32_t *next_sib;
    /* scratch for lf_pysem_bindings_of */
    LF_VEC(const lf_pybinding *) scratch;
    /* lf_pysem_callee_names: the import qualnames of recorded calls (each
     * call's run is imports_at - 1 .. + n_imports), and a scratch list for a
     * call the model did not record */
    LF_VEC(const char *) call_imports;
    LF_VEC(const char *) import_scratch;
    /* lf_pysem_call: the calls by node, built as soon as they are recorded */
    lf_node_index calls_by_node;
    /* the record lf_pysem_call found last, + 1 (0: none): the lock facts and
     * the checks ask a dozen questions of one call in a row */
    size_t last_call;
    /* lf_pysem_fact_nodes, recorded by the build's walk */
    TSNode *fact_nodes;
    size_t n_fact_nodes;
    /* lf_pylock's index of the module's unlinks by the structural hash of
     * what they remove, built on first use (unlinks_built) */
    LF_VEC(lf_pyunlink) unlinks;
    int unlinks_built;
};

/* The slot of (scope, name), or NULL. */
const lf_pyname_slot *lf_pysem_slot(const lf_pysem *m, int32_t scope, const char *name);

/* The walker shared by the model build and the later whole-file queries: every
 * named node with the scope, statement and field it sits in. */
typedef struct lf_pywalk_frame {
    TSNode node;
    int32_t scope;
    int32_t stmt;      /* innermost statement holding node (the node itself for statements) */
    const char *field; /* node's field name in its parent, or NULL */
    TSNode parent;     /* null for the root */
} lf_pywalk_frame;

/* Resolution: the scope a use of `name` in `scope` resolves to, and its slot
 * (NULL when no scope binds it: a builtin or an undefined name). */
const lf_pyname_slot *lf_pysem_resolve_slot(const lf_pysem *m, int32_t scope, const char *name);

/* Post-build analyses (lf_pysem_optional.c). */
void lf_pysem_find_optionals(lf_pysem *m);

/* 1 when `n` is the `none` literal / `False`. */
int lf_pysem_is_none(TSNode n);
int lf_pysem_is_false(TSNode n);

/* `importlib.import_module("m")` / `__import__("m")`: "m"; else NULL. */
const char *lf_pysem_import_call_module(lf_pysem *m, TSNode call);

/* Cycle detection for alias chains (Brent's algorithm, constant memory, safe to
 * nest). The binding followed next is a function of the binding followed last,
 * so meeting a binding again means the chain loops forever: `x = x.parent`
 * resolves to itself. Without this, such a chain ran until its hop budget (the
 * file's binding count), and a resolver called per call site made the model
 * quadratic in the file's size. */
typedef struct lf_pycycle {
    const void *saved;
    size_t power, lam;
} lf_pycycle;
#define LF_PYCYCLE_INIT {NULL, 1, 0}
/* 1 when p was met before on this chain (the chain is a cycle). */
static inline int lf_pycycle_seen(lf_pycycle *c, const void *p) {
    if (p == c->saved)
        return 1;
    if (++c->lam == c->power) {
        c->saved = p;
        c->power *= 2;
        c->lam = 0;
    }
    return 0;
}

/* Intern the text of a node. */
const char *lf_pysem_intern_node(lf_pysem *m, TSNode n);

#endif
