/* LF104's fix (an UNSAFE fix: `lockfix fix --unsafe-fixes`): the span of an
 * unlocked read-modify-write, as the check's site gives it
 * (checks/lf104_site.h), goes under one exclusive lock on a sibling lock file:
 *
 *     # lockfix LF104: ...
 *     with lockrt.exclusive_lock(PATH + ".lock", unlocked_on_error=True):
 *         <the statements from the read to the write, one level deeper>
 *
 * The lock path is the document's own path expression with ".lock" added
 * (`"x.json.lock"` for a literal, `P + ".lock"` for a str, `f"{P}.lock"` for
 * anything else, a pathlib.Path included). lockrt's wait is bounded (10 s),
 * and a lock that cannot be taken or is not acquired in time lets the span run
 * unlocked, as before: the only change in behaviour is that processes updating
 * the document wait for each other, which is why the rule's fix is unsafe.
 * The binding is vendored and imported like LF101's (lf_vendor). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf104_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_pysem.h"
#include "lf_source.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_util.h"
#include "lf_vendor.h"

/* Past a comment that ends the statement's line. */
static uint32_t end_with_comment(const lf_source *src, TSNode stmt) {
    uint32_t e = ts_node_end_byte(stmt), k = e;
    while (k < src->len && (src->text[k] == ' ' || src->text[k] == '\t'))
        k++;
    if (k < src->len && src->text[k] == '#') {
        while (k < src->len && src->text[k] != '\n' && src->text[k] != '\r')
            k++;
        return k;
    }
    return e;
}

/* The lock path: the document's path with ".lock" added, in the cheapest
 * spelling that works for its type (malloc'd), or NULL when it cannot be
 * spelled (a path text with both quote kinds inside an f-string). */
static char *lock_path(lf_pysem *m, TSNode path) {
    const lf_source *src = m->src;
    char *text = lf_node_text(src, path);
    char *plain = lf_pyfix_plain_string(src, path);
    char *out = NULL;
    if (plain && !strchr(plain, '\n') && (text[0] == '"' || text[0] == '\'') && text[1] != text[0]) {
        out = lf_xasprintf("%c%s.lock%c", text[0], plain, text[0]);
    } else if (lf_pysem_type_of(m, path) == LF_PYTYPE_STR &&
               (lf_tree_is(path, "identifier") || lf_tree_is(path, "attribute") || lf_tree_is(path, "call") ||
                lf_tree_is(path, "subscript") || lf_tree_is(path, "parenthesized_expression"))) {
        out = lf_xasprintf("%s + \".lock\"", text);
    } else if (!strpbrk(text, "\\\n\r{}")) {
        /* str and os.PathLike alike: the f-string formats either as its path. */
        if (!strchr(text, '"'))
            out = lf_xasprintf("f\"{%s}.lock\"", text);
        else if (!strchr(text, '\''))
            out = lf_xasprintf("f'{%s}.lock'", text);
    }
    free(plain);
    free(text);
    return out;
}

/* The lock path for a path spelled as text (lf104_site.path_text). */
static char *lock_path_text(const char *text) {
    if (strpbrk(text, "\\\n\r{}"))
        return NULL;
    if (!strchr(text, '"'))
        return lf_xasprintf("f\"{%s}.lock\"", text);
    if (!strchr(text, '\''))
        return lf_xasprintf("f'{%s}.lock'", text);
    return NULL;
}

uint32_t lf104_written_after(const lf_source *src, TSNode fn, uint32_t span_end, TSNode path) {
    static const char *const writes[] = {"write", "dump", "replace", "rename", "Sync(", "writeFile", "appendFile",
                                         "\"w\"", "'w'", "\"a\"", "'a'", NULL};
    uint32_t a = ts_node_start_byte(path), b = ts_node_end_byte(path);
    if (b <= a || b - a > 200)
        return 0;
    /* statements after the span, inside the function: the span's later
     * siblings and those of every block around it, found by byte range */
    uint32_t fn_end = ts_node_end_byte(fn);
    if (span_end == 0 || span_end > fn_end)
        return 0;
    /* the last byte of the span: at its end byte, tree-sitter may answer with
     * the token that follows (a dedent of the function's body) */
    TSNode cur = ts_node_descendant_for_byte_range(fn, span_end - 1, span_end - 1);
    for (int hops = 0; hops < 64 && !ts_node_is_null(cur) && !ts_node_eq(cur, fn); hops++, cur = ts_node_parent(cur)) {
        for (TSNode x = ts_node_next_named_sibling(cur); !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
            uint32_t xa = ts_node_start_byte(x), xb = ts_node_end_byte(x);
            if (xa < span_end || xb > fn_end)
                continue;
            if (!memmem(src->text + xa, xb - xa, src->text + a, b - a))
                continue;
            for (size_t k = 0; writes[k]; k++)
                if (memmem(src->text + xa, xb - xa, writes[k], strlen(writes[k]))) {
                    uint32_t line, col;
                    lf_source_position(src, xa, &line, &col);
                    return line;
                }
        }
    }
    return 0;
}

/* What the rewrite itself needs of the span (malloc'd reason), beyond what
 * the site judged: whole lines, no multi-line string to re-indent, a free
 * `lockrt` name. */
