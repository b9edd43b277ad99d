/* Rule files: JSON documents validated strictly, queries compiled per grammar.
 *
 * Every problem is reported as "<origin>: line N: <problem>". cJSON only locates
 * syntax errors, so for semantic ones the offending key is found again in the
 * text (see key_line) to give the user a line to look at.
 */
#include "lf_rule.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_check.h"
#include "lf_engine_internal.h"
#include "lf_hash.h"
#include "lf_queryshape.h"
#include "lf_rules_builtin.h"

typedef struct parse_ctx {
    const char *text;
    size_t len;
    const char *origin;
    char *err; /* first error, malloc'd */
    int lazy;  /* a built-in rule: queries compile on first use (lf_rule_query) */
} parse_ctx;

/* A rule's compiled queries. Compiling every built-in rule's queries for all
 * three grammars at start cost 0.2-0.3 s of CPU, paid by every scan however
 * few files and languages it meets; so a built-in rule compiles a language's
 * query on first use. Rules from --rules DIR still compile at load, where their
 * errors belong, but for a query the rule they replace already had
 * (parse_rule_file). The built-ins' own errors are the rules tests' to find
 * (lf_rule_compile_all), with the same messages.
 *
 * Threads: `ready` (a LF_LANG_BIT mask of the compiled languages) is the only
 * field read without the lock. A language's query and predicates are written
 * once, under the lock, before its bit is published (release); a reader that
 * sees the bit (acquire) sees them, and they never change until rule_free. */
struct lf_rule_compiled {
    pthread_mutex_t lock;
    atomic_uint ready;
    TSQuery *query[LF_LANG_COUNT];
    struct lf_rule_predicates *preds[LF_LANG_COUNT];
    char *key[LF_LANG_COUNT]; /* the "queries" key query_source[l] came from ("typescript" for tsx) */
    const char *doc;          /* lazy: the rule document (a built-in's, static), to locate errors */
    size_t doc_len;
    char *doc_owned; /* lazy, from a rule file: doc, freed with the rule */
};

static size_t line_of_offset(const char *text, size_t off) {
    size_t line = 1;
    for (size_t i = 0; i < off; i++)
        if (text[i] == '\n')
            line++;
    return line;
}

/* Offset of `"key"` used as an object key (followed by ':') at or after `from`. */
static size_t find_key(const parse_ctx *pc, const char *key, size_t from) {
    size_t klen = strlen(key);
    for (size_t i = from; i + klen + 2 <= pc->len; i++) {
        if (pc->text[i] != '"' || memcmp(pc->text + i + 1, key, klen) != 0 || pc->text[i + 1 + klen] != '"')
            continue;
        size_t j = i + klen + 2;
        while (j < pc->len && (pc->text[j] == ' ' || pc->text[j] == '\t' || pc->text[j] == '\r' || pc->text[j] == '\n'))
            j++;
        if (j < pc->len && pc->text[j] == ':')
            return i;
    }
    return (size_t)-1;
}

/* Line of a key path like {"docs", "why"}: each key is searched after its parent. */
static size_t key_line(const parse_ctx *pc, const char *k1, const char *k2) {
    size_t at = find_key(pc, k1, 0);
    if (at == (size_t)-1)
        return 1;
    if (k2) {
        size_t at2 = find_key(pc, k2, at);
        if (at2 != (size_t)-1)
            at = at2;
    }
    return line_of_offset(pc->text, at);
}

__attribute__((format(printf, 3, 4))) static int problem(parse_ctx *pc, size_t line, const char *fmt, ...) {
    if (pc->err)
        return 0;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_strbuf_printf(&sb, "%s: line %zu: ", pc->origin, line);
    va_list ap;
    va_start(ap, fmt);
    lf_strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    pc->err = lf_strbuf_detach(&sb);
    return 0;
}

static void rule_free(lf_rule *r) {
    if (!r)
        return;
    free(r->id);
    free(r->name);
    free(r->summary);
    free(r->message);
    free(r->docs.what);
    free(r->docs.why);
    free(r->docs.example);
    free(r->docs.use_instead);
    free(r->docs.fix_safety);
    free(r->docs.known_problems);
    for (size_t g = 0; g < r->n_prefilter_groups; g++) {
        for (size_t i = 0; i < r->prefilter_groups[g].n_any; i++)
            free(r->prefilter_groups[g].any[i]);
        free(r->prefilter_groups[g].any);
    }
    free(r->prefilter_groups);
    /* languages of one mask share their groups: free each array once */
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        lf_prefilter_group *g = r->lang_prefilter[l];
        if (!g)
            continue;
        for (int k = l + 1; k < LF_LANG_COUNT; k++)
            if (r->lang_prefilter[k] == g)
                r->lang_prefilter[k] = NULL;
        for (size_t i = 0; i < r->n_lang_prefilter[l]; i++) {
            for (size_t j = 0; j < g[i].n_any; j++)
                free(g[i].any[j]);
            free(g[i].any);
        }
        free(g);
    }
    struct lf_rule_compiled *c = r->compiled;
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        if (c->query[l])
            ts_query_delete(c->query[l]);
        lf_predicates_free(c->preds[l]);
        free(c->key[l]);
        free(r->query_source[l]);
    }
    pthread_mutex_destroy(&c->lock);
    free(c->doc_owned);
    free(c);
    free(r->fix_unavailable);
    free(r->origin);
    free(r);
}

