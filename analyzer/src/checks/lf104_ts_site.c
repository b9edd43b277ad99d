/* LF104's site in TS/JS (lf104_site.h): the statements a try/finally around
 * one read-modify-write must hold, and what would make the lock change more
 * than blocking. Iterative; works on the tree and lf_tssem. */
#include <stdlib.h>
#include <string.h>

#include "lf104_site.h"
#include "lf_ts.h"
#include "lf_check.h"
#include "lf_pyshort.h"
#include "lf_tslock.h"
#include "lf_tree.h"
#include "lf_util.h"

static int is_function(TSNode n) {
    return lf_tree_is(n, "function_declaration") || lf_tree_is(n, "function_expression") ||
           lf_tree_is(n, "function") || lf_tree_is(n, "arrow_function") || lf_tree_is(n, "method_definition") ||
           lf_tree_is(n, "generator_function_declaration") || lf_tree_is(n, "generator_function") ||
           lf_tree_is(n, "class_declaration") || lf_tree_is(n, "class");
}

static int is_async(TSNode fn) {
    for (uint32_t i = 0; i < ts_node_child_count(fn); i++)
        if (lf_tree_is(ts_node_child(fn, i), "async"))
            return 1;
    return 0;
}

/* Statements a read and a write can share without being split by it. */
static int simple_statement(TSNode n) {
    return lf_tree_is(n, "expression_statement") || lf_tree_is(n, "lexical_declaration") ||
           lf_tree_is(n, "variable_declaration") || lf_tree_is(n, "return_statement");
}

static TSNode common_block(TSNode body, TSNode r, TSNode w) {
    for (TSNode n = r; !ts_node_is_null(n); n = ts_node_parent(n)) {
        if (lf_tree_is(n, "statement_block") && lf_tree_within(w, n))
            return n;
        if (ts_node_eq(n, body))
            break;
    }
    return (TSNode){0};
}

static TSNode child_holding(TSNode block, TSNode n) {
    TSNode p = ts_node_parent(n);
    while (!ts_node_is_null(p) && !ts_node_eq(p, block)) {
        n = p;
        p = ts_node_parent(n);
    }
    return n;
}

/* ---- what the span holds ---- */

typedef struct span_scan {
    TSNode yield;      /* a yield of the function itself */
    TSNode multiline;  /* a string or template literal over several lines */
} span_scan;

static lf_walk_action visit_span(TSNode n, void *ud) {
    span_scan *s = ud;
    if (is_function(n))
        return LF_WALK_SKIP;
    if (lf_tree_is(n, "yield_expression") && ts_node_is_null(s->yield))
        s->yield = n;
    if ((lf_tree_is(n, "template_string") || lf_tree_is(n, "string")) &&
        ts_node_start_point(n).row != ts_node_end_point(n).row && ts_node_is_null(s->multiline))
        s->multiline = n;
    return LF_WALK_CONTINUE;
}

static void scan_span(TSNode first, TSNode last, span_scan *out) {
    memset(out, 0, sizeof *out);
    for (TSNode x = first; !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_span, out);
        if (ts_node_eq(x, last))
            break;
    }
}

/* ---- declarations the try block would hide ---- */

typedef LF_VEC(TSNode) node_vec;

/* The names a top-level statement of the span declares in the block's scope:
 * const/let (patterns included), classes and functions. */
static void declared_names(TSNode stmt, node_vec *out) {
    if (lf_tree_is(stmt, "class_declaration") || lf_tree_is(stmt, "function_declaration") ||
        lf_tree_is(stmt, "generator_function_declaration")) {
        TSNode name = lf_tree_field(stmt, "name");
        if (!ts_node_is_null(name))
            LF_VEC_PUSH(out, name);
        return;
    }
    if (!lf_tree_is(stmt, "lexical_declaration"))
        return; /* var is function-scoped: a try block does not hide it */
    node_vec stack = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(stmt); i++) {
        TSNode d = ts_node_named_child(stmt, i);
        if (lf_tree_is(d, "variable_declarator"))
            LF_VEC_PUSH(&stack, lf_tree_field(d, "name"));
    }
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "identifier") || lf_tree_is(n, "shorthand_property_identifier_pattern")) {
            LF_VEC_PUSH(out, n);
            continue;
        }
        if (lf_tree_is(n, "pair_pattern")) { /* { key: name } binds name only */
            LF_VEC_PUSH(&stack, lf_tree_field(n, "value"));
            continue;
        }
        if (lf_tree_is(n, "assignment_pattern") || lf_tree_is(n, "object_assignment_pattern")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "left"));
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
}

