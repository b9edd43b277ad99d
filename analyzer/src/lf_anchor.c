/* Anchor words of text predicates, and the nodes that contain them (lf_anchor.h). */
#include "lf_anchor.h"

#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

/* ---- a regex's finite language ---- */

/* A set of strings; n == SIZE_MAX marks "not a small finite set". */
typedef struct lang {
    char **s;
    size_t n;
} lang;

#define LANG_FAIL ((size_t)-1)

void lf_anchor_words_free(char **words, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

static void lang_free(lang *l) {
    lf_anchor_words_free(l->s, l->n == LANG_FAIL ? 0 : l->n);
    l->s = NULL;
    l->n = 0;
}

static lang lang_fail(lang *l) {
    lang_free(l);
    l->n = LANG_FAIL;
    return *l;
}

static void lang_add(lang *l, const char *s, size_t len) {
    if (l->n == LANG_FAIL)
        return;
    if (l->n == LF_ANCHOR_MAX_WORDS || len > LF_ANCHOR_MAX_WORD_LEN) {
        lang_fail(l);
        return;
    }
    for (size_t i = 0; i < l->n; i++)
        if (strlen(l->s[i]) == len && memcmp(l->s[i], s, len) == 0)
            return;
    l->s = lf_xrealloc(l->s, (l->n + 1) * sizeof *l->s);
    l->s[l->n++] = lf_xstrndup(s, len);
}

/* {a, b} x {c, d} = {ac, ad, bc, bd}; consumes both. */
static lang lang_concat(lang *x, lang *y) {
    lang out = {0};
    if (x->n == LANG_FAIL || y->n == LANG_FAIL) {
        lang_free(x);
        lang_free(y);
        return lang_fail(&out);
    }
    char buf[2 * LF_ANCHOR_MAX_WORD_LEN + 1];
    for (size_t i = 0; i < x->n && out.n != LANG_FAIL; i++) {
        for (size_t j = 0; j < y->n && out.n != LANG_FAIL; j++) {
            size_t a = strlen(x->s[i]), b = strlen(y->s[j]);
            memcpy(buf, x->s[i], a);
            memcpy(buf + a, y->s[j], b);
            lang_add(&out, buf, a + b);
        }
    }
    lang_free(x);
    lang_free(y);
    return out;
}

static lang lang_union(lang *x, lang *y) {
    if (x->n == LANG_FAIL || y->n == LANG_FAIL) {
        lang_free(y);
        return lang_fail(x);
    }
    for (size_t i = 0; i < y->n; i++)
        lang_add(x, y->s[i], strlen(y->s[i]));
    lang_free(y);
    return *x;
}

/* A bracket list of plain bytes and short ranges: [._-], [mc], [a-c]. *pp is on
 * the '['; on success it moves past the ']'. */
static lang parse_bracket(const char **pp, const char *end) {
    lang out = {0};
    const char *p = *pp + 1;
    if (p < end && (*p == '^' || *p == ']'))
        return lang_fail(&out); /* negation, or ']' as the first member: leave to a full walk */
    while (p < end && *p != ']') {
        unsigned char c = (unsigned char)*p;
        if (c == '[' || c == '\\')
            return lang_fail(&out); /* [:class:], [.x.], and escapes, whose meaning inside [] differs */
        if (p + 2 < end && p[1] == '-' && p[2] != ']') {
            unsigned char hi = (unsigned char)p[2];
            if (hi < c || hi - c > 8)
                return lang_fail(&out);
            for (unsigned v = c; v <= hi; v++) {
                char ch = (char)v;
                lang_add(&out, &ch, 1);
            }
            p += 3;
            continue;
        }
        char ch = (char)c;
        lang_add(&out, &ch, 1);
        p++;
    }
    if (p >= end || out.n == 0)
        return lang_fail(&out);
    *pp = p + 1;
    return out;
}

static int is_punct(unsigned char e) {
    return (e >= '!' && e <= '/') || (e >= ':' && e <= '@') || (e >= '[' && e <= '`') || (e >= '{' && e <= '~');
}

/* One group level of the regex: the alternatives finished so far, and the
 * concatenation of the current alternative. */
typedef struct re_frame {
    lang alt, cur;
} re_frame;

#define RE_MAX_GROUPS 16

/* The language of re[0, end) with an explicit stack of groups (no recursion). */
static lang regex_language(const char *p, const char *end) {
    re_frame st[RE_MAX_GROUPS + 1];
    int top = 0;
    memset(&st[0], 0, sizeof st[0]);
    lang_add(&st[0].cur, "", 0);
    lang atom = {0};
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        int have_atom = 0;
        if (c == '(') {
            if (top == RE_MAX_GROUPS || (p + 1 < end && p[1] == '?'))
                goto fail;
            top++;
            memset(&st[top], 0, sizeof st[top]);
            lang_add(&st[top].cur, "", 0);
            p++;
            continue;
        } else if (c == '|') {
            st[top].alt = lang_union(&st[top].alt, &st[top].cur);
            memset(&st[top].cur, 0, sizeof st[top].cur);
            lang_add(&st[top].cur, "", 0);
            p++;
            continue;
        } else if (c == ')') {
            if (top == 0)
                goto fail;
            atom = lang_union(&st[top].alt, &st[top].cur);
            top--;
            p++;
            have_atom = 1;
        } else if (c == '[') {
            atom = parse_bracket(&p, end);
            have_atom = 1;
        } else if (c == '\\') {
            /* lf_re takes '\' only before punctuation, as the byte itself */
            if (p + 1 >= end || !is_punct((unsigned char)p[1]))
                goto fail;
            lang_add(&atom, p + 1, 1);
            p += 2;
            have_atom = 1;
        } else if (strchr(".*+?{}^$", c)) {
            goto fail;
        } else {
            lang_add(&atom, (const char *)p, 1);
            p++;
            have_atom = 1;
        }
        if (!have_atom || atom.n == LANG_FAIL)
            goto fail;
        if (p < end && *p == '?') {
            lang_add(&atom, "", 0);
            p++;
        }
        if (p < end && strchr("*+{?", *p))
            goto fail;
        st[top].cur = lang_concat(&st[top].cur, &atom);
        memset(&atom, 0, sizeof atom);
        if (st[top].cur.n == LANG_FAIL)
            goto fail;
    }
    if (top != 0)
        goto fail;
    return lang_union(&st[0].alt, &st[0].cur);
fail:
    lang_free(&atom);
    for (int i = 0; i <= top; i++) {
        lang_free(&st[i].alt);
        lang_free(&st[i].cur);
    }
    lang out = {0};
    return lang_fail(&out);
}

