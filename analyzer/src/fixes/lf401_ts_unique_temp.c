/* LF401 fix for TS/JS: the check (checks/lf401_ts.c) hands over the site
 * (checks/lf401_ts_site.h). The temp name gets the writer's pid and a random
 * UUID before its suffix, in the same directory, so the rename stays atomic
 * and concurrent writers never share a temp:
 *
 *     `${final}.tmp`   ->  `${final}.${process.pid}.${randomUUID()}.tmp`
 *     final + ".tmp"   ->  final + "." + process.pid + "." + randomUUID() + ".tmp"
 *     `tmp_${name}`    ->  `tmp_${name}.${process.pid}.${randomUUID()}`   (a prefix only, in a path.join)
 *     "tmp_" + name    ->  "tmp_" + name + "." + process.pid + "." + randomUUID()
 *
 * A temp spelled inline at each use is named once, in a new const (a var in a
 * file that declares only with var) before the first, and each spelling reads it. The
 * statements from the first use of the temp to the rename go in a
 * try whose catch removes the temp (ignoring a failure to: it may not exist)
 * and rethrows, so a failed write leaves nothing behind where the old fixed
 * name was overwritten by the next write. The write itself is unchanged: the
 * same call creates the temp with the same mode, so the target keeps the
 * permissions the old code gave it. randomUUID and, for a rename called by a
 * bare name, unlink are spelled through the module's imports or imported in
 * its style (fixes/lf_tsimport.h). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf401_ts_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_tsimport.h"
#include "lf_util.h"

typedef struct decl_walk {
    int lexical, var;
} decl_walk;

static lf_walk_action visit_decl(TSNode n, void *ud) {
    decl_walk *w = ud;
    if (lf_tree_is(n, "lexical_declaration"))
        w->lexical = 1;
    else if (lf_tree_is(n, "variable_declaration"))
        w->var = 1;
    return w->lexical ? LF_WALK_STOP : LF_WALK_CONTINUE;
}

/* The keyword of the new variable: var in a file written for ES5 (var
 * declarations, never const or let), else const. */
