/* LF401 fix: replace a temp name derived from the target (`path + ".tmp"`) by a
 * unique temp file in the same directory (tempfile.mkstemp), written through the
 * descriptor mkstemp returns. Recognised shape, all in one block:
 *
 *     tmp = path + ".tmp"                 (or f"{path}.tmp")
 *     with open(tmp, "w"...) as fh:       (mode starting with "w"; or fh = open(...))
 *         ...
 *     os.replace(tmp, path)               (or os.rename)
 *
 * becomes
 *
 *     fd, tmp = tempfile.mkstemp(
 *         dir=os.path.dirname(path) or ".", prefix=os.path.basename(path) + ".", suffix=".tmp"
 *     )
 *     try:
 *         with os.fdopen(fd, "w"...) as fh:
 *             ...
 *         os.replace(tmp, path)
 *     except BaseException:
 *         try:
 *             os.unlink(tmp)
 *         except OSError:
 *             pass
 *         raise
 *
 * The same directory keeps the rename atomic (no cross-device move); O_EXCL inside
 * mkstemp makes concurrent writers use distinct temps. A unique name is never
 * reused, so a write that fails must remove its temp, or failures accumulate
 * files (the fixed name was at least overwritten by the next write). When the
 * statements to wrap hold a multi-line string, which re-indenting would change,
 * the fix keeps them as they are, without the cleanup. */
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_util.h"

typedef struct temp_site {
    TSNode assignment; /* tmp = <expr> */
    TSNode target;     /* path expression */
    char *suffix;      /* ".tmp" */
} temp_site;

/* The temp-name expression: `P + "<suffix>"` or f"{P}<suffix>". */
static int parse_temp_expr(const lf_source *src, TSNode expr, temp_site *site) {
    if (lf_pyfix_is(expr, "binary_operator")) {
        TSNode op = lf_pyfix_field(expr, "operator");
        if (ts_node_is_null(op) || !lf_node_text_eq(src, op, "+"))
            return 0;
        TSNode left = lf_pyfix_field(expr, "left");
        char *suffix = lf_pyfix_plain_string(src, lf_pyfix_field(expr, "right"));
        if (!suffix || !*suffix || strchr(suffix, '/') || !lf_pyfix_is_plain_reference(left)) {
            free(suffix);
            return 0;
        }
        site->target = left;
        site->suffix = suffix;
        return 1;
    }
    if (lf_pyfix_is(expr, "string")) {
        /* f"{P}<suffix>": string_start, interpolation, string_content, string_end */
        uint32_t n = ts_node_named_child_count(expr);
        if (n != 4)
            return 0;
        TSNode start = ts_node_named_child(expr, 0), interp = ts_node_named_child(expr, 1);
        TSNode content = ts_node_named_child(expr, 2);
        char *prefix = lf_node_text(src, start);
        int is_f = (prefix[0] == 'f' || prefix[0] == 'F') && (prefix[1] == '"' || prefix[1] == '\'');
        free(prefix);
        if (!is_f || !lf_pyfix_is(interp, "interpolation") || !lf_pyfix_is(content, "string_content") ||
            ts_node_named_child_count(interp) != 1 || ts_node_named_child_count(content) != 0)
            return 0;
        TSNode ref = ts_node_named_child(interp, 0);
        char *suffix = lf_node_text(src, content);
        if (!lf_pyfix_is_plain_reference(ref) || !*suffix || strpbrk(suffix, "\\/{}")) {
            free(suffix);
            return 0;
        }
        site->target = ref;
        site->suffix = suffix;
        return 1;
    }
    return 0;
}

/* `with open(T, "w"...) [as x]:` (first item) or `x = open(T, "w"...)` -> the open
 * call, when it opens T for writing. */
