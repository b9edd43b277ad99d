#include "lf_fix.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lf_diff.h"
#include "lf_engine.h"
#include "lf_rule.h"
#include "lf_tempfile.h"
#include "lf_util.h"

void (*lf_fix_before_commit_hook)(const char *path) = NULL;
void (*lf_fix_before_exchange_hook)(const char *path) = NULL;
int lf_fix_emulate_exchange = 0;

/* Written once by the command line before any thread or fix runs. */
static int g_allow_unsafe = 0;

void lf_fix_allow_unsafe(int allow) { g_allow_unsafe = allow != 0; }

int lf_fix_unsafe_allowed(void) { return g_allow_unsafe; }

int lf_fix_is_unsafe(const lf_finding *f) {
    return f->fix && f->rule && (f->rule->fix_safety == LF_FIX_UNSAFE || f->fix->unsafe);
}

int lf_fix_applicable(const lf_finding *f) {
    return f->fix && f->rule &&
           ((f->rule->fix_safety == LF_FIX_SAFE && !f->fix->unsafe) || (g_allow_unsafe && lf_fix_is_unsafe(f)));
}

typedef struct pending_edit {
    uint32_t start, end;
    const char *text;
    unsigned flags;
    const char *rule_id;
    size_t finding; /* index into the findings array: ties keep report order */
} pending_edit;

static int cmp_edit(const void *pa, const void *pb) {
    const pending_edit *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    int c = strcmp(a->text, b->text);
    if (c)
        return c;
    return a->finding < b->finding ? -1 : a->finding > b->finding;
}

static int same_edit(const pending_edit *a, const pending_edit *b) {
    return a->start == b->start && a->end == b->end && strcmp(a->text, b->text) == 0;
}

static uint32_t line_of(const lf_source *src, uint32_t byte) {
    uint32_t line, col;
    lf_source_position(src, byte, &line, &col);
    return line;
}

/* Generators write "\n". On disk, an inserted line break takes the file's own
 * convention (from its first line: "\r\n" or a lone "\r"). */
static void put_edit_text(lf_strbuf *sb, const char *text, const char *eol) {
    if (strcmp(eol, "\n") == 0) {
        lf_strbuf_puts(sb, text);
        return;
    }
    for (const char *c = text; *c; c++) {
        if (*c == '\n' && (c == text || c[-1] != '\r'))
            lf_strbuf_puts(sb, eol);
        else
            lf_strbuf_putc(sb, *c);
    }
}

/* Apply sorted, non-overlapping, deduplicated edits: to the text the engine
 * parsed (disk = 0: what the re-parse check reads) or to the bytes on disk
 * (disk = 1: what is written and diffed; lone CRs kept). */
static char *apply_edits_to(const lf_source *src, const pending_edit *e, size_t n, size_t *len_out, int disk) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_reserve(&sb, src->len);
    const char *base = disk ? lf_source_disk(src) : src->text;
    const char *eol = disk ? lf_source_eol(src) : "\n";
    uint32_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        lf_strbuf_append(&sb, base + pos, e[i].start - pos);
        put_edit_text(&sb, e[i].text, eol);
        pos = e[i].end;
    }
    lf_strbuf_append(&sb, base + pos, src->len - pos);
    *len_out = sb.len;
    return lf_strbuf_detach(&sb);
}

static char *apply_edits(const lf_source *src, const pending_edit *e, size_t n, size_t *len_out) {
    return apply_edits_to(src, e, n, len_out, 0);
}

/* Take the next piece of a transcoded file: utf8[0..len) encoded must be the
 * file's bytes at *at (the round trip the splice relies on). Appends those
 * bytes to out when keep. 0 when they differ. */
static int take_piece(const lf_source *src, const char *utf8, size_t len, size_t *at, lf_strbuf *out, int keep) {
    size_t blen, bad;
    const char *orig = lf_source_bytes(src, &blen);
    lf_strbuf enc;
    lf_strbuf_init(&enc);
    int ok = lf_encoding_encode(&src->enc, utf8, len, &enc, &bad) && enc.len <= blen - *at &&
             memcmp(enc.data ? enc.data : "", orig + *at, enc.len) == 0;
    if (ok && keep)
        lf_strbuf_append(out, orig + *at, enc.len);
    if (ok)
        *at += enc.len;
    lf_strbuf_free(&enc);
    return ok;
}

