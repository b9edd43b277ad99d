/* LF301's TS/JS site: a holder's release by name of a lock file the same
 * module creates exclusively, as the TS check (checks/lf301_ts.c) found it,
 * handed to the fix (fixes/lf301_ts_release.c), which renders edits and
 * recognises nothing.
 *
 * The shape the fix takes: one create and the release, both direct calls of
 * Node's fs (through the module's imports, not an injected fs object):
 *
 *     fs.writeFileSync(P, data, { flag: "wx" })       // or await fsp.writeFile(P, data, { flag: "wx" }),
 *                                                     //    fd = fs.openSync(P, "wx" [, mode])
 *     ...
 *     fs.unlinkSync(P)                                // or fs.rmSync(P[, opts]), await fsp.unlink(P) / fsp.rm(P[, opts])
 *
 * with P one path in one function, one `this.field` of one class, or one
 * module-level const, and nothing else in the module putting a file at P
 * (another create, a rename, link, symlink or copy onto it). Only the two
 * callees change, to the vendored lockrt.cjs's drop-ins (same arguments):
 * the create makes the same file with the same bytes and mode and remembers
 * its inode; the release removes P only while it names that inode.
 *
 * A stale takeover: a removal after the module judged the lock, where the
 * judgement is a direct read or stat of the same path by Node's own fs, in
 * the removal's function or in the module's own helper that function calls,
 * and runs before the removal on its way there (not in a branch the removal
 * can be reached without, nor in a callback):
 *
 *     const st = fs.statSync(P)                       // readFileSync(P[, o]), lstatSync, promise readFile/stat/lstat,
 *     if (Date.now() - st.mtimeMs > STALE)            //    or readLockPid(P) whose body reads its parameter
 *         fs.unlinkSync(P)                            // or rmSync, promise unlink/rm
 *
 * The judgement callees become the judging drop-ins (the same value and
 * errors, and the object judged remembered), the removal's the judged
 * removal (removes P only while it is still that object, unchanged). A
 * removal judged only by existence (existsSync, access), by a pid that was
 * not read from P, by its own create failing, or through another module, is
 * declined with the reason; so is one through a helper, of a lock directory,
 * in callback form, or through an injected fs. */
#ifndef LF301_TS_SITE_H
#define LF301_TS_SITE_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_tslock.h"

/* One callee the fix swaps for a drop-in of the vendored lockrt.cjs. */
typedef struct lf301_ts_edit {
    TSNode callee;
    const char *member; /* writeFileExclusiveSync, unlinkOwnedSync, statJudgedSync, unlinkJudgedSync, ... */
} lf301_ts_edit;

typedef struct lf301_ts_site {
    char *decline;         /* why the rewrite does not apply (malloc'd), or NULL */
    int takeover;          /* a stale takeover bound to its judgement (else a holder's release) */
    lf301_ts_edit *edits;  /* the callees to swap (malloc'd): the create or judgements, then the removal */
    size_t n_edits;
} lf301_ts_site;

/* Recognise the site of the reported removal event `ev` of `l` (never NULL). */
lf301_ts_site *lf301_ts_site_make(lf_tslock *l, const lf_tslock_event *ev);
/* A site the fix declines, for the reason why (malloc'd; the site owns it). */
lf301_ts_site *lf301_ts_site_declined(char *why);
/* Is the function a private helper of the module, every use of it one of the
 * `calls` calls the model saw: a top-level function declaration, not
 * exported, or a private method, whose name appears in the file only there
 * and at those calls (no `module.exports = { f }`, `export { f }`, or f
 * handed on as a callback)? */
int lf301_ts_private_helper(const lf_tssem *m, int32_t fn, size_t calls);
/* The same, where the function may be exported (`export function f`): the module's own calls are all
 * its uses in this file. */
int lf301_ts_module_helper(const lf_tssem *m, int32_t fn, size_t calls);
/* Adds other's edits to s (a callee both rewrite is rewritten once) when
 * neither declines, then frees other: one finding whose fix covers several
 * removals (a public helper's release and the judged calls of it). */
void lf301_ts_site_absorb(lf301_ts_site *s, lf301_ts_site *other);
void lf301_ts_site_free(void *site);

/* The module the fix imports its drop-ins from, beside the patched file. */
#define LF301_TS_VENDOR_MODULE "./lockrt.cjs"

#endif
