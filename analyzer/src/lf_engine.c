/* One parse per file, and one walk of that tree by all applicable rules' patterns. */
#include "lf_engine.h"
#include "lf_testpath.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lf_anchor.h"
#include "lf_engine_internal.h"
#include "lf_fingerprint.h"
#include "lf_fix.h"
#include "lf_suppress.h"
#include "lf_tree.h"
#include "lf_tsarena.h"
#include "lf_witness.h"

/* All rules' queries for one language concatenated into one TSQuery, so a tree is
 * walked once whatever the number of rules (one traversal costs about a third of a
 * parse). Pattern p of the combined query is pattern p - first[r] of rule owner[p]. */
typedef struct lf_combined {
    int state; /* 0 not built yet, 1 built, -1 cannot be built: run per-rule queries */
    TSQuery *query;
    struct lf_rule_predicates *preds; /* compiled against the combined capture ids */
    uint32_t *first;                  /* per rule of the set: its first pattern */
    uint32_t *owner;                  /* per combined pattern: index of its rule */
} lf_combined;

typedef LF_VEC(lf_match_rec) lf_match_vec;
typedef LF_VEC(TSQueryCapture) capture_vec;

/* Built on first need by whichever worker needs it first, so the compile
 * overlaps the other workers' scanning instead of delaying the start. */
struct lf_engine_shared {
    pthread_mutex_t lock;
    const lf_ruleset *rules;
    lf_combined combined[LF_LANG_COUNT];
};

struct lf_engine {
    lf_engine_options opts;
    lf_tsarena *arena; /* each parse's parser and tree (lf_tsarena.h) */
    TSQueryCursor *cursor;
    lf_prefilter_index *prefilter[LF_LANG_COUNT]; /* per language: its rules' literals, found in one pass per file */
    unsigned char *found[LF_LANG_COUNT];
    lf_combined combined[LF_LANG_COUNT];
    /* Scratch reused across rules and files: matches per rule (by index in the set),
     * and all their captures in one array. */
    lf_match_vec *rule_matches;
    unsigned char *selected; /* per rule of the set: chosen for the current file */
    lf_match_vec matches;
    capture_vec captures;
    /* a check's matches on demand: apart, since the combined walk's captures
     * of the file's other rules are still to be read */
    lf_match_vec demand_matches;
    capture_vec demand_captures;
    LF_VEC(const char *) words; /* anchor words of the current query's wanted patterns */
    size_t walks; /* query traversals so far, for tests */
    uint32_t partial_depth; /* last file: its nesting depth when over LF_ENGINE_MAX_QUERY_DEPTH, else 0 */
};

uint32_t lf_engine_partial_depth(const lf_engine *eng) { return eng->partial_depth; }

size_t lf_engine_query_walks(const lf_engine *eng) { return eng->walks; }

static void combined_free(lf_combined *c) {
    if (c->query)
        ts_query_delete(c->query);
    lf_predicates_free(c->preds);
    free(c->first);
    free(c->owner);
    memset(c, 0, sizeof *c);
}

/* The query the engine walks for a rule on files of lang before the check
 * runs: its own, unless its check reads none of the matches there
 * (lf_check.reads_matches) or takes them on demand. */
static const char *walked_query(const lf_rule *r, lf_lang lang) {
    if (r->check && (!(r->check->reads_matches & LF_LANG_BIT(lang)) || (r->check->matches_on_demand & LF_LANG_BIT(lang))))
        return NULL;
    return r->query_source[lang];
}

/* Does the check walk the rule's query itself, when it asks (lf_ctx_collect_matches)? */
static int on_demand(const lf_rule *r, lf_lang lang) {
    return r->check && (r->check->reads_matches & r->check->matches_on_demand & LF_LANG_BIT(lang)) &&
           r->query_source[lang];
}

/* Compile the combined query of lang from the rules' sources, and give each of
 * its patterns to the rule whose source holds the pattern's first byte. The
 * rules' own queries are not needed for this: a built-in's compiles on first
 * use (lf_rule_query), and a file that meets several rules would otherwise pay
 * the query analysis twice. Every source compiles alone (--rules DIR at load,
 * the built-ins in the rules tests), so failure here is not expected; it leaves
 * state -1 and the engine runs the rules' own queries, which give the same
 * findings, only slower. */
