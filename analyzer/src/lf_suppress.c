/* Suppression comments.
 *
 * Deciding "is this text inside a comment" uses a one-line lexer, not the
 * parse tree: quotes (' " and, for TypeScript, `) are tracked from the start of
 * the line with backslash escapes, and the first comment leader outside a string
 * starts the comment. A line inside a multi-line string (a Python docstring, a
 * template literal) is not known to be one, so a `# lockfix: ignore` written
 * inside such a string still counts. That heuristic is documented in the README.
 *
 * A directive on the flagged line may follow code; one on the line above counts
 * only when that line is nothing but the comment, so a trailing directive never
 * leaks onto the next statement.
 */
#include "lf_suppress.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* Offset of the comment leader in line[0..len), or -1. */
static long comment_start(const char *line, size_t len, lf_lang lang) {
    int ts = lang != LF_LANG_PYTHON;
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'' || (ts && c == '`'))
            quote = c;
        else if (!ts && c == '#')
            return (long)i;
        else if (ts && c == '/' && i + 1 < len && line[i + 1] == '/')
            return (long)i;
    }
    return -1;
}

static int rule_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* Does one directive, starting just after "ignore", cover rule_id? -1: malformed. */
static int directive_covers(const char *p, const char *end, const char *rule_id) {
    if (p < end && *p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (!close)
            return -1;
        const char *q = p + 1;
        while (q < close) {
            while (q < close && (*q == ' ' || *q == '\t' || *q == ','))
                q++;
            const char *s = q;
            while (q < close && *q != ',' && *q != ' ' && *q != '\t')
                q++;
            size_t n = (size_t)(q - s);
            if (n && n == strlen(rule_id) && strncasecmp(s, rule_id, n) == 0)
                return 1;
        }
        return 0;
    }
    /* Bare `lockfix: ignore` (not `ignored`, `ignore-foo`): every rule. */
    return (p == end || !rule_char(*p)) ? 1 : -1;
}

static int comment_suppresses(const char *c, const char *end, const char *rule_id) {
    static const char tag[] = "lockfix:";
    const size_t tag_len = sizeof tag - 1;
    for (const char *p = c; p + tag_len <= end; p++) {
        if (strncasecmp(p, tag, tag_len) != 0)
            continue;
        const char *q = p + tag_len;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(end - q) >= 6 && strncmp(q, "ignore", 6) == 0 && directive_covers(q + 6, end, rule_id) == 1)
            return 1;
    }
    return 0;
}

static int line_suppresses(const lf_source *src, uint32_t line, const char *rule_id, int comment_only) {
    size_t len;
    const char *text = lf_source_line(src, line, &len);
    long at = comment_start(text, len, src->lang);
    if (at < 0)
        return 0;
    if (comment_only) {
        for (long i = 0; i < at; i++)
            if (text[i] != ' ' && text[i] != '\t')
                return 0;
    }
    return comment_suppresses(text + at, text + len, rule_id);
}

int lf_suppressed(const lf_source *src, uint32_t line, const char *rule_id) {
    if (line == 0 || line > lf_source_n_lines(src))
        return 0;
    if (line_suppresses(src, line, rule_id, 0))
        return 1;
    return line > 1 && line_suppresses(src, line - 1, rule_id, 1);
}
