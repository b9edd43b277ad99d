/* LF104: one function reads a state document, changes it and writes it back to
 * the same place with no lock held. Works on the semantic model (lf_pysem,
 * lf_pylock); nothing here reads comments or searches function text. TS/JS
 * files go to lf104_ts.c.
 *
 * Reads and writes of a document, each naming its path by a lock-independent
 * key (lf_pylock_key_of: fields, parameters, helper results, expressions):
 *  - json.load(F) / json.loads(F.read()) / json.loads(P.read_text()) with F
 *    opened from P (`with open(P) as F`, `F = open(P)`, `open(P)` inline);
 *    json.dump(V, F) / P.write_text(json.dumps(V)) / F.write(json.dumps(V)),
 *    the text joined with a literal (`+ "\n"`) or encoded; pickle's
 *    load/loads/dump/dumps the same way;
 *    a write to a temp path later moved onto P (os.replace & co) writes P;
 *  - the module's own load/save helpers: a function that returns a document it
 *    reads, or writes one of its parameters as a document; a helper's path
 *    that is one of its parameters is the caller's argument;
 *  - TOML documents through a file object (`f = TOMLFile(P)`, tomlkit's or
 *    poetry's): `v = f.read()` ... `f.write(v)`;
 *  - helpers the module imports, by their names (`read_state(key)`,
 *    `save_json(path, data)`): read_/load_ + what they load, write_/save_/store_,
 *    after a qualifier that says how (`safe_load_json`, `atomic_write_json`).
 * A read `v = <read of P>` pairs with a later write of v to P in the same
 * function. It is a lost update only when the written value carries something
 * derived from the read: a per-caller entry (`v[session_id] = ...`), a value
 * computed from the old one (`v["n"] = v["n"] + 1`, `v.setdefault(..).append`),
 * or any change the analysis cannot bound. A function that only stores fixed
 * keys with values independent of what it read (a cache refreshed whole) is
 * serialisable whatever the interleaving, as long as it is the document's only
 * kind of writer: where another function makes a derived change to the same
 * document, the stale copy written back loses that change (report_pair).
 *
 * No finding for a document under a directory the process made for itself
 * (tempfile.mkdtemp, TemporaryDirectory, pytest's tmp_path): it is not shared;
 * nor in test code (the engine runs no built-in check there: lf_testpath),
 * whose documents are its own fixtures.
 *
 * No finding when a lock is held: the function takes one (lf_pylock: lock
 * classes, flock, exclusive creates, .acquire(), the module's helpers that do)
 * or releases one after the read (it was taken before), the read sits in a
 * `with` over a lock (a call that acquires, a lock object held in a name or
 * field), the function is decorated with a lock, or every call of it in the
 * module happens with a lock held in one of these ways. */
#include <stdlib.h>
#include <string.h>

#include "lf104_site.h"
#include "lf_check.h"
#include "lf_py.h"
#include "lf_pycfg.h"
#include "lf_pyheld.h"
#include "lf_pygate.h"
#include "lf_pylock.h"
#include "lf_pyshort.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_util.h"
#include "lf_witness_build.h"

typedef struct doc_op {
    TSNode call;   /* the read or write call (the finding's place for a read) */
    TSNode path;   /* the path expression, for messages */
    lf_pkey key;
    TSNode data;   /* write: the value written; read: null */
    int32_t scope; /* the function it happens in */
    int write;
    lf104_path_kind kind; /* where `path` comes from (the fix trusts only a path spelled here) */
    TSNode moved;         /* write: the later move of its temp onto the path (os.replace & co), or null */
    /* An imported helper that names its document itself (`load_task_state()`
     * ... `save_task_state(state)`): no path argument to key on, so the
     * document is the helper pair's stem ("task_state") in the module it is
     * imported from; both interned, NULL otherwise. */
    const char *stem, *origin;
} doc_op;

typedef LF_VEC(doc_op) op_vec;

/* Per function of the module: does it return a document it reads / write one
 * of its parameters? The path is kept as an expression in the helper, or as
 * the index of the helper's parameter holding it. */
typedef struct helper_info {
    int reads, writes;
    int returns; /* returns a value (returns_value): 0 not asked yet, 1 yes, 2 no */
    TSNode read_path, write_path;
    const lf_pybinding *read_param, *write_param; /* the path parameter, or NULL */
    const lf_pybinding *data_param;               /* writes: the parameter written */
} helper_info;

/* ---- direct reads and writes ---- */

/* Serialisers whose documents round-trip through a file: JSON, and pickled
 * state (same call shapes: load(F)/loads(S)/dump(V, F)/dumps(V)). */
static const char *const k_json_load[] = {"json.load", "pickle.load", NULL};
static const char *const k_json_loads[] = {"json.loads", "pickle.loads", NULL};
static const char *const k_json_dump[] = {"json.dump", "pickle.dump", NULL};
static const char *const k_json_dumps[] = {"json.dumps", "pickle.dumps", NULL};

static const lf_pybinding *binding_of(lf_pysem *m, TSNode ident);

/* The path whose text an expression is (`P.read_text()`, `F.read()`, a name
 * bound to one of those), or null. */
static TSNode text_source(lf_pylock *l, TSNode e) {
    lf_pysem *m = l->m;
    for (int hops = 0; hops < 8 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call")) {
            if (lf_py_method_is(m->src, e, "read_text") || lf_py_method_is(m->src, e, "read_bytes"))
                return lf_py_callee_object(e);
            if (lf_py_method_is(m->src, e, "strip") || lf_py_method_is(m->src, e, "rstrip") ||
                lf_py_method_is(m->src, e, "decode") || lf_py_method_is(m->src, e, "splitlines") ||
                lf_py_method_is(m->src, e, "split")) {
                e = lf_py_callee_object(e); /* the same text, trimmed, decoded or in lines */
                continue;
            }
            if (lf_py_method_is(m->src, e, "read") || lf_py_method_is(m->src, e, "readlines"))
                return lf_pylock_handle_path(l, lf_py_callee_object(e));
            /* the lines of the file an open call opened (`for line in open(p)`) */
            return lf_pylock_handle_path(l, e);
        }
        if (!lf_tree_is(e, "identifier"))
            return (TSNode){0};
        const lf_pybinding *b = binding_of(m, e);
        if (b && b->kind == LF_PYBIND_FOR && !ts_node_is_null(b->value)) { /* `for line in f:` */
            e = b->value;
            continue;
        }
        if (b && b->kind == LF_PYBIND_WITH) /* the lines of `with open(p) as f` */
            return lf_pylock_handle_path(l, e);
        TSNode v = lf_pysem_resolve_value(m, e);
        if (ts_node_eq(v, e))
            return (TSNode){0};
        e = v;
    }
    return (TSNode){0};
}

/* A counter kept as text: `int(P.read_text())`, `float(f.read().strip())`. */
static const char *const k_numbers[] = {"int", "float", NULL};

/* A document read: json.load(F) / json.loads(text of P), or a number parsed
 * from the text of P. Returns P or null. */
static TSNode direct_read(lf_pylock *l, TSNode call) {
    lf_pysem *m = l->m;
    if (lf_pylock_callee_any(m, call, k_json_load))
        return lf_pylock_handle_path(l, lf_pylock_arg(m, call, 0, "fp"));
    if (lf_pylock_callee_any(m, call, k_json_loads))
        return text_source(l, lf_pylock_arg(m, call, 0, "s"));
    if (lf_pysem_call_is(m, call, k_numbers) && lf_pylock_plain_args(call))
        return text_source(l, lf_pylock_arg(m, call, 0, NULL));
    return (TSNode){0};
}

/* The value a json.dumps(V) call serialises, or null; also through what
 * keeps the text whole: a string literal joined on either side
 * (`json.dumps(V) + "\n"`), `.encode(...)`, and a name bound to such a text
 * (`payload = json.dumps(V)` ... `P.write_text(payload)`). */
static TSNode dumps_value(lf_pysem *m, TSNode e) {
    for (int hops = 0; hops < 6; hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, e);
            if (ts_node_is_null(v) || ts_node_eq(v, e))
                return (TSNode){0};
            e = v;
            continue;
        }
        if (lf_tree_is(e, "binary_operator") && lf_tree_is(lf_tree_field(e, "operator"), "+")) {
            TSNode a = lf_tree_unparen(lf_tree_field(e, "left")), b = lf_tree_unparen(lf_tree_field(e, "right"));
            if (lf_tree_is(b, "string"))
                e = a;
            else if (lf_tree_is(a, "string"))
                e = b;
            else
                return (TSNode){0};
            continue;
        }
        if (lf_tree_is(e, "call") && lf_py_method_is(m->src, e, "encode")) {
            e = lf_py_callee_object(e);
            continue;
        }
        /* JSON lines: `"\n".join(json.dumps(r) for r in rows)` writes rows */
        if (lf_tree_is(e, "call") && lf_py_method_is(m->src, e, "join") &&
            lf_tree_is(lf_tree_unparen(lf_py_callee_object(e)), "string")) {
            TSNode gen = lf_tree_field(e, "arguments"); /* `join(f(r) for r in rows)`: the call's own */
            if (!lf_tree_is(gen, "generator_expression"))
                gen = lf_tree_unparen(lf_pylock_arg(m, e, 0, NULL));
            if (lf_tree_is(gen, "call") && lf_py_is(m->src, lf_tree_field(gen, "function"), "map")) {
                TSNode fn = lf_pylock_arg(m, gen, 0, NULL); /* map(json.dumps, rows) */
                if (!ts_node_is_null(fn) && lf_pysem_qualname(m, fn) &&
                    !strcmp(lf_pysem_qualname(m, fn), "json.dumps"))
                    return lf_pylock_arg(m, gen, 1, NULL);
                return (TSNode){0};
            }
            if (!lf_tree_is(gen, "generator_expression") && !lf_tree_is(gen, "list_comprehension"))
                return (TSNode){0};
            TSNode body = lf_tree_unparen(lf_tree_field(gen, "body")), clause = {0};
            /* a line each: `json.dumps(r) + "\n"` */
            if (lf_tree_is(body, "binary_operator") && lf_tree_is(lf_tree_field(body, "operator"), "+") &&
                lf_tree_is(lf_tree_unparen(lf_tree_field(body, "right")), "string"))
                body = lf_tree_unparen(lf_tree_field(body, "left"));
            for (uint32_t i = 0; i < ts_node_named_child_count(gen); i++)
                if (lf_tree_is(ts_node_named_child(gen, i), "for_in_clause")) {
                    if (!ts_node_is_null(clause))
                        return (TSNode){0}; /* nested loops: not one row per line */
                    clause = ts_node_named_child(gen, i);
                }
            if (ts_node_is_null(clause) || !lf_tree_is(body, "call") || !lf_pylock_callee_any(m, body, k_json_dumps))
                return (TSNode){0};
            TSNode row = lf_tree_unparen(lf_pylock_arg(m, body, 0, "obj")), var = lf_tree_field(clause, "left");
            if (!lf_tree_is(row, "identifier") || !lf_tree_equal(m->src, row, m->src, var, 0))
                return (TSNode){0};
            return lf_tree_field(clause, "right");
        }
        break;
    }
    /* a counter's text: `str(n)` */
    static const char *const as_text[] = {"str", NULL};
    if (lf_tree_is(e, "call") && lf_pysem_call_is(m, e, as_text) && lf_pylock_plain_args(e))
        return lf_pylock_arg(m, e, 0, NULL);
    if (!lf_tree_is(e, "call") || !lf_pylock_callee_any(m, e, k_json_dumps))
        return (TSNode){0};
    return lf_pylock_arg(m, e, 0, "obj");
}

/* The binding an identifier use reads, or NULL. */
static const lf_pybinding *binding_of(lf_pysem *m, TSNode ident) {
    char *name = lf_tree_text(m->src, ident);
    const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, ident), name, ts_node_start_byte(ident));
    free(name);
    return b;
}

/* `fd, tmp = tempfile.mkstemp(...)`: for the binding of fd, the name bound
 * beside it (tmp); null otherwise. */
static TSNode mkstemp_fd_name(lf_pysem *m, const lf_pybinding *b) {
    static const char *const mkstemp[] = {"tempfile.mkstemp", NULL};
    TSNode pat = ts_node_parent(b->target), asg = ts_node_is_null(pat) ? pat : ts_node_parent(pat);
    if (ts_node_is_null(asg) || !(lf_tree_is(pat, "pattern_list") || lf_tree_is(pat, "tuple_pattern")) ||
        !lf_tree_is(asg, "assignment") || ts_node_named_child_count(pat) != 2 ||
        !ts_node_eq(ts_node_named_child(pat, 0), b->target))
        return (TSNode){0};
    TSNode made = lf_tree_unparen(lf_tree_field(asg, "right"));
    if (!lf_tree_is(made, "call") || !lf_pysem_call_is(m, made, mkstemp))
        return (TSNode){0};
    TSNode tmp = ts_node_named_child(pat, 1);
    return lf_tree_is(tmp, "identifier") ? tmp : (TSNode){0};
}

