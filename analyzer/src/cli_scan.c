/* `lockfix scan`: walk, analyze, report, exit with 0 / 1 / 2. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lf_baseline.h"
#include "lf_cache.h"
#include "lf_report.h"
#include "lf_scan.h"
#include "lf_witness.h"

static const char k_scan_usage[] =
    "usage: lockfix scan [OPTIONS] [PATH...]\n"
    "\n"
    "Scan Python and TypeScript/JavaScript files for unsafe lock fallbacks.\n"
    "PATH defaults to the current directory; directories are walked in sorted order,\n"
    "skipping .git, node_modules, build directories (build, build-*, dist, __pycache__,\n"
    ".venv, .tox, any directory with a CMakeCache.txt or a pyvenv.cfg). Symbolic links met\n"
    "while walking are not followed; a path named here is always scanned.\n"
    "\n"
    "Options:\n"
    "  --format FORMAT      text (default), json, sarif or github\n"
    "  -o, --output FILE    write the report to FILE (atomically) instead of stdout\n"
    "  --baseline FILE      report (and fail on) only the findings FILE does not record\n"
    "  --write-baseline FILE  record every current finding in FILE (atomically), then\n"
    "                       exit 0 unless an error occurs; check and write from the same\n"
    "                       directory, since findings are matched by rule, reported path,\n"
    "                       enclosing function and the flagged code, not by line\n"
    "  --cache-dir DIR      keep the result cache in DIR (default: .lockfix_cache in the\n"
    "                       current directory): a re-scan analyzes only the files that\n"
    "                       changed, with the same report; any change to a file, the rules,\n"
    "                       the configuration or the lockfix binary invalidates its results\n"
    "  --no-cache           neither read nor write the cache (also: LOCKFIX_NO_CACHE=1)\n"
    "  --cache-stats        print how many files came from the cache on stderr\n"
    "  --no-witness         leave out each finding's witness (the interleaving of\n"
    "                       processes that loses data) in every format\n"
    "%s"
    "  -h, --help           show this help\n"
    "\n"
    "Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage or I/O error\n"
    "(bad option, missing path, unreadable or malformed config or rule file).\n"
    "Files are read in their encoding: UTF-8, a Python file's PEP 263 coding line,\n"
    "a byte-order mark (UTF-8; UTF-16 in TS/JS). Unreadable and binary files, and\n"
    "files not valid in their encoding, are reported on stderr and skipped; they do\n"
    "not change the exit status. A cache directory that cannot be created or\n"
    "written is a warning on stderr: the scan and its exit status are unaffected.\n";

static void print_usage(FILE *to) {
    fprintf(to, k_scan_usage, lf_scan_options_help);
}

static void warn_cache(char *warning) {
    if (warning)
        fprintf(stderr, "lockfix: warning: %s; the scan goes on without it (--no-cache turns it off)\n", warning);
    free(warning);
}

typedef struct cache_opener {
    const char *dir;
    const lf_scan *scan; /* its rules and configuration only: the walk fills the rest meanwhile */
    pthread_t thread;
    lf_cache *cache;
    char *warning;
} cache_opener;

static void *open_cache(void *arg) {
    cache_opener *o = arg;
    o->cache = lf_cache_open(o->dir, o->scan, 1, &o->warning);
    return NULL;
}

/* Written after the report: its result never waits on the cache, nor depends
 * on it being writable. */
static void save_cache(lf_cache *cache, int print_stats) {
    if (!cache)
        return;
    char *warning = NULL;
    lf_cache_save(cache, &warning);
    warn_cache(warning);
    if (print_stats) {
        const lf_cache_stats *st = lf_cache_get_stats(cache);
        fprintf(stderr, "lockfix: cache: %zu from the cache (%zu not read), %zu analyzed (%zu not cacheable); index %s\n",
                st->hits_unread + st->hits_read, st->hits_unread, st->misses, st->not_cacheable,
                st->written > 0 ? "written" : st->written < 0 ? "not written" : "unchanged");
    }
}

