/* LF101 fix: collapse an unlocked fallback into one locked copy that uses lockrt.
 *
 * The check recognised each site (checks/lf101_site.h); this file only writes
 * the rewrite and checks the rewrite's own preconditions:
 *
 *     PRE...                                        (statements the locked path ran first)
 *     # (why, and what happens when the lock is not acquired)
 *     with lockrt.exclusive_lock(PATH[, timeout=0][, unlocked_on_error=True]) as acquired:
 *         BODY
 *
 * `unlocked_on_error=True` when the old code swallowed its own lock attempt's
 * errors and ran the unlocked copy; `timeout=0` when it tried the lock once.
 *
 * A lock helper whose root bug is its own failed `import fcntl` keeps its
 * protocol instead: the check planned (checks/lf101_portable.c) which
 * `import fcntl` statements become `fcntl = lockrt.fcntl`.
 *
 * Then, once per file, over every site rewritten in it: the conditional
 * import goes only when nothing left uses it (no site left unfixed or
 * suppressed, no other function, no flag, no `__all__` entry, no other module
 * of the project naming it: `state.fcntl`, `from .state import fcntl`,
 * `setattr(state, "fcntl", ...)`), with the imports only its condition used;
 * lockrt is imported the way the package imports its own modules and the
 * binding is vendored beside the module (lf_vendor). Every edit shared by the
 * sites of a file is byte-identical, so lf_fix applies it once. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../checks/lf101_site.h"
#include "lf_check.h"
#include "lf_deps.h"
#include "lf_pyfix.h"
#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_util.h"
#include "lf_vendor.h"

typedef LF_VEC(lf_byte_range) range_vec;

static uint32_t stmt_start(const lf_pysem *m, int32_t s) { return ts_node_start_byte(m->stmts[s].node); }
static uint32_t stmt_end(const lf_pysem *m, int32_t s) { return ts_node_end_byte(m->stmts[s].node); }

/* A file with lone CR line endings: re-indenting by lines would garble it. */
static int has_lone_cr(const lf_source *src) {
    for (size_t i = 0; i < src->len; i++)
        if (src->text[i] == '\r' && (i + 1 == src->len || src->text[i + 1] != '\n'))
            return 1;
    return 0;
}

/* A name for the `as` target that the function does not use yet. */
static const char *acquired_name(const lf_pysem *m, const lf101_site *s) {
    int32_t scope = m->stmts[s->region_first].scope;
    TSNode fn = m->scopes[scope].node;
    static const char *const names[] = {"acquired", "lock_acquired", "_lock_acquired", NULL};
    for (size_t i = 0; names[i]; i++)
        if (!lf_tree_mentions(m->src, fn, names[i], NULL))
            return names[i];
    return NULL;
}

/* The start of the comment lines right above the line holding `at` (the
 * comments that introduce a statement move with it). */
static uint32_t leading_comments(const lf_source *src, uint32_t at) {
    uint32_t line = lf_tree_line_start(src, at);
    while (line > 0) {
        uint32_t prev = lf_tree_line_start(src, line - 1);
        uint32_t i = prev;
        while (i < line && (src->text[i] == ' ' || src->text[i] == '\t'))
            i++;
        if (i >= line || src->text[i] != '#')
            break;
        line = prev;
    }
    return line;
}

/* Lines [first statement's line, last statement's end) re-indented to `to`,
 * with the comment lines just above the first. */
static char *reindent_statements(const lf_pysem *m, int32_t first, int32_t last, const char *to) {
    const lf_source *src = m->src;
    char *from = lf_tree_line_indent(src, stmt_start(m, first));
    char *text = lf_pyfix_reindent(src->text, leading_comments(src, stmt_start(m, first)), stmt_end(m, last), from, to);
    free(from);
    return text;
}

static int has_multiline_string(const lf_pysem *m, int32_t first, int32_t last) {
    for (int32_t s = first; s >= 0; s = lf_pysem_next_sibling(m, s)) {
        if (lf_pyfix_has_multiline_string(m->stmts[s].node))
            return 1;
        if (s == last)
            break;
    }
    return 0;
}

