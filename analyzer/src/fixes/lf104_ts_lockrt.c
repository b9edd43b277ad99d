/* LF104's fix for TS/JS (unsafe, like the Python half in lf104_lockrt.c): the
 * check's span (checks/lf104_site.h) goes between an exclusive lock on a
 * sibling lock file and its release:
 *
 *     const releaseLock = acquireLockSync(file + ".lock");    // await acquireLock(...) when async
 *     try {
 *       <the statements from the read to the write>
 *     } finally {
 *       releaseLock();
 *     }
 *
 * acquireLockSync / acquireLock come from the vendored lockrt.cjs (copied
 * beside the module, lockrt.d.cts for TypeScript), imported in the module's
 * style through lf_tsimport. The wait is bounded (10 s), and a lock not taken
 * in time or at all gives a release that does nothing: the update then runs
 * unlocked, as before. A return, break or throw inside the span leaves through
 * the finally, which releases. */
#include <stdlib.h>
#include <string.h>

#include "../checks/lf104_site.h"
#include "lf_check.h"
#include "lf_pyfix.h"
#include "lf_source.h"
#include "lf_tree.h"
#include "lf_tsfix.h"
#include "lf_tsimport.h"
#include "lf_util.h"
#include "lf_vendor.h"

#define LF104_TS_VENDOR_MODULE "./lockrt.cjs"

static const char *const k_release_names[] = {"releaseLock", "releaseStateLock", "releaseDocumentLock", NULL};

/* Past a line comment that ends the statement's line. */
static uint32_t end_with_comment(const lf_source *src, TSNode stmt) {
    uint32_t e = ts_node_end_byte(stmt), k = e;
    while (k < src->len && (src->text[k] == ' ' || src->text[k] == '\t'))
        k++;
    if (k + 1 < src->len && src->text[k] == '/' && src->text[k + 1] == '/') {
        while (k < src->len && src->text[k] != '\n' && src->text[k] != '\r')
            k++;
        return k;
    }
    return e;
}

/* The quote the module writes strings with: the first string literal's. */
static char quote_of(const lf_source *src, TSNode root) {
    LF_VEC(TSNode) stack = {0};
    LF_VEC_PUSH(&stack, root);
    char q = '"';
    while (stack.len) {
        TSNode n = stack.items[--stack.len];
        if (lf_tree_is(n, "string")) {
            q = src->text[ts_node_start_byte(n)];
            break;
        }
        for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
            LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
    }
    LF_VEC_FREE(&stack);
    return q == '\'' ? '\'' : '"';
}

/* The lock path: the key with ".lock" added (malloc'd). */
static char *lock_path(const lf_source *src, TSNode key, char quote) {
    char *text = lf_node_text(src, key);
    char *out;
    size_t len = strlen(text);
    int literal = lf_tree_is(key, "string") || lf_tree_is(key, "template_string");
    if (literal && len >= 2 && !strchr(text, '\n'))
        out = lf_xasprintf("%.*s.lock%c", (int)(len - 1), text, text[len - 1]);
    else if (lf_tree_is(key, "identifier") || lf_tree_is(key, "member_expression") ||
             lf_tree_is(key, "call_expression") || lf_tree_is(key, "subscript_expression") ||
             lf_tree_is(key, "parenthesized_expression") || lf_tree_is(key, "binary_expression"))
        out = lf_xasprintf("%s + %c.lock%c", text, quote, quote); /* `+` is the only operator let through */
    else
        out = lf_xasprintf("(%s) + %c.lock%c", text, quote, quote);
    free(text);
    return out;
}

/* The lock path for a path spelled as text (lf104_site.path_text: the
 * reading function's parameters replaced by the read call's arguments): a
 * sum with ".lock", the text in parentheses unless it is a plain operand. */
static char *lock_path_text(const char *text, char quote) {
    int plain = 1;
    for (const char *c = text; *c && plain; c++)
        plain = !strchr(" ?:=<>|&,", *c);
    return plain ? lf_xasprintf("%s + %c.lock%c", text, quote, quote)
                 : lf_xasprintf("(%s) + %c.lock%c", text, quote, quote);
}

/* The module's habit: its first simple statement in the function (else the
 * file) ends with a semicolon. A try statement says nothing either way. */
static int uses_semicolons(const lf_source *src, TSNode fn, TSNode root) {
    TSNode where[2] = {fn, root};
    for (int w = 0; w < 2; w++) {
        LF_VEC(TSNode) stack = {0};
        LF_VEC_PUSH(&stack, where[w]);
        int found = -1;
        while (stack.len && found < 0) {
            TSNode n = stack.items[--stack.len];
            if (ts_node_is_null(n))
                continue;
            if (lf_tree_is(n, "expression_statement") || lf_tree_is(n, "lexical_declaration") ||
                lf_tree_is(n, "return_statement")) {
                uint32_t e = ts_node_end_byte(n);
                found = e > 0 && src->text[e - 1] == ';';
                break;
            }
            for (uint32_t i = ts_node_named_child_count(n); i-- > 0;)
                LF_VEC_PUSH(&stack, ts_node_named_child(n, i));
        }
        LF_VEC_FREE(&stack);
        if (found >= 0)
            return found;
    }
    return 1;
}

