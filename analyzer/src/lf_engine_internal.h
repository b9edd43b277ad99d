/* Engine internals shared by lf_engine.c, lf_check.c, lf_rule.c and lf_predicate.c.
 * Not part of the analyzer's public contracts. */
#ifndef LF_ENGINE_INTERNAL_H
#define LF_ENGINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_check.h"
#include "lf_engine.h"
#include "lf_rule.h"
#include "lf_sem.h"
#include "lf_source.h"
#include "lf_util.h"

/* ---- text predicates (lf_predicate.c) ---- */

/* Compile the text predicates of every pattern of q. Returns NULL and sets
 * *problem (malloc'd) on an unknown predicate or a bad argument/regex. A query
 * without predicates compiles to a valid object with nothing to check. lang and
 * src (q's grammar and source text) let patterns be anchored (lf_anchor.h); with
 * NULL, none is. */
struct lf_rule_predicates *lf_predicates_compile(const TSQuery *q, const TSLanguage *lang, const char *src,
                                                 char **problem);
void lf_predicates_free(struct lf_rule_predicates *p);
/* A rule's compiled text predicates for lang, compiled with its query on first
 * use like lf_rule_query (lf_rule.c). */
const struct lf_rule_predicates *lf_rule_predicates(const lf_rule *r, lf_lang lang);
/* 1 when every text predicate of the match's pattern holds. fs answers
 * #qualname? (NULL: those predicates fail). */
int lf_predicates_eval(const struct lf_rule_predicates *p, const TSQueryMatch *m, const lf_source *src,
                       lf_filesem *fs);
/* Words one of which every match of the pattern contains in the text of a
 * capture (lf_anchor.h), *n of them; NULL when the pattern has no such anchor. */
const char *const *lf_predicates_anchor_words(const struct lf_rule_predicates *p, uint32_t pattern, size_t *n);
/* 1 when the pattern can match only the root of a tree (a childless node of the
 * grammar's start symbol, `(module) @_module`): its one site is the root. */
int lf_predicates_root_only(const struct lf_rule_predicates *p, uint32_t pattern);

/* ---- prefilter literals, all found in one pass (lf_prefilter.c) ---- */

typedef struct lf_prefilter_index lf_prefilter_index;
/* The literals of the rules' prefilters for files of lang (one index per language:
 * another language's words are neither searched nor counted). enabled: per rule,
 * 0 for a rule the scan never runs (its literals are not searched); NULL: all. */
lf_prefilter_index *lf_prefilter_index_new(const lf_ruleset *set, lf_lang lang, const unsigned char *enabled);
void lf_prefilter_index_free(lf_prefilter_index *ix);
size_t lf_prefilter_index_size(const lf_prefilter_index *ix);
/* found[i] = 1 when literal i occurs in text (text[len] must be readable: NUL). */
void lf_prefilter_scan(const lf_prefilter_index *ix, const char *text, size_t len, unsigned char *found);
/* Does the rule at rule_index of the indexed ruleset pass its prefilter, given found[]? */
int lf_prefilter_rule_passes(const lf_prefilter_index *ix, const unsigned char *found, size_t rule_index,
                             const lf_rule *rule);

/* ---- matches handed to checks ---- */

typedef struct lf_match_rec {
    uint32_t pattern;
    uint32_t first; /* index into the capture array */
    uint32_t count;
} lf_match_rec;

typedef LF_VEC(lf_finding) lf_finding_vec;

/* A finding emitted by a check, waiting for its rule's fix generator, which
 * runs once per file over all of them. */
typedef struct lf_pending_site {
    size_t finding; /* index into the output vector (it may grow meanwhile) */
    TSNode at;
    void *site;
    void (*free_site)(void *);
} lf_pending_site;

struct lf_check_ctx {
    const lf_source *src;
    TSNode root;
    lf_filesem *sem; /* the file's semantic model, shared by all its rules */
    const lf_rule *rule;
    const TSQuery *query;
    const lf_match_rec *matches;
    size_t n_matches;
    const TSQueryCapture *captures;
    /* matches on demand (lf_check.matches_on_demand): the engine that walks
     * them; null when the matches were collected before run, or never are */
    struct lf_engine *on_demand;
    /* emission */
    const lf_engine_options *opts;
    lf_severity severity;
    lf_finding_vec *out;
    /* Start bytes already reported for this rule (open addressing, 0 = empty,
     * stored as byte + 1): one finding per site without a quadratic scan. */
    uint32_t *seen;
    size_t seen_cap, seen_len;
    LF_VEC(lf_pending_site) pending;
    /* The finding the last emit made, as its index in out + 1 (0: that emit
     * made none), for lf_ctx_witness. */
    size_t last_emitted;
};

/* Run the rule's fix generator over the findings the check emitted (when the
 * engine wants fixes), then free their sites. */
void lf_ctx_finish(lf_check_ctx *ctx);

/* Tree traversals by query cursors since lf_engine_new: one per analyzed file (the
 * combined query when two or more rules apply, else the one rule's own query); one
 * per rule only if the combined query could not be built. */
size_t lf_engine_query_walks(const lf_engine *eng);

/* Capture id of `name` in q, or -1. */
int lf_query_capture_id(const TSQuery *q, const char *name);
/* Render a message template for a match ({{name}} -> capture text, one line, bounded). */
char *lf_render_message(const char *tmpl, const lf_source *src, const TSQuery *q, const TSQueryCapture *caps,
                        uint32_t n_caps);
/* The same with {{names[i]}} -> the text of nodes[i]: for a check that found
 * what the template names without a query capture. */
char *lf_render_message_nodes(const char *tmpl, const lf_source *src, const char *const *names, const TSNode *nodes,
                              size_t n);

#endif
