/* lf_re: POSIX ERE subset -> Thompson NFA -> set simulation (lf_re.h says what
 * and why). Three passes, none recursive:
 *   1. tokens: bracket expressions become byte sets, counted repetitions are
 *      expanded by copying their operand's tokens (a group's span is known from
 *      a stack of open parentheses);
 *   2. postfix: explicit concatenation, an EMPTY token for empty groups and
 *      alternatives (the natom/nalt bookkeeping of Thompson's construction, one
 *      frame per open group on an explicit stack);
 *   3. NFA: a stack of fragments whose dangling exits are threaded through the
 *      exits themselves.
 * The search adds each state at most once per text position (a generation mark
 * per state), following epsilon edges with an explicit stack. */
#include "lf_re.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lf_util.h"

typedef struct re_set {
    uint8_t bits[32];
} re_set;

enum { T_ATOM, T_BOL, T_EOL, T_LP, T_RP, T_ALT, T_STAR, T_PLUS, T_QUEST, T_CAT, T_EMPTY };

typedef struct re_tok {
    unsigned char kind;
    int set; /* T_ATOM */
} re_tok;

enum { OP_BYTE, OP_SPLIT, OP_JMP, OP_BOL, OP_EOL, OP_MATCH };

typedef struct re_state {
    unsigned char op;
    int out, out1; /* next states; while dangling, the next exit of a fragment's list */
    int set;       /* OP_BYTE */
} re_state;

struct lf_re {
    re_state *states;
    int n_states, start;
    re_set *sets;
};

typedef struct builder {
    re_tok *toks;
    size_t n_toks, cap_toks;
    re_set *sets;
    size_t n_sets, cap_sets;
    const char *why;
    int refused; /* why is a limit or an unsupported feature, not a syntax error */
} builder;

static const char TOO_BIG[] = "it expands to more than 4096 NFA states";

static int push_tok(builder *b, unsigned char kind, int set) {
    if (b->n_toks >= LF_RE_MAX_STATES) {
        b->why = TOO_BIG;
        b->refused = 1;
        return 0;
    }
    if (b->n_toks == b->cap_toks) {
        b->cap_toks = b->cap_toks ? b->cap_toks * 2 : 64;
        b->toks = lf_xrealloc(b->toks, b->cap_toks * sizeof *b->toks);
    }
    b->toks[b->n_toks++] = (re_tok){kind, set};
    return 1;
}

static int new_set(builder *b) {
    if (b->n_sets == b->cap_sets) {
        b->cap_sets = b->cap_sets ? b->cap_sets * 2 : 16;
        b->sets = lf_xrealloc(b->sets, b->cap_sets * sizeof *b->sets);
    }
    memset(&b->sets[b->n_sets], 0, sizeof b->sets[0]);
    return (int)b->n_sets++;
}

static void set_add(re_set *s, unsigned lo, unsigned hi) {
    for (unsigned c = lo; c <= hi; c++)
        s->bits[c >> 3] |= (uint8_t)(1u << (c & 7));
}

static int set_has(const re_set *s, unsigned char c) { return (s->bits[c >> 3] >> (c & 7)) & 1; }

/* [:name:] at p (after "[:"); adds the class and returns the length of
 * "name:]", or 0 for an unknown name. */
static size_t named_class(re_set *s, const char *p, size_t left) {
    static const struct {
        const char *name;
        int (*is)(int);
    } classes[] = {{"alpha", isalpha}, {"digit", isdigit}, {"alnum", isalnum}, {"upper", isupper},
                   {"lower", islower}, {"space", isspace}, {"blank", isblank}, {"punct", ispunct},
                   {"print", isprint}, {"graph", isgraph}, {"cntrl", iscntrl}, {"xdigit", isxdigit}};
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        size_t n = strlen(classes[k].name);
        if (left >= n + 2 && memcmp(p, classes[k].name, n) == 0 && p[n] == ':' && p[n + 1] == ']') {
            for (unsigned c = 0; c < 128; c++) /* the C locale: ASCII only */
                if (classes[k].is((int)c))
                    set_add(s, c, c);
            return n + 2;
        }
    }
    return 0;
}

/* A bracket expression starting at p[i] == '['. Returns the index after its
 * closing ']', or 0 with b->why set. */
