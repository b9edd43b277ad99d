/* LF104's site in Python (lf104_site.h): the statements a lock around one
 * read-modify-write must cover, and what would make taking it there change
 * more than blocking. Works on the tree and the semantic model; iterative. */
#include <stdlib.h>
#include <string.h>

#include "lf104_site.h"
#include "lf_check.h"
#include "lf_py.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_tree.h"
#include "lf_util.h"

void lf104_site_free(void *site) {
    lf104_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s->path_text);
    free(s);
}

lf104_site *lf104_site_declined(const char *why) {
    lf104_site *s = lf_xcalloc(1, sizeof *s);
    s->decline = lf_xstrdup(why);
    return s;
}

/* The innermost block of the function that holds both calls (null when none
 * below the function's body). */
static TSNode common_block(TSNode body, TSNode r, TSNode w) {
    for (TSNode n = r; !ts_node_is_null(n); n = ts_node_parent(n)) {
        if ((lf_tree_is(n, "block") || lf_tree_is(n, "module")) && lf_tree_within(w, n))
            return n;
        if (ts_node_eq(n, body))
            break;
    }
    return (TSNode){0};
}

/* The statement of `block` that holds n. */
static TSNode child_holding(TSNode block, TSNode n) {
    TSNode p = ts_node_parent(n);
    while (!ts_node_is_null(p) && !ts_node_eq(p, block)) {
        n = p;
        p = ts_node_parent(n);
    }
    return n;
}

/* ---- what a lock cannot be held across ---- */

typedef struct hazard {
    TSNode at;          /* the first yield / await / async construct in the span */
    const char *what;   /* "yield" or "await" */
} hazard;

static lf_walk_action visit_hazard(TSNode n, void *ud) {
    hazard *h = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP; /* runs later, or in its own frame */
    const char *what = lf_tree_is(n, "yield") ? "yield" : lf_tree_is(n, "await") || lf_tree_is(n, "async") ? "await" : NULL;
    if (!what)
        return LF_WALK_CONTINUE;
    h->at = n;
    h->what = what;
    return LF_WALK_STOP;
}

static char *span_hazard(const lf_source *src, TSNode first, TSNode last) {
    hazard h;
    memset(&h, 0, sizeof h);
    for (TSNode x = first; !ts_node_is_null(x) && !h.what; x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_hazard, &h);
        if (ts_node_eq(x, last))
            break;
    }
    if (!h.what)
        return NULL;
    if (!strcmp(h.what, "yield"))
        return lf_xasprintf("the read-modify-write spans a `yield` (line %u): the lock would stay held while the "
                            "generator is suspended, for as long as its consumer likes",
                            lf_py_line(src, h.at));
    return lf_xasprintf("the read-modify-write spans an `await` (line %u): a blocking lock held across it stalls the "
                        "event loop, and another task of this process waiting for the same lock would never let it "
                        "go",
                        lf_py_line(src, h.at));
}

/* A lock taken inside the span (a `with lockrt.exclusive_lock(...)` an
 * earlier run of this fix put around another read-modify-write, or any lock
 * the module acquires there): the node, else null. A lock around it would
 * nest two locks in an order other code may take the other way; the first
 * run declines such a pair as overlapping, so the second declines it too. */
static TSNode inner_lock(lf_pysem *m, int32_t scope, TSNode first, TSNode last) {
    uint32_t a = ts_node_start_byte(first), e = ts_node_end_byte(last);
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        uint32_t at = ts_node_start_byte(c);
        if (m->calls[i].scope == scope && at >= a && at < e && lf_pylock_lockrt_call(m, c, "exclusive_lock"))
            return c;
    }
    lf_pylock *l = lf_pylock_build(m);
    for (size_t i = 0; i < l->n_events; i++) {
        const lf_pylock_event *ev = &l->events[i];
        uint32_t at = ts_node_start_byte(ev->node);
        if (ev->kind == LF_PYEV_ACQUIRE && ev->scope == scope && at >= a && at < e)
            return ev->node;
    }
    return (TSNode){0};
}

/* ---- the path, evaluated once more for the lock ---- */

/* Calls that build a path from their arguments and do nothing else. */
static const char *const k_pure_path_calls[] = {"os.path.join", "posixpath.join", "ntpath.join", "os.path.abspath",
                                                "os.path.normpath", "os.path.expanduser", "os.path.dirname",
                                                "os.path.basename", "os.fspath", "str",
                                                "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", NULL};
