/* lf_deps: what a file's analysis looked at besides the file itself.
 *
 * Checks read only the file they analyze, but some fix generators look around
 * it: lf_vendor sniffs the package's import style and whether lockrt is
 * vendored there already; LF101's fix searches the project for other modules
 * that still name the conditional import it would drop. What they decide
 * (the patch, or why it declines) is in the report, so `scan`'s result cache
 * (lf_cache.h) may keep such a file's result only together with the state of
 * everything they looked at, and must analyze the file again once any of it
 * changes.
 *
 * Every look outside the analyzed file goes through the wrappers below, which
 * record the object's lstat before it is read (a write after the record
 * changes the stat, so the next scan sees it; an object absent is recorded as
 * absent, so one that appears is seen too). A listed directory's mtime and
 * ctime change when an entry is added, removed or renamed. Recording is per
 * thread: the scan worker that analyzes a file collects what that analysis
 * looked at (lf_deps_begin / lf_deps_end); with no collector the wrappers
 * only do the call. tests/engine/check_fix_file_access.py keeps checks/, fixes/ and sem/
 * free of direct calls. */
#ifndef LF_DEPS_H
#define LF_DEPS_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "lf_util.h"

/* Past this many objects a result is not worth caching (it is analyzed again
 * on every scan, as before the collector existed). */
#define LF_DEPS_MAX 50000

typedef enum lf_dep_kind { LF_DEP_ABSENT = 0, LF_DEP_FILE, LF_DEP_DIR, LF_DEP_OTHER } lf_dep_kind;

typedef struct lf_dep {
    char *path;
    uint32_t kind; /* lf_dep_kind */
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
} lf_dep;

typedef struct lf_deps {
    LF_VEC(lf_dep) items;
    int overflow; /* more than LF_DEPS_MAX: not to be cached */
} lf_deps;

/* Collect this thread's looks into d (zeroed by the caller) until lf_deps_end. */
void lf_deps_begin(lf_deps *d);
void lf_deps_end(void);
void lf_deps_free(lf_deps *d);
/* Sort by path and drop repeats; a path whose records differ (it changed
 * while the analysis looked at it) sets overflow: nothing describes it. */
void lf_deps_settle(lf_deps *d);

/* The state of path now, as lf_deps records it (lstat: a link is never followed). */
void lf_dep_observe(const char *path, lf_dep *out);
/* 1 when path is still as recorded. */
int lf_dep_unchanged(const lf_dep *d);

/* The wrappers: the call, after recording path. */
int lf_deps_lstat(const char *path, struct stat *st);
DIR *lf_deps_opendir(const char *path);
FILE *lf_deps_fopen_read(const char *path);

#endif
