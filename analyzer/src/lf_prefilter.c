/* Prefilter literals of every rule, found in one pass over a file.
 *
 * A rule is only parsed/queried for a file that contains one literal of each of
 * its prefilter groups. With a memmem per literal, the scan over files that no
 * rule wants (most of them) cost more than parsing the rest; here every literal
 * is found in a single pass: a hash of the 4 bytes at each position says which
 * literals can start there, and only those are compared.
 *
 * Two refinements let a rule say more than "these bytes occur somewhere"
 * (rules/README.md): `\b` at either end of a literal asks for an identifier
 * boundary there, and `CALL(…WORD` asks for WORD inside a call of CALL (its
 * receiver chain included). Both are decided on Python's
 * lexical structure and answer "hit" whenever that structure is not plain
 * enough to be sure, so a refined literal never rejects a file the plain
 * literal would have had to let through for a real finding. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"

typedef struct lit_form {
    unsigned char word_start, word_end; /* `\b` at the start / end */
    const char *inside;                 /* `…WORD`: WORD, else NULL */
    size_t inside_len;
} lit_form;

#define LF_PF_BUCKET_BITS 12
#define LF_PF_BUCKETS (1u << LF_PF_BUCKET_BITS)

static inline uint32_t head4_bucket(uint32_t w) { return (w * 0x9E3779B1u) >> (32 - LF_PF_BUCKET_BITS); }

/* A distinct byte string to find; several literals may share it (`unlink(…lock`,
 * `unlink(…Lock`) and are then told apart by their forms. */
typedef struct needle {
    const unsigned char *bytes;
    size_t len;
    uint64_t head, mask; /* first min(len, 8) bytes, for one masked compare */
    uint32_t *lits;      /* literal ids */
    size_t n_lits;
} needle;

struct lf_prefilter_index {
    char **lits; /* the literal bytes to find (markup stripped) */
    size_t *lens;
    lit_form *forms;
    size_t n;
    needle *needles;
    size_t n_needles;
    /* Needles of 4+ bytes by a hash of their first 4 bytes: bucket h holds
     * ids[start[h] .. start[h+1]) and bit h of bucket_bits says it is not
     * empty (512 bytes: one load and a bit test reject almost every position;
     * keyed by byte pairs, common pairs like "re" or "lo" sent every `return`
     * and `log` to a list of candidates). Shorter needles: `short_ids`. */
    uint64_t bucket_bits[LF_PF_BUCKETS / 64];
    uint32_t start[LF_PF_BUCKETS + 1];
    uint32_t *ids;
    uint32_t *short_ids;
    size_t n_short;
    /* Where a short needle may start: bit (s[i] | s[i+1] << 8) says some
     * 2- or 3-byte needle begins with that pair (8 KB; keyed by the first
     * byte alone, every `l` of a file was a candidate for "lck"), and
     * short_one[s[i]] that a 1-byte needle is that byte. */
    uint64_t short_pair_bits[65536 / 64];
    unsigned char short_one[256];
    /* The first test at each position: bit (s[i] | s[i+1] << 8) says some
     * needle of any length may start there (every pair that starts a 1-byte
     * needle's byte). Most positions of a text fail it, for the cost of one
     * 2-byte read and a bit test (8 KB). */
    uint64_t any_pair_bits[65536 / 64];
    unsigned char *done; /* per needle, per scan: every literal on it decided (scratch: one index per engine) */
    /* Per rule (ruleset order), per group: literal ids. */
    struct rule_groups {
        struct group_ids {
            uint32_t *ids;
            size_t n;
        } *groups;
        size_t n_groups;
    } *rules;
    size_t n_rules;
};

typedef LF_VEC(char *) lit_vec;

static size_t lit_id(lit_vec *lits, const char *s) {
    for (size_t i = 0; i < lits->len; i++)
        if (strcmp(lits->items[i], s) == 0)
            return i;
    LF_VEC_PUSH(lits, lf_xstrdup(s));
    return lits->len - 1;
}

#define ELLIPSIS "\xE2\x80\xA6" /* U+2026, "…" */

/* Split the markup off lit in place: "\bNAME\b", "CALL(…WORD". A literal that
 * would be empty without its markup keeps it (and is then matched as spelled). */
