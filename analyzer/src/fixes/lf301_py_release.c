/* LF301 fix for Python: the check (checks/lf301_lock_removal.c) hands over a
 * holder's release by name of a lock file the module creates exclusively
 * (checks/lf301_py_site.h). The creates and the release become the vendored
 * binding's drop-ins, with the same arguments:
 *
 *     os.open(LOCK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  ->  lockrt.open_exclusive(LOCK, ...)
 *     open(LOCK, "x")                                       ->  lockrt.open_exclusive_file(LOCK, "x")
 *     os.remove(LOCK) / os.unlink(LOCK)                     ->  lockrt.unlink_owned(LOCK)
 *     LOCK.unlink(missing_ok=True)                          ->  lockrt.unlink_owned(LOCK, missing_ok=True)
 *
 * The create makes the same file (flags, mode, bytes: readers of the owner
 * record see what they saw) and remembers its inode; the release removes the
 * path only while it still names that inode, so a holder paused past a stale
 * takeover leaves its successor's lock in place. A missing file raises as the
 * removal did; a release in a process that created nothing there removes by
 * name, as before. The binding is vendored and imported like LF101's. */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf301_py_site.h"
#include "lf_check.h"
#include "lf_fix.h"
#include "lf_pyfix.h"
#include "lf_pysem.h"
#include "lf_sem.h"
#include "lf_tree.h"
#include "lf_util.h"
#include "lf_vendor.h"

/* `P.unlink(args)` -> `lockrt.unlink_owned(P, args)` (`P.stat()` ->
 * `lockrt.stat_judged(P)`, ...): the receiver's and the arguments' own text,
 * in their order (each evaluated once, as before). */
static char *method_call(const lf_source *src, TSNode call, const char *member, const char *extra) {
    TSNode fn = lf_tree_unparen(lf_tree_field(call, "function"));
    TSNode recv = lf_tree_field(fn, "object");
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t rs = ts_node_start_byte(recv), re = ts_node_end_byte(recv);
    uint32_t as = UINT32_MAX, ae = 0; /* from the first argument to the last */
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "comment"))
            continue;
        if (as == UINT32_MAX)
            as = ts_node_start_byte(a);
        ae = ts_node_end_byte(a);
    }
    if (as == UINT32_MAX)
        return lf_xasprintf("lockrt.%s(%.*s%s)", member, (int)(re - rs), src->text + rs, extra);
    return lf_xasprintf("lockrt.%s(%.*s, %.*s%s)", member, (int)(re - rs), src->text + rs, (int)(ae - as),
                        src->text + as, extra);
}

/* Where keyword arguments go in a call: right after its last argument
 * (before a trailing comma or comment, so `f(a,)` stays valid). */
static uint32_t after_last_argument(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    uint32_t at = ts_node_start_byte(args) + 1;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!lf_tree_is(a, "comment"))
            at = ts_node_end_byte(a);
    }
    return at;
}

void lf301_py_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    lf_pysem *m = lf_filesem_python(ctx->sem);
    lf_vendor_plan plan;
    lf_vendor_plan_python(ctx->src->path, ctx->runtime_dir, &plan);
    const char *import_line = lf_vendor_python_binds_lockrt(m) ? "" : plan.import_line;
    for (size_t i = 0; i < n; i++) {
        const lf301_py_site *s = reqs[i].site;
        if (lf_fix_site_declines(s, s ? s->decline : NULL, &reqs[i].no_fix_reason))
            continue;
        lf_fix *fix = lf_xcalloc(1, sizeof *fix);
        /* a create shared by several releases of the lock gets the same edit in
         * each of their fixes: byte-identical, applied once */
        for (size_t k = 0; k < s->n_edits; k++) {
            const lf301_py_edit *e = &s->edits[k];
            if (e->method) {
                char *text = method_call(ctx->src, e->call, e->member, e->args ? e->args : "");
                lf_fix_add_edit(fix, ts_node_start_byte(e->call), ts_node_end_byte(e->call), text);
                free(text);
            } else {
                TSNode fn = lf_tree_unparen(lf_tree_field(e->call, "function"));
                char *text = lf_xasprintf("lockrt.%s", e->member);
                lf_fix_add_edit(fix, ts_node_start_byte(fn), ts_node_end_byte(fn), text);
                free(text);
                if (e->args && *e->args) {
                    uint32_t at = after_last_argument(e->call);
                    lf_fix_add_edit(fix, at, at, e->args);
                }
            }
        }
        if (*import_line)
            lf_fix_add_import(fix, lf_vendor_python_import_at(m), import_line);
        lf_vendor_attach(fix, &plan);
        fix->title = lf_xstrdup(s->flocked
                                    ? "remove the flock'ed lock file only while holding it, and lock what the path "
                                      "names after a removal (vendored lockrt.py: each lock call checks the path "
                                      "still names the file it locked, the removal takes the lock first)"
                                : s->takeover
                                    ? "take over the lock only while it is the file that was judged stale "
                                      "(vendored lockrt.py: the stat or read is unchanged and remembers what it "
                                      "judged, the removal is bound to it)"
                                    : "release the lock only while it is the file this process created (vendored "
                                      "lockrt.py: the create is unchanged and remembered, the removal is bound to "
                                      "its inode)");
        reqs[i].fix = fix;
    }
    lf_vendor_plan_free(&plan);
}
