/* LF303 fix for TS/JS: the check (checks/lf303_ts.c) hands over a probe
 * whose catch reads every error as "dead" (checks/lf303_ts_site.h). EPERM
 * means the process exists and belongs to another user, so the catch gives it
 * what a successful probe gets:
 *
 *     try {                              try {
 *       process.kill(pid, 0);              process.kill(pid, 0);
 *       return true;                       return true;
 *     } catch {                   ->     } catch (err) {
 *       return false;                      if (err.code === "EPERM") { return true; }
 *     }                                    return false;
 *                                        }
 *
 * and when success falls through past the try, the catch's statements run
 * only when the code is not EPERM. ESRCH (no such process) and every other
 * error keep the old verdict: only the misread changes. In TypeScript the
 * code is read through `(err as { code?: unknown })`, which type-checks
 * whatever the catch variable's type (unknown under strict). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf303_ts_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_util.h"

static int is_ts_path(const char *path) {
    const char *dot = path ? strrchr(path, '.') : NULL;
    return dot && (!strcmp(dot, ".ts") || !strcmp(dot, ".mts") || !strcmp(dot, ".cts") || !strcmp(dot, ".tsx"));
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, const lf303_ts_site *s, char **why) {
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    char *err;
    if (ts_node_is_null(s->param)) {
        static const char *const names[] = {"err", "error", "killError", NULL};
        err = lf_tsfix_fresh_name(src, s->fn, names);
        TSNode kw = ts_node_child(s->handler, 0); /* `catch` */
        char *bind = lf_xasprintf(" (%s)", err);
        lf_fix_add_edit(fix, ts_node_end_byte(kw), ts_node_end_byte(kw), bind);
        free(bind);
    } else {
        err = lf_tree_text(src, s->param);
    }
    char *code = is_ts_path(src->path) ? lf_xasprintf("(%s as { code?: unknown }).code", err)
                                       : lf_xasprintf("%s.code", err);
    uint32_t n = ts_node_named_child_count(s->body);
    TSNode first = ts_node_named_child(s->body, 0), last = ts_node_named_child(s->body, n - 1);
    int one_line = ts_node_start_point(first).row == ts_node_start_point(s->body).row;
    if (!ts_node_is_null(s->alive)) {
        /* a guard before the old statements */
        char *ret = lf_tree_text(src, s->alive);
        char *guard = lf_xasprintf("if (%s === \"EPERM\") { %s }", code, ret);
        char *text;
        if (one_line) {
            text = lf_xasprintf("%s ", guard);
            lf_fix_add_edit(fix, ts_node_start_byte(first), ts_node_start_byte(first), text);
        } else {
            uint32_t at = lf_tree_line_start(src, ts_node_start_byte(first));
            char *ind = lf_tree_line_indent(src, at);
            text = lf_xasprintf("%s%s\n", ind, guard);
            lf_fix_add_edit(fix, at, at, text);
            free(ind);
        }
        free(text);
        free(guard);
        free(ret);
    } else if (one_line) {
        uint32_t a = ts_node_start_byte(first), b = ts_node_end_byte(last);
        char *old = lf_xasprintf("%.*s", (int)(b - a), src->text + a);
        char *text = lf_xasprintf("if (%s !== \"EPERM\") { %s }", code, old);
        lf_fix_add_edit(fix, a, b, text);
        free(text);
        free(old);
    } else {
        /* the old statements, one level deeper, under `if (code !== "EPERM")` */
        uint32_t from = lf_tree_line_start(src, ts_node_start_byte(first)), to = ts_node_end_byte(last);
        char *ind = lf_tree_line_indent(src, from);
        char *unit = lf_tsfix_indent_unit(src, first);
        char *deeper = lf_xasprintf("%s%s", ind, unit);
        char *body = lf_pyfix_reindent(src->text, from, to, ind, deeper);
        char *text = lf_xasprintf("%sif (%s !== \"EPERM\") {\n%s\n%s}", ind, code, body, ind);
        lf_fix_add_edit(fix, from, to, text);
        free(text);
        free(body);
        free(deeper);
        free(unit);
        free(ind);
    }
    fix->title = lf_xstrdup("read EPERM as alive (the process exists, another user's); ESRCH and other errors keep "
                            "the old verdict");
    free(code);
    free(err);
    return fix;
}

/* The registered lf303_esrch (fixes/lf303_eperm_alive.c) hands TS/JS files here. */
void lf303_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].site, &reqs[i].no_fix_reason);
}