/* Path methods that compute a new path from the receiver and their arguments. */
static const char *const k_pure_path_methods[] = {"joinpath", "with_suffix", "with_name", "with_stem", "expanduser",
                                                  NULL};

static int pure_method(const lf_source *src, TSNode fn) {
    if (!lf_tree_is(fn, "attribute"))
        return 0;
    TSNode name = lf_tree_field(fn, "attribute");
    for (size_t i = 0; k_pure_path_methods[i]; i++)
        if (lf_tree_text_eq(src, name, k_pure_path_methods[i]))
            return 1;
    return 0;
}

/* Calls that read the process's environment: the same answer again unless the
 * process changes it in between (an assignment to `os.environ[...]` in the
 * read-modify-write is caught as a rebinding of a part of the path). */
static const char *const k_env_calls[] = {"os.environ.get", "os.getenv", "os.getcwd", "pathlib.Path.cwd",
                                          "pathlib.Path.home", NULL};

/* The module's own functions that compute a path and do nothing else (see
 * pure_functions), per scope; NULL before it is asked for. */
typedef struct purity {
    lf_pysem *m;
    unsigned char *pure; /* per scope: 1 when the function is such a path function; NULL: none yet */
    int wanted;          /* stable_in met a call of the module's own function */
} purity;

static int stable_in(purity *pu, TSNode e);

/* The module-level function a call invokes by name (`state_path(root)`), or -1. */
static int32_t module_function(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "identifier"))
        return -1;
    int skip = 0;
    int32_t f = lf_pylock_local_callee(lf_pylock_build(m), call, &skip);
    if (f <= 0 || skip || m->scopes[f].kind != LF_PYSCOPE_FUNCTION || m->scopes[f].cls >= 0 ||
        m->scopes[f].parent != 0)
        return -1;
    return f;
}

/* Is the function's body a path computation: an optional docstring, then
 * assignments of one plain name each (each name assigned once) and a final
 * `return`, every value stable with what is pure so far? Parameters must be
 * plain (no `*args`, `**kw`: a call could pass anything through them); not an
 * `async def` (its call makes a coroutine) nor a decorated one (the decorator
 * decides what a call does). */
static int path_function_body(purity *pu, int32_t f) {
    lf_pysem *m = pu->m;
    TSNode def = m->scopes[f].node;
    if (lf_tree_is(ts_node_parent(def), "decorated_definition") || lf_tree_is(ts_node_child(def, 0), "async"))
        return 0;
    TSNode params = lf_tree_field(def, "parameters");
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode q = ts_node_named_child(params, i);
        if (!lf_tree_is(q, "identifier") && !lf_tree_is(q, "typed_parameter") &&
            !lf_tree_is(q, "default_parameter") && !lf_tree_is(q, "typed_default_parameter") &&
            !lf_tree_is(q, "comment"))
            return 0;
        if (lf_tree_is(q, "typed_parameter") && !lf_tree_is(ts_node_named_child(q, 0), "identifier"))
            return 0;
    }
    TSNode body = lf_tree_field(def, "body");
    uint32_t n = ts_node_named_child_count(body), seen = 0;
    if (n > 8)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode st = ts_node_named_child(body, i);
        if (lf_tree_is(st, "comment"))
            continue;
        int last = 1; /* nothing but comments after it */
        for (uint32_t j = i + 1; j < n && last; j++)
            last = lf_tree_is(ts_node_named_child(body, j), "comment");
        if (lf_tree_is(st, "expression_statement") && seen == 0 && lf_tree_is(ts_node_named_child(st, 0), "string")) {
            seen++;
            continue; /* the docstring */
        }
        seen++;
        if (lf_tree_is(st, "return_statement")) {
            TSNode v = ts_node_named_child(st, 0);
            return last && !ts_node_is_null(v) && stable_in(pu, v);
        }
        if (!lf_tree_is(st, "expression_statement") || ts_node_named_child_count(st) != 1)
            return 0;
        TSNode a = ts_node_named_child(st, 0);
        if (!lf_tree_is(a, "assignment") || !lf_tree_is(lf_tree_field(a, "left"), "identifier") ||
            ts_node_is_null(lf_tree_field(a, "right")) || !stable_in(pu, lf_tree_field(a, "right")))
            return 0;
        /* assigned once: a name bound again would be a second value */
        for (uint32_t j = i + 1; j < n; j++) {
            TSNode later = ts_node_named_child(body, j);
            TSNode la = lf_tree_is(later, "expression_statement") ? ts_node_named_child(later, 0) : (TSNode){0};
            if (lf_tree_is(la, "assignment") &&
                lf_tree_equal(m->src, lf_tree_field(la, "left"), m->src, lf_tree_field(a, "left"), 0))
                return 0;
        }
    }
    return 0;
}

