/* LF301 fix for TS/JS: the check (checks/lf301_ts.c) hands over a holder's
 * release by name of a lock file the module creates exclusively
 * (checks/lf301_ts_site.h). Two callees change, nothing else:
 *
 *     fs.writeFileSync(LOCK, pid, { flag: "wx" })   ->  writeFileExclusiveSync(LOCK, pid, { flag: "wx" })
 *     fs.unlinkSync(LOCK)                           ->  unlinkOwnedSync(LOCK)
 *     fs.mkdirSync(LOCK_DIR) ... fs.rmdirSync(LOCK_DIR) ->  mkdirExclusiveSync ... rmdirOwnedSync
 *
 * from the vendored lockrt.cjs (runtime/node/vendor/, copied beside the
 * module, with lockrt.d.cts for TypeScript), imported in the module's style
 * through lf_tsimport. The create opens, writes and closes as before (same
 * flag, mode and bytes: readers of the pid see what they saw) and keeps a
 * descriptor on the inode it made; the release removes the path only while it
 * still names that inode, so a holder paused past a stale takeover leaves its
 * successor's lock in place. A missing file fails as the fs call did; a
 * release with no create in this process removes by name, as before.
 *
 * A stale takeover (the site's `takeover`): the judgement and the removal
 * change instead,
 *
 *     fs.statSync(LOCK)      ->  statJudgedSync(LOCK)      (readFileSync -> readFileJudgedSync, ...)
 *     fs.unlinkSync(LOCK)    ->  unlinkJudgedSync(LOCK)
 *
 * so the removal deletes the lock only while it is the object that was
 * judged, unchanged: a successor's lock created in between, or a holder's
 * refreshed one, stays, and the module's next exclusive create fails with
 * EEXIST into its own "held" path. */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf301_ts_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_sem.h"
#include "lf_tsfix.h"
#include "lf_tsimport.h"
#include "lf_util.h"
#include "lf_vendor.h"

/* Spell (and import) every drop-in the file's fixable sites use, in each
 * site's fix: the import edits of all the fixes are then byte-identical and
 * land once, as one line binding each name once. spelled[k]: the spelling of
 * the site's own edit k (malloc'd). */
static int spell_all(lf_tsimporter *im, lf_tssem *m, lf_fix_request *reqs, size_t n, size_t self, char **spelled,
                     char **why) {
    for (size_t j = 0; j < n; j++) {
        const lf301_ts_site *t = reqs[j].site;
        if (!t || t->decline)
            continue;
        for (size_t k = 0; k < t->n_edits; k++) {
            TSNode c = t->edits[k].callee;
            char *r = lf_tsimport_ref(im, lf_tssem_scope_of(m, c), ts_node_start_byte(c), LF301_TS_VENDOR_MODULE,
                                      t->edits[k].member, why);
            if (!r)
                return 0;
            if (j == self)
                spelled[k] = r;
            else
                free(r);
        }
    }
    return 1;
}

static void free_spelled(char **spelled, size_t n) {
    for (size_t k = 0; k < n; k++)
        free(spelled[k]);
    free(spelled);
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n, size_t self, char **why) {
    const lf301_ts_site *s = reqs[self].site;
    if (lf_fix_site_declines(s, s ? s->decline : NULL, why))
        return NULL;
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    lf_tsimporter *im = lf_tsimport_begin(m, ctx->src->path, fix);
    char **spelled = lf_xcalloc(s->n_edits ? s->n_edits : 1, sizeof *spelled);
    int ok = spell_all(im, m, reqs, n, self, spelled, why);
    lf_tsimport_end(im);
    if (!ok) {
        free_spelled(spelled, s->n_edits);
        lf_fix_free(fix);
        return NULL;
    }
    /* the create (or a judgement) shared by several removals of the lock gets
     * the same edit in each of their fixes: byte-identical, applied once */
    for (size_t k = 0; k < s->n_edits; k++)
        lf_fix_add_edit(fix, ts_node_start_byte(s->edits[k].callee), ts_node_end_byte(s->edits[k].callee),
                        spelled[k]);
    lf_vendor_attach_node(fix, ctx->src->path);
    fix->title = lf_xstrdup(s->takeover
                                ? "take over the lock only while it is the file that was judged stale (vendored "
                                  "lockrt.cjs: the read or stat is unchanged and remembers what it judged, the "
                                  "removal is bound to it)"
                                : "release the lock only while it is the file this process created (vendored "
                                  "lockrt.cjs: the create is unchanged and remembered, the removal is bound to its "
                                  "inode)");
    free_spelled(spelled, s->n_edits);
    return fix;
}

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    if (lf_filesem_python(ctx->sem)) {
        lf301_py_generate(ctx, reqs, n);
        return;
    }
    const void **saved = lf_xcalloc(n ? n : 1, sizeof *saved);
    lf_tsswap_take_over(ctx, reqs, n, saved);
    for (size_t i = 0; i < n; i++)
        if (saved[i] == reqs[i].site) /* not taken by the protocol swap */
            reqs[i].fix = generate_one(ctx, reqs, n, i, &reqs[i].no_fix_reason);
    for (size_t i = 0; i < n; i++)
        reqs[i].site = saved[i];
    free(saved);
}

const lf_fixer lf301_release_owned = {"lf301_release_owned", generate, 0}; /* vendors lockrt: reads the package around the file */
