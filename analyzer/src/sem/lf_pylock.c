/* lf_pylock: lock identity by use over the Python semantic model (see lf_pylock.h).
 * Every walk here is iterative; every table is hashed; the propagation is a
 * worklist whose keys' flags only grow, so the cost stays linear in the file. */
#include "lf_pylock.h"
#include "lf_pysem_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pygate.h"
#include "lf_tree.h"
#include "lf_util.h"

#define EQ_FLAGS LF_TREE_EQ_STRING_CONTENT

typedef LF_VEC(int32_t) i32_vec;

typedef struct edge {
    int32_t arg, param; /* key indices */
    TSNode arg_node;
    TSNode call;
    int32_t caller;     /* scope of the call */
    int32_t callee;     /* the function called */
} edge;

typedef struct field_value {
    int32_t cls;
    const char *name;
    TSNode value;
} field_value;

typedef struct made_at {
    int32_t scope, key;
    TSNode node; /* the write or create */
} made_at;

typedef struct keyed_call {
    lf_pkey key;
    size_t call; /* index into m->calls */
} keyed_call;

/* Calls by the key of the path they act on, sorted by key hash then call
 * order: the calls on one key are a run found by binary search. */
typedef struct key_index {
    LF_VEC(keyed_call) calls;
    int built;
} key_index;

/* A loop over a directory's files that walks a lock the module keeps there
 * (mark_directory_scans): the loop variable's key and the lock's. */
typedef struct scan_pair {
    int32_t scan, lock;
} scan_pair;

struct lf_pylock_internal {
    size_t *table; /* key hash -> index + 1 */
    size_t cap;
    LF_VEC(lf_pylock_key) keys;
    LF_VEC(lf_pylock_event) events;
    LF_VEC(edge) edges;
    LF_VEC(field_value) fields; /* self.X = value, per class */
    LF_VEC(scan_pair) scans;    /* directory scans that walk a lock (mark_directory_scans) */
    LF_VEC(i32_vec) key_edges;  /* per key: the edges touching it */
    /* (class scope, method name) -> function scope */
    int32_t *methods;
    size_t methods_cap;
    /* the module's calls of each function, grouped by callee scope (indices
     * into m->calls, calls_at[f] .. calls_at[f + 1]); null until built */
    int32_t *calls_at, *calls_by;
    /* (function, key) pairs: the function writes or creates the key itself */
    LF_VEC(made_at) made;
    /* (function, key) pairs: the function sets the key's times (os.utime) */
    LF_VEC(made_at) touched;
    /* per scope: 0 not asked yet, 1 no, 2 a @staticmethod (asked per
     * parameter question; the answer climbs with ts_node_parent) */
    unsigned char *staticmethod;
    /* The module's calls that create or write a path (writers), and those
     * that make a directory (dirs_made), each with the path's key: built on
     * the first question (lf_pylock_writers, lf_pylock_made_as_directory) */
    key_index writers, dirs_made;
};

/* ---- small helpers ---- */

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

TSNode lf_pylock_arg(lf_pysem *m, TSNode call, uint32_t index, const char *kw) {
    TSNode args = lf_tree_field(call, "arguments");
    if (ts_node_is_null(args) || !lf_tree_is(args, "argument_list"))
        return (TSNode){0};
    uint32_t k = 0;
    TSNode found = (TSNode){0};
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "comment"))
            continue;
        if (lf_tree_is(a, "keyword_argument")) {
            if (kw && lf_tree_text_eq(m->src, lf_tree_field(a, "name"), kw))
                return lf_tree_field(a, "value");
            continue;
        }
        if (lf_tree_is(a, "list_splat") || lf_tree_is(a, "dictionary_splat"))
            break;
        if (k++ == index && ts_node_is_null(found))
            found = a;
    }
    return found;
}

static const char *const k_removals[] = {"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "shutil.rmtree",
                                         "pathlib.Path.unlink", "pathlib.Path.rmdir", NULL};

/* A one-dot relative name (`.portalocker.lock` from `from . import
 * portalocker`) made absolute with the file's own package, the directory that
 * holds it (`portalocker/utils.py` -> `portalocker.portalocker.lock`). */
static int relative_in_list(const lf_pysem *m, const char *q, const char *const *names) {
    const char *path = m->src->path;
    if (!q || q[0] != '.' || q[1] == '.' || !path)
        return 0;
    const char *slash = strrchr(path, '/');
    if (!slash)
        return 0;
    const char *dir = slash;
    while (dir > path && dir[-1] != '/')
        dir--;
    size_t dn = (size_t)(slash - dir);
    for (size_t i = 0; dn && names[i]; i++)
        if (!strncmp(names[i], dir, dn) && !strcmp(names[i] + dn, q))
            return 1;
    return 0;
}

int lf_pylock_callee_any(lf_pysem *m, TSNode call, const char *const *names) {
    const char *q = NULL;
    size_t n = 0;
    const char *const *imports = lf_pysem_callee_names(m, call, &q, &n);
    if (lf_str_in_list(q, names) || relative_in_list(m, q, names))
        return 1;
    /* A name bound on several paths (`from os import remove as rmlink` on POSIX,
     * a def on Windows): any import of one of the names counts. */
    for (size_t i = 0; i < n; i++)
        if (lf_str_in_list(imports[i], names))
            return 1;
    return 0;
}

/* The receiver of an attribute call (`p.unlink()` -> p), or null. */
static TSNode receiver(TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    return lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "object") : (TSNode){0};
}

/* The method name node of an attribute call, or null. */
static TSNode method_attr(TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    return lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : (TSNode){0};
}

/* Is the call an attribute call of this method name? */
static int method_is(lf_pysem *m, TSNode call, const char *name) {
    TSNode a = method_attr(call);
    return !ts_node_is_null(a) && lf_tree_text_eq(m->src, a, name);
}

/* Which of names (NULL-terminated) the attribute call's method is: its index, or -1. */
static int method_index(lf_pysem *m, TSNode attr, const char *const *names) {
    if (ts_node_is_null(attr))
        return -1;
    for (int i = 0; names[i]; i++)
        if (lf_tree_text_eq(m->src, attr, names[i]))
            return i;
    return -1;
}

static uint32_t n_positional(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        const char *t = ts_node_type(ts_node_named_child(args, i));
        if (strcmp(t, "keyword_argument") && strcmp(t, "comment"))
            k++;
    }
    return k;
}

/* A method of a path-like receiver whose type the model cannot tell: accepted
 * only with no positional argument (os has no such zero-argument function). */
static int pathlike_method(lf_pysem *m, TSNode call, const char *name) {
    if (!method_is(m, call, name) || n_positional(call) != 0)
        return 0;
    lf_pytype t = lf_pysem_type_of(m, receiver(call));
    return t == LF_PYTYPE_PATH || t == LF_PYTYPE_UNKNOWN;
}

/* `p.open("r")`, `p.open("w", encoding=..)` on a path-like receiver whose type
 * the model cannot tell (a path a module function returns): one positional
 * argument, a string literal that is a file mode, as pathlib.Path.open takes
 * first. */
static int pathlike_open_mode(lf_pysem *m, TSNode call) {
    if (!method_is(m, call, "open") || n_positional(call) != 1)
        return 0;
    lf_pytype t = lf_pysem_type_of(m, receiver(call));
    if (t != LF_PYTYPE_PATH && t != LF_PYTYPE_UNKNOWN)
        return 0;
    TSNode a = lf_tree_unparen(lf_pylock_arg(m, call, 0, "mode"));
    if (!lf_tree_is(a, "string") || ts_node_named_child_count(a) != 3)
        return 0;
    TSNode c = ts_node_named_child(a, 1);
    if (!lf_tree_is(c, "string_content"))
        return 0;
    uint32_t n = ts_node_end_byte(c) - ts_node_start_byte(c);
    const char *s = m->src->text + ts_node_start_byte(c);
    if (n == 0 || n > 3)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!strchr("rwaxbt+", s[i]))
            return 0;
    return 1;
}

/* The destination a rename replaces whole: os.rename/os.replace/shutil.move's
 * second argument, or `Path.replace(target)`/`Path.rename(target)` (one
 * positional argument: str.replace takes two). Null when the call is none. */
static TSNode rename_destination(lf_pysem *m, TSNode call) {
    static const char *const replaces[] = {"os.rename", "os.replace", "shutil.move", NULL};
    if (lf_pylock_callee_any(m, call, replaces))
        return lf_pylock_arg(m, call, 1, "dst");
    const char *q = lf_pysem_callee(m, call);
    int path_method = q && (!strcmp(q, "pathlib.Path.replace") || !strcmp(q, "pathlib.Path.rename"));
    if (!path_method && (method_is(m, call, "replace") || method_is(m, call, "rename")) && n_positional(call) == 1 &&
        ts_node_named_child_count(lf_tree_field(call, "arguments")) == 1) {
        lf_pytype t = lf_pysem_type_of(m, receiver(call));
        path_method = t == LF_PYTYPE_PATH || t == LF_PYTYPE_UNKNOWN;
    }
    TSNode none = {0};
    return path_method ? lf_pylock_arg(m, call, 0, "target") : none;
}

static const char *const k_unlink_calls[] = {"os.remove", "os.unlink", "pathlib.Path.unlink", NULL};
static const char *const k_moves[] = {"os.rename", "os.replace", "shutil.move", NULL};

/* `Path(x)`, `str(x)`: a call of one argument names what x names. */
static TSNode one_arg_inner(TSNode n) {
    n = lf_tree_unparen(n);
    if (lf_tree_is(n, "call") && ts_node_named_child_count(lf_tree_field(n, "arguments")) == 1)
        return lf_tree_unparen(ts_node_named_child(lf_tree_field(n, "arguments"), 0));
    return n;
}

/* The source `src` of a rename moves aside to `dst`: dst's value is spelled
 * from src (`f"{lock}.break.{pid}"`, `lock + ".stale"`), or dst is unlinked
 * after the rename in the same function. */
static int unlink_cmp(const void *a, const void *b) {
    const lf_pyunlink *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    if (x->scope != y->scope)
        return x->scope < y->scope ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* The module's unlinks, each asked once what it removes: asking every call
 * of the module per rename made a function of n renames and unlinks cost
 * n times the module. */
static const struct lf_pysem_internal *unlinks_of(lf_pysem *m) {
    struct lf_pysem_internal *in = m->in;
    if (in->unlinks_built)
        return in;
    in->unlinks_built = 1;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        TSNode t = (TSNode){0};
        const char *q = lf_pysem_callee(m, c);
        if (lf_str_in_list(q, k_unlink_calls))
            t = lf_pylock_arg(m, c, 0, "path");
        else if (method_is(m, c, "unlink"))
            t = receiver(c);
        t = one_arg_inner(t);
        if (ts_node_is_null(t))
            continue;
        lf_pyunlink u = {lf_tree_hash(m->src, t, 0), m->calls[i].scope, ts_node_start_byte(c), t};
        LF_VEC_PUSH(&in->unlinks, u);
    }
    if (in->unlinks.len > 1)
        qsort(in->unlinks.items, in->unlinks.len, sizeof *in->unlinks.items, unlink_cmp);
    return in;
}

/* The source `src` of a rename moves aside to `dst`: dst's value is spelled
 * from src (`f"{lock}.break.{pid}"`, `lock + ".stale"`), or dst is unlinked
 * after the rename in the same function. */
static int moved_aside(lf_pysem *m, TSNode call, TSNode src, TSNode dst) {
    if (ts_node_is_null(src) || ts_node_is_null(dst))
        return 0;
    src = one_arg_inner(src);
    TSNode value = lf_pysem_resolve_value(m, dst);
    uint32_t sn = ts_node_end_byte(src) - ts_node_start_byte(src);
    const char *st = m->src->text + ts_node_start_byte(src);
    for (uint32_t i = ts_node_start_byte(value); sn && i + sn <= ts_node_end_byte(value); i++)
        if (!memcmp(m->src->text + i, st, sn))
            return 1;
    int32_t scope = lf_pysem_scope_of(m, call);
    const struct lf_pysem_internal *in = unlinks_of(m);
    TSNode want = lf_tree_unparen(dst);
    uint64_t h = lf_tree_hash(m->src, want, 0);
    /* Equal trees hash alike: only want's run can hold one. */
    size_t lo = 0, hi = in->unlinks.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const lf_pyunlink *u = &in->unlinks.items[mid];
        lf_work(1);
        if (u->hash < h || (u->hash == h && (u->scope < scope || (u->scope == scope && u->at <= ts_node_end_byte(call)))))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < in->unlinks.len && in->unlinks.items[i].hash == h && in->unlinks.items[i].scope == scope;
         i++) {
        lf_work(1);
        if (lf_tree_equal(m->src, in->unlinks.items[i].target, m->src, want, 0))
            return 1;
    }
    return 0;
}

int lf_pylock_removal_call(lf_pysem *m, TSNode call, TSNode *target) {
    const char *q = lf_pysem_callee(m, call);
    if ((q && (!strcmp(q, "pathlib.Path.unlink") || !strcmp(q, "pathlib.Path.rmdir"))) ||
        pathlike_method(m, call, "unlink") || pathlike_method(m, call, "rmdir")) {
        *target = receiver(call);
        return !ts_node_is_null(*target);
    }
    /* Renamed away: the name no longer holds what was there, whoever's it is
     * (`os.rename(lock, lock + ".break")`, `Path(lock).replace(aside)`). */
    /* Only a move aside (to a name made from the old one, or removed right
     * after): a temp renamed onto the document it publishes is no removal. */
    if (lf_pylock_callee_any(m, call, k_moves)) {
        *target = lf_pylock_arg(m, call, 0, "src");
        return !ts_node_is_null(*target) && n_positional(call) >= 2 &&
               moved_aside(m, call, *target, lf_pylock_arg(m, call, 1, "dst"));
    }
    if ((method_is(m, call, "rename") || method_is(m, call, "replace")) && n_positional(call) == 1 &&
        lf_pysem_type_of(m, receiver(call)) == LF_PYTYPE_PATH) {
        *target = receiver(call);
        return !ts_node_is_null(*target) && moved_aside(m, call, *target, lf_pylock_arg(m, call, 0, "target"));
    }
    if (!lf_pylock_callee_any(m, call, k_removals))
        return 0;
    *target = lf_pylock_arg(m, call, 0, "path");
    return !ts_node_is_null(*target);
}

int lf_pylock_rename_call(lf_pysem *m, TSNode call) {
    return lf_pylock_callee_any(m, call, k_moves) || method_is(m, call, "rename") || method_is(m, call, "replace");
}

/* ---- keys ---- */

static const char *const k_path_wrappers[] = {"str", "os.fspath", "pathlib.Path", "pathlib.PurePath",
                                              "pathlib.PosixPath", "os.path.abspath", "os.path.normpath",
                                              "os.path.expanduser", "os.fsencode", "os.fsdecode", NULL};

/* The class a `self` parameter use belongs to, or -1. */
static int32_t self_class(lf_pysem *m, TSNode ident) {
    if (!lf_tree_is(ident, "identifier"))
        return -1;
    int32_t scope = lf_pysem_scope_of(m, ident);
    char *name = lf_tree_text(m->src, ident);
    const lf_pybinding *b = lf_pysem_binding_at(m, scope, name, ts_node_start_byte(ident));
    free(name);
    if (!b || b->kind != LF_PYBIND_PARAM || b->scope < 0)
        return -1;
    const lf_pyscope *fs = &m->scopes[b->scope];
    if (fs->kind != LF_PYSCOPE_FUNCTION || fs->cls < 0)
        return -1;
    /* The first parameter of a method (not a staticmethod's: close enough). */
    TSNode params = lf_tree_field(fs->node, "parameters");
    TSNode first = lf_tree_child(params, 0);
    if (lf_tree_is(first, "default_parameter") || lf_tree_is(first, "typed_parameter") ||
        lf_tree_is(first, "typed_default_parameter"))
        first = lf_tree_is(first, "typed_parameter") ? ts_node_named_child(first, 0) : lf_tree_field(first, "name");
    if (!ts_node_eq(first, b->target))
        return -1;
    return fs->cls;
}

static int32_t def_scope(lf_pysem *m, TSNode def);

/* The module's own class a class derives from first (`class T(Lock):` with
 * `Lock` defined in this module), or -1. */
static int32_t base_class(lf_pysem *m, int32_t cls) {
    TSNode supers = lf_tree_field(m->scopes[cls].node, "superclasses");
    for (uint32_t i = 0; !ts_node_is_null(supers) && i < ts_node_named_child_count(supers); i++) {
        TSNode b = ts_node_named_child(supers, i);
        if (!lf_tree_is(b, "identifier"))
            continue;
        char *name = lf_tree_text(m->src, b);
        const lf_pybinding *bd = lf_pysem_binding_at(m, 0, name, ts_node_start_byte(b));
        free(name);
        if (!bd || bd->kind != LF_PYBIND_DEF)
            continue;
        int32_t s = def_scope(m, bd->value);
        if (s > 0 && s != cls && m->scopes[s].kind == LF_PYSCOPE_CLASS)
            return s;
    }
    return -1;
}

static int class_assigns(const lf_pylock *l, int32_t cls, const char *name) {
    for (size_t i = 0; i < l->in->fields.len; i++)
        if (l->in->fields.items[i].cls == cls && l->in->fields.items[i].name == name)
            return 1;
    return 0;
}

/* The class whose field `self.<name>` in a method of `cls` is: the nearest of
 * cls and its bases (in this module) that assigns it, so a subclass's use of a
 * field its base's __init__ sets names the same file as the base's methods do.
 * cls itself when none does. The base chain is bounded by the number of scopes. */
static int32_t field_owner(const lf_pylock *l, int32_t cls, const char *name) {
    int32_t c = cls;
    for (size_t hops = 0; c > 0 && hops < l->m->n_scopes; hops++) {
        if (class_assigns(l, c, name))
            return c;
        c = base_class(l->m, c);
    }
    return cls;
}

static uint64_t key_hash(const lf_pysem *m, const lf_pkey *k) {
    uint64_t h = mix(0x51ed270b2bull, (uint64_t)k->kind);
    switch (k->kind) {
    case LF_PKEY_FIELD:
        return mix(mix(h, (uint64_t)k->scope), (uint64_t)(uintptr_t)k->name);
    case LF_PKEY_BIND:
        return mix(h, (uint64_t)(uintptr_t)k->binding);
    case LF_PKEY_CALL:
        return mix(h, (uint64_t)k->scope);
    case LF_PKEY_EXPR:
        return mix(h, lf_tree_hash(m->src, k->node, EQ_FLAGS));
    default:
        return h;
    }
}

static int key_eq(const lf_pysem *m, const lf_pkey *a, const lf_pkey *b) {
    if (a->kind != b->kind || a->hash != b->hash)
        return 0;
    switch (a->kind) {
    case LF_PKEY_FIELD:
        return a->scope == b->scope && a->name == b->name;
    case LF_PKEY_BIND:
        return a->binding == b->binding;
    case LF_PKEY_CALL:
        return a->scope == b->scope;
    case LF_PKEY_EXPR:
        return lf_tree_equal(m->src, a->node, m->src, b->node, EQ_FLAGS);
    default:
        return 0;
    }
}

int lf_pylock_key_eq(const lf_pysem *m, const lf_pkey *a, const lf_pkey *b) { return key_eq(m, a, b); }

static int32_t method_scope(lf_pylock *l, int32_t cls, const char *name);
static TSNode lock_object_path(lf_pysem *m, TSNode obj);

static TSNode returned_value(lf_pysem *m, int32_t f);
static TSNode returned_name(lf_pysem *m, int32_t f);

/* `lock_path, ok = _take_lock(p)`: the name unpacked from the i-th element of
 * the tuple the module's function returns (`return lock_path, True`) is that
 * element, followed in the function; null when the binding is no such
 * unpacking. */
static TSNode unpacked_return(lf_pylock *l, const lf_pybinding *b) {
    lf_pysem *m = l->m;
    TSNode pat = ts_node_parent(b->target);
    if (ts_node_is_null(pat) || !(lf_tree_is(pat, "pattern_list") || lf_tree_is(pat, "tuple_pattern")))
        return (TSNode){0};
    uint32_t index = UINT32_MAX;
    for (uint32_t i = 0; i < ts_node_named_child_count(pat); i++)
        if (ts_node_eq(ts_node_named_child(pat, i), b->target))
            index = i;
    TSNode asg = ts_node_parent(pat); /* the model binds no value to a name unpacked from a tuple */
    TSNode call = lf_tree_is(asg, "assignment") && ts_node_eq(lf_tree_field(asg, "left"), pat)
                      ? lf_tree_unparen(lf_tree_field(asg, "right"))
                      : (TSNode){0};
    if (index == UINT32_MAX || !lf_tree_is(call, "call"))
        return (TSNode){0};
    int skip = 0;
    int32_t f = lf_pylock_local_callee(l, call, &skip);
    if (f < 0 || m->scopes[f].kind != LF_PYSCOPE_FUNCTION)
        return (TSNode){0};
    TSNode r = lf_tree_unparen(returned_value(m, f));
    if (!(lf_tree_is(r, "tuple") || lf_tree_is(r, "expression_list")) ||
        ts_node_named_child_count(r) != ts_node_named_child_count(pat))
        return (TSNode){0};
    return ts_node_named_child(r, index);
}

/* The field an `__init__` parameter is kept in: a statement of the
 * constructor's own body (not under a branch) `self.<name> = <param>`, the one
 * such statement for that parameter; else NULL. */
static const char *init_param_field(lf_pysem *m, const lf_pybinding *param) {
    if (param->scope < 0 || m->scopes[param->scope].kind != LF_PYSCOPE_FUNCTION || m->scopes[param->scope].cls < 0 ||
        strcmp(m->scopes[param->scope].name, "__init__") != 0)
        return NULL;
    TSNode body = lf_tree_field(m->scopes[param->scope].node, "body");
    const char *field = NULL;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode a = lf_tree_is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
        if (!lf_tree_is(a, "assignment"))
            continue;
        TSNode left = lf_tree_field(a, "left"), right = lf_tree_unparen(lf_tree_field(a, "right"));
        if (!lf_tree_is(left, "attribute") || !lf_tree_is(right, "identifier") ||
            !lf_tree_text_eq(m->src, right, param->name) || self_class(m, lf_tree_field(left, "object")) < 0)
            continue;
        if (field)
            return NULL; /* kept twice: which one is the lock's is not for the key to say */
        field = lf_pysem_intern_node(m, lf_tree_field(left, "attribute"));
    }
    return field;
}

