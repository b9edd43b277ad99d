/* Name resolution over the Python semantic model: which binding a use sees,
 * qualified names, value types, and what a condition says about an optional
 * module. Every loop here is bounded by the model's size: alias chains are
 * followed at most once per binding, attribute chains are walked down with a
 * loop, never by recursion. */
#include "lf_pysem_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"

/* Names Python finds in builtins when nothing else binds them (those rules use). */
static const char *const k_builtins[] = {
    "open", "print", "len", "str", "int", "bool", "float", "repr", "isinstance", "hasattr", "getattr", "setattr",
    "dict", "list", "set", "tuple", "bytes", "range", "sorted", "min", "max", "sum", "any", "all", "iter", "next",
    "type", "object", "super", "__import__", "Exception", "BaseException", "OSError", "IOError", "EnvironmentError",
    "FileExistsError", "FileNotFoundError", "PermissionError", "ProcessLookupError", "BlockingIOError",
    "ChildProcessError", "InterruptedError", "IsADirectoryError", "NotADirectoryError", "TimeoutError",
    "ImportError", "ModuleNotFoundError", "AttributeError", "TypeError", "ValueError", "KeyError", "RuntimeError",
    "NotImplementedError", "StopIteration", "KeyboardInterrupt", "SystemExit", "UnicodeDecodeError", "NameError",
    "id", "hash", "format", "vars", "dir", "callable", "enumerate", "zip", "map", "filter", "reversed", "abs",
    "round", "divmod", "pow", "chr", "ord", "hex", "oct", "bin", "input", "exit", "quit", NULL};

static int is_builtin(const char *name) {
    for (size_t i = 0; k_builtins[i]; i++)
        if (strcmp(k_builtins[i], name) == 0)
            return 1;
    return 0;
}

/* ---- scopes ---- */

static int is_global_decl(const lf_pysem *m, const lf_pybinding *b) {
    return b->kind == LF_PYBIND_GLOBAL && b->stmt >= 0 && lf_tree_is(m->stmts[b->stmt].node, "global_statement");
}

const lf_pyname_slot *lf_pysem_resolve_slot(const lf_pysem *m, int32_t scope, const char *name) {
    int32_t s = scope;
    while (s >= 0) {
        const lf_pyscope *sc = &m->scopes[s];
        /* A class body is not an enclosing scope for the functions inside it. */
        int visible = !(sc->kind == LF_PYSCOPE_CLASS && s != scope);
        const lf_pyname_slot *slot = visible ? lf_pysem_slot(m, s, name) : NULL;
        if (slot) {
            int global = 0, nonlocal = 0, real = 0;
            for (size_t i = 0; i < slot->bindings.len; i++) {
                const lf_pybinding *b = &m->bindings[slot->bindings.items[i]];
                if (b->kind == LF_PYBIND_GLOBAL && is_global_decl(m, b))
                    global = 1;
                else if (b->kind == LF_PYBIND_GLOBAL)
                    nonlocal = 1;
                else
                    real = 1;
            }
            if (global)
                return lf_pysem_slot(m, 0, name);
            if (!nonlocal && real)
                return slot;
        }
        s = sc->parent;
    }
    return NULL;
}

const lf_pybinding *const *lf_pysem_bindings_of(lf_pysem *m, int32_t scope, const char *name, size_t *n_out) {
    const char *iname = lf_pysem_intern(m, name, strlen(name));
    const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, scope, iname);
    m->in->scratch.len = 0;
    for (size_t i = 0; slot && i < slot->bindings.len; i++) {
        const lf_pybinding *b = &m->bindings[slot->bindings.items[i]];
        if (b->kind != LF_PYBIND_GLOBAL)
            LF_VEC_PUSH(&m->in->scratch, b);
    }
    *n_out = m->in->scratch.len;
    return m->in->scratch.items;
}

/* The import an optional module's name stands for, when every binding of the
 * slot is that import or its fallback. */
static const lf_pybinding *optional_import(const lf_pysem *m, const lf_pyname_slot *slot) {
    if (slot->scope != 0)
        return NULL;
    for (size_t i = 0; i < m->n_optionals; i++)
        if (m->optionals[i].name == slot->name)
            return m->optionals[i].import;
    return NULL;
}

/* A name whose every binding imports the same module (`import os` written
 * twice, as long files accrete) stands for that module wherever it is read:
 * Python caches modules, so each import statement binds the same object. */
static int same_import_everywhere(const lf_pybinding *b, const lf_pybinding *first) {
    return b->kind == LF_PYBIND_IMPORT && first->kind == LF_PYBIND_IMPORT && b->qualname && first->qualname &&
           strcmp(b->qualname, first->qualname) == 0;
}

/* Is `at` inside the value a binding is made from (`fh = f(fh)`, `for x in g(x)`)?
 * That value is evaluated before the name is bound, so a use there sees the
 * binding before. */
static int inside_own_value(const lf_pybinding *b, uint32_t at) {
    if (ts_node_is_null(b->value) || (b->kind != LF_PYBIND_ASSIGN && b->kind != LF_PYBIND_AUGASSIGN &&
                                      b->kind != LF_PYBIND_WALRUS && b->kind != LF_PYBIND_FOR &&
                                      b->kind != LF_PYBIND_WITH))
        return 0;
    return at >= ts_node_start_byte(b->value) && at < ts_node_end_byte(b->value);
}

