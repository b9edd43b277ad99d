/* lf_queryshape: refuse the query shapes tree-sitter's query compiler
 * mishandles, before ts_query_new sees them.
 *
 * tree-sitter 0.25's ts_query__parse_pattern assumes that every pattern adds
 * at least one step (a node to match). A predicate adds none, and neither does
 * a parenthesised group that holds only predicates. When such a pattern is a
 * field's value (`function: (#eq? @a "x")`), an alternation's branch, or
 * carries a capture or quantifier (`((#eq? @a "x")) @b`), the compiler reads
 * and writes the step one past the end of its array: heap corruption, found by
 * fuzz_rule, from nothing but a malformed rule file. The same is true of a
 * pattern that is only a predicate at the top level.
 *
 * This module reads the query the way the compiler does (the same tokens:
 * whitespace, `;` comments, strings and their escapes, identifier runs) and
 * refuses those shapes, so a bad rule file is a load error instead. Anything
 * it does not recognise as one of them is left to ts_query_new, whose own
 * errors stop it before any later pattern is read. It reads only ASCII outside
 * strings and comments (node and field names are ASCII in every grammar): a
 * non-ASCII byte there is refused too, so that how the compiler classifies
 * wide characters (its locale) never matters. */
#ifndef LF_QUERYSHAPE_H
#define LF_QUERYSHAPE_H

#include <stddef.h>

/* 1 when text[0, len) has none of those shapes. Otherwise 0, with *at the
 * byte offset of the pattern at fault and *why a static description. */
int lf_queryshape_check(const char *text, size_t len, size_t *at, const char **why);

#endif
