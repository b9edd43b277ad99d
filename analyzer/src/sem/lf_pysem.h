/* lf_pysem: what one Python file means, built once per parsed file and shared
 * by every rule's check and fix (after ruff's semantic model).
 *
 * One iterative walk records the file's statements (each with the compound
 * statement and clause holding it), scopes, bindings, imports resolved to
 * qualified names, and calls with their resolved callees. On top of that:
 *  - qualified names: `lf_pysem_qualname(m, expr)` answers "is this `os.replace`?"
 *    whatever the spelling (`import os as _os`, `from os import replace as r`);
 *  - optional modules: a module-level name that holds a lock module on one path
 *    and None/False on another (`if ...: import fcntl / else: fcntl = None`,
 *    `try/except ImportError`, `fcntl = None` before the try, importlib), and the
 *    flag variables bound beside it (`HAS_FCNTL`);
 *  - presence tests: does a condition mean "the optional module is there" or
 *    "it is not", in every polarity (`x is not None`, `None is not x`,
 *    `not (x is None)`, `if x:`, flags, `sys.platform`/`os.name` tests);
 *  - value types, as far as rules need them (Path objects, strings, file
 *    objects, descriptors), following local bindings.
 * Every cost is linear in the file; nothing recurses over the tree.
 */
#ifndef LF_PYSEM_H
#define LF_PYSEM_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_source.h"

typedef struct lf_pysem lf_pysem;

/* ---- statements ---- */

/* Which part of its parent compound statement holds a statement. */
typedef enum lf_pyclause {
    LF_PYCLAUSE_TOP = 0,   /* directly in a module, function or class body */
    LF_PYCLAUSE_IF_BODY,   /* `if` consequence */
    LF_PYCLAUSE_ELIF_BODY, /* an elif's consequence (clause_node = the elif_clause) */
    LF_PYCLAUSE_ELSE_BODY, /* else of if/for/while/try (clause_node = the else_clause) */
    LF_PYCLAUSE_TRY_BODY,
    LF_PYCLAUSE_EXCEPT_BODY, /* clause_node = the except_clause */
    LF_PYCLAUSE_FINALLY_BODY,
    LF_PYCLAUSE_WITH_BODY,
    LF_PYCLAUSE_LOOP_BODY,
    LF_PYCLAUSE_CASE_BODY,
} lf_pyclause;

typedef struct lf_pystmt {
    TSNode node;
    int32_t parent;     /* index of the compound statement holding it; -1 at the top of its scope */
    int32_t scope;      /* index into scopes */
    lf_pyclause clause; /* where in the parent it sits */
    TSNode clause_node; /* the elif/else/except/finally/case clause, or the parent itself */
    TSNode block;       /* the block (or module) that lists it */
} lf_pystmt;

/* ---- scopes ---- */

typedef enum lf_pyscope_kind {
    LF_PYSCOPE_MODULE = 0,
    LF_PYSCOPE_FUNCTION,
    LF_PYSCOPE_CLASS,
    LF_PYSCOPE_LAMBDA,
    LF_PYSCOPE_COMPREHENSION,
} lf_pyscope_kind;

typedef struct lf_pyscope {
    TSNode node;         /* module, function_definition, class_definition, lambda, comprehension */
    lf_pyscope_kind kind;
    int32_t parent;      /* enclosing scope; -1 for the module */
    const char *name;    /* function or class name (interned); "" otherwise */
    int32_t stmt;        /* the def/class statement; -1 for the module, lambdas and comprehensions */
    int32_t cls;         /* FUNCTION defined directly in a class body: that class's scope; else -1 */
} lf_pyscope;

/* ---- bindings ---- */

