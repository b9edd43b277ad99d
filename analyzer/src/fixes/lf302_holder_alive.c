/* LF302 fix, an UNSAFE fix, TS/JS and Python. TS/JS: the check (checks/lf302_ts.c) hands
 * over an age test of a lock file that records its holder's pid
 * (checks/lf302_ts_site.h). The test gains "and its holder is gone":
 *
 *     Date.now() - st.mtimeMs > staleMs    ->  (Date.now() - st.mtimeMs > staleMs && !holderAliveSync(LOCK))
 *     Date.now() - st.mtimeMs <= staleMs   ->  (Date.now() - st.mtimeMs <= staleMs || holderAliveSync(LOCK))
 *
 * with holderAliveSync from the vendored lockrt.cjs (runtime/node/vendor/,
 * copied beside the module with lockrt.d.cts for TypeScript), imported in
 * the module's style through lf_tsimport. It reads the pid the lock records
 * and answers true only for a live process that started before the lock was
 * last written (Linux; elsewhere, and whenever it cannot tell, false: the age
 * decides, as before). Unsafe in ruff's sense: a holder that is alive is
 * never broken any more, so a hung one keeps the lock until it exits, where
 * the age used to free it.
 *
 * Python: the check (checks/lf302_mtime_staleness.c) hands over an age test
 * of the same kind (checks/lf302_py_site.h), which gains
 * `and not lockrt.holder_alive(LOCK)` (or `or lockrt.holder_alive(LOCK)`),
 * from the vendored binding (runtime/python/lockrt.py), imported as LF301's
 * fix imports it. */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf301_ts_site.h"
#include "../checks/lf302_py_site.h"
#include "../checks/lf302_ts_site.h"
#include "../checks/lf_pyshort.h"
#include "lf_check.h"
#include "lf_pylock.h"
#include "lf_pysem.h"
#include "lf_sem.h"
#include "lf_tree.h"
#include "lf_pyimport.h"
#include "lf_tsfix.h"
#include "lf_tsimport.h"
#include "lf_util.h"
#include "lf_vendor.h"

/* Spell (and import) holderAliveSync in every fixable site's fix
 * (lf_tsimport_ref_each). */
static char *spell_all(lf_tsimporter *im, lf_tssem *m, lf_fix_request *reqs, size_t n, size_t self, char **why) {
    lf_tsimport_use *uses = lf_xcalloc(n ? n : 1, sizeof *uses);
    for (size_t j = 0; j < n; j++) {
        const lf302_ts_site *t = reqs[j].site;
        if (t && !t->decline)
            uses[j] = (lf_tsimport_use){lf_tssem_scope_of(m, t->cmp), ts_node_start_byte(t->cmp), "holderAliveSync"};
    }
    char *mine = lf_tsimport_ref_each(im, uses, n, self, LF301_TS_VENDOR_MODULE, why);
    free(uses);
    return mine;
}

/* Spell (and import) fs's writeSync for every site whose fix makes the lock
 * record the pid through the descriptor its create keeps. */