static const lf_pybinding *binding_in_slot(const lf_pysem *m, const lf_pyname_slot *slot, int32_t scope, uint32_t at) {
    const lf_pybinding *last = NULL, *only = NULL, *first = NULL;
    size_t n_real = 0;
    int one_module = 1;
    for (size_t i = 0; i < slot->bindings.len; i++) {
        const lf_pybinding *b = &m->bindings[slot->bindings.items[i]];
        if (b->kind == LF_PYBIND_GLOBAL)
            continue;
        n_real++;
        only = b;
        if (!first)
            first = b;
        else if (!same_import_everywhere(b, first))
            one_module = 0;
        if (ts_node_start_byte(b->target) < at && !inside_own_value(b, at))
            last = b;
    }
    if (slot->scope == scope && last)
        return last;
    if (n_real == 1 || (n_real > 1 && one_module))
        return only;
    return optional_import(m, slot);
}

const lf_pybinding *lf_pysem_binding_at(lf_pysem *m, int32_t scope, const char *name, uint32_t at) {
    const char *iname = lf_pysem_intern(m, name, strlen(name));
    const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, scope, iname);
    return slot ? binding_in_slot(m, slot, scope, at) : NULL;
}

static const lf_pybinding *binding_of_use(lf_pysem *m, TSNode ident) {
    const char *name = lf_pysem_intern_node(m, ident);
    int32_t scope = lf_pysem_scope_of(m, ident);
    const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, scope, name);
    return slot ? binding_in_slot(m, slot, scope, ts_node_start_byte(ident)) : NULL;
}

/* ---- qualified names ---- */

static const char *join_chain(lf_pysem *m, const char *base, const char *const *attrs, size_t n) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_puts(&sb, base);
    for (size_t i = n; i-- > 0;) {
        lf_strbuf_putc(&sb, '.');
        lf_strbuf_puts(&sb, attrs[i]);
    }
    const char *r = lf_pysem_intern(m, sb.data, sb.len);
    lf_strbuf_free(&sb);
    return r;
}

typedef LF_VEC(const char *) attr_vec;

/* `importlib.import_module("x")` / `__import__("x")`: "x". */
static const char *import_call_module(lf_pysem *m, TSNode call);
static const char *module_qualname(lf_pysem *m, TSNode expr);

/* Qualified name through imports and aliases only (no value types): walk an
 * attribute chain down to its base name, resolve the base, and follow plain
 * aliases (`osp = os.path`) with the pending attributes kept. When the chain
 * ends at a call, returns NULL with *stopped set to that call and *pending to
 * the attributes still to append (innermost last): module_qualname resolves
 * `importlib.import_module("x")` there. Names only, so neither this nor
 * import_call_module ever recurses. */
static const char *qualname_names(lf_pysem *m, TSNode expr, TSNode *stopped, attr_vec *pending) {
    attr_vec attrs = {0};
    const char *result = NULL;
    *stopped = (TSNode){0};
    size_t hops = 0;
    lf_pycycle cyc = LF_PYCYCLE_INIT;
    TSNode e = lf_tree_unparen(expr);
    while (hops++ <= m->n_bindings + 1) {
        while (lf_tree_is(e, "attribute")) {
            TSNode a = lf_tree_field(e, "attribute");
            if (!lf_tree_is(a, "identifier"))
                goto out;
            const char *an = lf_pysem_intern_node(m, a);
            LF_VEC_PUSH(&attrs, an);
            e = lf_tree_unparen(lf_tree_field(e, "object"));
        }
        if (lf_tree_is(e, "call")) {
            *stopped = e;
            *pending = attrs;
            return NULL;
        }
        if (!lf_tree_is(e, "identifier"))
            goto out;
        const char *name = lf_pysem_intern_node(m, e);
        int32_t scope = lf_pysem_scope_of(m, e);
        const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, scope, name);
        if (!slot) {
            if (is_builtin(name))
                result = join_chain(m, name, attrs.items, attrs.len);
            goto out;
        }
        const lf_pybinding *b = binding_in_slot(m, slot, scope, ts_node_start_byte(e));
        if (!b)
            goto out;
        if (b->kind == LF_PYBIND_IMPORT) {
            result = join_chain(m, b->qualname, attrs.items, attrs.len);
            goto out;
        }
        if ((b->kind == LF_PYBIND_ASSIGN || b->kind == LF_PYBIND_WALRUS) && !ts_node_is_null(b->value)) {
            TSNode v = lf_tree_unparen(b->value);
            if (lf_tree_is(v, "identifier") || lf_tree_is(v, "attribute") || lf_tree_is(v, "call")) {
                if (ts_node_eq(v, e) || lf_pycycle_seen(&cyc, b))
                    goto out;
                e = v;
                continue;
            }
        }
        goto out;
    }
out:
    LF_VEC_FREE(&attrs);
    return result;
}

static const char *module_qualname(lf_pysem *m, TSNode expr) {
    TSNode call;
    attr_vec attrs = {0};
    const char *q = qualname_names(m, expr, &call, &attrs);
    if (!q && !ts_node_is_null(call)) {
        const char *mod = import_call_module(m, call);
        if (mod)
            q = join_chain(m, mod, attrs.items, attrs.len);
    }
    LF_VEC_FREE(&attrs);
    return q;
}

const char *lf_pysem_import_call_module(lf_pysem *m, TSNode call) { return import_call_module(m, call); }

