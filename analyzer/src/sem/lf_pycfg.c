#include "lf_pycfg.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_util.h"

/* What the builder knows of each graph node beyond lf_cfg_node: where it sits
 * (the statement or clause whose block holds it, and its next sibling there)
 * and, for compound statements, their blocks' first statements and clauses.
 * Recorded on the way down, so nothing climbs the syntax tree (ts_node_parent
 * is quadratic in the depth). */
typedef struct bnode {
    int32_t owner;        /* statement or clause whose block holds it; -1: the function body */
    int32_t next_sib;     /* next statement of the same block, or -1 */
    int32_t first;        /* first statement of its (own) block, or -1 */
    int32_t first_alt;    /* if/try/match: first clause (elif/else, except..., case) */
    int32_t next_alt;     /* a clause: the next clause of the same statement */
    int32_t else_clause;  /* for/while/try: the else clause */
    int32_t fin;          /* try: the finally clause */
    int32_t fin_exit;     /* try: its FINALLY_EXIT */
    int32_t dispatch;     /* try: its DISPATCH */
    int32_t with_exit;    /* with: its WITH_EXIT */
    unsigned catch_all;   /* try: some except clause catches everything */
    /* answers cached by fill_caches */
    int32_t after;        /* where control goes when its own block ends */
    int32_t raise;        /* where an exception raised here goes */
    int32_t finally;      /* the nearest finally a return here passes through, or -1 */
    int32_t loop;         /* the loop a break or continue here leaves, or -1 */
} bnode;

typedef struct builder {
    const lf_source *src;
    lf_cfg *g;
    LF_VEC(bnode) b;
    int32_t root_first; /* first statement of the function body */
} builder;

typedef struct pending_block {
    TSNode block;
    int32_t owner;
} pending_block;
typedef LF_VEC(pending_block) pending_vec;

static const char *type_of(const builder *bd, int32_t id) {
    return ts_node_type(lf_cfg_node_at(bd->g, (uint32_t)id)->stmt);
}

static int is_type(const builder *bd, int32_t id, const char *t) {
    return id >= 0 && strcmp(type_of(bd, id), t) == 0;
}

static int32_t add(builder *bd, lf_cfg_kind kind, TSNode stmt, int32_t owner) {
    uint32_t id = lf_cfg_add(bd->g, kind, stmt);
    bnode n;
    memset(&n, 0, sizeof n);
    n.owner = owner;
    n.next_sib = n.first = n.first_alt = n.next_alt = n.else_clause = n.fin = n.fin_exit = n.dispatch = n.with_exit =
        n.finally = n.loop = -1;
    n.after = n.raise = LF_CFG_EXIT_ID;
    while (bd->b.len < id) { /* ENTRY and EXIT: nowhere */
        bnode pad = n;
        pad.owner = -1;
        LF_VEC_PUSH(&bd->b, pad);
    }
    LF_VEC_PUSH(&bd->b, n);
    return (int32_t)id;
}

/* Appends clause c to the chain of statement s's clauses. */
static void chain_alt(builder *bd, int32_t s, int32_t c) {
    int32_t *link = &bd->b.items[s].first_alt;
    while (*link >= 0)
        link = &bd->b.items[*link].next_alt;
    *link = c;
}

static int catches_all(const builder *bd, TSNode clause) {
    TSNode v = lf_tree_field(clause, "value");
    if (ts_node_is_null(v))
        return 1; /* bare except: */
    if (lf_tree_is(v, "as_pattern"))
        v = ts_node_named_child(v, 0);
    return lf_tree_text_eq(bd->src, v, "Exception") || lf_tree_text_eq(bd->src, v, "BaseException");
}

/* The first `block` named child (except and finally clauses hold theirs unnamed). */
static TSNode block_child(TSNode n) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (lf_tree_is(c, "block"))
            return c;
    }
    TSNode none;
    memset(&none, 0, sizeof none);
    return none;
}

