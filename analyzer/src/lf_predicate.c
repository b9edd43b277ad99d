/* Text predicates of tree-sitter queries. The C runtime parses them but leaves
 * evaluation to the embedder; regexes are compiled once, when the rule loads, by
 * lf_re (linear-time matching whatever the pattern: rule files may come from a
 * scanned repository). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_anchor.h"
#include "lf_engine_internal.h"
#include "lf_re.h"
#include "lf_sem.h"

/* #qualname? @x "os.replace" ...: what @x names, resolved by the file's semantic
 * model (imports, aliases, builtins), is one of the strings; for a call, its callee. */
typedef enum pred_kind { PRED_EQ, PRED_MATCH, PRED_ANY_OF, PRED_QUALNAME } pred_kind;

typedef struct text_pred {
    pred_kind kind;
    int positive;  /* 0 for the not- forms */
    int match_all; /* eq?/match?: every node of a quantified capture; any-eq?/any-match?: one */
    uint32_t capture;
    int rhs_is_capture;
    uint32_t rhs_capture;
    char *rhs_text;
    size_t rhs_len;
    lf_re *re;
    char **set;
    size_t n_set;
} text_pred;

typedef struct pattern_preds {
    text_pred *items;
    size_t n;
    /* Words one of which every match contains (lf_anchor.h); none: no anchor. */
    char **words;
    size_t n_words;
    int root_only; /* matches only the tree's root: a childless node of the grammar's start symbol */
} pattern_preds;

struct lf_rule_predicates {
    pattern_preds *patterns;
    uint32_t n_patterns;
};

static void pred_free(text_pred *p) {
    free(p->rhs_text);
    lf_re_free(p->re);
    for (size_t i = 0; i < p->n_set; i++)
        free(p->set[i]);
    free(p->set);
}

void lf_predicates_free(struct lf_rule_predicates *p) {
    if (!p)
        return;
    for (uint32_t i = 0; i < p->n_patterns; i++) {
        for (size_t j = 0; j < p->patterns[i].n; j++)
            pred_free(&p->patterns[i].items[j]);
        free(p->patterns[i].items);
        lf_anchor_words_free(p->patterns[i].words, p->patterns[i].n_words);
    }
    free(p->patterns);
    free(p);
}

static const char *step_string(const TSQuery *q, const TSQueryPredicateStep *s, uint32_t *len) {
    return ts_query_string_value_for_id(q, s->value_id, len);
}

/* Parse one predicate (steps[0..n), without the Done step) into *out. */
static int compile_one(const TSQuery *q, const TSQueryPredicateStep *steps, uint32_t n, text_pred *out,
                       char **problem) {
    memset(out, 0, sizeof *out);
    uint32_t nlen;
    const char *name = step_string(q, &steps[0], &nlen);
    char op[32];
    snprintf(op, sizeof op, "%.*s", (int)nlen, name);
    int is_eq = 0, is_match = 0, is_any_of = 0, is_qualname = 0;
    if (!strcmp(op, "eq?") || !strcmp(op, "not-eq?") || !strcmp(op, "any-eq?") || !strcmp(op, "any-not-eq?"))
        is_eq = 1;
    else if (!strcmp(op, "match?") || !strcmp(op, "not-match?") || !strcmp(op, "any-match?") ||
             !strcmp(op, "any-not-match?"))
        is_match = 1;
    else if (!strcmp(op, "any-of?") || !strcmp(op, "not-any-of?"))
        is_any_of = 1;
    else if (!strcmp(op, "qualname?") || !strcmp(op, "not-qualname?"))
        is_any_of = is_qualname = 1;
    else {
        *problem = lf_xasprintf("unknown predicate #%s (supported: #eq? #not-eq? #match? #not-match? #any-of? "
                                "#not-any-of? #qualname? #not-qualname? and the any- forms)",
                                op);
        return 0;
    }
    out->positive = strstr(op, "not-") == NULL;
    out->match_all = strncmp(op, "any-", 4) != 0 || is_any_of;
    if (n < 2 || steps[1].type != TSQueryPredicateStepTypeCapture) {
        *problem = lf_xasprintf("#%s: first argument must be a capture", op);
        return 0;
    }
    out->capture = steps[1].value_id;
    if (is_any_of) {
        out->kind = is_qualname ? PRED_QUALNAME : PRED_ANY_OF;
        if (n < 3) {
            *problem = lf_xasprintf("#%s: needs at least one string", op);
            return 0;
        }
        out->set = lf_xcalloc(n - 2, sizeof *out->set);
        for (uint32_t i = 2; i < n; i++) {
            if (steps[i].type != TSQueryPredicateStepTypeString) {
                *problem = lf_xasprintf("#%s: arguments after the capture must be strings", op);
                return 0;
            }
            uint32_t l;
            const char *s = step_string(q, &steps[i], &l);
            out->set[out->n_set++] = lf_xstrndup(s, l);
        }
        return 1;
    }
    if (n != 3) {
        *problem = lf_xasprintf("#%s: takes exactly two arguments", op);
        return 0;
    }
    if (is_eq) {
        out->kind = PRED_EQ;
        if (steps[2].type == TSQueryPredicateStepTypeCapture) {
            out->rhs_is_capture = 1;
            out->rhs_capture = steps[2].value_id;
        } else {
            uint32_t l;
            const char *s = step_string(q, &steps[2], &l);
            out->rhs_text = lf_xstrndup(s, l);
            out->rhs_len = l;
        }
        return 1;
    }
    (void)is_match;
    out->kind = PRED_MATCH;
    if (steps[2].type != TSQueryPredicateStepTypeString) {
        *problem = lf_xasprintf("#%s: second argument must be a regex string", op);
        return 0;
    }
    uint32_t l;
    const char *s = step_string(q, &steps[2], &l);
    out->rhs_text = lf_xstrndup(s, l);
    const char *why;
    int refused;
    out->re = lf_re_compile(out->rhs_text, &why, &refused);
    if (!out->re) {
        *problem = refused ? lf_xasprintf("#%s: regex \"%s\" refused: %s", op, out->rhs_text, why)
                           : lf_xasprintf("#%s: bad regex \"%s\": %s", op, out->rhs_text, why);
        return 0;
    }
    return 1;
}