static size_t bracket(builder *b, const char *p, size_t len, size_t i, int *set_out) {
    int si = new_set(b);
    re_set s;
    memset(&s, 0, sizeof s);
    size_t j = i + 1;
    int negate = 0;
    if (j < len && p[j] == '^') {
        negate = 1;
        j++;
    }
    int first = 1;
    for (;;) {
        if (j >= len) {
            b->why = "unterminated bracket expression [";
            return 0;
        }
        unsigned char c = (unsigned char)p[j];
        if (c == ']' && !first)
            break;
        first = 0;
        if (c == '[' && j + 1 < len && (p[j + 1] == '.' || p[j + 1] == '=')) {
            b->why = "collating elements and equivalence classes ([. .] [= =]) are not supported";
            b->refused = 1;
            return 0;
        }
        if (c == '[' && j + 1 < len && p[j + 1] == ':') {
            size_t n = named_class(&s, p + j + 2, len - j - 2);
            if (!n) {
                b->why = "unknown character class [:name:]";
                return 0;
            }
            j += 2 + n;
            continue;
        }
        if (j + 2 < len && p[j + 1] == '-' && p[j + 2] != ']') {
            unsigned char hi = (unsigned char)p[j + 2];
            if (hi < c) {
                b->why = "invalid range end in a bracket expression";
                return 0;
            }
            set_add(&s, c, hi);
            j += 3;
            continue;
        }
        set_add(&s, c, c);
        j++;
    }
    if (negate)
        for (size_t k = 0; k < sizeof s.bits; k++)
            s.bits[k] = (uint8_t)~s.bits[k];
    b->sets[si] = s;
    *set_out = si;
    return j + 1;
}

/* {m}, {m,}, {m,n} or {,n} (glibc: m = 0) at p[i] == '{'. Returns the index
 * after '}', or 0 with b->why set; *hi is -1 for no upper bound. */
static size_t count(builder *b, const char *p, size_t len, size_t i, long *lo, long *hi) {
    size_t j = i + 1;
    long m = 0, n;
    while (j < len && isdigit((unsigned char)p[j]) && m <= 1000)
        m = m * 10 + (p[j++] - '0');
    n = m;
    if (j < len && p[j] == ',') {
        j++;
        if (j < len && p[j] == '}') {
            n = -1;
        } else {
            if (j >= len || !isdigit((unsigned char)p[j])) {
                b->why = "invalid counted repetition {m,n}";
                return 0;
            }
            n = 0;
            while (j < len && isdigit((unsigned char)p[j]) && n <= 1000)
                n = n * 10 + (p[j++] - '0');
        }
    }
    if (j >= len || p[j] != '}' || (n >= 0 && n < m)) {
        b->why = "invalid counted repetition {m,n}";
        return 0;
    }
    if (m > 32 || n > 32) {
        b->why = "a counted repetition {m,n} above 32";
        b->refused = 1;
        return 0;
    }
    *lo = m;
    *hi = n;
    return j + 1;
}

/* Replace the operand toks[from, n_toks) by its expansion for {lo,hi}:
 * ( (X)..(X) (X)* ) or ( (X)..(X) (X)?..(X)? ), one group so that a following
 * quantifier applies to all of it. */
static int expand(builder *b, size_t from, long lo, long hi) {
    size_t n = b->n_toks - from;
    re_tok *x = lf_xmalloc((n ? n : 1) * sizeof *x);
    memcpy(x, b->toks + from, n * sizeof *x);
    b->n_toks = from;
    int ok = push_tok(b, T_LP, 0);
    long copies = hi < 0 ? lo + 1 : hi;
    for (long k = 0; ok && k < copies; k++) {
        ok = push_tok(b, T_LP, 0);
        for (size_t t = 0; ok && t < n; t++)
            ok = push_tok(b, x[t].kind, x[t].set);
        ok = ok && push_tok(b, T_RP, 0);
        if (ok && k >= lo)
            ok = push_tok(b, hi < 0 ? T_STAR : T_QUEST, 0);
    }
    ok = ok && push_tok(b, T_RP, 0);
    free(x);
    return ok;
}