/* Adds the clauses and pseudo nodes of compound statement `id` and queues its blocks. */
static void open_compound(builder *bd, int32_t id, TSNode s, pending_vec *todo) {
    const char *t = ts_node_type(s);
    pending_block p;
    if (!strcmp(t, "if_statement")) {
        p.block = lf_tree_field(s, "consequence");
        p.owner = id;
        LF_VEC_PUSH(todo, p);
        for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
            TSNode c = ts_node_named_child(s, i);
            int elif = lf_tree_is(c, "elif_clause");
            if (!elif && !lf_tree_is(c, "else_clause"))
                continue;
            int32_t cid = add(bd, LF_CFG_CLAUSE, c, id);
            chain_alt(bd, id, cid);
            p.block = lf_tree_field(c, elif ? "consequence" : "body");
            p.owner = cid;
            LF_VEC_PUSH(todo, p);
        }
    } else if (!strcmp(t, "for_statement") || !strcmp(t, "while_statement")) {
        p.block = lf_tree_field(s, "body");
        p.owner = id;
        LF_VEC_PUSH(todo, p);
        TSNode e = lf_tree_field(s, "alternative");
        if (!ts_node_is_null(e)) {
            int32_t cid = add(bd, LF_CFG_CLAUSE, e, id);
            bd->b.items[id].else_clause = cid;
            p.block = lf_tree_field(e, "body");
            p.owner = cid;
            LF_VEC_PUSH(todo, p);
        }
    } else if (!strcmp(t, "try_statement")) {
        p.block = lf_tree_field(s, "body");
        p.owner = id;
        LF_VEC_PUSH(todo, p);
        int32_t d = add(bd, LF_CFG_DISPATCH, s, id); /* add() may move b.items */
        bd->b.items[id].dispatch = d;
        for (uint32_t i = 0; i < ts_node_named_child_count(s); i++) {
            TSNode c = ts_node_named_child(s, i);
            int exc = lf_tree_is(c, "except_clause") || lf_tree_is(c, "except_group_clause");
            int els = lf_tree_is(c, "else_clause"), fin = lf_tree_is(c, "finally_clause");
            if (!exc && !els && !fin)
                continue;
            int32_t cid = add(bd, LF_CFG_CLAUSE, c, id);
            if (exc) {
                chain_alt(bd, id, cid);
                if (catches_all(bd, c))
                    bd->b.items[id].catch_all = 1;
            } else if (els) {
                bd->b.items[id].else_clause = cid;
            } else {
                int32_t fx = add(bd, LF_CFG_FINALLY_EXIT, s, id);
                bd->b.items[id].fin = cid;
                bd->b.items[id].fin_exit = fx;
            }
            p.block = els ? lf_tree_field(c, "body") : block_child(c);
            p.owner = cid;
            LF_VEC_PUSH(todo, p);
        }
    } else if (!strcmp(t, "with_statement")) {
        p.block = lf_tree_field(s, "body");
        p.owner = id;
        LF_VEC_PUSH(todo, p);
        int32_t wx = add(bd, LF_CFG_WITH_EXIT, s, id);
        bd->b.items[id].with_exit = wx;
    } else if (!strcmp(t, "match_statement")) {
        TSNode body = lf_tree_field(s, "body");
        for (uint32_t i = 0; i < ts_node_named_child_count(body); i++) {
            TSNode c = ts_node_named_child(body, i);
            if (!lf_tree_is(c, "case_clause"))
                continue;
            int32_t cid = add(bd, LF_CFG_CLAUSE, c, id);
            chain_alt(bd, id, cid);
            p.block = lf_tree_field(c, "consequence");
            p.owner = cid;
            LF_VEC_PUSH(todo, p);
        }
    }
    /* def, class and every simple statement open nothing: a nested body is
     * another function's graph */
}

/* One node per statement of every block, on an explicit stack. */
static void collect(builder *bd, TSNode body) {
    pending_vec todo = {0};
    pending_block p = {body, -1};
    LF_VEC_PUSH(&todo, p);
    while (todo.len) {
        pending_block cur = todo.items[--todo.len];
        if (ts_node_is_null(cur.block))
            continue;
        int32_t prev = -1;
        for (uint32_t i = 0; i < ts_node_named_child_count(cur.block); i++) {
            TSNode s = ts_node_named_child(cur.block, i);
            if (lf_tree_is(s, "comment"))
                continue;
            int32_t id = add(bd, LF_CFG_STMT, s, cur.owner);
            if (prev >= 0)
                bd->b.items[prev].next_sib = id;
            else if (cur.owner >= 0)
                bd->b.items[cur.owner].first = id;
            else
                bd->root_first = id;
            prev = id;
            open_compound(bd, id, s, &todo);
        }
    }
    LF_VEC_FREE(&todo);
}