static void parse_form(char *lit, lit_form *f) {
    memset(f, 0, sizeof *f);
    char *ell = strstr(lit, ELLIPSIS);
    if (ell && ell - lit >= 2 && ell[-1] == '(' && ell[strlen(ELLIPSIS)] != '\0') {
        f->inside = ell + strlen(ELLIPSIS);
        f->inside_len = strlen(f->inside);
        ell[-1] = '\0'; /* lit is now CALL (its '(' is looked for after any extras); WORD stays behind the NUL */
    }
    size_t n = strlen(lit);
    if (n > 2 && lit[0] == '\\' && lit[1] == 'b') {
        memmove(lit, lit + 2, n - 1);
        n -= 2;
        f->word_start = 1;
    }
    if (n > 2 && lit[n - 2] == '\\' && lit[n - 1] == 'b') {
        lit[n - 2] = '\0';
        f->word_end = 1;
    }
}

/* Bytes that can continue an identifier (non-ASCII: Python allows Unicode
 * letters; tree-sitter-python's identifier takes any such byte). */
static int ident_byte(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* An identifier (hence a node whose text starts with one) cannot begin right
 * after an ASCII letter or '_': the lexer would have made them one identifier.
 * A digit before is let through (`x1store_` is one identifier, but so is
 * nothing else to be sure of), and so is a non-ASCII byte: tree-sitter ends an
 * identifier at a Unicode character that cannot continue one (U+00A0 is even
 * whitespace to it), and telling those apart is not worth it here. */
static int starts_word(const unsigned char *s, size_t i) {
    if (i == 0)
        return 1;
    unsigned char c = s[i - 1];
    return !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* The identifier cannot go on past i: the same reasoning, at the end. */
static int ends_word(const unsigned char *s, size_t i) {
    unsigned char c = s[i];
    return !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
}

/* Start of the receiver chain `a.b.c` ending just before the '.' at dot, or -1
 * when the receiver is not a plain dotted name (a call, subscript, string,
 * number or line continuation before the '.'): then it cannot be bounded here. */
static long receiver_start(const unsigned char *s, size_t dot) {
    size_t j = dot;
    for (;;) {
        size_t k = j;
        while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
            k--;
        size_t e = k;
        while (k > 0 && ident_byte(s[k - 1]))
            k--;
        if (k == e || (s[k] >= '0' && s[k] <= '9'))
            return -1;
        size_t m = k;
        while (m > 0 && (s[m - 1] == ' ' || s[m - 1] == '\t'))
            m--;
        if (m > 0 && s[m - 1] == '.') {
            j = m - 1;
            continue;
        }
        return (long)k;
    }
}

/* End (one past the closing bracket) of the bracketed group opened at
 * s[open], or 0 when it cannot be bounded lexically: brackets that do not
 * pair up, a string that is triple-quoted, formatted (f/t prefix: its fields
 * may nest quotes) or runs into a newline, nesting deeper than 64, or no end
 * within 64 KiB. Strings and comments are skipped, so brackets inside them do
 * not count; their text is still inside the group. */
static size_t group_end(const unsigned char *s, size_t len, size_t open) {
    unsigned char want[64];
    size_t depth = 0;
    size_t limit = len - open > 65536 ? open + 65536 : len;
    for (size_t i = open; i < limit; i++) {
        unsigned char c = s[i];
        switch (c) {
        case '(': case '[': case '{':
            if (depth == sizeof want)
                return 0;
            want[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
            break;
        case ')': case ']': case '}':
            if (depth == 0 || want[depth - 1] != c)
                return 0;
            if (--depth == 0)
                return i + 1;
            break;
        case '#':
            while (i + 1 < limit && s[i + 1] != '\n')
                i++;
            break;
        case '\\':
            i++; /* line continuation: the next byte is not code */
            break;
        case '\'': case '"': {
            for (size_t p = i; p > 0 && ((s[p - 1] | 0x20) >= 'a' && (s[p - 1] | 0x20) <= 'z'); p--)
                if ((s[p - 1] | 0x20) == 'f' || (s[p - 1] | 0x20) == 't')
                    return 0;
            if (i + 2 < len && s[i + 1] == c && s[i + 2] == c)
                return 0;
            size_t j = i + 1;
            while (j < limit && s[j] != c) {
                if (s[j] == '\n')
                    return 0;
                j += s[j] == '\\' ? 2 : 1;
            }
            if (j >= limit)
                return 0;
            i = j;
            break;
        }
        default:
            break;
        }
    }
    return 0;
}

/* Position of the '(' that opens a call whose callee text ends at j, past what
 * tree-sitter-python takes as extras between the two (whitespace, newlines,
 * `\` line continuations, comments); len when the next token is something
 * else (not a call), or SIZE_MAX when a non-ASCII byte (Unicode space?) makes
 * it unsure. */
static size_t call_paren(const unsigned char *s, size_t len, size_t j) {
    while (j < len) {
        unsigned char c = s[j];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '\\') {
            j++;
        } else if (c == '#') {
            while (j < len && s[j] != '\n')
                j++;
        } else if (c == '(') {
            return j;
        } else {
            return c >= 0x80 ? SIZE_MAX : len;
        }
    }
    return len;
}

/* Does WORD occur in a call of CALL, the callee spelled as CALL at i? The call
 * runs from its receiver chain, when the callee is reached through a '.'
 * (`x.CALL(`, `x . CALL(`), to the ')' that closes its '(' (found past any
 * extras: `CALL (`). Not followed by a '(': not a call, no hit. Unboundable
 * shapes count as a hit. */
static int call_contains(const unsigned char *s, size_t len, size_t i, size_t lit_len, const lit_form *f) {
    size_t paren = call_paren(s, len, i + lit_len);
    if (paren == SIZE_MAX)
        return 1;
    if (paren >= len)
        return 0;
    size_t from = i, before = i;
    while (before > 0 && (s[before - 1] == ' ' || s[before - 1] == '\t'))
        before--;
    size_t dot = s[i] == '.' ? i + 1 : (before > 0 && s[before - 1] == '.') ? before : 0; /* '.' + 1, or 0 */
    if (dot > 0) {
        long r = receiver_start(s, dot - 1);
        if (r < 0)
            return 1;
        from = (size_t)r;
    }
    size_t to = group_end(s, len, paren);
    if (to == 0)
        return 1;
    return memmem(s + from, to - from, f->inside, f->inside_len) != NULL;
}

/* Does the occurrence of literal id at i satisfy its form? */
static int form_holds(const lf_prefilter_index *ix, uint32_t id, const unsigned char *s, size_t len, size_t i) {
    const lit_form *f = &ix->forms[id];
    if (f->word_start && !starts_word(s, i))
        return 0;
    if (f->word_end && !ends_word(s, i + ix->lens[id]))
        return 0;
    if (f->inside && !call_contains(s, len, i, ix->lens[id], f))
        return 0;
    return 1;
}

lf_prefilter_index *lf_prefilter_index_new(const lf_ruleset *set, lf_lang lang, const unsigned char *enabled) {
    lf_prefilter_index *ix = lf_xcalloc(1, sizeof *ix);
    lit_vec lits = {0};
    ix->n_rules = set ? set->n_rules : 0;
    ix->rules = lf_xcalloc(ix->n_rules ? ix->n_rules : 1, sizeof *ix->rules);
    for (size_t r = 0; r < ix->n_rules; r++) {
        const lf_rule *rule = set->rules[r];
        size_t n_groups = 0;
        const lf_prefilter_group *groups =
            (rule->languages & LF_LANG_BIT(lang)) && (!enabled || enabled[r]) ? lf_rule_prefilter(rule, lang, &n_groups)
                                                                               : NULL;
        ix->rules[r].n_groups = n_groups;
        ix->rules[r].groups = lf_xcalloc(n_groups ? n_groups : 1, sizeof *ix->rules[r].groups);
        for (size_t g = 0; g < n_groups; g++) {
            struct group_ids *gi = &ix->rules[r].groups[g];
            gi->n = groups[g].n_any;
            gi->ids = lf_xcalloc(gi->n ? gi->n : 1, sizeof *gi->ids);
            for (size_t i = 0; i < gi->n; i++)
                gi->ids[i] = (uint32_t)lit_id(&lits, groups[g].any[i]);
        }
    }
    ix->lits = lits.items;
    ix->n = lits.len;
    ix->lens = lf_xcalloc(ix->n ? ix->n : 1, sizeof *ix->lens);
    ix->forms = lf_xcalloc(ix->n ? ix->n : 1, sizeof *ix->forms);
    for (size_t i = 0; i < ix->n; i++)
        parse_form(ix->lits[i], &ix->forms[i]);
    /* One needle per distinct stripped literal. */
    ix->needles = lf_xcalloc(ix->n ? ix->n : 1, sizeof *ix->needles);
    uint32_t *needle_of = lf_xcalloc(ix->n ? ix->n : 1, sizeof *needle_of);
    for (size_t i = 0; i < ix->n; i++) {
        ix->lens[i] = strlen(ix->lits[i]);
        size_t k = 0;
        while (k < ix->n_needles && !(ix->needles[k].len == ix->lens[i] &&
                                      memcmp(ix->needles[k].bytes, ix->lits[i], ix->lens[i]) == 0))
            k++;
        needle *nd = &ix->needles[k];
        if (k == ix->n_needles) {
            ix->n_needles++;
            nd->bytes = (const unsigned char *)ix->lits[i];
            nd->len = ix->lens[i];
            unsigned char ones[8] = {0}, head[8] = {0};
            size_t h = nd->len < 8 ? nd->len : 8;
            memset(ones, 0xFF, h);
            memcpy(head, nd->bytes, h);
            memcpy(&nd->mask, ones, 8);
            memcpy(&nd->head, head, 8);
        }
        nd->lits = lf_xrealloc(nd->lits, (nd->n_lits + 1) * sizeof *nd->lits);
        nd->lits[nd->n_lits++] = (uint32_t)i;
        needle_of[i] = (uint32_t)k;
    }
    free(needle_of);
    ix->done = lf_xcalloc(ix->n_needles ? ix->n_needles : 1, 1);
    uint32_t count[LF_PF_BUCKETS] = {0};
    ix->short_ids = lf_xcalloc(ix->n_needles ? ix->n_needles : 1, sizeof *ix->short_ids);
    for (size_t k = 0; k < ix->n_needles; k++) {
        const needle *nd = &ix->needles[k];
        if (nd->len < 4) {
            ix->short_ids[ix->n_short++] = (uint32_t)k;
            if (nd->len == 1) {
                ix->short_one[nd->bytes[0]] = 1;
                for (uint32_t next = 0; next < 256; next++) {
                    uint32_t pair = (uint32_t)nd->bytes[0] | next << 8;
                    ix->any_pair_bits[pair >> 6] |= (uint64_t)1 << (pair & 63);
                }
            } else {
                uint32_t pair = (uint32_t)nd->bytes[0] | (uint32_t)nd->bytes[1] << 8;
                ix->short_pair_bits[pair >> 6] |= (uint64_t)1 << (pair & 63);
                ix->any_pair_bits[pair >> 6] |= (uint64_t)1 << (pair & 63);
            }
            continue;
        }
        uint32_t pair = (uint32_t)nd->bytes[0] | (uint32_t)nd->bytes[1] << 8;
        ix->any_pair_bits[pair >> 6] |= (uint64_t)1 << (pair & 63);
        uint32_t w;
        memcpy(&w, nd->bytes, 4);
        count[head4_bucket(w)]++;
    }
    for (size_t h = 0; h < LF_PF_BUCKETS; h++) {
        ix->start[h + 1] = ix->start[h] + count[h];
        if (count[h])
            ix->bucket_bits[h >> 6] |= (uint64_t)1 << (h & 63);
    }
    ix->ids = lf_xcalloc(ix->start[LF_PF_BUCKETS] ? ix->start[LF_PF_BUCKETS] : 1, sizeof *ix->ids);
    memset(count, 0, sizeof count);
    for (size_t k = 0; k < ix->n_needles; k++) {
        const needle *nd = &ix->needles[k];
        if (nd->len < 4)
            continue;
        uint32_t w;
        memcpy(&w, nd->bytes, 4);
        uint32_t h = head4_bucket(w);
        ix->ids[ix->start[h] + count[h]++] = (uint32_t)k;
    }
    return ix;
}

void lf_prefilter_index_free(lf_prefilter_index *ix) {
    if (!ix)
        return;
    for (size_t r = 0; r < ix->n_rules; r++) {
        for (size_t g = 0; g < ix->rules[r].n_groups; g++)
            free(ix->rules[r].groups[g].ids);
        free(ix->rules[r].groups);
    }
    free(ix->rules);
    for (size_t i = 0; i < ix->n; i++)
        free(ix->lits[i]);
    free(ix->lits);
    free(ix->lens);
    free(ix->forms);
    for (size_t k = 0; k < ix->n_needles; k++)
        free(ix->needles[k].lits);
    free(ix->needles);
    free(ix->done);
    free(ix->ids);
    free(ix->short_ids);
    free(ix);
}

size_t lf_prefilter_index_size(const lf_prefilter_index *ix) { return ix->n; }

/* Needle nid at s + i (nd->len <= len - i): decide its literals there. */
static void try_needle(const lf_prefilter_index *ix, uint32_t nid, const unsigned char *s, size_t len, size_t i,
                       unsigned char *found) {
    const needle *nd = &ix->needles[nid];
    int eq;
    if (i + 8 <= len + 1) { /* reads at most up to the NUL at s[len] */
        uint64_t w;
        memcpy(&w, s + i, 8);
        eq = (w & nd->mask) == nd->head && (nd->len <= 8 || memcmp(s + i + 8, nd->bytes + 8, nd->len - 8) == 0);
    } else {
        eq = memcmp(s + i, nd->bytes, nd->len) == 0;
    }
    if (!eq)
        return;
    int all = 1;
    for (size_t j = 0; j < nd->n_lits; j++) {
        uint32_t id = nd->lits[j];
        if (found[id])
            continue;
        if (form_holds(ix, id, s, len, i))
            found[id] = 1;
        else
            all = 0;
    }
    ix->done[nid] = (unsigned char)all;
}

static void try_short(const lf_prefilter_index *ix, const unsigned char *s, size_t len, size_t i, unsigned char *found) {
    for (size_t k = 0; k < ix->n_short; k++) {
        uint32_t nid = ix->short_ids[k];
        if (!ix->done[nid] && ix->needles[nid].len <= len - i)
            try_needle(ix, nid, s, len, i, found);
    }
}

void lf_prefilter_scan(const lf_prefilter_index *ix, const char *text, size_t len, unsigned char *found) {
    memset(found, 0, ix->n);
    if (ix->n == 0)
        return;
    const unsigned char *done = ix->done;
    memset(ix->done, 0, ix->n_needles);
    const unsigned char *s = (const unsigned char *)text;
    /* Locals: writes through found/done (unsigned char) would otherwise make the
     * compiler reload every table from ix at each byte. */
    const uint64_t *bits = ix->bucket_bits;
    const uint32_t *start = ix->start;
    const uint64_t *pair_bits = ix->short_pair_bits;
    const uint64_t *any_bits = ix->any_pair_bits;
    const unsigned char *short_one = ix->short_one;
    size_t i = 0;
    /* A 4-byte needle ends by s[len - 1]: the 4-byte load stays in the text.
     * The pair read at s[i + 1] stays within the text and its NUL (s[len]). */
    for (; i + 4 <= len; i++) {
        uint32_t pair = (uint32_t)s[i] | (uint32_t)s[i + 1] << 8;
        if (!((any_bits[pair >> 6] >> (pair & 63)) & 1))
            continue;
        if (((pair_bits[pair >> 6] >> (pair & 63)) & 1) || short_one[s[i]])
            try_short(ix, s, len, i, found);
        uint32_t w;
        memcpy(&w, s + i, 4);
        uint32_t h = head4_bucket(w);
        if (!((bits[h >> 6] >> (h & 63)) & 1))
            continue;
        for (uint32_t k = start[h], e = start[h + 1]; k < e; k++) {
            uint32_t nid = ix->ids[k];
            if (!done[nid] && ix->needles[nid].len <= len - i)
                try_needle(ix, nid, s, len, i, found);
        }
    }
    for (; i < len; i++) {
        uint32_t pair = (uint32_t)s[i] | (uint32_t)s[i + 1] << 8;
        if (((pair_bits[pair >> 6] >> (pair & 63)) & 1) || short_one[s[i]])
            try_short(ix, s, len, i, found);
    }
}

int lf_prefilter_rule_passes(const lf_prefilter_index *ix, const unsigned char *found, size_t rule_index,
                             const lf_rule *rule) {
    if (rule_index >= ix->n_rules)
        return 1;
    (void)rule;
    for (size_t g = 0; g < ix->rules[rule_index].n_groups; g++) {
        const struct group_ids *gi = &ix->rules[rule_index].groups[g];
        int hit = gi->n == 0;
        for (size_t i = 0; i < gi->n && !hit; i++)
            hit = found[gi->ids[i]];
        if (!hit)
            return 0;
    }
    return 1;
}
