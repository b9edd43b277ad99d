/* Small tree helpers shared by the Python checks. */
#ifndef LF_PY_H
#define LF_PY_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_check.h"
#include "lf_source.h"
#include "lf_util.h"

/* Nearest enclosing function_definition, or the module root (or n itself when
 * it is nested implausibly deep, see LF_PY_MAX_CLIMB). */
TSNode lf_py_scope(TSNode n);
/* Text equality of two nodes' source bytes. */
int lf_py_same_text(const lf_source *src, TSNode a, TSNode b);
/* 1 when node text equals s. */
int lf_py_is(const lf_source *src, TSNode n, const char *s);
/* Last name of a call's callee: `os.path.realpath(x)` -> node `realpath`; identifier callee -> itself. */
int lf_py_call_name(TSNode call, TSNode *name);
/* Receiver of an attribute callee: `tmp.replace(p)` -> `tmp`. 0 if callee is not an attribute. */
int lf_py_call_receiver(TSNode call, TSNode *obj);
/* The same two, seeing through parentheses around the callee, as nodes (null
 * when there is none): `(a.b).acquire()` -> `a.b` and `acquire`. */
TSNode lf_py_callee_object(TSNode call);
TSNode lf_py_callee_last(TSNode call);
/* Is the call a method call `<x>.name(...)`? */
int lf_py_method_is(const lf_source *src, TSNode call, const char *name);
/* i-th positional argument (0-based) of a call, skipping keyword arguments. */
int lf_py_call_arg(TSNode call, uint32_t i, TSNode *out);
size_t lf_py_call_nargs(TSNode call);
/* Strip parentheses and str()/os.fspath() wrappers, which do not change which file a path names. */
TSNode lf_py_unwrap_path(const lf_source *src, TSNode n);
/* Visit every descendant of `root` (pre-order) of the given type (NULL: all);
 * stops descending into nested function definitions when skip_nested_defs. */
typedef int (*lf_py_visit_fn)(TSNode n, void *ud); /* return 0 to stop */
void lf_py_walk(TSNode root, const char *type, int skip_nested_defs, lf_py_visit_fn fn, void *ud);
/* Is `inner` inside `outer` (or equal)? */
int lf_py_within(TSNode inner, TSNode outer);
/* Statement that directly contains n (the ancestor whose parent is a block or module). */
TSNode lf_py_statement(TSNode n);

#endif
