/* Building the Python semantic model: one iterative walk records statements,
 * scopes, bindings and calls; then the (scope, name) table, callee names and
 * optional modules are derived from those records. */
#include "lf_pysem_internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"

/* ---- interning ---- */

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

const char *lf_pysem_intern(lf_pysem *m, const char *s, size_t len) {
    struct lf_pysem_internal *in = m->in;
    if (2 * (in->n_strings + 1) > in->cap_strings) {
        size_t cap = in->cap_strings ? in->cap_strings * 2 : 256;
        char **t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < in->cap_strings; i++) {
            char *v = in->strings[i];
            if (!v)
                continue;
            size_t h = hash_bytes(v, strlen(v)) & (cap - 1);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = v;
        }
        free(in->strings);
        in->strings = t;
        in->cap_strings = cap;
    }
    size_t h = hash_bytes(s, len) & (in->cap_strings - 1);
    while (in->strings[h]) {
        const char *v = in->strings[h];
        if (strncmp(v, s, len) == 0 && v[len] == 0)
            return v;
        h = (h + 1) & (in->cap_strings - 1);
    }
    in->strings[h] = lf_xstrndup(s, len);
    in->n_strings++;
    return in->strings[h];
}

const char *lf_pysem_intern_node(lf_pysem *m, TSNode n) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b > m->src->len)
        b = (uint32_t)m->src->len;
    if (a > b)
        a = b;
    return lf_pysem_intern(m, m->src->text + a, b - a);
}

/* A dotted name's text without layout: `os . path` -> "os.path". */
static const char *intern_dotted(lf_pysem *m, TSNode dotted) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    uint32_t n = ts_node_named_child_count(dotted);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(dotted, i);
        if (!lf_tree_is(c, "identifier"))
            continue;
        if (sb.len)
            lf_strbuf_putc(&sb, '.');
        lf_strbuf_append(&sb, m->src->text + ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c));
    }
    const char *r = lf_pysem_intern(m, sb.data ? sb.data : "", sb.len);
    lf_strbuf_free(&sb);
    return r;
}

int lf_pysem_is_none(TSNode n) { return lf_tree_is(lf_tree_unparen(n), "none"); }
int lf_pysem_is_false(TSNode n) { return lf_tree_is(lf_tree_unparen(n), "false"); }

/* ---- the (scope, name) table ---- */

static size_t slot_hash(int32_t scope, const char *name, size_t cap) {
    uint64_t h = (uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uint32_t)scope * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h >> 17) & (cap - 1);
}

static lf_pyname_slot *slot_get(lf_pysem *m, int32_t scope, const char *name, int create) {
    struct lf_pysem_internal *in = m->in;
    if (create && 2 * (in->n_slots + 1) > in->cap_slots) {
        size_t cap = in->cap_slots ? in->cap_slots * 2 : 64;
        lf_pyname_slot *t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < in->cap_slots; i++) {
            if (!in->slots[i].name)
                continue;
            size_t h = slot_hash(in->slots[i].scope, in->slots[i].name, cap);
            while (t[h].name)
                h = (h + 1) & (cap - 1);
            t[h] = in->slots[i];
        }
        free(in->slots);
        in->slots = t;
        in->cap_slots = cap;
    }
    if (!in->cap_slots)
        return NULL;
    size_t h = slot_hash(scope, name, in->cap_slots);
    while (in->slots[h].name) {
        if (in->slots[h].name == name && in->slots[h].scope == scope)
            return &in->slots[h];
        h = (h + 1) & (in->cap_slots - 1);
    }
    if (!create)
        return NULL;
    in->slots[h].name = name;
    in->slots[h].scope = scope;
    in->n_slots++;
    return &in->slots[h];
}

const lf_pyname_slot *lf_pysem_slot(const lf_pysem *m, int32_t scope, const char *name) {
    return slot_get((lf_pysem *)m, scope, name, 0);
}

/* ---- the walk ---- */

/* What the build tells node types apart by. Read off a table per grammar
 * symbol rather than with a strcmp per type per node: the walk meets every
 * node of the file, and a chain of a dozen string compares each was most of
 * the build's own time. */
typedef enum node_kind {
    NK_OTHER = 0,
    NK_MODULE,
    NK_BLOCK,
    NK_COMMENT,
    NK_FUNCTION_DEF,
    NK_CLASS_DEF,
    NK_LAMBDA,
    NK_COMPREHENSION,
    NK_IMPORT,
    NK_ASSIGNMENT,
    NK_AUGMENTED_ASSIGNMENT,
    NK_WITH_ITEM,
    NK_FOR,
    NK_EXCEPT,
    NK_NAMED_EXPRESSION,
    NK_GLOBAL,
    NK_DELETE,
    NK_CALL,
    NK_ATTRIBUTE,
} node_kind;

