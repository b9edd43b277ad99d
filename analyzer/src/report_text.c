/* Text report: one block per finding, then a summary line.
 *
 *   lib/state.py:14:9: LF101 message
 *     14 |         if fcntl is not None:
 *        |         ^~~~~~~~~~~~~~~~~~~~~
 *        = fix: ...            (or "= unsafe fix (...): ...", "= no fix: reason")
 *        = witness (any platform):
 *          1. A  L10:16  reads ...
 *          => what is lost
 */
#include <stdio.h>
#include <string.h>

#include "lf_fix.h"
#include "lf_report.h"
#include "lf_witness.h"

/* Number of code points in text[0..len). */
static size_t code_points(const char *text, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            n++;
    return n;
}

/* Underline from 1-based code-point column col to end_col (exclusive) on this
 * line. Tabs before the caret are kept so it lines up in any tab width. */
static void put_caret(lf_strbuf *out, const char *line, size_t len, uint32_t col, uint32_t end_col) {
    size_t cp = 1, i = 0;
    for (; i < len && cp < col; i++) {
        if (((unsigned char)line[i] & 0xC0) == 0x80)
            continue;
        lf_strbuf_putc(out, line[i] == '\t' ? '\t' : ' ');
        cp++;
    }
    lf_strbuf_putc(out, '^');
    size_t line_cps = code_points(line, len);
    size_t stop = end_col > col ? end_col : col + 1;
    if (stop > line_cps + 1)
        stop = line_cps + 1;
    for (size_t c = col + 1; c < stop; c++)
        lf_strbuf_putc(out, '~');
}

/* Keep one finding per `path:line:col:` line for tools that grep the output. */
static void put_one_line(lf_strbuf *out, const char *msg) {
    for (; *msg; msg++)
        lf_strbuf_putc(out, (*msg == '\n' || *msg == '\r') ? ' ' : *msg);
    lf_strbuf_putc(out, '\n');
}

/* A file name with a control byte (a newline) would break the one-line-per-
 * finding shape: those bytes are shown as \n, \r, \t or \xNN (and a
 * backslash as \\ only then, so ordinary names print unchanged). JSON and
 * SARIF carry the exact name. */
static void put_path(lf_strbuf *out, const char *path) {
    int plain = 1;
    for (const unsigned char *p = (const unsigned char *)path; *p && plain; p++)
        plain = *p >= 0x20 && *p != 0x7f;
    if (plain) {
        lf_strbuf_puts(out, path);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '\n')
            lf_strbuf_puts(out, "\\n");
        else if (*p == '\r')
            lf_strbuf_puts(out, "\\r");
        else if (*p == '\t')
            lf_strbuf_puts(out, "\\t");
        else if (*p == '\\')
            lf_strbuf_puts(out, "\\\\");
        else if (*p < 0x20 || *p == 0x7f)
            lf_strbuf_printf(out, "\\x%02x", *p);
        else
            lf_strbuf_putc(out, (char)*p);
    }
}

