/* lf_queryshape: the query shapes tree-sitter's compiler mishandles
 * (lf_queryshape.h).
 *
 * The reader follows ts_query__parse_pattern (tree-sitter 0.25, query.c) token
 * for token, with an explicit stack in place of its recursion. Where the
 * compiler would stop with an error, the reader stops too and passes the text:
 * the compiler reports it, and it never reaches a later pattern. */
#include "lf_queryshape.h"

#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

/* Real queries nest a few dozen levels; the compiler recurses once per level. */
#define MAX_NESTING 256

typedef enum { IN_TOP, IN_ALTERNATION, IN_GROUP, IN_NODE, IN_FIELD } context;

typedef struct frame {
    context kind;
    size_t start;      /* the byte that opened it */
    int has_node;      /* a group: a child adds a node */
    unsigned branches; /* an alternation: branches read */
} frame;

typedef struct reader {
    const char *s;
    size_t n, pos;
    int wide; /* a token decision met a non-ASCII byte (at wide_at) */
    size_t wide_at;
} reader;

/* The byte a token decision looks at (0 at the end, as the compiler's stream). */
static int peek(reader *r) {
    if (r->pos >= r->n)
        return 0;
    unsigned char c = (unsigned char)r->s[r->pos];
    if (c >= 0x80 && !r->wide) {
        r->wide = 1;
        r->wide_at = r->pos;
    }
    return c;
}

static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int is_ident_start(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
}

/* Whitespace and `;` comments, which run to the end of the line. */
static void skip_space(reader *r) {
    for (;;) {
        int c = peek(r);
        if (is_space(c)) {
            r->pos++;
        } else if (c == ';') {
            while (r->pos < r->n && r->s[r->pos] != '\n')
                r->pos++;
        } else {
            return;
        }
    }
}

/* An identifier run (the first byte is known to start one): names may hold
 * `.`, `?` and `!` after the first byte, as the compiler reads them. */
static void scan_ident(reader *r) {
    int c;
    do {
        r->pos++;
        c = peek(r);
    } while (is_ident_start(c) || c == '.' || c == '?' || c == '!');
}

/* A string literal at r->pos; 0 where the compiler refuses it (a raw newline,
 * or no closing quote). A backslash takes the next byte whatever it is: the
 * bytes of a multi-byte character that follow are never a quote, a backslash
 * or a newline. */
static int skip_string(reader *r) {
    r->pos++;
    while (r->pos < r->n) {
        char c = r->s[r->pos];
        if (c == '\\') {
            r->pos += 2;
            continue;
        }
        if (c == '"') {
            r->pos++;
            return 1;
        }
        if (c == '\n')
            return 0;
        r->pos++;
    }
    return 0;
}

/* A predicate's body after its `(#` or `(.`: a name, then captures, strings
 * and names up to its `)`. */
static int skip_predicate(reader *r) {
    if (!is_ident_start(peek(r)))
        return 0;
    scan_ident(r);
    skip_space(r);
    for (;;) {
        int c = peek(r);
        if (c == ')') {
            r->pos++;
            skip_space(r);
            return 1;
        }
        if (c == '@') {
            r->pos++;
            if (!is_ident_start(peek(r)))
                return 0;
            scan_ident(r);
        } else if (c == '"') {
            if (!skip_string(r))
                return 0;
        } else if (is_ident_start(c)) {
            scan_ident(r);
        } else {
            return 0;
        }
        skip_space(r);
    }
}

/* After `(` and the name of a node: `MISSING` takes a node name or string
 * after it (the compiler takes any prefix of the word for it), and a
 * supertype may name a subtype after `/`. */
static int skip_node_head(reader *r, size_t name_start) {
    size_t name_len = r->pos - name_start;
    int wildcard = name_len == 1 && r->s[name_start] == '_';
    if (!wildcard && name_len <= 7 && memcmp(r->s + name_start, "MISSING", name_len) == 0) {
        skip_space(r);
        int c = peek(r);
        if (is_ident_start(c))
            scan_ident(r);
        else if (c == '"') {
            if (!skip_string(r))
                return 0;
        } else if (c != ')') {
            return 0;
        }
    }
    skip_space(r);
    if (peek(r) == '/') {
        r->pos++;
        if (!is_ident_start(peek(r)))
            return 0;
        scan_ident(r);
        skip_space(r);
    }
    return 1;
}

typedef struct stack {
    frame *items;
    size_t len, cap;
} stack;

static frame *push(stack *st, context kind, size_t start) {
    if (st->len == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 16;
        st->items = lf_xrealloc(st->items, st->cap * sizeof *st->items);
    }
    frame *f = &st->items[st->len++];
    *f = (frame){kind, start, 0, 0};
    return f;
}

