/* lf_walk: pruning, excludes, symlinks (out of root, loops), FIFOs, order,
 * explicit paths, de-duplication, the same result from any number of threads,
 * deep chains within few descriptors. Runs in a fresh temp directory. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_test.h"
#include "lf_util.h"
#include "lf_walk.h"

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
}

static void mkdirs(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    }
    mkdir(buf, 0755);
}

static void touch(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (slash) {
        *slash = '\0';
        mkdirs(buf);
    }
    write_file(path, "x = 1\n");
}

/* "path\n" per file, in walk order. */
static char *files_of(const lf_walk_result *r) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < r->n_files; i++)
        lf_strbuf_printf(&sb, "%s\n", r->files[i].path);
    return lf_strbuf_detach(&sb);
}

static char *skips_of(const lf_walk_result *r) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    for (size_t i = 0; i < r->n_skipped; i++)
        lf_strbuf_printf(&sb, "%s: %s\n", r->skipped[i].path, r->skipped[i].reason);
    return lf_strbuf_detach(&sb);
}

static void walk_expect(const char *root, const lf_walk_options *o, const char *want_files, const char *want_skips) {
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(lf_walk_add(&r, root, o, &err));
    CHECK(err == NULL);
    char *got = files_of(&r), *skips = skips_of(&r);
    CHECK_STR(got, want_files);
    if (want_skips)
        CHECK_STR(skips, want_skips);
    free(got);
    free(skips);
    free(err);
    lf_walk_free(&r);
}

static void build_tree(void) {
    touch("root/a.py");
    touch("root/b.txt");
    touch("root/c.ts");
    touch("root/z.jsx");
    touch("root/sub/d.py");
    touch("root/sub/deeper/e.mjs");
    static const char *const pruned[] = {
        "root/.git/x.py", "root/node_modules/m.js", "root/build/b.py", "root/build-asan/c.py",
        "root/dist/d.js", "root/__pycache__/x.py", "root/.venv/x.py", "root/env/x.py",
        "root/.tox/x.py", "root/sub/node_modules/n.ts", "root/cmakeout/gen.py",
    };
    for (size_t i = 0; i < sizeof pruned / sizeof pruned[0]; i++)
        touch(pruned[i]);
    touch("root/cmakeout/CMakeCache.txt");
    touch("root/env/pyvenv.cfg");  /* a virtualenv by its marker, whatever its name */
    touch("root/builder/e.py"); /* only exact names and build-* are build directories */
    mkdirs("root/emptydir");      /* no entries: nothing to sort */
    touch("outside/secret.py");
    touch("outside/dir/secret2.py");
    CHECK(symlink("../outside/secret.py", "root/link_out.py") == 0);
    CHECK(symlink("../outside/dir", "root/link_dir") == 0);
    CHECK(symlink(".", "root/loop") == 0);
    CHECK(symlink("..", "root/sub/up") == 0);
    CHECK(symlink("a.py", "root/alias.py") == 0); /* inside the root: still not followed */
    CHECK(mkfifo("root/fifo.py", 0644) == 0);
    CHECK(mkfifo("root/fifo.txt", 0644) == 0); /* not a source name: silently ignored */
}

static const char k_all[] =
    "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/sub/d.py\nroot/sub/deeper/e.mjs\nroot/z.jsx\n";

static void test_default_walk(void) {
    lf_walk_options o = {0};
    walk_expect("root", &o, k_all, "root/fifo.py: not a regular file\n");
    /* A trailing slash and ./ prefixes do not change the display paths' shape. */
    walk_expect("./root/", &o,
                "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/sub/d.py\nroot/sub/deeper/e.mjs\nroot/z.jsx\n", NULL);
}

static void test_dot_root(void) {
    lf_walk_options o = {0};
    CHECK(chdir("root") == 0);
    walk_expect(".", &o, "a.py\nbuilder/e.py\nc.ts\nsub/d.py\nsub/deeper/e.mjs\nz.jsx\n", NULL);
    walk_expect("./", &o, "a.py\nbuilder/e.py\nc.ts\nsub/d.py\nsub/deeper/e.mjs\nz.jsx\n", NULL);
    walk_expect("./sub", &o, "sub/d.py\nsub/deeper/e.mjs\n", NULL);
    walk_expect(".//sub/", &o, "sub/d.py\nsub/deeper/e.mjs\n", NULL);
    walk_expect("./a.py", &o, "a.py\n", NULL);
    CHECK(chdir("..") == 0);
}

