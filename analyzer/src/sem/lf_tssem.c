/* lf_tssem: the walk that records scopes, classes, bindings and calls of a
 * TS/JS file, and the name tables. Resolution lives in lf_tssem_resolve.c. */
#include "lf_tssem.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_tssem_internal.h"
#include "lf_util.h"

/* ---- interning (open addressing over the strings' bytes) ---- */

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

const char *lf_tssem_intern(lf_tssem *m, const char *s, size_t len) {
    lf_tssem_internal *in = m->in;
    if ((in->n_strs + 1) * 2 > in->cap_strs) {
        size_t cap = in->cap_strs ? in->cap_strs * 2 : 256;
        char **t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < in->cap_strs; i++) {
            if (!in->strs[i])
                continue;
            size_t j = hash_bytes(in->strs[i], strlen(in->strs[i])) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = in->strs[i];
        }
        free(in->strs);
        in->strs = t;
        in->cap_strs = cap;
    }
    size_t j = hash_bytes(s, len) & (in->cap_strs - 1);
    while (in->strs[j]) {
        if (strncmp(in->strs[j], s, len) == 0 && in->strs[j][len] == '\0')
            return in->strs[j];
        j = (j + 1) & (in->cap_strs - 1);
    }
    in->strs[j] = lf_xstrndup(s, len);
    in->n_strs++;
    return in->strs[j];
}

static const char *intern_node(lf_tssem *m, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return lf_tssem_intern(m, m->src->text + a, b - a);
}

/* name (interned pointer) -> first binding index; chains through .next */
static size_t ptr_slot(const lf_tssem_internal *in, const char *name) {
    return (size_t)(((uintptr_t)name >> 3) * 11400714819323198485ull) & (in->cap_names - 1);
}

static void index_names(lf_tssem *m) {
    lf_tssem_internal *in = m->in;
    size_t cap = 64;
    while (cap < m->n_bindings * 2 + 2)
        cap *= 2;
    in->cap_names = cap;
    in->name_keys = lf_xcalloc(cap, sizeof *in->name_keys);
    in->name_heads = lf_xcalloc(cap, sizeof *in->name_heads);
    /* Insert back to front so each chain runs in source order. */
    for (size_t i = m->n_bindings; i-- > 0;) {
        lf_tsbinding *b = &m->bindings[i];
        size_t j = ptr_slot(in, b->name);
        while (in->name_keys[j] && in->name_keys[j] != b->name)
            j = (j + 1) & (cap - 1);
        if (!in->name_keys[j]) {
            in->name_keys[j] = b->name;
            b->next = -1;
        } else {
            b->next = in->name_heads[j];
        }
        in->name_heads[j] = (int32_t)i;
    }
}

static size_t ns_slot(const lf_tssem_internal *in, const char *name, int32_t scope) {
    uint64_t h = ((uint64_t)((uintptr_t)name >> 3) ^ ((uint64_t)(uint32_t)scope << 32)) * 11400714819323198485ull;
    return (size_t)(h >> 20) & (in->cap_ns - 1);
}

static void index_scoped_names(lf_tssem *m) {
    lf_tssem_internal *in = m->in;
    size_t cap = 64;
    while (cap < m->n_bindings * 2 + 2)
        cap *= 2;
    in->cap_ns = cap;
    in->ns_names = lf_xcalloc(cap, sizeof *in->ns_names);
    in->ns_scopes = lf_xcalloc(cap, sizeof *in->ns_scopes);
    in->ns_heads = lf_xcalloc(cap, sizeof *in->ns_heads);
    in->scope_next = lf_xcalloc(m->n_bindings + 1, sizeof *in->scope_next);
    for (size_t i = m->n_bindings; i-- > 0;) {
        const lf_tsbinding *b = &m->bindings[i];
        if (b->kind == LF_TSBIND_FIELD || !b->name) /* fields are looked up per class */
            continue;
        size_t j = ns_slot(in, b->name, b->scope);
        while (in->ns_names[j] && !(in->ns_names[j] == b->name && in->ns_scopes[j] == b->scope))
            j = (j + 1) & (cap - 1);
        in->scope_next[i] = in->ns_names[j] ? in->ns_heads[j] : -1;
        in->ns_names[j] = b->name;
        in->ns_scopes[j] = b->scope;
        in->ns_heads[j] = (int32_t)i;
    }
}

/* First non-field binding of name declared in scope, or -1. */
static int32_t first_in_scope(const lf_tssem_internal *in, const char *name, int32_t scope) {
    size_t j = ns_slot(in, name, scope);
    while (in->ns_names[j]) {
        if (in->ns_names[j] == name && in->ns_scopes[j] == scope)
            return in->ns_heads[j];
        j = (j + 1) & (in->cap_ns - 1);
    }
    return -1;
}

int32_t lf_tssem_first_binding(const lf_tssem *m, const char *name) {
    const lf_tssem_internal *in = m->in;
    if (!in->cap_names || !name)
        return -1;
    size_t j = ptr_slot(in, name);
    while (in->name_keys[j]) {
        if (in->name_keys[j] == name)
            return in->name_heads[j];
        j = (j + 1) & (in->cap_names - 1);
    }
    return -1;
}

/* ---- the walk ---- */

typedef struct frame {
    TSNode node;
    int32_t scope;
    int32_t cls;
} frame;

/* What the walk asks of a node's type, per grammar symbol: the walk visits every
 * named node of the file, and comparing its type name with some eighteen strings
 * each time was a tenth of a bundle's scan. A symbol's name is its node type
 * (ts_node_type names the node's symbol), so a table by symbol answers the same. */
