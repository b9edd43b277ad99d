/* `lockfix fix`: apply the safe fixes of a scan, as a diff or in place. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lf_diff.h"
#include "lf_engine.h"
#include "lf_fanout.h"
#include "lf_fix.h"
#include "lf_scan.h"
#include "lf_util.h"
#include "lf_verify.h"
#include "fixes/lf_vendor.h"

static const char k_fix_usage[] =
    "usage: lockfix fix [PATH...] [--diff | --apply] [options]\n"
    "\n"
    "Scan PATHs (default .) like `lockfix scan` and apply the fixes marked safe (and,\n"
    "with --unsafe-fixes, the unsafe ones).\n"
    "\n"
    "  --diff               print a unified diff of the fixes on stdout (the default);\n"
    "                       it applies with `git apply` or `patch -p1` from the current\n"
    "                       directory\n"
    "  --apply              rewrite the files in place: each through a unique temp file\n"
    "                       in its directory exchanged with it (renameat2), with its mode\n"
    "                       kept, and only if it is unchanged since it was read and has a\n"
    "                       single link; an edit made while it is written is kept and the\n"
    "                       file reported not written (exit 2); files the fixes create are\n"
    "                       written first, and only for files that are written\n"
    "  --unsafe-fixes       also apply the unsafe fixes (LF104's lock around a\n"
    "                       read-modify-write: correct, but it makes processes wait for\n"
    "                       each other, which they did not before; `lockfix explain\n"
    "                       RULE` says why under Fix safety). Without it they are\n"
    "                       left out of the diff and listed with the findings left\n"
    "  --runtime-dir NAME   put the runtime files a fix vendors (the lockrt Python\n"
    "                       binding of LF101's fix) in the subpackage NAME of each\n"
    "                       patched module's directory, created with an __init__.py,\n"
    "                       instead of beside the module\n"
    "  --verify CMD         with --apply: fix one integration (top-level directory of\n"
    "                       a PATH) at a time, running the shell command CMD in its\n"
    "                       directory (or from here, with {dir} replaced by it) before\n"
    "                       and after; keep its fixes only if CMD passes both times,\n"
    "                       else restore its files byte for byte and remove the files\n"
    "                       the fixes created; the summary shows CMD's last lines\n"
    "  --verify-timeout SEC kill a CMD run after SEC seconds (counts as a failure;\n"
    "                       default: no limit)\n"
    "  -h, --help           show this help\n"
    "%s"
    "\n"
    "A file's fixes are refused as a whole, with an error naming the rules and the file,\n"
    "when two edits overlap or when the fixed file would not parse. Running fix again on\n"
    "a fixed tree finds nothing to do.\n"
    "\n"
    "Exit status (with --diff, as if the diff were applied):\n"
    "  0  every finding at or above --fail-on is fixed (or was never there)\n"
    "  1  findings at or above --fail-on remain that have no safe fix (listed on stderr;\n"
    "     an unsafe fix left out counts as none), or --verify kept an integration's\n"
    "     fixes out\n"
    "  2  usage or I/O error, or a file's fixes were refused or could not be written\n";

/* A file that was to be fixed but was not written: its fixable findings are
 * left, with the reason, so the summary never reads "nothing to fix". */
static void not_written(lf_fanout *fo, const lf_scan_file *f, const char *why, size_t *remaining, lf_severity fail_on) {
    size_t n = strlen(f->walked->open_path); /* "<path>: not written: ..." -> "not written: ..." */
    if (strncmp(why, f->walked->open_path, n) == 0 && why[n] == ':' && why[n + 1] == ' ')
        why += n + 2;
    for (size_t j = 0; j < f->n_findings; j++) {
        const lf_finding *fd = &f->findings[j];
        if (!lf_fix_applicable(fd))
            continue;
        if (fd->severity >= fail_on && fd->severity != LF_SEV_NONE)
            (*remaining)++;
        fprintf(stderr, "%s:%u:%u: %s not fixed: %s\n", fd->path, fd->line, fd->col, fd->rule->id, why);
        lf_fanout_left(fo, fd, why);
    }
}

/* An unsafe fix taken out of a refused fix set (drop_unsafe_fixes), kept so the
 * second round can give it back to its finding. */
typedef struct stashed_fix {
    size_t finding; /* index into the file's findings */
    lf_fix *fix;
} stashed_fix;

/* Take finding j's fix out of the file's fix set into (*stash)[*n], the
 * finding left with `reason` (malloc'd) until the second round gives it back. */