typedef enum lf_pybinding_kind {
    LF_PYBIND_IMPORT = 0, /* import / from-import: `qualname` says what it names */
    LF_PYBIND_ASSIGN,     /* `x = v`, `x: T = v`, `x = y = v`; value null when unpacked from a tuple */
    LF_PYBIND_AUGASSIGN,  /* `x += v` */
    LF_PYBIND_WITH,       /* `with v as x` */
    LF_PYBIND_FOR,        /* `for x in v` (also comprehension targets) */
    LF_PYBIND_PARAM,      /* a parameter; value = its default, annotation = its type */
    LF_PYBIND_DEF,        /* `def x` / `class x` */
    LF_PYBIND_EXCEPT,     /* `except E as x` */
    LF_PYBIND_WALRUS,     /* `(x := v)` */
    LF_PYBIND_GLOBAL,     /* `global x` / `nonlocal x`: x is not local to this scope */
    LF_PYBIND_DELETE,     /* `del x` */
    LF_PYBIND_OTHER,      /* match captures and other targets */
} lf_pybinding_kind;

typedef struct lf_pybinding {
    const char *name;       /* interned */
    lf_pybinding_kind kind;
    int32_t scope;
    int32_t stmt;           /* statement holding the binding (-1 for parameters of lambdas) */
    TSNode target;          /* the bound identifier */
    TSNode value;           /* assigned value, with-item expression, parameter default, def node; or null */
    TSNode annotation;      /* `x: T = v` / `p: T` type; or null */
    const char *qualname;   /* IMPORT: what it names ("os", "os.path", "os.replace", ".state"); else NULL */
} lf_pybinding;

/* ---- calls ---- */

typedef struct lf_pycall {
    TSNode node;          /* the call */
    int32_t stmt;
    int32_t scope;
    const char *callee;   /* qualified name of the callee, NULL when unknown (see lf_pysem_qualname) */
    const char *spelled;  /* private: the qualified name as spelled, before a lockrt drop-in is named
                           * by the call it replaces (set with callee_final) */
    int type_cache;       /* private: the value type + 1 once computed (method chains stay linear) */
    int callee_final;     /* private: callee was resolved after the build (NULL included) */
    int32_t imports_at;   /* private: lf_pysem_callee_names' cache, an index into the model's list + 1 */
    uint32_t n_imports;
} lf_pycall;

/* ---- optional modules and flags ---- */

/* A module-level name bound to a module on one path and to a stand-in on
 * another: the lock module a fallback hinges on. */
typedef enum lf_pyfallback_kind {
    LF_PYFALLBACK_NONE_VALUE = 0, /* `fcntl = None` */
    LF_PYFALLBACK_FALSE,          /* `fcntl = False` */
    LF_PYFALLBACK_STANDIN,        /* a no-op class or object defined in the fallback branch */
    LF_PYFALLBACK_UNBOUND,        /* the name stays unbound; only a flag beside the import says so */
} lf_pyfallback_kind;

typedef struct lf_pyoptional {
    const char *name;         /* local name ("fcntl", "_fcntl") */
    const char *module;       /* qualified name of what the import binds ("fcntl", "filelock.FileLock") */
    const lf_pybinding *import;   /* the import (or `x = importlib.import_module(...)`) */
    const lf_pybinding *fallback; /* the None/False/stand-in binding; NULL when UNBOUND */
    lf_pyfallback_kind fallback_kind;
    int32_t guard;            /* the module-level if/try statement holding the import, or -1 */
    TSNode guard_condition;   /* for an `if` guard: its condition (platform tests), else null */
    int import_in_then;       /* for an `if` guard: 1 when the import sits in the consequence */
    int platform_gated;       /* a function's own import of a one-platform module, reached only past
                                 the function's platform test (`if sys.platform == "win32": ...; return`
                                 before `import fcntl`): absent where that test sends the function away */
} lf_pyoptional;

/* A module-level flag that says whether an optional module is there:
 * `HAS_FCNTL = True` beside the import and `= False` in its fallback, or
 * `HAS_FCNTL = fcntl is not None`, or `HAVE_FCNTL = sys.platform != "win32"`. */