/* The site's rewrite: one edit replacing its region. NULL with *why. */
static char *rewrite(const lf_pysem *m, const lf101_site *s, char **why) {
    const lf_source *src = m->src;
    if (s->body_first < 0) {
        *why = lf_xstrdup("nothing is done under the lock");
        return NULL;
    }
    if (!lf_tree_starts_line(src, m->stmts[s->region_first].node) ||
        !lf_tree_starts_line(src, m->stmts[s->body_first].node)) {
        *why = lf_xstrdup("the statements to rewrite do not start their own lines");
        return NULL;
    }
    if (has_multiline_string(m, s->body_first, s->body_last) ||
        (s->pre_first >= 0 && has_multiline_string(m, s->pre_first, s->pre_last))) {
        *why = lf_xstrdup("the locked path holds a multi-line string, which re-indenting would change");
        return NULL;
    }
    const char *as = acquired_name(m, s);
    if (!as) {
        *why = lf_xstrdup("the function already uses the names `acquired`, `lock_acquired` and `_lock_acquired`");
        return NULL;
    }
    char *indent = lf_tree_line_indent(src, stmt_start(m, s->region_first));
    char *unit = lf_pyfix_indent_unit(src, m->stmts[s->body_first].node);
    /* The kept try's except clauses, [from, to); none: the `with` alone replaces the try. */
    uint32_t from = 0, to = 0;
    for (uint32_t i = 0; !ts_node_is_null(s->kept_try) && i < ts_node_named_child_count(s->kept_try); i++) {
        TSNode c = ts_node_named_child(s->kept_try, i);
        if (!lf_tree_is(c, "except_clause"))
            continue;
        if (!from)
            from = ts_node_start_byte(c);
        to = ts_node_end_byte(c);
    }
    int keep_try = from != 0;
    /* Under a kept try the `with` is one level in and its body two. */
    char *with_indent = lf_xasprintf("%s%s", indent, keep_try ? unit : "");
    char *inner = lf_xasprintf("%s%s", with_indent, unit);
    char *body = reindent_statements(m, s->body_first, s->body_last, inner);
    char *pre = s->pre_first >= 0 ? reindent_statements(m, s->pre_first, s->pre_last, indent) : NULL;
    char *path = lf_tree_text(src, s->lock_path);
    const char *opts = s->try_once ? (s->swallows ? ", timeout=0, unlocked_on_error=True" : ", timeout=0")
                                   : (s->swallows ? ", unlocked_on_error=True" : "");
    /* The comment says what happens when the lock is not taken. */
    char *sentence;
    if (keep_try)
        sentence = lf_xasprintf("lockfix LF101: one locked copy of the update on every platform. An error taking the "
                                "lock is an OSError and goes to the handlers below, as the old lock's errors did; if "
                                "the lock is not acquired within lockrt's bounded wait (10\x01s by default), `%s` is "
                                "False and the update still runs, unlocked, as it did before this fix.",
                                as);
    else if (s->try_once)
        sentence = lf_xasprintf("lockfix LF101: one locked copy of the update on every platform. If the lock is "
                                "held%s, `%s` is False and the update runs at once, unlocked, as it did before this "
                                "fix.",
                                s->swallows ? " or cannot be taken" : "", as);
    else
        sentence = lf_xasprintf("lockfix LF101: one locked copy of the update on every platform. If the lock %sis "
                                "not acquired within lockrt's bounded wait (10\x01s by default), `%s` is False and the "
                                "update still runs, unlocked, as it did before this fix.",
                                s->swallows ? "cannot be taken or " : "", as);
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    if (pre) {
        /* PRE came indented at its own line; the edit starts at the region's first byte. */
        const char *p = pre + strlen(indent);
        lf_strbuf_puts(&sb, strncmp(pre, indent, strlen(indent)) == 0 ? p : pre);
        lf_strbuf_printf(&sb, "\n%s", indent);
    }
    /* Wrapped to 79 columns, indentation included. */
    size_t width = strlen(indent) + 2 < 60 ? 79 - strlen(indent) - 2 : 20, col = 0;
    lf_strbuf_puts(&sb, "#");
    for (const char *w = sentence; *w;) {
        const char *e = strchr(w, ' ');
        size_t n = e ? (size_t)(e - w) : strlen(w);
        if (col > 0 && col + n + 1 > width + 1) {
            lf_strbuf_printf(&sb, "\n%s#", indent);
            col = 0;
        }
        lf_strbuf_putc(&sb, ' ');
        for (size_t k = 0; k < n; k++) /* \x01: a space the wrapping keeps */
            lf_strbuf_putc(&sb, w[k] == '\x01' ? ' ' : w[k]);
        col += n + 1;
        w += n;
        while (*w == ' ')
            w++;
    }
    if (keep_try)
        lf_strbuf_printf(&sb, "\n%stry:", indent);
    lf_strbuf_printf(&sb, "\n%swith lockrt.exclusive_lock(%s%s) as %s:\n%s", with_indent, path, opts, as, body);
    if (keep_try) /* the except clauses byte for byte, at the try's indentation; the finally goes */
        lf_strbuf_printf(&sb, "\n%s%.*s", indent, (int)(to - from), src->text + from);
    free(indent);
    free(with_indent);
    free(unit);
    free(inner);
    free(body);
    free(pre);
    free(path);
    free(sentence);
    return lf_strbuf_detach(&sb);
}

