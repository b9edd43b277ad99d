/* LF401: a temp name fixed by the target (`path + ".tmp"`) that is then renamed
 * onto that target. The query finds renames spelled plainly; renames are also
 * found on the semantic model whatever the import spelling (`_os.replace`,
 * `from os import replace as mv`). The temp names are looked for only in the
 * functions that hold a rename. Whether the renamed file is that temp and the
 * destination its target needs the assignment flow inside one function, which
 * is decided here, together with everything the fix needs (checks/lf401_site.h). */
#include <stdlib.h>
#include <string.h>

#include "lf401_site.h"
#include "lf_py.h"
#include "lf_pyheld.h"
#include "lf_pylock.h"
#include "lf_pygate.h"
#include "lf_pysem.h"
#include "lf_re.h"
#include "lf_tree.h"
#include "lf_ts.h"
#include "lf_witness_build.h"

typedef struct temp_site {
    TSNode temp, base, sfx;
    int derived; /* found by derived_from_target, not by a spelling below */
} temp_site;

/* ---- the common temp spellings, recognised where the check asks ----
 *
 * `P + ".tmp"`, f"{P}.new", `P.with_suffix(".part")`, `P.with_name(P.name +
 * ".swp")`, `"%s.tmp" % P`, `"{}.tmp".format(P)`, with any affix that has no
 * '/', '%', '{' or '}'. These were query patterns once; with no name to anchor
 * on, they made the query walk every tree that mentions `replace` (str.replace
 * is everywhere), for temps that only matter near a rename. Now the check
 * looks for them only in the functions that hold a rename. */

typedef struct temp_res {
    lf_re *plain, *percent, *format; /* the affix of each spelling */
} temp_res;

static int affix_is(const lf_source *src, lf_re **re, const char *pattern, TSNode content) {
    if (!*re) {
        const char *why;
        int refused;
        *re = lf_re_compile(pattern, &why, &refused);
        if (!*re)
            return 0;
    }
    uint32_t a = ts_node_start_byte(content), b = ts_node_end_byte(content);
    return lf_re_search(*re, src->text + a, b - a);
}

/* A string whose named children are exactly string_start, string_content,
 * string_end: its content, else null. */
static TSNode literal_content(TSNode s) {
    if (!lf_tree_is(s, "string") || ts_node_named_child_count(s) != 3)
        return (TSNode){0};
    TSNode c = ts_node_named_child(s, 1);
    if (!lf_tree_is(ts_node_named_child(s, 0), "string_start") || !lf_tree_is(c, "string_content") ||
        !lf_tree_is(ts_node_named_child(s, 2), "string_end"))
        return (TSNode){0};
    return c;
}

/* The one named child of a call's argument_list, else null. */
static TSNode only_argument(TSNode call) {
    TSNode args = lf_tree_field(call, "arguments");
    if (!lf_tree_is(args, "argument_list") || ts_node_named_child_count(args) != 1)
        return (TSNode){0};
    return ts_node_named_child(args, 0);
}

/* Is n one of the spellings above? Fills t (temp, base, affix). */
static int temp_spelling(const lf_source *src, temp_res *re, TSNode n, temp_site *t) {
    memset(t, 0, sizeof *t);
    t->temp = n;
    if (lf_tree_is(n, "binary_operator")) {
        TSNode op = lf_tree_field(n, "operator");
        if (lf_tree_text_eq(src, op, "+")) { /* P + ".tmp" */
            t->sfx = literal_content(lf_tree_field(n, "right"));
            t->base = lf_tree_field(n, "left");
            return !ts_node_is_null(t->sfx) && affix_is(src, &re->plain, "^[^/%{}]+$", t->sfx);
        }
        if (lf_tree_text_eq(src, op, "%")) { /* "%s.tmp" % P */
            t->sfx = literal_content(lf_tree_field(n, "left"));
            t->base = lf_tree_field(n, "right");
            return !ts_node_is_null(t->sfx) && affix_is(src, &re->percent, "^%s[^/%{}]+$", t->sfx);
        }
        return 0;
    }
    if (lf_tree_is(n, "string")) { /* f"{P}.tmp" */
        if (ts_node_named_child_count(n) != 4 || !lf_tree_is(ts_node_named_child(n, 0), "string_start") ||
            !lf_tree_is(ts_node_named_child(n, 1), "interpolation") ||
            !lf_tree_is(ts_node_named_child(n, 2), "string_content") ||
            !lf_tree_is(ts_node_named_child(n, 3), "string_end"))
            return 0;
        t->base = lf_tree_field(ts_node_named_child(n, 1), "expression");
        t->sfx = ts_node_named_child(n, 2);
        return !ts_node_is_null(t->base) && affix_is(src, &re->plain, "^[^/%{}]+$", t->sfx);
    }
    if (!lf_tree_is(n, "call"))
        return 0;
    TSNode fn = lf_tree_field(n, "function"), m = lf_tree_field(fn, "attribute"), arg = only_argument(n);
    if (!lf_tree_is(fn, "attribute") || !lf_tree_is(m, "identifier") || ts_node_is_null(arg))
        return 0;
    TSNode obj = lf_tree_field(fn, "object");
    if (lf_tree_text_eq(src, m, "format")) { /* "{}.tmp".format(P) */
        t->sfx = literal_content(obj);
        t->base = arg;
        return !ts_node_is_null(t->sfx) && affix_is(src, &re->format, "^[{][}][^/%{}]+$", t->sfx);
    }
    int with_suffix = lf_tree_text_eq(src, m, "with_suffix");
    if (!with_suffix && !lf_tree_text_eq(src, m, "with_name"))
        return 0;
    t->base = obj;
    if (with_suffix && lf_tree_is(arg, "string")) { /* P.with_suffix(".tmp") */
        t->sfx = literal_content(arg);
        return !ts_node_is_null(t->sfx) && affix_is(src, &re->plain, "^[^/%{}]+$", t->sfx);
    }
    /* P.with_name(P.name + ".tmp"), P.with_suffix(P.suffix + ".tmp") */
    TSNode left = lf_tree_field(arg, "left");
    if (!lf_tree_is(arg, "binary_operator") || !lf_tree_is(left, "attribute") ||
        !lf_py_same_text(src, lf_tree_field(left, "object"), obj))
        return 0;
    t->sfx = literal_content(lf_tree_field(arg, "right"));
    return !ts_node_is_null(t->sfx) && affix_is(src, &re->plain, "^[^/%{}]+$", t->sfx);
}

typedef struct assign_scan {
    const lf_source *src;
    TSNode var;        /* the renamed name */
    TSNode before;     /* only assignments before the rename count */
    const temp_site *temps;
    size_t n_temps;
    TSNode dst;
    const temp_site *hit; /* the last assignment before the rename, when it matches */
} assign_scan;

static const temp_site *temp_for(const assign_scan *s, TSNode expr) {
    for (size_t i = 0; i < s->n_temps; i++) {
        if (ts_node_eq(s->temps[i].temp, expr) &&
            lf_py_same_text(s->src, lf_py_unwrap_path(s->src, s->temps[i].base), s->dst))
            return &s->temps[i];
    }
    return NULL;
}

static int visit_assignment(TSNode n, void *ud) {
    assign_scan *s = ud;
    if (ts_node_start_byte(n) >= ts_node_start_byte(s->before))
        return 0;
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || !lf_py_same_text(s->src, left, s->var))
        return 1;
    /* the last assignment before the rename names what it renames: an
     * earlier temp named from the target that a later assignment replaces
     * (`tmp = p + ".tmp"` ... `tmp = unique()`) is not renamed there */
    s->hit = temp_for(s, lf_tree_unparen(right));
    return 1;
}

void lf401_site_free(void *site) {
    lf401_site *s = site;
    if (!s)
        return;
    free(s->decline);
    free(s->inline_uses);
    free(s);
}