typedef struct lf_pyflag {
    const char *name;
    const lf_pyoptional *module;
    int positive; /* 1: true means present; 0: true means absent (`NO_FCNTL = True` in the fallback) */
} lf_pyflag;

/* ---- the model ---- */

struct lf_pysem {
    const lf_source *src;
    TSNode root;
    lf_pystmt *stmts; /* pre-order: a statement comes before the ones it contains */
    size_t n_stmts;
    lf_pyscope *scopes; /* scopes[0] is the module */
    size_t n_scopes;
    lf_pybinding *bindings; /* in source order */
    size_t n_bindings;
    lf_pycall *calls; /* in source order of the call's start */
    size_t n_calls;
    lf_pyoptional *optionals;
    size_t n_optionals;
    lf_pyflag *flags;
    size_t n_flags;
    const char *package_hint; /* unused by the model itself; free for callers */
    /* lf_pylock_build's, built on first need and freed with the model by the
     * destructor it leaves here (so the model, below the lock layer, never
     * includes it: no import cycle between the layers) */
    struct lf_pylock *lock;
    void (*lock_free)(struct lf_pylock *);
    struct lf_pysem_internal *in;
};

/* Build the model of a parsed Python file (root = its module node). */
lf_pysem *lf_pysem_build(const lf_source *src, TSNode root);
void lf_pysem_free(lf_pysem *m);
/* Is n a def, a lambda or a class: code that runs in a frame of its own, or
 * later, not where it is written (TS/JS: lf_tssem_is_function_node)? */
int lf_pysem_is_function_node(TSNode n);

/* Intern a string in the model (lifetime = the model's). */
const char *lf_pysem_intern(lf_pysem *m, const char *s, size_t len);

/* Innermost statement / scope containing n (-1 / 0 when none). */
int32_t lf_pysem_stmt_of(const lf_pysem *m, TSNode n);
int32_t lf_pysem_scope_of(const lf_pysem *m, TSNode n);
/* Index of the statement whose node is exactly n, or -1. */
int32_t lf_pysem_stmt_index(const lf_pysem *m, TSNode n);
/* The statements of a block, comments aside: the first index and the following
 * siblings are reached through lf_pysem_next_sibling. -1 when empty. */
int32_t lf_pysem_first_in_block(const lf_pysem *m, TSNode block);
int32_t lf_pysem_next_sibling(const lf_pysem *m, int32_t stmt);
/* Is statement `inner` inside statement `outer` (or the same)? */
int lf_pysem_stmt_within(const lf_pysem *m, int32_t inner, int32_t outer);

/* Bindings of `name` visible from `scope` under Python's rules: the scope's own
 * bindings when it binds the name at all (function locals), else the nearest
 * enclosing function's, else the module's (class bodies are skipped for
 * functions inside them). *n_out = count; the array points into m->bindings
 * order but is a private copy valid until the next call. */
const lf_pybinding *const *lf_pysem_bindings_of(lf_pysem *m, int32_t scope, const char *name, size_t *n_out);
/* The binding a use of `name` at byte `at` in `scope` most plausibly sees: the
 * last binding before `at` in the resolving scope when that is the use's own
 * function; for names resolved in an outer scope, its only binding, or NULL
 * when several compete (a conditional import and its fallback, say). */
const lf_pybinding *lf_pysem_binding_at(lf_pysem *m, int32_t scope, const char *name, uint32_t at);

/* Qualified name of an expression that names a module, a module member or a
 * builtin: identifiers through imports and aliases (`r = os.replace`),
 * attribute chains (`os.path.realpath`), builtins by their bare name ("open").
 * A method of a typed value reads "<type>.<method>" ("pathlib.Path.write_text").
 * NULL when unknown. Interned in the model. */
const char *lf_pysem_qualname(lf_pysem *m, TSNode expr);
/* Qualified name of a call's callee (NULL when unknown). */
const char *lf_pysem_callee(lf_pysem *m, TSNode call);
/* The member a qualified name names in the vendored lockrt binding
 * (`lockrt.x` under `import lockrt`, `.lockrt.x` under `from . import lockrt`,
 * `pkg.lockrt.x`): "x", else NULL. */