/* ---- uses of the module in other files of the project ---- */

static int is_ident_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Does `text` name `name` the way another module reaches our module's global:
 * an attribute `.name`, a string "name"/'name', or `import ... name` (in
 * `from x import a, name`)? Imports of the real module (`import fcntl`,
 * `from fcntl import ...`) and attribute uses of it (`fcntl.flock`) do not
 * count. Conservative: a mention in a comment counts too (the import stays). */
static int text_reaches(const char *text, size_t len, const char *name) {
    size_t n = strlen(name);
    for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), name, n)) != NULL; p += n) {
        size_t at = (size_t)(p - text);
        char before = at ? text[at - 1] : '\n';
        char after = at + n < len ? text[at + n] : '\n';
        if (is_ident_char(after))
            continue;
        if ((before == '"' && after == '"') || (before == '\'' && after == '\''))
            return 1;
        if (before == '.' && at >= 2 && (is_ident_char(text[at - 2]) || text[at - 2] == ')' || text[at - 2] == ']'))
            return 1;
        if (is_ident_char(before))
            continue;
        /* `from X import ..., name`: the line starts with `from` and X is not name itself. */
        size_t ls = at;
        while (ls > 0 && text[ls - 1] != '\n')
            ls--;
        while (ls < at && (text[ls] == ' ' || text[ls] == '\t'))
            ls++;
        if (at - ls > 5 && strncmp(text + ls, "from ", 5) == 0) {
            const char *imp = memmem(text + ls, at - ls, " import ", 8);
            if (imp && !(strncmp(text + ls + 5, name, n) == 0 && !is_ident_char(text[ls + 5 + n]) &&
                         text[ls + 5 + n] != '.'))
                return 1;
        }
    }
    return 0;
}

static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? lf_xstrndup(path, (size_t)(slash - path)) : lf_xstrdup(".");
}

static int has_init(const char *dir) {
    char *p = lf_xasprintf("%s/__init__.py", dir);
    struct stat st;
    int ok = lf_deps_lstat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return ok;
}

/* Does any .py file under root (but `self`) reach `name` (text_reaches)? The
 * walk is iterative, never follows links, and skips hidden, venv, build and
 * node_modules directories. */
