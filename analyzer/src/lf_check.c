/* The check-facing view of one rule run over one file (lf_ctx_*), and node text helpers. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"

const lf_source *lf_ctx_source(const lf_check_ctx *ctx) { return ctx->src; }
TSNode lf_ctx_root(const lf_check_ctx *ctx) { return ctx->root; }
const lf_rule *lf_ctx_rule(const lf_check_ctx *ctx) { return ctx->rule; }
size_t lf_ctx_match_count(const lf_check_ctx *ctx) { return ctx->n_matches; }

uint32_t lf_ctx_match_pattern(const lf_check_ctx *ctx, size_t match) {
    return match < ctx->n_matches ? ctx->matches[match].pattern : 0;
}

int lf_query_capture_id(const TSQuery *q, const char *name) {
    uint32_t n = ts_query_capture_count(q);
    size_t want = strlen(name);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len;
        const char *s = ts_query_capture_name_for_id(q, i, &len);
        if (len == want && memcmp(s, name, len) == 0)
            return (int)i;
    }
    return -1;
}

size_t lf_ctx_captures(const lf_check_ctx *ctx, size_t match, const char *name, TSNode *out, size_t max) {
    if (match >= ctx->n_matches)
        return 0;
    int id = lf_query_capture_id(ctx->query, name);
    if (id < 0)
        return 0;
    const lf_match_rec *m = &ctx->matches[match];
    size_t k = 0;
    for (uint32_t i = 0; i < m->count; i++) {
        const TSQueryCapture *c = &ctx->captures[m->first + i];
        if (c->index == (uint32_t)id) {
            if (k < max)
                out[k] = c->node;
            k++;
        }
    }
    return k < max ? k : max;
}

int lf_ctx_capture(const lf_check_ctx *ctx, size_t match, const char *name, TSNode *out) {
    return lf_ctx_captures(ctx, match, name, out, 1) == 1;
}

char *lf_node_text(const lf_source *src, TSNode node) {
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    if (b > src->len)
        b = (uint32_t)src->len;
    if (a > b)
        a = b;
    return lf_xstrndup(src->text + a, b - a);
}

int lf_node_text_eq(const lf_source *src, TSNode node, const char *s) {
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    size_t n = strlen(s);
    return b <= src->len && (size_t)(b - a) == n && memcmp(src->text + a, s, n) == 0;
}

/* Capture text as it should read inside a one-line message. */
static void append_capture_text(lf_strbuf *sb, const lf_source *src, TSNode node) {
    enum { MAX_CHARS = 60 };
    uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
    const char *nl = memchr(src->text + a, '\n', b - a);
    uint32_t end = nl ? (uint32_t)(nl - src->text) : b;
    int truncated = end < b;
    size_t chars = 0;
    uint32_t i = a;
    while (i < end) {
        unsigned char c = (unsigned char)src->text[i];
        if ((c & 0xC0) != 0x80) {
            if (chars == MAX_CHARS) {
                truncated = 1;
                break;
            }
            chars++;
        }
        i++;
    }
    lf_strbuf_append(sb, src->text + a, i - a);
    if (truncated)
        lf_strbuf_puts(sb, "...");
}

/* Where a template's {{name}} gets its text: 1 with *out set, or 0 (rendered <name>). */
typedef int (*render_lookup)(const char *name, TSNode *out, const void *ud);

static char *render_template(const char *tmpl, const lf_source *src, render_lookup lookup, const void *ud) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    const char *p = tmpl;
    while (*p) {
        const char *open = strstr(p, "{{");
        const char *close = open ? strstr(open + 2, "}}") : NULL;
        if (!open || !close) {
            lf_strbuf_puts(&sb, p);
            break;
        }
        lf_strbuf_append(&sb, p, (size_t)(open - p));
        char *name = lf_xstrndup(open + 2, (size_t)(close - open - 2));
        TSNode node;
        if (lookup(name, &node, ud))
            append_capture_text(&sb, src, node);
        else
            lf_strbuf_printf(&sb, "<%s>", name);
        free(name);
        p = close + 2;
    }
    return lf_strbuf_detach(&sb);
}

typedef struct capture_lookup {
    const TSQuery *q;
    const TSQueryCapture *caps;
    uint32_t n_caps;
} capture_lookup;

static int lookup_capture(const char *name, TSNode *out, const void *ud) {
    const capture_lookup *c = ud;
    int id = c->q ? lf_query_capture_id(c->q, name) : -1;
    for (uint32_t i = 0; id >= 0 && i < c->n_caps; i++) {
        if (c->caps[i].index == (uint32_t)id) {
            *out = c->caps[i].node;
            return 1;
        }
    }
    return 0;
}

char *lf_render_message(const char *tmpl, const lf_source *src, const TSQuery *q, const TSQueryCapture *caps,
                        uint32_t n_caps) {
    capture_lookup c = {q, caps, n_caps};
    return render_template(tmpl, src, lookup_capture, &c);
}

typedef struct named_lookup {
    const char *const *names;
    const TSNode *nodes;
    size_t n;
} named_lookup;

static int lookup_named(const char *name, TSNode *out, const void *ud) {
    const named_lookup *l = ud;
    for (size_t i = 0; i < l->n; i++) {
        if (!strcmp(l->names[i], name) && !ts_node_is_null(l->nodes[i])) {
            *out = l->nodes[i];
            return 1;
        }
    }
    return 0;
}

char *lf_render_message_nodes(const char *tmpl, const lf_source *src, const char *const *names, const TSNode *nodes,
                              size_t n) {
    named_lookup l = {names, nodes, n};
    return render_template(tmpl, src, lookup_named, &l);
}

void lf_gate_text_release(lf_gate_text *in) {
    if (in->shared && in->release)
        in->release(in->shared);
    in->shared = NULL;
    in->release = NULL;
}

int lf_check_gate(const lf_check *check, const char *path, const char *text, size_t len, lf_lang lang) {
    if (!check->gate)
        return 1;
    lf_gate_text in = {text, len, lang, path, NULL, NULL};
    int hit = check->gate(&in);
    lf_gate_text_release(&in);
    return hit;
}