enum {
    NK_FUNCTION = 1 << 0, /* a function of any spelling: opens a scope */
    NK_DECL = 1 << 1,     /* function/generator/class declaration: binds its name outside */
    NK_CLASS = 1 << 2,    /* class declaration or expression */
    NK_VISIT = 0x78,      /* bits 3..6: which of visit()'s cases (below) */
};
enum { NV_NONE, NV_IMPORT, NV_EXPORT, NV_VARIABLE, NV_ASSIGN, NV_FIELD, NV_CALL };
#define NK_VISIT_SHIFT 3

#define KIND_TABLE_SIZE 1024
typedef struct node_kinds {
    const TSLanguage *lang;
    uint32_t count;                    /* the grammar's symbols */
    uint32_t n;                        /* those in the table */
    unsigned char kind[KIND_TABLE_SIZE]; /* per symbol */
} node_kinds;

static unsigned char kind_of_name(const char *t) {
    static const char *const fns[] = {"function_declaration", "function_expression", "function", "arrow_function",
                                       "method_definition", "generator_function_declaration", "generator_function"};
    static const char *const visits[] = {"import_statement", "export_statement", "variable_declarator",
                                         "assignment_expression", "public_field_definition", "call_expression"};
    unsigned char k = 0;
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
        if (strcmp(t, fns[i]) == 0)
            k |= NK_FUNCTION;
    if (!strcmp(t, "function_declaration") || !strcmp(t, "generator_function_declaration") ||
        !strcmp(t, "class_declaration"))
        k |= NK_DECL;
    if (!strcmp(t, "class_declaration") || !strcmp(t, "class"))
        k |= NK_CLASS;
    for (size_t i = 0; i < sizeof visits / sizeof *visits; i++)
        if (strcmp(t, visits[i]) == 0)
            k |= (unsigned char)((i + 1) << NK_VISIT_SHIFT);
    return k;
}

/* The kinds of a grammar's symbols, per thread, built once per grammar (the
 * TS and the TSX grammar): building them took a dozen string compares per
 * symbol, for every file. */
static _Thread_local node_kinds g_kinds[2];

static const node_kinds *node_kinds_for(const TSLanguage *lang) {
    for (size_t i = 0; i < 2; i++)
        if (g_kinds[i].lang == lang)
            return &g_kinds[i];
    node_kinds *nk = &g_kinds[g_kinds[0].lang ? 1 : 0];
    nk->lang = lang;
    nk->count = ts_language_symbol_count(lang);
    nk->n = nk->count < KIND_TABLE_SIZE ? nk->count : KIND_TABLE_SIZE;
    for (uint32_t i = 0; i < nk->n; i++) {
        const char *name = ts_language_symbol_name(lang, (TSSymbol)i);
        nk->kind[i] = name ? kind_of_name(name) : 0;
    }
    return nk;
}

static unsigned char node_kind(const node_kinds *nk, TSNode n) {
    TSSymbol s = ts_node_symbol(n);
    if (s < nk->n)
        return nk->kind[s];
    if (s >= nk->count)
        return 0; /* ERROR (65535) is none of them */
    const char *name = ts_language_symbol_name(nk->lang, s);
    return name ? kind_of_name(name) : 0;
}

typedef struct walker {
    lf_tssem *m;
    const node_kinds *kinds;
    LF_VEC(lf_tsscope) scopes;
    LF_VEC(lf_tsclass) classes;
    LF_VEC(lf_tsbinding) bindings;
    LF_VEC(lf_tscall) calls;
    LF_VEC(frame) stack;
    /* function value -> the name of the variable it initialises */
    LF_VEC(struct named_fn { uint32_t start; const char *name; }) fn_names;
} walker;

static void add_binding(walker *w, lf_tsbinding_kind kind, const char *name, int32_t scope, int32_t cls,
                        TSNode target, TSNode value, const char *member, const char *qualname) {
    lf_tsbinding b = {.name = name, .kind = kind, .scope = scope, .cls = cls, .target = target, .value = value,
                      .member = member, .qualname = qualname, .next = -1};
    LF_VEC_PUSH(&w->bindings, b);
}

/* The bindings from `from` on were declared by declarator d: when d is a
 * let/const inside a block narrower than its function, they are visible in
 * that block only. */
static void limit_to_block(walker *w, size_t from, TSNode d) {
    TSNode decl = ts_node_parent(d);
    if (!lf_tree_is(decl, "lexical_declaration"))
        return;
    TSNode block = ts_node_parent(decl);
    /* a case clause's declarations are the whole switch body's */
    if (lf_tree_is(block, "switch_case") || lf_tree_is(block, "switch_default"))
        block = ts_node_parent(block);
    if (!lf_tree_is(block, "statement_block") && !lf_tree_is(block, "switch_body"))
        return;
    for (size_t i = from; i < w->bindings.len; i++) {
        w->bindings.items[i].block_start = ts_node_start_byte(block);
        w->bindings.items[i].block_end = ts_node_end_byte(block);
    }
}

static char *string_content(const lf_source *src, TSNode n, int plain);

char *lf_tssem_string(const lf_source *src, TSNode n) { return string_content(src, n, 0); }

char *lf_tssem_name_string(const lf_source *src, TSNode n) { return string_content(src, n, 1); }