static const char *decl_keyword(TSNode root) {
    decl_walk w = {0, 0};
    lf_tree_walk(root, visit_decl, &w);
    return w.var && !w.lexical ? "var" : "const";
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, const lf401_ts_site *s, char **why) {
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    char *uuid = NULL, *unlink = NULL;
    lf_tsimporter *im = lf_tsimport_begin(m, src->path, fix);
    uuid = lf_tsimport_ref(im, lf_tssem_scope_of(m, s->temp), ts_node_start_byte(s->temp), "crypto", "randomUUID", why);
    if (uuid) {
        if (lf_tree_is(s->rename_fn, "member_expression")) {
            char *obj = lf_tree_text(src, lf_tree_field(s->rename_fn, "object"));
            unlink = lf_xasprintf("%s.%s", obj, s->async ? "unlink" : "unlinkSync");
            free(obj);
        } else {
            unlink = lf_tsimport_ref(im, s->scope, ts_node_start_byte(s->rename), s->async ? "fs/promises" : "fs",
                                     s->async ? "unlink" : "unlinkSync", why);
        }
    }
    lf_tsimport_end(im);
    if (!uuid || !unlink) {
        lf_fix_free(fix);
        free(uuid);
        free(unlink);
        return NULL;
    }

    /* the name */
    uint32_t at = ts_node_start_byte(s->suffix);
    char *name_edit;
    if (s->template_form) {
        /* before the suffix; after the name when there is only a prefix (`tmp_${name}`) */
        if (lf_tree_is(s->suffix, "template_substitution"))
            at = ts_node_end_byte(s->suffix);
        name_edit = lf_xasprintf(".${process.pid}.${%s()}", uuid);
    } else if (ts_node_eq(s->suffix, s->temp)) {
        /* a literal name: `"state.json.tmp" + "." + process.pid + "." + randomUUID()` */
        at = ts_node_end_byte(s->temp);
        char q = src->text[ts_node_start_byte(s->temp)];
        name_edit = lf_xasprintf(" + %c.%c + process.pid + %c.%c + %s()", q, q, q, q, uuid);
    } else if (!lf_tree_is(s->suffix, "string") && !lf_tree_is(s->suffix, "template_string")) {
        /* "tmp_" + name: after the name, in the quotes of the prefix */
        at = ts_node_end_byte(s->suffix);
        char q = src->text[ts_node_start_byte(lf_tree_field(s->temp, "left"))];
        name_edit = lf_xasprintf(" + %c.%c + process.pid + %c.%c + %s()", q, q, q, q, uuid);
    } else {
        char q = src->text[at];
        name_edit = lf_xasprintf("%c.%c + process.pid + %c.%c + %s() + ", q, q, q, q, uuid);
    }
    char *decl = NULL;
    const char *semi = src->text[ts_node_end_byte(s->region_last) - 1] == ';' ? ";" : "";
    uint32_t from = lf_tree_line_start(src, ts_node_start_byte(s->region_first));
    char *ind = lf_tree_line_indent(src, from);
    char *region;
    if (!ts_node_is_null(s->var)) {
        lf_fix_add_edit(fix, at, at, name_edit);
        region = lf_xasprintf("%.*s", (int)(s->region_end - from), src->text + from);
    } else {
        /* const tmp = <unique temp>; before the region, each spelling reads tmp */
        uint32_t ea = ts_node_start_byte(s->expr), eb = ts_node_end_byte(s->expr);
        decl = lf_xasprintf("%s%s %s = %.*s%s%.*s%s\n", ind, decl_keyword(ctx->root), s->new_name, (int)(at - ea), src->text + ea, name_edit, (int)(eb - at), src->text + at,
                            semi);
        lf_strbuf sb;
        lf_strbuf_init(&sb);
        uint32_t pos = from;
        for (size_t i = 0; i < s->n_spellings; i++) {
            lf_strbuf_append(&sb, src->text + pos, ts_node_start_byte(s->spellings[i]) - pos);
            lf_strbuf_puts(&sb, s->new_name);
            pos = ts_node_end_byte(s->spellings[i]);
        }
        lf_strbuf_append(&sb, src->text + pos, s->region_end - pos);
        region = lf_strbuf_detach(&sb);
    }
    free(name_edit);

    /* the try around the write and the rename */
    char *unit = lf_tsfix_indent_unit(src, s->region_first);
    char *deeper = lf_xasprintf("%s%s", ind, unit);
    char *body = lf_pyfix_reindent(region, 0, (uint32_t)strlen(region), ind, deeper);
    static const char *const err_names[] = {"err", "error", "writeError", NULL};
    char *err = lf_tsfix_fresh_name(m, s->fn, err_names);
    char *var = s->new_name ? lf_xstrdup(s->new_name) : lf_tree_text(src, s->var);
    char *cleanup = s->async ? lf_xasprintf("await %s(%s).catch(() => {})%s", unlink, var, semi)
                             : lf_xasprintf("try { %s(%s)%s } catch {}", unlink, var, semi);
    char *text = lf_xasprintf("%s%stry {\n%s\n%s} catch (%s) {\n%s%s\n%sthrow %s%s\n%s}", decl ? decl : "", ind, body,
                              ind, err, deeper, cleanup, deeper, err, semi, ind);
    lf_fix_add_edit(fix, from, s->region_end, text);
    free(region);
    free(decl);
    fix->title = lf_xstrdup("give the temp file a unique name (pid and randomUUID) in the same directory, removed "
                            "when the write fails");
    free(text);
    free(cleanup);
    free(var);
    free(err);
    free(body);
    free(deeper);
    free(unit);
    free(ind);
    free(uuid);
    free(unlink);
    return fix;
}

void lf401_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].site, &reqs[i].no_fix_reason);
}
