/* LF201 fix: a confinement guard that resolves the target with realpath() fails
 * when the target does not exist yet (or is between a temp write and its rename)
 * and its directory sits behind a symlink: the two sides resolve differently.
 * Recognised shape (P one name joined onto D, just before the guard):
 *
 *     P = os.path.join(D, name)
 *     if not os.path.realpath(P).startswith(os.path.realpath(D) + os.sep):
 *
 * becomes a guard that never needs the target to exist, keeping both defences:
 *
 *     if (
 *         os.path.basename(P) in ("", ".", "..")
 *         or os.path.normpath(os.path.dirname(P)) != os.path.normpath(D)
 *         or (
 *             os.path.islink(P)
 *             and not os.path.realpath(P).startswith(os.path.realpath(D) + os.sep)
 *         )
 *     ):
 *
 * The first two lines assert that P is a bare name directly inside D (traversal);
 * the last resolves P only when it is a symlink, which then exists as a link. */
#include <stdlib.h>
#include <string.h>

#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_util.h"

/* "os.path" for a callee "os.path.realpath"; NULL for other spellings. */
static char *path_module_of(const lf_source *src, TSNode callee) {
    if (!lf_pyfix_is(callee, "attribute") || !lf_node_text_eq(src, lf_pyfix_field(callee, "attribute"), "realpath"))
        return NULL;
    TSNode mod = lf_pyfix_field(callee, "object");
    if (!lf_pyfix_is_plain_reference(mod))
        return NULL;
    return lf_node_text(src, mod);
}

/* The basename assertion is only equivalent when the target is one name joined
 * onto the directory: `P = <mod>.join(D, name)`, the last assignment to P among
 * the statements before the guard in its block. */