static const char *const k_renames[] = {"os.replace", "os.rename", "shutil.move", NULL};
static const char *const k_unlinks[] = {"os.unlink", "os.remove", NULL};
/* A copy of the target to the name is a backup that may be restored onto the
 * target, not a temp that is written. */
static const char *const k_copies[] = {"shutil.copy", "shutil.copy2", "shutil.copyfile", NULL};

/* The statement holding n: the ancestor whose parent is a block or the module. */
static TSNode statement_of(TSNode n) {
    while (!ts_node_is_null(n)) {
        TSNode p = ts_node_parent(n);
        if (ts_node_is_null(p) || lf_tree_is(p, "block") || lf_tree_is(p, "module"))
            return n;
        n = p;
    }
    return n;
}

/* The ancestor statement of `inner` that sits in `block` (directly), or null. */
static TSNode ancestor_in(TSNode inner, TSNode block) {
    for (TSNode s = statement_of(inner); !ts_node_is_null(s); s = statement_of(ts_node_parent(s)))
        if (ts_node_eq(ts_node_parent(s), block))
            return s;
    return (TSNode){0};
}

/* Does any call under n remove the temp (`os.unlink(T)`, `os.remove(T)`, `T.unlink()`)? */
static int removes_temp(lf_pysem *m, const lf_source *src, TSNode n, TSNode temp_ref) {
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node;
        if (!lf_tree_within(c, n))
            continue;
        TSNode a;
        if (lf_pysem_call_is(m, c, k_unlinks) && lf_py_call_arg(c, 0, &a) &&
            lf_py_same_text(src, lf_py_unwrap_path(src, a), temp_ref))
            return 1;
        TSNode fn = lf_tree_field(c, "function"), name;
        if (lf_tree_is(fn, "attribute") && lf_py_call_name(c, &name) && lf_tree_text_eq(src, name, "unlink") &&
            lf_py_same_text(src, lf_tree_unparen(lf_tree_field(fn, "object")), temp_ref))
            return 1;
    }
    return 0;
}

/* An except clause that catches everything: bare, BaseException. */
static int catches_all(const lf_source *src, TSNode clause) {
    for (uint32_t i = 0; i < ts_node_named_child_count(clause); i++) {
        TSNode c = ts_node_named_child(clause, i);
        if (lf_tree_is(c, "block") || lf_tree_is(c, "comment"))
            continue;
        if (lf_tree_is(c, "as_pattern"))
            c = ts_node_named_child(c, 0);
        return lf_tree_text_eq(src, c, "BaseException");
    }
    return 1; /* bare except */
}

/* How a failing write will remove its temp (see lf401_site.h). */
/* How a failed write will remove its temp (see lf401_site.h). A `try` around
 * the rename whose handlers remove the temp keeps doing so, and gets an
 * `except BaseException` clause for what they do not catch: wrapping inside it
 * would remove the temp twice, and its handler's own removal would then fail.
 * Handlers that leave the temp alone do not stand in the way of a wrap. */
static void plan_cleanup(lf_pysem *m, const lf_source *src, lf401_site *s, TSNode first_use, TSNode naming,
                         TSNode temp_ref) {
    TSNode rename_stmt = statement_of(s->rename);
    for (TSNode t = ts_node_parent(rename_stmt); !ts_node_is_null(t); t = ts_node_parent(t)) {
        if (lf_pysem_is_function_node(t))
            break;
        if (!lf_tree_is(t, "try_statement") || !lf_tree_within(rename_stmt, lf_tree_field(t, "body")))
            continue;
        int any = 0, all = 1, everything = 0;
        for (uint32_t i = 0; i < ts_node_named_child_count(t); i++) {
            TSNode c = ts_node_named_child(t, i);
            if (!lf_tree_is(c, "except_clause"))
                continue;
            int removes = removes_temp(m, src, c, temp_ref);
            any = any || removes;
            all = all && removes;
            everything = everything || (removes && catches_all(src, c));
        }
        if (!any)
            continue; /* no handler touches the temp: look further out */
        if (!all) {
            s->decline = lf_xstrdup("a handler of the `try` around the write does not remove the temp while another "
                                    "does: a unique temp would be left behind after the errors it catches (the fixed "
                                    "one was overwritten by the next write)");
            return;
        }
        if (lf_tree_within(naming, lf_tree_field(t, "body"))) {
            s->decline = lf_xstrdup("the temp is named inside the `try` whose handler removes it: a handler added for "
                                    "the other errors could run before the name is bound");
            return;
        }
        s->try_stmt = t;
        s->cleanup = everything ? LF401_CLEAN_HANDLED : LF401_CLEAN_CLAUSE;
        return;
    }
    /* Wrap the statements of the innermost block holding both the first use
     * of the temp and the rename: inside any try that swallows the error. */
    for (TSNode a = rename_stmt; !ts_node_is_null(a); a = statement_of(ts_node_parent(a))) {
        TSNode f = ancestor_in(first_use, ts_node_parent(a));
        if (!ts_node_is_null(f)) {
            s->region_first = f;
            s->region_last = a;
            break;
        }
    }
    if (ts_node_is_null(s->region_first) || ts_node_start_byte(s->region_last) < ts_node_start_byte(s->region_first)) {
        s->decline = lf_xstrdup("the rename is not in the block where the temp is named");
        return;
    }
    s->cleanup = LF401_CLEAN_WRAP;
}

static const char *const k_opens[] = {"open", "io.open", "builtins.open", "codecs.open", NULL};

/* The mode string of an open call (positional `mode_index` or mode=), or NULL
 * when it is not a plain literal; "r" when absent. malloc'd. */
static char *open_mode(const lf_source *src, TSNode call, uint32_t mode_index) {
    TSNode mode = {0};
    if (!lf_py_call_arg(call, mode_index, &mode)) {
        TSNode args = lf_tree_field(call, "arguments");
        for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
            TSNode a = ts_node_named_child(args, i);
            if (lf_tree_is(a, "keyword_argument") && lf_tree_text_eq(src, lf_tree_field(a, "name"), "mode"))
                mode = lf_tree_field(a, "value");
        }
    }
    if (ts_node_is_null(mode))
        return lf_xstrdup("r");
    if (!lf_tree_is(mode, "string") || ts_node_named_child_count(mode) != 3)
        return NULL;
    return lf_node_text(src, ts_node_named_child(mode, 1));
}

/* How one use of the temp touches it: 1 creates it afresh (open "w"/"x",
 * write_text, write_bytes), -1 reads or extends what is there (open "a", "r+",
 * a mode that is not a literal), 0 otherwise. */
/* os.open's flags create the file afresh: O_CREAT with O_TRUNC or O_EXCL,
 * and no O_APPEND. */
static int os_open_creates(const lf_source *src, TSNode flags) {
    return !ts_node_is_null(flags) && lf_tree_mentions(src, flags, "O_CREAT", NULL) &&
           (lf_tree_mentions(src, flags, "O_TRUNC", NULL) || lf_tree_mentions(src, flags, "O_EXCL", NULL)) &&
           !lf_tree_mentions(src, flags, "O_APPEND", NULL);
}

