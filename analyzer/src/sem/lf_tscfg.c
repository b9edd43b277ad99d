/* lf_tscfg: TS/JS statements as lf_cfg_build sees them (lf_tscfg.h). */
#include "lf_tscfg.h"

#include <string.h>

#include "lf_tree.h"

static int is_loop(const char *t) {
    return !strcmp(t, "for_statement") || !strcmp(t, "for_in_statement") || !strcmp(t, "while_statement") ||
           !strcmp(t, "do_statement");
}

static lf_cfg_shape ts_shape(const lf_source *src, TSNode s, lf_cfg_part *parts, size_t max, size_t *n,
                             unsigned *flags) {
    (void)src;
    const char *t = ts_node_type(s);
    *n = 0;
    *flags = 0;
    if (!strcmp(t, "if_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "consequence"));
        TSNode e = lf_tree_field(s, "alternative");
        if (!ts_node_is_null(e)) /* else_clause: its one statement (maybe another if) */
            lf_cfg_put_part(parts, max, n, LF_ROLE_ALT, 0, e, ts_node_named_child(e, 0));
        return LF_SHAPE_IF;
    }
    if (is_loop(t)) {
        /* a do-while is taken as a while: the body may run zero times here */
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        TSNode cond = lf_tree_field(s, "condition");
        if (lf_tree_is(cond, "parenthesized_expression"))
            cond = ts_node_named_child(cond, 0);
        /* `for (;;)` has an empty condition statement; `while (true)` */
        if ((!strcmp(t, "for_statement") && lf_tree_is(cond, "empty_statement")) ||
            (!strcmp(t, "while_statement") && lf_tree_is(cond, "true")))
            *flags = LF_LOOP_FOREVER;
        return LF_SHAPE_LOOP;
    }
    if (!strcmp(t, "try_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        TSNode h = lf_tree_field(s, "handler"), f = lf_tree_field(s, "finalizer");
        if (!ts_node_is_null(h))
            lf_cfg_put_part(parts, max, n, LF_ROLE_HANDLER, LF_PART_CATCH_ALL, h, lf_tree_field(h, "body"));
        if (!ts_node_is_null(f))
            lf_cfg_put_part(parts, max, n, LF_ROLE_FINALLY, 0, f, lf_tree_field(f, "body"));
        return LF_SHAPE_TRY;
    }
    if (!strcmp(t, "switch_statement")) {
        TSNode body = lf_tree_field(s, "body");
        for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
            TSNode c = ts_node_named_child(body, i);
            if (lf_tree_is(c, "switch_case") || lf_tree_is(c, "switch_default"))
                lf_cfg_put_part(parts, max, n, LF_ROLE_CASE, 0, c, c); /* the case lists its statements */
        }
        *flags = LF_SWITCH_FALLTHROUGH | LF_SWITCH_BREAKABLE;
        return LF_SHAPE_SWITCH;
    }
    if (!strcmp(t, "statement_block")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, s);
        return LF_SHAPE_BLOCK;
    }
    if (!strcmp(t, "labeled_statement")) {
        lf_cfg_put_part(parts, max, n, LF_ROLE_BODY, 0, (TSNode){0}, lf_tree_field(s, "body"));
        return LF_SHAPE_BLOCK;
    }
    if (!strcmp(t, "return_statement"))
        return LF_SHAPE_RETURN;
    if (!strcmp(t, "throw_statement"))
        return LF_SHAPE_RAISE;
    if (!strcmp(t, "break_statement"))
        return LF_SHAPE_BREAK;
    if (!strcmp(t, "continue_statement"))
        return LF_SHAPE_CONTINUE;
    return LF_SHAPE_SIMPLE;
}

static int ts_is_block(TSNode n) {
    return lf_tree_is(n, "statement_block") || lf_tree_is(n, "program") || lf_tree_is(n, "switch_case") ||
           lf_tree_is(n, "switch_default");
}

static int ts_is_member(TSNode block, TSNode child) {
    if (lf_tree_is(child, "comment") || lf_tree_is(child, "empty_statement"))
        return 0;
    /* a case's value is not one of its statements */
    return !(lf_tree_is(block, "switch_case") && ts_node_eq(child, lf_tree_field(block, "value")));
}

static const lf_cfg_front ts_front = {ts_shape, ts_is_block, ts_is_member, NULL};

lf_cfg *lf_tscfg_build(const lf_source *src, TSNode fn) {
    TSNode body = (TSNode){0};
    if (lf_tree_is(fn, "program")) {
        body = fn;
    } else {
        TSNode b = lf_tree_field(fn, "body");
        if (lf_tree_is(b, "statement_block")) /* an arrow function's expression body has no statements */
            body = b;
    }
    return lf_cfg_build(&ts_front, src, body);
}

int32_t lf_tscfg_node_of(const lf_cfg *g, TSNode fn, TSNode n, int *nested) {
    *nested = 0;
    for (TSNode cur = n; !ts_node_is_null(cur) && !ts_node_eq(cur, fn); cur = ts_node_parent(cur)) {
        if (!ts_node_eq(cur, n) && (lf_tree_is(cur, "arrow_function") || lf_tree_is(cur, "function_expression") ||
                                    lf_tree_is(cur, "function_declaration") || lf_tree_is(cur, "method_definition") ||
                                    lf_tree_is(cur, "generator_function") ||
                                    lf_tree_is(cur, "generator_function_declaration")))
            *nested = 1;
        int32_t id = lf_cfg_find(g, cur);
        if (id >= 0)
            return id;
    }
    return -1;
}