/* A text field is a string, or an array of strings joined with newlines (so that
 * queries and code read naturally in JSON). NULL when it is neither. */
static char *text_value(const cJSON *v) {
    if (cJSON_IsString(v))
        return lf_xstrdup(v->valuestring);
    if (!cJSON_IsArray(v))
        return NULL;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    const cJSON *e;
    int first = 1;
    cJSON_ArrayForEach(e, v) {
        if (!cJSON_IsString(e)) {
            lf_strbuf_free(&sb);
            return NULL;
        }
        if (!first)
            lf_strbuf_putc(&sb, '\n');
        lf_strbuf_puts(&sb, e->valuestring);
        first = 0;
    }
    return lf_strbuf_detach(&sb);
}

static int text_value_ok(const cJSON *v) {
    char *s = text_value(v);
    int ok = s != NULL;
    free(s);
    return ok;
}

static int check_keys(parse_ctx *pc, const cJSON *obj, const char *const *allowed, const char *where,
                      const char *parent_key) {
    const cJSON *c;
    cJSON_ArrayForEach(c, obj) {
        int ok = 0;
        for (size_t i = 0; allowed[i]; i++)
            if (strcmp(c->string, allowed[i]) == 0)
                ok = 1;
        if (!ok) {
            lf_strbuf sb;
            lf_strbuf_init(&sb);
            for (size_t i = 0; allowed[i]; i++)
                lf_strbuf_printf(&sb, "%s%s", i ? ", " : "", allowed[i]);
            problem(pc, key_line(pc, parent_key ? parent_key : c->string, parent_key ? c->string : NULL),
                    "unknown key \"%s\" in %s (allowed: %s)", c->string, where, sb.data);
            lf_strbuf_free(&sb);
            return 0;
        }
    }
    return 1;
}

static char *required_text(parse_ctx *pc, const cJSON *obj, const char *key, const char *parent) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        problem(pc, parent ? key_line(pc, parent, NULL) : 1, "missing required key \"%s%s%s\"", parent ? parent : "",
                parent ? "." : "", key);
        return NULL;
    }
    char *s = text_value(v);
    if (!s) {
        problem(pc, key_line(pc, parent ? parent : key, parent ? key : NULL),
                "\"%s\" must be a string or an array of strings", key);
        return NULL;
    }
    if (!*s) {
        free(s);
        problem(pc, key_line(pc, parent ? parent : key, parent ? key : NULL), "\"%s\" must not be empty", key);
        return NULL;
    }
    return s;
}

static int valid_id(const char *s) {
    return strlen(s) == 5 && s[0] == 'L' && s[1] == 'F' && s[2] >= '0' && s[2] <= '9' && s[3] >= '0' &&
           s[3] <= '9' && s[4] >= '0' && s[4] <= '9';
}

static int valid_name(const char *s) {
    if (!*s || *s == '-')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return 0;
    return 1;
}

/* A prefilter literal is plain bytes; its only markup is `\b` as its first or
 * last two bytes (rules/README.md). A regex escape anywhere else (`\.`, `\(`,
 * `\s`, an inner `\b`) is a habit that makes the literal unmatchable, so the
 * rule would silently skip every file: reject it at load time. Other
 * backslashes (`\n` as spelled in source, `\\`) are bytes like any other. */
static int literal_markup_ok(const char *lit) {
    size_t n = strlen(lit);
    if (n <= 2)
        return 1; /* "\b" alone has nothing to mark: matched as spelled */
    for (size_t i = 0; i + 1 < n; i++) {
        if (lit[i] != '\\')
            continue;
        char c = lit[i + 1];
        if (c == '\\') {
            i++; /* an escaped backslash is two plain bytes */
            continue;
        }
        if (c == 'b' && (i == 0 || i == n - 2))
            continue;
        if (strchr(".()[]{}*+?|^$/sSdDwWbB", c))
            return 0;
    }
    return 1;
}

/* One prefilter in the array forms: a list of strings (one group) or a list of
 * lists (an AND of ORs). Fills *groups / *n; `what` names it in problems. */