/* The temp name of a file object opened on a mkstemp (or os.open) descriptor:
 * `fd, tmp = tempfile.mkstemp(..)` ... `with os.fdopen(fd, "w") as f` gives
 * `tmp` (the name bound beside fd), so a later `os.replace(tmp, P)` moves what
 * was written through f onto P. Null otherwise. */
static TSNode mkstemp_name(lf_pysem *m, TSNode handle) {
    static const char *const fdopen[] = {"os.fdopen", NULL};
    TSNode open = lf_tree_unparen(handle);
    if (lf_tree_is(open, "identifier")) { /* `with os.fdopen(fd) as f`, `f = os.fdopen(fd)` */
        const lf_pybinding *hb = binding_of(m, open);
        if (!hb || (hb->kind != LF_PYBIND_WITH && hb->kind != LF_PYBIND_ASSIGN) || ts_node_is_null(hb->value))
            return (TSNode){0};
        open = lf_tree_unparen(hb->value);
    }
    if (!lf_tree_is(open, "call") || !lf_pysem_call_is(m, open, fdopen))
        return (TSNode){0};
    TSNode fd = lf_tree_unparen(lf_pylock_arg(m, open, 0, "fd"));
    if (!lf_tree_is(fd, "identifier"))
        return (TSNode){0};
    const lf_pybinding *b = binding_of(m, fd);
    if (!b || b->kind != LF_PYBIND_ASSIGN)
        return (TSNode){0};
    /* `fd = os.open(str(tmp), os.O_WRONLY | os.O_CREAT | os.O_EXCL)`: the
     * file object writes the path os.open opened (`tmp`, moved into place
     * later) */
    static const char *const os_open[] = {"os.open", NULL};
    static const char *const as_str[] = {"str", "os.fspath", NULL};
    TSNode v = lf_tree_unparen(b->value);
    if (!ts_node_is_null(v) && lf_tree_is(v, "call") && lf_pysem_call_is(m, v, os_open)) {
        TSNode p = lf_tree_unparen(lf_pylock_arg(m, v, 0, "path"));
        if (lf_tree_is(p, "call") && lf_pysem_call_is(m, p, as_str) && lf_pylock_plain_args(p))
            p = lf_tree_unparen(lf_pylock_arg(m, p, 0, NULL));
        return p;
    }
    return mkstemp_fd_name(m, b);
}

/* What a write through a file object writes: the path it was opened from, or
 * the file object itself (a temp file moved into place later, by `F.name`). */
static TSNode written_file(lf_pylock *l, TSNode handle) {
    TSNode p = lf_pylock_handle_path(l, handle);
    if (ts_node_is_null(p))
        p = mkstemp_name(l->m, handle);
    /* `open(fd, "w")` with fd from mkstemp: the temp's name */
    const lf_pybinding *b = lf_tree_is(p, "identifier") ? binding_of(l->m, p) : NULL;
    TSNode tmp = b && b->kind == LF_PYBIND_ASSIGN ? mkstemp_fd_name(l->m, b) : (TSNode){0};
    if (!ts_node_is_null(tmp))
        return tmp;
    return ts_node_is_null(p) ? handle : p;
}

/* Is the callee's last name `name` (`atomic_write(...)`, `fileio.atomic_write(...)`)? */
static int callee_named(const lf_pysem *m, TSNode call, const char *name) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    TSNode last = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : fn;
    return lf_tree_is(last, "identifier") && lf_tree_text_eq(m->src, last, name);
}

/* A document write: json.dump(V, F), P.write_text(json.dumps(V)),
 * F.write(json.dumps(V)). Returns P, *data = V. */
static TSNode direct_write(lf_pylock *l, TSNode call, TSNode *data) {
    lf_pysem *m = l->m;
    if (lf_pylock_callee_any(m, call, k_json_dump)) {
        *data = lf_pylock_arg(m, call, 0, "obj");
        return ts_node_is_null(*data) ? (TSNode){0} : written_file(l, lf_pylock_arg(m, call, 1, "fp"));
    }
    int text = lf_py_method_is(m->src, call, "write_text") || lf_py_method_is(m->src, call, "write_bytes");
    if (text || lf_py_method_is(m->src, call, "write")) {
        TSNode arg = lf_pylock_arg(m, call, 0, NULL);
        *data = dumps_value(m, arg);
        /* a writer handed the serialised text (`def _atomic_write(path,
         * contents): ... f.write(contents)`): its callers say what it is */
        if (ts_node_is_null(*data) && lf_tree_is(lf_tree_unparen(arg), "identifier")) {
            const lf_pybinding *b = binding_of(m, lf_tree_unparen(arg));
            if (b && b->kind == LF_PYBIND_PARAM)
                *data = lf_tree_unparen(arg);
        }
        if (ts_node_is_null(*data))
            return (TSNode){0};
        return text ? lf_py_callee_object(call) : written_file(l, lf_py_callee_object(call));
    }
    /* Another module's atomic writer, handed the path and the serialised
     * document: `atomic_write(PATH, json.dumps(V))` (the module's own
     * writers are followed as helpers instead). */
    int skip = 0;
    if (callee_named(m, call, "atomic_write") && lf_pylock_local_callee(l, call, &skip) < 0) {
        *data = dumps_value(m, lf_pylock_arg(m, call, 1, NULL));
        return ts_node_is_null(*data) ? (TSNode){0} : lf_pylock_arg(m, call, 0, NULL);
    }
    return (TSNode){0};
}

/* os.replace(T, P) & co: *from = T; returns P. */
static TSNode move_call(lf_pylock *l, TSNode call, TSNode *from) {
    lf_pysem *m = l->m;
    static const char *const moves[] = {"os.replace", "os.rename", "shutil.move", NULL};
    if (lf_pylock_callee_any(m, call, moves)) {
        *from = lf_pylock_arg(m, call, 0, "src");
        return lf_pylock_arg(m, call, 1, "dst");
    }
    const char *q = lf_pysem_callee(m, call);
    if (q && (!strcmp(q, "pathlib.Path.replace") || !strcmp(q, "pathlib.Path.rename"))) {
        *from = lf_py_callee_object(call);
        return lf_pylock_arg(m, call, 0, "target");
    }
    return (TSNode){0};
}

/* ---- document file objects (tomlkit's and poetry's TOMLFile) ---- */

/* Does a type annotation name a TOMLFile (`TOMLFile`, `x.TOMLFile`, a string)? */
static int toml_file_type(const lf_source *src, TSNode t) {
    if (ts_node_is_null(t))
        return 0;
    size_t n = ts_node_end_byte(t) - ts_node_start_byte(t);
    const char *s = src->text + ts_node_start_byte(t);
    while (n && (s[n - 1] == '"' || s[n - 1] == '\''))
        n--;
    return n >= 8 && !memcmp(s + n - 8, "TOMLFile", 8) && (n == 8 || s[n - 9] == '.' || s[n - 9] == '"' ||
                                                          s[n - 9] == '\'');
}

/* The class body holding a method (or null). */
static TSNode class_body_of(TSNode fn) {
    TSNode b = ts_node_parent(fn);
    if (!ts_node_is_null(b) && lf_tree_is(b, "decorated_definition"))
        b = ts_node_parent(b);
    TSNode c = ts_node_is_null(b) ? b : ts_node_parent(b);
    return !ts_node_is_null(c) && lf_tree_is(c, "class_definition") ? b : (TSNode){0};
}

typedef struct member_search {
    const lf_source *src;
    TSNode name;  /* the attribute looked for */
    TSNode found; /* a property's returned expression, or a field's assigned value */
} member_search;

static lf_walk_action visit_member(TSNode n, void *ud) {
    member_search *ms = ud;
    if (!ts_node_is_null(ms->found) || lf_tree_is(n, "class_definition"))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "decorated_definition")) {
        TSNode def = lf_tree_field(n, "definition");
        if (lf_tree_is(def, "function_definition") && lf_py_same_text(ms->src, lf_tree_field(def, "name"), ms->name)) {
            /* `@property def file(self): return self._file` */
            TSNode body = lf_tree_field(def, "body");
            for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
                TSNode st = ts_node_named_child(body, i);
                if (lf_tree_is(st, "return_statement") && ts_node_named_child_count(st) == 1)
                    ms->found = ts_node_named_child(st, 0);
            }
            return LF_WALK_SKIP;
        }
    }
    if (lf_tree_is(n, "assignment")) {
        TSNode left = lf_tree_unparen(lf_tree_field(n, "left"));
        if (lf_tree_is(left, "attribute") && lf_py_same_text(ms->src, lf_tree_field(left, "attribute"), ms->name)) {
            ms->found = lf_tree_field(n, "right");
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* Is `self.X` a TOMLFile the object was given: X a field assigned from a
 * parameter annotated TOMLFile, or a property returning such a field? A few
 * steps at most. */
static int typed_document_member(lf_pysem *m, TSNode e) {
    for (int hops = 0; hops < 3; hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "identifier")) {
            char *name = lf_tree_text(m->src, e);
            const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
            free(name);
            return b && b->kind == LF_PYBIND_PARAM && toml_file_type(m->src, b->annotation);
        }
        if (!lf_tree_is(e, "attribute"))
            return 0;
        int32_t sc = lf_pysem_scope_of(m, e);
        if (sc <= 0 || m->scopes[sc].cls < 0)
            return 0;
        TSNode body = class_body_of(m->scopes[sc].node);
        if (ts_node_is_null(body))
            return 0;
        member_search ms;
        memset(&ms, 0, sizeof ms);
        ms.src = m->src;
        ms.name = lf_tree_field(e, "attribute");
        lf_tree_walk(body, visit_member, &ms);
        if (ts_node_is_null(ms.found))
            return 0;
        e = ms.found;
    }
    return 0;
}

/* Is the expression (through local names) a document file object:
 * `f = TOMLFile(path)`, or a field or property holding a TOMLFile parameter
 * (`self.file`)? *path = the path it wraps (the object itself for a field). */
static int document_file(lf_pysem *m, TSNode e, TSNode *path) {
    e = lf_tree_unparen(e);
    if (lf_tree_is(e, "attribute") && typed_document_member(m, e)) {
        *path = e;
        return 1;
    }
    if (lf_tree_is(e, "identifier"))
        e = lf_tree_unparen(lf_pysem_resolve_value(m, e));
    if (!lf_tree_is(e, "call"))
        return 0;
    const char *q = lf_pysem_callee(m, e);
    size_t n = q ? strlen(q) : 0;
    if (!q || n < 8 || strcmp(q + n - 8, "TOMLFile") != 0 || (n > 8 && q[n - 9] != '.'))
        return 0;
    *path = lf_pylock_arg(m, e, 0, "path");
    return !ts_node_is_null(*path);
}

/* `v = f.read()` / `f.write(v)` on a document file object: the path (as the
 * object's argument), *data for a write. */
static TSNode document_file_op(lf_pysem *m, TSNode call, int *write, TSNode *data) {
    TSNode path = {0};
    int rd = lf_py_method_is(m->src, call, "read"), wr = lf_py_method_is(m->src, call, "write");
    if ((!rd && !wr) || !document_file(m, lf_py_callee_object(call), &path))
        return (TSNode){0};
    *write = wr;
    if (wr) {
        *data = lf_pylock_arg(m, call, 0, "data");
        if (ts_node_is_null(*data))
            return (TSNode){0};
    }
    return path;
}

/* ---- helpers by name (imported, not resolvable here) ---- */

static const char *const k_doc_words[] = {"state", "json", "data", "registry", "counter", "count", "session",
                                          "cache", "config", "settings", "db", "store", "index", "manifest", NULL};

/* A qualifier before the verb of a helper's name (`safe_load_json`,
 * `atomic_write_json`, `_load_state`): how it reads or writes, not what. Its
 * length, or 0. */
static size_t name_qualifier(const char *s, size_t len) {
    static const char *const quals[] = {"safe_", "atomic_", "_", NULL};
    for (size_t i = 0; quals[i]; i++) {
        size_t n = strlen(quals[i]);
        if (len > n && !memcmp(s, quals[i], n))
            return n;
    }
    return 0;
}

/* read_state, load_json_file, ...: a prefix, then one of the document words.
 * On the name's bytes, so that the gate asks the same of the text. */