lf_pkey lf_pylock_key_of(lf_pylock *l, TSNode expr) {
    lf_pysem *m = l->m;
    lf_pkey k;
    memset(&k, 0, sizeof k);
    TSNode e = lf_tree_unparen(expr);
    for (size_t hops = 0; !ts_node_is_null(e) && hops <= m->n_bindings + 1; hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call")) {
            TSNode a0 = lf_pylock_arg(m, e, 0, NULL);
            if (!ts_node_is_null(a0) && n_positional(e) == 1 && lf_pylock_callee_any(m, e, k_path_wrappers)) {
                e = a0;
                continue;
            }
            int skip = 0;
            int32_t f = lf_pylock_local_callee(l, e, &skip);
            if (f >= 0 && m->scopes[f].kind == LF_PYSCOPE_FUNCTION && strcmp(m->scopes[f].name, "__init__") != 0) {
                /* `lock_path = acquire(sid)` with `return lock_path` in it:
                 * the lock it names there */
                TSNode named = returned_name(m, f);
                if (!ts_node_is_null(named)) {
                    e = named;
                    continue;
                }
                k.kind = LF_PKEY_CALL;
                k.scope = f;
                break;
            }
        } else if (lf_tree_is(e, "identifier")) {
            char *name = lf_tree_text(m->src, e);
            const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
            free(name);
            if (b && (b->kind == LF_PYBIND_ASSIGN || b->kind == LF_PYBIND_WALRUS) && !ts_node_is_null(b->value) &&
                !ts_node_eq(lf_tree_unparen(b->value), e)) {
                e = b->value;
                continue;
            }
            TSNode element = b && b->kind == LF_PYBIND_ASSIGN && ts_node_is_null(b->value) ? unpacked_return(l, b)
                                                                                          : (TSNode){0};
            if (!ts_node_is_null(element)) {
                e = element;
                continue;
            }
            /* `__init__(self, path): self._path = path; self._lock = Lock(path)`:
             * the constructor's parameter is the field it keeps */
            const char *kept = b && b->kind == LF_PYBIND_PARAM ? init_param_field(m, b) : NULL;
            if (kept) {
                k.kind = LF_PKEY_FIELD;
                k.name = kept;
                k.scope = field_owner(l, m->scopes[b->scope].cls, kept);
                break;
            }
            if (b && b->kind != LF_PYBIND_IMPORT) {
                k.kind = LF_PKEY_BIND;
                k.binding = b;
                break;
            }
        } else if (lf_tree_is(e, "attribute")) {
            int32_t cls = self_class(m, lf_tree_unparen(lf_tree_field(e, "object")));
            TSNode attr = lf_tree_field(e, "attribute");
            TSNode made_for = lf_tree_is(attr, "identifier") && (lf_tree_text_eq(m->src, attr, "lock_file") ||
                                                                 lf_tree_text_eq(m->src, attr, "path"))
                                  ? lock_object_path(m, lf_tree_field(e, "object"))
                                  : (TSNode){0};
            if (!ts_node_is_null(made_for)) {
                e = made_for;
                continue;
            }
            if (cls >= 0 && lf_tree_is(attr, "identifier")) {
                k.kind = LF_PKEY_FIELD;
                k.name = lf_pysem_intern_node(m, attr);
                k.scope = field_owner(l, cls, k.name);
                break;
            }
        }
        k.kind = LF_PKEY_EXPR;
        k.node = e;
        break;
    }
    if (k.kind == LF_PKEY_NONE && !ts_node_is_null(e)) {
        k.kind = LF_PKEY_EXPR;
        k.node = e;
    }
    k.hash = key_hash(m, &k);
    return k;
}

int lf_pylock_key_same(const lf_pylock *l, const lf_pkey *a, const lf_pkey *b) { return key_eq(l->m, a, b); }

int32_t lf_pylock_find(const lf_pylock *l, const lf_pkey *k) {
    const struct lf_pylock_internal *in = l->in;
    if (!in->cap || k->kind == LF_PKEY_NONE)
        return -1;
    size_t h = (size_t)(k->hash >> 3) & (in->cap - 1);
    for (; in->table[h]; h = (h + 1) & (in->cap - 1)) {
        size_t i = in->table[h] - 1;
        if (key_eq(l->m, &in->keys.items[i].key, k))
            return (int32_t)i;
    }
    return -1;
}

static int32_t key_add(lf_pylock *l, const lf_pkey *k) {
    struct lf_pylock_internal *in = l->in;
    if (k->kind == LF_PKEY_NONE)
        return -1;
    int32_t found = lf_pylock_find(l, k);
    if (found >= 0)
        return found;
    if (2 * (in->keys.len + 1) > in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 64;
        size_t *t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < in->keys.len; i++) {
            size_t h = (size_t)(in->keys.items[i].key.hash >> 3) & (cap - 1);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = i + 1;
        }
        free(in->table);
        in->table = t;
        in->cap = cap;
    }
    lf_pylock_key e;
    memset(&e, 0, sizeof e);
    e.key = *k;
    LF_VEC_PUSH(&in->keys, e);
    i32_vec none = {0};
    LF_VEC_PUSH(&in->key_edges, none);
    size_t h = (size_t)(k->hash >> 3) & (in->cap - 1);
    while (in->table[h])
        h = (h + 1) & (in->cap - 1);
    in->table[h] = in->keys.len;
    return (int32_t)(in->keys.len - 1);
}

static int32_t key_add_expr(lf_pylock *l, TSNode expr) {
    lf_pkey k = lf_pylock_key_of(l, expr);
    return key_add(l, &k);
}

/* Set flags on a key; 1 when that changed it. */
static int key_mark(lf_pylock *l, int32_t i, unsigned flags, TSNode why) {
    if (i < 0)
        return 0;
    lf_pylock_key *k = &l->in->keys.items[i];
    if ((k->flags & flags) == flags)
        return 0;
    unsigned uses = flags & LF_LOCK_USES & ~k->flags;
    if (uses && !k->evidence_flag) {
        k->evidence = why;
        k->evidence_flag = uses;
    }
    k->flags |= flags;
    return 1;
}

unsigned lf_pylock_flags_of(lf_pylock *l, TSNode expr) {
    lf_pkey k = lf_pylock_key_of(l, expr);
    int32_t i = lf_pylock_find(l, &k);
    return i < 0 ? 0 : l->keys[i].flags;
}

/* The key's lock uses are only ones an atomic write's temp gets: an
 * exclusive create, a byte-range lock. */
static int temp_uses_only(unsigned flags) {
    return !(flags & LF_LOCK_USES & ~(LF_LOCK_EXCL | LF_LOCK_FLOCK | LF_LOCK_MSVCRT));
}

int lf_pylock_is_lock(unsigned flags) {
    if (!(flags & LF_LOCK_USES) || (flags & LF_LOCK_PKG))
        return 0;
    /* A file named after a pid (`.sessions/<pid>.json`, a watcher's
     * `{parent_pid}.json`, an atomic write's `f"{target}.{os.getpid()}.tmp"`
     * opened O_EXCL) is one process's: no other process contends for that
     * name, so it excludes no one, however it is written or created. */
    if ((flags & LF_LOCK_PER_PROCESS) && !(flags & LF_LOCK_USES & ~(LF_LOCK_PID | LF_LOCK_EXCL | LF_LOCK_CLAIM)))
        return 0;
    /* A pid file that nothing reads or looks at excludes no one: a process
     * announcing its pid (for an operator or a monitor) holds no lock,
     * whatever it removes. */
    if ((flags & LF_LOCK_USES) == LF_LOCK_PID && !(flags & (LF_LOCK_JUDGED_CONTENT | LF_LOCK_JUDGED_GATE)))
        return 0;
    /* A path only ever made as a symlink is a lock when it is judged as one:
     * its owner read back (os.readlink: the link's target is the owner
     * record) or its age read (a stale-lock test). Installers make symlinks
     * the same way (a completions file, a skills directory, replaced after an
     * exists/is_symlink test, its contents compared with the source) and
     * judge neither. A symlink that holds the pid carries LF_LOCK_PID too. */
    if ((flags & LF_LOCK_USES) == LF_LOCK_SYMLINK && !(flags & (LF_LOCK_READLINK | LF_LOCK_AGED)))
        return 0;
    /* A file only byte-range locked that the module also replaces by a rename
     * is the data file the lock guards (mailbox's lockf on the mbox it
     * rewrites), not a lock file. */
    if ((flags & LF_LOCK_REPLACED) && !(flags & LF_LOCK_USES & ~(LF_LOCK_FLOCK | LF_LOCK_MSVCRT)))
        return 0;
    /* A file only created exclusively or byte-range locked that the module
     * renames onto another path is an atomic write's temp (opened "x" so no
     * other writer shares it, or locked while it is written: then its shared
     * name is LF401's bug), not a lock file. */
    return !(flags & LF_LOCK_INSTALLED) || !temp_uses_only(flags);
}

/* ---- the module's own functions ---- */

static size_t method_hash(int32_t cls, const char *name, size_t cap) {
    return (size_t)(mix((uint64_t)cls, (uint64_t)(uintptr_t)name) >> 5) & (cap - 1);
}

static void index_methods(lf_pylock *l) {
    lf_pysem *m = l->m;
    struct lf_pylock_internal *in = l->in;
    size_t cap = 16;
    while (cap < 2 * m->n_scopes + 2)
        cap *= 2;
    in->methods = lf_xmalloc(cap * sizeof *in->methods);
    for (size_t i = 0; i < cap; i++)
        in->methods[i] = -1;
    in->methods_cap = cap;
    for (size_t i = 0; i < m->n_scopes; i++) {
        const lf_pyscope *s = &m->scopes[i];
        if (s->kind != LF_PYSCOPE_FUNCTION || s->cls < 0)
            continue;
        size_t h = method_hash(s->cls, s->name, cap);
        while (in->methods[h] >= 0) {
            const lf_pyscope *o = &m->scopes[in->methods[h]];
            if (o->cls == s->cls && o->name == s->name)
                break;
            h = (h + 1) & (cap - 1);
        }
        in->methods[h] = (int32_t)i; /* a later definition replaces an earlier one, as in Python */
    }
}

static int32_t method_scope(lf_pylock *l, int32_t cls, const char *name) {
    struct lf_pylock_internal *in = l->in;
    const char *iname = lf_pysem_intern(l->m, name, strlen(name));
    size_t h = method_hash(cls, iname, in->methods_cap);
    for (; in->methods[h] >= 0; h = (h + 1) & (in->methods_cap - 1)) {
        const lf_pyscope *o = &l->m->scopes[in->methods[h]];
        if (o->cls == cls && o->name == iname)
            return in->methods[h];
    }
    return -1;
}

static int32_t def_scope(lf_pysem *m, TSNode def) {
    if (lf_tree_is(def, "decorated_definition"))
        def = lf_tree_field(def, "definition");
    TSNode body = lf_tree_field(def, "body");
    if (ts_node_is_null(body))
        return -1;
    int32_t s = lf_pysem_scope_of(m, body);
    return s > 0 && ts_node_eq(m->scopes[s].node, def) ? s : -1;
}

/* A module-level function defined once per branch of a platform test
 * (`if sys.platform == "win32": def _lock(fd): msvcrt.locking(..) else: def
 * _lock(fd): fcntl.flock(..)`): every binding of the name is such a def, and
 * they implement one contract, so the last stands for them. NULL otherwise. */
static const lf_pybinding *platform_alternative(lf_pysem *m, const char *name) {
    size_t n = 0;
    const lf_pybinding *const *bs = lf_pysem_bindings_of(m, 0, lf_pysem_intern(m, name, strlen(name)), &n);
    const lf_pybinding *last = NULL;
    for (size_t i = 0; i < n; i++) {
        if (bs[i]->kind == LF_PYBIND_GLOBAL)
            continue;
        if (bs[i]->kind != LF_PYBIND_DEF || bs[i]->scope != 0)
            return NULL;
        last = bs[i];
    }
    return n > 1 ? last : NULL;
}

int32_t lf_pylock_local_callee(lf_pylock *l, TSNode call, int *skip_self) {
    lf_pysem *m = l->m;
    *skip_self = 0;
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "identifier")) {
        char *name = lf_tree_text(m->src, fn);
        const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, fn), name, ts_node_start_byte(fn));
        if (!b)
            b = platform_alternative(m, name);
        free(name);
        if (!b || b->kind != LF_PYBIND_DEF)
            return -1;
        int32_t s = def_scope(m, b->value);
        if (s < 0)
            return -1;
        if (m->scopes[s].kind == LF_PYSCOPE_CLASS) {
            *skip_self = 1;
            return method_scope(l, s, "__init__");
        }
        return s;
    }
    if (lf_tree_is(fn, "attribute")) {
        int32_t cls = self_class(m, lf_tree_unparen(lf_tree_field(fn, "object")));
        TSNode attr = lf_tree_field(fn, "attribute");
        if (cls < 0 || !lf_tree_is(attr, "identifier"))
            return -1;
        char *name = lf_tree_text(m->src, attr);
        int32_t s = method_scope(l, cls, name);
        free(name);
        if (s >= 0)
            *skip_self = 1;
        return s;
    }
    return -1;
}

/* ---- handles and what they were opened from ---- */

static const char *const k_open_calls[] = {"open", "io.open", "os.open", "codecs.open", "os.fdopen", NULL};

/* The path a file handle or descriptor was opened from, or null: `f` from
 * `with open(P) as f` / `f = open(P)`, `fd = os.open(P, ...)`, `f.fileno()`,
 * a field assigned from one of those. */
/* The `return` statements of the module's function `f` outside nested
 * definitions, in source order, each handed to `visit` until it answers 0.
 * Explicit stack. */
static void each_return(lf_pysem *m, int32_t f, int (*visit)(TSNode ret, void *ud), void *ud) {
    LF_VEC(TSNode) st = {0};
    LF_VEC_PUSH(&st, lf_tree_field(m->scopes[f].node, "body"));
    while (st.len) {
        TSNode n = st.items[--st.len];
        if (ts_node_is_null(n) || lf_pysem_is_function_node(n))
            continue;
        if (lf_tree_is(n, "return_statement")) {
            if (!visit(n, ud))
                break;
            continue;
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&st, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&st);
}

static int first_return(TSNode ret, void *ud) {
    TSNode v = ts_node_named_child(ret, 0);
    /* `return None` (a guard's early way out) names nothing: the next return may */
    if (lf_tree_is(lf_tree_unparen(v), "none"))
        return 1;
    *(TSNode *)ud = v;
    return 0;
}

/* What the module's function `f` returns: its first `return X` outside nested
 * definitions that is not `return None`, or null. */
static TSNode returned_value(lf_pysem *m, int32_t f) {
    TSNode found = {0};
    each_return(m, f, first_return, &found);
    return found;
}

typedef struct name_return {
    const lf_source *src;
    TSNode found;
    int other;
} name_return;

static int same_name_return(TSNode ret, void *ud) {
    name_return *r = ud;
    TSNode v = lf_tree_unparen(ts_node_named_child(ret, 0));
    if (ts_node_is_null(v) || lf_tree_is(v, "none") || lf_tree_is(v, "true") || lf_tree_is(v, "false"))
        return 1;
    if (!lf_tree_is(v, "identifier") || (!ts_node_is_null(r->found) && !lf_tree_same_text(r->src, v, r->found)))
        r->other = 1;
    else if (ts_node_is_null(r->found))
        r->found = v;
    return !r->other;
}

/* The name the module's function `f` returns as its result: every `return X`
 * outside nested definitions whose X is not None or a bool literal returns the
 * same identifier (`return None` when taking the lock failed, `return
 * lock_path` when it succeeded): that identifier, else null. */
static TSNode returned_name(lf_pysem *m, int32_t f) {
    name_return r = {.src = m->src, .other = 0};
    each_return(m, f, same_name_return, &r);
    return r.other ? (TSNode){0} : r.found;
}

TSNode lf_pylock_key_path(const lf_pylock *l, const lf_pkey *k) {
    if (k->kind == LF_PKEY_EXPR)
        return k->node;
    if (k->kind == LF_PKEY_CALL && k->scope >= 0)
        return returned_value(l->m, k->scope);
    return (TSNode){0};
}

/* Is the function a @staticmethod (called as `self.f(x)`, it has no self)? */
static int is_staticmethod(lf_pysem *m, int32_t f) {
    TSNode dd = ts_node_parent(m->scopes[f].node);
    for (uint32_t i = 0; !ts_node_is_null(dd) && lf_tree_is(dd, "decorated_definition") && i < ts_node_named_child_count(dd);
         i++) {
        TSNode d = ts_node_named_child(dd, i);
        if (lf_tree_is(d, "decorator")) {
            /* the builtin: by its qualified name, or by its bare name when the
             * model does not resolve it */
            TSNode e = ts_node_named_child(d, 0);
            const char *q = lf_pysem_qualname(m, e);
            if (q ? !strcmp(q, "staticmethod") : lf_tree_text_eq(m->src, e, "staticmethod"))
                return 1;
        }
    }
    return 0;
}

size_t lf_pylock_param_args(lf_pylock *l, const lf_pybinding *param, TSNode *out, size_t max) {
    lf_pysem *m = l->m;
    if (param->kind != LF_PYBIND_PARAM || param->scope <= 0 || m->scopes[param->scope].kind != LF_PYSCOPE_FUNCTION)
        return 0;
    TSNode params = lf_tree_field(m->scopes[param->scope].node, "parameters");
    int32_t idx = -1, k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(params) && idx < 0; i++) {
        TSNode p = ts_node_named_child(params, i);
        if (lf_tree_is(p, "comment"))
            continue;
        if (lf_tree_within(param->target, p))
            idx = k;
        k++;
    }
    if (idx < 0)
        return 0;
    struct lf_pylock_internal *in = l->in;
    if (!in->staticmethod)
        in->staticmethod = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, 1);
    if (!in->staticmethod[param->scope])
        in->staticmethod[param->scope] = (unsigned char)(1 + is_staticmethod(m, param->scope));
    int stat = in->staticmethod[param->scope] == 2;
    size_t n = 0;
    size_t first = in->calls_at ? (size_t)in->calls_at[param->scope] : 0;
    size_t end = in->calls_at ? (size_t)in->calls_at[param->scope + 1] : m->n_calls;
    for (size_t j = first; j < end && n < max; j++) {
        size_t i = in->calls_at ? (size_t)in->calls_by[j] : j;
        int skip = 0;
        if (lf_pylock_local_callee(l, m->calls[i].node, &skip) != param->scope)
            continue;
        if (stat)
            skip = 0;
        if (idx < skip)
            continue;
        TSNode a = lf_pylock_arg(m, m->calls[i].node, (uint32_t)(idx - skip), param->name);
        if (!ts_node_is_null(a))
            out[n++] = a;
    }
    return n;
}

/* The argument the module's first call of a parameter's function passes for
 * it (`self._get_lock(fh)` for `def _get_lock(self, fh)`), or null. */
static TSNode first_call_argument(lf_pylock *l, const lf_pybinding *param) {
    TSNode a = {0};
    return lf_pylock_param_args(l, param, &a, 1) ? a : (TSNode){0};
}

static TSNode handle_trace(lf_pylock *l, TSNode h, TSNode *opened);

/* The last name of an imported callee (`acquire_lock` of
 * `utils.locking.acquire_lock`, or of `locking.acquire_lock(...)`), or NULL
 * when the callee is not reached through an import. */
static const char *imported_last_name(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    TSNode root = fn;
    while (lf_tree_is(root, "attribute"))
        root = lf_tree_unparen(lf_tree_field(root, "object"));
    if (!lf_tree_is(root, "identifier"))
        return NULL;
    const char *name = lf_pysem_intern_node(m, root);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, root), name, ts_node_start_byte(root));
    if (!b || b->kind != LF_PYBIND_IMPORT)
        return NULL;
    TSNode last = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : fn;
    return lf_pysem_intern_node(m, last);
}

/* `_?<verb>[_...]`: the name starts with the verb as a word. */
static int name_starts(const char *name, const char *verb) {
    while (*name == '_')
        name++;
    size_t n = strlen(verb);
    return !strncmp(name, verb, n) && (name[n] == 0 || name[n] == '_');
}

/* A lock taken through another module's helper on a handle this function
 * opened, and given back through its pair on the same handle in this function:
 * `fh = open(LOCK, "w"); acquire_lock(fh) ... finally: release_lock(fh)`. The
 * helper is not visible here; the acquire/release pair on one opened file is
 * what a lock does. */
static int imported_handle_lock(lf_pylock *l, TSNode call, int32_t scope) {
    lf_pysem *m = l->m;
    /* Cheap first: the callee's last name, spelled in the source. */
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    TSNode last = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : fn;
    if (!lf_tree_is(last, "identifier"))
        return 0;
    const char *t = m->src->text + ts_node_start_byte(last);
    while (*t == '_')
        t++;
    if (strncmp(t, "acquire", 7) && strncmp(t, "lock", 4))
        return 0;
    const char *name = imported_last_name(m, call);
    if (!name || !(name_starts(name, "acquire") || name_starts(name, "lock")) || strstr(name, "path") ||
        strstr(name, "name") || strstr(name, "dir"))
        return 0;
    TSNode h = lf_tree_unparen(lf_pylock_arg(m, call, 0, NULL));
    if (!lf_tree_is(h, "identifier"))
        return 0;
    TSNode opened;
    if (ts_node_is_null(handle_trace(l, h, &opened)) || ts_node_is_null(opened))
        return 0;
    for (size_t i = 0; i < m->n_calls; i++) {
        if (m->calls[i].scope != scope || ts_node_start_byte(m->calls[i].node) <= ts_node_start_byte(call))
            continue;
        const char *rn = imported_last_name(m, m->calls[i].node);
        if (!rn || !(name_starts(rn, "release") || name_starts(rn, "unlock")))
            continue;
        TSNode rh = lf_tree_unparen(lf_pylock_arg(m, m->calls[i].node, 0, NULL));
        if (lf_tree_is(rh, "identifier") && lf_tree_equal(m->src, rh, m->src, h, 0))
            return 1;
    }
    return 0;
}

static TSNode handle_path(lf_pylock *l, TSNode h) {
    TSNode opened;
    return handle_trace(l, h, &opened);
}

/* handle_path, and *opened: the open call the path was read off (null when
 * there is none). */
static TSNode handle_trace(lf_pylock *l, TSNode h, TSNode *opened) {
    lf_pysem *m = l->m;
    *opened = (TSNode){0};
    int param_hops = 0;
    TSNode e = lf_tree_unparen(h);
    for (size_t hops = 0; hops <= m->n_bindings + 1 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call")) {
            if (method_is(m, e, "fileno") || method_is(m, e, "__enter__")) {
                e = receiver(e);
                continue;
            }
            const char *q = lf_pysem_callee(m, e);
            if (q && lf_str_in_list(q, k_open_calls)) {
                if (!strcmp(q, "os.fdopen")) {
                    e = lf_pylock_arg(m, e, 0, "fd");
                    continue;
                }
                *opened = e;
                return lf_pylock_arg(m, e, 0, "file");
            }
            if ((q && !strcmp(q, "pathlib.Path.open")) || pathlike_method(m, e, "open") || pathlike_open_mode(m, e)) {
                *opened = e;
                return receiver(e);
            }
            /* A handle one of the module's functions opens and returns. */
            int skip = 0;
            int32_t f = lf_pylock_local_callee(l, e, &skip);
            if (f > 0 && m->scopes[f].kind == LF_PYSCOPE_FUNCTION) {
                e = returned_value(m, f);
                continue;
            }
            /* A lock helper of another module that opens the file it locks and
             * hands over the handle (`with file_lock(PATH) as f: f.read()`,
             * portalocker's `with Lock(path) as fh`): named a lock, given the
             * path first. */
            TSNode callee = lf_tree_unparen(lf_tree_field(e, "function"));
            TSNode last = lf_tree_is(callee, "attribute") ? lf_tree_field(callee, "attribute") : callee;
            TSNode first = lf_pylock_arg(m, e, 0, NULL);
            if (lf_tree_is(last, "identifier") && !ts_node_is_null(first) &&
                lf_text_spells_lock(m->src->text + ts_node_start_byte(last),
                                    ts_node_end_byte(last) - ts_node_start_byte(last))) {
                *opened = e;
                return first;
            }
            return (TSNode){0};
        }
        if (lf_tree_is(e, "identifier")) {
            char *name = lf_tree_text(m->src, e);
            const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
            free(name);
            /* A handle the caller opened and passed: a few calls deep at most, so
             * the cost stays bounded (each step scans the module's calls). */
            if (b && b->kind == LF_PYBIND_PARAM && ++param_hops <= 4) {
                e = first_call_argument(l, b);
                continue;
            }
            if (!b || ts_node_is_null(b->value) || ts_node_eq(lf_tree_unparen(b->value), e) ||
                (b->kind != LF_PYBIND_ASSIGN && b->kind != LF_PYBIND_WITH && b->kind != LF_PYBIND_WALRUS))
                return (TSNode){0};
            e = b->value;
            continue;
        }
        if (lf_tree_is(e, "attribute")) {
            int32_t cls = self_class(m, lf_tree_unparen(lf_tree_field(e, "object")));
            TSNode attr = lf_tree_field(e, "attribute");
            if (cls < 0 || !lf_tree_is(attr, "identifier"))
                return (TSNode){0};
            const char *name = lf_pysem_intern_node(m, attr);
            cls = field_owner(l, cls, name);
            /* The first assignment of the field from an open call. */
            for (size_t i = 0; i < l->in->fields.len; i++) {
                const field_value *fv = &l->in->fields.items[i];
                if (fv->cls == cls && fv->name == name && !lf_tree_is(lf_tree_unparen(fv->value), "none") &&
                    !lf_tree_is(lf_tree_unparen(fv->value), "attribute")) {
                    e = fv->value;
                    goto next;
                }
            }
            return (TSNode){0};
        }
        return (TSNode){0};
    next:;
    }
    return (TSNode){0};
}