size_t lf_anchor_regex_words(const char *re, char ***words) {
    *words = NULL;
    size_t len = strlen(re);
    const char *p = re, *end = re + len;
    /* '^' and '$' at the ends only anchor the match; containment holds either way. */
    if (p < end && *p == '^')
        p++;
    if (end > p && end[-1] == '$') {
        size_t backslashes = 0;
        for (const char *q = end - 2; q >= p && *q == '\\'; q--)
            backslashes++;
        if (backslashes % 2 == 0)
            end--;
    }
    lang l = regex_language(p, end);
    if (l.n == LANG_FAIL || l.n == 0) {
        lang_free(&l);
        return 0;
    }
    for (size_t i = 0; i < l.n; i++) {
        if (!l.s[i][0]) { /* the empty string: every text contains it */
            lang_free(&l);
            return 0;
        }
    }
    *words = l.s;
    return l.n;
}

/* ---- the nodes that contain an occurrence ---- */

typedef struct occurrence {
    uint32_t start, end;
} occurrence;

static int occurrence_cmp(const void *a, const void *b) {
    const occurrence *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return 0;
}

static int anchor_node_cmp(const void *a, const void *b) {
    const lf_anchor_node *x = a, *y = b;
    uint32_t xs = ts_node_start_byte(x->node), ys = ts_node_start_byte(y->node);
    if (xs != ys)
        return xs < ys ? -1 : 1;
    uint32_t xe = ts_node_end_byte(x->node), ye = ts_node_end_byte(y->node);
    if (xe != ye)
        return xe > ye ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return 0;
}

typedef LF_VEC(lf_anchor_node) anchor_node_vec;

/* Set of node ids already taken (open addressing on the id pointer). */
typedef struct node_set {
    const void **slot;
    size_t cap, len;
} node_set;

static size_t node_hash(const void *id, size_t cap) {
    uintptr_t v = (uintptr_t)id;
    v ^= v >> 17;
    v *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(v >> 7) & (cap - 1);
}

/* 1 when id was not in the set (and now is). */
static int node_set_insert(node_set *s, const void *id) {
    if (2 * (s->len + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        const void **t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i])
                continue;
            size_t h = node_hash(s->slot[i], cap);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = s->slot[i];
        }
        free(s->slot);
        s->slot = t;
        s->cap = cap;
    }
    size_t h = node_hash(id, s->cap);
    while (s->slot[h]) {
        if (s->slot[h] == id)
            return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->slot[h] = id;
    s->len++;
    return 1;
}

