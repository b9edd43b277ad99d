#include "lf_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_util.h"

/* Larger files are generated or vendored code, not hand-written lock logic, and
 * reading them whole would let one file dominate memory in a parallel scan. */
#define LF_SOURCE_MAX_BYTES (16u * 1024u * 1024u)

size_t lf_source_first_bad_byte(const char *text, size_t len) { return lf_utf8_first_bad(text, len); }

/* Offsets of line starts in one pass; the estimate of one line per 32 bytes
 * rarely needs a second allocation. Built on the first question about lines,
 * not at load: most files of a scan are never parsed (the prefilters drop
 * them), and on CPython's library indexing them all was 3% of the scan. The
 * index is a cache of the text, so it is filled in behind a const source; a
 * source belongs to one thread at a time. */
static void build_line_index(lf_source *src) {
    size_t cap = src->len / 32 + 16, n = 1;
    src->line_starts = lf_xmalloc(cap * sizeof *src->line_starts);
    src->line_starts[0] = 0;
    for (const char *p = src->text, *end = src->text + src->len; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++) {
        if (n == cap) {
            cap *= 2;
            src->line_starts = lf_xrealloc(src->line_starts, cap * sizeof *src->line_starts);
        }
        src->line_starts[n++] = (uint32_t)(p - src->text + 1);
    }
    src->n_lines = n;
}

static const lf_source *indexed(const lf_source *src) {
    if (!src->line_starts)
        build_line_index((lf_source *)src);
    return src;
}

size_t lf_source_n_lines(const lf_source *src) { return indexed(src)->n_lines; }

uint32_t lf_source_line_start(const lf_source *src, size_t index) {
    indexed(src);
    return index < src->n_lines ? src->line_starts[index] : (uint32_t)src->len;
}

/* Lone CRs (not followed by LF) end lines in Python and JS but not in the
 * grammars: read them as LF, keeping the bytes on disk in raw. One pass; raw is
 * only allocated for files that have one. */
static void normalize_lone_cr(lf_source *src) {
    char *p = memchr(src->text, '\r', src->len);
    for (; p; p = memchr(p + 1, '\r', src->len - (size_t)(p + 1 - src->text))) {
        if ((size_t)(p + 1 - src->text) < src->len && p[1] == '\n')
            continue;
        if (!src->raw)
            src->raw = lf_xstrndup(src->text, src->len);
        *p = '\n';
        if ((size_t)(p + 1 - src->text) >= src->len)
            break;
    }
}

const char *lf_source_disk(const lf_source *src) { return src->raw ? src->raw : src->text; }

const char *lf_source_bytes(const lf_source *src, size_t *len) {
    if (src->bytes) {
        *len = src->bytes_len;
        return src->bytes;
    }
    *len = src->len;
    return lf_source_disk(src);
}

uint32_t lf_source_file_offset(const lf_source *src, uint32_t off) {
    if (off > src->len)
        off = (uint32_t)src->len;
    if (src->enc.kind == LF_ENC_UTF8)
        return off + src->enc.bom_len;
    /* The encoded length of the text before it: the text was decoded from
     * those bytes, so it encodes back (lf_fix checks the round trip before
     * writing anything). Only files in another encoding pay for this. */
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    size_t bad = 0;
    (void)lf_encoding_encode(&src->enc, lf_source_disk(src), off, &sb, &bad); /* on failure: what came before */
    uint32_t at = (uint32_t)(sb.len + src->enc.bom_len);
    lf_strbuf_free(&sb);
    return at;
}

const char *lf_source_eol(const lf_source *src) {
    const char *d = lf_source_disk(src);
    for (size_t i = 0; i < src->len; i++) {
        if (d[i] == '\n')
            return "\n";
        if (d[i] == '\r')
            return i + 1 < src->len && d[i + 1] == '\n' ? "\r\n" : "\r";
    }
    return "\n";
}

static void init_common(lf_source *out, const char *path, lf_lang lang) {
    memset(out, 0, sizeof *out);
    out->path = lf_xstrdup(path);
    out->lang = lang;
}

void lf_source_from_text(lf_source *out, const char *path, lf_lang lang, const char *text, size_t len) {
    init_common(out, path, lang);
    out->text = lf_xstrndup(text, len);
    out->len = len;
    out->size = len;
    normalize_lone_cr(out);
}

static lf_load_status fail(lf_load_status st, char **err, char *msg) {
    if (err)
        *err = msg;
    else
        free(msg);
    return st;
}

