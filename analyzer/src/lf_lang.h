/* lf_lang: languages lockfix understands and the grammar for each. */
#ifndef LF_LANG_H
#define LF_LANG_H

#include <tree_sitter/api.h>

typedef enum lf_lang {
    LF_LANG_PYTHON = 0,
    LF_LANG_TYPESCRIPT = 1, /* .ts .mts .cts .js .mjs .cjs */
    LF_LANG_TSX = 2,        /* .tsx .jsx */
    LF_LANG_COUNT
} lf_lang;

#define LF_LANG_BIT(l) (1u << (l))

/* Language for a path by its extension; returns 0 and leaves *out alone if none. */
int lf_lang_from_path(const char *path, lf_lang *out);
const TSLanguage *lf_lang_grammar(lf_lang lang);
/* Stable lowercase name: "python", "typescript", "tsx". */
const char *lf_lang_name(lf_lang lang);
/* Parse a rule file's language name; "javascript" maps to TYPESCRIPT+TSX,
 * "typescript" to TYPESCRIPT+TSX, "python" to PYTHON. Returns a LF_LANG_BIT mask, 0 if unknown. */
unsigned lf_lang_mask_from_name(const char *name);
/* A TypeScript declaration file (`x.d.ts`, `.d.mts`, `.d.cts`): ambient
 * types only, no statement that runs, so no call any rule asks about. */
int lf_lang_is_declaration_file(const char *path);
/* Comment leader used for suppressions and inserted comments: "#" or "//". */
const char *lf_lang_comment_leader(lf_lang lang);

#endif
