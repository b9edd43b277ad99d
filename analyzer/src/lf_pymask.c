/* lf_pymask: comments and string texts of Python source blanked out (lf_pymask.h).
 *
 * One pass with a small explicit stack for f-strings: an f-string alternates
 * literal text (blanked) and replacement fields (code, kept), and a field may
 * hold strings and f-strings of its own (PEP 701). Where the grammar's reading
 * could differ from this one, the scan gives up rather than guess: a comment or
 * the enclosing f-string's quote inside a field, a newline in a field of a
 * one-line f-string, anything but plain text in a format spec. */
#include "lf_pymask.h"

#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

enum { MASK_STACK = 16 };

typedef enum frame_mode {
    IN_LITERAL,   /* an f-string's literal text */
    IN_FIELD,     /* a replacement field: code */
    IN_SPEC,      /* the format spec after a field's ':' */
    IN_SPEC_FIELD /* a field nested in a format spec: code (its frame has no quote) */
} frame_mode;

typedef struct frame {
    unsigned char quote; /* the f-string's quote; 0 for a field nested in a spec */
    unsigned char triple, raw;
    unsigned char mode; /* frame_mode */
    unsigned depth;     /* brackets open inside the field */
} frame;

static int ident_byte(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static void blank(char *out, size_t from, size_t to) {
    for (size_t i = from; i < to; i++)
        if (out[i] != '\n' && out[i] != '\r')
            out[i] = ' ';
}

/* The prefix letters (r, b, u, f, t in any case, at most two) right before the
 * quote at i: is it an f-string (or t-string), is it raw? An identifier that
 * runs into the quote is no prefix. */
static void string_prefix(const unsigned char *s, size_t i, int *fstring, int *raw) {
    size_t k = i;
    while (k > 0 && ident_byte(s[k - 1]))
        k--;
    *fstring = *raw = 0;
    if (i - k > 2)
        return;
    for (size_t j = k; j < i; j++) {
        unsigned char c = s[j] | 0x20;
        if (c == 'f' || c == 't')
            *fstring = 1;
        else if (c == 'r')
            *raw = 1;
        else if (c != 'b' && c != 'u') {
            *fstring = *raw = 0;
            return;
        }
    }
}

/* Does the string's closing quote (three of them when triple) start at j? */
static int closes(const unsigned char *s, size_t len, size_t j, unsigned char q, int triple) {
    return s[j] == q && (!triple || (j + 2 < len && s[j + 1] == q && s[j + 2] == q));
}

/* One past the closing quote of the plain string opened at i, or 0 when it
 * does not close where a lexer would be sure: a line end in a one-line string,
 * the end of the text. An escape hides the byte after the backslash, in raw
 * strings too (`r"\""` is one string). */
static size_t plain_string_end(const unsigned char *s, size_t len, size_t i, int triple) {
    unsigned char q = s[i];
    for (size_t j = i + (triple ? 3 : 1); j < len;) {
        if (s[j] == '\\') {
            j += 2;
            continue;
        }
        if (!triple && (s[j] == '\n' || s[j] == '\r'))
            return 0;
        if (closes(s, len, j, q, triple))
            return j + (triple ? 3 : 1);
        j++;
    }
    return 0;
}

/* Is some f-string on the stack a one-line one (a line end in its field would
 * be read differently by a grammar that predates PEP 701)? Does one use q? */
static int stack_has(const frame *st, size_t top, unsigned char q, int one_line) {
    for (size_t k = 0; k < top; k++)
        if (st[k].quote && ((q && st[k].quote == q) || (one_line && !st[k].triple)))
            return 1;
    return 0;
}

char *lf_pymask_code(const char *text, size_t len, lf_pymask_string_fn on_string, void *ud) {
    const unsigned char *s = (const unsigned char *)text;
    char *out = lf_xmalloc(len + 1);
    memcpy(out, text, len);
    out[len] = '\0';
    frame st[MASK_STACK];
    size_t top = 0;
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        frame *f = top ? &st[top - 1] : NULL;
        if (f && f->mode == IN_LITERAL) {
            if (closes(s, len, i, f->quote, f->triple)) {
                i += f->triple ? 3 : 1;
                top--;
            } else if (c == '\\' && !f->raw && i + 2 < len && s[i + 1] == 'N' && s[i + 2] == '{') {
                /* `\N{EM DASH}` names a character: its braces open no field */
                size_t j = i + 3;
                while (j < len && s[j] != '}' && s[j] != f->quote && s[j] != '\n')
                    j++;
                if (j >= len || s[j] != '}')
                    goto unsure;
                blank(out, i, j + 1);
                i = j + 1;
            } else if (c == '\\' && !(f->raw && i + 1 < len && (s[i + 1] == '{' || s[i + 1] == '}'))) {
                size_t to = i + 2 <= len ? i + 2 : len;
                blank(out, i, to);
                i = to;
            } else if (!f->triple && (c == '\n' || c == '\r')) {
                goto unsure;
            } else if ((c == '{' || c == '}') && i + 1 < len && s[i + 1] == c) {
                blank(out, i, i + 2); /* `{{`, `}}`: literal braces */
                i += 2;
            } else if (c == '}') {
                goto unsure;
            } else if (c == '{') {
                f->mode = IN_FIELD;
                f->depth = 0;
                i++;
            } else {
                blank(out, i, i + 1);
                i++;
            }
            continue;
        }
        if (f && f->mode == IN_SPEC) {
            if (c == '{') {
                if (top == MASK_STACK)
                    goto unsure;
                st[top++] = (frame){0, 0, 0, IN_SPEC_FIELD, 0};
            } else if (c == '}') {
                f->mode = IN_LITERAL;
            } else if (c == '\'' || c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '#') {
                goto unsure;
            } else {
                blank(out, i, i + 1);
            }
            i++;
            continue;
        }
        /* Code: the module's, or a replacement field's. */
        if (c == '#') {
            if (f)
                goto unsure;
            while (i < len && s[i] != '\n' && s[i] != '\r')
                out[i++] = ' ';
            continue;
        }
        if (c == '\'' || c == '"') {
            int triple = i + 2 < len && s[i + 1] == c && s[i + 2] == c;
            if (stack_has(st, top, c, 0))
                goto unsure;
            int fstring, raw;
            string_prefix(s, i, &fstring, &raw);
            if (fstring) {
                if (top == MASK_STACK)
                    goto unsure;
                st[top++] = (frame){c, (unsigned char)triple, (unsigned char)raw, IN_LITERAL, 0};
                i += triple ? 3 : 1;
                continue;
            }
            size_t end = plain_string_end(s, len, i, triple);
            if (!end)
                goto unsure;
            size_t q = triple ? 3 : 1;
            if (on_string)
                on_string(text + i + q, end - q - (i + q), ud);
            blank(out, i + q, end - q);
            i = end;
            continue;
        }
        if (f) {
            if ((c == '\n' || c == '\r') && stack_has(st, top, 0, 1))
                goto unsure;
            if (c == '(' || c == '[' || c == '{') {
                f->depth++;
            } else if (c == ')' || c == ']') {
                if (!f->depth)
                    goto unsure;
                f->depth--;
            } else if (c == '}' && f->depth) {
                f->depth--;
            } else if (c == '}') {
                if (f->mode == IN_SPEC_FIELD)
                    top--;
                else
                    f->mode = IN_LITERAL;
            } else if (c == ':' && !f->depth) {
                if (f->mode == IN_SPEC_FIELD)
                    goto unsure;
                f->mode = IN_SPEC;
            }
        }
        i++;
    }
    if (top)
        goto unsure;
    return out;
unsure:
    free(out);
    return NULL;
}