static int reader_name(const char *s, size_t len) {
    size_t q = name_qualifier(s, len);
    s += q;
    len -= q;
    size_t p = 0;
    if (len > 5 && !memcmp(s, "read_", 5))
        p = 5;
    else if (len > 5 && !memcmp(s, "load_", 5))
        p = 5;
    else
        return 0;
    for (size_t i = 0; k_doc_words[i]; i++) {
        size_t w = strlen(k_doc_words[i]);
        if (len - p >= w && !memcmp(s + p, k_doc_words[i], w))
            return 1;
    }
    return 0;
}

static int writer_name(const char *s, size_t len) {
    size_t q = name_qualifier(s, len);
    s += q;
    len -= q;
    return (len > 6 && !memcmp(s, "write_", 6)) || (len > 5 && !memcmp(s, "save_", 5)) ||
           (len > 6 && !memcmp(s, "store_", 6));
}

static int named_reader(const lf_source *src, TSNode name) {
    return reader_name(src->text + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
}

static int named_writer(const lf_source *src, TSNode name) {
    return writer_name(src->text + ts_node_start_byte(name), ts_node_end_byte(name) - ts_node_start_byte(name));
}

/* The stem of a named helper: `load_task_state` -> "task_state" (the
 * prefix of named_reader or named_writer dropped), interned; NULL if none. */
static const char *named_stem(lf_pysem *m, TSNode name, int write) {
    static const char *const rd[] = {"read_", "load_", NULL}, *const wr[] = {"write_", "save_", "store_", NULL};
    const char *const *pre = write ? wr : rd;
    size_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
    const char *s = m->src->text + ts_node_start_byte(name);
    size_t q = name_qualifier(s, len);
    s += q;
    len -= q;
    for (size_t i = 0; pre[i]; i++) {
        size_t n = strlen(pre[i]);
        if (len > n && !memcmp(s, pre[i], n))
            return lf_pysem_intern(m, s + n, len - n);
    }
    return NULL;
}

/* Is one of the stem's `_`-separated words a word for state the running
 * processes keep (`task_state`, `persistent_state`)? A helper that names no
 * path must say what it loads. As for TS/JS (lf104_ts.c), not configuration,
 * settings or a manifest: a command the user runs writes those. */
static const char *const k_state_words[] = {"state", "json", "data", "registry", "counter", "count", "session",
                                            "sessions", "cache", "db", "store", "index", "meta", "metadata",
                                            "history", "ledger", "queue", NULL};

static int stem_names_document_n(const char *w, size_t len) {
    for (const char *end = w + len; w < end;) {
        const char *e = memchr(w, '_', (size_t)(end - w));
        size_t n = e ? (size_t)(e - w) : (size_t)(end - w);
        for (size_t i = 0; k_state_words[i]; i++)
            if (strlen(k_state_words[i]) == n && !memcmp(w, k_state_words[i], n))
                return 1;
        if (!e)
            break;
        w = e + 1;
    }
    return 0;
}

static int stem_names_document(const char *stem) { return stem_names_document_n(stem, strlen(stem)); }

/* Could a call of this name read a document by its name alone (named_reader,
 * or a read_/load_ stem that names state: named_stem_op)? */
static int may_read_by_name(const char *s, size_t len) {
    size_t q = name_qualifier(s, len);
    s += q;
    len -= q;
    return reader_name(s, len) ||
           (len > 5 && (!memcmp(s, "read_", 5) || !memcmp(s, "load_", 5)) && stem_names_document_n(s + 5, len - 5));
}

/* The module an imported helper comes from (`lib.state` for
 * `from lib.state import load_task_state`), interned; NULL when unknown. */
static const char *callee_origin(lf_pysem *m, TSNode call) {
    const char *q = lf_pysem_callee(m, call);
    const char *dot = q ? strrchr(q, '.') : NULL;
    return dot && dot > q ? lf_pysem_intern(m, q, (size_t)(dot - q)) : NULL;
}

/* ---- parameters ---- */

/* Parameters by position, computed once: per binding its index among its
 * function's parameters (-1 for other bindings). */
typedef struct params {
    int32_t *index; /* per binding */
} params;

static params params_build(lf_pysem *m) {
    params p;
    p.index = lf_xmalloc((m->n_bindings ? m->n_bindings : 1) * sizeof *p.index);
    int32_t *count = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *count);
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        p.index[i] = -1;
        if (b->kind == LF_PYBIND_PARAM && b->scope >= 0 && m->scopes[b->scope].kind == LF_PYSCOPE_FUNCTION &&
            lf_tree_within(b->target, lf_tree_field(m->scopes[b->scope].node, "parameters")))
            p.index[i] = count[b->scope]++;
    }
    free(count);
    return p;
}

/* The parameter an expression names (following local names), or NULL. */
static const lf_pybinding *param_of(lf_pylock *l, const params *ps, TSNode e) {
    lf_pkey k = lf_pylock_key_of(l, e);
    if (k.kind != LF_PKEY_BIND || ps->index[k.binding - l->m->bindings] < 0)
        return NULL;
    return k.binding;
}

/* The argument a call passes for a helper's parameter (skip: `self`). */
static TSNode arg_for(lf_pysem *m, const params *ps, TSNode call, const lf_pybinding *param, int skip) {
    int idx = ps->index[param - m->bindings];
    if (idx < skip)
        return (TSNode){0};
    return lf_pylock_arg(m, call, (uint32_t)(idx - skip), param->name);
}

/* Does the function return a value (a `return X`, not inside a nested def)? */
typedef struct ret_search {
    int found;
} ret_search;

static lf_walk_action visit_return(TSNode n, void *ud) {
    ret_search *r = ud;
    if (lf_pysem_is_function_node(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "return_statement") && ts_node_named_child_count(n) > 0) {
        r->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* ---- does the write carry what was read? ---- */

typedef LF_VEC(const char *) name_vec;

typedef struct flow {
    lf_pysem *m;
    TSNode fn;
    uint32_t from, to; /* bytes after the read, before the write */
    TSNode read;       /* the read call */
    name_vec names;    /* the variable read and the names derived from it */
    name_vec copies;   /* names holding the read's entries whole: an alias, a filtered or
                        * sorted copy, a container filled from it (`kept[k] = row`) */
    int lost;          /* a change derived from the read: a lost update */
    int picked;        /* a fixed store into an element a loop picked from the read */
    int rebound;       /* the variable is bound anew to something not derived */
} flow;

static int is_tracked(flow *f, TSNode ident) {
    for (size_t i = 0; i < f->names.len; i++)
        if (lf_tree_text_eq(f->m->src, ident, f->names.items[i]))
            return 1;
    return 0;
}

typedef struct mention_search {
    flow *f;
    int found;
} mention_search;

static lf_walk_action visit_mention(TSNode n, void *ud) {
    mention_search *s = ud;
    if (lf_tree_is(n, "identifier") && is_tracked(s->f, n)) {
        TSNode p = ts_node_parent(n);
        /* `x.attr` / keyword names are not reads of x... unless x is the object. */
        if (!ts_node_is_null(p) && lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "attribute"), n))
            return LF_WALK_CONTINUE;
        if (!ts_node_is_null(p) && lf_tree_is(p, "keyword_argument") && ts_node_eq(lf_tree_field(p, "name"), n))
            return LF_WALK_CONTINUE;
        s->found = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

static int mentions(flow *f, TSNode n) {
    if (ts_node_is_null(n))
        return 0;
    mention_search s = {f, 0};
    lf_tree_walk(n, visit_mention, &s);
    return s.found;
}

static int is_literal_key(TSNode k) {
    k = lf_tree_unparen(k);
    return lf_tree_is(k, "string") || lf_tree_is(k, "concatenated_string") || lf_tree_is(k, "integer") ||
           lf_tree_is(k, "true") || lf_tree_is(k, "false") || lf_tree_is(k, "none");
}

/* `v.update({"k": x, ...})` / `v.update(k=x)` with fixed keys and values not
 * derived from the read. */
static int fixed_update(flow *f, TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = lf_tree_unparen(ts_node_named_child(args, i));
        if (lf_tree_is(a, "keyword_argument")) {
            if (mentions(f, lf_tree_field(a, "value")))
                return 0;
            continue;
        }
        if (!lf_tree_is(a, "dictionary"))
            return 0;
        for (uint32_t k = 0; k < ts_node_named_child_count(a); k++) {
            TSNode pair = ts_node_named_child(a, k);
            if (lf_tree_is(pair, "comment"))
                continue;
            if (!lf_tree_is(pair, "pair") || !is_literal_key(lf_tree_field(pair, "key")) ||
                mentions(f, lf_tree_field(pair, "value")))
                return 0;
        }
    }
    return 1;
}

static const char *const k_reading_methods[] = {"get", "keys", "values", "items", "copy", "count", "index",
                                                "__contains__", "__getitem__", NULL};
static const char *const k_pure_calls[] = {"len", "bool", "str", "repr", "int", "float", "isinstance", "print",
                                           "sorted", "list", "tuple", "dict", "set", "frozenset", "any", "all",
                                           "min", "max", "sum", "enumerate", "iter", "hash", "id", "type",
                                           "json.dumps", "typing.cast", "cast", NULL};

/* An assignment statement's target and value when n is its target side. */
static TSNode assignment_of_target(TSNode n, int *aug) {
    TSNode cur = n;
    for (TSNode p = ts_node_parent(cur); !ts_node_is_null(p); cur = p, p = ts_node_parent(p)) {
        if (lf_tree_is(p, "assignment") || lf_tree_is(p, "augmented_assignment")) {
            *aug = lf_tree_is(p, "augmented_assignment");
            return ts_node_eq(lf_tree_field(p, "left"), cur) ? p : (TSNode){0};
        }
        if (!lf_tree_is(p, "subscript") && !lf_tree_is(p, "attribute") && !lf_tree_is(p, "pattern_list") &&
            !lf_tree_is(p, "tuple_pattern") && !lf_tree_is(p, "list_pattern"))
            return (TSNode){0};
    }
    return (TSNode){0};
}

/* `v["a"]["b"]` with o = v: the outermost subscript of o (o itself when none);
 * *fixed = every key on the way is a literal. */
static TSNode subscript_top(TSNode o, int *fixed) {
    *fixed = 1;
    TSNode cur = o;
    for (TSNode p = ts_node_parent(cur); !ts_node_is_null(p) && lf_tree_is(p, "subscript") &&
                                         ts_node_eq(lf_tree_field(p, "value"), cur);
         cur = p, p = ts_node_parent(p))
        if (!is_literal_key(lf_tree_field(p, "subscript")))
            *fixed = 0;
    return cur;
}

/* Are a and b in different branches of the nearest `if` holding both (the
 * read in the body, the name bound anew in the `else`), or is a in a handler
 * of the `try` whose body holds b? A bounded climb. */
static int other_branch(TSNode a, TSNode b) {
    TSNode child = a;
    TSNode p = ts_node_parent(a);
    for (int steps = 0; steps < 64 && !ts_node_is_null(p); steps++, child = p, p = ts_node_parent(p)) {
        if (!lf_tree_within(b, p))
            continue;
        /* `try: v = read() except E: v = {}`: the handler runs only when the
         * body raised before the read was bound, so its value is another path. */
        if (lf_tree_is(p, "try_statement"))
            return lf_tree_is(child, "except_clause") && lf_tree_within(b, lf_tree_field(p, "body"));
        if (!lf_tree_is(p, "if_statement"))
            return 0;
        TSNode cond = lf_tree_field(p, "condition");
        if (lf_tree_within(a, cond) || lf_tree_within(b, cond))
            return 0;
        return !lf_tree_within(b, child);
    }
    return 0;
}

/* Is a, after the read b, bound only on some runs: inside a branch, a loop's
 * body or a handler that does not also hold b (`if data.get("date") != today:
 * data = {...}`: on the other runs the read value goes on to the write)? A
 * bounded climb to the nearest statement holding both. */
static int only_sometimes(TSNode a, TSNode b) {
    TSNode p = ts_node_parent(a);
    for (int steps = 0; steps < 64 && !ts_node_is_null(p) && !lf_tree_within(b, p); steps++, p = ts_node_parent(p))
        if (lf_tree_is(p, "if_statement") || lf_tree_is(p, "elif_clause") || lf_tree_is(p, "else_clause") ||
            lf_tree_is(p, "for_statement") || lf_tree_is(p, "while_statement") || lf_tree_is(p, "except_clause") ||
            lf_tree_is(p, "case_clause") || lf_tree_is(p, "conditional_expression"))
            return 1;
    return 0;
}

/* One use of a tracked name between the read and the write. */
static void judge_use(flow *f, TSNode o) {
    lf_pysem *m = f->m;
    int aug = 0;
    TSNode asg = assignment_of_target(o, &aug);
    if (!ts_node_is_null(asg)) {
        TSNode left = lf_tree_unparen(lf_tree_field(asg, "left"));
        TSNode right = lf_tree_field(asg, "right");
        if (ts_node_eq(left, o)) {
            /* `v = ...`: derived (`v = v + [x]`, `v += 1`) or a new value. A
             * derived name being bound (`x = v.get(k)`) changes nothing. */
            if (!lf_tree_text_eq(m->src, o, f->names.items[0]))
                return;
            if (aug || mentions(f, right))
                f->lost = 1;
            else if (!other_branch(asg, f->read) && !only_sometimes(asg, f->read))
                f->rebound = 1; /* a new value on the read's own path, every time */
            return;
        }
        /* `v[K] = E` / `v[K1][K2] = E` with fixed keys and E not derived: the
         * same slot every run. */
        int fixed = 0;
        TSNode top = subscript_top(o, &fixed);
        /* ...unless the name is an element a loop picked from what was read
         * (`for story in prd["stories"]: story["status"] = s`): which slot
         * changes depends on the read. */
        const lf_pybinding *b = lf_tree_is(o, "identifier") ? binding_of(m, o) : NULL;
        int picked = b && b->kind == LF_PYBIND_FOR && !lf_tree_text_eq(m->src, o, f->names.items[0]);
        if (!aug && fixed && !ts_node_eq(top, o) && ts_node_eq(top, left) && !mentions(f, right)) {
            f->picked |= picked;
            return;
        }
        f->lost = 1;
        return;
    }
    int fixed = 0;
    TSNode top = subscript_top(o, &fixed);
    TSNode p = ts_node_parent(top);
    if (ts_node_is_null(p))
        return;
    if (lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "object"), top)) {
        TSNode call = ts_node_parent(p);
        if (!ts_node_is_null(call) && lf_tree_is(call, "call") && ts_node_eq(lf_tree_field(call, "function"), p)) {
            TSNode meth = lf_tree_field(p, "attribute");
            if (lf_tree_text_eq(m->src, meth, "update")) {
                if (!fixed || !fixed_update(f, call))
                    f->lost = 1;
                return;
            }
            for (size_t i = 0; k_reading_methods[i]; i++)
                if (lf_tree_text_eq(m->src, meth, k_reading_methods[i]))
                    return;
            f->lost = 1; /* append, setdefault, pop, clear, ...: changed in place */
        }
        return; /* an attribute read */
    }
    TSNode pp = ts_node_parent(p);
    if (lf_tree_is(p, "delete_statement") ||
        (lf_tree_is(p, "expression_list") && !ts_node_is_null(pp) && lf_tree_is(pp, "delete_statement"))) {
        f->lost = 1;
        return;
    }
    /* Yielded from a context manager or generator: the caller changes it in
     * its `with` body or loop, unbounded (poetry's FileConfigSource.secure). */
    if (lf_tree_is(p, "yield") || (lf_tree_is(p, "expression_list") && !ts_node_is_null(pp) && lf_tree_is(pp, "yield"))) {
        f->lost = 1;
        return;
    }
    /* Passed to a call that may change it in place. */
    if (lf_tree_is(p, "argument_list") && !lf_str_in_list(lf_pysem_callee(m, pp), k_pure_calls))
        f->lost = 1;
}