static const char *import_call_module(lf_pysem *m, TSNode call) {
    TSNode fn = lf_tree_field(call, "function");
    /* Resolve the callee through names only (no further calls), so alias chains
     * through calls never recurse. */
    if (!lf_tree_is(fn, "identifier") && !lf_tree_is(fn, "attribute"))
        return NULL;
    TSNode stopped;
    attr_vec pending = {0};
    const char *q = qualname_names(m, fn, &stopped, &pending);
    LF_VEC_FREE(&pending);
    if (!q || (strcmp(q, "importlib.import_module") != 0 && strcmp(q, "__import__") != 0))
        return NULL;
    TSNode args = lf_tree_field(call, "arguments");
    TSNode a = lf_tree_child(args, 0);
    if (!lf_tree_is(a, "string") || lf_tree_child_count(args) != 1)
        return NULL;
    TSNode content = (TSNode){0};
    for (uint32_t i = 0; i < ts_node_named_child_count(a); i++) {
        TSNode c = ts_node_named_child(a, i);
        if (lf_tree_is(c, "interpolation"))
            return NULL;
        if (lf_tree_is(c, "string_content"))
            content = c;
    }
    return ts_node_is_null(content) ? NULL : lf_pysem_intern_node(m, content);
}

static const char *type_name(lf_pytype t) {
    switch (t) {
    case LF_PYTYPE_PATH:
        return "pathlib.Path";
    case LF_PYTYPE_FILE:
        return "io.IOBase";
    case LF_PYTYPE_STR:
        return "str";
    default:
        return NULL;
    }
}

const char *lf_pysem_qualname(lf_pysem *m, TSNode expr) {
    expr = lf_tree_unparen(expr);
    const char *q = module_qualname(m, expr);
    if (q || !lf_tree_is(expr, "attribute"))
        return q;
    TSNode attr = lf_tree_field(expr, "attribute");
    const char *tn = type_name(lf_pysem_type_of(m, lf_tree_field(expr, "object")));
    if (!tn || !lf_tree_is(attr, "identifier"))
        return NULL;
    const char *an = lf_pysem_intern_node(m, attr);
    return join_chain(m, tn, &an, 1);
}

const char *lf_pysem_callee(lf_pysem *m, TSNode call) {
    /* a node with a call record is a call: the type is asked only without one */
    const lf_pycall *rec = lf_pysem_call(m, call);
    if (!rec && !lf_tree_is(call, "call"))
        return NULL;
    if (rec && (rec->callee || rec->callee_final))
        return rec->callee;
    return lf_pysem_qualname(m, lf_tree_field(call, "function"));
}

const char *const *lf_pysem_callee_names(lf_pysem *m, TSNode call, const char **callee, size_t *n_out) {
    *callee = NULL;
    *n_out = 0;
    lf_pycall *rec = (lf_pycall *)lf_pysem_call(m, call);
    if (!rec && !lf_tree_is(call, "call"))
        return NULL;
    *callee = rec && (rec->callee || rec->callee_final) ? rec->callee
                                                        : lf_pysem_qualname(m, lf_tree_field(call, "function"));
    if (rec && rec->imports_at) {
        /* no pointer arithmetic on an empty list: its items may be NULL */
        *n_out = rec->n_imports;
        return rec->n_imports ? m->in->call_imports.items + rec->imports_at - 1 : NULL;
    }
    m->in->import_scratch.len = 0;
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "identifier")) {
        const char *name =
            lf_pysem_intern(m, m->src->text + ts_node_start_byte(fn), ts_node_end_byte(fn) - ts_node_start_byte(fn));
        size_t n = 0;
        const lf_pybinding *const *bs = lf_pysem_bindings_of(m, lf_pysem_scope_of(m, fn), name, &n);
        for (size_t i = 0; i < n; i++)
            if (bs[i]->kind == LF_PYBIND_IMPORT && bs[i]->qualname)
                LF_VEC_PUSH(&m->in->import_scratch, bs[i]->qualname);
    }
    if (!rec) {
        *n_out = m->in->import_scratch.len;
        return m->in->import_scratch.items;
    }
    rec->imports_at = (int32_t)m->in->call_imports.len + 1;
    rec->n_imports = (uint32_t)m->in->import_scratch.len;
    for (size_t i = 0; i < m->in->import_scratch.len; i++)
        LF_VEC_PUSH(&m->in->call_imports, m->in->import_scratch.items[i]);
    *n_out = rec->n_imports;
    return rec->n_imports ? m->in->call_imports.items + rec->imports_at - 1 : NULL;
}

int lf_pysem_call_is(lf_pysem *m, TSNode call, const char *const *qualnames) {
    const char *q = lf_pysem_callee(m, call);
    if (!q)
        return 0;
    for (size_t i = 0; qualnames[i]; i++)
        if (strcmp(q, qualnames[i]) == 0)
            return 1;
    return 0;
}

/* ---- value types ---- */

typedef struct call_type {
    const char *qualname;
    lf_pytype type;
} call_type;