static char *string_content(const lf_source *src, TSNode n, int plain) {
    n = lf_tree_unparen(n);
    if (ts_node_is_null(n))
        return NULL;
    const char *t = ts_node_type(n);
    if (strcmp(t, "string") != 0 && strcmp(t, "template_string") != 0)
        return NULL;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++) {
        TSNode c = ts_node_named_child(n, i);
        const char *ct = ts_node_type(c);
        if (strcmp(ct, "string_fragment") == 0) {
            uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
            lf_strbuf_append(&sb, src->text + a, b - a);
        } else if (plain || strcmp(ct, "escape_sequence") != 0) {
            lf_strbuf_free(&sb);
            return NULL; /* a substitution: not a constant (or an escape, for a name) */
        }
    }
    return lf_strbuf_detach(&sb);
}

/* The unscoped package name of a module specifier: "@scope/pkg/sub" -> "pkg", "pkg/sub" -> "pkg". */
static size_t package_name(const char *spec, const char **name) {
    const char *p = spec;
    *name = spec;
    if (*p == '@') {
        const char *slash = strchr(p, '/');
        if (!slash)
            return 0;
        p = slash + 1;
    }
    *name = p;
    const char *end = strchr(p, '/');
    return end ? (size_t)(end - p) : strlen(p);
}

static int package_is(const char *name, size_t n, const char *want) {
    return n == strlen(want) && strncmp(name, want, n) == 0;
}

/* "node:fs" -> "fs". Packages that wrap node:fs with its own names and path arguments read as fs:
 * graceful-fs, fs-extra (and scoped forks such as @zokugun/fs-extra-plus), whose "/async" and "/promises"
 * entry points are the promise forms. */
const char *lf_tssem_module_name(lf_tssem *m, const char *spec) {
    if (strncmp(spec, "node:", 5) == 0)
        spec += 5;
    const char *name;
    size_t n = package_name(spec, &name);
    if (package_is(name, n, "graceful-fs") || package_is(name, n, "fs-extra") ||
        package_is(name, n, "fs-extra-plus") || package_is(name, n, "original-fs")) {
        const char *sub = name[n] == '/' ? name + n + 1 : "";
        spec = !strcmp(sub, "async") || !strcmp(sub, "promises") ? "fs/promises" : "fs";
    }
    return lf_tssem_intern(m, spec, strlen(spec));
}

static const char *require_module(walker *w, TSNode value) {
    value = lf_tssem_unwrap(value);
    if (!lf_tree_is(value, "call_expression"))
        return NULL;
    TSNode fn = lf_tree_field(value, "function");
    if (!(lf_tree_is(fn, "identifier") && lf_tree_text_eq(w->m->src, fn, "require")) && !lf_tree_is(fn, "import"))
        return NULL;
    char *s = lf_tssem_name_string(w->m->src, lf_tssem_arg(value, 0));
    if (!s)
        return NULL;
    const char *q = lf_tssem_module_name(w->m, s);
    free(s);
    return q;
}

static void record_import(walker *w, TSNode stmt) {
    lf_tssem *m = w->m;
    m->esm = 1;
    TSNode source = lf_tree_field(stmt, "source");
    uint32_t n = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(stmt, i);
        if (lf_tree_is(c, "import_require_clause")) {
            /* import fs = require("fs") */
            TSNode id = ts_node_named_child(c, 0);
            char *s = lf_tssem_name_string(m->src, lf_tree_field(c, "source"));
            if (s && lf_tree_is(id, "identifier"))
                add_binding(w, LF_TSBIND_IMPORT, intern_node(m, id), 0, -1, id, c, NULL, lf_tssem_module_name(m, s));
            free(s);
        }
    }
    char *spec = lf_tssem_name_string(m->src, source);
    if (!spec)
        return;
    const char *mod = lf_tssem_module_name(m, spec);
    free(spec);
    for (uint32_t i = 0; i < n; i++) {
        TSNode clause = ts_node_named_child(stmt, i);
        if (!lf_tree_is(clause, "import_clause"))
            continue;
        uint32_t k = ts_node_named_child_count(clause);
        for (uint32_t j = 0; j < k; j++) {
            TSNode c = ts_node_named_child(clause, j);
            if (lf_tree_is(c, "identifier")) { /* default import */
                add_binding(w, LF_TSBIND_IMPORT, intern_node(m, c), 0, -1, c, stmt, NULL, mod);
            } else if (lf_tree_is(c, "namespace_import")) {
                TSNode id = ts_node_named_child(c, 0);
                if (!ts_node_is_null(id))
                    add_binding(w, LF_TSBIND_IMPORT, intern_node(m, id), 0, -1, id, stmt, NULL, mod);
            } else if (lf_tree_is(c, "named_imports")) {
                uint32_t ns = ts_node_named_child_count(c);
                for (uint32_t s = 0; s < ns; s++) {
                    TSNode sp = ts_node_named_child(c, s);
                    if (!lf_tree_is(sp, "import_specifier"))
                        continue;
                    TSNode name = lf_tree_field(sp, "name"), alias = lf_tree_field(sp, "alias");
                    TSNode local = ts_node_is_null(alias) ? name : alias;
                    if (ts_node_is_null(local))
                        continue;
                    char *member = lf_tree_text(m->src, name);
                    const char *q = strcmp(member, "default") == 0 ? mod : lf_tssem_join(m, mod, member);
                    free(member);
                    add_binding(w, LF_TSBIND_IMPORT, intern_node(m, local), 0, -1, local, stmt, NULL, q);
                }
            }
        }
    }
}

/* Destructuring: one binding per name, with the property path it takes from
 * `value` (`{ promises: { rm } }` -> rm takes "promises.rm"). Iterative. */
