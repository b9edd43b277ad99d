/* One parse per file, every applicable rule's query over that one tree. */
#include "lf_engine.h"

#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"
#include "lf_suppress.h"

struct lf_engine {
    lf_engine_options opts;
    TSParser *parser;
    TSQueryCursor *cursor;
    lf_prefilter_index *prefilter; /* every rule's literals, found in one pass per file */
    unsigned char *found;
    /* Scratch reused across rules and files: matches of the current rule. */
    LF_VEC(lf_match_rec) matches;
    LF_VEC(TSQueryCapture) captures;
};

lf_engine *lf_engine_new(const lf_engine_options *opts) {
    lf_engine *eng = lf_xcalloc(1, sizeof *eng);
    eng->opts = *opts;
    eng->parser = ts_parser_new();
    eng->cursor = ts_query_cursor_new();
    eng->prefilter = lf_prefilter_index_new(opts->rules);
    eng->found = lf_xcalloc(lf_prefilter_index_size(eng->prefilter) + 1, 1);
    return eng;
}

void lf_engine_free(lf_engine *eng) {
    if (!eng)
        return;
    ts_parser_delete(eng->parser);
    ts_query_cursor_delete(eng->cursor);
    lf_prefilter_index_free(eng->prefilter);
    free(eng->found);
    LF_VEC_FREE(&eng->matches);
    LF_VEC_FREE(&eng->captures);
    free(eng);
}

static lf_severity effective_severity(const lf_engine_options *opts, const lf_rule *rule) {
    if (!opts->config)
        return rule->severity;
    return lf_config_rule_severity(opts->config, rule);
}

/* Record start in the rule's seen-set; 0 when it was already there. */
static int seen_insert(lf_check_ctx *ctx, uint32_t start) {
    if (2 * (ctx->seen_len + 1) > ctx->seen_cap) {
        size_t cap = ctx->seen_cap ? ctx->seen_cap * 2 : 64;
        uint32_t *t = lf_xcalloc(cap, sizeof *t);
        for (size_t i = 0; i < ctx->seen_cap; i++) {
            uint32_t v = ctx->seen[i];
            if (!v)
                continue;
            size_t h = (v * 2654435761u) & (cap - 1);
            while (t[h])
                h = (h + 1) & (cap - 1);
            t[h] = v;
        }
        free(ctx->seen);
        ctx->seen = t;
        ctx->seen_cap = cap;
    }
    uint32_t v = start + 1;
    size_t h = (v * 2654435761u) & (ctx->seen_cap - 1);
    while (ctx->seen[h]) {
        if (ctx->seen[h] == v)
            return 0;
        h = (h + 1) & (ctx->seen_cap - 1);
    }
    ctx->seen[h] = v;
    ctx->seen_len++;
    return 1;
}

void lf_ctx_emit(lf_check_ctx *ctx, TSNode at, const char *message, size_t match) {
    const lf_source *src = ctx->src;
    uint32_t start = ts_node_start_byte(at), end = ts_node_end_byte(at);
    /* One finding per rule and site, whichever patterns led to it. */
    if (!seen_insert(ctx, start))
        return;
    lf_finding f;
    memset(&f, 0, sizeof f);
    f.rule = ctx->rule;
    f.path = src->path;
    f.start_byte = start;
    f.end_byte = end;
    lf_source_position(src, start, &f.line, &f.col);
    lf_source_position(src, end, &f.end_line, &f.end_col);
    if (lf_suppressed(src, f.line, ctx->rule->id))
        return;
    f.severity = ctx->severity;
    if (message) {
        f.message = lf_xstrdup(message);
    } else if (match < ctx->n_matches) {
        const lf_match_rec *m = &ctx->matches[match];
        f.message = lf_render_message(ctx->rule->message, src, ctx->query, ctx->captures + m->first, m->count);
    } else {
        f.message = lf_render_message(ctx->rule->message, src, ctx->query, NULL, 0);
    }
    if (ctx->opts->want_fixes && ctx->rule->fix_safety == LF_FIX_SAFE) {
        if (ctx->rule->fixer) {
            lf_fix_ctx fc = {src, ctx->root, at, ctx->rule};
            char *reason = NULL;
            f.fix = ctx->rule->fixer->generate(&fc, &reason);
            if (!f.fix)
                f.no_fix_reason = reason ? reason : lf_xstrdup("the fix generator could not handle this site");
            else
                free(reason);
        } else {
            f.no_fix_reason = lf_xstrdup(ctx->rule->fix_unavailable ? ctx->rule->fix_unavailable
                                                                    : "no fix generator for this rule yet");
        }
    }
    LF_VEC_PUSH(ctx->out, f);
}

