/* lf_cfg_build: builds an lf_cfg from a front end's view of the statements
 * (lf_cfg.h). The language only says what shape a statement has and which
 * blocks it runs; everything about where control goes lives here, once for
 * both languages. */
#include <stdlib.h>
#include <string.h>

#include "lf_cfg.h"
#include "lf_util.h"

#define MAX_PARTS 64 /* clauses per statement kept; an if with more elifs keeps the first ones */

/* What the builder knows of each graph node beyond lf_cfg_node: where it sits
 * (the statement or clause whose block holds it, and its next sibling there)
 * and, for compound statements, their first statements and clauses. Recorded
 * on the way down, so nothing climbs the syntax tree (ts_node_parent is
 * quadratic in the depth). */
typedef struct bnode {
    lf_cfg_shape shape;  /* a statement's shape */
    lf_cfg_role role;    /* a clause's role */
    unsigned flags;      /* a clause's LF_PART_*, a switch's LF_SWITCH_* */
    int32_t owner;       /* statement or clause whose block holds it; -1: the body */
    int32_t next_sib;    /* next statement of the same block, or -1 */
    int32_t first;       /* first statement of its own block, or -1 */
    int32_t first_alt;   /* if: first ALT; try: first HANDLER; switch: first CASE */
    int32_t next_alt;    /* a clause: the next clause of the same chain */
    int32_t else_clause; /* loop: LOOP_ELSE; try: TRY_ELSE */
    int32_t fin;         /* try: the FINALLY clause */
    int32_t fin_exit;    /* try: its FINALLY_EXIT */
    int32_t dispatch;    /* try: its DISPATCH */
    int32_t with_exit;   /* with: its WITH_EXIT */
    unsigned catch_all;  /* try: some handler catches everything */
    unsigned import_only; /* try: some handler catches only a failed import (LF_PART_IMPORT_ONLY) */
    /* answers cached by fill_caches, in id order */
    int32_t after;       /* where control goes when its own block ends */
    int32_t raise;       /* where an exception raised here goes */
    int32_t finally;     /* the nearest finally a return here passes through, or -1 */
    int32_t brk;         /* what a break here leaves (a loop, or a breakable switch), or -1 */
    int32_t cont;        /* the loop a continue here goes back to, or -1 */
    int32_t import_try;  /* the try whose import-only handlers a failed import here reaches, or -1 */
} bnode;

typedef struct builder {
    const lf_cfg_front *fe;
    const lf_source *src;
    lf_cfg *g;
    LF_VEC(bnode) b;
    int32_t root_first; /* first statement of the body */
} builder;

typedef struct pending_block {
    TSNode block;
    int32_t owner;
} pending_block;
typedef LF_VEC(pending_block) pending_vec;

static lf_cfg_kind kind_of(const builder *bd, int32_t id) { return lf_cfg_node_at(bd->g, (uint32_t)id)->kind; }
static int is_stmt(const builder *bd, int32_t id) { return kind_of(bd, id) == LF_CFG_STMT; }
static int is_clause(const builder *bd, int32_t id, lf_cfg_role r) {
    return kind_of(bd, id) == LF_CFG_CLAUSE && bd->b.items[id].role == r;
}
static int has_shape(const builder *bd, int32_t id, lf_cfg_shape s) {
    return is_stmt(bd, id) && bd->b.items[id].shape == s;
}

void lf_cfg_put_part(lf_cfg_part *parts, size_t max, size_t *n, lf_cfg_role role, unsigned flags, TSNode clause,
                     TSNode block) {
    if (*n >= max)
        return;
    lf_cfg_part p = {role, flags, clause, block};
    parts[(*n)++] = p;
}