TSNode lf_pylock_handle_path(lf_pylock *l, TSNode handle) { return handle_path(l, handle); }

TSNode lf_pylock_handle_open(lf_pylock *l, TSNode handle) {
    TSNode opened;
    handle_trace(l, handle, &opened);
    return opened;
}

/* ---- what a call does ---- */

int lf_pylock_is_terminate(lf_pysem *m, TSNode call) {
    static const char *const kill[] = {"os.kill", "os.killpg", NULL};
    if (!lf_pylock_callee_any(m, call, kill))
        return 0;
    TSNode sig = lf_tree_unparen(lf_pylock_arg(m, call, 1, "signal"));
    return !ts_node_is_null(sig) && !(lf_tree_is(sig, "integer") && lf_tree_text_eq(m->src, sig, "0"));
}

static int mentions_qualname(lf_pysem *m, TSNode expr, const char *q);

/* Is the open call one for appending (`open(p, "a")`, `p.open("ab")`,
 * `os.open(p, ... | os.O_APPEND)`)? */
static int opened_to_append(lf_pysem *m, TSNode open) {
    static const char *const opens[] = {"open", "io.open", "codecs.open", NULL}, *const os_open[] = {"os.open", NULL};
    if (lf_pylock_callee_any(m, open, os_open)) {
        TSNode fl = lf_pylock_arg(m, open, 1, "flags");
        return !ts_node_is_null(fl) && mentions_qualname(m, fl, "os.O_APPEND");
    }
    TSNode mode = lf_pylock_callee_any(m, open, opens) ? lf_pylock_arg(m, open, 1, "mode")
                                                       : lf_pylock_arg(m, open, 0, "mode");
    return !ts_node_is_null(mode) && lf_pylock_open_mode(m->src, lf_pysem_resolve_value(m, mode), 'a', 1);
}

/* A write of records through a handle opened to append (`os.write(fd, line)`,
 * `f.write(line)`): the path appended to, or null. */
static TSNode appended_path(lf_pylock *l, TSNode call) {
    static const char *const os_write[] = {"os.write", NULL}, *const writes[] = {"write", "writelines", NULL};
    lf_pysem *m = l->m;
    TSNode h = lf_pylock_callee_any(m, call, os_write)   ? lf_pylock_arg(m, call, 0, "fd")
               : method_index(m, method_attr(call), writes) >= 0 ? receiver(call)
                                                             : (TSNode){0};
    if (ts_node_is_null(h))
        return h;
    TSNode open = lf_pylock_handle_open(l, h);
    return !ts_node_is_null(open) && opened_to_append(m, open) ? lf_pylock_handle_path(l, h) : (TSNode){0};
}

/* Does the expression combine os.O_EXCL (through local names)? */
static int mentions_qualname(lf_pysem *m, TSNode expr, const char *q) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, expr);
    int found = 0;
    size_t budget = m->n_bindings + 8; /* names followed: each binding's value at most about once */
    while (stack.len && !found) {
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (lf_tree_is(n, "binary_operator")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "left"));
            LF_VEC_PUSH(&stack, lf_tree_field(n, "right"));
            continue;
        }
        const char *nq = lf_pysem_qualname(m, n);
        if (nq && !strcmp(nq, q)) {
            found = 1;
            break;
        }
        if (lf_tree_is(n, "identifier") && budget) {
            budget--;
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n))
                LF_VEC_PUSH(&stack, v);
        }
    }
    LF_VEC_FREE(&stack);
    return found;
}

static int string_has(lf_pysem *m, TSNode s, char c) {
    s = lf_tree_unparen(s);
    if (!lf_tree_is(s, "string"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
        TSNode part = ts_node_named_child(s, i);
        if (lf_tree_is(part, "string_content") &&
            memchr(m->src->text + ts_node_start_byte(part), c, ts_node_end_byte(part) - ts_node_start_byte(part)))
            return 1;
    }
    return 0;
}

int lf_pylock_callee_spelled(const lf_source *src, TSNode call, const char *name) {
    TSNode fn = lf_tree_field(call, "function");
    if (lf_tree_is(fn, "attribute"))
        fn = lf_tree_field(fn, "attribute");
    return lf_tree_is(fn, "identifier") && lf_tree_text_eq(src, fn, name);
}

int lf_pylock_open_mode(const lf_source *src, TSNode s, char c, int first) {
    if (!lf_tree_is(s, "string"))
        return 0;
    TSNode content = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
        TSNode part = ts_node_named_child(s, i);
        if (lf_tree_is(part, "string_start") || lf_tree_is(part, "string_end"))
            continue;
        if (!lf_tree_is(part, "string_content") || !ts_node_is_null(content) || ts_node_named_child_count(part))
            return 0; /* an interpolation, an escape, a second part */
        content = part;
    }
    if (ts_node_is_null(content))
        return 0;
    return lf_pygate_mode_text(src->text + ts_node_start_byte(content),
                               ts_node_end_byte(content) - ts_node_start_byte(content), c, first);
}

static int kw_true(lf_pysem *m, TSNode call, const char *kw) {
    TSNode v = lf_pylock_arg(m, call, 99, kw);
    return lf_tree_is(lf_tree_unparen(v), "true");
}

int lf_pylock_plain_args(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    if (!lf_tree_is(args, "argument_list"))
        return 0; /* a generator expression as the only argument */
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "list_splat") || lf_tree_is(a, "dictionary_splat"))
            return 0;
    }
    return 1;
}

int lf_pylock_lockrt_call(lf_pysem *m, TSNode call, const char *member) {
    /* the spelling's own name: the model's callee names a create or judgement
     * drop-in by the call it replaces (lf_pysem.c, lockrt_stand_in) */
    const lf_pycall *rec = lf_pysem_call(m, call);
    const char *named = lf_pysem_lockrt_member(rec && rec->callee_final ? rec->spelled
                                                                        : lf_pysem_qualname(m, lf_tree_field(call, "function")));
    return named && !strcmp(named, member);
}

int lf_pylock_bound_removal(const lf_pycall *c) {
    static const char *const removals[] = {"unlink_judged", "unlink_owned", "unlink_if_free", NULL};
    return lf_str_in_list(lf_pysem_lockrt_member(c->callee), removals);
}

TSNode lf_pylock_exclusive_create(lf_pylock *l, TSNode call, int *link) {
    lf_pysem *m = l->m;
    *link = 0;
    /* The drop-ins LF301's fix swaps in create exactly as the calls they replace. */
    if (lf_pylock_lockrt_call(m, call, "open_exclusive")) {
        TSNode flags = lf_pylock_arg(m, call, 1, "flags");
        return !ts_node_is_null(flags) && mentions_qualname(m, flags, "os.O_EXCL") ? lf_pylock_arg(m, call, 0, "path")
                                                                                   : (TSNode){0};
    }
    if (lf_pylock_lockrt_call(m, call, "open_exclusive_file")) {
        TSNode mode = lf_pylock_arg(m, call, 1, "mode");
        return lf_pylock_open_mode(m->src, lf_tree_unparen(mode), 'x', 0) ? lf_pylock_arg(m, call, 0, "file")
                                                                          : (TSNode){0};
    }
    static const char *const mkdirs[] = {"os.mkdir", NULL};
    static const char *const links[] = {"os.link", NULL};
    static const char *const symlinks[] = {"os.symlink", NULL};
    static const char *const opens[] = {"open", "io.open", NULL};
    static const char *const os_open[] = {"os.open", NULL};
    if (lf_pylock_callee_any(m, call, os_open)) {
        TSNode flags = lf_pylock_arg(m, call, 1, "flags");
        if (!ts_node_is_null(flags) && mentions_qualname(m, flags, "os.O_EXCL"))
            return lf_pylock_arg(m, call, 0, "path");
        return (TSNode){0};
    }
    if (lf_pylock_callee_any(m, call, opens) && lf_pylock_callee_spelled(m->src, call, "open")) {
        TSNode mode = lf_pylock_arg(m, call, 1, "mode");
        return lf_pylock_open_mode(m->src, lf_tree_unparen(mode), 'x', 0) ? lf_pylock_arg(m, call, 0, "file") : (TSNode){0};
    }
    if (lf_pylock_callee_any(m, call, mkdirs))
        return lf_pylock_arg(m, call, 0, "path");
    /* os.makedirs(p) with no exist_ok (or exist_ok=False) fails when p exists,
     * as os.mkdir does */
    static const char *const makedirs[] = {"os.makedirs", NULL};
    if (lf_pylock_callee_any(m, call, makedirs) && lf_pylock_plain_args(call) && n_positional(call) <= 2) {
        TSNode ok = lf_tree_unparen(lf_pylock_arg(m, call, 99, "exist_ok"));
        return ts_node_is_null(ok) || lf_tree_is(ok, "false") ? lf_pylock_arg(m, call, 0, "name") : (TSNode){0};
    }
    if (lf_pylock_callee_any(m, call, links))
        return lf_pylock_arg(m, call, 1, "dst");
    *link = lf_pylock_callee_any(m, call, symlinks);
    if (*link)
        return lf_pylock_arg(m, call, 1, "dst");
    const char *q = lf_pysem_callee(m, call);
    if (((q && !strcmp(q, "pathlib.Path.mkdir")) || (method_is(m, call, "mkdir") && !q)) &&
        !kw_true(m, call, "exist_ok") && n_positional(call) <= 1)
        return receiver(call);
    *link = q && !strcmp(q, "pathlib.Path.symlink_to");
    if (*link || (q && !strcmp(q, "pathlib.Path.hardlink_to")))
        return receiver(call);
    return (TSNode){0};
}

typedef struct lock_class {
    const char *qualname;
    unsigned kind;
} lock_class;

/* Lock classes and functions that take a path (first argument). */
static const lock_class k_lock_classes[] = {
    {"filelock.FileLock", LF_LOCK_FLOCK},
    {"filelock.UnixFileLock", LF_LOCK_FLOCK},
    {"filelock.WindowsFileLock", LF_LOCK_MSVCRT},
    {"filelock.SoftFileLock", LF_LOCK_EXCL},
    {"portalocker.Lock", LF_LOCK_FLOCK},
    {"portalocker.RLock", LF_LOCK_FLOCK},
    {"portalocker.utils.Lock", LF_LOCK_FLOCK},
    {"fasteners.InterProcessLock", LF_LOCK_FLOCK},
    {"fasteners.InterProcessReaderWriterLock", LF_LOCK_FLOCK},
    {"fasteners.process_lock.InterProcessLock", LF_LOCK_FLOCK},
    {"zc.lockfile.LockFile", LF_LOCK_FLOCK},
    {"lockfile.LockFile", LF_LOCK_EXCL},
    {"lockfile.FileLock", LF_LOCK_EXCL},
    {"lockfile.LinkLockFile", LF_LOCK_EXCL},
    {"lockfile.MkdirLockFile", LF_LOCK_EXCL},
    {"lockfile.linklockfile.LinkLockFile", LF_LOCK_EXCL},
    {"lockfile.mkdirlockfile.MkdirLockFile", LF_LOCK_EXCL},
    {"lockfile.symlinklockfile.SymlinkLockFile", LF_LOCK_EXCL},
    {"lockfile.pidlockfile.PIDLockFile", LF_LOCK_EXCL | LF_LOCK_PID},
    {"daemon.pidfile.PIDLockFile", LF_LOCK_EXCL | LF_LOCK_PID},
    {"daemon.pidfile.TimeoutPIDLockFile", LF_LOCK_EXCL | LF_LOCK_PID},
    {NULL, 0},
};

/* The lock kind of a lock library's class; also of a copy of the library
 * vendored into a package (`from ..extern.lockfile import LockFile`: the
 * qualname ends with the library's, at a dot). */
static unsigned lock_class_kind(const char *q) {
    size_t n = q ? strlen(q) : 0;
    for (size_t i = 0; q && k_lock_classes[i].qualname; i++) {
        size_t w = strlen(k_lock_classes[i].qualname);
        if (!strcmp(q, k_lock_classes[i].qualname) ||
            (n > w && q[n - w - 1] == '.' && !strcmp(q + n - w, k_lock_classes[i].qualname)))
            return k_lock_classes[i].kind;
    }
    return 0;
}

/* The path a lock library's object was made for (`lock = LockFile(path)`:
 * `lock` gives `path`), or null. The `lockfile` library's objects also name
 * it as `lock.path` and `lock.lock_file` (its `.lock` sibling, the same lock
 * to the model), and remove it by name with `lock.break_lock()`. */
static const char *const k_break_lock[] = {"break_lock", NULL};

static TSNode lock_object_path(lf_pysem *m, TSNode obj) {
    obj = lf_tree_unparen(obj);
    if (!lf_tree_is(obj, "identifier"))
        return (TSNode){0};
    TSNode v = lf_tree_unparen(lf_pysem_resolve_value(m, obj));
    if (ts_node_is_null(v) || !lf_tree_is(v, "call") || !lock_class_kind(lf_pysem_callee(m, v)))
        return (TSNode){0};
    return lf_pylock_arg(m, v, 0, NULL);
}

/* fcntl.flock / lockf / fcntl(F_SETLK*), msvcrt.locking, portalocker.lock:
 * the lock kind, *handle = what it locks, *unlock = 1 for a release. */
static unsigned lock_call(lf_pysem *m, TSNode call, TSNode *handle, int *unlock) {
    static const char *const flocks[] = {"fcntl.flock", "fcntl.lockf", NULL};
    static const char *const fcntls[] = {"fcntl.fcntl", NULL};
    static const char *const msv[] = {"msvcrt.locking", NULL};
    static const char *const porta[] = {"portalocker.lock", "portalocker.portalocker.lock", NULL};
    *unlock = 0;
    if (lf_pylock_callee_any(m, call, flocks)) {
        TSNode op = lf_pylock_arg(m, call, 1, "operation");
        if (ts_node_is_null(op))
            op = lf_pylock_arg(m, call, 1, "cmd");
        *unlock = !ts_node_is_null(op) && mentions_qualname(m, op, "fcntl.LOCK_UN");
        *handle = lf_pylock_arg(m, call, 0, "fd");
        return LF_LOCK_FLOCK;
    }
    if (lf_pylock_callee_any(m, call, fcntls)) {
        TSNode op = lf_pylock_arg(m, call, 1, "cmd");
        if (ts_node_is_null(op) ||
            !(mentions_qualname(m, op, "fcntl.F_SETLK") || mentions_qualname(m, op, "fcntl.F_SETLKW") ||
              mentions_qualname(m, op, "fcntl.F_OFD_SETLK") || mentions_qualname(m, op, "fcntl.F_OFD_SETLKW")))
            return 0;
        *handle = lf_pylock_arg(m, call, 0, "fd");
        return LF_LOCK_FLOCK;
    }
    if (lf_pylock_callee_any(m, call, msv)) {
        TSNode op = lf_pylock_arg(m, call, 1, "mode");
        *unlock = !ts_node_is_null(op) && mentions_qualname(m, op, "msvcrt.LK_UNLCK");
        *handle = lf_pylock_arg(m, call, 0, "fd");
        return LF_LOCK_MSVCRT;
    }
    if (lf_pylock_callee_any(m, call, porta)) {
        *handle = lf_pylock_arg(m, call, 0, "file_");
        return LF_LOCK_FLOCK;
    }
    return 0;
}

/* Is an OS lock call (lock_call's) an exclusive one? flock/lockf/portalocker
 * with a shared operation (`fcntl.LOCK_SH`, no LOCK_EX) is a reader's lock;
 * anything else (LOCK_EX, msvcrt.locking, fcntl's F_SETLK whose lock type
 * is in a struct) counts as exclusive. */
static int exclusive_lock_call(lf_pysem *m, TSNode call) {
    static const char *const flocks[] = {"fcntl.flock", "fcntl.lockf", NULL};
    static const char *const porta[] = {"portalocker.lock", "portalocker.portalocker.lock", NULL};
    TSNode op = {0};
    if (lf_pylock_callee_any(m, call, flocks)) {
        op = lf_pylock_arg(m, call, 1, "operation");
        if (ts_node_is_null(op))
            op = lf_pylock_arg(m, call, 1, "cmd");
    } else if (lf_pylock_callee_any(m, call, porta)) {
        op = lf_pylock_arg(m, call, 1, "flags");
    }
    if (ts_node_is_null(op))
        return 1;
    int sh = mentions_qualname(m, op, "fcntl.LOCK_SH") || mentions_qualname(m, op, "portalocker.LOCK_SH") ||
             mentions_qualname(m, op, "portalocker.LockFlags.SHARED");
    int ex = mentions_qualname(m, op, "fcntl.LOCK_EX") || mentions_qualname(m, op, "portalocker.LOCK_EX") ||
             mentions_qualname(m, op, "portalocker.LockFlags.EXCLUSIVE");
    return ex || !sh;
}

size_t lf_pylock_field_values(lf_pylock *l, TSNode expr, TSNode *out, size_t max) {
    size_t writes = 0, n = 0;
    int32_t cls = lf_pylock_self_field(l, expr, &writes);
    if (cls < 0)
        return 0;
    const char *name = lf_pysem_intern_node(l->m, lf_tree_field(lf_tree_unparen(expr), "attribute"));
    for (size_t i = 0; i < l->in->fields.len && n < max; i++)
        if (l->in->fields.items[i].cls == cls && l->in->fields.items[i].name == name)
            out[n++] = l->in->fields.items[i].value;
    return n;
}

int32_t lf_pylock_self_field(lf_pylock *l, TSNode expr, size_t *writes) {
    lf_pysem *m = l->m;
    *writes = 0;
    expr = lf_tree_unparen(expr);
    if (!lf_tree_is(expr, "attribute"))
        return -1;
    int32_t cls = self_class(m, lf_tree_unparen(lf_tree_field(expr, "object")));
    TSNode attr = lf_tree_field(expr, "attribute");
    if (cls < 0 || !lf_tree_is(attr, "identifier"))
        return -1;
    const char *name = lf_pysem_intern_node(m, attr);
    cls = field_owner(l, cls, name);
    for (size_t i = 0; i < l->in->fields.len; i++)
        *writes += l->in->fields.items[i].cls == cls && l->in->fields.items[i].name == name;
    return cls;
}

unsigned lf_pylock_lock_call(lf_pysem *m, TSNode call, TSNode *handle, int *unlock) {
    *handle = (TSNode){0};
    return lock_call(m, call, handle, unlock);
}

int lf_pylock_mentions(lf_pysem *m, TSNode expr, const char *qualname) {
    return !ts_node_is_null(expr) && mentions_qualname(m, expr, qualname);
}

/* Does the expression hold a call of one of `names` (this process's pid:
 * `os.getpid()`, `str(os.getpid())`, a name bound to one, a format of one)? A parameter holds what the module's
 * calls pass for it (`_write(pid=os.getpid())` for `def _write(self, pid)`
 * writing f"{pid}"): a pid file written through a helper is still one. At
 * most a few parameters are followed (each asks every call of the module), so
 * the cost stays bounded per write. */
static int holds_call(lf_pylock *l, TSNode expr, const char *const *names) {
    lf_pysem *m = l->m;
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, expr);
    int found = 0, param_hops = 0;
    size_t budget = 64 + m->n_bindings;
    while (stack.len && !found && budget) {
        budget--;
        TSNode n = stack.items[--stack.len];
        if (lf_tree_is(n, "call") && lf_pylock_callee_any(m, n, names)) {
            found = 1;
            break;
        }
        if (lf_tree_is(n, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n)) {
                LF_VEC_PUSH(&stack, v);
                continue;
            }
            const lf_pybinding *b =
                param_hops < 4 ? lf_pysem_binding_at(m, lf_pysem_scope_of(m, n),
                                                     lf_pysem_intern(m, m->src->text + ts_node_start_byte(n),
                                                                     ts_node_end_byte(n) - ts_node_start_byte(n)),
                                                     ts_node_start_byte(n))
                               : NULL;
            if (b && b->kind == LF_PYBIND_PARAM) {
                TSNode args[4];
                param_hops++;
                size_t na = lf_pylock_param_args(l, b, args, 4);
                for (size_t i = 0; i < na; i++)
                    LF_VEC_PUSH(&stack, args[i]);
            }
            continue;
        }
        if (lf_tree_is(n, "lambda") || lf_tree_is(n, "function_definition"))
            continue;
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    return found;
}

/* Does the expression hold the pid of a child this process spawned
 * (`str(proc.pid)` with `proc = subprocess.Popen(...)`)? A daemon's starter
 * writes its child's pid where the next start looks for a live owner. */
static int holds_child_pid(lf_pylock *l, TSNode expr) {
    static const char *const spawns[] = {"subprocess.Popen", NULL};
    lf_pysem *m = l->m;
    TSNode stack[32];
    size_t n = 0;
    stack[n++] = expr;
    for (size_t budget = 64; n && budget; budget--) {
        TSNode x = stack[--n];
        if (lf_tree_is(x, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(x, "attribute"), "pid"))
            return holds_call(l, lf_tree_field(x, "object"), spawns);
        if (lf_tree_is(x, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, x);
            if (!ts_node_eq(v, x) && n < 32)
                stack[n++] = v;
            continue;
        }
        if (lf_tree_is(x, "lambda") || lf_tree_is(x, "function_definition") ||
            (lf_tree_is(x, "call") && !lf_tree_is(lf_tree_field(x, "function"), "identifier")))
            continue; /* `proc.communicate()`: no pid written; `str(proc.pid)` is followed */
        for (uint32_t i = ts_node_named_child_count(x); i-- > 0 && n < 32;)
            stack[n++] = ts_node_named_child(x, i);
    }
    return 0;
}

int lf_pylock_child_pid(lf_pylock *l, TSNode expr) { return holds_child_pid(l, expr); }

/* Is the expression (a name or a field of self) a lock of this process
 * only: every value it is given a threading or asyncio lock? It excludes
 * the process's other threads, not other processes. */
int lf_pylock_in_process_lock(lf_pylock *l, TSNode expr) {
    static const char *const locals[] = {"threading.Lock",      "threading.RLock",     "threading.Semaphore",
                                         "threading.BoundedSemaphore", "threading.Condition", "asyncio.Lock",
                                         "asyncio.Semaphore",   "asyncio.Condition",   NULL};
    lf_pysem *m = l->m;
    TSNode e = lf_tree_unparen(expr), vals[4];
    size_t n = 0;
    if (lf_tree_is(e, "identifier")) {
        TSNode v = lf_pysem_resolve_value(m, e);
        if (!ts_node_eq(v, e))
            vals[n++] = v;
    } else if (lf_tree_is(e, "attribute")) {
        n = lf_pylock_field_values(l, e, vals, 4);
    }
    for (size_t i = 0; i < n; i++) {
        TSNode v = lf_tree_unparen(vals[i]);
        if (!lf_tree_is(v, "call") || !lf_pylock_callee_any(m, v, locals))
            return 0;
    }
    return n > 0;
}

static int holds_pid(lf_pylock *l, TSNode expr) {
    static const char *const getpid[] = {"os.getpid", NULL};
    return holds_call(l, expr, getpid) || holds_child_pid(l, expr);
}

/* Does the expression hold a reading of the clock (`time.time()`,
 * `datetime.now().isoformat()`, a name or parameter bound to one)? */
static int holds_clock(lf_pylock *l, TSNode expr) {
    static const char *const clocks[] = {"time.time", "time.time_ns", "datetime.datetime.now",
                                         "datetime.datetime.utcnow", "datetime.datetime.today", NULL};
    return holds_call(l, expr, clocks);
}