static const call_type k_call_types[] = {
    {"pathlib.Path", LF_PYTYPE_PATH},
    {"pathlib.PurePath", LF_PYTYPE_PATH},
    {"pathlib.PosixPath", LF_PYTYPE_PATH},
    {"pathlib.WindowsPath", LF_PYTYPE_PATH},
    {"pathlib.PurePosixPath", LF_PYTYPE_PATH},
    {"pathlib.PureWindowsPath", LF_PYTYPE_PATH},
    {"pathlib.Path.home", LF_PYTYPE_PATH},
    {"pathlib.Path.cwd", LF_PYTYPE_PATH},
    {"open", LF_PYTYPE_FILE},
    {"io.open", LF_PYTYPE_FILE},
    {"os.fdopen", LF_PYTYPE_FILE},
    {"codecs.open", LF_PYTYPE_FILE},
    {"tempfile.NamedTemporaryFile", LF_PYTYPE_FILE},
    {"tempfile.TemporaryFile", LF_PYTYPE_FILE},
    {"os.open", LF_PYTYPE_FD},
    {"os.dup", LF_PYTYPE_FD},
    {"str", LF_PYTYPE_STR},
    {"os.fspath", LF_PYTYPE_STR},
    {"os.path.join", LF_PYTYPE_STR},
    {"os.path.dirname", LF_PYTYPE_STR},
    {"os.path.basename", LF_PYTYPE_STR},
    {"os.path.realpath", LF_PYTYPE_STR},
    {"os.path.abspath", LF_PYTYPE_STR},
    {"os.path.normpath", LF_PYTYPE_STR},
    {"os.path.expanduser", LF_PYTYPE_STR},
    {"os.path.expandvars", LF_PYTYPE_STR},
    {"os.path.relpath", LF_PYTYPE_STR},
    {"os.getcwd", LF_PYTYPE_STR},
    {"tempfile.gettempdir", LF_PYTYPE_STR},
    {"tempfile.mktemp", LF_PYTYPE_STR},
    {"format", LF_PYTYPE_STR},
    {"repr", LF_PYTYPE_STR},
    {"int", LF_PYTYPE_INT},
    {"len", LF_PYTYPE_INT},
    {"os.getpid", LF_PYTYPE_INT},
    {"bool", LF_PYTYPE_BOOL},
    {"isinstance", LF_PYTYPE_BOOL},
    {"os.path.exists", LF_PYTYPE_BOOL},
    {"os.path.isfile", LF_PYTYPE_BOOL},
    {"os.path.isdir", LF_PYTYPE_BOOL},
    {"os.path.islink", LF_PYTYPE_BOOL},
    {"os.path.lexists", LF_PYTYPE_BOOL},
    {NULL, LF_PYTYPE_UNKNOWN},
};

/* What a method or attribute of a typed value gives. */
typedef struct member_type {
    lf_pytype receiver;
    const char *member;
    int is_call; /* 1: method call, 0: attribute */
    lf_pytype type;
} member_type;

static const member_type k_member_types[] = {
    {LF_PYTYPE_PATH, "with_suffix", 1, LF_PYTYPE_PATH}, {LF_PYTYPE_PATH, "with_name", 1, LF_PYTYPE_PATH},
    {LF_PYTYPE_PATH, "with_stem", 1, LF_PYTYPE_PATH},   {LF_PYTYPE_PATH, "joinpath", 1, LF_PYTYPE_PATH},
    {LF_PYTYPE_PATH, "resolve", 1, LF_PYTYPE_PATH},     {LF_PYTYPE_PATH, "absolute", 1, LF_PYTYPE_PATH},
    {LF_PYTYPE_PATH, "expanduser", 1, LF_PYTYPE_PATH},  {LF_PYTYPE_PATH, "relative_to", 1, LF_PYTYPE_PATH},
    {LF_PYTYPE_PATH, "readlink", 1, LF_PYTYPE_PATH},    {LF_PYTYPE_PATH, "open", 1, LF_PYTYPE_FILE},
    {LF_PYTYPE_PATH, "read_text", 1, LF_PYTYPE_STR},    {LF_PYTYPE_PATH, "as_posix", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_PATH, "exists", 1, LF_PYTYPE_BOOL},      {LF_PYTYPE_PATH, "is_file", 1, LF_PYTYPE_BOOL},
    {LF_PYTYPE_PATH, "is_symlink", 1, LF_PYTYPE_BOOL},  {LF_PYTYPE_PATH, "parent", 0, LF_PYTYPE_PATH},
    {LF_PYTYPE_PATH, "name", 0, LF_PYTYPE_STR},         {LF_PYTYPE_PATH, "stem", 0, LF_PYTYPE_STR},
    {LF_PYTYPE_PATH, "suffix", 0, LF_PYTYPE_STR},       {LF_PYTYPE_STR, "format", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_STR, "replace", 1, LF_PYTYPE_STR},       {LF_PYTYPE_STR, "strip", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_STR, "rstrip", 1, LF_PYTYPE_STR},        {LF_PYTYPE_STR, "lstrip", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_STR, "lower", 1, LF_PYTYPE_STR},         {LF_PYTYPE_STR, "upper", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_STR, "join", 1, LF_PYTYPE_STR},          {LF_PYTYPE_FILE, "read", 1, LF_PYTYPE_STR},
    {LF_PYTYPE_FILE, "fileno", 1, LF_PYTYPE_FD},        {LF_PYTYPE_FILE, "name", 0, LF_PYTYPE_STR},
    {LF_PYTYPE_UNKNOWN, NULL, 0, LF_PYTYPE_UNKNOWN},
};

typedef enum xform_kind { XF_MEMBER, XF_PLUS, XF_MOD, XF_DIV } xform_kind;

typedef struct xform {
    xform_kind kind;
    const char *member;
    int is_call;
    lf_pycall *call; /* the call this step's result is the value of, to cache it */
} xform;

static lf_pytype apply_xform(lf_pytype t, const xform *x) {
    switch (x->kind) {
    case XF_PLUS:
    case XF_MOD:
        return t == LF_PYTYPE_STR ? LF_PYTYPE_STR : LF_PYTYPE_UNKNOWN;
    case XF_DIV:
        return t == LF_PYTYPE_PATH ? LF_PYTYPE_PATH : LF_PYTYPE_UNKNOWN;
    case XF_MEMBER:
        for (size_t i = 0; k_member_types[i].member; i++)
            if (k_member_types[i].receiver == t && k_member_types[i].is_call == x->is_call &&
                strcmp(k_member_types[i].member, x->member) == 0)
                return k_member_types[i].type;
        return LF_PYTYPE_UNKNOWN;
    }
    return LF_PYTYPE_UNKNOWN;
}

