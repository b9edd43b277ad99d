#include "lf_diff.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct diff_line {
    const char *text; /* including its '\n' when it has one */
    size_t len;
    uint64_t hash;
} diff_line;

typedef struct line_array {
    diff_line *items;
    size_t len;
} line_array;

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static line_array split_lines(const char *text, size_t len) {
    line_array a = {NULL, 0};
    size_t cap = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        if (a.len == cap) {
            cap = cap ? cap * 2 : 64;
            a.items = lf_xrealloc(a.items, cap * sizeof *a.items);
        }
        a.items[a.len].text = text + pos;
        a.items[a.len].len = end - pos;
        a.items[a.len].hash = hash_bytes(text + pos, end - pos);
        a.len++;
        pos = end;
    }
    return a;
}

static int lines_equal(const diff_line *x, const diff_line *y) {
    return x->hash == y->hash && x->len == y->len && memcmp(x->text, y->text, x->len) == 0;
}

enum { OP_EQUAL = 'E', OP_DELETE = 'D', OP_INSERT = 'I' };

typedef LF_VEC(char) op_vec;

/* Myers' O(ND) shortest edit script over a[0..n) and b[0..m). Each round d keeps
 * only its 2d+1 diagonals, so memory is O(D^2): small for the local edits of a fix.
 * Appends the ops (in order) to *ops. */
/* Past this many differing lines the trace would cost O(D^2) memory: the region is
 * then emitted as one block of deletions followed by one of insertions (still a
 * correct diff, just not a minimal one). */
#define LF_DIFF_MAX_EDITS 2048

static void myers(const diff_line *a, size_t n, const diff_line *b, size_t m, op_vec *ops) {
    size_t max = n + m;
    if (max > LF_DIFF_MAX_EDITS)
        max = LF_DIFF_MAX_EDITS;
    long **trace = lf_xcalloc(max + 1, sizeof *trace);
    size_t rounds = 0;
    for (size_t d = 0; d <= max; d++) {
        long ld = (long)d;
        long *cur = lf_xmalloc((2 * d + 1) * sizeof *cur);
        long *prev = d ? trace[d - 1] : NULL;
        trace[d] = cur;
        rounds = d + 1;
        int done = 0;
        for (long k = -ld; k <= ld; k += 2) {
            long x;
            if (d == 0)
                x = 0;
            else if (k == -ld || (k != ld && prev[k - 1 + (ld - 1)] < prev[k + 1 + (ld - 1)]))
                x = prev[k + 1 + (ld - 1)];
            else
                x = prev[k - 1 + (ld - 1)] + 1;
            long y = x - k;
            while (x < (long)n && y < (long)m && lines_equal(&a[x], &b[y])) {
                x++;
                y++;
            }
            cur[k + ld] = x;
            if (x >= (long)n && y >= (long)m) {
                done = 1;
                break;
            }
        }
        if (done)
            break;
        if (d == max) {
            for (size_t i = 0; i < rounds; i++)
                free(trace[i]);
            free(trace);
            for (size_t i = 0; i < n; i++)
                LF_VEC_PUSH(ops, (char)OP_DELETE);
            for (size_t i = 0; i < m; i++)
                LF_VEC_PUSH(ops, (char)OP_INSERT);
            return;
        }
    }
    /* Walk back from (n, m), collecting ops in reverse. */
    op_vec rev = {0};
    long x = (long)n, y = (long)m;
    for (size_t d = rounds - 1; d > 0; d--) {
        long ld = (long)d;
        long *prev = trace[d - 1];
        long k = x - y;
        long prev_k;
        if (k == -ld || (k != ld && prev[k - 1 + (ld - 1)] < prev[k + 1 + (ld - 1)]))
            prev_k = k + 1;
        else
            prev_k = k - 1;
        long prev_x = prev[prev_k + (ld - 1)];
        long prev_y = prev_x - prev_k;
        long mid_x = prev_k == k + 1 ? prev_x : prev_x + 1;
        long mid_y = mid_x - k;
        while (x > mid_x && y > mid_y) {
            LF_VEC_PUSH(&rev, (char)OP_EQUAL);
            x--;
            y--;
        }
        LF_VEC_PUSH(&rev, (char)(prev_k == k + 1 ? OP_INSERT : OP_DELETE));
        x = prev_x;
        y = prev_y;
    }
    while (x > 0 && y > 0) {
        LF_VEC_PUSH(&rev, (char)OP_EQUAL);
        x--;
        y--;
    }
    for (size_t i = rev.len; i > 0; i--)
        LF_VEC_PUSH(ops, rev.items[i - 1]);
    LF_VEC_FREE(&rev);
    for (size_t d = 0; d < rounds; d++)
        free(trace[d]);
    free(trace);
}

