/* lf_re: the regular expressions of #match? predicates, matched in linear time.
 *
 * Rule documents may come from a scanned repository (--rules), so a pattern
 * must not be able to take superlinear time or unbounded memory. POSIX regexec
 * is a backtracking matcher in general (glibc: cubic on (ab|a)*c, exponential
 * with back-references). lf_re compiles the pattern to a Thompson NFA and
 * simulates it over the text with explicit state sets (a Pike VM without
 * captures): every state is visited at most once per byte, so a search costs
 * O(text x states) whatever the pattern, with no recursion and no backtracking.
 *
 * The language is the POSIX ERE subset rules use, with POSIX's meaning in the C
 * locale (bytes): literals, '.', bracket expressions ([a-z], [^...], ']' and
 * '-' as literals where POSIX puts them, [:alpha:] and the other named
 * classes),
 * '\' before a punctuation byte, grouping, '|', '*', '+', '?', {m}, {m,} and
 * {m,n} (m, n <= 32; counted repetitions are expanded), '^' and '$' (anchored
 * at the text's start and end; the text is one node, so there are no lines).
 * The search is unanchored unless '^' / '$' say otherwise, as with regexec.
 * Refused: back-references (\1 .. \9), other escapes (\w, \n ...), collating
 * elements and equivalence classes ([. .] [= =]), a pattern longer than 512
 * bytes, or one whose expansion needs more than 4096 NFA states. */
#ifndef LF_RE_H
#define LF_RE_H

#include <stddef.h>

#define LF_RE_MAX_LEN 512
#define LF_RE_MAX_STATES 4096

typedef struct lf_re lf_re;

/* Compile `pattern` (NUL-terminated). NULL when it is refused or malformed;
 * *why then says why (static text, e.g. "back-references are not allowed ..."),
 * and *refused is 1 for a limit or an unsupported feature, 0 for a syntax
 * error. */
lf_re *lf_re_compile(const char *pattern, const char **why, int *refused);

/* Does the pattern match somewhere in text[0, len)? The text may hold NUL bytes
 * ('.' does not match them, as in POSIX). Adds the states it visits to
 * lf_work_steps. */
int lf_re_search(const lf_re *re, const char *text, size_t len);

void lf_re_free(lf_re *re);
#endif
