/* lf_check: C code for what a query cannot decide, and fix generators.
 *
 * A rule's JSON names its check ("check": "lf101_unlocked_fallback") and its fix
 * generator ("fix": {"generator": "lf401_unique_temp"}); both are looked up here
 * by name. One check or fixer per file under checks/ and fixes/, registered in
 * the tables in checks/registry.c and fixes/registry.c.
 */
#ifndef LF_CHECK_H
#define LF_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_finding.h"
#include "lf_rule.h"
#include "lf_sem.h"
#include "lf_source.h"

typedef struct lf_check_ctx lf_check_ctx; /* owned by the engine, valid during the call */
struct lf_pysem;
struct lf_tssem;

/* What a gate (below) reads: one file's text, and what the file's gates share.
 * The Python gates all read the text masked (lf_pygate_masked): the first to
 * ask makes it, the others reuse it, the engine releases it after the last. */
typedef struct lf_gate_text {
    const char *text;
    size_t len;
    lf_lang lang;
    const char *path;             /* the file's path as scanned, or NULL (unknown: lf_pygate_in_package) */
    void *shared;                 /* owned by the code that set it */
    void (*release)(void *shared); /* called by lf_gate_text_release */
} lf_gate_text;

void lf_gate_text_release(lf_gate_text *in);

typedef struct lf_check {
    const char *name;
    /* Called once per file with every match of the rule's query for that file's
     * language (predicates already applied). Emits findings with lf_ctx_emit. */
    void (*run)(lf_check_ctx *ctx);
    /* LF_LANG_BIT mask of the languages for whose files run reads the matches.
     * Elsewhere the check asks the semantic model instead and the query is
     * the rule's documentation: the engine does not walk it (a pattern with
     * no anchor word, LF101's try statements, walked every TS/JS tree). */
    unsigned reads_matches;
    /* The subset of reads_matches whose matches the engine collects only when
     * run asks for them (lf_ctx_collect_matches), so that a check whose
     * patterns have no anchor word can first ask the model whether the file
     * holds anything they could pair with (LF401's temp names, TS/JS). */
    unsigned matches_on_demand;
    /* A lexical question asked of the file's text before it is parsed, once
     * the rule's prefilter literals have passed: 0 means no match of the
     * rule's own queries can come to a finding here, and the file is not
     * parsed for this rule. It answers 1 whenever it cannot be sure. It is
     * part of the prefilter: a rule without one for the language, or a scan
     * without prefilters, never asks it. NULL: no gate. */
    int (*gate)(lf_gate_text *in);
} lf_check;

/* Answer a gate's question for text (tests, fuzzing): lf_gate_text made, asked,
 * released. path: the file's path, or NULL. */
int lf_check_gate(const lf_check *check, const char *path, const char *text, size_t len, lf_lang lang);

const lf_check *lf_check_find(const char *name);
/* Does `check` render the message's {{name}} itself, for files of `lang`, from
 * nodes it found (lf_ctx_emit_named_site), so the query need not capture it? */
int lf_check_renders(const lf_check *check, lf_lang lang, const char *name);

const lf_source *lf_ctx_source(const lf_check_ctx *ctx);
TSNode lf_ctx_root(const lf_check_ctx *ctx);
const lf_rule *lf_ctx_rule(const lf_check_ctx *ctx);
/* For a check with matches_on_demand: walk the rule's query now. The match
 * accessors below answer from this walk afterwards (nothing before it). */
void lf_ctx_collect_matches(lf_check_ctx *ctx);
size_t lf_ctx_match_count(const lf_check_ctx *ctx);
uint32_t lf_ctx_match_pattern(const lf_check_ctx *ctx, size_t match);
/* First node captured as @name in match `match`; returns 0 if none. */
int lf_ctx_capture(const lf_check_ctx *ctx, size_t match, const char *name, TSNode *out);
/* All nodes captured as @name in match `match` (quantified captures). Returns count. */
size_t lf_ctx_captures(const lf_check_ctx *ctx, size_t match, const char *name, TSNode *out, size_t max);
/* Report a finding at `at`. message NULL = the rule's template rendered with the
 * captures of `match` (pass SIZE_MAX when there is no match to render from). */
