#include "lf_scan.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lf_cache.h"
#include "lf_deps.h"
#include "lf_engine.h"
#include "lf_util.h"

const char lf_scan_options_help[] =
    "  --select RULES       only these rules (ids, id prefixes like LF1, or names;\n"
    "                       comma-separated, repeatable; replaces the config's \"select\")\n"
    "  --ignore RULES       never these rules (same forms; replaces the config's \"ignore\")\n"
    "  --exclude GLOB       skip paths matching GLOB (repeatable): '*' and '?' stay within\n"
    "                       a path component, '**' crosses them; a glob without '/' matches\n"
    "                       any component; a trailing '/' matches directories only\n"
    "  --force-exclude      apply --exclude and config globs to paths named on the command line\n"
    "  --config FILE        read this configuration instead of discovering .lockfix.json\n"
    "  --no-config          ignore any .lockfix.json\n"
    "  --rules DIR          also load the rule files (*.json) in DIR (repeatable)\n"
    "  --fail-on LEVEL      error, warning (default) or info: the lowest severity that\n"
    "                       makes the exit status 1\n"
    "  -j, --jobs N         worker threads (default: one per CPU)\n";

const char *lf_skip_kind_name(lf_skip_kind k) {
    switch (k) {
    case LF_SKIP_NOT_REGULAR: return "not-regular";
    case LF_SKIP_UNSUPPORTED: return "unsupported";
    case LF_SKIP_UNREADABLE: return "unreadable";
    case LF_SKIP_BINARY: return "binary";
    case LF_SKIP_BAD_UTF8: return "invalid-utf8";
    case LF_SKIP_BAD_ENCODING: return "bad-encoding";
    case LF_SKIP_TOO_LARGE: return "too-large";
    default: return "analysis-error";
    }
}

/* ---- option parsing ---- */

static void push(char ***list, size_t *n, const char *s) {
    *list = lf_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = lf_xstrdup(s);
}

/* "a, b,,c" -> a b c */
static void push_comma_list(char ***list, size_t *n, const char *value) {
    const char *p = value;
    while (*p) {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        const char *s = p;
        while (*p && *p != ',')
            p++;
        const char *e = p;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > s) {
            char *item = lf_xstrndup(s, (size_t)(e - s));
            push(list, n, item);
            free(item);
        }
    }
}

/* Match "--name", "--name=value" or "--name value"; *value set when it takes one. */
static int match_opt(const char *name, int takes_value, int argc, char **argv, int *i, const char **value,
                     char **err) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '\0') {
        if (!takes_value) {
            (*i)++;
            return 1;
        }
        if (*i + 1 >= argc) {
            *err = lf_xasprintf("option %s needs a value", name);
            return -1;
        }
        *value = argv[*i + 1];
        *i += 2;
        return 1;
    }
    if (a[n] == '=' && takes_value) {
        *value = a + n + 1;
        (*i)++;
        return 1;
    }
    return 0;
}

static int parse_jobs(const char *v, int *out, char **err) {
    char *end;
    long n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || n < 0 || n > 1024) {
        *err = lf_xasprintf("--jobs: expected a number from 0 to 1024, got \"%s\"", v);
        return -1;
    }
    *out = (int)n;
    return 1;
}