static void record_pattern(walker *w, TSNode pattern, TSNode value, lf_tsbinding_kind kind, int32_t scope) {
    lf_tssem *m = w->m;
    const char *req = kind == LF_TSBIND_VAR ? require_module(w, value) : NULL;
    LF_VEC(struct pat { TSNode n; const char *path; }) st = {0};
    struct pat first = {pattern, NULL};
    LF_VEC_PUSH(&st, first);
    while (st.len) {
        struct pat p = st.items[--st.len];
        const char *t = ts_node_type(p.n);
        if (strcmp(t, "identifier") == 0 || strcmp(t, "shorthand_property_identifier_pattern") == 0) {
            const char *name = intern_node(m, p.n);
            const char *path = p.path;
            if (strcmp(t, "shorthand_property_identifier_pattern") == 0)
                path = path ? lf_tssem_join(m, path, name) : name;
            if (req && path)
                add_binding(w, LF_TSBIND_IMPORT, name, scope, -1, p.n, value, NULL, lf_tssem_join(m, req, path));
            else
                add_binding(w, kind, name, scope, -1, p.n, value, path, NULL);
        } else if (strcmp(t, "object_pattern") == 0) {
            uint32_t k = ts_node_named_child_count(p.n);
            for (uint32_t i = 0; i < k; i++) {
                TSNode c = ts_node_named_child(p.n, i);
                const char *ct = ts_node_type(c);
                if (strcmp(ct, "pair_pattern") == 0) {
                    TSNode key = lf_tree_field(c, "key");
                    const char *kn = intern_node(m, key);
                    struct pat q = {lf_tree_field(c, "value"), p.path ? lf_tssem_join(m, p.path, kn) : kn};
                    if (!ts_node_is_null(q.n))
                        LF_VEC_PUSH(&st, q);
                } else if (strcmp(ct, "shorthand_property_identifier_pattern") == 0) {
                    struct pat q = {c, p.path};
                    LF_VEC_PUSH(&st, q);
                } else if (strcmp(ct, "object_assignment_pattern") == 0) {
                    struct pat q = {lf_tree_field(c, "left"), p.path};
                    if (!ts_node_is_null(q.n))
                        LF_VEC_PUSH(&st, q);
                }
            }
        } else if (strcmp(t, "assignment_pattern") == 0) {
            struct pat q = {lf_tree_field(p.n, "left"), p.path};
            if (!ts_node_is_null(q.n))
                LF_VEC_PUSH(&st, q);
        } else if (strcmp(t, "array_pattern") == 0) {
            uint32_t k = ts_node_named_child_count(p.n);
            for (uint32_t i = 0; i < k; i++) {
                struct pat q = {ts_node_named_child(p.n, i), lf_tssem_intern(m, "[]", 2)};
                LF_VEC_PUSH(&st, q);
            }
        }
    }
    LF_VEC_FREE(&st);
}

static void record_params(walker *w, TSNode fn, int32_t scope) {
    TSNode params = lf_tree_field(fn, "parameters");
    if (ts_node_is_null(params)) {
        TSNode p = lf_tree_field(fn, "parameter"); /* x => ... */
        if (lf_tree_is(p, "identifier"))
            add_binding(w, LF_TSBIND_PARAM, intern_node(w->m, p), scope, -1, p, (TSNode){0}, NULL, NULL);
        return;
    }
    uint32_t k = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < k; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode pat = p, dflt = {0};
        if (lf_tree_is(p, "required_parameter") || lf_tree_is(p, "optional_parameter")) {
            pat = lf_tree_field(p, "pattern");
            dflt = lf_tree_field(p, "value");
        } else if (lf_tree_is(p, "assignment_pattern")) {
            pat = lf_tree_field(p, "left");
            dflt = lf_tree_field(p, "right");
        }
        if (ts_node_is_null(pat))
            continue;
        if (lf_tree_is(pat, "identifier"))
            add_binding(w, LF_TSBIND_PARAM, intern_node(w->m, pat), scope, -1, pat, dflt, NULL, NULL);
        else
            record_pattern(w, pat, dflt, LF_TSBIND_PARAM, scope);
    }
}

static const char *pending_fn_name(walker *w, TSNode fn) {
    uint32_t start = ts_node_start_byte(fn);
    for (size_t i = w->fn_names.len; i-- > 0;) {
        if (w->fn_names.items[i].start == start)
            return w->fn_names.items[i].name;
        if (w->fn_names.items[i].start < start)
            break;
    }
    return "";
}

static void note_fn_name(walker *w, TSNode value, const char *name) {
    value = lf_tssem_unwrap(value);
    if (!ts_node_is_null(value) && (node_kind(w->kinds, value) & NK_FUNCTION)) {
        struct named_fn f = {ts_node_start_byte(value), name};
        LF_VEC_PUSH(&w->fn_names, f);
    }
}

int lf_tssem_is_exports(const lf_source *src, TSNode obj) {
    return lf_tree_text_eq(src, obj, "exports") || lf_tree_text_eq(src, obj, "module.exports");
}