/* The fixed file's bytes for a file in another encoding: every byte outside
 * an edit is the file's own, as read; each edit's text (with the file's line
 * ending) is encoded as the file is. The pieces between and under the edits
 * must encode back to exactly the bytes they were decoded from, so nothing
 * outside an edit can change (every stateless encoding does; a stateful one,
 * ISO-2022-JP say, may not). NULL with *err otherwise. */
static char *splice_encoded(const lf_source *src, const pending_edit *e, size_t n, size_t *len_out, char **err) {
    size_t blen, at = src->enc.bom_len, pos = 0, bad;
    const char *orig = lf_source_bytes(src, &blen);
    const char *disk = lf_source_disk(src);
    const char *eol = lf_source_eol(src);
    lf_strbuf out, text;
    lf_strbuf_init(&out);
    lf_strbuf_init(&text);
    lf_strbuf_append(&out, orig, at);
    int ok = 1;
    const char *why = "its bytes do not encode back to themselves";
    for (size_t i = 0; ok && i < n; i++) {
        ok = take_piece(src, disk + pos, e[i].start - pos, &at, &out, 1) &&
             take_piece(src, disk + e[i].start, e[i].end - e[i].start, &at, &out, 0);
        text.len = 0;
        put_edit_text(&text, e[i].text, eol);
        if (ok && !lf_encoding_encode(&src->enc, text.data ? text.data : "", text.len, &out, &bad)) {
            ok = 0;
            why = "the new text of an edit cannot be encoded in it";
        }
        pos = e[i].end;
    }
    ok = ok && take_piece(src, disk + pos, src->len - pos, &at, &out, 1) && at == blen;
    lf_strbuf_free(&text);
    if (!ok) {
        lf_strbuf_free(&out);
        *err = lf_xasprintf("%s: refusing fixes: the file is in %s, and %s, so a fix could change bytes outside its "
                            "edits",
                            src->path, src->enc.name, why);
        return NULL;
    }
    *len_out = out.len;
    return out.data ? lf_strbuf_detach(&out) : lf_xstrdup("");
}

/* The fixed file as it goes to disk: the edits applied to the text with the
 * file's line endings, in the file's own encoding and behind its own
 * byte-order mark. NULL with *err when that cannot be done byte-exactly. */
static char *fixed_bytes(const lf_source *src, const pending_edit *e, size_t n, size_t *len_out, char **err) {
    if (!src->bytes)
        return apply_edits_to(src, e, n, len_out, 1);
    if (src->enc.kind != LF_ENC_UTF8)
        return splice_encoded(src, e, n, len_out, err);
    size_t len;
    char *utf8 = apply_edits_to(src, e, n, &len, 1);
    char *out = lf_xmalloc(src->enc.bom_len + len + 1);
    memcpy(out, src->bytes, src->enc.bom_len);
    memcpy(out + src->enc.bom_len, utf8, len + 1);
    free(utf8);
    *len_out = src->enc.bom_len + len;
    return out;
}

char *lf_fix_unwritable(const lf_source *src, const lf_fix *fix) {
    if (src->enc.kind == LF_ENC_UTF8)
        return NULL;
    if (src->enc.kind == LF_ENC_UTF16)
        return lf_xasprintf("the file is %s, and fixes are written only to files in UTF-8 or an ASCII-compatible "
                            "encoding (a diff of UTF-16 is not text)",
                            src->enc.name);
    for (size_t i = 0; i < fix->n_edits; i++) {
        const char *t = fix->edits[i].text ? fix->edits[i].text : "";
        lf_strbuf sink;
        lf_strbuf_init(&sink);
        size_t bad = 0;
        int ok = lf_encoding_encode(&src->enc, t, strlen(t), &sink, &bad);
        lf_strbuf_free(&sink);
        if (ok)
            continue;
        if (bad >= strlen(t))
            return lf_xasprintf("its new text cannot be written in %s (the file's encoding) without loss",
                                src->enc.name);
        size_t n = lf_utf8_seq_len((const unsigned char *)t + bad, strlen(t + bad));
        return lf_xasprintf("its new text has '%.*s', which %s (the file's encoding) cannot hold", (int)(n ? n : 1),
                            t + bad, src->enc.name);
    }
    return NULL;
}