static TSNode write_open_of(const lf_source *src, TSNode stmt, const char *tmp_name) {
    TSNode none = {0};
    TSNode value;
    if (lf_pyfix_is(stmt, "with_statement")) {
        TSNode clause = ts_node_named_child(stmt, 0);
        if (!lf_pyfix_is(clause, "with_clause"))
            return none;
        value = lf_pyfix_field(ts_node_named_child(clause, 0), "value");
        if (lf_pyfix_is(value, "as_pattern"))
            value = ts_node_named_child(value, 0);
    } else if (lf_pyfix_is(stmt, "expression_statement") &&
               lf_pyfix_is(ts_node_named_child(stmt, 0), "assignment")) {
        value = lf_pyfix_field(ts_node_named_child(stmt, 0), "right");
    } else {
        return none;
    }
    if (!lf_pyfix_call_is(src, value, "open"))
        return none;
    TSNode first = lf_pyfix_call_arg(value, 0);
    if (!lf_pyfix_is(first, "identifier") || !lf_node_text_eq(src, first, tmp_name))
        return none;
    TSNode mode = lf_pyfix_call_arg(value, 1);
    if (ts_node_is_null(mode))
        mode = lf_pyfix_call_kwarg(src, value, "mode");
    char *m = lf_pyfix_plain_string(src, mode);
    int writes = m && m[0] == 'w';
    free(m);
    return writes ? value : none;
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

/* `os.replace(T, P)` / `os.rename(T, P)` as a statement. */
static int renames_onto(const lf_source *src, TSNode stmt, const char *tmp_name, const char *target) {
    if (!lf_pyfix_is(stmt, "expression_statement"))
        return 0;
    TSNode call = ts_node_named_child(stmt, 0);
    if (!lf_pyfix_call_is(src, call, "os.replace") && !lf_pyfix_call_is(src, call, "os.rename"))
        return 0;
    TSNode a = lf_pyfix_call_arg(call, 0), b = lf_pyfix_call_arg(call, 1);
    return lf_pyfix_call_arg_count(call) == 2 && lf_node_text_eq(src, a, tmp_name) && lf_node_text_eq(src, b, target);
}

static char *pick_fd_name(const lf_source *src, TSNode scope) {
    static const char *const candidates[] = {"fd", "tmp_fd", "temp_fd"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (!lf_pyfix_mentions(src, scope, candidates[i]))
            return lf_xstrdup(candidates[i]);
    for (int i = 2;; i++) {
        char *name = lf_xasprintf("fd%d", i);
        if (!lf_pyfix_mentions(src, scope, name))
            return name;
        free(name);
    }
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, TSNode at, char **no_fix_reason) {
    const lf_source *src = ctx->src;
    if (src->lang != LF_LANG_PYTHON) {
        *no_fix_reason = lf_xstrdup("this fix rewrites Python only");
        return NULL;
    }
    temp_site site = {0};
    if (!parse_temp_expr(src, at, &site)) {
        *no_fix_reason = lf_xstrdup("the temp name is not `<path> + \"<suffix>\"` over a plain variable");
        return NULL;
    }
    lf_fix *fix = NULL;
    char *tmp_name = NULL, *target = NULL, *fd_name = NULL;
    TSNode assign = ts_node_parent(at);
    TSNode left = lf_pyfix_field(assign, "left");
    TSNode stmt = ts_node_parent(assign);
    TSNode block = ts_node_parent(stmt);
    if (!lf_pyfix_is(assign, "assignment") || !lf_pyfix_is(left, "identifier") ||
        !lf_pyfix_is(stmt, "expression_statement") || ts_node_named_child_count(stmt) != 1 ||
        !(lf_pyfix_is(block, "block") || lf_pyfix_is(block, "module"))) {
        *no_fix_reason = lf_xstrdup("the temp name is not assigned to a variable by its own statement");
        goto done;
    }
    tmp_name = lf_node_text(src, left);
    target = lf_node_text(src, site.target);
    /* The first later statement using the temp must open it for writing, and a
     * statement after that must rename it onto the target. */
    TSNode open_call = {0}, open_stmt = {0}, rename_stmt = {0};
    int renamed = 0;
    for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s); s = ts_node_next_named_sibling(s)) {
        if (ts_node_is_null(open_call)) {
            if (!lf_pyfix_mentions(src, s, tmp_name))
                continue;
            open_call = write_open_of(src, s, tmp_name);
            if (ts_node_is_null(open_call))
                break;
            open_stmt = s;
            continue;
        }
        if (renames_onto(src, s, tmp_name, target)) {
            renamed = 1;
            rename_stmt = s;
            break;
        }
    }
    if (ts_node_is_null(open_call) || !renamed) {
        *no_fix_reason = lf_xasprintf("`%s` is not opened by `open(%s, \"w\")` and then renamed onto `%s` "
                                      "in the same block",
                                      tmp_name, tmp_name, target);
        goto done;
    }
    TSNode scope = lf_pyfix_ancestor(stmt, "function_definition");
    fd_name = pick_fd_name(src, ts_node_is_null(scope) ? ctx->root : scope);

    fix = lf_xcalloc(1, sizeof *fix);
    fix->title = lf_xstrdup("write through a unique temp file in the same directory (tempfile.mkstemp)");
    char *indent = lf_pyfix_line_indent(src, ts_node_start_byte(stmt));
    char *unit = lf_pyfix_indent_unit(src, stmt);
    char *mk = lf_xasprintf("%s, %s = tempfile.mkstemp(\n"
                            "%s%sdir=os.path.dirname(%s) or \".\", prefix=os.path.basename(%s) + \".\", suffix=\"%s\"\n"
                            "%s)",
                            fd_name, tmp_name, indent, unit, target, target, site.suffix, indent);
    lf_fix_add_edit(fix, ts_node_start_byte(assign), ts_node_end_byte(assign), mk);
    free(mk);
    char *fdopen = lf_xasprintf("os.fdopen(%s", fd_name);
    /* Wrapping re-indents the statements: only when they start their lines and
     * hold no multi-line string. */
    int wrap = lf_pyfix_starts_line(src, open_stmt);
    for (TSNode s = open_stmt; wrap; s = ts_node_next_named_sibling(s)) {
        wrap = !lf_pyfix_has_multiline_string(s);
        if (ts_node_eq(s, rename_stmt))
            break;
    }
    if (wrap) {
        /* open .. rename inside try/except that removes the temp on failure. */
        uint32_t a = ts_node_start_byte(open_stmt), end = end_with_comment(src, rename_stmt);
        uint32_t cut = ts_node_start_byte(open_call), cut_end = ts_node_end_byte(lf_pyfix_call_arg(open_call, 0));
        lf_strbuf region; /* the statements, with the open call already replaced */
        lf_strbuf_init(&region);
        uint32_t from_line = lf_pyfix_line_start(src, a);
        lf_strbuf_append(&region, src->text + from_line, cut - from_line);
        lf_strbuf_puts(&region, fdopen);
        lf_strbuf_append(&region, src->text + cut_end, end - cut_end);
        char *to = lf_xasprintf("%s%s", indent, unit);
        char *body = lf_pyfix_reindent(region.data, 0, (uint32_t)region.len, indent, to);
        char *text = lf_xasprintf("try:\n%s\n"
                                  "%sexcept BaseException:\n"
                                  "%s%stry:\n"
                                  "%s%s%sos.unlink(%s)\n"
                                  "%s%sexcept OSError:\n"
                                  "%s%s%spass\n"
                                  "%s%sraise",
                                  body, indent, indent, unit, indent, unit, unit, tmp_name, indent, unit, indent, unit,
                                  unit, indent, unit);
        /* The edit starts at the statement, after its indentation. */
        lf_fix_add_edit(fix, a, end, text);
        free(text);
        free(body);
        free(to);
        lf_strbuf_free(&region);
    } else {
        lf_fix_add_edit(fix, ts_node_start_byte(open_call), ts_node_end_byte(lf_pyfix_call_arg(open_call, 0)), fdopen);
    }
    free(fdopen);
    free(indent);
    free(unit);
    lf_pyfix_ensure_import(src, ctx->root, "tempfile", fix);
done:
    free(site.suffix);
    free(tmp_name);
    free(target);
    free(fd_name);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].at, &reqs[i].no_fix_reason);
}

const lf_fixer lf401_unique_temp = {"lf401_unique_temp", generate};