/* A method that returns the object updated, as a new one (an immutable
 * record's `state.with_weekly(p, t)`, `model_copy(update=...)`,
 * `_replace(...)`, `evolve(...)`): the whole document, changed. */
static int functional_update(const lf_source *src, TSNode call) {
    static const char *const methods[] = {"model_copy", "_replace", "replace", "evolve", "copy_with", NULL};
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (!lf_tree_is(fn, "attribute"))
        return 0;
    TSNode name = lf_tree_field(fn, "attribute");
    uint32_t a = ts_node_start_byte(name), n = ts_node_end_byte(name) - a;
    if (n > 5 && memcmp(src->text + a, "with_", 5) == 0)
        return 1;
    for (size_t i = 0; methods[i]; i++)
        if (lf_py_method_is(src, call, methods[i]))
            return 1;
    return 0;
}

/* Does an expression carry the tracked value's entries whole (not a new
 * record picking a field or two of it)? The name itself, a comprehension or
 * generator over it, `sorted`/`list`/`dict`/`set`/`tuple`/`copy.copy`/
 * `copy.deepcopy` of it, `v.copy()`, an updated copy of it
 * (functional_update, `dataclasses.replace`), either branch of a conditional,
 * a slice of it, `{**v, ...}`, or `+` with it on one side. */
static int whole_copy(flow *f, TSNode e) {
    static const char *const copiers[] = {"sorted", "list", "dict", "set", "tuple", "copy.copy", "copy.deepcopy", NULL};
    static const char *const updaters[] = {"dataclasses.replace", "attrs.evolve", "attr.evolve", NULL};
    LF_VEC(TSNode) todo = {0}; /* the parts that carry the value whole (no recursion: engine.no_recursion) */
    LF_VEC_PUSH(&todo, e);
    int found = 0;
    while (todo.len && !found) {
        TSNode x = lf_tree_unparen(todo.items[--todo.len]);
        if (ts_node_is_null(x))
            continue;
        if (lf_tree_is(x, "identifier")) {
            found = is_tracked(f, x);
        } else if (lf_tree_is(x, "list_comprehension") || lf_tree_is(x, "dictionary_comprehension") ||
                   lf_tree_is(x, "set_comprehension") || lf_tree_is(x, "generator_expression")) {
            found = mentions(f, x);
        } else if (lf_tree_is(x, "subscript") && lf_tree_is(lf_tree_field(x, "subscript"), "slice")) {
            LF_VEC_PUSH(&todo, lf_tree_field(x, "value"));
        } else if (lf_tree_is(x, "binary_operator") && lf_tree_is(lf_tree_field(x, "operator"), "+")) {
            LF_VEC_PUSH(&todo, lf_tree_field(x, "left"));
            LF_VEC_PUSH(&todo, lf_tree_field(x, "right"));
        } else if (lf_tree_is(x, "dictionary")) {
            for (uint32_t i = 0; i < ts_node_named_child_count(x); i++) {
                TSNode c = ts_node_named_child(x, i);
                if (lf_tree_is(c, "dictionary_splat") && ts_node_named_child_count(c))
                    LF_VEC_PUSH(&todo, ts_node_named_child(c, 0));
            }
        } else if (lf_tree_is(x, "conditional_expression") && ts_node_named_child_count(x) == 3) {
            /* `a if c else b`: either way, whole */
            LF_VEC_PUSH(&todo, ts_node_named_child(x, 0));
            LF_VEC_PUSH(&todo, ts_node_named_child(x, 2));
        } else if (lf_tree_is(x, "call")) {
            TSNode a0 = lf_pylock_arg(f->m, x, 0, NULL);
            if (lf_py_method_is(f->m->src, x, "copy") || functional_update(f->m->src, x))
                LF_VEC_PUSH(&todo, lf_py_callee_object(x));
            else if ((lf_str_in_list(lf_pysem_callee(f->m, x), copiers) ||
                      lf_str_in_list(lf_pysem_callee(f->m, x), updaters)) && !ts_node_is_null(a0))
                LF_VEC_PUSH(&todo, a0);
        }
    }
    LF_VEC_FREE(&todo);
    return found;
}

static lf_walk_action visit_flow(TSNode n, void *ud) {
    flow *f = ud;
    if (ts_node_end_byte(n) <= f->from || ts_node_start_byte(n) >= f->to)
        return LF_WALK_SKIP;
    if (lf_pysem_is_function_node(n))
        return ts_node_eq(n, f->fn) ? LF_WALK_CONTINUE : LF_WALK_SKIP;
    if (ts_node_start_byte(n) < f->from)
        return LF_WALK_CONTINUE; /* a statement holding the read: look inside */
    if (lf_tree_is(n, "assignment") || lf_tree_is(n, "augmented_assignment") || lf_tree_is(n, "for_statement")) {
        /* names bound from a derived value are derived too (`x = v.get(k)`) */
        TSNode right = lf_tree_field(n, "right");
        TSNode left = lf_tree_field(n, "left");
        if (!ts_node_is_null(right) && mentions(f, right) && !ts_node_is_null(left)) {
            /* `kept[k] = row`: kept is filled from the read (a copy written
             * back in its place carries the read's values) */
            TSNode top = lf_tree_unparen(left);
            while (lf_tree_is(top, "subscript"))
                top = lf_tree_unparen(lf_tree_field(top, "value"));
            if (lf_tree_is(top, "identifier") &&
                (!ts_node_eq(top, lf_tree_unparen(left)) || (lf_tree_is(n, "assignment") && whole_copy(f, right))))
                LF_VEC_PUSH(&f->copies, lf_pysem_intern(f->m, f->m->src->text + ts_node_start_byte(top),
                                                         ts_node_end_byte(top) - ts_node_start_byte(top)));
            LF_VEC(TSNode) st = {0};
            LF_VEC_PUSH(&st, left);
            while (st.len) {
                TSNode t = st.items[--st.len];
                if (lf_tree_is(t, "identifier")) {
                    if (!is_tracked(f, t))
                        LF_VEC_PUSH(&f->names, lf_pysem_intern(f->m, f->m->src->text + ts_node_start_byte(t),
                                                               ts_node_end_byte(t) - ts_node_start_byte(t)));
                } else if (lf_tree_is(t, "pattern_list") || lf_tree_is(t, "tuple_pattern") ||
                           lf_tree_is(t, "list_pattern")) {
                    for (uint32_t i = 0; i < ts_node_named_child_count(t); i++)
                        LF_VEC_PUSH(&st, ts_node_named_child(t, i));
                }
            }
            LF_VEC_FREE(&st);
        }
    }
    if (lf_tree_is(n, "identifier") && is_tracked(f, n)) {
        TSNode p = ts_node_parent(n);
        if (!ts_node_is_null(p) && lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "attribute"), n))
            return LF_WALK_CONTINUE;
        if (!ts_node_is_null(p) && lf_tree_is(p, "keyword_argument") && ts_node_eq(lf_tree_field(p, "name"), n))
            return LF_WALK_CONTINUE;
        judge_use(f, n);
    }
    return LF_WALK_CONTINUE;
}

/* Follow what r read into var through fn up to the write w (visit_flow):
 * the names derived from it, its copies, and whether a change is derived. The
 * caller frees f->names and f->copies. */
static void flow_run(flow *f, lf_pysem *m, TSNode fn, const doc_op *r, const doc_op *w, TSNode var) {
    memset(f, 0, sizeof *f);
    f->m = m;
    f->fn = fn;
    f->from = ts_node_end_byte(lf_py_statement(r->call));
    f->read = r->call;
    f->to = ts_node_start_byte(w->call);
    LF_VEC_PUSH(&f->names, lf_pysem_intern(m, m->src->text + ts_node_start_byte(var),
                                           ts_node_end_byte(var) - ts_node_start_byte(var)));
    lf_tree_walk(fn, visit_flow, f);
}

/* Is `data`, written at w, a copy of what r read into var, made between the
 * read and the write: a name bound to the read's entries whole (`kept = [x
 * for x in rows if ...]`, `entry = old`), or a container a derived value is
 * stored into (`kept[sid] = row` in a loop over `rows.items()`)? A new record
 * taking a field or two of the read (`{"created_at": old["created_at"],
 * ...}`) is not: it is written whole whatever the read held. Walks the
 * function once. */
static int derived_copy(lf_pysem *m, TSNode fn, const doc_op *r, const doc_op *w, TSNode var, TSNode data) {
    flow f;
    flow_run(&f, m, fn, r, w, var);
    int found = 0;
    for (size_t i = 0; i < f.copies.len && !found; i++)
        found = lf_tree_text_eq(m->src, data, f.copies.items[i]);
    LF_VEC_FREE(&f.names);
    LF_VEC_FREE(&f.copies);
    return found;
}

/* ---- the check ---- */

typedef struct ctx104 {
    lf_pysem *m;
    lf_pylock *l;
    lf_pyheld *held;
    params ps;
    helper_info *helpers;
    op_vec ops;
    lf_cfg **cfg; /* per scope, built on first use (write_reachable) */
} ctx104;

/* Can control go from the statement holding the read to the one holding the
 * write in their function: a later statement, or a loop's next turn? A read
 * in the branch of one subcommand (`if cmd == "list": ... return`) and a
 * write in another's (`elif cmd == "add"`) are not one update. */
static int write_reachable(ctx104 *c, int32_t scope, TSNode read, TSNode write) {
    if (!c->cfg)
        c->cfg = lf_xcalloc(c->m->n_scopes + 1, sizeof *c->cfg);
    if (!c->cfg[scope])
        c->cfg[scope] = lf_pycfg_build(c->m->src, c->m->scopes[scope].node);
    const lf_cfg *g = c->cfg[scope];
    int32_t a = lf_pycfg_node_of(c->m, g, read), b = lf_pycfg_node_of(c->m, g, write);
    if (a < 0 || b < 0)
        return 1; /* outside the graph: no evidence against */
    if (a == b)
        return ts_node_start_byte(read) < ts_node_start_byte(write);
    return lf_cfg_reaches(g, (uint32_t)a, (uint32_t)b);
}

