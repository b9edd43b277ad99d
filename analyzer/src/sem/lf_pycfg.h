/* lf_pycfg: the Python front end of lf_cfg. One graph per function body (or
 * the module's top level), built iteratively:
 *  - a node per statement, and per clause that opens a block (elif, else,
 *    except, finally, case); a compound statement's own node is its header
 *    (the condition of an if or while, the iterable of a for, the items of a
 *    with);
 *  - if/elif/else, for/while with else, break and continue, match/case;
 *  - try: every statement of a try body may raise into the try's dispatch,
 *    which goes to each except clause, and on to the finally (or the handler
 *    outside) unless a clause catches everything; return and raise pass
 *    through the finally blocks around them;
 *  - with: the body's end leads to a WITH_EXIT node, where the context
 *    managers exit;
 *  - a nested def, class or lambda is one statement: its body is another
 *    graph. `yield` and `await` are ordinary statements (the function resumes
 *    where it stopped).
 * The shapes are the only Python-specific part; where control goes is
 * lf_cfg_build's, shared with TS/JS (lf_tscfg). Linear in the statements. */
#ifndef LF_PYCFG_H
#define LF_PYCFG_H

#include <tree_sitter/api.h>

#include "lf_cfg.h"
#include "lf_pysem.h"
#include "lf_source.h"

/* The graph of a function_definition's body, or of a module's top level
 * (`fn` is the module node). `src` reads the names an except clause catches
 * (a bare `except:`, `except Exception` and `except BaseException` catch all). */
lf_cfg *lf_pycfg_build(const lf_source *src, TSNode fn);

/* The graph node of the statement holding `n` (climbing the model's
 * statements: a clause's header has no statement of its own), or -1 when n
 * is not in the graph's function (a nested function's body). */
int32_t lf_pycfg_node_of(const lf_pysem *m, const lf_cfg *g, TSNode n);

#endif
