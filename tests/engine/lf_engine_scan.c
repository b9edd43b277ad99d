/* Test driver: run the builtin rules over files/directories with the engine
 * alone (no CLI, config or report code) and print "path:line:col: RULE" sorted
 * by path. `--no-prefilter` parses every file for every rule, which is how the
 * tests prove the prefilters sound; `--whole-tree` runs every query over the
 * whole tree, never only at its anchored sites (lf_anchor.h), which is how they
 * prove those sound. `--rules DIR` adds rule files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lf_engine.h"
#include "lf_rule.h"
#include "lf_util.h"

typedef LF_VEC(char *) path_vec;

static void collect(const char *path, path_vec *out) {
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return;
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (de->d_name[0] == '.' || strcmp(de->d_name, "__pycache__") == 0)
                continue;
            char *child = lf_xasprintf("%s/%s", path, de->d_name);
            collect(child, out);
            free(child);
        }
        closedir(d);
    } else if (S_ISREG(st.st_mode)) {
        lf_lang l;
        if (lf_lang_from_path(path, &l))
            LF_VEC_PUSH(out, lf_xstrdup(path));
    }
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    int prefilter = 1, with_messages = 0, whole_tree = 0;
    lf_ruleset set = {0};
    char *err = NULL;
    if (!lf_ruleset_load_builtin(&set, &err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    path_vec paths = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-prefilter") == 0) {
            prefilter = 0;
        } else if (strcmp(argv[i], "--whole-tree") == 0) {
            whole_tree = 1;
        } else if (strcmp(argv[i], "--messages") == 0) {
            with_messages = 1;
        } else if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
            if (!lf_ruleset_load_dir(&set, argv[++i], &err)) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
        } else {
            collect(argv[i], &paths);
        }
    }
    if (paths.len > 1)
        qsort(paths.items, paths.len, sizeof *paths.items, cmp_str);
    lf_engine_options opts = {.rules = &set, .config = NULL, .want_fixes = 0, .use_prefilter = prefilter,
                              .walk_whole_tree = whole_tree};
    lf_engine *eng = lf_engine_new(&opts);
    int rc = 0;
    for (size_t i = 0; i < paths.len; i++) {
        lf_lang lang;
        lf_lang_from_path(paths.items[i], &lang);
        lf_source src;
        if (lf_source_load(paths.items[i], lang, &src, &err) != LF_LOAD_OK) {
            fprintf(stderr, "%s\n", err);
            free(err);
            free(paths.items[i]);
            continue;
        }
        lf_finding *f = NULL;
        size_t n = 0;
        if (lf_engine_analyze(eng, &src, &f, &n, &err) != 0) {
            fprintf(stderr, "%s\n", err);
            free(err);
            rc = 2;
        }
        for (size_t k = 0; k < n; k++) {
            printf("%s:%u:%u: %s", src.path, f[k].line, f[k].col, f[k].rule->id);
            if (with_messages)
                printf(" %s", f[k].message);
            putchar('\n');
            lf_finding_free_contents(&f[k]);
        }
        free(f);
        lf_source_free(&src);
        free(paths.items[i]);
    }
    LF_VEC_FREE(&paths);
    lf_engine_free(eng);
    lf_ruleset_free(&set);
    return rc;
}