typedef struct use_search {
    const lf_source *src;
    const node_vec *names;
    TSNode hit;
} use_search;

static lf_walk_action visit_use(TSNode n, void *ud) {
    use_search *u = ud;
    if (!lf_tree_is(n, "identifier") && !lf_tree_is(n, "shorthand_property_identifier") &&
        !lf_tree_is(n, "type_identifier"))
        return LF_WALK_CONTINUE;
    uint32_t len = ts_node_end_byte(n) - ts_node_start_byte(n);
    for (size_t i = 0; i < u->names->len; i++) {
        TSNode d = u->names->items[i];
        if (len == ts_node_end_byte(d) - ts_node_start_byte(d) &&
            !memcmp(u->src->text + ts_node_start_byte(n), u->src->text + ts_node_start_byte(d), len)) {
            u->hit = n;
            return LF_WALK_STOP;
        }
    }
    return LF_WALK_CONTINUE;
}

/* The first use of one of names in the block's statements from `from` on
 * (through `to` when not null), or null. */
static TSNode first_use(const lf_source *src, const node_vec *names, TSNode from, TSNode to) {
    use_search u;
    memset(&u, 0, sizeof u);
    u.src = src;
    u.names = names;
    for (TSNode x = from; !ts_node_is_null(x) && ts_node_is_null(u.hit); x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_use, &u);
        if (!ts_node_is_null(to) && ts_node_eq(x, to))
            break;
    }
    return u.hit;
}

/* The try block would end the scope of what the span declares: a later use in
 * the block takes the rest of the block into the span; an earlier one (a
 * hoisted function) declines. */
static char *keep_declarations_visible(const lf_source *src, TSNode block, lf104_site *s) {
    node_vec names = {0};
    for (TSNode x = s->first; !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        declared_names(x, &names);
        if (ts_node_eq(x, s->last))
            break;
    }
    char *why = NULL;
    TSNode before = ts_node_prev_named_sibling(s->first);
    TSNode start = ts_node_named_child(block, 0);
    if (names.len && !ts_node_is_null(before) && !ts_node_is_null(first_use(src, &names, start, before)))
        why = lf_xstrdup("a function or class the read-modify-write declares is used before it: the try block "
                         "holding the lock would hide it");
    TSNode after = ts_node_next_named_sibling(s->last);
    if (!why && names.len && !ts_node_is_null(after) && !ts_node_is_null(first_use(src, &names, after, (TSNode){0}))) {
        TSNode end = after;
        while (!ts_node_is_null(ts_node_next_named_sibling(end)))
            end = ts_node_next_named_sibling(end);
        s->last = end; /* the rest of the block, whose statements see those names */
    }
    LF_VEC_FREE(&names);
    return why;
}

/* ---- the path ---- */

static const char *const k_pure_calls[] = {"path.join", "path.resolve", "path.posix.join", "path.win32.join",
                                           "String", NULL};

