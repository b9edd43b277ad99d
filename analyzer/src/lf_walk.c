#include "lf_walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
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
    int has_excludes; /* any glob: else relative paths are never built */
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

typedef struct lf_walk_seen seen_set;

static size_t seen_slot(uint64_t dev, uint64_t ino, size_t cap) {
    uint64_t h = (ino * 0x9E3779B97F4A7C15ull) ^ (dev * 0xC2B2AE3D27D4EB4Full);
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The slot holding (dev, ino), or the empty one where it would go. */
static size_t seen_find(const seen_set *s, uint64_t dev, uint64_t ino) {
    size_t i = seen_slot(dev, ino, s->cap);
    while ((s->slots[2 * i] || s->slots[2 * i + 1]) && !(s->slots[2 * i] == dev && s->slots[2 * i + 1] == ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

static void seen_grow(seen_set *s) {
    seen_set old = *s;
    s->cap = old.cap ? old.cap * 2 : 256;
    s->slots = lf_xcalloc(s->cap * 2, sizeof *s->slots);
    for (size_t i = 0; i < old.cap; i++) {
        if (old.slots[2 * i] == 0 && old.slots[2 * i + 1] == 0)
            continue;
        size_t k = seen_find(s, old.slots[2 * i], old.slots[2 * i + 1]);
        s->slots[2 * k] = old.slots[2 * i];
        s->slots[2 * k + 1] = old.slots[2 * i + 1];
    }
    free(old.slots);
}

static int seen_has(const seen_set *s, uint64_t dev, uint64_t ino) {
    if (dev == 0 && ino == 0)
        ino = 1; /* as seen_insert */
    if (!s->cap)
        return 0;
    size_t k = seen_find(s, dev, ino);
    return s->slots[2 * k] || s->slots[2 * k + 1];
}

/* Returns 1 when (dev, ino) was not seen before (and records it). */
static int seen_insert(seen_set *s, uint64_t dev, uint64_t ino) {
    if (dev == 0 && ino == 0)
        ino = 1; /* keep the empty-slot marker free; cannot happen for a real file */
    if ((s->len + 1) * 2 > s->cap)
        seen_grow(s);
    size_t k = seen_find(s, dev, ino);
    if (s->slots[2 * k] || s->slots[2 * k + 1])
        return 0;
    s->slots[2 * k] = dev;
    s->slots[2 * k + 1] = ino;
    s->len++;
    return 1;
}

/* Takes path (malloc'd). open_path is shared with path unless it differs. */
static void add_file(lf_walk_result *res, char *path, const char *open_path, lf_lang lang, const struct stat *st) {
    if (res->n_files == res->cap_files) {
        res->cap_files = res->cap_files ? res->cap_files * 2 : 64;
        res->files = lf_xrealloc(res->files, res->cap_files * sizeof *res->files);
    }
    lf_walk_file *f = &res->files[res->n_files++];
    f->path = path;
    f->open_path = open_path ? lf_xstrdup(open_path) : path;
    f->lang = lang;
    f->size = st ? (uint64_t)st->st_size : 0;
    f->has_stat = st != NULL;
    f->dev = st ? (uint64_t)st->st_dev : 0;
    f->ino = st ? (uint64_t)st->st_ino : 0;
    f->mtime_ns = st ? (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec : 0;
    f->ctime_ns = st ? (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec : 0;
}

static void free_file(lf_walk_file *f) {
    if (f->open_path != f->path)
        free(f->open_path);
    free(f->path);
}

static void add_skip_owned(lf_walk_result *res, lf_walk_skip skip) {
    if (res->n_skipped == res->cap_skipped) {
        res->cap_skipped = res->cap_skipped ? res->cap_skipped * 2 : 8;
        res->skipped = lf_xrealloc(res->skipped, res->cap_skipped * sizeof *res->skipped);
    }
    res->skipped[res->n_skipped++] = skip;
}

static void add_skip(lf_walk_result *res, const char *path, lf_walk_skip_kind kind, char *reason_owned) {
    add_skip_owned(res, (lf_walk_skip){lf_xstrdup(path), kind, reason_owned});
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

/* relpath is NULL when nothing can be excluded (walk_ctx.has_excludes). */
static int is_excluded(walk_ctx *c, const char *relpath, const char *display, int is_dir) {
    if (!c->has_excludes)
        return 0;
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
    unsigned char given; /* handed to another thread (share_work) */
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

/* The path relative to the walk's root, for the exclude globs alone. */
static char *rel_join(const walk_ctx *c, const char *dir, const char *name) {
    return c->has_excludes ? join(dir, name) : NULL;
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
    int fd; /* the directory, O_DIRECTORY: entries are stat'ed and opened relative to it */
    dir_entry *ents;
    size_t n, next;
    size_t share_from;       /* no entry before this one can be handed out */
    char *display, *relpath; /* owned */
} dir_frame;

static void push_entry(dir_entry **ents, size_t *n, size_t *cap, const char *name, unsigned char type) {
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
        return;
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 32;
        *ents = lf_xrealloc(*ents, *cap * sizeof **ents);
    }
    (*ents)[*n].name = lf_xstrdup(name);
    (*ents)[*n].type = type;
    (*ents)[*n].given = 0;
    (*n)++;
}

/* The entries of the directory open on fd. On Linux straight from getdents64:
 * fdopendir would fstat the descriptor and set its flags (three syscalls per
 * directory, a third of an unchanged cached re-scan's kernel time on CPython's
 * 5,300 directories). A read error ends the listing, as readdir's NULL does.
 * Returns 0 (errno set) when the directory cannot be read at all. */
static int read_entries(int fd, dir_entry **out, size_t *n_out) {
    dir_entry *ents = NULL;
    size_t n = 0, cap = 0;
#ifdef __linux__
    /* d_reclen keeps every record 8-aligned from an 8-aligned start. */
    _Alignas(struct dirent64) char buf[32768];
    ssize_t got;
    while ((got = getdents64(fd, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < got;) {
            const struct dirent64 *de = (const struct dirent64 *)(const void *)(buf + off);
            off += de->d_reclen;
            push_entry(&ents, &n, &cap, de->d_name, de->d_type);
        }
    }
#else
    int dup_fd = dup(fd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        int e = errno;
        if (dup_fd >= 0)
            close(dup_fd);
        errno = e;
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        push_entry(&ents, &n, &cap, de->d_name, de->d_type);
    closedir(d);
#endif
    if (n) /* qsort's base must not be NULL, even for zero elements */
        qsort(ents, n, sizeof *ents, cmp_entry);
    *out = ents;
    *n_out = n;
    return 1;
}

/* Read the directory open on dirfd_ (closed on failure) into *f; takes display
 * and relpath. Returns 0 when it cannot be read (reported as a skip). */
static int open_frame(lf_walk_result *out, int dirfd_, char *display, char *relpath, dir_frame *f) {
    memset(f, 0, sizeof *f);
    if (!read_entries(dirfd_, &f->ents, &f->n)) {
        add_skip(out, display, LF_WALK_UNREADABLE, lf_xasprintf("cannot read directory: %s", strerror(errno)));
        close(dirfd_);
        free(display);
        free(relpath);
        return 0;
    }
    f->fd = dirfd_;
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
    close(f->fd);
    free(f->display);
    free(f->relpath);
}

/* ---- parallel walk ----
 *
 * Threads walk depth first, each with its own stack of open directories. While
 * another thread waits for work, a walking thread hands it a directory it has
 * listed but not entered (share_work), opened, through a queue that never holds
 * more descriptors than there are waiting threads. The walk is over when every
 * thread waits on an empty queue. Each thread collects its files and skips
 * apart; walk_merge puts them back in the order one thread would have met them,
 * so no result depends on which thread saw what. */

typedef struct walk_job {
    int fd;                  /* O_DIRECTORY, not read yet */
    char *display, *relpath; /* owned */
    int check_markers;       /* a directory met in the walk (not the root): pruned
                                when it holds a CMakeCache.txt or a pyvenv.cfg */
} walk_job;

typedef struct walk_pool {
    walk_ctx *c;
    int n_threads;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    LF_VEC(walk_job) queue;
    int n_waiting;          /* under mu */
    atomic_int any_waiting; /* n_waiting > 0, read without the lock */
    int done;
} walk_pool;

typedef struct walk_worker {
    walk_pool *pool;
    lf_walk_result out; /* this thread's files and skips */
} walk_worker;

/* A thread waits for work: hand it the unvisited directory nearest the root of
 * this thread's walk, likely the largest piece of work left, so that threads
 * trade work rarely. Frames below *floor have nothing left to hand out, and
 * each frame's share_from only moves forward: the search costs each entry once
 * over the whole walk, however long the other thread waits. */
static void share_work(walk_pool *p, dir_frame *stack, size_t depth, size_t *floor) {
    for (; *floor < depth; ++*floor) {
        dir_frame *f = &stack[*floor];
        if (f->share_from < f->next)
            f->share_from = f->next;
        for (; f->share_from < f->n; f->share_from++) {
            dir_entry *e = &f->ents[f->share_from];
            if (e->type != DT_DIR || lf_walk_default_pruned(e->name))
                continue;
            char *display = join(f->display, e->name), *relpath = rel_join(p->c, f->relpath, e->name);
            if (is_excluded(p->c, relpath, display, 1)) {
                free(display);
                free(relpath);
                continue;
            }
            int taker = 0, fd = -1;
            pthread_mutex_lock(&p->mu);
            if (p->queue.len < (size_t)p->n_waiting) {
                taker = 1;
                fd = openat(f->fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd >= 0) {
                    walk_job j = {fd, display, relpath, 1};
                    LF_VEC_PUSH(&p->queue, j);
                    pthread_cond_signal(&p->cv);
                    e->given = 1;
                }
            }
            pthread_mutex_unlock(&p->mu);
            if (e->given) {
                f->share_from++;
                return;
            }
            free(display);
            free(relpath);
            /* It cannot be opened: this thread meets it in order and reports
             * why. No taker: the search resumes here next time. */
            if (!taker)
                return;
        }
    }
}

/* Read the job's directory into *f. Returns 0 when there is nothing to walk:
 * unreadable (a skip), or a build tree or virtualenv. */
static int open_job(lf_walk_result *out, walk_job *j, dir_frame *f) {
    if (!open_frame(out, j->fd, j->display, j->relpath, f))
        return 0;
    /* A CMake build tree or a Python virtualenv (whatever its name: CPython's
     * own `venv` package must still be scanned): not the project's code.
     * Looked up in the listing just read, not with two syscalls per directory. */
    if (j->check_markers && (frame_has(f, "CMakeCache.txt") || frame_has(f, "pyvenv.cfg"))) {
        close_frame(f);
        return 0;
    }
    return 1;
}

/* Depth first from one job, entries in name order, with an explicit stack of
 * open directories: a tree nested tens of thousands of levels deep overflowed
 * the C stack when this recursed. Each level with entries left to visit holds
 * one descriptor; past the process's limit a directory is reported as
 * unreadable (EMFILE) and the walk goes on. Which one then depends on how many
 * descriptors the other threads hold (--jobs 1 makes it the same every run). */
static void walk_tree(walk_pool *p, lf_walk_result *out, walk_job job) {
    walk_ctx *c = p->c;
    LF_VEC(dir_frame) stack = {0};
    dir_frame top;
    if (!open_job(out, &job, &top))
        return;
    LF_VEC_PUSH(&stack, top);
    size_t floor = 0; /* for share_work */
    while (stack.len) {
        if (p->n_threads > 1 && atomic_load_explicit(&p->any_waiting, memory_order_relaxed))
            share_work(p, stack.items, stack.len, &floor);
        dir_frame *f = &stack.items[stack.len - 1];
        if (f->next >= f->n) {
            close_frame(f);
            stack.len--;
            if (floor > stack.len)
                floor = stack.len;
            continue;
        }
        dir_entry *e = &f->ents[f->next++];
        if (e->given)
            continue;
        lf_lang lang;
        struct stat st;
        int have_st = 0;
        if (e->type == DT_UNKNOWN) {
            /* Filesystems without d_type: lstat semantics, so a link is never
             * mistaken for its target. */
            if (fstatat(f->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue; /* vanished since the listing */
            e->type = dtype_of_mode(st.st_mode);
            have_st = 1;
        }
        /* Most entries are neither a directory to enter nor a source file:
         * they are passed over before any path is built for them. */
        if (e->type == DT_DIR ? lf_walk_default_pruned(e->name) : !lf_lang_from_path(e->name, &lang))
            continue;
        char *child_display = join(f->display, e->name);
        char *child_rel = rel_join(c, f->relpath, e->name);
        if (e->type == DT_DIR) {
            if (!is_excluded(c, child_rel, child_display, 1)) {
                int fd = openat(f->fd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                    if (errno != ELOOP && errno != ENOENT)
                        add_skip(out, child_display, LF_WALK_UNREADABLE,
                                 lf_xasprintf("cannot open directory: %s", strerror(errno)));
                } else {
                    walk_job j = {fd, child_display, child_rel, 1};
                    dir_frame child;
                    /* The last entry of f: f's descriptor is not needed any
                     * more, so a chain of directories holds one at a time. */
                    if (f->next >= f->n) {
                        close_frame(f);
                        stack.len--;
                        if (floor > stack.len)
                            floor = stack.len;
                    }
                    /* f may move when the stack grows: it is not used after this. */
                    if (open_job(out, &j, &child))
                        LF_VEC_PUSH(&stack, child);
                    continue; /* the strings now belong to the job (or were freed) */
                }
            }
        } else if (e->type == DT_REG) {
            if (!is_excluded(c, child_rel, child_display, 0)) {
                /* The size orders the scan's work (largest first), and (dev, ino)
                 * spots a file reached twice; d_type spared the walk any stat
                 * until here, so only source files pay one, relative to the open
                 * directory. A failure leaves no stat: the read reports the file. */
                if (!have_st && fstatat(f->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                    have_st = 1;
                add_file(out, child_display, NULL, lang, have_st ? &st : NULL);
                child_display = NULL;
            }
        } else if (e->type != DT_LNK) {
            if (!is_excluded(c, child_rel, child_display, 0))
                add_skip(out, child_display, LF_WALK_NOT_REGULAR, lf_xstrdup("not a regular file"));
        }
        /* Symlinks are not followed (see lf_walk.h). */
        free(child_display);
        free(child_rel);
    }
    LF_VEC_FREE(&stack);
}

static void *walk_thread(void *arg) {
    walk_worker *w = arg;
    walk_pool *p = w->pool;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->queue.len && !p->done) {
            if (p->n_waiting + 1 == p->n_threads) {
                /* Everyone else waits and nothing is queued: no directory is
                 * left to hand out. */
                p->done = 1;
                pthread_cond_broadcast(&p->cv);
                break;
            }
            p->n_waiting++;
            atomic_store_explicit(&p->any_waiting, 1, memory_order_relaxed);
            pthread_cond_wait(&p->cv, &p->mu);
            p->n_waiting--;
            atomic_store_explicit(&p->any_waiting, p->n_waiting > 0, memory_order_relaxed);
        }
        if (!p->queue.len) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        walk_job j = p->queue.items[--p->queue.len];
        pthread_mutex_unlock(&p->mu);
        walk_tree(p, &w->out, j);
    }
}

/* Byte order of each path component in turn: the order a depth-first walk of
 * name-sorted directories meets them ("a/x" before "a-b/x"). */
static int cmp_walk_order(const char *a, const char *b) {
    for (;;) {
        size_t la = strcspn(a, "/"), lb = strcspn(b, "/");
        int d = memcmp(a, b, la < lb ? la : lb);
        if (d)
            return d;
        if (la != lb)
            return la < lb ? -1 : 1;
        if (!a[la] || !b[lb])
            return (a[la] != '\0') - (b[lb] != '\0');
        a += la + 1;
        b += lb + 1;
    }
}

static int cmp_file_walk_order(const void *a, const void *b) {
    return cmp_walk_order(((const lf_walk_file *)a)->path, ((const lf_walk_file *)b)->path);
}

static int cmp_skip_walk_order(const void *a, const void *b) {
    return cmp_walk_order(((const lf_walk_skip *)a)->path, ((const lf_walk_skip *)b)->path);
}

/* Drop from files[0..*n) those reached before (by an earlier root, or by an
 * earlier path of this walk, in the order one thread walking depth first in
 * name order would have met them: a hard link is kept at its first path).
 * Returns the survivors' (dev, ino) set. */
static seen_set keep_first_reached(const lf_walk_result *res, lf_walk_file *files, size_t *n, int walk_ordered) {
    for (int pass = 0;; pass++) {
        seen_set mine = {0};
        int twice = 0;
        size_t k = 0;
        for (size_t i = 0; i < *n; i++) {
            lf_walk_file *f = &files[i];
            if (f->has_stat && (seen_has(&res->seen, f->dev, f->ino) || (pass && !seen_insert(&mine, f->dev, f->ino)))) {
                free_file(f);
                continue;
            }
            if (f->has_stat && !pass && !seen_insert(&mine, f->dev, f->ino))
                twice = 1;
            files[k++] = *f;
        }
        *n = k;
        if (pass || !twice)
            return mine;
        /* Reached twice in this walk (rare: a hard link). Which path is kept
         * must not depend on the threads: put the files in walk order, then
         * keep the first. */
        free(mine.slots);
        if (!walk_ordered && *n > 1)
            qsort(files, *n, sizeof *files, cmp_file_walk_order);
    }
}

/* dst[0..*n) followed by src[0..n_src), items of `size` bytes (dst grown as needed). */
static void *append_items(void *dst, size_t *n, size_t *cap, const void *src, size_t n_src, size_t size) {
    if (!n_src)
        return dst;
    if (*n + n_src > *cap) {
        *cap = *n + n_src;
        dst = lf_xrealloc(dst, *cap * size);
    }
    memcpy((char *)dst + *n * size, src, n_src * size);
    *n += n_src;
    return dst;
}

/* The workers' files and skips into res, as one thread would have found them. */
static void walk_merge(lf_walk_result *res, walk_worker *w, int n) {
    lf_walk_result all = w[0].out;
    for (int t = 1; t < n; t++) {
        lf_walk_result *o = &w[t].out;
        all.files = append_items(all.files, &all.n_files, &all.cap_files, o->files, o->n_files, sizeof *o->files);
        all.skipped =
            append_items(all.skipped, &all.n_skipped, &all.cap_skipped, o->skipped, o->n_skipped, sizeof *o->skipped);
        free(o->files);
        free(o->skipped);
    }
    /* Skips are reported in walk order (files get sorted by the caller). */
    if (n > 1 && all.n_skipped > 1)
        qsort(all.skipped, all.n_skipped, sizeof *all.skipped, cmp_skip_walk_order);
    seen_set mine = keep_first_reached(res, all.files, &all.n_files, n == 1);
    if (!res->seen.len) {
        free(res->seen.slots);
        res->seen = mine;
    } else {
        for (size_t i = 0; i < all.n_files; i++)
            if (all.files[i].has_stat)
                seen_insert(&res->seen, all.files[i].dev, all.files[i].ino);
        free(mine.slots);
    }
    /* The first root's lists are taken whole; later roots' are appended. */
    if (!res->n_files) {
        free(res->files);
        res->files = all.files;
        res->n_files = all.n_files;
        res->cap_files = all.cap_files;
        all.files = NULL;
    } else {
        for (size_t i = 0; i < all.n_files; i++) {
            if (res->n_files == res->cap_files) {
                res->cap_files = res->cap_files ? res->cap_files * 2 : 64;
                res->files = lf_xrealloc(res->files, res->cap_files * sizeof *res->files);
            }
            res->files[res->n_files++] = all.files[i];
        }
    }
    for (size_t i = 0; i < all.n_skipped; i++)
        add_skip_owned(res, all.skipped[i]);
    free(all.files);
    free(all.skipped);
}

/* dirfd is open on `display` (O_DIRECTORY, closed here). */
static void walk_dir(walk_ctx *c, int dirfd_, const char *display, const char *relpath) {
    int n = c->opts->jobs;
    if (n < 1)
        n = 1;
    if (n > LF_WALK_MAX_THREADS)
        n = LF_WALK_MAX_THREADS;
    walk_pool p = {.c = c, .n_threads = n};
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    atomic_init(&p.any_waiting, 0);
    walk_worker *w = lf_xcalloc((size_t)n, sizeof *w);
    walk_job root = {dirfd_, lf_xstrdup(display), c->has_excludes ? lf_xstrdup(relpath) : NULL, 0};
    LF_VEC_PUSH(&p.queue, root);
    pthread_t *threads = lf_xcalloc((size_t)n, sizeof *threads);
    int started = 0;
    for (int t = 1; t < n; t++) {
        w[t].pool = &p;
        if (pthread_create(&threads[t], NULL, walk_thread, &w[t]) != 0)
            break;
        started = t;
    }
    /* Threads that could not start never count as waiting: the walk ends when
     * the ones that run are all idle. */
    pthread_mutex_lock(&p.mu);
    p.n_threads = started + 1;
    pthread_mutex_unlock(&p.mu);
    w[0].pool = &p;
    walk_thread(&w[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(threads[t], NULL);
    walk_merge(c->res, w, started + 1);
    free(threads);
    free(w);
    LF_VEC_FREE(&p.queue);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.mu);
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
    walk_ctx c = {.res = res, .opts = opts,
                  .has_excludes = opts->n_excludes || (opts->config && opts->config->n_exclude)};
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
        } else if (seen_insert(&res->seen, (uint64_t)st.st_dev, (uint64_t)st.st_ino)) {
            add_file(res, lf_xstrdup(display), resolved, lang, &st);
        }
    }
out:
    free(resolved);
    free(c.root_abs);
    free(c.config_dir);
    return ok;
}

void lf_walk_free(lf_walk_result *res) {
    for (size_t i = 0; i < res->n_files; i++)
        free_file(&res->files[i]);
    for (size_t i = 0; i < res->n_skipped; i++) {
        free(res->skipped[i].path);
        free(res->skipped[i].reason);
    }
    free(res->files);
    free(res->skipped);
    free(res->seen.slots);
    memset(res, 0, sizeof *res);
}