static const struct {
    const char *type;
    node_kind kind;
} k_node_kinds[] = {
    {"module", NK_MODULE},
    {"block", NK_BLOCK},
    {"comment", NK_COMMENT},
    {"function_definition", NK_FUNCTION_DEF},
    {"class_definition", NK_CLASS_DEF},
    {"lambda", NK_LAMBDA},
    {"list_comprehension", NK_COMPREHENSION},
    {"set_comprehension", NK_COMPREHENSION},
    {"dictionary_comprehension", NK_COMPREHENSION},
    {"generator_expression", NK_COMPREHENSION},
    {"import_statement", NK_IMPORT},
    {"import_from_statement", NK_IMPORT},
    {"assignment", NK_ASSIGNMENT},
    {"augmented_assignment", NK_AUGMENTED_ASSIGNMENT},
    {"with_item", NK_WITH_ITEM},
    {"for_statement", NK_FOR},
    {"for_in_clause", NK_FOR},
    {"except_clause", NK_EXCEPT},
    {"except_group_clause", NK_EXCEPT},
    {"named_expression", NK_NAMED_EXPRESSION},
    {"global_statement", NK_GLOBAL},
    {"nonlocal_statement", NK_GLOBAL},
    {"delete_statement", NK_DELETE},
    {"call", NK_CALL},
    {"attribute", NK_ATTRIBUTE},
};

/* Per thread, for the grammar last seen (a fixed array: nothing to free when
 * a worker thread ends). A grammar with more symbols than the table holds is
 * read by name. */
#define KIND_TABLE_SIZE 1024
static _Thread_local const TSLanguage *g_kind_lang;
static _Thread_local unsigned char g_kind_of[KIND_TABLE_SIZE];

static node_kind kind_by_name(const char *t) {
    for (size_t i = 0; i < sizeof k_node_kinds / sizeof *k_node_kinds; i++)
        if (!strcmp(t, k_node_kinds[i].type))
            return k_node_kinds[i].kind;
    return NK_OTHER;
}

static node_kind kind_of(TSNode n) {
    const TSLanguage *lang = ts_node_language(n);
    uint32_t count = ts_language_symbol_count(lang);
    if (count > KIND_TABLE_SIZE)
        return kind_by_name(ts_node_type(n));
    if (g_kind_lang != lang) {
        for (uint32_t s = 0; s < count; s++) {
            const char *name = ts_language_symbol_name(lang, (TSSymbol)s);
            g_kind_of[s] = (unsigned char)(name ? kind_by_name(name) : NK_OTHER);
        }
        g_kind_lang = lang;
    }
    TSSymbol s = ts_node_symbol(n);
    return s < count ? (node_kind)g_kind_of[s] : kind_by_name(ts_node_type(n));
}

typedef struct frame {
    TSNode node;
    node_kind kind;
    int32_t scope, stmt;         /* what node belongs to */
    int32_t child_scope, child_stmt;
    lf_pyclause child_clause;
    TSNode child_clause_node;
    TSNode child_block;
} frame;

typedef struct builder {
    lf_pysem *m;
    LF_VEC(lf_pystmt) stmts;
    LF_VEC(lf_pyscope) scopes;
    LF_VEC(lf_pybinding) bindings;
    LF_VEC(lf_pycall) calls;
    LF_VEC(TSNode) targets; /* scratch for target lists */
    LF_VEC(TSNode) fact_nodes;
} builder;

static void add_binding(builder *b, const frame *f, TSNode target, lf_pybinding_kind kind, TSNode value,
                        TSNode annotation, const char *qualname) {
    if (!lf_tree_is(target, "identifier"))
        return;
    lf_pybinding bd;
    memset(&bd, 0, sizeof bd);
    bd.name = lf_pysem_intern_node(b->m, target);
    bd.kind = kind;
    bd.scope = f->scope;
    bd.stmt = f->stmt;
    bd.target = target;
    bd.value = value;
    bd.annotation = annotation;
    bd.qualname = qualname;
    LF_VEC_PUSH(&b->bindings, bd);
}

/* Identifiers bound by an assignment target (`a`, `a, (b, c)`, `[*d]`). */
static void collect_targets(builder *b, TSNode target) {
    b->targets.len = 0;
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, target);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        if (ts_node_is_null(n))
            continue;
        const char *t = ts_node_type(n);
        if (strcmp(t, "identifier") == 0) {
            LF_VEC_PUSH(&b->targets, n);
        } else if (!strcmp(t, "pattern_list") || !strcmp(t, "tuple_pattern") || !strcmp(t, "list_pattern") ||
                   !strcmp(t, "tuple") || !strcmp(t, "list") || !strcmp(t, "parenthesized_expression") ||
                   !strcmp(t, "list_splat_pattern") || !strcmp(t, "list_splat") || !strcmp(t, "expression_list") ||
                   !strcmp(t, "as_pattern_target")) {
            for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
                LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
        }
    }
    LF_VEC_FREE(&stack);
}

