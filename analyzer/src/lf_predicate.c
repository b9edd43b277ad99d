/* Text predicates of tree-sitter queries. The C runtime parses them but leaves
 * evaluation to the embedder; regexes are compiled once, when the rule loads. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
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
    regex_t re;
    int has_re;
    char **set;
    size_t n_set;
} text_pred;

typedef struct pattern_preds {
    text_pred *items;
    size_t n;
} pattern_preds;

struct lf_rule_predicates {
    pattern_preds *patterns;
    uint32_t n_patterns;
};

static void pred_free(text_pred *p) {
    free(p->rhs_text);
    if (p->has_re)
        regfree(&p->re);
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
    }
    free(p->patterns);
    free(p);
}

static const char *step_string(const TSQuery *q, const TSQueryPredicateStep *s, uint32_t *len) {
    return ts_query_string_value_for_id(q, s->value_id, len);
}

/* Parse one predicate (steps[0..n), without the Done step) into *out. */
/* Rule files may come from a scanned repository (--rules), so a #match? regex
 * must not be able to take superlinear time or unbounded memory. glibc's ERE
 * matcher is fast on plain patterns but not linear in general. Measured on a
 * run of "a" (8 KB): back-references are exponential; a repeated group that
 * can match the same text in several ways, because it holds a repetition,
 * (a+)+b, (a|a?)+b, or alternatives longer than one atom, (ab|a)*c, grows with
 * about the cube of the text (1.6 s); counted repetitions are expanded (nested
 * ones multiply: 12.9 GB was seen). Those shapes are refused; repetitions of
 * single atoms and of groups of one-atom alternatives ((x|a)*b, a(b|c)*d) stay
 * linear. Returns why a pattern is refused, or NULL. */
#define LF_REGEX_MAX_LEN 512
#define LF_REGEX_MAX_COUNT 32
#define LF_REGEX_MAX_COUNT_SUM 256
typedef struct re_group {
    unsigned branch_atoms; /* atoms in the current alternative */
    unsigned char quant;   /* holds a repetition */
    unsigned char alt;     /* holds '|' */
    unsigned char multi;   /* an alternative has more than one atom */
} re_group;

static const char *regex_unbounded(const char *re) {
    size_t len = strlen(re);
    if (len > LF_REGEX_MAX_LEN)
        return "longer than 512 bytes";
    re_group g[LF_REGEX_MAX_LEN + 2];
    memset(&g[0], 0, sizeof g[0]);
    size_t depth = 0;
    int prev_group = 0;         /* the atom just before is a group that closed */
    re_group closed = {0, 0, 0, 0};
    unsigned long sum = 0;
    for (size_t i = 0; i < len; i++) {
        char c = re[i];
        int is_group = 0;
        if (c == '*' || c == '+' || c == '?' || c == '{') {
            if (c == '{') {
                char *end;
                unsigned long lo = strtoul(re + i + 1, &end, 10), hi = lo;
                if (*end == ',')
                    hi = end[1] == '}' ? lo : strtoul(end + 1, &end, 10);
                if (lo > LF_REGEX_MAX_COUNT || hi > LF_REGEX_MAX_COUNT)
                    return "a counted repetition {m,n} above 32";
                sum += hi > lo ? hi : lo;
                if (sum > LF_REGEX_MAX_COUNT_SUM)
                    return "counted repetitions adding up to more than 256";
                const char *close = strchr(re + i, '}');
                if (close)
                    i = (size_t)(close - re);
            }
            if (prev_group && (closed.quant || (closed.alt && closed.multi)))
                return "a repeated group that can match the same text in several ways (it holds a repetition, "
                       "or alternatives longer than one atom): matching time would grow with the cube of the text";
            g[depth].quant = 1;
            prev_group = 0;
            continue;
        }
        if (c == '\\') {
            if (i + 1 < len && re[i + 1] >= '1' && re[i + 1] <= '9')
                return "back-references are not allowed (their matching time is exponential)";
            i++;
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < len && re[j] == '^')
                j++;
            if (j < len && re[j] == ']')
                j++;
            while (j < len && re[j] != ']') {
                if (re[j] == '[' && j + 1 < len && strchr(":.=", re[j + 1])) {
                    char term[3] = {re[j + 1], ']', 0};
                    const char *end = strstr(re + j + 2, term);
                    j = end ? (size_t)(end - re) + 2 : len;
                    continue;
                }
                j++;
            }
            i = j;
        } else if (c == '(') {
            depth++;
            memset(&g[depth], 0, sizeof g[depth]);
            prev_group = 0;
            continue;
        } else if (c == '|') {
            if (g[depth].branch_atoms > 1)
                g[depth].multi = 1;
            g[depth].branch_atoms = 0;
            g[depth].alt = 1;
            prev_group = 0;
            continue;
        } else if (c == ')') {
            if (depth == 0)
                continue; /* regcomp reports it */
            if (g[depth].branch_atoms > 1)
                g[depth].multi = 1;
            closed = g[depth];
            depth--;
            g[depth].quant |= closed.quant;
            is_group = 1;
        }
        g[depth].branch_atoms++;
        prev_group = is_group;
    }
    return NULL;
}

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
    const char *why = regex_unbounded(out->rhs_text);
    if (why) {
        *problem = lf_xasprintf("#%s: regex \"%s\" refused: %s", op, out->rhs_text, why);
        return 0;
    }
    int rc = regcomp(&out->re, out->rhs_text, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char buf[256];
        regerror(rc, &out->re, buf, sizeof buf);
        *problem = lf_xasprintf("#%s: bad regex \"%s\": %s", op, out->rhs_text, buf);
        return 0;
    }
    out->has_re = 1;
    return 1;
}

struct lf_rule_predicates *lf_predicates_compile(const TSQuery *q, char **problem) {
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

static int node_regex(const lf_source *src, const regex_t *re, TSNode n) {
    regmatch_t m[1];
    /* REG_STARTEND (glibc, BSD) bounds the match without copying the text out. The
     * string starts at the node, not before it, so that ^ anchors at the node's start. */
    uint32_t a = ts_node_start_byte(n);
    m[0].rm_so = 0;
    m[0].rm_eo = (regoff_t)(ts_node_end_byte(n) - a);
    return regexec(re, src->text + a, 1, m, REG_STARTEND) == 0;
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
        return node_regex(src, &p->re, n);
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
