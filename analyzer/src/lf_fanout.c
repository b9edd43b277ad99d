#include "lf_fanout.h"

#include <stdlib.h>
#include <string.h>

#include "lf_fix.h"
#include "lf_rule.h"
#include "lf_util.h"

typedef struct rule_count {
    const char *rule_id; /* borrowed from the rules */
    size_t n;
    int unsafe; /* the rule's fixes are unsafe (applied with --unsafe-fixes): the summary says so */
} rule_count;

typedef struct changed_file {
    char *rel;
    LF_VEC(rule_count) rules;
} changed_file;

typedef struct group {
    size_t root;
    char *name;   /* "claude-code", "." or the file argument itself */
    LF_VEC(changed_file) changed;
    LF_VEC(char *) created;
    LF_VEC(char *) left; /* rendered lines */
    char *dir;           /* where `fix --verify` runs its command */
    int verify_state;    /* 0 not verified, 1 verified, -1 not applied or rolled back */
    char *verify_note;
    char *verify_tail;
} group;

struct lf_fanout {
    char *const *roots;
    size_t n_roots;
    LF_VEC(group) groups;
};

lf_fanout *lf_fanout_new(char *const *roots, size_t n_roots) {
    lf_fanout *fo = lf_xcalloc(1, sizeof *fo);
    fo->roots = roots;
    fo->n_roots = n_roots;
    return fo;
}

void lf_fanout_free(lf_fanout *fo) {
    if (!fo)
        return;
    for (size_t i = 0; i < fo->groups.len; i++) {
        group *g = &fo->groups.items[i];
        free(g->name);
        for (size_t k = 0; k < g->changed.len; k++) {
            free(g->changed.items[k].rel);
            LF_VEC_FREE(&g->changed.items[k].rules);
        }
        LF_VEC_FREE(&g->changed);
        for (size_t k = 0; k < g->created.len; k++)
            free(g->created.items[k]);
        LF_VEC_FREE(&g->created);
        for (size_t k = 0; k < g->left.len; k++)
            free(g->left.items[k]);
        LF_VEC_FREE(&g->left);
        free(g->dir);
        free(g->verify_note);
        free(g->verify_tail);
    }
    LF_VEC_FREE(&fo->groups);
    free(fo);
}

/* Length of root without trailing slashes ("." and "./" match every relative path). */
static const char *under_root(const char *root, const char *path) {
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (n == 1 && root[0] == '.')
        return path[0] == '/' ? NULL : (strncmp(path, "./", 2) == 0 ? path + 2 : path);
    if (strncmp(path, root, n) != 0)
        return NULL;
    if (path[n] == '\0')
        return path + n;
    if (path[n] == '/')
        return path + n + 1;
    return NULL;
}

/* The group of `path` (created on first sight) and the path inside it. */
static group *group_of(lf_fanout *fo, const char *path, const char **rel) {
    size_t root = 0;
    const char *r = NULL;
    for (size_t i = 0; i < fo->n_roots && !r; i++)
        if ((r = under_root(fo->roots[i], path)) != NULL)
            root = i;
    char *name;
    const char *dir_end = NULL; /* the group's directory is path up to here */
    if (!r || *r == '\0') { /* not under any root as spelled, or a file argument: its own group */
        name = lf_xstrdup(path);
        const char *slash = strrchr(path, '/');
        *rel = r && slash ? slash + 1 : path;
        dir_end = slash;
    } else {
        const char *slash = strchr(r, '/');
        name = slash ? lf_xstrndup(r, (size_t)(slash - r)) : lf_xstrdup(".");
        *rel = slash ? slash + 1 : r;
        dir_end = slash ? slash : (r > path ? r - 1 : NULL);
    }
    for (size_t i = 0; i < fo->groups.len; i++) {
        group *g = &fo->groups.items[i];
        if (g->root == root && strcmp(g->name, name) == 0) {
            free(name);
            return g;
        }
    }
    group g;
    memset(&g, 0, sizeof g);
    g.root = root;
    g.name = name;
    g.dir = dir_end ? lf_xstrndup(path, (size_t)(dir_end == path ? 1 : dir_end - path)) : lf_xstrdup(".");
    LF_VEC_PUSH(&fo->groups, g);
    return &fo->groups.items[fo->groups.len - 1];
}

void lf_fanout_file(lf_fanout *fo, const char *path) {
    const char *rel;
    (void)group_of(fo, path, &rel); /* so integrations with nothing to fix are listed */
}

void lf_fanout_fixed(lf_fanout *fo, const char *path, const lf_finding *f) {
    const char *rel;
    group *g = group_of(fo, path, &rel);
    changed_file *cf = NULL;
    for (size_t i = 0; i < g->changed.len && !cf; i++)
        if (strcmp(g->changed.items[i].rel, rel) == 0)
            cf = &g->changed.items[i];
    if (!cf) {
        changed_file c;
        memset(&c, 0, sizeof c);
        c.rel = lf_xstrdup(rel);
        LF_VEC_PUSH(&g->changed, c);
        cf = &g->changed.items[g->changed.len - 1];
    }
    for (size_t i = 0; i < cf->rules.len; i++)
        if (strcmp(cf->rules.items[i].rule_id, f->rule->id) == 0) {
            cf->rules.items[i].n++;
            return;
        }
    rule_count rc = {f->rule->id, 1, lf_fix_is_unsafe(f)};
    LF_VEC_PUSH(&cf->rules, rc);
}

