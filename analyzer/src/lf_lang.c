#include "lf_lang.h"

#include <string.h>

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);

static const struct {
    const char *ext;
    lf_lang lang;
} k_extensions[] = {
    {".py", LF_LANG_PYTHON}, {".ts", LF_LANG_TYPESCRIPT},  {".mts", LF_LANG_TYPESCRIPT},
    {".cts", LF_LANG_TYPESCRIPT}, {".js", LF_LANG_TYPESCRIPT}, {".mjs", LF_LANG_TYPESCRIPT},
    {".cjs", LF_LANG_TYPESCRIPT}, {".tsx", LF_LANG_TSX},        {".jsx", LF_LANG_TSX},
};

int lf_lang_from_path(const char *path, lf_lang *out) {
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return 0;
    for (size_t i = 0; i < sizeof k_extensions / sizeof k_extensions[0]; i++) {
        if (strcmp(dot, k_extensions[i].ext) == 0) {
            *out = k_extensions[i].lang;
            return 1;
        }
    }
    return 0;
}

const TSLanguage *lf_lang_grammar(lf_lang lang) {
    switch (lang) {
    case LF_LANG_PYTHON: return tree_sitter_python();
    case LF_LANG_TYPESCRIPT: return tree_sitter_typescript();
    case LF_LANG_TSX: return tree_sitter_tsx();
    default: return NULL;
    }
}

const char *lf_lang_name(lf_lang lang) {
    switch (lang) {
    case LF_LANG_PYTHON: return "python";
    case LF_LANG_TYPESCRIPT: return "typescript";
    case LF_LANG_TSX: return "tsx";
    default: return "unknown";
    }
}

unsigned lf_lang_mask_from_name(const char *name) {
    if (strcmp(name, "python") == 0)
        return LF_LANG_BIT(LF_LANG_PYTHON);
    if (strcmp(name, "typescript") == 0 || strcmp(name, "javascript") == 0)
        return LF_LANG_BIT(LF_LANG_TYPESCRIPT) | LF_LANG_BIT(LF_LANG_TSX);
    if (strcmp(name, "tsx") == 0)
        return LF_LANG_BIT(LF_LANG_TSX);
    return 0;
}

const char *lf_lang_comment_leader(lf_lang lang) {
    return lang == LF_LANG_PYTHON ? "#" : "//";
}

int lf_lang_is_declaration_file(const char *path) {
    static const char *const ends[] = {".d.ts", ".d.mts", ".d.cts"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t e = strlen(ends[i]);
        if (n > e && strcmp(path + n - e, ends[i]) == 0)
            return 1;
    }
    return 0;
}
