/* lf_config: .lockfix.json and command-line selection. */
#ifndef LF_CONFIG_H
#define LF_CONFIG_H

#include <stddef.h>

#include "lf_finding.h"
#include "lf_rule.h"

typedef struct lf_severity_override {
    char *rule_id;
    lf_severity severity; /* LF_SEV_NONE = off */
} lf_severity_override;

typedef struct lf_config {
    char *path;          /* file it came from, NULL if none */
    char **select;       /* rule ids or prefixes ("LF1"); empty = all */
    size_t n_select;
    char **ignore;
    size_t n_ignore;
    char **exclude;      /* globs */
    size_t n_exclude;
    lf_severity_override *severity;
    size_t n_severity;
    lf_severity fail_on; /* default LF_SEV_WARNING */
} lf_config;

/* Effective severity of a rule under this config: LF_SEV_NONE when not selected,
 * ignored, or set "off". */
lf_severity lf_config_rule_severity(const lf_config *cfg, const lf_rule *rule);
/* 1 when relpath is excluded by the config's globs. */
int lf_config_excluded(const lf_config *cfg, const char *relpath);

/* An empty configuration: every rule at its default severity, fail_on warning. */
void lf_config_init(lf_config *cfg);
/* 1 when a select/ignore/severity entry names this rule: "ALL", an id or id
 * prefix ("LF1", "LF101") or the rule's name ("unlocked-fallback"). */
int lf_config_selector_matches(const char *selector, const lf_rule *rule);
/* After the rules are loaded: every select/ignore/severity entry of the file must
 * name at least one rule. Errors name file, line and entry; returns 0 on error. */
int lf_config_check_rules(const lf_config *cfg, const lf_ruleset *rules, char **err);

/* Parse a config file. Errors name file, line and problem; returns 0 on error. */
int lf_config_load(const char *path, lf_config *out, char **err);
/* The same from memory (the fuzz target, tests); `path` names the text in errors. */
int lf_config_parse(const char *text, size_t len, const char *path, lf_config *out, char **err);
/* Find .lockfix.json from start_dir upward; returns malloc'd path or NULL. */
char *lf_config_discover(const char *start_dir);
void lf_config_free(lf_config *cfg);

#endif
