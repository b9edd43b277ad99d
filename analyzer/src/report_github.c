/* GitHub Actions workflow commands, one annotation per finding:
 *   ::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=LF101 unlocked-fallback::message
 * The runner splits properties on ',' and the command on '::', so property
 * values escape % \r \n : , and the message escapes % \r \n. */
#include <stdlib.h>

#include "lf_report.h"

static void put_escaped(lf_strbuf *out, const char *s, int property) {
    for (; *s; s++) {
        switch (*s) {
        case '%': lf_strbuf_puts(out, "%25"); break;
        case '\r': lf_strbuf_puts(out, "%0D"); break;
        case '\n': lf_strbuf_puts(out, "%0A"); break;
        case ':':
            if (property)
                lf_strbuf_puts(out, "%3A");
            else
                lf_strbuf_putc(out, ':');
            break;
        case ',':
            if (property)
                lf_strbuf_puts(out, "%2C");
            else
                lf_strbuf_putc(out, ',');
            break;
        default: lf_strbuf_putc(out, *s); break;
        }
    }
}

static const char *command_for(lf_severity s) {
    switch (s) {
    case LF_SEV_ERROR: return "error";
    case LF_SEV_WARNING: return "warning";
    default: return "notice";
    }
}

void lf_report_github(lf_strbuf *out, const lf_scan *s) {
    for (size_t i = 0; i < s->n_files; i++) {
        const lf_scan_file *f = &s->files[i];
        for (size_t k = 0; k < f->n_findings; k++) {
            const lf_finding *fd = &f->findings[k];
            lf_strbuf_printf(out, "::%s file=", command_for(fd->severity));
            put_escaped(out, fd->path, 1);
            lf_strbuf_printf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u,title=", fd->line, fd->col, fd->end_line,
                             fd->end_col);
            char *title = lf_xasprintf("%s %s", fd->rule->id, fd->rule->name);
            put_escaped(out, title, 1);
            free(title);
            lf_strbuf_puts(out, "::");
            put_escaped(out, fd->message ? fd->message : "", 0);
            lf_strbuf_putc(out, '\n');
        }
        if (f->partial_depth) {
            lf_strbuf_puts(out, "::warning file=");
            put_escaped(out, f->walked->path, 1);
            lf_strbuf_puts(out, ",title=lockfix partial analysis::");
            put_escaped(out, lf_scan_partial_reason(), 0);
            lf_strbuf_putc(out, '\n');
        }
    }
}