static char *render(const lf_source *src, const lf104_site *s, const char *acquire, const char *release,
                    const char *lock, uint32_t end, int semicolons) {
    uint32_t a = ts_node_start_byte(s->first);
    char *indent = lf_tree_line_indent(src, a);
    char *unit = lf_tsfix_indent_unit(src, s->first);
    char *to = lf_xasprintf("%s%s", indent, unit);
    char *body = lf_pyfix_reindent(src->text, lf_pyfix_line_start(src, a), end, indent, to);
    const char *semi = semicolons ? ";" : "";
    char *text = lf_xasprintf("// lockfix LF104: one exclusive lock on a sibling lock file around the\n"
                              "%s// read-modify-write, so concurrent updates wait instead of overwriting\n"
                              "%s// each other. If the lock cannot be taken or stays held past lockrt's\n"
                              "%s// bounded wait (10 s by default), the update runs unlocked, as before.\n"
                              "%sconst %s = %s%s(%s)%s\n"
                              "%stry {\n%s\n%s} finally {\n%s%s%s()%s\n%s}",
                              indent, indent, indent, indent, release, s->async_fn ? "await " : "", acquire, lock,
                              semi, indent, body, indent, indent, unit, release, semi, indent);
    free(body);
    free(to);
    free(unit);
    free(indent);
    return text;
}

/* What the rewrite needs of the span itself (malloc'd reason), or NULL. */
static char *rewrite_blocker(const lf_source *src, lf_tssem *m, const lf104_site *s) {
    if (!lf_pyfix_starts_line(src, s->first))
        return lf_xstrdup("the read's statement shares its line with an earlier one: the lock cannot go before it");
    uint32_t end = end_with_comment(src, s->last);
    if (end < src->len && src->text[end] != '\n' && src->text[end] != '\r')
        return lf_xstrdup("the write's statement shares its line with a later one: the lock cannot end after it");
    uint32_t again = lf104_written_after(src, m->scopes[s->scope].node, end, s->path);
    if (again)
        return lf_xasprintf("the document is written again at line %u, after the read-modify-write the lock would "
                            "cover: that write would run unlocked from the same stale read",
                            again);
    return NULL;
}

static const char *acquire_member(const lf104_site *s) { return s->async_fn ? "acquireLock" : "acquireLockSync"; }

/* Spell (and import) the acquire call of every site to be fixed, in each
 * fix (lf_tsimport_ref_each). Returns this site's spelling, or NULL (*why). */
static char *spell_all(lf_tsimporter *im, const lf104_site *const *sites, size_t n, size_t self, char **why) {
    lf_tsimport_use *uses = lf_xcalloc(n ? n : 1, sizeof *uses);
    for (size_t j = 0; j < n; j++)
        if (sites[j])
            uses[j] = (lf_tsimport_use){sites[j]->scope, ts_node_start_byte(sites[j]->first), acquire_member(sites[j])};
    char *mine = lf_tsimport_ref_each(im, uses, n, self, LF104_TS_VENDOR_MODULE, why);
    free(uses);
    return mine;
}

static lf_fix *generate_one(const lf_fix_ctx *ctx, lf_tssem *m, const lf104_site *const *sites, size_t n,
                            size_t self, char **why) {
    const lf_source *src = ctx->src;
    const lf104_site *s = sites[self];
    uint32_t end = end_with_comment(src, s->last);
    TSNode fn = m->scopes[s->scope].node;
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    lf_tsimporter *im = lf_tsimport_begin(m, src->path, fix);
    char *acquire = spell_all(im, sites, n, self, why);
    lf_tsimport_end(im);
    if (!acquire) {
        lf_fix_free(fix);
        return NULL;
    }
    /* each fixed read-modify-write of the function declares its own release
     * (`const` twice in one block would not compile) */
    size_t before = 0;
    for (size_t k = 0; k < self; k++)
        before += sites[k] && sites[k]->scope == s->scope;
    char *release = lf_tsfix_fresh_name_nth(m, fn, k_release_names, before);
    char *lock = s->path_text ? lock_path_text(s->path_text, quote_of(src, ctx->root))
                              : lock_path(src, s->path, quote_of(src, ctx->root));
    char *text = render(src, s, acquire, release, lock, end, uses_semicolons(src, fn, ctx->root));
    lf_fix_add_edit(fix, ts_node_start_byte(s->first), end, text);
    lf_vendor_attach_node(fix, src->path);
    fix->title = lf_xasprintf("the read-modify-write between %s(%s) and its release (vendored lockrt.cjs)", acquire,
                              lock);
    free(text);
    free(lock);
    free(release);
    free(acquire);
    return fix;
}

void lf104_ts_generate(const lf_fix_ctx *ctx, lf_fix_request *reqs, size_t n) {
    lf_tssem *m = lf_filesem_typescript(ctx->sem);
    /* Pass 1: the sites to be fixed (the others keep their reason). */
    const lf104_site **sites = lf_xcalloc(n + 1, sizeof *sites);
    for (size_t i = 0; i < n; i++) {
        const lf104_site *s = reqs[i].site;
        if (lf_fix_site_declines(s, s ? s->decline : NULL, &reqs[i].no_fix_reason))
            continue;
        if (!m) {
            reqs[i].no_fix_reason = lf_xstrdup("the file has no TS/JS semantic model");
            continue;
        }
        reqs[i].no_fix_reason = rewrite_blocker(ctx->src, m, s);
        uint32_t a = ts_node_start_byte(s->first), e = ts_node_end_byte(s->last);
        for (size_t k = 0; k < i && !reqs[i].no_fix_reason; k++)
            if (sites[k] && a < ts_node_end_byte(sites[k]->last) && ts_node_start_byte(sites[k]->first) < e)
                reqs[i].no_fix_reason = lf_xasprintf("its statements overlap another read-modify-write's (line %u) "
                                                     "that gets the lock: one lock around both would be a guess",
                                                     ts_node_start_point(sites[k]->first).row + 1);
        if (!reqs[i].no_fix_reason)
            sites[i] = s;
    }
    /* Pass 2: the fixes, each importing what all of them call. */
    for (size_t i = 0; i < n; i++)
        if (sites[i])
            reqs[i].fix = generate_one(ctx, m, sites, n, i, &reqs[i].no_fix_reason);
    free(sites);
}