static int project_reaches(const char *root, const char *self, const char *name) {
    LF_VEC(char *) todo = {0};
    LF_VEC_PUSH(&todo, lf_xstrdup(root));
    int found = 0;
    while (todo.len && !found) {
        char *dir = todo.items[--todo.len];
        DIR *d = lf_deps_opendir(dir);
        struct dirent *e;
        while (d && !found && (e = readdir(d)) != NULL) {
            const char *n = e->d_name;
            if (n[0] == '.' || !strcmp(n, "node_modules") || !strcmp(n, "__pycache__") || !strcmp(n, "venv") ||
                !strncmp(n, "build", 5))
                continue;
            char *p = lf_xasprintf("%s/%s", dir, n);
            struct stat st;
            if (lf_deps_lstat(p, &st) != 0) {
                free(p);
                continue;
            }
            if (S_ISDIR(st.st_mode)) {
                char *cfg = lf_xasprintf("%s/pyvenv.cfg", p);
                struct stat cs;
                int venv = lf_deps_lstat(cfg, &cs) == 0;
                free(cfg);
                if (!venv) {
                    LF_VEC_PUSH(&todo, p);
                    continue;
                }
            } else if (S_ISREG(st.st_mode) && strlen(n) > 3 && !strcmp(n + strlen(n) - 3, ".py") &&
                       strcmp(p, self) != 0) {
                FILE *f = lf_deps_fopen_read(p);
                if (f) {
                    lf_strbuf sb;
                    lf_strbuf_init(&sb);
                    char buf[65536];
                    size_t k;
                    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
                        lf_strbuf_append(&sb, buf, k);
                    fclose(f);
                    found = sb.len && text_reaches(sb.data, sb.len, name);
                    lf_strbuf_free(&sb);
                }
            }
            free(p);
        }
        if (d)
            closedir(d);
        free(dir);
    }
    for (size_t i = 0; i < todo.len; i++)
        free(todo.items[i]);
    LF_VEC_FREE(&todo);
    return found;
}

/* The project a module belongs to: the directory above its top-level package
 * (where its tests and sibling packages live), or its own directory. */
static int module_reached_elsewhere(const char *module_path, const char *name) {
    char *dir = dir_of(module_path);
    while (has_init(dir)) {
        char *up = dir_of(dir);
        if (!strcmp(up, dir)) {
            free(up);
            break;
        }
        free(dir);
        dir = up;
    }
    int r = project_reaches(dir, module_path, name);
    free(dir);
    return r;
}

/* ---- the conditional import ---- */

/* Is every statement of the guard's branches the import, the stand-in, a flag of
 * this module, `pass` or an import of nothing else? Then the whole guard goes. */
static int guard_is_pure(const lf_pysem *m, const lf_pyoptional *o) {
    if (o->guard < 0)
        return 0;
    for (size_t i = 0; i < m->n_stmts; i++) {
        if ((int32_t)i == o->guard || !lf_pysem_stmt_within(m, (int32_t)i, o->guard))
            continue;
        TSNode st = m->stmts[i].node;
        if (lf_tree_is(st, "pass_statement") || (o->import && (int32_t)i == o->import->stmt) ||
            (o->fallback && (int32_t)i == o->fallback->stmt))
            continue;
        int flag = 0;
        TSNode a = lf_tree_child(st, 0);
        if (lf_tree_is(st, "expression_statement") && lf_tree_is(a, "assignment")) {
            TSNode left = lf_tree_field(a, "left");
            for (size_t k = 0; k < m->n_flags; k++)
                if (m->flags[k].module == o && lf_tree_text_eq(m->src, left, m->flags[k].name))
                    flag = 1;
        }
        if (!flag)
            return 0;
    }
    return 1;
}

typedef struct import_plan {
    int remove;              /* the guard goes */
    range_vec removals;      /* byte ranges to delete (whole lines) */
} import_plan;

static int blank_line_at(const lf_source *src, uint32_t at) {
    uint32_t e = lf_tree_next_line_start(src, at);
    for (uint32_t i = at; i < e; i++)
        if (src->text[i] != ' ' && src->text[i] != '\t' && src->text[i] != '\n' && src->text[i] != '\r')
            return 0;
    return at < src->len;
}

