/* LF401 fix: the check (checks/lf401_shared_temp.c) hands over the temp-name
 * expression, its form, the rename and how a failed write will remove its temp
 * (checks/lf401_site.h). The name gets a random component before its suffix:
 *
 *     tmp = path + ".tmp"          ->  tmp = path + "." + uuid.uuid4().hex + ".tmp"
 *     f"{path}.tmp"                ->  f"{path}.{uuid.uuid4().hex}.tmp"
 *     "%s.tmp" % path              ->  "%s.%s.tmp" % (path, uuid.uuid4().hex)
 *     "{}.tmp".format(path)        ->  "{}.{}.tmp".format(path, uuid.uuid4().hex)
 *     path.with_suffix(".tmp")     ->  path.with_suffix("." + uuid.uuid4().hex + ".tmp")
 *     "tmp_" + name                ->  "tmp_" + name + "." + uuid.uuid4().hex   (a prefix only)
 *
 * whatever the suffix (".new", "~", ".part") and wherever the name is built
 * (inside os.path.join, with_name, `/`: checks/lf401_shared_temp.c finds
 * the last component's string)
 *
 * and nothing else about the write changes: the same open() creates the temp
 * in the same directory (the rename stays atomic), with the same mode, so the
 * target ends up with the permissions the old code gave it (mkstemp's 0600
 * would not). uuid4 draws 122 bits from os.urandom: concurrent writers do not
 * meet on one name. A temp spelled inline at each use is named once, in a
 * variable, before its first use. Cleanup as the site says: a new
 * `except BaseException:` after a handler that already removes the temp, or
 * the statements from the first use to the rename in a `try` that removes it
 * and re-raises (not when they hold a multi-line string, which re-indenting
 * would change). Names are spelled through the module's imports
 * (fixes/lf_pyimport.h). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf401_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_pyimport.h"
#include "lf_tsfix.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"

typedef struct sub_edit {
    uint32_t start, end;
    char *text;
} sub_edit;
typedef LF_VEC(sub_edit) sub_vec;

static void sub_add(sub_vec *v, uint32_t start, uint32_t end, char *text) {
    sub_edit e = {start, end, text};
    LF_VEC_PUSH(v, e);
}

static int cmp_sub(const void *a, const void *b) {
    const sub_edit *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Source bytes [a, b) with the sub-edits inside them applied (malloc'd). */
static char *render(const lf_source *src, uint32_t a, uint32_t b, const sub_vec *subs) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    uint32_t at = a;
    for (size_t i = 0; i < subs->len; i++) {
        const sub_edit *e = &subs->items[i];
        if (e->start < a || e->end > b)
            continue;
        lf_strbuf_append(&sb, src->text + at, e->start - at);
        lf_strbuf_puts(&sb, e->text);
        at = e->end;
    }
    lf_strbuf_append(&sb, src->text + at, b - at);
    return sb.data ? lf_strbuf_detach(&sb) : lf_xstrdup("");
}

/* End of the statement's line when only a comment follows it there (the comment
 * moves with it), else the end of the statement. */
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

