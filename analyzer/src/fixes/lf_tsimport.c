#include "lf_tsimport.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_util.h"

/* Node's built-in modules a file commonly imports: what tells whether it
 * writes them with the `node:` prefix. */
static const char *const k_builtins[] = {"fs", "fs/promises", "path", "os", "crypto", "child_process", "util",
                                         "events", "stream", "url", "assert", "process", "net", "http", "https",
                                         "zlib", "timers", "worker_threads", "readline", NULL};

static int is_builtin(const char *spec) {
    for (size_t i = 0; k_builtins[i]; i++)
        if (!strcmp(spec, k_builtins[i]))
            return 1;
    return 0;
}

static const char *ext_of(const char *path) {
    const char *dot = path ? strrchr(path, '.') : NULL;
    const char *slash = path ? strrchr(path, '/') : NULL;
    return dot && (!slash || dot > slash) ? dot : "";
}

/* `require("x")`, possibly under `.promises` / `.default` member accesses. */
static TSNode require_call(const lf_source *src, TSNode v) {
    v = lf_tssem_unwrap(v);
    while (lf_tree_is(v, "member_expression"))
        v = lf_tssem_unwrap(lf_tree_field(v, "object"));
    if (!lf_tree_is(v, "call_expression"))
        return (TSNode){0};
    TSNode fn = lf_tree_field(v, "function");
    if (!lf_tree_is(fn, "identifier") || !lf_tree_text_eq(src, fn, "require"))
        return (TSNode){0};
    TSNode a = lf_tssem_arg(v, 0);
    return lf_tree_is(a, "string") ? v : (TSNode){0};
}

/* A `const x = require("m")` / `var { a } = require("m").promises` statement. */
static int is_require_decl(const lf_source *src, TSNode st) {
    if (!lf_tree_is(st, "lexical_declaration") && !lf_tree_is(st, "variable_declaration"))
        return 0;
    uint32_t n = ts_node_named_child_count(st), decls = 0;
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(st, i);
        if (!lf_tree_is(d, "variable_declarator"))
            continue;
        if (ts_node_is_null(require_call(src, lf_tree_field(d, "value"))))
            return 0;
        decls++;
    }
    return decls > 0;
}

static int is_directive(TSNode st) {
    return lf_tree_is(st, "expression_statement") && lf_tree_is(ts_node_named_child(st, 0), "string");
}

int lf_tsimport_is_esm(const lf_tssem *m, const char *path) {
    if (m->esm)
        return 1;
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode fn = lf_tree_field(m->calls[i].node, "function");
        if (lf_tree_is(fn, "identifier") && lf_tree_text_eq(m->src, fn, "require"))
            return 0;
    }
    const char *ext = ext_of(path);
    if (!strcmp(ext, ".mjs") || !strcmp(ext, ".mts"))
        return 1;
    if (!strcmp(ext, ".cjs") || !strcmp(ext, ".cts"))
        return 0;
    return -1;
}

typedef struct pending {
    char *module, *member;
} pending;

struct lf_tsimporter {
    lf_tssem *m;
    lf_fix *fix;
    int esm;          /* 1, 0, -1 unknown */
    uint32_t at;      /* where new import lines go (a line start, or the end of the file) */
    int newline_first; /* the file ends without a newline where they go */
    char quote;
    int semi;
    int node_prefix;
    const char *decl_kw; /* CommonJS: const / let / var */
    int with_prefix, without_prefix; /* built-ins the header imports with and without `node:` */
    LF_VEC(pending) want;
    LF_VEC(pending) seen; /* modules the file imports (without `node:`), member "1" when spelled with it */
};

/* The module's header: shebang, directive prologue and comments, then its run
 * of import statements and require declarations. Sets where new imports go
 * and the style they are written in. */
