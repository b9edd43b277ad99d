/* LF201 fix: the check (checks/lf201_realpath_missing.c) hands over the call
 * that resolves a confinement check's target (checks/lf201_site.h). Only that
 * call changes; the comparison around it stays as it was, whatever its
 * spelling. realpath(P) becomes
 *
 *     (
 *         os.path.realpath(P)
 *         if os.path.lexists(P)
 *         else os.path.normpath(os.path.join(os.path.realpath(os.path.dirname(P)), os.path.basename(P)))
 *     )
 *
 * An existing target (a file, or a symlink, dangling or not) is resolved as
 * before, so a symlink that leaves the directory is still rejected. A missing
 * one is resolved through its directory, which exists, and its last name is
 * joined lexically: what POSIX realpath() returns for it, computed without
 * asking the platform to resolve a component that is not there. So the guard
 * accepts and rejects what it did wherever realpath() resolved missing
 * targets, nested names (`sessions/<id>.json`) included, and no longer
 * rejects a missing file whose directory sits behind a symlink where it did
 * not. P.resolve() gets the same treatment, the missing case wrapped in
 * pathlib.Path. Names are spelled through the module's own imports
 * (fixes/lf_pyimport.h). */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf201_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_pyimport.h"
#include "lf_pysem.h"
#include "lf_util.h"

static lf_fix *generate_one(const lf_fix_ctx *ctx, const lf201_site *s, char **why) {
    lf_pysem *m = lf_filesem_python(ctx->sem);
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    const lf_source *src = ctx->src;
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    uint32_t at = ts_node_start_byte(s->call);
    static const char *const names[] = {"os.path.lexists", "os.path.normpath", "os.path.join", "os.path.realpath",
                                        "os.path.dirname", "os.path.basename", "pathlib.Path"};
    enum { LEX, NORM, JOIN, REAL, DIR, BASE, PATH, N_NAMES };
    char *ref[N_NAMES] = {0};
    lf_pyimporter *im = lf_pyimport_begin(m, fix);
    for (int i = 0; i < N_NAMES; i++) {
        if (i == PATH && s->kind != LF201_RESOLVE)
            continue;
        ref[i] = lf_pyimport_ref(im, s->scope, at, names[i], why);
        if (!ref[i]) {
            lf_pyimport_end(im);
            lf_fix_free(fix);
            fix = NULL;
            goto done;
        }
    }
    lf_pyimport_end(im);
    char *call = lf_node_text(src, s->call);
    char *p = lf_node_text(src, s->target);
    char *indent = lf_pyfix_line_indent(src, at);
    TSNode stmt = s->call;
    while (!ts_node_is_null(ts_node_parent(stmt)) && !lf_pyfix_is(ts_node_parent(stmt), "block") &&
           !lf_pyfix_is(ts_node_parent(stmt), "module"))
        stmt = ts_node_parent(stmt);
    char *unit = lf_pyfix_indent_unit(src, stmt);
    char *missing = lf_xasprintf("%s(%s(%s(%s(%s)), %s(%s)))", ref[NORM], ref[JOIN], ref[REAL], ref[DIR], p, ref[BASE], p);
    if (s->kind == LF201_RESOLVE) {
        char *wrapped = lf_xasprintf("%s(%s)", ref[PATH], missing);
        free(missing);
        missing = wrapped;
    }
    char *text = lf_xasprintf("(\n%s%s%s\n%s%sif %s(%s)\n%s%selse %s\n%s)", indent, unit, call, indent, unit, ref[LEX], p,
                              indent, unit, missing, indent);
    fix->title = lf_xstrdup("resolve the target only when it exists; else resolve its directory and join the name");
    lf_fix_add_edit(fix, ts_node_start_byte(s->call), ts_node_end_byte(s->call), text);
    free(text);
    free(missing);
    free(unit);
    free(indent);
    free(p);
    free(call);
done:
    for (int i = 0; i < N_NAMES; i++)
        free(ref[i]);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    for (size_t i = 0; i < n; i++)
        reqs[i].fix = generate_one(ctx, reqs[i].site, &reqs[i].no_fix_reason);
}

const lf_fixer lf201_confined_path = {"lf201_confined_path", generate, 1};