static void bind_targets(builder *b, const frame *f, TSNode target, lf_pybinding_kind kind, TSNode value,
                         TSNode annotation) {
    if (lf_tree_is(target, "as_pattern_target") && ts_node_named_child_count(target) == 1)
        target = ts_node_named_child(target, 0);
    collect_targets(b, target);
    /* A value belongs to a binding only when the target is that one name. */
    int single = lf_tree_is(lf_tree_unparen(target), "identifier");
    for (size_t i = 0; i < b->targets.len; i++)
        add_binding(b, f, b->targets.items[i], kind, single ? value : (TSNode){0}, single ? annotation : (TSNode){0},
                    NULL);
}

static void bind_import(builder *b, const frame *f, TSNode imp) {
    lf_pysem *m = b->m;
    int from = lf_tree_is(imp, "import_from_statement");
    const char *base = NULL;
    if (from) {
        TSNode mod = lf_tree_field(imp, "module_name");
        if (lf_tree_is(mod, "relative_import")) {
            lf_strbuf sb;
            lf_strbuf_init(&sb);
            for (uint32_t i = 0; i < ts_node_named_child_count(mod); i++) {
                TSNode c = ts_node_named_child(mod, i);
                if (lf_tree_is(c, "import_prefix"))
                    lf_strbuf_append(&sb, m->src->text + ts_node_start_byte(c),
                                     ts_node_end_byte(c) - ts_node_start_byte(c));
                else if (lf_tree_is(c, "dotted_name"))
                    lf_strbuf_puts(&sb, intern_dotted(m, c));
            }
            base = lf_pysem_intern(m, sb.data ? sb.data : "", sb.len);
            lf_strbuf_free(&sb);
        } else if (lf_tree_is(mod, "dotted_name")) {
            base = intern_dotted(m, mod);
        } else {
            return;
        }
    }
    uint32_t n = ts_node_named_child_count(imp);
    for (uint32_t i = 0; i < n; i++) {
        const char *field = ts_node_field_name_for_named_child(imp, i);
        if (!field || strcmp(field, "name") != 0)
            continue;
        TSNode c = ts_node_named_child(imp, i);
        TSNode name = c, alias = (TSNode){0};
        if (lf_tree_is(c, "aliased_import")) {
            name = lf_tree_field(c, "name");
            alias = lf_tree_field(c, "alias");
        }
        if (!lf_tree_is(name, "dotted_name"))
            continue;
        const char *dotted = intern_dotted(m, name);
        const char *qual;
        TSNode target;
        if (from) {
            size_t bl = strlen(base);
            char *q = lf_xasprintf("%s%s%s", base, bl && base[bl - 1] != '.' ? "." : "", dotted);
            qual = lf_pysem_intern(m, q, strlen(q));
            free(q);
            target = !ts_node_is_null(alias) ? alias : ts_node_named_child(name, ts_node_named_child_count(name) - 1);
        } else if (!ts_node_is_null(alias)) {
            qual = dotted;
            target = alias;
        } else {
            /* `import os.path` binds `os`, naming the package. */
            target = ts_node_named_child(name, 0);
            qual = lf_pysem_intern_node(m, target);
        }
        add_binding(b, f, target, LF_PYBIND_IMPORT, (TSNode){0}, (TSNode){0}, qual);
    }
}

static void bind_parameters(builder *b, const frame *f, TSNode params) {
    uint32_t n = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(params, i);
        const char *t = ts_node_type(p);
        TSNode name = (TSNode){0}, value = (TSNode){0}, type = (TSNode){0};
        if (!strcmp(t, "identifier")) {
            name = p;
        } else if (!strcmp(t, "default_parameter") || !strcmp(t, "typed_default_parameter")) {
            name = lf_tree_field(p, "name");
            value = lf_tree_field(p, "value");
            type = lf_tree_field(p, "type");
        } else if (!strcmp(t, "typed_parameter")) {
            name = ts_node_named_child(p, 0);
            type = lf_tree_field(p, "type");
            if (lf_tree_is(name, "list_splat_pattern") || lf_tree_is(name, "dictionary_splat_pattern"))
                name = ts_node_named_child(name, 0);
        } else if (!strcmp(t, "list_splat_pattern") || !strcmp(t, "dictionary_splat_pattern")) {
            name = ts_node_named_child(p, 0);
        }
        add_binding(b, f, name, LF_PYBIND_PARAM, value, type, NULL);
    }
}

