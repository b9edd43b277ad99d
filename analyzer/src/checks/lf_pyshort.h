/* Short source excerpts for messages, shared by the Python checks. */
#ifndef LF_PYSHORT_H
#define LF_PYSHORT_H

#include <tree_sitter/api.h>

#include "lf_source.h"

/* The node's text: first line only, at most 60 characters ("..." when cut). malloc'd. */
char *lf_py_short(const lf_source *src, TSNode n);
/* 1-based line of a node. */
unsigned lf_py_line(const lf_source *src, TSNode n);

#endif