static int use_kind(lf_pysem *m, const lf_source *src, TSNode use) {
    TSNode p = ts_node_parent(use);
    while (lf_tree_is(p, "parenthesized_expression"))
        use = p, p = ts_node_parent(p);
    /* `str(tmp)` / `os.fspath(tmp)` name the same file */
    static const char *const same_file[] = {"str", "os.fspath", NULL};
    while (lf_tree_is(p, "argument_list") && ts_node_named_child_count(p) == 1 &&
           lf_pysem_call_is(m, ts_node_parent(p), same_file)) {
        use = ts_node_parent(p);
        p = ts_node_parent(use);
    }
    char *mode = NULL;
    static const char *const os_open[] = {"os.open", NULL};
    if (lf_tree_is(p, "argument_list") && lf_pysem_call_is(m, ts_node_parent(p), os_open)) {
        TSNode call = ts_node_parent(p), first, flags;
        if (!lf_py_call_arg(call, 0, &first) || !ts_node_eq(first, use))
            return 0;
        return lf_py_call_arg(call, 1, &flags) && os_open_creates(src, flags) ? 1 : -1;
    }
    if (lf_tree_is(p, "argument_list")) {
        TSNode call = ts_node_parent(p), first;
        if (!lf_py_call_arg(call, 0, &first) || !ts_node_eq(first, use) || !lf_pysem_call_is(m, call, k_opens))
            return 0;
        mode = open_mode(src, call, 1);
    } else if (lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "object"), use) &&
               lf_tree_is(ts_node_parent(p), "call")) {
        TSNode attr = lf_tree_field(p, "attribute");
        if (lf_tree_text_eq(src, attr, "write_text") || lf_tree_text_eq(src, attr, "write_bytes"))
            return 1;
        if (!lf_tree_text_eq(src, attr, "open"))
            return 0;
        mode = open_mode(src, ts_node_parent(p), 0);
    } else {
        return 0;
    }
    int kind = mode && (mode[0] == 'w' || mode[0] == 'x') ? 1 : -1; /* "w+" truncates too */
    free(mode);
    return kind;
}

typedef struct uses_scan {
    lf_pysem *m;
    const lf_source *src;
    const char *name;
    uint32_t from, to;
    int creates, extends;
    TSNode first; /* the first use */
} uses_scan;

static int visit_temp_use(TSNode n, void *ud) {
    uses_scan *u = ud;
    if (ts_node_start_byte(n) < u->from || ts_node_start_byte(n) > u->to || !lf_tree_text_eq(u->src, n, u->name))
        return 1;
    /* `obj.tmp` and `f(tmp=...)` name something else. */
    TSNode p = ts_node_parent(n);
    if ((lf_tree_is(p, "attribute") && ts_node_eq(lf_tree_field(p, "attribute"), n)) ||
        (lf_tree_is(p, "keyword_argument") && ts_node_eq(lf_tree_field(p, "name"), n)))
        return 1;
    if (ts_node_is_null(u->first))
        u->first = n;
    int k = use_kind(u->m, u->src, n);
    u->creates += k > 0;
    u->extends += k < 0;
    return 1;
}

static void classify_form(const lf_source *src, lf401_site *s) {
    TSNode str = ts_node_parent(s->suffix);
    TSNode t = s->temp;
    if (lf_tree_is(t, "string"))
        s->form = LF401_FSTRING;
    else if (lf_tree_is(t, "binary_operator") && ts_node_eq(lf_tree_field(t, "left"), str) &&
             lf_tree_text_eq(src, lf_tree_field(t, "operator"), "%"))
        s->form = LF401_PERCENT, s->operand = lf_tree_field(t, "right");
    else if (lf_tree_is(t, "call") && ts_node_eq(lf_tree_field(lf_tree_field(t, "function"), "object"), str))
        s->form = LF401_FORMAT, lf_py_call_arg(t, 0, &s->operand);
    else
        s->form = LF401_CONCAT;
    if (s->form == LF401_PERCENT && lf_tree_is(s->operand, "tuple"))
        s->decline = lf_xstrdup("the temp name is `%`-formatted from a tuple; the fix handles a single operand");
}

/* ---- a temp name derived only from its target, in any spelling ----
 *
 * temp_spelling finds the common spellings (`P + ".tmp"`, f"{P}.new",
 * `P.with_suffix(".part")`). What they do not spell out is asked as the rule's
 * own question: is the renamed name a pure function of the rename's target,
 * built only from the target (or the parts a join made it from), its
 * dirname/basename/name/stem/parent, and string literals, with no pid, uuid,
 * time, random or mkstemp component? Names the function assigned are
 * followed to their values; anything else (a parameter, another call) makes
 * the name not derived. Bounded by a step budget, iteratively. */

enum { DERIVE_BUDGET = 96 };

static const char *const k_derive_calls[] = {"os.path.join", "os.path.dirname", "os.path.basename", "os.fspath",
                                             "str", "pathlib.Path", "pathlib.PurePath", NULL};
static const char *const k_derive_methods[] = {"with_name", "with_suffix", "with_stem", "joinpath", NULL};
static const char *const k_derive_attrs[] = {"parent", "name", "stem", "suffix", NULL};

static int word_in(const lf_source *src, TSNode n, const char *const *words) {
    for (size_t i = 0; words[i]; i++)
        if (lf_tree_text_eq(src, n, words[i]))
            return 1;
    return 0;
}

typedef struct derive_target {
    TSNode parts[8]; /* the target, its value, and what a join built it from */
    int is_dir[8];   /* a directory part of that join: it does not tell targets apart */
    size_t n;
} derive_target;

static void target_parts(lf_pysem *m, const lf_source *src, TSNode dst, derive_target *t) {
    t->n = 0;
    t->parts[t->n] = dst, t->is_dir[t->n++] = 0;
    TSNode v = lf_py_unwrap_path(src, lf_pysem_resolve_value(m, dst));
    if (!ts_node_eq(v, dst))
        t->parts[t->n] = v, t->is_dir[t->n++] = 0;
    TSNode args[4];
    size_t k = 0;
    if (lf_tree_is(v, "call") && lf_pysem_callee(m, v) && !strcmp(lf_pysem_callee(m, v), "os.path.join")) {
        for (uint32_t i = 0; k < 4 && lf_py_call_arg(v, i, &args[k]); i++)
            k++;
    } else if (lf_tree_is(v, "binary_operator") && lf_tree_text_eq(src, lf_tree_field(v, "operator"), "/")) {
        args[k++] = lf_tree_field(v, "left");
        args[k++] = lf_tree_field(v, "right");
    }
    for (size_t i = 0; i < k && t->n < 8; i++)
        t->parts[t->n] = lf_py_unwrap_path(src, args[i]), t->is_dir[t->n++] = i + 1 < k;
}

/* -1: not a part of the target; 0: a directory part; 1: a part naming it. */
static int target_part(const lf_source *src, const derive_target *t, TSNode n) {
    int found = -1;
    for (size_t i = 0; i < t->n; i++)
        if (lf_py_same_text(src, t->parts[i], n) && found < !t->is_dir[i])
            found = !t->is_dir[i];
    return found;
}

typedef struct derive_item {
    TSNode node;
    int dir_only; /* under dirname(), .parent, or a join's directory argument */
} derive_item;

typedef struct derive_walk {
    lf_pysem *m;
    const lf_source *src;
    derive_target t;
    int names, literals;
    derive_item push[8]; /* what one node is built from */
    size_t np;
} derive_walk;

static int derive_push(derive_walk *w, TSNode n, int dir_only) {
    if (w->np >= 8)
        return 0; /* more parts than a file name is made of: give up */
    w->push[w->np++] = (derive_item){n, dir_only};
    return 1;
}

/* The parts of call n a derived name may be built from: os.path functions,
 * str()/Path(), and pathlib's with_name/with_suffix/with_stem/joinpath. */
static int derive_call(derive_walk *w, TSNode n, int dir_only) {
    const lf_source *src = w->src;
    TSNode fn = lf_tree_field(n, "function");
    const char *q = lf_pysem_callee(w->m, n);
    int dir_args = 0; /* 1: dirname() keeps the directory only; 2: join() all arguments but the last */
    if (lf_pysem_call_is(w->m, n, k_derive_calls)) {
        dir_args = q && !strcmp(q, "os.path.dirname") ? 1 : q && !strcmp(q, "os.path.join") ? 2 : 0;
    } else if (lf_tree_is(fn, "attribute") && word_in(src, lf_tree_field(fn, "attribute"), k_derive_methods)) {
        /* with_name()/with_stem() replace the name: only the receiver's directory stays */
        TSNode meth = lf_tree_field(fn, "attribute");
        int renames = lf_tree_text_eq(src, meth, "with_name") || lf_tree_text_eq(src, meth, "with_stem");
        if (!derive_push(w, lf_tree_field(fn, "object"), dir_only || renames))
            return 0;
        dir_args = lf_tree_text_eq(src, meth, "joinpath") ? 2 : 0;
    } else {
        return 0; /* getpid(), uuid4(), time(), mkstemp(), anything else */
    }
    TSNode args = lf_tree_field(n, "arguments");
    size_t nargs = lf_py_call_nargs(n), k = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (lf_tree_is(a, "comment"))
            continue;
        if (!derive_push(w, a, dir_only || dir_args == 1 || (dir_args == 2 && k + 1 < nargs)))
            return 0;
        k++;
    }
    return 1;
}

