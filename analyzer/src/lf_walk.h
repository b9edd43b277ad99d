/* lf_walk: turn the paths given to `lockfix scan`/`fix` into a sorted list of
 * source files.
 *
 * Policy (documented in docs/output-formats.md and the README):
 *  - The files under each root are listed in byte order of their paths
 *    (strcmp, as `LC_ALL=C sort`), roots in argument order, so the file list,
 *    and therefore every report, is the same on every run.
 *  - Symbolic links met during the walk are never followed, neither to files nor
 *    to directories: a link inside the root points at something the walk visits
 *    anyway, a link leaving the root points at something outside the scan, and
 *    not following links makes loops impossible. A path named on the command
 *    line is followed (the user asked for it).
 *  - Only regular files are read; FIFOs, sockets and devices are reported and
 *    skipped without being opened, so the walk never blocks.
 *  - Pruned directories: .git .hg .svn node_modules build build-* dist
 *    __pycache__ .venv venv .tox, any directory holding a CMakeCache.txt, and
 *    whatever --exclude / config "exclude" globs name. A path named on the
 *    command line is scanned even if a default rule or glob would prune it
 *    (unless force_exclude).
 *  - A file is identified by (st_dev, st_ino): the same file reached twice
 *    (overlapping arguments, hard links) is scanned once, under the first path
 *    a depth-first walk in name order meets.
 */
#ifndef LF_WALK_H
#define LF_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "lf_config.h"
#include "lf_lang.h"

typedef struct lf_walk_file {
    char *path;      /* display path: the argument as given, joined with the walked names */
    char *open_path; /* what to open: equal to path, or the resolved target of a symlink argument */
    lf_lang lang;
    uint64_t size; /* bytes when walked (0 if the stat failed): the scan starts the largest files first */
    /* The rest of the walk's stat, for the result cache's stat match (lf_cache.h):
     * valid when has_stat. */
    int has_stat;
    uint64_t dev, ino;
    int64_t mtime_ns, ctime_ns;
} lf_walk_file;

typedef enum lf_walk_skip_kind {
    LF_WALK_NOT_REGULAR, /* FIFO, socket, device: never opened */
    LF_WALK_UNSUPPORTED, /* named on the command line, no grammar for its extension */
    LF_WALK_UNREADABLE   /* a directory that cannot be opened or read */
} lf_walk_skip_kind;

typedef struct lf_walk_skip {
    char *path;
    lf_walk_skip_kind kind;
    char *reason; /* "not a regular file", "unsupported file type", "cannot open directory: ..." */
} lf_walk_skip;

typedef struct lf_walk_options {
    char *const *excludes; /* --exclude globs, matched against the path relative to the root
                              and against the display path */
    size_t n_excludes;
    const lf_config *config; /* its "exclude" globs are relative to the config file's directory */
    int force_exclude;       /* apply globs to paths named on the command line too */
    int jobs;                /* threads walking a directory (at most LF_WALK_MAX_THREADS);
                                0 or 1: the caller's thread alone. The result is the same. */
} lf_walk_options;

#define LF_WALK_MAX_THREADS 16

typedef struct lf_walk_result {
    lf_walk_file *files;
    size_t n_files, cap_files;
    lf_walk_skip *skipped;
    size_t n_skipped, cap_skipped;
    /* (dev, ino) of every file added, open addressing; private. */
    struct lf_walk_seen {
        uint64_t *slots; /* cap pairs */
        size_t cap, len;
    } seen;
} lf_walk_result;

/* Add the files under `root` (a directory or a file). Returns 1 on success, 0 when
 * root itself cannot be scanned (missing, unreadable): *err says why (malloc'd). */
int lf_walk_add(lf_walk_result *res, const char *root, const lf_walk_options *opts, char **err);
void lf_walk_free(lf_walk_result *res);

/* 1 when a directory name is pruned by the built-in rules (not the CMakeCache check). */
int lf_walk_default_pruned(const char *name);

#endif
