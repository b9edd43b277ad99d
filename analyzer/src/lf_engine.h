/* lf_engine: analyze one source file against a ruleset.
 *
 * Each file is parsed once; every applicable rule (language matches, prefilter
 * passes, config enables it) runs its query over that one tree. Matches pass the
 * query's text predicates (#eq? #not-eq? #match? #not-match? #any-of?), then go
 * to the rule's check, or emit directly at capture @finding. Suppressions and
 * severity overrides are applied here, so every caller sees the same findings.
 */
#ifndef LF_ENGINE_H
#define LF_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "lf_config.h"
#include "lf_finding.h"
#include "lf_rule.h"
#include "lf_source.h"

/* State built once for a ruleset and shared by the engines of one scan (one
 * per worker thread): the combined per-language queries, built under a lock by
 * the first engine that needs one. Optional: an engine without it builds its
 * own on first need. */
typedef struct lf_engine_shared lf_engine_shared;

lf_engine_shared *lf_engine_shared_new(const lf_ruleset *rules);
void lf_engine_shared_free(lf_engine_shared *sh);
/* Build every language's combined query now instead of on first need (a
 * long-lived caller that wants no input to pay for the compile). */
void lf_engine_shared_prepare(lf_engine_shared *sh);

typedef struct lf_engine_options {
    const lf_ruleset *rules;
    const lf_engine_shared *shared; /* may be NULL; else built from this same `rules` */
    const lf_config *config;  /* may be NULL: all rules, default severities */
    int want_fixes;           /* run fix generators for findings of fixable rules */
    int use_prefilter;        /* 1 normally; 0 to prove the prefilter is sound */
    int walk_whole_tree;      /* 0 normally; 1 to prove the anchored query sites (lf_anchor.h) sound */
    const char *fix_runtime_dir; /* passed to fix generators (lf_fix_ctx.runtime_dir) */
} lf_engine_options;

/* Per-thread state (parser, query cursor). Not shared across threads. */
typedef struct lf_engine lf_engine;

lf_engine *lf_engine_new(const lf_engine_options *opts);
void lf_engine_free(lf_engine *eng);

/* Analyze src. Findings are appended to *out (sorted by line, col, rule id).
 * Returns 0 on success, -1 on an internal error (message in *err). */
int lf_engine_analyze(lf_engine *eng, const lf_source *src, lf_finding **out, size_t *n_out, char **err);

/* Query patterns start no deeper than this many levels in a file's syntax tree;
 * a file nested deeper is analyzed only down to here (docs/robustness.md). */
#define LF_ENGINE_MAX_QUERY_DEPTH 1000

/* After lf_engine_analyze: non-zero (more than LF_ENGINE_MAX_QUERY_DEPTH) when the
 * file was nested deeper than the limit and so only partially analyzed. */
uint32_t lf_engine_partial_depth(const lf_engine *eng);

/* 1 when the text parses without ERROR or MISSING nodes in lang. */
int lf_engine_parses_cleanly(lf_lang lang, const char *text, size_t len);

#endif
