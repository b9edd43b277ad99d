/* JSON report. The schema is documented in docs/output-formats.md; bump
 * LF_JSON_SCHEMA_VERSION on any incompatible change. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "lf_fix.h"
#include "lf_report.h"
#include "lf_witness.h"

static void add_position(cJSON *o, const char *line_key, const char *col_key, const lf_source *src, uint32_t byte) {
    uint32_t line, col;
    lf_source_position(src, byte, &line, &col);
    cJSON_AddNumberToObject(o, line_key, line);
    cJSON_AddNumberToObject(o, col_key, col);
}

static cJSON *fix_json(const lf_scan_file *f, const lf_finding *fd) {
    cJSON *fix = cJSON_CreateObject();
    cJSON_AddBoolToObject(fix, "available", fd->fix != NULL);
    lf_lang lang = LF_LANG_PYTHON;
    lf_fix_safety safety = fd->rule->fix_safety;
    if (lf_lang_from_path(fd->path, &lang))
        safety = lf_rule_fix_safety_for(fd->rule, lang);
    if (lf_fix_is_unsafe(fd))
        safety = LF_FIX_UNSAFE;
    cJSON_AddStringToObject(fix, "safety", lf_fix_safety_name(safety));
    if (!fd->fix) {
        if (fd->no_fix_reason)
            cJSON_AddStringToObject(fix, "reason", fd->no_fix_reason);
        else
            cJSON_AddNullToObject(fix, "reason");
        return fix;
    }
    cJSON_AddStringToObject(fix, "title", fd->fix->title ? fd->fix->title : "");
    cJSON *edits = cJSON_AddArrayToObject(fix, "edits");
    for (size_t i = 0; i < fd->fix->n_edits; i++) {
        const lf_edit *e = &fd->fix->edits[i];
        cJSON *je = cJSON_CreateObject();
        if (f->has_source) {
            add_position(je, "start_line", "start_column", &f->src, e->start);
            add_position(je, "end_line", "end_column", &f->src, e->end);
        }
        /* Offsets in the file as on disk (past a byte-order mark, through its encoding). */
        cJSON_AddNumberToObject(je, "start_byte", f->has_source ? lf_source_file_offset(&f->src, e->start) : e->start);
        cJSON_AddNumberToObject(je, "end_byte", f->has_source ? lf_source_file_offset(&f->src, e->end) : e->end);
        cJSON_AddStringToObject(je, "content", e->text ? e->text : "");
        cJSON_AddItemToArray(edits, je);
    }
    cJSON *files = cJSON_AddArrayToObject(fix, "new_files");
    for (size_t i = 0; i < fd->fix->n_new_files; i++) {
        cJSON *jf = cJSON_CreateObject();
        lf_report_add_path(jf, "path", fd->fix->new_files[i].path);
        cJSON_AddStringToObject(jf, "content", fd->fix->new_files[i].content);
        cJSON_AddItemToArray(files, jf);
    }
    return fix;
}

/* {"platform", "outcome", "steps": [{"process", "event", "path", "line", ...}]} */
static cJSON *witness_json(const lf_finding *fd) {
    const lf_witness *w = fd->witness;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "platform", w->platform ? w->platform : "");
    cJSON_AddStringToObject(j, "outcome", w->outcome ? w->outcome : "");
    cJSON *steps = cJSON_AddArrayToObject(j, "steps");
    for (size_t i = 0; i < w->n_steps; i++) {
        const lf_witness_step *st = &w->steps[i];
        cJSON *js = cJSON_CreateObject();
        cJSON_AddStringToObject(js, "process", lf_witness_process_name(st->process));
        cJSON_AddStringToObject(js, "event", lf_witness_event_name(st->event));
        lf_report_add_path(js, "path", fd->path);
        cJSON_AddNumberToObject(js, "line", st->line);
        cJSON_AddNumberToObject(js, "column", st->col);
        cJSON_AddNumberToObject(js, "end_line", st->end_line);
        cJSON_AddNumberToObject(js, "end_column", st->end_col);
        cJSON_AddStringToObject(js, "message", st->text ? st->text : "");
        cJSON_AddItemToArray(steps, js);
    }
    return j;
}

