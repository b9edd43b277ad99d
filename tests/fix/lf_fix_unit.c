/* Unit tests of the fix engine (lf_fix) and the unified diff writer (lf_diff),
 * driven by synthetic rules and edits so every refusal path is exercised. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lf_diff.h"
#include "lf_fix.h"
#include "lf_rule.h"
#include "lf_source.h"
#include "lf_util.h"

static int failures;

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                                  \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

#define CHECK_STR(got, want)                                                                                           \
    do {                                                                                                               \
        const char *g_ = (got), *w_ = (want);                                                                          \
        if (!g_ || strcmp(g_, w_) != 0) {                                                                              \
            fprintf(stderr, "%s:%d: got:\n%s\n--- want:\n%s\n", __FILE__, __LINE__, g_ ? g_ : "(null)", w_);          \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static lf_rule rule_a = {.id = "LF901", .fix_safety = LF_FIX_SAFE};
static lf_rule rule_b = {.id = "LF902", .fix_safety = LF_FIX_SAFE};
static lf_rule rule_suggest = {.id = "LF903", .fix_safety = LF_FIX_SUGGESTION};

static lf_finding finding(lf_rule *rule, uint32_t line) {
    lf_finding f;
    memset(&f, 0, sizeof f);
    f.rule = rule;
    f.path = "pkg/mod.py";
    f.line = line;
    f.col = 1;
    f.severity = LF_SEV_WARNING;
    f.fix = lf_xcalloc(1, sizeof *f.fix);
    f.fix->title = lf_xstrdup("test fix");
    return f;
}

static void free_findings(lf_finding *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        lf_finding_free_contents(&f[i]);
}

static const char k_module[] = "import os\n"
                               "\n"
                               "def f(path):\n"
                               "    tmp = path + \".tmp\"\n"
                               "    return tmp\n";

/* ---- lf_fix_apply ---- */

static void test_applies_sorted_and_dedups(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    lf_finding f[3] = {finding(&rule_b, 4), finding(&rule_a, 1), finding(&rule_a, 1)};
    const char *tmp_at = strstr(k_module, "tmp = ");
    uint32_t t = (uint32_t)(tmp_at - k_module);
    lf_fix_add_edit(f[0].fix, t, t + 3, "temp");             /* later edit listed first */
    lf_fix_add_edit(f[1].fix, 0, 0, "import tempfile\n");     /* same insertion offered twice */
    lf_fix_add_edit(f[2].fix, 0, 0, "import tempfile\n");
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 3, &out, &err) == 1);
    CHECK_STR(out.text, "import tempfile\nimport os\n\ndef f(path):\n    temp = path + \".tmp\"\n    return tmp\n");
    CHECK(out.n_fixed == 3);
    CHECK(out.n_rule_ids == 2);
    CHECK_STR(out.rule_ids[0], "LF901");
    CHECK_STR(out.rule_ids[1], "LF902");
    lf_fixed_file_free(&out);
    free_findings(f, 3);
    lf_source_free(&src);
}