static lf_pytype annotation_type(lf_pysem *m, TSNode ann) {
    TSNode t = lf_tree_is(ann, "type") ? lf_tree_child(ann, 0) : ann;
    if (lf_tree_is(t, "identifier") || lf_tree_is(t, "attribute")) {
        const char *q = module_qualname(m, t);
        if (q && strncmp(q, "pathlib.", 8) == 0)
            return LF_PYTYPE_PATH;
        if (q && strcmp(q, "str") == 0)
            return LF_PYTYPE_STR;
        if (q && strcmp(q, "int") == 0)
            return LF_PYTYPE_INT;
    }
    return LF_PYTYPE_UNKNOWN;
}

static int is_string_literal(TSNode n) { return lf_tree_is(n, "string") || lf_tree_is(n, "concatenated_string"); }

lf_pytype lf_pysem_type_of(lf_pysem *m, TSNode expr) {
    LF_VEC(xform) xs = {0};
    lf_pytype t = LF_PYTYPE_UNKNOWN;
    size_t hops = 0; /* alias hops: each binding followed at most once */
    lf_pycycle cyc = LF_PYCYCLE_INIT;
    TSNode e = expr;
    while (!ts_node_is_null(e)) {
        e = lf_tree_unparen(e);
        const char *k = ts_node_type(e);
        if (is_string_literal(e)) {
            t = LF_PYTYPE_STR;
            break;
        }
        if (!strcmp(k, "none")) {
            t = LF_PYTYPE_NONE;
            break;
        }
        if (!strcmp(k, "true") || !strcmp(k, "false")) {
            t = LF_PYTYPE_BOOL;
            break;
        }
        if (!strcmp(k, "integer")) {
            t = LF_PYTYPE_INT;
            break;
        }
        if (!strcmp(k, "binary_operator")) {
            TSNode op = lf_tree_field(e, "operator");
            TSNode left = lf_tree_field(e, "left"), right = lf_tree_unparen(lf_tree_field(e, "right"));
            const char *o = ts_node_is_null(op) ? "" : ts_node_type(op);
            xform x = {XF_PLUS, NULL, 0, NULL};
            if (!strcmp(o, "+")) {
                if (is_string_literal(right)) {
                    t = LF_PYTYPE_STR;
                    break;
                }
            } else if (!strcmp(o, "%")) {
                x.kind = XF_MOD;
            } else if (!strcmp(o, "/")) {
                x.kind = XF_DIV;
            } else {
                break;
            }
            LF_VEC_PUSH(&xs, x);
            e = left;
            continue;
        }
        if (!strcmp(k, "call")) {
            lf_pycall *rec = (lf_pycall *)lf_pysem_call(m, e);
            if (rec && rec->type_cache) {
                t = (lf_pytype)(rec->type_cache - 1);
                break;
            }
            TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
            const char *q = module_qualname(m, fn);
            if (q) {
                for (size_t i = 0; k_call_types[i].qualname; i++)
                    if (strcmp(k_call_types[i].qualname, q) == 0)
                        t = k_call_types[i].type;
                if (rec)
                    rec->type_cache = (int)t + 1;
                break;
            }
            if (lf_tree_is(fn, "identifier")) {
                /* The module's own function, undecorated, says what it
                 * returns: `def lock_path(d) -> Path:`. */
                const lf_pybinding *b = binding_of_use(m, fn);
                if (b && b->kind == LF_PYBIND_DEF && lf_tree_is(b->value, "function_definition") &&
                    !lf_tree_is(ts_node_parent(b->value), "decorated_definition"))
                    t = annotation_type(m, lf_tree_field(b->value, "return_type"));
                if (rec)
                    rec->type_cache = (int)t + 1;
                break;
            }
            if (lf_tree_is(fn, "attribute")) {
                TSNode a = lf_tree_field(fn, "attribute");
                xform x = {XF_MEMBER, lf_pysem_intern_node(m, a), 1, rec};
                LF_VEC_PUSH(&xs, x);
                e = lf_tree_field(fn, "object");
                continue;
            }
            break;
        }
        if (!strcmp(k, "attribute")) {
            if (module_qualname(m, e))
                break; /* a module member used as a value */
            TSNode a = lf_tree_field(e, "attribute");
            xform x = {XF_MEMBER, lf_pysem_intern_node(m, a), 0, NULL};
            LF_VEC_PUSH(&xs, x);
            e = lf_tree_field(e, "object");
            continue;
        }
        if (!strcmp(k, "conditional_expression")) {
            /* `a if c else b`: only when both arms are plain literals of one type. */
            TSNode a = lf_tree_child(e, 0), b = lf_tree_child(e, 2);
            if (is_string_literal(a) && is_string_literal(b))
                t = LF_PYTYPE_STR;
            break;
        }
        if (!strcmp(k, "identifier")) {
            const lf_pybinding *b = binding_of_use(m, e);
            if (!b)
                break;
            if (!ts_node_is_null(b->annotation)) {
                t = annotation_type(m, b->annotation);
                if (t != LF_PYTYPE_UNKNOWN)
                    break;
            }
            if ((b->kind == LF_PYBIND_ASSIGN || b->kind == LF_PYBIND_WITH || b->kind == LF_PYBIND_WALRUS) &&
                !ts_node_is_null(b->value) && !ts_node_eq(lf_tree_unparen(b->value), e) && hops++ <= m->n_bindings &&
                !lf_pycycle_seen(&cyc, b)) {
                e = b->value;
                continue;
            }
            break;
        }
        break;
    }
    for (size_t i = xs.len; i-- > 0;) {
        if (t != LF_PYTYPE_UNKNOWN)
            t = apply_xform(t, &xs.items[i]);
        if (xs.items[i].call)
            xs.items[i].call->type_cache = (int)t + 1;
    }
    LF_VEC_FREE(&xs);
    return t;
}