static int valid_new_file_path(const char *p) {
    if (!p || !*p || p[0] == '/')
        return 0;
    const char *c = p;
    while (*c) {
        const char *slash = strchr(c, '/');
        size_t n = slash ? (size_t)(slash - c) : strlen(c);
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return 0;
        if (!slash)
            break;
        c = slash + 1;
        if (!*c)
            return 0;
    }
    return 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static int cmp_new_file(const void *a, const void *b) {
    return strcmp(((const lf_new_file *)a)->path, ((const lf_new_file *)b)->path);
}

static void add_rule_id(lf_fixed_file *out, const char *id) {
    for (size_t i = 0; i < out->n_rule_ids; i++)
        if (strcmp(out->rule_ids[i], id) == 0)
            return;
    out->rule_ids = lf_xrealloc(out->rule_ids, (out->n_rule_ids + 1) * sizeof *out->rule_ids);
    out->rule_ids[out->n_rule_ids++] = (char *)id;
}

/* Collect the new files of the applicable fixes, deduplicated by path. */
static int collect_new_files(const lf_source *src, const lf_finding *findings, size_t n, lf_fixed_file *out,
                             char **err) {
    for (size_t i = 0; i < n; i++) {
        if (!lf_fix_applicable(&findings[i]))
            continue;
        const lf_fix *fx = findings[i].fix;
        for (size_t j = 0; j < fx->n_new_files; j++) {
            const lf_new_file *nf = &fx->new_files[j];
            if (!valid_new_file_path(nf->path) || !nf->content) {
                *err = lf_xasprintf("%s: refusing fix of %s: new file path '%s' is not a plain relative path",
                                    src->path, findings[i].rule->id, nf->path ? nf->path : "");
                return 0;
            }
            size_t k;
            for (k = 0; k < out->n_new_files; k++)
                if (strcmp(out->new_files[k].path, nf->path) == 0)
                    break;
            if (k < out->n_new_files) {
                if (strcmp(out->new_files[k].content, nf->content) != 0) {
                    *err = lf_xasprintf("%s: refusing fixes: two fixes (%s) create %s with different content",
                                        src->path, findings[i].rule->id, nf->path);
                    return 0;
                }
                continue;
            }
            out->new_files = lf_xrealloc(out->new_files, (out->n_new_files + 1) * sizeof *out->new_files);
            out->new_files[out->n_new_files].path = lf_xstrdup(nf->path);
            out->new_files[out->n_new_files].content = lf_xstrdup(nf->content);
            out->n_new_files++;
        }
    }
    if (out->n_new_files > 1)
        qsort(out->new_files, out->n_new_files, sizeof *out->new_files, cmp_new_file);
    return 1;
}

/* The result does not parse: name the fixes that break it on their own, or, when
 * only the combination does, all of them. */
static char *blame_parse_failure(const lf_source *src, const lf_finding *findings, size_t n) {
    lf_strbuf names;
    lf_strbuf_init(&names);
    size_t culprits = 0;
    uint32_t first_line = 0;
    for (size_t i = 0; i < n; i++) {
        if (!lf_fix_applicable(&findings[i]) || findings[i].fix->n_edits == 0)
            continue;
        const lf_fix *fx = findings[i].fix;
        pending_edit *e = lf_xcalloc(fx->n_edits, sizeof *e);
        int ok = 1;
        for (size_t j = 0; j < fx->n_edits; j++) {
            e[j] = (pending_edit){fx->edits[j].start, fx->edits[j].end, fx->edits[j].text, fx->edits[j].flags,
                                  findings[i].rule->id, i};
            if (e[j].start > e[j].end || e[j].end > src->len)
                ok = 0;
        }
        qsort(e, fx->n_edits, sizeof *e, cmp_edit);
        for (size_t j = 1; ok && j < fx->n_edits; j++)
            if (e[j].start < e[j - 1].end)
                ok = 0;
        if (ok) {
            size_t len;
            char *text = apply_edits(src, e, fx->n_edits, &len);
            if (!lf_engine_parses_cleanly(src->lang, text, len)) {
                lf_strbuf_printf(&names, "%s%s", culprits ? ", " : "", findings[i].rule->id);
                if (!culprits)
                    first_line = findings[i].line;
                culprits++;
            }
            free(text);
        }
        free(e);
    }
    char *msg;
    if (culprits == 1)
        msg = lf_xasprintf("%s: refusing fix of %s (line %u): the fixed file would not parse", src->path,
                           names.data, first_line);
    else if (culprits > 1)
        msg = lf_xasprintf("%s: refusing fixes of %s: each leaves the file unparsable", src->path, names.data);
    else {
        lf_strbuf_free(&names);
        for (size_t i = 0; i < n; i++)
            if (lf_fix_applicable(&findings[i]))
                lf_strbuf_printf(&names, "%s%s", names.len ? ", " : "", findings[i].rule->id);
        msg = lf_xasprintf("%s: refusing fixes of %s: together they leave the file unparsable", src->path,
                           names.data ? names.data : "");
    }
    lf_strbuf_free(&names);
    return msg;
}

/* 1 when a Python file indents some lines with tabs and others with spaces (or
 * both in one line). Python reads such indentation by tab stops or rejects it
 * (TabError), while the grammar and the generators count columns their own
 * way: an inserted block could land at another depth. Conservative: any line
 * counts, also inside brackets and strings. */
static int mixed_indentation(const lf_source *src) {
    int tabs = 0, spaces = 0;
    for (size_t i = 0, n_lines = lf_source_n_lines(src); i < n_lines; i++) {
        const char *p = src->text + lf_source_line_start(src, i), *end = src->text + src->len;
        int t = 0, sp = 0;
        for (; p < end && (*p == ' ' || *p == '\t'); p++) {
            if (*p == '\t')
                t = 1;
            else
                sp = 1;
        }
        if (p == end || *p == '\n' || *p == '\r') /* blank line: its whitespace says nothing */
            continue;
        tabs |= t;
        spaces |= sp;
        if (tabs && spaces)
            return 1;
    }
    return 0;
}

int lf_fix_apply(const lf_source *src, const lf_finding *findings, size_t n, lf_fixed_file *out, char **err) {
    memset(out, 0, sizeof *out);
    LF_VEC(pending_edit) edits = {0};
    size_t n_fixes = 0;
    for (size_t i = 0; i < n; i++) {
        if (!lf_fix_applicable(&findings[i]))
            continue;
        n_fixes++;
        const lf_fix *fx = findings[i].fix;
        for (size_t j = 0; j < fx->n_edits; j++) {
            const lf_edit *ed = &fx->edits[j];
            if (ed->start > ed->end || ed->end > src->len || !ed->text) {
                *err = lf_xasprintf("%s: refusing fix of %s (line %u): edit [%u, %u) lies outside the file",
                                    src->path, findings[i].rule->id, findings[i].line, ed->start, ed->end);
                LF_VEC_FREE(&edits);
                return 0;
            }
            pending_edit pe = {ed->start, ed->end, ed->text, ed->flags, findings[i].rule->id, i};
            LF_VEC_PUSH(&edits, pe);
        }
    }
    if (n_fixes == 0)
        return 1;
    if (src->lang == LF_LANG_PYTHON && mixed_indentation(src)) {
        *err = lf_xasprintf("%s: refusing fixes: its indentation mixes tabs and spaces (Python reads it by tab "
                            "stops or rejects it), so a rewritten block could change depth",
                            src->path);
        LF_VEC_FREE(&edits);
        return 0;
    }
    if (!lf_engine_parses_cleanly(src->lang, src->text, src->len)) {
        *err = lf_xasprintf("%s: refusing fixes: the file does not parse cleanly before any fix", src->path);
        LF_VEC_FREE(&edits);
        return 0;
    }
    if (edits.len > 1)
        qsort(edits.items, edits.len, sizeof *edits.items, cmp_edit);
    /* Drop byte-identical duplicates (two findings adding the same import). */
    size_t kept = 0;
    for (size_t i = 0; i < edits.len; i++)
        if (kept == 0 || !same_edit(&edits.items[kept - 1], &edits.items[i]))
            edits.items[kept++] = edits.items[i];
    edits.len = kept;
    /* Overlap: an edit starting before an earlier one ends, or two different
     * insertions at one point (their order would be a guess), unless both
     * insert imports, which commute (they are applied in text order). */
    size_t widest = 0;
    for (size_t i = 1; i < edits.len; i++) {
        const pending_edit *a = &edits.items[widest], *b = &edits.items[i];
        int overlap = b->start < a->end;
        const pending_edit *prev = &edits.items[i - 1];
        if (prev->start == b->start && prev->end == prev->start && b->end == b->start &&
            !((prev->flags & LF_EDIT_IMPORT) && (b->flags & LF_EDIT_IMPORT)))
            overlap = 1, a = prev;
        if (overlap) {
            if (strcmp(a->rule_id, b->rule_id) == 0 && a->finding == b->finding)
                *err = lf_xasprintf("%s: refusing fix of %s: two of its edits overlap (lines %u and %u)", src->path,
                                    a->rule_id, line_of(src, a->start), line_of(src, b->start));
            else
                *err = lf_xasprintf("%s: refusing fixes: edits of %s (line %u) and %s (line %u) overlap", src->path,
                                    a->rule_id, line_of(src, a->start), b->rule_id, line_of(src, b->start));
            LF_VEC_FREE(&edits);
            return 0;
        }
        if (b->end >= a->end)
            widest = i;
    }
    if (!collect_new_files(src, findings, n, out, err)) {
        LF_VEC_FREE(&edits);
        lf_fixed_file_free(out);
        return 0;
    }
    size_t parsed_len;
    char *parsed = apply_edits(src, edits.items, edits.len, &parsed_len);
    out->text = fixed_bytes(src, edits.items, edits.len, &out->len, err);
    LF_VEC_FREE(&edits);
    if (!out->text) {
        free(parsed);
        lf_fixed_file_free(out);
        return 0;
    }
    int clean = lf_engine_parses_cleanly(src->lang, parsed, parsed_len);
    free(parsed);
    if (!clean) {
        *err = blame_parse_failure(src, findings, n);
        lf_fixed_file_free(out);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (!lf_fix_applicable(&findings[i]))
            continue;
        out->n_fixed++;
        add_rule_id(out, findings[i].rule->id);
    }
    if (out->n_rule_ids > 1)
        qsort(out->rule_ids, out->n_rule_ids, sizeof *out->rule_ids, cmp_str);
    return 1;
}

int lf_fixed_file_merge(lf_fixed_file *into, lf_fixed_file *later, char **err) {
    for (size_t j = 0; j < later->n_new_files; j++) /* refuse before changing anything */
        for (size_t k = 0; k < into->n_new_files; k++)
            if (strcmp(into->new_files[k].path, later->new_files[j].path) == 0 &&
                strcmp(into->new_files[k].content, later->new_files[j].content) != 0) {
                *err = lf_xasprintf("two rounds of fixes create %s with different contents", into->new_files[k].path);
                return 0;
            }
    for (size_t j = 0; j < later->n_new_files; j++) {
        const lf_new_file *nf = &later->new_files[j];
        size_t k = 0;
        while (k < into->n_new_files && strcmp(into->new_files[k].path, nf->path) != 0)
            k++;
        if (k < into->n_new_files)
            continue;
        into->new_files = lf_xrealloc(into->new_files, (into->n_new_files + 1) * sizeof *into->new_files);
        into->new_files[into->n_new_files].path = lf_xstrdup(nf->path);
        into->new_files[into->n_new_files].content = lf_xstrdup(nf->content);
        into->n_new_files++;
    }
    if (into->n_new_files > 1)
        qsort(into->new_files, into->n_new_files, sizeof *into->new_files, cmp_new_file);
    for (size_t j = 0; j < later->n_rule_ids; j++)
        add_rule_id(into, later->rule_ids[j]);
    if (into->n_rule_ids > 1)
        qsort(into->rule_ids, into->n_rule_ids, sizeof *into->rule_ids, cmp_str);
    free(into->text);
    into->text = later->text;
    into->len = later->len;
    later->text = NULL;
    into->n_fixed += later->n_fixed;
    lf_fixed_file_free(later);
    return 1;
}

void lf_fixed_file_free(lf_fixed_file *f) {
    free(f->text);
    free(f->rule_ids);
    for (size_t i = 0; i < f->n_new_files; i++) {
        free(f->new_files[i].path);
        free(f->new_files[i].content);
    }
    free(f->new_files);
    memset(f, 0, sizeof *f);
}

/* ---- writing ---- */

static int64_t mtime_ns_of(const struct stat *st) {
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

static int read_fd_all(int fd, lf_strbuf *sb) {
    char buf[65536];
    for (;;) {
        ssize_t r = read(fd, buf, sizeof buf);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        if (r == 0)
            return 1;
        lf_strbuf_append(sb, buf, (size_t)r);
    }
}

static int write_fd_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* 1 when `path` is still the very file src was read from, byte for byte. *st_out
 * receives its stat. On 0, *why says what differs (static string or errno text). */
static int still_as_read(const char *path, const lf_source *src, struct stat *st_out, const char **why) {
    size_t bytes_len;
    const char *bytes = lf_source_bytes(src, &bytes_len);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return 0;
    }
    struct stat st;
    int same = 0;
    if (fstat(fd, &st) != 0) {
        *why = strerror(errno);
    } else if (!S_ISREG(st.st_mode)) {
        *why = "no longer a regular file";
    } else if ((uint64_t)st.st_dev != src->dev || (uint64_t)st.st_ino != src->ino) {
        *why = "replaced by another file since it was read";
    } else if (st.st_nlink > 1) {
        *why = "it has several hard links, and replacing it would split them";
    } else if ((uint64_t)st.st_size != src->size || mtime_ns_of(&st) != src->mtime_ns) {
        *why = "modified since it was read";
    } else {
        lf_strbuf sb;
        lf_strbuf_init(&sb);
        if (!read_fd_all(fd, &sb))
            *why = strerror(errno);
        else if (sb.len != bytes_len || memcmp(sb.data ? sb.data : "", bytes, bytes_len) != 0)
            *why = "content changed since it was read";
        else
            same = 1;
        lf_strbuf_free(&sb);
    }
    close(fd);
    if (same)
        *st_out = st;
    return same;
}

static void fsync_dir_of(const char *path) {
    char *copy = lf_xstrdup(path);
    int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd); /* best effort: the rename itself already happened */
        close(dfd);
    }
    free(copy);
}