/* The statement's whole lines, with the comment lines right above it (they
 * speak of it); with a blank line after it when one precedes it too, so that
 * removing it leaves the blank lines as they were around it. */
static void add_line_removal(const lf_pysem *m, range_vec *out, int32_t stmt) {
    const lf_source *src = m->src;
    lf_byte_range r = {leading_comments(src, stmt_start(m, stmt)), lf_tree_next_line_start(src, stmt_end(m, stmt))};
    if (r.start > 0 && blank_line_at(src, lf_tree_line_start(src, r.start - 1)) && blank_line_at(src, r.end))
        r.end = lf_tree_next_line_start(src, r.end);
    LF_VEC_PUSH(out, r);
}

/* Module-level `import X` statements (one plain name each) that only the guard's
 * condition used: they go with the guard. */
static void condition_imports(lf_pysem *m, const lf_pyoptional *o, const range_vec *skip, range_vec *out) {
    TSNode cond = o->guard_condition;
    if (ts_node_is_null(cond)) {
        TSNode g = m->stmts[o->guard].node;
        if (lf_tree_is(g, "if_statement"))
            cond = lf_tree_field(g, "condition");
    }
    if (ts_node_is_null(cond))
        return;
    for (size_t i = 0; i < m->n_bindings; i++) {
        const lf_pybinding *b = &m->bindings[i];
        if (b->scope != 0 || b->kind != LF_PYBIND_IMPORT || b->stmt < 0 || m->stmts[b->stmt].parent != -1)
            continue;
        TSNode st = m->stmts[b->stmt].node;
        if (!lf_tree_is(st, "import_statement") || lf_tree_child_count(st) != 1 ||
            !lf_tree_is(lf_tree_child(st, 0), "dotted_name") || !lf_tree_mentions(m->src, cond, b->name, NULL) ||
            !lf_tree_starts_line(m->src, st))
            continue;
        if (lf_pysem_module_name_uses(m, b->name, skip->items, skip->len) == 0)
            add_line_removal(m, out, b->stmt);
    }
}

/* Can the conditional import of `o` go once the sites in `regions` are rewritten? */
static void plan_import(lf_pysem *m, const lf_pyoptional *o, const range_vec *regions, import_plan *plan) {
    memset(plan, 0, sizeof *plan);
    if (!o || o->guard < 0 || !guard_is_pure(m, o))
        return;
    range_vec skip = {0};
    for (size_t i = 0; i < regions->len; i++)
        LF_VEC_PUSH(&skip, regions->items[i]);
    lf_byte_range g = {stmt_start(m, o->guard), stmt_end(m, o->guard)};
    LF_VEC_PUSH(&skip, g);
    int used = lf_pysem_module_name_uses(m, o->name, skip.items, skip.len) > 0;
    for (size_t k = 0; k < m->n_flags && !used; k++)
        if (m->flags[k].module == o)
            used = lf_pysem_module_name_uses(m, m->flags[k].name, skip.items, skip.len) > 0;
    for (size_t k = 0; k < m->n_flags && !used; k++)
        if (m->flags[k].module == o)
            used = module_reached_elsewhere(m->src->path, m->flags[k].name);
    if (!used)
        used = module_reached_elsewhere(m->src->path, o->name);
    if (!used && lf_tree_starts_line(m->src, m->stmts[o->guard].node)) {
        plan->remove = 1;
        add_line_removal(m, &plan->removals, o->guard);
        condition_imports(m, o, &skip, &plan->removals);
    }
    LF_VEC_FREE(&skip);
}

/* ---- the portable-fcntl rewrite ---- */

/* The name `import fcntl [as X]` binds (malloc'd). */
static char *imported_name(const lf_source *src, TSNode st) {
    TSNode c = ts_node_named_child(st, 0);
    return lf_tree_text(src, lf_tree_is(c, "aliased_import") ? lf_tree_field(c, "alias") : c);
}