/* A write of data into a path: *path, *data. */
static int write_call(lf_pylock *l, TSNode call, TSNode *path, TSNode *data) {
    lf_pysem *m = l->m;
    static const char *const os_write[] = {"os.write", NULL};
    static const char *const dumps[] = {"json.dump", "pickle.dump", NULL};
    if (lf_pylock_callee_any(m, call, os_write)) {
        *path = handle_path(l, lf_pylock_arg(m, call, 0, "fd"));
        *data = lf_pylock_arg(m, call, 1, "data");
        return !ts_node_is_null(*path) && !ts_node_is_null(*data);
    }
    if (lf_pylock_callee_any(m, call, dumps)) {
        *path = handle_path(l, lf_pylock_arg(m, call, 1, "fp"));
        *data = lf_pylock_arg(m, call, 0, "obj");
        return !ts_node_is_null(*path) && !ts_node_is_null(*data);
    }
    /* print(sys.argv[0], os.getpid(), file=f): the record is every argument */
    static const char *const print[] = {"print", NULL};
    if (lf_pylock_callee_any(m, call, print)) {
        TSNode file = lf_pylock_arg(m, call, UINT32_MAX, "file");
        if (ts_node_is_null(file))
            return 0;
        *path = handle_path(l, file);
        *data = lf_tree_field(call, "arguments");
        return !ts_node_is_null(*path) && !ts_node_is_null(*data);
    }
    static const char *const writes[] = {"write_text", "write_bytes", "write", "writelines", NULL};
    int w = method_index(m, method_attr(call), writes);
    if (w == 0 || w == 1) {
        *path = receiver(call);
        *data = lf_pylock_arg(m, call, 0, "data");
        return !ts_node_is_null(*data);
    }
    if (w == 2 || w == 3) {
        *path = handle_path(l, receiver(call));
        *data = lf_pylock_arg(m, call, 0, NULL);
        return !ts_node_is_null(*path) && !ts_node_is_null(*data);
    }
    return 0;
}

/* A judgement of a path: existence, stat, mtime (1), reading its contents
 * (2) or its link target (3: readlink). *target. */
/* Is the existence test `call` (of `path`) only the guard of removing that
 * same path: `if [cond and] p.exists(): p.unlink()`, nothing else in the if? */
static int removal_guard(lf_pylock *l, TSNode call, TSNode path) {
    lf_pysem *m = l->m;
    TSNode fn = lf_tree_field(call, "function");
    TSNode name = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : fn;
    if (!lf_tree_text_eq(m->src, name, "exists") && !lf_tree_text_eq(m->src, name, "isfile") &&
        !lf_tree_text_eq(m->src, name, "is_file") && !lf_tree_text_eq(m->src, name, "lexists"))
        return 0;
    /* Up through `and` to the if's condition. */
    TSNode n = call, up = ts_node_parent(call);
    while (lf_tree_is(up, "boolean_operator") || lf_tree_is(up, "parenthesized_expression")) {
        if (lf_tree_is(up, "boolean_operator") && !lf_tree_text_eq(m->src, lf_tree_field(up, "operator"), "and"))
            return 0;
        n = up;
        up = ts_node_parent(up);
    }
    if (!lf_tree_is(up, "if_statement") || !ts_node_eq(lf_tree_field(up, "condition"), n) ||
        !ts_node_is_null(lf_tree_field(up, "alternative")))
        return 0;
    TSNode body = lf_tree_field(up, "consequence");
    int removals = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
        TSNode st = ts_node_named_child(body, i);
        if (lf_tree_is(st, "comment"))
            continue;
        TSNode e = lf_tree_is(st, "expression_statement") ? lf_tree_unparen(lf_tree_child(st, 0)) : (TSNode){0};
        TSNode t;
        if (!lf_tree_is(e, "call") || !lf_pylock_removal_call(m, e, &t))
            return 0;
        lf_pkey a = lf_pylock_key_of(l, t), b = lf_pylock_key_of(l, path);
        if (!lf_pylock_key_eq(m, &a, &b))
            return 0;
        removals++;
    }
    return removals > 0;
}

static int judge_call(lf_pylock *l, TSNode call, TSNode *target) {
    lf_pysem *m = l->m;
    static const char *const by_arg[] = {"os.path.exists", "os.path.lexists", "os.path.isfile", "os.path.isdir",
                                         "os.path.islink", "os.path.getmtime", "os.path.getctime", "os.path.getsize",
                                         "os.stat", "os.lstat", "os.readlink", NULL};
    static const char *const opens[] = {"open", "io.open", "codecs.open", NULL};
    static const char *const path_methods[] = {"exists", "is_file", "is_dir", "is_symlink", "stat", "lstat",
                                               "read_text", "read_bytes", "readlink", NULL};
    static const char *const readlink[] = {"os.readlink", NULL};
    if (lf_pylock_callee_any(m, call, by_arg)) {
        *target = lf_pylock_arg(m, call, 0, "path");
        if (ts_node_is_null(*target))
            return 0;
        return lf_pylock_callee_any(m, call, readlink) ? 3 : 1;
    }
    if (lf_pylock_callee_any(m, call, opens)) {
        TSNode mode = lf_pylock_arg(m, call, 1, "mode");
        if (!ts_node_is_null(mode) && !string_has(m, mode, '+') &&
            (string_has(m, mode, 'w') || string_has(m, mode, 'x') || string_has(m, mode, 'a') ||
             !lf_tree_is(lf_tree_unparen(mode), "string")))
            return 0;
        *target = lf_pylock_arg(m, call, 0, "file");
        return ts_node_is_null(*target) ? 0 : 2;
    }
    /* lockrt's stand-ins for `p.read_text()` / `p.read_bytes()` (LF301's
     * fix): the same read of the path they are handed */
    if (lf_pylock_lockrt_call(m, call, "read_text_judged") || lf_pylock_lockrt_call(m, call, "read_bytes_judged")) {
        *target = lf_pylock_arg(m, call, 0, "path");
        return ts_node_is_null(*target) ? 0 : 2;
    }
    /* `p.open()` / `p.open("r")` of a path: a read of its record */
    if (method_is(m, call, "open") && (pathlike_method(m, call, "open") || pathlike_open_mode(m, call))) {
        TSNode mode = lf_pylock_arg(m, call, 0, "mode");
        if (!ts_node_is_null(mode) && !string_has(m, mode, '+') &&
            (string_has(m, mode, 'w') || string_has(m, mode, 'x') || string_has(m, mode, 'a')))
            return 0;
        *target = receiver(call);
        return ts_node_is_null(*target) ? 0 : 2;
    }
    /* a lock library's `lock.is_locked()`: whether its lock exists */
    static const char *const is_locked[] = {"is_locked", NULL};
    if (method_index(m, method_attr(call), is_locked) >= 0 &&
        !ts_node_is_null(*target = lock_object_path(m, receiver(call))))
        return 1;
    /* the method name read once, not once per candidate */
    int i = method_index(m, method_attr(call), path_methods);
    if (i >= 0 && pathlike_method(m, call, path_methods[i])) {
        *target = receiver(call);
        if (ts_node_is_null(*target))
            return 0;
        return i == 8 ? 3 : i >= 6 ? 2 : 1; /* read_text, read_bytes read the contents; readlink the target */
    }
    return 0;
}

TSNode lf_pylock_content_read(lf_pylock *l, TSNode call) {
    lf_pysem *m = l->m;
    static const char *const loads[] = {"json.load", "pickle.load", "tomllib.load", "yaml.safe_load", "yaml.load",
                                        NULL};
    static const char *const reads[] = {"read", "readline", "readlines", NULL};
    TSNode t = {0};
    if (!lf_tree_is(call, "call"))
        return t;
    if (judge_call(l, call, &t) == 2)
        return t;
    if (lf_pylock_callee_any(m, call, loads))
        return handle_path(l, lf_pylock_arg(m, call, 0, NULL));
    if (method_index(m, method_attr(call), reads) >= 0)
        return handle_path(l, receiver(call));
    return (TSNode){0};
}

/* A parameter of function scope f named by identifier `id`: its position
 * among the arguments a caller passes (after `skip` leading ones: self), or -1. */
static int param_position(const lf_pysem *m, int32_t f, TSNode id, int skip) {
    TSNode params = lf_tree_field(m->scopes[f].node, "parameters");
    int pos = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
        TSNode q = ts_node_named_child(params, i);
        TSNode nm = q;
        if (lf_tree_is(q, "default_parameter") || lf_tree_is(q, "typed_default_parameter"))
            nm = lf_tree_field(q, "name");
        else if (lf_tree_is(q, "typed_parameter"))
            nm = ts_node_named_child(q, 0);
        else if (!lf_tree_is(q, "identifier"))
            return -1; /* *args, keyword-only and the rest: not followed */
        if (lf_tree_equal(m->src, nm, m->src, id, 0))
            return pos - skip;
        pos++;
    }
    return -1;
}

TSNode lf_pylock_argument_for(lf_pylock *l, TSNode call, TSNode path) {
    lf_pysem *m = l->m;
    TSNode none = {0};
    path = lf_tree_unparen(path);
    if (!lf_tree_is(call, "call") || !lf_tree_is(path, "identifier"))
        return none;
    int skip = 0;
    int32_t f = lf_pylock_local_callee(l, call, &skip);
    if (f <= 0 || m->scopes[f].kind != LF_PYSCOPE_FUNCTION)
        return none;
    /* the name is the parameter itself, never rebound in f */
    lf_pkey k = lf_pylock_key_of(l, path);
    if (k.kind != LF_PKEY_BIND || !k.binding || k.binding->kind != LF_PYBIND_PARAM || k.binding->scope != f)
        return none;
    int pos = param_position(m, f, k.binding->target, skip);
    return pos >= 0 ? lf_pylock_arg(m, call, (uint32_t)pos, k.binding->name) : none;
}

TSNode lf_pylock_returned_record(lf_pylock *l, TSNode call) {
    lf_pysem *m = l->m;
    TSNode none = {0};
    if (!lf_tree_is(call, "call"))
        return none;
    int skip = 0;
    int32_t f = lf_pylock_local_callee(l, call, &skip);
    if (f <= 0 || m->scopes[f].kind != LF_PYSCOPE_FUNCTION || m->scopes[f].stmt < 0)
        return none;
    uint32_t stop = ts_node_end_byte(m->scopes[f].node);
    for (size_t i = (size_t)m->scopes[f].stmt + 1; i < m->n_stmts && ts_node_start_byte(m->stmts[i].node) < stop; i++) {
        if (m->stmts[i].scope != f || !lf_tree_is(m->stmts[i].node, "return_statement"))
            continue;
        /* `return json.loads(p.read_text())`, `return f.read()`: a read in
         * the returned expression (a bounded pre-order scan), names followed
         * to their values (`raw = path.read_text(); data = json.loads(raw);
         * ... return data`) */
        TSNode stack[32];
        size_t n = 0, seen = 0;
        stack[n++] = m->stmts[i].node;
        while (n && seen++ < 64) {
            TSNode x = stack[--n];
            if (lf_tree_is(x, "identifier")) {
                TSNode v = lf_pysem_resolve_value(m, x);
                if (!ts_node_eq(v, x) && n < 32)
                    stack[n++] = v;
                continue;
            }
            TSNode path = lf_pylock_content_read(l, x);
            if (!ts_node_is_null(path)) {
                path = lf_tree_unparen(path);
                if (!lf_tree_is(path, "identifier"))
                    break;
                int pos = param_position(m, f, path, skip);
                char *name = lf_tree_text(m->src, path);
                TSNode arg = pos >= 0 ? lf_pylock_arg(m, call, pos, name) : none;
                free(name);
                if (!ts_node_is_null(arg))
                    return arg;
                break;
            }
            for (uint32_t k = ts_node_named_child_count(x); k-- > 0 && n < 32;)
                stack[n++] = ts_node_named_child(x, k);
        }
    }
    return none;
}

/* Does the expression hold a string literal naming /proc (`"/proc"`,
 * f"/proc/{pid}", os.path.join("/proc", pid))? A bounded scan of its nodes. */
static int mentions_proc(lf_pysem *m, TSNode e) {
    TSNode stack[64];
    size_t n = 0;
    if (!ts_node_is_null(e))
        stack[n++] = e;
    for (size_t seen = 0; n && seen < 256; seen++) {
        TSNode x = stack[--n];
        if (lf_tree_is(x, "string_content")) {
            uint32_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
            if (b - a >= 5 && !memcmp(m->src->text + a, "/proc", 5))
                return 1;
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(x) && n < 64; i++)
            stack[n++] = ts_node_named_child(x, i);
    }
    return 0;
}

/* Does a command (a string, a format of one, a list of words) start by
 * running pgrep or pidof? The first string literal part found in a bounded
 * pre-order scan is the command's start. */
static int runs_pid_lookup(lf_pysem *m, TSNode e) {
    TSNode stack[32];
    size_t n = 0;
    if (!ts_node_is_null(e))
        stack[n++] = e;
    for (size_t seen = 0; n && seen < 64; seen++) {
        TSNode x = stack[--n];
        if (lf_tree_is(x, "string_content")) {
            const char *a = m->src->text + ts_node_start_byte(x);
            size_t len = ts_node_end_byte(x) - ts_node_start_byte(x);
            while (len && (*a == ' ' || *a == '\t'))
                a++, len--;
            return (len >= 5 && (!memcmp(a, "pgrep", 5) || !memcmp(a, "pidof", 5)) &&
                    (len == 5 || a[5] == ' ' || a[5] == '\t'));
        }
        for (uint32_t i = ts_node_named_child_count(x); i-- > 0 && n < 32;)
            stack[n++] = ts_node_named_child(x, i);
    }
    return 0;
}

/* A liveness probe of a pid: os.kill(pid, 0), psutil.pid_exists(pid),
 * psutil.Process(pid), psutil's process table, an existence test of its /proc entry, or a command
 * that looks processes up (`pgrep name`, `pidof name` through subprocess or
 * os.popen: a recorded pid absent from its output is judged dead). */
static int is_probe(lf_pysem *m, TSNode call) {
    static const char *const shells[] = {"subprocess.run",         "subprocess.call",       "subprocess.check_call",
                                         "subprocess.check_output", "subprocess.getoutput", "subprocess.getstatusoutput",
                                         "subprocess.Popen",        "os.popen",              NULL};
    if (lf_pylock_callee_any(m, call, shells))
        return runs_pid_lookup(m, lf_pylock_arg(m, call, 0, NULL));
    static const char *const kill[] = {"os.kill", NULL};
    /* the process table listed (`pid in psutil.pids()`, `pid in {p.pid for
     * p in psutil.process_iter()}`): a recorded pid absent from it is dead */
    static const char *const psutil[] = {"psutil.pid_exists", "psutil.Process", "psutil.pids", "psutil.process_iter",
                                         NULL};
    static const char *const exists[] = {"os.path.exists", "os.path.isdir", "os.path.lexists", NULL};
    if (lf_pylock_callee_any(m, call, kill)) {
        TSNode sig = lf_tree_unparen(lf_pylock_arg(m, call, 1, "signal"));
        return lf_tree_is(sig, "integer") && lf_tree_text_eq(m->src, sig, "0");
    }
    if (lf_pylock_callee_any(m, call, psutil))
        return 1;
    if (lf_pylock_callee_any(m, call, exists))
        return mentions_proc(m, lf_pylock_arg(m, call, 0, "path"));
    if (method_is(m, call, "exists") && n_positional(call) == 0)
        return mentions_proc(m, receiver(call));
    return 0;
}

static const char *const k_package_locks[] = {
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "uv.lock", "Cargo.lock", "poetry.lock", "Gemfile.lock",
    "composer.lock", "Pipfile.lock", "flake.lock", "bun.lock", "bun.lockb", "mix.lock", "pubspec.lock",
    "packages.lock.json", "Podfile.lock", "npm-shrinkwrap.json", "pdm.lock", "conda-lock.yml", "go.sum",
    "Package.resolved", "deno.lock", "gradle.lockfile", "pylock.toml", NULL};

static int is_package_lock_literal(lf_pysem *m, TSNode s) {
    s = lf_tree_unparen(s);
    if (!lf_tree_is(s, "string"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
        TSNode part = ts_node_named_child(s, i);
        if (!lf_tree_is(part, "string_content"))
            continue;
        const char *a = m->src->text + ts_node_start_byte(part);
        size_t n = ts_node_end_byte(part) - ts_node_start_byte(part);
        for (size_t k = 0; k < n; k++)
            if (a[k] == '/' || a[k] == '\\') {
                a += k + 1;
                n -= k + 1;
                k = (size_t)-1;
            }
        for (size_t k = 0; k_package_locks[k]; k++)
            if (strlen(k_package_locks[k]) == n && !memcmp(a, k_package_locks[k], n))
                return 1;
    }
    return 0;
}

/* Does the path expression name a package-manager lock file: a literal, a name
 * bound to one, a loop variable over literals that all are? */
static int names_package_lock(lf_pysem *m, TSNode expr) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, expr);
    int found = 0;
    size_t budget = 64 + m->n_bindings;
    while (stack.len && !found && budget) {
        budget--;
        TSNode n = lf_tree_unparen(stack.items[--stack.len]);
        if (is_package_lock_literal(m, n)) {
            found = 1;
            break;
        }
        if (lf_tree_is(n, "identifier")) {
            char *name = lf_tree_text(m->src, n);
            const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, n), name, ts_node_start_byte(n));
            free(name);
            if (b && b->kind == LF_PYBIND_FOR) {
                /* `for name in ("package-lock.json", "yarn.lock"):`, or the same
                 * `for` clause of a comprehension. The iterable is the binding's
                 * value: its statement may be -1 (no statement holds it when the
                 * file's root is an ERROR node) or an unrelated one (a module-level
                 * comprehension's expression statement). */
                TSNode it = lf_tree_unparen(b->value);
                uint32_t k = lf_tree_child_count(it), all = k > 0;
                for (uint32_t i = 0; i < k && all; i++)
                    all = is_package_lock_literal(m, lf_tree_child(it, i));
                if ((lf_tree_is(it, "tuple") || lf_tree_is(it, "list") || lf_tree_is(it, "set")) && all)
                    found = 1;
            } else if (b && (b->kind == LF_PYBIND_ASSIGN || b->kind == LF_PYBIND_WALRUS) &&
                       !ts_node_is_null(b->value) && !ts_node_eq(b->value, n)) {
                LF_VEC_PUSH(&stack, b->value);
            }
            continue;
        }
        if (lf_tree_is(n, "call") || lf_tree_is(n, "binary_operator") || lf_tree_is(n, "argument_list")) {
            for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
                LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
        }
    }
    LF_VEC_FREE(&stack);
    return found;
}

/* Does the except clause catch what a failed exclusive create raises
 * (FileExistsError or a base of it; a bare except)? */
static int clause_catches_exists(lf_pysem *m, TSNode c) {
    static const char *const catches[] = {"FileExistsError", "OSError", "IOError", "EnvironmentError", "os.error",
                                          "Exception", "BaseException", NULL};
    TSNode v = lf_tree_field(c, "value");
    if (ts_node_is_null(v)) {
        TSNode first = lf_tree_child(c, 0);
        if (ts_node_is_null(first) || lf_tree_is(first, "block"))
            return 1;
        v = first;
    }
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    v = lf_tree_unparen(v);
    if (lf_tree_is(v, "tuple")) {
        for (uint32_t j = 0; j < lf_tree_child_count(v); j++)
            if (lf_str_in_list(lf_pysem_qualname(m, lf_tree_child(v, j)), catches))
                return 1;
        return 0;
    }
    return lf_str_in_list(lf_pysem_qualname(m, v), catches);
}

/* Is the statement inside a try whose handlers catch what a failed exclusive
 * create raises (FileExistsError and its bases)? Then the code relies on the
 * create's exclusivity: a lock. An unguarded `os.mkdir(d)` just makes a
 * directory. */
typedef LF_VEC(const char *) name_vec;

static int create_failure_handled_by(lf_pysem *m, int32_t s, const name_vec *names, int strict);

/* The names a path expression is built from: its identifiers, and those of
 * the value a plain name holds (one hop: `path = self.path_for(candidate)`). */
static void path_names(lf_pysem *m, TSNode path, name_vec *out) {
    LF_VEC(TSNode) st = {0};
    LF_VEC_PUSH(&st, path);
    size_t budget = 256;
    while (st.len && budget--) {
        TSNode n = st.items[--st.len];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "identifier")) {
            LF_VEC_PUSH(out, lf_pysem_intern_node(m, n));
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n) && ts_node_start_byte(v) < ts_node_start_byte(n))
                LF_VEC_PUSH(&st, v);
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&st, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&st);
}

/* Does the handler's block give one of the path's names a new value
 * (`except FileExistsError: candidate = f"{slug}_{i}"`)? Then a failed
 * exclusive create moves on to another name: it claims a fresh name for a
 * new file (a document, a unique temp), it takes no lock and waits for no
 * holder. */
/* The block of an except clause (null when it has none). */
static TSNode clause_block(TSNode clause) {
    for (uint32_t j = 0; j < ts_node_named_child_count(clause); j++)
        if (lf_tree_is(ts_node_named_child(clause, j), "block"))
            return ts_node_named_child(clause, j);
    return (TSNode){0};
}

static int handler_renames(lf_pysem *m, TSNode clause, const name_vec *names) {
    TSNode b = clause_block(clause);
    for (int32_t k = ts_node_is_null(b) ? -1 : lf_pysem_first_in_block(m, b); k >= 0; k = lf_pysem_next_sibling(m, k)) {
        TSNode st = m->stmts[k].node;
        TSNode e = lf_tree_is(st, "expression_statement") ? ts_node_named_child(st, 0) : (TSNode){0};
        if (ts_node_is_null(e) || (!lf_tree_is(e, "assignment") && !lf_tree_is(e, "augmented_assignment")))
            continue;
        TSNode left = lf_tree_field(e, "left");
        if (!lf_tree_is(left, "identifier"))
            continue;
        const char *name = lf_pysem_intern_node(m, left);
        for (size_t i = 0; i < names->len; i++)
            if (names->items[i] == name)
                return 1;
    }
    return 0;
}

static int create_failure_handled(lf_pysem *m, int32_t s, TSNode created, int strict) {
    name_vec names = {0};
    path_names(m, created, &names);
    int handled = create_failure_handled_by(m, s, &names, strict);
    LF_VEC_FREE(&names);
    return handled;
}

/* Does the handler's block only pass or re-raise the errors it does not
 * expect (`except OSError as e: if e.errno != errno.EEXIST: raise`)? Then,
 * for EEXIST, it goes on as if the create had succeeded: "make it if
 * missing", os.makedirs's old idiom for exist_ok. */
static int handler_ensures(lf_pysem *m, TSNode clause) {
    TSNode b = clause_block(clause);
    for (int32_t k = ts_node_is_null(b) ? -1 : lf_pysem_first_in_block(m, b); k >= 0; k = lf_pysem_next_sibling(m, k)) {
        TSNode st = m->stmts[k].node;
        if (lf_tree_is(st, "pass_statement"))
            continue;
        TSNode body = lf_tree_is(st, "if_statement") ? lf_tree_field(st, "consequence") : (TSNode){0};
        if (ts_node_is_null(body) || !ts_node_is_null(lf_tree_field(st, "alternative")) ||
            ts_node_named_child_count(body) != 1 || !lf_tree_is(ts_node_named_child(body, 0), "raise_statement"))
            return 0;
    }
    return 1;
}

static int create_failure_handled_by(lf_pysem *m, int32_t s, const name_vec *names, int strict) {
    for (; s >= 0; s = m->stmts[s].parent) {
        int32_t p = m->stmts[s].parent;
        if (p < 0)
            return 0;
        if (m->stmts[s].clause != LF_PYCLAUSE_TRY_BODY || !lf_tree_is(m->stmts[p].node, "try_statement"))
            continue;
        TSNode tr = m->stmts[p].node;
        for (uint32_t i = 0; i < ts_node_named_child_count(tr); i++) {
            TSNode c = ts_node_named_child(tr, i);
            if (!lf_tree_is(c, "except_clause"))
                continue;
            /* `except OSError: pass` only makes the create idempotent ("make it if
             * missing"): no lock is taken or waited for. */
            int only_pass = 1;
            TSNode b = clause_block(c);
            for (int32_t k = ts_node_is_null(b) ? -1 : lf_pysem_first_in_block(m, b); k >= 0;
                 k = lf_pysem_next_sibling(m, k))
                if (!lf_tree_is(m->stmts[k].node, "pass_statement"))
                    only_pass = 0;
            if (only_pass || handler_renames(m, c, names) || (strict && handler_ensures(m, c)))
                continue;
            if (clause_catches_exists(m, c))
                return 1;
        }
    }
    return 0;
}