static void push_op(ctx104 *c, TSNode call, TSNode path, TSNode data, int32_t scope, int write,
                    lf104_path_kind kind) {
    doc_op op;
    memset(&op, 0, sizeof op);
    op.call = call;
    op.path = path;
    op.key = lf_pylock_key_of(c->l, path);
    op.data = data;
    op.scope = scope;
    op.write = write;
    op.kind = kind;
    LF_VEC_PUSH(&c->ops, op);
}

/* A parameter the function only ever rebinds to a value made from itself
 * (`if len(entries) > N: entries = entries[-N:]`): still the caller's
 * document, trimmed. Its PARAM binding, or NULL. */
static const lf_pybinding *param_trimmed(ctx104 *c, TSNode id) {
    lf_pysem *m = c->m;
    int32_t scope = lf_pysem_scope_of(m, id);
    const char *name = lf_pysem_intern(m, m->src->text + ts_node_start_byte(id),
                                       ts_node_end_byte(id) - ts_node_start_byte(id));
    size_t n = 0;
    const lf_pybinding *const *bs = lf_pysem_bindings_of(m, scope, name, &n);
    const lf_pybinding *param = NULL;
    for (size_t i = 0; i < n; i++) {
        const lf_pybinding *b = bs[i];
        if (b->scope != scope)
            continue;
        if (b->kind == LF_PYBIND_PARAM && c->ps.index[b - m->bindings] >= 0)
            param = b;
        else if (b->kind != LF_PYBIND_ASSIGN || ts_node_is_null(b->value) ||
                 !lf_tree_mentions(m->src, b->value, name, NULL))
            return NULL;
    }
    return param;
}

/* The parameter a saver writes: the value itself (`json.dump(data, f)`), or
 * the one parameter a literal bound to it wraps (`data = {"version": 1,
 * "entries": entries}`): the caller's document goes out whole either way. */
static const lf_pybinding *data_param_of(ctx104 *c, TSNode data) {
    /* the parameter's own serialised form (`state.to_dict()`, `cfg.model_dump()`,
     * `dataclasses.asdict(state)`, `vars(state)`): the caller's document still */
    TSNode ser = lf_tree_unparen(data);
    static const char *const to_plain[] = {"to_dict", "model_dump", "dict", "as_dict", "asdict", "_asdict",
                                           "to_json", "model_dump_json", "json", NULL};
    static const char *const plain_of[] = {"dataclasses.asdict", "vars", "attrs.asdict", NULL};
    if (lf_tree_is(ser, "call") && lf_py_call_nargs(ser) == 0) {
        for (size_t i = 0; to_plain[i]; i++)
            if (lf_py_method_is(c->m->src, ser, to_plain[i])) {
                const lf_pybinding *p = param_of(c->l, &c->ps, lf_py_callee_object(ser));
                if (p)
                    return p;
            }
    }
    if (lf_tree_is(ser, "call") && lf_py_call_nargs(ser) == 1 && lf_pylock_plain_args(ser) &&
        lf_pysem_call_is(c->m, ser, plain_of)) {
        const lf_pybinding *p = param_of(c->l, &c->ps, lf_pylock_arg(c->m, ser, 0, NULL));
        if (p)
            return p;
    }
    const lf_pybinding *d = param_of(c->l, &c->ps, data);
    TSNode e = lf_tree_unparen(data);
    if (d || !lf_tree_is(e, "identifier"))
        return d;
    const lf_pybinding *b = binding_of(c->m, e);
    /* each record of a parameter, written a line each (`for r in rows:
     * f.write(json.dumps(r) + "\n")`) */
    if (b && b->kind == LF_PYBIND_FOR && !ts_node_is_null(b->value))
        return param_of(c->l, &c->ps, b->value);
    if (!b || b->kind != LF_PYBIND_ASSIGN || ts_node_is_null(b->value))
        return NULL;
    TSNode lit = lf_tree_unparen(b->value);
    /* a copy of the parameter, stamped before it is written (`payload =
     * dict(data); payload["_meta"] = {...}`): the document, as given */
    static const char *const copies[] = {"dict", "copy.copy", "copy.deepcopy", NULL};
    if (lf_tree_is(lit, "call") && lf_pylock_plain_args(lit) && lf_pysem_call_is(c->m, lit, copies))
        return param_of(c->l, &c->ps, lf_pylock_arg(c->m, lit, 0, NULL));
    if (lf_tree_is(lit, "call") && lf_py_method_is(c->m->src, lit, "copy") && lf_py_call_nargs(lit) == 0)
        return param_of(c->l, &c->ps, lf_py_callee_object(lit));
    if (!lf_tree_is(lit, "dictionary") && !lf_tree_is(lit, "list") && !lf_tree_is(lit, "tuple"))
        return NULL;
    const lf_pybinding *found = NULL;
    for (uint32_t i = 0; i < ts_node_named_child_count(lit); i++) {
        TSNode v = ts_node_named_child(lit, i);
        if (lf_tree_is(v, "pair"))
            v = lf_tree_field(v, "value");
        v = lf_tree_unparen(v);
        const lf_pybinding *p = lf_tree_is(v, "identifier") ? param_of(c->l, &c->ps, v) : NULL;
        if (!p && lf_tree_is(v, "identifier"))
            p = param_trimmed(c, v);
        if (p && found && p != found)
            return NULL; /* two parameters: which is the document is not ours to guess */
        if (p)
            found = p;
    }
    return found;
}

/* First pass: which of the module's functions are load/save helpers. */
/* Does identifier a read the binding b makes (or the one b reads)? A temp
 * name bound `None` first and then by mkstemp is the mkstemp one at the
 * move, though a name bound twice has no single value to key on. */
static int same_binding(lf_pysem *m, TSNode a, TSNode b) {
    a = lf_tree_unparen(a);
    b = lf_tree_unparen(b);
    if (!lf_tree_is(a, "identifier") || !lf_tree_is(b, "identifier"))
        return 0;
    const lf_pybinding *ba = binding_of(m, a), *bb = binding_of(m, b);
    return ba && (ts_node_eq(ba->target, b) || ba == bb); /* b may be the binding's own target */
}

/* Asked per read call of a function, answered once per function. */
static int returns_value(ctx104 *c, int32_t s) {
    helper_info *h = &c->helpers[s];
    if (!h->returns) {
        ret_search r = {0};
        lf_tree_walk(lf_tree_field(c->m->scopes[s].node, "body"), visit_return, &r);
        h->returns = r.found ? 1 : 2;
    }
    return h->returns == 1;
}

static void find_helpers(ctx104 *c) {
    lf_pysem *m = c->m;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node, data = {0};
        int32_t s = m->calls[i].scope;
        if (s <= 0 || m->scopes[s].kind != LF_PYSCOPE_FUNCTION)
            continue;
        helper_info *h = &c->helpers[s];
        TSNode p = direct_read(c->l, call);
        if (!ts_node_is_null(p) && !h->reads) {
            if (returns_value(c, s)) {
                h->reads = 1;
                h->read_path = p;
                h->read_param = param_of(c->l, &c->ps, p);
            }
        }
        p = direct_write(c->l, call, &data);
        if (!ts_node_is_null(p) && !h->writes) {
            const lf_pybinding *d = data_param_of(c, data);
            if (d) {
                h->writes = 1;
                h->write_path = p;
                h->write_param = param_of(c->l, &c->ps, p);
                h->data_param = d;
            }
        }
    }
    /* A function that returns what a reader of the module gives it, for a
     * path it names from its own parameters (`def get_signal(root): return
     * read_json(signal_path(root)) or {}`), reads that path too; a few
     * levels. */
    for (int round = 0; round < 3; round++) {
        int changed = 0;
        for (size_t i = 0; i < m->n_calls; i++) {
            int32_t s = m->calls[i].scope, skip = 0;
            if (s <= 0 || m->scopes[s].kind != LF_PYSCOPE_FUNCTION || c->helpers[s].reads)
                continue;
            int32_t h = lf_pylock_local_callee(c->l, m->calls[i].node, &skip);
            if (h < 0 || h == s || !c->helpers[h].reads)
                continue;
            const helper_info *hi = &c->helpers[h];
            TSNode path = hi->read_param ? arg_for(m, &c->ps, m->calls[i].node, hi->read_param, skip) : hi->read_path;
            if (ts_node_is_null(path) || !returns_value(c, s))
                continue;
            c->helpers[s].reads = 1;
            c->helpers[s].read_path = path;
            c->helpers[s].read_param = param_of(c->l, &c->ps, path);
            changed = 1;
        }
        if (!changed)
            break;
    }
    /* A saver that writes a temp and moves it onto P (`tmp.write_text(..);
     * tmp.replace(path)`) saves P. */
    for (size_t i = 0; i < m->n_calls; i++) {
        int32_t s = m->calls[i].scope;
        if (s <= 0 || !c->helpers[s].writes)
            continue;
        TSNode from = {0};
        TSNode to = move_call(c->l, m->calls[i].node, &from);
        if (ts_node_is_null(to) || ts_node_is_null(from))
            continue;
        helper_info *h = &c->helpers[s];
        lf_pkey kf = lf_pylock_key_of(c->l, from), kw = lf_pylock_key_of(c->l, h->write_path);
        if (lf_pylock_key_same(c->l, &kf, &kw) || same_binding(m, from, h->write_path)) {
            h->write_path = to;
            h->write_param = param_of(c->l, &c->ps, to);
        }
    }
}

/* An imported helper pair that names its document itself: a reader called
 * with no argument (`state = load_task_state()`), a writer with the document
 * alone (`save_task_state(state)`), both imported from one module. Pushed
 * with the stem as the document; returns whether it pushed. */
static int named_stem_op(ctx104 *c, TSNode call, TSNode name, TSNode a0, int32_t s) {
    lf_pysem *m = c->m;
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    const char *origin = callee_origin(m, call);
    if (!origin)
        return 0;
    const char *stem = NULL;
    int write = 0;
    if (n == 0)
        stem = named_stem(m, name, 0);
    else if (n == 1 && !ts_node_is_null(a0) && lf_tree_is(lf_tree_unparen(a0), "identifier")) {
        stem = named_stem(m, name, 1);
        write = 1;
    }
    if (!stem || !stem_names_document(stem))
        return 0;
    push_op(c, call, name, write ? a0 : (TSNode){0}, s, write, LF104_PATH_NAMED);
    doc_op *op = &c->ops.items[c->ops.len - 1];
    memset(&op->key, 0, sizeof op->key);
    op->stem = stem;
    op->origin = origin;
    return 1;
}

/* The scope a call runs in: a comprehension's outermost iterable (`[r for r
 * in load(p) if ...]`) is evaluated in the scope around it. */
static int32_t run_scope(const lf_pysem *m, TSNode call, int32_t s) {
    if (s <= 0 || m->scopes[s].kind != LF_PYSCOPE_COMPREHENSION)
        return s;
    TSNode comp = m->scopes[s].node, first = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(comp) && ts_node_is_null(first); i++)
        if (lf_tree_is(ts_node_named_child(comp, i), "for_in_clause"))
            first = ts_node_named_child(comp, i);
    TSNode it = ts_node_is_null(first) ? first : lf_tree_field(first, "right");
    return !ts_node_is_null(it) && lf_tree_within(call, it) ? m->scopes[s].parent : s;
}

