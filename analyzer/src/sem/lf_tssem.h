/* lf_tssem: what one TypeScript/JavaScript (TS, TSX, JS, JSX) file means, built
 * once per parsed file and shared by every rule's check (the TS sibling of
 * lf_pysem).
 *
 * One iterative walk records functions (scopes), classes, bindings and calls.
 * Qualified names are resolved afterwards, so hoisted declarations count:
 *  - ES imports: `import * as fs from "node:fs"`, default imports, named
 *    imports with aliases (`{ rmSync as rm }`, `{ default as fs }`),
 *    `import fs = require("fs")`, `await import("fs")`;
 *  - CommonJS: `const fs = require("fs")`, destructuring
 *    (`const { rmSync, promises: { rm } } = require("node:fs")`),
 *    `require("fs").promises`;
 *  - the promise API under one name: `fs.promises.rm`, `{ promises as fsp }`
 *    and `fs/promises` all read "fs/promises.rm";
 *  - injected fs objects: `options.fs.rmdir`, `this.fs.unlink` (a property
 *    called `fs` whose value is unknown), `this.fs = opts.fs || fs` fields,
 *    a parameter called `fs`; graceful-fs and fs-extra read as fs;
 *  - `util.promisify(fs.unlink)` names what it wraps ("fs.unlink");
 *  - local aliases (`const unlink = fs.unlinkSync`, `const { rm } = fsp`).
 * `node:` prefixes are dropped. Every cost is linear in the file (hash
 * tables for names, memoised callees); nothing recurses over the tree.
 */
#ifndef LF_TSSEM_H
#define LF_TSSEM_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_source.h"
#include "lf_util.h"

typedef struct lf_tssem lf_tssem;

typedef struct lf_tsscope {
    TSNode node;      /* program, function, arrow, method */
    int32_t parent;   /* enclosing scope; -1 for the program */
    const char *name; /* function/method name, or the variable an arrow/function expression initialises; "" */
    int32_t cls;      /* index into classes for a method (or a function inside one); -1 */
    int32_t first_param, n_params; /* its parameter bindings: bindings[first_param ..+n_params) */
    int32_t next_method;           /* a method: the next method scope of the same class; -1 */
    int32_t fn; /* the declared function it belongs to (an unnamed arrow or function expression
                   inside one counts as it): lf_tslock_fn_of, computed once at build */
    int32_t first_call; /* a declared function (fn == itself): its first call, chained through
                           lf_tscall.next_in_fn; -1. Checks that ask "the calls of function f"
                           follow the chain instead of scanning every call of the file per f. */
} lf_tsscope;

typedef struct lf_tsclass {
    TSNode node;
    const char *name;     /* "" for an anonymous class expression */
    int32_t first_method; /* its first method scope (chained through next_method); -1 */
} lf_tsclass;

typedef enum lf_tsbinding_kind {
    LF_TSBIND_IMPORT = 0, /* import / require: qualname says what it names */
    LF_TSBIND_VAR,        /* const/let/var (value = initializer; member set when destructured) */
    LF_TSBIND_ASSIGN,     /* `x = v` */
    LF_TSBIND_PARAM,      /* a parameter (value = its default) */
    LF_TSBIND_DEF,        /* function or class declaration */
    LF_TSBIND_FIELD,      /* `this.x = v` (name "this.x", scope = the class's outermost method scope's class) */
} lf_tsbinding_kind;

typedef struct lf_tsbinding {
    const char *name; /* interned */
    lf_tsbinding_kind kind;
    int32_t scope;
    int32_t cls;          /* FIELD: the class index; else -1 */
    TSNode target;        /* the bound identifier (or the member expression of a FIELD) */
    TSNode value;         /* initializer / assigned value / default; null when none */
    const char *member;   /* destructured: the value's property this name takes (interned); else NULL */
    const char *qualname; /* IMPORT: "fs", "fs.rmSync", "fs/promises" ...; else NULL */
    int32_t next;         /* private: next binding of the same name */
    /* a let/const: the bytes of the block it is visible in (a shadowing `const
     * result` in an inner block is not the outer `result`); 0, 0 when the whole scope */
    uint32_t block_start, block_end;
} lf_tsbinding;

typedef struct lf_tscall {
    TSNode node;
    int32_t scope;
    const char *callee; /* resolved after the walk; NULL when unknown */
    int32_t next_in_fn; /* the next call (source order) of the same declared function (lf_tsscope.fn); -1 */
    int32_t local;      /* lf_tssem_local_callee's answer once asked; LF_TSCALL_UNASKED before */
} lf_tscall;

#define LF_TSCALL_UNASKED (-2)