static int32_t add_scope(builder *b, TSNode node, lf_pyscope_kind kind, int32_t parent, int32_t stmt) {
    lf_pyscope s;
    memset(&s, 0, sizeof s);
    s.node = node;
    s.kind = kind;
    s.parent = parent;
    s.stmt = stmt;
    s.cls = -1;
    s.name = "";
    TSNode name = lf_tree_field(node, "name");
    if ((kind == LF_PYSCOPE_FUNCTION || kind == LF_PYSCOPE_CLASS) && !ts_node_is_null(name))
        s.name = lf_pysem_intern_node(b->m, name);
    if (kind == LF_PYSCOPE_FUNCTION && parent >= 0 && b->scopes.items[parent].kind == LF_PYSCOPE_CLASS)
        s.cls = parent;
    LF_VEC_PUSH(&b->scopes, s);
    return (int32_t)(b->scopes.len - 1);
}

/* The clause a block (or the module) hands to the statements it lists. */
static void enter_block(frame *f, TSNode block, TSNode parent) {
    f->child_block = block;
    f->child_clause_node = parent;
    const char *pt = ts_node_is_null(parent) ? "" : ts_node_type(parent);
    lf_pyclause c = LF_PYCLAUSE_TOP;
    if (!strcmp(pt, "if_statement"))
        c = LF_PYCLAUSE_IF_BODY;
    else if (!strcmp(pt, "elif_clause"))
        c = LF_PYCLAUSE_ELIF_BODY;
    else if (!strcmp(pt, "else_clause"))
        c = LF_PYCLAUSE_ELSE_BODY;
    else if (!strcmp(pt, "try_statement"))
        c = LF_PYCLAUSE_TRY_BODY;
    else if (!strcmp(pt, "except_clause") || !strcmp(pt, "except_group_clause"))
        c = LF_PYCLAUSE_EXCEPT_BODY;
    else if (!strcmp(pt, "finally_clause"))
        c = LF_PYCLAUSE_FINALLY_BODY;
    else if (!strcmp(pt, "with_statement"))
        c = LF_PYCLAUSE_WITH_BODY;
    else if (!strcmp(pt, "for_statement") || !strcmp(pt, "while_statement"))
        c = LF_PYCLAUSE_LOOP_BODY;
    else if (!strcmp(pt, "case_clause"))
        c = LF_PYCLAUSE_CASE_BODY;
    f->child_clause = c;
}

/* Record what `n` is; set the context its children inherit. */
static void visit(builder *b, frame *f, const frame *parent) {
    TSNode n = f->node;
    node_kind k = f->kind;
    if (k == NK_ASSIGNMENT || k == NK_ATTRIBUTE || k == NK_CALL)
        LF_VEC_PUSH(&b->fact_nodes, n);
    if (parent && (parent->kind == NK_BLOCK || parent->kind == NK_MODULE) && k != NK_COMMENT && !ts_node_is_extra(n)) {
        lf_pystmt st;
        st.node = n;
        st.parent = parent->child_stmt;
        st.scope = f->scope;
        st.clause = parent->child_clause;
        st.clause_node = parent->child_clause_node;
        st.block = parent->node;
        LF_VEC_PUSH(&b->stmts, st);
        f->stmt = (int32_t)(b->stmts.len - 1);
        f->child_stmt = f->stmt;
    }
    switch (k) {
    case NK_BLOCK:
        enter_block(f, n, parent ? parent->node : (TSNode){0});
        return;
    case NK_FUNCTION_DEF: {
        TSNode name = lf_tree_field(n, "name");
        add_binding(b, f, name, LF_PYBIND_DEF, n, (TSNode){0}, NULL);
        f->child_scope = add_scope(b, n, LF_PYSCOPE_FUNCTION, f->scope, f->stmt);
        bind_parameters(b, &(frame){.scope = f->child_scope, .stmt = f->stmt}, lf_tree_field(n, "parameters"));
        return;
    }
    case NK_CLASS_DEF:
        add_binding(b, f, lf_tree_field(n, "name"), LF_PYBIND_DEF, n, (TSNode){0}, NULL);
        f->child_scope = add_scope(b, n, LF_PYSCOPE_CLASS, f->scope, f->stmt);
        return;
    case NK_LAMBDA: {
        f->child_scope = add_scope(b, n, LF_PYSCOPE_LAMBDA, f->scope, -1);
        TSNode params = lf_tree_field(n, "parameters");
        if (!ts_node_is_null(params))
            bind_parameters(b, &(frame){.scope = f->child_scope, .stmt = f->stmt}, params);
        return;
    }
    case NK_COMPREHENSION:
        f->child_scope = add_scope(b, n, LF_PYSCOPE_COMPREHENSION, f->scope, -1);
        return;
    case NK_IMPORT:
        bind_import(b, f, n);
        return;
    case NK_ASSIGNMENT: {
        TSNode value = lf_tree_field(n, "right");
        while (lf_tree_is(value, "assignment"))
            value = lf_tree_field(value, "right");
        bind_targets(b, f, lf_tree_field(n, "left"), LF_PYBIND_ASSIGN, value, lf_tree_field(n, "type"));
        return;
    }
    case NK_AUGMENTED_ASSIGNMENT:
        bind_targets(b, f, lf_tree_field(n, "left"), LF_PYBIND_AUGASSIGN, lf_tree_field(n, "right"), (TSNode){0});
        return;
    case NK_WITH_ITEM: {
        TSNode v = lf_tree_field(n, "value");
        if (lf_tree_is(v, "as_pattern"))
            bind_targets(b, f, lf_tree_field(v, "alias"), LF_PYBIND_WITH, ts_node_named_child(v, 0), (TSNode){0});
        return;
    }
    case NK_FOR:
        bind_targets(b, f, lf_tree_field(n, "left"), LF_PYBIND_FOR, lf_tree_field(n, "right"), (TSNode){0});
        return;
    case NK_EXCEPT: {
        TSNode v = lf_tree_field(n, "value");
        if (lf_tree_is(v, "as_pattern"))
            bind_targets(b, f, lf_tree_field(v, "alias"), LF_PYBIND_EXCEPT, ts_node_named_child(v, 0), (TSNode){0});
        return;
    }
    case NK_NAMED_EXPRESSION:
        add_binding(b, f, lf_tree_field(n, "name"), LF_PYBIND_WALRUS, lf_tree_field(n, "value"), (TSNode){0}, NULL);
        return;
    case NK_GLOBAL:
    case NK_DELETE: {
        lf_pybinding_kind bk = k == NK_DELETE ? LF_PYBIND_DELETE : LF_PYBIND_GLOBAL;
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            add_binding(b, f, ts_node_named_child(n, i), bk, (TSNode){0}, (TSNode){0}, NULL);
        return;
    }
    case NK_CALL: {
        lf_pycall c = {.node = n, .stmt = f->stmt, .scope = f->scope};
        LF_VEC_PUSH(&b->calls, c);
        return;
    }
    case NK_OTHER:
    case NK_MODULE:
    case NK_COMMENT:
    case NK_ATTRIBUTE:
        return;
    }
}