static void collect_ops(ctx104 *c) {
    lf_pysem *m = c->m;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode call = m->calls[i].node, data = {0};
        int32_t s = run_scope(m, call, m->calls[i].scope);
        /* a function, or a script's top level (a hook that reads, changes and
         * writes its state file as it runs) */
        if (s < 0 || (s > 0 && m->scopes[s].kind != LF_PYSCOPE_FUNCTION))
            continue;
        TSNode p = direct_read(c->l, call);
        if (!ts_node_is_null(p)) {
            push_op(c, call, p, (TSNode){0}, s, 0, LF104_PATH_DIRECT);
            continue;
        }
        p = direct_write(c->l, call, &data);
        if (!ts_node_is_null(p)) {
            push_op(c, call, p, data, s, 1, LF104_PATH_DIRECT);
            continue;
        }
        int wr = 0;
        p = document_file_op(m, call, &wr, &data);
        if (!ts_node_is_null(p)) {
            push_op(c, call, p, wr ? data : (TSNode){0}, s, wr, LF104_PATH_DIRECT);
            continue;
        }
        int skip = 0;
        int32_t h = lf_pylock_local_callee(c->l, call, &skip);
        if (h >= 0 && h != s && m->scopes[h].kind == LF_PYSCOPE_FUNCTION) {
            const helper_info *hi = &c->helpers[h];
            if (hi->reads) {
                TSNode path = hi->read_param ? arg_for(m, &c->ps, call, hi->read_param, skip) : hi->read_path;
                if (!ts_node_is_null(path))
                    push_op(c, call, path, (TSNode){0}, s, 0, LF104_PATH_HELPER);
            } else if (hi->writes) {
                TSNode path = hi->write_param ? arg_for(m, &c->ps, call, hi->write_param, skip) : hi->write_path;
                TSNode d = arg_for(m, &c->ps, call, hi->data_param, skip);
                /* a text writer handed `json.dumps(v)`: v is written */
                TSNode dv = ts_node_is_null(d) ? d : dumps_value(m, d);
                if (!ts_node_is_null(dv))
                    d = dv;
                if (!ts_node_is_null(path) && !ts_node_is_null(d))
                    push_op(c, call, path, d, s, 1, LF104_PATH_HELPER);
            }
            continue;
        }
        if (h >= 0)
            continue;
        TSNode name = lf_py_callee_last(call);
        if (ts_node_is_null(name))
            continue;
        TSNode a0 = lf_pylock_arg(m, call, 0, NULL);
        if (named_stem_op(c, call, name, a0, s) || ts_node_is_null(a0))
            continue;
        if (named_reader(m->src, name))
            push_op(c, call, a0, (TSNode){0}, s, 0, LF104_PATH_NAMED);
        else if (named_writer(m->src, name)) {
            TSNode a1 = lf_pylock_arg(m, call, 1, NULL);
            if (!ts_node_is_null(a1))
                push_op(c, call, a0, a1, s, 1, LF104_PATH_NAMED);
        }
    }
    /* A write to a temp path moved onto P afterwards writes P. */
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode from = {0};
        TSNode to = move_call(c->l, m->calls[i].node, &from);
        if (ts_node_is_null(to) || ts_node_is_null(from))
            continue;
        /* `os.replace(tmp.name, p)` moves the temp file object `tmp`'s file. */
        TSNode fu = lf_tree_unparen(from);
        if (lf_tree_is(fu, "attribute") && lf_tree_text_eq(m->src, lf_tree_field(fu, "attribute"), "name"))
            from = lf_tree_field(fu, "object");
        lf_pkey kf = lf_pylock_key_of(c->l, from);
        for (size_t k = 0; k < c->ops.len; k++) {
            doc_op *op = &c->ops.items[k];
            if (op->write && !op->stem && op->scope == m->calls[i].scope &&
                ts_node_start_byte(op->call) < ts_node_start_byte(m->calls[i].node) &&
                lf_pylock_key_same(c->l, &op->key, &kf)) {
                op->path = to;
                op->key = lf_pylock_key_of(c->l, to);
                op->moved = m->calls[i].node;
            }
        }
    }
}

/* Do two operations name one document: the same path key, or the same
 * stem of helpers imported from one module? */
static int same_document(const ctx104 *c, const doc_op *a, const doc_op *b) {
    if (a->stem || b->stem)
        return a->stem == b->stem && a->origin == b->origin;
    return lf_pylock_key_same(c->l, &a->key, &b->key);
}

/* Is the call one of the module's functions that reads or writes a
 * document under a lock of its own (a `with` over a lock, an acquisition)? */
static int helper_locks(const ctx104 *c, TSNode call) {
    int skip = 0;
    int32_t h = lf_pylock_local_callee(c->l, call, &skip);
    if (h <= 0 || !c->held)
        return 0;
    for (size_t k = 0; k < c->ops.len; k++)
        if (c->ops.items[k].scope == h && lf_pyheld_at(c->held, h, c->ops.items[k].call))
            return 1;
    return 0;
}

/* ---- private directories ---- */

static const char *const k_private_makers[] = {"tempfile.mkdtemp", "tempfile.TemporaryDirectory", "tempfile.mkstemp",
                                               "tempfile.NamedTemporaryFile", "tempfile.TemporaryFile", NULL};
static const char *const k_path_builders[] = {"os.path.join", "posixpath.join", "ntpath.join", "pathlib.Path",
                                              "pathlib.PurePath", "str", "os.fspath", "os.path.abspath",
                                              "os.path.normpath", "os.path.realpath", NULL};
/* pytest's temporary-directory fixtures, by the parameter names pytest injects. */
static const char *const k_tmp_fixtures[] = {"tmp_path", "tmpdir", "tmp_path_factory", "tmpdir_factory", NULL};

/* Is the path under a directory the process made for itself (tempfile.mkdtemp,
 * a TemporaryDirectory, pytest's tmp_path)? Nobody else knows that name, so
 * the document is not shared and no other process can interleave with it.
 * Follows names, joins (`os.path.join(d, ..)`, `d / "x"`, `d + "/x"`),
 * path wrappers and path methods (`d.joinpath(..)`, `.with_suffix(..)`). */
static int under_private_dir(lf_pysem *m, TSNode e) {
    for (int hops = 0; hops < 24 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call")) {
            if (lf_pysem_call_is(m, e, k_private_makers))
                return 1;
            if (lf_pysem_call_is(m, e, k_path_builders)) {
                e = lf_pylock_arg(m, e, 0, NULL);
                continue;
            }
            TSNode fn = lf_tree_unparen(lf_tree_field(e, "function"));
            if (lf_tree_is(fn, "attribute")) { /* d.joinpath(..), tmp_path_factory.mktemp(..), p.with_name(..) */
                e = lf_tree_field(fn, "object");
                continue;
            }
            return 0;
        }
        if (lf_tree_is(e, "binary_operator")) {
            e = lf_tree_field(e, "left");
            continue;
        }
        if (lf_tree_is(e, "attribute")) { /* TemporaryDirectory().name, tmp.name */
            e = lf_tree_field(e, "object");
            continue;
        }
        if (!lf_tree_is(e, "identifier"))
            return 0;
        char *name = lf_tree_text(m->src, e);
        const lf_pybinding *b = lf_pysem_binding_at(m, lf_pysem_scope_of(m, e), name, ts_node_start_byte(e));
        free(name);
        if (!b)
            return 0;
        if (b->kind == LF_PYBIND_PARAM) {
            for (size_t i = 0; k_tmp_fixtures[i]; i++)
                if (!strcmp(b->name, k_tmp_fixtures[i]))
                    return 1;
            return 0;
        }
        if ((b->kind != LF_PYBIND_ASSIGN && b->kind != LF_PYBIND_WITH && b->kind != LF_PYBIND_WALRUS) ||
            ts_node_is_null(b->value) || ts_node_eq(lf_tree_unparen(b->value), e))
            return 0;
        e = b->value;
    }
    return 0;
}

static int arithmetic_op(TSNode op) {
    return lf_tree_is(op, "+") || lf_tree_is(op, "-") || lf_tree_is(op, "*") || lf_tree_is(op, "/");
}

/* `total = get_count() + delta`, `n = int(read()["n"]) - 1`: the name bound
 * to arithmetic on what a read returned (through calls, fields and
 * subscripts of it), or null. A value computed from the document and written
 * back loses what another process added in between; a field merely copied
 * into a new record (`created = old["created_at"]`) is not computed. */
static TSNode computed_target(TSNode call) {
    int arithmetic = 0;
    TSNode p = ts_node_parent(call);
    for (int hops = 0; hops < 8 && !ts_node_is_null(p); hops++, p = ts_node_parent(p)) {
        if (lf_tree_is(p, "binary_operator")) {
            arithmetic |= arithmetic_op(lf_tree_field(p, "operator"));
            continue;
        }
        if (lf_tree_is(p, "parenthesized_expression") || lf_tree_is(p, "argument_list") || lf_tree_is(p, "call") ||
            lf_tree_is(p, "attribute") || lf_tree_is(p, "subscript"))
            continue;
        break;
    }
    if (!arithmetic || ts_node_is_null(p) || !lf_tree_is(p, "assignment"))
        return (TSNode){0};
    TSNode left = lf_tree_field(p, "left");
    return lf_tree_is(left, "identifier") ? left : (TSNode){0};
}

/* Is `data` the name var, or a dict/list/tuple literal holding it as one of
 * its values (`{"counted_tokens": total}`)? */
static int carries_value(const lf_source *src, TSNode data, TSNode var) {
    data = lf_tree_unparen(data);
    if (lf_tree_is(data, "identifier"))
        return lf_py_same_text(src, data, var);
    if (!lf_tree_is(data, "dictionary") && !lf_tree_is(data, "list") && !lf_tree_is(data, "tuple"))
        return 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(data); i++) {
        TSNode v = ts_node_named_child(data, i);
        if (lf_tree_is(v, "pair"))
            v = lf_tree_field(v, "value");
        v = lf_tree_unparen(v);
        if (lf_tree_is(v, "identifier") && lf_py_same_text(src, v, var))
            return 1;
    }
    return 0;
}

/* Is `data` arithmetic on the name var (`n + 1`, `total - used`)? */
static int steps(const lf_source *src, TSNode data, TSNode var) {
    data = lf_tree_unparen(data);
    if (!lf_tree_is(data, "binary_operator"))
        return 0;
    if (!arithmetic_op(lf_tree_field(data, "operator")))
        return 0;
    TSNode a = lf_tree_unparen(lf_tree_field(data, "left")), b = lf_tree_unparen(lf_tree_field(data, "right"));
    return (lf_tree_is(a, "identifier") && lf_py_same_text(src, a, var)) ||
           (lf_tree_is(b, "identifier") && lf_py_same_text(src, b, var));
}

static TSNode read_target(const lf_source *src, TSNode call, int *filtered) {
    /* through what keeps the read's value as one of its outcomes:
     * `v = json.loads(p.read_text()) if p.exists() else {}`, `v = load(p) or {}` */
    TSNode p = ts_node_parent(call);
    /* the records read, some kept: `kept = [r for r in load(p) if r["t"] > now]` */
    TSNode gen = lf_tree_is(p, "for_in_clause") && ts_node_eq(lf_tree_field(p, "right"), call) ? ts_node_parent(p)
                                                                                                : (TSNode){0};
    if (!ts_node_is_null(gen) && (lf_tree_is(gen, "list_comprehension") || lf_tree_is(gen, "generator_expression"))) {
        TSNode asg = ts_node_parent(gen);
        TSNode left = lf_tree_is(asg, "assignment") ? lf_tree_field(asg, "left") : (TSNode){0};
        if (lf_tree_is(left, "identifier")) {
            *filtered = 1;
            return left;
        }
        return (TSNode){0};
    }
    /* a record collected from each line read: `rows.append(json.loads(line))` */
    TSNode pp = lf_tree_is(p, "argument_list") ? ts_node_parent(p) : (TSNode){0};
    if (!ts_node_is_null(pp) && lf_tree_is(pp, "call") && lf_py_method_is(src, pp, "append") &&
        ts_node_named_child_count(p) == 1 && lf_tree_is(lf_tree_unparen(lf_py_callee_object(pp)), "identifier"))
        return lf_tree_unparen(lf_py_callee_object(pp));
    while (!ts_node_is_null(p) && (lf_tree_is(p, "parenthesized_expression") || lf_tree_is(p, "conditional_expression") ||
                                   lf_tree_is(p, "boolean_operator")))
        p = ts_node_parent(p);
    if (ts_node_is_null(p) || !lf_tree_is(p, "assignment"))
        return (TSNode){0};
    TSNode left = lf_tree_field(p, "left");
    return lf_tree_is(left, "identifier") ? left : (TSNode){0};
}

/* A read whose value reaches a write of the same document in its function,
 * with no lock held. */
typedef struct rmw_pair {
    size_t read, write; /* indexes into ops */
    int lost;           /* the written value carries a change derived from the read */
} rmw_pair;
typedef LF_VEC(rmw_pair) pair_vec;

/* A pair that changes only fixed keys, with values not derived from the read,
 * loses nothing when it is the document's only kind of writer (two such runs
 * leave one of their whole values). Where another function of the module
 * makes a derived change to the same document, it does: it writes back the
 * copy it read, over that function's update made in between. */
static const rmw_pair *derived_elsewhere(const ctx104 *c, const pair_vec *pairs, const rmw_pair *p) {
    const doc_op *r = &c->ops.items[p->read];
    for (size_t i = 0; i < pairs->len; i++) {
        const doc_op *o = &c->ops.items[pairs->items[i].read];
        if (pairs->items[i].lost && o->scope != r->scope && same_document(c, o, r))
            return &pairs->items[i];
    }
    return NULL;
}

