#include "lf_vendor.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lf_deps.h"
#include "lf_pyfix.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"

/* Bounds on what the style sniffing reads: a package is a handful of modules. */
enum { SNIFF_MAX_FILES = 200, SNIFF_MAX_BYTES = 256 * 1024 };

static int is_identifier(const char *s, size_t n) {
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

int lf_vendor_dir_valid(const char *dir) { return dir && is_identifier(dir, strlen(dir)); }

static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash)
        return lf_xstrdup(".");
    if (slash == path)
        return lf_xstrdup("/");
    return lf_xstrndup(path, (size_t)(slash - path));
}

static int exists(const char *dir, const char *name) {
    char *p = lf_xasprintf("%s/%s", dir, name);
    struct stat st;
    int ok = lf_deps_lstat(p, &st) == 0;
    free(p);
    return ok;
}

typedef struct style {
    int relative;     /* some module says `from . import x` / `from .x import y` */
    char *absolute;   /* "pkg" from `from pkg.sibling import y`, when seen */
} style;

/* One line of a module: `from .` (relative) or `from P.M import` with M a
 * module of this directory (absolute, P recorded). */
static void sniff_line(const char *line, size_t n, const char *dir, style *st) {
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (n - i < 6 || strncmp(line + i, "from ", 5) != 0)
        return;
    i += 5;
    while (i < n && line[i] == ' ')
        i++;
    if (i < n && line[i] == '.') {
        st->relative = 1;
        return;
    }
    size_t s = i;
    while (i < n && (isalnum((unsigned char)line[i]) || line[i] == '_' || line[i] == '.'))
        i++;
    if (i >= n || line[i] != ' ' || st->absolute)
        return;
    const char *dot = NULL;
    for (size_t k = s; k < i; k++)
        if (line[k] == '.')
            dot = line + k;
    if (!dot || dot == line + s)
        return;
    char *mod = lf_xstrndup(dot + 1, (size_t)(line + i - dot - 1));
    char *file = lf_xasprintf("%s.py", mod);
    if (*mod && exists(dir, file))
        st->absolute = lf_xstrndup(line + s, (size_t)(dot - line - s));
    free(mod);
    free(file);
}

static void sniff_file(const char *path, const char *dir, style *st) {
    FILE *f = lf_deps_fopen_read(path);
    if (!f)
        return;
    char *buf = lf_xcalloc(1, SNIFF_MAX_BYTES + 1);
    size_t n = fread(buf, 1, SNIFF_MAX_BYTES, f);
    fclose(f);
    for (size_t a = 0; a < n;) {
        const char *nl = memchr(buf + a, '\n', n - a);
        size_t e = nl ? (size_t)(nl - buf) : n;
        sniff_line(buf + a, e - a, dir, st);
        a = e + 1;
    }
    free(buf);
}

static void sniff_package(const char *dir, style *st) {
    DIR *d = lf_deps_opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL && files < SNIFF_MAX_FILES) {
        size_t L = strlen(e->d_name);
        if (L < 4 || strcmp(e->d_name + L - 3, ".py") != 0)
            continue;
        char *p = lf_xasprintf("%s/%s", dir, e->d_name);
        struct stat sb;
        if (lf_deps_lstat(p, &sb) == 0 && S_ISREG(sb.st_mode)) {
            sniff_file(p, dir, st);
            files++;
        }
        free(p);
    }
    closedir(d);
}

