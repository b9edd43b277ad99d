#include "lf_fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_util.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* A field separator no token or path contains. */
static uint64_t fnv1a_sep(uint64_t h) { return fnv1a(h, "\0", 1); }

static int is_type(TSNode n, const char *const *types) {
    const char *t = ts_node_type(n);
    for (size_t i = 0; types[i]; i++)
        if (strcmp(t, types[i]) == 0)
            return 1;
    return 0;
}

/* Python and TS/JS node types that open a named scope. */
static const char *const k_functions[] = {
    "function_definition", "lambda",                                            /* Python */
    "function_declaration", "generator_function_declaration", "function_expression",
    "generator_function", "function", "method_definition", "arrow_function", NULL, /* TS/JS */
};
static const char *const k_classes[] = {"class_definition", "class_declaration", "abstract_class_declaration",
                                        "class", NULL};

/* An anonymous function's name is the one it is bound to, when it is bound:
 * `const update = () => ...`, `{update: function () ...}`, `this.update = ...`, `update = lambda: ...`. */
static char *bound_name(const lf_source *src, TSNode fn) {
    TSNode p = ts_node_parent(fn);
    if (ts_node_is_null(p))
        return NULL;
    const char *t = ts_node_type(p);
    const char *field = strcmp(t, "variable_declarator") == 0     ? "name"
                        : strcmp(t, "pair") == 0                  ? "key"
                        : strcmp(t, "assignment_expression") == 0 || strcmp(t, "assignment") == 0 ? "left"
                        : strcmp(t, "public_field_definition") == 0 || strcmp(t, "field_definition") == 0
                            ? "name"
                            : NULL;
    if (!field)
        return NULL;
    TSNode name = ts_node_child_by_field_name(p, field, (uint32_t)strlen(field));
    if (ts_node_is_null(name) || ts_node_eq(name, fn))
        return NULL;
    return lf_node_text(src, name);
}

char *lf_fingerprint_scope(const lf_source *src, TSNode at) {
    LF_VEC(char *) names = {0};
    for (TSNode n = ts_node_parent(at); !ts_node_is_null(n); n = ts_node_parent(n)) {
        int fn = is_type(n, k_functions);
        if (!fn && !is_type(n, k_classes))
            continue;
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        char *s = !ts_node_is_null(name) ? lf_node_text(src, name) : fn ? bound_name(src, n) : NULL;
        if (!s)
            s = lf_xstrdup(strcmp(ts_node_type(n), "lambda") == 0 ? "<lambda>" : "<anonymous>");
        LF_VEC_PUSH(&names, s);
    }
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = names.len; i-- > 0;) {
        lf_strbuf_puts(&sb, names.items[i]);
        if (i)
            lf_strbuf_putc(&sb, '.');
        free(names.items[i]);
    }
    LF_VEC_FREE(&names);
    return lf_strbuf_detach(&sb);
}

/* The node's tokens (leaves), comments left out, each followed by a separator:
 * layout and comments do not count, the code does. */
static uint64_t hash_tokens(uint64_t h, const lf_source *src, TSNode node) {
    TSTreeCursor c = ts_tree_cursor_new(node);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        int comment = strcmp(ts_node_type(n), "comment") == 0 || strcmp(ts_node_type(n), "html_comment") == 0;
        if (!comment && ts_node_child_count(n) == 0) {
            uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
            if (e > src->len)
                e = (uint32_t)src->len;
            if (s < e)
                h = fnv1a(fnv1a(h, src->text + s, e - s), " ", 1);
        }
        if (!comment && ts_tree_cursor_goto_first_child(&c))
            continue;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return h;
            }
        }
    }
}

uint64_t lf_fingerprint_node(const lf_source *src, TSNode at, const char *rule_id) {
    const char *path = src->path ? src->path : "";
    while (strncmp(path, "./", 2) == 0)
        path += 2;
    uint64_t h = fnv1a_sep(fnv1a(FNV_OFFSET, rule_id, strlen(rule_id)));
    h = fnv1a_sep(fnv1a(h, path, strlen(path)));
    char *scope = lf_fingerprint_scope(src, at);
    h = fnv1a_sep(fnv1a(h, scope, strlen(scope)));
    free(scope);
    return hash_tokens(h, src, at);
}

void lf_fingerprint_number(lf_finding *findings, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned occurrence = 1;
        for (size_t k = 0; k < i; k++)
            occurrence += findings[k].fingerprint_hash == findings[i].fingerprint_hash;
        snprintf(findings[i].fingerprint, sizeof findings[i].fingerprint, "%016llx:%u",
                 (unsigned long long)findings[i].fingerprint_hash, occurrence);
    }
}