static char *spell_write(lf_tsimporter *im, lf_tssem *m, lf_fix_request *reqs, size_t n, size_t self, char **why) {
    lf_tsimport_use *uses = lf_xcalloc(n ? n : 1, sizeof *uses);
    for (size_t j = 0; j < n; j++) {
        const lf302_ts_site *t = reqs[j].site;
        if (t && !t->decline && t->record == LF302_TS_RECORD_FD)
            uses[j] = (lf_tsimport_use){lf_tssem_scope_of(m, t->record_at), ts_node_end_byte(t->record_at),
                                        "writeSync"};
    }
    char *mine = lf_tsimport_ref_each(im, uses, n, self, "fs", why);
    free(uses);
    return mine;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n, size_t self, char **why) {
    const lf302_ts_site *s = reqs[self].site;
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    const lf_source *src = ctx->src;
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    lf_tsimporter *im = lf_tsimport_begin(m, src->path, fix);
    char *alive = spell_all(im, m, reqs, n, self, why);
    char *write = alive && s->record == LF302_TS_RECORD_FD ? spell_write(im, m, reqs, n, self, why) : NULL;
    lf_tsimport_end(im);
    if (!alive || (s->record == LF302_TS_RECORD_FD && !write)) {
        free(alive);
        lf_fix_free(fix);
        return NULL;
    }
    /* A lock that recorded no pid records its holder's where it is created
     * (lf302_ts_site.h): the same edit in every site's fix, applied once. */
    if (s->record == LF302_TS_RECORD_DATA) {
        lf_fix_add_edit(fix, ts_node_start_byte(s->record_at), ts_node_end_byte(s->record_at), "String(process.pid)");
    } else if (s->record == LF302_TS_RECORD_FD || s->record == LF302_TS_RECORD_HANDLE) {
        /* after the statement that keeps the descriptor (FileHandle) */
        uint32_t end = ts_node_end_byte(s->record_at);
        char *indent = lf_tree_line_indent(src, ts_node_start_byte(s->record_at));
        const char *semi = end > 0 && src->text[end - 1] == ';' ? ";" : "";
        uint32_t fs = ts_node_start_byte(s->record_fd), fe = ts_node_end_byte(s->record_fd);
        char *text = s->record == LF302_TS_RECORD_FD
                         ? lf_xasprintf("\n%s%s(%.*s, String(process.pid))%s", indent, write, (int)(fe - fs),
                                        src->text + fs, semi)
                         : lf_xasprintf("\n%sawait %.*s.writeFile(String(process.pid))%s", indent, (int)(fe - fs),
                                        src->text + fs, semi);
        lf_fix_add_edit(fix, end, end, text);
        free(text);
        free(indent);
    }
    free(write);
    uint32_t cs = ts_node_start_byte(s->cmp), ce = ts_node_end_byte(s->cmp);
    uint32_t ps = ts_node_start_byte(s->path), pe = ts_node_end_byte(s->path);
    /* in parentheses of its own (`if (...)`, `(...)`) it needs no more */
    TSNode parent = ts_node_parent(s->cmp);
    const char *open = lf_tree_is(parent, "parenthesized_expression") ? "" : "(";
    const char *close = *open ? ")" : "";
    char *text = s->stale_when_true
                     ? lf_xasprintf("%s%.*s && !%s(%.*s)%s", open, (int)(ce - cs), src->text + cs, alive,
                                    (int)(pe - ps), src->text + ps, close)
                     : lf_xasprintf("%s%.*s || %s(%.*s)%s", open, (int)(ce - cs), src->text + cs, alive,
                                    (int)(pe - ps), src->text + ps, close);
    lf_fix_add_edit(fix, cs, ce, text);
    free(text);
    free(alive);
    lf_vendor_attach_node(fix, src->path);
    fix->title = lf_xstrdup("judge the lock stale only when the holder it records is gone too (vendored lockrt.cjs: "
                            "holderAliveSync reads the pid in the lock; a live process that started before the lock "
                            "was last written is its holder)");
    return fix;
}

