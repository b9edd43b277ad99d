/* Prefilter literals of every rule, found in one pass over a file.
 *
 * A rule is only parsed/queried for a file that contains one literal of each of
 * its prefilter groups. With a memmem per literal, the scan over files that no
 * rule wants (most of them) cost more than parsing the rest; here every literal
 * is found in a single pass: a 64K table keyed by the literal's first two bytes
 * says which literals can start at a position, and only those are compared. */
#include <stdlib.h>
#include <string.h>

#include "lf_engine_internal.h"

struct lf_prefilter_index {
    char **lits;
    size_t *lens;
    size_t n;
    /* Literals starting with byte pair p: ids[start[p] .. start[p+1]). One-byte
     * literals are listed under every pair that starts with their byte. */
    uint32_t *start; /* 65537 entries */
    uint32_t *ids;
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

lf_prefilter_index *lf_prefilter_index_new(const lf_ruleset *set) {
    lf_prefilter_index *ix = lf_xcalloc(1, sizeof *ix);
    lit_vec lits = {0};
    ix->n_rules = set ? set->n_rules : 0;
    ix->rules = lf_xcalloc(ix->n_rules ? ix->n_rules : 1, sizeof *ix->rules);
    for (size_t r = 0; r < ix->n_rules; r++) {
        const lf_rule *rule = set->rules[r];
        ix->rules[r].n_groups = rule->n_prefilter_groups;
        ix->rules[r].groups = lf_xcalloc(rule->n_prefilter_groups ? rule->n_prefilter_groups : 1,
                                         sizeof *ix->rules[r].groups);
        for (size_t g = 0; g < rule->n_prefilter_groups; g++) {
            struct group_ids *gi = &ix->rules[r].groups[g];
            gi->n = rule->prefilter_groups[g].n_any;
            gi->ids = lf_xcalloc(gi->n ? gi->n : 1, sizeof *gi->ids);
            for (size_t i = 0; i < gi->n; i++)
                gi->ids[i] = (uint32_t)lit_id(&lits, rule->prefilter_groups[g].any[i]);
        }
    }
    ix->lits = lits.items;
    ix->n = lits.len;
    ix->lens = lf_xcalloc(ix->n ? ix->n : 1, sizeof *ix->lens);
    ix->start = lf_xcalloc(65537, sizeof *ix->start);
    uint32_t *count = lf_xcalloc(65536, sizeof *count);
    for (size_t i = 0; i < ix->n; i++) {
        const unsigned char *s = (const unsigned char *)ix->lits[i];
        ix->lens[i] = strlen(ix->lits[i]);
        if (ix->lens[i] == 1)
            for (unsigned b = 0; b < 256; b++)
                count[(unsigned)s[0] << 8 | b]++;
        else
            count[(unsigned)s[0] << 8 | s[1]]++;
    }
    for (size_t p = 0; p < 65536; p++)
        ix->start[p + 1] = ix->start[p] + count[p];
    ix->ids = lf_xcalloc(ix->start[65536] ? ix->start[65536] : 1, sizeof *ix->ids);
    memset(count, 0, 65536 * sizeof *count);
    for (size_t i = 0; i < ix->n; i++) {
        const unsigned char *s = (const unsigned char *)ix->lits[i];
        if (ix->lens[i] == 1) {
            for (unsigned b = 0; b < 256; b++) {
                unsigned p = (unsigned)s[0] << 8 | b;
                ix->ids[ix->start[p] + count[p]++] = (uint32_t)i;
            }
        } else {
            unsigned p = (unsigned)s[0] << 8 | s[1];
            ix->ids[ix->start[p] + count[p]++] = (uint32_t)i;
        }
    }
    free(count);
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
    free(ix->start);
    free(ix->ids);
    free(ix);
}

size_t lf_prefilter_index_size(const lf_prefilter_index *ix) { return ix->n; }

void lf_prefilter_scan(const lf_prefilter_index *ix, const char *text, size_t len, unsigned char *found) {
    memset(found, 0, ix->n);
    if (ix->n == 0)
        return;
    const unsigned char *s = (const unsigned char *)text;
    /* The last byte pairs with the NUL terminator lf_source guarantees. */
    for (size_t i = 0; i < len; i++) {
        unsigned p = (unsigned)s[i] << 8 | s[i + 1];
        uint32_t a = ix->start[p], b = ix->start[p + 1];
        for (uint32_t k = a; k < b; k++) {
            uint32_t id = ix->ids[k];
            size_t L = ix->lens[id];
            if (!found[id] && L <= len - i && memcmp(s + i, ix->lits[id], L) == 0)
                found[id] = 1;
        }
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