static void combined_build(lf_combined *c, const lf_ruleset *set, lf_lang lang) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    c->state = -1;
    c->first = lf_xcalloc(set->n_rules + 1, sizeof *c->first);
    size_t *start = lf_xcalloc(set->n_rules + 1, sizeof *start); /* rule i's source: offset in the text */
    for (size_t i = 0; i < set->n_rules; i++) {
        const char *q = walked_query(set->rules[i], lang);
        start[i] = sb.len;
        if (!q)
            continue;
        /* A newline ends a trailing ';' comment before the next rule's patterns. */
        lf_strbuf_puts(&sb, q);
        lf_strbuf_puts(&sb, "\n");
    }
    char *text = lf_strbuf_detach(&sb);
    uint32_t off = 0;
    TSQueryError qe = TSQueryErrorNone;
    c->query = ts_query_new(lf_lang_grammar(lang), text, (uint32_t)strlen(text), &off, &qe);
    if (!c->query) {
        free(text);
        goto out;
    }
    char *problem = NULL;
    c->preds = lf_predicates_compile(c->query, lf_lang_grammar(lang), text, &problem);
    free(text);
    if (!c->preds) {
        free(problem);
        goto out;
    }
    uint32_t total = ts_query_pattern_count(c->query);
    c->owner = lf_xcalloc(total + 1, sizeof *c->owner);
    /* Patterns are numbered in source order, so owners never go back; a rule
     * without a source for lang has the next one's offset and is passed over. */
    size_t r = 0;
    uint32_t prev = 0;
    for (uint32_t p = 0; p < total; p++) {
        uint32_t at = ts_query_start_byte_for_pattern(c->query, p);
        if (at < prev)
            goto out;
        prev = at;
        while (r + 1 < set->n_rules && start[r + 1] <= at)
            r++;
        if (!walked_query(set->rules[r], lang))
            goto out;
        c->owner[p] = (uint32_t)r;
    }
    uint32_t p = 0;
    for (size_t i = 0; i < set->n_rules; i++) {
        while (p < total && c->owner[p] < i)
            p++;
        c->first[i] = p;
    }
    c->state = 1;
out:
    free(start);
}

lf_engine_shared *lf_engine_shared_new(const lf_ruleset *rules) {
    lf_engine_shared *sh = lf_xcalloc(1, sizeof *sh);
    pthread_mutex_init(&sh->lock, NULL);
    sh->rules = rules;
    return sh;
}

void lf_engine_shared_prepare(lf_engine_shared *sh) {
    pthread_mutex_lock(&sh->lock);
    for (int l = 0; l < LF_LANG_COUNT; l++)
        if (sh->combined[l].state == 0)
            combined_build(&sh->combined[l], sh->rules, (lf_lang)l);
    pthread_mutex_unlock(&sh->lock);
}

void lf_engine_shared_free(lf_engine_shared *sh) {
    if (!sh)
        return;
    for (int l = 0; l < LF_LANG_COUNT; l++)
        combined_free(&sh->combined[l]);
    pthread_mutex_destroy(&sh->lock);
    free(sh);
}

/* The combined query of lang: the scan's shared one when there is one, else
 * this engine's own; built on first need. */
static const lf_combined *combined_for(lf_engine *eng, lf_lang lang) {
    lf_engine_shared *sh = (lf_engine_shared *)eng->opts.shared; /* const for callers: only this lazy build writes */
    if (sh && sh->rules == eng->opts.rules) {
        pthread_mutex_lock(&sh->lock);
        if (sh->combined[lang].state == 0)
            combined_build(&sh->combined[lang], sh->rules, lang);
        pthread_mutex_unlock(&sh->lock);
        return &sh->combined[lang];
    }
    lf_combined *c = &eng->combined[lang];
    if (c->state == 0)
        combined_build(c, eng->opts.rules, lang);
    return c;
}