int lf_scan_parse_option(lf_scan_options *o, int argc, char **argv, int *i, char **err) {
    const char *v = NULL;
    int r;
    *err = NULL;
    if ((r = match_opt("--exclude", 1, argc, argv, i, &v, err)) != 0) {
        if (r > 0)
            push(&o->excludes, &o->n_excludes, v);
        return r;
    }
    if ((r = match_opt("--select", 1, argc, argv, i, &v, err)) != 0) {
        if (r > 0) {
            push_comma_list(&o->select, &o->n_select, v);
            o->select_given = 1;
        }
        return r;
    }
    if ((r = match_opt("--ignore", 1, argc, argv, i, &v, err)) != 0) {
        if (r > 0) {
            push_comma_list(&o->ignore, &o->n_ignore, v);
            o->ignore_given = 1;
        }
        return r;
    }
    if ((r = match_opt("--rules", 1, argc, argv, i, &v, err)) != 0) {
        if (r > 0)
            push(&o->rule_dirs, &o->n_rule_dirs, v);
        return r;
    }
    if ((r = match_opt("--config", 1, argc, argv, i, &v, err)) != 0) {
        if (r > 0) {
            free(o->config_path);
            o->config_path = lf_xstrdup(v);
        }
        return r;
    }
    if ((r = match_opt("--no-config", 0, argc, argv, i, &v, err)) != 0) {
        o->no_config = 1;
        return r;
    }
    if ((r = match_opt("--force-exclude", 0, argc, argv, i, &v, err)) != 0) {
        o->force_exclude = 1;
        return r;
    }
    if ((r = match_opt("--fail-on", 1, argc, argv, i, &v, err)) != 0) {
        if (r < 0)
            return r;
        if (!lf_severity_parse(v, &o->fail_on) || o->fail_on == LF_SEV_NONE) {
            *err = lf_xasprintf("--fail-on: expected error, warning or info, got \"%s\"", v);
            return -1;
        }
        o->fail_on_given = 1;
        return 1;
    }
    if ((r = match_opt("--jobs", 1, argc, argv, i, &v, err)) != 0)
        return r < 0 ? r : parse_jobs(v, &o->jobs, err);
    if (strcmp(argv[*i], "-j") == 0) {
        if (*i + 1 >= argc) {
            *err = lf_xstrdup("option -j needs a value");
            return -1;
        }
        *i += 2;
        return parse_jobs(argv[*i - 1], &o->jobs, err);
    }
    if (strncmp(argv[*i], "-j", 2) == 0 && argv[*i][2] >= '0' && argv[*i][2] <= '9') {
        (*i)++;
        return parse_jobs(argv[*i - 1] + 2, &o->jobs, err);
    }
    return 0;
}