static void test_refuses_overlap(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    uint32_t t = (uint32_t)(strstr(k_module, "tmp = ") - k_module);
    lf_finding f[2] = {finding(&rule_a, 4), finding(&rule_b, 4)};
    lf_fix_add_edit(f[0].fix, t, t + 9, "x = path");
    lf_fix_add_edit(f[1].fix, t + 6, t + 10, "path");
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 2, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fixes: edits of LF901 (line 4) and LF902 (line 4) overlap");
    CHECK(out.text == NULL);
    free(err);
    free_findings(f, 2);

    /* An insertion strictly inside another edit's range overlaps too. */
    lf_finding g[2] = {finding(&rule_a, 4), finding(&rule_b, 4)};
    lf_fix_add_edit(g[0].fix, t, t + 9, "x = path");
    lf_fix_add_edit(g[1].fix, t + 2, t + 2, "mp");
    err = NULL;
    CHECK(lf_fix_apply(&src, g, 2, &out, &err) == 0);
    CHECK(err && strstr(err, "LF901") && strstr(err, "LF902") && strstr(err, "overlap") && strstr(err, "pkg/mod.py"));
    free(err);
    free_findings(g, 2);

    /* Two different insertions at one point: their order would be a guess. */
    lf_finding h[2] = {finding(&rule_a, 1), finding(&rule_b, 1)};
    lf_fix_add_edit(h[0].fix, 0, 0, "import a\n");
    lf_fix_add_edit(h[1].fix, 0, 0, "import b\n");
    err = NULL;
    CHECK(lf_fix_apply(&src, h, 2, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fixes: edits of LF901 (line 1) and LF902 (line 1) overlap");
    free(err);
    free_findings(h, 2);

    /* Within one fix. */
    lf_finding k[1] = {finding(&rule_a, 4)};
    lf_fix_add_edit(k[0].fix, t, t + 5, "a");
    lf_fix_add_edit(k[0].fix, t + 4, t + 6, "b");
    err = NULL;
    CHECK(lf_fix_apply(&src, k, 1, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fix of LF901: two of its edits overlap (lines 4 and 4)");
    free(err);
    free_findings(k, 1);
    lf_source_free(&src);
}

static void test_adjacent_edits_are_not_overlap(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    uint32_t t = (uint32_t)(strstr(k_module, "tmp = ") - k_module);
    lf_finding f[2] = {finding(&rule_a, 4), finding(&rule_b, 4)};
    lf_fix_add_edit(f[0].fix, t, t + 3, "tmp2");
    lf_fix_add_edit(f[1].fix, t + 3, t + 3, "_x"); /* insertion at the end of the other's range */
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 2, &out, &err) == 1);
    CHECK(out.text && strstr(out.text, "    tmp2_x = path"));
    lf_fixed_file_free(&out);
    free_findings(f, 2);
    lf_source_free(&src);
}

static void test_refuses_broken_parse(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    uint32_t r = (uint32_t)(strstr(k_module, "return tmp") - k_module);
    lf_finding f[2] = {finding(&rule_a, 1), finding(&rule_b, 5)};
    lf_fix_add_edit(f[0].fix, 0, 0, "import sys\n");            /* fine on its own */
    lf_fix_add_edit(f[1].fix, r, r + 10, "return (tmp");        /* unbalanced paren */
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 2, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fix of LF902 (line 5): the fixed file would not parse");
    CHECK(out.text == NULL);
    free(err);
    free_findings(f, 2);

    /* Each fine alone ("import os;"), broken together ("import os;;"): both are named. */
    lf_finding g[2] = {finding(&rule_a, 1), finding(&rule_b, 1)};
    lf_fix_add_edit(g[0].fix, 0, 9, "import os;");
    lf_fix_add_edit(g[1].fix, 9, 9, ";");
    err = NULL;
    CHECK(lf_fix_apply(&src, g, 2, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fixes of LF901, LF902: together they leave the file unparsable");
    free(err);
    free_findings(g, 2);
    lf_source_free(&src);
}

static void test_refuses_file_that_does_not_parse(void) {
    static const char broken[] = "def f(:\n    pass\n";
    lf_source src;
    lf_source_from_text(&src, "pkg/bad.py", LF_LANG_PYTHON, broken, sizeof broken - 1);
    lf_finding f[1] = {finding(&rule_a, 1)};
    lf_fix_add_edit(f[0].fix, 0, 0, "# x\n");
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 1, &out, &err) == 0);
    CHECK_STR(err, "pkg/bad.py: refusing fixes: the file does not parse cleanly before any fix");
    free(err);
    free_findings(f, 1);
    lf_source_free(&src);
}

static void test_ignores_unsafe_and_fixless(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    lf_finding f[2] = {finding(&rule_suggest, 1), finding(&rule_a, 1)};
    lf_fix_add_edit(f[0].fix, 0, 0, "BROKEN(\n");
    lf_fix_free(f[1].fix);
    f[1].fix = NULL;
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 2, &out, &err) == 1);
    CHECK(out.text == NULL && out.n_fixed == 0);
    lf_fixed_file_free(&out);
    free_findings(f, 2);
    lf_source_free(&src);
}