/* ---- replacing a file without losing a concurrent edit ----
 *
 * A check followed by rename(2) has a window: an append made between the last
 * check and the rename lands in the old inode, which the rename then drops.
 * lf_fix_write closes it by exchanging instead of replacing
 * (renameat2 RENAME_EXCHANGE): the fixed temp takes the file's name and the
 * file's inode comes out under the temp's name, still whole. Then:
 *   1. wait (bounded) until no other process has that inode open: a write
 *      lease (F_SETLEASE F_WRLCK) can only be taken when nobody else has it
 *      open, and it is released at once. From then on nobody can write to it
 *      (its only name is a fresh hidden temp);
 *   2. compare what came out with what was read, byte for byte;
 *   3. identical: unlink it, the fix landed. Different (an edit slipped in), or
 *      still held open after the wait: exchange back, so the file holds the
 *      edit, and report the file as modified, not fixed.
 * Where a lease cannot be taken (a file owned by another user without
 * CAP_LEASE, a filesystem without leases), step 1 is skipped: an append
 * through a descriptor opened before the exchange and written after step 2
 * would still land in the inode that is dropped (documented in
 * docs/robustness-io.md). */

#define LF_BUSY_WAIT_MS 3000

static void sleep_ms(unsigned ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* 1 when no other process has fd's file open (lease taken and released), 0 when
 * one still does after the bounded wait, -1 when leases are unavailable here. */
static int wait_sole_opener(int fd) {
    unsigned waited = 0, step = 1;
    for (;;) {
        if (fcntl(fd, F_SETLEASE, F_WRLCK) == 0) {
            (void)fcntl(fd, F_SETLEASE, F_UNLCK);
            return 1;
        }
        if (errno != EAGAIN && errno != EBUSY)
            return -1;
        if (waited >= LF_BUSY_WAIT_MS)
            return 0;
        sleep_ms(step);
        waited += step;
        step = step < 64 ? step * 2 : 64;
    }
}

/* 1 when `name` is the inode (dev, ino) holding exactly want[0..len), once no
 * other process has it open. *why is set on 0. */
static int settled_as(const char *name, uint64_t dev, uint64_t ino, const char *want, size_t len,
                      const char **why) {
    int fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return 0;
    }
    struct stat st;
    int ok = 0;
    if (fstat(fd, &st) != 0) {
        *why = strerror(errno);
    } else if ((uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino) {
        *why = "replaced by another file while it was being written";
    } else if (wait_sole_opener(fd) == 0) {
        *why = "held open by another process while it was being written";
    } else {
        lf_strbuf sb;
        lf_strbuf_init(&sb);
        if (!read_fd_all(fd, &sb))
            *why = strerror(errno);
        else if (sb.len != len || memcmp(sb.data ? sb.data : "", want, len) != 0)
            *why = "modified while it was being written (a concurrent edit)";
        else
            ok = 1;
        lf_strbuf_free(&sb);
    }
    close(fd);
    return ok;
}

/* Where the filesystem has no RENAME_EXCHANGE (NFS, vfat, ...): the same
 * outcome through a third name c, with b always present: link b's inode as c,
 * rename a over b, rename c to a. Not atomic, but no name is ever missing and
 * no inode is dropped; c is registered, so a signal removes that extra name. */
static int exchange_emulated(const char *a, const char *b) {
    int slot;
    int fd = lf_tempfile_create(b, ".lockfix-swap-", &slot);
    if (fd < 0)
        return -1;
    close(fd);
    const char *c = lf_tempfile_path(slot);
    int saved;
    if (unlink(c) != 0 || link(b, c) != 0) {
        saved = errno;
        lf_tempfile_remove(slot);
        errno = saved;
        return -1;
    }
    if (rename(a, b) != 0) {
        saved = errno;
        lf_tempfile_remove(slot); /* only the extra name of b's inode */
        errno = saved;
        return -1;
    }
    if (rename(c, a) != 0) {
        /* b holds a's inode, b's old inode is only under c: keep c. */
        saved = errno;
        lf_tempfile_forget(slot);
        errno = saved;
        return -1;
    }
    lf_tempfile_forget(slot);
    return 0;
}

static int exchange(const char *a, const char *b) {
    if (!lf_fix_emulate_exchange) {
        if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
            return 0;
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
            return -1;
    }
    return exchange_emulated(a, b);
}

int lf_fix_check_unchanged(const char *path, const lf_source *src, char **err) {
    struct stat st;
    const char *why = NULL;
    if (still_as_read(path, src, &st, &why))
        return 1;
    *err = lf_xasprintf("%s: not written: %s", path, why);
    return 0;
}

int lf_fix_write(const char *path, const lf_source *src, const char *text, size_t len, char **err) {
    struct stat st;
    const char *why = NULL;
    if (!still_as_read(path, src, &st, &why)) {
        *err = lf_xasprintf("%s: not written: %s", path, why);
        return 0;
    }
    int slot;
    int fd = lf_tempfile_create(path, ".lockfix-", &slot);
    if (fd < 0) {
        *err = lf_xasprintf("%s: not written: cannot create a temporary file beside it: %s", path, strerror(errno));
        return 0;
    }
    const char *tmp = lf_tempfile_path(slot);
    /* Keep mode and, where permitted, owner: the exchange replaces the inode. */
    int ok = fchmod(fd, st.st_mode & 07777) == 0;
    if (ok && (fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM))
        ok = 0;
    ok = ok && write_fd_all(fd, text, len) && fsync(fd) == 0;
    int saved = errno;
    struct stat tst;
    if (ok && fstat(fd, &tst) != 0) {
        ok = 0;
        saved = errno;
    }
    if (close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (!ok) {
        lf_tempfile_remove(slot);
        *err = lf_xasprintf("%s: not written: writing the temporary file failed: %s", path, strerror(saved));
        return 0;
    }
    if (lf_fix_before_commit_hook)
        lf_fix_before_commit_hook(path);
    /* Cheap early refusal; the exchange below is what makes it safe. */
    if (!still_as_read(path, src, &st, &why)) {
        lf_tempfile_remove(slot);
        *err = lf_xasprintf("%s: not written: %s", path, why);
        return 0;
    }
    if (lf_fix_before_exchange_hook)
        lf_fix_before_exchange_hook(path);
    if (exchange(tmp, path) != 0) {
        saved = errno;
        lf_tempfile_remove(slot);
        *err = lf_xasprintf("%s: not written: cannot exchange it with the fixed temporary file: %s", path,
                            strerror(saved));
        return 0;
    }
    /* From here the temp's name holds the original inode. A signal now removes
     * it (lf_tempfile): the file then stays fixed, as it is at this instant. */
    size_t bytes_len;
    const char *bytes = lf_source_bytes(src, &bytes_len);
    if (settled_as(tmp, src->dev, src->ino, bytes, bytes_len, &why)) {
        lf_tempfile_remove(slot);
        fsync_dir_of(path);
        return 1;
    }
    /* Swap back: the file gets its edited inode again. */
    if (exchange(tmp, path) != 0) {
        saved = errno;
        lf_tempfile_forget(slot); /* holds the user's edit: never removed */
        *err = lf_xasprintf("%s: %s, and putting it back failed (%s): the edited original is kept as %s", path, why,
                            strerror(saved), tmp);
        return 0;
    }
    const char *why2 = NULL;
    if (!settled_as(tmp, (uint64_t)tst.st_dev, (uint64_t)tst.st_ino, text, len, &why2)) {
        /* The fixed file was written to in the instant it was in place: both
         * inodes hold someone's edit, so neither is removed. */
        lf_tempfile_forget(slot);
        *err = lf_xasprintf("%s: not written: %s; the fixed copy was also edited meanwhile and is kept as %s", path,
                            why, tmp);
        return 0;
    }
    lf_tempfile_remove(slot);
    fsync_dir_of(path);
    *err = lf_xasprintf("%s: not written: %s", path, why);
    return 0;
}

static int mkdir_parents(const char *path) {
    char *copy = lf_xstrdup(path);
    for (char *p = copy + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(copy, 0777) != 0 && errno != EEXIST) {
            free(copy);
            return 0;
        }
        *p = '/';
    }
    free(copy);
    return 1;
}

int lf_fix_create(const char *path, const char *content, size_t len, char **err) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        lf_strbuf sb;
        lf_strbuf_init(&sb);
        struct stat st;
        int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read_fd_all(fd, &sb) && sb.len == len &&
                   memcmp(sb.data ? sb.data : "", content, len) == 0;
        lf_strbuf_free(&sb);
        close(fd);
        if (same)
            return 1;
        *err = lf_xasprintf("%s: not created: a different file already exists there", path);
        return 0;
    }
    if (!mkdir_parents(path)) {
        *err = lf_xasprintf("%s: not created: cannot create its directory: %s", path, strerror(errno));
        return 0;
    }
    int slot;
    fd = lf_tempfile_create(path, ".lockfix-", &slot);
    if (fd < 0) {
        *err = lf_xasprintf("%s: not created: %s", path, strerror(errno));
        return 0;
    }
    const char *tmp = lf_tempfile_path(slot);
    int ok = fchmod(fd, 0644) == 0 && write_fd_all(fd, content, len) && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    /* link() fails on an existing name: the new file appears complete or not at all,
     * and never replaces a file created meanwhile. */
    if (ok && link(tmp, path) != 0) {
        ok = 0;
        saved = errno;
    }
    lf_tempfile_remove(slot);
    if (!ok) {
        *err = lf_xasprintf("%s: not created: %s", path, strerror(saved));
        return 0;
    }
    fsync_dir_of(path);
    return 2;
}