/* One node of a candidate name: counts it when it is a part of the target or
 * a literal, else fills w->push with what it is built from. 0 when it is
 * something else (the name is not derived). */
static int derive_node(derive_walk *w, derive_item it) {
    const lf_source *src = w->src;
    TSNode n = lf_tree_unparen(it.node);
    w->np = 0;
    int part = target_part(src, &w->t, lf_py_unwrap_path(src, n));
    if (part >= 0) {
        w->names += part > 0 && !it.dir_only;
        return 1;
    }
    if (lf_tree_is(n, "string")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode c = ts_node_named_child(n, i);
            if (lf_tree_is(c, "string_content"))
                w->literals++;
            else if (lf_tree_is(c, "interpolation") && !derive_push(w, lf_tree_field(c, "expression"), it.dir_only))
                return 0;
        }
        return 1;
    }
    if (lf_tree_is(n, "concatenated_string")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (!derive_push(w, ts_node_named_child(n, i), it.dir_only))
                return 0;
        return 1;
    }
    if (lf_tree_is(n, "binary_operator")) {
        TSNode op = lf_tree_field(n, "operator");
        int slash = lf_tree_text_eq(src, op, "/"); /* `dir / name`: the left side is a directory */
        return (slash || lf_tree_text_eq(src, op, "+")) &&
               derive_push(w, lf_tree_field(n, "left"), it.dir_only || slash) &&
               derive_push(w, lf_tree_field(n, "right"), it.dir_only);
    }
    if (lf_tree_is(n, "attribute")) {
        TSNode attr = lf_tree_field(n, "attribute");
        return word_in(src, attr, k_derive_attrs) &&
               derive_push(w, lf_tree_field(n, "object"), it.dir_only || lf_tree_text_eq(src, attr, "parent"));
    }
    if (lf_tree_is(n, "call"))
        return derive_call(w, n, it.dir_only);
    if (lf_tree_is(n, "identifier")) {
        /* a name the function assigned: its value; a parameter, a loop
         * variable, a global: not known to be the target's */
        TSNode v = lf_pysem_resolve_value(w->m, n);
        return !ts_node_eq(v, n) && derive_push(w, v, it.dir_only);
    }
    return 0;
}

static int plain_literal(TSNode n);

/* The directory parts and the literal last part of a join (`os.path.join(d,
 * "state.json")`, `d / "state.json"`): *n parts, the last one returned when
 * it is a plain literal, else null. */
static TSNode join_literal(lf_pysem *m, const lf_source *src, TSNode e, TSNode *dirs, size_t *n) {
    TSNode v = lf_py_unwrap_path(src, lf_pysem_resolve_value(m, e)), last = {0};
    *n = 0;
    if (lf_tree_is(v, "call") && lf_pysem_callee(m, v) && !strcmp(lf_pysem_callee(m, v), "os.path.join")) {
        TSNode a;
        for (uint32_t i = 0; *n < 4 && lf_py_call_arg(v, i, &a); i++)
            dirs[(*n)++] = a;
    } else if (lf_tree_is(v, "binary_operator") && lf_tree_text_eq(src, lf_tree_field(v, "operator"), "/")) {
        dirs[(*n)++] = lf_tree_field(v, "left");
        dirs[(*n)++] = lf_tree_field(v, "right");
    }
    if (*n < 2)
        return last;
    last = lf_tree_unparen(dirs[--(*n)]);
    return plain_literal(last) ? last : (TSNode){0};
}

/* `os.path.join(d, "auth.json.tmp")` renamed onto `os.path.join(d,
 * "auth.json")` (or `d / ...`): a literal temp name in the same directory made
 * from the target's literal name with an affix, one temp for every writer. */
static int literal_sibling(lf_pysem *m, const lf_source *src, TSNode e, TSNode dst) {
    TSNode ed[4], dd[4];
    size_t en, dn;
    TSNode el = join_literal(m, src, e, ed, &en), dl = join_literal(m, src, dst, dd, &dn);
    if (ts_node_is_null(el) || ts_node_is_null(dl) || en != dn)
        return 0;
    for (size_t i = 0; i < en; i++)
        if (!lf_py_same_text(src, lf_py_unwrap_path(src, ed[i]), lf_py_unwrap_path(src, dd[i])))
            return 0;
    TSNode ec = ts_node_named_child(el, 1), dc = ts_node_named_child(dl, 1);
    uint32_t ea = ts_node_start_byte(ec), eb = ts_node_end_byte(ec), da = ts_node_start_byte(dc),
             db = ts_node_end_byte(dc);
    size_t lt = eb - ea, lf = db - da;
    const char *t = src->text + ea, *f = src->text + da;
    return lf > 0 && lt > lf && (!memcmp(t, f, lf) || !memcmp(t + lt - lf, f, lf));
}

/* 1 when `e` is built only from the target and string literals, with at least
 * one of each, and the target's own name among them (not only its directory:
 * `join(dirname(p), "txn.tmp")` is one fixed sibling for every target, a
 * different design than a temp named after its target). */
static int derived_from_target(lf_pysem *m, const lf_source *src, TSNode e, TSNode dst) {
    if (literal_sibling(m, src, e, dst))
        return 1;
    derive_walk w = {.m = m, .src = src};
    target_parts(m, src, dst, &w.t);
    if (target_part(src, &w.t, lf_py_unwrap_path(src, e)) > 0)
        return 0; /* the target itself */
    derive_item stack[DERIVE_BUDGET];
    size_t sp = 0, steps = 0;
    stack[sp++] = (derive_item){e, 0};
    while (sp > 0) {
        if (++steps > DERIVE_BUDGET || !derive_node(&w, stack[--sp]) || sp + w.np > DERIVE_BUDGET)
            return 0;
        for (size_t i = w.np; i > 0; i--)
            stack[sp++] = w.push[i - 1];
    }
    return w.names > 0 && w.literals > 0;
}

/* Where a derived temp name ends, for the fix: the string expression that
 * forms its last path component (the argument of with_name/with_suffix, the
 * last argument of a join, the right side of `/`). */
static TSNode name_part(const lf_source *src, TSNode e) {
    for (int hop = 0; hop < 16; hop++) {
        e = lf_tree_unparen(e);
        TSNode fn = lf_tree_field(e, "function"), a;
        size_t n = lf_tree_is(e, "call") ? lf_py_call_nargs(e) : 0;
        if (n > 0 && lf_tree_is(fn, "attribute") &&
            (lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "with_name") ||
             lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "with_suffix")) &&
            lf_py_call_arg(e, 0, &a))
            e = a;
        else if (n > 0 && (lf_py_is(src, fn, "os.path.join") || lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "joinpath")) &&
                 lf_py_call_arg(e, (uint32_t)n - 1, &a))
            e = a;
        else if (lf_tree_is(e, "binary_operator") && lf_tree_text_eq(src, lf_tree_field(e, "operator"), "/"))
            e = lf_tree_field(e, "right");
        else
            return e;
    }
    return e;
}

static int has_interpolation(TSNode n) {
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (lf_tree_is(ts_node_named_child(n, i), "interpolation"))
            return 1;
    return 0;
}

static int plain_literal(TSNode n) {
    return lf_tree_is(n, "string") && ts_node_named_child_count(n) == 3 &&
           lf_tree_is(ts_node_named_child(n, 1), "string_content");
}

