#include "lf_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void die_oom(void) {
    fputs("lockfix: out of memory\n", stderr);
    exit(2);
}

void *lf_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p)
        die_oom();
    return p;
}

void *lf_xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die_oom();
    return p;
}

void lf_prefault(void *p, size_t len) {
#ifdef MADV_POPULATE_WRITE
    if (len < LF_PREFAULT_MIN)
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + len) & ~(page - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE); /* EINVAL before Linux 5.14: no harm */
#else
    (void)p;
    (void)len;
#endif
}

void *lf_xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die_oom();
    return q;
}

char *lf_xstrndup(const char *s, size_t n) {
    char *d = lf_xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *lf_xstrdup(const char *s) { return lf_xstrndup(s, strlen(s)); }

char *lf_xasprintf(const char *fmt, ...) {
    lf_strbuf sb;
    va_list ap;
    lf_strbuf_init(&sb);
    va_start(ap, fmt);
    lf_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    return lf_strbuf_detach(&sb);
}

void lf_strbuf_init(lf_strbuf *sb) {
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
}

void lf_strbuf_free(lf_strbuf *sb) {
    free(sb->data);
    lf_strbuf_init(sb);
}

void lf_strbuf_reserve(lf_strbuf *sb, size_t extra) {
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    sb->data = lf_xrealloc(sb->data, cap);
    sb->cap = cap;
}

void lf_strbuf_append(lf_strbuf *sb, const char *s, size_t n) {
    lf_strbuf_reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void lf_strbuf_puts(lf_strbuf *sb, const char *s) { lf_strbuf_append(sb, s, strlen(s)); }

void lf_strbuf_putc(lf_strbuf *sb, char c) { lf_strbuf_append(sb, &c, 1); }

void lf_strbuf_vprintf(lf_strbuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    lf_strbuf_reserve(sb, (size_t)n);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void lf_strbuf_printf(lf_strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lf_strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *lf_strbuf_detach(lf_strbuf *sb) {
    char *d = sb->data ? sb->data : lf_xstrdup("");
    lf_strbuf_init(sb);
    return d;
}

_Thread_local unsigned long long lf_work_steps;

/* Glob matching as a set of NFA states, one per pattern token, advanced one
 * character at a time: O(|pattern| * |name|) whatever the stars, where the old
 * backtracking matcher was exponential (`*a*a*a*a*a*b` against a 200-character
 * name ran for minutes, and a scanned repository's .lockfix.json can carry such
 * a pattern). Semantics are the old matcher's: '**' (and a '/' right after it)
 * matches any run of characters, '*' any run without '/', '?' one character
 * other than '/', '[...]' / '[!...]' one character (ranges a-z; an unclosed
 * class matches nothing), anything else itself. */
typedef enum glob_tok { G_LIT, G_ANY, G_STAR, G_STAR2, G_CLASS, G_NEVER } glob_tok;

typedef struct glob_item {
    glob_tok kind;
    char ch;         /* G_LIT */
    const char *cls; /* G_CLASS: just after '[' */
} glob_item;

static int class_hit(const char *q, char c) {
    int negate = (*q == '!' || *q == '^');
    if (negate)
        q++;
    int hit = 0;
    while (*q && *q != ']') {
        if (q[1] == '-' && q[2] && q[2] != ']') {
            if ((unsigned char)c >= (unsigned char)q[0] && (unsigned char)c <= (unsigned char)q[2])
                hit = 1;
            q += 3;
        } else {
            if (*q == c)
                hit = 1;
            q++;
        }
    }
    return hit != negate;
}

static size_t glob_compile(const char *p, glob_item *out) {
    size_t n = 0;
    while (*p) {
        glob_item it = {G_LIT, 0, NULL};
        if (p[0] == '*' && p[1] == '*') {
            it.kind = G_STAR2;
            p += 2;
            if (*p == '/')
                p++;
        } else if (*p == '*') {
            it.kind = G_STAR;
            p++;
        } else if (*p == '?') {
            it.kind = G_ANY;
            p++;
        } else if (*p == '[') {
            const char *q = p + 1;
            if (*q == '!' || *q == '^')
                q++;
            while (*q && *q != ']')
                q += (q[1] == '-' && q[2] && q[2] != ']') ? 3 : 1;
            if (*q != ']') {
                it.kind = G_NEVER;
                out[n++] = it;
                break; /* the old matcher failed here whatever followed */
            }
            it.kind = G_CLASS;
            it.cls = p + 1;
            p = q + 1;
        } else {
            it.ch = *p++;
        }
        out[n++] = it;
    }
    return n;
}

/* Add state i and, through stars matching nothing, the states after it. */
static void glob_add(const glob_item *g, size_t n, unsigned char *set, size_t i) {
    for (;;) {
        lf_work(1);
        if (set[i])
            return;
        set[i] = 1;
        if (i == n || (g[i].kind != G_STAR && g[i].kind != G_STAR2))
            return;
        i++;
    }
}

static int glob_here(const char *pattern, const char *s) {
    size_t plen = strlen(pattern);
    glob_item stack_items[64];
    unsigned char stack_sets[2 * 65];
    glob_item *g = plen < 64 ? stack_items : lf_xmalloc((plen + 1) * sizeof *g);
    size_t n = glob_compile(pattern, g);
    unsigned char *cur = plen < 64 ? stack_sets : lf_xmalloc(2 * (n + 1));
    unsigned char *next = cur + n + 1;
    memset(cur, 0, n + 1);
    glob_add(g, n, cur, 0);
    int alive = 1;
    for (; *s && alive; s++) {
        char c = *s;
        memset(next, 0, n + 1);
        alive = 0;
        for (size_t i = 0; i < n; i++) {
            lf_work(1);
            if (!cur[i])
                continue;
            int stay = 0, advance = 0;
            switch (g[i].kind) {
            case G_STAR2: stay = 1; break;
            case G_STAR: stay = c != '/'; break;
            case G_ANY: advance = c != '/'; break;
            case G_CLASS: advance = class_hit(g[i].cls, c); break;
            case G_LIT: advance = g[i].ch == c; break;
            case G_NEVER: break;
            }
            if (stay)
                glob_add(g, n, next, i);
            if (advance)
                glob_add(g, n, next, i + 1);
            alive |= stay | advance;
        }
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    int match = alive && cur[n];
    if (g != stack_items)
        free(g);
    if (cur != stack_sets && next != stack_sets)
        free(cur < next ? cur : next);
    return match;
}

int lf_glob_match(const char *pattern, const char *relpath) {
    if (strchr(pattern, '/')) {
        const char *p = pattern[0] == '/' ? pattern + 1 : pattern;
        /* Anchored at the scan root. */
        return glob_here(p, relpath);
    }
    /* No slash: match any single component. The common patterns have a fast
     * path, the same answers without the state sets: a plain name (`vendor`)
     * is a component equal to it, `*SUFFIX` (`*.min.js`) one ending with it
     * (a '*' matches any run of a component's characters, the empty one too). */
    if (!strpbrk(pattern, "*?[") || (pattern[0] == '*' && !strpbrk(pattern + 1, "*?["))) {
        int star = pattern[0] == '*';
        const char *lit = pattern + star;
        size_t ln = strlen(lit);
        for (const char *c = relpath;;) {
            const char *end = strchr(c, '/');
            size_t n = end ? (size_t)(end - c) : strlen(c);
            lf_work(1);
            if (star ? n >= ln && memcmp(c + n - ln, lit, ln) == 0 : n == ln && memcmp(c, lit, ln) == 0)
                return 1;
            if (!end)
                return 0;
            c = end + 1;
        }
    }
    const char *c = relpath;
    for (;;) {
        const char *end = strchr(c, '/');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        char buf[4096];
        if (n < sizeof buf) {
            memcpy(buf, c, n);
            buf[n] = '\0';
            if (glob_here(pattern, buf))
                return 1;
        }
        if (!end)
            return 0;
        c = end + 1;
    }
}

char *lf_read_text_file(const char *path, const char *what, size_t max, size_t *len, char **err) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *err = lf_xasprintf("%s: cannot open %s: %s", path, what, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *err = lf_xasprintf("%s: not a regular file", path);
        return NULL;
    }
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            lf_strbuf_free(&sb);
            *err = lf_xasprintf("%s: read error: %s", path, strerror(e));
            return NULL;
        }
        if (n == 0)
            break;
        if (sb.len + (size_t)n > max) {
            close(fd);
            lf_strbuf_free(&sb);
            *err = lf_xasprintf("%s: larger than %zu bytes", path, max);
            return NULL;
        }
        lf_strbuf_append(&sb, buf, (size_t)n);
    }
    close(fd);
    *len = sb.len;
    return lf_strbuf_detach(&sb);
}

int lf_str_in_list(const char *q, const char *const *names) {
    for (size_t i = 0; q && names[i]; i++)
        if (q[0] == names[i][0] && strcmp(q, names[i]) == 0)
            return 1;
    return 0;
}

/* Does a name or a literal spell a lock as one of its words: `lock`,
 * `.lock`, `LOCK_DIR`, `lockfile`, `_lock_path`, `getLockPath`, `locks`
 * (a word starting "lock"), `flock`, `filelock`, `lck`? Words split at
 * anything not a letter or digit and where a lower case letter meets an upper
 * case one; `block`, `clock` and `unlock` are no lock. */
int lf_text_spells_lock(const char *s, size_t n) {
    /* exact spellings, as the rules' Python prefilters look for them: a word
     * starting Lock or LOCK anywhere; lock or lck lower case only at a word's
     * start in the text (after a character that is no letter or digit: the
     * prefilters' `\block` and `_lock`); flock/filelock/FileLock, which the
     * prefilters name themselves */
    static const char *const starts[] = {"lock", "Lock", "LOCK", "lck", NULL};
    size_t i = 0;
    while (i < n) {
        while (i < n && !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
            i++;
        size_t start = i;
        if (start >= n)
            break;
        i++;
        while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
                         ((s[i] >= 'A' && s[i] <= 'Z') && !(s[i - 1] >= 'a' && s[i - 1] <= 'z'))))
            i++;
        size_t len = i - start;
        const char *w = s + start;
        int after_digit = start > 0 && s[start - 1] >= '0' && s[start - 1] <= '9';
        for (size_t k = 0; starts[k]; k++) {
            size_t sl = strlen(starts[k]);
            if (after_digit && starts[k][0] == 'l')
                continue;
            /* lck only whole (`.lck`), lock as a prefix (locks, lockfile, LOCK_DIR) */
            if (len >= sl && !memcmp(w, starts[k], sl) && (sl == 4 || len == sl))
                return 1;
        }
        /* flock, filelock; FileLock, FLOCK (a word ending in Lock or LOCK) */
        if ((len == 5 && !memcmp(w, "flock", 5)) || (len == 8 && !memcmp(w, "filelock", 8)) ||
            (len > 4 && (!memcmp(w + len - 4, "Lock", 4) || !memcmp(w + len - 4, "LOCK", 4))))
            return 1;
    }
    return 0;
}