static const char *plural(size_t n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

static void put_summary(lf_strbuf *out, const lf_scan *s) {
    lf_report_summary sum;
    lf_report_summarize(s, &sum);
    if (sum.findings == 0) {
        lf_strbuf_printf(out, "No findings in %zu %s", sum.files_scanned, plural(sum.files_scanned, "file", "files"));
    } else {
        lf_strbuf_printf(out, "Found %zu %s (", sum.findings, plural(sum.findings, "finding", "findings"));
        static const lf_severity order[] = {LF_SEV_ERROR, LF_SEV_WARNING, LF_SEV_INFO};
        static const char *const names[][2] = {{"error", "errors"}, {"warning", "warnings"}, {"info", "info"}};
        int first = 1;
        for (size_t k = 0; k < 3; k++) {
            size_t n = sum.by_severity[order[k]];
            if (!n)
                continue;
            lf_strbuf_printf(out, "%s%zu %s", first ? "" : ", ", n, names[k][n != 1]);
            first = 0;
        }
        lf_strbuf_printf(out, ") in %zu %s", sum.files_with_findings, plural(sum.files_with_findings, "file", "files"));
        if (sum.fixable)
            lf_strbuf_printf(out, "; %zu fixable with `lockfix fix`", sum.fixable);
        if (sum.unsafe_fixable)
            lf_strbuf_printf(out, "; %zu with an unsafe fix (`lockfix fix --unsafe-fixes`)", sum.unsafe_fixable);
    }
    if (sum.files_skipped)
        lf_strbuf_printf(out, "; %zu %s skipped", sum.files_skipped, plural(sum.files_skipped, "file", "files"));
    if (sum.files_partial)
        lf_strbuf_printf(out, "; %zu %s partially analyzed", sum.files_partial,
                         plural(sum.files_partial, "file", "files"));
    lf_strbuf_puts(out, sum.findings ? "\n" : ".\n");
}

/* The witness under a finding: numbered steps in interleaving order, each with
 * its process and place (padded so the texts line up), then the outcome. w is
 * the width of the line-number gutter it lines up with. */
void lf_report_text_witness(lf_strbuf *out, int w, const lf_witness *wit) {
    char where[32];
    int width = 0;
    for (size_t i = 0; i < wit->n_steps; i++) {
        int n = snprintf(where, sizeof where, "L%u:%u", wit->steps[i].line, wit->steps[i].col);
        if (n > width)
            width = n;
    }
    lf_strbuf_printf(out, "  %*s = witness (%s):\n", w, "", wit->platform);
    for (size_t i = 0; i < wit->n_steps; i++) {
        const lf_witness_step *st = &wit->steps[i];
        snprintf(where, sizeof where, "L%u:%u", st->line, st->col);
        lf_strbuf_printf(out, "  %*s   %zu. %s  %-*s  ", w, "", i + 1, lf_witness_process_name(st->process), width,
                         where);
        put_one_line(out, st->text);
    }
    if (wit->outcome) {
        lf_strbuf_printf(out, "  %*s   => ", w, "");
        put_one_line(out, wit->outcome);
    }
}

void lf_report_text(lf_strbuf *out, const lf_scan *s) {
    for (size_t i = 0; i < s->n_files; i++) {
        const lf_scan_file *f = &s->files[i];
        for (size_t k = 0; k < f->n_findings; k++) {
            const lf_finding *fd = &f->findings[k];
            put_path(out, fd->path);
            lf_strbuf_printf(out, ":%u:%u: %s ", fd->line, fd->col, fd->rule->id);
            put_one_line(out, fd->message ? fd->message : "");
            if (f->has_source) {
                size_t len;
                const char *line = lf_source_line(&f->src, fd->line, &len);
                char num[16];
                int w = snprintf(num, sizeof num, "%u", fd->line);
                lf_strbuf_printf(out, "  %s | %.*s\n", num, (int)len, line);
                lf_strbuf_printf(out, "  %*s | ", w, "");
                put_caret(out, line, len, fd->col, fd->end_line == fd->line ? fd->end_col : UINT32_MAX);
                lf_strbuf_putc(out, '\n');
                if (lf_fix_is_unsafe(fd))
                    lf_strbuf_printf(out, "  %*s = unsafe fix (applied with --unsafe-fixes): %s\n", w, "",
                                     fd->fix->title ? fd->fix->title : "available");
                else if (fd->fix)
                    lf_strbuf_printf(out, "  %*s = fix: %s\n", w, "", fd->fix->title ? fd->fix->title : "available");
                else if (fd->no_fix_reason)
                    lf_strbuf_printf(out, "  %*s = no fix: %s\n", w, "", fd->no_fix_reason);
                if (fd->witness)
                    lf_report_text_witness(out, w, fd->witness);
            }
            lf_strbuf_putc(out, '\n');
        }
    }
    put_summary(out, s);
}