static int32_t add(builder *bd, lf_cfg_kind kind, TSNode node, int32_t owner) {
    uint32_t id = lf_cfg_add(bd->g, kind, node);
    bnode n;
    memset(&n, 0, sizeof n);
    n.owner = owner;
    n.next_sib = n.first = n.first_alt = n.next_alt = n.else_clause = n.fin = n.fin_exit = n.dispatch = n.with_exit =
        n.finally = n.brk = n.cont = n.import_try = -1;
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

static void queue(pending_vec *todo, TSNode block, int32_t owner) {
    pending_block p = {block, owner};
    LF_VEC_PUSH(todo, p);
}

/* Adds the clauses and pseudo nodes of compound statement `id` and queues its blocks. */
static void open_compound(builder *bd, int32_t id, TSNode s, pending_vec *todo) {
    lf_cfg_part parts[MAX_PARTS];
    size_t n = 0;
    unsigned flags = 0;
    lf_cfg_shape shape = bd->fe->shape(bd->src, s, parts, MAX_PARTS, &n, &flags);
    bd->b.items[id].shape = shape;
    bd->b.items[id].flags = flags;
    if (shape == LF_SHAPE_TRY) {
        int32_t d = add(bd, LF_CFG_DISPATCH, s, id); /* add() may move b.items */
        bd->b.items[id].dispatch = d;
    } else if (shape == LF_SHAPE_WITH) {
        int32_t wx = add(bd, LF_CFG_WITH_EXIT, s, id);
        bd->b.items[id].with_exit = wx;
    }
    for (size_t i = 0; i < n; i++) {
        const lf_cfg_part *p = &parts[i];
        if (p->role == LF_ROLE_BODY) {
            queue(todo, p->block, id);
            continue;
        }
        int32_t c = add(bd, LF_CFG_CLAUSE, p->clause, id);
        bd->b.items[c].role = p->role;
        bd->b.items[c].flags = p->flags;
        switch (p->role) {
        case LF_ROLE_ALT:
        case LF_ROLE_CASE:
            chain_alt(bd, id, c);
            break;
        case LF_ROLE_HANDLER:
            chain_alt(bd, id, c);
            if (p->flags & LF_PART_CATCH_ALL)
                bd->b.items[id].catch_all = 1;
            if (p->flags & LF_PART_IMPORT_ONLY)
                bd->b.items[id].import_only = 1;
            break;
        case LF_ROLE_LOOP_ELSE:
        case LF_ROLE_TRY_ELSE:
            bd->b.items[id].else_clause = c;
            break;
        case LF_ROLE_FINALLY: {
            int32_t fx = add(bd, LF_CFG_FINALLY_EXIT, s, id);
            bd->b.items[id].fin = c;
            bd->b.items[id].fin_exit = fx;
            break;
        }
        case LF_ROLE_BODY:
            break;
        }
        queue(todo, p->block, c);
    }
}

/* One node per statement of every block, on an explicit stack. */
static void collect(builder *bd, TSNode body) {
    pending_vec todo = {0};
    queue(&todo, body, -1);
    while (todo.len) {
        pending_block cur = todo.items[--todo.len];
        if (ts_node_is_null(cur.block))
            continue;
        int listed = bd->fe->is_block(cur.block);
        uint32_t count = listed ? ts_node_named_child_count(cur.block) : 1;
        int32_t prev = -1;
        for (uint32_t i = 0; i < count; i++) {
            TSNode s = listed ? ts_node_named_child(cur.block, i) : cur.block;
            if (listed && !bd->fe->is_member(cur.block, s))
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
    return is_clause(bd, o, LF_ROLE_HANDLER) || is_clause(bd, o, LF_ROLE_TRY_ELSE);
}

/* A switch case whose end runs into the next case: that case's first
 * statement (past empty ones), or -1 when none follows. */
static int32_t fallthrough_target(const builder *bd, int32_t c) {
    for (int32_t k = bd->b.items[c].next_alt; k >= 0; k = bd->b.items[k].next_alt)
        if (bd->b.items[k].first >= 0)
            return bd->b.items[k].first;
    return -1;
}

/* Where control goes when the block owned by `o` runs off its end (or is
 * empty): the loop's header, the with's exit, the try's else or finally, the
 * next case of a falling-through switch, or after the statement, which is its
 * next sibling or, at the end of its block, the same question one owner up
 * (cached: owners come before their blocks' statements in id order). */
static int32_t after_block_step(const builder *bd, int32_t o) {
    const bnode *n = &bd->b.items[o];
    int32_t s = o; /* the statement control continues after */
    if (has_shape(bd, o, LF_SHAPE_LOOP))
        return o; /* back to the loop's header */
    if (has_shape(bd, o, LF_SHAPE_WITH))
        return n->with_exit;
    if (has_shape(bd, o, LF_SHAPE_TRY)) { /* the try body ran to its end */
        if (n->else_clause >= 0)
            return n->else_clause;
        if (n->fin >= 0)
            return n->fin;
    } else if (is_clause(bd, o, LF_ROLE_FINALLY)) {
        return bd->b.items[n->owner].fin_exit;
    } else if (is_try_handler(bd, o)) {
        if (bd->b.items[n->owner].fin >= 0)
            return bd->b.items[n->owner].fin;
        s = n->owner;
    } else if (is_clause(bd, o, LF_ROLE_CASE) && (bd->b.items[n->owner].flags & LF_SWITCH_FALLTHROUGH)) {
        int32_t t = fallthrough_target(bd, o);
        if (t >= 0)
            return t;
        s = n->owner;
    } else if (kind_of(bd, o) == LF_CFG_CLAUSE) {
        s = n->owner; /* an if's elif/else, a loop's else, a case: after the statement */
    }
    if (bd->b.items[s].next_sib >= 0)
        return bd->b.items[s].next_sib;
    int32_t up = bd->b.items[s].owner;
    return up < 0 ? LF_CFG_EXIT_ID : bd->b.items[up].after;
}

/* Where an exception raised at cur goes: the dispatch of the try whose body
 * holds it, the finally of a try whose handler or else holds it, the exit of
 * a `with` around it (its context managers see the exception), or out of the
 * function. One step, then the cached answer of an owner. */
static int32_t raise_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return LF_CFG_EXIT_ID;
    const bnode *n = &bd->b.items[o];
    if (has_shape(bd, o, LF_SHAPE_TRY) && is_stmt(bd, cur))
        return n->dispatch;
    if (has_shape(bd, o, LF_SHAPE_WITH) && is_stmt(bd, cur))
        return n->with_exit;
    if (is_try_handler(bd, o))
        return bd->b.items[n->owner].fin >= 0 ? bd->b.items[n->owner].fin : bd->b.items[n->owner].raise;
    if (is_clause(bd, o, LF_ROLE_FINALLY))
        return bd->b.items[n->owner].raise;
    return n->raise;
}

/* The try whose import-only handlers a failed import at cur reaches: the
 * nearest try whose body holds it and that has such a handler, unless a try
 * in between catches everything first. (The finally blocks and with exits on
 * the way are not visited: those handlers only need the state before the
 * import, which is what the exceptional edge carries.) */
static int32_t import_try_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return -1;
    const bnode *n = &bd->b.items[o];
    if (has_shape(bd, o, LF_SHAPE_TRY) && is_stmt(bd, cur)) {
        if (n->import_only)
            return o;
        if (n->catch_all)
            return -1;
    }
    return n->import_try;
}

/* The nearest finally a return at cur passes through, or -1. */
static int32_t finally_step(const builder *bd, int32_t cur) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return -1;
    const bnode *n = &bd->b.items[o];
    if (has_shape(bd, o, LF_SHAPE_TRY) && is_stmt(bd, cur) && n->fin >= 0)
        return n->fin;
    if (is_try_handler(bd, o) && bd->b.items[n->owner].fin >= 0)
        return bd->b.items[n->owner].fin;
    if (is_clause(bd, o, LF_ROLE_FINALLY))
        return bd->b.items[n->owner].finally;
    return n->finally;
}