/* Pass 1. */
static int tokenize(builder *b, const char *p) {
    size_t len = strlen(p);
    if (len > LF_RE_MAX_LEN) {
        b->why = "longer than 512 bytes";
        b->refused = 1;
        return 0;
    }
    size_t *open = lf_xmalloc((len + 1) * sizeof *open); /* token index of each open '(' */
    size_t depth = 0;
    long last = -1; /* first token of the operand a quantifier would apply to */
    long count_sum = 0;
    int ok = 1;
    for (size_t i = 0; ok && i < len;) {
        unsigned char c = (unsigned char)p[i];
        int set;
        switch (c) {
        case '\\':
            if (i + 1 >= len) {
                b->why = "a trailing backslash";
                ok = 0;
                break;
            }
            if (p[i + 1] >= '1' && p[i + 1] <= '9') {
                b->why = "back-references are not allowed (their matching time is exponential)";
                b->refused = 1;
                ok = 0;
                break;
            }
            if (isalnum((unsigned char)p[i + 1])) {
                b->why = "escapes other than a backslash before punctuation are not supported";
                b->refused = 1;
                ok = 0;
                break;
            }
            set = new_set(b);
            set_add(&b->sets[set], (unsigned char)p[i + 1], (unsigned char)p[i + 1]);
            last = (long)b->n_toks;
            ok = push_tok(b, T_ATOM, set);
            i += 2;
            break;
        case '[': {
            size_t next = bracket(b, p, len, i, &set);
            if (!next) {
                ok = 0;
                break;
            }
            last = (long)b->n_toks;
            ok = push_tok(b, T_ATOM, set);
            i = next;
            break;
        }
        case '(':
            open[depth++] = b->n_toks;
            ok = push_tok(b, T_LP, 0);
            last = -1;
            i++;
            break;
        case ')':
            if (depth == 0) {
                b->why = "unmatched )";
                ok = 0;
                break;
            }
            last = (long)open[--depth];
            ok = push_tok(b, T_RP, 0);
            i++;
            break;
        case '|':
            ok = push_tok(b, T_ALT, 0);
            last = -1;
            i++;
            break;
        case '*':
        case '+':
        case '?':
            if (last < 0) {
                b->why = "a repetition with nothing to repeat";
                ok = 0;
                break;
            }
            ok = push_tok(b, c == '*' ? T_STAR : c == '+' ? T_PLUS : T_QUEST, 0);
            i++;
            break;
        case '^':
        case '$':
            ok = push_tok(b, c == '^' ? T_BOL : T_EOL, 0);
            last = -1;
            i++;
            break;
        default:
            if (c == '{') { /* as glibc's ERE: always a count, never a literal */
                long lo, hi;
                if (i + 1 >= len || !(isdigit((unsigned char)p[i + 1]) || p[i + 1] == ',')) {
                    b->why = "invalid counted repetition {m,n}";
                    ok = 0;
                    break;
                }
                size_t next = count(b, p, len, i, &lo, &hi);
                if (!next) {
                    ok = 0;
                    break;
                }
                if (last < 0) {
                    b->why = "a repetition with nothing to repeat";
                    ok = 0;
                    break;
                }
                count_sum += hi > lo ? hi : lo;
                if (count_sum > 256) {
                    b->why = "counted repetitions adding up to more than 256";
                    b->refused = 1;
                    ok = 0;
                    break;
                }
                ok = expand(b, (size_t)last, lo, hi);
                i = next;
                break;
            }
            set = new_set(b);
            if (c == '.') {
                set_add(&b->sets[set], 1, 255); /* not NUL, as POSIX */
            } else {
                set_add(&b->sets[set], c, c);
            }
            last = (long)b->n_toks;
            ok = push_tok(b, T_ATOM, set);
            i++;
            break;
        }
    }
    if (ok && depth != 0) {
        b->why = "unmatched (";
        ok = 0;
    }
    free(open);
    return ok;
}

