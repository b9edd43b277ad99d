/* lf_pyfix: Python syntax-tree helpers shared by the fix generators. */
#ifndef LF_PYFIX_H
#define LF_PYFIX_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_finding.h"
#include "lf_source.h"

/* Child by field name (null node when absent). */
TSNode lf_pyfix_field(TSNode n, const char *field);
/* 1 when n is a node of `type`. */
int lf_pyfix_is(TSNode n, const char *type);
/* The n-th positional argument of a call (keyword arguments and comments skipped). */
TSNode lf_pyfix_call_arg(TSNode call, uint32_t index);
/* Number of arguments (positional and keyword) of a call. */
uint32_t lf_pyfix_call_arg_count(TSNode call);
/* The value of keyword argument `name` of a call. */
TSNode lf_pyfix_call_kwarg(const lf_source *src, TSNode call, const char *name);
/* 1 when `call` is a call whose callee reads exactly `callee` ("os.replace"). */
int lf_pyfix_call_is(const lf_source *src, TSNode call, const char *callee);
/* 1 when n is an identifier, attribute or subscript chain (no call): safe to repeat. */
int lf_pyfix_is_plain_reference(TSNode n);
/* Nearest ancestor (or n itself) of `type`; null node when none. */
TSNode lf_pyfix_ancestor(TSNode n, const char *type);
/* 1 when an identifier reading `name` occurs anywhere under n. */
int lf_pyfix_mentions(const lf_source *src, TSNode n, const char *name);
/* Leading whitespace of the line holding byte `at` (malloc'd). */
char *lf_pyfix_line_indent(const lf_source *src, uint32_t at);
/* One level of indentation inside the block holding statement `stmt`: its indent
 * minus that of the statement owning the block ("    " when it cannot tell). */
char *lf_pyfix_indent_unit(const lf_source *src, TSNode stmt);
/* Start of the line holding byte `at`. */
uint32_t lf_pyfix_line_start(const lf_source *src, uint32_t at);
/* 1 when n is the first thing on its line (only indentation before it). */
int lf_pyfix_starts_line(const lf_source *src, TSNode n);
/* Byte just after the end of the line holding byte `at` (past its '\n'). */
uint32_t lf_pyfix_next_line_start(const lf_source *src, uint32_t at);
/* Value of a string literal without prefix or quotes, when it has no interpolation
 * and no escapes (malloc'd); NULL otherwise. */
char *lf_pyfix_plain_string(const lf_source *src, TSNode n);
/* 1 when a string literal under n spans several lines (re-indenting would change it). */
int lf_pyfix_has_multiline_string(TSNode n);
/* The lines of text from byte `from_line` (a line start) to byte `end`, with the
 * indentation `from` at the start of a line replaced by `to`. Blank lines come
 * out empty; lines not starting with `from` (continuations inside brackets,
 * where indentation means nothing) are kept as they are. No newline after the
 * last line. Callers refuse regions holding a multi-line string first. */
char *lf_pyfix_reindent(const char *text, uint32_t from_line, uint32_t end, const char *from, const char *to);
/* Where the module header ends: the line start after its leading comments
 * (shebang, encoding line, licence), docstring and `from __future__` imports
 * (0 when it has none); in *first the index of the root's first named child
 * after it. New imports go at or after this point. */
uint32_t lf_pyfix_header_end(const lf_source *src, TSNode root, uint32_t *first);
/* Add to fix the edit that imports `module` at the top of the file, in sorted
 * position among the leading plain imports; nothing when already imported there. */
void lf_pyfix_ensure_import(const lf_source *src, TSNode root, const char *module, lf_fix *fix);
/* The same for `import module as alias` (alias NULL: plain), sorted by module. */
void lf_pyfix_ensure_import_as(const lf_source *src, TSNode root, const char *module, const char *alias,
                               lf_fix *fix);

/* Add `from module import name` among the leading imports, sorted by module
 * among the from-imports (LF_EDIT_IMPORT). */
void lf_pyfix_ensure_from_import(const lf_source *src, TSNode root, const char *module, const char *name,
                                 lf_fix *fix);

struct lf_fix_ctx;
struct lf_fix_request;
/* LF301's Python generator (lf301_py_release.c), reached through lf301_release_owned. */
void lf301_py_generate(const struct lf_fix_ctx *ctx, struct lf_fix_request *reqs, size_t n);

#endif