static void test_rejects_edit_outside_file_and_bad_new_files(void) {
    lf_source src;
    lf_source_from_text(&src, "pkg/mod.py", LF_LANG_PYTHON, k_module, sizeof k_module - 1);
    lf_finding f[1] = {finding(&rule_a, 2)};
    lf_fix_add_edit(f[0].fix, 10, 4000, "x");
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 1, &out, &err) == 0);
    CHECK_STR(err, "pkg/mod.py: refusing fix of LF901 (line 2): edit [10, 4000) lies outside the file");
    free(err);
    free_findings(f, 1);

    static const char *const bad[] = {"../lockrt.py", "/etc/x", "a//b", "./x", "a/", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lf_finding g[1] = {finding(&rule_a, 1)};
        lf_fix_add_edit(g[0].fix, 0, 0, "import lockrt\n");
        g[0].fix->new_files = lf_xcalloc(1, sizeof *g[0].fix->new_files);
        g[0].fix->new_files[0].path = lf_xstrdup(bad[i]);
        g[0].fix->new_files[0].content = lf_xstrdup("X = 1\n");
        g[0].fix->n_new_files = 1;
        err = NULL;
        CHECK(lf_fix_apply(&src, g, 1, &out, &err) == 0);
        CHECK(err && strstr(err, "not a plain relative path") && strstr(err, "LF901"));
        free(err);
        free_findings(g, 1);
    }

    /* Good new files: deduplicated and sorted. */
    lf_finding h[2] = {finding(&rule_a, 1), finding(&rule_b, 1)};
    for (int i = 0; i < 2; i++) {
        h[i].fix->new_files = lf_xcalloc(2, sizeof *h[i].fix->new_files);
        h[i].fix->new_files[0].path = lf_xstrdup("vendor/lockrt.py");
        h[i].fix->new_files[0].content = lf_xstrdup("X = 1\n");
        h[i].fix->new_files[1].path = lf_xstrdup(i ? "b.py" : "a.py");
        h[i].fix->new_files[1].content = lf_xstrdup("Y = 2\n");
        h[i].fix->n_new_files = 2;
    }
    err = NULL;
    CHECK(lf_fix_apply(&src, h, 2, &out, &err) == 1);
    CHECK(out.n_new_files == 3);
    if (out.n_new_files == 3) {
        CHECK_STR(out.new_files[0].path, "a.py");
        CHECK_STR(out.new_files[1].path, "b.py");
        CHECK_STR(out.new_files[2].path, "vendor/lockrt.py");
    }
    lf_fixed_file_free(&out);
    free_findings(h, 2);
    lf_source_free(&src);
}

/* ---- lf_diff ---- */

static void test_diff_shapes(void) {
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    lf_diff_file(&sb, "a.py", "x\n", 2, "x\n", 2);
    CHECK(sb.len == 0);

    const char *old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n";
    const char *new1 = "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\nnew\n18\n19\n20\n";
    lf_diff_file(&sb, "pkg/a.py", old, strlen(old), new1, strlen(new1));
    CHECK_STR(sb.data, "--- a/pkg/a.py\n+++ b/pkg/a.py\n"
                       "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
                       "@@ -15,6 +15,7 @@\n 15\n 16\n 17\n+new\n 18\n 19\n 20\n");
    lf_strbuf_free(&sb);

    /* Changes 6 lines apart share one hunk (contexts touch). */
    const char *new2 = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\neleven\n13\n14\n15\n16\n17\n18\n19\n20\n";
    lf_diff_file(&sb, "a.py", old, strlen(old), new2, strlen(new2));
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n"
                       "@@ -2,14 +2,14 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n 11\n-12\n+eleven\n 13\n 14\n 15\n");
    lf_strbuf_free(&sb);

    /* Missing newline at the end, on either side. */
    lf_diff_file(&sb, "a.py", "a\nb", 3, "a\nc", 3);
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
                       "\\ No newline at end of file\n");
    lf_strbuf_free(&sb);
    lf_diff_file(&sb, "a.py", "a\nb", 3, "a\nb\n", 4);
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
    lf_strbuf_free(&sb);
    lf_diff_file(&sb, "a.py", "a\n", 2, "z\na\n", 4);
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n+z\n a\n");
    lf_strbuf_free(&sb);
    lf_diff_file(&sb, "a.py", "", 0, "z\n", 2);
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n+z\n");
    lf_strbuf_free(&sb);
    lf_diff_file(&sb, "a.py", "1\n2\n3\n4\n5\n", 10, "1\n2\n3\n4\n", 8);
    CHECK_STR(sb.data, "--- a/a.py\n+++ b/a.py\n@@ -2,4 +2,3 @@\n 2\n 3\n 4\n-5\n");
    lf_strbuf_free(&sb);

    lf_diff_new_file(&sb, "pkg/lib/lockrt.py", "A = 1\nB = 2", 11);
    CHECK_STR(sb.data, "--- /dev/null\n+++ b/pkg/lib/lockrt.py\n@@ -0,0 +1,2 @@\n+A = 1\n+B = 2\n"
                       "\\ No newline at end of file\n");
    lf_strbuf_free(&sb);

    char *p = lf_diff_display_path("./././x/y.py");
    CHECK_STR(p, "x/y.py");
    free(p);
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd)) {
        char *abs = lf_xasprintf("%s/sub/z.py", cwd);
        p = lf_diff_display_path(abs);
        CHECK_STR(p, "sub/z.py");
        free(p);
        free(abs);
    }
}