static void read_header(lf_tsimporter *im) {
    const lf_source *src = im->m->src;
    TSNode root = im->m->root;
    uint32_t n = ts_node_named_child_count(root);
    uint32_t at = 0;
    TSNode last_stmt = {0};
    int prologue = 1;
    for (uint32_t i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (lf_tree_is(s, "hash_bang_line") || lf_tree_is(s, "comment")) {
            /* a comment after the header belongs to what follows it */
            if (!ts_node_is_null(last_stmt) && lf_tree_is(s, "comment") &&
                ts_node_start_point(s).row != ts_node_end_point(last_stmt).row)
                break;
        } else if (prologue && is_directive(s)) {
        } else if (lf_tree_is(s, "import_statement") || is_require_decl(src, s)) {
            prologue = 0;
            last_stmt = s;
        } else {
            break;
        }
        at = lf_tree_next_line_start(src, ts_node_end_byte(s));
    }
    im->at = at;
    im->newline_first = at == src->len && at > 0 && src->text[at - 1] != '\n';

    /* Style: the first module specifier's quote; `node:` where built-ins carry it. */
    int with = 0, without = 0;
    im->quote = 0;
    im->decl_kw = NULL;
    for (uint32_t i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        TSNode spec = {0};
        if (lf_tree_is(s, "import_statement")) {
            spec = lf_tree_field(s, "source");
            for (uint32_t k = 0; ts_node_is_null(spec) && k < ts_node_named_child_count(s); k++)
                if (lf_tree_is(ts_node_named_child(s, k), "import_require_clause")) /* import fs = require("fs") */
                    spec = lf_tree_field(ts_node_named_child(s, k), "source");
        } else if (is_require_decl(src, s)) {
            spec = lf_tssem_arg(require_call(src, lf_tree_field(ts_node_named_child(s, 0), "value")), 0);
            if (!im->decl_kw)
                im->decl_kw = lf_tree_text_eq(src, ts_node_child(s, 0), "var")   ? "var"
                              : lf_tree_text_eq(src, ts_node_child(s, 0), "let") ? "let"
                                                                                 : "const";
        }
        if (!lf_tree_is(spec, "string"))
            continue;
        char *text = lf_tssem_string(src, spec);
        if (!im->quote)
            im->quote = src->text[ts_node_start_byte(spec)];
        if (text && !strncmp(text, "node:", 5))
            with++;
        else if (text && is_builtin(text))
            without++;
        if (text) {
            int pre = !strncmp(text, "node:", 5);
            pending p = {lf_xstrdup(text + (pre ? 5 : 0)), lf_xstrdup(pre ? "1" : "0")};
            LF_VEC_PUSH(&im->seen, p);
        }
        free(text);
    }
    if (im->quote != '\'' && im->quote != '"')
        im->quote = '"';
    if (!im->decl_kw)
        im->decl_kw = "const";
    im->with_prefix = with;
    im->without_prefix = without;

    /* Semicolons: as the header's last statement, else the first statement. */
    TSNode probe = last_stmt;
    for (uint32_t i = 0; ts_node_is_null(probe) && i < n; i++) {
        TSNode s = ts_node_named_child(root, i);
        if (!lf_tree_is(s, "comment") && !lf_tree_is(s, "hash_bang_line") &&
            (lf_tree_is(s, "expression_statement") || lf_tree_is(s, "lexical_declaration") ||
             lf_tree_is(s, "variable_declaration")))
            probe = s;
    }
    im->semi = ts_node_is_null(probe) || src->text[ts_node_end_byte(probe) - 1] == ';';
}

/* Frees the strings and the array of a list of pending imports. */
static void free_pending(pending *items, size_t n) {
    for (size_t i = 0; i < n; i++) {
        free(items[i].module);
        free(items[i].member);
    }
    free(items);
}

static void header_free(void *v) {
    lf_tsimporter *h = v;
    free_pending(h->seen.items, h->seen.len);
    free(h);
}

lf_tsimporter *lf_tsimport_begin(lf_tssem *m, const char *path, lf_fix *fix) {
    /* The header is read once per file and kept by the model: each of a
     * file's fixes begins an importer, and reading it walks every top-level
     * statement. */
    lf_tsimporter *h = m->import_header;
    if (!h) {
        h = lf_xcalloc(1, sizeof *h);
        h->m = m;
        read_header(h);
        m->import_header = h;
        m->import_header_free = header_free;
    }
    lf_tsimporter *im = lf_xcalloc(1, sizeof *im);
    im->m = m;
    im->fix = fix;
    im->esm = lf_tsimport_is_esm(m, path);
    im->at = h->at;
    im->newline_first = h->newline_first;
    im->quote = h->quote;
    im->semi = h->semi;
    im->decl_kw = h->decl_kw;
    for (size_t i = 0; i < h->seen.len; i++) {
        pending p = {lf_xstrdup(h->seen.items[i].module), lf_xstrdup(h->seen.items[i].member)};
        LF_VEC_PUSH(&im->seen, p);
    }
    /* No built-in imported yet: `node:` in ESM, the plain name in CommonJS
     * (what every Node release with require() understands). */
    im->node_prefix =
        h->with_prefix || h->without_prefix ? h->with_prefix >= h->without_prefix : im->esm == 1;
    return im;
}

/* Does binding qualname `bq` reach `qual`, and with what suffix? */
static const char *covers(const char *bq, const char *qual) {
    size_t n = strlen(bq);
    if (strncmp(bq, qual, n) != 0)
        return NULL;
    return qual[n] == '\0' || qual[n] == '.' ? qual + n : NULL;
}

/* `import type ...` binds no value. */
static int type_only(const lf_source *src, const lf_tsbinding *b) {
    TSNode st = b->value;
    if (!lf_tree_is(st, "import_statement"))
        return 0;
    TSNode kw = ts_node_child(st, 1);
    return !ts_node_is_null(kw) && lf_tree_text_eq(src, kw, "type");
}