/* Replace [start, end of `st`) by `NAME = lockrt.fcntl`, with the note in
 * place of a trailing comment (one saying "Unix only" would no longer be
 * true); a statement followed by `;` and more keeps the rest of its line. */
static void add_portable_line(const lf_source *src, lf_fix *fix, uint32_t start, TSNode st, const char *name) {
    uint32_t end = ts_node_end_byte(st), e = end;
    while (e < src->len && (src->text[e] == ' ' || src->text[e] == '\t'))
        e++;
    int rest_is_comment = e >= src->len || src->text[e] == '#' || src->text[e] == '\n' || src->text[e] == '\r';
    if (rest_is_comment) {
        while (e < src->len && src->text[e] != '\n' && src->text[e] != '\r')
            e++;
        end = e;
    }
    char *text = lf_xasprintf("%s = lockrt.fcntl%s", name,
                              rest_is_comment ? "  # lockfix LF101: fcntl on every platform (on Windows, lockrt's "
                                                "flock)"
                                              : "");
    lf_fix_add_edit(fix, start, end, text);
    free(text);
}

/* `import fcntl [as X]` -> `X = lockrt.fcntl`; a module's stand-in
 * (`fcntl = None`) likewise. A guard (module level) or a try (in a function)
 * holding only those, with only ImportError's fallback, becomes the one line. */
static void add_portable_edits(const lf_pysem *m, const lf101_site *s, lf_fix *fix) {
    const lf_source *src = m->src;
    char *name = imported_name(src, m->stmts[s->portable_imports[0]].node);
    if (s->portable_guard >= 0)
        add_portable_line(src, fix, stmt_start(m, s->portable_guard), m->stmts[s->portable_guard].node, name);
    free(name);
    for (size_t k = 0; k < s->n_portable_imports; k++) {
        int32_t at = s->portable_imports[k];
        if (s->portable_guard >= 0 && lf_pysem_stmt_within(m, at, s->portable_guard))
            continue;
        TSNode st = m->stmts[at].node;
        if (!lf_tree_is(st, "import_statement")) {
            /* the stand-in: `fcntl = None` binds the name the assignment's left names */
            char *left = lf_tree_text(src, lf_tree_field(lf_tree_child(st, 0), "left"));
            add_portable_line(src, fix, ts_node_start_byte(st), st, left);
            free(left);
            continue;
        }
        char *bound = imported_name(src, st);
        int32_t tr = m->stmts[at].parent;
        if (tr >= 0 && m->stmts[at].clause == LF_PYCLAUSE_TRY_BODY && lf_pysem_next_sibling(m, at) < 0 &&
            lf_pysem_first_in_block(m, lf_tree_field(m->stmts[tr].node, "body")) == at &&
            lf_tree_starts_line(src, m->stmts[tr].node)) {
            int only_handlers = 1;
            for (uint32_t i = 0; i < ts_node_named_child_count(m->stmts[tr].node); i++) {
                TSNode cl = ts_node_named_child(m->stmts[tr].node, i);
                if (!lf_tree_is(cl, "block") && !lf_tree_is(cl, "except_clause"))
                    only_handlers = 0; /* else, finally, a comment between clauses */
            }
            /* a module's try guard that also binds the stand-in is the guard case above */
            if (only_handlers && m->stmts[tr].scope != 0)
                st = m->stmts[tr].node;
        }
        add_portable_line(src, fix, ts_node_start_byte(st), st, bound);
        free(bound);
    }
}

/* ---- the generator ---- */