/* The form of a derived temp name and the node the fix inserts at. */
static void classify_derived(const lf_source *src, lf401_site *s) {
    TSNode S = name_part(src, s->temp);
    if (lf_tree_is(S, "string") && has_interpolation(S)) {
        /* an f-string: before its trailing text, or before its closing quote */
        uint32_t k = ts_node_named_child_count(S);
        TSNode last = ts_node_named_child(S, k - 2);
        s->form = LF401_FSTRING;
        s->suffix = lf_tree_is(last, "string_content") ? last : ts_node_named_child(S, k - 1);
        return;
    }
    if (plain_literal(S)) {
        s->form = LF401_CONCAT;
        s->suffix = ts_node_named_child(S, 1);
        return;
    }
    if (lf_tree_is(S, "binary_operator") && lf_tree_text_eq(src, lf_tree_field(S, "operator"), "+")) {
        TSNode r = lf_tree_unparen(lf_tree_field(S, "right"));
        if (plain_literal(r)) {
            s->form = LF401_CONCAT;
            s->suffix = ts_node_named_child(r, 1);
            return;
        }
        /* No suffix (`"tmp_" + name`): the random part goes at the end, in the
         * quotes of a literal of the chain (there is one: it is a str chain). */
        for (TSNode l = S; !ts_node_is_null(l); l = lf_tree_unparen(lf_tree_field(l, "left"))) {
            TSNode lit = lf_tree_is(l, "binary_operator") ? lf_tree_unparen(lf_tree_field(l, "right")) : l;
            if (plain_literal(lit)) {
                s->form = LF401_TAIL;
                s->suffix = ts_node_named_child(lit, 1);
                s->operand = S;
                return;
            }
            if (!lf_tree_is(l, "binary_operator"))
                break;
        }
    }
    s->decline = lf_xstrdup("the temp name is derived from the target in a spelling whose end the fix cannot find "
                            "(it adds a random part before the suffix of a `+` chain, an f-string or a literal)");
}

static lf401_site *make_site(lf_pysem *m, const lf_source *src, const temp_site *hit, TSNode rename, TSNode scope,
                             const temp_site *temps, size_t n_temps) {
    lf401_site *s = lf_xcalloc(1, sizeof *s);
    s->temp = hit->temp;
    s->base = hit->base;
    s->suffix = hit->sfx;
    s->rename = rename;
    s->scope = m ? lf_pysem_scope_of(m, rename) : 0;
    if (!m || src->lang != LF_LANG_PYTHON) {
        s->decline = lf_xstrdup("this fix rewrites Python only");
        return s;
    }
    if (hit->derived)
        classify_derived(src, s);
    else if (ts_node_is_null(s->suffix) || !lf_tree_is(ts_node_parent(s->suffix), "string"))
        s->decline = lf_xstrdup("the temp name's suffix is not a plain string literal");
    else
        classify_form(src, s);
    if (s->decline)
        return s;
    TSNode assign = ts_node_parent(s->temp);
    while (lf_tree_is(assign, "parenthesized_expression"))
        assign = ts_node_parent(assign);
    TSNode stmt = ts_node_parent(assign);
    TSNode left = lf_tree_field(assign, "left");
    TSNode block, first, temp_ref, naming;
    if (lf_tree_is(assign, "assignment") && lf_tree_is(left, "identifier") && lf_tree_is(stmt, "expression_statement") &&
        ts_node_named_child_count(stmt) == 1 && (lf_tree_is(ts_node_parent(stmt), "block") ||
                                                 lf_tree_is(ts_node_parent(stmt), "module"))) {
        s->var = left;
        temp_ref = left;
        naming = stmt;
        block = ts_node_parent(stmt);
        /* The region starts at the first later statement that uses the temp. */
        first = (TSNode){0};
        char *name = lf_node_text(src, left);
        for (TSNode x = ts_node_next_named_sibling(stmt); !ts_node_is_null(x); x = ts_node_next_named_sibling(x))
            if (!lf_tree_is(x, "comment") && lf_tree_mentions(src, x, name, NULL)) {
                first = x;
                break;
            }
        free(name);
        if (ts_node_is_null(first)) {
            s->decline = lf_xstrdup("the rename is not in the block where the temp is named");
            return s;
        }
    } else if (hit->derived) {
        s->decline = lf_xstrdup("the temp name is spelled out at each use; the fix names such a spelling only when it "
                                "is a suffix added to the target (`path + \".tmp\"`)");
        return s;
    } else {
        /* Spelled inline: every same spelling in the function up to the rename
         * names the one temp; the fix names it once, in a variable. */
        LF_VEC(TSNode) uses = {0};
        for (size_t k = 0; k < n_temps; k++)
            if (lf_py_within(temps[k].temp, scope) && lf_py_same_text(src, temps[k].temp, hit->temp))
                LF_VEC_PUSH(&uses, temps[k].temp);
        s->inline_uses = uses.items;
        s->n_inline_uses = uses.len;
        temp_ref = hit->temp;
        naming = (TSNode){0};
        /* The block holding both the first spelling and the rename. */
        block = (TSNode){0};
        first = (TSNode){0};
        for (TSNode a = statement_of(hit->temp); !ts_node_is_null(a); a = statement_of(ts_node_parent(a))) {
            TSNode b = ts_node_parent(a);
            if (lf_tree_within(rename, b) && !ts_node_is_null(ancestor_in(rename, b))) {
                block = b;
                first = a;
                break;
            }
        }
        if (ts_node_is_null(block)) {
            s->decline = lf_xstrdup("the rename is not in the block where the temp is named");
            return s;
        }
        /* Every spelling must come after the new variable, in its block. */
        for (size_t k = 0; k < s->n_inline_uses; k++)
            if (ts_node_start_byte(s->inline_uses[k]) < ts_node_start_byte(first) ||
                !lf_tree_within(s->inline_uses[k], block)) {
                s->decline = lf_xstrdup("the temp name is spelled out again outside the block that writes and renames "
                                        "it; one variable could not name it everywhere");
                return s;
            }
        TSNode a = statement_of(hit->temp);
        if (lf_tree_is(a, "expression_statement") && lf_tree_is(ts_node_named_child(a, 0), "assignment") &&
            ts_node_eq(a, first) && ts_node_start_byte(hit->temp) < ts_node_start_byte(rename) &&
            lf_tree_within(hit->temp, lf_tree_field(ts_node_named_child(a, 0), "left"))) {
            s->decline = lf_xstrdup("the temp name is an assignment target");
            return s;
        }
    }
    /* A unique temp starts empty: the old one must have been created afresh too. */
    uses_scan u = {m, src, NULL, ts_node_end_byte(hit->temp), ts_node_start_byte(rename), 0, 0, {{0}, 0, 0}};
    if (!ts_node_is_null(s->var)) {
        char *name = lf_node_text(src, s->var);
        u.name = name;
        lf_py_walk(scope, "identifier", 1, visit_temp_use, &u);
        free(name);
    } else {
        for (size_t k = 0; k < s->n_inline_uses; k++) {
            int kind = use_kind(m, src, s->inline_uses[k]);
            u.creates += kind > 0;
            u.extends += kind < 0;
        }
    }
    if (u.extends || !u.creates) {
        s->decline = lf_xstrdup(u.extends ? "the temp is opened to read or append to what is there (not only created "
                                            "with \"w\"): a unique temp would start empty"
                                          : "the temp is not created by an open(..., \"w\") the fix can see (it is "
                                            "written elsewhere): a unique temp might not start as the fixed one did");
        return s;
    }
    TSNode first_use = hit->temp; /* inline: its first spelling */
    if (!ts_node_is_null(s->var))
        first_use = ts_node_is_null(u.first) ? first : u.first;
    if (ts_node_is_null(naming))
        naming = s->name_at = first; /* inline: the variable goes just before it */
    plan_cleanup(m, src, s, first_use, naming, temp_ref);
    return s;
}

