#include "lf_pyfix.h"

#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_tree.h"
#include "lf_util.h"

TSNode lf_pyfix_field(TSNode n, const char *field) {
    if (ts_node_is_null(n)) /* tree-sitter dereferences the tree of a null node */
        return n;
    return ts_node_child_by_field_name(n, field, (uint32_t)strlen(field));
}

int lf_pyfix_is(TSNode n, const char *type) { return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0; }

static int is_argument_noise(TSNode n) { return lf_pyfix_is(n, "comment"); }

TSNode lf_pyfix_call_arg(TSNode call, uint32_t index) {
    TSNode args = lf_pyfix_field(call, "arguments");
    TSNode none = {0};
    if (ts_node_is_null(args) || !lf_pyfix_is(args, "argument_list"))
        return none;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (is_argument_noise(a))
            continue;
        if (lf_pyfix_is(a, "keyword_argument") || lf_pyfix_is(a, "list_splat") || lf_pyfix_is(a, "dictionary_splat"))
            return none;
        if (k++ == index)
            return a;
    }
    return none;
}

uint32_t lf_pyfix_call_arg_count(TSNode call) {
    TSNode args = lf_pyfix_field(call, "arguments");
    if (ts_node_is_null(args))
        return 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++)
        if (!is_argument_noise(ts_node_named_child(args, i)))
            k++;
    return k;
}

TSNode lf_pyfix_call_kwarg(const lf_source *src, TSNode call, const char *name) {
    TSNode args = lf_pyfix_field(call, "arguments");
    TSNode none = {0};
    if (ts_node_is_null(args))
        return none;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_pyfix_is(a, "keyword_argument") && lf_node_text_eq(src, lf_pyfix_field(a, "name"), name))
            return lf_pyfix_field(a, "value");
    }
    return none;
}

int lf_pyfix_call_is(const lf_source *src, TSNode call, const char *callee) {
    return lf_pyfix_is(call, "call") && lf_node_text_eq(src, lf_pyfix_field(call, "function"), callee);
}

int lf_pyfix_is_plain_reference(TSNode n) {
    while (lf_pyfix_is(n, "attribute"))
        n = lf_pyfix_field(n, "object");
    return lf_pyfix_is(n, "identifier");
}

TSNode lf_pyfix_ancestor(TSNode n, const char *type) {
    while (!ts_node_is_null(n) && strcmp(ts_node_type(n), type) != 0)
        n = ts_node_parent(n);
    return n;
}

int lf_pyfix_mentions(const lf_source *src, TSNode n, const char *name) {
    return lf_tree_mentions(src, n, name, NULL);
}

uint32_t lf_pyfix_line_start(const lf_source *src, uint32_t at) {
    while (at > 0 && src->text[at - 1] != '\n')
        at--;
    return at;
}

int lf_pyfix_starts_line(const lf_source *src, TSNode n) {
    uint32_t at = ts_node_start_byte(n), s = lf_pyfix_line_start(src, at);
    while (s < at && (src->text[s] == ' ' || src->text[s] == '\t'))
        s++;
    return s == at;
}

char *lf_pyfix_line_indent(const lf_source *src, uint32_t at) {
    uint32_t s = lf_pyfix_line_start(src, at), e = s;
    while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
        e++;
    return lf_xstrndup(src->text + s, e - s);
}

char *lf_pyfix_indent_unit(const lf_source *src, TSNode stmt) {
    /* stmt may be the root (an input that parsed to a top-level ERROR): its
     * parent is the null node, whose own parent must not be asked for. */
    TSNode block = ts_node_parent(stmt);
    if (!lf_pyfix_is(block, "block"))
        return lf_xstrdup("    ");
    TSNode owner = ts_node_parent(block);
    if (ts_node_is_null(owner) ||
        ts_node_start_point(owner).row == ts_node_start_point(stmt).row)
        return lf_xstrdup("    ");
    char *inner = lf_pyfix_line_indent(src, ts_node_start_byte(stmt));
    char *outer = lf_pyfix_line_indent(src, ts_node_start_byte(owner));
    size_t il = strlen(inner), ol = strlen(outer);
    char *unit = il > ol && strncmp(inner, outer, ol) == 0 ? lf_xstrdup(inner + ol) : lf_xstrdup("    ");
    free(inner);
    free(outer);
    return unit;
}