static int parse_prefilter_groups(parse_ctx *pc, size_t line, const cJSON *v, const char *what,
                                  lf_prefilter_group **groups, size_t *n) {
    if (!cJSON_IsArray(v))
        return problem(pc, line, "%s must be an array of strings, or an array of arrays of strings", what);
    int nested = cJSON_GetArraySize(v) > 0 && cJSON_IsArray(cJSON_GetArrayItem(v, 0));
    size_t n_groups = nested ? (size_t)cJSON_GetArraySize(v) : 1;
    *groups = lf_xcalloc(n_groups, sizeof **groups);
    for (size_t g = 0; g < n_groups; g++) {
        const cJSON *arr = nested ? cJSON_GetArrayItem(v, (int)g) : v;
        if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
            return problem(pc, line, "%s group %zu must be a non-empty array of strings", what, g + 1);
        lf_prefilter_group *grp = &(*groups)[g];
        *n = g + 1;
        grp->any = lf_xcalloc((size_t)cJSON_GetArraySize(arr), sizeof *grp->any);
        const cJSON *e;
        cJSON_ArrayForEach(e, arr) {
            if (!cJSON_IsString(e) || !*e->valuestring)
                return problem(pc, line, "%s entries must be non-empty strings", what);
            if (!literal_markup_ok(e->valuestring))
                return problem(pc, line,
                               "%s literal \"%s\": a backslash is markup only as \\b at either end "
                               "(a literal is plain bytes, so \\. or an inner \\b never matches)",
                               what, e->valuestring);
            grp->any[grp->n_any++] = lf_xstrdup(e->valuestring);
        }
    }
    if (cJSON_GetArraySize(v) == 0)
        *n = 0;
    return 1;
}

static int parse_prefilter(parse_ctx *pc, const cJSON *v, lf_rule *r) {
    size_t line = key_line(pc, "prefilter", NULL);
    if (cJSON_IsObject(v)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, v) {
            unsigned mask = lf_lang_mask_from_name(e->string);
            if (!mask)
                return problem(pc, line, "\"prefilter\": unknown language \"%s\"", e->string);
            if (mask & ~r->languages)
                return problem(pc, line, "\"prefilter\": \"%s\" is not one of the rule's languages", e->string);
            lf_prefilter_group *groups = NULL;
            size_t n = 0;
            char what[64];
            snprintf(what, sizeof what, "\"prefilter\".%s", e->string);
            int ok = parse_prefilter_groups(pc, line, e, what, &groups, &n);
            /* the first language owns the groups; the others of its mask alias them */
            int owner = 1;
            for (int l = 0; l < LF_LANG_COUNT; l++) {
                if (!(mask & LF_LANG_BIT(l)))
                    continue;
                if (r->lang_prefilter_set & LF_LANG_BIT(l)) {
                    owner = 0;
                    continue;
                }
                r->lang_prefilter_set |= LF_LANG_BIT(l);
                r->lang_prefilter[l] = groups;
                r->n_lang_prefilter[l] = n;
            }
            if (!owner) {
                /* "typescript" and "tsx" both given: nothing took these groups */
                for (size_t g = 0; g < n; g++) {
                    for (size_t i = 0; i < groups[g].n_any; i++)
                        free(groups[g].any[i]);
                    free(groups[g].any);
                }
                free(groups);
                return ok ? problem(pc, line, "\"prefilter\": language \"%s\" given twice", e->string) : 0;
            }
            if (!ok)
                return 0;
        }
        return 1;
    }
    if (!cJSON_IsArray(v))
        return problem(pc, line, "\"prefilter\" must be an array of strings, an array of arrays of strings, or an "
                                 "object of those by language");
    if (!parse_prefilter_groups(pc, line, v, "\"prefilter\"", &r->prefilter_groups, &r->n_prefilter_groups))
        return 0;
    if (r->n_prefilter_groups) {
        r->prefilter = r->prefilter_groups[0].any;
        r->n_prefilter = r->prefilter_groups[0].n_any;
    }
    return 1;
}

const lf_prefilter_group *lf_rule_prefilter(const lf_rule *r, lf_lang lang, size_t *n) {
    if (lang < LF_LANG_COUNT && (r->lang_prefilter_set & LF_LANG_BIT(lang))) {
        *n = r->n_lang_prefilter[lang];
        return r->lang_prefilter[lang];
    }
    if (r->lang_prefilter_set) {
        *n = 0;
        return NULL;
    }
    *n = r->n_prefilter_groups;
    return r->prefilter_groups;
}

const struct lf_fixer *(*lf_rule_test_fixer_find)(const char *name) = NULL;

static const char *query_error_name(TSQueryError e) {
    switch (e) {
    case TSQueryErrorSyntax: return "syntax error";
    case TSQueryErrorNodeType: return "unknown node type";
    case TSQueryErrorField: return "unknown field";
    case TSQueryErrorCapture: return "unknown capture";
    case TSQueryErrorStructure: return "impossible pattern structure";
    case TSQueryErrorLanguage: return "grammar/ABI mismatch";
    default: return "error";
    }
}