/* A comprehension's first `for ... in ...` clause (its iterable runs in the
 * enclosing scope), or null. */
static TSNode first_for_clause(TSNode comprehension) {
    for (uint32_t i = 0; i < ts_node_named_child_count(comprehension); i++)
        if (lf_tree_is(ts_node_named_child(comprehension, i), "for_in_clause"))
            return ts_node_named_child(comprehension, i);
    return (TSNode){0};
}

static void inherit(const builder *b, frame *child, const frame *parent, const TSTreeCursor *c) {
    memset(child, 0, sizeof *child);
    child->node = ts_tree_cursor_current_node(c);
    child->kind = kind_of(child->node);
    child->scope = parent->child_scope;
    child->stmt = parent->child_stmt;
    child->child_scope = parent->child_scope;
    child->child_stmt = parent->child_stmt;
    child->child_clause = parent->child_clause;
    child->child_clause_node = parent->child_clause_node;
    child->child_block = parent->child_block;
    /* A def's name and decorators belong to the enclosing scope. */
    if (parent->kind == NK_FUNCTION_DEF || parent->kind == NK_CLASS_DEF) {
        const char *field = ts_tree_cursor_current_field_name(c);
        if (field && strcmp(field, "name") == 0)
            child->scope = child->child_scope = parent->scope;
    }
    /* A comprehension's first iterable is evaluated in the enclosing scope
     * (`{p.pid for p in psutil.process_iter()}` calls process_iter there). */
    if (lf_tree_is(parent->node, "for_in_clause") && parent->scope > 0 &&
        b->scopes.items[parent->scope].kind == LF_PYSCOPE_COMPREHENSION) {
        const char *field = ts_tree_cursor_current_field_name(c);
        if (field && strcmp(field, "right") == 0 &&
            ts_node_eq(first_for_clause(b->scopes.items[parent->scope].node), parent->node))
            child->scope = child->child_scope = b->scopes.items[parent->scope].parent;
    }
}

/* Past anonymous leaves (punctuation, keywords) from the cursor's node to
 * the next sibling that is named or has children: no frame is made for them,
 * since nothing visits them and they have nothing under them to inherit a
 * frame. 0 when none is left (the cursor stays on the last sibling). */
static int skip_anonymous_leaves(TSTreeCursor *c) {
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(c);
        if (ts_node_is_named(n) || ts_node_child_count(n) > 0)
            return 1;
        if (!ts_tree_cursor_goto_next_sibling(c))
            return 0;
    }
}