TSNode lf_pysem_resolve_value(lf_pysem *m, TSNode expr) {
    TSNode e = lf_tree_unparen(expr);
    for (size_t hops = 0; lf_tree_is(e, "identifier") && hops <= m->n_bindings; hops++) {
        const lf_pybinding *b = binding_of_use(m, e);
        if (!b || (b->kind != LF_PYBIND_ASSIGN && b->kind != LF_PYBIND_WALRUS) || ts_node_is_null(b->value))
            break;
        TSNode v = lf_tree_unparen(b->value);
        if (ts_node_eq(v, e))
            break;
        e = v;
    }
    return e;
}

/* ---- optional modules and presence tests ---- */

const lf_pyoptional *lf_pysem_optional(const lf_pysem *m, const char *name) {
    for (size_t i = 0; i < m->n_optionals; i++)
        if (strcmp(m->optionals[i].name, name) == 0)
            return &m->optionals[i];
    return NULL;
}

typedef enum platform { PLATFORM_ANY = 0, PLATFORM_POSIX_ONLY, PLATFORM_WINDOWS_ONLY } platform;

static platform module_platform(const char *q) {
    static const char *const posix[] = {"fcntl", "termios", "pwd", "grp", "resource", NULL};
    static const char *const windows[] = {"msvcrt", "win32file", "win32con", "pywintypes", "winreg", "_winapi",
                                          NULL};
    for (size_t i = 0; posix[i]; i++)
        if (strcmp(q, posix[i]) == 0 || (strncmp(q, posix[i], strlen(posix[i])) == 0 && q[strlen(posix[i])] == '.'))
            return PLATFORM_POSIX_ONLY;
    for (size_t i = 0; windows[i]; i++)
        if (strcmp(q, windows[i]) == 0 ||
            (strncmp(q, windows[i], strlen(windows[i])) == 0 && q[strlen(windows[i])] == '.'))
            return PLATFORM_WINDOWS_ONLY;
    return PLATFORM_ANY;
}

int lf_pysem_is_lock_module(const char *q) {
    static const char *const mods[] = {"fcntl",      "msvcrt",   "portalocker",    "filelock",  "win32file",
                                       "lockfile",   "fasteners", "zc.lockfile",   "oslo_concurrency",
                                       NULL};
    for (size_t i = 0; mods[i]; i++) {
        size_t n = strlen(mods[i]);
        if (strncmp(q, mods[i], n) == 0 && (q[n] == 0 || q[n] == '.'))
            return 1;
    }
    return 0;
}

/* A string literal's plain content (no interpolation, no escapes), or NULL. */
static const char *plain_string(lf_pysem *m, TSNode s) {
    s = lf_tree_unparen(s);
    if (!lf_tree_is(s, "string"))
        return NULL;
    TSNode content = (TSNode){0};
    for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
        TSNode c = ts_node_named_child(s, i);
        if (lf_tree_is(c, "interpolation") || lf_tree_is(c, "escape_sequence"))
            return NULL;
        if (lf_tree_is(c, "string_content"))
            content = c;
    }
    if (ts_node_is_null(content))
        return "";
    return lf_pysem_intern_node(m, content);
}

/* Is the expression a platform probe, and which value means Windows?
 * `sys.platform` ("win32"), `os.name` ("nt"), `platform.system()` ("Windows").
 * Returns 1 with *windows_value set. */
static int platform_probe(lf_pysem *m, TSNode e, const char **windows_value) {
    e = lf_tree_unparen(e);
    if (lf_tree_is(e, "call")) {
        const char *q = lf_pysem_callee(m, e);
        if (q && strcmp(q, "platform.system") == 0) {
            *windows_value = "Windows";
            return 1;
        }
        return 0;
    }
    const char *q = module_qualname(m, e);
    if (q && strcmp(q, "sys.platform") == 0) {
        *windows_value = "win32";
        return 1;
    }
    if (q && strcmp(q, "os.name") == 0) {
        *windows_value = "nt";
        return 1;
    }
    return 0;
}