static void test_excludes(void) {
    char *ex1[] = {"sub"};
    lf_walk_options o = {.excludes = ex1, .n_excludes = 1};
    walk_expect("root", &o, "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/z.jsx\n", NULL);

    char *ex2[] = {"*.ts", "*.jsx"};
    lf_walk_options o2 = {.excludes = ex2, .n_excludes = 2};
    walk_expect("root", &o2, "root/a.py\nroot/builder/e.py\nroot/sub/d.py\nroot/sub/deeper/e.mjs\n", NULL);

    /* Anchored: relative to the scanned root ... */
    char *ex3[] = {"sub/deeper/**"};
    lf_walk_options o3 = {.excludes = ex3, .n_excludes = 1};
    walk_expect("root", &o3, "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/sub/d.py\nroot/z.jsx\n", NULL);
    /* ... or to the display path. */
    char *ex4[] = {"root/sub/*.py"};
    lf_walk_options o4 = {.excludes = ex4, .n_excludes = 1};
    walk_expect("root", &o4, "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/sub/deeper/e.mjs\nroot/z.jsx\n", NULL);

    /* Trailing '/' names directories only. */
    touch("root2/builder");
    touch("root2/builder.py");
    touch("root2/x/builder/y.py");
    char *ex5[] = {"builder/"};
    lf_walk_options o5 = {.excludes = ex5, .n_excludes = 1};
    walk_expect("root2", &o5, "root2/builder.py\n", NULL);
}

static void test_config_excludes(void) {
    /* Config globs are relative to the config file's directory, whatever is scanned. */
    write_file("root/.lockfix.json", "{}\n");
    char *cex[] = {"sub/*.py"};
    lf_config cfg;
    lf_config_init(&cfg);
    cfg.path = "root/.lockfix.json";
    cfg.exclude = cex;
    cfg.n_exclude = 1;
    lf_walk_options o = {.config = &cfg};
    walk_expect("root/sub", &o, "root/sub/deeper/e.mjs\n", NULL);
    walk_expect("root", &o, "root/a.py\nroot/builder/e.py\nroot/c.ts\nroot/sub/deeper/e.mjs\nroot/z.jsx\n", NULL);
}

static void test_explicit_paths(void) {
    lf_walk_options o = {0};
    /* Named on the command line: scanned even inside a pruned directory. */
    walk_expect("root/build/b.py", &o, "root/build/b.py\n", "");
    walk_expect("root/node_modules", &o, "root/node_modules/m.js\n", "");
    /* ... and even when a glob matches it, unless force_exclude. */
    char *ex[] = {"b.py"};
    lf_walk_options o2 = {.excludes = ex, .n_excludes = 1};
    walk_expect("root/build/b.py", &o2, "root/build/b.py\n", "");
    o2.force_exclude = 1;
    walk_expect("root/build/b.py", &o2, "", "");
    /* A symlink named explicitly is followed; the target is what gets opened. */
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(lf_walk_add(&r, "root/link_out.py", &o, &err));
    CHECK_INT(r.n_files, 1);
    if (r.n_files == 1) {
        CHECK_STR(r.files[0].path, "root/link_out.py");
        char *want = realpath("outside/secret.py", NULL);
        CHECK_STR(r.files[0].open_path, want);
        free(want);
        CHECK_INT(r.files[0].lang, LF_LANG_PYTHON);
        CHECK_INT(r.files[0].size, 6); /* the target's ("x = 1\n"), not the link's */
    }
    lf_walk_free(&r);
    /* Unsupported extension and FIFO named explicitly: reported, not opened. */
    walk_expect("root/b.txt", &o, "",
                "root/b.txt: unsupported file type (not .py .ts .mts .cts .js .mjs .cjs .tsx .jsx)\n");
    walk_expect("root/fifo.py", &o, "", "root/fifo.py: not a regular file\n");
}

static void test_missing_root(void) {
    lf_walk_options o = {0};
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(!lf_walk_add(&r, "no/such/dir", &o, &err));
    CHECK_STR(err, "no/such/dir: No such file or directory");
    free(err);
    err = NULL;
    CHECK(symlink("nowhere", "dangling.py") == 0);
    CHECK(!lf_walk_add(&r, "dangling.py", &o, &err));
    CHECK_STR(err, "dangling.py: broken symbolic link (No such file or directory)");
    free(err);
    lf_walk_free(&r);
}