static int is_try_handler(const builder *bd, int32_t o) {
    return is_type(bd, o, "except_clause") || is_type(bd, o, "except_group_clause") ||
           (is_type(bd, o, "else_clause") && is_type(bd, bd->b.items[o].owner, "try_statement"));
}

/* Where control goes when the block owned by `o` runs off its end (or is
 * empty): the loop's header, the with's exit, the try's else or finally, or
 * after the statement, which is its next sibling or, at the end of its block,
 * the same question one owner up (cached: owners come before their blocks'
 * statements in id order). */
static int32_t after_block_step(const builder *bd, int32_t o) {
    if (o < 0)
        return LF_CFG_EXIT_ID;
    const bnode *n = &bd->b.items[o];
    int32_t s; /* the statement control continues after */
    if (is_type(bd, o, "for_statement") || is_type(bd, o, "while_statement"))
        return o; /* back to the loop's header */
    if (is_type(bd, o, "with_statement"))
        return n->with_exit;
    if (is_type(bd, o, "try_statement")) { /* the try body ran to its end */
        if (n->else_clause >= 0)
            return n->else_clause;
        if (n->fin >= 0)
            return n->fin;
        s = o;
    } else if (is_type(bd, o, "finally_clause")) {
        return bd->b.items[n->owner].fin_exit;
    } else if (is_try_handler(bd, o)) {
        const bnode *t = &bd->b.items[n->owner];
        if (t->fin >= 0)
            return t->fin;
        s = n->owner;
    } else if (lf_cfg_node_at(bd->g, (uint32_t)o)->kind == LF_CFG_CLAUSE) {
        s = n->owner; /* elif/else of an if or a loop, a case: after the statement */
    } else {
        s = o; /* the consequence of an if, or an unknown compound statement */
    }
    if (bd->b.items[s].next_sib >= 0)
        return bd->b.items[s].next_sib;
    int32_t up = bd->b.items[s].owner;
    return up < 0 ? LF_CFG_EXIT_ID : bd->b.items[up].after;
}

/* Where an exception raised at s goes: the dispatch of the try whose body
 * holds it, the finally of a try whose handler or else holds it, the exit of
 * a `with` around it (its context managers see the exception), or out of the
 * function. One step, then the cached answer of an owner. */
static int32_t raise_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return LF_CFG_EXIT_ID;
    const bnode *n = &bd->b.items[o];
    int cur_is_stmt = lf_cfg_node_at(bd->g, (uint32_t)cur)->kind == LF_CFG_STMT;
    if (is_type(bd, o, "try_statement") && cur_is_stmt)
        return n->dispatch;
    if (is_type(bd, o, "with_statement") && cur_is_stmt)
        return n->with_exit;
    if (is_try_handler(bd, o))
        return bd->b.items[n->owner].fin >= 0 ? bd->b.items[n->owner].fin : bd->b.items[n->owner].raise;
    if (is_type(bd, o, "finally_clause"))
        return bd->b.items[n->owner].raise;
    return n->raise;
}

/* The nearest finally a return at cur passes through, or -1. */
static int32_t finally_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return -1;
    const bnode *n = &bd->b.items[o];
    int cur_is_stmt = lf_cfg_node_at(bd->g, (uint32_t)cur)->kind == LF_CFG_STMT;
    if (is_type(bd, o, "try_statement") && cur_is_stmt && n->fin >= 0)
        return n->fin;
    if (is_try_handler(bd, o) && bd->b.items[n->owner].fin >= 0)
        return bd->b.items[n->owner].fin;
    if (is_type(bd, o, "finally_clause"))
        return bd->b.items[n->owner].finally;
    return n->finally;
}

/* The loop a break or continue at cur leaves: the innermost loop whose body
 * holds it (a loop's else clause belongs to the loop around that loop). */
static int32_t loop_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return -1;
    if ((is_type(bd, o, "for_statement") || is_type(bd, o, "while_statement")) && bd->b.items[o].else_clause != cur)
        return o;
    return bd->b.items[o].loop;
}