struct lf_tssem {
    const lf_source *src;
    TSNode root;
    lf_tsscope *scopes; /* pre-order: scopes[0] is the program */
    size_t n_scopes;
    lf_tsclass *classes;
    size_t n_classes;
    lf_tsbinding *bindings; /* in source order */
    size_t n_bindings;
    lf_tscall *calls; /* in source order of the call's start */
    size_t n_calls;
    int esm;          /* the module uses import/export (else CommonJS or script) */
    struct lf_tssem_internal *in;
    /* lf_tslock_build's, built on first need and freed with the model by the
     * destructor it leaves here (the model never includes the lock layer) */
    struct lf_tslock *lock;
    void (*lock_free)(struct lf_tslock *);
    /* lf_tsimport's reading of the module's header, made by the first fix
     * that imports and freed with the model the same way */
    void *import_header;
    void (*import_header_free)(void *);
};

lf_tssem *lf_tssem_build(const lf_source *src, TSNode root);

/* Is n a function of any form (declaration, expression, arrow, method,
 * generator)? Its body runs when it is called, not where it is written. */
int lf_tssem_is_function_node(TSNode n);
void lf_tssem_free(lf_tssem *m);

const char *lf_tssem_intern(lf_tssem *m, const char *s, size_t len);
/* Does a name of the file (an identifier, a shorthand property, a type name)
 * spell `name`? The names are collected on the first question, so a fix per
 * site asking about the name it would import costs the file's walk once. */
int lf_tssem_file_mentions(lf_tssem *m, const char *name);
/* Does an identifier, a shorthand property or a shorthand pattern under
 * `scope` spell `name` (lf_tree_mentions with those types)? Each subtree's
 * names are collected on its first question: fixes pick fresh names per site
 * in the same function. */
int lf_tssem_names_in(lf_tssem *m, TSNode scope, const char *name);
/* The indices into m->bindings of the import bindings (LF_TSBIND_IMPORT), in
 * order, *n of them: listed once, for fixes that look for an import each. */
const size_t *lf_tssem_imports(lf_tssem *m, size_t *n);

/* Innermost scope (function) containing n; 0 for top-level code. */
int32_t lf_tssem_scope_of(const lf_tssem *m, TSNode n);
/* Is scope `inner` the same as or nested in `outer`? */
int lf_tssem_scope_within(const lf_tssem *m, int32_t inner, int32_t outer);

/* The binding a use of `name` at byte `at` in `scope` sees: the nearest scope
 * binding the name; in it, the last binding before `at` when there is one,
 * else its first (hoisting). NULL when unbound. */
const lf_tsbinding *lf_tssem_binding_at(const lf_tssem *m, int32_t scope, const char *name, uint32_t at);
/* The binding an identifier use `id` sees: lf_tssem_binding_at for its own
 * name, scope and byte. */
const lf_tsbinding *lf_tssem_binding_of(lf_tssem *m, TSNode id);
/* The field binding `this.<name>` of class `cls` (its first assignment), or NULL. */
const lf_tsbinding *lf_tssem_field(const lf_tssem *m, int32_t cls, const char *name);
/* The value first assigned to the field a `this.x` member expression names, in
 * its class (`this.x = v` in a method, or a class field `x = v`); null when none. */
TSNode lf_tssem_this_field_value(lf_tssem *m, TSNode member);

/* Is a process.kill signal argument 0, the liveness probe: `0`, or a
 * signal that falls back to it (`signal || 0`, `signal ?? 0`: a helper
 * whose callers mostly pass none)? */
int lf_tssem_signal_zero(const lf_source *src, TSNode sig);

/* Qualified name of an expression naming a module or a module member
 * ("fs", "fs.rmSync", "fs/promises.rm", "process.kill", "JSON.parse",
 * "Date.now", "path.join"); NULL when unknown. Interned. */
const char *lf_tssem_qualname(lf_tssem *m, TSNode expr);
/* Qualified name of a call's callee (memoised for recorded calls). */
const char *lf_tssem_callee(lf_tssem *m, TSNode call);
/* 1 when the callee resolves to one of the NULL-terminated names. */
int lf_tssem_call_is(lf_tssem *m, TSNode call, const char *const *names);
/* The recorded call at `call`, or NULL. */
const lf_tscall *lf_tssem_call(const lf_tssem *m, TSNode call);

/* The i-th argument of a call (spread arguments count as one); null when absent. */
TSNode lf_tssem_arg(TSNode call, uint32_t i);
size_t lf_tssem_nargs(TSNode call);
/* Strip parentheses, `await`, `as T`, `x!`, `satisfies T`, `<T>x`. */
TSNode lf_tssem_unwrap(TSNode n);
/* Is `call` the whole body of a function that only forwards its first
 * parameter to it (`rm: async (p, o) => rm(p, o)` in an fs seam)? Its
 * operation is the callers', who reach it through the seam's name. */
int lf_tssem_forwarder_body(const lf_tssem *m, TSNode call);
/* Is the qualified callee (lf_tssem_callee) a function of one of the
 * project's own modules, imported by a relative specifier
 * (`./fs-utils.js.removePath`, `../constants.getPidPath`)? The analysis sees
 * one file, so such a function is known by its name alone. */