/* Which of the module's functions compute a path and do nothing else: a few
 * rounds, each admitting those whose body uses only what earlier rounds
 * admitted (`state_path()` returning `_state_dir() / "state.json"`). No
 * recursion: a function calling itself is never admitted. */
static void pure_functions(purity *pu) {
    lf_pysem *m = pu->m;
    pu->pure = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, 1);
    for (int round = 0; round < 4; round++) {
        int changed = 0;
        for (size_t f = 1; f < m->n_scopes; f++) {
            if (pu->pure[f] || m->scopes[f].kind != LF_PYSCOPE_FUNCTION || m->scopes[f].cls >= 0 ||
                m->scopes[f].parent != 0)
                continue;
            if (path_function_body(pu, (int32_t)f)) {
                pu->pure[f] = 1;
                changed = 1;
            }
        }
        if (!changed)
            break;
    }
}

/* 1 when evaluating e again before the read gives the value the read and the
 * write use, with no effect of its own: names, attributes, literals without
 * interpolation, `+` and `/` of those, `or`/`and` of them, literal subscripts,
 * the pure path builders above, reads of the environment, and calls of the
 * module's functions that only compute a path from such parts. */
static int stable_in(purity *pu, TSNode e) {
    lf_pysem *m = pu->m;
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, e);
    int ok = 1;
    while (ok && stack.len) {
        TSNode n = stack.items[--stack.len];
        if (lf_tree_is(n, "identifier") || lf_tree_is(n, "integer") || lf_tree_is(n, "string_content") ||
            lf_tree_is(n, "string_start") || lf_tree_is(n, "string_end") || lf_tree_is(n, "escape_sequence") ||
            lf_tree_is(n, "comment") || lf_tree_is(n, "none"))
            continue;
        if (lf_tree_is(n, "attribute")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
            continue;
        }
        if (lf_tree_is(n, "subscript")) {
            TSNode idx = lf_tree_field(n, "subscript");
            ok = lf_tree_is(idx, "string") || lf_tree_is(idx, "integer");
            LF_VEC_PUSH(&stack, lf_tree_field(n, "value"));
            LF_VEC_PUSH(&stack, idx);
            continue;
        }
        if (lf_tree_is(n, "binary_operator")) {
            TSNode op = lf_tree_field(n, "operator");
            ok = lf_tree_text_eq(m->src, op, "+") || lf_tree_text_eq(m->src, op, "/");
        } else if (lf_tree_is(n, "boolean_operator")) {
            ok = 1; /* `root or os.getcwd()`: each part is checked */
        } else if (lf_tree_is(n, "call")) {
            TSNode fn = lf_tree_field(n, "function");
            ok = lf_pysem_call_is(m, n, k_pure_path_calls) || lf_pysem_call_is(m, n, k_env_calls) ||
                 pure_method(m->src, fn);
            if (!ok) {
                int32_t f = module_function(m, n);
                if (f > 0) {
                    pu->wanted = 1;
                    ok = pu->pure && pu->pure[f];
                }
            }
            TSNode args = lf_tree_field(n, "arguments");
            if (ok && lf_tree_is(fn, "attribute"))
                LF_VEC_PUSH(&stack, lf_tree_field(fn, "object"));
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(args); i++) {
                TSNode a = ts_node_named_child(args, i);
                ok = !lf_tree_is(a, "keyword_argument") && !lf_tree_is(a, "list_splat") &&
                     !lf_tree_is(a, "dictionary_splat");
                LF_VEC_PUSH(&stack, a);
            }
            continue;
        } else if (!lf_tree_is(n, "string") && !lf_tree_is(n, "concatenated_string") &&
                   !lf_tree_is(n, "parenthesized_expression")) {
            ok = 0; /* interpolations, conditionals, other calls: evaluated again, they could differ */
        }
        for (uint32_t i = 0; ok && i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    return ok;
}

static int stable_expression(lf_pysem *m, TSNode e) {
    purity pu = {m, NULL, 0};
    int ok = stable_in(&pu, e);
    if (!ok && pu.wanted) { /* asked again once the module's path functions are known */
        pure_functions(&pu);
        ok = stable_in(&pu, e);
    }
    free(pu.pure);
    return ok;
}

/* The names and attribute chains the path reads (`self.path`, `base`), and
 * their plain identifiers apart. */
