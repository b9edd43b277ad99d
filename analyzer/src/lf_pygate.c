/* lf_pygate: lexical questions for the Python check gates (lf_pygate.h).
 *
 * The grammar recovers from syntax errors in ways no lexical test can follow
 * (`with [.replace(tmp, p)` became a bare `replace(tmp, p)` call), so a gate
 * that reads structure decides only for text whose brackets pair up, where
 * each `.verb` has a receiver that can end an expression on the same logical
 * line, and whose receiver chain does not start at a keyword. */
#include "lf_pygate.h"

#include <stdlib.h>
#include <string.h>

#include "lf_pymask.h"
#include "lf_util.h"

static int ascii_ident(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whitespace inside one logical line: blanks, and a line end only right
 * after a `\` continuation (a bare line end may end the statement). */
static int inline_space(const char *m, size_t n, size_t i) {
    char c = m[i];
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v')
        return 1;
    if (c == '\\')
        return i + 1 < n && (m[i + 1] == '\n' || m[i + 1] == '\r');
    if (c == '\r')
        return i > 0 && m[i - 1] == '\\';
    if (c == '\n')
        return i > 0 && (m[i - 1] == '\\' || (m[i - 1] == '\r' && i > 1 && m[i - 2] == '\\'));
    return 0;
}

size_t lf_pygate_back(const char *m, size_t n, size_t i) {
    while (i > 0 && inline_space(m, n, i - 1))
        i--;
    return i > 0 ? i - 1 : LF_PYGATE_NONE;
}

size_t lf_pygate_fwd(const char *m, size_t n, size_t i) {
    while (i < n && inline_space(m, n, i))
        i++;
    return i;
}

int lf_pygate_balanced(const char *m, size_t n) {
    char want[256];
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = m[i];
        if (c == '(' || c == '[' || c == '{') {
            if (depth == sizeof want)
                return 0;
            want[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0 || want[--depth] != c)
                return 0;
        }
    }
    return depth == 0;
}

int lf_pygate_word(const char *m, size_t n, size_t at, size_t wl) {
    unsigned char before = at ? (unsigned char)m[at - 1] : ' ', after = at + wl < n ? (unsigned char)m[at + wl] : ' ';
    if (before >= 0x80 || after >= 0x80)
        return -1;
    return !ascii_ident(before) && !ascii_ident(after);
}

int lf_pygate_next_use(const char *m, size_t n, const char *word, size_t *at) {
    size_t wl = strlen(word);
    for (const char *p = m + *at; *at < n && (p = memmem(p, n - (size_t)(p - m), word, wl)) != NULL; p++) {
        int alone = lf_pygate_word(m, n, (size_t)(p - m), wl);
        if (alone != 0) {
            *at = (size_t)(p - m);
            return alone;
        }
    }
    *at = n;
    return 0;
}

int lf_pygate_says_any(const char *m, size_t n, const char *const *words) {
    for (size_t w = 0; words[w]; w++) {
        size_t at = 0;
        if (lf_pygate_next_use(m, n, words[w], &at))
            return 1;
    }
    return 0;
}

/* Whitespace of any kind, line ends and continuations included. */
static int any_space(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\n' || c == '\r' || c == '\\'; }

size_t lf_pygate_back_any(const char *m, size_t i) {
    while (i > 0 && any_space(m[i - 1]))
        i--;
    return i > 0 ? i - 1 : LF_PYGATE_NONE;
}

size_t lf_pygate_fwd_any(const char *m, size_t n, size_t i) {
    while (i < n && any_space(m[i]))
        i++;
    return i;
}

int lf_pygate_ident_byte(unsigned char c) { return ascii_ident(c); }

size_t lf_pygate_name_start(const char *m, size_t end) {
    while (end > 0 && ascii_ident((unsigned char)m[end - 1]))
        end--;
    return end;
}

int lf_pygate_name_byte(unsigned char c) { return lf_pygate_ident_byte(c) || c >= 0x80; }

int lf_pygate_is(const char *m, size_t from, size_t len, const char *word) {
    return strlen(word) == len && memcmp(m + from, word, len) == 0;
}

int lf_pygate_plain_import(const char *m, size_t n, size_t at) {
    size_t j = at;
    while (j > 0 && m[j - 1] != ';' && !((m[j - 1] == '\n' || m[j - 1] == '\r') && !inline_space(m, n, j - 1)))
        j--;
    while (j < n && (m[j] == ' ' || m[j] == '\t' || m[j] == '\f' || m[j] == '\v'))
        j++;
    if (n - j < 7 || memcmp(m + j, "import", 6) != 0 || !inline_space(m, n, j + 6))
        return 0;
    for (size_t k = j + 6; k < n && m[k] != ';';) {
        if (ascii_ident((unsigned char)m[k])) {
            size_t e = k;
            while (e < n && ascii_ident((unsigned char)m[e]))
                e++;
            if (lf_pygate_is(m, k, e - k, "as"))
                return 0;
            k = e;
        } else if (inline_space(m, n, k) || m[k] == ',' || m[k] == '.') {
            k++;
        } else if (m[k] == '\n' || m[k] == '\r') {
            break;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Python's hard keywords (and tree-sitter-python's print and exec): none of
 * them starts a receiver chain in code that parses. */
int lf_pygate_keyword(const char *m, size_t from, size_t len) {
    static const char *const kw[] = {"and",    "as",     "assert", "async",  "await", "break",  "class",    "continue",
                                     "def",    "del",    "elif",   "else",   "except", "exec",  "finally",  "for",
                                     "from",   "global", "if",     "import", "in",     "is",    "lambda",   "nonlocal",
                                     "not",    "or",     "pass",   "print",  "raise",  "return", "try",     "while",
                                     "with",   "yield",  NULL};
    for (size_t i = 0; kw[i]; i++)
        if (lf_pygate_is(m, from, len, kw[i]))
            return 1;
    return 0;
}

static int in_list(const char *m, size_t from, size_t len, const char *const *words) {
    for (size_t i = 0; words[i]; i++)
        if (lf_pygate_is(m, from, len, words[i]))
            return 1;
    return 0;
}

int lf_pygate_receiver_may_be(const char *m, size_t n, size_t dot, const char *const *modules) {
    size_t r = lf_pygate_back(m, n, dot);
    for (;;) {
        if (r == LF_PYGATE_NONE)
            return 1;
        char c = m[r];
        if (c == ')' || c == ']' || c == '}' || c == '\'' || c == '"')
            return 0;
        if (!ascii_ident((unsigned char)c))
            return 1;
        size_t k = lf_pygate_name_start(m, r);
        if ((k > 0 && (unsigned char)m[k - 1] >= 0x80) || (m[k] >= '0' && m[k] <= '9'))
            return 1;
        size_t b = lf_pygate_back(m, n, k);
        if (b != LF_PYGATE_NONE && m[b] == '.') {
            r = lf_pygate_back(m, n, b);
            continue;
        }
        size_t len = r + 1 - k;
        return in_list(m, k, len, modules) || lf_pygate_keyword(m, k, len);
    }
}

long lf_pygate_call_args(const char *m, size_t n, size_t open) {
    long args = 0;
    int in_arg = 0;
    unsigned depth = 0;
    for (size_t j = open + 1; j < n; j++) {
        char c = m[j];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\n' || c == '\r' || c == '\\')
            continue;
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                return c == ')' ? args + in_arg : -1;
            depth--;
        } else if (c == ',' && depth == 0) {
            args += in_arg;
            in_arg = 0;
            continue;
        } else if (c == '*' && depth == 0 && !in_arg) {
            return -1;
        }
        in_arg = 1;
    }
    return -1;
}

typedef struct mask_build {
    lf_pygate_mask *mk;
    const char *text;
    size_t cap;
} mask_build;

const char *const lf_pygate_lock_modules[] = {"fcntl",    "msvcrt",   "portalocker", "win32file",
                                               "filelock", "lockfile", "fasteners",   NULL};

/* A string literal's text: "os" or "shutil" (importlib.import_module("os"),
 * sys.modules["os"]); a lock module, alone or dotted ("fcntl",
 * "lockfile.pidlockfile"); a mode open() accepts. */
static void on_string(const char *content, size_t len, void *ud) {
    mask_build *b = ud;
    lf_pygate_mask *mk = b->mk;
    for (size_t w = 0; !mk->lock_module_named && len && lf_pygate_lock_modules[w]; w++) {
        size_t wl = strlen(lf_pygate_lock_modules[w]);
        if (content[0] == lf_pygate_lock_modules[w][0] && len >= wl &&
            memcmp(content, lf_pygate_lock_modules[w], wl) == 0 && (len == wl || content[wl] == '.'))
            mk->lock_module_named = 1;
    }
    if ((len == 2 && memcmp(content, "os", 2) == 0) || (len == 6 && memcmp(content, "shutil", 6) == 0))
        mk->os_named = 1;
    if ((len == 4 && memcmp(content, "json", 4) == 0) || (len == 6 && memcmp(content, "pickle", 6) == 0))
        mk->serial_named = 1;
    if (len && len <= 3 && lf_pygate_mode_text(content, len, content[0], 1)) {
        if (mk->n_modes == b->cap) {
            b->cap = b->cap ? b->cap * 2 : 16;
            mk->modes = lf_xrealloc(mk->modes, b->cap * sizeof *mk->modes);
        }
        mk->modes[mk->n_modes++] = (lf_pygate_span){(size_t)(content - b->text), len};
    }
}

static void mask_release(void *p) {
    lf_pygate_mask *mk = p;
    free(mk->m);
    free(mk->modes);
    free(mk);
}

const lf_pygate_mask *lf_pygate_masked(lf_gate_text *in) {
    if (in->shared && in->release == mask_release)
        return in->shared;
    lf_gate_text_release(in);
    lf_pygate_mask *mk = lf_xcalloc(1, sizeof *mk);
    mask_build b = {mk, in->text, 0};
    mk->m = lf_pymask_code(in->text, in->len, on_string, &b);
    mk->balanced = mk->m && lf_pygate_balanced(mk->m, in->len);
    in->shared = mk;
    in->release = mask_release;
    return mk;
}

/* The file's mask, writable: the shared answers live in it. */
static lf_pygate_mask *mask_of(lf_gate_text *in) {
    lf_pygate_masked(in);
    return in->shared;
}

int lf_pygate_in_package(const lf_gate_text *in, const char *const *modules) {
    const char *slash = in->path ? strrchr(in->path, '/') : NULL;
    if (!slash)
        return 0;
    const char *dir = slash;
    while (dir > in->path && dir[-1] != '/')
        dir--;
    size_t n = (size_t)(slash - dir);
    for (size_t i = 0; modules[i]; i++)
        if (strlen(modules[i]) == n && !memcmp(dir, modules[i], n))
            return 1;
    return 0;
}

static int alnum_byte(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* Is the word at text + i a word's start to lf_text_spells_lock, in any
 * substring a node may be (an escape's letters before it may not count)? */
static int may_start_word(const char *text, size_t i) {
    if (i == 0 || !alnum_byte((unsigned char)text[i - 1]))
        return 1;
    for (size_t k = i > 10 ? i - 10 : 0; k < i; k++)
        if (text[k] == '\\')
            return 1;
    return 0;
}

int lf_pygate_may_spell_lock(const char *text, size_t n) {
    static const char *const anywhere[] = {"Lock", "LOCK", "flock", "filelock", NULL};
    static const char *const at_start[] = {"lock", "lck", NULL};
    for (size_t i = 0; anywhere[i]; i++)
        if (memmem(text, n, anywhere[i], strlen(anywhere[i])))
            return 1;
    for (size_t w = 0; at_start[w]; w++) {
        size_t wl = strlen(at_start[w]);
        for (const char *p = text; (p = memmem(p, n - (size_t)(p - text), at_start[w], wl)) != NULL; p++)
            if (may_start_word(text, (size_t)(p - text)))
                return 1;
    }
    return 0;
}

static int may_hold_lock(lf_gate_text *in, const lf_pygate_mask *mk) {
    static const char *const words[] = {"O_EXCL", "mkdir", "getpid", "fcntl", "kill", "psutil", "/proc", "pgrep", "pidof", NULL};
    /* whole names in code: `unlink` says nothing of a link */
    static const char *const links[] = {"link", "symlink", "symlink_to", "hardlink_to", NULL};
    for (size_t i = 0; words[i]; i++)
        if (memmem(in->text, in->len, words[i], strlen(words[i])))
            return 1;
    if (lf_pygate_may_spell_lock(in->text, in->len))
        return 1;
    if (!mk->m || lf_pygate_says_any(mk->m, in->len, links))
        return 1;
    for (size_t i = 0; i < mk->n_modes; i++)
        if (lf_pygate_mode_text(in->text + mk->modes[i].at, mk->modes[i].len, 'x', 0))
            return 1;
    return 0;
}

int lf_pygate_may_hold_lock(lf_gate_text *in) {
    lf_pygate_mask *mk = mask_of(in);
    if (!mk->holds_lock)
        mk->holds_lock = may_hold_lock(in, mk) ? 2 : 1;
    return mk->holds_lock == 2;
}

static int may_remove(lf_gate_text *in, const lf_pygate_mask *mk) {
    static const char *const modules[] = {"os", "shutil", NULL};
    static const char *const always[] = {"unlink", "rmdir", "rmtree", "removedirs", "break_lock", NULL};
    const char *m = mk->m;
    size_t len = in->len;
    int hit = !m || mk->os_named || !mk->balanced || lf_pygate_in_package(in, modules) ||
              lf_pygate_module_aliased(m, len, modules) || lf_pygate_may_rename(m, len) ||
              lf_pygate_says_any(m, len, always);
    int alone;
    for (size_t at = 0; !hit && (alone = lf_pygate_next_use(m, len, "remove", &at)) != 0; at++) {
        size_t dot = lf_pygate_back(m, len, at);
        if (alone < 0)
            hit = 1;
        else if (dot == LF_PYGATE_NONE || m[dot] != '.')
            hit = lf_pygate_dot_across_lines(m, at); /* bare: `def remove`, `from os import remove` (aliased) */
        else
            hit = lf_pygate_receiver_may_be(m, len, dot, modules);
    }
    return hit;
}

int lf_pygate_may_remove(lf_gate_text *in) {
    lf_pygate_mask *mk = mask_of(in);
    if (!mk->removes)
        mk->removes = may_remove(in, mk) ? 2 : 1;
    return mk->removes == 2;
}

int lf_pygate_module_aliased(const char *m, size_t n, const char *const *modules) {
    for (size_t w = 0; modules[w]; w++) {
        int alone;
        for (size_t at = 0; (alone = lf_pygate_next_use(m, n, modules[w], &at)) != 0; at++) {
            size_t next = lf_pygate_fwd(m, n, at + strlen(modules[w]));
            if (alone < 0 || !((next < n && m[next] == '.') || lf_pygate_plain_import(m, n, at)))
                return 1;
        }
    }
    return 0;
}

int lf_pygate_word_before(const char *m, size_t n, size_t at, const char *word) {
    size_t end = lf_pygate_back(m, n, at), wl = strlen(word);
    return end != LF_PYGATE_NONE && end + 1 >= wl && lf_pygate_is(m, end + 1 - wl, wl, word) &&
           lf_pygate_word(m, n, end + 1 - wl, wl) > 0;
}

int lf_pygate_dot_across_lines(const char *m, size_t at) {
    size_t prev = lf_pygate_back_any(m, at);
    return prev != LF_PYGATE_NONE && m[prev] == '.';
}

static const char *const k_file_modules[] = {"os", "shutil", NULL};

/* Is the bare name at m + at called with two arguments, or with arguments
 * that could come to two (a star)? Line ends count as space: inside brackets
 * `replace\n(a, b)` is one call. */
static int called_with_two(const char *m, size_t n, size_t at, size_t wl) {
    size_t open = lf_pygate_fwd_any(m, n, at + wl);
    if (open >= n || m[open] != '(')
        return 0;
    long args = lf_pygate_call_args(m, n, open);
    return args < 0 || args == 2;
}

/* Is the call's argument at m + open (a call of one argument) a keyword
 * other than `target` or `dst`? `dt.replace(tzinfo=utc)`,
 * `sig.replace(parameters=p)` and `df.rename(columns=c)` rename nothing:
 * Path.replace and Path.rename name their destination `target` (LF401's
 * check skips the others too). */
static int keyword_not_target(const char *m, size_t n, size_t open) {
    size_t i = lf_pygate_fwd_any(m, n, open + 1), j = i;
    while (j < n && lf_pygate_name_byte((unsigned char)m[j]))
        j++;
    if (j == i || (m[i] >= '0' && m[i] <= '9'))
        return 0;
    size_t eq = lf_pygate_fwd_any(m, n, j);
    if (eq + 1 >= n || m[eq] != '=' || m[eq + 1] == '=')
        return 0;
    return !lf_pygate_rename_dest_keyword(m + i, j - i);
}

int lf_pygate_rename_dest_keyword(const char *name, size_t len) {
    static const char *const k_rename_dest_keywords[] = {"target", "dst"};
    for (size_t k = 0; k < sizeof k_rename_dest_keywords / sizeof *k_rename_dest_keywords; k++)
        if (strlen(k_rename_dest_keywords[k]) == len && memcmp(name, k_rename_dest_keywords[k], len) == 0)
            return 1;
    return 0;
}

/* May this use of a verb at m + at be a rename? LF401's query takes every
 * bare `replace(a, b)` and `rename(a, b)` called with two arguments for one,
 * whatever the name is bound to (`from dataclasses import replace` too), so
 * those are hits; otherwise a bare name is os.replace, os.rename or
 * shutil.move only through a binding that is a hit of its own (an alias of
 * the module, `mv = os.replace`, a method taken as a value). A def's own
 * name calls nothing. */
static int verb_may_rename(const char *m, size_t n, size_t at, size_t wl) {
    size_t dot = lf_pygate_back(m, n, at);
    if (lf_pygate_word_before(m, n, at, "def") || lf_pygate_word_before(m, n, at, "class"))
        return 0;
    if (dot == LF_PYGATE_NONE || m[dot] != '.')
        return (!lf_pygate_is(m, at, wl, "move") && called_with_two(m, n, at, wl)) ||
               lf_pygate_dot_across_lines(m, at);
    if (lf_pygate_receiver_may_be(m, n, dot, k_file_modules))
        return 1;
    size_t open = lf_pygate_fwd(m, n, at + wl);
    if (open >= n || m[open] != '(')
        return 1; /* a method taken as a value: `mv = Path.replace` */
    long args = lf_pygate_call_args(m, n, open);
    return args < 0 || (args == 1 && !keyword_not_target(m, n, open));
}

int lf_pygate_may_rename(const char *m, size_t n) {
    static const char *const verbs[] = {"replace", "rename", "move", NULL};
    for (size_t w = 0; verbs[w]; w++) {
        int alone;
        for (size_t at = 0; (alone = lf_pygate_next_use(m, n, verbs[w], &at)) != 0; at++)
            if (alone < 0 || verb_may_rename(m, n, at, strlen(verbs[w])))
                return 1;
    }
    return 0;
}

int lf_pygate_mode_text(const char *t, size_t n, char c, int first) {
    unsigned kinds = 0, bt = 0, plus = 0, has = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == c)
            has = 1;
        if (strchr("rwxa", t[i]) && t[i])
            kinds++;
        else if (t[i] == 'b' || t[i] == 't')
            bt++;
        else if (t[i] == '+')
            plus++;
        else
            return 0;
    }
    return has && kinds == 1 && bt <= 1 && plus <= 1 && (!first || t[0] == c);
}

/* ---- a module's functions (lf_pygate_defs) ---- */

typedef struct open_block {
    size_t indent;
    int32_t region;          /* a def's region, or -1 for a class */
    size_t name_at, name_len; /* a class's name */
} open_block;

/* The name after a keyword at m[i] (spaces between), or 0 length. */
static size_t name_after(const char *m, size_t n, size_t i, size_t *len) {
    while (i < n && (m[i] == ' ' || m[i] == '\t' || m[i] == '\f' || m[i] == '\v'))
        i++;
    size_t j = i;
    while (j < n && lf_pygate_name_byte((unsigned char)m[j]))
        j++;
    *len = j - i;
    return i;
}

enum { KW_NONE = 0, KW_DEF, KW_CLASS, KW_ASYNC, KW_ODD };

/* Is the word at m[i] def, class or async, followed by a blank (KW_ODD when
 * followed by anything else: a backslash, a non-ASCII byte)? */
static int line_keyword(const char *m, size_t n, size_t i) {
    size_t w = i;
    while (w < n && lf_pygate_ident_byte((unsigned char)m[w]))
        w++;
    int kw = w - i == 3 && !memcmp(m + i, "def", 3)     ? KW_DEF
             : w - i == 5 && !memcmp(m + i, "class", 5) ? KW_CLASS
             : w - i == 5 && !memcmp(m + i, "async", 5) ? KW_ASYNC
                                                         : KW_NONE;
    if (kw && !(w < n && (m[w] == ' ' || m[w] == '\t' || m[w] == '\f' || m[w] == '\v')))
        return KW_ODD;
    return kw;
}

int lf_pygate_defs_build(const char *m, size_t n, lf_pygate_defs *out) {
    memset(out, 0, sizeof *out);
    LF_VEC(lf_pygate_line) lines = {0};
    LF_VEC(lf_pygate_def) defs = {0};
    LF_VEC(open_block) stack = {0};
    size_t i = 0;
    while (i < n) {
        /* one logical line: [start, end) */
        size_t start = i, depth = 0;
        for (; i < n; i++) {
            char c = m[i];
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if ((c == ')' || c == ']' || c == '}') && depth)
                depth--;
            else if (c == '\n' && depth == 0 && !(i > 0 && (m[i - 1] == '\\' || (m[i - 1] == '\r' && i > 1 && m[i - 2] == '\\'))))
                break;
        }
        size_t end = i < n ? i + 1 : n;
        i = end;
        lf_work(end - start);
        size_t indent = 0, k = start;
        for (; k < end; k++) {
            if (m[k] == ' ')
                indent++;
            else if (m[k] == '\t')
                indent = (indent / 8 + 1) * 8;
            else if (m[k] == '\f')
                indent = 0;
            else
                break;
        }
        int blank = 1;
        for (size_t q = k; q < end && blank; q++)
            blank = m[q] == ' ' || m[q] == '\t' || m[q] == '\f' || m[q] == '\v' || m[q] == '\r' || m[q] == '\n' || m[q] == '\\';
        lf_pygate_line line = {start, end, 0, -1, 0, 0};
        if (!blank)
            while (stack.len && stack.items[stack.len - 1].indent >= indent)
                stack.len--;
        for (size_t b = stack.len; b > 0; b--)
            if (stack.items[b - 1].region >= 0) {
                line.region = stack.items[b - 1].region;
                break;
            }
        if (!blank && (unsigned char)m[k] >= 0x80) {
            /* a non-ASCII byte where the line's first word starts (U+00A0 is
             * whitespace to tree-sitter): its indentation is anyone's guess */
            goto fail;
        }
        if (!blank) {
            /* the first word, and the one after `async` */
            int first = line_keyword(m, end, k), second = 0;
            size_t kw = k;
            if (first == KW_ASYNC) {
                kw = k + 5;
                while (kw < end && (m[kw] == ' ' || m[kw] == '\t' || m[kw] == '\f' || m[kw] == '\v'))
                    kw++;
                second = line_keyword(m, end, kw);
            }
            int is_def = first == KW_DEF || second == KW_DEF, is_class = first == KW_CLASS;
            size_t len = 0, at = 0;
            if (is_def)
                at = name_after(m, end, kw + 3, &len);
            else if (is_class)
                at = name_after(m, end, k + 5, &len);
            if (first == KW_ODD || second == KW_ODD || ((is_def || is_class) && len == 0)) {
                /* `def` or `class` not followed by a plain blank and a name (a
                 * continuation, U+00A0): not followed here */
                goto fail;
            }
            if (is_def || is_class)
                line.bound_at = at, line.bound_len = len;
            if (is_def) {
                lf_pygate_def d = {at, len, line.region, 0, 0};
                const open_block *top = stack.len ? &stack.items[stack.len - 1] : NULL;
                if (top && top->region < 0 && len == 8 && !memcmp(m + at, "__init__", 8))
                    d.class_at = top->name_at, d.class_len = top->name_len;
                LF_VEC_PUSH(&defs, d);
                line.also = line.region;
                line.region = (int32_t)defs.len;
                open_block ob = {indent, line.region, 0, 0};
                LF_VEC_PUSH(&stack, ob);
            } else if (is_class) {
                open_block ob = {indent, -1, at, len};
                LF_VEC_PUSH(&stack, ob);
            }
        }
        LF_VEC_PUSH(&lines, line);
    }
    LF_VEC_FREE(&stack);
    out->lines = lines.items;
    out->n_lines = lines.len;
    out->defs = defs.items;
    out->n_defs = defs.len;
    return 1;
fail:
    LF_VEC_FREE(&lines);
    LF_VEC_FREE(&defs);
    LF_VEC_FREE(&stack);
    return 0;
}

void lf_pygate_defs_free(lf_pygate_defs *d) {
    free(d->lines);
    free(d->defs);
    memset(d, 0, sizeof *d);
}

const lf_pygate_line *lf_pygate_line_at(const lf_pygate_defs *d, size_t at) {
    size_t lo = 0, hi = d->n_lines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->lines[mid].end <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->n_lines ? &d->lines[lo] : NULL;
}
