#include "lf_verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_command.h"
#include "lf_rollback.h"
#include "lf_rule.h"
#include "lf_util.h"

/* Run the command for integration g; returns 1 when it passed. */
static int run_for(const lf_verify_options *o, const lf_fanout *fo, size_t g, const char *when,
                   lf_command_result *r) {
    const char *dir = lf_fanout_integration_dir(fo, g);
    int has_dir = 0;
    char *cmd = lf_command_substitute_dir(o->command, dir, &has_dir);
    int ok = lf_command_run(cmd, has_dir ? NULL : dir, o->timeout_s, o->tail_lines, r);
    char *outcome = lf_command_outcome(r);
    fprintf(stderr, "lockfix: verify %s %s the fix: %s\n", lf_fanout_integration_name(fo, g), when, outcome);
    free(outcome);
    free(cmd);
    return ok;
}

/* Apply the fixes of files[] and new files of integration g through rb. */
static int apply_group(const lf_scan *s, const lf_fixed_file *fixed, const size_t *files, size_t n_files,
                       const lf_new_file_set *planned, const size_t *new_group, size_t g, lf_rollback *rb,
                       char **err) {
    /* New files first, as `fix --apply` does: no rewritten file refers to a missing one. */
    for (size_t m = 0; m < planned->len; m++) {
        const lf_new_file *nf = &planned->items[m];
        if (new_group[m] == g && !lf_rollback_create(rb, nf->path, nf->content, strlen(nf->content), err))
            return 0;
    }
    for (size_t k = 0; k < n_files; k++) {
        const lf_scan_file *f = &s->files[files[k]];
        const char *write_path = f->walked->open_path ? f->walked->open_path : f->src.path;
        if (!lf_rollback_write(rb, write_path, &f->src, fixed[files[k]].text, fixed[files[k]].len, err))
            return 0;
    }
    return 1;
}

static void report_kept(const lf_scan *s, const lf_fixed_file *fixed, const size_t *files, size_t n_files,
                        const lf_new_file_set *planned, const size_t *new_group, size_t g, lf_fanout *fo,
                        lf_verify_result *out) {
    for (size_t m = 0; m < planned->len; m++)
        if (new_group[m] == g)
            lf_fanout_created(fo, planned->items[m].path);
    for (size_t k = 0; k < n_files; k++) {
        const lf_scan_file *f = &s->files[files[k]];
        const lf_fixed_file *ff = &fixed[files[k]];
        fprintf(stderr, "fixed %s (", f->src.path);
        for (size_t r = 0; r < ff->n_rule_ids; r++)
            fprintf(stderr, "%s%s", r ? ", " : "", ff->rule_ids[r]);
        fprintf(stderr, ")\n");
        out->files_fixed++;
        out->fixes += ff->n_fixed;
        for (size_t j = 0; j < f->n_findings; j++)
            if (lf_fix_applicable(&f->findings[j]))
                lf_fanout_fixed(fo, f->src.path, &f->findings[j]);
    }
}

static void report_not_kept(const lf_scan *s, const size_t *files, size_t n_files, const char *why, lf_fanout *fo,
                            lf_verify_result *out) {
    for (size_t k = 0; k < n_files; k++) {
        const lf_scan_file *f = &s->files[files[k]];
        for (size_t j = 0; j < f->n_findings; j++) {
            const lf_finding *fd = &f->findings[j];
            if (!lf_fix_applicable(fd) || fd->severity < s->config.fail_on || fd->severity == LF_SEV_NONE)
                continue;
            out->remaining++;
            fprintf(stderr, "%s:%u:%u: %s not fixed: %s\n", fd->path, fd->line, fd->col, fd->rule->id, why);
            lf_fanout_left(fo, fd, why);
        }
    }
}

