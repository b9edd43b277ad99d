#include "lf_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_util.h"

typedef struct walk_ctx {
    lf_walk_result *res;
    const lf_walk_options *opts;
    char *root_abs;   /* realpath of the root, for config-relative globs; NULL if unused */
    char *config_dir; /* realpath of the config file's directory; NULL if unused */
} walk_ctx;

static const char *const k_pruned_dirs[] = {
    ".git", ".hg", ".svn", "node_modules", "build", "dist", "__pycache__", ".venv", ".tox",
};

int lf_walk_default_pruned(const char *name) {
    for (size_t i = 0; i < sizeof k_pruned_dirs / sizeof k_pruned_dirs[0]; i++)
        if (strcmp(name, k_pruned_dirs[i]) == 0)
            return 1;
    return strncmp(name, "build-", 6) == 0;
}

/* ---- (dev, ino) set: the same file reached twice is scanned once ---- */

static size_t seen_slot(uint64_t dev, uint64_t ino, size_t cap) {
    uint64_t h = (ino * 0x9E3779B97F4A7C15ull) ^ (dev * 0xC2B2AE3D27D4EB4Full);
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void seen_grow(lf_walk_result *res) {
    size_t old_cap = res->seen_cap;
    uint64_t *old = res->seen;
    res->seen_cap = old_cap ? old_cap * 2 : 256;
    res->seen = lf_xcalloc(res->seen_cap * 2, sizeof *res->seen);
    for (size_t i = 0; i < old_cap; i++) {
        uint64_t dev = old[2 * i], ino = old[2 * i + 1];
        if (dev == 0 && ino == 0)
            continue;
        size_t s = seen_slot(dev, ino, res->seen_cap);
        while (res->seen[2 * s] || res->seen[2 * s + 1])
            s = (s + 1) & (res->seen_cap - 1);
        res->seen[2 * s] = dev;
        res->seen[2 * s + 1] = ino;
    }
    free(old);
}

/* Returns 1 when (dev, ino) was not seen before (and records it). */
static int seen_insert(lf_walk_result *res, uint64_t dev, uint64_t ino) {
    if (dev == 0 && ino == 0)
        ino = 1; /* keep the empty-slot marker free; cannot happen for a real file */
    if ((res->seen_len + 1) * 2 > res->seen_cap)
        seen_grow(res);
    size_t s = seen_slot(dev, ino, res->seen_cap);
    while (res->seen[2 * s] || res->seen[2 * s + 1]) {
        if (res->seen[2 * s] == dev && res->seen[2 * s + 1] == ino)
            return 0;
        s = (s + 1) & (res->seen_cap - 1);
    }
    res->seen[2 * s] = dev;
    res->seen[2 * s + 1] = ino;
    res->seen_len++;
    return 1;
}

static void add_file(lf_walk_result *res, const char *path, const char *open_path, lf_lang lang,
                     const struct stat *st) {
    if (res->n_files == res->cap_files) {
        res->cap_files = res->cap_files ? res->cap_files * 2 : 64;
        res->files = lf_xrealloc(res->files, res->cap_files * sizeof *res->files);
    }
    lf_walk_file *f = &res->files[res->n_files++];
    f->path = lf_xstrdup(path);
    f->open_path = lf_xstrdup(open_path ? open_path : path);
    f->lang = lang;
    f->size = st ? (uint64_t)st->st_size : 0;
    f->has_stat = st != NULL;
    f->dev = st ? (uint64_t)st->st_dev : 0;
    f->ino = st ? (uint64_t)st->st_ino : 0;
    f->mtime_ns = st ? (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec : 0;
    f->ctime_ns = st ? (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec : 0;
}

static void add_skip(lf_walk_result *res, const char *path, lf_walk_skip_kind kind, char *reason_owned) {
    if (res->n_skipped == res->cap_skipped) {
        res->cap_skipped = res->cap_skipped ? res->cap_skipped * 2 : 8;
        res->skipped = lf_xrealloc(res->skipped, res->cap_skipped * sizeof *res->skipped);
    }
    res->skipped[res->n_skipped].path = lf_xstrdup(path);
    res->skipped[res->n_skipped].kind = kind;
    res->skipped[res->n_skipped].reason = reason_owned;
    res->n_skipped++;
}

/* ---- exclusion ---- */

/* A glob ending in '/' names directories only (as in .gitignore). */
static int glob_matches(const char *pattern, const char *path, int is_dir) {
    size_t n = strlen(pattern);
    if (n > 1 && pattern[n - 1] == '/') {
        if (!is_dir)
            return 0;
        char *trimmed = lf_xstrndup(pattern, n - 1);
        int m = lf_glob_match(trimmed, path);
        free(trimmed);
        return m;
    }
    return lf_glob_match(pattern, path);
}

static int is_excluded(walk_ctx *c, const char *relpath, const char *display, int is_dir) {
    const lf_walk_options *o = c->opts;
    for (size_t i = 0; i < o->n_excludes; i++) {
        if ((relpath[0] && glob_matches(o->excludes[i], relpath, is_dir)) ||
            glob_matches(o->excludes[i], display, is_dir))
            return 1;
    }
    if (o->config && o->config->n_exclude) {
        /* Config globs are written relative to the config file's directory. */
        const char *rel = relpath;
        char *abs = NULL;
        if (c->root_abs && c->config_dir) {
            abs = relpath[0] ? lf_xasprintf("%s/%s", c->root_abs, relpath) : lf_xstrdup(c->root_abs);
            size_t dl = strlen(c->config_dir);
            if (strcmp(c->config_dir, "/") == 0)
                rel = abs + 1;
            else if (strncmp(abs, c->config_dir, dl) == 0 && abs[dl] == '/')
                rel = abs + dl + 1;
        }
        int hit = 0;
        for (size_t i = 0; i < o->config->n_exclude && !hit; i++)
            hit = rel[0] && glob_matches(o->config->exclude[i], rel, is_dir);
        free(abs);
        if (hit)
            return 1;
    }
    return 0;
}

/* ---- directory walk ---- */

typedef struct dir_entry {
    char *name;
    unsigned char type;
    uint64_t ino;
} dir_entry;

static int cmp_entry(const void *a, const void *b) {
    return strcmp(((const dir_entry *)a)->name, ((const dir_entry *)b)->name);
}

static int cmp_file_path(const void *a, const void *b) {
    return strcmp(((const lf_walk_file *)a)->path, ((const lf_walk_file *)b)->path);
}

/* Called for every directory and source file of the tree: memcpy, not a
 * printf (a third of an unchanged cached re-scan's user time went to it). */
static char *join(const char *dir, const char *name) {
    if (dir[0] == '\0' || strcmp(dir, ".") == 0)
        return lf_xstrdup(name);
    size_t n = strlen(dir), m = strlen(name);
    size_t sep = dir[n - 1] != '/';
    char *s = lf_xmalloc(n + sep + m + 1);
    memcpy(s, dir, n);
    s[n] = '/';
    memcpy(s + n + sep, name, m + 1);
    return s;
}

static unsigned char dtype_of_mode(mode_t m) {
    if (S_ISREG(m)) return DT_REG;
    if (S_ISDIR(m)) return DT_DIR;
    if (S_ISLNK(m)) return DT_LNK;
    if (S_ISFIFO(m)) return DT_FIFO;
    if (S_ISSOCK(m)) return DT_SOCK;
    if (S_ISCHR(m)) return DT_CHR;
    if (S_ISBLK(m)) return DT_BLK;
    return DT_UNKNOWN;
}

/* One directory being walked: its entries, read and sorted up front, and the
 * next one to visit. */
typedef struct dir_frame {
    DIR *d;
    dev_t dev;
    dir_entry *ents;
    size_t n, next;
    char *display, *relpath; /* owned */
} dir_frame;

/* Read the directory open on dirfd_ (closed on failure) into *f; takes display
 * and relpath. Returns 0 when it cannot be read (reported as a skip). */
static int open_frame(walk_ctx *c, int dirfd_, char *display, char *relpath, dir_frame *f) {
    memset(f, 0, sizeof *f);
    struct stat dst;
    DIR *d = NULL;
    if (fstat(dirfd_, &dst) == 0) {
        d = fdopendir(dirfd_);
        if (!d)
            add_skip(c->res, display, LF_WALK_UNREADABLE, lf_xasprintf("cannot read directory: %s", strerror(errno)));
    }
    if (!d) {
        close(dirfd_);
        free(display);
        free(relpath);
        return 0;
    }
    dir_entry *ents = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            ents = lf_xrealloc(ents, cap * sizeof *ents);
        }
        ents[n].name = lf_xstrdup(de->d_name);
        ents[n].type = de->d_type;
        ents[n].ino = (uint64_t)de->d_ino;
        n++;
    }
    if (n) /* qsort's base must not be NULL, even for zero elements */
        qsort(ents, n, sizeof *ents, cmp_entry);
    f->d = d;
    f->dev = dst.st_dev;
    f->ents = ents;
    f->n = n;
    f->display = display;
    f->relpath = relpath;
    return 1;
}

/* An entry of any type named `name` (the listing is sorted). */
static int frame_has(const dir_frame *f, const char *name) {
    dir_entry key = {(char *)name, 0, 0};
    return f->n && bsearch(&key, f->ents, f->n, sizeof *f->ents, cmp_entry) != NULL;
}

static void close_frame(dir_frame *f) {
    for (size_t i = 0; i < f->n; i++)
        free(f->ents[i].name);
    free(f->ents);
    closedir(f->d);
    free(f->display);
    free(f->relpath);
}

/* dirfd is open on `display` (O_DIRECTORY, closed here). Depth first, entries in
 * name order, with an explicit stack of open directories: a tree nested tens of
 * thousands of levels deep overflowed the C stack when this recursed. Each level
 * holds one descriptor; past the process's limit a directory is reported as
 * unreadable (EMFILE) and the walk goes on. */
static void walk_dir(walk_ctx *c, int dirfd_, const char *display, const char *relpath) {
    LF_VEC(dir_frame) stack = {0};
    dir_frame top;
    if (!open_frame(c, dirfd_, lf_xstrdup(display), lf_xstrdup(relpath), &top))
        return;
    LF_VEC_PUSH(&stack, top);
    while (stack.len) {
        dir_frame *f = &stack.items[stack.len - 1];
        if (f->next >= f->n) {
            close_frame(f);
            stack.len--;
            continue;
        }
        dir_entry *e = &f->ents[f->next++];
        DIR *d = f->d;
        dev_t dev = f->dev;
        lf_lang lang;
        struct stat st;
        int have_st = 0;
        if (e->type == DT_UNKNOWN) {
            /* Filesystems without d_type: lstat semantics, so a link is never
             * mistaken for its target. */
            if (fstatat(dirfd(d), e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue; /* vanished since readdir */
            e->type = dtype_of_mode(st.st_mode);
            e->ino = (uint64_t)st.st_ino;
            have_st = 1;
        }
        /* Most entries are neither a directory to enter nor a source file:
         * they are passed over before any path is built for them. */
        if (e->type == DT_DIR ? lf_walk_default_pruned(e->name) : !lf_lang_from_path(e->name, &lang))
            continue;
        char *child_display = join(f->display, e->name);
        char *child_rel = join(f->relpath, e->name);
        if (e->type == DT_DIR) {
            if (!is_excluded(c, child_rel, child_display, 1)) {
                int fd = openat(dirfd(d), e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                    if (errno != ELOOP && errno != ENOENT)
                        add_skip(c->res, child_display, LF_WALK_UNREADABLE,
                                 lf_xasprintf("cannot open directory: %s", strerror(errno)));
                } else {
                    dir_frame child;
                    /* f may move when the stack grows: it is not used after this. */
                    if (open_frame(c, fd, child_display, child_rel, &child)) {
                        /* A CMake build tree or a Python virtualenv (whatever its
                         * name: CPython's own `venv` package must still be
                         * scanned): not the project's code. Looked up in the
                         * listing just read, not with two syscalls per directory. */
                        if (frame_has(&child, "CMakeCache.txt") || frame_has(&child, "pyvenv.cfg"))
                            close_frame(&child);
                        else
                            LF_VEC_PUSH(&stack, child);
                    }
                    continue; /* the strings now belong to the frame (or were freed) */
                }
            }
        } else {
            if (e->type == DT_REG) {
                if (!is_excluded(c, child_rel, child_display, 0) && seen_insert(c->res, (uint64_t)dev, e->ino)) {
                    /* The size orders the scan's work (largest first); d_type spared
                     * the walk any stat until here, so only source files pay one,
                     * relative to the open directory. A failure leaves 0: the read
                     * reports the file. */
                    if (!have_st && fstatat(dirfd(d), e->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                        have_st = 1;
                    add_file(c->res, child_display, NULL, lang, have_st ? &st : NULL);
                }
            } else if (e->type != DT_LNK) {
                if (!is_excluded(c, child_rel, child_display, 0))
                    add_skip(c->res, child_display, LF_WALK_NOT_REGULAR, lf_xstrdup("not a regular file"));
            }
            /* Symlinks are not followed (see lf_walk.h). */
        }
        free(child_display);
        free(child_rel);
    }
    LF_VEC_FREE(&stack);
}

static char *dirname_abs(const char *file) {
    char *abs = realpath(file, NULL);
    if (!abs)
        return NULL;
    char *slash = strrchr(abs, '/');
    if (slash == abs)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    return abs;
}

/* "./a/b" -> "a/b", "./" -> ".", "a/" -> "a/"; otherwise kept as given: the
 * display path is the user's. */
static const char *display_root(const char *root) {
    while (root[0] == '.' && root[1] == '/') {
        root += 2;
        while (*root == '/')
            root++;
    }
    return *root ? root : ".";
}

int lf_walk_add(lf_walk_result *res, const char *root, const lf_walk_options *opts, char **err) {
    *err = NULL;
    walk_ctx c = {.res = res, .opts = opts};
    if (opts->config && opts->config->n_exclude && opts->config->path) {
        c.root_abs = realpath(root, NULL);
        c.config_dir = dirname_abs(opts->config->path);
    }
    const char *display = display_root(root);
    int ok = 1;
    char *resolved = NULL;
    struct stat lst, st;
    if (lstat(root, &lst) != 0) {
        *err = lf_xasprintf("%s: %s", root, strerror(errno));
        ok = 0;
        goto out;
    }
    /* A symlink named on the command line is followed: the user chose it. */
    if (S_ISLNK(lst.st_mode)) {
        if (stat(root, &st) != 0) {
            *err = lf_xasprintf("%s: broken symbolic link (%s)", root, strerror(errno));
            ok = 0;
            goto out;
        }
        resolved = realpath(root, NULL);
    } else {
        st = lst;
    }
    if (S_ISDIR(st.st_mode)) {
        int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            *err = lf_xasprintf("%s: cannot open directory: %s", root, strerror(errno));
            ok = 0;
        } else {
            size_t first = res->n_files;
            walk_dir(&c, fd, display, "");
            /* Report order is the byte order of the whole path (as `LC_ALL=C sort`),
             * not the per-directory order: "a-b/x" before "a/x". */
            if (res->n_files > first)
                qsort(res->files + first, res->n_files - first, sizeof *res->files, cmp_file_path);
        }
    } else {
        lf_lang lang;
        int has_lang = lf_lang_from_path(display, &lang) || (resolved && lf_lang_from_path(resolved, &lang));
        if (!S_ISREG(st.st_mode)) {
            add_skip(res, display, LF_WALK_NOT_REGULAR, lf_xstrdup("not a regular file"));
        } else if (!has_lang) {
            add_skip(res, display, LF_WALK_UNSUPPORTED, lf_xstrdup("unsupported file type (not .py .ts .mts .cts .js .mjs .cjs .tsx .jsx)"));
        } else if (opts->force_exclude && is_excluded(&c, "", display, 0)) {
            /* named but excluded on request */
        } else if (seen_insert(res, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
            add_file(res, display, resolved, lang, &st);
        }
    }
out:
    free(resolved);
    free(c.root_abs);
    free(c.config_dir);
    return ok;
}

void lf_walk_free(lf_walk_result *res) {
    for (size_t i = 0; i < res->n_files; i++) {
        free(res->files[i].path);
        free(res->files[i].open_path);
    }
    for (size_t i = 0; i < res->n_skipped; i++) {
        free(res->skipped[i].path);
        free(res->skipped[i].reason);
    }
    free(res->files);
    free(res->skipped);
    free(res->seen);
    memset(res, 0, sizeof *res);
}