/* ---- the build ---- */

static lf_pylock_event *add_event(lf_pylock *l, lf_pylock_event_kind kind, int32_t scope, TSNode node, int32_t key,
                                  int helper) {
    lf_pylock_event e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.scope = scope;
    e.node = node;
    e.key = key;
    e.via_helper = helper;
    e.param = -1;
    LF_VEC_PUSH(&l->in->events, e);
    return &l->in->events.items[l->in->events.len - 1];
}

typedef struct walk_ctx {
    lf_pylock *l;
} walk_ctx;

/* The path whose age a node reads: `os.path.getmtime(p)`/`getctime(p)`, or
 * `.st_mtime`/`.st_ctime` of a stat of p (`os.stat(p)`, `p.lstat()`, a name
 * bound to one); null otherwise. */
static TSNode age_of(lf_pysem *m, TSNode n) {
    static const char *const getmtime[] = {"os.path.getmtime", "os.path.getctime", NULL};
    static const char *const stats[] = {"os.stat", "os.lstat", NULL};
    if (lf_tree_is(n, "call"))
        return lf_pylock_callee_any(m, n, getmtime) ? lf_pylock_arg(m, n, 0, "path") : (TSNode){0};
    TSNode attr = lf_tree_field(n, "attribute");
    if (!lf_tree_is(n, "attribute") ||
        !(lf_tree_text_eq(m->src, attr, "st_mtime") || lf_tree_text_eq(m->src, attr, "st_ctime")))
        return (TSNode){0};
    TSNode st = lf_tree_unparen(lf_pysem_resolve_value(m, lf_tree_field(n, "object")));
    if (!lf_tree_is(st, "call"))
        return (TSNode){0};
    if (lf_pylock_callee_any(m, st, stats))
        return lf_pylock_arg(m, st, 0, "path");
    TSNode fn = lf_tree_unparen(lf_tree_field(st, "function"));
    if (lf_tree_is(fn, "attribute") && n_positional(st) == 0 &&
        (lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "stat") ||
         lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "lstat")))
        return lf_tree_field(fn, "object"); /* p.stat() */
    return (TSNode){0};
}

/* Fields assigned in methods (`self.fd = os.open(...)`), and identity reads. */
static lf_walk_action visit_node(TSNode n, void *ud) {
    lf_pylock *l = ((walk_ctx *)ud)->l;
    lf_pysem *m = l->m;
    if (lf_tree_is(n, "assignment")) {
        TSNode left = lf_tree_unparen(lf_tree_field(n, "left"));
        TSNode right = lf_tree_field(n, "right");
        if (lf_tree_is(left, "attribute") && !ts_node_is_null(right)) {
            int32_t cls = self_class(m, lf_tree_unparen(lf_tree_field(left, "object")));
            TSNode attr = lf_tree_field(left, "attribute");
            if (cls >= 0 && lf_tree_is(attr, "identifier")) {
                field_value fv = {cls, lf_pysem_intern_node(m, attr), right};
                LF_VEC_PUSH(&l->in->fields, fv);
            }
        }
    } else if (lf_tree_is(n, "attribute")) {
        TSNode attr = lf_tree_field(n, "attribute");
        if (lf_tree_text_eq(m->src, attr, "st_ino") || lf_tree_text_eq(m->src, attr, "st_dev"))
            add_event(l, LF_PYEV_IDENTITY, lf_pysem_scope_of(m, n), n, -1, 0);
    }
    TSNode aged = age_of(m, n);
    if (!ts_node_is_null(aged))
        key_mark(l, key_add_expr(l, aged), LF_LOCK_AGED, n);
    return LF_WALK_CONTINUE;
}

/* Per function: where it first reads the clock (position + 1; 0: never).
 * One pass over the calls, on the model's resolved callees. */
static uint32_t *first_clock_reads(lf_pysem *m) {
    static const char *const clocks[] = {"time.time", "time.time_ns", "time.monotonic", "datetime.datetime.now",
                                         "datetime.datetime.utcnow", "datetime.datetime.today", NULL};
    uint32_t *at = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *at);
    for (size_t i = 0; i < m->n_calls; i++) /* calls are in source order: the first one stays */
        if (m->calls[i].scope >= 0 && !at[m->calls[i].scope] && lf_str_in_list(m->calls[i].callee, clocks))
            at[m->calls[i].scope] = ts_node_start_byte(m->calls[i].node) + 1;
    return at;
}

static int made_cmp(const void *a, const void *b) {
    const made_at *x = a, *y = b;
    if (x->scope != y->scope)
        return x->scope < y->scope ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* made_cmp, then source order: the first of a (function, key) run is its earliest */
static int made_pos_cmp(const void *a, const void *b) {
    int c = made_cmp(a, b);
    if (c)
        return c;
    uint32_t x = ts_node_start_byte(((const made_at *)a)->node), y = ts_node_start_byte(((const made_at *)b)->node);
    return x < y ? -1 : x > y;
}

/* The first entry of the (function, key) run of `want` in items, sorted by
 * made_cmp (by made_pos_cmp, the run's earliest), or NULL when there is none. */
static const made_at *made_run(const made_at *items, size_t len, const made_at *want) {
    const made_at *j = len ? bsearch(want, items, len, sizeof *want, made_cmp) : NULL; /* bsearch(NULL, 0) is UB */
    while (j && j > items && !made_cmp(j - 1, want))
        j--;
    return j;
}

/* Where the function last wrote or created the key itself before byte `at`
 * (position + 1; 0 when it did not): `made` sorted by made_cmp. A judgement
 * before that is superseded: the function took the lock since (`_read_pid()`
 * judged it, then `PID_FILE.write_text(str(proc.pid))`), and removing it is
 * undoing its own claim. */
static uint32_t own_take_before(const lf_pylock *l, int32_t scope, int32_t key, uint32_t at) {
    if (!l->in->made.len)
        return 0; /* no run, and items + 0 on a null vector is undefined */
    made_at want;
    memset(&want, 0, sizeof want);
    want.scope = scope;
    want.key = key;
    const made_at *end = l->in->made.items + l->in->made.len;
    uint32_t best = 0;
    for (const made_at *w = made_run(l->in->made.items, l->in->made.len, &want); w && w < end && !made_cmp(w, &want);
         w++) {
        uint32_t pos = ts_node_start_byte(w->node) + 1;
        if (pos < at && pos > best)
            best = pos;
    }
    return best;
}

static int event_cmp(const void *a, const void *b) {
    const lf_pylock_event *x = a, *y = b;
    uint32_t sx = ts_node_start_byte(x->node), sy = ts_node_start_byte(y->node);
    if (sx != sy)
        return sx < sy ? -1 : 1;
    /* At one call (a helper that reads then removes its argument), the judgement first. */
    int kx = x->kind == LF_PYEV_JUDGE ? -1 : (int)x->kind, ky = y->kind == LF_PYEV_JUDGE ? -1 : (int)y->kind;
    return kx - ky;
}

static void add_edges_for_call(lf_pylock *l, TSNode call, int32_t caller, int32_t f, int skip,
                               const int32_t *param_start, const lf_pybinding *const *all_params) {
    lf_pysem *m = l->m;
    if (f < 0)
        return;
    int32_t first = param_start[f], last = param_start[f + 1];
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        const lf_pybinding *p = NULL;
        TSNode value = a;
        if (lf_tree_is(a, "comment"))
            continue;
        if (lf_tree_is(a, "list_splat") || lf_tree_is(a, "dictionary_splat"))
            break;
        if (lf_tree_is(a, "keyword_argument")) {
            TSNode kw = lf_tree_field(a, "name");
            value = lf_tree_field(a, "value");
            for (int32_t j = first; j < last; j++)
                if (lf_tree_text_eq(m->src, kw, all_params[j]->name))
                    p = all_params[j];
        } else {
            int32_t j = first + (int32_t)(k++) + skip;
            if (j < last)
                p = all_params[j];
        }
        if (!p || ts_node_is_null(value))
            continue;
        edge e;
        e.arg = key_add_expr(l, value);
        lf_pkey pk;
        memset(&pk, 0, sizeof pk);
        pk.kind = LF_PKEY_BIND;
        pk.binding = p;
        pk.hash = key_hash(m, &pk);
        e.param = key_add(l, &pk);
        e.call = call;
        e.arg_node = value;
        e.caller = caller;
        e.callee = f;
        if (e.arg < 0 || e.param < 0)
            continue;
        LF_VEC_PUSH(&l->in->edges, e);
        int32_t idx = (int32_t)(l->in->edges.len - 1);
        LF_VEC_PUSH(&l->in->key_edges.items[e.arg], idx);
        LF_VEC_PUSH(&l->in->key_edges.items[e.param], idx);
    }
}

/* Settle the flags along the call edges. */
static void propagate(lf_pylock *l) {
    struct lf_pylock_internal *in = l->in;
    i32_vec work = {0};
    for (size_t i = 0; i < in->keys.len; i++)
        LF_VEC_PUSH(&work, (int32_t)i);
    while (work.len) {
        int32_t k = work.items[--work.len];
        for (size_t j = 0; j < in->key_edges.items[k].len; j++) {
            const edge *e = &in->edges.items[in->key_edges.items[k].items[j]];
            unsigned pf = in->keys.items[e->param].flags, af = in->keys.items[e->arg].flags;
            unsigned up = pf & (LF_LOCK_USES | LF_LOCK_OS_EXCLUSIVE | LF_LOCK_REMOVED | LF_LOCK_JUDGED |
                                LF_LOCK_JUDGED_GATE | LF_LOCK_JUDGED_CONTENT | LF_LOCK_READLINK | LF_LOCK_AGED | LF_LOCK_WRITTEN);
            if ((up & LF_LOCK_WRITTEN) && ts_node_is_null(in->keys.items[e->arg].written))
                in->keys.items[e->arg].written = e->call;
            /* A helper that only symlinks its parameter (an installer's) is
             * no lock helper: the argument carries the symlink alone, and is
             * a lock when judged as one. */
            if (pf & LF_LOCK_USES & ~LF_LOCK_SYMLINK)
                up |= LF_LOCK_HELPER;
            if (up && key_mark(l, e->arg, up, e->call))
                LF_VEC_PUSH(&work, e->arg);
            if (lf_pylock_is_lock(af) && key_mark(l, e->param, LF_LOCK_ARG, e->call))
                LF_VEC_PUSH(&work, e->param);
        }
    }
    LF_VEC_FREE(&work);
}

/* A helper's parameter that every caller hands an OS-locked file (`_release(fd,
 * lock_path)` after `_acquire(lock_path)` flocked it) and that the helper
 * removes: its removal is the flocked file's, judged in the helper (once,
 * with the callers covered) as the removal of an flocked file, not at each
 * call. */
static void flocked_params(lf_pylock *l) {
    struct lf_pylock_internal *in = l->in;
    const unsigned need = LF_LOCK_FLOCK | LF_LOCK_OS_EXCLUSIVE;
    for (size_t k = 0; k < in->keys.len; k++) {
        lf_pylock_key *pk = &in->keys.items[k];
        if (pk->key.kind != LF_PKEY_BIND || !pk->key.binding || pk->key.binding->kind != LF_PYBIND_PARAM ||
            !(pk->flags & LF_LOCK_REMOVED) || (pk->flags & need) == need || !in->key_edges.items[k].len)
            continue;
        int all = 1;
        TSNode why = {0};
        for (size_t j = 0; j < in->key_edges.items[k].len && all; j++) {
            const edge *e = &in->edges.items[in->key_edges.items[k].items[j]];
            if (e->param != (int32_t)k)
                continue;
            const lf_pylock_key *ak = &in->keys.items[e->arg];
            all = (ak->flags & need) == need && !(ak->flags & LF_LOCK_INODE_VERIFIED);
            if (ts_node_is_null(why))
                why = ak->evidence;
        }
        if (all && !ts_node_is_null(why))
            key_mark(l, (int32_t)k, need, why);
    }
}

/* Is a removal on its holder's release path: its function (or the module's
 * function it goes through) released an OS lock before it? An existence test
 * there guards an idempotent removal of the holder's own lock (mailbox's
 * `_unlock_file`: lockf LOCK_UN, then `if exists: remove`), not a judgement
 * that breaks someone else's. */
static int release_path(const lf_pylock *l, const uint32_t *unlock_at, const int32_t *callee_of,
                        const lf_pylock_event *ev, uint32_t at) {
    if (unlock_at[ev->scope] && unlock_at[ev->scope] <= at)
        return 1;
    if (!ev->via_helper)
        return 0;
    const lf_pycall *c = lf_pysem_call(l->m, ev->node);
    if (!c)
        return 0;
    int32_t f = callee_of[c - l->m->calls];
    return f >= 0 && unlock_at[f] != 0;
}

/* Does `in` read a record through `read`: contain that read call itself, or a
 * name a `with` bound to it (`with open(p) as f:` ... `int(f.readline())`)? */
typedef struct record_use {
    lf_pysem *m;
    TSNode read;
    int found;
} record_use;

static lf_walk_action visit_record_use(TSNode n, void *ud) {
    record_use *u = ud;
    if (u->found)
        return LF_WALK_STOP;
    if (ts_node_eq(n, u->read)) {
        u->found = 1;
        return LF_WALK_STOP;
    }
    if (lf_tree_is(n, "identifier")) {
        char *name = lf_tree_text(u->m->src, n);
        const lf_pybinding *b = lf_pysem_binding_at(u->m, lf_pysem_scope_of(u->m, n), name, ts_node_start_byte(n));
        free(name);
        u->found = b && b->kind == LF_PYBIND_WITH && !ts_node_is_null(b->value) &&
                   ts_node_eq(lf_tree_unparen(b->value), u->read);
    }
    return LF_WALK_CONTINUE;
}

int lf_pylock_reads_through(lf_pysem *m, TSNode in, TSNode read) {
    record_use u = {m, read, 0};
    lf_tree_walk(in, visit_record_use, &u);
    return u.found;
}

/* The names a value is made of, bound by a plain assignment to a value of
 * their own (`int(content)`: content's `p.read_text().strip()`). */
typedef struct assigned_names {
    lf_pysem *m;
    LF_VEC(TSNode) values;
} assigned_names;

static lf_walk_action visit_assigned_name(TSNode n, void *ud) {
    assigned_names *a = ud;
    if (!lf_tree_is(n, "identifier") || a->values.len >= 8)
        return LF_WALK_CONTINUE;
    char *name = lf_tree_text(a->m->src, n);
    const lf_pybinding *b = lf_pysem_binding_at(a->m, lf_pysem_scope_of(a->m, n), name, ts_node_start_byte(n));
    free(name);
    if (b && b->kind == LF_PYBIND_ASSIGN && !ts_node_is_null(b->value) && !ts_node_eq(b->value, n))
        LF_VEC_PUSH(&a->values, b->value);
    return LF_WALK_CONTINUE;
}

/* Is `value` made from the read, itself or through the names it is made of
 * (`content = p.read_text().strip()` ... `pid = int(content)`), a few
 * assignments deep? */
static int made_from_read(lf_pysem *m, TSNode value, TSNode read) {
    assigned_names a = {m, {0}};
    LF_VEC_PUSH(&a.values, value);
    int found = 0;
    for (size_t i = 0; i < a.values.len && i < 8 && !found; i++) {
        found = lf_pylock_reads_through(m, a.values.items[i], read);
        if (!found)
            lf_tree_walk(a.values.items[i], visit_assigned_name, &a);
    }
    LF_VEC_FREE(&a.values);
    return found;
}

/* The argument of a call of the module's liveness helper that its own probe
 * tests: `_is_alive(pid)` with `os.kill(pid, 0)` inside hands `pid`. Null
 * when the helper probes something else (a child it started, a pid it reads
 * itself): the call's arguments are then no pid. */
static TSNode helper_probed_arg(lf_pylock *l, TSNode call, int32_t callee) {
    lf_pysem *m = l->m;
    for (size_t i = 0; i < l->in->events.len; i++) {
        const lf_pylock_event *e = &l->in->events.items[i];
        if (e->kind != LF_PYEV_PROBE || e->scope != callee || e->via_helper || !lf_tree_is(e->node, "call"))
            continue;
        TSNode pid = lf_tree_unparen(lf_pylock_arg(m, e->node, 0, NULL));
        if (lf_tree_is(pid, "call") && ts_node_named_child_count(lf_tree_field(pid, "arguments")) == 1) /* int(pid) */
            pid = lf_tree_unparen(lf_pylock_arg(m, pid, 0, NULL));
        TSNode arg = lf_pylock_argument_for(l, call, pid);
        if (!ts_node_is_null(arg))
            return arg;
    }
    return (TSNode){0};
}

/* The read of key's record in function scope whose pid the probe tests: its
 * pid a name bound to a value made from that read (`pid =
 * read_pid_file(p)`, `pid = int(f.read())` with `f` opened from p, `pid =
 * int(content)` with `content = p.read_text()`), not the pid of a child it
 * started; null when none. A probe through the module's liveness helper
 * tests the argument the helper's own probe tests. */
static TSNode probed_record(lf_pylock *l, TSNode probe, int32_t scope, int32_t key, uint32_t after) {
    lf_pysem *m = l->m;
    if (ts_node_is_null(probe) || !lf_tree_is(probe, "call"))
        return (TSNode){0};
    int skip = 0;
    int32_t callee = lf_pylock_local_callee(l, probe, &skip);
    TSNode pid = lf_tree_unparen(callee >= 0 ? helper_probed_arg(l, probe, callee) : lf_pylock_arg(m, probe, 0, NULL));
    TSNode value = lf_tree_is(pid, "identifier") ? lf_tree_unparen(lf_pysem_resolve_value(m, pid)) : pid;
    if (ts_node_is_null(value) || ts_node_eq(value, pid))
        return (TSNode){0};
    for (size_t i = 0; i < l->in->events.len; i++) {
        const lf_pylock_event *r = &l->in->events.items[i];
        uint32_t at = ts_node_start_byte(r->node) + 1;
        if (r->kind != LF_PYEV_JUDGE || !r->content || r->scope != scope || r->key != key || at <= after ||
            at >= ts_node_start_byte(probe) + 1)
            continue;
        if (made_from_read(m, value, r->node))
            return r->node;
    }
    return (TSNode){0};
}

/* ---- a lock directory's files, met by a scan of the directory ---- */

/* Follows a path expression to what it is made of: names to their values,
 * the module's functions to what they return, Path()/str() to their
 * argument. Bounded. */
static TSNode follow_path(lf_pylock *l, TSNode e) {
    lf_pysem *m = l->m;
    for (int hops = 0; hops < 8 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, e);
            if (ts_node_eq(v, e))
                break;
            e = v;
            continue;
        }
        if (!lf_tree_is(e, "call"))
            break;
        TSNode a0 = lf_pylock_arg(m, e, 0, NULL);
        if (!ts_node_is_null(a0) && n_positional(e) == 1 && lf_pylock_callee_any(m, e, k_path_wrappers)) {
            e = a0;
            continue;
        }
        int skip = 0;
        int32_t f = lf_pylock_local_callee(l, e, &skip);
        if (f < 0 || m->scopes[f].kind != LF_PYSCOPE_FUNCTION)
            break;
        TSNode r = returned_value(m, f);
        if (ts_node_is_null(r))
            break;
        e = r;
    }
    return e;
}

/* `D / name` or `os.path.join(D, name)`: *dir and *name. */
static int split_dir(lf_pylock *l, TSNode e, TSNode *dir, TSNode *name) {
    lf_pysem *m = l->m;
    static const char *const joins[] = {"os.path.join", "posixpath.join", NULL};
    e = lf_tree_unparen(e);
    if (lf_tree_is(e, "binary_operator") && lf_tree_is(lf_tree_field(e, "operator"), "/")) {
        *dir = lf_tree_field(e, "left");
        *name = lf_tree_field(e, "right");
        return 1;
    }
    if (lf_tree_is(e, "call") && lf_pylock_callee_any(m, e, joins) && n_positional(e) == 2) {
        *dir = lf_pylock_arg(m, e, 0, NULL);
        *name = lf_pylock_arg(m, e, 1, NULL);
        return 1;
    }
    return 0;
}

/* The literal text a name starts (end = 0) or ends (end = 1) with: the
 * first/last literal part of a string or f-string, after following it. */
static void literal_end(lf_pylock *l, TSNode name, int end, const char **out, size_t *len) {
    *out = NULL;
    *len = 0;
    TSNode s = follow_path(l, name);
    if (!lf_tree_is(s, "string"))
        return;
    uint32_t n = ts_node_named_child_count(s);
    for (uint32_t k = 0; k < n; k++) {
        TSNode part = ts_node_named_child(s, end ? n - 1 - k : k);
        if (lf_tree_is(part, "string_start") || lf_tree_is(part, "string_end"))
            continue;
        if (lf_tree_is(part, "string_content")) {
            *out = l->m->src->text + ts_node_start_byte(part);
            *len = ts_node_end_byte(part) - ts_node_start_byte(part);
        }
        return; /* an interpolation: nothing literal at that end */
    }
}

/* Can a file called `name` match the glob `pat` (its literal prefix before
 * the first `*` and suffix after the last)? A name not known literally at an
 * end matches that end. */
static int name_may_match(lf_pylock *l, TSNode name, const char *pat, size_t plen) {
    const char *star = memchr(pat, '*', plen);
    if (!star)
        return 0; /* one fixed name: the lock's own path, not a scan */
    const char *last = star;
    for (const char *q = star; q < pat + plen; q++)
        if (*q == '*')
            last = q;
    size_t pre = (size_t)(star - pat), suf = (size_t)(pat + plen - last - 1);
    if (memchr(pat, '?', plen) || memchr(pat, '[', plen))
        return 0;
    const char *a;
    size_t n;
    literal_end(l, name, 0, &a, &n);
    if (pre && a && !(n >= pre && !memcmp(a, pat, pre)) && !(n < pre && !memcmp(a, pat, n)))
        return 0;
    literal_end(l, name, 1, &a, &n);
    if (suf && a && !(n >= suf && !memcmp(a + n - suf, last + 1, suf)))
        return 0;
    return 1; /* a bare `*` matches every file of the lock directory */
}

/* A scan of a directory: `for p in D.glob(pat)` (rglob, sorted()/list()
 * around it), `glob.glob(os.path.join(D, pat))`. *dir, *pat. */
static int directory_scan(lf_pylock *l, TSNode it, TSNode *dir, TSNode *pat) {
    lf_pysem *m = l->m;
    static const char *const wraps[] = {"sorted", "list", "tuple", NULL};
    static const char *const globs[] = {"glob.glob", "glob.iglob", NULL};
    it = lf_tree_unparen(lf_pysem_resolve_value(m, it));
    for (int hops = 0; hops < 3 && lf_tree_is(it, "call") && lf_pylock_callee_any(m, it, wraps); hops++)
        it = lf_tree_unparen(lf_pylock_arg(m, it, 0, NULL));
    if (!lf_tree_is(it, "call"))
        return 0;
    if (lf_pylock_callee_any(m, it, globs))
        return split_dir(l, follow_path(l, lf_pylock_arg(m, it, 0, "pathname")), dir, pat);
    if (method_is(m, it, "glob") || method_is(m, it, "rglob")) {
        *dir = receiver(it);
        *pat = lf_pylock_arg(m, it, 0, "pattern");
        return !ts_node_is_null(*dir) && !ts_node_is_null(*pat);
    }
    return 0;
}

/* The path expressions a lock key is given (at most max): an expression
 * key's own, a field's assigned values, a function's returned value. */
static size_t key_paths(lf_pylock *l, const lf_pkey *k, TSNode *out, size_t max) {
    size_t n = 0;
    if (k->kind == LF_PKEY_EXPR)
        out[n++] = k->node;
    else if (k->kind == LF_PKEY_CALL && k->scope >= 0)
        out[n++] = returned_value(l->m, k->scope);
    else if (k->kind == LF_PKEY_FIELD)
        for (size_t i = 0; i < l->in->fields.len && n < max; i++) {
            const field_value *fv = &l->in->fields.items[i];
            if (fv->name == k->name && (fv->cls == k->scope || field_owner(l, fv->cls, fv->name) == k->scope))
                out[n++] = fv->value;
        }
    return n;
}