/* Pass 2: infix tokens -> postfix, with T_CAT and T_EMPTY made explicit. */
static re_tok *to_postfix(const builder *b, size_t *n_out) {
    re_tok *out = lf_xmalloc((2 * b->n_toks + 2) * sizeof *out);
    size_t n = 0;
    typedef struct frame {
        long natom, nalt;
    } frame;
    frame *stack = lf_xmalloc((b->n_toks + 1) * sizeof *stack);
    size_t depth = 0;
    long natom = 0, nalt = 0;
    for (size_t i = 0; i <= b->n_toks; i++) {
        unsigned char k = i < b->n_toks ? b->toks[i].kind : T_RP; /* the end closes the outermost group */
        switch (k) {
        case T_LP:
            if (natom > 1) {
                natom--;
                out[n++] = (re_tok){T_CAT, 0};
            }
            stack[depth++] = (frame){natom, nalt};
            natom = nalt = 0;
            break;
        case T_ALT:
        case T_RP:
            if (natom == 0) {
                out[n++] = (re_tok){T_EMPTY, 0};
                natom = 1;
            }
            while (--natom > 0)
                out[n++] = (re_tok){T_CAT, 0};
            if (k == T_ALT) {
                nalt++;
                break;
            }
            for (; nalt > 0; nalt--)
                out[n++] = (re_tok){T_ALT, 0};
            if (i < b->n_toks) {
                frame f = stack[--depth];
                natom = f.natom + 1;
                nalt = f.nalt;
            }
            break;
        case T_STAR:
        case T_PLUS:
        case T_QUEST:
            out[n++] = b->toks[i];
            break;
        default: /* an atom, '^' or '$' */
            if (natom > 1) {
                natom--;
                out[n++] = (re_tok){T_CAT, 0};
            }
            out[n++] = b->toks[i];
            natom++;
            break;
        }
    }
    free(stack);
    *n_out = n;
    return out;
}

/* Pass 3. A fragment's dangling exits form a list through the exits themselves:
 * exit id = state * 2 + (0: out, 1: out1), -1 ends it. */
typedef struct frag {
    int start, exits;
} frag;

static int *exit_slot(re_state *st, int id) { return id & 1 ? &st[id >> 1].out1 : &st[id >> 1].out; }

static void patch(re_state *st, int exits, int to) {
    while (exits >= 0) {
        int *slot = exit_slot(st, exits);
        exits = *slot;
        *slot = to;
    }
}

static int join(re_state *st, int a, int b) {
    if (a < 0)
        return b;
    int id = a;
    while (*exit_slot(st, id) >= 0)
        id = *exit_slot(st, id);
    *exit_slot(st, id) = b;
    return a;
}

static lf_re *build_nfa(const re_tok *post, size_t n, re_set *sets, const char **why, int *refused) {
    lf_re *re = lf_xcalloc(1, sizeof *re);
    re->states = lf_xmalloc((n + 1) * sizeof *re->states);
    re->sets = sets;
    frag *stack = lf_xmalloc((n + 1) * sizeof *stack);
    size_t depth = 0;
    re_state *st = re->states;
    int ns = 0;
    for (size_t i = 0; i < n; i++) {
        frag e1, e2;
        int s = ns;
        switch (post[i].kind) {
        case T_CAT:
            e2 = stack[--depth];
            e1 = stack[--depth];
            patch(st, e1.exits, e2.start);
            stack[depth++] = (frag){e1.start, e2.exits};
            continue;
        case T_ALT:
            e2 = stack[--depth];
            e1 = stack[--depth];
            st[ns++] = (re_state){OP_SPLIT, e1.start, e2.start, 0};
            stack[depth++] = (frag){s, join(st, e1.exits, e2.exits)};
            continue;
        case T_QUEST:
            e1 = stack[--depth];
            st[ns++] = (re_state){OP_SPLIT, e1.start, -1, 0};
            stack[depth++] = (frag){s, join(st, e1.exits, s * 2 + 1)};
            continue;
        case T_STAR:
        case T_PLUS:
            e1 = stack[--depth];
            st[ns++] = (re_state){OP_SPLIT, e1.start, -1, 0};
            patch(st, e1.exits, s);
            stack[depth++] = (frag){post[i].kind == T_STAR ? s : e1.start, s * 2 + 1};
            continue;
        case T_ATOM:
            st[ns++] = (re_state){OP_BYTE, -1, -1, post[i].set};
            break;
        case T_BOL:
            st[ns++] = (re_state){OP_BOL, -1, -1, 0};
            break;
        case T_EOL:
            st[ns++] = (re_state){OP_EOL, -1, -1, 0};
            break;
        default: /* T_EMPTY */
            st[ns++] = (re_state){OP_JMP, -1, -1, 0};
            break;
        }
        stack[depth++] = (frag){s, s * 2};
    }
    frag all = stack[--depth];
    free(stack);
    st[ns] = (re_state){OP_MATCH, -1, -1, 0};
    patch(st, all.exits, ns);
    re->n_states = ns + 1;
    re->start = all.start;
    if (re->n_states > LF_RE_MAX_STATES) {
        *why = TOO_BIG;
        *refused = 1;
        lf_re_free(re);
        return NULL;
    }
    return re;
}