uint32_t lf_pyfix_next_line_start(const lf_source *src, uint32_t at) {
    while (at < src->len && src->text[at] != '\n')
        at++;
    return at < src->len ? at + 1 : at;
}

char *lf_pyfix_plain_string(const lf_source *src, TSNode n) {
    if (!lf_pyfix_is(n, "string"))
        return NULL;
    TSNode start = ts_node_named_child(n, 0);
    if (!lf_pyfix_is(start, "string_start"))
        return NULL;
    /* Only plain quotes: no f/b/r prefix changes what the characters mean. */
    if (ts_node_end_byte(start) - ts_node_start_byte(start) != 1)
        return NULL;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (uint32_t i = 1; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (lf_pyfix_is(c, "string_end"))
            break;
        if (!lf_pyfix_is(c, "string_content") || ts_node_named_child_count(c) > 0) {
            lf_strbuf_free(&sb);
            return NULL;
        }
        uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(c);
        if (memchr(src->text + a, '\\', b - a)) {
            lf_strbuf_free(&sb);
            return NULL;
        }
        lf_strbuf_append(&sb, src->text + a, b - a);
    }
    return sb.data ? lf_strbuf_detach(&sb) : lf_xstrdup("");
}

static int is_import(TSNode n) {
    return lf_pyfix_is(n, "import_statement") || lf_pyfix_is(n, "import_from_statement") ||
           lf_pyfix_is(n, "future_import_statement");
}

/* Module name of `import x` (or `import x as y`) with a single name; NULL otherwise. */
static char *plain_import_name(const lf_source *src, TSNode n) {
    if (!lf_pyfix_is(n, "import_statement") || ts_node_named_child_count(n) != 1)
        return NULL;
    TSNode name = ts_node_named_child(n, 0);
    if (lf_pyfix_is(name, "aliased_import"))
        name = lf_pyfix_field(name, "name");
    return lf_pyfix_is(name, "dotted_name") ? lf_node_text(src, name) : NULL;
}

void lf_pyfix_ensure_import(const lf_source *src, TSNode root, const char *module, lf_fix *fix) {
    lf_pyfix_ensure_import_as(src, root, module, NULL, fix);
}

/* A module docstring: a string statement, in any spelling the compiler takes
 * as one (prefixes, implicit concatenation, parentheses around it). Byte and
 * f-strings are not docstrings, but code after them may still not go above. */
static int is_string_statement(TSNode s) {
    if (!lf_pyfix_is(s, "expression_statement") || ts_node_named_child_count(s) != 1)
        return 0;
    TSNode e = ts_node_named_child(s, 0);
    while (lf_pyfix_is(e, "parenthesized_expression") && ts_node_named_child_count(e) == 1)
        e = ts_node_named_child(e, 0);
    return lf_pyfix_is(e, "string") || lf_pyfix_is(e, "concatenated_string");
}

/* The module header ends after its leading comments (shebang, encoding line,
 * licence), its docstring (only as the first statement: `__doc__` is taken
 * from there, and an import above it makes it None) and its `from __future__`
 * imports (which must stay the first statements or the module no longer
 * compiles), with the comments between them. */
uint32_t lf_pyfix_header_end(const lf_source *src, TSNode root, uint32_t *first) {
    uint32_t n = ts_node_named_child_count(root);
    uint32_t i = 0, at = 0;
    int statements = 0;
    for (; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (lf_pyfix_is(s, "comment") || lf_pyfix_is(s, "future_import_statement") ||
            (statements == 0 && is_string_statement(s))) {
            statements += !lf_pyfix_is(s, "comment");
            at = lf_pyfix_next_line_start(src, ts_node_end_byte(s));
            continue;
        }
        break;
    }
    *first = i;
    return at;
}