static void stash_fix(lf_scan_file *f, size_t j, stashed_fix **stash, size_t *n, char *reason) {
    lf_finding *fd = &f->findings[j];
    *stash = lf_xrealloc(*stash, (*n + 1) * sizeof **stash);
    (*stash)[*n].finding = j;
    (*stash)[*n].fix = fd->fix;
    (*n)++;
    fd->fix = NULL;
    free(fd->no_fix_reason);
    fd->no_fix_reason = reason;
}

/* --unsafe-fixes on a file whose fix set was refused (`err`: two edits overlap,
 * or the result does not parse): take the unsafe fixes out, each left with the
 * reason, so that the safe ones can be tried alone. The fixes go to *stash.
 * Returns how many were taken out (0: nothing to retry). */
static size_t drop_unsafe_fixes(lf_scan_file *f, const char *err, stashed_fix **stash) {
    size_t n = 0;
    const char *why = strstr(err, ": refusing ");
    for (size_t j = 0; j < f->n_findings; j++) {
        lf_finding *fd = &f->findings[j];
        if (!lf_fix_is_unsafe(fd) || !lf_fix_applicable(fd))
            continue;
        stash_fix(f, j, stash, &n,
                  lf_xasprintf("the file's fixes were refused with this unsafe fix (%s), so it was left out and the "
                               "safe ones applied alone: run the fix again once they are in",
                               why ? why + 2 : err));
    }
    return n;
}

/* Does some non-import edit of fix `in` lie within a non-import edit of fix
 * `out` (one rewriting a whole block around the other's call)? */
static int nested_in(const lf_fix *in, const lf_fix *out) {
    for (size_t a = 0; a < in->n_edits; a++) {
        const lf_edit *e = &in->edits[a];
        if (e->flags & LF_EDIT_IMPORT)
            continue;
        for (size_t b = 0; b < out->n_edits; b++) {
            const lf_edit *o = &out->edits[b];
            if (!(o->flags & LF_EDIT_IMPORT) && o->start <= e->start && e->end <= o->end && o->end > o->start &&
                !(o->start == e->start && o->end == e->end))
                return 1;
        }
    }
    return 0;
}

/* A file whose fix set was refused: take out the fixes with an edit nested in
 * another finding's edit (LF301's bound removal inside the catch LF303's fix
 * rewrites), each left with the reason, so that the others apply; the second
 * round then offers them again on the fixed text, where they no longer
 * overlap. Appends to *stash (n_stash held); returns the new count. */
static size_t drop_nested_fixes(lf_scan_file *f, const char *err, stashed_fix **stash, size_t n_stash) {
    size_t n = n_stash;
    const char *why = strstr(err, ": refusing ");
    for (size_t j = 0; j < f->n_findings; j++) {
        lf_finding *fd = &f->findings[j];
        if (!lf_fix_applicable(fd))
            continue;
        int nested = 0;
        for (size_t k = 0; k < f->n_findings && !nested; k++)
            nested = k != j && lf_fix_applicable(&f->findings[k]) && nested_in(fd->fix, f->findings[k].fix);
        if (!nested)
            continue;
        stash_fix(f, j, stash, &n,
                  lf_xasprintf("the file's fixes were refused with this fix (%s), whose edit lies inside another "
                               "fix's: it was left out and the others applied: run the fix again once they are in",
                               why ? why + 2 : err));
    }
    return n;
}

/* 1 when the applicable fixes among found[0..n) are, rule for rule, the ones
 * stashed: the second round offers what the first left out and nothing else. */
static int same_rules(const lf_scan_file *f, const stashed_fix *stash, size_t n_stash, const lf_finding *found,
                      size_t n_found) {
    unsigned char *used = lf_xcalloc(n_stash ? n_stash : 1, 1);
    size_t n_applicable = 0;
    int same = 1;
    for (size_t j = 0; j < n_found && same; j++) {
        if (!lf_fix_applicable(&found[j]))
            continue;
        n_applicable++;
        size_t k = 0;
        while (k < n_stash && (used[k] || f->findings[stash[k].finding].rule != found[j].rule))
            k++;
        if (k == n_stash)
            same = 0;
        else
            used[k] = 1;
    }
    free(used);
    return same && n_applicable == n_stash;
}

