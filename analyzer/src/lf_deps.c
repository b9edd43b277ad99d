/* lf_deps: what a file's analysis looked at besides the file itself (lf_deps.h). */
#include "lf_deps.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local lf_deps *g_current;

void lf_deps_begin(lf_deps *d) { g_current = d; }
void lf_deps_end(void) { g_current = NULL; }

void lf_deps_free(lf_deps *d) {
    if (!d)
        return;
    for (size_t i = 0; i < d->items.len; i++)
        free(d->items.items[i].path);
    LF_VEC_FREE(&d->items);
    d->overflow = 0;
}

static int64_t ns_of(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

void lf_dep_observe(const char *path, lf_dep *out) {
    struct stat st;
    memset(out, 0, sizeof *out);
    if (lstat(path, &st) != 0)
        return; /* LF_DEP_ABSENT: a file that appears later is a change */
    out->kind = S_ISREG(st.st_mode) ? LF_DEP_FILE : S_ISDIR(st.st_mode) ? LF_DEP_DIR : LF_DEP_OTHER;
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = ns_of(st.st_mtim);
    out->ctime_ns = ns_of(st.st_ctim);
}

static int same_state(const lf_dep *x, const lf_dep *y) {
    return x->kind == y->kind && x->dev == y->dev && x->ino == y->ino && x->size == y->size &&
           x->mtime_ns == y->mtime_ns && x->ctime_ns == y->ctime_ns;
}

int lf_dep_unchanged(const lf_dep *d) {
    lf_dep now;
    lf_dep_observe(d->path, &now);
    return same_state(&now, d);
}

static void note(const char *path) {
    lf_deps *d = g_current;
    if (!d || d->overflow)
        return;
    /* A path looked at twice in a row (an existence test, then the read) is
     * recorded once; lf_deps_settle drops the other repeats. */
    if (d->items.len && strcmp(d->items.items[d->items.len - 1].path, path) == 0)
        return;
    if (d->items.len >= LF_DEPS_MAX) {
        d->overflow = 1;
        return;
    }
    lf_dep dep;
    lf_dep_observe(path, &dep);
    dep.path = lf_xstrdup(path);
    LF_VEC_PUSH(&d->items, dep);
}

static int cmp_dep(const void *a, const void *b) { return strcmp(((const lf_dep *)a)->path, ((const lf_dep *)b)->path); }

void lf_deps_settle(lf_deps *d) {
    if (d->items.len < 2)
        return;
    size_t n = d->items.len;
    qsort(d->items.items, n, sizeof *d->items.items, cmp_dep);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        lf_dep *cur = &d->items.items[i];
        if (k && strcmp(d->items.items[k - 1].path, cur->path) == 0) {
            /* Looked at twice and changed in between: the analysis may have
             * read either state, so no one record describes what it saw. */
            if (!same_state(&d->items.items[k - 1], cur))
                d->overflow = 1;
            free(cur->path);
            continue;
        }
        d->items.items[k++] = *cur;
    }
    d->items.len = k;
}

int lf_deps_lstat(const char *path, struct stat *st) {
    note(path);
    return lstat(path, st);
}

DIR *lf_deps_opendir(const char *path) {
    note(path);
    return opendir(path);
}

FILE *lf_deps_fopen_read(const char *path) {
    note(path);
    return fopen(path, "rb");
}
