#include "lf_py.h"

#include <string.h>

#include "lf_tree.h"

/* ts_node_parent() walks down from the root, so climbing is quadratic in the
 * depth: hostile nesting (thousands of parentheses) would stall a worker. Real
 * code is never this deep; past the cap a node is treated as having no scope. */
#define LF_PY_MAX_CLIMB 256

TSNode lf_py_scope(TSNode n) {
    TSNode cur = ts_node_parent(n);
    TSNode last = n;
    for (int steps = 0; !ts_node_is_null(cur); steps++) {
        if (steps == LF_PY_MAX_CLIMB)
            return n;
        if (strcmp(ts_node_type(cur), "function_definition") == 0)
            return cur;
        last = cur;
        cur = ts_node_parent(cur);
    }
    return last;
}

int lf_py_same_text(const lf_source *src, TSNode a, TSNode b) { return lf_tree_same_text(src, a, b); }

int lf_py_is(const lf_source *src, TSNode n, const char *s) { return lf_node_text_eq(src, n, s); }

int lf_py_call_name(TSNode call, TSNode *name) {
    if (strcmp(ts_node_type(call), "call") != 0)
        return 0;
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(fn))
        return 0;
    if (strcmp(ts_node_type(fn), "identifier") == 0) {
        *name = fn;
        return 1;
    }
    if (strcmp(ts_node_type(fn), "attribute") == 0) {
        TSNode a = ts_node_child_by_field_name(fn, "attribute", 9);
        if (ts_node_is_null(a))
            return 0;
        *name = a;
        return 1;
    }
    return 0;
}

int lf_py_call_receiver(TSNode call, TSNode *obj) {
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (ts_node_is_null(fn) || strcmp(ts_node_type(fn), "attribute") != 0)
        return 0;
    *obj = ts_node_child_by_field_name(fn, "object", 6);
    return !ts_node_is_null(*obj);
}

TSNode lf_py_callee_object(TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    return lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "object") : (TSNode){0};
}

TSNode lf_py_callee_last(TSNode call) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    if (lf_tree_is(fn, "attribute"))
        return lf_tree_field(fn, "attribute");
    return lf_tree_is(fn, "identifier") ? fn : (TSNode){0};
}

int lf_py_method_is(const lf_source *src, TSNode call, const char *name) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    return lf_tree_is(fn, "attribute") && lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), name);
}

static int positional(TSNode a) {
    const char *t = ts_node_type(a);
    return strcmp(t, "keyword_argument") != 0 && strcmp(t, "comment") != 0 &&
           strcmp(t, "list_splat") != 0 && strcmp(t, "dictionary_splat") != 0;
}

int lf_py_call_arg(TSNode call, uint32_t i, TSNode *out) {
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(args))
        return 0;
    uint32_t k = 0;
    for (uint32_t c = 0; c < ts_node_named_child_count(args); c++) {
        TSNode a = ts_node_named_child(args, c);
        if (!positional(a))
            continue;
        if (k++ == i) {
            *out = a;
            return 1;
        }
    }
    return 0;
}

size_t lf_py_call_nargs(TSNode call) {
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    if (ts_node_is_null(args))
        return 0;
    size_t k = 0;
    for (uint32_t c = 0; c < ts_node_named_child_count(args); c++)
        if (positional(ts_node_named_child(args, c)))
            k++;
    return k;
}

TSNode lf_py_unwrap_path(const lf_source *src, TSNode n) {
    for (;;) {
        const char *t = ts_node_type(n);
        if (strcmp(t, "parenthesized_expression") == 0 && ts_node_named_child_count(n) == 1) {
            n = ts_node_named_child(n, 0);
            continue;
        }
        if (strcmp(t, "call") == 0 && lf_py_call_nargs(n) == 1) {
            TSNode fn = ts_node_child_by_field_name(n, "function", 8);
            if (lf_py_is(src, fn, "str") || lf_py_is(src, fn, "os.fspath") || lf_py_is(src, fn, "fspath")) {
                TSNode a;
                if (lf_py_call_arg(n, 0, &a)) {
                    n = a;
                    continue;
                }
            }
        }
        return n;
    }
}

/* Iterative (a tree cursor, not recursion): generated or hostile files can nest
 * deeply enough to exhaust a worker thread's stack. */
void lf_py_walk(TSNode root, const char *type, int skip_nested_defs, lf_py_visit_fn fn, void *ud) {
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        int descend = 1;
        lf_work(1);
        if (ts_node_is_named(n)) {
            const char *t = ts_node_type(n);
            if (skip_nested_defs && !ts_node_eq(n, root) &&
                (strcmp(t, "function_definition") == 0 || strcmp(t, "lambda") == 0))
                descend = 0;
            else if ((!type || strcmp(t, type) == 0) && !fn(n, ud))
                break;
        }
        if (descend && ts_tree_cursor_goto_first_child(&c))
            continue;
        int moved = 0;
        while (!(moved = ts_tree_cursor_goto_next_sibling(&c)))
            if (!ts_tree_cursor_goto_parent(&c))
                break;
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&c);
}

int lf_py_within(TSNode inner, TSNode outer) {
    return ts_node_start_byte(inner) >= ts_node_start_byte(outer) && ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

TSNode lf_py_statement(TSNode n) {
    TSNode cur = n;
    for (int steps = 0; steps < LF_PY_MAX_CLIMB; steps++) {
        TSNode p = ts_node_parent(cur);
        if (ts_node_is_null(p))
            return cur;
        const char *t = ts_node_type(p);
        if (strcmp(t, "block") == 0 || strcmp(t, "module") == 0)
            return cur;
        cur = p;
    }
    return n;
}