/* ---- new files of a run ---- */

static char *join_dir(const char *file_path, const char *rel) {
    const char *slash = strrchr(file_path, '/');
    if (!slash)
        return lf_xstrdup(rel);
    return lf_xasprintf("%.*s/%s", (int)(slash - file_path), file_path, rel);
}

int lf_new_file_set_add(lf_new_file_set *set, const char *fixed_path, const lf_fixed_file *ff, char **err) {
    for (size_t k = 0; k < ff->n_new_files; k++) {
        char *path = join_dir(fixed_path, ff->new_files[k].path);
        size_t m;
        for (m = 0; m < set->len; m++)
            if (strcmp(set->items[m].path, path) == 0)
                break;
        if (m < set->len) {
            if (strcmp(set->items[m].content, ff->new_files[k].content) != 0) {
                *err = lf_xasprintf("%s: refusing to create it: the fixes of %s and of an earlier file want "
                                    "different content there",
                                    path, fixed_path);
                free(path);
                return 0;
            }
            free(path);
            continue;
        }
        set->items = lf_xrealloc(set->items, (set->len + 1) * sizeof *set->items);
        set->items[set->len].path = path;
        set->items[set->len].content = lf_xstrdup(ff->new_files[k].content);
        set->len++;
    }
    return 1;
}

void lf_new_file_set_diff(const lf_new_file_set *set, lf_strbuf *out) {
    for (size_t i = 0; i < set->len; i++) {
        char *shown = lf_diff_display_path(set->items[i].path);
        lf_diff_new_file(out, shown, set->items[i].content, strlen(set->items[i].content));
        free(shown);
    }
}

void lf_new_file_set_free(lf_new_file_set *set) {
    for (size_t i = 0; i < set->len; i++) {
        free(set->items[i].path);
        free(set->items[i].content);
    }
    free(set->items);
    set->items = NULL;
    set->len = 0;
}