/* Can a match of pattern pi hold p with no node in p's capture? Then p anchors nothing. */
static int may_hold_without_node(const TSQuery *q, uint32_t pi, const text_pred *p) {
    TSQuantifier k = ts_query_capture_quantifier_for_id(q, pi, p->capture);
    if (k == TSQuantifierZero)
        return 1;
    /* #eq?/#match? hold vacuously for a quantified capture with no node; the any-
     * forms and #any-of? need one node that satisfies them. */
    if (p->kind != PRED_ANY_OF && p->match_all)
        return k != TSQuantifierOne && k != TSQuantifierOneOrMore;
    return 0;
}

/* The words of one predicate, or 0 when it anchors nothing. */
static size_t pred_words(const TSQuery *q, uint32_t pi, const text_pred *p, char ***words) {
    *words = NULL;
    if (!p->positive || p->rhs_is_capture || may_hold_without_node(q, pi, p))
        return 0;
    switch (p->kind) {
    case PRED_EQ:
        if (!p->rhs_len || memchr(p->rhs_text, '\0', p->rhs_len))
            return 0;
        *words = lf_xcalloc(1, sizeof **words);
        (*words)[0] = lf_xstrdup(p->rhs_text);
        return 1;
    case PRED_ANY_OF:
        for (size_t i = 0; i < p->n_set; i++)
            if (!p->set[i][0])
                return 0;
        *words = lf_xcalloc(p->n_set, sizeof **words);
        for (size_t i = 0; i < p->n_set; i++)
            (*words)[i] = lf_xstrdup(p->set[i]);
        return p->n_set;
    case PRED_MATCH:
        return lf_anchor_regex_words(p->rhs_text, words);
    case PRED_QUALNAME: /* a resolved name, not the text */
        return 0;
    }
    return 0;
}

static size_t shortest(char **w, size_t n) {
    size_t m = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (strlen(w[i]) < m)
            m = strlen(w[i]);
    return m;
}

static const char *skip_blank(const char *p, const char *end) {
    while (p < end) {
        if (*p == ';') {
            while (p < end && *p != '\n')
                p++;
        } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            p++;
        } else {
            break;
        }
    }
    return p;
}

/* Is sym the grammar's start symbol and nothing else: the only named node type
 * of its name (an alias would share the name), reached by a goto only from the
 * parse's initial state (1)? Then a node of it is the root of a tree or nothing:
 * Python's `module`, TS's `program`. */