static void visit(walker *w, frame f, unsigned char kind) {
    lf_tssem *m = w->m;
    TSNode n = f.node;
    int v = (kind & NK_VISIT) >> NK_VISIT_SHIFT;
    if (v == NV_NONE) {
        return;
    } else if (v == NV_IMPORT) {
        record_import(w, n);
    } else if (v == NV_EXPORT) {
        m->esm = 1;
    } else if (v == NV_VARIABLE) {
        TSNode name = lf_tree_field(n, "name"), value = lf_tree_field(n, "value");
        size_t declared_from = w->bindings.len;
        if (lf_tree_is(name, "identifier")) {
            const char *req = require_module(w, value);
            const char *nm = intern_node(m, name);
            if (req)
                add_binding(w, LF_TSBIND_IMPORT, nm, f.scope, -1, name, value, NULL, req);
            else
                add_binding(w, LF_TSBIND_VAR, nm, f.scope, -1, name, value, NULL, NULL);
            note_fn_name(w, value, nm);
        } else if (!ts_node_is_null(name)) {
            record_pattern(w, name, value, LF_TSBIND_VAR, f.scope);
        }
        limit_to_block(w, declared_from, n);
    } else if (v == NV_ASSIGN) {
        TSNode left = lf_tssem_unwrap(lf_tree_field(n, "left")), right = lf_tree_field(n, "right");
        if (lf_tree_is(left, "identifier")) {
            add_binding(w, LF_TSBIND_ASSIGN, intern_node(m, left), f.scope, -1, left, right, NULL, NULL);
            note_fn_name(w, right, intern_node(m, left));
        } else if (lf_tree_is(left, "member_expression") && lf_tssem_is_exports(m->src, lf_tree_field(left, "object"))) {
            /* exports.unlock = function (...) {...}: the module's own function `unlock` */
            note_fn_name(w, right, intern_node(m, lf_tree_field(left, "property")));
        } else if (lf_tree_is(left, "member_expression") && f.cls >= 0 &&
                   lf_tree_is(lf_tree_field(left, "object"), "this")) {
            char *prop = lf_tree_text(m->src, lf_tree_field(left, "property"));
            char *key = lf_xasprintf("this.%s", prop);
            add_binding(w, LF_TSBIND_FIELD, lf_tssem_intern(m, key, strlen(key)), f.scope, f.cls, left, right, NULL,
                        NULL);
            free(key);
            free(prop);
        }
    } else if (v == NV_FIELD && f.cls >= 0) {
        /* class fields: `lockPath = join(dir, "x.lock")` */
        TSNode name = lf_tree_field(n, "name"), value = lf_tree_field(n, "value");
        if (!ts_node_is_null(name) && !ts_node_is_null(value)) {
            char *prop = lf_tree_text(m->src, name);
            char *key = lf_xasprintf("this.%s", prop);
            add_binding(w, LF_TSBIND_FIELD, lf_tssem_intern(m, key, strlen(key)), f.scope, f.cls, name, value, NULL,
                        NULL);
            free(key);
            free(prop);
        }
    } else if (v == NV_CALL) {
        lf_tscall c = {n, f.scope, NULL, -1, LF_TSCALL_UNASKED};
        LF_VEC_PUSH(&w->calls, c);
    }
}

/* A declaration binds its name in the scope around it (before the walk enters it). */
static void record_declaration(walker *w, TSNode n, int32_t outer, unsigned char kind) {
    if (!(kind & NK_DECL))
        return;
    TSNode name = lf_tree_field(n, "name");
    if (!ts_node_is_null(name))
        add_binding(w, LF_TSBIND_DEF, intern_node(w->m, name), outer, -1, name, n, NULL, NULL);
}