static void walk(builder *b) {
    TSNode root = b->m->root;
    LF_VEC(frame) stack = {0};
    frame top;
    memset(&top, 0, sizeof top);
    top.node = root;
    top.kind = kind_of(root);
    top.scope = top.child_scope = add_scope(b, root, LF_PYSCOPE_MODULE, -1, -1);
    top.stmt = top.child_stmt = -1;
    top.child_clause = LF_PYCLAUSE_TOP;
    top.child_block = root;
    top.child_clause_node = root;
    LF_VEC_PUSH(&stack, top);
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        frame *f = &stack.items[stack.len - 1];
        if (ts_node_is_named(f->node))
            visit(b, f, stack.len > 1 ? &stack.items[stack.len - 2] : NULL);
        if (ts_tree_cursor_goto_first_child(&c)) {
            if (skip_anonymous_leaves(&c)) {
                frame child;
                inherit(b, &child, &stack.items[stack.len - 1], &c);
                LF_VEC_PUSH(&stack, child);
                continue;
            }
            ts_tree_cursor_goto_parent(&c); /* only leaves under it: on to its sibling */
        }
        int moved = 0;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c) && skip_anonymous_leaves(&c)) {
                moved = 1;
                break;
            }
            if (!ts_tree_cursor_goto_parent(&c))
                break;
            stack.len--;
        }
        if (!moved)
            break;
        frame sib;
        inherit(b, &sib, &stack.items[stack.len - 2], &c);
        stack.items[stack.len - 1] = sib;
    }
    ts_tree_cursor_delete(&c);
    LF_VEC_FREE(&stack);
}

/* ---- lookups ---- */

/* Largest index i with key(i) <= at, over an array sorted by start byte; -1 if none. */
#define UPPER_BOUND(arr, n, at, out)                                                                                   \
    do {                                                                                                               \
        size_t lo_ = 0, hi_ = (n);                                                                                     \
        while (lo_ < hi_) {                                                                                            \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                                                                       \
            if (ts_node_start_byte((arr)[mid_].node) <= (at))                                                          \
                lo_ = mid_ + 1;                                                                                        \
            else                                                                                                       \
                hi_ = mid_;                                                                                            \
        }                                                                                                              \
        (out) = (int32_t)lo_ - 1;                                                                                      \
    } while (0)

int32_t lf_pysem_stmt_of(const lf_pysem *m, TSNode n) {
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    int32_t i;
    UPPER_BOUND(m->stmts, m->n_stmts, s, i);
    while (i >= 0 && ts_node_end_byte(m->stmts[i].node) < e) {
        lf_work(1);
        i = m->stmts[i].parent;
    }
    return i;
}

int32_t lf_pysem_scope_of(const lf_pysem *m, TSNode n) {
    uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
    int32_t i;
    UPPER_BOUND(m->scopes, m->n_scopes, s, i);
    while (i > 0) {
        const lf_pyscope *sc = &m->scopes[i];
        /* A def's name is not inside its own scope. */
        TSNode name = lf_tree_field(sc->node, "name");
        int in_name = !ts_node_is_null(name) && lf_tree_within(n, name);
        /* nor is a comprehension's first iterable inside the comprehension's */
        TSNode first = sc->kind == LF_PYSCOPE_COMPREHENSION ? first_for_clause(sc->node) : (TSNode){0};
        int in_first_iterable = !ts_node_is_null(first) && lf_tree_within(n, lf_tree_field(first, "right"));
        if (ts_node_end_byte(sc->node) >= e && ts_node_start_byte(sc->node) <= s && !in_name && !in_first_iterable)
            break;
        i = sc->parent;
    }
    return i < 0 ? 0 : i;
}

/* Records are in pre-order: by start byte, and for one start byte the outer
 * (longer) node first. Exact lookup by (start ascending, end descending). */
#define EXACT_INDEX(ARR_, N_, NODE_, OUT_)                                                                                 \
    do {                                                                                                               \
        uint32_t s_ = ts_node_start_byte(NODE_), e_ = ts_node_end_byte(NODE_);                                           \
        size_t lo_ = 0, hi_ = (N_);                                                                                     \
        while (lo_ < hi_) {                                                                                            \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                                                                       \
            uint32_t ms_ = ts_node_start_byte((ARR_)[mid_].node), me_ = ts_node_end_byte((ARR_)[mid_].node);             \
            if (ms_ < s_ || (ms_ == s_ && me_ > e_))                                                                   \
                lo_ = mid_ + 1;                                                                                        \
            else                                                                                                       \
                hi_ = mid_;                                                                                            \
        }                                                                                                              \
        (OUT_) = -1;                                                                                                    \
        for (size_t k_ = lo_; k_ < (N_) && ts_node_start_byte((ARR_)[k_].node) == s_ &&                                  \
                              ts_node_end_byte((ARR_)[k_].node) == e_;                                                  \
             k_++)                                                                                                     \
            if (ts_node_eq((ARR_)[k_].node, NODE_)) {                                                                    \
                (OUT_) = (int32_t)k_;                                                                                   \
                break;                                                                                                 \
            }                                                                                                          \
    } while (0)