/* Line and column (in characters, from 1) of byte off of a query text. */
static void query_position(const char *src, size_t off, size_t *line, size_t *col) {
    *line = *col = 1;
    for (size_t i = 0; i < off && src[i]; i++) {
        if (src[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)src[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

/* Compile one query text for one grammar and its predicates, and check what the
 * rule needs of it, reporting errors at query line:col; on success *q_out and
 * *preds_out own them. */
static int compile_query(parse_ctx *pc, const lf_rule *r, const char *key, lf_lang lang, const char *src,
                         TSQuery **q_out, struct lf_rule_predicates **preds_out) {
    size_t line = key_line(pc, "queries", key);
    size_t bad = 0, ql = 1, qc = 1;
    const char *shape = NULL;
    if (!lf_queryshape_check(src, strlen(src), &bad, &shape)) {
        query_position(src, bad, &ql, &qc);
        return problem(pc, line, "queries.%s: %s at query line %zu col %zu", key, shape, ql, qc);
    }
    uint32_t off = 0;
    TSQueryError qe = TSQueryErrorNone;
    TSQuery *q = ts_query_new(lf_lang_grammar(lang), src, (uint32_t)strlen(src), &off, &qe);
    if (!q) {
        query_position(src, off, &ql, &qc);
        const char *at = src + off;
        const char *eol = strchr(at, '\n');
        int show = eol ? (int)(eol - at) : (int)strlen(at);
        if (show > 40)
            show = 40;
        return problem(pc, line, "queries.%s: %s at query line %zu col %zu (for %s grammar), near \"%.*s\"", key,
                       query_error_name(qe), ql, qc, lf_lang_name(lang), show, at);
    }
    char *perr = NULL;
    struct lf_rule_predicates *preds = lf_predicates_compile(q, lf_lang_grammar(lang), src, &perr);
    if (!preds) {
        ts_query_delete(q);
        problem(pc, line, "queries.%s: %s", key, perr);
        free(perr);
        return 0;
    }
    if (!r->check && lf_query_capture_id(q, "finding") < 0) {
        ts_query_delete(q);
        lf_predicates_free(preds);
        return problem(pc, line, "queries.%s: a rule without a \"check\" must capture @finding", key);
    }
    /* Every {{name}} of the message must be a capture (or a name the rule's check
     * renders from its own nodes), or findings would read "<name>". */
    for (const char *p = strstr(r->message, "{{"); p; p = strstr(p + 2, "{{")) {
        const char *e = strstr(p + 2, "}}");
        if (!e)
            break;
        char *name = lf_xstrndup(p + 2, (size_t)(e - p - 2));
        int id = lf_query_capture_id(q, name);
        if (id < 0 && !(r->check && lf_check_renders(r->check, lang, name))) {
            problem(pc, key_line(pc, "message", NULL), "message uses {{%s}} but queries.%s has no @%s capture", name,
                    key, name);
            free(name);
            ts_query_delete(q);
            lf_predicates_free(preds);
            return 0;
        }
        free(name);
    }
    *q_out = q;
    *preds_out = preds;
    return 1;
}

/* Compile lang's query (r->query_source[lang] is set) unless it is already.
 * Returns 0 with *err (malloc'd) set to the error loading would have given. */
static int compile_lang(const lf_rule *r, lf_lang lang, char **err) {
    struct lf_rule_compiled *c = r->compiled;
    if (atomic_load_explicit(&c->ready, memory_order_acquire) & LF_LANG_BIT(lang))
        return 1;
    int ok = 1;
    pthread_mutex_lock(&c->lock);
    if (!(atomic_load_explicit(&c->ready, memory_order_relaxed) & LF_LANG_BIT(lang))) {
        parse_ctx pc = {c->doc, c->doc_len, r->origin, NULL, 1};
        TSQuery *q = NULL;
        struct lf_rule_predicates *preds = NULL;
        if (compile_query(&pc, r, c->key[lang], lang, r->query_source[lang], &q, &preds)) {
            c->query[lang] = q;
            c->preds[lang] = preds;
            atomic_fetch_or_explicit(&c->ready, LF_LANG_BIT(lang), memory_order_release);
        } else {
            ok = 0;
            *err = pc.err;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return ok;
}

static int has_query(const lf_rule *r, lf_lang lang) {
    return (unsigned)lang < LF_LANG_COUNT && r->query_source[lang];
}

static void compile_or_die(const lf_rule *r, lf_lang lang) {
    char *err = NULL;
    if (!compile_lang(r, lang, &err)) {
        /* a built-in query the rules tests would have failed on */
        fprintf(stderr, "lockfix: internal error: %s\n", err);
        abort();
    }
}

const TSQuery *lf_rule_query(const lf_rule *r, lf_lang lang) {
    if (!has_query(r, lang))
        return NULL;
    compile_or_die(r, lang);
    return r->compiled->query[lang];
}

const struct lf_rule_predicates *lf_rule_predicates(const lf_rule *r, lf_lang lang) {
    if (!has_query(r, lang))
        return NULL;
    compile_or_die(r, lang);
    return r->compiled->preds[lang];
}

int lf_rule_compile_all(const lf_rule *r, char **err) {
    *err = NULL;
    for (int l = 0; l < LF_LANG_COUNT; l++)
        if (has_query(r, (lf_lang)l) && !compile_lang(r, (lf_lang)l, err))
            return 0;
    return 1;
}

int lf_rule_query_is_compiled(const lf_rule *r, lf_lang lang) {
    return has_query(r, lang) && (atomic_load_explicit(&r->compiled->ready, memory_order_acquire) & LF_LANG_BIT(lang));
}

static int parse_queries(parse_ctx *pc, const cJSON *v, lf_rule *r) {
    if (!cJSON_IsObject(v))
        return problem(pc, key_line(pc, "queries", NULL), "\"queries\" must be an object keyed by language");
    const cJSON *c;
    cJSON_ArrayForEach(c, v) {
        unsigned mask = lf_lang_mask_from_name(c->string);
        if (!mask)
            return problem(pc, key_line(pc, "queries", c->string), "queries: unknown language \"%s\"", c->string);
        if (!(mask & r->languages))
            return problem(pc, key_line(pc, "queries", c->string),
                           "queries: \"%s\" is not one of the rule's \"languages\"", c->string);
        char *src = text_value(c);
        if (!src || !*src) {
            free(src);
            return problem(pc, key_line(pc, "queries", c->string),
                           "queries.%s must be a non-empty string or array of strings", c->string);
        }
        for (int l = 0; l < LF_LANG_COUNT; l++) {
            if (!(mask & LF_LANG_BIT(l)) || r->query_source[l])
                continue;
            struct lf_rule_compiled *cq = r->compiled;
            if (!pc->lazy) {
                if (!compile_query(pc, r, c->string, (lf_lang)l, src, &cq->query[l], &cq->preds[l])) {
                    free(src);
                    return 0;
                }
                atomic_fetch_or_explicit(&cq->ready, LF_LANG_BIT(l), memory_order_relaxed);
            }
            r->query_source[l] = lf_xstrdup(src);
            cq->key[l] = lf_xstrdup(c->string);
        }
        free(src);
    }
    for (int l = 0; l < LF_LANG_COUNT; l++)
        if ((r->languages & LF_LANG_BIT(l)) && !r->query_source[l])
            return problem(pc, key_line(pc, "queries", NULL), "no query for language \"%s\" listed in \"languages\"",
                           lf_lang_name((lf_lang)l));
    return 1;
}

static int parse_docs(parse_ctx *pc, const cJSON *v, lf_rule *r) {
    static const char *const keys[] = {"what", "why", "example", "use_instead", "fix_safety", "known_problems", NULL};
    if (!cJSON_IsObject(v))
        return problem(pc, key_line(pc, "docs", NULL), "\"docs\" must be an object");
    if (!check_keys(pc, v, keys, "docs", "docs"))
        return 0;
    return (r->docs.what = required_text(pc, v, "what", "docs")) && (r->docs.why = required_text(pc, v, "why", "docs")) &&
           (r->docs.example = required_text(pc, v, "example", "docs")) &&
           (r->docs.use_instead = required_text(pc, v, "use_instead", "docs")) &&
           (r->docs.fix_safety = required_text(pc, v, "fix_safety", "docs")) &&
           (!cJSON_GetObjectItemCaseSensitive(v, "known_problems") ||
            (r->docs.known_problems = required_text(pc, v, "known_problems", "docs")));
}

const char *lf_fix_safety_name(lf_fix_safety s) {
    switch (s) {
    case LF_FIX_SAFE: return "safe";
    case LF_FIX_UNSAFE: return "unsafe";
    case LF_FIX_SUGGESTION: return "suggestion";
    default: return "none";
    }
}

int lf_fix_safety_generates(lf_fix_safety s) { return s == LF_FIX_SAFE || s == LF_FIX_UNSAFE; }

lf_fix_safety lf_rule_fix_safety_for(const lf_rule *r, lf_lang lang) {
    if (lf_fix_safety_generates(r->fix_safety) && r->fix_languages && !(r->fix_languages & LF_LANG_BIT(lang)))
        return LF_FIX_SUGGESTION;
    return r->fix_safety;
}

static int parse_fix(parse_ctx *pc, const cJSON *v, lf_rule *r) {
    static const char *const keys[] = {"safety", "generator", "languages", "unavailable", NULL};
    size_t line = key_line(pc, "fix", NULL);
    if (!cJSON_IsObject(v))
        return problem(pc, line, "\"fix\" must be an object");
    if (!check_keys(pc, v, keys, "fix", "fix"))
        return 0;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(v, "safety");
    if (!cJSON_IsString(s))
        return problem(pc, line, "fix.safety must be one of \"safe\", \"unsafe\", \"suggestion\", \"none\"");
    if (!strcmp(s->valuestring, "safe"))
        r->fix_safety = LF_FIX_SAFE;
    else if (!strcmp(s->valuestring, "unsafe"))
        r->fix_safety = LF_FIX_UNSAFE;
    else if (!strcmp(s->valuestring, "suggestion"))
        r->fix_safety = LF_FIX_SUGGESTION;
    else if (!strcmp(s->valuestring, "none"))
        r->fix_safety = LF_FIX_NONE;
    else
        return problem(pc, key_line(pc, "fix", "safety"),
                       "fix.safety \"%s\" is not one of \"safe\", \"unsafe\", \"suggestion\", \"none\"",
                       s->valuestring);
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(v, "generator");
    if (g) {
        if (!cJSON_IsString(g))
            return problem(pc, key_line(pc, "fix", "generator"), "fix.generator must be a string");
        if (!lf_fix_safety_generates(r->fix_safety))
            return problem(pc, key_line(pc, "fix", "generator"),
                           "fix.generator needs fix.safety \"safe\" or \"unsafe\"");
        r->fixer = lf_fixer_find(g->valuestring);
        if (!r->fixer && lf_rule_test_fixer_find)
            r->fixer = lf_rule_test_fixer_find(g->valuestring);
        if (!r->fixer)
            return problem(pc, key_line(pc, "fix", "generator"), "unknown fix generator \"%s\"", g->valuestring);
    }
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(v, "languages");
    if (l) {
        /* the generator covers only these of the rule's languages; the others get
         * advice only (lf_rule_fix_safety_for) */
        if (!r->fixer || !cJSON_IsArray(l) || cJSON_GetArraySize(l) == 0)
            return problem(pc, key_line(pc, "fix", "languages"),
                           "fix.languages must be a non-empty array of language names, beside a fix.generator");
        const cJSON *e;
        cJSON_ArrayForEach(e, l) {
            unsigned mask = cJSON_IsString(e) ? lf_lang_mask_from_name(e->valuestring) : 0;
            if (!mask)
                return problem(pc, key_line(pc, "fix", "languages"), "fix.languages: unknown language");
            r->fix_languages |= mask;
        }
    }
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(v, "unavailable");
    if (u) {
        if (!cJSON_IsString(u) || !*u->valuestring)
            return problem(pc, key_line(pc, "fix", "unavailable"), "fix.unavailable must be a non-empty string");
        if (r->fixer)
            return problem(pc, key_line(pc, "fix", "unavailable"),
                           "fix.unavailable is only for a rule without a fix.generator");
        r->fix_unavailable = lf_xstrdup(u->valuestring);
    }
    return 1;
}

static int parse_test_case(parse_ctx *pc, const cJSON *c, int invalid, size_t idx) {
    static const char *const keys[] = {"code", "findings", "language", NULL};
    /* The line is looked up only for a problem: every rule document holds
     * dozens of cases, and the lookup scans the document from its start. */
#define TESTS_LINE key_line(pc, "tests", invalid ? "invalid" : "valid")
    if (!invalid && text_value_ok(c))
        return 1;
    if (!cJSON_IsObject(c))
        return problem(pc, TESTS_LINE, "tests.%s[%zu] must be %s", invalid ? "invalid" : "valid", idx,
                       invalid ? "an object {code, findings}" : "code (string or array of strings) or {code}");
    if (!check_keys(pc, c, keys, invalid ? "tests.invalid[]" : "tests.valid[]", "tests"))
        return 0;
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(c, "code");
    if (!code || !text_value_ok(code))
        return problem(pc, TESTS_LINE, "tests.%s[%zu].code must be a string or an array of strings",
                       invalid ? "invalid" : "valid", idx);
    const cJSON *lang = cJSON_GetObjectItemCaseSensitive(c, "language");
    if (lang && (!cJSON_IsString(lang) || !lf_lang_mask_from_name(lang->valuestring)))
        return problem(pc, TESTS_LINE, "tests.%s[%zu].language must be a known language", invalid ? "invalid" : "valid",
                       idx);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "findings");
    if (!invalid) {
        if (f)
            return problem(pc, TESTS_LINE, "tests.valid[%zu] must not list findings", idx);
        return 1;
    }
    if (!cJSON_IsArray(f) || cJSON_GetArraySize(f) == 0)
        return problem(pc, TESTS_LINE, "tests.invalid[%zu].findings must be a non-empty array of [line, col]", idx);
    const cJSON *p;
    cJSON_ArrayForEach(p, f) {
        if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !cJSON_IsNumber(cJSON_GetArrayItem(p, 0)) ||
            !cJSON_IsNumber(cJSON_GetArrayItem(p, 1)) || cJSON_GetArrayItem(p, 0)->valuedouble < 1 ||
            cJSON_GetArrayItem(p, 1)->valuedouble < 1)
            return problem(pc, TESTS_LINE, "tests.invalid[%zu].findings entries must be [line, col] (1-based)", idx);
    }
    return 1;
}
#undef TESTS_LINE

static int parse_tests(parse_ctx *pc, const cJSON *v) {
    static const char *const keys[] = {"valid", "invalid", NULL};
    if (!cJSON_IsObject(v))
        return problem(pc, key_line(pc, "tests", NULL), "\"tests\" must be an object {valid, invalid}");
    if (!check_keys(pc, v, keys, "tests", "tests"))
        return 0;
    for (int invalid = 0; invalid <= 1; invalid++) {
        const char *k = invalid ? "invalid" : "valid";
        const cJSON *arr = cJSON_GetObjectItemCaseSensitive(v, k);
        if (!arr)
            continue;
        if (!cJSON_IsArray(arr))
            return problem(pc, key_line(pc, "tests", k), "tests.%s must be an array", k);
        size_t i = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, arr) {
            if (!parse_test_case(pc, c, invalid, i++))
                return 0;
        }
    }
    return 1;
}

static int parse_languages(parse_ctx *pc, const cJSON *v, lf_rule *r) {
    size_t line = key_line(pc, "languages", NULL);
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return problem(pc, line, "\"languages\" must be a non-empty array of language names");
    const cJSON *e;
    cJSON_ArrayForEach(e, v) {
        if (!cJSON_IsString(e))
            return problem(pc, line, "\"languages\" entries must be strings");
        unsigned m = lf_lang_mask_from_name(e->valuestring);
        if (!m)
            return problem(pc, line, "unknown language \"%s\" (known: python, typescript, javascript, tsx)",
                           e->valuestring);
        r->languages |= m;
    }
    return 1;
}

static char *required_string(parse_ctx *pc, const cJSON *root, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!v) {
        problem(pc, 1, "missing required key \"%s\"", key);
        return NULL;
    }
    if (!cJSON_IsString(v)) {
        problem(pc, key_line(pc, key, NULL), "\"%s\" must be a string", key);
        return NULL;
    }
    if (!*v->valuestring) {
        problem(pc, key_line(pc, key, NULL), "\"%s\" must not be empty", key);
        return NULL;
    }
    return lf_xstrdup(v->valuestring);
}

static int parse_rule_object(parse_ctx *pc, const cJSON *root, lf_rule *r) {
    static const char *const keys[] = {"id",     "name",      "summary", "severity", "languages", "message", "docs",
                                       "fix",    "prefilter", "queries", "check",    "tests",     NULL};
    if (!cJSON_IsObject(root))
        return problem(pc, 1, "a rule file must hold one JSON object");
    if (!check_keys(pc, root, keys, "the rule", NULL))
        return 0;
    if (!(r->id = required_string(pc, root, "id")))
        return 0;
    if (!valid_id(r->id))
        return problem(pc, key_line(pc, "id", NULL), "id \"%s\" must look like LF123", r->id);
    if (!(r->name = required_string(pc, root, "name")))
        return 0;
    if (!valid_name(r->name))
        return problem(pc, key_line(pc, "name", NULL), "name \"%s\" must be lowercase-kebab-case", r->name);
    if (!(r->summary = required_string(pc, root, "summary")) || !(r->message = required_string(pc, root, "message")))
        return 0;
    char *sev = required_string(pc, root, "severity");
    if (!sev)
        return 0;
    int sev_ok = lf_severity_parse(sev, &r->severity) && r->severity != LF_SEV_NONE;
    if (!sev_ok) {
        problem(pc, key_line(pc, "severity", NULL), "severity \"%s\" is not one of \"info\", \"warning\", \"error\"",
                sev);
        free(sev);
        return 0;
    }
    free(sev);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "languages");
    if (!v)
        return problem(pc, 1, "missing required key \"languages\"");
    if (!parse_languages(pc, v, r))
        return 0;
    v = cJSON_GetObjectItemCaseSensitive(root, "docs");
    if (!v)
        return problem(pc, 1, "missing required key \"docs\" (what, why, example, use_instead, fix_safety)");
    if (!parse_docs(pc, v, r))
        return 0;
    v = cJSON_GetObjectItemCaseSensitive(root, "fix");
    if (!v)
        return problem(pc, 1, "missing required key \"fix\" ({\"safety\": \"safe|suggestion|none\"})");
    if (!parse_fix(pc, v, r))
        return 0;
    v = cJSON_GetObjectItemCaseSensitive(root, "check");
    if (v) {
        if (!cJSON_IsString(v))
            return problem(pc, key_line(pc, "check", NULL), "\"check\" must be a string");
        r->check = lf_check_find(v->valuestring);
        if (!r->check)
            return problem(pc, key_line(pc, "check", NULL), "unknown check \"%s\"", v->valuestring);
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "prefilter");
    if (v && !parse_prefilter(pc, v, r))
        return 0;
    v = cJSON_GetObjectItemCaseSensitive(root, "queries");
    if (!v)
        return problem(pc, 1, "missing required key \"queries\"");
    if (!parse_queries(pc, v, r))
        return 0;
    v = cJSON_GetObjectItemCaseSensitive(root, "tests");
    if (v && !parse_tests(pc, v))
        return 0;
    return 1;
}

/* lazy: json_text outlives the rule (a built-in's), which compiles its queries
 * on first use. */
static int rule_parse(const char *json_text, size_t len, const char *origin, int lazy, lf_rule **out, char **err) {
    parse_ctx pc = {json_text, len, origin, NULL, lazy};
    *out = NULL;
    if (err)
        *err = NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json_text, len, &end, 0);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        size_t off = (at && at >= json_text && at <= json_text + len) ? (size_t)(at - json_text) : 0;
        /* json_text need not be NUL-terminated: show at most 20 bytes, none past len. */
        int shown = (int)(len - off < 20 ? len - off : 20);
        problem(&pc, line_of_offset(json_text, off), "invalid JSON near \"%.*s\"", shown, json_text + off);
        if (err)
            *err = pc.err;
        else
            free(pc.err);
        return 0;
    }
    lf_rule *r = lf_xcalloc(1, sizeof *r);
    r->origin = lf_xstrdup(origin);
    r->doc_hash = lf_hash64(json_text, len, 0);
    r->compiled = lf_xcalloc(1, sizeof *r->compiled);
    pthread_mutex_init(&r->compiled->lock, NULL);
    atomic_init(&r->compiled->ready, 0);
    if (lazy) {
        r->compiled->doc = json_text;
        r->compiled->doc_len = len;
    }
    if (!parse_rule_object(&pc, root, r)) {
        rule_free(r);
        cJSON_Delete(root);
        if (err)
            *err = pc.err;
        else
            free(pc.err);
        return 0;
    }
    cJSON_Delete(root);
    *out = r;
    return 1;
}