lf_tssem *lf_tssem_build(const lf_source *src, TSNode root) {
    lf_tssem *m = lf_xcalloc(1, sizeof *m);
    m->src = src;
    m->root = root;
    m->in = lf_xcalloc(1, sizeof *m->in);
    walker w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.kinds = node_kinds_for(ts_node_language(root));
    lf_tsscope top = {root, -1, "", -1, 0, 0, -1, 0, -1};
    LF_VEC_PUSH(&w.scopes, top);
    frame start = {root, 0, -1};
    LF_VEC_PUSH(&w.stack, start);
    TSTreeCursor cur = ts_tree_cursor_new(root);
    while (w.stack.len) {
        frame f = w.stack.items[--w.stack.len];
        TSNode n = f.node;
        unsigned char kind = node_kind(w.kinds, n);
        record_declaration(&w, n, f.scope, kind);
        if ((kind & NK_FUNCTION) && !ts_node_eq(n, root)) {
            TSNode name = lf_tree_field(n, "name");
            const char *nm = ts_node_is_null(name) ? pending_fn_name(&w, n) : intern_node(m, name);
            lf_tsscope s = {n, f.scope, nm, f.cls, (int32_t)w.bindings.len, 0, -1, 0, -1};
            LF_VEC_PUSH(&w.scopes, s);
            f.scope = (int32_t)(w.scopes.len - 1);
            record_params(&w, n, f.scope);
            w.scopes.items[f.scope].n_params = (int32_t)(w.bindings.len - (size_t)s.first_param);
        } else if (kind & NK_CLASS) {
            TSNode name = lf_tree_field(n, "name");
            lf_tsclass c = {n, ts_node_is_null(name) ? "" : intern_node(m, name), -1};
            LF_VEC_PUSH(&w.classes, c);
            f.cls = (int32_t)(w.classes.len - 1);
        }
        visit(&w, f, kind);
        /* children in reverse so they pop in source order; collected with one
         * cursor pass (ts_node_named_child(n, i) costs O(i): quadratic on the
         * long arrays and statement lists of bundled code) */
        size_t first = w.stack.len;
        ts_tree_cursor_reset(&cur, n);
        if (ts_tree_cursor_goto_first_child(&cur)) {
            do {
                TSNode c = ts_tree_cursor_current_node(&cur);
                /* a named leaf of no kind here (an identifier, a string's
                 * fragment) declares, binds and calls nothing: not pushed */
                if (ts_node_is_named(c) && (node_kind(w.kinds, c) || ts_node_child_count(c))) {
                    frame fc = {c, f.scope, f.cls};
                    LF_VEC_PUSH(&w.stack, fc);
                }
            } while (ts_tree_cursor_goto_next_sibling(&cur));
        }
        for (size_t a = first, b = w.stack.len; b > a + 1; a++, b--) {
            frame t = w.stack.items[a];
            w.stack.items[a] = w.stack.items[b - 1];
            w.stack.items[b - 1] = t;
        }
    }
    ts_tree_cursor_delete(&cur);
    LF_VEC_FREE(&w.stack);
    LF_VEC_FREE(&w.fn_names);
    m->scopes = w.scopes.items;
    m->n_scopes = w.scopes.len;
    m->classes = w.classes.items;
    m->n_classes = w.classes.len;
    m->bindings = w.bindings.items;
    m->n_bindings = w.bindings.len;
    m->calls = w.calls.items;
    m->n_calls = w.calls.len;
    /* lf_tssem_call searches by (start asc, end desc): a chain `x.f().f()...`
     * puts every call at one start byte, so the start alone is no key. */
    if (m->n_calls > 1)
        qsort(m->calls, m->n_calls, sizeof *m->calls, lf_tscall_order);
    lf_node_index_build(&m->in->calls_by_node, m->calls, m->n_calls, sizeof *m->calls, offsetof(lf_tscall, node));
    /* scopes are in pre-order, so a parent's fn is known before its children's */
    for (size_t i = 0; i < m->n_scopes; i++) {
        lf_tsscope *sc = &m->scopes[i];
        int32_t p = sc->parent;
        int anon = i > 0 && p > 0 && !*sc->name &&
                   (lf_tree_is(sc->node, "arrow_function") || lf_tree_is(sc->node, "function_expression") ||
                    lf_tree_is(sc->node, "function"));
        sc->fn = anon ? m->scopes[p].fn : (int32_t)i;
    }
    for (size_t i = m->n_calls; i-- > 0;) {
        int32_t sc = m->calls[i].scope, f = sc > 0 ? m->scopes[sc].fn : sc;
        if (f < 0)
            continue;
        m->calls[i].next_in_fn = m->scopes[f].first_call;
        m->scopes[f].first_call = (int32_t)i;
    }
    /* methods per class, in reverse so each chain runs in source order */
    for (size_t i = m->n_scopes; i-- > 1;) {
        lf_tsscope *sc = &m->scopes[i];
        if (sc->cls >= 0 && lf_tree_is(sc->node, "method_definition")) {
            sc->next_method = m->classes[sc->cls].first_method;
            m->classes[sc->cls].first_method = (int32_t)i;
        }
    }
    index_names(m);
    index_scoped_names(m);
    for (size_t i = 0; i < m->n_calls; i++)
        m->calls[i].callee = lf_tssem_callee_uncached(m, m->calls[i].node);
    return m;
}

static void name_set_add(lf_tsname_set *set, const char *interned) {
    if ((set->n + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        const char **t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->slots[i])
                continue;
            size_t j = hash_bytes(set->slots[i], strlen(set->slots[i])) & (cap - 1);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = set->slots[i];
        }
        free(set->slots);
        set->slots = t;
        set->cap = cap;
    }
    size_t j = hash_bytes(interned, strlen(interned)) & (set->cap - 1);
    for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
        if (set->slots[j] == interned)
            return;
    set->slots[j] = interned;
    set->n++;
}

static int name_set_has(const lf_tsname_set *set, const char *name) {
    if (!set->cap)
        return 0;
    size_t j = hash_bytes(name, strlen(name)) & (set->cap - 1);
    for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
        if (strcmp(set->slots[j], name) == 0)
            return 1;
    return 0;
}

typedef struct name_collect {
    lf_tssem *m;
    lf_tsname_set *set;
    const char *const *types;
} name_collect;

static lf_walk_action collect_name(TSNode n, void *ud) {
    name_collect *c = ud;
    const char *t = ts_node_type(n);
    for (size_t i = 0; c->types[i]; i++)
        if (strcmp(t, c->types[i]) == 0) {
            uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
            name_set_add(c->set, lf_tssem_intern(c->m, c->m->src->text + a, b - a));
            break;
        }
    return LF_WALK_CONTINUE;
}

int lf_tssem_file_mentions(lf_tssem *m, const char *name) {
    static const char *const types[] = {"identifier", "shorthand_property_identifier",
                                        "shorthand_property_identifier_pattern", "type_identifier", NULL};
    lf_tssem_internal *in = m->in;
    if (!in->mentions_built) {
        in->mentions_built = 1;
        name_collect c = {m, &in->mentions, types};
        lf_tree_walk(m->root, collect_name, &c);
    }
    return name_set_has(&in->mentions, name);
}