static int start_symbol_only(const TSLanguage *lang, TSSymbol sym) {
    const char *name = ts_language_symbol_name(lang, sym);
    uint32_t n_syms = ts_language_symbol_count(lang);
    for (uint32_t i = 0; i < n_syms; i++)
        if (i != sym && ts_language_symbol_type(lang, (TSSymbol)i) == TSSymbolTypeRegular &&
            strcmp(ts_language_symbol_name(lang, (TSSymbol)i), name) == 0)
            return 0;
    uint32_t n_states = ts_language_state_count(lang);
    for (uint32_t st = 0; st < n_states; st++)
        if (st != 1 && ts_language_next_state(lang, (TSStateId)st, sym) != 0)
            return 0;
    return 1;
}

/* Can the pattern's root match at the node where a query cursor starts? Not when
 * the root is a supertype (`(expression)`, `(expression/identifier)`): a cursor
 * knows a node's supertypes from its parent's production, and has none for the
 * node it starts at. Decided from the pattern's source text; anything not plainly
 * `(name ...)`, `(_ ...)` or `"token"` counts as no. *root_only: the root is
 * `(name)` with no child pattern, of the grammar's start symbol (see above). */
static int root_can_start_at_site(const TSQuery *q, const TSLanguage *lang, const char *src, uint32_t pi,
                                  int *root_only) {
    *root_only = 0;
    uint32_t a = ts_query_start_byte_for_pattern(q, pi), b = ts_query_end_byte_for_pattern(q, pi);
    if (!src || !lang || b <= a || b > strlen(src))
        return 0;
    const char *p = src + a, *end = src + b;
    for (;;) { /* grouping parentheses: `((call ...) @c (#eq? ...))` */
        p = skip_blank(p, end);
        if (p >= end)
            return 0;
        if (*p == '"')
            return 1; /* an anonymous token */
        if (*p != '(')
            return 0; /* an alternation of roots, or something unexpected */
        const char *q2 = skip_blank(p + 1, end);
        if (q2 < end && (*q2 == '(' || *q2 == '[' || *q2 == '"')) {
            if (*q2 != '(')
                return 0;
            p = q2;
            continue;
        }
        p = q2;
        break;
    }
    const char *name = p;
    while (p < end && (((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
        p++;
    size_t n = (size_t)(p - name);
    if (!n || (p < end && *p == '/'))
        return 0;
    if (n == 1 && name[0] == '_')
        return 1;
    TSSymbol sym = ts_language_symbol_for_name(lang, name, (uint32_t)n, true);
    if (sym == 0 || ts_language_symbol_type(lang, sym) != TSSymbolTypeRegular)
        return 0;
    p = skip_blank(p, end);
    *root_only = p < end && *p == ')' && start_symbol_only(lang, sym);
    return 1;
}

/* Give the pattern the anchor with the longest shortest word (fewest chance
 * occurrences), if it has one, a single root, and a root that can match where
 * the engine starts the cursor. */
static void derive_anchor(const TSQuery *q, const TSLanguage *lang, const char *src, uint32_t pi,
                          pattern_preds *pp) {
    int root_only;
    if (!ts_query_is_pattern_rooted(q, pi) || ts_query_is_pattern_non_local(q, pi) ||
        !root_can_start_at_site(q, lang, src, pi, &root_only))
        return;
    pp->root_only = root_only;
    size_t best_short = 0;
    for (size_t i = 0; i < pp->n; i++) {
        char **w;
        size_t n = pred_words(q, pi, &pp->items[i], &w);
        size_t w_short = n ? shortest(w, n) : 0;
        if (n && (!pp->n_words || w_short > best_short || (w_short == best_short && n < pp->n_words))) {
            lf_anchor_words_free(pp->words, pp->n_words);
            pp->words = w;
            pp->n_words = n;
            best_short = w_short;
        } else {
            lf_anchor_words_free(w, n);
        }
    }
}

int lf_predicates_root_only(const struct lf_rule_predicates *p, uint32_t pattern) {
    return p && pattern < p->n_patterns && p->patterns[pattern].root_only;
}

const char *const *lf_predicates_anchor_words(const struct lf_rule_predicates *p, uint32_t pattern, size_t *n) {
    *n = 0;
    if (!p || pattern >= p->n_patterns || !p->patterns[pattern].n_words)
        return NULL;
    *n = p->patterns[pattern].n_words;
    return (const char *const *)p->patterns[pattern].words;
}

struct lf_rule_predicates *lf_predicates_compile(const TSQuery *q, const TSLanguage *lang, const char *src,
                                                 char **problem) {
    struct lf_rule_predicates *p = lf_xcalloc(1, sizeof *p);
    p->n_patterns = ts_query_pattern_count(q);
    p->patterns = lf_xcalloc(p->n_patterns ? p->n_patterns : 1, sizeof *p->patterns);
    for (uint32_t pi = 0; pi < p->n_patterns; pi++) {
        uint32_t n_steps;
        const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern(q, pi, &n_steps);
        uint32_t start = 0;
        for (uint32_t i = 0; i < n_steps; i++) {
            if (steps[i].type != TSQueryPredicateStepTypeDone)
                continue;
            if (i > start) {
                if (steps[start].type != TSQueryPredicateStepTypeString) {
                    *problem = lf_xstrdup("predicate without a name");
                    lf_predicates_free(p);
                    return NULL;
                }
                pattern_preds *pp = &p->patterns[pi];
                pp->items = lf_xrealloc(pp->items, (pp->n + 1) * sizeof *pp->items);
                if (!compile_one(q, steps + start, i - start, &pp->items[pp->n], problem)) {
                    pred_free(&pp->items[pp->n]);
                    lf_predicates_free(p);
                    return NULL;
                }
                pp->n++;
            }
            start = i + 1;
        }
        derive_anchor(q, lang, src, pi, &p->patterns[pi]);
    }
    return p;
}

static int node_text_eq_bytes(const lf_source *src, TSNode n, const char *s, size_t len) {
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return (size_t)(b - a) == len && memcmp(src->text + a, s, len) == 0;
}

static int node_texts_equal(const lf_source *src, TSNode x, TSNode y) {
    uint32_t a = ts_node_start_byte(x), b = ts_node_end_byte(x);
    return node_text_eq_bytes(src, y, src->text + a, b - a);
}

static int node_regex(const lf_source *src, const lf_re *re, TSNode n) {
    /* The text is the node's own, so that ^ and $ anchor at its ends. */
    uint32_t a = ts_node_start_byte(n);
    return lf_re_search(re, src->text + a, ts_node_end_byte(n) - a);
}

static int holds_for_node(const text_pred *p, const TSQueryMatch *m, const lf_source *src, lf_filesem *fs,
                          TSNode n) {
    switch (p->kind) {
    case PRED_QUALNAME: {
        const char *q = fs ? lf_filesem_qualname(fs, n) : NULL;
        for (size_t i = 0; q && i < p->n_set; i++)
            if (strcmp(q, p->set[i]) == 0)
                return 1;
        return 0;
    }
    case PRED_EQ:
        if (p->rhs_is_capture) {
            for (uint16_t i = 0; i < m->capture_count; i++)
                if (m->captures[i].index == p->rhs_capture)
                    return node_texts_equal(src, n, m->captures[i].node);
            return 0;
        }
        return node_text_eq_bytes(src, n, p->rhs_text, p->rhs_len);
    case PRED_MATCH:
        return node_regex(src, p->re, n);
    case PRED_ANY_OF:
        for (size_t i = 0; i < p->n_set; i++)
            if (node_text_eq_bytes(src, n, p->set[i], strlen(p->set[i])))
                return 1;
        return 0;
    }
    return 0;
}

/* Semantics follow tree-sitter's own bindings: #eq?/#match? must hold for every
 * node of a quantified capture (vacuously true for none), the any- forms for one;
 * #any-of? holds when one node is in the set, #not-any-of? when none is. */
static int pred_holds(const text_pred *p, const TSQueryMatch *m, const lf_source *src, lf_filesem *fs) {
    if (p->kind == PRED_ANY_OF || p->kind == PRED_QUALNAME) {
        int any = 0;
        for (uint16_t i = 0; i < m->capture_count; i++)
            if (m->captures[i].index == p->capture && holds_for_node(p, m, src, fs, m->captures[i].node))
                any = 1;
        return p->positive ? any : !any;
    }
    int seen_ok = 0;
    for (uint16_t i = 0; i < m->capture_count; i++) {
        if (m->captures[i].index != p->capture)
            continue;
        int ok = holds_for_node(p, m, src, fs, m->captures[i].node) == p->positive;
        if (p->match_all && !ok)
            return 0;
        if (!p->match_all && ok)
            seen_ok = 1;
    }
    return p->match_all ? 1 : seen_ok;
}

int lf_predicates_eval(const struct lf_rule_predicates *p, const TSQueryMatch *m, const lf_source *src,
                       lf_filesem *fs) {
    if (!p || m->pattern_index >= p->n_patterns)
        return 1;
    const pattern_preds *pp = &p->patterns[m->pattern_index];
    for (size_t i = 0; i < pp->n; i++)
        if (!pred_holds(&pp->items[i], m, src, fs))
            return 0;
    return 1;
}