int lf_rule_parse(const char *json_text, size_t len, const char *origin, lf_rule **out, char **err) {
    return rule_parse(json_text, len, origin, 0, out, err);
}

/* Insert keeping the set sorted by id; a rule with an existing id replaces it. */
static void ruleset_put(lf_ruleset *set, lf_rule *r) {
    size_t i = 0;
    while (i < set->n_rules && strcmp(set->rules[i]->id, r->id) < 0)
        i++;
    if (i < set->n_rules && strcmp(set->rules[i]->id, r->id) == 0) {
        rule_free(set->rules[i]);
        set->rules[i] = r;
        return;
    }
    set->rules = lf_xrealloc(set->rules, (set->n_rules + 1) * sizeof *set->rules);
    memmove(set->rules + i + 1, set->rules + i, (set->n_rules - i) * sizeof *set->rules);
    set->rules[i] = r;
    set->n_rules++;
}

int lf_ruleset_load_builtin(lf_ruleset *set, char **err) {
    if (err)
        *err = NULL;
    for (size_t i = 0; i < lf_builtin_rules_count; i++) {
        const lf_builtin_rule *b = &lf_builtin_rules[i];
        char *origin = lf_xasprintf("builtin:%s", b->origin);
        lf_rule *r;
        int ok = rule_parse(b->text, b->len, origin, 1, &r, err);
        free(origin);
        if (!ok)
            return 0;
        ruleset_put(set, r);
    }
    return 1;
}

