/* `lockfix fix`: apply the safe fixes of a scan, as a diff or in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lf_diff.h"
#include "lf_fix.h"
#include "lf_scan.h"
#include "lf_util.h"

static const char k_fix_usage[] =
    "usage: lockfix fix [PATH...] [--diff | --apply] [options]\n"
    "\n"
    "Scan PATHs (default .) like `lockfix scan` and apply the fixes marked safe.\n"
    "\n"
    "  --diff               print a unified diff of the fixes on stdout (the default);\n"
    "                       it applies with `git apply` or `patch -p1` from the current\n"
    "                       directory\n"
    "  --apply              rewrite the files in place: each through a unique temp file\n"
    "                       in its directory and a rename, with its mode kept, and only if\n"
    "                       it is unchanged since it was read (else it is skipped, exit 2)\n"
    "  -h, --help           show this help\n"
    "%s"
    "\n"
    "A file's fixes are refused as a whole, with an error naming the rules and the file,\n"
    "when two edits overlap or when the fixed file would not parse. Running fix again on\n"
    "a fixed tree finds nothing to do.\n"
    "\n"
    "Exit status:\n"
    "  0  every finding at or above --fail-on is fixed (or was never there)\n"
    "  1  findings at or above --fail-on remain that have no safe fix (listed on stderr)\n"
    "  2  usage or I/O error, or a file's fixes were refused or could not be written\n";

/* New files are keyed by their final path so two fixed files vendoring the same
 * file into one directory create it once. */
typedef struct planned_new_file {
    char *path;
    const char *content; /* borrowed from the lf_fixed_file */
} planned_new_file;

static char *join_dir(const char *file_path, const char *rel) {
    const char *slash = strrchr(file_path, '/');
    if (!slash)
        return lf_xstrdup(rel);
    return lf_xasprintf("%.*s/%s", (int)(slash - file_path), file_path, rel);
}

