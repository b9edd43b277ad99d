/* LF303 fix: read EPERM as alive. Python here; TS/JS in lf303_ts_esrch.c.
 *
 * The check (checks/lf303_liveness.c) hands over a probe whose handler takes
 * the "dead" path for PermissionError (checks/lf303_site.h). EPERM means the
 * process exists and belongs to another user, so PermissionError gets what a
 * successful probe gets, in the handler's own terms:
 *  - an `except PermissionError:` clause is inserted before the first clause
 *    that catches it, running the try's `return` (or `pass`, when success falls
 *    through past the try); Python takes the first matching clause, so
 *    ProcessLookupError and every other error keep the old handler;
 *  - where PermissionError already has a clause of its own, that clause's body
 *    becomes the success path;
 *  - where the try's success path is not one statement, or other statements
 *    run before the probe, the probe statement alone is wrapped in a try whose
 *    `except PermissionError: pass` lets it go on as a successful probe does
 *    (an EPERM from any other statement still reaches the old handlers).
 * The new clause copies the handler's indentation, so the file keeps parsing
 * (the fix engine refuses a result that does not parse anyway). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf303_site.h"
#include "lf_check.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_util.h"

/* The whitespace that starts the node's line, up to the node (malloc'd), or
 * NULL when something else precedes the node on its line. */
static char *line_indent(const lf_source *src, TSNode n, uint32_t *line_start) {
    uint32_t at = ts_node_start_byte(n), b = at;
    while (b > 0 && src->text[b - 1] != '\n')
        b--;
    for (uint32_t i = b; i < at; i++)
        if (src->text[i] != ' ' && src->text[i] != '\t')
            return NULL;
    *line_start = b;
    char *out = lf_xmalloc(at - b + 1);
    memcpy(out, src->text + b, at - b);
    out[at - b] = '\0';
    return out;
}

static TSNode clause_block(TSNode clause) {
    for (uint32_t k = 0; k < ts_node_named_child_count(clause); k++)
        if (lf_tree_is(ts_node_named_child(clause, k), "block"))
            return ts_node_named_child(clause, k);
    return (TSNode){0};
}

/* One indentation step below `stmt`'s line: what its block adds to the line of
 * the statement that owns the block, else four spaces (a tab in a tab-indented
 * file). */
static char *indent_step(const lf_source *src, TSNode stmt, const char *ws) {
    TSNode block = ts_node_parent(stmt), owner = ts_node_is_null(block) ? block : ts_node_parent(block);
    uint32_t owner_line = 0;
    char *outer = ts_node_is_null(owner) ? NULL : line_indent(src, owner, &owner_line);
    size_t n = outer ? strlen(outer) : 0;
    char *step = outer && strlen(ws) > n && strncmp(ws, outer, n) == 0 ? lf_xstrdup(ws + n)
                                                                       : lf_xstrdup(strchr(ws, '\t') ? "\t" : "    ");
    free(outer);
    return step;
}

/* `os.kill(pid, 0)` -> `try: os.kill(pid, 0) / except PermissionError: pass`
 * at the statement's own place: EPERM from the probe goes on as success does,
 * through whatever the try runs next. */
static lf_fix *wrap_probe(const lf_source *src, TSNode stmt, char **why) {
    uint32_t line = 0;
    char *ws = line_indent(src, stmt, &line);
    if (!ws) {
        *why = lf_xstrdup("the probe shares a line with other code");
        return NULL;
    }
    char *step = indent_step(src, stmt, ws);
    /* the statement and what follows it on its line (a comment stays with it) */
    uint32_t s = ts_node_start_byte(stmt), e = ts_node_end_byte(stmt);
    while (e < src->len && src->text[e] != '\n' && src->text[e] != '\r')
        e++;
    char *text = lf_xasprintf("try:\n%s%s%.*s\n%sexcept PermissionError:\n%s%spass", ws, step, (int)(e - s),
                              src->text + s, ws, ws, step);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    lf_fix_add_edit(fix, s, e, text);
    fix->title = lf_xstrdup("read PermissionError (EPERM) from the probe as alive: the process exists, another "
                            "user's, so the probe goes on as its success does; ProcessLookupError and other "
                            "errors keep the old handler");
    free(text);
    free(step);
    free(ws);
    return fix;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, const lf303_site *s, char **why) {
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    if (s->nested)
        return wrap_probe(src, s->probe, why);
    TSNode block = clause_block(s->clause);
    uint32_t clause_line = 0, stmt_line = 0;
    char *clause_ws = line_indent(src, s->clause, &clause_line);
    char *body_ws = ts_node_is_null(block) ? NULL : line_indent(src, ts_node_named_child(block, 0), &stmt_line);
    if (!clause_ws || !body_ws) {
        *why = lf_xstrdup("the handler shares a line with other code (`except OSError: return False`)");
        free(clause_ws);
        free(body_ws);
        return NULL;
    }
    char *alive = ts_node_is_null(s->alive) ? lf_xstrdup("pass") : lf_tree_text(src, s->alive);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    if (s->dedicated) {
        /* The clause's statements, first to last, become the success path. */
        lf_fix_add_edit(fix, ts_node_start_byte(block), ts_node_end_byte(block), alive);
    } else {
        char *clause = lf_xasprintf("%sexcept PermissionError:\n%s%s\n", clause_ws, body_ws, alive);
        lf_fix_add_edit(fix, clause_line, clause_line, clause);
        free(clause);
    }
    fix->title = lf_xstrdup("read PermissionError (EPERM) as alive: the process exists, another user's; "
                            "ProcessLookupError and other errors keep the old handler");
    free(alive);
    free(clause_ws);
    free(body_ws);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    if (ctx->src->lang != LF_LANG_PYTHON) {
        lf303_ts_generate(ctx, reqs, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].site, &reqs[i].no_fix_reason);
}

const lf_fixer lf303_esrch = {"lf303_esrch", generate, 1}; /* reads only the file it fixes */