/* Would r's query for lang compile as twin's did? The compile reads the query
 * text, the grammar, the message's {{names}} and what the check renders. */
static int compiles_as(const lf_rule *r, const lf_rule *twin, lf_lang lang) {
    return twin && has_query(twin, lang) && strcmp(r->query_source[lang], twin->query_source[lang]) == 0 &&
           strcmp(r->compiled->key[lang], twin->compiled->key[lang]) == 0 && r->check == twin->check &&
           ((!r->message && !twin->message) || (r->message && twin->message && !strcmp(r->message, twin->message)));
}

/* A rule file's queries compile at load, where their errors belong, except
 * for a language where the rule it replaces (a built-in, or a rule file that
 * was checked the same way) has the same query, message and check: that one
 * compiles on first use, as the built-in does. A copy of the built-in rules
 * with their prefilters dropped (the benchmark's no-prefilter row) so costs
 * no more to load than the built-ins. On success *out owns text. */
static int parse_rule_file(const lf_ruleset *set, char *text, size_t len, const char *path, lf_rule **out,
                           char **err) {
    lf_rule *r = NULL;
    if (!rule_parse(text, len, path, 1, &r, err))
        return 0;
    r->compiled->doc_owned = text;
    const lf_rule *twin = lf_ruleset_find(set, r->id);
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        if (!has_query(r, (lf_lang)l) || compiles_as(r, twin, (lf_lang)l))
            continue;
        if (!compile_lang(r, (lf_lang)l, err)) {
            r->compiled->doc_owned = NULL; /* the caller frees text */
            rule_free(r);
            return 0;
        }
    }
    *out = r;
    return 1;
}