int32_t lf_pysem_stmt_index(const lf_pysem *m, TSNode n) {
    int32_t i;
    EXACT_INDEX(m->stmts, m->n_stmts, n, i);
    return i;
}

int32_t lf_pysem_first_in_block(const lf_pysem *m, TSNode block) {
    /* A compound statement the parser recovered without its body (a file
     * mid-edit) has no block: ts_node_* on a null node reads address 0. */
    if (ts_node_is_null(block))
        return -1;
    for (uint32_t k = 0; k < ts_node_named_child_count(block); k++) {
        TSNode c = ts_node_named_child(block, k);
        if (!lf_tree_is(c, "comment") && !ts_node_is_extra(c))
            return lf_pysem_stmt_index(m, c);
    }
    return -1;
}

int32_t lf_pysem_next_sibling(const lf_pysem *m, int32_t stmt) {
    if (stmt < 0 || (size_t)stmt >= m->n_stmts)
        return -1;
    return m->in->next_sib[stmt];
}

/* The next sibling of each statement: the first statement after its nested ones
 * (statements are in pre-order, so those follow it contiguously), when it sits
 * in the same block of the same parent. One pass with a stack of the statements
 * still open. */
static void compute_next_siblings(lf_pysem *m) {
    int32_t *next = lf_xmalloc((m->n_stmts ? m->n_stmts : 1) * sizeof *next);
    LF_VEC(int32_t) open = {0};
    for (size_t k = 0; k <= m->n_stmts; k++) {
        uint32_t start = k < m->n_stmts ? ts_node_start_byte(m->stmts[k].node) : UINT32_MAX;
        while (open.len) {
            int32_t t = open.items[open.len - 1];
            lf_work(1);
            if (k < m->n_stmts && start < ts_node_end_byte(m->stmts[t].node))
                break; /* k is nested inside t */
            open.len--;
            const lf_pystmt *s = k < m->n_stmts ? &m->stmts[k] : NULL;
            next[t] = s && s->parent == m->stmts[t].parent && ts_node_eq(s->block, m->stmts[t].block) ? (int32_t)k : -1;
        }
        if (k < m->n_stmts) {
            int32_t ki = (int32_t)k;
            LF_VEC_PUSH(&open, ki);
        }
    }
    LF_VEC_FREE(&open);
    m->in->next_sib = next;
}

int lf_pysem_stmt_within(const lf_pysem *m, int32_t inner, int32_t outer) {
    if (inner < 0 || outer < 0)
        return 0;
    return lf_tree_within(m->stmts[inner].node, m->stmts[outer].node);
}

const lf_pycall *lf_pysem_call(const lf_pysem *m, TSNode call) {
    if (ts_node_is_null(call))
        return NULL;
    size_t last = m->in->last_call;
    if (last && last <= m->n_calls && ts_node_eq(m->calls[last - 1].node, call))
        return &m->calls[last - 1];
    int32_t k = lf_node_index_find(&m->in->calls_by_node, m->calls, sizeof *m->calls, offsetof(lf_pycall, node), call);
    if (k < 0)
        return NULL;
    m->in->last_call = (size_t)k + 1;
    return &m->calls[k];
}

const TSNode *lf_pysem_fact_nodes(const lf_pysem *m, size_t *n_out) {
    *n_out = m->in->n_fact_nodes;
    return m->in->fact_nodes;
}

int32_t lf_pysem_module_def(const lf_pysem *m, const char *name) {
    const lf_pyname_slot *s = lf_pysem_slot(m, 0, lf_pysem_intern((lf_pysem *)m, name, strlen(name)));
    if (!s)
        return -1;
    for (size_t i = s->bindings.len; i-- > 0;) {
        const lf_pybinding *bd = &m->bindings[s->bindings.items[i]];
        if (bd->kind == LF_PYBIND_DEF)
            return bd->stmt;
    }
    return -1;
}

/* ---- build / free ---- */

const char *lf_pysem_lockrt_member(const char *q) {
    const char *dot = q ? strrchr(q, '.') : NULL;
    if (!dot || dot - q < 6 || strncmp(dot - 6, "lockrt", 6) != 0 || (dot - q > 6 && dot[-7] != '.'))
        return NULL;
    return dot + 1;
}

/* The drop-ins of the vendored lockrt binding that lockfix's fixes swap in
 * for a create or a judgement (fixes/lf301_py_release.c) do what the call they
 * replace does, and return what it returns: the model names them by that
 * call, so every rule reads a patched module as it read the original (its
 * creates still make locks, its ages are still ages, its flocks still lock; lockrt.fcntl.X is
 * fcntl.X). Removals are not mapped:
 * an identity-bound removal is what the fix is for. */