/* +1 when cond holding means "on Windows", -1 "not on Windows", 0 not a platform test. */
static int windows_test(lf_pysem *m, TSNode cond) {
    cond = lf_tree_unparen(cond);
    if (lf_tree_is(cond, "call")) {
        /* sys.platform.startswith("win") */
        TSNode fn = lf_tree_field(cond, "function");
        const char *wv;
        if (lf_tree_is(fn, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fn, "attribute"), "startswith") &&
            platform_probe(m, lf_tree_field(fn, "object"), &wv)) {
            const char *arg = plain_string(m, lf_tree_child(lf_tree_field(cond, "arguments"), 0));
            if (arg && *arg && strncmp(wv, arg, strlen(arg)) == 0)
                return 1;
        }
        return 0;
    }
    if (!lf_tree_is(cond, "comparison_operator") || lf_tree_child_count(cond) != 2)
        return 0;
    TSNode a = lf_tree_child(cond, 0), b = lf_tree_child(cond, 1);
    const char *op = NULL;
    for (uint32_t i = 0; i < ts_node_child_count(cond); i++) {
        TSNode c = ts_node_child(cond, i);
        if (!ts_node_is_named(c))
            op = ts_node_type(c);
    }
    if (!op)
        return 0;
    int eq = !strcmp(op, "==") || !strcmp(op, "is");
    int ne = !strcmp(op, "!=") || !strcmp(op, "is not");
    if (!eq && !ne)
        return 0;
    const char *wv;
    TSNode lit;
    if (platform_probe(m, a, &wv))
        lit = b;
    else if (platform_probe(m, b, &wv))
        lit = a;
    else
        return 0;
    const char *v = plain_string(m, lit);
    if (!v)
        return 0;
    int is_windows = strcmp(v, wv) == 0;
    if (!is_windows && strcmp(wv, "win32") == 0 && (strcmp(v, "cygwin") == 0))
        return 0;
    /* `os.name == "posix"` means "not Windows" as surely as `!= "nt"`. */
    int is_posix = !is_windows && (strcmp(v, "posix") == 0 || strcmp(v, "linux") == 0 || strcmp(v, "darwin") == 0 ||
                                   strcmp(v, "Linux") == 0 || strcmp(v, "Darwin") == 0);
    if (is_windows)
        return eq ? 1 : -1;
    if (is_posix && eq)
        return -1;
    return 0;
}

static const lf_pyflag *flag_named(const lf_pysem *m, const char *name) {
    for (size_t i = 0; i < m->n_flags; i++)
        if (m->flags[i].name == name)
            return &m->flags[i];
    return NULL;
}

/* The optional module an identifier use names (resolving to the module-level
 * binding), or NULL. */
static const lf_pyoptional *optional_of_use(lf_pysem *m, TSNode ident) {
    if (!lf_tree_is(ident, "identifier"))
        return NULL;
    const char *name = lf_pysem_intern_node(m, ident);
    const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, lf_pysem_scope_of(m, ident), name);
    if (!slot || slot->scope != 0)
        return NULL;
    for (size_t i = 0; i < m->n_optionals; i++)
        if (m->optionals[i].name == name)
            return &m->optionals[i];
    return NULL;
}

static const lf_pyflag *flag_of_use(lf_pysem *m, TSNode ident) {
    if (!lf_tree_is(ident, "identifier"))
        return NULL;
    const char *name = lf_pysem_intern_node(m, ident);
    const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, lf_pysem_scope_of(m, ident), name);
    if (!slot || slot->scope != 0)
        return NULL;
    return flag_named(m, name);
}

/* Platform test -> the one optional module it decides, by the module's platform
 * or by the guard that imported it. */
static int platform_presence(lf_pysem *m, TSNode cond, int win, const lf_pyoptional **which) {
    const lf_pyoptional *hit = NULL;
    int sign = 0, n = 0;
    for (size_t i = 0; i < m->n_optionals; i++) {
        const lf_pyoptional *o = &m->optionals[i];
        int s = 0;
        if (!ts_node_is_null(o->guard_condition) &&
            lf_tree_equal(m->src, lf_tree_unparen(o->guard_condition), m->src, lf_tree_unparen(cond),
                          LF_TREE_EQ_STRING_CONTENT))
            s = o->import_in_then ? 1 : -1;
        else if (module_platform(o->module) == PLATFORM_POSIX_ONLY)
            s = -win;
        else if (module_platform(o->module) == PLATFORM_WINDOWS_ONLY)
            s = win;
        if (s) {
            hit = o;
            sign = s;
            n++;
        }
    }
    if (n != 1)
        return 0;
    *which = hit;
    return sign;
}

int lf_pysem_windows_test(lf_pysem *m, TSNode cond) { return windows_test(m, cond); }

int lf_pysem_posix_only_module(const char *q) { return q && module_platform(q) == PLATFORM_POSIX_ONLY; }

static int presence_leaf(lf_pysem *m, TSNode cond, const lf_pyoptional **which) {
    int sign = 1;
    TSNode c = cond;
    size_t hops = 0; /* local flags followed: each binding at most once */
    for (;;) {
        c = lf_tree_unparen(c);
        if (lf_tree_is(c, "not_operator")) {
            sign = -sign;
            c = lf_tree_field(c, "argument");
            continue;
        }
        if (lf_tree_is(c, "call") && lf_pysem_callee(m, c) && strcmp(lf_pysem_callee(m, c), "bool") == 0 &&
            lf_tree_child_count(lf_tree_field(c, "arguments")) == 1) {
            c = lf_tree_child(lf_tree_field(c, "arguments"), 0);
            continue;
        }
        if (lf_tree_is(c, "identifier")) {
            const lf_pyoptional *o = optional_of_use(m, c);
            if (o) {
                *which = o;
                return sign;
            }
            const lf_pyflag *fl = flag_of_use(m, c);
            if (fl) {
                *which = fl->module;
                return fl->positive ? sign : -sign;
            }
            /* A local flag: `have = fcntl is not None` ... `if have:`. */
            const lf_pybinding *b = binding_of_use(m, c);
            if (b && b->scope != 0 && b->kind == LF_PYBIND_ASSIGN && !ts_node_is_null(b->value) &&
                !ts_node_eq(b->value, c) && hops++ <= m->n_bindings) {
                c = b->value;
                continue;
            }
            return 0;
        }
        break;
    }
    if (lf_tree_is(c, "comparison_operator") && lf_tree_child_count(c) == 2) {
        TSNode a = lf_tree_unparen(lf_tree_child(c, 0)), b = lf_tree_unparen(lf_tree_child(c, 1));
        const char *op = NULL;
        for (uint32_t i = 0; i < ts_node_child_count(c); i++)
            if (!ts_node_is_named(ts_node_child(c, i)))
                op = ts_node_type(ts_node_child(c, i));
        int w = windows_test(m, c);
        if (w)
            return sign * platform_presence(m, c, w, which);
        if (!op)
            return 0;
        int eq = !strcmp(op, "is") || !strcmp(op, "==");
        int ne = !strcmp(op, "is not") || !strcmp(op, "!=");
        if (!eq && !ne)
            return 0;
        TSNode subject, lit;
        if (lf_tree_is(b, "none") || lf_tree_is(b, "false") || lf_tree_is(b, "true")) {
            subject = a;
            lit = b;
        } else if (lf_tree_is(a, "none") || lf_tree_is(a, "false") || lf_tree_is(a, "true")) {
            subject = b;
            lit = a;
        } else {
            return 0;
        }
        /* `x is None` / `x == False`: true means the stand-in is there. */
        int lit_means_absent = !lf_tree_is(lit, "true");
        int s = (eq == lit_means_absent) ? -1 : 1;
        const lf_pyoptional *o = optional_of_use(m, subject);
        if (o) {
            *which = o;
            return sign * s;
        }
        const lf_pyflag *fl = flag_of_use(m, subject);
        if (fl && !lf_tree_is(lit, "none")) {
            *which = fl->module;
            return sign * s * (fl->positive ? 1 : -1);
        }
        return 0;
    }
    int w = windows_test(m, c);
    if (w)
        return sign * platform_presence(m, c, w, which);
    return 0;
}