char *lf_tsimport_ref_each(lf_tsimporter *im, const lf_tsimport_use *uses, size_t n, size_t self, const char *module,
                           char **why) {
    char *mine = NULL;
    for (size_t j = 0; j < n; j++) {
        if (!uses[j].member)
            continue;
        char *r = lf_tsimport_ref(im, uses[j].scope, uses[j].at, module, uses[j].member, why);
        if (!r) {
            free(mine);
            return NULL;
        }
        if (j == self)
            mine = r;
        else
            free(r);
    }
    return mine;
}

char *lf_tsimport_ref(lf_tsimporter *im, int32_t scope, uint32_t at, const char *module, const char *member,
                      char **why) {
    lf_tssem *m = im->m;
    char *qual = lf_xasprintf("%s.%s", module, member);
    /* The longest bound prefix a use at `at` really sees wins. */
    const lf_tsbinding *best = NULL;
    const char *best_rest = NULL;
    size_t n_imports;
    const size_t *imports = lf_tssem_imports(m, &n_imports);
    for (size_t k = 0; k < n_imports; k++) {
        const lf_tsbinding *b = &m->bindings[imports[k]];
        if (!b->qualname || type_only(m->src, b))
            continue;
        const char *rest = covers(b->qualname, qual);
        if (!rest || (best && strlen(rest) >= strlen(best_rest)))
            continue;
        if (lf_tssem_binding_at(m, scope, b->name, at) != b)
            continue;
        best = b;
        best_rest = rest;
    }
    if (best) {
        char *out = lf_xasprintf("%s%s", best->name, best_rest);
        free(qual);
        return out;
    }
    free(qual);
    if (im->esm < 0) {
        *why = lf_xasprintf("the file has no import, export or require: whether it is an ES module or CommonJS "
                            "depends on package.json, so the fix cannot import `%s`",
                            member);
        return NULL;
    }
    /* A new import binds `member` at the top: anything the file already calls
     * that (a local, a parameter, a global it relies on) would be shadowed or
     * redeclared. */
    int known = 0;
    for (size_t i = 0; i < im->want.len; i++)
        if (!strcmp(im->want.items[i].member, member)) {
            if (strcmp(im->want.items[i].module, module) != 0) {
                *why = lf_xasprintf("the fix would import `%s` from two modules", member);
                return NULL;
            }
            known = 1;
        }
    if (!known && lf_tssem_file_mentions(m, member)) {
        *why = lf_xasprintf("the file already uses the name `%s` for something else, so the fix cannot import "
                            "`%s` from \"%s\" under it",
                            member, member, module);
        return NULL;
    }
    if (!known) {
        pending p = {lf_xstrdup(module), lf_xstrdup(member)};
        LF_VEC_PUSH(&im->want, p);
    }
    return lf_xstrdup(member);
}

static int cmp_pending(const void *a, const void *b) {
    const pending *x = a, *y = b;
    int c = strcmp(x->module, y->module);
    return c ? c : strcmp(x->member, y->member);
}

void lf_tsimport_end(lf_tsimporter *im) {
    if (!im)
        return;
    if (im->want.len > 1)
        qsort(im->want.items, im->want.len, sizeof *im->want.items, cmp_pending);
    /* One edit per import line: two fixes of one file that need the same
     * import then add byte-identical edits, which the fix engine keeps once
     * (one edit holding both lines would differ from the other's, and the
     * module would declare `randomUUID` twice). */
    for (size_t i = 0; i < im->want.len;) {
        lf_strbuf lines;
        lf_strbuf_init(&lines);
        lf_strbuf names;
        lf_strbuf_init(&names);
        size_t j = i;
        for (; j < im->want.len && !strcmp(im->want.items[j].module, im->want.items[i].module); j++)
            lf_strbuf_printf(&names, "%s%s", j > i ? ", " : "", im->want.items[j].member);
        /* a module the file already imports keeps its spelling there */
        /* a relative module (a vendored file) never takes `node:` */
        const char *pre = im->node_prefix && im->want.items[i].module[0] != '.' ? "node:" : "";
        for (size_t k = 0; k < im->seen.len; k++)
            if (!strcmp(im->seen.items[k].module, im->want.items[i].module))
                pre = im->seen.items[k].member[0] == '1' ? "node:" : "";
        const char *semi = im->semi ? ";" : "";
        if (im->esm == 1)
            lf_strbuf_printf(&lines, "import { %s } from %c%s%s%c%s\n", names.data, im->quote, pre,
                             im->want.items[i].module, im->quote, semi);
        else
            lf_strbuf_printf(&lines, "%s { %s } = require(%c%s%s%c)%s\n", im->decl_kw, names.data, im->quote, pre,
                             im->want.items[i].module, im->quote, semi);
        lf_strbuf_free(&names);
        char *text = lf_xasprintf("%s%s", im->newline_first && i == 0 ? "\n" : "", lines.data);
        lf_fix_add_import(im->fix, im->at, text);
        free(text);
        lf_strbuf_free(&lines);
        i = j;
    }
    free_pending(im->want.items, im->want.len);
    free_pending(im->seen.items, im->seen.len);
    free(im);
}
