/* lf_pymask: Python source with its comments and string texts blanked out.
 *
 * A check's gate (lf_check.h) asks a lexical question before a file is
 * parsed: "is `replace` ever called here in a way that could be a rename?".
 * Words inside comments, docstrings and string literals say nothing about the
 * code, and in a library they are most of the words. This copy keeps every
 * byte offset and line of the source, with the text of each comment and of
 * each string literal replaced by spaces (newlines kept; a string keeps its
 * prefix and quotes, so `"a".replace` still shows a non-name receiver). The
 * replacement fields of an f-string (`f"{x.replace(a, b)}"`) are code and stay.
 *
 * The scan follows the lexical structure only as far as it can be sure:
 * anything it cannot follow (an unterminated string, a comment or the
 * enclosing quote inside a replacement field, a quote in a format spec,
 * nesting past its stack) makes it return NULL, and the caller must then
 * treat the file as a hit. */
#ifndef LF_PYMASK_H
#define LF_PYMASK_H

#include <stddef.h>

/* Called with the text between the quotes of each string literal that is not
 * an f-string (a gate may care that `"os"` is spelled somewhere). */
typedef void (*lf_pymask_string_fn)(const char *content, size_t len, void *ud);

/* The masked copy of text[0, len), NUL-terminated, len bytes; NULL when the
 * structure cannot be followed (see above). Free with free(). */
char *lf_pymask_code(const char *text, size_t len, lf_pymask_string_fn on_string, void *ud);

#endif
