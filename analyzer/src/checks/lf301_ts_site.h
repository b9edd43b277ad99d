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
 * its inode; the release removes P only while it names that inode. A removal
 * after a judgement (a stale takeover), through a helper, of a directory, in
 * callback form, or through an injected fs is declined with the reason. */
#ifndef LF301_TS_SITE_H
#define LF301_TS_SITE_H

#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_tslock.h"

typedef struct lf301_ts_site {
    char *decline;              /* why the rewrite does not apply (malloc'd), or NULL */
    TSNode remove_callee;       /* replaced by remove_member */
    const char *remove_member;  /* unlinkOwnedSync, rmOwnedSync, unlinkOwned, rmOwned */
    TSNode create_callee;       /* replaced by create_member */
    const char *create_member;  /* writeFileExclusiveSync, writeFileExclusive, openExclusiveSync */
} lf301_ts_site;

/* Recognise the site of the reported removal event `ev` of `l` (never NULL). */
lf301_ts_site *lf301_ts_site_make(lf_tslock *l, const lf_tslock_event *ev);
void lf301_ts_site_free(void *site);

/* The module the fix imports its drop-ins from, beside the patched file. */
#define LF301_TS_VENDOR_MODULE "./lockrt.cjs"

#endif