static int joined_onto(const lf_source *src, TSNode guard, const char *p, const char *mod, const char *d) {
    for (TSNode s = ts_node_prev_named_sibling(guard); !ts_node_is_null(s); s = ts_node_prev_named_sibling(s)) {
        TSNode assign = ts_node_named_child(s, 0);
        if (!lf_pyfix_is(s, "expression_statement") || !lf_pyfix_is(assign, "assignment") ||
            !lf_node_text_eq(src, lf_pyfix_field(assign, "left"), p))
            continue;
        TSNode call = lf_pyfix_field(assign, "right");
        char *join = lf_xasprintf("%s.join", mod);
        int ok = lf_pyfix_call_is(src, call, join) && lf_pyfix_call_arg_count(call) == 2 &&
                 lf_node_text_eq(src, lf_pyfix_call_arg(call, 0), d) && !ts_node_is_null(lf_pyfix_call_arg(call, 1));
        free(join);
        return ok;
    }
    return 0;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, TSNode at, char **no_fix_reason) {
    const lf_source *src = ctx->src;
    if (src->lang != LF_LANG_PYTHON) {
        *no_fix_reason = lf_xstrdup("this fix rewrites Python only");
        return NULL;
    }
    TSNode call = at;
    TSNode callee = lf_pyfix_field(call, "function");
    char *mod = lf_pyfix_is(call, "call") ? path_module_of(src, callee) : NULL;
    TSNode target = lf_pyfix_call_arg(call, 0);
    if (!mod || lf_pyfix_call_arg_count(call) != 1 || !lf_pyfix_is_plain_reference(target)) {
        free(mod);
        *no_fix_reason = lf_xstrdup("the guard is not `os.path.realpath(<name>)` over a plain variable");
        return NULL;
    }
    lf_fix *fix = NULL;
    char *rp = lf_node_text(src, callee), *p = lf_node_text(src, target);
    char *d = NULL, *sep = NULL, *indent = NULL, *unit = NULL;
    /* realpath(P).startswith(realpath(D) + SEP), negated, as an if condition. */
    TSNode attr = ts_node_parent(call);
    TSNode sw = ts_node_parent(attr);
    TSNode neg = ts_node_parent(sw);
    while (lf_pyfix_is(neg, "parenthesized_expression"))
        neg = ts_node_parent(neg);
    TSNode cond = neg;
    while (lf_pyfix_is(ts_node_parent(cond), "parenthesized_expression"))
        cond = ts_node_parent(cond);
    TSNode ifs = ts_node_parent(cond);
    TSNode prefix = lf_pyfix_call_arg(sw, 0);
    TSNode dir_call = lf_pyfix_field(prefix, "left");
    TSNode dir = lf_pyfix_call_arg(dir_call, 0);
    TSNode sep_node = lf_pyfix_field(prefix, "right");
    int shape = lf_pyfix_is(attr, "attribute") && lf_node_text_eq(src, lf_pyfix_field(attr, "attribute"), "startswith") &&
                lf_pyfix_is(sw, "call") && lf_pyfix_call_arg_count(sw) == 1 && lf_pyfix_is(neg, "not_operator") &&
                lf_pyfix_is(ifs, "if_statement") && ts_node_eq(lf_pyfix_field(ifs, "condition"), cond) &&
                lf_pyfix_is(prefix, "binary_operator") && lf_node_text_eq(src, lf_pyfix_field(prefix, "operator"), "+") &&
                lf_pyfix_call_is(src, dir_call, rp) && lf_pyfix_call_arg_count(dir_call) == 1 &&
                lf_pyfix_is_plain_reference(dir) && lf_pyfix_is_plain_reference(sep_node);
    if (!shape) {
        *no_fix_reason = lf_xasprintf("the guard is not `if not %s(%s).startswith(%s(<dir>) + os.sep):`", rp, p, rp);
        goto done;
    }
    d = lf_node_text(src, dir);
    sep = lf_node_text(src, sep_node);
    if (!joined_onto(src, ifs, p, mod, d)) {
        *no_fix_reason = lf_xasprintf("`%s` is not assigned `%s.join(%s, <name>)` just before the guard, so a "
                                      "basename check could reject paths the guard accepts",
                                      p, mod, d);
        goto done;
    }
    if (!lf_node_text_eq(src, sep_node, "os.sep") && !lf_node_text_eq(src, sep_node, "os.path.sep")) {
        *no_fix_reason = lf_xasprintf("the directory prefix ends with `%s`, not `os.sep`", sep);
        goto done;
    }
    indent = lf_pyfix_line_indent(src, ts_node_start_byte(ifs));
    TSNode body = lf_pyfix_field(ifs, "consequence");
    TSNode first = ts_node_named_child(body, 0);
    unit = ts_node_is_null(first) ? lf_xstrdup("    ") : lf_pyfix_indent_unit(src, first);

    fix = lf_xcalloc(1, sizeof *fix);
    fix->title = lf_xstrdup("confine by basename; resolve the target only when it is a symlink");
    char *text = lf_xasprintf("(\n"
                              "%s%s%s.basename(%s) in (\"\", \".\", \"..\")\n"
                              "%s%sor %s.normpath(%s.dirname(%s)) != %s.normpath(%s)\n"
                              "%s%sor (\n"
                              "%s%s%s%s.islink(%s)\n"
                              "%s%s%sand not %s(%s).startswith(%s(%s) + %s)\n"
                              "%s%s)\n"
                              "%s)",
                              indent, unit, mod, p,                     /* basename */
                              indent, unit, mod, mod, p, mod, d,        /* dirname */
                              indent, unit,                             /* or ( */
                              indent, unit, unit, mod, p,               /* islink */
                              indent, unit, unit, rp, p, rp, d, sep,    /* realpath */
                              indent, unit,                             /* ) */
                              indent);
    lf_fix_add_edit(fix, ts_node_start_byte(cond), ts_node_end_byte(cond), text);
    free(text);
done:
    free(mod);
    free(rp);
    free(p);
    free(d);
    free(sep);
    free(indent);
    free(unit);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].at, &reqs[i].no_fix_reason);
}

const lf_fixer lf201_confined_path = {"lf201_confined_path", generate};