/* Record every finding of the scan (before any --baseline filtering). */
static int write_baseline_of(const char *path, const lf_scan *scan) {
    lf_strbuf doc;
    lf_strbuf_init(&doc);
    lf_baseline_render(scan, &doc);
    char *err = NULL;
    int ok = lf_report_write(path, doc.data, doc.len, &err);
    if (ok) {
        size_t n = 0;
        for (size_t i = 0; i < scan->n_files; i++)
            n += scan->files[i].n_findings;
        fprintf(stderr, "lockfix: wrote baseline %s (%zu finding%s)\n", path, n, n == 1 ? "" : "s");
    } else {
        fprintf(stderr, "lockfix: %s\n", err);
        free(err);
    }
    lf_strbuf_free(&doc);
    return ok;
}

/* --no-witness: drop the witnesses before any report is rendered. */
static void drop_witnesses(lf_scan *scan) {
    for (size_t i = 0; i < scan->n_files; i++)
        for (size_t k = 0; k < scan->files[i].n_findings; k++) {
            lf_finding *fd = &scan->files[i].findings[k];
            lf_witness_free(fd->witness);
            fd->witness = NULL;
        }
}

static void apply_baseline(const char *path, lf_baseline *baseline, lf_scan *scan) {
    lf_baseline_result r;
    lf_baseline_filter(baseline, scan, &r);
    fprintf(stderr, "lockfix: baseline %s: %zu recorded finding%s not reported", path, r.matched,
            r.matched == 1 ? "" : "s");
    if (r.stale)
        fprintf(stderr, "; %zu recorded finding%s no longer found (--write-baseline drops %s)", r.stale,
                r.stale == 1 ? "" : "s", r.stale == 1 ? "it" : "them");
    fputc('\n', stderr);
}