/* What a break (or, with loops_only, a continue) at cur leaves: the innermost
 * loop whose body holds it (a loop's else belongs to the loop around that
 * loop), or for a break, a breakable switch. */
static int32_t jump_step(const builder *bd, int32_t cur, int loops_only) {
    int32_t o = bd->b.items[cur].owner;
    if (o < 0)
        return -1;
    const bnode *n = &bd->b.items[o];
    if (has_shape(bd, o, LF_SHAPE_LOOP) && n->else_clause != cur)
        return o;
    if (!loops_only && is_clause(bd, o, LF_ROLE_CASE) && (bd->b.items[n->owner].flags & LF_SWITCH_BREAKABLE))
        return n->owner;
    return loops_only ? n->cont : n->brk;
}

/* Fills the caches in id order: every answer leans on an owner's, and owners
 * have smaller ids, so each node costs one step (linear in the statements,
 * whatever the nesting). */
static void fill_caches(builder *bd) {
    for (size_t i = 2; i < bd->b.len; i++) {
        int32_t id = (int32_t)i;
        lf_cfg_kind k = kind_of(bd, id);
        if (k != LF_CFG_STMT && k != LF_CFG_CLAUSE)
            continue;
        bnode *n = &bd->b.items[i];
        n->raise = raise_step(bd, id);
        n->finally = finally_step(bd, id);
        n->brk = jump_step(bd, id, 0);
        n->cont = jump_step(bd, id, 1);
        n->import_try = import_try_step(bd, id);
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

/* A return, break or continue passes through the finally blocks around it
 * (the nearest one inside what it leaves), else goes straight to dest. */
static int32_t through_finally(const builder *bd, int32_t s, int32_t left, int32_t dest) {
    int32_t f = bd->b.items[s].finally;
    if (f >= 0 && bd->b.items[f].owner > left) /* the try is inside what it leaves: a later id */
        return f;
    return dest;
}

static void edge(builder *bd, int32_t from, int32_t to, int exceptional) {
    lf_cfg_add_edge(bd->g, (uint32_t)from, (uint32_t)to, exceptional);
}

static void edges_of_try(builder *bd, int32_t id) {
    const bnode *n = &bd->b.items[id];
    edge(bd, id, first_of(bd, id), 0); /* `try` itself runs nothing that could raise */
    /* the dispatch: each handler, and onwards when none catches everything */
    for (int32_t c = n->first_alt; c >= 0; c = bd->b.items[c].next_alt)
        if (!(bd->b.items[c].flags & LF_PART_IMPORT_ONLY)) /* those come from the imports (import_edges) */
            edge(bd, n->dispatch, c, 0);
    if (!n->catch_all)
        edge(bd, n->dispatch, n->fin >= 0 ? n->fin : n->raise, 0);
    if (n->fin_exit >= 0) {
        /* a finally ends by going on to whatever entered it: after the try,
         * the handler outside (an exception), or the exit (a return) */
        edge(bd, n->fin_exit, next_of(bd, id), 0);
        edge(bd, n->fin_exit, n->raise, 0);
        edge(bd, n->fin_exit, LF_CFG_EXIT_ID, 0);
    }
}

/* A statement that may fail to import: to each import-only handler that
 * would catch it (only such statements reach those handlers, so the lock
 * state there is the state before the import, not that of every statement
 * of the try body). */
static void import_edges(builder *bd, int32_t id) {
    const bnode *n = &bd->b.items[id];
    if (n->import_try < 0 || !bd->fe->raises_import || !bd->fe->raises_import(bd->src, lf_cfg_node_at(bd->g, (uint32_t)id)->stmt))
        return;
    for (int32_t c = bd->b.items[n->import_try].first_alt; c >= 0; c = bd->b.items[c].next_alt)
        if (bd->b.items[c].flags & LF_PART_IMPORT_ONLY)
            edge(bd, id, c, 1);
}

static void edges_of_stmt(builder *bd, int32_t id) {
    const bnode *n = &bd->b.items[id];
    if (n->shape == LF_SHAPE_SIMPLE || n->shape == LF_SHAPE_RAISE || n->shape == LF_SHAPE_RETURN)
        import_edges(bd, id);
    switch (n->shape) {
    case LF_SHAPE_IF:
        edge(bd, id, first_of(bd, id), 0);
        edge(bd, id, n->first_alt >= 0 ? n->first_alt : next_of(bd, id), 0);
        break;
    case LF_SHAPE_LOOP:
        edge(bd, id, first_of(bd, id), 0);
        if (!(n->flags & LF_LOOP_FOREVER))
            edge(bd, id, n->else_clause >= 0 ? n->else_clause : next_of(bd, id), 0);
        break;
    case LF_SHAPE_TRY:
        edges_of_try(bd, id);
        return;
    case LF_SHAPE_WITH:
        edge(bd, id, first_of(bd, id), 0);
        edge(bd, n->with_exit, next_of(bd, id), 0);
        /* an exception in the body leaves through the exit, then propagates */
        edge(bd, n->with_exit, n->raise, 0);
        break;
    case LF_SHAPE_SWITCH:
        for (int32_t c = n->first_alt; c >= 0; c = bd->b.items[c].next_alt)
            edge(bd, id, c, 0);
        edge(bd, id, next_of(bd, id), 0); /* no case matched */
        break;
    case LF_SHAPE_BLOCK:
        edge(bd, id, first_of(bd, id), 0);
        break;
    case LF_SHAPE_RETURN:
        edge(bd, id, through_finally(bd, id, -1, LF_CFG_EXIT_ID), 0);
        break;
    case LF_SHAPE_RAISE:
        edge(bd, id, n->raise, 1);
        return;
    case LF_SHAPE_BREAK:
    case LF_SHAPE_CONTINUE: {
        int brk = n->shape == LF_SHAPE_BREAK;
        int32_t left = brk ? n->brk : n->cont;
        int32_t dest = left < 0 ? LF_CFG_EXIT_ID : brk ? next_of(bd, left) : left;
        int32_t via = through_finally(bd, id, left, dest);
        edge(bd, id, via, 0);
        if (via != dest) /* the finally then goes on to where the jump was headed */
            edge(bd, bd->b.items[bd->b.items[via].owner].fin_exit, dest, 0);
        return; /* a jump evaluates nothing: it cannot raise (a lock taken just before it is held
                   in no handler) */
    }
    case LF_SHAPE_SIMPLE:
        edge(bd, id, next_of(bd, id), 0);
        break;
    }
    /* any statement may raise; where a handler, finally or with would see it,
     * say so (raising out of the function needs no edge of its own: EXIT) */
    if (n->raise != LF_CFG_EXIT_ID)
        edge(bd, id, n->raise, 1);
}

static void edges_of_clause(builder *bd, int32_t id) {
    const bnode *n = &bd->b.items[id];
    edge(bd, id, first_of(bd, id), 0);
    if (n->role == LF_ROLE_ALT && (n->flags & LF_PART_CONDITIONAL)) /* its condition was false */
        edge(bd, id, n->next_alt >= 0 ? n->next_alt : next_of(bd, n->owner), 0);
}

lf_cfg *lf_cfg_build(const lf_cfg_front *fe, const lf_source *src, TSNode body) {
    builder bd;
    memset(&bd, 0, sizeof bd);
    bd.fe = fe;
    bd.src = src;
    bd.g = lf_cfg_new();
    bd.root_first = -1;
    collect(&bd, body);
    fill_caches(&bd);
    edge(&bd, LF_CFG_ENTRY_ID, bd.root_first >= 0 ? bd.root_first : LF_CFG_EXIT_ID, 0);
    for (size_t i = 2; i < bd.b.len; i++) {
        lf_cfg_kind k = kind_of(&bd, (int32_t)i);
        if (k == LF_CFG_STMT)
            edges_of_stmt(&bd, (int32_t)i);
        else if (k == LF_CFG_CLAUSE)
            edges_of_clause(&bd, (int32_t)i);
    }
    lf_cfg_seal(bd.g);
    LF_VEC_FREE(&bd.b);
    return bd.g;
}
