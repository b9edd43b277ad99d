/* lf_util: allocation that dies loudly, growable strings and arrays. */
#ifndef LF_UTIL_H
#define LF_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Out-of-memory is not recoverable for a CLI: print and exit(2). */
void *lf_xmalloc(size_t n);
void *lf_xcalloc(size_t n, size_t size);
/* Map the pages of a large block just allocated now, in one system call, not
 * one page fault each on first touch: under virtualization a fault costs about
 * 10 us, and an unchanged cached re-scan of CPython took 4,500 of them. Blocks
 * under LF_PREFAULT_MIN are left alone; best effort (a no-op where the kernel
 * lacks MADV_POPULATE_WRITE). */
#define LF_PREFAULT_MIN (256u * 1024u)
void lf_prefault(void *p, size_t len);
void *lf_xrealloc(void *p, size_t n);
char *lf_xstrdup(const char *s);
char *lf_xstrndup(const char *s, size_t n);
char *lf_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Read a whole regular file (never blocks on a FIFO: opened O_NONBLOCK, then
 * checked). Returns its bytes NUL-terminated, or NULL with *err (malloc'd:
 * "PATH: cannot open WHAT: ...", "PATH: not a regular file", "PATH: read error:
 * ...", "PATH: larger than N bytes"). what names the file in the first one
 * ("rule file"). */
char *lf_read_text_file(const char *path, const char *what, size_t max, size_t *len, char **err);

/* Growable, always NUL-terminated byte string. */
typedef struct lf_strbuf {
    char *data;
    size_t len;
    size_t cap;
} lf_strbuf;

void lf_strbuf_init(lf_strbuf *sb);
void lf_strbuf_free(lf_strbuf *sb);
void lf_strbuf_reserve(lf_strbuf *sb, size_t extra);
void lf_strbuf_append(lf_strbuf *sb, const char *s, size_t n);
void lf_strbuf_puts(lf_strbuf *sb, const char *s);
void lf_strbuf_putc(lf_strbuf *sb, char c);
void lf_strbuf_printf(lf_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lf_strbuf_vprintf(lf_strbuf *sb, const char *fmt, va_list ap);
/* Detach the buffer (caller frees); sb is reset to empty. */
char *lf_strbuf_detach(lf_strbuf *sb);

/* Typed growable array: LF_VEC(int) v = {0}; LF_VEC_PUSH(&v, 3); */
#define LF_VEC(T) struct { T *items; size_t len; size_t cap; }
#define LF_VEC_PUSH(v, x)                                                               \
    do {                                                                                \
        if ((v)->len == (v)->cap) {                                                     \
            (v)->cap = (v)->cap ? (v)->cap * 2 : 8;                                     \
            (v)->items = lf_xrealloc((v)->items, (v)->cap * sizeof(*(v)->items));       \
        }                                                                               \
        (v)->items[(v)->len++] = (x);                                                   \
    } while (0)
#define LF_VEC_FREE(v) do { free((v)->items); (v)->items = NULL; (v)->len = (v)->cap = 0; } while (0)

/* Is q (may be NULL) one of the NULL-terminated names? */
int lf_str_in_list(const char *q, const char *const *names);
/* Does a name or a literal (s, n bytes) spell a lock as one of its words (`lock`,
 * `.lock`, `LOCK_DIR`, `lockfile`, `getLockPath`, `flock`, `lck`)? Not `block`,
 * `clock`, `unlock`. Only spellings LF301/LF302's Python prefilters admit count
 * (`\block`, `_lock`, `Lock`, `LOCK`, `lck`, `flock`, `filelock`): the claim
 * facts built on it must never see a file those prefilters skip. */
int lf_text_spells_lock(const char *s, size_t n);

/* Glob match for --exclude and config "exclude": '*' (no '/'), '**' (any, incl. '/'),
 * '?', '[...]'. A pattern without '/' matches any path component; otherwise it is
 * matched against the whole relative path. */
int lf_glob_match(const char *pattern, const char *relpath);

/* Work counter for complexity tests (steps, never seconds): the glob matcher,
 * tree walks and the semantic model's resolution loops add the elementary
 * steps they take. Per thread; tests read it before and after a call. */
extern _Thread_local unsigned long long lf_work_steps;
static inline void lf_work(unsigned long long n) { lf_work_steps += n; }

#endif