/* Fills the caches in id order: every answer leans on an owner's, and owners
 * have smaller ids, so each node costs one step (linear in the statements,
 * whatever the nesting). */
static void fill_caches(builder *bd) {
    for (size_t i = 2; i < bd->b.len; i++) {
        int32_t id = (int32_t)i;
        lf_cfg_kind k = lf_cfg_node_at(bd->g, (uint32_t)i)->kind;
        if (k != LF_CFG_STMT && k != LF_CFG_CLAUSE)
            continue;
        bnode *n = &bd->b.items[i];
        n->raise = raise_step(bd, id);
        n->finally = finally_step(bd, id);
        n->loop = loop_step(bd, id);
        n->after = after_block_step(bd, id);
        lf_work(1);
    }
}

static int32_t next_of(const builder *bd, int32_t s) {
    const bnode *n = &bd->b.items[s];
    if (n->next_sib >= 0)
        return n->next_sib;
    return n->owner < 0 ? LF_CFG_EXIT_ID : bd->b.items[n->owner].after;
}

static int32_t first_of(const builder *bd, int32_t o) {
    return bd->b.items[o].first >= 0 ? bd->b.items[o].first : bd->b.items[o].after;
}

static int32_t raise_target(const builder *bd, int32_t s) { return bd->b.items[s].raise; }

/* A return, break or continue passes through the finally blocks around it
 * (the nearest one inside the loop it leaves), else goes straight to dest. */
static int32_t through_finally(const builder *bd, int32_t s, int32_t loop, int32_t dest) {
    int32_t f = bd->b.items[s].finally;
    if (f >= 0 && bd->b.items[f].owner > loop) /* the try is inside the loop: a later id */
        return f;
    return dest;
}

static int32_t enclosing_loop(const builder *bd, int32_t s) { return bd->b.items[s].loop; }

static void edges_of_stmt(builder *bd, int32_t id) {
    lf_cfg *g = bd->g;
    const bnode *n = &bd->b.items[id];
    const char *t = type_of(bd, id);
    uint32_t u = (uint32_t)id;
    if (!strcmp(t, "if_statement")) {
        lf_cfg_add_edge(g, u, (uint32_t)first_of(bd, id), 0);
        lf_cfg_add_edge(g, u, (uint32_t)(n->first_alt >= 0 ? n->first_alt : next_of(bd, id)), 0);
    } else if (!strcmp(t, "for_statement") || !strcmp(t, "while_statement")) {
        lf_cfg_add_edge(g, u, (uint32_t)first_of(bd, id), 0);
        lf_cfg_add_edge(g, u, (uint32_t)(n->else_clause >= 0 ? n->else_clause : next_of(bd, id)), 0);
    } else if (!strcmp(t, "try_statement")) {
        /* `try:` itself runs nothing that could raise */
        lf_cfg_add_edge(g, u, (uint32_t)first_of(bd, id), 0);
        /* the dispatch: each handler, and onwards when none catches it */
        for (int32_t c = n->first_alt; c >= 0; c = bd->b.items[c].next_alt)
            lf_cfg_add_edge(g, (uint32_t)n->dispatch, (uint32_t)c, 0);
        if (!n->catch_all)
            lf_cfg_add_edge(g, (uint32_t)n->dispatch, (uint32_t)(n->fin >= 0 ? n->fin : raise_target(bd, id)), 0);
        if (n->fin_exit >= 0) {
            /* a finally ends by going on to whatever entered it: after the
             * try, the handler outside (an exception), or the exit (a return) */
            lf_cfg_add_edge(g, (uint32_t)n->fin_exit, (uint32_t)next_of(bd, id), 0);
            lf_cfg_add_edge(g, (uint32_t)n->fin_exit, (uint32_t)raise_target(bd, id), 0);
            lf_cfg_add_edge(g, (uint32_t)n->fin_exit, LF_CFG_EXIT_ID, 0);
        }
        return;
    } else if (!strcmp(t, "with_statement")) {
        lf_cfg_add_edge(g, u, (uint32_t)first_of(bd, id), 0);
        lf_cfg_add_edge(g, (uint32_t)n->with_exit, (uint32_t)next_of(bd, id), 0);
        /* an exception in the body leaves through the exit, then propagates */
        lf_cfg_add_edge(g, (uint32_t)n->with_exit, (uint32_t)raise_target(bd, id), 0);
    } else if (!strcmp(t, "match_statement")) {
        for (int32_t c = n->first_alt; c >= 0; c = bd->b.items[c].next_alt)
            lf_cfg_add_edge(g, u, (uint32_t)c, 0);
        lf_cfg_add_edge(g, u, (uint32_t)next_of(bd, id), 0); /* no case matched */
    } else if (!strcmp(t, "return_statement")) {
        lf_cfg_add_edge(g, u, (uint32_t)through_finally(bd, id, -1, LF_CFG_EXIT_ID), 0);
    } else if (!strcmp(t, "raise_statement")) {
        lf_cfg_add_edge(g, u, (uint32_t)raise_target(bd, id), 1);
        return;
    } else if (!strcmp(t, "break_statement") || !strcmp(t, "continue_statement")) {
        int32_t loop = enclosing_loop(bd, id);
        int32_t dest = loop < 0 ? LF_CFG_EXIT_ID : t[0] == 'b' ? next_of(bd, loop) : loop;
        int32_t via = through_finally(bd, id, loop, dest);
        lf_cfg_add_edge(g, u, (uint32_t)via, 0);
        if (via != dest) /* the finally then goes on to where the jump was headed */
            lf_cfg_add_edge(g, (uint32_t)bd->b.items[bd->b.items[via].owner].fin_exit, (uint32_t)dest, 0);
    } else {
        lf_cfg_add_edge(g, u, (uint32_t)next_of(bd, id), 0);
    }
    /* any statement may raise; where a handler, finally or with would see it,
     * say so (raising out of the function needs no edge of its own: EXIT) */
    int32_t r = raise_target(bd, id);
    if (r != LF_CFG_EXIT_ID)
        lf_cfg_add_edge(g, u, (uint32_t)r, 1);
}