typedef struct path_parts {
    LF_VEC(TSNode) refs;  /* identifiers and attributes: an assignment to one changes the path */
    LF_VEC(TSNode) names; /* identifiers read as variables (not attribute names) */
} path_parts;

static void collect_parts(TSNode e, path_parts *pp) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, e);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "identifier")) {
            LF_VEC_PUSH(&pp->refs, n);
            LF_VEC_PUSH(&pp->names, n);
            continue;
        }
        if (lf_tree_is(n, "attribute")) {
            LF_VEC_PUSH(&pp->refs, n);
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
}

typedef struct rebind_search {
    const lf_source *src;
    const path_parts *pp;
    TSNode hit;
} rebind_search;

static int targets_part(const rebind_search *r, TSNode target) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, target);
    int hit = 0;
    while (stack.len && !hit) {
        TSNode t = stack.items[--stack.len];
        if (ts_node_is_null(t))
            continue;
        if (lf_tree_is(t, "identifier") || lf_tree_is(t, "attribute") || lf_tree_is(t, "subscript")) {
            for (size_t i = 0; i < r->pp->refs.len && !hit; i++)
                hit = lf_tree_equal(r->src, t, r->src, r->pp->refs.items[i], 0);
            if (lf_tree_is(t, "subscript")) /* `cfg["path"] = ...` changes cfg["path"] */
                LF_VEC_PUSH(&stack, lf_tree_field(t, "value"));
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(t); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(t, i));
    }
    LF_VEC_FREE(&stack);
    return hit;
}

static lf_walk_action visit_rebind(TSNode n, void *ud) {
    rebind_search *r = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    TSNode target = {0};
    if (lf_tree_is(n, "assignment") || lf_tree_is(n, "augmented_assignment"))
        target = lf_tree_field(n, "left");
    else if (lf_tree_is(n, "named_expression"))
        target = lf_tree_field(n, "name");
    else if (lf_tree_is(n, "for_statement"))
        target = lf_tree_field(n, "left");
    else if (lf_tree_is(n, "as_pattern"))
        target = lf_tree_field(n, "alias");
    if (!ts_node_is_null(target) && targets_part(r, target)) {
        r->hit = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* Why the path is not the same value at the new lock, the read and the write
 * (malloc'd), or NULL. */
static char *unstable_path(lf_pysem *m, int32_t scope, TSNode path, TSNode first, TSNode last, TSNode write) {
    const lf_source *src = m->src;
    if (!stable_expression(m, path)) {
        char *p = lf_py_short(src, path);
        char *why = lf_xasprintf("the document's path `%s` is computed by an expression the lock would evaluate once "
                                 "more before the read, and that could give another value or do something",
                                 p);
        free(p);
        return why;
    }
    path_parts pp;
    memset(&pp, 0, sizeof pp);
    collect_parts(path, &pp);
    char *why = NULL;
    uint32_t at = ts_node_start_byte(first);
    for (size_t i = 0; i < pp.names.len && !why; i++) {
        char *name = lf_tree_text(src, pp.names.items[i]);
        const lf_pybinding *b0 = lf_pysem_binding_at(m, scope, name, at);
        const lf_pybinding *bp = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(path));
        const lf_pybinding *bw = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(write));
        if (b0 != bp || bp != bw)
            why = lf_xasprintf("`%s`, part of the document's path, is bound again between the lock's place (line %u) "
                               "and the write (line %u): the lock path would name another file",
                               name, lf_py_line(src, first), lf_py_line(src, write));
        free(name);
    }
    rebind_search r;
    memset(&r, 0, sizeof r);
    r.src = src;
    r.pp = &pp;
    for (TSNode x = first; !why && !ts_node_is_null(x) && ts_node_is_null(r.hit); x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_rebind, &r);
        if (ts_node_eq(x, last))
            break;
    }
    if (!why && !ts_node_is_null(r.hit)) {
        char *p = lf_py_short(src, path);
        why = lf_xasprintf("the document's path `%s` is assigned again inside the read-modify-write (line %u): the "
                           "lock path would not follow it",
                           p, lf_py_line(src, r.hit));
        free(p);
    }
    LF_VEC_FREE(&pp.refs);
    LF_VEC_FREE(&pp.names);
    return why;
}

/* A path spelled in the helper that reads it still names the same file in
 * this function when it is built only from the module's own names (a
 * constant such as STATE_FILE = Path.home() / "state.json") that this
 * function sees bound the same way. */