static lf_severity effective_severity(const lf_engine_options *opts, const lf_rule *rule);

lf_engine *lf_engine_new(const lf_engine_options *opts) {
    lf_engine *eng = lf_xcalloc(1, sizeof *eng);
    eng->opts = *opts;
    eng->arena = lf_tsarena_new(); /* outside its window tree-sitter's memory is the C library's, as before */
    eng->cursor = ts_query_cursor_new();
    /* rules the config turns off never run: their literals are not searched
     * (`--select LF999` scans for LF999's alone) */
    size_t n_set = opts->rules ? opts->rules->n_rules : 0;
    unsigned char *enabled = lf_xcalloc(n_set + 1, 1);
    for (size_t i = 0; i < n_set; i++)
        enabled[i] = effective_severity(opts, opts->rules->rules[i]) != LF_SEV_NONE;
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        eng->prefilter[l] = lf_prefilter_index_new(opts->rules, (lf_lang)l, enabled);
        eng->found[l] = lf_xcalloc(lf_prefilter_index_size(eng->prefilter[l]) + 1, 1);
    }
    free(enabled);
    size_t n_rules = opts->rules ? opts->rules->n_rules : 0;
    eng->rule_matches = lf_xcalloc(n_rules + 1, sizeof *eng->rule_matches);
    eng->selected = lf_xcalloc(n_rules + 1, 1);
    return eng;
}