int lf_cmd_scan(int argc, char **argv) {
    lf_scan_options o = {0};
    lf_format fmt = LF_FORMAT_TEXT;
    const char *output = NULL;
    const char *baseline_path = NULL, *write_baseline = NULL;
    lf_baseline *baseline = NULL;
    int rc = LF_EXIT_USAGE;
    int only_paths = 0;
    int no_cache = 0, cache_stats = 0;
    const char *cache_dir = LF_CACHE_DEFAULT_DIR;
    lf_cache *cache = NULL;
    int no_witness = 0;
    char *err = NULL;

    for (int i = 1; i < argc;) {
        const char *a = argv[i];
        if (only_paths || a[0] != '-' || strcmp(a, "-") == 0) {
            o.paths = lf_xrealloc(o.paths, (o.n_paths + 1) * sizeof *o.paths);
            o.paths[o.n_paths++] = lf_xstrdup(a);
            i++;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_paths = 1;
            i++;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            print_usage(stdout);
            rc = LF_EXIT_OK;
            goto out;
        }
        if (strcmp(a, "--no-witness") == 0) {
            no_witness = 1;
            i++;
            continue;
        }
        const char *v = NULL;
        if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0) {
            if (a[8] == '=') {
                v = a + 9;
                i++;
            } else if (i + 1 < argc) {
                v = argv[i + 1];
                i += 2;
            } else {
                fprintf(stderr, "lockfix scan: option --format needs a value\n");
                goto out;
            }
            if (!lf_format_parse(v, &fmt)) {
                fprintf(stderr, "lockfix scan: --format: expected text, json, sarif or github, got \"%s\"\n", v);
                goto out;
            }
            continue;
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strncmp(a, "--output=", 9) == 0) {
            if (a[1] == '-' && a[8] == '=') {
                output = a + 9;
                i++;
            } else if (i + 1 < argc) {
                output = argv[i + 1];
                i += 2;
            } else {
                fprintf(stderr, "lockfix scan: option %s needs a value\n", a);
                goto out;
            }
            if (!*output) {
                fprintf(stderr, "lockfix scan: --output: empty file name\n");
                goto out;
            }
            continue;
        }
        if (strcmp(a, "--baseline") == 0 || strcmp(a, "--write-baseline") == 0 || strncmp(a, "--baseline=", 11) == 0 ||
            strncmp(a, "--write-baseline=", 17) == 0) {
            const char *eq = strchr(a, '=');
            const char **slot = a[2] == 'b' ? &baseline_path : &write_baseline;
            if (eq) {
                *slot = eq + 1;
                i++;
            } else if (i + 1 < argc) {
                *slot = argv[i + 1];
                i += 2;
            } else {
                fprintf(stderr, "lockfix scan: option %s needs a value\n", a);
                goto out;
            }
            if (!**slot) {
                fprintf(stderr, "lockfix scan: %.*s: empty file name\n", eq ? (int)(eq - a) : (int)strlen(a), a);
                goto out;
            }
            continue;
        }
        if (strcmp(a, "--no-cache") == 0 || strcmp(a, "--cache-stats") == 0) {
            *(a[2] == 'n' ? &no_cache : &cache_stats) = 1;
            i++;
            continue;
        }
        if (strcmp(a, "--cache-dir") == 0 || strncmp(a, "--cache-dir=", 12) == 0) {
            if (a[11] == '=') {
                cache_dir = a + 12;
                i++;
            } else if (i + 1 < argc) {
                cache_dir = argv[i + 1];
                i += 2;
            } else {
                fprintf(stderr, "lockfix scan: option --cache-dir needs a value\n");
                goto out;
            }
            if (!*cache_dir) {
                fprintf(stderr, "lockfix scan: --cache-dir: empty directory name\n");
                goto out;
            }
            continue;
        }
        int r = lf_scan_parse_option(&o, argc, argv, &i, &err);
        if (r < 0) {
            fprintf(stderr, "lockfix scan: %s\n", err);
            goto out;
        }
        if (r == 0) {
            fprintf(stderr, "lockfix scan: unknown option '%s' (see `lockfix scan --help`)\n", a);
            goto out;
        }
    }

    if (baseline_path && !(baseline = lf_baseline_load(baseline_path, &err))) {
        fprintf(stderr, "lockfix: %s\n", err);
        goto out;
    }
    lf_scan scan;
    if (!lf_scan_configure(&scan, &o, &err)) {
        fprintf(stderr, "lockfix: %s\n", err);
        lf_scan_free(&scan);
        goto out;
    }
    const char *env_no_cache = getenv("LOCKFIX_NO_CACHE");
    int use_cache = !no_cache && !(env_no_cache && *env_no_cache && strcmp(env_no_cache, "0") != 0);
    /* The index is read while the walk runs (its key needs only the rules and
     * the configuration): on an unchanged re-scan the two are most of the time. */
    cache_opener opener = {.dir = cache_dir, .scan = &scan};
    int opening = use_cache && pthread_create(&opener.thread, NULL, open_cache, &opener) == 0;
    int walked = lf_scan_walk(&scan, &o, &err);
    if (opening)
        pthread_join(opener.thread, NULL);
    else if (use_cache)
        open_cache(&opener);
    if (!walked) {
        fprintf(stderr, "lockfix: %s\n", err);
        free(opener.warning);
        lf_cache_free(opener.cache);
        lf_scan_free(&scan);
        goto out;
    }
    if (use_cache) {
        warn_cache(opener.warning);
        cache = opener.cache;
        scan.cache = cache;
    }
    lf_scan_run(&scan, o.jobs, 1, 0);
    for (size_t i = 0; i < scan.n_skips; i++)
        fprintf(stderr, "lockfix: skipping %s: %s\n", scan.skips[i].path, scan.skips[i].reason);
    for (size_t i = 0; i < scan.n_files; i++)
        if (scan.files[i].partial_depth)
            fprintf(stderr, "lockfix: %s: %s\n", scan.files[i].walked->path, lf_scan_partial_reason());
    if (write_baseline && !write_baseline_of(write_baseline, &scan)) {
        lf_scan_free(&scan);
        goto out;
    }
    if (baseline)
        apply_baseline(baseline_path, baseline, &scan);
    if (no_witness)
        drop_witnesses(&scan);

    lf_strbuf report;
    lf_strbuf_init(&report);
    lf_report_render(fmt, &report, &scan);
    if (!lf_report_write(output, report.data ? report.data : "", report.len, &err)) {
        fprintf(stderr, "lockfix: %s\n", err);
        rc = LF_EXIT_USAGE;
    } else if (scan.n_analysis_errors) {
        rc = LF_EXIT_USAGE;
    } else {
        lf_report_summary sum;
        lf_report_summarize(&scan, &sum);
        /* After --write-baseline every current finding is recorded: none is new. */
        rc = sum.failing && !write_baseline ? LF_EXIT_FINDINGS : LF_EXIT_OK;
    }
    lf_strbuf_free(&report);
    save_cache(cache, cache_stats);
    lf_scan_free(&scan);
out:
    lf_cache_free(cache);
    lf_baseline_free(baseline);
    free(err);
    lf_scan_options_free(&o);
    return rc;
}
