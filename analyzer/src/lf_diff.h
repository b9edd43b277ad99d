/* lf_diff: unified diffs (3 lines of context) that `git apply` and `patch -p1`
 * accept. Output depends only on the inputs, byte for byte. */
#ifndef LF_DIFF_H
#define LF_DIFF_H

#include <stddef.h>

#include "lf_util.h"

#define LF_DIFF_CONTEXT 3

/* Append to out the diff turning old_text into new_text, with headers
 * "--- a/<path>" and "+++ b/<path>". Appends nothing when the texts are equal.
 * A last line without a newline gets "\ No newline at end of file". */
void lf_diff_file(lf_strbuf *out, const char *path, const char *old_text, size_t old_len, const char *new_text,
                  size_t new_len);

/* Append the diff creating `path` with `content` ("--- /dev/null", "+++ b/<path>"). */
void lf_diff_new_file(lf_strbuf *out, const char *path, const char *content, size_t len);

/* The path as it goes after "a/" and "b/": leading "./" removed, an absolute path
 * under the current directory made relative to it. Malloc'd. */
char *lf_diff_display_path(const char *path);

#endif
