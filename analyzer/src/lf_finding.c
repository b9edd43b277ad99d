#include "lf_finding.h"

#include <stdlib.h>
#include <string.h>

#include "lf_util.h"
#include "lf_witness.h"

const char *lf_severity_name(lf_severity s) {
    switch (s) {
    case LF_SEV_INFO: return "info";
    case LF_SEV_WARNING: return "warning";
    case LF_SEV_ERROR: return "error";
    default: return "off";
    }
}

int lf_severity_parse(const char *name, lf_severity *out) {
    static const struct {
        const char *name;
        lf_severity sev;
    } k[] = {{"off", LF_SEV_NONE}, {"info", LF_SEV_INFO}, {"warning", LF_SEV_WARNING}, {"error", LF_SEV_ERROR}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (strcmp(name, k[i].name) == 0) {
            *out = k[i].sev;
            return 1;
        }
    }
    return 0;
}

void lf_fix_add_edit(lf_fix *fix, uint32_t start, uint32_t end, const char *text) {
    fix->edits = lf_xrealloc(fix->edits, (fix->n_edits + 1) * sizeof *fix->edits);
    fix->edits[fix->n_edits].start = start;
    fix->edits[fix->n_edits].end = end;
    fix->edits[fix->n_edits].text = lf_xstrdup(text);
    fix->edits[fix->n_edits].flags = 0;
    fix->n_edits++;
}

void lf_fix_add_import(lf_fix *fix, uint32_t at, const char *text) {
    lf_fix_add_edit(fix, at, at, text);
    fix->edits[fix->n_edits - 1].flags = LF_EDIT_IMPORT;
}

void lf_fix_free(lf_fix *fix) {
    if (!fix)
        return;
    for (size_t i = 0; i < fix->n_edits; i++)
        free(fix->edits[i].text);
    for (size_t i = 0; i < fix->n_new_files; i++) {
        free(fix->new_files[i].path);
        free(fix->new_files[i].content);
    }
    free(fix->edits);
    free(fix->new_files);
    free(fix->title);
    free(fix);
}

void lf_finding_free_contents(lf_finding *f) {
    free(f->message);
    free(f->no_fix_reason);
    lf_fix_free(f->fix);
    lf_witness_free(f->witness);
    f->witness = NULL;
    f->message = NULL;
    f->no_fix_reason = NULL;
    f->fix = NULL;
}