void lf_report_json(lf_strbuf *out, const lf_scan *s) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", LF_JSON_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "lockfix");
    cJSON_AddStringToObject(tool, "version", LOCKFIX_VERSION);

    cJSON *findings = cJSON_AddArrayToObject(root, "findings");
    for (size_t i = 0; i < s->n_files; i++) {
        const lf_scan_file *f = &s->files[i];
        for (size_t k = 0; k < f->n_findings; k++) {
            const lf_finding *fd = &f->findings[k];
            cJSON *j = cJSON_CreateObject();
            lf_report_add_path(j, "path", fd->path);
            cJSON_AddNumberToObject(j, "line", fd->line);
            cJSON_AddNumberToObject(j, "column", fd->col);
            cJSON_AddNumberToObject(j, "end_line", fd->end_line);
            cJSON_AddNumberToObject(j, "end_column", fd->end_col);
            cJSON_AddStringToObject(j, "rule_id", fd->rule->id);
            cJSON_AddStringToObject(j, "rule_name", fd->rule->name);
            cJSON_AddStringToObject(j, "severity", lf_severity_name(fd->severity));
            cJSON_AddStringToObject(j, "message", fd->message ? fd->message : "");
            cJSON_AddStringToObject(j, "fingerprint", fd->fingerprint);
            cJSON_AddItemToObject(j, "fix", fix_json(f, fd));
            if (fd->witness)
                cJSON_AddItemToObject(j, "witness", witness_json(fd));
            cJSON_AddItemToArray(findings, j);
        }
    }

    lf_report_summary sum;
    lf_report_summarize(s, &sum);
    cJSON *js = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(js, "files_scanned", (double)sum.files_scanned);
    cJSON_AddNumberToObject(js, "files_with_findings", (double)sum.files_with_findings);
    cJSON_AddNumberToObject(js, "files_skipped", (double)sum.files_skipped);
    cJSON_AddNumberToObject(js, "files_partial", (double)sum.files_partial);
    cJSON_AddNumberToObject(js, "findings", (double)sum.findings);
    cJSON_AddNumberToObject(js, "errors", (double)sum.by_severity[LF_SEV_ERROR]);
    cJSON_AddNumberToObject(js, "warnings", (double)sum.by_severity[LF_SEV_WARNING]);
    cJSON_AddNumberToObject(js, "info", (double)sum.by_severity[LF_SEV_INFO]);
    cJSON_AddNumberToObject(js, "fixable", (double)sum.fixable);
    cJSON_AddNumberToObject(js, "unsafe_fixable", (double)sum.unsafe_fixable);
    cJSON_AddStringToObject(js, "fail_on", lf_severity_name(s->config.fail_on));
    cJSON_AddNumberToObject(js, "failing", (double)sum.failing);

    cJSON *skipped = cJSON_AddArrayToObject(root, "skipped");
    for (size_t i = 0; i < s->n_skips; i++) {
        cJSON *j = cJSON_CreateObject();
        lf_report_add_path(j, "path", s->skips[i].path);
        cJSON_AddStringToObject(j, "kind", lf_skip_kind_name(s->skips[i].kind));
        int lossy;
        char *reason = lf_report_utf8(s->skips[i].reason, &lossy);
        cJSON_AddStringToObject(j, "reason", reason);
        free(reason);
        cJSON_AddItemToArray(skipped, j);
    }

    /* Files analyzed only down to the engine's query depth limit. */
    cJSON *partial = cJSON_AddArrayToObject(root, "partial");
    for (size_t i = 0; i < s->n_files; i++) {
        if (!s->files[i].partial_depth)
            continue;
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "path", s->files[i].walked->path);
        cJSON_AddStringToObject(j, "reason", lf_scan_partial_reason());
        cJSON_AddItemToArray(partial, j);
    }

    lf_report_put_json(out, root);
    cJSON_Delete(root);
}