static void generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    lf_pysem *m = lf_filesem_python(ctx->sem);
    if (!m) { /* TS/JS: the check's own reason, where it gave one */
        for (size_t i = 0; i < n; i++) {
            const lf101_site *s = reqs[i].site;
            reqs[i].no_fix_reason = lf_xstrdup(s && s->decline ? s->decline : "this fix rewrites Python only");
        }
        return;
    }
    int lone_cr = has_lone_cr(ctx->src);
    char **texts = lf_xcalloc(n + 1, sizeof *texts);
    range_vec regions = {0};
    size_t fixed = 0;
    for (size_t i = 0; i < n; i++) {
        const lf101_site *s = reqs[i].site;
        if (!s) {
            reqs[i].no_fix_reason = lf_xstrdup("the check recognised no rewritable site here");
            continue;
        }
        if (s->decline) {
            reqs[i].no_fix_reason = lf_xstrdup(s->decline);
            continue;
        }
        if (lone_cr) {
            reqs[i].no_fix_reason = lf_xstrdup("the file ends its lines with a lone CR, which the rewrite cannot keep");
            continue;
        }
        if (s->n_portable_imports) {
            texts[i] = lf_xstrdup(""); /* its edits are the imports' (add_portable_edits) */
            fixed++;
            continue;
        }
        texts[i] = rewrite(m, s, &reqs[i].no_fix_reason);
        if (!texts[i])
            continue;
        lf_byte_range r = {stmt_start(m, s->region_first), stmt_end(m, s->region_last)};
        LF_VEC_PUSH(&regions, r);
        fixed++;
    }
    if (fixed) {
        /* One import decision per optional module of the fixed sites. */
        lf_fix shared;
        memset(&shared, 0, sizeof shared);
        lf_vendor_plan plan;
        lf_vendor_plan_python(ctx->src->path, ctx->runtime_dir, &plan);
        const char *import_line = lf_vendor_python_binds_lockrt(m) ? "" : plan.import_line;
        const lf_pyoptional *done[16];
        size_t n_done = 0;
        for (size_t i = 0; i < n; i++) {
            const lf101_site *s = reqs[i].site;
            if (!texts[i] || !s->module || s->n_portable_imports)
                continue; /* fcntl from lockrt keeps the module's import */
            int seen = 0;
            for (size_t k = 0; k < n_done; k++)
                seen |= done[k] == s->module;
            if (seen || n_done == 16)
                continue; /* more lock modules than that: the others' imports stay */
            done[n_done++] = s->module;
            import_plan ip;
            plan_import(m, s->module, &regions, &ip);
            for (size_t k = 0; k < ip.removals.len; k++)
                lf_fix_add_edit(&shared, ip.removals.items[k].start, ip.removals.items[k].end, "");
            LF_VEC_FREE(&ip.removals);
        }
        if (*import_line)
            lf_fix_add_import(&shared, lf_vendor_python_import_at(m), import_line);
        for (size_t i = 0; i < n; i++) {
            if (!texts[i])
                continue;
            const lf101_site *s = reqs[i].site;
            lf_fix *fix = lf_xcalloc(1, sizeof *fix);
            if (s->n_portable_imports) {
                fix->title = lf_xstrdup("fcntl from lockrt in the lock helper: the fcntl module on Unix, a flock on "
                                        "lockrt's lock byte on Windows (binding vendored beside the module)");
                add_portable_edits(m, s, fix);
            } else {
                fix->title = lf_xstrdup("one copy of the update under lockrt.exclusive_lock (binding vendored beside "
                                        "the module)");
                lf_fix_add_edit(fix, stmt_start(m, s->region_first), stmt_end(m, s->region_last), texts[i]);
            }
            for (size_t k = 0; k < shared.n_edits; k++) {
                lf_fix_add_edit(fix, shared.edits[k].start, shared.edits[k].end, shared.edits[k].text);
                fix->edits[fix->n_edits - 1].flags = shared.edits[k].flags;
            }
            lf_vendor_attach(fix, &plan);
            reqs[i].fix = fix;
        }
        for (size_t k = 0; k < shared.n_edits; k++)
            free(shared.edits[k].text);
        free(shared.edits);
        lf_vendor_plan_free(&plan);
    }
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
    LF_VEC_FREE(&regions);
}

const lf_fixer lf101_lockrt = {"lf101_lockrt", generate, 0}; /* vendors lockrt: reads the package around the file */