/* A loop over a directory's files whose pattern matches the names of a lock
 * the module keeps in that directory (`for f in lock_dir.glob("app_*.lock")`
 * beside `lock_dir / f"app_{digest}.lock"` that it flocks) walks those
 * locks: the loop variable is that lock, with its uses, so judging or
 * removing it in a cleanup is judging or removing the lock. */
static void mark_directory_scans(lf_pylock *l) {
    lf_pysem *m = l->m;
    l->in->scans.len = 0; /* asked again after claims are found: the pairs are found again */
    size_t n_keys = l->in->keys.len;
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        TSNode dir, pat;
        if (b->kind != LF_PYBIND_FOR || ts_node_is_null(b->value) || !lf_tree_is(b->target, "identifier") ||
            !directory_scan(l, b->value, &dir, &pat))
            continue;
        pat = lf_tree_unparen(lf_pysem_resolve_value(m, pat));
        if (!lf_tree_is(pat, "string") || ts_node_named_child_count(pat) != 3 ||
            !lf_tree_is(ts_node_named_child(pat, 1), "string_content"))
            continue;
        TSNode pc = ts_node_named_child(pat, 1);
        const char *ptext = m->src->text + ts_node_start_byte(pc);
        size_t plen = ts_node_end_byte(pc) - ts_node_start_byte(pc);
        lf_pkey dk = lf_pylock_key_of(l, dir);
        for (size_t j = 0; j < n_keys; j++) {
            const lf_pylock_key *lk = &l->in->keys.items[j];
            unsigned uses = lk->flags & LF_LOCK_USES;
            if (!uses || !lf_pylock_is_lock(lk->flags))
                continue;
            uses |= lk->flags & (LF_LOCK_OS_EXCLUSIVE | LF_LOCK_APPENDED);
            TSNode paths[4];
            size_t np = key_paths(l, &lk->key, paths, 4);
            for (size_t q = 0; q < np; q++) {
                TSNode ldir, lname;
                if (ts_node_is_null(paths[q]) || !split_dir(l, follow_path(l, paths[q]), &ldir, &lname))
                    continue;
                lf_pkey lk2 = lf_pylock_key_of(l, ldir);
                if (!key_eq(m, &lk2, &dk) || !name_may_match(l, lname, ptext, plen))
                    continue;
                TSNode why = lk->evidence; /* the lock's own use, for messages */
                lf_pkey vk;
                memset(&vk, 0, sizeof vk);
                vk.kind = LF_PKEY_BIND;
                vk.binding = b;
                vk.hash = key_hash(m, &vk);
                int32_t sk = key_add(l, &vk);
                key_mark(l, sk, uses, ts_node_is_null(why) ? b->value : why);
                scan_pair sp = {sk, (int32_t)j};
                LF_VEC_PUSH(&l->in->scans, sp);
                break;
            }
        }
    }
}

/* Per-process names. The pids a module handles are the values it probes
 * (`os.kill(x, ...)`, `psutil.pid_exists(x)`, `psutil.Process(x)`) and its
 * own (`os.getpid()`, `os.getppid()`). A path whose name is made from one
 * (`WATCHER_DIR / f"{pid}.json"`, directly or through the module's function
 * returning it for a parameter the callers fill with a probed pid) names one
 * process's record, never a name contenders share. (name_vec: above.) */
static void collect_pid_names(lf_pysem *m, name_vec *out) {
    static const char *const takes_pid[] = {"os.kill", "os.killpg", "psutil.pid_exists", "psutil.Process", NULL};
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node;
        if (!lf_pylock_callee_any(m, call, takes_pid))
            continue;
        TSNode a = lf_tree_unparen(lf_pylock_arg(m, call, 0, "pid"));
        if (lf_tree_is(a, "identifier"))
            LF_VEC_PUSH(out, lf_pysem_intern(m, m->src->text + ts_node_start_byte(a),
                                             ts_node_end_byte(a) - ts_node_start_byte(a)));
    }
}

static int named_from_pid(lf_pylock *l, const name_vec *pids, TSNode path) {
    lf_pysem *m = l->m;
    static const char *const own[] = {"os.getpid", "os.getppid", NULL};
    LF_VEC(TSNode) st = {0};
    LF_VEC_PUSH(&st, path);
    int found = 0, param_hops = 0;
    for (size_t budget = 128; st.len && budget && !found; budget--) {
        TSNode n = lf_tree_unparen(st.items[--st.len]);
        if (ts_node_is_null(n) || lf_tree_is(n, "lambda") || lf_tree_is(n, "string_content"))
            continue;
        if (lf_tree_is(n, "call") && lf_pylock_callee_any(m, n, own)) {
            found = 1;
            break;
        }
        if (lf_tree_is(n, "identifier")) {
            const char *name = lf_pysem_intern(m, m->src->text + ts_node_start_byte(n),
                                               ts_node_end_byte(n) - ts_node_start_byte(n));
            for (size_t i = 0; i < pids->len && !found; i++)
                found = pids->items[i] == name;
            TSNode v = lf_pysem_resolve_value(m, n);
            if (!ts_node_eq(v, n)) {
                LF_VEC_PUSH(&st, v);
                continue;
            }
            const lf_pybinding *b =
                param_hops < 4 ? lf_pysem_binding_at(m, lf_pysem_scope_of(m, n), name, ts_node_start_byte(n)) : NULL;
            if (b && b->kind == LF_PYBIND_PARAM) {
                TSNode args[4];
                param_hops++;
                size_t na = lf_pylock_param_args(l, b, args, 4);
                for (size_t i = 0; i < na; i++)
                    LF_VEC_PUSH(&st, args[i]);
            }
            continue;
        }
        /* the parts a name is made of: an f-string's interpolations, the
         * operands of `/` and `+`, the arguments of a join; not a call's callee */
        if (lf_tree_is(n, "call")) {
            LF_VEC_PUSH(&st, lf_tree_field(n, "arguments"));
            continue;
        }
        if (lf_tree_is(n, "attribute"))
            continue;
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&st, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&st);
    return found;
}

static void mark_per_process(lf_pylock *l) {
    lf_pysem *m = l->m;
    name_vec pids = {0};
    collect_pid_names(m, &pids);
    for (size_t i = 0; i < l->in->keys.len; i++) {
        lf_pylock_key *k = &l->in->keys.items[i];
        if (!(k->flags & (LF_LOCK_PID | LF_LOCK_EXCL)))
            continue;
        TSNode path = k->key.kind == LF_PKEY_EXPR ? k->key.node
                      : k->key.kind == LF_PKEY_CALL ? returned_value(m, k->key.scope)
                                                    : (TSNode){0};
        if (!ts_node_is_null(path) && named_from_pid(l, &pids, path))
            k->flags |= LF_LOCK_PER_PROCESS;
    }
    LF_VEC_FREE(&pids);
}

/* ---- locks claimed by writing them: the module's own protocol ---- */

/* The path a call creates or opens for writing, not exclusively: `open(p,
 * "w")` (any mode that writes: w, a, x, +), `p.open("a")`, `p.touch()`,
 * `os.open(p, O_CREAT | ...)`. Null when it is none. */
static TSNode created_path(lf_pylock *l, TSNode call, const char *callee) {
    lf_pysem *m = l->m;
    static const char *const opens[] = {"open", "io.open", "codecs.open", NULL};
    static const char *const os_open[] = {"os.open", NULL};
    TSNode mode = {0}, path = {0};
    /* callee: the model's resolved name of the call (no lookup per call) */
    if (lf_str_in_list(callee, os_open)) {
        TSNode flags = lf_pylock_arg(m, call, 1, "flags");
        return !ts_node_is_null(flags) && mentions_qualname(m, flags, "os.O_CREAT") ? lf_pylock_arg(m, call, 0, "path")
                                                                                    : (TSNode){0};
    }
    if (lf_str_in_list(callee, opens)) {
        mode = lf_pylock_arg(m, call, 1, "mode");
        path = lf_pylock_arg(m, call, 0, "file");
    } else if (pathlike_open_mode(m, call)) {
        mode = lf_pylock_arg(m, call, 0, "mode");
        path = receiver(call);
    } else if (pathlike_method(m, call, "touch")) {
        return receiver(call);
    }
    if (ts_node_is_null(mode) || ts_node_is_null(path))
        return (TSNode){0};
    mode = lf_tree_unparen(mode);
    static const char writes[] = "wax+";
    for (const char *c = writes; *c; c++)
        if (lf_pylock_open_mode(m->src, mode, *c, 0))
            return path;
    return (TSNode){0};
}

static int keyed_call_cmp(const void *a, const void *b) {
    const keyed_call *x = a, *y = b;
    if (x->key.hash != y->key.hash)
        return x->key.hash < y->key.hash ? -1 : 1;
    return x->call < y->call ? -1 : x->call > y->call;
}

/* Each call is asked once what path it acts on (path_of, null for none):
 * asking again per question made a module with n pid probes or age checks
 * cost n times its calls. */
static void key_index_build(lf_pylock *l, key_index *ix, TSNode (*path_of)(lf_pylock *, size_t)) {
    ix->built = 1;
    for (size_t i = 0; i < l->m->n_calls; i++) {
        TSNode path = path_of(l, i);
        if (ts_node_is_null(path))
            continue;
        keyed_call c = {lf_pylock_key_of(l, path), i};
        LF_VEC_PUSH(&ix->calls, c);
    }
    if (ix->calls.len > 1)
        qsort(ix->calls.items, ix->calls.len, sizeof *ix->calls.items, keyed_call_cmp);
}

/* The calls on path's key, in call order: up to max into out (when out is
 * not null); returns how many there are. */
static size_t key_index_find(lf_pylock *l, const key_index *ix, TSNode path, TSNode *out, size_t max) {
    lf_pkey want = lf_pylock_key_of(l, path);
    /* Equal keys hash alike: only the run of want's hash can hold them. */
    size_t lo = 0, hi = ix->calls.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        lf_work(1);
        if (ix->calls.items[mid].key.hash < want.hash)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t n = 0;
    for (size_t i = lo; i < ix->calls.len && ix->calls.items[i].key.hash == want.hash; i++) {
        lf_work(1);
        if (!lf_pylock_key_same(l, &want, &ix->calls.items[i].key))
            continue;
        if (out && n < max)
            out[n] = l->m->calls[ix->calls.items[i].call].node;
        n++;
    }
    return n;
}

static TSNode written_path(lf_pylock *l, size_t i) {
    lf_pysem *m = l->m;
    TSNode call = m->calls[i].node, t = {0}, data = {0};
    TSNode made = created_path(l, call, m->calls[i].callee);
    if (!ts_node_is_null(made))
        return made;
    return write_call(l, call, &t, &data) ? t : (TSNode){0};
}

size_t lf_pylock_writers(lf_pylock *l, TSNode path, TSNode *out, size_t max) {
    if (!l->in->writers.built)
        key_index_build(l, &l->in->writers, written_path);
    return key_index_find(l, &l->in->writers, path, out, max);
}

/* `os.mkdir(P)`, `os.makedirs(P)`, `P.mkdir()`: P. */
static TSNode directory_made(lf_pylock *l, size_t i) {
    static const char *const mkdirs[] = {"os.mkdir", "os.makedirs", NULL};
    lf_pysem *m = l->m;
    TSNode call = m->calls[i].node;
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_pylock_callee_any(m, call, mkdirs))
        return lf_pylock_arg(m, call, 0, "path");
    if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "mkdir"))
        return lf_tree_field(fn, "object");
    return (TSNode){0};
}

int lf_pylock_made_as_directory(lf_pylock *l, TSNode path) {
    if (!l->in->dirs_made.built)
        key_index_build(l, &l->in->dirs_made, directory_made);
    return key_index_find(l, &l->in->dirs_made, path, NULL, 0) > 0;
}

static void mark_written(lf_pylock *l, int32_t scope, int32_t k, TSNode why) {
    if (k < 0)
        return;
    made_at w = {scope, k, why};
    LF_VEC_PUSH(&l->in->made, w);
    key_mark(l, k, LF_LOCK_WRITTEN, why);
    if (ts_node_is_null(l->in->keys.items[k].written))
        l->in->keys.items[k].written = why;
}

/* Does a path's file name spell a lock in one of its names or literal parts
 * (after following the path: names to their values, the module's path
 * functions to what they return)? Only the last component counts: a record
 * inside a lock directory (`os.path.join(self.lock_file, host)`) is no lock
 * by its directory's name. At most 128 nodes are looked at per root. */
static int expr_spells_lock(lf_pylock *l, TSNode e) {
    const lf_source *src = l->m->src;
    TSNode roots[2] = {e, follow_path(l, e)};
    for (int r = 0; r < 2; r++) {
        TSNode dir, name;
        if (!ts_node_is_null(roots[r]) && split_dir(l, roots[r], &dir, &name))
            roots[r] = name;
    }
    static const char *const leaves[] = {"identifier", "string_content", NULL};
    for (int r = 0; r < 2; r++)
        if (!ts_node_is_null(roots[r]) && !(r == 1 && ts_node_eq(roots[1], roots[0])) &&
            lf_tree_spells_lock(src, roots[r], leaves, 128))
            return 1;
    return 0;
}

/* Does the module name the key a lock: the field, parameter or function that
 * holds it, or the path it is made of? */
static int key_spells_lock(lf_pylock *l, const lf_pkey *k) {
    lf_pysem *m = l->m;
    const char *name = k->kind == LF_PKEY_FIELD                  ? k->name
                       : k->kind == LF_PKEY_BIND                 ? k->binding->name
                       : k->kind == LF_PKEY_CALL && k->scope >= 0 ? m->scopes[k->scope].name
                                                                 : NULL;
    if (name && lf_text_spells_lock(name, strlen(name)))
        return 1;
    TSNode dir, pat;
    if (k->kind == LF_PKEY_BIND) /* a loop over a directory's files: the pattern names them */
        return k->binding->kind == LF_PYBIND_FOR && !ts_node_is_null(k->binding->value) &&
               directory_scan(l, k->binding->value, &dir, &pat) && expr_spells_lock(l, pat);
    TSNode paths[4];
    size_t np = key_paths(l, k, paths, 4);
    for (size_t i = 0; i < np; i++)
        if (!ts_node_is_null(paths[i]) && expr_spells_lock(l, paths[i]))
            return 1;
    return 0;
}

/* A lock file inside each entry of a directory listing: `for d in
 * issues.iterdir(): lock = d / "lock"` (os.path.join(d, "x.lock") too). A
 * cleanup that walks them, looks at each and removes it is a stale-lock
 * sweep, whoever writes the claims. */
static int entry_lock_in_listing(lf_pylock *l, const lf_pkey *k) {
    if (k->kind != LF_PKEY_EXPR)
        return 0;
    TSNode dir, name;
    if (!split_dir(l, k->node, &dir, &name))
        return 0;
    dir = lf_tree_unparen(dir);
    if (!lf_tree_is(dir, "identifier"))
        return 0;
    lf_pysem *m = l->m;
    char *nm = lf_tree_text(m->src, dir);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, dir), nm, ts_node_start_byte(dir));
    free(nm);
    return b && b->kind == LF_PYBIND_FOR;
}

/* A lock by the module's own protocol, with no exclusive create: a path the
 * module writes (the claim: a record, or an empty file after an existence
 * test), looks at (its existence, its age, the record) and removes (the
 * release, or the break of a stale one), and names a lock. Such a
 * check-then-write lock excludes no one reliably (two claimants both see it
 * free), but the module relies on it as a lock: its breaks and releases by
 * name delete other holders' claims like any lock's. A cache or a session
 * file is written, looked at and removed the same way, so the name decides.
 * Returns how many keys became locks. */
static size_t mark_claims(lf_pylock *l) {
    size_t n = 0;
    const unsigned need = LF_LOCK_WRITTEN | LF_LOCK_REMOVED;
    for (size_t i = 0; i < l->in->keys.len; i++) {
        lf_pylock_key *k = &l->in->keys.items[i];
        /* A loop over a directory's lock files (`for f in d.glob("*.lock")`)
         * that looks at each and removes it is a stale-lock cleanup: the
         * claims it walks are written elsewhere (another module, another
         * tool), so the write is not asked for. */
        unsigned needed = (k->key.kind == LF_PKEY_BIND && k->key.binding->kind == LF_PYBIND_FOR) ||
                                  entry_lock_in_listing(l, &k->key)
                              ? LF_LOCK_REMOVED
                              : need;
        if ((k->flags & needed) != needed || !(k->flags & (LF_LOCK_JUDGED | LF_LOCK_JUDGED_CONTENT)) ||
            (k->flags & (LF_LOCK_PKG | LF_LOCK_CLAIM)) || !key_spells_lock(l, &k->key))
            continue;
        key_mark(l, (int32_t)i, LF_LOCK_CLAIM, k->written);
        n++;
    }
    return n;
}

/* Is the removal in an except clause of a try whose body creates the same
 * lock exclusively in its function (`try: os.open(p, O_CREAT|O_EXCL) except
 * FileExistsError: ... os.unlink(p)`)? The create's failure is the judgement
 * that the lock is there: removing it by name from the handler is a takeover
 * of whatever holds it by then, a blind one when nothing else was looked at
 * (a waiter's deadline). TS/JS reads the catch of the failed create the same
 * way (lf_tslock). Returns the create, or null. */
static TSNode failed_create_of(const lf_pylock *l, const i32_vec *creates, const lf_pylock_event *ev) {
    lf_pysem *m = l->m;
    TSNode fn = ev->scope >= 0 ? m->scopes[ev->scope].node : m->root;
    for (TSNode n = ts_node_parent(ev->node); !ts_node_is_null(n) && !ts_node_eq(n, fn); n = ts_node_parent(n)) {
        if (lf_pysem_is_function_node(n))
            return (TSNode){0};
        if (!lf_tree_is(n, "except_clause"))
            continue;
        /* only the first handler that catches the create's FileExistsError
         * runs when the create fails: a later `except OSError:` that removes
         * the lock rolls back the process's own create after a later step */
        TSNode tr = ts_node_parent(n), first = {0};
        for (uint32_t i = 0; i < ts_node_named_child_count(tr) && ts_node_is_null(first); i++) {
            TSNode c = ts_node_named_child(tr, i);
            if (lf_tree_is(c, "except_clause") && clause_catches_exists(m, c))
                first = c;
        }
        if (!ts_node_eq(first, n))
            continue;
        TSNode body = lf_tree_field(tr, "body");
        for (size_t i = 0; i < creates->len; i++) {
            const lf_pylock_event *c = &l->in->events.items[creates->items[i]];
            if (c->scope == ev->scope && lf_pylock_key_same(l, &l->in->keys.items[c->key].key,
                                                            &l->in->keys.items[ev->key].key) &&
                lf_tree_within(c->node, body))
                return c->node;
        }
    }
    return (TSNode){0};
}

/* Does the comparison test a value against this process's pid (`rec["pid"]
 * != os.getpid()`, `os.getpid() == owner`) with operator `op`? */
static int compares_own_pid(lf_pysem *m, TSNode cond, const char *op) {
    static const char *const getpid[] = {"os.getpid", NULL};
    cond = lf_tree_unparen(cond);
    if (!lf_tree_is(cond, "comparison_operator") || ts_node_named_child_count(cond) != 2 ||
        ts_node_child_count(cond) != 3)
        return 0;
    TSNode o = ts_node_child(cond, 1);
    if (ts_node_is_null(o) || strcmp(ts_node_type(o), op) != 0)
        return 0;
    for (uint32_t i = 0; i < 2; i++) {
        TSNode side = lf_tree_unparen(ts_node_named_child(cond, i));
        if (lf_tree_is(side, "call") && lf_pylock_callee_any(m, side, getpid))
            return 1;
    }
    return 0;
}

/* Does the block end by leaving the function (return or raise)? */
static int block_leaves_fn(TSNode block) {
    uint32_t n = ts_node_named_child_count(block);
    TSNode last = n ? ts_node_named_child(block, n - 1) : (TSNode){0};
    return lf_tree_is(last, "return_statement") || lf_tree_is(last, "raise_statement");
}

int lf_pylock_owner_checked(lf_pysem *m, TSNode removal) {
    TSNode n = removal;
    for (int depth = 0; depth < 64; depth++) {
        TSNode up = ts_node_parent(n);
        if (ts_node_is_null(up) || lf_pysem_is_function_node(up))
            return 0;
        if (lf_tree_is(up, "if_statement") && lf_tree_within(removal, lf_tree_field(up, "consequence")) &&
            compares_own_pid(m, lf_tree_field(up, "condition"), "=="))
            return 1;
        if (lf_tree_is(up, "block")) {
            int seen = 0;
            for (TSNode st = ts_node_prev_named_sibling(n); !ts_node_is_null(st) && seen < 256;
                 st = ts_node_prev_named_sibling(st), seen++)
                if (lf_tree_is(st, "if_statement") && ts_node_is_null(lf_tree_field(st, "alternative")) &&
                    compares_own_pid(m, lf_tree_field(st, "condition"), "!=") &&
                    block_leaves_fn(lf_tree_field(st, "consequence")))
                    return 1;
        }
        n = up;
    }
    return 0;
}

/* A lock claimed by writing it is taken over by writing it again: a
 * function that looks at it (its record, its age), reads the clock and then
 * writes it (`if age < limit: return False` ... `lock.write_text(now)`)
 * takes over a claim it judged old, whether or not its holder is alive. That
 * is a break on age alone (LF_LOCK_BROKEN_LIVE): the holder's later release
 * by name deletes the new claim. Not when a second function writes a time in
 * too (LF_LOCK_REFRESHED): the holder keeps its claim fresh, a heartbeat. */
static void mark_overwrite_takeovers(lf_pylock *l, const uint32_t *clock_at) {
    if (!l->in->made.len)
        return;
    /* each (function, key) judged in a function that reads the clock, its
     * earliest judgement first */
    LF_VEC(made_at) judged = {0};
    for (size_t i = 0; i < l->in->events.len; i++) {
        const lf_pylock_event *ev = &l->in->events.items[i];
        if (ev->kind == LF_PYEV_JUDGE && ev->key >= 0 && ev->scope >= 0 && clock_at[ev->scope]) {
            made_at j = {ev->scope, ev->key, ev->node};
            LF_VEC_PUSH(&judged, j);
        }
    }
    if (judged.len > 1)
        qsort(judged.items, judged.len, sizeof *judged.items, made_pos_cmp);
    /* The takeovers: a claim lock written again (made), and a lock of any
     * kind touched (`if self.get_age() > limit: os.utime(lock)`, then `held
     * = True`): its age restarts for the new holder, and the old one, still
     * alive, releases by name what is now the new holder's lock. */
    const struct {
        const made_at *items;
        size_t len;
        int claims_only;
    } takes[] = {{l->in->made.items, l->in->made.len, 1}, {l->in->touched.items, l->in->touched.len, 0}};
    for (size_t t = 0; t < sizeof takes / sizeof *takes; t++)
        for (size_t i = 0; i < takes[t].len; i++) {
            const made_at *w = &takes[t].items[i];
            lf_pylock_key *k = &l->in->keys.items[w->key];
            if (w->scope < 0 || !clock_at[w->scope] || (takes[t].claims_only && !(k->flags & LF_LOCK_CLAIM)) ||
                (k->flags & (LF_LOCK_BROKEN_LIVE | LF_LOCK_REFRESHED)) || !lf_pylock_is_lock(k->flags))
                continue;
            const made_at *j = made_run(judged.items, judged.len, w); /* the pair's earliest judgement */
            if (!j || ts_node_start_byte(j->node) >= ts_node_start_byte(w->node))
                continue;
            k->flags |= LF_LOCK_BROKEN | LF_LOCK_BROKEN_LIVE;
            k->broken_at = k->retaken_at = w->node;
        }
    LF_VEC_FREE(&judged);
}

/* An OS lock re-checked after it is taken (git's and lockrt's protocol,
 * pidfilelock's): the function that locks, or a helper it calls, compares the
 * path's st_ino (and os.fstat of the handle: an identity check) with the
 * locked handle's, and retries on a mismatch. Then removing the file while
 * locked is the release the protocol expects: a waiter that locks the old,
 * unlinked inode sees the mismatch and starts again. Module-wide: identity
 * checks name no key. */