/* The changed file argument whose directory holds path, if path is under no root. */
static group *file_argument_beside(lf_fanout *fo, const char *path) {
    for (size_t i = 0; i < fo->n_roots; i++)
        if (under_root(fo->roots[i], path))
            return NULL;
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    const char *dir = slash ? path : ".";
    for (size_t i = 0; i < fo->groups.len; i++) {
        group *g = &fo->groups.items[i];
        if (g->changed.len && strlen(g->dir) == dir_len && strncmp(g->dir, dir, dir_len) == 0 &&
            strcmp(g->name, fo->roots[g->root]) == 0)
            return g;
    }
    return NULL;
}

void lf_fanout_created(lf_fanout *fo, const char *path) {
    /* A file argument is its own integration, and what its fix vendors beside
     * it (lockrt.cjs next to the module) is under no root: it belongs to that
     * file's line, not a line of its own with "nothing to fix". */
    group *g = file_argument_beside(fo, path);
    const char *rel;
    if (g) {
        const char *slash = strrchr(path, '/');
        rel = slash ? slash + 1 : path;
    } else {
        g = group_of(fo, path, &rel);
    }
    LF_VEC_PUSH(&g->created, lf_xstrdup(rel));
}

void lf_fanout_left(lf_fanout *fo, const lf_finding *f, const char *reason) {
    const char *rel;
    group *g = group_of(fo, f->path, &rel);
    LF_VEC_PUSH(&g->left, lf_xasprintf("%s at %s:%u: %s", f->rule->id, rel, f->line, reason));
}

size_t lf_fanout_integration(lf_fanout *fo, const char *path) {
    const char *rel;
    return (size_t)(group_of(fo, path, &rel) - fo->groups.items);
}

const char *lf_fanout_integration_name(const lf_fanout *fo, size_t integration) {
    return fo->groups.items[integration].name;
}

const char *lf_fanout_integration_dir(const lf_fanout *fo, size_t integration) {
    return fo->groups.items[integration].dir;
}

void lf_fanout_verified(lf_fanout *fo, size_t integration, int verified, const char *note, const char *tail) {
    group *g = &fo->groups.items[integration];
    g->verify_state = verified ? 1 : -1;
    free(g->verify_note);
    free(g->verify_tail);
    g->verify_note = note ? lf_xstrdup(note) : NULL;
    g->verify_tail = tail && *tail ? lf_xstrdup(tail) : NULL;
}

static int cmp_rule_count(const void *a, const void *b) {
    return strcmp(((const rule_count *)a)->rule_id, ((const rule_count *)b)->rule_id);
}

/* A failed verify command's last lines, indented under its integration. */
static void print_tail(const char *tail, FILE *out) {
    for (const char *line = tail; line && *line;) {
        const char *nl = strchr(line, '\n');
        int n = nl ? (int)(nl - line) : (int)strlen(line);
        fprintf(out, "    | %.*s\n", n, line);
        line = nl ? nl + 1 : NULL;
    }
}

void lf_fanout_print(const lf_fanout *fo, const char *mode, FILE *out) {
    for (size_t r = 0; r < fo->n_roots; r++) {
        size_t n = 0, n_changed = 0, n_left = 0, n_verified = 0, n_refused = 0;
        for (size_t i = 0; i < fo->groups.len; i++) {
            const group *g = &fo->groups.items[i];
            if (g->root != r)
                continue;
            n++;
            n_changed += g->changed.len > 0;
            n_left += g->left.len > 0;
            n_verified += g->verify_state != 0;
            n_refused += g->verify_state < 0;
        }
        if (n == 0)
            continue;
        fprintf(out, "fan-out over %s (%s%s): %zu integration%s, %zu changed, ", fo->roots[r], mode,
                n_verified ? ", verified" : "", n, n == 1 ? "" : "s", n_changed);
        if (n_verified)
            fprintf(out, "%zu not kept, ", n_refused);
        fprintf(out, "%zu with findings left\n", n_left);
        for (size_t i = 0; i < fo->groups.len; i++) {
            const group *g = &fo->groups.items[i];
            if (g->root != r)
                continue;
            if (g->changed.len == 0 && g->left.len == 0 && g->verify_state == 0)
                continue; /* listed together below */
            fprintf(out, "  %s:", g->name);
            for (size_t k = 0; k < g->changed.len; k++) {
                changed_file *cf = &g->changed.items[k];
                qsort(cf->rules.items, cf->rules.len, sizeof *cf->rules.items, cmp_rule_count);
                fprintf(out, "%s fixed ", k ? ";" : "");
                for (size_t j = 0; j < cf->rules.len; j++) {
                    fprintf(out, "%s%s", j ? ", " : "", cf->rules.items[j].rule_id);
                    if (cf->rules.items[j].n > 1)
                        fprintf(out, " x%zu", cf->rules.items[j].n);
                    if (cf->rules.items[j].unsafe)
                        fputs(" (unsafe fix)", out);
                }
                fprintf(out, " in %s", cf->rel);
            }
            for (size_t k = 0; k < g->created.len; k++)
                fprintf(out, "%s%s", k ? ", " : "; adds ", g->created.items[k]);
            if (g->verify_note)
                fprintf(out, "%s %s", g->changed.len ? ";" : "", g->verify_note);
            fputc('\n', out);
            print_tail(g->verify_tail, out);
            for (size_t k = 0; k < g->left.len; k++)
                fprintf(out, "    left %s\n", g->left.items[k]);
        }
        /* Clean integrations on one line: a big tree has many. */
        size_t clean = 0;
        for (size_t i = 0; i < fo->groups.len; i++) {
            const group *g = &fo->groups.items[i];
            if (g->root != r || g->changed.len || g->left.len || g->verify_state)
                continue;
            fprintf(out, "%s%s", clean++ ? ", " : "  nothing to fix: ", g->name);
        }
        if (clean)
            fputc('\n', out);
    }
}