static int module_path(lf_pysem *m, int32_t scope, TSNode path, TSNode at) {
    if (!stable_expression(m, path))
        return 0;
    path_parts pp;
    memset(&pp, 0, sizeof pp);
    collect_parts(path, &pp);
    int32_t hs = lf_pysem_scope_of(m, path);
    int ok = pp.names.len > 0;
    for (size_t i = 0; ok && i < pp.names.len; i++) {
        char *name = lf_tree_text(m->src, pp.names.items[i]);
        const lf_pybinding *there = lf_pysem_binding_at(m, hs, name, ts_node_start_byte(path));
        const lf_pybinding *here = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(at));
        ok = there && there == here && there->scope == 0;
        free(name);
    }
    LF_VEC_FREE(&pp.refs);
    LF_VEC_FREE(&pp.names);
    return ok;
}

/* ---- a path spelled in the helper that reads it ---- */

typedef LF_VEC(TSNode) node_list;

/* The i-th parameter name of a function (plain, typed, defaulted), or null
 * (past the end, or a `*`/`**` parameter before it). */
static TSNode param_name(TSNode fn, uint32_t i, TSNode *dflt) {
    TSNode params = lf_tree_field(fn, "parameters");
    uint32_t k = 0;
    *dflt = (TSNode){0};
    for (uint32_t j = 0; j < ts_node_named_child_count(params); j++) {
        TSNode p = ts_node_named_child(params, j);
        if (lf_tree_is(p, "comment"))
            continue;
        TSNode name = {0};
        if (lf_tree_is(p, "identifier"))
            name = p;
        else if (lf_tree_is(p, "typed_parameter"))
            name = ts_node_named_child(p, 0);
        else if (lf_tree_is(p, "default_parameter") || lf_tree_is(p, "typed_default_parameter"))
            name = lf_tree_field(p, "name");
        if (!lf_tree_is(name, "identifier"))
            return (TSNode){0}; /* *args, **kw, `/`, `*`: the positions after it are not plain */
        if (k++ == i) {
            if (!lf_tree_is(p, "identifier") && !lf_tree_is(p, "typed_parameter"))
                *dflt = lf_tree_field(p, "value");
            return name;
        }
    }
    return (TSNode){0};
}

/* What the call passes for the helper's parameter at `index` named `name`
 * (positional, keyword, or the parameter's literal default), or null. */
static TSNode argument_for(lf_pysem *m, TSNode call, uint32_t index, TSNode name, TSNode dflt) {
    if (!lf_pylock_plain_args(call)) /* `*args`/`**kw` may pass it: a default would be a guess */
        return (TSNode){0};
    char *kw = lf_tree_text(m->src, name);
    TSNode a = lf_pylock_arg(m, call, index, kw);
    free(kw);
    if (!ts_node_is_null(a))
        return a;
    if (lf_tree_is(dflt, "none") || lf_tree_is(dflt, "string") || lf_tree_is(dflt, "integer") ||
        lf_tree_is(dflt, "true") || lf_tree_is(dflt, "false"))
        return dflt;
    return (TSNode){0};
}

/* The helper a path is spelled in, and the call of it in this function. */
typedef struct helper {
    lf_pysem *m;
    int32_t scope;   /* this function */
    TSNode call;     /* its call of the helper */
    int32_t hs;      /* the helper's scope */
    TSNode hfn;      /* the helper's def */
    uint32_t shift;  /* 1 for a method called on self */
    TSNode self_arg; /* the receiver standing for self */
} helper;

/* Is `b` the only binding of its name in its scope (assigned once, never
 * rebound in the helper)? */
static int only_binding(const lf_pysem *m, const lf_pybinding *b) {
    for (size_t i = 0; i < m->n_bindings; i++)
        if (&m->bindings[i] != b && m->bindings[i].scope == b->scope && m->bindings[i].name == b->name)
            return 0;
    return 1;
}

/* Is a replacement's text safe where a name stood, without parentheses? */
static int bare_node(TSNode w) {
    return lf_tree_is(w, "identifier") || lf_tree_is(w, "attribute") || lf_tree_is(w, "call") ||
           lf_tree_is(w, "subscript") || lf_tree_is(w, "string") || lf_tree_is(w, "integer") ||
           lf_tree_is(w, "none") || lf_tree_is(w, "parenthesized_expression");
}

/* A name of the helper replaced in the text: by a node's text, or by a local's
 * value spelled in turn (`local` >= 0). `owner`: the expression the name sits
 * in (-1: the path itself; k: the value of local k). */
typedef struct repl {
    uint32_t start, end;
    TSNode with;
    int32_t local, owner;
} repl;