lf_re *lf_re_compile(const char *pattern, const char **why, int *refused) {
    builder b;
    memset(&b, 0, sizeof b);
    *why = NULL;
    *refused = 0;
    lf_re *re = NULL;
    if (tokenize(&b, pattern)) {
        size_t n;
        re_tok *post = to_postfix(&b, &n);
        re = build_nfa(post, n, b.sets, why, refused);
        free(post);
        if (re)
            b.sets = NULL; /* owned by re */
    } else {
        *why = b.why;
        *refused = b.refused;
    }
    free(b.toks);
    free(b.sets);
    return re;
}

void lf_re_free(lf_re *re) {
    if (!re)
        return;
    free(re->states);
    free(re->sets);
    free(re);
}

/* The search's working memory: two state lists, a generation mark per state, and
 * the epsilon stack (each state pushes at most its two exits). */
typedef struct sim {
    int *cur, *next, *stack;
    unsigned *mark;
    size_t n_cur, n_next;
    unsigned gen;
} sim;

/* Add state s and what its epsilon edges reach at text position pos to the next
 * list; 1 when that reaches the match state. */
static int add(const lf_re *re, sim *m, int s, size_t pos, size_t len) {
    size_t depth = 0;
    unsigned long long steps = 0;
    int matched = 0;
    m->stack[depth++] = s;
    while (depth > 0) {
        s = m->stack[--depth];
        if (m->mark[s] == m->gen)
            continue;
        m->mark[s] = m->gen;
        steps++;
        const re_state *st = &re->states[s];
        switch (st->op) {
        case OP_SPLIT:
            m->stack[depth++] = st->out1;
            m->stack[depth++] = st->out;
            break;
        case OP_JMP:
            m->stack[depth++] = st->out;
            break;
        case OP_BOL:
            if (pos == 0)
                m->stack[depth++] = st->out;
            break;
        case OP_EOL:
            if (pos == len)
                m->stack[depth++] = st->out;
            break;
        case OP_MATCH:
            matched = 1;
            break;
        default:
            m->next[m->n_next++] = s;
            break;
        }
    }
    lf_work(steps);
    return matched;
}

int lf_re_search(const lf_re *re, const char *text, size_t len) {
    size_t n = (size_t)re->n_states;
    int local[4 * 64 + 2];
    unsigned local_mark[64];
    int *ints = n <= 64 ? local : lf_xmalloc((4 * n + 2) * sizeof *ints);
    unsigned *marks = n <= 64 ? local_mark : lf_xmalloc(n * sizeof *marks);
    memset(marks, 0, n * sizeof *marks);
    sim m = {ints, ints + n, ints + 2 * n, marks, 0, 0, 1};
    int found = add(re, &m, re->start, 0, len);
    for (size_t pos = 0; !found && pos < len; pos++) {
        int *t = m.cur;
        m.cur = m.next;
        m.next = t;
        m.n_cur = m.n_next;
        m.n_next = 0;
        m.gen++;
        unsigned char c = (unsigned char)text[pos];
        for (size_t k = 0; !found && k < m.n_cur; k++) {
            const re_state *st = &re->states[m.cur[k]];
            if (set_has(&re->sets[st->set], c))
                found = add(re, &m, st->out, pos + 1, len);
        }
        if (!found) /* unanchored: a match may also start after this byte */
            found = add(re, &m, re->start, pos + 1, len);
    }
    if (ints != local) {
        free(ints);
        free(marks);
    }
    return found;
}
