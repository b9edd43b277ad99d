/* lf_scan: the scan driver shared by `lockfix scan` and `lockfix fix`.
 *
 * Prepare: load the rules (built-in + --rules DIR), the configuration (--config,
 * or .lockfix.json discovered upward from the first path, or none with
 * --no-config), apply --select/--ignore/--fail-on over it, and walk the paths.
 * Run: analyze every file on a pool of worker threads, one lf_engine per thread.
 * Results are stored by file index, so the output order is the walk order
 * whatever the thread count.
 */
#ifndef LF_SCAN_H
#define LF_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "lf_config.h"
#include "lf_finding.h"
#include "lf_rule.h"
#include "lf_source.h"
#include "lf_walk.h"

/* Options common to every command that scans (scan, fix). */
typedef struct lf_scan_options {
    char **paths;        /* empty = "." */
    size_t n_paths;
    char **excludes;     /* --exclude GLOB (repeatable) */
    size_t n_excludes;
    char **select;       /* --select a,b (repeatable): replaces the config's "select" */
    size_t n_select;
    int select_given;
    char **ignore;       /* --ignore a,b (repeatable): replaces the config's "ignore" */
    size_t n_ignore;
    int ignore_given;
    char **rule_dirs;    /* --rules DIR (repeatable) */
    size_t n_rule_dirs;
    char *config_path;   /* --config FILE */
    int no_config;       /* --no-config */
    int force_exclude;   /* --force-exclude */
    int fail_on_given;   /* --fail-on LEVEL */
    lf_severity fail_on;
    int jobs;            /* --jobs N; 0 = one per CPU this process may use */
} lf_scan_options;

/* Consume the option at argv[*i] (and its value) if it is one of the common
 * options. Returns 1 when consumed (*i advanced past the value), 0 when not a
 * common option, -1 on a bad value (*err set, malloc'd). */
int lf_scan_parse_option(lf_scan_options *o, int argc, char **argv, int *i, char **err);
void lf_scan_options_free(lf_scan_options *o);
/* Help text for the common options, for each command's --help. */
extern const char lf_scan_options_help[];

/* Why a file was not analyzed. */
typedef enum lf_skip_kind {
    LF_SKIP_NOT_REGULAR,
    LF_SKIP_UNSUPPORTED,
    LF_SKIP_UNREADABLE,
    LF_SKIP_BINARY,
    LF_SKIP_BAD_UTF8,
    LF_SKIP_BAD_ENCODING,
    LF_SKIP_TOO_LARGE,
    LF_SKIP_ANALYSIS_ERROR
} lf_skip_kind;

const char *lf_skip_kind_name(lf_skip_kind k); /* "binary", "invalid-utf8", ... (JSON schema) */

typedef struct lf_scan_skip {
    char *path;
    lf_skip_kind kind;
    char *reason; /* one line, no path prefix: "binary file (NUL byte)" */
} lf_scan_skip;

typedef struct lf_scan_file {
    const lf_walk_file *walked;
    int analyzed;        /* loaded and analyzed */
    lf_source src;       /* valid while has_source */
    int has_source;      /* kept when it has findings, or when keep_sources */
    lf_finding *findings;
    size_t n_findings;
    int skipped;         /* not analyzed: see skip_kind / skip_reason */
    lf_skip_kind skip_kind;
    char *skip_reason;
    uint32_t partial_depth; /* analyzed, but nested deeper than the engine's query depth limit */
} lf_scan_file;

typedef struct lf_scan {
    lf_ruleset rules;
    lf_config config;     /* effective: file + command-line overrides */
    lf_walk_result walk;
    lf_scan_file *files;  /* parallel to walk.files after lf_scan_run */
    size_t n_files;
    lf_scan_skip *skips;  /* walk skips, then load/analysis skips, in file order */
    const char *fix_runtime_dir; /* set before lf_scan_run: `fix --runtime-dir` (borrowed) */
    struct lf_cache *cache;      /* set before lf_scan_run: `scan`'s result cache (lf_cache.h), or NULL */
    int64_t started_ns;          /* when lf_scan_prepare began (CLOCK_REALTIME), before any file's stat */
    size_t n_skips;
    size_t n_analysis_errors;
    size_t n_partial;     /* files analyzed only partially (partial_depth set) */
} lf_scan;

/* Why a file with partial_depth set was analyzed only partially: one line, no
 * path, the same in every output format. Static storage. */
const char *lf_scan_partial_reason(void);

/* Returns 1, or 0 with *err (malloc'd) for a usage or I/O error: exit code 2.
 * The two steps, rules and configuration then the walk, can also be taken
 * apart (`scan` loads its result cache while the walk runs). */
int lf_scan_prepare(lf_scan *s, const lf_scan_options *o, char **err);
int lf_scan_configure(lf_scan *s, const lf_scan_options *o, char **err);
int lf_scan_walk(lf_scan *s, const lf_scan_options *o, char **err);
/* Analyze every walked file. Skipped files are recorded in s->skips (not errors). */
void lf_scan_run(lf_scan *s, int jobs, int want_fixes, int keep_sources);
void lf_scan_free(lf_scan *s);

/* Worker count for --jobs 0: online CPUs. */
int lf_scan_default_jobs(void);

#endif