static char *pick_name(const lf_source *src, TSNode scope) {
    static const char *const candidates[] = {"tmp_path", "temp_path", "unique_tmp"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (!lf_pyfix_mentions(src, scope, candidates[i]))
            return lf_xstrdup(candidates[i]);
    for (int i = 2;; i++) {
        char *name = lf_xasprintf("tmp_path%d", i);
        if (!lf_pyfix_mentions(src, scope, name))
            return name;
        free(name);
    }
}

/* The quotes of a string literal without its prefix; NULL when it has one
 * (b"" or r"" would change what the inserted text means). */
static char *plain_quote(const lf_source *src, TSNode string) {
    TSNode start = ts_node_named_child(string, 0);
    char *q = lf_node_text(src, start);
    if (q[0] != '"' && q[0] != '\'') {
        free(q);
        return NULL;
    }
    return q;
}

/* The edits that make the temp name unique, inside the expression. */
static int unique_name_edits(const lf_source *src, const lf401_site *s, const char *uid, sub_vec *subs, char **why) {
    uint32_t sfx = ts_node_start_byte(s->suffix);
    switch (s->form) {
    case LF401_CONCAT: {
        TSNode str = ts_node_parent(s->suffix);
        char *q = plain_quote(src, str);
        if (!q) {
            *why = lf_xstrdup("the temp suffix is a prefixed string literal (bytes or raw)");
            return 0;
        }
        /* an operand of an operator tighter than `+` (`d / "state.json.tmp"`): the
         * name in parentheses, or the `/` would take only its first part */
        TSNode up = ts_node_parent(str);
        int wrap = lf_tree_is(up, "binary_operator") && !lf_tree_text_eq(src, lf_tree_field(up, "operator"), "+");
        sub_add(subs, ts_node_start_byte(str), ts_node_start_byte(str),
                lf_xasprintf("%s%s.%s + %s + ", wrap ? "(" : "", q, q, uid));
        if (wrap)
            sub_add(subs, ts_node_end_byte(str), ts_node_end_byte(str), lf_xstrdup(")"));
        free(q);
        return 1;
    }
    case LF401_TAIL: {
        char *q = plain_quote(src, ts_node_parent(s->suffix));
        if (!q) {
            *why = lf_xstrdup("the temp name's literal is a prefixed string literal (bytes or raw)");
            return 0;
        }
        uint32_t end = ts_node_end_byte(s->operand);
        sub_add(subs, end, end, lf_xasprintf(" + %s.%s + %s", q, q, uid));
        free(q);
        return 1;
    }
    case LF401_FSTRING:
        sub_add(subs, sfx, sfx, lf_xasprintf(".{%s}", uid));
        return 1;
    case LF401_PERCENT:
    case LF401_FORMAT: {
        char *fmt = s->form == LF401_PERCENT ? ".%s" : ".{}";
        sub_add(subs, sfx + 2, sfx + 2, lf_xstrdup(fmt));
        if (s->form == LF401_PERCENT) {
            char *o = lf_node_text(src, s->operand);
            sub_add(subs, ts_node_start_byte(s->operand), ts_node_end_byte(s->operand), lf_xasprintf("(%s, %s)", o, uid));
            free(o);
        } else {
            sub_add(subs, ts_node_end_byte(s->operand), ts_node_end_byte(s->operand), lf_xasprintf(", %s", uid));
        }
        return 1;
    }
    }
    return 0;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, const lf401_site *s, char **why) {
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    lf_pysem *m = lf_filesem_python(ctx->sem);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    sub_vec subs = {0};
    char *uuid4 = NULL, *unlink = NULL, *uid = NULL, *var = NULL, *newexpr = NULL;
    uint32_t at = ts_node_start_byte(s->temp);
    lf_pyimporter *im = lf_pyimport_begin(m, fix);
    uuid4 = lf_pyimport_ref(im, s->scope, at, "uuid.uuid4", why);
    if (uuid4 && (s->cleanup == LF401_CLEAN_WRAP || s->cleanup == LF401_CLEAN_CLAUSE))
        unlink = lf_pyimport_ref(im, s->scope, ts_node_start_byte(s->rename), "os.unlink", why);
    lf_pyimport_end(im);
    if (!uuid4 || ((s->cleanup == LF401_CLEAN_WRAP || s->cleanup == LF401_CLEAN_CLAUSE) && !unlink))
        goto fail;
    uid = lf_xasprintf("%s().hex", uuid4);

    /* Indentation of the wrapped statements (WRAP) or of the new variable (inline). */
    TSNode first = s->cleanup == LF401_CLEAN_WRAP ? s->region_first : s->name_at;
    if (ts_node_is_null(first))
        first = s->rename;
    char *indent = lf_pyfix_line_indent(src, ts_node_start_byte(first));
    char *unit = lf_pyfix_indent_unit(src, first);
    if (!ts_node_is_null(s->var)) {
        var = lf_node_text(src, s->var);
        if (!unique_name_edits(src, s, uid, &subs, why))
            goto fail_indent;
    } else {
        /* Inline: NAME = <unique temp> before the first use, each use reads NAME. */
        sub_vec inner = {0};
        int ok = unique_name_edits(src, s, uid, &inner, why);
        if (ok) {
            qsort(inner.items, inner.len, sizeof *inner.items, cmp_sub);
            newexpr = render(src, ts_node_start_byte(s->temp), ts_node_end_byte(s->temp), &inner);
        }
        for (size_t i = 0; i < inner.len; i++)
            free(inner.items[i].text);
        LF_VEC_FREE(&inner);
        if (!ok)
            goto fail_indent;
        TSNode fn = lf_pyfix_ancestor(s->rename, "function_definition");
        var = pick_name(src, ts_node_is_null(fn) ? ctx->root : fn);
        for (size_t i = 0; i < s->n_inline_uses; i++)
            sub_add(&subs, ts_node_start_byte(s->inline_uses[i]), ts_node_end_byte(s->inline_uses[i]), lf_xstrdup(var));
    }
    qsort(subs.items, subs.len, sizeof *subs.items, cmp_sub);

    int wrap = s->cleanup == LF401_CLEAN_WRAP && lf_pyfix_starts_line(src, first);
    for (TSNode x = first; wrap; x = ts_node_next_named_sibling(x)) {
        wrap = !lf_pyfix_has_multiline_string(x);
        if (ts_node_eq(x, s->region_last))
            break;
    }
    if (wrap) {
        uint32_t a = ts_node_start_byte(first), end = end_with_comment(src, s->region_last);
        uint32_t from_line = lf_pyfix_line_start(src, a);
        char *region = render(src, from_line, end, &subs);
        char *to = lf_xasprintf("%s%s", indent, unit);
        char *body = lf_pyfix_reindent(region, 0, (uint32_t)strlen(region), indent, to);
        char *inner_cleanup = lf_xasprintf("try:\n"
                                           "%s%s%s%s(%s)\n"
                                           "%s%sexcept OSError:\n"
                                           "%s%s%spass\n"
                                           "%s%sraise",
                                           indent, unit, unit, unlink, var, indent, unit, indent, unit, unit, indent, unit);
        /* Inline: the variable goes before the wrapped statements, or before
         * the statement holding the first spelling when that is further out. */
        int decl_here = newexpr && ts_node_eq(s->name_at, first);
        char *decl = decl_here ? lf_xasprintf("%s = %s\n%s", var, newexpr, indent) : lf_xstrdup("");
        if (newexpr && !decl_here) {
            char *nind = lf_pyfix_line_indent(src, ts_node_start_byte(s->name_at));
            char *d2 = lf_xasprintf("%s = %s\n%s", var, newexpr, nind);
            lf_fix_add_edit(fix, ts_node_start_byte(s->name_at), ts_node_start_byte(s->name_at), d2);
            free(d2);
            free(nind);
        }
        char *text = lf_xasprintf("%stry:\n%s\n%sexcept BaseException:\n%s%s%s", decl, body, indent, indent, unit,
                                  inner_cleanup);
        lf_fix_add_edit(fix, a, end, text);
        for (size_t i = 0; i < subs.len; i++)
            if (subs.items[i].start < from_line || subs.items[i].end > end)
                lf_fix_add_edit(fix, subs.items[i].start, subs.items[i].end, subs.items[i].text);
        free(text);
        free(decl);
        free(inner_cleanup);
        free(body);
        free(to);
        free(region);
    } else {
        if (newexpr) {
            char *decl = lf_xasprintf("%s = %s\n%s", var, newexpr, indent);
            lf_fix_add_edit(fix, ts_node_start_byte(s->name_at), ts_node_start_byte(s->name_at), decl);
            free(decl);
        }
        for (size_t i = 0; i < subs.len; i++)
            lf_fix_add_edit(fix, subs.items[i].start, subs.items[i].end, subs.items[i].text);
        if (s->cleanup == LF401_CLEAN_CLAUSE) {
            /* After the try's last handler. */
            TSNode last = {0};
            for (uint32_t i = 0; i < ts_node_named_child_count(s->try_stmt); i++)
                if (lf_pyfix_is(ts_node_named_child(s->try_stmt, i), "except_clause"))
                    last = ts_node_named_child(s->try_stmt, i);
            char *tind = lf_pyfix_line_indent(src, ts_node_start_byte(s->try_stmt));
            TSNode hb = ts_node_named_child(last, ts_node_named_child_count(last) - 1);
            char *hunit = lf_pyfix_indent_unit(src, ts_node_named_child(hb, 0));
            char *text = lf_xasprintf("\n%sexcept BaseException:\n"
                                      "%s%stry:\n"
                                      "%s%s%s%s(%s)\n"
                                      "%s%sexcept OSError:\n"
                                      "%s%s%spass\n"
                                      "%s%sraise",
                                      tind, tind, hunit, tind, hunit, hunit, unlink, var, tind, hunit, tind, hunit, hunit,
                                      tind, hunit);
            uint32_t e = ts_node_end_byte(last);
            lf_fix_add_edit(fix, e, e, text);
            free(text);
            free(tind);
            free(hunit);
        }
    }
    fix->title = lf_xstrdup("give the temp file a unique name (uuid4) in the same directory");
    free(indent);
    free(unit);
    goto done;
fail_indent:
    free(indent);
    free(unit);
fail:
    lf_fix_free(fix);
    fix = NULL;
done:
    for (size_t i = 0; i < subs.len; i++)
        free(subs.items[i].text);
    LF_VEC_FREE(&subs);
    free(uuid4);
    free(unlink);
    free(uid);
    free(var);
    free(newexpr);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    if (ctx->src->lang != LF_LANG_PYTHON) {
        lf401_ts_generate(ctx, reqs, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].site, &reqs[i].no_fix_reason);
}

const lf_fixer lf401_unique_temp = {"lf401_unique_temp", generate, 1};