/* Is `name` opened for writing, or written through pathlib, between calls
 * a and b? */
static int written_between(lf_pysem *m, const lf_source *src, TSNode name, TSNode a, TSNode b) {
    for (size_t i = 0; i < m->n_calls; i++) {
        TSNode c = m->calls[i].node, arg;
        if (ts_node_start_byte(c) <= ts_node_start_byte(a) || ts_node_start_byte(c) >= ts_node_start_byte(b))
            continue;
        if (lf_pysem_call_is(m, c, k_opens) && lf_py_call_arg(c, 0, &arg) &&
            lf_py_same_text(src, lf_py_unwrap_path(src, arg), name)) {
            char *mode = open_mode(src, c, 1);
            int writes = !mode || strpbrk(mode, "wax+") != NULL;
            free(mode);
            if (writes)
                return 1;
        }
        TSNode fn = lf_tree_field(c, "function");
        if (lf_tree_is(fn, "attribute") && lf_py_same_text(src, lf_tree_unparen(lf_tree_field(fn, "object")), name) &&
            (lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "write_text") ||
             lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "write_bytes") ||
             lf_tree_text_eq(src, lf_tree_field(fn, "attribute"), "open")))
            return 1;
    }
    return 0;
}

typedef struct spelling_scan {
    const lf_source *src;
    TSNode like, first;
} spelling_scan;

static int visit_spelling(TSNode n, void *ud) {
    spelling_scan *s = ud;
    if (!lf_py_same_text(s->src, n, s->like))
        return 1;
    s->first = n;
    return 0; /* pre-order: the first one in the text */
}

/* The first spelling in the function of the expression `e` names inline. */
static TSNode first_spelling(const lf_source *src, TSNode scope, TSNode e) {
    spelling_scan s = {src, e, e};
    lf_py_walk(scope, ts_node_type(e), 1, visit_spelling, &s);
    return s.first;
}

/* The rule's message for a name that is not one of the common spellings. */
static char *derived_message(const lf_source *src, TSNode temp, TSNode dst) {
    char *t = lf_node_text(src, temp), *b = lf_node_text(src, dst);
    char *msg = lf_xasprintf("temp name %s is fixed by the target %s: concurrent writers share one temp file, so one "
                             "writer's rename can publish another's half-written data or fail with a missing temp",
                             t, b);
    free(t);
    free(b);
    return msg;
}

/* ---- is the semantic model worth building? ----
 *
 * Most files that say `replace` say it for str.replace, and the model costs a
 * fifth of a scan of CPython's library. It finds renames the query does not
 * (`_os.replace`, `from os import replace as mv`) only through a binding of
 * os or shutil: an import that names them, or importlib.import_module /
 * __import__ with the name in a string (lf_pysem_qualname resolves nothing
 * else to os.replace, os.rename or shutil.move). So a file whose query found
 * no rename, and where neither word sits in an import or a string, has none. */