lf_load_status lf_source_load(const char *path, lf_lang lang, lf_source *out, char **err) {
    memset(out, 0, sizeof *out);
    if (err)
        *err = NULL;
    /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer; O_NOFOLLOW:
     * the walker decided on this name with lstat, a symlink swapped in since is refused. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        int e = errno;
        if (e == ELOOP)
            return fail(LF_LOAD_NOT_REGULAR, err, lf_xasprintf("%s: is a symbolic link, not read", path));
        return fail(LF_LOAD_IO_ERROR, err, lf_xasprintf("%s: cannot open: %s", path, strerror(e)));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(LF_LOAD_IO_ERROR, err, lf_xasprintf("%s: cannot stat: %s", path, strerror(e)));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fail(LF_LOAD_NOT_REGULAR, err, lf_xasprintf("%s: not a regular file, skipped", path));
    }
    if ((uint64_t)st.st_size > LF_SOURCE_MAX_BYTES) {
        close(fd);
        return fail(LF_LOAD_TOO_LARGE, err,
                    lf_xasprintf("%s: larger than %u bytes, skipped", path, LF_SOURCE_MAX_BYTES));
    }
    /* Reads are bounded by the cap, not by st_size: a file growing while read
     * cannot overrun the buffer, and one that grew past the cap is refused. */
    size_t cap = (size_t)st.st_size + 1;
    char *buf = lf_xmalloc(cap + 1);
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            if (cap > LF_SOURCE_MAX_BYTES) {
                free(buf);
                close(fd);
                return fail(LF_LOAD_TOO_LARGE, err,
                            lf_xasprintf("%s: larger than %u bytes, skipped", path, LF_SOURCE_MAX_BYTES));
            }
            cap *= 2;
            buf = lf_xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            return fail(LF_LOAD_IO_ERROR, err, lf_xasprintf("%s: read error: %s", path, strerror(e)));
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (len > LF_SOURCE_MAX_BYTES) {
        free(buf);
        return fail(LF_LOAD_TOO_LARGE, err,
                    lf_xasprintf("%s: larger than %u bytes, skipped", path, LF_SOURCE_MAX_BYTES));
    }
    buf[len] = '\0';
    lf_encoding enc;
    char *text = NULL, *why = NULL;
    size_t text_len = 0;
    lf_decode_status ds = lf_encoding_decode(buf, len, lang, &enc, &text, &text_len, &why);
    if (ds != LF_DECODE_OK) {
        free(buf);
        lf_load_status ls = ds == LF_DECODE_BINARY     ? LF_LOAD_BINARY
                            : ds == LF_DECODE_BAD_UTF8 ? LF_LOAD_BAD_UTF8
                                                       : LF_LOAD_BAD_ENCODING;
        lf_load_status r = fail(ls, err, lf_xasprintf("%s: %s, skipped", path, why));
        free(why);
        return r;
    }
    init_common(out, path, lang);
    out->enc = enc;
    if (text) { /* transcoded */
        out->text = text;
        out->len = text_len;
        out->bytes = buf;
        out->bytes_len = len;
    } else if (enc.bom_len) { /* UTF-8 behind a byte-order mark: the text starts after it */
        out->text = lf_xstrndup(buf + enc.bom_len, len - enc.bom_len);
        out->len = len - enc.bom_len;
        out->bytes = buf;
        out->bytes_len = len;
    } else {
        out->text = buf;
        out->len = len;
    }
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->size = (uint64_t)st.st_size;
    out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000LL + (int64_t)st.st_mtim.tv_nsec;
    out->mode = st.st_mode;
    normalize_lone_cr(out);
    return LF_LOAD_OK;
}

void lf_source_free(lf_source *src) {
    if (!src)
        return;
    free(src->path);
    free(src->text);
    free(src->raw);
    free(src->bytes);
    free(src->line_starts);
    memset(src, 0, sizeof *src);
}

static size_t line_index_of(const lf_source *src, uint32_t byte) {
    indexed(src);
    size_t lo = 0, hi = src->n_lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (src->line_starts[mid] <= byte)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void lf_source_position(const lf_source *src, uint32_t byte, uint32_t *line, uint32_t *col) {
    if (byte > src->len)
        byte = (uint32_t)src->len;
    size_t li = line_index_of(src, byte);
    uint32_t c = 1;
    for (uint32_t i = src->line_starts[li]; i < byte; i++)
        if (((unsigned char)src->text[i] & 0xC0) != 0x80)
            c++;
    *line = (uint32_t)li + 1;
    *col = c;
}

const char *lf_source_line(const lf_source *src, uint32_t line, size_t *len) {
    indexed(src);
    if (line == 0 || line > src->n_lines) {
        *len = 0;
        return "";
    }
    uint32_t start = src->line_starts[line - 1];
    uint32_t end = line < src->n_lines ? src->line_starts[line] - 1 : (uint32_t)src->len;
    if (end > start && src->text[end - 1] == '\r')
        end--;
    *len = end - start;
    return src->text + start;
}
