/* lf_fix: turn the safe fixes offered for one file into its fixed text, and
 * write fixed files back without ever losing a concurrent edit.
 *
 * A fix set is refused as a whole (error naming the rules and the file) when two
 * edits overlap or when the result no longer parses: the engine never emits a
 * broken patch. Applying to an already fixed file finds no fixes, because the
 * rules do not fire on what the generators produce.
 */
#ifndef LF_FIX_H
#define LF_FIX_H

#include <stddef.h>

#include "lf_finding.h"
#include "lf_source.h"
#include "lf_util.h"

typedef struct lf_fixed_file {
    char *text;              /* fixed file as it goes to disk (in the file's encoding, behind its
                                byte-order mark), NUL-terminated; NULL when no fix applied */
    size_t len;
    size_t n_fixed;          /* findings whose fix is in text */
    char **rule_ids;         /* distinct ids of the applied fixes, sorted (borrowed from the rules) */
    size_t n_rule_ids;
    lf_new_file *new_files;  /* distinct files the fixes create, paths relative to the
                                fixed file's directory, sorted by path */
    size_t n_new_files;
} lf_fixed_file;

/* 1 when `f` carries a fix that `lockfix fix` applies: a generated fix of a safe
 * rule, or of an unsafe rule once lf_fix_allow_unsafe(1) was called. */
int lf_fix_applicable(const lf_finding *f);
/* 1 when `f` carries a generated fix of an unsafe rule (LF_FIX_UNSAFE), applied
 * or not. */
int lf_fix_is_unsafe(const lf_finding *f);
/* `lockfix fix --unsafe-fixes`: let lf_fix_applicable take the unsafe fixes too.
 * Process-wide, set once by the command line before any fix is applied (the
 * default, 0, is what every other caller wants: scan, the tests, the fuzzers). */
void lf_fix_allow_unsafe(int allow);
/* Was it? A generator offering an unsafe fix in place of a safe one (the
 * protocol swap for an LF301/LF303 finding) asks, and the result cache keys on it. */
int lf_fix_unsafe_allowed(void);

/* Apply every applicable fix among findings[0..n) to src. Edits offered by several
 * findings byte for byte are applied once. Returns 1 (out filled, possibly with
 * nothing to apply) or 0 with *err (malloc'd, "<path>: ...") when the set is refused:
 * overlapping edits, an edit outside the file, a result that does not parse, or a
 * new file path that is not a plain relative path. */
int lf_fix_apply(const lf_source *src, const lf_finding *findings, size_t n, lf_fixed_file *out, char **err);
void lf_fixed_file_free(lf_fixed_file *f);
/* Fold a second round of fixes, applied to into->text, into `into`: its text
 * becomes later's, the applied rules and the new files are united, `later` is
 * freed. Returns 1, or 0 with *err (malloc'd) when the two rounds create one
 * path with different contents (`into` is then unchanged, `later` kept). */
int lf_fixed_file_merge(lf_fixed_file *into, lf_fixed_file *later, char **err);

/* Why the edits of `fix` cannot be written back to src's file in its encoding
 * (malloc'd: a character the encoding cannot hold, a UTF-16 file), or NULL when
 * they can. The engine declines such a fix with this reason. */
char *lf_fix_unwritable(const lf_source *src, const lf_fix *fix);

/* 1 when `path` is still exactly the file src read (dev, ino, size, mtime and
 * content) and has a single link; else 0 with *err ("<path>: not written: why"). */
int lf_fix_check_unchanged(const char *path, const lf_source *src, char **err);

/* Replace the file at `path` (the file src was read from) by text, atomically: a
 * unique temp in the same directory with src's mode and owner, fsync, then an
 * exchange of the two names (renameat2 RENAME_EXCHANGE). What comes out is
 * checked, once no other process holds it open, to be byte for byte what src
 * read; otherwise the names are exchanged back and the file keeps the edit
 * (lf_fix.c explains the protocol). The temp is registered with lf_tempfile, so
 * a signal never leaves it behind. Returns 1, or 0 with *err (malloc'd) and the
 * file holding whatever was last written to it by others. */
int lf_fix_write(const char *path, const lf_source *src, const char *text, size_t len, char **err);

/* Create `path` with content (O_EXCL, mode 0644 before umask, missing parent
 * directories created). Returns 2 when it created the file; an existing file
 * with exactly this content is left alone (returns 1: nothing to do); any other
 * existing file is an error (0, *err). */
int lf_fix_create(const char *path, const char *content, size_t len, char **err);

/* The new files of a whole run, keyed by final path (the fixed file's directory
 * joined with the fix's relative path): two fixed files vendoring the same file
 * into one directory create it once; two contents for one path are an error. */
typedef struct lf_new_file_set {
    lf_new_file *items; /* path = final path, in insertion order (walk order) */
    size_t len;
} lf_new_file_set;

/* Add ff's new files, relative to the directory of fixed_path. Returns 1, or 0 with
 * *err (malloc'd) naming the path created twice with different content; the
 * files added before the conflict stay in the set. */
int lf_new_file_set_add(lf_new_file_set *set, const char *fixed_path, const lf_fixed_file *ff, char **err);
/* Append the creation diff of every file in the set ("--- /dev/null"). */
void lf_new_file_set_diff(const lf_new_file_set *set, lf_strbuf *out);
void lf_new_file_set_free(lf_new_file_set *set);

/* Test seam: when set, called by lf_fix_write after the temp file is complete and
 * before the final unchanged-check and rename (lets a test change the file there). */
extern void (*lf_fix_before_commit_hook)(const char *path);
/* Test seam: called after the last unchanged-check, right before the exchange:
 * an edit made there is only caught by the check of what came out. */
extern void (*lf_fix_before_exchange_hook)(const char *path);
/* Test seam: when set, the exchange takes the path used where the filesystem
 * has no RENAME_EXCHANGE (a third name, link and two renames). */
extern int lf_fix_emulate_exchange;

#endif
