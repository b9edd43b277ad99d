/* lf_cfg: the control-flow graph of one function's statements, and the lock
 * state that flows over it. Language-neutral: a front end (lf_pycfg for
 * Python) adds one node per statement or clause and the edges between them;
 * this module stores the graph and answers "is a lock held here on every path,
 * or on some path?" by a forward dataflow.
 *
 * Exceptional edges (a statement that may raise, to the handler that catches
 * it) carry the state from *before* the statement: a call that raises did not
 * complete, so an `acquire()` that raised took nothing.
 *
 * Lock state is a set of up to 64 lock slots (the caller numbers its locks).
 * Gen and kill per node: out = (in & ~kill) | gen. The must-held set is the
 * intersection over the incoming paths, the may-held set the union. The
 * dataflow is a worklist; each node's sets move one way only (must shrinks,
 * may grows), so it ends after at most 64 changes per node: its cost is linear
 * in the graph's size. No recursion anywhere. */
#ifndef LF_CFG_H
#define LF_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_source.h"

typedef enum lf_cfg_kind {
    LF_CFG_ENTRY = 0,     /* node 0: the function is entered */
    LF_CFG_EXIT,          /* node 1: it returns, raises out, or falls off its end */
    LF_CFG_STMT,          /* a statement, or a statement's header (the condition of an if) */
    LF_CFG_CLAUSE,        /* a clause that opens a block: elif, else, except, finally, case */
    LF_CFG_WITH_EXIT,     /* leaving a `with` block: its context managers exit here */
    LF_CFG_DISPATCH,      /* an exception raised in a try body looks for its handler */
    LF_CFG_FINALLY_EXIT,  /* the end of a finally block: on to whatever entered it */
} lf_cfg_kind;

enum { LF_CFG_ENTRY_ID = 0, LF_CFG_EXIT_ID = 1 };

typedef struct lf_cfg_node {
    lf_cfg_kind kind;
    TSNode stmt;    /* the statement or clause (for WITH_EXIT, DISPATCH, FINALLY_EXIT: its owner) */
    uint32_t succ;  /* first edge in lf_cfg.edges (after lf_cfg_seal) */
    uint32_t n_succ;
} lf_cfg_node;

typedef struct lf_cfg_edge {
    uint32_t to;
    unsigned exceptional; /* taken when the source statement raises */
} lf_cfg_edge;

typedef struct lf_cfg lf_cfg;

lf_cfg *lf_cfg_new(void);
void lf_cfg_free(lf_cfg *g);
/* Adds a node; returns its id. The first two are ENTRY and EXIT (lf_cfg_new). */
uint32_t lf_cfg_add(lf_cfg *g, lf_cfg_kind kind, TSNode stmt);
void lf_cfg_add_edge(lf_cfg *g, uint32_t from, uint32_t to, int exceptional);
/* Sorts the edges by source and drops duplicates; call once, after the last edge. */
void lf_cfg_seal(lf_cfg *g);

size_t lf_cfg_size(const lf_cfg *g);
const lf_cfg_node *lf_cfg_node_at(const lf_cfg *g, uint32_t id);
const lf_cfg_edge *lf_cfg_edges_of(const lf_cfg *g, uint32_t id);
/* Does some path of one or more edges lead from node `from` to node `to`
 * (a later statement, or the same one on a loop's next turn)? An iterative
 * search, linear in the graph. */
int lf_cfg_reaches(const lf_cfg *g, uint32_t from, uint32_t to);
/* The STMT or CLAUSE node of exactly this syntax node, or -1. */
int32_t lf_cfg_find(const lf_cfg *g, TSNode stmt);

/* ---- lock state ---- */

typedef struct lf_cfg_lockstate {
    uint64_t *must_in; /* per node: slots held on entering it along every path */
    uint64_t *may_in;  /* per node: slots held on entering it along some path */
    unsigned char *reachable; /* per node: some path from ENTRY reaches it */
    size_t n;
} lf_cfg_lockstate;

/* Runs the dataflow with per-node gen and kill sets (arrays of lf_cfg_size(g)).
 * Nothing is held at ENTRY unless `entry` says so. Unreachable nodes get
 * must_in = may_in = 0. */
void lf_cfg_lockstate_run(const lf_cfg *g, const uint64_t *gen, const uint64_t *kill, uint64_t entry,
                          lf_cfg_lockstate *out);
/* The same, where a statement may also set slots on its exceptional edges
 * (`raise_gen`, per node; NULL: none): a call that records what it saw
 * before it can fail has recorded it on the way to the handler too. */