int lf_queryshape_check(const char *text, size_t len, size_t *at, const char **why) {
    reader r = {text, len, 0, 0, 0};
    stack st = {0};
    const char *fault = NULL;
    size_t fault_at = 0, start = 0;
    int stepless = 0;
    skip_space(&r);
    push(&st, IN_TOP, 0);

next_pattern: /* a pattern's first token, in the context on top of the stack */
    if (r.wide)
        goto done;
    if (st.len > MAX_NESTING) {
        fault = "patterns nested more than 256 deep";
        fault_at = st.items[st.len - 1].start;
        goto done;
    }
    {
        frame *f = &st.items[st.len - 1];
        if (f->kind == IN_TOP && r.pos >= r.n)
            goto done;
        int c = peek(&r);
        if (c == ')' || c == ']') { /* the end of the enclosing pattern */
            int closes = (f->kind == IN_ALTERNATION && c == ']' && f->branches > 0) ||
                         ((f->kind == IN_GROUP || f->kind == IN_NODE) && c == ')');
            if (!closes)
                goto done; /* the compiler's syntax error */
            r.pos++;
            if (f->kind == IN_GROUP && !f->has_node) {
                fault = "a group of predicates only (a group must hold a node pattern)";
                fault_at = f->start;
                goto done;
            }
            st.len--;
            goto node_done;
        }
        start = r.pos;
        if (c == '[') {
            r.pos++;
            skip_space(&r);
            push(&st, IN_ALTERNATION, start);
            goto next_pattern;
        }
        if (c == '(') {
            r.pos++;
            skip_space(&r);
            c = peek(&r);
            if (c == '(' || c == '"' || c == '[') {
                push(&st, IN_GROUP, start);
                goto group_child;
            }
            if (c == '.' || c == '#') {
                r.pos++;
                if (!skip_predicate(&r))
                    goto done;
                stepless = 1;
                goto report;
            }
            if (!is_ident_start(c))
                goto done;
            size_t name_start = r.pos;
            scan_ident(&r);
            if (!skip_node_head(&r, name_start))
                goto done;
            push(&st, IN_NODE, start);
            goto node_child;
        }
        if (c == '_') {
            r.pos++;
            skip_space(&r);
            goto node_done;
        }
        if (c == '"') {
            if (!skip_string(&r))
                goto done;
            goto node_done;
        }
        if (is_ident_start(c)) { /* field: pattern */
            scan_ident(&r);
            skip_space(&r);
            if (peek(&r) != ':')
                goto done;
            r.pos++;
            skip_space(&r);
            push(&st, IN_FIELD, start);
            goto next_pattern;
        }
        goto done; /* the compiler's syntax error, the end of the text included */
    }

node_child: /* inside a node: negated fields, an anchor, then a child or `)` */
    if (r.wide)
        goto done;
    if (peek(&r) == '!') {
        r.pos++;
        skip_space(&r);
        if (!is_ident_start(peek(&r)))
            goto done;
        scan_ident(&r);
        skip_space(&r);
        goto node_child;
    }
    if (peek(&r) == '.') {
        r.pos++;
        skip_space(&r);
    }
    goto next_pattern;

group_child: /* inside a group: an anchor, then a child or `)` */
    if (peek(&r) == '.') {
        r.pos++;
        skip_space(&r);
    }
    goto next_pattern;

node_done: /* a pattern that added a node, then its quantifiers and captures */
    skip_space(&r);
    for (;;) {
        int c = peek(&r);
        if (c == '+' || c == '*' || c == '?') {
            r.pos++;
            skip_space(&r);
        } else if (c == '@') {
            r.pos++;
            if (!is_ident_start(peek(&r)))
                goto done;
            scan_ident(&r);
            skip_space(&r);
        } else {
            break;
        }
    }
    stepless = 0;

report: /* a whole pattern was read: stepless when it added no node */
    if (r.wide)
        goto done;
    {
        frame *f = &st.items[st.len - 1];
        switch (f->kind) {
        case IN_TOP:
            if (stepless) {
                fault = "a predicate outside any pattern (it must follow a node pattern inside a group or node)";
                fault_at = start;
                goto done;
            }
            goto next_pattern;
        case IN_FIELD:
            if (stepless) {
                fault = "a field whose value is a predicate (a field must name a node pattern)";
                fault_at = f->start;
                goto done;
            }
            st.len--;
            goto node_done;
        case IN_ALTERNATION:
            if (stepless) {
                fault = "an alternation branch that is a predicate (each branch must be a node pattern)";
                fault_at = start;
                goto done;
            }
            f->branches++;
            goto next_pattern;
        case IN_GROUP:
            if (!stepless)
                f->has_node = 1;
            goto group_child;
        case IN_NODE:
            goto node_child;
        }
    }

done:
    free(st.items);
    if (!fault && r.wide) {
        fault = "a non-ASCII byte outside a string or comment";
        fault_at = r.wide_at;
    }
    if (!fault)
        return 1;
    *at = fault_at;
    *why = fault;
    return 0;
}