static size_t subtree_slot(const void *id, size_t cap) {
    uint64_t h = (uint64_t)(uintptr_t)id * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

int lf_tssem_names_in(lf_tssem *m, TSNode scope, const char *name) {
    static const char *const types[] = {"identifier", "shorthand_property_identifier",
                                        "shorthand_property_identifier_pattern", NULL};
    if (ts_node_is_null(scope))
        return 0;
    lf_tssem_internal *in = m->in;
    if ((in->n_subtrees + 1) * 2 > in->cap_subtrees) {
        size_t cap = in->cap_subtrees ? in->cap_subtrees * 2 : 16;
        lf_tssubtree_names *t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < in->cap_subtrees; i++) {
            if (!in->subtrees[i].id)
                continue;
            size_t j = subtree_slot(in->subtrees[i].id, cap);
            while (t[j].id)
                j = (j + 1) & (cap - 1);
            t[j] = in->subtrees[i];
        }
        free(in->subtrees);
        in->subtrees = t;
        in->cap_subtrees = cap;
    }
    size_t j = subtree_slot(scope.id, in->cap_subtrees);
    while (in->subtrees[j].id && in->subtrees[j].id != scope.id)
        j = (j + 1) & (in->cap_subtrees - 1);
    if (!in->subtrees[j].id) {
        in->subtrees[j].id = scope.id;
        in->n_subtrees++;
        name_collect c = {m, &in->subtrees[j].names, types};
        lf_tree_walk(scope, collect_name, &c);
    }
    return name_set_has(&in->subtrees[j].names, name);
}

const size_t *lf_tssem_imports(lf_tssem *m, size_t *n) {
    lf_tssem_internal *in = m->in;
    if (!in->imports_built) {
        in->imports_built = 1;
        for (size_t i = 0; i < m->n_bindings; i++)
            if (m->bindings[i].kind == LF_TSBIND_IMPORT)
                LF_VEC_PUSH(&in->imports, i);
    }
    *n = in->imports.len;
    return in->imports.items;
}

void lf_tssem_free(lf_tssem *m) {
    if (!m)
        return;
    if (m->lock && m->lock_free)
        m->lock_free(m->lock);
    if (m->import_header && m->import_header_free)
        m->import_header_free(m->import_header);
    lf_tssem_internal *in = m->in;
    for (size_t i = 0; i < in->cap_strs; i++)
        free(in->strs[i]);
    free(in->strs);
    free(in->name_keys);
    free(in->name_heads);
    free(in->ns_names);
    free(in->ns_scopes);
    free(in->ns_heads);
    free(in->scope_next);
    free(in->caller_head);
    lf_node_index_free(&in->calls_by_node);
    free(in->caller_next);
    free(in->mentions.slots);
    for (size_t i = 0; i < in->cap_subtrees; i++)
        free(in->subtrees[i].names.slots);
    free(in->subtrees);
    LF_VEC_FREE(&in->imports);
    LF_VEC_FREE(&in->news);
    LF_VEC_FREE(&in->field_flows);
    free(in);
    free(m->scopes);
    free(m->classes);
    free(m->bindings);
    free(m->calls);
    free(m);
}

int32_t lf_tssem_scope_of(const lf_tssem *m, TSNode n) {
    /* Pre-order: the last scope that contains n is the innermost. Binary
     * search for the last scope starting at or before n, then climb. */
    uint32_t at = ts_node_start_byte(n), end = ts_node_end_byte(n);
    size_t lo = 0, hi = m->n_scopes;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ts_node_start_byte(m->scopes[mid].node) <= at)
            lo = mid;
        else
            hi = mid;
    }
    int32_t s = (int32_t)lo;
    while (s > 0 && !(ts_node_start_byte(m->scopes[s].node) <= at && end <= ts_node_end_byte(m->scopes[s].node)))
        s = m->scopes[s].parent;
    /* the function node itself belongs to its enclosing scope */
    while (s > 0 && ts_node_eq(m->scopes[s].node, n))
        s = m->scopes[s].parent;
    return s < 0 ? 0 : s;
}

int lf_tssem_scope_within(const lf_tssem *m, int32_t inner, int32_t outer) {
    for (int32_t s = inner; s >= 0; s = m->scopes[s].parent)
        if (s == outer)
            return 1;
    return 0;
}

const lf_tsbinding *lf_tssem_binding_at(const lf_tssem *m, int32_t scope, const char *name, uint32_t at) {
    const lf_tssem_internal *in = m->in;
    if (!in->cap_ns || !name)
        return NULL;
    /* the innermost enclosing scope declaring name: its last declaration before
     * `at`, else its first (a use before a hoisted or later declaration) */
    for (int32_t s = scope; s >= 0; s = m->scopes[s].parent) {
        int32_t i = first_in_scope(in, name, s);
        if (i < 0)
            continue;
        const lf_tsbinding *first = NULL, *last_before = NULL;
        for (; i >= 0; i = in->scope_next[i]) {
            const lf_tsbinding *b = &m->bindings[i];
            if (b->block_end && (at < b->block_start || at >= b->block_end))
                continue; /* a let/const of a block `at` is not in */
            if (!first)
                first = b;
            if (ts_node_start_byte(b->target) < at)
                last_before = b;
        }
        if (first)
            return last_before ? last_before : first;
    }
    return NULL;
}

const lf_tsbinding *lf_tssem_field(const lf_tssem *m, int32_t cls, const char *name) {
    for (int32_t i = lf_tssem_first_binding(m, name); i >= 0; i = m->bindings[i].next)
        if (m->bindings[i].kind == LF_TSBIND_FIELD && m->bindings[i].cls == cls)
            return &m->bindings[i];
    return NULL;
}