const char *lf_pysem_lockrt_member(const char *qualname);
/* The callee's qualified name (*callee, as lf_pysem_callee) and, for a bare
 * name (`remove(p)`), the qualified names of every import that binds it in
 * the call's scope (*n_out of them): a name bound on several paths (`from os
 * import remove` on POSIX, a def on Windows) may be any of them. Cached per
 * recorded call: the checks ask this of every call many times. The array is
 * valid until the next call into the model. */
const char *const *lf_pysem_callee_names(lf_pysem *m, TSNode call, const char **callee, size_t *n_out);
/* 1 when the call's callee resolves to one of the NULL-terminated names. */
int lf_pysem_call_is(lf_pysem *m, TSNode call, const char *const *qualnames);
/* Every assignment, attribute and call node of the module, in pre-order (the
 * order a walk from the root meets them): what the lock facts read node by
 * node, recorded by the model's own walk so that they need not walk again. */
const TSNode *lf_pysem_fact_nodes(const lf_pysem *m, size_t *n_out);
/* The recorded call at node `call`, or NULL. */
const lf_pycall *lf_pysem_call(const lf_pysem *m, TSNode call);

/* Value types the rules care about. */
typedef enum lf_pytype {
    LF_PYTYPE_UNKNOWN = 0,
    LF_PYTYPE_STR,  /* str / bytes paths and text */
    LF_PYTYPE_PATH, /* pathlib.Path and friends */
    LF_PYTYPE_FILE, /* a file object: open(), Path.open(), io.open, os.fdopen */
    LF_PYTYPE_FD,   /* an int descriptor from os.open */
    LF_PYTYPE_NONE,
    LF_PYTYPE_BOOL,
    LF_PYTYPE_INT,
} lf_pytype;
lf_pytype lf_pysem_type_of(lf_pysem *m, TSNode expr);

/* The value an identifier use most plausibly holds (following lf_pysem_binding_at
 * through plain assignments); the expression itself otherwise. Never loops. */
TSNode lf_pysem_resolve_value(lf_pysem *m, TSNode expr);

/* The optional module bound to `name` at module level, or NULL. */
const lf_pyoptional *lf_pysem_optional(const lf_pysem *m, const char *name);

/* Does `cond` test whether an optional module is there? Returns +1 when cond
 * holding means present (`fcntl is not None`, `HAS_FCNTL`, `sys.platform !=
 * "win32"` for a POSIX-only module), -1 when it means absent, 0 when it is not
 * such a test (or mixes it with other conditions). *which = the module. */
int lf_pysem_presence_test(lf_pysem *m, TSNode cond, const lf_pyoptional **which);
/* Is `cond` a platform test (`sys.platform == "win32"`, `os.name != "nt"`,
 * `platform.system() == "Windows"`, `sys.platform.startswith("win")`)? +1 when
 * it holding means Windows, -1 when it means not Windows, 0 otherwise. */
int lf_pysem_windows_test(lf_pysem *m, TSNode cond);
/* Does the module exist on POSIX systems only (fcntl & co)? */
int lf_pysem_posix_only_module(const char *qualname);

/* Uses of `name` resolving to the module scope's binding, outside the byte
 * ranges [skip[i].start, skip[i].end) and outside the bindings themselves.
 * `global` statements and string mentions in `__all__` count. */
typedef struct lf_byte_range {
    uint32_t start, end;
} lf_byte_range;
size_t lf_pysem_module_name_uses(lf_pysem *m, const char *name, const lf_byte_range *skip, size_t n_skip);

/* The module-level function or class called `name` (its def statement), or -1. */
int32_t lf_pysem_module_def(const lf_pysem *m, const char *name);

/* Module qualnames by role. */
int lf_pysem_is_lock_module(const char *qualname); /* fcntl, msvcrt, portalocker, filelock, ... */

#endif