static const char *lockrt_stand_in(lf_pysem *m, const char *q) {
    static const char *const k_stand_ins[][2] = {
        {"open_exclusive", "os.open"},           {"open_exclusive_file", "open"}, {"stat_judged", "os.stat"},
        {"lstat_judged", "os.lstat"},            {"getmtime_judged", "os.path.getmtime"},
        {"getctime_judged", "os.path.getctime"}, {"open_judged", "open"}, {"exists_judged", "os.path.exists"},
        {"flock_verified", "fcntl.flock"},       {"lockf_verified", "fcntl.lockf"},
    };
    /* lockrt.fcntl (LF101's fix for lock helpers: `fcntl = lockrt.fcntl`) is
     * the fcntl module on Unix and stands in for it on Windows. */
    const char *fc = q ? strstr(q, "lockrt.fcntl.") : NULL;
    if (fc && (fc == q || fc[-1] == '.')) {
        char buf[128];
        int n = snprintf(buf, sizeof buf, "fcntl.%s", fc + 13);
        if (n > 0 && (size_t)n < sizeof buf)
            return lf_pysem_intern(m, buf, (size_t)n);
    }
    const char *member = lf_pysem_lockrt_member(q);
    if (!member)
        return q;
    for (size_t i = 0; i < sizeof k_stand_ins / sizeof *k_stand_ins; i++)
        if (!strcmp(member, k_stand_ins[i][0]))
            return lf_pysem_intern(m, k_stand_ins[i][1], strlen(k_stand_ins[i][1]));
    return q;
}

lf_pysem *lf_pysem_build(const lf_source *src, TSNode root) {
    lf_pysem *m = lf_xcalloc(1, sizeof *m);
    m->src = src;
    m->root = root;
    m->in = lf_xcalloc(1, sizeof *m->in);
    builder b;
    memset(&b, 0, sizeof b);
    b.m = m;
    walk(&b);
    LF_VEC_FREE(&b.targets);
    m->stmts = b.stmts.items;
    m->n_stmts = b.stmts.len;
    m->scopes = b.scopes.items;
    m->n_scopes = b.scopes.len;
    m->bindings = b.bindings.items;
    m->n_bindings = b.bindings.len;
    m->calls = b.calls.items;
    m->n_calls = b.calls.len;
    m->in->fact_nodes = b.fact_nodes.items;
    m->in->n_fact_nodes = b.fact_nodes.len;
    lf_node_index_build(&m->in->calls_by_node, m->calls, m->n_calls, sizeof *m->calls, offsetof(lf_pycall, node));
    compute_next_siblings(m);
    for (size_t i = 0; i < m->n_bindings; i++) {
        lf_pyname_slot *s = slot_get(m, m->bindings[i].scope, m->bindings[i].name, 1);
        int32_t idx = (int32_t)i;
        LF_VEC_PUSH(&s->bindings, idx);
    }
    /* Optional modules first: a callee through one (`FileLock(...)` bound by an
     * import and by a stand-in class) resolves to what the import names. */
    lf_pysem_find_optionals(m);
    /* The model is complete from here on, so a callee that does not resolve now
     * never will: remember the NULL too (a method chain asks about each of its
     * calls from every check). */
    for (size_t i = 0; i < m->n_calls; i++) {
        m->calls[i].spelled = lf_pysem_callee(m, m->calls[i].node);
        m->calls[i].callee = lockrt_stand_in(m, m->calls[i].spelled);
        m->calls[i].callee_final = 1;
    }
    return m;
}

int lf_pysem_is_function_node(TSNode n) {
    return lf_tree_is(n, "function_definition") || lf_tree_is(n, "lambda") || lf_tree_is(n, "class_definition");
}

void lf_pysem_free(lf_pysem *m) {
    if (!m)
        return;
    if (m->lock && m->lock_free)
        m->lock_free(m->lock);
    struct lf_pysem_internal *in = m->in;
    for (size_t i = 0; i < in->cap_strings; i++)
        free(in->strings[i]);
    free(in->strings);
    for (size_t i = 0; i < in->cap_slots; i++)
        LF_VEC_FREE(&in->slots[i].bindings);
    free(in->slots);
    LF_VEC_FREE(&in->scratch);
    LF_VEC_FREE(&in->call_imports);
    LF_VEC_FREE(&in->import_scratch);
    lf_node_index_free(&in->calls_by_node);
    free(in->fact_nodes);
    free(in->next_sib);
    LF_VEC_FREE(&in->unlinks);
    free(in);
    free(m->stmts);
    free(m->scopes);
    free(m->bindings);
    free(m->calls);
    free(m->optionals);
    free(m->flags);
    free(m);
}