/* `fix --unsafe-fixes`: the unsafe fixes that overlapped a safe one were left
 * out so that the safe ones could apply. Ask again on the fixed text, as a
 * second `lockfix fix` would, so that one run does what two would and a second
 * run finds nothing to do. The round is kept only when the new analysis offers
 * exactly fixes of the rules left out and they apply; the left-out findings
 * then count as fixed (their fixes are given back). Otherwise the first round
 * stands, each left-out finding with its reason. Plain UTF-8 files only: for
 * the others the fixed text is the file's own encoding, not what the engine
 * reads. */
static int second_round(const lf_scan *s, lf_scan_file *f, lf_fixed_file *ff, stashed_fix *stash, size_t n_stash) {
    if (!ff->text || f->src.enc.kind != LF_ENC_UTF8 || f->src.enc.bom_len || f->src.raw)
        return 0;
    lf_source next;
    lf_source_from_text(&next, f->src.path, f->src.lang, ff->text, ff->len);
    lf_engine_options opts = {.rules = &s->rules,
                              .config = &s->config,
                              .want_fixes = 1,
                              .use_prefilter = 1,
                              .fix_runtime_dir = s->fix_runtime_dir};
    lf_engine *eng = lf_engine_new(&opts);
    lf_finding *found = NULL;
    size_t n_found = 0;
    char *err = NULL;
    lf_fixed_file later = {0};
    int ok = lf_engine_analyze(eng, &next, &found, &n_found, &err) == 0 &&
             same_rules(f, stash, n_stash, found, n_found) && lf_fix_apply(&next, found, n_found, &later, &err) &&
             later.text && lf_fixed_file_merge(ff, &later, &err);
    if (ok)
        for (size_t k = 0; k < n_stash; k++) {
            lf_finding *fd = &f->findings[stash[k].finding];
            fd->fix = stash[k].fix;
            stash[k].fix = NULL;
            free(fd->no_fix_reason);
            fd->no_fix_reason = NULL;
        }
    lf_fixed_file_free(&later);
    free(err);
    for (size_t j = 0; j < n_found; j++)
        lf_finding_free_contents(&found[j]);
    free(found);
    lf_engine_free(eng);
    lf_source_free(&next);
    return ok;
}

/* 1 unless w is a symbolic link argument whose target lives in another
 * directory (open_path is the link's resolved target). */
static int link_beside_target(const lf_walk_file *w) {
    if (strcmp(w->open_path, w->path) == 0)
        return 1;
    const char *slash = strrchr(w->path, '/');
    char *dir = slash ? lf_xstrndup(w->path, (size_t)(slash - w->path) + (slash == w->path)) : lf_xstrdup(".");
    char *real = realpath(dir, NULL);
    const char *tslash = strrchr(w->open_path, '/');
    size_t tlen = tslash ? (size_t)(tslash - w->open_path) + (tslash == w->open_path) : 0;
    int same = real && tslash && strlen(real) == tlen && strncmp(real, w->open_path, tlen) == 0;
    free(real);
    free(dir);
    return same;
}

/* 1 when the fixes of file f create `path` (a final path of the run's set). */
static int needs_new_file(const lf_scan_file *f, const lf_fixed_file *ff, const char *path) {
    lf_new_file_set one = {0};
    char *err = NULL;
    int needs = 0;
    if (lf_new_file_set_add(&one, f->src.path, ff, &err))
        for (size_t k = 0; k < one.len && !needs; k++)
            needs = strcmp(one.items[k].path, path) == 0;
    free(err);
    lf_new_file_set_free(&one);
    return needs;
}

static int needed_by_usable(const lf_scan *s, const lf_fixed_file *fixed, const int *usable, const char *path) {
    for (size_t i = 0; i < s->n_files; i++)
        if (usable[i] && needs_new_file(&s->files[i], &fixed[i], path))
            return 1;
    return 0;
}

/* 1 when a file whose write failed and which needs `path` now holds exactly its
 * fixed text: another run (a second `lockfix fix --apply` at the same time)
 * landed the same fix, and relies on the vendored file too. */
static int landed_elsewhere(const lf_scan *s, const lf_fixed_file *fixed, const int *write_failed, const char *path) {
    for (size_t i = 0; i < s->n_files; i++) {
        if (!write_failed[i] || !needs_new_file(&s->files[i], &fixed[i], path))
            continue;
        lf_source now;
        if (lf_source_load(s->files[i].walked->open_path, s->files[i].src.lang, &now, NULL) != LF_LOAD_OK)
            continue;
        size_t now_len;
        const char *now_bytes = lf_source_bytes(&now, &now_len);
        int same = now_len == fixed[i].len && memcmp(now_bytes, fixed[i].text, now_len) == 0;
        lf_source_free(&now);
        if (same)
            return 1;
    }
    return 0;
}