/* The stale break, by name on existence or age, that the lock a helper
 * removes went through first in the same function: an earlier call of
 * another module helper, handed the same lock, whose own removal breaks its
 * parameter (`acquire_lock(p)` ... `release_lock(p)`); else null. `breaker`:
 * per scope, such a removal of its own, or null. Walks back from the
 * removal (event `at`) over its function's earlier events only. */
static TSNode helper_break_before(const lf_pylock *l, const int32_t *callee_of, const TSNode *breaker, size_t at) {
    lf_pysem *m = l->m;
    const lf_pylock_event *rel = &l->in->events.items[at];
    uint32_t fn_start = rel->scope >= 0 ? ts_node_start_byte(m->scopes[rel->scope].node) : 0;
    for (size_t i = at; i-- > 0;) {
        const lf_pylock_event *j = &l->in->events.items[i];
        if (ts_node_start_byte(j->node) < fn_start)
            break;
        if (j->kind != LF_PYEV_JUDGE || !j->via_helper || j->scope != rel->scope || j->key < 0 ||
            !lf_pylock_key_eq(m, &l->in->keys.items[j->key].key, &l->in->keys.items[rel->key].key))
            continue;
        const lf_pycall *jc = lf_pysem_call(m, j->node);
        int32_t g = jc ? callee_of[jc - m->calls] : -1;
        if (g >= 0 && !ts_node_is_null(breaker[g]))
            return breaker[g];
    }
    return (TSNode){0};
}

/* What a path expression is, through the local names it is assigned to
 * (`p = Path(lock_path)` ... `p.unlink()`: `Path(lock_path)`), a few hops. */
static TSNode local_value(lf_pysem *m, TSNode e) {
    for (int hop = 0; hop < 4 && lf_tree_is(e, "identifier"); hop++) {
        uint32_t a = ts_node_start_byte(e);
        const lf_pybinding *b = lf_pysem_binding_at(
            m, lf_pysem_scope_of(m, e), lf_pysem_intern(m, m->src->text + a, ts_node_end_byte(e) - a), a);
        if (!b || b->scope <= 0 || b->kind != LF_PYBIND_ASSIGN || ts_node_is_null(b->value))
            break;
        e = lf_tree_unparen(b->value);
    }
    return e;
}

/* The parameter of an API function (module-level, or a method) that a
 * removed path is made from alone (`Path(lock_path)`, `os.path.join(d,
 * name)` with d module-level), following local names a few hops; NULL when
 * some name is neither that parameter nor module-level. */
const lf_pybinding *lf_pylock_api_param(lf_pysem *m, TSNode e) {
    TSNode stack[32];
    int sp = 0, budget = 96;
    const lf_pybinding *param = NULL;
    stack[sp++] = e;
    while (sp && budget-- > 0) {
        TSNode n = stack[--sp];
        if (lf_pysem_is_function_node(n))
            return NULL;
        if (lf_tree_is(n, "identifier")) {
            TSNode up = ts_node_parent(n);
            if ((lf_tree_is(up, "attribute") && ts_node_eq(lf_tree_field(up, "attribute"), n)) ||
                lf_tree_is(up, "keyword_argument"))
                continue;
            uint32_t a = ts_node_start_byte(n);
            const lf_pybinding *b = lf_pysem_binding_at(
                m, lf_pysem_scope_of(m, n), lf_pysem_intern(m, m->src->text + a, ts_node_end_byte(n) - a), a);
            if (!b || b->scope <= 0 || b->kind == LF_PYBIND_IMPORT)
                continue;
            if (b->kind == LF_PYBIND_ASSIGN && !ts_node_is_null(b->value)) {
                if (sp < 32)
                    stack[sp++] = b->value;
                continue;
            }
            const lf_pyscope *sc = &m->scopes[b->scope];
            int api = sc->kind == LF_PYSCOPE_FUNCTION && (sc->parent == 0 || sc->cls >= 0);
            /* a method's self: its fields are the object's, no argument of the API */
            if (b->kind == LF_PYBIND_PARAM && sc->cls >= 0 && (!strcmp(b->name, "self") || !strcmp(b->name, "cls")))
                return NULL;
            if (b->kind != LF_PYBIND_PARAM || !api || (param && param != b))
                return NULL;
            param = b;
            continue;
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0 && sp < 32;)
            stack[sp++] = ts_node_named_child(n, i);
    }
    return budget > 0 ? param : NULL;
}

int lf_pylock_sibling_params(const lf_pysem *m, const lf_pybinding *p, const lf_pybinding *q) {
    return p && q && p != q && p->name == q->name && m->scopes[q->scope].parent == m->scopes[p->scope].parent &&
           m->scopes[q->scope].cls == m->scopes[p->scope].cls;
}

/* A release by name of an API function's parameter whose sibling function
 * (same class, or both module-level) breaks its own parameter of the same
 * name (`acquire_singleton_lock(lock_path)` unlinks a stale one,
 * `release_singleton_lock(lock_path)` unlinks it): the API's callers hand
 * both the same path, so the release deletes whatever lock a newcomer took
 * after breaking a paused holder's (on existence or age), or after racing
 * another breaker (after a pid probe). */
static void mark_sibling_releases(lf_pylock *l) {
    lf_pysem *m = l->m;
    /* the breaks of an API function's parameter: few, found once */
    typedef struct breaker {
        const lf_pylock_event *r;
        const lf_pybinding *param;
        unsigned broke;
    } breaker;
    LF_VEC(breaker) breaks = {0};
    for (size_t j = 0; j < l->in->events.len; j++) {
        const lf_pylock_event *r = &l->in->events.items[j];
        if (r->kind != LF_PYEV_REMOVE || r->via_helper || r->key < 0 || ts_node_is_null(r->target))
            continue;
        unsigned rf = l->in->keys.items[r->key].flags;
        unsigned broke = r->judged == LF_JUDGED_PRESENCE    ? rf & LF_LOCK_BROKEN_LIVE
                         : r->judged == LF_JUDGED_LIVENESS ? rf & LF_LOCK_BROKEN_RACING
                                                           : 0u;
        const lf_pybinding *q = broke ? lf_pylock_api_param(m, r->target) : NULL;
        if (q) {
            breaker b = {r, q, broke};
            LF_VEC_PUSH(&breaks, b);
        }
    }
    for (size_t i = 0; breaks.len && i < l->in->events.len; i++) {
        const lf_pylock_event *o = &l->in->events.items[i];
        if (o->kind != LF_PYEV_REMOVE || o->via_helper || o->key < 0 || o->judged != LF_JUDGED_NONE ||
            o->after_stop || ts_node_is_null(o->target))
            continue;
        lf_pylock_key *k = &l->in->keys.items[o->key];
        if (k->flags & (LF_LOCK_BROKEN_LIVE | LF_LOCK_BROKEN_RACING | LF_LOCK_PKG))
            continue;
        const lf_pybinding *p = lf_pylock_api_param(m, o->target);
        if (!p)
            continue;
        TSNode removed = local_value(m, o->target);
        for (size_t j = 0; j < breaks.len; j++) {
            const lf_pylock_event *r = breaks.items[j].r;
            const lf_pybinding *q = breaks.items[j].param;
            if (r->scope == o->scope || !lf_pylock_sibling_params(m, p, q) ||
                !lf_tree_equal(m->src, removed, m->src, local_value(m, r->target), LF_TREE_EQ_STRING_CONTENT))
                continue;
            k->flags |= LF_LOCK_BROKEN | breaks.items[j].broke | LF_LOCK_ARG;
            k->broken_at = r->node;
            if (breaks.items[j].broke & LF_LOCK_BROKEN_LIVE)
                break;
        }
    }
    LF_VEC_FREE(&breaks);
}

static void mark_inode_verified(lf_pylock *l, const int32_t *callee_of) {
    lf_pysem *m = l->m;
    size_t ns = m->n_scopes ? m->n_scopes : 1;
    unsigned char *checks = lf_xcalloc(ns, 1);
    int any = 0;
    for (size_t i = 0; i < l->in->events.len; i++) {
        const lf_pylock_event *ev = &l->in->events.items[i];
        if (ev->kind == LF_PYEV_IDENTITY && ev->scope >= 0 && (size_t)ev->scope < ns)
            checks[ev->scope] = 1, any = 1;
    }
    int verified = 0;
    for (size_t s = 0; any && s < ns && !verified; s++)
        verified = checks[s] && l->acquires[s];
    for (size_t i = 0; any && i < m->n_calls && !verified; i++) {
        int32_t f = callee_of[i];
        int32_t from = m->calls[i].scope;
        verified = f >= 0 && (size_t)f < ns && checks[f] && from >= 0 && (size_t)from < ns && l->acquires[from];
    }
    free(checks);
    if (!verified)
        return;
    for (size_t k = 0; k < l->in->keys.len; k++)
        if (l->in->keys.items[k].flags & LF_LOCK_FLOCK)
            l->in->keys.items[k].flags |= LF_LOCK_INODE_VERIFIED;
}

/* An OS lock on an atomic write's temp (a file only created exclusively or
 * byte-range locked that the module renames onto another path) protects
 * nothing: another writer's open(p, "w") truncates it whatever the lock, a
 * writer waiting on it gets the inode after it was published, and an
 * exclusive create only keeps the temp this writer's. So neither is an
 * acquisition: the function holds no lock for LF104 and LF401 to stay quiet
 * under. */
static void drop_temp_locks(lf_pylock *l) {
    lf_pysem *m = l->m;
    size_t kept = 0;
    for (size_t i = 0; i < l->in->events.len; i++) {
        lf_pylock_event *ev = &l->in->events.items[i];
        int drop = 0;
        if (ev->kind == LF_PYEV_ACQUIRE && ev->key >= 0) {
            /* an exclusive create of a temp it installs elsewhere */
            unsigned f = l->in->keys.items[ev->key].flags;
            drop = (f & LF_LOCK_INSTALLED) && temp_uses_only(f);
        } else if (ev->kind == LF_PYEV_ACQUIRE) {
            int unlock = 0;
            TSNode handle = (TSNode){0};
            if (lock_call(m, ev->node, &handle, &unlock) && !unlock && !ts_node_is_null(handle)) {
                TSNode path = handle_path(l, handle);
                lf_pkey k = ts_node_is_null(path) ? (lf_pkey){0} : lf_pylock_key_of(l, path);
                int32_t at = ts_node_is_null(path) ? -1 : lf_pylock_find(l, &k);
                unsigned f = at < 0 ? 0 : l->in->keys.items[at].flags;
                drop = (f & LF_LOCK_INSTALLED) && temp_uses_only(f);
            }
        }
        if (!drop)
            l->in->events.items[kept++] = *ev;
    }
    if (kept == l->in->events.len)
        return;
    l->in->events.len = kept;
    memset(l->acquires, 0, m->n_scopes ? m->n_scopes : 1);
    for (size_t i = 0; i < kept; i++)
        if (l->in->events.items[i].kind == LF_PYEV_ACQUIRE && l->in->events.items[i].scope >= 0)
            l->acquires[l->in->events.items[i].scope] = 1;
}