typedef struct repl_list {
    LF_VEC(repl) items;
    LF_VEC(TSNode) locals; /* the values of the locals replaced */
} repl_list;

/* The text of `e` with the replacements owned by `owner` (locals' values
 * already spelled in texts[]). */
static char *assemble(const lf_source *src, TSNode e, const repl_list *r, int32_t owner, char *const *texts) {
    LF_VEC(repl) mine = {0};
    for (size_t i = 0; i < r->items.len; i++)
        if (r->items.items[i].owner == owner)
            LF_VEC_PUSH(&mine, r->items.items[i]);
    for (size_t i = 1; i < mine.len; i++) /* by start: the walk went right to left, then down */
        for (size_t j = i; j > 0 && mine.items[j - 1].start > mine.items[j].start; j--) {
            repl t = mine.items[j];
            mine.items[j] = mine.items[j - 1];
            mine.items[j - 1] = t;
        }
    lf_strbuf out;
    lf_strbuf_init(&out);
    uint32_t at = ts_node_start_byte(e);
    for (size_t i = 0; i < mine.len; i++) {
        const repl *x = &mine.items[i];
        lf_strbuf_append(&out, src->text + at, x->start - at);
        TSNode w = x->local >= 0 ? lf_tree_unparen(r->locals.items[x->local]) : x->with;
        int bare = bare_node(w);
        if (!bare)
            lf_strbuf_puts(&out, "(");
        if (x->local >= 0)
            lf_strbuf_puts(&out, texts[x->local]);
        else
            lf_strbuf_append(&out, src->text + ts_node_start_byte(w), ts_node_end_byte(w) - ts_node_start_byte(w));
        if (!bare)
            lf_strbuf_puts(&out, ")");
        at = x->end;
    }
    lf_strbuf_append(&out, src->text + at, ts_node_end_byte(e) - at);
    LF_VEC_FREE(&mine);
    return lf_strbuf_detach(&out);
}

/* The path `path` of the helper as this function would spell it: each of the
 * helper's parameters replaced by what the call passes for it (the receiver
 * for `self`), each name the helper assigns once (`p = state_path(root)`) by
 * its value spelled the same way (one level: a value's own locals are not
 * followed), and every other name a module-level one this function sees bound
 * the same way. Every value must be stable (evaluated once more, the same,
 * with no effect). NULL with *why when it cannot be; *args: the arguments
 * substituted, whose stability this function must check. */