static int node_contains(TSNode n, const occurrence *o) {
    return ts_node_start_byte(n) <= o->start && ts_node_end_byte(n) >= o->end;
}

static void take(anchor_node_vec *out, node_set *seen, TSNode n, uint32_t depth) {
    if (node_set_insert(seen, n.id)) {
        lf_anchor_node a = {n, depth};
        LF_VEC_PUSH(out, a);
    }
}

size_t lf_anchor_roots(TSNode root, const char *text, size_t len, const char *const *words, size_t n_words,
                       lf_anchor_node **out) {
    *out = NULL;
    /* Past this many steps a full walk is cheaper, and it bounds the pass on
     * adversarial input (a one-letter word everywhere, occurrences straddling the
     * children of a wide node): then the caller walks the whole tree. */
    size_t budget = len / 2 + 256, steps = 0;
    LF_VEC(occurrence) occ = {0};
    anchor_node_vec nodes = {0};
    node_set seen = {0};
    TSTreeCursor c;
    int have_cursor = 0, gave_up = 0;
    for (size_t w = 0; w < n_words; w++) {
        size_t wl = strlen(words[w]);
        if (!wl || wl > len)
            continue;
        /* every occurrence, overlapping ones too: each may sit in a different node */
        for (const char *p = text, *e = text + len; (size_t)(e - p) >= wl;) {
            const char *hit = memmem(p, (size_t)(e - p), words[w], wl);
            if (!hit)
                break;
            occurrence o = {(uint32_t)(hit - text), (uint32_t)(hit - text + wl)};
            LF_VEC_PUSH(&occ, o);
            if (++steps > budget) {
                gave_up = 1;
                goto done;
            }
            p = hit + 1;
        }
    }
    if (!occ.len)
        goto done;
    qsort(occ.items, occ.len, sizeof *occ.items, occurrence_cmp);

    /* One forward pass of a tree cursor: occurrences come in text order, so at each
     * level the search for the child containing the next one continues from the
     * child that contained the previous one, and subtrees without an occurrence are
     * stepped over, never entered. Every node the cursor descends into contains the
     * current occurrence: it is one of the chain's nodes, and is taken. */
    c = ts_tree_cursor_new(root);
    have_cursor = 1;
    uint32_t depth = 0;
    for (size_t i = 0; i < occ.len; i++) {
        const occurrence *o = &occ.items[i];
        /* Climb to the nearest node on the cursor's path that can lead to o: this
         * node if it contains o, else a later sibling, else its parent. */
        for (;;) {
            TSNode cur = ts_tree_cursor_current_node(&c);
            if (node_contains(cur, o) || depth == 0)
                break;
            if (++steps > budget) {
                gave_up = 1;
                goto done;
            }
            if (ts_node_end_byte(cur) <= o->start && ts_tree_cursor_goto_next_sibling(&c))
                continue;
            ts_tree_cursor_goto_parent(&c);
            depth--;
        }
        TSNode cur = ts_tree_cursor_current_node(&c);
        if (!node_contains(cur, o))
            continue; /* outside the root's range (leading or trailing bytes) */
        take(&nodes, &seen, cur, depth);
        /* Descend while some child contains o. */
        while (ts_tree_cursor_goto_first_child(&c)) {
            int found = 0;
            for (;;) {
                if (++steps > budget) {
                    gave_up = 1;
                    goto done;
                }
                TSNode ch = ts_tree_cursor_current_node(&c);
                if (node_contains(ch, o)) {
                    found = 1;
                    break;
                }
                if (ts_node_start_byte(ch) > o->start || ts_node_end_byte(ch) > o->start)
                    break; /* children from here on start after o, or straddle it */
                if (!ts_tree_cursor_goto_next_sibling(&c))
                    break;
            }
            if (!found) {
                ts_tree_cursor_goto_parent(&c);
                break;
            }
            depth++;
            take(&nodes, &seen, ts_tree_cursor_current_node(&c), depth);
        }
    }
done:
    if (have_cursor)
        ts_tree_cursor_delete(&c);
    free(seen.slot);
    LF_VEC_FREE(&occ);
    lf_work(steps);
    if (gave_up) {
        LF_VEC_FREE(&nodes);
        return LF_ANCHOR_WALK_ALL;
    }
    if (nodes.len > 1)
        qsort(nodes.items, nodes.len, sizeof *nodes.items, anchor_node_cmp);
    *out = nodes.items;
    return nodes.len;
}