int lf_cmd_fix(int argc, char **argv) {
    lf_scan_options o;
    memset(&o, 0, sizeof o);
    int apply = 0, diff = 0;
    const char *runtime_dir = NULL;
    lf_verify_options verify = {NULL, 0, 10};
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
        if (strcmp(a, "--runtime-dir") == 0) {
            if (i + 1 >= argc || !lf_vendor_dir_valid(argv[i + 1])) {
                fprintf(stderr, "lockfix fix: --runtime-dir needs a Python identifier (a subpackage name such "
                                "as _vendor), got '%s'\n",
                        i + 1 < argc ? argv[i + 1] : "");
                lf_scan_options_free(&o);
                return LF_EXIT_USAGE;
            }
            runtime_dir = argv[i + 1];
            i += 2;
            continue;
        }
        if (strcmp(a, "--verify") == 0 || strcmp(a, "--verify-timeout") == 0) {
            int timeout = strcmp(a, "--verify-timeout") == 0;
            const char *v = i + 1 < argc ? argv[i + 1] : "";
            char *end = NULL;
            unsigned long t = timeout ? strtoul(v, &end, 10) : 0;
            if (!*v || (timeout && (*end || *v == '-' || t == 0 || t > 7 * 86400))) {
                fprintf(stderr, "lockfix fix: %s needs %s, got '%s'\n", a,
                        timeout ? "a number of seconds (1 to 604800)" : "a shell command", v);
                lf_scan_options_free(&o);
                return LF_EXIT_USAGE;
            }
            if (timeout)
                verify.timeout_s = (unsigned)t;
            else
                verify.command = v;
            i += 2;
            continue;
        }
        if (strcmp(a, "--diff") == 0) {
            diff = 1;
            i++;
            continue;
        }
        if (strcmp(a, "--unsafe-fixes") == 0) {
            lf_fix_allow_unsafe(1);
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
    if (verify.command && !apply) {
        fprintf(stderr, "lockfix fix: --verify runs the command on the fixed files: it needs --apply\n");
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
    s.fix_runtime_dir = runtime_dir;
    lf_scan_run(&s, o.jobs, 1, 0);
    for (size_t i = 0; i < s.n_skips; i++)
        fprintf(stderr, "lockfix: skipping %s: %s\n", s.skips[i].path, s.skips[i].reason);
    for (size_t i = 0; i < s.n_files; i++)
        if (s.files[i].partial_depth)
            fprintf(stderr, "lockfix: %s: %s\n", s.files[i].walked->path, lf_scan_partial_reason());

    static char *const k_default_root[] = {"."};
    lf_fanout *fanout = o.n_paths ? lf_fanout_new(o.paths, o.n_paths) : lf_fanout_new(k_default_root, 1);
    for (size_t i = 0; i < s.n_files; i++)
        lf_fanout_file(fanout, s.files[i].walked->path);
    int errors = s.n_analysis_errors > 0;
    size_t files_fixed = 0, fixes = 0, remaining = 0, withheld = 0;
    lf_strbuf patch;
    lf_strbuf_init(&patch);
    lf_new_file_set planned = {0};
    lf_fixed_file *fixed = lf_xcalloc(s.n_files ? s.n_files : 1, sizeof *fixed);

    /* Pass 1: compute every file's fixed text and the new files they need. */
    int *usable = lf_xcalloc(s.n_files ? s.n_files : 1, sizeof *usable);
    for (size_t i = 0; i < s.n_files; i++) {
        lf_scan_file *f = &s.files[i];
        if (!f->has_source || f->n_findings == 0)
            continue;
        int ok = lf_fix_apply(&f->src, f->findings, f->n_findings, &fixed[i], &err);
        stashed_fix *stash = NULL;
        size_t n_stash = 0;
        if (!ok && (n_stash = drop_unsafe_fixes(f, err, &stash)) > 0) {
            /* The safe fixes alone may fit: an unsafe fix asked for never costs the file its safe ones. */
            free(err);
            err = NULL;
            ok = lf_fix_apply(&f->src, f->findings, f->n_findings, &fixed[i], &err);
        }
        size_t n_first = n_stash;
        if (!ok && (n_stash = drop_nested_fixes(f, err, &stash, n_stash)) > n_first) {
            /* a fix nested in another's rewrite waits for the second round */
            free(err);
            err = NULL;
            ok = lf_fix_apply(&f->src, f->findings, f->n_findings, &fixed[i], &err);
        }
        if (ok && n_stash)
            second_round(&s, f, &fixed[i], stash, n_stash);
        for (size_t k = 0; k < n_stash; k++)
            lf_fix_free(stash[k].fix);
        free(stash);
        if (!ok) {
            fprintf(stderr, "lockfix fix: %s\n", err);
            free(err);
            errors = 1;
        } else if (fixed[i].text && !link_beside_target(f->walked)) {
            /* A symbolic link named on the command line, into another directory:
             * its fixes would be written to the target while the vendored files
             * and the import style follow the link's directory. Refused, not
             * guessed. */
            fprintf(stderr,
                    "lockfix fix: %s: is a symbolic link into another directory (to %s): not fixed; name the "
                    "target to fix it\n",
                    f->src.path, f->walked->open_path);
            errors = 1;
            ok = 0;
        } else if (!lf_new_file_set_add(&planned, f->src.path, &fixed[i], &err)) {
            fprintf(stderr, "lockfix fix: %s\n", err);
            free(err);
            errors = 1;
            ok = 0;
        }
        usable[i] = ok && fixed[i].text;
        for (size_t j = 0; j < f->n_findings; j++) {
            const lf_finding *fd = &f->findings[j];
            if (ok && lf_fix_applicable(fd))
                continue;
            if (fd->severity < s.config.fail_on || fd->severity == LF_SEV_NONE)
                continue;
            remaining++;
            char *unsafe = NULL;
            if (lf_fix_is_unsafe(fd) && !lf_fix_applicable(fd)) {
                /* ruff's way: shown, never applied unasked. */
                withheld++;
                unsafe = lf_xasprintf("an unsafe fix is left out: it is applied only with --unsafe-fixes (`lockfix "
                                      "explain %s`, Fix safety)",
                                      fd->rule->id);
            }
            const char *why = unsafe                            ? unsafe
                              : !ok && lf_fix_applicable(fd) ? "the file's fixes were refused"
                              : fd->no_fix_reason          ? fd->no_fix_reason
                                                           : "no safe fix for this rule";
            fprintf(stderr, "%s:%u:%u: %s not fixed: %s\n", fd->path, fd->line, fd->col, fd->rule->id, why);
            lf_fanout_left(fanout, fd, why);
            free(unsafe);
        }
    }
    /* --verify: passes 2 and 3, one integration at a time, each kept only if
     * its command passes before and after (lf_verify.h). */
    lf_verify_result verified = {0};
    if (verify.command) {
        lf_verify_apply(&verify, &s, fixed, usable, &planned, fanout, &verified);
        files_fixed = verified.files_fixed;
        fixes = verified.fixes;
        remaining += verified.remaining;
        errors |= verified.errors;
    }
    /* Pass 2 (--apply): refuse up front the files that changed since they were
     * read (or gained a hard link), so their vendored files are not created. */
    if (apply && !verify.command) {
        for (size_t i = 0; i < s.n_files; i++) {
            if (!usable[i])
                continue;
            lf_scan_file *f = &s.files[i];
            if (!lf_fix_check_unchanged(f->walked->open_path, &f->src, &err)) {
                fprintf(stderr, "lockfix fix: %s\n", err);
                not_written(fanout, f, err, &remaining, s.config.fail_on);
                free(err);
                errors = 1;
                usable[i] = 0;
            }
        }
    }
    /* Pass 3 (--apply): the new files the remaining files need, before them, so
     * no rewritten file ever refers to a file that could not be created; a file
     * whose new file failed is left alone. */
    int *made = lf_xcalloc(planned.len ? planned.len : 1, sizeof *made); /* 2: created by this run */
    int *write_failed = lf_xcalloc(s.n_files ? s.n_files : 1, sizeof *write_failed);
    if (apply && !verify.command) {
        for (size_t m = 0; m < planned.len; m++) {
            const lf_new_file *nf = &planned.items[m];
            if (!needed_by_usable(&s, fixed, usable, nf->path))
                continue;
            made[m] = lf_fix_create(nf->path, nf->content, strlen(nf->content), &err);
            if (made[m])
                continue;
            fprintf(stderr, "lockfix fix: %s\n", err);
            free(err);
            errors = 1;
            for (size_t i = 0; i < s.n_files; i++)
                if (usable[i] && needs_new_file(&s.files[i], &fixed[i], nf->path)) {
                    usable[i] = 0;
                    not_written(fanout, &s.files[i], "a file its fix needs could not be created", &remaining,
                                s.config.fail_on);
                }
        }
    }
    /* Pass 4: rewrite (or diff) the files, in walk order. */
    for (size_t i = 0; i < s.n_files && !verify.command; i++) {
        lf_scan_file *f = &s.files[i];
        if (!usable[i])
            continue;
        if (apply) {
            if (!lf_fix_write(f->walked->open_path, &f->src, fixed[i].text, fixed[i].len, &err)) {
                fprintf(stderr, "lockfix fix: %s\n", err);
                not_written(fanout, f, err, &remaining, s.config.fail_on);
                free(err);
                errors = 1;
                usable[i] = 0;
                write_failed[i] = 1;
                continue;
            }
            fprintf(stderr, "fixed %s (", f->src.path);
            for (size_t r = 0; r < fixed[i].n_rule_ids; r++)
                fprintf(stderr, "%s%s", r ? ", " : "", fixed[i].rule_ids[r]);
            fprintf(stderr, ")\n");
        } else {
            char *shown = lf_diff_display_path(f->src.path);
            /* In the file's own encoding: the diff applies to its bytes. */
            size_t old_len;
            const char *old_bytes = lf_source_bytes(&f->src, &old_len);
            lf_diff_file(&patch, shown, old_bytes, old_len, fixed[i].text, fixed[i].len);
            free(shown);
        }
        files_fixed++;
        fixes += fixed[i].n_fixed;
        for (size_t j = 0; j < f->n_findings; j++)
            if (lf_fix_applicable(&f->findings[j]))
                lf_fanout_fixed(fanout, f->src.path, &f->findings[j]);
    }
    /* A new file is kept only while a rewritten file refers to it: one created
     * for files whose write then failed (a concurrent edit) is removed again. */
    if (apply && !verify.command) {
        for (size_t m = 0; m < planned.len; m++) {
            const lf_new_file *nf = &planned.items[m];
            if (!made[m])
                continue;
            if (needed_by_usable(&s, fixed, usable, nf->path)) {
                lf_fanout_created(fanout, nf->path);
            } else if (made[m] == 2 && !landed_elsewhere(&s, fixed, write_failed, nf->path)) {
                if (unlink(nf->path) != 0)
                    fprintf(stderr, "lockfix fix: %s: created for a file that was not written, and cannot be "
                                    "removed: %s\n",
                            nf->path, strerror(errno));
            }
        }
    }
    free(made);
    free(write_failed);
    if (!apply) {
        lf_new_file_set_diff(&planned, &patch);
        for (size_t m = 0; m < planned.len; m++)
            lf_fanout_created(fanout, planned.items[m].path);
    }
    lf_new_file_set_free(&planned);
    free(usable);
    if (!apply && patch.len)
        fwrite(patch.data, 1, patch.len, stdout);
    if (fflush(stdout) != 0) {
        perror("lockfix fix: stdout");
        errors = 1;
    }
    lf_fanout_print(fanout, apply ? "applied" : "diff", stderr);
    lf_fanout_free(fanout);
    fprintf(stderr, "lockfix: %s %zu fix%s in %zu file%s; %zu finding%s left %s", apply ? "applied" : "diff of", fixes,
            fixes == 1 ? "" : "es", files_fixed, files_fixed == 1 ? "" : "s", remaining, remaining == 1 ? "" : "s",
            verify.command ? "unfixed" : "without a safe fix");
    if (verify.command)
        fprintf(stderr, " (%zu integration%s not kept by --verify)", verified.not_kept, verified.not_kept == 1 ? "" : "s");
    if (withheld)
        fprintf(stderr, "; %zu of them with an unsafe fix, applied only with --unsafe-fixes", withheld);
    fputc('\n', stderr);
    for (size_t i = 0; i < s.n_files; i++)
        lf_fixed_file_free(&fixed[i]);
    free(fixed);
    lf_strbuf_free(&patch);
    lf_scan_free(&s);
    lf_scan_options_free(&o);
    if (errors)
        return LF_EXIT_USAGE;
    return remaining || verified.not_kept ? LF_EXIT_FINDINGS : LF_EXIT_OK;
}
