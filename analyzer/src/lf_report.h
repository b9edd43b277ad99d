/* lf_report: render a finished scan (text, json, sarif, github) and write it.
 *
 * Every writer renders into a buffer in file order, then findings in the
 * engine's order (line, column, rule), so output is byte-identical across runs
 * and thread counts. docs/output-formats.md documents each format.
 */
#ifndef LF_REPORT_H
#define LF_REPORT_H

#include <stddef.h>

#include "lf_scan.h"
#include "lf_util.h"

typedef enum lf_format {
    LF_FORMAT_TEXT,
    LF_FORMAT_JSON,
    LF_FORMAT_SARIF,
    LF_FORMAT_GITHUB
} lf_format;

/* JSON report schema version: bumped on any incompatible change. */
#define LF_JSON_SCHEMA_VERSION 1

int lf_format_parse(const char *name, lf_format *out); /* 1 ok, 0 unknown */

typedef struct lf_report_summary {
    size_t files_scanned;       /* analyzed */
    size_t files_with_findings;
    size_t files_skipped;
    size_t files_partial;       /* analyzed only down to the query depth limit */
    size_t findings;
    size_t by_severity[4];      /* indexed by lf_severity */
    size_t fixable;             /* findings with a safe fix `lockfix fix` applies */
    size_t unsafe_fixable;      /* findings with an unsafe fix (applied only with --unsafe-fixes) */
    size_t failing;             /* findings at or above fail_on */
} lf_report_summary;

void lf_report_summarize(const lf_scan *s, lf_report_summary *out);

void lf_report_text(lf_strbuf *out, const lf_scan *s);
/* A finding's witness as the text report shows it ("= witness (platform):",
 * the numbered steps, "=> outcome"), under a gutter `gutter` columns wide. */
struct lf_witness;
void lf_report_text_witness(lf_strbuf *out, int gutter, const struct lf_witness *w);
void lf_report_json(lf_strbuf *out, const lf_scan *s);
void lf_report_sarif(lf_strbuf *out, const lf_scan *s);
void lf_report_github(lf_strbuf *out, const lf_scan *s);
void lf_report_render(lf_format fmt, lf_strbuf *out, const lf_scan *s);

/* Write data to path atomically (temp file in the same directory, fsync, rename),
 * or to stdout when path is NULL or "-". Returns 1, or 0 with *err set. */
int lf_report_write(const char *path, const char *data, size_t len, char **err);
/* Test seam: called with the complete temp's name right before its rename. */
extern void (*lf_report_before_rename_hook)(const char *tmp);

/* Pretty-print a cJSON document (two-space indent, trailing newline). */
struct cJSON;
void lf_report_put_json(lf_strbuf *out, const struct cJSON *root);

/* JSON strings must be UTF-8, file names need not be. lf_report_utf8 copies s
 * with each byte that is not part of a well-formed sequence replaced by U+FFFD
 * (malloc'd); *lossy says whether any was. lf_report_add_path adds key: that
 * copy and, when it was lossy, key + "_base64": the exact bytes, base64
 * (docs/output-formats.md). */
char *lf_report_utf8(const char *s, int *lossy);
void lf_report_add_path(struct cJSON *obj, const char *key, const char *path);

/* Index of a rule in s->rules (the SARIF ruleIndex). */
size_t lf_report_rule_index(const lf_scan *s, const lf_rule *rule);

#endif