int lf_cmd_fix(int argc, char **argv) {
    lf_scan_options o;
    memset(&o, 0, sizeof o);
    int apply = 0, diff = 0;
    char *err = NULL;
    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            printf(k_fix_usage, lf_scan_options_help);
            lf_scan_options_free(&o);
            return LF_EXIT_OK;
        }
        if (strcmp(a, "--apply") == 0) {
            apply = 1;
            i++;
            continue;
        }
        if (strcmp(a, "--diff") == 0) {
            diff = 1;
            i++;
            continue;
        }
        int r = lf_scan_parse_option(&o, argc, argv, &i, &err);
        if (r < 0) {
            fprintf(stderr, "lockfix fix: %s\n", err);
            free(err);
            lf_scan_options_free(&o);
            return LF_EXIT_USAGE;
        }
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "lockfix fix: unknown option '%s' (see lockfix fix --help)\n", a);
            lf_scan_options_free(&o);
            return LF_EXIT_USAGE;
        }
        o.paths = lf_xrealloc(o.paths, (o.n_paths + 1) * sizeof *o.paths);
        o.paths[o.n_paths++] = lf_xstrdup(a);
        i++;
    }
    if (apply && diff) {
        fprintf(stderr, "lockfix fix: --diff and --apply are exclusive\n");
        lf_scan_options_free(&o);
        return LF_EXIT_USAGE;
    }

    lf_scan s;
    memset(&s, 0, sizeof s);
    if (!lf_scan_prepare(&s, &o, &err)) {
        fprintf(stderr, "lockfix fix: %s\n", err);
        free(err);
        lf_scan_free(&s);
        lf_scan_options_free(&o);
        return LF_EXIT_USAGE;
    }
    lf_scan_run(&s, o.jobs, 1, 0);
    for (size_t i = 0; i < s.n_skips; i++)
        fprintf(stderr, "lockfix: skipped %s: %s\n", s.skips[i].path, s.skips[i].reason);

    int errors = s.n_analysis_errors > 0;
    size_t files_fixed = 0, fixes = 0, remaining = 0;
    lf_strbuf patch;
    lf_strbuf_init(&patch);
    LF_VEC(planned_new_file) planned = {0};
    lf_fixed_file *fixed = lf_xcalloc(s.n_files ? s.n_files : 1, sizeof *fixed);

    for (size_t i = 0; i < s.n_files; i++) {
        lf_scan_file *f = &s.files[i];
        if (!f->has_source || f->n_findings == 0)
            continue;
        int ok = lf_fix_apply(&f->src, f->findings, f->n_findings, &fixed[i], &err);
        if (!ok) {
            fprintf(stderr, "lockfix fix: %s\n", err);
            free(err);
            errors = 1;
        }
        for (size_t j = 0; j < f->n_findings; j++) {
            const lf_finding *fd = &f->findings[j];
            if (ok && lf_fix_applicable(fd))
                continue;
            if (fd->severity < s.config.fail_on || fd->severity == LF_SEV_NONE)
                continue;
            remaining++;
            fprintf(stderr, "%s:%u:%u: %s not fixed: %s\n", fd->path, fd->line, fd->col, fd->rule->id,
                    !ok && lf_fix_applicable(fd) ? "the file's fixes were refused"
                    : fd->no_fix_reason          ? fd->no_fix_reason
                                                 : "no safe fix for this rule");
        }
        if (!ok || !fixed[i].text)
            continue;
        const char *write_path = f->walked->open_path ? f->walked->open_path : f->src.path;
        if (apply) {
            if (!lf_fix_write(write_path, &f->src, fixed[i].text, fixed[i].len, &err)) {
                fprintf(stderr, "lockfix fix: %s\n", err);
                free(err);
                errors = 1;
                continue;
            }
        } else {
            char *shown = lf_diff_display_path(f->src.path);
            lf_diff_file(&patch, shown, f->src.text, f->src.len, fixed[i].text, fixed[i].len);
            free(shown);
        }
        files_fixed++;
        fixes += fixed[i].n_fixed;
        if (apply) {
            fprintf(stderr, "fixed %s (", f->src.path);
            for (size_t r = 0; r < fixed[i].n_rule_ids; r++)
                fprintf(stderr, "%s%s", r ? ", " : "", fixed[i].rule_ids[r]);
            fprintf(stderr, ")\n");
        }
        for (size_t k = 0; k < fixed[i].n_new_files; k++) {
            planned_new_file pn = {join_dir(f->src.path, fixed[i].new_files[k].path), fixed[i].new_files[k].content};
            size_t m;
            for (m = 0; m < planned.len; m++)
                if (strcmp(planned.items[m].path, pn.path) == 0)
                    break;
            if (m < planned.len) {
                if (strcmp(planned.items[m].content, pn.content) != 0) {
                    fprintf(stderr, "lockfix fix: %s: two fixes create it with different content\n", pn.path);
                    errors = 1;
                }
                free(pn.path);
                continue;
            }
            LF_VEC_PUSH(&planned, pn);
        }
    }
    for (size_t m = 0; m < planned.len; m++) {
        if (apply) {
            if (!lf_fix_create(planned.items[m].path, planned.items[m].content, strlen(planned.items[m].content),
                               &err)) {
                fprintf(stderr, "lockfix fix: %s\n", err);
                free(err);
                errors = 1;
            }
        } else {
            char *shown = lf_diff_display_path(planned.items[m].path);
            lf_diff_new_file(&patch, shown, planned.items[m].content, strlen(planned.items[m].content));
            free(shown);
        }
        free(planned.items[m].path);
    }
    LF_VEC_FREE(&planned);
    if (!apply && patch.len)
        fwrite(patch.data, 1, patch.len, stdout);
    if (fflush(stdout) != 0) {
        perror("lockfix fix: stdout");
        errors = 1;
    }
    fprintf(stderr, "lockfix: %s %zu fix%s in %zu file%s; %zu finding%s left without a safe fix\n",
            apply ? "applied" : "diff of", fixes, fixes == 1 ? "" : "es", files_fixed, files_fixed == 1 ? "" : "s",
            remaining, remaining == 1 ? "" : "s");
    for (size_t i = 0; i < s.n_files; i++)
        lf_fixed_file_free(&fixed[i]);
    free(fixed);
    lf_strbuf_free(&patch);
    lf_scan_free(&s);
    lf_scan_options_free(&o);
    if (errors)
        return LF_EXIT_USAGE;
    return remaining ? LF_EXIT_FINDINGS : LF_EXIT_OK;
}