void lf_vendor_plan_python(const char *module_path, const char *runtime_dir, lf_vendor_plan *out) {
    memset(out, 0, sizeof *out);
    char *dir = dir_of(module_path);
    int package = exists(dir, "__init__.py");
    style st = {0, NULL};
    if (package)
        sniff_package(dir, &st);
    const char *sub = runtime_dir;
    if (!package)
        out->import_line = sub ? lf_xasprintf("from %s import lockrt\n", sub) : lf_xstrdup("import lockrt\n");
    else if (st.absolute && !st.relative)
        out->import_line = sub ? lf_xasprintf("from %s.%s import lockrt\n", st.absolute, sub)
                               : lf_xasprintf("from %s import lockrt\n", st.absolute);
    else
        out->import_line = sub ? lf_xasprintf("from .%s import lockrt\n", sub) : lf_xstrdup("from . import lockrt\n");
    if (runtime_dir) {
        out->files[out->n_files].path = lf_xasprintf("%s/lockrt.py", runtime_dir);
        out->files[out->n_files++].content = lf_xstrdup(lf_binding_python);
        char *init = lf_xasprintf("%s/__init__.py", runtime_dir);
        if (!exists(dir, init)) {
            out->files[out->n_files].path = init;
            out->files[out->n_files++].content =
                lf_xstrdup("# Vendored runtime: the lockrt binding, added by `lockfix fix`.\n");
        } else {
            free(init);
        }
    } else {
        out->files[out->n_files].path = lf_xstrdup("lockrt.py");
        out->files[out->n_files++].content = lf_xstrdup(lf_binding_python);
    }
    free(st.absolute);
    free(dir);
}

void lf_vendor_plan_node(const char *module_path, lf_vendor_plan *out) {
    memset(out, 0, sizeof *out);
    out->files[out->n_files].path = lf_xstrdup("lockrt.cjs");
    out->files[out->n_files++].content = lf_xstrdup(lf_binding_node);
    const char *slash = strrchr(module_path, '/');
    const char *dot = strrchr(slash ? slash : module_path, '.');
    if (dot && (!strcmp(dot, ".ts") || !strcmp(dot, ".mts") || !strcmp(dot, ".cts") || !strcmp(dot, ".tsx"))) {
        out->files[out->n_files].path = lf_xstrdup("lockrt.d.cts");
        out->files[out->n_files++].content = lf_xstrdup(lf_binding_node_types);
    }
}

void lf_vendor_plan_free(lf_vendor_plan *p) {
    free(p->import_line);
    for (size_t i = 0; i < p->n_files; i++) {
        free(p->files[i].path);
        free(p->files[i].content);
    }
    memset(p, 0, sizeof *p);
}

int lf_vendor_python_binds_lockrt(struct lf_pysem *m) {
    size_t n;
    const lf_pybinding *const *b = lf_pysem_bindings_of(m, 0, "lockrt", &n);
    for (size_t i = 0; i < n; i++)
        if (b[i]->kind == LF_PYBIND_IMPORT)
            return 1;
    return 0;
}

uint32_t lf_vendor_python_import_at(const struct lf_pysem *m) {
    uint32_t i;
    uint32_t at = lf_pyfix_header_end(m->src, m->root, &i);
    for (uint32_t n = ts_node_named_child_count(m->root); i < n; i++) {
        TSNode st = ts_node_named_child(m->root, i);
        if (lf_tree_is(st, "comment"))
            continue;
        if (!lf_tree_is(st, "import_statement") && !lf_tree_is(st, "import_from_statement"))
            break;
        at = lf_tree_next_line_start(m->src, ts_node_end_byte(st));
    }
    return at;
}

void lf_vendor_attach(lf_fix *fix, const lf_vendor_plan *plan) {
    fix->new_files = lf_xcalloc(plan->n_files + 1, sizeof *fix->new_files);
    for (size_t k = 0; k < plan->n_files; k++) {
        fix->new_files[k].path = lf_xstrdup(plan->files[k].path);
        fix->new_files[k].content = lf_xstrdup(plan->files[k].content);
    }
    fix->n_new_files = plan->n_files;
}

void lf_vendor_attach_node(lf_fix *fix, const char *module_path) {
    lf_vendor_plan plan;
    lf_vendor_plan_node(module_path, &plan);
    lf_vendor_attach(fix, &plan);
    lf_vendor_plan_free(&plan);
}
