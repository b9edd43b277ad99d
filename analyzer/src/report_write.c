/* Shared report plumbing: format names, the summary, atomic output. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_fix.h"
#include "lf_report.h"
#include "lf_source.h"
#include "lf_tempfile.h"

int lf_format_parse(const char *name, lf_format *out) {
    static const struct {
        const char *name;
        lf_format fmt;
    } k[] = {{"text", LF_FORMAT_TEXT}, {"json", LF_FORMAT_JSON}, {"sarif", LF_FORMAT_SARIF}, {"github", LF_FORMAT_GITHUB}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (strcmp(name, k[i].name) == 0) {
            *out = k[i].fmt;
            return 1;
        }
    }
    return 0;
}

void lf_report_summarize(const lf_scan *s, lf_report_summary *out) {
    memset(out, 0, sizeof *out);
    out->files_skipped = s->n_skips;
    out->files_partial = s->n_partial;
    for (size_t i = 0; i < s->n_files; i++) {
        const lf_scan_file *f = &s->files[i];
        if (f->analyzed)
            out->files_scanned++;
        if (f->n_findings)
            out->files_with_findings++;
        for (size_t k = 0; k < f->n_findings; k++) {
            const lf_finding *fd = &f->findings[k];
            out->findings++;
            if (fd->severity <= LF_SEV_ERROR)
                out->by_severity[fd->severity]++;
            if (lf_fix_is_unsafe(fd))
                out->unsafe_fixable++;
            else if (fd->fix)
                out->fixable++;
            if (fd->severity >= s->config.fail_on)
                out->failing++;
        }
    }
}

size_t lf_report_rule_index(const lf_scan *s, const lf_rule *rule) {
    for (size_t i = 0; i < s->rules.n_rules; i++)
        if (s->rules.rules[i] == rule)
            return i;
    for (size_t i = 0; i < s->rules.n_rules; i++)
        if (strcmp(s->rules.rules[i]->id, rule->id) == 0)
            return i;
    return 0;
}

void lf_report_render(lf_format fmt, lf_strbuf *out, const lf_scan *s) {
    switch (fmt) {
    case LF_FORMAT_JSON: lf_report_json(out, s); break;
    case LF_FORMAT_SARIF: lf_report_sarif(out, s); break;
    case LF_FORMAT_GITHUB: lf_report_github(out, s); break;
    default: lf_report_text(out, s); break;
    }
}

static int write_all(int fd, const char *data, size_t len) {
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        data += w;
        len -= (size_t)w;
    }
    return 1;
}

void (*lf_report_before_rename_hook)(const char *tmp) = NULL;

int lf_report_write(const char *path, const char *data, size_t len, char **err) {
    *err = NULL;
    if (!path || strcmp(path, "-") == 0) {
        fflush(stdout);
        if (!write_all(STDOUT_FILENO, data, len)) {
            *err = lf_xasprintf("cannot write to standard output: %s", strerror(errno));
            return 0;
        }
        return 1;
    }
    /* Not a regular file (/dev/null, a FIFO a reader waits on, a terminal):
     * write into it. Renaming a temp over it would replace the device or pipe
     * itself with a plain file, /dev/null included when run as root. */
    struct stat target;
    if (stat(path, &target) == 0 && !S_ISREG(target.st_mode) && !S_ISDIR(target.st_mode)) {
        int out = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        int ok = out >= 0 && write_all(out, data, len);
        int e = errno;
        if (out >= 0 && close(out) != 0 && ok) {
            ok = 0;
            e = errno;
        }
        if (!ok)
            *err = lf_xasprintf("%s: cannot write output: %s", path, strerror(e));
        return ok;
    }
    /* A reader of the report (a CI upload step) never sees a half-written file:
     * write a temp in the same directory, fsync, then rename over the target. */
    int slot;
    int fd = lf_tempfile_create(path, ".", &slot); /* ".<base>.XXXXXX", removed on a signal */
    if (fd < 0) {
        *err = lf_xasprintf("%s: cannot create output file: %s", path, strerror(errno));
        return 0;
    }
    const char *tmpl = lf_tempfile_path(slot);
    /* mkstemp makes 0600; give the report the mode a plain create would. */
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    mode_t mode = (stat(path, &st) == 0 && S_ISREG(st.st_mode)) ? (st.st_mode & 07777) : (0666 & ~mask);
    int ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && lf_report_before_rename_hook)
        lf_report_before_rename_hook(tmpl);
    if (ok && rename(tmpl, path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) {
        lf_tempfile_remove(slot);
        *err = lf_xasprintf("%s: cannot write output file: %s", path, strerror(e));
    } else {
        lf_tempfile_forget(slot);
    }
    return ok;
}