static void free_list(char **list, size_t n) {
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void lf_scan_options_free(lf_scan_options *o) {
    free_list(o->paths, o->n_paths);
    free_list(o->excludes, o->n_excludes);
    free_list(o->select, o->n_select);
    free_list(o->ignore, o->n_ignore);
    free_list(o->rule_dirs, o->n_rule_dirs);
    free(o->config_path);
    memset(o, 0, sizeof *o);
}

/* ---- prepare ---- */

static int check_cli_selectors(const char *opt, char **list, size_t n, const lf_ruleset *rules, char **err) {
    for (size_t i = 0; i < n; i++) {
        int known = 0;
        for (size_t r = 0; r < rules->n_rules && !known; r++)
            known = lf_config_selector_matches(list[i], rules->rules[r]);
        if (!known) {
            *err = lf_xasprintf("%s: unknown rule selector \"%s\" (see `lockfix rules`)", opt, list[i]);
            return 0;
        }
    }
    return 1;
}

static void replace_list(char ***dst, size_t *n_dst, char **src, size_t n_src) {
    free_list(*dst, *n_dst);
    *dst = lf_xcalloc(n_src ? n_src : 1, sizeof **dst);
    for (size_t i = 0; i < n_src; i++)
        (*dst)[i] = lf_xstrdup(src[i]);
    *n_dst = n_src;
}

int lf_scan_prepare(lf_scan *s, const lf_scan_options *o, char **err) {
    return lf_scan_configure(s, o, err) && lf_scan_walk(s, o, err);
}

int lf_scan_configure(lf_scan *s, const lf_scan_options *o, char **err) {
    memset(s, 0, sizeof *s);
    /* The result cache trusts a file's stat only when it is older than this
     * (lf_cache.h): taken before the walk stats any file. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    s->started_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    lf_config_init(&s->config);
    *err = NULL;
    if (!lf_ruleset_load_builtin(&s->rules, err))
        return 0;
    for (size_t i = 0; i < o->n_rule_dirs; i++)
        if (!lf_ruleset_load_dir(&s->rules, o->rule_dirs[i], err))
            return 0;

    if (!o->no_config) {
        char *path = o->config_path ? lf_xstrdup(o->config_path)
                                    : lf_config_discover(o->n_paths ? o->paths[0] : ".");
        if (path) {
            int ok = lf_config_load(path, &s->config, err) && lf_config_check_rules(&s->config, &s->rules, err);
            free(path);
            if (!ok)
                return 0;
        }
    }
    if (o->select_given) {
        if (!check_cli_selectors("--select", o->select, o->n_select, &s->rules, err))
            return 0;
        replace_list(&s->config.select, &s->config.n_select, o->select, o->n_select);
    }
    if (o->ignore_given) {
        if (!check_cli_selectors("--ignore", o->ignore, o->n_ignore, &s->rules, err))
            return 0;
        replace_list(&s->config.ignore, &s->config.n_ignore, o->ignore, o->n_ignore);
    }
    if (o->fail_on_given)
        s->config.fail_on = o->fail_on;
    return 1;
}

int lf_scan_walk(lf_scan *s, const lf_scan_options *o, char **err) {
    *err = NULL;
    lf_walk_options wo = {
        .excludes = o->excludes, .n_excludes = o->n_excludes, .config = &s->config,
        .force_exclude = o->force_exclude,
        /* An unchanged cached re-scan is mostly this walk's syscalls. */
        .jobs = o->jobs > 0 ? o->jobs : lf_scan_default_jobs(),
    };
    static char *const k_default_paths[] = {"."};
    char *const *paths = o->n_paths ? o->paths : k_default_paths;
    size_t n_paths = o->n_paths ? o->n_paths : 1;
    for (size_t i = 0; i < n_paths; i++)
        if (!lf_walk_add(&s->walk, paths[i], &wo, err))
            return 0;
    return 1;
}

/* ---- run ---- */

typedef struct scan_pool {
    lf_scan *scan;
    lf_engine_options eng_opts;
    int keep_sources;
    const size_t *order; /* file indexes, largest file first */
    atomic_size_t next;  /* into order */
} scan_pool;

static lf_skip_kind skip_kind_of(lf_load_status st) {
    switch (st) {
    case LF_LOAD_BINARY: return LF_SKIP_BINARY;
    case LF_LOAD_BAD_UTF8: return LF_SKIP_BAD_UTF8;
    case LF_LOAD_BAD_ENCODING: return LF_SKIP_BAD_ENCODING;
    case LF_LOAD_NOT_REGULAR: return LF_SKIP_NOT_REGULAR;
    case LF_LOAD_TOO_LARGE: return LF_SKIP_TOO_LARGE;
    default: return LF_SKIP_UNREADABLE;
    }
}

/* "path: binary file (NUL byte), skipped" -> "binary file (NUL byte)": the
 * reporters print the path themselves. */
