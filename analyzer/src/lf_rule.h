/* lf_rule: a rule loaded from data (rules/<ID>-<name>.json), compiled per language. */
#ifndef LF_RULE_H
#define LF_RULE_H

#include <stddef.h>
#include <tree_sitter/api.h>

#include "lf_finding.h"
#include "lf_lang.h"

struct lf_check;
struct lf_fixer;
struct lf_rule_predicates;
struct lf_rule_compiled;

/* One prefilter group: the file must contain at least one of these literals. */
typedef struct lf_prefilter_group {
    char **any;
    size_t n_any;
} lf_prefilter_group;

typedef enum lf_fix_safety {
    LF_FIX_NONE = 0,       /* no fix, no suggestion */
    LF_FIX_SUGGESTION = 1, /* advice in the docs/message only; never applied */
    LF_FIX_SAFE = 2,       /* applied by `lockfix fix` */
    LF_FIX_UNSAFE = 3      /* generated and reported, but applied by `lockfix fix` only with
                              --unsafe-fixes: the rewrite is correct, yet changes behaviour beyond
                              the bug (LF104's lock makes a process wait), as ruff's unsafe fixes */
} lf_fix_safety;

/* "none" "suggestion" "safe" "unsafe": the name rule documents, `lockfix rules`
 * and the JSON/SARIF reports use. */
const char *lf_fix_safety_name(lf_fix_safety s);
/* 1 for the safeties whose rules run a fix generator (safe and unsafe). */
int lf_fix_safety_generates(lf_fix_safety s);

typedef struct lf_rule_docs {
    char *what;        /* What it does */
    char *why;         /* Why is this bad? */
    char *example;     /* Example (code) */
    char *use_instead; /* Use instead (code) */
    char *fix_safety;  /* Fix safety (prose) */
    char *known_problems; /* Known problems (prose; optional): false positives and negatives, and why */
} lf_rule_docs;

typedef struct lf_rule {
    char *id;                 /* "LF101" */
    char *name;               /* "unlocked-fallback" */
    char *summary;            /* one line, for `lockfix rules` and SARIF shortDescription */
    char *message;            /* message template; {{capture}} is replaced by capture text */
    lf_severity severity;     /* default severity */
    unsigned languages;       /* LF_LANG_BIT mask */
    lf_fix_safety fix_safety;
    lf_rule_docs docs;
    /* A file is only parsed/queried for this rule if it contains at least one of
     * these literal byte strings (empty list = always). Must be sound: a file
     * without any of them can never produce a finding for this rule. */
    char **prefilter;
    size_t n_prefilter;
    char *query_source[LF_LANG_COUNT]; /* NULL where the rule has no query for that language */
    const struct lf_check *check;    /* NULL: every match emits at capture @finding */
    const struct lf_fixer *fixer;    /* NULL: no fix generator */
    char *origin;                    /* "builtin:rules/LF101-unlocked-fallback.json" or a file path */
    uint64_t doc_hash;               /* lf_hash64 of the rule document: the result cache's key (lf_cache.h) */
    /* "prefilter" may also be a list of lists: every group must have a hit (an AND
     * of ORs). prefilter/n_prefilter above always alias the first group. */
    lf_prefilter_group *prefilter_groups;
    size_t n_prefilter_groups;
    /* "prefilter" may instead be an object keyed by language ("python",
     * "typescript"), each value in the forms above: a rule's check is a
     * different program per language, and a word one half needs must not let
     * the other half's files through. A language the object leaves out has no
     * prefilter. lang_prefilter_set: LF_LANG_BIT mask of the languages given. */
    unsigned lang_prefilter_set;
    lf_prefilter_group *lang_prefilter[LF_LANG_COUNT];
    size_t n_lang_prefilter[LF_LANG_COUNT];
    char *fix_unavailable; /* fix.unavailable: why a fixable rule offers no fix yet (no generator, or a
                              language outside fix_languages) */
    unsigned fix_languages; /* fix.languages: LF_LANG_BIT mask the generator covers; 0 = all the rule's */
    /* The compiled queries and text predicates, per language: private to
     * lf_rule.c, read through lf_rule_query / lf_rule_predicates. */
    struct lf_rule_compiled *compiled;
} lf_rule;

/* The rule's query for lang (NULL when it has none), compiled on first use for
 * a built-in rule: a scan pays query analysis only for the languages of the
 * files it meets. Safe to call from any number of threads at once. A built-in
 * query that does not compile is a bug the rules tests catch
 * (lf_rule_compile_all); here it aborts with the load-time error message. */
const TSQuery *lf_rule_query(const lf_rule *r, lf_lang lang);
/* Compile every language's query now. Returns 0 with *err (malloc'd) set to the
 * error loading the rule would give if it were compiled eagerly. */
int lf_rule_compile_all(const lf_rule *r, char **err);
/* 1 when lang's query is compiled already (for tests of the lazy compile). */
int lf_rule_query_is_compiled(const lf_rule *r, lf_lang lang);

/* The prefilter groups the rule applies to files of lang (n = 0: none). */
const lf_prefilter_group *lf_rule_prefilter(const lf_rule *r, lf_lang lang, size_t *n);

typedef struct lf_ruleset {
    lf_rule **rules; /* sorted by id */
    size_t n_rules;
} lf_ruleset;

/* The fix safety a finding of the rule in `lang` gets: a language its
 * fix.languages leaves out gets advice only (suggestion). */
lf_fix_safety lf_rule_fix_safety_for(const lf_rule *r, lf_lang lang);

/* Rules compiled into the binary (generated from rules/ at build time). */
int lf_ruleset_load_builtin(lf_ruleset *set, char **err);
/* Add every *.json rule file in dir (a rule with an existing id replaces it). */
int lf_ruleset_load_dir(lf_ruleset *set, const char *dir, char **err);
/* Parse one rule document. `origin` names it in errors: "<origin>: line N: problem". */
int lf_rule_parse(const char *json_text, size_t len, const char *origin, lf_rule **out, char **err);
const lf_rule *lf_ruleset_find(const lf_ruleset *set, const char *id);
void lf_ruleset_free(lf_ruleset *set);

/* TEST SEAM, never set by lockfix itself: a test program may install extra fix
 * generators, looked up by a rule's fix.generator after the built-in ones.
 * tests/verify's lockfix-testhooks uses it to inject a deliberately broken fix
 * (`fix --verify` must roll it back); the installed lockfix has no way to set it. */
extern const struct lf_fixer *(*lf_rule_test_fixer_find)(const char *name);

#endif