static char *spell(const helper *h, TSNode path, node_list *args, char **why) {
    lf_pysem *m = h->m;
    const lf_source *src = m->src;
    repl_list r;
    memset(&r, 0, sizeof r);
    typedef struct item {
        TSNode n;
        int32_t owner;
    } item;
    LF_VEC(item) stack = {0};
    LF_VEC_PUSH(&stack, ((item){path, -1}));
    while (stack.len && !*why) {
        item it = stack.items[--stack.len];
        TSNode n = it.n;
        if (lf_tree_is(n, "attribute")) {
            LF_VEC_PUSH(&stack, ((item){lf_tree_field(n, "object"), it.owner}));
            continue;
        }
        if (lf_tree_is(n, "keyword_argument")) {
            LF_VEC_PUSH(&stack, ((item){lf_tree_field(n, "value"), it.owner}));
            continue;
        }
        if (!lf_tree_is(n, "identifier")) {
            for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
                LF_VEC_PUSH(&stack, ((item){ts_node_named_child(n, i), it.owner}));
            continue;
        }
        char *name = lf_tree_text(src, n);
        const lf_pybinding *there = lf_pysem_binding_at(m, h->hs, name, ts_node_start_byte(n));
        if (there && there->kind == LF_PYBIND_PARAM && there->scope == h->hs) {
            TSNode with = {0}, dflt;
            for (uint32_t i = 0;; i++) {
                TSNode pn = param_name(h->hfn, i, &dflt);
                if (ts_node_is_null(pn))
                    break;
                if (!lf_tree_equal(src, pn, src, n, 0))
                    continue;
                with = i == 0 && h->shift ? h->self_arg : argument_for(m, h->call, i - h->shift, pn, dflt);
                break;
            }
            if (ts_node_is_null(with)) {
                *why = lf_xasprintf("the document's path is spelled in the helper that reads it (line %u) from its "
                                    "parameter `%s`, which this call does not pass plainly",
                                    lf_py_line(src, path), name);
            } else {
                LF_VEC_PUSH(&r.items, ((repl){ts_node_start_byte(n), ts_node_end_byte(n), with, -1, it.owner}));
                LF_VEC_PUSH(args, with);
            }
        } else if (it.owner < 0 && there && there->kind == LF_PYBIND_ASSIGN && there->scope == h->hs &&
                   !ts_node_is_null(there->value) && only_binding(m, there) &&
                   lf_tree_is(ts_node_parent(there->target), "assignment")) {
            /* `p = state_path(root)` then a read of `p`: p's value, spelled here */
            if (stable_expression(m, there->value)) {
                int32_t k = (int32_t)r.locals.len;
                LF_VEC_PUSH(&r.locals, there->value);
                LF_VEC_PUSH(&r.items, ((repl){ts_node_start_byte(n), ts_node_end_byte(n), there->value, k, -1}));
                LF_VEC_PUSH(&stack, ((item){there->value, k}));
            } else {
                char *v = lf_py_short(src, there->value);
                *why = lf_xasprintf("the document's path is spelled in the helper that reads it (line %u) from `%s`, "
                                    "assigned `%s` there, which the lock would evaluate once more and could give "
                                    "another value or do something",
                                    lf_py_line(src, path), name, v);
                free(v);
            }
        } else if (!there || there->scope != 0 ||
                   lf_pysem_binding_at(m, h->scope, name, ts_node_start_byte(h->call)) != there) {
            *why = lf_xasprintf("the document's path is spelled in the helper that reads it (line %u) from `%s`, "
                                "which this function does not see bound the same way",
                                lf_py_line(src, path), name);
        }
        free(name);
    }
    LF_VEC_FREE(&stack);
    if (!*why && !stable_expression(m, path)) {
        char *p = lf_py_short(src, path);
        *why = lf_xasprintf("the document's path `%s` (line %u) is computed by an expression the lock would "
                            "evaluate once more before the read, and that could give another value or do "
                            "something",
                            p, lf_py_line(src, path));
        free(p);
    }
    char *text = NULL;
    if (!*why) {
        char **texts = lf_xcalloc(r.locals.len ? r.locals.len : 1, sizeof *texts);
        for (size_t k = 0; k < r.locals.len; k++)
            texts[k] = assemble(src, r.locals.items[k], &r, (int32_t)k, texts);
        text = assemble(src, path, &r, -1, texts);
        for (size_t k = 0; k < r.locals.len; k++)
            free(texts[k]);
        free(texts);
    }
    LF_VEC_FREE(&r.items);
    LF_VEC_FREE(&r.locals);
    return text;
}

/* The path `path`, spelled in the module's function (or method) that `call`
 * calls, as this function would spell it: each of the helper's parameters
 * replaced by what the call passes for it (the receiver for `self`), every
 * other name a module-level one this function sees bound the same way. NULL
 * with *why when it cannot be; *args: the arguments substituted, whose
 * stability this function must check. */
static char *helper_path(lf_pysem *m, int32_t scope, TSNode call, TSNode path, node_list *args, char **why) {
    const lf_source *src = m->src;
    int32_t hs = lf_pysem_scope_of(m, path);
    *why = NULL;
    if (!lf_tree_is(call, "call") || hs <= 0 || m->scopes[hs].kind != LF_PYSCOPE_FUNCTION) {
        *why = lf_xasprintf("the document's path is spelled in the helper that reads it (line %u), not in this "
                            "function, so the lock cannot name it here",
                            lf_py_line(src, path));
        return NULL;
    }
    TSNode hfn = m->scopes[hs].node;
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    uint32_t shift = 0;
    TSNode self_arg = {0};
    int calls_it = 0;
    if (lf_tree_is(fn, "identifier")) {
        char *name = lf_tree_text(src, fn);
        const lf_pybinding *b = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(call));
        calls_it = b && b->kind == LF_PYBIND_DEF && b->scope == 0 && ts_node_eq(b->value, hfn);
        free(name);
    } else if (lf_tree_is(fn, "attribute") && m->scopes[hs].cls >= 0 && m->scopes[scope].cls == m->scopes[hs].cls) {
        /* self.helper(...) from a method of the same class */
        TSNode recv = lf_tree_field(fn, "object"), dflt;
        TSNode own_self = param_name(m->scopes[scope].node, 0, &dflt);
        calls_it = lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), m->scopes[hs].name) &&
                   lf_tree_is(recv, "identifier") && !ts_node_is_null(own_self) &&
                   lf_tree_equal(src, recv, src, own_self, 0);
        self_arg = recv;
        shift = 1;
    }
    if (!calls_it) {
        *why = lf_xasprintf("the document's path is spelled in the helper that reads it (line %u), which this "
                            "function does not call directly, so the lock cannot name it here",
                            lf_py_line(src, path));
        return NULL;
    }
    helper h = {m, scope, call, hs, hfn, shift, self_arg};
    char *text = spell(&h, path, args, why);
    if (!text)
        return NULL;
    if (strpbrk(text, "\n\r")) {
        free(text);
        *why = lf_xstrdup("the document's path, spelled in the helper that reads it, spans several lines");
        return NULL;
    }
    return text;
}