static void test_dedupe_and_langs(void) {
    lf_walk_options o = {0};
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(lf_walk_add(&r, "root/sub", &o, &err));
    CHECK(lf_walk_add(&r, "root", &o, &err));     /* sub's files are not added twice */
    CHECK(lf_walk_add(&r, "root/a.py", &o, &err)); /* nor a.py */
    CHECK(link("root/c.ts", "root/sub/hard.ts") == 0 || errno == EEXIST);
    char *got = files_of(&r);
    CHECK_STR(got, "root/sub/d.py\nroot/sub/deeper/e.mjs\nroot/a.py\nroot/builder/e.py\nroot/c.ts\nroot/z.jsx\n");
    free(got);
    if (r.n_files == 6) {
        CHECK_INT(r.files[0].lang, LF_LANG_PYTHON);
        CHECK_INT(r.files[1].lang, LF_LANG_TYPESCRIPT);
        CHECK_INT(r.files[5].lang, LF_LANG_TSX);
    }
    /* Each file's size, which orders the scan's work (largest first). */
    for (size_t i = 0; i < r.n_files; i++)
        CHECK_INT(r.files[i].size, 6);
    lf_walk_free(&r);
    /* A hard link is the same file: scanned once. */
    lf_walk_result r2 = {0};
    CHECK(lf_walk_add(&r2, "root/c.ts", &o, &err));
    CHECK(lf_walk_add(&r2, "root/sub/hard.ts", &o, &err));
    CHECK_INT(r2.n_files, 1);
    lf_walk_free(&r2);
    unlink("root/sub/hard.ts");
}

static void test_many_files_sorted(void) {
    /* Enough entries to exercise the growth paths; order is byte order. */
    mkdirs("many");
    for (int i = 299; i >= 0; i--) {
        char name[64];
        snprintf(name, sizeof name, "many/f%03d.py", i);
        write_file(name, "");
    }
    lf_walk_options o = {0};
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(lf_walk_add(&r, "many", &o, &err));
    CHECK_INT(r.n_files, 300);
    for (size_t i = 1; i < r.n_files; i++)
        CHECK(strcmp(r.files[i - 1].path, r.files[i].path) < 0);
    lf_walk_free(&r);
}

static void test_virtualenv_by_marker(void) {
    /* A virtualenv is recognised by pyvenv.cfg, not by its name: a package that
     * happens to be called venv (CPython ships one) is project code. */
    touch("pyroots/venv/__init__.py");
    touch("pyroots/env/lib/site.py");
    touch("pyroots/env/pyvenv.cfg");
    touch("pyroots/.venv/lib/site.py");
    lf_walk_options o = {0};
    walk_expect("pyroots", &o, "pyroots/venv/__init__.py\n", NULL);
}

static char *walk_listing(const char *root, lf_walk_options *o, int jobs) {
    o->jobs = jobs;
    lf_walk_result r = {0};
    char *err = NULL;
    CHECK(lf_walk_add(&r, root, o, &err));
    CHECK(err == NULL);
    free(err);
    char *files = files_of(&r), *skips = skips_of(&r);
    char *both = lf_xasprintf("%s--\n%s", files, skips);
    free(files);
    free(skips);
    lf_walk_free(&r);
    return both;
}

/* Any number of threads lists the same files and skips in the same order, and
 * keeps a file reached twice (a hard link) at the path one thread walking in
 * name order meets first, whichever thread found which. */