static void put_range(lf_strbuf *out, size_t start, size_t count) {
    /* GNU diff / git conventions: ",1" is omitted; an empty range names the line before it. */
    if (count == 1)
        lf_strbuf_printf(out, "%zu", start);
    else
        lf_strbuf_printf(out, "%zu,%zu", count ? start : (start ? start - 1 : 0), count);
}

static void put_line(lf_strbuf *out, char mark, const diff_line *l) {
    lf_strbuf_putc(out, mark);
    lf_strbuf_append(out, l->text, l->len);
    if (l->len == 0 || l->text[l->len - 1] != '\n')
        lf_strbuf_puts(out, "\n\\ No newline at end of file\n");
}

static void emit_hunks(lf_strbuf *out, const line_array *a, const line_array *b, const char *ops, size_t n_ops) {
    /* a_at[i] / b_at[i]: lines of a / b consumed before op i. */
    size_t *a_at = lf_xmalloc((n_ops + 1) * sizeof *a_at);
    size_t *b_at = lf_xmalloc((n_ops + 1) * sizeof *b_at);
    a_at[0] = b_at[0] = 0;
    for (size_t i = 0; i < n_ops; i++) {
        a_at[i + 1] = a_at[i] + (ops[i] != OP_INSERT);
        b_at[i + 1] = b_at[i] + (ops[i] != OP_DELETE);
    }
    size_t i = 0;
    while (i < n_ops) {
        while (i < n_ops && ops[i] == OP_EQUAL)
            i++;
        if (i == n_ops)
            break;
        size_t first = i;
        size_t last = i; /* last changed op of this hunk */
        for (size_t j = i + 1; j < n_ops; j++) {
            if (ops[j] == OP_EQUAL)
                continue;
            if (j - last - 1 > 2 * LF_DIFF_CONTEXT)
                break;
            last = j;
        }
        size_t start = first > LF_DIFF_CONTEXT ? first - LF_DIFF_CONTEXT : 0;
        size_t end = last + 1 + LF_DIFF_CONTEXT < n_ops ? last + 1 + LF_DIFF_CONTEXT : n_ops;
        lf_strbuf_puts(out, "@@ -");
        put_range(out, a_at[start] + 1, a_at[end] - a_at[start]);
        lf_strbuf_puts(out, " +");
        put_range(out, b_at[start] + 1, b_at[end] - b_at[start]);
        lf_strbuf_puts(out, " @@\n");
        for (size_t k = start; k < end; k++) {
            if (ops[k] == OP_EQUAL)
                put_line(out, ' ', &a->items[a_at[k]]);
            else if (ops[k] == OP_DELETE)
                put_line(out, '-', &a->items[a_at[k]]);
            else
                put_line(out, '+', &b->items[b_at[k]]);
        }
        i = end;
    }
    free(a_at);
    free(b_at);
}

void lf_diff_file(lf_strbuf *out, const char *path, const char *old_text, size_t old_len, const char *new_text,
                  size_t new_len) {
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0)
        return;
    line_array a = split_lines(old_text, old_len);
    line_array b = split_lines(new_text, new_len);
    /* The common prefix and suffix never enter the O(ND) search. */
    size_t pre = 0;
    while (pre < a.len && pre < b.len && lines_equal(&a.items[pre], &b.items[pre]))
        pre++;
    size_t suf = 0;
    while (suf < a.len - pre && suf < b.len - pre &&
           lines_equal(&a.items[a.len - 1 - suf], &b.items[b.len - 1 - suf]))
        suf++;
    op_vec ops = {0};
    for (size_t i = 0; i < pre; i++)
        LF_VEC_PUSH(&ops, (char)OP_EQUAL);
    myers(a.items + pre, a.len - pre - suf, b.items + pre, b.len - pre - suf, &ops);
    for (size_t i = 0; i < suf; i++)
        LF_VEC_PUSH(&ops, (char)OP_EQUAL);
    lf_strbuf_printf(out, "--- a/%s\n+++ b/%s\n", path, path);
    emit_hunks(out, &a, &b, ops.items, ops.len);
    LF_VEC_FREE(&ops);
    free(a.items);
    free(b.items);
}

void lf_diff_new_file(lf_strbuf *out, const char *path, const char *content, size_t len) {
    line_array b = split_lines(content, len);
    lf_strbuf_printf(out, "--- /dev/null\n+++ b/%s\n", path);
    if (b.len) {
        lf_strbuf_puts(out, "@@ -0,0 +");
        put_range(out, 1, b.len);
        lf_strbuf_puts(out, " @@\n");
        for (size_t i = 0; i < b.len; i++)
            put_line(out, '+', &b.items[i]);
    }
    free(b.items);
}

char *lf_diff_display_path(const char *path) {
    if (path[0] == '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) {
            size_t n = strlen(cwd);
            if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
                path += n + 1;
        }
    }
    while (path[0] == '.' && path[1] == '/') {
        path += 2;
        while (*path == '/')
            path++;
    }
    return lf_xstrdup(path);
}