/* lockrt's lock is not reentrant: a span that calls a function of the module
 * whose own read-modify-write gets a lock too would, on the same document,
 * wait for itself until the timeout, then run that update unlocked. Keys do
 * not follow a path through a call's parameters, so any such callee declines. */
static char *takes_the_lock_again(const ctx104 *c, const pair_vec *pairs, const rmw_pair *p, const lf104_site *site) {
    const doc_op *r = &c->ops.items[p->read];
    uint32_t a = ts_node_start_byte(site->first), b = ts_node_end_byte(site->last);
    for (size_t i = 0; i < c->m->n_calls; i++) {
        const lf_pycall *call = &c->m->calls[i];
        uint32_t at = ts_node_start_byte(call->node);
        if (at < a || at >= b || call->scope != r->scope)
            continue;
        int skip = 0;
        int32_t h = lf_pylock_local_callee(c->l, call->node, &skip);
        for (size_t k = 0; h >= 0 && h != r->scope && c->held && k < c->ops.len; k++) {
            const doc_op *o = &c->ops.items[k];
            if (o->scope == h && !o->write && lf_pyheld_at(c->held, h, o->call))
                return lf_xasprintf("the read-modify-write calls %s() (line %u), which reads a document under a lock "
                                    "of its own: if it is this lock, lockrt's lock is not reentrant and the inner "
                                    "one would wait out the timeout",
                                    c->m->scopes[h].name, lf_py_line(c->m->src, call->node));
        }
        for (size_t k = 0; h >= 0 && k < pairs->len; k++) {
            const doc_op *o = &c->ops.items[pairs->items[k].read];
            if (o->scope == h && h != r->scope)
                return lf_xasprintf("the read-modify-write calls %s() (line %u), which has a read-modify-write of "
                                    "its own that this fix locks too: on the same document, lockrt's lock is not "
                                    "reentrant and the inner one would wait out the timeout",
                                    c->m->scopes[h].name, lf_py_line(c->m->src, call->node));
        }
    }
    return NULL;
}

/* Where a read is reported: the read call, or for a document read a line at a
 * time (`for line in f: rows.append(json.loads(line))`) what the loop reads:
 * the open call of `with open(P) as f`, or the call it iterates. */
static TSNode reported_read(lf_pysem *m, TSNode call) {
    TSNode e = lf_pylock_arg(m, call, 0, NULL);
    for (int hops = 0; hops < 6 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "call") && (lf_py_method_is(m->src, e, "strip") || lf_py_method_is(m->src, e, "rstrip"))) {
            e = lf_py_callee_object(e);
            continue;
        }
        if (!lf_tree_is(e, "identifier"))
            break;
        const lf_pybinding *b = binding_of(m, e);
        if (!b)
            break;
        if (b->kind == LF_PYBIND_FOR && !ts_node_is_null(b->value)) {
            TSNode it = lf_tree_unparen(b->value);
            const lf_pybinding *h = lf_tree_is(it, "identifier") ? binding_of(m, it) : NULL;
            if (h && h->kind == LF_PYBIND_WITH && !ts_node_is_null(h->value))
                return lf_tree_unparen(h->value);
            return lf_tree_is(it, "call") ? it : call;
        }
        if (b->kind != LF_PYBIND_ASSIGN || ts_node_is_null(b->value))
            break;
        e = b->value;
    }
    return call;
}

static void report_pair(lf_check_ctx *ctx, const ctx104 *c, const pair_vec *pairs, const rmw_pair *p) {
    const rmw_pair *other = p->lost ? NULL : derived_elsewhere(c, pairs, p);
    if (!p->lost && !other)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    const doc_op *r = &c->ops.items[p->read], *w = &c->ops.items[p->write];
    char *rd = lf_py_short(src, r->call);
    char *path = lf_py_short(src, r->path);
    char *wr = lf_py_short(src, w->call);
    char *msg;
    if (r->stem) { /* the helpers name the document themselves: say which one */
        free(path);
        path = lf_xasprintf("the %s document of %s", r->stem, r->origin);
    }
    if (p->lost)
        msg = lf_xasprintf("%s reads %s, changes what it read, and %s (line %u) writes it back with no lock held: a "
                           "process that read it in between loses its update, or this one's is lost (every platform)",
                           rd, path, wr, lf_py_line(src, w->call));
    else
        msg = lf_xasprintf("%s reads %s and %s (line %u) writes that copy back with no lock held: an update another "
                           "process makes in between through line %u's read-modify-write of the same document is "
                           "lost (every platform)",
                           rd, path, wr, lf_py_line(src, w->call),
                           lf_py_line(src, c->ops.items[other->read].call));
    /* The fix's span runs to the move of a temp onto the path: the write
     * lands there. */
    TSNode last = ts_node_is_null(w->moved) ? w->call : w->moved;
    lf104_path_kind kind = r->kind > w->kind ? r->kind : w->kind;
    lf104_site *site = lf104_py_site(c->m, r->scope, r->call, last, r->path, w->path, kind);
    if (r->stem) {
        free(site->decline);
        site->decline = lf_xasprintf("the document is read through %s, a helper of %s that names its file itself: "
                                     "where its lock file belongs is for the code's owner",
                                     rd, r->origin);
    }
    if (!site->decline)
        site->decline = takes_the_lock_again(c, pairs, p, site);
    /* a queue whose appenders lock the file itself: only that lock excludes them */
    if (!site->decline && (lf_pylock_flags_of(c->l, r->path) & LF_LOCK_APPENDED) &&
        (lf_pylock_flags_of(c->l, r->path) & (LF_LOCK_FLOCK | LF_LOCK_MSVCRT)))
        site->decline = lf_xasprintf("the module's appenders lock %s itself: the rewrite must take that lock, which a "
                                     "lock on a sibling file would not exclude",
                                     path);
    TSNode at = reported_read(c->m, r->call);
    lf_ctx_emit_site(ctx, at, msg, site, lf104_site_free);
    lf_ctx_witness(ctx, p->lost ? lf_wit_read_write(src, at, w->call, r->stem ? (TSNode){0} : r->path)
                                : lf_wit_stale_copy(src, at, w->call, c->ops.items[other->read].call,
                                                    c->ops.items[other->write].call));
    free(msg);
    free(rd);
    free(path);
    free(wr);
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf104_ts_run(ctx);
        return;
    }
    lf_pysem *m = lf_ctx_pysem(ctx);
    if (!m)
        return;
    const lf_source *src = lf_ctx_source(ctx);
    ctx104 c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.l = lf_pylock_build(m);
    c.held = NULL; /* built at the first read-then-write pair: most files have none */
    c.ps = params_build(m);
    c.helpers = lf_xcalloc(m->n_scopes ? m->n_scopes : 1, sizeof *c.helpers);
    find_helpers(&c);
    collect_ops(&c);
    pair_vec pairs = {0};
    for (size_t i = 0; i < c.ops.len; i++) {
        const doc_op *r = &c.ops.items[i];
        if (r->write)
            continue;
        int filtered = 0;
        TSNode var = read_target(src, r->call, &filtered);
        /* `total = get_count() + delta`: a value computed from what was read */
        int computed = 0;
        if (ts_node_is_null(var)) {
            var = computed_target(r->call);
            computed = !ts_node_is_null(var);
        }
        if (ts_node_is_null(var) || under_private_dir(m, r->path))
            continue;
        TSNode fn = m->scopes[r->scope].node;
        for (size_t k = 0; k < c.ops.len; k++) {
            const doc_op *w = &c.ops.items[k];
            if (!w->write || w->scope != r->scope || ts_node_start_byte(w->call) <= ts_node_end_byte(r->call) ||
                !same_document(&c, r, w))
                continue;
            TSNode data = lf_tree_unparen(w->data);
            /* each record of a list, written a line each (`for r in rows:
             * f.write(json.dumps(r) + "\n")`): the list is written */
            const lf_pybinding *row = lf_tree_is(data, "identifier") ? binding_of(m, data) : NULL;
            TSNode rows = row && row->kind == LF_PYBIND_FOR ? lf_tree_unparen(row->value) : (TSNode){0};
            if (lf_tree_is(rows, "subscript")) /* `for r in rows[-200:]` */
                rows = lf_tree_unparen(lf_tree_field(rows, "value"));
            if (lf_tree_is(rows, "identifier"))
                data = rows;
            /* a computed value written back, alone or in a record
             * (`{"counted_tokens": total}`) */
            if (computed && !carries_value(src, data, var))
                continue;
            /* a counter written as it is stepped: `str(n + 1)` */
            int stepped = !computed && steps(src, data, var);
            if (!computed && !stepped && !lf_tree_is(data, "identifier"))
                continue;
            /* the variable read written back, or a value made from it (`kept`
             * filled from its rows, `rows = [...]` of it under another name) */
            int copy = !computed && !stepped && !lf_py_same_text(src, data, var);
            if (copy && !derived_copy(m, fn, r, w, var, data))
                continue;
            if (!write_reachable(&c, r->scope, r->call, w->call))
                continue;
            if (!c.held)
                c.held = lf_pyheld_build(c.l);
            if (lf_pyheld_at(c.held, r->scope, r->call))
                break;
            flow f;
            flow_run(&f, m, fn, r, w, var);
            LF_VEC_FREE(&f.names);
            LF_VEC_FREE(&f.copies);
            /* what is written was made from the read (records it kept): a derived change */
            f.lost |= copy || computed || stepped || filtered;
            if (!f.rebound || copy) {
                /* A picked element's store is a lost update where the module
                 * shows the document is shared: its reader or writer locks
                 * around its own half (and gives the lock back). */
                rmw_pair pr = {i, k, f.lost || (f.picked && (helper_locks(&c, r->call) || helper_locks(&c, w->call)))};
                LF_VEC_PUSH(&pairs, pr);
            }
            break;
        }
    }
    for (size_t i = 0; i < pairs.len; i++) {
        /* one finding per write back: a later read of the same document
         * before it (`model = get_model(..)` reading the aliases the function
         * already loaded) is the same update, not another one */
        const rmw_pair *p = &pairs.items[i];
        int later = 0;
        for (size_t j = 0; j < pairs.len && !later; j++)
            later = j != i && pairs.items[j].write == p->write &&
                    ts_node_start_byte(c.ops.items[pairs.items[j].read].call) <
                        ts_node_start_byte(c.ops.items[p->read].call);
        if (!later)
            report_pair(ctx, &c, &pairs, p);
    }
    LF_VEC_FREE(&pairs);
    LF_VEC_FREE(&c.ops);
    for (size_t i = 0; c.cfg && i <= m->n_scopes; i++)
        lf_cfg_free(c.cfg[i]);
    free(c.cfg);
    free(c.helpers);
    free(c.ps.index);
    lf_pyheld_free(c.held);
}

/* ---- the gate: could one function read and write a document here? ----
 *
 * Every read the check pairs is json/pickle's load or loads, a TOMLFile's
 * read, a call whose name says it reads state (named_reader, or a read_/load_
 * stem that names state), or a call of a module function that reads; every
 * write is json/pickle's dump or dumps, a TOMLFile's write, a call named
 * write_/save_/store_ (named_writer), or a call of a module function that
 * writes. A dumps is written only by a call that names write (write_text,
 * write_bytes, a file's write, atomic_write): in a file whose code never says
 * write, a dumps is no write (moto's `return json.dumps(resp)` handlers). A
 * finding pairs a read and a write of one scope: a function, or the module's
 * level. The prefilter's words also let through every file that
 * says `load` and `dump` in prose, json in a docstring or read_ of a socket,
 * and every module that reads JSON in one function and writes it in another.
 *
 * So, on the text with comments and strings blanked, first for the file: json
 * or pickle (the module under any alias: the name is in the import) with load
 * or loads for a read and dump or dumps for a write, or a name of either
 * kind. Then per function (lf_pygate_defs: each line's innermost def): what
 * its own lines say, and what each def it names may do (`h()`, `self.h()`, a
 * class for its __init__), to a fixpoint (some_function_reads_and_writes).
 * The word TOMLFile anywhere (an annotation may be a string), a string "json"
 * or "pickle" in a file that calls importlib.import_module or __import__, a
 * module of a package named json or pickle (`from . import load`), load or
 * dump used as a value (`rd = json.load`, an import `as`), and a mask or a
 * layout that cannot be followed are hits. */
/* Each name a run of name bytes may be to the grammar: the run whole (a
 * non-ASCII letter is part of a name), and every part between non-ASCII bytes
 * (tree-sitter reads U+00A0 as whitespace). 0 when the run has too many
 * non-ASCII bytes to try them all (the caller then says "may be"). */