void lf_engine_free(lf_engine *eng) {
    if (!eng)
        return;
    lf_tsarena_free(eng->arena);
    ts_query_cursor_delete(eng->cursor);
    for (int l = 0; l < LF_LANG_COUNT; l++) {
        lf_prefilter_index_free(eng->prefilter[l]);
        free(eng->found[l]);
    }
    for (int l = 0; l < LF_LANG_COUNT; l++)
        combined_free(&eng->combined[l]);
    size_t n_rules = eng->opts.rules ? eng->opts.rules->n_rules : 0;
    for (size_t i = 0; i < n_rules; i++)
        LF_VEC_FREE(&eng->rule_matches[i]);
    free(eng->rule_matches);
    free(eng->selected);
    LF_VEC_FREE(&eng->matches);
    LF_VEC_FREE(&eng->captures);
    LF_VEC_FREE(&eng->demand_matches);
    LF_VEC_FREE(&eng->demand_captures);
    LF_VEC_FREE(&eng->words);
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

static void free_site_now(void *site, void (*free_site)(void *)) {
    if (site && free_site)
        free_site(site);
}

void lf_ctx_emit_site(lf_check_ctx *ctx, TSNode at, const char *message, void *site, void (*free_site)(void *)) {
    const lf_source *src = ctx->src;
    uint32_t start = ts_node_start_byte(at), end = ts_node_end_byte(at);
    ctx->last_emitted = 0;
    /* One finding per rule and site, whichever patterns led to it. */
    if (!seen_insert(ctx, start)) {
        free_site_now(site, free_site);
        return;
    }
    lf_finding f;
    memset(&f, 0, sizeof f);
    f.rule = ctx->rule;
    f.path = src->path;
    f.start_byte = start;
    f.end_byte = end;
    lf_source_position(src, start, &f.line, &f.col);
    lf_source_position(src, end, &f.end_line, &f.end_col);
    if (lf_suppressed(src, f.line, ctx->rule->id)) {
        free_site_now(site, free_site);
        return;
    }
    f.severity = ctx->severity;
    f.fingerprint_hash = lf_fingerprint_node(src, at, ctx->rule->id);
    f.message = lf_xstrdup(message ? message : "");
    LF_VEC_PUSH(ctx->out, f);
    ctx->last_emitted = ctx->out->len;
    lf_pending_site p = {ctx->out->len - 1, at, site, free_site};
    LF_VEC_PUSH(&ctx->pending, p);
}

void lf_ctx_emit(lf_check_ctx *ctx, TSNode at, const char *message, size_t match) {
    if (message) {
        lf_ctx_emit_site(ctx, at, message, NULL, NULL);
        return;
    }
    lf_ctx_emit_match_site(ctx, at, match, NULL, NULL);
}

void lf_ctx_emit_match_site(lf_check_ctx *ctx, TSNode at, size_t match, void *site, void (*free_site)(void *)) {
    char *msg;
    if (match < ctx->n_matches) {
        const lf_match_rec *m = &ctx->matches[match];
        msg = lf_render_message(ctx->rule->message, ctx->src, ctx->query, ctx->captures + m->first, m->count);
    } else {
        msg = lf_render_message(ctx->rule->message, ctx->src, ctx->query, NULL, 0);
    }
    lf_ctx_emit_site(ctx, at, msg, site, free_site);
    free(msg);
}

void lf_ctx_emit_named_site(lf_check_ctx *ctx, TSNode at, const char *const *names, const TSNode *nodes, size_t n,
                            void *site, void (*free_site)(void *)) {
    char *msg = lf_render_message_nodes(ctx->rule->message, ctx->src, names, nodes, n);
    lf_ctx_emit_site(ctx, at, msg, site, free_site);
    free(msg);
}

void lf_ctx_witness(lf_check_ctx *ctx, lf_witness *w) {
    if (!w)
        return;
    if (!ctx->last_emitted || w->n_steps == 0) {
        lf_witness_free(w);
        return;
    }
    lf_finding *f = &ctx->out->items[ctx->last_emitted - 1];
    lf_witness_locate(w, ctx->src);
    lf_witness_free(f->witness);
    f->witness = w;
}

lf_filesem *lf_ctx_sem(lf_check_ctx *ctx) { return ctx->sem; }
struct lf_pysem *lf_ctx_pysem(lf_check_ctx *ctx) { return lf_filesem_python(ctx->sem); }
struct lf_tssem *lf_ctx_tssem(lf_check_ctx *ctx) { return lf_filesem_typescript(ctx->sem); }
int lf_ctx_is_ts(const lf_check_ctx *ctx) {
    return ctx->src->lang == LF_LANG_TYPESCRIPT || ctx->src->lang == LF_LANG_TSX;
}

void lf_ctx_finish(lf_check_ctx *ctx) {
    size_t n = ctx->pending.len;
    if (n && ctx->opts->want_fixes && lf_fix_safety_generates(lf_rule_fix_safety_for(ctx->rule, ctx->src->lang))) {
        if (ts_node_has_error(ctx->root)) {
            /* lf_fix_apply refuses a file that does not parse cleanly, so a
             * fix made here could never land (and scan would count it as
             * fixable); and the generators read trees as the grammar builds
             * them for valid code, not ERROR roots of a file mid-edit. */
            for (size_t i = 0; i < n; i++)
                ctx->out->items[ctx->pending.items[i].finding].no_fix_reason =
                    lf_xstrdup("the file does not parse cleanly, and fixes are made only to files that do");
        } else if (ctx->rule->fixer) {
            lf_fix_request *reqs = lf_xcalloc(n, sizeof *reqs);
            for (size_t i = 0; i < n; i++) {
                reqs[i].at = ctx->pending.items[i].at;
                reqs[i].site = ctx->pending.items[i].site;
                reqs[i].line = ctx->out->items[ctx->pending.items[i].finding].line;
            }
            lf_fix_ctx fc = {ctx->src, ctx->root, ctx->rule, ctx->sem, ctx->opts->fix_runtime_dir};
            ctx->rule->fixer->generate(&fc, reqs, n);
            for (size_t i = 0; i < n; i++) {
                lf_finding *f = &ctx->out->items[ctx->pending.items[i].finding];
                f->fix = reqs[i].fix;
                /* Edits are made on the UTF-8 text: one the file's own encoding
                 * cannot hold is declined here, so scan and fix agree on it. */
                char *unwritable = f->fix ? lf_fix_unwritable(ctx->src, f->fix) : NULL;
                if (unwritable) {
                    lf_fix_free(f->fix);
                    f->fix = NULL;
                    free(reqs[i].no_fix_reason);
                    reqs[i].no_fix_reason = unwritable;
                }
                if (f->fix)
                    free(reqs[i].no_fix_reason);
                else
                    f->no_fix_reason =
                        reqs[i].no_fix_reason ? reqs[i].no_fix_reason
                                              : lf_xstrdup("the fix generator could not handle this site");
            }
            free(reqs);
        } else {
            for (size_t i = 0; i < n; i++)
                ctx->out->items[ctx->pending.items[i].finding].no_fix_reason = lf_xstrdup(
                    ctx->rule->fix_unavailable ? ctx->rule->fix_unavailable : "no fix generator for this rule yet");
        }
    }
    for (size_t i = 0; i < n; i++)
        free_site_now(ctx->pending.items[i].site, ctx->pending.items[i].free_site);
    LF_VEC_FREE(&ctx->pending);
}

/* Where a query runs on the current file: at the nodes that can root a wanted
 * match when every wanted pattern is anchored on words (lf_anchor.h), else the
 * whole tree. owner/selected pick the wanted patterns of a combined query (NULL:
 * all). Returns the number of sites in *sites (malloc'd), or LF_ANCHOR_WALK_ALL. */
static size_t query_sites(lf_engine *eng, const TSQuery *q, const struct lf_rule_predicates *preds,
                          const uint32_t *owner, const lf_source *src, TSNode root, lf_anchor_node **sites) {
    *sites = NULL;
    if (eng->partial_depth || eng->opts.walk_whole_tree) /* a partial analysis keeps the walk's depth limit */
        return LF_ANCHOR_WALK_ALL;
    eng->words.len = 0;
    int at_root = 0;
    uint32_t n_patterns = ts_query_pattern_count(q);
    for (uint32_t p = 0; p < n_patterns; p++) {
        if (owner && !eng->selected[owner[p]])
            continue;
        size_t n;
        const char *const *w = lf_predicates_anchor_words(preds, p, &n);
        if (!w && lf_predicates_root_only(preds, p)) {
            /* an ERROR root may hold what the grammar puts only at the top */
            if (ts_node_is_error(root))
                return LF_ANCHOR_WALK_ALL;
            at_root = 1;
            continue;
        }
        if (!w)
            return LF_ANCHOR_WALK_ALL;
        for (size_t i = 0; i < n; i++) {
            size_t k = 0;
            while (k < eng->words.len && strcmp(eng->words.items[k], w[i]) != 0)
                k++;
            if (k == eng->words.len)
                LF_VEC_PUSH(&eng->words, w[i]);
        }
    }
    size_t n = lf_anchor_roots(root, src->text, src->len, eng->words.items, eng->words.len, sites);
    if (n || !at_root)
        return n; /* any site lies inside the root, which is then the first site */
    *sites = lf_xmalloc(sizeof **sites);
    (*sites)[0] = (lf_anchor_node){root, 0};
    return 1;
}

/* Start the cursor on q at the i-th of the query's sites (or on the whole tree). */
static void query_start(lf_engine *eng, const TSQuery *q, TSNode root, const lf_anchor_node *sites, size_t i) {
    if (!sites) {
        ts_query_cursor_set_max_start_depth(eng->cursor,
                                            eng->partial_depth ? LF_ENGINE_MAX_QUERY_DEPTH : UINT32_MAX);
        ts_query_cursor_exec(eng->cursor, q, root);
    } else {
        ts_query_cursor_set_max_start_depth(eng->cursor, 0); /* only the patterns rooted at the site */
        ts_query_cursor_exec(eng->cursor, q, sites[i].node);
    }
}

/* Collect the matches of q that pass its text predicates into the given vectors. */
static void collect_matches_into(lf_engine *eng, const TSQuery *q, const struct lf_rule_predicates *preds,
                                 const lf_source *src, TSNode root, lf_filesem *fs, lf_match_vec *matches,
                                 capture_vec *captures) {
    matches->len = 0;
    captures->len = 0;
    lf_anchor_node *sites;
    size_t n_sites = query_sites(eng, q, preds, NULL, src, root, &sites);
    int whole = n_sites == LF_ANCHOR_WALK_ALL;
    eng->walks++;
    for (size_t s = 0; s < (whole ? 1 : n_sites); s++) {
        query_start(eng, q, root, whole ? NULL : sites, s);
        TSQueryMatch m;
        while (ts_query_cursor_next_match(eng->cursor, &m)) {
            if (!lf_predicates_eval(preds, &m, src, fs))
                continue;
            lf_match_rec rec = {m.pattern_index, (uint32_t)captures->len, m.capture_count};
            for (uint16_t i = 0; i < m.capture_count; i++)
                LF_VEC_PUSH(captures, m.captures[i]);
            LF_VEC_PUSH(matches, rec);
        }
    }
    free(sites);
}

/* Collect the rule's matches into eng's scratch. */
static void collect_matches(lf_engine *eng, const TSQuery *q, const struct lf_rule_predicates *preds,
                            const lf_source *src, TSNode root, lf_filesem *fs) {
    collect_matches_into(eng, q, preds, src, root, fs, &eng->matches, &eng->captures);
}

void lf_ctx_collect_matches(lf_check_ctx *ctx) {
    lf_engine *eng = ctx->on_demand;
    if (!eng)
        return;
    ctx->on_demand = NULL;
    lf_lang lang = ctx->src->lang;
    ctx->query = lf_rule_query(ctx->rule, lang);
    collect_matches_into(eng, ctx->query, lf_rule_predicates(ctx->rule, lang), ctx->src, ctx->root, ctx->sem,
                         &eng->demand_matches, &eng->demand_captures);
    ctx->matches = eng->demand_matches.items;
    ctx->n_matches = eng->demand_matches.len;
    ctx->captures = eng->demand_captures.items;
}

/* Walk the tree once with the combined query (or visit its anchored sites),
 * sending each match that passes its predicates to the rule owning its pattern,
 * renumbered to that rule's own pattern index. Matches of rules not selected for
 * this file are dropped. Returns 0 when the cursor dropped matches (in-progress
 * match limit): the caller then runs the rules' own queries, so the combined
 * query never loses a finding they would give. */
static int collect_combined(lf_engine *eng, const lf_combined *c, size_t n_rules, const lf_source *src,
                            TSNode root, lf_filesem *fs) {
    eng->captures.len = 0;
    for (size_t i = 0; i < n_rules; i++)
        eng->rule_matches[i].len = 0;
    lf_anchor_node *sites;
    size_t n_sites = query_sites(eng, c->query, c->preds, c->owner, src, root, &sites);
    int whole = n_sites == LF_ANCHOR_WALK_ALL, complete = 1;
    eng->walks++;
    for (size_t s = 0; s < (whole ? 1 : n_sites); s++) {
        query_start(eng, c->query, root, whole ? NULL : sites, s);
        TSQueryMatch m;
        while (ts_query_cursor_next_match(eng->cursor, &m)) {
            uint32_t r = c->owner[m.pattern_index];
            if (!eng->selected[r] || !lf_predicates_eval(c->preds, &m, src, fs))
                continue;
            lf_match_rec rec = {m.pattern_index - c->first[r], (uint32_t)eng->captures.len, m.capture_count};
            for (uint16_t i = 0; i < m.capture_count; i++)
                LF_VEC_PUSH(&eng->captures, m.captures[i]);
            LF_VEC_PUSH(&eng->rule_matches[r], rec);
        }
        if (ts_query_cursor_did_exceed_match_limit(eng->cursor))
            complete = 0;
    }
    free(sites);
    return complete;
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

#define PARSE_NO_GRAMMAR ((TSTree *)&parse_no_grammar)
static const char parse_no_grammar;

/* The file's tree, in eng->arena; PARSE_NO_GRAMMAR when the grammar cannot be
 * loaded, NULL when the parse fails. Every parse is made in the region, the
 * largest source (16 MB, lf_source.c) too: the region's reset gives back what
 * it holds beyond its bound, so a large file's tree is not kept for the rest
 * of the scan, and dropping it costs no walk of its nodes (on the TS/JS bench
 * that walk and malloc were a tenth of the CPU, nearly all of it on the
 * bundles of several MB). The parse's own reallocations stay in the region
 * until the reset: about a seventh more memory at the peak. A parser is made
 * for the one parse and deleted with it: the region may hold only what was
 * made inside it (the scanner it frees is the C library's). */
static TSTree *parse_source(lf_engine *eng, const lf_source *src) {
    const TSLanguage *lang = lf_lang_grammar(src->lang);
    lf_tsarena_enter(eng->arena);
    TSParser *p = ts_parser_new();
    TSTree *tree = ts_parser_set_language(p, lang) ? ts_parser_parse_string(p, NULL, src->text, (uint32_t)src->len)
                                                   : PARSE_NO_GRAMMAR;
    ts_parser_delete(p);
    lf_tsarena_leave();
    if (tree == PARSE_NO_GRAMMAR || !tree)
        lf_tsarena_reset(eng->arena);
    return tree;
}

/* Done with a tree: it goes with the region, unwalked. */
static void drop_tree(lf_engine *eng, TSTree *tree) {
    lf_tree_forget(tree);
    lf_tsarena_reset(eng->arena);
}

/* The rule's check gate (lf_check.h), asked only where the rule has prefilter
 * literals for the file's language: a gate is a sharper prefilter. */
static int gate_passes(const lf_rule *r, lf_gate_text *in) {
    size_t n_groups = 0;
    if (!r->check || !r->check->gate || !lf_rule_prefilter(r, in->lang, &n_groups) || n_groups == 0)
        return 1;
    return r->check->gate(in);
}

int lf_engine_analyze(lf_engine *eng, const lf_source *src, lf_finding **out, size_t *n_out, char **err) {
    const lf_ruleset *set = eng->opts.rules;
    eng->partial_depth = 0;
    if (err)
        *err = NULL;
    if (!set || src->lang >= LF_LANG_COUNT)
        return 0;
    /* Decide which rules apply before paying for a parse. */
    const lf_rule **todo = lf_xcalloc(set->n_rules ? set->n_rules : 1, sizeof *todo);
    lf_severity *sev = lf_xcalloc(set->n_rules ? set->n_rules : 1, sizeof *sev);
    size_t *todo_idx = lf_xcalloc(set->n_rules ? set->n_rules : 1, sizeof *todo_idx);
    size_t n_todo = 0;
    if (eng->opts.use_prefilter)
        lf_prefilter_scan(eng->prefilter[src->lang], src->text, src->len, eng->found[src->lang]);
    /* The built-in checks never run on test code (below) nor on a declaration
     * file, which holds no code: where the path alone says so, a rule with a
     * check is dropped before the parse, and a file that only such rules
     * wanted is never parsed. */
    int no_checks = lf_is_test_path(src->path) ||
                    (src->lang != LF_LANG_PYTHON && lf_lang_is_declaration_file(src->path));
    lf_gate_text gate_in = {src->text, src->len, src->lang, src->path, NULL, NULL}; /* shared by the file's gates */
    for (size_t i = 0; i < set->n_rules; i++) {
        const lf_rule *r = set->rules[i];
        if (!(r->languages & LF_LANG_BIT(src->lang)) || !r->query_source[src->lang])
            continue;
        if (no_checks && r->check)
            continue;
        lf_severity s = effective_severity(&eng->opts, r);
        if (s == LF_SEV_NONE)
            continue;
        if (eng->opts.use_prefilter && !lf_prefilter_rule_passes(eng->prefilter[src->lang], eng->found[src->lang], i, r))
            continue;
        if (eng->opts.use_prefilter && !gate_passes(r, &gate_in))
            continue;
        sev[n_todo] = s;
        todo_idx[n_todo] = i;
        todo[n_todo++] = r;
    }
    lf_gate_text_release(&gate_in);
    if (n_todo == 0) {
        free(todo);
        free(todo_idx);
        free(sev);
        return 0;
    }
    TSTree *tree = parse_source(eng, src);
    if (tree == PARSE_NO_GRAMMAR) {
        free(todo);
        free(todo_idx);
        free(sev);
        if (err)
            *err = lf_xasprintf("%s: grammar for %s could not be loaded", src->path, lf_lang_name(src->lang));
        return -1;
    }
    if (!tree) {
        free(todo);
        free(todo_idx);
        free(sev);
        if (err)
            *err = lf_xasprintf("%s: parse failed", src->path);
        return -1;
    }
    TSNode root = ts_tree_root_node(tree);
    /* Query matching costs grow with depth times the in-progress patterns (a
     * 100k-deep method chain made the cursor run for minutes, then crash). Real
     * code is never nested more than a few dozen levels; past the limit, patterns
     * only start in the top LF_ENGINE_MAX_QUERY_DEPTH levels and the file is
     * reported as partially analyzed. */
    uint32_t depth = lf_tree_max_depth(root, LF_ENGINE_MAX_QUERY_DEPTH);
    eng->partial_depth = depth > LF_ENGINE_MAX_QUERY_DEPTH ? depth : 0;
    lf_filesem sem;
    lf_filesem_init(&sem, src, root);
    /* A single rule's own query is the smaller one to walk with; two or more share
     * one walk of the combined query. */
    size_t n_walked = 0;
    for (size_t i = 0; i < n_todo; i++)
        n_walked += walked_query(todo[i], src->lang) != NULL;
    const lf_combined *comb = n_walked >= 2 ? combined_for(eng, src->lang) : NULL;
    int one_walk = 0;
    if (comb && comb->state == 1) {
        for (size_t i = 0; i < n_todo; i++)
            eng->selected[todo_idx[i]] = walked_query(todo[i], src->lang) != NULL;
        one_walk = collect_combined(eng, comb, set->n_rules, src, root, &sem);
        for (size_t i = 0; i < n_todo; i++)
            eng->selected[todo_idx[i]] = 0;
    }
    lf_finding_vec found = {0};
    int test_code = -1; /* decided on the first built-in check, once per file */
    for (size_t i = 0; i < n_todo; i++) {
        const lf_rule *r = todo[i];
        lf_check_ctx ctx = {
            .src = src,
            .root = root,
            .sem = &sem,
            .rule = r,
            .opts = &eng->opts,
            .severity = sev[i],
            .out = &found,
        };
        if (on_demand(r, src->lang)) {
            ctx.on_demand = eng; /* walked if the check asks (lf_ctx_collect_matches) */
        } else if (!walked_query(r, src->lang)) {
            ctx.query = NULL; /* no matches: the check writes its messages itself */
        } else if (one_walk) {
            ctx.query = comb->query;
            ctx.matches = eng->rule_matches[todo_idx[i]].items;
            ctx.n_matches = eng->rule_matches[todo_idx[i]].len;
            ctx.captures = eng->captures.items;
        } else {
            ctx.query = lf_rule_query(r, src->lang);
            collect_matches(eng, ctx.query, lf_rule_predicates(r, src->lang), src, root, &sem);
            ctx.matches = eng->matches.items;
            ctx.n_matches = eng->matches.len;
            ctx.captures = eng->captures.items;
        }
        /* Test code (named the way test runners collect it: test_*.py,
         * *.test.ts, __tests__/, ...; or a module that imports a test
         * framework and registers tests at top level: lf_testpath) is not the
         * product whose state several processes share: its fixtures, mocks
         * and assertions look like the bug class without being it. The
         * built-in checks skip it; a rule document without a check (--rules)
         * still matches there. */
        if (r->check) {
            if (test_code < 0) /* the path said no already (no_checks): the content decides */
                test_code = lf_is_test_module(src, root);
            if (!test_code)
                r->check->run(&ctx);
        } else {
            emit_at_finding_captures(&ctx);
        }
        lf_ctx_finish(&ctx);
        free(ctx.seen);
    }
    lf_filesem_release(&sem);
    drop_tree(eng, tree);
    free(todo);
    free(todo_idx);
    free(sev);
    if (found.len) {
        qsort(found.items, found.len, sizeof *found.items, finding_cmp);
        lf_fingerprint_number(found.items, found.len);
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
        lf_tree_delete(t);
    ts_parser_delete(p);
    return ok;
}
