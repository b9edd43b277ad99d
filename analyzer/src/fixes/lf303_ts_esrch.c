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

#include "../checks/lf301_ts_site.h"
#include "../checks/lf303_ts_site.h"
#include "lf_check.h"
#include "lf_sem.h"
#include "lf_tsimport.h"
#include "lf_vendor.h"
#include "lf_pyfix.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_util.h"

static int is_ts_path(const char *path) {
    const char *dot = path ? strrchr(path, '.') : NULL;
    return dot && (!strcmp(dot, ".ts") || !strcmp(dot, ".mts") || !strcmp(dot, ".cts") || !strcmp(dot, ".tsx"));
}

/* Spell (and import) killProbeSync in every reuse site's fix
 * (lf_tsimport_ref_each). */
static char *spell_probe(lf_tsimporter *im, lf_tssem *m, lf_fix_request *reqs, size_t n, size_t self, char **why) {
    lf_tsimport_use *uses = lf_xcalloc(n ? n : 1, sizeof *uses);
    for (size_t j = 0; j < n; j++) {
        const lf303_ts_site *t = reqs[j].site;
        if (t && !t->decline && t->reuse)
            uses[j] = (lf_tsimport_use){lf_tssem_scope_of(m, t->probe), ts_node_start_byte(t->probe), "killProbeSync"};
    }
    char *mine = lf_tsimport_ref_each(im, uses, n, self, LF301_TS_VENDOR_MODULE, why);
    free(uses);
    return mine;
}

/* `process.kill(pid, 0)` -> `killProbeSync(pid, FILE)`. */
static lf_fix *generate_reuse(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n, size_t self, char **why,
                              char **probe_text) {
    const lf303_ts_site *s = reqs[self].site;
    const lf_source *src = ctx->src;
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    lf_tsimporter *im = lf_tsimport_begin(m, src->path, fix);
    char *probe = spell_probe(im, m, reqs, n, self, why);
    lf_tsimport_end(im);
    if (!probe) {
        lf_fix_free(fix);
        return NULL;
    }
    TSNode pid = lf_tssem_arg(s->probe, 0);
    uint32_t ps = ts_node_start_byte(pid), pe = ts_node_end_byte(pid);
    uint32_t fs_ = ts_node_start_byte(s->file), fe = ts_node_end_byte(s->file);
    char *text = lf_xasprintf("%s(%.*s, %.*s)", probe, (int)(pe - ps), src->text + ps, (int)(fe - fs_),
                              src->text + fs_);
    if (probe_text)
        *probe_text = text; /* the caller's edit holds it (the probe's statement, wrapped) */
    else {
        lf_fix_add_edit(fix, ts_node_start_byte(s->probe), ts_node_end_byte(s->probe), text);
        free(text);
    }
    free(probe);
    lf_vendor_attach_node(fix, src->path);
    fix->title = lf_xstrdup("probe the pid as before, and read a process that started after the pid file was last "
                            "written as gone: another process under a reused pid (vendored lockrt.cjs: "
                            "killProbeSync)");
    return fix;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n_reqs, size_t self, char **why) {
    const lf303_ts_site *s = reqs[self].site;
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    lf_fix *fix = NULL;
    char *probe_text = NULL;
    if (s->reuse) { /* the probe too: killProbeSync(pid, FILE), then the catch's edits beside it */
        fix = generate_reuse(ctx, reqs, n_reqs, self, why, ts_node_is_null(s->wrap_stmt) ? NULL : &probe_text);
        if (!fix)
            return NULL;
        free(fix->title);
        fix->title = NULL;
    } else {
        fix = lf_xcalloc(1, sizeof *fix);
    }
    if (!ts_node_is_null(s->wrap_stmt)) {
        static const char *const names[] = {"err", "error", "killError", NULL};
        char *e = lf_tsfix_fresh_name(lf_filesem_typescript(ctx->sem), s->fn, names);
        char *c = is_ts_path(src->path) ? lf_xasprintf("(%s as { code?: unknown }).code", e) : lf_xasprintf("%s.code", e);
        TSNode call = ts_node_named_child(s->wrap_stmt, 0);
        char *call_text = probe_text ? probe_text : lf_tree_text(src, call);
        char *text = lf_xasprintf("try { %s; } catch (%s) { if (%s !== \"EPERM\") throw %s; }", call_text, e, c, e);
        lf_fix_add_edit(fix, ts_node_start_byte(s->wrap_stmt), ts_node_end_byte(s->wrap_stmt), text);
        free(text);
        free(call_text);
        free(c);
        free(e);
        fix->title = lf_xstrdup(s->reuse ? "read EPERM from the probe as alive (its own try: the success path goes on), "
                                           "and a process that started after the pid file was last written as gone "
                                           "(vendored lockrt.cjs: killProbeSync); every other error reaches the old "
                                           "catch"
                                         : "read EPERM from the probe as alive (its own try: the success path goes "
                                           "on); every other error reaches the old catch");
        return fix;
    }
    char *err;
    if (ts_node_is_null(s->param)) {
        static const char *const names[] = {"err", "error", "killError", NULL};
        err = lf_tsfix_fresh_name(lf_filesem_typescript(ctx->sem), s->fn, names);
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
    fix->title = lf_xstrdup(s->reuse ? "read EPERM as alive (the process exists, another user's), and a process "
                                       "that started after the pid file was last written as gone (a reused pid; "
                                       "vendored lockrt.cjs: killProbeSync); ESRCH and other errors keep the old "
                                       "verdict"
                                     : "read EPERM as alive (the process exists, another user's); ESRCH and other "
                                       "errors keep the old verdict");
    free(code);
    free(err);
    return fix;
}

/* The registered lf303_esrch (fixes/lf303_eperm_alive.c) hands TS/JS files here. */
void lf303_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    const void **saved = lf_xcalloc(n ? n : 1, sizeof *saved);
    lf_tsswap_take_over(ctx, reqs, n, saved);
    for (size_t i = 0; i < n; i++) {
        const lf303_ts_site *s = reqs[i].site;
        if (saved[i] != s)
            continue; /* taken by the protocol swap */
        reqs[i].fix = s && !s->decline && s->reuse && ts_node_is_null(s->handler) && ts_node_is_null(s->wrap_stmt)
                          ? generate_reuse(ctx, reqs, n, i, &reqs[i].no_fix_reason, NULL)
                          : generate_one(ctx, reqs, n, i, &reqs[i].no_fix_reason);
    }
    for (size_t i = 0; i < n; i++)
        reqs[i].site = saved[i];
    free(saved);
}