static void test_threads_same_result(void) {
    char path[PATH_MAX];
    for (int i = 0; i < 30; i++)
        for (int k = 0; k < 4; k++) {
            snprintf(path, sizeof path, "wide/d%02d/s%d/a.py", i, k);
            touch(path);
            snprintf(path, sizeof path, "wide/d%02d/s%d/b.ts", i, k);
            touch(path);
            snprintf(path, sizeof path, "wide/d%02d/s%d/c.txt", i, k);
            touch(path);
            snprintf(path, sizeof path, "wide/d%02d/s%d/deep/er/e.py", i, k);
            touch(path);
        }
    touch("wide/a/x.py");
    touch("wide/a-b/x.py"); /* "a/x" before "a-b/x" in walk order, after it in byte order */
    touch("wide/d09/s3/CMakeCache.txt");
    touch("wide/d11/node_modules/x.js");
    CHECK(mkfifo("wide/d05/s2/p.py", 0644) == 0);
    CHECK(mkfifo("wide/d17/q.js", 0644) == 0);
    CHECK(mkfifo("wide/a-b/r.py", 0644) == 0);
    CHECK(mkfifo("wide/a/r.py", 0644) == 0);
    touch("wide/d25/s0/h.py");
    CHECK(link("wide/d25/s0/h.py", "wide/d03/s3/h.py") == 0);
    CHECK(link("wide/d25/s0/h.py", "wide/d28/h.py") == 0);

    lf_walk_options o = {0};
    char *one = walk_listing("wide", &o, 1);
    CHECK(strstr(one, "wide/d03/s3/h.py\n") != NULL);
    CHECK(strstr(one, "wide/d25/s0/h.py\n") == NULL && strstr(one, "wide/d28/h.py\n") == NULL);
    CHECK(strstr(one, "wide/d09/s3/") == NULL && strstr(one, "node_modules") == NULL);
    CHECK(strstr(one, "wide/a-b/x.py\nwide/a/x.py\n") != NULL);
    CHECK(strstr(one, "--\nwide/a/r.py: not a regular file\nwide/a-b/r.py: not a regular file\n"
                      "wide/d05/s2/p.py: not a regular file\nwide/d17/q.js: not a regular file\n") != NULL);
    size_t lines = 0;
    for (const char *c = one; *c && strncmp(c, "--\n", 3) != 0; c++)
        lines += *c == '\n';
    CHECK_INT(lines, 30 * 4 * 3 - 3 + 2 + 1); /* a.py b.ts e.py per s-dir, less d09/s3; x.py twice; h.py */
    static const int jobs[] = {2, 3, 4, LF_WALK_MAX_THREADS, 1000};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++)
        for (int rep = 0; rep < 5; rep++) {
            char *many = walk_listing("wide", &o, jobs[j]);
            CHECK_STR(many, one);
            free(many);
        }
    char *ex[] = {"s2", "deep/"};
    lf_walk_options ox = {.excludes = ex, .n_excludes = 2};
    char *ex_one = walk_listing("wide", &ox, 1);
    CHECK(strstr(ex_one, "/s2/") == NULL && strstr(ex_one, "/deep/") == NULL && strstr(ex_one, "wide/d00/s1/a.py") != NULL);
    for (int rep = 0; rep < 5; rep++) {
        char *ex_many = walk_listing("wide", &ox, 4);
        CHECK_STR(ex_many, ex_one);
        free(ex_many);
    }
    free(ex_one);
    free(one);
}

/* A chain of directories far deeper than the process may hold descriptors:
 * each level is left once its last entry is entered, so the walk needs a
 * handful of descriptors, not one per level, with one thread or several. */
static void test_deep_chain_few_descriptors(void) {
    enum { DEPTH = 600 };
    mkdirs("chain");
    int fd = open("chain", O_RDONLY | O_DIRECTORY);
    CHECK(fd >= 0);
    for (int i = 0; i < DEPTH && fd >= 0; i++) {
        CHECK(mkdirat(fd, "d", 0755) == 0);
        int next = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = next;
    }
    int leaf = fd >= 0 ? openat(fd, "bottom.py", O_WRONLY | O_CREAT, 0644) : -1;
    CHECK(leaf >= 0);
    if (leaf >= 0)
        close(leaf);
    if (fd >= 0)
        close(fd);
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
    struct rlimit few = {64, old.rlim_max};
    CHECK(setrlimit(RLIMIT_NOFILE, &few) == 0);
    lf_walk_options o = {0};
    for (int jobs = 1; jobs <= 4; jobs += 3) {
        lf_walk_result r = {0};
        char *err = NULL;
        CHECK(lf_walk_add(&r, "chain", &o, &err));
        CHECK_INT(r.n_files, 1);
        CHECK_INT(r.n_skipped, 0);
        if (r.n_files == 1) {
            size_t n = strlen(r.files[0].path);
            CHECK_INT(n, strlen("chain") + 2 * DEPTH + strlen("/bottom.py"));
        }
        free(err);
        lf_walk_free(&r);
        o.jobs = jobs + 3;
    }
    CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
}

int main(void) {
    /* A walk that blocked on the FIFO would hang: fail loudly instead. */
    alarm(60);
    char tmpl[] = "/tmp/lf_test_walk.XXXXXX";
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 2;
    }
    if (chdir(tmpl) != 0)
        return 2;
    build_tree();
    test_default_walk();
    test_dot_root();
    test_excludes();
    test_config_excludes();
    test_explicit_paths();
    test_missing_root();
    test_dedupe_and_langs();
    test_many_files_sorted();
    test_virtualenv_by_marker();
    test_threads_same_result();
    test_deep_chain_few_descriptors();
    char *cmd = lf_xasprintf("rm -rf '%s'", tmpl);
    if (chdir("/") != 0 || system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", tmpl);
    free(cmd);
    TEST_MAIN_END();
}