static char *bare_reason(const char *msg, const char *path) {
    if (!msg)
        return lf_xstrdup("cannot be read");
    size_t n = strlen(path);
    if (strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
        msg += n + 2;
    size_t len = strlen(msg);
    static const char tail[] = ", skipped";
    if (len >= sizeof tail - 1 && strcmp(msg + len - (sizeof tail - 1), tail) == 0)
        len -= sizeof tail - 1;
    return lf_xstrndup(msg, len);
}

/* Findings borrow the path from their source, and reporters print source lines. */
static void keep_or_free_source(scan_pool *p, lf_scan_file *f) {
    if (f->n_findings || p->keep_sources)
        f->has_source = 1;
    else
        lf_source_free(&f->src);
}

static void analyze_one(scan_pool *p, lf_engine *eng, size_t i) {
    lf_scan_file *f = &p->scan->files[i];
    const lf_walk_file *w = f->walked;
    lf_cache *cache = p->scan->cache;
    lf_cache_probe_result probe = cache ? lf_cache_probe(cache, i, f) : LF_CACHE_ABSENT;
    if (probe == LF_CACHE_HIT)
        return;
    char *err = NULL;
    lf_load_status st = lf_source_load(w->open_path, w->lang, &f->src, &err);
    if (st != LF_LOAD_OK) {
        f->skipped = 1;
        f->skip_kind = skip_kind_of(st);
        f->skip_reason = bare_reason(err, w->open_path);
        free(err);
        return;
    }
    if (strcmp(f->src.path, w->path) != 0) { /* report the name the user gave */
        free(f->src.path);
        f->src.path = lf_xstrdup(w->path);
    }
    if (probe == LF_CACHE_VERIFY && lf_cache_verify(cache, i, f)) {
        keep_or_free_source(p, f);
        return;
    }
    /* What the fix generators look at around the file: the cache keeps the
     * result only with it (lf_deps.h). */
    lf_deps deps = {0};
    if (cache)
        lf_deps_begin(&deps);
    int failed = lf_engine_analyze(eng, &f->src, &f->findings, &f->n_findings, &err) != 0;
    lf_deps_end();
    if (failed) {
        lf_deps_free(&deps);
        f->skipped = 1;
        f->skip_kind = LF_SKIP_ANALYSIS_ERROR;
        f->skip_reason = bare_reason(err, w->path);
        free(err);
        for (size_t k = 0; k < f->n_findings; k++)
            lf_finding_free_contents(&f->findings[k]);
        free(f->findings);
        f->findings = NULL;
        f->n_findings = 0;
        lf_source_free(&f->src);
        return;
    }
    f->analyzed = 1;
    f->partial_depth = lf_engine_partial_depth(eng);
    if (cache)
        lf_cache_record(cache, i, f, &deps);
    lf_deps_free(&deps);
    keep_or_free_source(p, f);
}

static void *worker(void *arg) {
    scan_pool *p = arg;
    lf_engine *eng = lf_engine_new(&p->eng_opts);
    for (;;) {
        size_t k = atomic_fetch_add(&p->next, 1);
        if (k >= p->scan->n_files)
            break;
        analyze_one(p, eng, p->order[k]);
    }
    lf_engine_free(eng);
    return NULL;
}

int lf_scan_default_jobs(void) {
    /* CPUs this process may run on (a CI container or taskset may allow fewer
     * than are online). */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

const char *lf_scan_partial_reason(void) {
    return "partially analyzed: syntax nested more than 1000 levels deep; rule patterns starting "
           "below that depth were not matched";
}

typedef struct size_rank {
    uint64_t size;
    size_t index;
} size_rank;

static int size_rank_cmp(const void *a, const void *b) {
    const size_rank *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Largest file first (ties in walk order): a big file taken last would leave
 * the other workers idle while it finishes alone, so it is started first and
 * the small ones fill in around it (longest-processing-time-first). Results
 * stay stored by walk index, so reports do not depend on this order. */
static size_t *largest_first(const lf_walk_result *w) {
    size_rank *rank = lf_xcalloc(w->n_files ? w->n_files : 1, sizeof *rank);
    for (size_t i = 0; i < w->n_files; i++) {
        rank[i].size = w->files[i].size;
        rank[i].index = i;
    }
    if (w->n_files > 1)
        qsort(rank, w->n_files, sizeof *rank, size_rank_cmp);
    size_t *order = lf_xcalloc(w->n_files ? w->n_files : 1, sizeof *order);
    for (size_t i = 0; i < w->n_files; i++)
        order[i] = rank[i].index;
    free(rank);
    return order;
}

static void add_skip(lf_scan *s, const char *path, lf_skip_kind kind, const char *reason) {
    s->skips = lf_xrealloc(s->skips, (s->n_skips + 1) * sizeof *s->skips);
    s->skips[s->n_skips].path = lf_xstrdup(path);
    s->skips[s->n_skips].kind = kind;
    s->skips[s->n_skips].reason = lf_xstrdup(reason);
    s->n_skips++;
}

void lf_scan_run(lf_scan *s, int jobs, int want_fixes, int keep_sources) {
    s->n_files = s->walk.n_files;
    s->files = lf_xcalloc(s->n_files ? s->n_files : 1, sizeof *s->files);
    lf_prefault(s->files, s->n_files * sizeof *s->files);
    for (size_t i = 0; i < s->n_files; i++)
        s->files[i].walked = &s->walk.files[i];
    lf_cache_begin_run(s->cache, s->n_files);

    scan_pool pool = {.scan = s, .keep_sources = keep_sources};
    pool.eng_opts.rules = &s->rules;
    pool.eng_opts.config = &s->config;
    pool.eng_opts.want_fixes = want_fixes;
    pool.eng_opts.use_prefilter = 1;
    pool.eng_opts.fix_runtime_dir = s->fix_runtime_dir;
    size_t *order = largest_first(&s->walk);
    pool.order = order;
    atomic_init(&pool.next, 0);

    if (jobs <= 0)
        jobs = lf_scan_default_jobs();
    if ((size_t)jobs > s->n_files)
        jobs = (int)s->n_files;
    /* Workers share one build of the combined queries (tens of milliseconds of
     * query analysis each), made by the first worker that needs it. */
    lf_engine_shared *shared = jobs > 1 ? lf_engine_shared_new(&s->rules) : NULL;
    pool.eng_opts.shared = shared;
    if (jobs <= 1) {
        worker(&pool);
    } else {
        pthread_t *threads = lf_xcalloc((size_t)jobs, sizeof *threads);
        int started = 0;
        for (; started < jobs; started++)
            if (pthread_create(&threads[started], NULL, worker, &pool) != 0)
                break;
        if (started == 0)
            worker(&pool); /* no threads available: still finish the scan */
        for (int t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
        free(threads);
    }
    lf_engine_shared_free(shared);
    free(order);

    for (size_t i = 0; i < s->walk.n_skipped; i++) {
        const lf_walk_skip *w = &s->walk.skipped[i];
        lf_skip_kind kind = w->kind == LF_WALK_UNSUPPORTED   ? LF_SKIP_UNSUPPORTED
                            : w->kind == LF_WALK_NOT_REGULAR ? LF_SKIP_NOT_REGULAR
                                                             : LF_SKIP_UNREADABLE;
        add_skip(s, w->path, kind, w->reason);
    }
    for (size_t i = 0; i < s->n_files; i++) {
        lf_scan_file *f = &s->files[i];
        if (f->skipped) {
            add_skip(s, f->walked->path, f->skip_kind, f->skip_reason);
            if (f->skip_kind == LF_SKIP_ANALYSIS_ERROR)
                s->n_analysis_errors++;
        }
        if (f->partial_depth)
            s->n_partial++;
    }
}

void lf_scan_free(lf_scan *s) {
    for (size_t i = 0; i < s->n_files; i++) {
        lf_scan_file *f = &s->files[i];
        for (size_t k = 0; k < f->n_findings; k++)
            lf_finding_free_contents(&f->findings[k]);
        free(f->findings);
        free(f->skip_reason);
        if (f->has_source)
            lf_source_free(&f->src);
    }
    free(s->files);
    for (size_t i = 0; i < s->n_skips; i++) {
        free(s->skips[i].path);
        free(s->skips[i].reason);
    }
    free(s->skips);
    lf_walk_free(&s->walk);
    lf_config_free(&s->config);
    lf_ruleset_free(&s->rules);
    memset(s, 0, sizeof *s);
}