static int each_name(const char *s, size_t len, void (*fn)(const char *, size_t, void *), void *ud) {
    size_t starts[33], ends[33], ns = 0, ne = 0;
    starts[ns++] = 0;
    for (size_t k = 0; k < len; k++) {
        if ((unsigned char)s[k] < 0x80)
            continue;
        if (ns == 33 || ne == 32)
            return 0;
        ends[ne++] = k;
        starts[ns++] = k + 1;
    }
    ends[ne++] = len;
    for (size_t a = 0; a < ns; a++)
        for (size_t b = 0; b < ne; b++)
            if (starts[a] < ends[b])
                fn(s + starts[a], ends[b] - starts[a], ud);
    return 1;
}

/* Each name of m[from, to), as each_name reads it, but the one a def or
 * class binds at skip_at (no use of it; skip_len 0: none), until *done (when
 * given) is set. 0 when one is not followed. */
static int each_name_in(const char *m, size_t from, size_t to, size_t skip_at, size_t skip_len, const int *done,
                        void (*fn)(const char *, size_t, void *), void *ud) {
    for (size_t i = from; i < to && !(done && *done);) {
        if (!lf_pygate_name_byte((unsigned char)m[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < to && lf_pygate_name_byte((unsigned char)m[j]))
            j++;
        if (!(skip_len && i == skip_at && j - i == skip_len) && !each_name(m + i, j - i, fn, ud))
            return 0;
        i = j;
    }
    return 1;
}

/* What one region (a def's body, or the module's level) or one name may do. */
typedef struct gate_flags {
    unsigned char reads, writes;
    /* a counter kept as text: a read and a number made in one region
     * (`int(p.read_text())`), a write and a text made (`f.write(str(n))`) */
    unsigned char text_read, number, text_write, as_text;
} gate_flags;

/* A pair of ids: `region` names `group` (a use), or def `region` goes by `group` (a definition). */
typedef struct gate_pair {
    int32_t region, group;
} gate_pair;

typedef struct gate_name {
    const char *at;
    size_t len;
    int32_t region; /* the def (or the __init__ a class's name runs) */
    int32_t group;  /* the same for every def of one name */
} gate_name;

static int name_cmp(const void *a, const void *b) {
    const gate_name *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->at, y->at, x->len);
}

typedef struct gate_scan {
    int serial;          /* json or pickle is named in the code */
    int dumps_write;     /* and some name in the code says write: a dumps may be written */
    gate_flags *regions; /* per region */
    const gate_name *names; /* the defs' names (and classes' for their __init__), sorted */
    size_t n_names;
    LF_VEC(gate_pair) uses;
    int32_t in[2]; /* the regions the name's line belongs to (-1: none) */
} gate_scan;

static void on_name(const char *s, size_t len, void *ud) {
    gate_scan *g = ud;
    lf_work(1);
    int rd = may_read_by_name(s, len) ||
             (g->serial && ((len == 4 && !memcmp(s, "load", 4)) || (len == 5 && !memcmp(s, "loads", 5))));
    int wr = writer_name(s, len) ||
             (g->serial && ((len == 4 && !memcmp(s, "dump", 4)) ||
                            (g->dumps_write && len == 5 && !memcmp(s, "dumps", 5))));
    int text_read = (len == 4 && !memcmp(s, "read", 4)) || (len == 9 && !memcmp(s, "read_text", 9)) ||
                    (len == 10 && !memcmp(s, "read_bytes", 10));
    int number = (len == 3 && !memcmp(s, "int", 3)) || (len == 5 && !memcmp(s, "float", 5));
    int text_write = (len == 5 && !memcmp(s, "write", 5)) || writer_name(s, len);
    int as_text = len == 3 && !memcmp(s, "str", 3);
    gate_name key = {s, len, 0, 0};
    const gate_name *hit = g->n_names ? bsearch(&key, g->names, g->n_names, sizeof key, name_cmp) : NULL;
    for (int k = 0; k < 2; k++) {
        if (g->in[k] < 0)
            continue;
        gate_flags *r = &g->regions[g->in[k]];
        r->reads |= (unsigned char)rd;
        r->writes |= (unsigned char)wr;
        r->text_read |= (unsigned char)text_read;
        r->number |= (unsigned char)number;
        r->text_write |= (unsigned char)text_write;
        r->as_text |= (unsigned char)as_text;
        gate_pair u = {g->in[k], hit ? hit->group : -1};
        if (hit && !(g->uses.len && g->uses.items[g->uses.len - 1].region == u.region &&
                     g->uses.items[g->uses.len - 1].group == u.group))
            LF_VEC_PUSH(&g->uses, u);
    }
}

/* Is the logical line an import statement alone (no `;` after which a call
 * could follow)? */
static int import_only(const char *m, const lf_pygate_line *line) {
    size_t k = line->start;
    while (k < line->end && (m[k] == ' ' || m[k] == '\t' || m[k] == '\f'))
        k++;
    int import = (line->end - k > 5 && !memcmp(m + k, "from ", 5)) || (line->end - k > 7 && !memcmp(m + k, "import ", 7));
    lf_work(line->end - line->start);
    return import && !memchr(m + k, ';', line->end - k);
}

/* Is every use of load, loads, dump and dumps a call (`json.load(f)`,
 * `load(f)`) or a name in an import without `as`? Then the model's json.load
 * is spelled in the region that calls it. A use as a value (`rd =
 * json.load`, `from json import load as rd`, `partial(json.dump, ...)`) may
 * reach a call under another name anywhere: no. */
static int serial_calls_only(const char *m, size_t n, const lf_pygate_defs *d) {
    static const char *const words[] = {"load", "loads", "dump", "dumps", NULL};
    const lf_pygate_line *checked = NULL; /* the last import line found plain: asked once per line */
    for (size_t w = 0; words[w]; w++) {
        int alone;
        for (size_t at = 0; (alone = lf_pygate_next_use(m, n, words[w], &at)) != 0; at++) {
            lf_work(1);
            if (alone < 0)
                return 0;
            size_t next = lf_pygate_fwd_any(m, n, at + strlen(words[w]));
            if (next < n && m[next] == '(')
                continue;
            const lf_pygate_line *line = lf_pygate_line_at(d, at);
            if (!line)
                return 0;
            if (line == checked)
                continue;
            size_t as = line->start;
            if (!import_only(m, line) || lf_pygate_next_use(m, line->end, "as", &as) != 0)
                return 0;
            checked = line;
        }
    }
    return 1;
}

/* The per-function question: may some one function (or the module's level)
 * both read and write a document, itself or through the module's functions
 * it calls by name? The check pairs a read and a write of one scope only,
 * and a helper only through a call that names it (`h()`, `self.h()`, a
 * class for its __init__). Each region collects what its own lines say; a
 * name may do what any def of that name may do, and a region that uses a
 * name takes that on, to a fixpoint (each use and each def is one pair, so a
 * round is linear in the text). 1 when anything is not followed. */
static int some_function_reads_and_writes(const char *m, size_t n, int serial, int dumps_write) {
    lf_pygate_defs d;
    if (!lf_pygate_defs_build(m, n, &d))
        return 1;
    int answer = 1;
    if (serial && !serial_calls_only(m, n, &d))
        goto done;
    size_t nr = d.n_defs + 1;
    gate_scan g = {.serial = serial, .dumps_write = dumps_write};
    g.regions = lf_xcalloc(nr, sizeof *g.regions);
    gate_name *names = lf_xcalloc(2 * d.n_defs + 1, sizeof *names);
    size_t nn = 0;
    for (size_t i = 0; i < d.n_defs; i++) {
        names[nn++] = (gate_name){m + d.defs[i].name_at, d.defs[i].name_len, (int32_t)(i + 1), 0};
        if (d.defs[i].class_len)
            names[nn++] = (gate_name){m + d.defs[i].class_at, d.defs[i].class_len, (int32_t)(i + 1), 0};
    }
    qsort(names, nn, sizeof *names, name_cmp);
    int32_t n_groups = 0;
    for (size_t i = 0; i < nn; i++)
        names[i].group = i > 0 && !name_cmp(&names[i - 1], &names[i]) ? names[i - 1].group : n_groups++;
    g.names = names;
    g.n_names = nn;
    int followed = 1;
    for (size_t li = 0; li < d.n_lines && followed; li++) {
        const lf_pygate_line *line = &d.lines[li];
        if (import_only(m, line))
            continue; /* `from json import load, dump` calls nothing */
        g.in[0] = line->region;
        g.in[1] = line->also;
        /* the name a def or class binds is no call of it */
        followed = each_name_in(m, line->start, line->end, line->bound_at, line->bound_len, NULL, on_name, &g);
    }
    for (size_t r = 0; r < nr; r++) {
        g.regions[r].reads |= g.regions[r].text_read && g.regions[r].number;
        g.regions[r].writes |= g.regions[r].text_write && g.regions[r].as_text;
    }
    if (followed) {
        gate_flags *groups = lf_xcalloc(n_groups ? (size_t)n_groups : 1, sizeof *groups);
        int changed = 1;
        for (int round = 0; changed && round < 64; round++) {
            changed = 0;
            for (size_t k = 0; k < nn; k++) { /* a name may do what its defs may */
                gate_flags *to = &groups[names[k].group];
                const gate_flags *from = &g.regions[names[k].region];
                lf_work(1);
                if ((from->reads && !to->reads) || (from->writes && !to->writes)) {
                    to->reads |= from->reads, to->writes |= from->writes;
                    changed = 1;
                }
            }
            for (size_t k = 0; k < g.uses.len; k++) { /* a region that names it, too */
                gate_flags *to = &g.regions[g.uses.items[k].region];
                const gate_flags *from = &groups[g.uses.items[k].group];
                lf_work(1);
                if ((from->reads && !to->reads) || (from->writes && !to->writes)) {
                    to->reads |= from->reads, to->writes |= from->writes;
                    changed = 1;
                }
            }
        }
        free(groups);
        answer = changed; /* no fixpoint within the bound: "may be" */
        for (size_t r = 0; r < nr && !answer; r++)
            answer = g.regions[r].reads && g.regions[r].writes;
    }
    LF_VEC_FREE(&g.uses);
    free(g.regions);
    free(names);
done:
    lf_pygate_defs_free(&d);
    return answer;
}

typedef struct file_names {
    int *reads, *writes;
    int both; /* both found: the rest of the file cannot change the answer */
} file_names;

static void on_file_name(const char *s, size_t len, void *ud) {
    file_names *f = ud;
    *f->reads = *f->reads || may_read_by_name(s, len);
    *f->writes = *f->writes || writer_name(s, len);
    f->both = *f->reads && *f->writes;
}

static int gate(lf_gate_text *in) {
    static const char *const serial[] = {"json", "pickle", NULL}, *const loads[] = {"load", "loads", NULL},
                             *const dump[] = {"dump", NULL}, *const dumps[] = {"dumps", NULL},
                             *const text_reads[] = {"read", "read_text", "read_bytes", NULL},
                             *const numbers[] = {"int", "float", NULL}, *const as_text[] = {"str", NULL};
    if (in->lang == LF_LANG_TYPESCRIPT || in->lang == LF_LANG_TSX)
        return lf104_ts_gate(in->text, in->len);
    if (in->lang != LF_LANG_PYTHON || memmem(in->text, in->len, "TOMLFile", 8) || lf_pygate_in_package(in, serial))
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    const char *m = mk->m;
    size_t n = in->len;
    /* a string "json" names the module only to importlib.import_module or
     * __import__ (the model's only calls that take a module by its name) */
    if (!m || !mk->balanced ||
        (mk->serial_named && (memmem(in->text, in->len, "import_module", 13) || memmem(in->text, in->len, "__import__", 10))))
        return 1;
    int ser = lf_pygate_says_any(m, n, serial);
    /* json.dumps makes a text: it is a document write only where a write
     * call takes it (`P.write_text(json.dumps(V))`, `f.write(...)`,
     * `atomic_write(P, ...)`), and each of those names says write */
    int dumps_write = memmem(m, n, "write", 5) != NULL;
    int reads = (ser && lf_pygate_says_any(m, n, loads)) ||
                (lf_pygate_says_any(m, n, text_reads) && lf_pygate_says_any(m, n, numbers));
    int writes = (ser && (lf_pygate_says_any(m, n, dump) || (dumps_write && lf_pygate_says_any(m, n, dumps)))) ||
                 (dumps_write && lf_pygate_says_any(m, n, as_text));
    file_names fw = {&reads, &writes, reads && writes};
    if (!each_name_in(m, 0, n, 0, 0, &fw.both, on_file_name, &fw))
        reads = writes = 1;
    return reads && writes && some_function_reads_and_writes(m, n, ser, dumps_write);
}

const lf_check lf104_unlocked_rmw_check = {"lf104_unlocked_rmw", run, LF_LANG_BIT(LF_LANG_TYPESCRIPT) | LF_LANG_BIT(LF_LANG_TSX),
                                           0, gate};
