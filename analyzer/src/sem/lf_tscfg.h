/* lf_tscfg: the TS/JS front end of lf_cfg (the TypeScript, TSX and JavaScript
 * grammars share these node types). One graph per function body:
 *  - if/else (an `else if` is an if inside the else), for, for-in/of, while,
 *    do-while, labelled statements, bare blocks;
 *  - switch: any case may be entered, a case's end falls into the next case,
 *    `break` leaves the switch;
 *  - try/catch/finally: a catch takes every exception; return, throw, break
 *    and continue pass through the finally blocks around them;
 *  - nested functions and classes are single statements; `await` is an
 *    ordinary point of the function (it resumes where it stopped). A callback
 *    is its own function: its graph says nothing of when it runs.
 * A labelled break or continue is taken as one of the innermost loop (or, for
 * break, switch). */
#ifndef LF_TSCFG_H
#define LF_TSCFG_H

#include <tree_sitter/api.h>

#include "lf_cfg.h"
#include "lf_source.h"

/* The graph of a function's body (function declaration or expression, arrow
 * function with a block body, method, generator), or of the program's top
 * level (`fn` is the program node). */
lf_cfg *lf_tscfg_build(const lf_source *src, TSNode fn);

/* The graph node of the statement of fn's body that holds n (its own node, or
 * the nearest enclosing one the graph has), or -1 outside the graph. *nested:
 * n sits inside a function within fn (a callback: its graph says nothing of
 * when that runs, and the node returned is the statement holding the
 * callback). */
int32_t lf_tscfg_node_of(const lf_cfg *g, TSNode fn, TSNode n, int *nested);

#endif