static void generate_py(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    lf_pysem *m = lf_filesem_python(ctx->sem);
    const lf_source *src = ctx->src;
    lf_vendor_plan plan;
    lf_vendor_plan_python(src->path, ctx->runtime_dir, &plan);
    const char *import_line = lf_vendor_python_binds_lockrt(m) ? "" : plan.import_line;
    for (size_t i = 0; i < n; i++) {
        const lf302_py_site *s = reqs[i].site;
        if (lf_fix_site_declines(s, s ? s->decline : NULL, &reqs[i].no_fix_reason))
            continue;
        if (!lf_pylock_lockrt_free_at(m, s->cmp)) {
            reqs[i].no_fix_reason =
                lf_xasprintf("the name `lockrt` is bound to something other than the vendored binding at line %u",
                             lf_py_line(src, s->cmp));
            continue;
        }
        uint32_t cs = ts_node_start_byte(s->cmp), ce = ts_node_end_byte(s->cmp);
        uint32_t ps = ts_node_start_byte(s->path), pe = ts_node_end_byte(s->path);
        /* in parentheses of its own it needs no more; a test spread over
         * lines stays in brackets, where its line breaks mean nothing */
        const char *open = lf_tree_is(ts_node_parent(s->cmp), "parenthesized_expression") ? "" : "(";
        const char *close = *open ? ")" : "";
        char *text = lf_xasprintf("%s%.*s %s lockrt.holder_alive(%.*s)%s", open, (int)(ce - cs), src->text + cs,
                                  s->stale_when_true ? "and not" : "or", (int)(pe - ps), src->text + ps, close);
        lf_fix *fix = lf_xcalloc(1, sizeof *fix);
        lf_fix_add_edit(fix, cs, ce, text);
        free(text);
        if (!ts_node_is_null(s->record_stmt)) {
            /* the lock records its holder's pid where it is created: the same
             * edit in every site's fix of the file, applied once */
            lf_pyimporter *im = lf_pyimport_begin(m, fix);
            uint32_t end = ts_node_end_byte(s->record_stmt);
            int32_t scope = lf_pysem_scope_of(m, s->record_stmt);
            /* a `with` writes through its file object: no os.write to spell */
            char *write = s->record_with ? NULL : lf_pyimport_ref(im, scope, end, "os.write", &reqs[i].no_fix_reason);
            char *getpid = s->record_with || write ? lf_pyimport_ref(im, scope, end, "os.getpid", &reqs[i].no_fix_reason)
                                                   : NULL;
            lf_pyimport_end(im);
            if ((!s->record_with && !write) || !getpid) {
                free(write);
                free(getpid);
                lf_fix_free(fix);
                continue;
            }
            char *indent = lf_tree_line_indent(src, ts_node_start_byte(s->record_stmt));
            uint32_t fs = ts_node_start_byte(s->record_fd), fe = ts_node_end_byte(s->record_fd);
            char *rec;
            if (s->record_with) {
                /* first in the with's body, at its indentation */
                uint32_t at = lf_tree_line_start(src, ts_node_start_byte(s->record_stmt));
                rec = lf_xasprintf("%s%.*s.write(str(%s()))\n", indent, (int)(fe - fs), src->text + fs, getpid);
                lf_fix_add_edit(fix, at, at, rec);
            } else {
                rec = lf_xasprintf("\n%s%s(%.*s, str(%s()).encode())", indent, write, (int)(fe - fs),
                                   src->text + fs, getpid);
                lf_fix_add_edit(fix, end, end, rec);
            }
            free(rec);
            free(indent);
            free(write);
            free(getpid);
        }
        if (*import_line)
            lf_fix_add_import(fix, lf_vendor_python_import_at(m), import_line);
        lf_vendor_attach(fix, &plan);
        fix->title = lf_xstrdup("judge the lock stale only when the holder it records is gone too (vendored "
                                "lockrt.py: holder_alive reads the pid in the lock; a live process that started "
                                "before the lock was last written is its holder)");
        reqs[i].fix = fix;
    }
    lf_vendor_plan_free(&plan);
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    if (ctx->src->lang == LF_LANG_PYTHON) {
        generate_py(ctx, reqs, n);
        return;
    }
    /* an age inside a module's own lock protocol: the whole protocol is
     * swapped for lockrt's (lf_tsswap.c), which takes the age with it */
    char **swap_why = lf_xcalloc(n ? n : 1, sizeof *swap_why);
    size_t swapped = 0;
    for (size_t i = 0; i < n; i++) {
        reqs[i].fix = lf_tsswap_fix(ctx, reqs[i].at, &swap_why[i]);
        swapped += reqs[i].fix != NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (reqs[i].fix)
            continue;
        if (swapped) {
            /* the swap's import and this fix's would not be one edit */
            reqs[i].no_fix_reason = lf_xstrdup("another finding's fix swaps a lock protocol of this file for "
                                               "lockrt's: run the fix again once it is in");
        } else {
            reqs[i].fix = generate_one(ctx, reqs, n, i, &reqs[i].no_fix_reason);
            if (!reqs[i].fix && swap_why[i]) {
                char *both = lf_xasprintf("%s; %s", reqs[i].no_fix_reason ? reqs[i].no_fix_reason : "no fix",
                                          swap_why[i]);
                free(reqs[i].no_fix_reason);
                reqs[i].no_fix_reason = both;
            }
        }
        free(swap_why[i]);
    }
    free(swap_why);
}

const lf_fixer lf302_holder_alive = {"lf302_holder_alive", generate, 0}; /* vendors lockrt: reads the package around the file */