/* The diff of a random edit script reproduces the new text when replayed. */
static void test_diff_replays(void) {
    unsigned seed = 12345;
    for (int round = 0; round < 200; round++) {
        lf_strbuf a, b;
        lf_strbuf_init(&a);
        lf_strbuf_init(&b);
        int n = 1 + (int)((seed = seed * 1103515245 + 12345) >> 16) % 40;
        for (int i = 0; i < n; i++) {
            unsigned r = (seed = seed * 1103515245 + 12345) >> 16;
            char line[16];
            snprintf(line, sizeof line, "l%u\n", r % 7);
            lf_strbuf_puts(&a, line);
            if (r % 5 == 0)
                continue; /* deleted */
            if (r % 5 == 1)
                lf_strbuf_puts(&b, "inserted\n");
            lf_strbuf_puts(&b, line);
        }
        lf_strbuf d;
        lf_strbuf_init(&d);
        lf_diff_file(&d, "f", a.data, a.len, b.data ? b.data : "", b.len);
        /* Replay: walk hunks, copying untouched old lines. */
        lf_strbuf out;
        lf_strbuf_init(&out);
        const char *op = a.data;
        size_t old_line = 1;
        const char *q = d.len ? strstr(d.data, "@@") : NULL;
        while (q && *q) {
            size_t os = 0, ol = 1, ns = 0, nl = 1;
            if (sscanf(q, "@@ -%zu,%zu +%zu,%zu @@", &os, &ol, &ns, &nl) < 2) {
                sscanf(q, "@@ -%zu +%zu", &os, &ns);
            }
            size_t first = ol == 0 ? os + 1 : os;
            while (old_line < first) {
                const char *e = strchr(op, '\n') + 1;
                lf_strbuf_append(&out, op, (size_t)(e - op));
                op = e;
                old_line++;
            }
            q = strchr(q, '\n') + 1;
            while (*q && *q != '@') {
                const char *e = strchr(q, '\n') + 1;
                if (*q == ' ' || *q == '-') {
                    op = strchr(op, '\n') + 1;
                    old_line++;
                }
                if (*q == ' ' || *q == '+')
                    lf_strbuf_append(&out, q + 1, (size_t)(e - q - 1));
                q = e;
            }
        }
        lf_strbuf_append(&out, op, strlen(op));
        CHECK(out.len == b.len && memcmp(out.data ? out.data : "", b.data ? b.data : "", b.len) == 0);
        lf_strbuf_free(&out);
        lf_strbuf_free(&d);
        lf_strbuf_free(&a);
        lf_strbuf_free(&b);
    }
}

/* ---- lf_fix_write / lf_fix_create ---- */

static char *tmpdir;

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        lf_strbuf_append(&sb, buf, n);
    fclose(f);
    return sb.data ? lf_strbuf_detach(&sb) : lf_xstrdup("");
}

