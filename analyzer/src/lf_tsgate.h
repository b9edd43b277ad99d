/* lf_tsgate: lexical questions the TS/JS check gates (lf_check.h) ask of a
 * file before it is parsed.
 *
 * They read the raw text: nothing is blanked, so a word in a comment or a
 * string counts as a use. That only lets a file through; a gate skips a file
 * only when no spelling the check could ever resolve is in it. A callee the
 * TS/JS model resolves (`fs.mkdirSync`, `{ linkSync: ln }`, `fs['rename']`,
 * `require('proper-lockfile')`) spells its last name, or its module, in the
 * text. */
#ifndef LF_TSGATE_H
#define LF_TSGATE_H

#include <stddef.h>

/* Can byte c be part of an identifier (ASCII name bytes, `$`, any non-ASCII
 * byte: a Unicode letter may be)? */
int lf_tsgate_name_byte(unsigned char c);

/* Calls fn on each maximal run of name bytes in text[0, len), until fn
 * returns nonzero; returns that value, or 0. */
int lf_tsgate_each_name(const char *text, size_t len, int (*fn)(const char *s, size_t n, void *ud), void *ud);

/* Is some word of the NULL-terminated list in text (anywhere, as bytes)? */
int lf_tsgate_has_any(const char *text, size_t len, const char *const *words);

/* May the run s[0, n) be one of the NULL-terminated names, whole: the run,
 * or a stretch of it that non-ASCII bytes delimit? */
int lf_tsgate_run_is_any(const char *s, size_t n, const char *const *names);

#endif