/* Collect the rule's matches that pass its text predicates into eng's scratch. */
static void collect_matches(lf_engine *eng, const TSQuery *q, const struct lf_rule_predicates *preds,
                            const lf_source *src, TSNode root) {
    eng->matches.len = 0;
    eng->captures.len = 0;
    ts_query_cursor_exec(eng->cursor, q, root);
    TSQueryMatch m;
    while (ts_query_cursor_next_match(eng->cursor, &m)) {
        if (!lf_predicates_eval(preds, &m, src))
            continue;
        lf_match_rec rec = {m.pattern_index, (uint32_t)eng->captures.len, m.capture_count};
        for (uint16_t i = 0; i < m.capture_count; i++)
            LF_VEC_PUSH(&eng->captures, m.captures[i]);
        LF_VEC_PUSH(&eng->matches, rec);
    }
}

static void emit_at_finding_captures(lf_check_ctx *ctx) {
    int id = lf_query_capture_id(ctx->query, "finding");
    if (id < 0)
        return;
    for (size_t mi = 0; mi < ctx->n_matches; mi++) {
        const lf_match_rec *m = &ctx->matches[mi];
        for (uint32_t i = 0; i < m->count; i++) {
            if (ctx->captures[m->first + i].index == (uint32_t)id) {
                lf_ctx_emit(ctx, ctx->captures[m->first + i].node, NULL, mi);
                break;
            }
        }
    }
}

static int finding_cmp(const void *a, const void *b) {
    const lf_finding *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return strcmp(x->rule->id, y->rule->id);
}

int lf_engine_analyze(lf_engine *eng, const lf_source *src, lf_finding **out, size_t *n_out, char **err) {
    const lf_ruleset *set = eng->opts.rules;
    if (err)
        *err = NULL;
    if (!set || src->lang >= LF_LANG_COUNT)
        return 0;
    /* Decide which rules apply before paying for a parse. */
    const lf_rule **todo = lf_xcalloc(set->n_rules ? set->n_rules : 1, sizeof *todo);
    lf_severity *sev = lf_xcalloc(set->n_rules ? set->n_rules : 1, sizeof *sev);
    size_t n_todo = 0;
    if (eng->opts.use_prefilter)
        lf_prefilter_scan(eng->prefilter, src->text, src->len, eng->found);
    for (size_t i = 0; i < set->n_rules; i++) {
        const lf_rule *r = set->rules[i];
        if (!(r->languages & LF_LANG_BIT(src->lang)) || !r->queries[src->lang])
            continue;
        lf_severity s = effective_severity(&eng->opts, r);
        if (s == LF_SEV_NONE)
            continue;
        if (eng->opts.use_prefilter && !lf_prefilter_rule_passes(eng->prefilter, eng->found, i, r))
            continue;
        sev[n_todo] = s;
        todo[n_todo++] = r;
    }
    if (n_todo == 0) {
        free(todo);
        free(sev);
        return 0;
    }
    if (!ts_parser_set_language(eng->parser, lf_lang_grammar(src->lang))) {
        free(todo);
        free(sev);
        if (err)
            *err = lf_xasprintf("%s: grammar for %s could not be loaded", src->path, lf_lang_name(src->lang));
        return -1;
    }
    TSTree *tree = ts_parser_parse_string(eng->parser, NULL, src->text, (uint32_t)src->len);
    if (!tree) {
        free(todo);
        free(sev);
        if (err)
            *err = lf_xasprintf("%s: parse failed", src->path);
        return -1;
    }
    TSNode root = ts_tree_root_node(tree);
    lf_finding_vec found = {0};
    for (size_t i = 0; i < n_todo; i++) {
        const lf_rule *r = todo[i];
        const TSQuery *q = r->queries[src->lang];
        collect_matches(eng, q, r->predicates[src->lang], src, root);
        lf_check_ctx ctx = {
            .src = src,
            .root = root,
            .rule = r,
            .query = q,
            .matches = eng->matches.items,
            .n_matches = eng->matches.len,
            .captures = eng->captures.items,
            .opts = &eng->opts,
            .severity = sev[i],
            .out = &found,
        };
        if (r->check)
            r->check->run(&ctx);
        else
            emit_at_finding_captures(&ctx);
        free(ctx.seen);
    }
    ts_tree_delete(tree);
    free(todo);
    free(sev);
    if (found.len) {
        qsort(found.items, found.len, sizeof *found.items, finding_cmp);
        *out = lf_xrealloc(*out, (*n_out + found.len) * sizeof **out);
        memcpy(*out + *n_out, found.items, found.len * sizeof *found.items);
        *n_out += found.len;
    }
    free(found.items);
    return 0;
}

static int tree_has_problem(TSNode n) {
    return ts_node_has_error(n);
}

int lf_engine_parses_cleanly(lf_lang lang, const char *text, size_t len) {
    if (lang >= LF_LANG_COUNT)
        return 0;
    TSParser *p = ts_parser_new();
    if (!ts_parser_set_language(p, lf_lang_grammar(lang))) {
        ts_parser_delete(p);
        return 0;
    }
    TSTree *t = ts_parser_parse_string(p, NULL, text, (uint32_t)len);
    int ok = t && !tree_has_problem(ts_tree_root_node(t));
    if (t)
        ts_tree_delete(t);
    ts_parser_delete(p);
    return ok;
}