static size_t entries_in(const char *dir) {
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void test_write_keeps_mode(void) {
    char *path = lf_xasprintf("%s/mode.py", tmpdir);
    write_file(path, "x = 1\n");
    chmod(path, 0751);
    struct stat before;
    stat(path, &before);
    lf_source src;
    char *err = NULL;
    CHECK(lf_source_load(path, LF_LANG_PYTHON, &src, &err) == LF_LOAD_OK);
    CHECK(lf_fix_write(path, &src, "x = 2\n", 6, &err) == 1);
    char *now = slurp(path);
    CHECK_STR(now, "x = 2\n");
    struct stat after;
    stat(path, &after);
    CHECK((after.st_mode & 07777) == 0751);
    CHECK(after.st_ino != before.st_ino); /* replaced by rename, never rewritten in place */
    CHECK(entries_in(tmpdir) == 1);       /* no temp left behind */
    free(now);
    lf_source_free(&src);
    unlink(path);
    free(path);
}

static void test_write_refuses_changed_file(void) {
    char *path = lf_xasprintf("%s/changed.py", tmpdir);
    write_file(path, "x = 1\n");
    lf_source src;
    char *err = NULL;
    CHECK(lf_source_load(path, LF_LANG_PYTHON, &src, &err) == LF_LOAD_OK);
    write_file(path, "x = 10\n"); /* someone edits it after the scan read it */
    CHECK(lf_fix_write(path, &src, "x = 2\n", 6, &err) == 0);
    CHECK(err && strstr(err, path) && strstr(err, "not written") && strstr(err, "since it was read"));
    free(err);
    char *now = slurp(path);
    CHECK_STR(now, "x = 10\n");
    free(now);
    CHECK(entries_in(tmpdir) == 1);
    lf_source_free(&src);

    /* Same size, same mtime, different bytes: the content comparison catches it. */
    write_file(path, "x = 1\n");
    CHECK(lf_source_load(path, LF_LANG_PYTHON, &src, &err) == LF_LOAD_OK);
    struct stat st;
    stat(path, &st);
    FILE *f = fopen(path, "r+b");
    fputs("y", f);
    fclose(f);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    utimensat(AT_FDCWD, path, times, 0);
    err = NULL;
    CHECK(lf_fix_write(path, &src, "x = 2\n", 6, &err) == 0);
    CHECK(err && strstr(err, "content changed since it was read"));
    free(err);
    now = slurp(path);
    CHECK_STR(now, "y = 1\n");
    free(now);
    lf_source_free(&src);
    unlink(path);
    free(path);
}

static const char *hook_path;
static void edit_during_write(const char *path) {
    if (hook_path && strcmp(path, hook_path) == 0)
        write_file(path, "x = 99  # edited while lockfix was writing\n");
}

static void test_write_refuses_change_before_commit(void) {
    char *path = lf_xasprintf("%s/racy.py", tmpdir);
    write_file(path, "x = 1\n");
    lf_source src;
    char *err = NULL;
    CHECK(lf_source_load(path, LF_LANG_PYTHON, &src, &err) == LF_LOAD_OK);
    hook_path = path;
    lf_fix_before_commit_hook = edit_during_write;
    CHECK(lf_fix_write(path, &src, "x = 2\n", 6, &err) == 0);
    lf_fix_before_commit_hook = NULL;
    CHECK(err && strstr(err, "not written"));
    free(err);
    char *now = slurp(path);
    CHECK_STR(now, "x = 99  # edited while lockfix was writing\n");
    free(now);
    CHECK(entries_in(tmpdir) == 1);
    lf_source_free(&src);
    unlink(path);
    free(path);
}

static void test_create(void) {
    char *path = lf_xasprintf("%s/sub/dir/lockrt.py", tmpdir);
    char *err = NULL;
    CHECK(lf_fix_create(path, "A = 1\n", 6, &err) == 2); /* created */
    char *now = slurp(path);
    CHECK_STR(now, "A = 1\n");
    free(now);
    struct stat st;
    stat(path, &st);
    CHECK((st.st_mode & 07777) == 0644);
    CHECK(lf_fix_create(path, "A = 1\n", 6, &err) == 1); /* already there: nothing to do */
    CHECK(lf_fix_create(path, "A = 2\n", 6, &err) == 0);
    CHECK(err && strstr(err, "a different file already exists"));
    free(err);
    now = slurp(path);
    CHECK_STR(now, "A = 1\n");
    free(now);
    char *sub = lf_xasprintf("%s/sub/dir", tmpdir);
    CHECK(entries_in(sub) == 1);
    unlink(path);
    rmdir(sub);
    free(sub);
    sub = lf_xasprintf("%s/sub", tmpdir);
    rmdir(sub);
    free(sub);
    free(path);
}


/* ---- new files: one set for the run, diffed so git apply and patch -p1 create them ---- */

static lf_fixed_file fixed_with(const char *text, const char *const *paths, const char *const *contents, size_t n) {
    lf_fixed_file ff;
    memset(&ff, 0, sizeof ff);
    ff.text = lf_xstrdup(text);
    ff.len = strlen(text);
    ff.new_files = lf_xcalloc(n ? n : 1, sizeof *ff.new_files);
    for (size_t i = 0; i < n; i++) {
        ff.new_files[i].path = lf_xstrdup(paths[i]);
        ff.new_files[i].content = lf_xstrdup(contents[i]);
    }
    ff.n_new_files = n;
    return ff;
}

static int sh(const char *dir, const char *cmd) {
    char *line = lf_xasprintf("cd '%s' && %s >/dev/null 2>&1", dir, cmd);
    int rc = system(line);
    free(line);
    return rc;
}

static void test_new_files_patch_applies(void) {
    if (system("command -v git >/dev/null && command -v patch >/dev/null") != 0) {
        fprintf(stderr, "test_new_files_patch_applies: needs git and patch (Debian packages git, patch)\n");
        failures++;
        return;
    }
    static const char a_old[] = "import os\n\nX = os.sep\n";
    static const char a_new[] = "import os\n\nimport lockrt\n\nX = os.sep\n";
    static const char b_old[] = "def f():\n    return 1\n";
    static const char b_new[] = "from . import lockrt\n\ndef f():\n    return 1\n";
    static const char *const a_paths[] = {"lockrt.py", "vendor/util.py"};
    static const char *const a_contents[] = {"def lock():\n    pass\n", "u = 1"};
    static const char *const b_paths[] = {"lockrt.py"};
    static const char *const b_contents[] = {"def lock():\n    pass\n"};
    static const char *const c_contents[] = {"other = 1\n"};
    lf_fixed_file fa = fixed_with(a_new, a_paths, a_contents, 2);
    lf_fixed_file fb = fixed_with(b_new, b_paths, b_contents, 1);
    lf_fixed_file fc = fixed_with(b_new, b_paths, c_contents, 1);
    lf_new_file_set set = {0};
    char *err = NULL;
    CHECK(lf_new_file_set_add(&set, "pkg/a.py", &fa, &err) == 1);
    CHECK(lf_new_file_set_add(&set, "pkg/b.py", &fb, &err) == 1); /* same file, same content: once */
    CHECK(set.len == 2);
    CHECK(lf_new_file_set_add(&set, "pkg/c.py", &fc, &err) == 0);
    CHECK_STR(err, "pkg/lockrt.py: refusing to create it: the fixes of pkg/c.py and of an earlier file want "
                   "different content there");
    free(err);
    CHECK(set.len == 2);

    lf_strbuf patch;
    lf_strbuf_init(&patch);
    lf_diff_file(&patch, "pkg/a.py", a_old, strlen(a_old), a_new, strlen(a_new));
    lf_diff_file(&patch, "pkg/b.py", b_old, strlen(b_old), b_new, strlen(b_new));
    lf_new_file_set_diff(&set, &patch);
    CHECK_STR(patch.data, "--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,3 +1,5 @@\n import os\n \n+import lockrt\n+\n X = os.sep\n"
                          "--- a/pkg/b.py\n+++ b/pkg/b.py\n@@ -1,2 +1,4 @@\n+from . import lockrt\n+\n def f():\n     return 1\n"
                          "--- /dev/null\n+++ b/pkg/lockrt.py\n@@ -0,0 +1,2 @@\n+def lock():\n+    pass\n"
                          "--- /dev/null\n+++ b/pkg/vendor/util.py\n@@ -0,0 +1 @@\n+u = 1\n\\ No newline at end of file\n");

    /* Both tools accept it and produce the intended tree. */
    static const char *const tools[] = {"git apply p.diff", "patch -p1 -i p.diff"};
    for (size_t t = 0; t < 2; t++) {
        char *root = lf_xasprintf("%s/apply%zu", tmpdir, t);
        char *pkg = lf_xasprintf("%s/pkg", root);
        mkdir(root, 0755);
        mkdir(pkg, 0755);
        char *pa = lf_xasprintf("%s/a.py", pkg), *pb = lf_xasprintf("%s/b.py", pkg);
        char *pp = lf_xasprintf("%s/p.diff", root);
        write_file(pa, a_old);
        write_file(pb, b_old);
        FILE *f = fopen(pp, "wb");
        fwrite(patch.data, 1, patch.len, f);
        fclose(f);
        CHECK(sh(root, t == 0 ? "git apply --check p.diff" : "patch -p1 --dry-run -i p.diff") == 0);
        CHECK(sh(root, tools[t]) == 0);
        char *got = slurp(pa);
        CHECK_STR(got, a_new);
        free(got);
        char *lk = lf_xasprintf("%s/lockrt.py", pkg), *ut = lf_xasprintf("%s/vendor/util.py", pkg);
        got = slurp(lk);
        CHECK_STR(got, "def lock():\n    pass\n");
        free(got);
        got = slurp(ut);
        CHECK_STR(got, "u = 1");
        free(got);
        char *rm = lf_xasprintf("rm -rf '%s'", root);
        CHECK(system(rm) == 0);
        free(rm);
        free(lk);
        free(ut);
        free(pa);
        free(pb);
        free(pp);
        free(pkg);
        free(root);
    }
    lf_strbuf_free(&patch);
    lf_new_file_set_free(&set);
    lf_fixed_file_free(&fa);
    lf_fixed_file_free(&fb);
    lf_fixed_file_free(&fc);
}

/* Past the edit budget the middle is one deletion block and one insertion block. */
static void test_diff_large_rewrite(void) {
    lf_strbuf a, b, d, want;
    lf_strbuf_init(&a);
    lf_strbuf_init(&b);
    lf_strbuf_init(&d);
    lf_strbuf_init(&want);
    lf_strbuf_puts(&a, "same\n");
    lf_strbuf_puts(&b, "same\n");
    for (int i = 0; i < 3000; i++) {
        lf_strbuf_printf(&a, "a%d\n", i);
        lf_strbuf_printf(&b, "b%d\n", i);
    }
    lf_diff_file(&d, "big.py", a.data, a.len, b.data, b.len);
    lf_strbuf_puts(&want, "--- a/big.py\n+++ b/big.py\n@@ -1,3001 +1,3001 @@\n same\n");
    for (int i = 0; i < 3000; i++)
        lf_strbuf_printf(&want, "-a%d\n", i);
    for (int i = 0; i < 3000; i++)
        lf_strbuf_printf(&want, "+b%d\n", i);
    CHECK(d.len == want.len && memcmp(d.data, want.data, want.len) == 0);
    lf_strbuf_free(&a);
    lf_strbuf_free(&b);
    lf_strbuf_free(&d);
    lf_strbuf_free(&want);
}

static void test_write_refuses_hard_linked_file(void) {
    char *path = lf_xasprintf("%s/linked.py", tmpdir);
    char *other = lf_xasprintf("%s/other-name.py", tmpdir);
    write_file(path, "x = 1\n");
    CHECK(link(path, other) == 0);
    lf_source src;
    char *err = NULL;
    CHECK(lf_source_load(path, LF_LANG_PYTHON, &src, &err) == LF_LOAD_OK);
    CHECK(lf_fix_write(path, &src, "x = 2\n", 6, &err) == 0);
    CHECK(err && strstr(err, "hard links"));
    free(err);
    char *now = slurp(other);
    CHECK_STR(now, "x = 1\n");
    free(now);
    lf_source_free(&src);
    unlink(other);
    unlink(path);
    free(other);
    free(path);
}

static void test_crlf_file_keeps_its_line_endings(void) {
    static const char text[] = "import os\r\n\r\nX = 1\r\n";
    lf_source src;
    lf_source_from_text(&src, "pkg/win.py", LF_LANG_PYTHON, text, sizeof text - 1);
    lf_finding f[1] = {finding(&rule_a, 1)};
    lf_fix_add_edit(f[0].fix, 11, 11, "import sys\nimport tempfile\r\n");
    lf_fixed_file out;
    char *err = NULL;
    CHECK(lf_fix_apply(&src, f, 1, &out, &err) == 1);
    CHECK_STR(out.text, "import os\r\nimport sys\r\nimport tempfile\r\n\r\nX = 1\r\n");
    lf_fixed_file_free(&out);
    free_findings(f, 1);
    lf_source_free(&src);
}

int main(void) {
    char tmpl[] = "/tmp/lf_fix_unit.XXXXXX";
    tmpdir = mkdtemp(tmpl);
    if (!tmpdir) {
        perror("mkdtemp");
        return 2;
    }
    test_applies_sorted_and_dedups();
    test_refuses_overlap();
    test_adjacent_edits_are_not_overlap();
    test_refuses_broken_parse();
    test_refuses_file_that_does_not_parse();
    test_ignores_unsafe_and_fixless();
    test_crlf_file_keeps_its_line_endings();
    test_rejects_edit_outside_file_and_bad_new_files();
    test_diff_shapes();
    test_diff_replays();
    test_diff_large_rewrite();
    test_write_keeps_mode();
    test_write_refuses_changed_file();
    test_write_refuses_change_before_commit();
    test_write_refuses_hard_linked_file();
    test_create();
    test_new_files_patch_applies();
    rmdir(tmpdir);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    puts("lf_fix_unit: all checks passed");
    return 0;
}