void lf_cfg_lockstate_run_raising(const lf_cfg *g, const uint64_t *gen, const uint64_t *kill,
                                  const uint64_t *raise_gen, uint64_t entry, lf_cfg_lockstate *out);
void lf_cfg_lockstate_free(lf_cfg_lockstate *s);

/* ---- building (lf_cfg_build.c; front ends: lf_pycfg, lf_tscfg) ---- */

/* What a statement does to control flow. */
typedef enum lf_cfg_shape {
    LF_SHAPE_SIMPLE = 0, /* on to the next statement (also a nested def or class) */
    LF_SHAPE_IF,         /* BODY when the condition holds, else the ALT clauses in turn */
    LF_SHAPE_LOOP,       /* BODY then back to the header; LOOP_ELSE when it ends */
    LF_SHAPE_TRY,        /* BODY; HANDLERs for what it raises; TRY_ELSE; FINALLY */
    LF_SHAPE_WITH,       /* BODY, then the context managers' exit */
    LF_SHAPE_SWITCH,     /* any CASE, or none */
    LF_SHAPE_BLOCK,      /* BODY, then on (a bare block, a labelled statement) */
    LF_SHAPE_RETURN,
    LF_SHAPE_RAISE,
    LF_SHAPE_BREAK,
    LF_SHAPE_CONTINUE,
} lf_cfg_shape;

/* The parts of a compound statement: a role, the clause node (null for BODY)
 * and the block of statements it runs. */
typedef enum lf_cfg_role {
    LF_ROLE_BODY = 0,
    LF_ROLE_ALT,       /* if: elif/else-if (LF_PART_CONDITIONAL) or else */
    LF_ROLE_LOOP_ELSE, /* Python's for/while else */
    LF_ROLE_HANDLER,   /* except / catch */
    LF_ROLE_TRY_ELSE,  /* Python's try/else */
    LF_ROLE_FINALLY,
    LF_ROLE_CASE,      /* match case / switch case or default */
} lf_cfg_role;

enum {
    LF_PART_CONDITIONAL = 1u << 0, /* ALT: tested, so it may fall to the next one */
    LF_PART_CATCH_ALL = 1u << 1,   /* HANDLER: catches every exception */
    LF_PART_IMPORT_ONLY = 1u << 2, /* HANDLER: catches only a failed import (Python's ImportError,
                                      ModuleNotFoundError): reached only from the statements the
                                      front end's raises_import names, not from every statement */
};

enum {
    LF_SWITCH_FALLTHROUGH = 1u << 0, /* SWITCH: a case's end runs into the next case (JS) */
    LF_SWITCH_BREAKABLE = 1u << 1,   /* SWITCH: `break` leaves it (JS) */
    LF_LOOP_FOREVER = 1u << 2,       /* LOOP: its condition is constantly true (`while True`, `for (;;)`):
                                        only a break, return or raise leaves it */
};

typedef struct lf_cfg_part {
    lf_cfg_role role;
    unsigned flags;
    TSNode clause;
    TSNode block; /* a block node the front end lists (is_block), or a single statement */
} lf_cfg_part;

/* Appends a part for a front end's shape(): dropped past max (the builder
 * keeps the first ones). */
void lf_cfg_put_part(lf_cfg_part *parts, size_t max, size_t *n, lf_cfg_role role, unsigned flags, TSNode clause,
                     TSNode block);

typedef struct lf_cfg_front {
    /* The shape of a statement; for compound ones, its parts (at most max, in
     * source order, BODY first) in parts[0..*n) and SWITCH/LOOP flags in *flags. */
    lf_cfg_shape (*shape)(const lf_source *src, TSNode stmt, lf_cfg_part *parts, size_t max, size_t *n,
                          unsigned *flags);
    /* Is the node a list of statements (a block, a module, a switch case)?
     * Anything else given as a part's block is one statement. */
    int (*is_block)(TSNode n);
    /* Is this named child of a block one of its statements (not a comment,
     * not a case's value)? */
    int (*is_member)(TSNode block, TSNode child);
    /* May this simple statement raise a failed import (an import, a call of
     * importlib.import_module, a raise)? NULL: no handler is LF_PART_IMPORT_ONLY. */
    int (*raises_import)(const lf_source *src, TSNode stmt);
} lf_cfg_front;

/* The graph of one body (a block, or null for an empty one). Cost linear in
 * its statements, whatever the nesting (no recursion). */
lf_cfg *lf_cfg_build(const lf_cfg_front *fe, const lf_source *src, TSNode body);

#endif