static int name_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int lf_ruleset_load_dir(lf_ruleset *set, const char *dir, char **err) {
    char *dummy = NULL;
    if (!err)
        err = &dummy;
    *err = NULL;
    DIR *d = opendir(dir);
    if (!d) {
        *err = lf_xasprintf("%s: cannot open rules directory: %s", dir, strerror(errno));
        if (err == &dummy)
            free(dummy);
        return 0;
    }
    LF_VEC(char *) names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n > 5 && strcmp(de->d_name + n - 5, ".json") == 0 && de->d_name[0] != '.')
            LF_VEC_PUSH(&names, lf_xstrdup(de->d_name));
    }
    closedir(d);
    if (names.len > 1)
        qsort(names.items, names.len, sizeof *names.items, name_cmp);
    int ok = 1;
    for (size_t i = 0; i < names.len && ok; i++) {
        char *path = lf_xasprintf("%s/%s", dir, names.items[i]);
        size_t len = 0;
        char *text = lf_read_text_file(path, "rule file", SIZE_MAX, &len, err);
        lf_rule *r = NULL;
        if (!text || !parse_rule_file(set, text, len, path, &r, err)) {
            ok = 0;
            free(text);
        } else {
            ruleset_put(set, r); /* r owns text */
        }
        free(path);
    }
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    LF_VEC_FREE(&names);
    if (err == &dummy)
        free(dummy);
    return ok;
}

const lf_rule *lf_ruleset_find(const lf_ruleset *set, const char *id) {
    for (size_t i = 0; i < set->n_rules; i++)
        if (strcmp(set->rules[i]->id, id) == 0)
            return set->rules[i];
    return NULL;
}

void lf_ruleset_free(lf_ruleset *set) {
    for (size_t i = 0; i < set->n_rules; i++)
        rule_free(set->rules[i]);
    free(set->rules);
    set->rules = NULL;
    set->n_rules = 0;
}