/* A conjunction of presence tests of one module says what each says
 * (`if HAS_FCNTL and fcntl:` is true exactly where fcntl is there), and so
 * does a disjunction of its absence tests (`if not HAS_FCNTL or fcntl is
 * None:`). Operands that test anything else, or another module, leave the
 * condition's meaning open: 0. */
int lf_pysem_presence_test(lf_pysem *m, TSNode cond, const lf_pyoptional **which) {
    TSNode c = lf_tree_unparen(cond);
    if (!lf_tree_is(c, "boolean_operator"))
        return presence_leaf(m, c, which);
    int is_and = lf_tree_text_eq(m->src, lf_tree_field(c, "operator"), "and");
    TSNode todo[16];
    size_t n = 0;
    int sign = 0;
    const lf_pyoptional *module = NULL;
    todo[n++] = c;
    while (n > 0) {
        TSNode t = lf_tree_unparen(todo[--n]);
        if (ts_node_is_null(t))
            return 0;
        if (lf_tree_is(t, "boolean_operator")) {
            if (lf_tree_text_eq(m->src, lf_tree_field(t, "operator"), "and") != is_and || n + 2 > 16)
                return 0;
            todo[n++] = lf_tree_field(t, "left");
            todo[n++] = lf_tree_field(t, "right");
            continue;
        }
        const lf_pyoptional *o = NULL;
        int s = presence_leaf(m, t, &o);
        /* `and` of presence tests (+1), `or` of absence tests (-1) */
        if (!o || s != (is_and ? 1 : -1) || (module && o != module))
            return 0;
        module = o;
        sign = s;
    }
    *which = module;
    return sign;
}

/* ---- uses of a module-level name ---- */

size_t lf_pysem_module_name_uses(lf_pysem *m, const char *name, const lf_byte_range *skip, size_t n_skip) {
    const char *iname = lf_pysem_intern(m, name, strlen(name));
    const lf_pyname_slot *mod = lf_pysem_slot(m, 0, iname);
    size_t uses = 0;
    TSTreeCursor c = ts_tree_cursor_new(m->root);
    LF_VEC(TSNode) parents = {0};
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        const char *field = ts_tree_cursor_current_field_name(&c);
        TSNode parent = parents.len ? parents.items[parents.len - 1] : (TSNode){0};
        uint32_t s = ts_node_start_byte(n);
        int skipped = 0;
        for (size_t i = 0; i < n_skip; i++)
            if (s >= skip[i].start && ts_node_end_byte(n) <= skip[i].end)
                skipped = 1;
        int descend = !skipped;
        if (!skipped && lf_tree_is(n, "identifier") && lf_tree_text_eq(m->src, n, name)) {
            int not_a_read = (lf_tree_is(parent, "attribute") && field && strcmp(field, "attribute") == 0) ||
                             (lf_tree_is(parent, "keyword_argument") && field && strcmp(field, "name") == 0);
            int is_definition = 0;
            for (size_t i = 0; mod && i < mod->bindings.len; i++)
                if (ts_node_eq(m->bindings[mod->bindings.items[i]].target, n) &&
                    m->bindings[mod->bindings.items[i]].kind != LF_PYBIND_GLOBAL)
                    is_definition = 1;
            if (!not_a_read && !is_definition) {
                const lf_pyname_slot *slot = lf_pysem_resolve_slot(m, lf_pysem_scope_of(m, n), iname);
                if (slot && slot->scope == 0)
                    uses++;
            }
        }
        /* A string naming it: `__all__ = ["fcntl"]`, `getattr(mod, "fcntl")`. */
        if (!skipped && lf_tree_is(n, "string")) {
            const char *v = plain_string(m, n);
            if (v && strcmp(v, name) == 0)
                uses++;
        }
        if (descend && ts_tree_cursor_goto_first_child(&c)) {
            LF_VEC_PUSH(&parents, n);
            continue;
        }
        int moved = 0;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c)) {
                moved = 1;
                break;
            }
            if (!ts_tree_cursor_goto_parent(&c))
                break;
            parents.len--;
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&c);
    LF_VEC_FREE(&parents);
    return uses;
}