void lf_pyfix_ensure_import_as(const lf_source *src, TSNode root, const char *module, const char *alias,
                               lf_fix *fix) {
    uint32_t n = ts_node_named_child_count(root);
    /* Already bound by a top-level `import module` (possibly among others)? */
    for (uint32_t i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (!lf_pyfix_is(s, "import_statement"))
            continue;
        for (uint32_t j = 0; j < ts_node_named_child_count(s); j++) {
            TSNode name = ts_node_named_child(s, j);
            if (!alias && lf_pyfix_is(name, "dotted_name") && lf_node_text_eq(src, name, module))
                return;
            if (alias && lf_pyfix_is(name, "aliased_import") &&
                lf_node_text_eq(src, lf_pyfix_field(name, "name"), module) &&
                lf_node_text_eq(src, lf_pyfix_field(name, "alias"), alias))
                return;
        }
    }
    /* The leading block: docstring and comments, then the first run of imports. */
    uint32_t i;
    uint32_t after_header = lf_pyfix_header_end(src, root, &i);
    uint32_t at = after_header;
    int found_plain = 0, placed = 0;
    uint32_t after_future = after_header;
    int first_nonfuture_seen = 0;
    uint32_t first_nonfuture = 0;
    for (; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (lf_pyfix_is(s, "comment"))
            continue;
        if (!is_import(s))
            break;
        if (lf_pyfix_is(s, "future_import_statement")) {
            after_future = lf_pyfix_next_line_start(src, ts_node_end_byte(s));
            continue;
        }
        if (!first_nonfuture_seen) {
            first_nonfuture_seen = 1;
            first_nonfuture = ts_node_start_byte(s);
        }
        char *name = plain_import_name(src, s);
        if (!name)
            continue;
        found_plain = 1;
        if (strcmp(name, module) > 0) {
            at = ts_node_start_byte(s);
            placed = 1;
            free(name);
            break;
        }
        at = lf_pyfix_next_line_start(src, ts_node_end_byte(s));
        free(name);
    }
    if (!found_plain && !placed)
        at = first_nonfuture_seen ? first_nonfuture : after_future;
    char *text = alias ? lf_xasprintf("import %s as %s\n", module, alias) : lf_xasprintf("import %s\n", module);
    lf_fix_add_import(fix, at, text);
    free(text);
}

static lf_walk_action visit_multiline_string(TSNode n, void *ud) {
    if (lf_pyfix_is(n, "string") && ts_node_start_point(n).row != ts_node_end_point(n).row) {
        *(int *)ud = 1;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

int lf_pyfix_has_multiline_string(TSNode n) {
    int found = 0;
    lf_tree_walk(n, visit_multiline_string, &found);
    return found;
}

char *lf_pyfix_reindent(const char *text, uint32_t from_line, uint32_t end, const char *from, const char *to) {
    size_t fl = strlen(from);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (uint32_t a = from_line; a < end;) {
        const char *nl = memchr(text + a, '\n', end - a);
        uint32_t e = nl ? (uint32_t)(nl - text) : end;
        uint32_t k = a;
        while (k < e && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
            k++;
        if (k == e) {
            /* blank line */
        } else if (e - a >= fl && memcmp(text + a, from, fl) == 0) {
            lf_strbuf_puts(&sb, to);
            lf_strbuf_append(&sb, text + a + fl, e - a - fl);
        } else {
            lf_strbuf_append(&sb, text + a, e - a);
        }
        if (nl && e < end)
            lf_strbuf_putc(&sb, '\n'); /* a CR before it stayed with the line's text */
        a = e + 1;
    }
    return sb.data ? lf_strbuf_detach(&sb) : lf_xstrdup("");
}

/* Module of a non-relative `from m import ...` (not __future__); NULL otherwise. */
static char *from_import_module(const lf_source *src, TSNode n) {
    if (!lf_pyfix_is(n, "import_from_statement"))
        return NULL;
    TSNode mod = lf_pyfix_field(n, "module_name");
    return lf_pyfix_is(mod, "dotted_name") ? lf_node_text(src, mod) : NULL;
}

void lf_pyfix_ensure_from_import(const lf_source *src, TSNode root, const char *module, const char *name,
                                 lf_fix *fix) {
    uint32_t n = ts_node_named_child_count(root);
    uint32_t i;
    uint32_t at = lf_pyfix_header_end(src, root, &i);
    /* Sorted by module among the leading from-imports; after the others. */
    for (; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (lf_pyfix_is(s, "comment"))
            continue;
        if (!is_import(s))
            break;
        char *m = from_import_module(src, s);
        if (m && strcmp(m, module) > 0) {
            free(m);
            at = ts_node_start_byte(s);
            break;
        }
        free(m);
        at = lf_pyfix_next_line_start(src, ts_node_end_byte(s));
    }
    char *text = lf_xasprintf("from %s import %s\n", module, name);
    lf_fix_add_import(fix, at, text);
    free(text);
}