static int stable_key(lf_tssem *m, TSNode e) {
    node_vec stack = {0};
    LF_VEC_PUSH(&stack, e);
    int ok = 1;
    while (ok && stack.len) {
        TSNode n = stack.items[--stack.len];
        if (lf_tree_is(n, "identifier") || lf_tree_is(n, "this") || lf_tree_is(n, "number") ||
            lf_tree_is(n, "string") || lf_tree_is(n, "property_identifier") || lf_tree_is(n, "comment"))
            continue;
        if (lf_tree_is(n, "member_expression")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
            continue;
        }
        if (lf_tree_is(n, "subscript_expression")) {
            TSNode idx = lf_tree_field(n, "index");
            ok = lf_tree_is(idx, "string") || lf_tree_is(idx, "number");
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
            continue;
        }
        if (lf_tree_is(n, "call_expression")) {
            ok = lf_tssem_call_is(m, n, k_pure_calls);
            TSNode args = lf_tree_field(n, "arguments");
            for (uint32_t i = 0; ok && i < ts_node_named_child_count(args); i++) {
                TSNode a = ts_node_named_child(args, i);
                ok = !lf_tree_is(a, "spread_element");
                LF_VEC_PUSH(&stack, a);
            }
            continue;
        }
        if (lf_tree_is(n, "binary_expression"))
            ok = lf_tree_text_eq(m->src, lf_tree_field(n, "operator"), "+");
        else if (!lf_tree_is(n, "template_string") && !lf_tree_is(n, "template_substitution") &&
                 !lf_tree_is(n, "string_fragment") && !lf_tree_is(n, "escape_sequence") &&
                 !lf_tree_is(n, "parenthesized_expression") && !lf_tree_is(n, "non_null_expression") &&
                 !lf_tree_is(n, "as_expression") && !lf_tree_is(n, "type_identifier") &&
                 !lf_tree_is(n, "predefined_type"))
            ok = 0;
        for (uint32_t i = 0; ok && i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    return ok;
}

typedef struct assign_search {
    const lf_source *src;
    node_vec refs; /* identifiers, member expressions and `this.x` of the key */
    TSNode hit;
} assign_search;

static lf_walk_action visit_assign(TSNode n, void *ud) {
    assign_search *a = ud;
    if (is_function(n))
        return LF_WALK_SKIP;
    TSNode target = {0};
    if (lf_tree_is(n, "assignment_expression") || lf_tree_is(n, "augmented_assignment_expression"))
        target = lf_tree_field(n, "left");
    else if (lf_tree_is(n, "update_expression"))
        target = lf_tree_field(n, "argument");
    else if (lf_tree_is(n, "variable_declarator"))
        target = lf_tree_field(n, "name");
    if (ts_node_is_null(target))
        return LF_WALK_CONTINUE;
    for (size_t i = 0; i < a->refs.len; i++)
        if (lf_tree_equal(a->src, target, a->src, a->refs.items[i], 0)) {
            a->hit = n;
            return LF_WALK_STOP;
        }
    return LF_WALK_CONTINUE;
}

static char *unstable_key(lf_tssem *m, TSNode key, TSNode first, TSNode last, int checked_pure) {
    const lf_source *src = m->src;
    if (!checked_pure && !stable_key(m, key)) {
        char *k = lf_py_short(src, key);
        char *why = lf_xasprintf("the document's path `%s` is computed by an expression the lock would evaluate once "
                                 "more before the read, and that could give another value or do something",
                                 k);
        free(k);
        return why;
    }
    assign_search a;
    memset(&a, 0, sizeof a);
    a.src = src;
    node_vec stack = {0};
    LF_VEC_PUSH(&stack, key);
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        if (ts_node_is_null(n))
            continue;
        if (lf_tree_is(n, "identifier") || lf_tree_is(n, "member_expression"))
            LF_VEC_PUSH(&a.refs, n);
        if (lf_tree_is(n, "member_expression")) {
            LF_VEC_PUSH(&stack, lf_tree_field(n, "object"));
            continue;
        }
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    for (TSNode x = first; !ts_node_is_null(x) && ts_node_is_null(a.hit); x = ts_node_next_named_sibling(x)) {
        lf_tree_walk(x, visit_assign, &a);
        if (ts_node_eq(x, last))
            break;
    }
    char *why = NULL;
    if (!ts_node_is_null(a.hit)) {
        char *k = lf_py_short(src, key);
        why = lf_xasprintf("the document's path `%s` is assigned again inside the read-modify-write (line %u): the "
                           "lock path would not follow it",
                           k, lf_py_line(src, a.hit));
        free(k);
    }
    LF_VEC_FREE(&a.refs);
    return why;
}

/* ---- a lock taken again inside the span ---- */

/* Does declared function h read and write files through fs (a read-modify-
 * write this fix may lock too), or take a lock through lockrt.cjs already? */
static int locks_or_may_lock(lf_tssem *m, int32_t h) {
    int reads = 0, writes = 0;
    for (int32_t c = m->scopes[h].first_call; c >= 0; c = m->calls[c].next_in_fn) {
        const char *callee = m->calls[c].callee;
        if (callee && (strstr(callee, "acquireLockSync") || strstr(callee, "acquireLock")))
            return 1;
        const char *op = lf_tslock_fs_op(m, m->calls[c].node);
        reads |= op && (!strcmp(op, "readFile") || !strcmp(op, "readJson") || !strcmp(op, "readJSON"));
        writes |= op && (!strcmp(op, "writeFile") || !strcmp(op, "writeJson") || !strcmp(op, "writeJSON") ||
                         !strcmp(op, "outputFile") || !strcmp(op, "outputJson") || !strcmp(op, "rename"));
    }
    return reads && writes;
}

/* lockrt's lock is not reentrant: a span calling a module function that locks
 * (or whose own read-modify-write this fix locks) would, on the same document,
 * wait for itself until the timeout. */
static char *reentrant_call(lf_tssem *m, int32_t fn, TSNode first, TSNode last) {
    uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(last);
    for (int32_t c = m->scopes[fn].first_call; c >= 0; c = m->calls[c].next_in_fn) {
        TSNode call = m->calls[c].node;
        if (ts_node_start_byte(call) < a || ts_node_start_byte(call) >= b)
            continue;
        /* a lock taken inside the span (a library's, or the one this fix put
         * around an inner read-modify-write; the module's own functions are
         * asked below): a lock around it would nest two locks, in an order
         * other code may take the other way */
        if (lf_tssem_local_callee(m, call) <= 0 && lf_ts_lockish_call(m, call))
            return lf_xasprintf("the read-modify-write holds a lock of its own (line %u): a lock around it would nest "
                                "two locks, in an order other code may take the other way",
                                lf_py_line(m->src, call));
        int32_t h = lf_tssem_local_callee(m, call);
        if (h <= 0 || h == fn || m->scopes[h].fn != h || !locks_or_may_lock(m, h))
            continue;
        return lf_xasprintf("the read-modify-write calls %s() (line %u), which reads and writes files itself, under "
                            "a lock of its own or one this fix may add: lockrt's lock is not reentrant, and on the "
                            "same document the inner acquisition would wait out the timeout",
                            m->scopes[h].name, lf_py_line(m->src, call));
    }
    return NULL;
}

/* ---- the site ---- */

static char *find_span(lf_tssem *m, TSNode read, TSNode write, lf104_site *s, TSNode *block_out) {
    const lf_source *src = m->src;
    int32_t sr = lf_tssem_scope_of(m, read), sw = lf_tssem_scope_of(m, write);
    if (sr <= 0)
        return lf_xstrdup("the read-modify-write is not in a function");
    if (sw != sr)
        return lf_xasprintf("the write (line %u) runs in another function than the read (a callback or a helper): a "
                            "lock taken around the read would be released before it runs, or held across the wait "
                            "for it",
                            lf_py_line(src, write));
    TSNode fn = m->scopes[sr].node;
    TSNode body = lf_tree_field(fn, "body");
    if (!lf_tree_is(body, "statement_block"))
        return lf_xstrdup("the function's body is one expression (an arrow without braces): there is no statement "
                          "to put the lock before");
    s->async_fn = is_async(fn);
    TSNode block = common_block(body, read, write);
    if (ts_node_is_null(block))
        return lf_xstrdup("the read and the write share no block of the function that a lock could wrap");
    s->first = child_holding(block, read);
    s->last = child_holding(block, write);
    if (ts_node_eq(s->first, s->last) && !simple_statement(s->first))
        return lf_xasprintf("the read and the write sit in different clauses of one statement (line %u): a lock "
                            "around both would have to take in the whole statement",
                            lf_py_line(src, s->first));
    if (ts_node_start_byte(s->last) < ts_node_start_byte(s->first))
        return lf_xstrdup("the write comes before the read in the block");
    *block_out = block;
    return NULL;
}

static lf104_site *make_site(lf_tssem *m, TSNode read, TSNode write, TSNode key, int named_elsewhere) {
    lf104_site *s = lf_xcalloc(1, sizeof *s);
    s->path = key;
    s->scope = lf_tssem_scope_of(m, read);
    const lf_source *src = m->src;
    TSNode block = {0};
    s->decline = find_span(m, read, write, s, &block);
    if (!s->decline && !named_elsewhere && !lf_tree_within(key, m->scopes[s->scope].node))
        s->decline = lf_xstrdup("the document's path is spelled outside this function, so the lock cannot name it "
                                "here");
    if (!s->decline)
        s->decline = keep_declarations_visible(src, block, s);
    if (!s->decline) {
        span_scan sc;
        scan_span(s->first, s->last, &sc);
        if (!ts_node_is_null(sc.yield))
            s->decline = lf_xasprintf("the read-modify-write spans a `yield` (line %u): the lock would stay held "
                                      "while the generator is suspended, for as long as its consumer likes",
                                      lf_py_line(src, sc.yield));
        else if (!ts_node_is_null(sc.multiline))
            s->decline = lf_xstrdup("the read-modify-write holds a string or template literal over several lines, "
                                    "which re-indenting it inside the lock's try block would change");
    }
    if (!s->decline)
        s->decline = unstable_key(m, key, s->first, s->last, named_elsewhere);
    if (!s->decline)
        s->decline = reentrant_call(m, m->scopes[s->scope].fn, s->first, s->last);
    return s;
}

lf104_site *lf104_ts_site(lf_tssem *m, TSNode read, TSNode write, TSNode key) {
    return make_site(m, read, write, key, 0);
}

lf104_site *lf104_ts_site_through_helpers(lf_tssem *m, TSNode read, TSNode write, TSNode key) {
    return make_site(m, read, write, key, 1);
}