void lf_ctx_emit(lf_check_ctx *ctx, TSNode at, const char *message, size_t match);
/* Report a finding with what the check recognised there (its "site"), which the
 * rule's fix generator receives: one recogniser per rule, so the check and the
 * fix cannot disagree. The engine owns `site` from here on and releases it with
 * free_site (which may be NULL for static data). */
void lf_ctx_emit_site(lf_check_ctx *ctx, TSNode at, const char *message, void *site, void (*free_site)(void *));
/* lf_ctx_emit_site with the rule's message rendered from the captures of `match`. */
void lf_ctx_emit_match_site(lf_check_ctx *ctx, TSNode at, size_t match, void *site, void (*free_site)(void *));
/* lf_ctx_emit_site with the rule's message rendered from nodes the check found
 * itself: {{names[i]}} reads as the text of nodes[i], exactly as a capture would. */
void lf_ctx_emit_named_site(lf_check_ctx *ctx, TSNode at, const char *const *names, const TSNode *nodes, size_t n,
                            void *site, void (*free_site)(void *));
/* Attach the witness (lf_witness.h) to the finding the check's last emit made;
 * the engine owns w from here on (it frees it when that emit made no finding:
 * a site already reported, or a suppressed one). NULL is allowed. */
struct lf_witness;
void lf_ctx_witness(lf_check_ctx *ctx, struct lf_witness *w);
/* The file's semantic model (built on first use; shared by every rule). */
lf_filesem *lf_ctx_sem(lf_check_ctx *ctx);
struct lf_pysem *lf_ctx_pysem(lf_check_ctx *ctx); /* NULL unless the file is Python */
struct lf_tssem *lf_ctx_tssem(lf_check_ctx *ctx); /* NULL unless the file is TS/JS/TSX/JSX */
/* Is the file TS/JS/TSX/JSX? (Asks without building the model: a check hands
 * such files to its TS half, which builds it only when it needs it.) */
int lf_ctx_is_ts(const lf_check_ctx *ctx);

/* Text helpers over a source. */
char *lf_node_text(const lf_source *src, TSNode node); /* malloc'd */
int lf_node_text_eq(const lf_source *src, TSNode node, const char *s);

/* Fix generators run once per file and rule, over every finding the rule's check
 * emitted there (suppressed findings are not among them): a fix may depend on
 * the other sites, e.g. LF101 removes a conditional import only when every use
 * of it is rewritten. For each request the generator sets `fix`, or leaves it
 * NULL and sets `no_fix_reason` (malloc'd) naming the real blocker. */
typedef struct lf_fix_ctx {
    const lf_source *src;
    TSNode root;
    const lf_rule *rule;
    lf_filesem *sem;
    const char *runtime_dir; /* `lockfix fix --runtime-dir`: where vendored runtime files go (NULL = beside) */
} lf_fix_ctx;

typedef struct lf_fix_request {
    TSNode at;           /* the node the finding was emitted at */
    const void *site;    /* what the check recognised there (NULL when it attached nothing) */
    uint32_t line;       /* the finding's line, for messages */
    lf_fix *fix;         /* out */
    char *no_fix_reason; /* out, when fix is NULL */
} lf_fix_request;

typedef struct lf_fixer {
    const char *name;
    void (*generate)(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n);
    /* 1 when what it generates (fix or decline) depends on nothing but the
     * file it fixes and the rule. 0 for a generator that looks at other files
     * (lf_vendor's package sniffing, a search of the project): it must look
     * only through lf_deps.h's wrappers, so that `scan`'s result cache keeps
     * the file's findings with the state of what was looked at. */
    int file_local;
} lf_fixer;

const lf_fixer *lf_fixer_find(const char *name);

/* A generator's first step for one request: no site attached, or a site the
 * check marked declined (`decline`, its reason). Returns 1 with *why set
 * (malloc'd) when there is nothing to rewrite, 0 to go on. */
int lf_fix_site_declines(const void *site, const char *decline, char **why);

#endif