static lf_pylock *build(lf_pysem *m) {
    lf_pylock *l = lf_xcalloc(1, sizeof *l);
    l->m = m;
    l->in = lf_xcalloc(1, sizeof *l->in);
    index_methods(l);
    walk_ctx wc = {l};
    /* visit_node reads assignments, attributes and calls only: the model's
     * pre-order list of them stands for a walk of the whole tree */
    size_t n_facts = 0;
    const TSNode *facts = lf_pysem_fact_nodes(m, &n_facts);
    for (size_t i = 0; i < n_facts; i++)
        (void)visit_node(facts[i], &wc);

    /* Parameters of every function, in order, indexed by scope (bindings are
     * in source order, so one counting pass groups them). */
    int32_t *param_start = lf_xcalloc(m->n_scopes + 2, sizeof *param_start);
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->kind == LF_PYBIND_PARAM && b->scope >= 0 && m->scopes[b->scope].kind == LF_PYSCOPE_FUNCTION &&
            lf_tree_within(b->target, lf_tree_field(m->scopes[b->scope].node, "parameters")))
            param_start[b->scope + 1]++;
    }
    for (size_t s = 0; s < m->n_scopes; s++)
        param_start[s + 1] += param_start[s];
    const lf_pybinding **all_params = lf_xcalloc((size_t)param_start[m->n_scopes] + 1, sizeof *all_params);
    {
        int32_t *fill = lf_xcalloc(m->n_scopes + 1, sizeof *fill);
        for (size_t i = 0; i < m->n_bindings; i++) {
            const lf_pybinding *b = &m->bindings[i];
            if (b->kind == LF_PYBIND_PARAM && b->scope >= 0 && m->scopes[b->scope].kind == LF_PYSCOPE_FUNCTION &&
                lf_tree_within(b->target, lf_tree_field(m->scopes[b->scope].node, "parameters")))
                all_params[param_start[b->scope] + fill[b->scope]++] = b;
        }
        free(fill);
    }

    l->acquires = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, 1);
    /* Per scope: where it first releases an OS lock (flock/lockf LOCK_UN,
     * msvcrt LK_UNLCK), position + 1: the holder's release path. */
    uint32_t *unlock_at = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *unlock_at);
    int32_t *callee_of = lf_xmalloc((m->n_calls ? m->n_calls : 1) * sizeof *callee_of);
    for (size_t i = 0; i < m->n_calls; i++) {
        int skip = 0;
        callee_of[i] = lf_pylock_local_callee(l, m->calls[i].node, &skip);
    }
    /* Calls grouped by callee (one counting pass), so that asking what the
     * callers pass for a parameter costs that function's calls, not the
     * module's: a write's data is followed into parameters per write. */
    l->in->calls_at = lf_xcalloc(m->n_scopes + 2, sizeof *l->in->calls_at);
    l->in->calls_by = lf_xmalloc((m->n_calls ? m->n_calls : 1) * sizeof *l->in->calls_by);
    for (size_t i = 0; i < m->n_calls; i++)
        if (callee_of[i] >= 0)
            l->in->calls_at[callee_of[i] + 1]++;
    for (size_t f = 0; f < m->n_scopes; f++)
        l->in->calls_at[f + 1] += l->in->calls_at[f];
    {
        int32_t *fill = lf_xcalloc(m->n_scopes + 1, sizeof *fill);
        for (size_t i = 0; i < m->n_calls; i++)
            if (callee_of[i] >= 0)
                l->in->calls_by[l->in->calls_at[callee_of[i]] + fill[callee_of[i]]++] = (int32_t)i;
        free(fill);
    }
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        TSNode call = c->node, t, data;
        int32_t scope = c->scope;
        /* a file replaced whole by a rename holds data */
        TSNode dst = rename_destination(m, call);
        if (!ts_node_is_null(dst)) {
            key_mark(l, key_add_expr(l, dst), LF_LOCK_REPLACED, call);
            /* and its source, unless moved aside to break it, is installed there */
            TSNode from = lf_pylock_callee_any(m, call, k_moves) ? lf_pylock_arg(m, call, 0, "src") : receiver(call);
            if (!ts_node_is_null(from) && !moved_aside(m, call, from, dst))
                key_mark(l, key_add_expr(l, from), LF_LOCK_INSTALLED, call);
        }
        static const char *const utimes[] = {"os.utime", NULL};
        if (lf_pylock_callee_any(m, call, utimes)) {
            TSNode touched = lf_pylock_arg(m, call, 0, "path");
            if (!ts_node_is_null(touched)) {
                made_at touch = {scope, key_add_expr(l, touched), call};
                LF_VEC_PUSH(&l->in->touched, touch);
            }
        }
        int link = 0;
        TSNode created = lf_pylock_exclusive_create(l, call, &link);
        static const char *const makedirs[] = {"os.makedirs", NULL};
        if (!ts_node_is_null(created) &&
            create_failure_handled(m, c->stmt, created, lf_pylock_callee_any(m, call, makedirs))) {
            int32_t k = key_add_expr(l, created);
            key_mark(l, k, link ? LF_LOCK_SYMLINK : LF_LOCK_EXCL, call);
            made_at w = {scope, k, call};
            LF_VEC_PUSH(&l->in->made, w);
            /* symlink(str(os.getpid()), p): the link's target holds the pid. */
            TSNode src = lf_pylock_arg(m, call, 0, NULL);
            if (!ts_node_eq(src, created) && !ts_node_is_null(src) && holds_pid(l, src))
                key_mark(l, k, LF_LOCK_PID, call);
            l->acquires[scope] = 1;
            add_event(l, LF_PYEV_ACQUIRE, scope, call, k, 0);
        }
        int unlock = 0;
        TSNode handle = (TSNode){0};
        unsigned kind = lock_call(m, call, &handle, &unlock);
        if (kind && !ts_node_is_null(handle)) {
            TSNode p = handle_path(l, handle);
            if (!ts_node_is_null(p))
                key_mark(l, key_add_expr(l, p), kind | (!unlock && exclusive_lock_call(m, call) ? LF_LOCK_OS_EXCLUSIVE : 0u),
                         call);
            if (!unlock) {
                l->acquires[scope] = 1;
                add_event(l, LF_PYEV_ACQUIRE, scope, call, -1, 0);
            } else if (!unlock_at[scope]) {
                unlock_at[scope] = ts_node_start_byte(call) + 1;
            }
        }
        unsigned lc = lock_class_kind(lf_pysem_callee(m, call));
        if (lc) {
            TSNode p = lf_pylock_arg(m, call, 0, NULL);
            if (!ts_node_is_null(p)) /* a lock class's lock is exclusive (fasteners, filelock, portalocker) */
                key_mark(l, key_add_expr(l, p), lc | LF_LOCK_HELPER | (lc & LF_LOCK_FLOCK ? LF_LOCK_OS_EXCLUSIVE : 0u),
                         call);
            l->acquires[scope] = 1;
            add_event(l, LF_PYEV_ACQUIRE, scope, call, -1, 0);
        } else if ((method_is(m, call, "acquire") && !lf_pylock_in_process_lock(l, receiver(call))) ||
                   imported_handle_lock(l, call, scope)) {
            l->acquires[scope] = 1;
            add_event(l, LF_PYEV_ACQUIRE, scope, call, -1, 0);
        }
        TSNode made = created_path(l, call, c->callee);
        if (!ts_node_is_null(made))
            mark_written(l, scope, key_add_expr(l, made), call);
        if (write_call(l, call, &t, &data) && !ts_node_is_null(t)) {
            mark_written(l, scope, key_add_expr(l, t), call);
            if (holds_pid(l, data))
                key_mark(l, key_add_expr(l, t), LF_LOCK_PID, call);
            /* a time written in by two functions: the holder refreshes it
             * (a heartbeat), the acquire is not the only writer. A time
             * written by a function that has just created the lock
             * exclusively is that acquire's record (a module may have two
             * acquires, sync and async), no refresh. */
            if (holds_clock(l, data)) {
                int32_t k = key_add_expr(l, t);
                lf_pylock_key *key = &l->in->keys.items[k];
                int acquire_record = 0;
                for (size_t j = 0; j < l->in->made.len && !acquire_record; j++)
                    acquire_record = l->in->made.items[j].scope == scope && l->in->made.items[j].key == k;
                if (!acquire_record && !key->stamped_in)
                    key->stamped_in = scope + 1;
                else if (!acquire_record && key->stamped_in != scope + 1)
                    key_mark(l, k, LF_LOCK_REFRESHED, call);
            }
        }
        /* lockrt's removals (a patched module's) still remove the lock, so
         * a lock claimed by writing stays one after LF301's fix; they bind
         * what they remove, so they are no removal event for the checks */
        if (lf_pylock_bound_removal(c)) {
            TSNode p = lf_pylock_arg(m, call, 0, "path");
            if (!ts_node_is_null(p))
                key_mark(l, key_add_expr(l, p), LF_LOCK_REMOVED, call);
        }
        if (lf_pylock_removal_call(m, call, &t) ||
            (method_index(m, method_attr(call), k_break_lock) >= 0 &&
             !ts_node_is_null(t = lock_object_path(m, receiver(call))))) {
            int32_t k = key_add_expr(l, t);
            key_mark(l, k, LF_LOCK_REMOVED, call);
            add_event(l, LF_PYEV_REMOVE, scope, call, k, 0)->target = t;
        }
        TSNode appended = appended_path(l, call);
        if (!ts_node_is_null(appended))
            key_mark(l, key_add_expr(l, appended), LF_LOCK_APPENDED, call);
        int how = judge_call(l, call, &t);
        if (how) {
            int32_t k = key_add_expr(l, t);
            int guard = how == 1 && removal_guard(l, call, t);
            key_mark(l, k, how == 1 ? LF_LOCK_JUDGED | (guard ? 0u : LF_LOCK_JUDGED_GATE)
                           : how == 2 ? LF_LOCK_JUDGED_CONTENT
                                      : LF_LOCK_JUDGED_CONTENT | LF_LOCK_READLINK,
                     call);
            lf_pylock_event *je = add_event(l, LF_PYEV_JUDGE, scope, call, k, 0);
            je->content = how >= 2;
            je->guard_only = guard;
        }
        if (is_probe(m, call))
            add_event(l, LF_PYEV_PROBE, scope, call, -1, 0);
        static const char *const same[] = {"os.path.samefile", "os.path.samestat", "os.path.sameopenfile", NULL};
        if (lf_pylock_callee_any(m, call, same))
            add_event(l, LF_PYEV_IDENTITY, scope, call, -1, 0);
        int skip = 0;
        if (callee_of[i] >= 0)
            (void)lf_pylock_local_callee(l, call, &skip);
        add_edges_for_call(l, call, scope, callee_of[i], skip, param_start, all_params);
    }
    /* Package-manager lock files are data, whatever the code does to them. */
    for (size_t i = 0; i < l->in->keys.len; i++) {
        lf_pylock_key *k = &l->in->keys.items[i];
        if (k->key.kind == LF_PKEY_EXPR && names_package_lock(m, k->key.node))
            k->flags |= LF_LOCK_PKG;
        else if (k->key.kind == LF_PKEY_BIND && k->key.binding->kind == LF_PYBIND_FOR &&
                 names_package_lock(m, k->key.binding->target))
            k->flags |= LF_LOCK_PKG;
    }
    /* before the flags flow (a record is no lock its helpers' parameters
     * receive, nor a scan of its directory) and after (a pid written through
     * a helper) */
    mark_per_process(l);
    mark_directory_scans(l);
    propagate(l);
    if (mark_claims(l)) {
        /* claims found: their directory scans and the parameters they are
         * passed to learn them as the other locks did */
        mark_directory_scans(l);
        propagate(l);
    }
    mark_per_process(l);
    drop_temp_locks(l);
    flocked_params(l);

    /* Through the module's functions: removals and judgements of a parameter
     * happen at the call; judgements of fields and module paths too (one level);
     * a function that takes a lock makes its callers take it. */
    size_t n_direct = l->in->events.len;
    if (l->in->made.len > 1)
        qsort(l->in->made.items, l->in->made.len, sizeof *l->in->made.items, made_cmp);
    {
        /* per callee scope: its direct judgements and removals of non-parameter
         * keys (fields, module paths): `self.remove()` removes self.path */
        i32_vec *judged = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *judged);
        i32_vec *removed = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *removed);
        for (size_t i = 0; i < n_direct; i++) {
            const lf_pylock_event *ev = &l->in->events.items[i];
            if (ev->key < 0 || l->in->keys.items[ev->key].key.kind == LF_PKEY_BIND)
                continue;
            if (ev->kind == LF_PYEV_JUDGE)
            {
                /* a function that looks at the lock and then makes it
                 * (`if p.exists(): ...` then `p.write_text(...)`) acquires
                 * it: for its callers that is the acquisition, not a look */
                made_at w = {.scope = ev->scope, .key = ev->key};
                if (!l->in->made.len || !bsearch(&w, l->in->made.items, l->in->made.len, sizeof w, made_cmp))
                    LF_VEC_PUSH(&judged[ev->scope], (int32_t)(((uint32_t)ev->key << 1) | (ev->content ? 1u : 0u)));
            }
            else if (ev->kind == LF_PYEV_REMOVE)
                LF_VEC_PUSH(&removed[ev->scope], ev->key);
        }
        for (size_t i = 0; i < l->in->edges.len; i++) {
            const edge *e = &l->in->edges.items[i];
            unsigned pf = l->in->keys.items[e->param].flags;
            if (pf & LF_LOCK_REMOVED)
            {
                lf_pylock_event *r = add_event(l, LF_PYEV_REMOVE, e->caller, e->call, e->arg, 1);
                r->param = e->param;
                r->target = e->arg_node;
            }
            if (pf & (LF_LOCK_JUDGED | LF_LOCK_JUDGED_CONTENT)) {
                lf_pylock_event *j = add_event(l, LF_PYEV_JUDGE, e->caller, e->call, e->arg, 1);
                j->param = e->param;
                j->content = !(pf & LF_LOCK_JUDGED);
            }
        }
        /* Calls without arguments (`self.is_locked()`) have no edges: walk the calls. */
        for (size_t i = 0; i < m->n_calls; i++) {
            int32_t f = callee_of[i];
            if (f < 0 || f == m->calls[i].scope)
                continue;
            /* record_read: the helper's own judgement of the key read its
             * record (`self.read_pid()`), not a look (exists, stat, age) */
            for (size_t j = 0; j < judged[f].len; j++) {
                int32_t k = judged[f].items[j] >> 1;
                lf_pylock_event *jv = add_event(l, LF_PYEV_JUDGE, m->calls[i].scope, m->calls[i].node, k, 1);
                jv->content = (l->in->keys.items[k].flags & LF_LOCK_JUDGED) == 0;
                jv->record_read = judged[f].items[j] & 1;
            }
            for (size_t j = 0; j < removed[f].len; j++) {
                int32_t k = removed[f].items[j];
                lf_pylock_key *key = &l->in->keys.items[k];
                add_event(l, LF_PYEV_REMOVE, m->calls[i].scope, m->calls[i].node, k, 1)->target =
                    key->key.kind == LF_PKEY_EXPR ? key->key.node : m->calls[i].node;
            }
        }
        for (size_t s = 0; s < m->n_scopes; s++) {
            LF_VEC_FREE(&judged[s]);
            LF_VEC_FREE(&removed[s]);
        }
        free(judged);
        free(removed);
        /* Lock acquisition through helpers: from each function that takes a lock
         * to its callers, each function visited once. */
        i32_vec *callers = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *callers);
        for (size_t i = 0; i < m->n_calls; i++)
            if (callee_of[i] >= 0)
                LF_VEC_PUSH(&callers[callee_of[i]], m->calls[i].scope);
        i32_vec work = {0};
        for (size_t s = 0; s < m->n_scopes; s++)
            if (l->acquires[s])
                LF_VEC_PUSH(&work, (int32_t)s);
        while (work.len) {
            int32_t f = work.items[--work.len];
            for (size_t j = 0; j < callers[f].len; j++) {
                int32_t s = callers[f].items[j];
                if (!l->acquires[s]) {
                    l->acquires[s] = 1;
                    LF_VEC_PUSH(&work, s);
                }
            }
        }
        LF_VEC_FREE(&work);
        for (size_t s = 0; s < m->n_scopes; s++)
            LF_VEC_FREE(&callers[s]);
        free(callers);
        for (size_t i = 0; i < m->n_calls; i++)
            if (callee_of[i] >= 0 && l->acquires[callee_of[i]])
                add_event(l, LF_PYEV_ACQUIRE, m->calls[i].scope, m->calls[i].node, -1, 1);
        /* A call of the module's function that probes a pid (`if not
         * self._is_owner_alive():`) is a probe in the caller: the removal
         * after it follows a liveness judgement, like one after os.kill(pid, 0)
         * written inline. Transitively, each function visited once. */
        unsigned char *probes = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, 1);
        for (size_t i = 0; i < n_direct; i++)
            if (l->in->events.items[i].kind == LF_PYEV_PROBE && l->in->events.items[i].scope >= 0)
                probes[l->in->events.items[i].scope] = 1;
        for (int changed = 1, rounds = 0; changed && (size_t)rounds <= m->n_scopes; rounds++) {
            changed = 0;
            for (size_t i = 0; i < m->n_calls; i++) {
                int32_t f = callee_of[i], s = m->calls[i].scope;
                if (f >= 0 && s >= 0 && f != s && probes[f] && !probes[s]) {
                    probes[s] = 1;
                    changed = 1;
                }
            }
        }
        for (size_t i = 0; i < m->n_calls; i++)
            if (callee_of[i] >= 0 && callee_of[i] != m->calls[i].scope && probes[callee_of[i]])
                add_event(l, LF_PYEV_PROBE, m->calls[i].scope, m->calls[i].node, -1, 1);
        free(probes);
    }
    if (l->in->events.len > 1) /* qsort(NULL, 0, ...) is undefined */
        qsort(l->in->events.items, l->in->events.len, sizeof *l->in->events.items, event_cmp);

    uint32_t *clock_at = first_clock_reads(m); /* per function, position + 1 */
    /* How each removal was judged in its function (after its last identity
     * check): a pid probe (the owner judged dead), existence/stat/age of the
     * same lock, or only its contents read (an ownership check). One pass in
     * source order: per function where its last identity check and probe were,
     * and per (function, key) its last judgement. */
    {
        size_t ns = m->n_scopes ? m->n_scopes : 1;
        uint32_t *identity_at = lf_xcalloc(ns, sizeof *identity_at); /* position + 1 */
        TSNode *probe_node = lf_xcalloc(ns, sizeof *probe_node); /* per function, its last probe so far */
        TSNode *probe_prev = lf_xcalloc(ns, sizeof *probe_prev);  /* and the one before it */
        uint32_t *stop_at = lf_xcalloc(ns, sizeof *stop_at); /* its first kill with a real signal, + 1 */
        for (size_t i = 0; i < m->n_calls; i++) {
            const lf_pycall *c = &m->calls[i];
            if (c->scope >= 0 && !stop_at[c->scope] && lf_pylock_is_terminate(m, c->node))
                stop_at[c->scope] = ts_node_start_byte(c->node) + 1;
        }
        /* a call of the module's kill helper (`_kill_process(pid)`) stops
         * the owner too, a few helpers deep */
        for (int round = 0, changed = 1; round < 4 && changed; round++) {
            changed = 0;
            for (size_t i = 0; i < m->n_calls; i++) {
                const lf_pycall *c = &m->calls[i];
                uint32_t at = ts_node_start_byte(c->node) + 1;
                if (c->scope < 0 || callee_of[i] < 0 || callee_of[i] == c->scope || !stop_at[callee_of[i]] ||
                    (stop_at[c->scope] && stop_at[c->scope] <= at))
                    continue;
                stop_at[c->scope] = at;
                changed = 1;
            }
        }
        size_t cap = 16;
        while (cap < 2 * l->in->events.len + 2)
            cap *= 2;
        struct jslot {
            int32_t scope, key;
            int used;
            uint32_t presence_at, content_at; /* position + 1 */
        } *js = lf_xcalloc(cap, sizeof *js);
        /* the exclusive creates of a key (acquisitions with a key), by event index */
        i32_vec creates = {0};
        for (size_t i = 0; i < l->in->events.len; i++)
            if (l->in->events.items[i].kind == LF_PYEV_ACQUIRE && l->in->events.items[i].key >= 0)
                LF_VEC_PUSH(&creates, (int32_t)i);
        for (size_t i = 0; i < l->in->events.len; i++) {
            lf_pylock_event *ev = &l->in->events.items[i];
            uint32_t at = ts_node_start_byte(ev->node) + 1;
            if (ev->kind == LF_PYEV_IDENTITY) {
                identity_at[ev->scope] = at;
                continue;
            }
            if (ev->kind == LF_PYEV_PROBE) {
                probe_prev[ev->scope] = probe_node[ev->scope];
                probe_node[ev->scope] = ev->node;
                continue;
            }
            if ((ev->kind != LF_PYEV_JUDGE && ev->kind != LF_PYEV_REMOVE) || ev->key < 0)
                continue;
            size_t h = (size_t)(mix((uint64_t)ev->scope, (uint64_t)ev->key) >> 7) & (cap - 1);
            while (js[h].used && !(js[h].scope == ev->scope && js[h].key == ev->key))
                h = (h + 1) & (cap - 1);
            js[h].used = 1;
            js[h].scope = ev->scope;
            js[h].key = ev->key;
            if (ev->kind == LF_PYEV_JUDGE) {
                if (ev->content)
                    js[h].content_at = at;
                /* after the function's own take, `if p.exists(): p.unlink()`
                 * is the holder's release, tidy about a file already gone */
                else if (!ev->guard_only || !own_take_before(l, ev->scope, ev->key, at))
                    js[h].presence_at = at;
                continue;
            }
            TSNode probe = probe_node[ev->scope];
            uint32_t probe_at = ts_node_is_null(probe) ? 0 : ts_node_start_byte(probe) + 1;
            /* a stop command's cleanup, before its kill (`os.remove(pidfile);
             * os.kill(pid, SIGTERM)`) as after it: the holder is being stopped */
            ev->after_stop = stop_at[ev->scope] != 0;
            if (ev->via_helper && !ev->after_stop) { /* a call of the stop command itself */
                const lf_pycall *hc = lf_pysem_call(m, ev->node);
                int32_t f = hc ? callee_of[hc - m->calls] : -1;
                ev->after_stop = f >= 0 && stop_at[f] != 0;
            }
            uint32_t since = identity_at[ev->scope];
            uint32_t own = own_take_before(l, ev->scope, ev->key, at);
            if (own > since)
                since = own;
            /* Removed through a helper that probes the pid before removing it. */
            int helper_probe = ev->param >= 0 && (l->in->keys.items[ev->param].flags & LF_LOCK_STALE_REMOVAL);
            /* the latest judgement before the removal decides: an age looked
             * at after the owner was found alive breaks a live holder */
            if ((probe_at > since && probe_at >= js[h].presence_at) || helper_probe) {
                ev->judged = LF_JUDGED_LIVENESS;
                ev->judged_at = probe_at;
            } else if (js[h].presence_at > since && !release_path(l, unlock_at, callee_of, ev, at)) {
                ev->judged = LF_JUDGED_PRESENCE;
                ev->judged_at = js[h].presence_at;
            }
            else if (!release_path(l, unlock_at, callee_of, ev, at) &&
                     !ts_node_is_null(ev->failed_create = failed_create_of(l, &creates, ev)))
                ev->judged = LF_JUDGED_PRESENCE;
            /* its record read in a function that reads the clock before the
             * removal (`now = time.time()` ... `now - record["at"] > ttl`):
             * an age taken from the record, a staleness judgement */
            else if (js[h].content_at > since && !release_path(l, unlock_at, callee_of, ev, at) &&
                     clock_at[ev->scope] && clock_at[ev->scope] < at)
                ev->judged = LF_JUDGED_PRESENCE;
            else if (js[h].content_at > since)
                ev->judged = LF_JUDGED_CONTENT;
            lf_pylock_key *k = &l->in->keys.items[ev->key];
            if (ev->judged == LF_JUDGED_LIVENESS && k->key.kind == LF_PKEY_BIND)
                k->flags |= LF_LOCK_STALE_REMOVAL;
            /* its record read, the pid in it probed, the file removed when
             * the owner is gone: a pid lock by its protocol, whoever writes
             * it (`pid = read_pid_file(p)` ... `os.kill(pid, 0)` ... `p.unlink()`) */
            TSNode record = {0};
            if (ev->judged == LF_JUDGED_LIVENESS && !(k->flags & LF_LOCK_USES) && !(k->flags & LF_LOCK_PKG) &&
                (!ts_node_is_null(record = probed_record(l, probe, ev->scope, ev->key, since)) ||
                 /* a later probe of something else (a helper handed the path
                  * that checks the start time) leaves the pid's own probe */
                 !ts_node_is_null(record = probed_record(l, probe_prev[ev->scope], ev->scope, ev->key, since))))
                key_mark(l, ev->key, LF_LOCK_PID | LF_LOCK_PID_READ, record);
            if (!lf_pylock_is_lock(k->flags) || identity_at[ev->scope])
                continue;
            /* the holder's own release, whatever it looked at first */
            if (!ev->via_helper && lf_pylock_owner_checked(m, ev->node)) {
                ev->owner_checked = 1;
                continue;
            }
            /* a stop command's cleanup breaks no live holder's lock */
            if (ev->after_stop)
                continue;
            if ((ev->judged == LF_JUDGED_LIVENESS || ev->judged == LF_JUDGED_PRESENCE) &&
                !(k->flags & LF_LOCK_BROKEN)) {
                k->flags |= LF_LOCK_BROKEN;
                k->broken_at = ev->node;
            }
            /* a helper's removal that is itself the break is no release */
            if (ev->judged == LF_JUDGED_LIVENESS && !ev->via_helper)
                k->flags |= LF_LOCK_BROKEN_RACING;
            if (ev->judged == LF_JUDGED_PRESENCE && !(k->flags & LF_LOCK_BROKEN_LIVE)) {
                /* the break that can hit a live holder is the one to name */
                k->flags |= LF_LOCK_BROKEN_LIVE;
                k->broken_at = ev->node;
            }
        }
        /* A break through a helper that is also the holder's release
         * (`if self._stale(): self.release()` in acquire, `self.release()` in
         * __exit__): two breakers that judged the same dead owner race, and
         * the loser's later release through that helper deletes the winner's
         * lock. A helper called only to break is no release. */
        for (size_t i = 0; i < l->in->events.len; i++) {
            const lf_pylock_event *ev = &l->in->events.items[i];
            if (ev->kind != LF_PYEV_REMOVE || !ev->via_helper || ev->judged != LF_JUDGED_LIVENESS || ev->key < 0 ||
                ev->after_stop || (l->in->keys.items[ev->key].flags & LF_LOCK_BROKEN_RACING))
                continue;
            const lf_pycall *hc = lf_pysem_call(m, ev->node);
            int32_t f = hc ? callee_of[hc - m->calls] : -1;
            for (size_t j = 0; f >= 0 && j < l->in->events.len; j++) {
                const lf_pylock_event *o = &l->in->events.items[j];
                const lf_pycall *oc = o->kind == LF_PYEV_REMOVE && o->via_helper && o->key == ev->key &&
                                              o->judged == LF_JUDGED_NONE && !o->after_stop
                                          ? lf_pysem_call(m, o->node)
                                          : NULL;
                if (oc && callee_of[oc - m->calls] == f) {
                    l->in->keys.items[ev->key].flags |= LF_LOCK_BROKEN_RACING;
                    break;
                }
            }
        }
        /* A release helper handed a lock that another helper breaks
         * (`acquire_lock(p)` breaks p on age, `release_lock(p)` only unlinks
         * it): the caller takes the lock through one and gives it back
         * through the other, so the release helper's parameter is that
         * broken lock, and its plain unlink is the release by name that a
         * holder paused past the break runs on its successor's lock. */
        /* per scope: its own break of its parameter on existence or age;
         * and the plain removals of a parameter, the candidate releases */
        TSNode *breaker = lf_xcalloc(ns, sizeof *breaker);
        LF_VEC(size_t) plain = {0};
        for (size_t i = 0; i < l->in->events.len; i++) {
            const lf_pylock_event *r = &l->in->events.items[i];
            if (r->kind != LF_PYEV_REMOVE || r->via_helper || r->key < 0 || r->scope < 0 || r->after_stop)
                continue;
            unsigned rf = l->in->keys.items[r->key].flags;
            if (r->judged == LF_JUDGED_PRESENCE && (rf & LF_LOCK_BROKEN_LIVE) && ts_node_is_null(breaker[r->scope]))
                breaker[r->scope] = r->node;
            if (r->judged == LF_JUDGED_NONE && (rf & LF_LOCK_ARG) && !(rf & LF_LOCK_PKG))
                LF_VEC_PUSH(&plain, i);
        }
        for (size_t i = 0; plain.len && i < l->in->events.len; i++) {
            const lf_pylock_event *rel = &l->in->events.items[i];
            if (rel->kind != LF_PYEV_REMOVE || !rel->via_helper || rel->key < 0 || rel->after_stop)
                continue;
            const lf_pycall *rc = lf_pysem_call(m, rel->node);
            int32_t f = rc ? callee_of[rc - m->calls] : -1;
            TSNode broken = f >= 0 ? helper_break_before(l, callee_of, breaker, i) : (TSNode){0};
            for (size_t j = 0; !ts_node_is_null(broken) && j < plain.len; j++) {
                const lf_pylock_event *o = &l->in->events.items[plain.items[j]];
                lf_pylock_key *pk = &l->in->keys.items[o->key];
                if (o->scope != f || (pk->flags & LF_LOCK_BROKEN_LIVE))
                    continue;
                pk->flags |= LF_LOCK_BROKEN | LF_LOCK_BROKEN_LIVE;
                pk->broken_at = broken;
            }
        }
        free(breaker);
        LF_VEC_FREE(&plain);
        /* A sweep that breaks the locks it walks (`for f in D.glob("slot-*.lock"):
         * if <old>: f.unlink()`) breaks the lock it walks: that lock's
         * holder, paused past the sweep's judgement, releases its successor's. */
        for (size_t i = 0; i < l->in->scans.len; i++) {
            const lf_pylock_key *sk = &l->in->keys.items[l->in->scans.items[i].scan];
            lf_pylock_key *lk = &l->in->keys.items[l->in->scans.items[i].lock];
            unsigned up = sk->flags & (LF_LOCK_BROKEN | LF_LOCK_BROKEN_LIVE | LF_LOCK_BROKEN_RACING) & ~lk->flags;
            if (!up)
                continue;
            if ((up & LF_LOCK_BROKEN_LIVE) || ts_node_is_null(lk->broken_at))
                lk->broken_at = sk->broken_at;
            lk->flags |= up;
        }
        free(js);
        LF_VEC_FREE(&creates);
        free(identity_at);
        free(probe_node);
        free(probe_prev);
        free(stop_at);
    }
    mark_overwrite_takeovers(l, clock_at);
    mark_sibling_releases(l);
    mark_inode_verified(l, callee_of);
    free(clock_at);
    l->keys = l->in->keys.items;
    l->n_keys = l->in->keys.len;
    l->events = l->in->events.items;
    l->n_events = l->in->events.len;
    free(all_params);
    free(param_start);
    free(callee_of);
    free(unlock_at);
    return l;
}

/* Built once per file and kept by the model: LF103, LF104, LF301, LF302,
 * LF303 and LF401 all ask, and each build walks the whole tree and asks every
 * call what it does (40% of a scan's CPU when each check built its own). */
lf_pylock *lf_pylock_build(lf_pysem *m) {
    if (!m->lock) {
        m->lock = build(m);
        m->lock_free = lf_pylock_free;
    }
    return m->lock;
}

void lf_pylock_free(lf_pylock *l) {
    if (!l)
        return;
    for (size_t i = 0; i < l->in->key_edges.len; i++)
        LF_VEC_FREE(&l->in->key_edges.items[i]);
    LF_VEC_FREE(&l->in->key_edges);
    LF_VEC_FREE(&l->in->keys);
    LF_VEC_FREE(&l->in->events);
    LF_VEC_FREE(&l->in->edges);
    LF_VEC_FREE(&l->in->fields);
    LF_VEC_FREE(&l->in->scans);
    LF_VEC_FREE(&l->in->made);
    LF_VEC_FREE(&l->in->touched);
    free(l->in->table);
    free(l->in->methods);
    free(l->in->calls_at);
    free(l->in->staticmethod);
    free(l->in->calls_by);
    LF_VEC_FREE(&l->in->writers.calls);
    LF_VEC_FREE(&l->in->dirs_made.calls);
    free(l->in);
    free(l->acquires);
    free(l);
}

/* Is the method scope's first parameter spelled `self_name`? */
static int first_param_is(lf_pysem *m, int32_t scope, const char *self_name) {
    if (scope < 0 || m->scopes[scope].kind != LF_PYSCOPE_FUNCTION)
        return 0;
    TSNode params = lf_tree_field(m->scopes[scope].node, "parameters");
    TSNode first = ts_node_named_child_count(params) ? ts_node_named_child(params, 0) : (TSNode){0};
    if (lf_tree_is(first, "typed_parameter"))
        first = ts_node_named_child(first, 0);
    return lf_tree_is(first, "identifier") && lf_tree_text_eq(m->src, first, self_name);
}

/* Does one name or field, read at `from`, name the same object when written
 * again at `at`: a name bound the same at both (no assignment in between),
 * or `self.x` in two methods of one class that assigns x once (`once`; in
 * __init__, say)? */
static int leaf_nameable_at(lf_pylock *l, TSNode expr, TSNode from, TSNode at, int once) {
    lf_pysem *m = l->m;
    if (lf_tree_is(expr, "identifier")) {
        const char *name = lf_pysem_intern(m, m->src->text + ts_node_start_byte(expr),
                                           ts_node_end_byte(expr) - ts_node_start_byte(expr));
        const lf_pybinding *a = lf_pysem_binding_at(m, lf_pysem_scope_of(m, from), name, ts_node_start_byte(from));
        const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, at), name, ts_node_start_byte(at));
        return a && a == b;
    }
    size_t writes = 0;
    int32_t cls = lf_pylock_self_field(l, expr, &writes);
    if (cls < 0 || (once && writes != 1))
        return 0;
    int32_t s_from = lf_pysem_scope_of(m, from), s_at = lf_pysem_scope_of(m, at);
    if (s_from < 0 || s_at < 0 || m->scopes[s_from].cls < 0 || m->scopes[s_from].cls != m->scopes[s_at].cls)
        return 0;
    TSNode self = lf_tree_unparen(lf_tree_field(expr, "object"));
    char *self_name = lf_tree_text(m->src, self);
    int ok = first_param_is(m, s_at, self_name);
    free(self_name);
    return ok;
}

/* Does `expr` name the same value at `at` as at `from`: names and fields as
 * leaf_nameable_at, string literals, and pure functions of them (str(P),
 * os.fspath(P), os.path.join(D, "x.lock"), D / "x.lock", D + ".lock")? */
int lf_pylock_nameable_at(lf_pylock *l, TSNode expr, TSNode from, TSNode at, int once) {
    lf_pysem *m = l->m;
    static const char *const pure[] = {"str", "os.fspath", "os.path.join", "os.path.abspath", "pathlib.Path", NULL};
    LF_VEC(TSNode) todo = {0};
    LF_VEC_PUSH(&todo, expr);
    int ok = 1;
    for (size_t budget = 64; ok && todo.len; budget--) {
        TSNode n = lf_tree_unparen(todo.items[--todo.len]);
        if (!budget) {
            ok = 0;
        } else if (lf_tree_is(n, "call")) {
            ok = lf_pylock_callee_any(m, n, pure) && lf_pylock_plain_args(n);
            TSNode args = lf_tree_field(n, "arguments");
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(args); i++)
                if (!lf_tree_is(ts_node_named_child(args, i), "comment"))
                    LF_VEC_PUSH(&todo, ts_node_named_child(args, i));
        } else if (lf_tree_is(n, "binary_operator")) {
            LF_VEC_PUSH(&todo, lf_tree_field(n, "left"));
            LF_VEC_PUSH(&todo, lf_tree_field(n, "right"));
        } else if (lf_tree_is(n, "string")) {
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(n); i++)
                ok = !lf_tree_is(ts_node_named_child(n, i), "interpolation"); /* an f-string reads names */
        } else {
            ok = leaf_nameable_at(l, n, from, at, once);
        }
    }
    LF_VEC_FREE(&todo);
    return ok;
}

/* Would `lockrt.x` at the call name the module-level import of the binding
 * (there, or the one the fix adds)? */
int lf_pylock_lockrt_free_at(lf_pysem *m, TSNode call) {
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, call), "lockrt", ts_node_start_byte(call));
    if (!b) {
        size_t n;
        lf_pysem_bindings_of(m, 0, "lockrt", &n);
        return n == 0; /* a module-level `lockrt` bound later would shadow the import the fix adds */
    }
    return b->kind == LF_PYBIND_IMPORT && b->scope == 0 && b->qualname && strlen(b->qualname) >= 6 &&
           !strcmp(b->qualname + strlen(b->qualname) - 6, "lockrt");
}