static void verify_group(const lf_verify_options *o, const lf_scan *s, const lf_fixed_file *fixed,
                         const size_t *files, size_t n_files, const lf_new_file_set *planned,
                         const size_t *new_group, size_t g, lf_fanout *fo, lf_verify_result *out) {
    lf_command_result before, after;
    memset(&after, 0, sizeof after);
    if (!run_for(o, fo, g, "before", &before)) {
        char *outcome = lf_command_outcome(&before);
        char *note = lf_xasprintf("not fixed: the verify command fails without the fixes (%s), so it cannot "
                                  "vouch for them; nothing was changed",
                                  outcome);
        lf_fanout_verified(fo, g, 0, note, before.tail);
        report_not_kept(s, files, n_files, "not applied: the verify command fails without the fix", fo, out);
        out->not_kept++;
        free(note);
        free(outcome);
        lf_command_result_free(&before);
        return;
    }
    lf_command_result_free(&before);

    lf_rollback *rb = lf_rollback_new();
    char *err = NULL, *undo_err = NULL;
    int applied = apply_group(s, fixed, files, n_files, planned, new_group, g, rb, &err);
    int passed = applied && run_for(o, fo, g, "after", &after);
    if (passed) {
        lf_fanout_verified(fo, g, 1, "verified", NULL);
        report_kept(s, fixed, files, n_files, planned, new_group, g, fo, out);
    } else {
        int restored = lf_rollback_undo(rb, &undo_err);
        char *outcome = applied ? lf_command_outcome(&after) : NULL;
        char *note;
        if (!applied) {
            fprintf(stderr, "lockfix fix: %s\n", err);
            note = lf_xasprintf("not fixed: %s; %s", err,
                                restored ? "what was applied is taken back" : "taking it back failed");
            out->errors = 1;
        } else {
            note = lf_xasprintf("rolled back: the verify command failed after the fixes (%s); %s", outcome,
                                restored ? "its files are restored" : "restoring them failed");
        }
        if (!restored) {
            fprintf(stderr, "lockfix fix: %s: not restored: %s\n", lf_fanout_integration_name(fo, g), undo_err);
            out->errors = 1;
        }
        lf_fanout_verified(fo, g, 0, note, applied ? after.tail : NULL);
        report_not_kept(s, files, n_files,
                        applied ? "rolled back: the verify command failed after the fix" : "its fixes could not be applied",
                        fo, out);
        out->not_kept++;
        free(note);
        free(outcome);
    }
    free(err);
    free(undo_err);
    lf_command_result_free(&after);
    lf_rollback_free(rb);
}

void lf_verify_apply(const lf_verify_options *o, const lf_scan *s, const lf_fixed_file *fixed, const int *usable,
                     const lf_new_file_set *planned, lf_fanout *fo, lf_verify_result *out) {
    memset(out, 0, sizeof *out);
    size_t *file_group = lf_xcalloc(s->n_files + 1, sizeof *file_group);
    size_t *new_group = lf_xcalloc(planned->len + 1, sizeof *new_group);
    LF_VEC(size_t) order = {0}; /* integrations with something to apply, in walk order */
    for (size_t i = 0; i < s->n_files; i++) {
        if (!usable[i])
            continue;
        file_group[i] = lf_fanout_integration(fo, s->files[i].src.path);
        size_t k = 0;
        while (k < order.len && order.items[k] != file_group[i])
            k++;
        if (k == order.len)
            LF_VEC_PUSH(&order, file_group[i]);
    }
    for (size_t m = 0; m < planned->len; m++)
        new_group[m] = lf_fanout_integration(fo, planned->items[m].path);

    size_t *files = lf_xcalloc(s->n_files + 1, sizeof *files);
    for (size_t k = 0; k < order.len; k++) {
        size_t n_files = 0;
        for (size_t i = 0; i < s->n_files; i++)
            if (usable[i] && file_group[i] == order.items[k])
                files[n_files++] = i;
        verify_group(o, s, fixed, files, n_files, planned, new_group, order.items[k], fo, out);
    }
    free(files);
    LF_VEC_FREE(&order);
    free(new_group);
    free(file_group);
}