TSNode lf_tssem_this_field_value(lf_tssem *m, TSNode member) {
    if (!lf_tree_is(member, "member_expression") || !lf_tree_is(lf_tree_field(member, "object"), "this"))
        return (TSNode){0};
    int32_t s = lf_tssem_scope_of(m, member);
    int32_t cls = s >= 0 ? m->scopes[s].cls : -1;
    if (cls < 0)
        return (TSNode){0};
    TSNode p = lf_tree_field(member, "property");
    uint32_t a = ts_node_start_byte(p), b = ts_node_end_byte(p);
    char *key = lf_xasprintf("this.%.*s", (int)(b - a), m->src->text + a);
    const lf_tsbinding *f = lf_tssem_field(m, cls, lf_tssem_intern(m, key, strlen(key)));
    free(key);
    return f ? f->value : (TSNode){0};
}

const lf_tsbinding *lf_tssem_param(const lf_tssem *m, int32_t scope, uint32_t i) {
    if (scope <= 0 || (size_t)scope >= m->n_scopes)
        return NULL;
    const lf_tsscope *s = &m->scopes[scope];
    /* positional parameters are the plain identifiers (destructured ones have a member path) */
    uint32_t k = 0;
    for (int32_t j = s->first_param; j < s->first_param + s->n_params; j++) {
        const lf_tsbinding *b = &m->bindings[j];
        if (b->kind == LF_TSBIND_PARAM && !b->member && k++ == i)
            return b;
    }
    return NULL;
}

int lf_tssem_param_index(const lf_tssem *m, int32_t scope, const lf_tsbinding *b) {
    if (!b || scope <= 0 || (size_t)scope >= m->n_scopes)
        return -1;
    const lf_tsscope *s = &m->scopes[scope];
    int k = 0; /* counted as lf_tssem_param counts */
    for (int32_t j = s->first_param; j < s->first_param + s->n_params; j++) {
        const lf_tsbinding *p = &m->bindings[j];
        if (p->kind != LF_TSBIND_PARAM || p->member)
            continue;
        if (p == b)
            return k;
        k++;
    }
    return -1;
}

static int ident_byte(unsigned char c) {
    return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

void lf_tssem_tokens(const lf_tssem *m, const char *word, lf_tsnode_vec *out) {
    const char *text = m->src->text;
    size_t len = m->src->len, wl = strlen(word);
    for (const char *p = text; wl && (size_t)(p - text) + wl <= len;) {
        const char *hit = memmem(p, len - (size_t)(p - text), word, wl);
        if (!hit)
            break;
        uint32_t a = (uint32_t)(hit - text);
        p = hit + 1;
        /* a token never starts right after an ASCII identifier character */
        if (a > 0 && ident_byte((unsigned char)text[a - 1]))
            continue;
        lf_work(1);
        TSNode n = ts_node_named_descendant_for_byte_range(m->root, a, a + (uint32_t)wl);
        if (!ts_node_is_null(n) && ts_node_start_byte(n) == a)
            LF_VEC_PUSH(out, n);
    }
}

static int preorder_cmp(const void *x, const void *y) {
    const TSNode *a = x, *b = y;
    uint32_t sa = ts_node_start_byte(*a), sb = ts_node_start_byte(*b);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    uint32_t ea = ts_node_end_byte(*a), eb = ts_node_end_byte(*b);
    if (ea != eb)
        return ea > eb ? -1 : 1;
    /* same extent: the ancestor first (a node with one child of its size) */
    for (TSNode p = ts_node_parent(*b); !ts_node_is_null(p) && ts_node_start_byte(p) == sa && ts_node_end_byte(p) == ea;
         p = ts_node_parent(p))
        if (ts_node_eq(p, *a))
            return -1;
    for (TSNode p = ts_node_parent(*a); !ts_node_is_null(p) && ts_node_start_byte(p) == sa && ts_node_end_byte(p) == ea;
         p = ts_node_parent(p))
        if (ts_node_eq(p, *b))
            return 1;
    return 0;
}

void lf_tssem_preorder(lf_tsnode_vec *v) {
    if (v->len < 2)
        return;
    qsort(v->items, v->len, sizeof *v->items, preorder_cmp);
    size_t k = 1;
    for (size_t i = 1; i < v->len; i++)
        if (!ts_node_eq(v->items[i], v->items[k - 1]))
            v->items[k++] = v->items[i];
    v->len = k;
}

int32_t lf_tssem_first_caller(lf_tssem *m, int32_t scope) {
    lf_tssem_internal *in = m->in;
    if (!in->caller_head) {
        in->caller_head = lf_xmalloc((m->n_scopes + 1) * sizeof *in->caller_head);
        in->caller_next = lf_xmalloc((m->n_calls + 1) * sizeof *in->caller_next);
        for (size_t s = 0; s <= m->n_scopes; s++)
            in->caller_head[s] = -1;
        for (size_t i = m->n_calls; i-- > 0;) {
            int32_t s = lf_tssem_local_callee(m, m->calls[i].node);
            in->caller_next[i] = -1;
            if (s >= 0 && (size_t)s < m->n_scopes) {
                in->caller_next[i] = in->caller_head[s];
                in->caller_head[s] = (int32_t)i;
            }
        }
    }
    return scope >= 0 && (size_t)scope < m->n_scopes ? in->caller_head[scope] : -1;
}

int32_t lf_tssem_next_caller(const lf_tssem *m, int32_t call) { return m->in->caller_next[call]; }

int lf_tssem_is_function_node(TSNode n) {
    static const char *const kinds[] = {"function_declaration", "function_expression", "arrow_function",
                                        "method_definition",    "generator_function_declaration",
                                        "generator_function",   "function", NULL};
    for (size_t i = 0; kinds[i]; i++)
        if (lf_tree_is(n, kinds[i]))
            return 1;
    return 0;
}
