/* lf_pycfg: Python's statements as lf_cfg_build sees them (lf_pycfg.h). */
#include "lf_pycfg.h"

#include <string.h>

#include "lf_tree.h"

/* The first `block` named child (except and finally clauses hold theirs unnamed). */
static TSNode block_child(TSNode n) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (lf_tree_is(c, "block"))
            return c;
    }
    return (TSNode){0};
}

/* A bare `except:`, `except Exception` and `except BaseException` catch all. */
static int catches_all(const lf_source *src, TSNode clause) {
    TSNode v = lf_tree_field(clause, "value");
    if (ts_node_is_null(v))
        return 1;
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    return lf_tree_text_eq(src, v, "Exception") || lf_tree_text_eq(src, v, "BaseException");
}

/* `except ImportError`, `except ModuleNotFoundError` or a tuple of the two:
 * only a failed import raises into it (py_raises_import). */
static int catches_import_only(const lf_source *src, TSNode clause) {
    TSNode v = lf_tree_field(clause, "value");
    if (ts_node_is_null(v))
        return 0;
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    uint32_t n = lf_tree_is(v, "tuple") ? ts_node_named_child_count(v) : 1;
    for (uint32_t i = 0; i < n; i++) {
        TSNode e = lf_tree_is(v, "tuple") ? ts_node_named_child(v, i) : v;
        if (!lf_tree_text_eq(src, e, "ImportError") && !lf_tree_text_eq(src, e, "ModuleNotFoundError"))
            return 0;
    }
    return n > 0;
}

/* Statements that may raise ImportError: imports, a raise, and a statement
 * calling importlib.import_module or __import__. Other calls are taken not
 * to (a callee importing lazily is the rare exception; counting every call
 * would make an ImportError handler see the lock state of the whole try). */
static int py_raises_import(const lf_source *src, TSNode stmt) {
    if (lf_tree_is(stmt, "import_statement") || lf_tree_is(stmt, "import_from_statement") ||
        lf_tree_is(stmt, "future_import_statement") || lf_tree_is(stmt, "raise_statement"))
        return 1;
    uint32_t a = ts_node_start_byte(stmt), b = ts_node_end_byte(stmt);
    static const char *const needles[] = {"import_module", "__import__"};
    for (size_t k = 0; k < sizeof needles / sizeof *needles; k++) {
        size_t len = strlen(needles[k]);
        for (uint32_t i = a; i + len <= b; i++)
            if (!memcmp(src->text + i, needles[k], len))
                return 1;
    }
    return 0;
}

static lf_cfg_shape py_shape(const lf_source *src, TSNode s, lf_cfg_part *parts, size_t max, size_t *n,
                             unsigned *flags) {
    const char *t = ts_node_type(s);
    *n = 0;
    *flags = 0;
    if (!strcmp(t, "if_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "consequence"));
        for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
            TSNode c = ts_node_named_child(s, i);
            if (lf_tree_is(c, "elif_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_ALT, LF_PART_CONDITIONAL, c, lf_tree_field(c, "consequence"));
            else if (lf_tree_is(c, "else_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_ALT, 0, c, lf_tree_field(c, "body"));
        }
        return LF_SHAPE_IF;
    }
    if (!strcmp(t, "for_statement") || !strcmp(t, "while_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        TSNode cond = lf_tree_unparen(lf_tree_field(s, "condition"));
        if (!strcmp(t, "while_statement") &&
            (lf_tree_is(cond, "true") || (lf_tree_is(cond, "integer") && !lf_tree_text_eq(src, cond, "0"))))
            *flags = LF_LOOP_FOREVER;
        TSNode e = lf_tree_field(s, "alternative");
        if (!ts_node_is_null(e))
            lf_cfg_put_part(parts, max, n, LF_ROLE_LOOP_ELSE, 0, e, lf_tree_field(e, "body"));
        return LF_SHAPE_LOOP;
    }
    if (!strcmp(t, "try_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
            TSNode c = ts_node_named_child(s, i);
            if (lf_tree_is(c, "except_clause") || lf_tree_is(c, "except_group_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_HANDLER,
                                (catches_all(src, c) ? LF_PART_CATCH_ALL : 0) |
                                    (catches_import_only(src, c) ? LF_PART_IMPORT_ONLY : 0),
                                c, block_child(c));
            else if (lf_tree_is(c, "else_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_TRY_ELSE, 0, c, lf_tree_field(c, "body"));
            else if (lf_tree_is(c, "finally_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_FINALLY, 0, c, block_child(c));
        }
        return LF_SHAPE_TRY;
    }
    if (!strcmp(t, "with_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        return LF_SHAPE_WITH;
    }
    if (!strcmp(t, "match_statement")) {
        TSNode body = lf_tree_field(s, "body");
        for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
            TSNode c = ts_node_named_child(body, i);
            if (lf_tree_is(c, "case_clause"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_CASE, 0, c, lf_tree_field(c, "consequence"));
        }
        return LF_SHAPE_SWITCH;
    }
    if (!strcmp(t, "return_statement"))
        return LF_SHAPE_RETURN;
    if (!strcmp(t, "raise_statement"))
        return LF_SHAPE_RAISE;
    if (!strcmp(t, "break_statement"))
        return LF_SHAPE_BREAK;
    if (!strcmp(t, "continue_statement"))
        return LF_SHAPE_CONTINUE;
    /* def, class, decorated definitions: one statement; their bodies are
     * other functions' graphs */
    return LF_SHAPE_SIMPLE;
}

static int py_is_block(TSNode n) { return lf_tree_is(n, "block") || lf_tree_is(n, "module"); }

static int py_is_member(TSNode block, TSNode child) {
    (void)block;
    return !lf_tree_is(child, "comment");
}

static const lf_cfg_front python_front = {py_shape, py_is_block, py_is_member, py_raises_import};

int32_t lf_pycfg_node_of(const lf_pysem *m, const lf_cfg *g, TSNode n) {
    for (int32_t i = lf_pysem_stmt_of(m, n); i >= 0; i = m->stmts[i].parent) {
        int32_t id = lf_cfg_find(g, m->stmts[i].node);
        if (id >= 0)
            return id;
    }
    return -1;
}

lf_cfg *lf_pycfg_build(const lf_source *src, TSNode fn) {
    /* a lambda's body is an expression: no statements, ENTRY straight to EXIT */
    TSNode body = lf_tree_is(fn, "module")                ? fn
                  : lf_tree_is(fn, "function_definition") ? lf_tree_field(fn, "body")
                                                          : (TSNode){0};
    return lf_cfg_build(&python_front, src, body);
}