/* cJSON_Print indents with tabs and aligns values with tabs; reports are read by
 * people too, so re-indent the compact form with two spaces. Strings are copied
 * verbatim (escapes included), so the data is unchanged. */
void lf_report_put_json(lf_strbuf *out, const cJSON *root) {
    char *compact = cJSON_PrintUnformatted(root);
    if (!compact) {
        fputs("lockfix: out of memory\n", stderr);
        exit(2);
    }
    int depth = 0;
    for (const char *p = compact; *p; p++) {
        char c = *p;
        if (c == '"') {
            const char *s = p;
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            lf_strbuf_append(out, s, (size_t)(p - s) + 1);
            if (!*p)
                break;
            continue;
        }
        if (c == '{' || c == '[') {
            char close = c == '{' ? '}' : ']';
            if (p[1] == close) { /* empty container stays on one line */
                lf_strbuf_putc(out, c);
                lf_strbuf_putc(out, close);
                p++;
                continue;
            }
            depth++;
            lf_strbuf_printf(out, "%c\n%*s", c, depth * 2, "");
        } else if (c == '}' || c == ']') {
            depth--;
            lf_strbuf_printf(out, "\n%*s%c", depth * 2, "", c);
        } else if (c == ',') {
            lf_strbuf_printf(out, ",\n%*s", depth * 2, "");
        } else if (c == ':') {
            lf_strbuf_puts(out, ": ");
        } else {
            lf_strbuf_putc(out, c);
        }
    }
    lf_strbuf_putc(out, '\n');
    cJSON_free(compact);
}

char *lf_report_utf8(const char *s, int *lossy) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    size_t len = strlen(s);
    *lossy = 0;
    for (size_t i = 0; i < len;) {
        size_t n = lf_utf8_seq_len((const unsigned char *)s + i, len - i);
        if (n == 0) {
            lf_strbuf_puts(&sb, "\xEF\xBF\xBD"); /* U+FFFD */
            *lossy = 1;
            i++;
            continue;
        }
        lf_strbuf_append(&sb, s + i, n);
        i += n;
    }
    if (!sb.data)
        return lf_xstrdup("");
    return lf_strbuf_detach(&sb);
}

static char *base64(const unsigned char *p, size_t n) {
    static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        lf_strbuf_putc(&sb, k[v >> 18 & 63]);
        lf_strbuf_putc(&sb, k[v >> 12 & 63]);
        lf_strbuf_putc(&sb, i + 1 < n ? k[v >> 6 & 63] : '=');
        lf_strbuf_putc(&sb, i + 2 < n ? k[v & 63] : '=');
    }
    return sb.data ? lf_strbuf_detach(&sb) : lf_xstrdup("");
}

void lf_report_add_path(cJSON *obj, const char *key, const char *path) {
    int lossy;
    char *text = lf_report_utf8(path, &lossy);
    cJSON_AddStringToObject(obj, key, text);
    free(text);
    if (lossy) {
        char *name = lf_xasprintf("%s_base64", key);
        char *b = base64((const unsigned char *)path, strlen(path));
        cJSON_AddStringToObject(obj, name, b);
        free(b);
        free(name);
    }
}