int lf_tssem_project_callee(const char *qualname);
/* Does a branch leave (return, throw, continue, break) rather than fall
 * through: the statement itself, or the last of its block; a try whose body
 * and catch both leave, an if/else whose arms both do? */
int lf_tssem_leaves(TSNode b);
/* The value an identifier use holds: follows const/let/var/assignment
 * bindings (not destructuring) up to a few hops; the expression itself
 * otherwise. */
TSNode lf_tssem_resolve_value(lf_tssem *m, TSNode expr);
/* A bounded pre-order search of e and what its names hold (identifiers
 * followed through lf_tssem_resolve_value; parentheses and awaits unwrapped):
 * the first non-null answer of `hit` on a node, or null. Functions' bodies
 * are not entered when skip_functions. At most `budget` nodes are looked at,
 * 32 pending. */
typedef TSNode (*lf_tssem_hit_fn)(lf_tssem *m, TSNode n);
TSNode lf_tssem_search_values(lf_tssem *m, TSNode e, size_t budget, int skip_functions, lf_tssem_hit_fn hit);

/* A string literal's content (no quotes; plain templates too), malloc'd; NULL otherwise. */
char *lf_tssem_string(const lf_source *src, TSNode n);
/* The same, NULL when it holds an escape: for module specifiers and property
 * names, which the rules' TS/JS prefilters look for as spelled (an escape
 * dropped from "mk\\ndir" must not make a name no literal can see). */
char *lf_tssem_name_string(const lf_source *src, TSNode n);

/* A key naming the file a path expression names, whatever its spelling:
 * identifiers are followed to their value, `this.x` reads "this.<class>.x", a
 * parameter reads "param:<scope>:<name>", a call of the module's own function
 * "call:<name>", anything else its text without blanks. Interned; NULL for a
 * null node. */
const char *lf_tssem_path_key(lf_tssem *m, TSNode expr);
/* `Path.from(p)` / `Path.of(p)`: a path class's object made from its one
 * argument (the object named *Path); its key is p's. */
int lf_tssem_path_class_conversion(lf_tssem *m, TSNode call);
/* lf_tssem_path_key when that is a parameter's key ("param:..."), else NULL,
 * found without building the text keys of other expressions. */
const char *lf_tssem_param_path_key(lf_tssem *m, TSNode expr);
/* The parameter an expression over parameters only names its file through
 * (`path.join(LOCKS_DIR, name)`, `path.join(dir || DEFAULT_DIR, NAME)`):
 * every identifier bound in a function is a parameter of one function of the
 * module's API (a top-level function, or a method), the others module-level;
 * the first such parameter, or NULL. Sibling API functions spelling the same
 * expression over their own parameters of those names name one file: their
 * callers hand them the same arguments. */
const lf_tsbinding *lf_tssem_api_params_expr(lf_tssem *m, TSNode expr);
/* The parameter binding a key names ("param:..."), or NULL. */
const lf_tsbinding *lf_tssem_key_param(lf_tssem *m, const char *key);

/* The module's own function a call invokes (a function declaration, a const
 * bound to a function, `this.method(...)` in the same class): its scope, or -1. */
int32_t lf_tssem_local_callee(lf_tssem *m, TSNode call);
/* The first recorded call (index into calls, source order) whose local
 * callee is `scope`, and the next one after `call`; -1 at the end. The index
 * is built once per model (every call's local callee). */
int32_t lf_tssem_first_caller(lf_tssem *m, int32_t scope);
int32_t lf_tssem_next_caller(const lf_tssem *m, int32_t call);
/* The `X` of `X.prototype.name = function ...` when scope s is a function
 * assigned so (a prototype method: `this.other()` in it resolves to its
 * siblings), else a null node. */
TSNode lf_tssem_proto_owner(const lf_tssem *m, int32_t s);
/* The scope's i-th parameter binding, or NULL. */
const lf_tsbinding *lf_tssem_param(const lf_tssem *m, int32_t scope, uint32_t i);
/* Which of the scope's parameters (lf_tssem_param's i) binding b is, or -1. */
int lf_tssem_param_index(const lf_tssem *m, int32_t scope, const lf_tsbinding *b);

/* Is the node within the byte range of a package-manager lock file name
 * (package-lock.json, yarn.lock, ...)? By the key's text. */
int lf_tssem_is_package_lockfile(const char *key);

/* The named nodes that start where `word` is spelled in the text (the
 * identifier or property there, or a string fragment, a comment ...), in
 * source order, each once. Found by searching the text rather than walking
 * the tree: a 9 MB bundle has millions of nodes and a handful of `.mtime`
 * reads. Callers check each node's type and text. */
typedef LF_VEC(TSNode) lf_tsnode_vec;
void lf_tssem_tokens(const lf_tssem *m, const char *word, lf_tsnode_vec *out);
/* Sort nodes into the order a pre-order walk visits them (start byte, then
 * the enclosing node first) and drop repeats. */
void lf_tssem_preorder(lf_tsnode_vec *v);

#endif