static void edges_of_clause(builder *bd, int32_t id) {
    const bnode *n = &bd->b.items[id];
    lf_cfg *g = bd->g;
    lf_cfg_add_edge(g, (uint32_t)id, (uint32_t)first_of(bd, id), 0);
    if (is_type(bd, id, "elif_clause")) /* its condition was false */
        lf_cfg_add_edge(g, (uint32_t)id, (uint32_t)(n->next_alt >= 0 ? n->next_alt : next_of(bd, n->owner)), 0);
    if (is_type(bd, id, "case_clause") && n->next_alt >= 0) /* this case did not match */
        lf_cfg_add_edge(g, (uint32_t)id, (uint32_t)n->next_alt, 0);
}

lf_cfg *lf_pycfg_build(const lf_source *src, TSNode fn) {
    builder bd;
    memset(&bd, 0, sizeof bd);
    bd.src = src;
    bd.g = lf_cfg_new();
    bd.root_first = -1;
    /* a lambda's body is an expression: no statements, ENTRY straight to EXIT */
    if (lf_tree_is(fn, "module"))
        collect(&bd, fn);
    else if (lf_tree_is(fn, "function_definition"))
        collect(&bd, lf_tree_field(fn, "body"));
    while (bd.b.len < lf_cfg_size(bd.g)) { /* a body with no statement: ENTRY and EXIT only */
        bnode none;
        memset(&none, 0, sizeof none);
        none.owner = none.next_sib = none.first = -1;
        LF_VEC_PUSH(&bd.b, none);
    }
    fill_caches(&bd);
    lf_cfg_add_edge(bd.g, LF_CFG_ENTRY_ID, (uint32_t)(bd.root_first >= 0 ? bd.root_first : LF_CFG_EXIT_ID), 0);
    for (size_t i = 2; i < lf_cfg_size(bd.g); i++) {
        lf_cfg_kind k = lf_cfg_node_at(bd.g, (uint32_t)i)->kind;
        if (k == LF_CFG_STMT)
            edges_of_stmt(&bd, (int32_t)i);
        else if (k == LF_CFG_CLAUSE)
            edges_of_clause(&bd, (int32_t)i);
    }
    lf_cfg_seal(bd.g);
    LF_VEC_FREE(&bd.b);
    return bd.g;
}