static char *rewrite_blocker(lf_pysem *m, const lf104_site *s) {
    const lf_source *src = m->src;
    if (!lf_pyfix_starts_line(src, s->first))
        return lf_xstrdup("the read's statement shares its line with an earlier one: the lock cannot go before it");
    uint32_t e = end_with_comment(src, s->last);
    if (e < src->len && src->text[e] != '\n' && src->text[e] != '\r')
        return lf_xstrdup("the write's statement shares its line with a later one: the lock cannot end after it");
    for (TSNode x = s->first; !ts_node_is_null(x); x = ts_node_next_named_sibling(x)) {
        if (lf_pyfix_has_multiline_string(x))
            return lf_xstrdup("the read-modify-write holds a string literal over several lines, which re-indenting "
                              "it under the lock would change");
        if (ts_node_eq(x, s->last))
            break;
    }
    const lf_pybinding *b = lf_pysem_binding_at(m, s->scope, "lockrt", ts_node_start_byte(s->first));
    if (b && b->kind != LF_PYBIND_IMPORT)
        return lf_xstrdup("`lockrt` names something else here, so the fix cannot import the binding under it");
    /* the module's own statements run as they are reached: an import of
     * lockrt further down binds it too late for them (a function body looks
     * the name up when it runs) */
    if (m->scopes[s->scope].kind == LF_PYSCOPE_MODULE && lf_vendor_python_binds_lockrt(m) &&
        (!b || ts_node_start_byte(b->target) >= ts_node_start_byte(s->first)))
        return lf_xstrdup("the module imports lockrt only after the read-modify-write, which runs at import time");
    if (!strcmp(lf_source_eol(src), "\r"))
        return lf_xstrdup("the file ends its lines with a lone CR, which the rewrite cannot keep");
    uint32_t again = lf104_written_after(src, m->scopes[s->scope].node, end_with_comment(src, s->last), s->path);
    if (again)
        return lf_xasprintf("the document is written again at line %u, after the read-modify-write the lock would "
                            "cover: that write would run unlocked from the same stale read",
                            again);
    return NULL;
}

static char *render(lf_pysem *m, const lf104_site *s, const char *lock, uint32_t end) {
    const lf_source *src = m->src;
    uint32_t a = ts_node_start_byte(s->first);
    char *indent = lf_pyfix_line_indent(src, a);
    char *unit = lf_pyfix_indent_unit(src, s->first);
    char *to = lf_xasprintf("%s%s", indent, unit);
    uint32_t from_line = lf_pyfix_line_start(src, a);
    char *body = lf_pyfix_reindent(src->text, from_line, end, indent, to);
    char *text = lf_xasprintf("# lockfix LF104: one exclusive lock on a sibling lock file around the\n"
                              "%s# read-modify-write, so concurrent updates wait instead of overwriting\n"
                              "%s# each other. If the lock cannot be taken or stays held past lockrt's\n"
                              "%s# bounded wait (10 s by default), the update runs unlocked, as before.\n"
                              "%swith lockrt.exclusive_lock(%s, unlocked_on_error=True):\n%s",
                              indent, indent, indent, indent, lock, body);
    free(body);
    free(to);
    free(unit);
    free(indent);
    return text;
}

static uint32_t line_at(const lf_source *src, uint32_t byte) {
    uint32_t line, col;
    lf_source_position(src, byte, &line, &col);
    return line;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    lf_pysem *m = lf_filesem_python(ctx->sem);
    if (!m) {
        lf104_ts_generate(ctx, reqs, n); /* TS/JS: lf104_ts_lockrt.c */
        return;
    }
    lf_vendor_plan plan;
    lf_vendor_plan_python(ctx->src->path, ctx->runtime_dir, &plan);
    const char *import_line = lf_vendor_python_binds_lockrt(m) ? "" : plan.import_line;
    lf_byte_range *taken = lf_xcalloc(n + 1, sizeof *taken);
    size_t n_taken = 0;
    for (size_t i = 0; i < n; i++) {
        const lf104_site *s = reqs[i].site;
        if (lf_fix_site_declines(s, s ? s->decline : NULL, &reqs[i].no_fix_reason))
            continue;
        char *why = rewrite_blocker(m, s);
        char *lock = why ? NULL : s->path_text ? lock_path_text(s->path_text) : lock_path(m, s->path);
        if (!why && !lock)
            why = lf_xstrdup("the document's path is spelled with both kinds of quotes, which an f-string for the "
                             "lock path cannot hold");
        uint32_t a = ts_node_start_byte(s->first), end = end_with_comment(m->src, s->last);
        for (size_t k = 0; k < n_taken && !why; k++)
            if (a < taken[k].end && taken[k].start < end)
                why = lf_xasprintf("its statements overlap another read-modify-write's (lines %u to %u) that gets "
                                   "the lock: one lock around both would be a guess",
                                   line_at(m->src, taken[k].start), line_at(m->src, taken[k].end));
        if (why) {
            reqs[i].no_fix_reason = why;
            free(lock); /* computed before an overlap declined the site */
            continue;
        }
        taken[n_taken++] = (lf_byte_range){a, end};
        lf_fix *fix = lf_xcalloc(1, sizeof *fix);
        fix->title = lf_xasprintf("the read-modify-write under lockrt.exclusive_lock(%s) (binding vendored beside "
                                  "the module)",
                                  lock);
        char *text = render(m, s, lock, end);
        lf_fix_add_edit(fix, a, end, text);
        free(text);
        if (*import_line)
            lf_fix_add_import(fix, lf_vendor_python_import_at(m), import_line);
        lf_vendor_attach(fix, &plan);
        reqs[i].fix = fix;
        free(lock);
    }
    free(taken);
    lf_vendor_plan_free(&plan);
}

const lf_fixer lf104_lockrt = {"lf104_lockrt", generate, 0}; /* vendors lockrt: reads the package around the file */