/* ---- the site ---- */

static char *find_span(lf_pysem *m, int32_t scope, TSNode read, TSNode write, lf104_site *s) {
    const lf_source *src = m->src;
    TSNode fn = m->scopes[scope].node;
    TSNode body = m->scopes[scope].kind == LF_PYSCOPE_MODULE ? fn : lf_tree_field(fn, "body");
    TSNode block = common_block(body, read, write);
    if (ts_node_is_null(block))
        return lf_xstrdup("the read and the write share no block of the function that a lock could wrap");
    s->first = child_holding(block, read);
    s->last = child_holding(block, write);
    if (ts_node_eq(s->first, s->last) && !ts_node_eq(lf_py_statement(read), s->first))
        return lf_xasprintf("the read and the write sit in different clauses of one statement (line %u): a lock "
                            "around both would have to take in the whole statement",
                            lf_py_line(src, s->first));
    if (ts_node_start_byte(s->last) < ts_node_start_byte(s->first))
        return lf_xstrdup("the write comes before the read in the block");
    return NULL;
}

lf104_site *lf104_py_site(lf_pysem *m, int32_t scope, TSNode read, TSNode write, TSNode path, TSNode write_path,
                          lf104_path_kind kind) {
    lf104_site *s = lf_xcalloc(1, sizeof *s);
    s->path = path;
    s->scope = scope;
    const lf_source *src = m->src;
    /* a function's, or the module's own statements (a hook script's body) */
    if (scope < 0 || (size_t)scope >= m->n_scopes ||
        (m->scopes[scope].kind != LF_PYSCOPE_FUNCTION && m->scopes[scope].kind != LF_PYSCOPE_MODULE)) {
        s->decline = lf_xstrdup("the read-modify-write is not in a function or in the module's own statements (a "
                                "class body, a lambda, a comprehension)");
        return s;
    }
    if (kind == LF104_PATH_NAMED) {
        char *call = lf_py_short(src, read), *p = lf_py_short(src, path);
        s->decline = lf_xasprintf("the document is read through %s, a helper of another module, whose argument `%s` "
                                  "need not be a file path: where its lock file belongs is for the code's owner",
                                  call, p);
        free(call);
        free(p);
        return s;
    }
    node_list args = {0};
    if (!lf_tree_within(path, m->scopes[scope].node) && !module_path(m, scope, path, read)) {
        /* The reader helper spells the path (`path = session_dir() /
         * "x.json"`), but this function writes the same document under a path
         * it spells itself: the lock takes that name, if it holds the same
         * value before the read (unstable_path); else the helper's spelling,
         * said as this function would say it. */
        if (!ts_node_is_null(write_path) && lf_tree_within(write_path, m->scopes[scope].node) &&
            ts_node_start_byte(write_path) > ts_node_end_byte(read))
            s->path = path = write_path;
        else
            s->path_text = helper_path(m, scope, read, path, &args, &s->decline);
        if (!s->path_text && s->decline) {
            LF_VEC_FREE(&args);
            return s;
        }
    }
    s->decline = find_span(m, scope, read, write, s);
    if (!s->decline)
        s->decline = span_hazard(src, s->first, s->last);
    if (!s->decline) {
        TSNode inner = inner_lock(m, scope, s->first, s->last);
        if (!ts_node_is_null(inner))
            s->decline = lf_xasprintf("the read-modify-write holds a lock of its own (line %u): a lock around it "
                                      "would nest two locks, in an order other code may take the other way",
                                      lf_py_line(src, inner));
    }
    if (!s->decline && !s->path_text)
        s->decline = unstable_path(m, scope, path, s->first, s->last, write);
    for (size_t i = 0; i < args.len && !s->decline; i++)
        if (!lf_tree_is(args.items[i], "none") && !lf_tree_is(args.items[i], "string") &&
            !lf_tree_is(args.items[i], "integer") && !lf_tree_is(args.items[i], "true") &&
            !lf_tree_is(args.items[i], "false"))
            s->decline = unstable_path(m, scope, args.items[i], s->first, s->last, write);
    LF_VEC_FREE(&args);
    return s;
}