static int ascii_ident(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The word at text[at, at + len) where it is code: an identifier outside an
 * import, or a comment. Anything else (an import, a string, a node we do not
 * expect) may bind the module: 0. */
static int word_is_plain_use(TSNode root, uint32_t at, uint32_t len) {
    TSNode n = ts_node_descendant_for_byte_range(root, at, at + len);
    if (lf_tree_is(n, "comment"))
        return 1;
    if (!lf_tree_is(n, "identifier") || ts_node_start_byte(n) != at || ts_node_end_byte(n) != at + len)
        return 0;
    /* identifier < dotted_name < aliased_import < import_statement at most */
    TSNode p = n;
    for (int up = 0; up < 3; up++) {
        p = ts_node_parent(p);
        if (lf_tree_is(p, "import_statement") || lf_tree_is(p, "import_from_statement") ||
            lf_tree_is(p, "future_import_statement") || lf_tree_is(p, "ERROR") || ts_node_is_null(p))
            return 0;
    }
    return 1;
}

/* A rename's destination: a keyword argument is one only as `target=`
 * (Path.replace's and Path.rename's name for it) or `dst=` (os.replace's,
 * shutil.move's), and is then its value; `dt.replace(tzinfo=utc)` renames
 * nothing (lf_pygate_rename_dest_keyword: the rename gate asks it of the text). */
static int renamed_onto(const lf_source *src, TSNode *dst) {
    if (strcmp(ts_node_type(*dst), "keyword_argument") != 0)
        return 1;
    TSNode name = ts_node_child_by_field_name(*dst, "name", 4);
    TSNode value = ts_node_child_by_field_name(*dst, "value", 5);
    if (ts_node_is_null(name) || ts_node_is_null(value))
        return 0;
    const char *at = src->text + ts_node_start_byte(name);
    uint32_t len = ts_node_end_byte(name) - ts_node_start_byte(name);
    if (!lf_pygate_rename_dest_keyword(at, len))
        return 0;
    *dst = value;
    return 1;
}

static int may_bind_rename_module(const lf_source *src, TSNode root) {
    static const char *const words[] = {"os", "shutil"};
    const unsigned char *t = (const unsigned char *)src->text;
    for (size_t w = 0; w < 2; w++) {
        size_t wl = strlen(words[w]);
        for (const unsigned char *p = t; (p = memmem(p, src->len - (size_t)(p - t), words[w], wl)) != NULL; p++) {
            size_t at = (size_t)(p - t);
            if ((at > 0 && ascii_ident(t[at - 1])) || (at + wl < src->len && ascii_ident(t[at + wl])))
                continue; /* part of a longer name: a non-ASCII neighbour is not, to be safe */
            if (!word_is_plain_use(root, (uint32_t)at, (uint32_t)wl))
                return 1;
        }
    }
    return 0;
}

typedef LF_VEC(temp_site) temp_vec;

typedef struct temps_walk {
    const lf_source *src;
    temp_res *re;
    temp_vec *out;
} temps_walk;

static int visit_temp(TSNode n, void *ud) {
    temps_walk *w = ud;
    temp_site t;
    if (temp_spelling(w->src, w->re, n, &t))
        LF_VEC_PUSH(w->out, t);
    return 1;
}

static int by_start(const void *a, const void *b) {
    const TSNode *x = a, *y = b;
    uint32_t xs = ts_node_start_byte(*x), ys = ts_node_start_byte(*y);
    uint32_t xe = ts_node_end_byte(*x), ye = ts_node_end_byte(*y);
    if (xs != ys)
        return xs < ys ? -1 : 1;
    return xe > ye ? -1 : xe < ye; /* the outer one first */
}

/* The temp spellings inside the scopes (functions, or the module) that hold a
 * rename, in text order: each scope is walked once, a nested one not again.
 * Every question the check asks about a temp is asked inside a rename's
 * scope, so nothing outside them is needed. */
static void collect_temps(const lf_source *src, temp_res *re, TSNode *scopes, size_t n, temp_vec *out) {
    qsort(scopes, n, sizeof *scopes, by_start);
    temps_walk w = {src, re, out};
    TSNode last = {0};
    for (size_t i = 0; i < n; i++) {
        if (!ts_node_is_null(last) && lf_py_within(scopes[i], last))
            continue;
        last = scopes[i];
        lf_py_walk(last, NULL, 0, visit_temp, &w);
    }
}

/* ---- a directory of its own ---- */

/* The directory a temp name sits in: `d / "x.tmp"` and `os.path.join(d, ..)`
 * -> d; `p + ".tmp"` and `p.with_suffix(..)` -> the directory of p. Names are
 * followed to their values. Null when there is no such part. */
static TSNode temp_dir(lf_pysem *m, TSNode e) {
    static const char *const joins[] = {"os.path.join", "posixpath.join", NULL};
    static const char *const renamers[] = {"with_suffix", "with_name", "with_stem", NULL};
    for (int hops = 0; hops < 8 && !ts_node_is_null(e); hops++) {
        e = lf_tree_unparen(e);
        if (lf_tree_is(e, "identifier")) {
            TSNode v = lf_pysem_resolve_value(m, e);
            if (ts_node_eq(v, e))
                return (TSNode){0};
            e = v;
        } else if (lf_tree_is(e, "binary_operator")) {
            TSNode op = lf_tree_field(e, "operator");
            if (lf_tree_text_eq(m->src, op, "/"))
                return lf_tree_field(e, "left");
            if (!lf_tree_text_eq(m->src, op, "+"))
                return (TSNode){0};
            e = lf_tree_field(e, "left");
        } else if (lf_tree_is(e, "call") && lf_pysem_call_is(m, e, joins) && lf_py_call_nargs(e) >= 2) {
            TSNode d = (TSNode){0};
            lf_py_call_arg(e, 0, &d);
            return d;
        } else if (lf_tree_is(e, "call") && word_in(m->src, lf_py_callee_last(e), renamers)) {
            e = lf_py_callee_object(e);
        } else {
            return (TSNode){0};
        }
    }
    return (TSNode){0};
}

/* The directory an exclusive mkdir makes (`os.mkdir(d)`, `os.makedirs(d)`,
 * `d.mkdir(...)`, none with exist_ok true), or null. */
static TSNode exclusive_mkdir(lf_pysem *m, TSNode call) {
    static const char *const mkdirs[] = {"os.mkdir", "os.makedirs", NULL};
    static const char *const makedirs[] = {"os.makedirs", NULL};
    TSNode ok = lf_tree_unparen(lf_pylock_arg(m, call, 99, "exist_ok"));
    if (!ts_node_is_null(ok) && !lf_tree_is(ok, "false"))
        return (TSNode){0};
    TSNode d = (TSNode){0};
    if (lf_pysem_call_is(m, call, mkdirs)) {
        /* os.makedirs(d, mode, exist_ok) */
        if (lf_pysem_call_is(m, call, makedirs) && lf_py_call_nargs(call) >= 3)
            return (TSNode){0};
        lf_py_call_arg(call, 0, &d);
        return d;
    }
    /* Path.mkdir(mode, parents, exist_ok) */
    if (lf_py_method_is(m->src, call, "mkdir") && lf_py_call_nargs(call) < 3)
        return lf_py_callee_object(call);
    return (TSNode){0};
}

/* Is the temp in a directory this function made for itself before the
 * rename: a tempfile.mkdtemp()/TemporaryDirectory(), or an exclusive mkdir
 * (it raises when the directory exists) in a block that holds the rename,
 * so the rename only runs once that mkdir succeeded? Only one writer is ever
 * in such a directory: the temp name is not shared (dream-studio's
 * save_work_order makes the work order's directory with exist_ok=False, then
 * writes `.work_order.json.tmp` there). */
static int in_own_new_dir(lf_pysem *m, TSNode temp, TSNode rename) {
    static const char *const private_makers[] = {"tempfile.mkdtemp", "tempfile.TemporaryDirectory", NULL};
    TSNode dir = temp_dir(m, temp);
    if (ts_node_is_null(dir))
        return 0;
    dir = lf_py_unwrap_path(m->src, dir);
    TSNode v = lf_tree_unparen(lf_pysem_resolve_value(m, dir));
    if (lf_tree_is(v, "call") && lf_pysem_call_is(m, v, private_makers))
        return 1;
    int32_t scope = lf_pysem_scope_of(m, rename);
    for (size_t i = 0; i < m->n_calls; i++) {
        const lf_pycall *c = &m->calls[i];
        if (c->scope != scope || c->stmt < 0 || ts_node_start_byte(c->node) >= ts_node_start_byte(rename))
            continue;
        TSNode made = exclusive_mkdir(m, c->node);
        if (ts_node_is_null(made) || !lf_py_same_text(m->src, lf_py_unwrap_path(m->src, made), dir))
            continue;
        const lf_pystmt *st = &m->stmts[c->stmt];
        if (lf_py_within(rename, st->block) && !lf_py_within(rename, st->node))
            return 1;
    }
    return 0;
}

/* Is the temp created exclusively before the rename, in its function
 * (`open(tmp, "x")`, `Path(tmp).open("x")`, `os.open(tmp, ... | os.O_EXCL)`),
 * and never opened there in a mode that truncates or creates it otherwise
 * (`"w"`, `write_text`, `os.open` without O_EXCL: a fallback that writes it
 * anyway), nor removed by name there (a stale temp unlinked before the create
 * takes another writer's live temp away)? A second writer then fails with FileExistsError instead of sharing
 * the file: the name is taken, not shared (git's own index.lock protocol). */
static int created_exclusively(lf_pysem *m, const lf_source *src, TSNode scope, TSNode from, TSNode temp,
                               TSNode rename) {
    static const char *const k_os_open[] = {"os.open", NULL};
    int exclusive = 0, plain = 0;
    for (size_t i = 0; i < m->n_calls && !plain; i++) {
        TSNode c = m->calls[i].node, a0 = {0};
        if (!lf_py_within(c, scope) || ts_node_start_byte(c) >= ts_node_start_byte(rename))
            continue;
        int os_open = lf_pysem_call_is(m, c, k_os_open), open = !os_open && lf_pysem_call_is(m, c, k_opens);
        TSNode fn = lf_tree_unparen(lf_tree_field(c, "function"));
        TSNode attr = lf_tree_is(fn, "attribute") ? lf_tree_field(fn, "attribute") : (TSNode){0};
        int removes = lf_pysem_call_is(m, c, k_unlinks);
        int method = !os_open && !open && !ts_node_is_null(attr) &&
                     (lf_tree_text_eq(src, attr, "open") || lf_tree_text_eq(src, attr, "write_text") ||
                      lf_tree_text_eq(src, attr, "write_bytes") || lf_tree_text_eq(src, attr, "unlink"));
        if (method)
            a0 = lf_tree_field(fn, "object");
        else if (!(os_open || open || removes) || !lf_py_call_arg(c, 0, &a0))
            continue;
        a0 = lf_py_unwrap_path(src, a0);
        if (!lf_py_same_text(src, a0, from) && !lf_py_same_text(src, a0, temp))
            continue;
        if (removes) {
            /* removed by name first: the create no longer excludes a writer
             * whose temp this removal took away */
            plain = 1;
            continue;
        }
        if (os_open) {
            TSNode flags;
            if (lf_py_call_arg(c, 1, &flags) && lf_tree_mentions(src, flags, "O_EXCL", NULL))
                exclusive = 1;
            else
                plain = 1;
            continue;
        }
        if (method && !lf_tree_text_eq(src, attr, "open")) {
            plain = 1; /* write_text / write_bytes, or Path.unlink() first */
            continue;
        }
        char *mode = open_mode(src, c, method ? 0 : 1);
        if (!mode || strchr(mode, 'w'))
            plain = 1;
        else if (strchr(mode, 'x'))
            exclusive = 1;
        free(mode);
    }
    return exclusive && !plain;
}

static void run(lf_check_ctx *ctx) {
    if (lf_ctx_is_ts(ctx)) {
        lf401_ts_run(ctx);
        return;
    }
    const lf_source *src = lf_ctx_source(ctx);
    size_t n = lf_ctx_match_count(ctx);
    typedef struct rename_rec {
        TSNode call, from, to;
    } rename_rec;
    LF_VEC(rename_rec) renames = {0};
    lf_pylock *l = NULL;
    lf_pyheld *held = NULL;
    for (size_t i = 0; i < n; i++) {
        rename_rec r;
        if (lf_ctx_capture(ctx, i, "rename", &r.call) && lf_ctx_capture(ctx, i, "src", &r.from) &&
            lf_ctx_capture(ctx, i, "dst", &r.to) && renamed_onto(src, &r.to))
            LF_VEC_PUSH(&renames, r);
    }
    if (!renames.len && !may_bind_rename_module(src, lf_ctx_root(ctx))) {
        LF_VEC_FREE(&renames);
        return; /* no rename here, nor one the model could find */
    }
    lf_pysem *m = src->lang == LF_LANG_PYTHON ? lf_ctx_pysem(ctx) : NULL;
    /* Renames through any import spelling, found on the model; copies of the
     * target (a backup, not a temp) too. */
    LF_VEC(rename_rec) copies = {0};
    for (size_t i = 0; m && i < m->n_calls; i++) {
        rename_rec r;
        memset(&r, 0, sizeof r);
        r.call = m->calls[i].node;
        if (!lf_py_call_arg(r.call, 0, &r.from) || !lf_py_call_arg(r.call, 1, &r.to))
            continue;
        if (lf_pysem_call_is(m, r.call, k_renames))
            LF_VEC_PUSH(&renames, r);
        else if (lf_pysem_call_is(m, r.call, k_copies))
            LF_VEC_PUSH(&copies, r);
    }
    temp_vec temps = {0};
    temp_res re = {0};
    if (renames.len) {
        TSNode *scopes = lf_xcalloc(renames.len, sizeof *scopes);
        for (size_t i = 0; i < renames.len; i++)
            scopes[i] = lf_py_scope(renames.items[i].call);
        collect_temps(src, &re, scopes, renames.len, &temps);
        free(scopes);
    }
    LF_VEC(temp_site) derived = {0}; /* one finding per derived temp expression */
    for (size_t i = 0; i < renames.len; i++) {
        TSNode rename = renames.items[i].call, from = renames.items[i].from, to = renames.items[i].to;
        TSNode scope = lf_py_scope(rename);
        from = lf_py_unwrap_path(src, from);
        assign_scan s = {src, from, rename, temps.items, temps.len, lf_py_unwrap_path(src, to), NULL};
        if (strcmp(ts_node_type(from), "identifier") == 0) {
            lf_py_walk(scope, "assignment", 1, visit_assignment, &s);
        } else if (temp_for(&s, from)) {
            /* The temp expression is spelled out again at the rename: report its
             * first spelling in the function, the one the write opened. */
            for (size_t k = 0; k < temps.len; k++) {
                if (lf_py_within(temps.items[k].temp, scope) && lf_py_same_text(src, temps.items[k].temp, from) &&
                    (!s.hit || ts_node_start_byte(temps.items[k].temp) < ts_node_start_byte(s.hit->temp)))
                    s.hit = &temps.items[k];
            }
        }
        temp_site d = {.derived = 1};
        if (!s.hit && m) {
            /* No common spelling: is the renamed name derived from the target? */
            TSNode e = strcmp(ts_node_type(from), "identifier") == 0 ? lf_pysem_resolve_value(m, from) : from;
            if (ts_node_eq(e, from) && strcmp(ts_node_type(from), "identifier") == 0)
                continue;
            if (!lf_py_within(e, scope) || !derived_from_target(m, src, e, s.dst))
                continue;
            if (ts_node_eq(e, from))
                e = first_spelling(src, scope, e); /* inline: where the write named it */
            int seen = 0;
            for (size_t k = 0; k < derived.len && !seen; k++)
                seen = ts_node_eq(derived.items[k].temp, e);
            if (seen)
                continue;
            d.temp = e;
            d.base = s.dst;
            LF_VEC_PUSH(&derived, d);
            s.hit = &d;
        }
        if (!s.hit || !lf_py_within(s.hit->temp, scope))
            continue;
        /* The target moved aside to this name earlier in the function
         * (`move(p, p.tmp)` ... `move(p.tmp, p)`): the name holds the existing
         * file while something runs, it is not a temp an atomic write fills. */
        int moved_aside = 0;
        for (size_t k = 0; k < renames.len + copies.len && !moved_aside; k++) {
            const rename_rec *o = k < renames.len ? &renames.items[k] : &copies.items[k - renames.len];
            moved_aside = k != i && lf_py_within(o->call, scope) &&
                          ts_node_start_byte(o->call) < ts_node_start_byte(rename) &&
                          lf_py_same_text(src, lf_py_unwrap_path(src, o->from), s.dst) &&
                          (lf_py_same_text(src, lf_py_unwrap_path(src, o->to), from) ||
                           lf_py_same_text(src, lf_py_unwrap_path(src, o->to), s.hit->temp));
            /* a copy extended before it is renamed back is a temp being filled */
            if (moved_aside && k >= renames.len && m)
                moved_aside = !written_between(m, src, from, o->call, rename);
        }
        if (moved_aside)
            continue;
        if (m && in_own_new_dir(m, s.hit->temp, rename))
            continue;
        if (m && created_exclusively(m, src, scope, from, s.hit->temp, rename))
            continue;
        /* Written and renamed with a lock held (this function's, the class's
         * across its methods, or every caller's): no other writer shares it. */
        if (m) {
            if (!l) {
                l = lf_pylock_build(m);
                held = lf_pyheld_build(l);
            }
            int32_t rs = lf_pysem_scope_of(m, rename);
            if (rs > 0 && m->scopes[rs].kind == LF_PYSCOPE_FUNCTION && lf_pyheld_at(held, rs, rename))
                continue;
        }
        lf401_site *site = make_site(m, src, s.hit, rename, scope, temps.items, temps.len);
        if (s.hit->derived) {
            char *msg = derived_message(src, s.hit->temp, s.dst);
            lf_ctx_emit_site(ctx, s.hit->temp, msg, site, lf401_site_free);
            free(msg);
        } else {
            static const char *const names[] = {"temp", "base"};
            TSNode nodes[] = {s.hit->temp, s.hit->base};
            lf_ctx_emit_named_site(ctx, s.hit->temp, names, nodes, 2, site, lf401_site_free);
        }
        lf_ctx_witness(ctx, lf_wit_shared_temp(src, s.hit->temp, rename));
    }
    LF_VEC_FREE(&derived);
    LF_VEC_FREE(&copies);
    lf_pyheld_free(held);
    LF_VEC_FREE(&renames);
    LF_VEC_FREE(&temps);
    lf_re_free(re.plain);
    lf_re_free(re.percent);
    lf_re_free(re.format);
}

/* ---- the gate: could any `replace`, `rename` or `move` here be a rename? ----
 *
 * The prefilter asks for one of the three words, and a third of CPython's
 * library says `replace`: str.replace, in code, docstrings and comments. The
 * rule's renames are `os.replace(a, b)`, `os.rename`, `shutil.move` (through
 * any alias the model follows: `import os as o`, `mv = os.replace`, `from os
 * import replace as mv`, `importlib.import_module("os")`), a bare
 * `replace(a, b)`, and `p.replace(dst)` with one argument. So, on the text
 * with comments and strings blanked (lf_pymask), the file cannot hold one when
 * os and shutil are only ever named as `os.attr` or in a plain `import os`
 * (no alias of them exists), no string is "os" or "shutil", and every use of
 * the three words is a method call with two arguments or more on a receiver
 * whose root is not os or shutil: that is `s.replace("a", "b")`. Anything
 * else, or anything unsure, is a hit (lf_pygate.h). */
static int gate(lf_gate_text *in) {
    static const char *const modules[] = {"os", "shutil", NULL};
    if (in->lang != LF_LANG_PYTHON)
        return 1;
    const lf_pygate_mask *mk = lf_pygate_masked(in);
    return !mk->m || mk->os_named || !mk->balanced || lf_pygate_in_package(in, modules) ||
           lf_pygate_module_aliased(mk->m, in->len, modules) ||
           lf_pygate_may_rename(mk->m, in->len);
}

const lf_check lf401_shared_temp_check = {"lf401_shared_temp",
                                         run,
                                         LF_LANG_BIT(LF_LANG_PYTHON) | LF_LANG_BIT(LF_LANG_TYPESCRIPT) |
                                             LF_LANG_BIT(LF_LANG_TSX),
                                         LF_LANG_BIT(LF_LANG_TYPESCRIPT) | LF_LANG_BIT(LF_LANG_TSX),
                                         gate};
