/* lf_anchor: where in a tree a query can match, from the words its text
 * predicates require.
 *
 * A query cursor pays for every node of the tree it walks (a third of a parse),
 * though rules' patterns are anchored on a name: `#eq? @fn "kill"`,
 * `#match? @fn "^rename(Sync)?$"`. A match of such a pattern has a capture whose
 * text contains one of a finite set of words, so its root node contains an
 * occurrence of that word in the file's text. The nodes that contain some
 * occurrence are the only possible roots: the engine runs the query at each of
 * them (max start depth 0) instead of walking the whole tree. It finds exactly
 * the matches a full walk finds, because
 *   - every occurrence of every word is found (overlapping ones included);
 *   - the nodes containing a byte range form one chain from the tree's root
 *     down to the smallest of them, and all of that chain is taken;
 *   - a rooted pattern's captures lie inside its root, so the root is on the
 *     chain of the occurrence inside its anchored capture.
 * A pattern without such a word (no positive text predicate, a quantified
 * capture that may be empty, a regex whose language is not a small finite set,
 * a pattern with several roots) keeps the full walk, and so does one rooted at a
 * supertype: a cursor learns a node's supertypes from its parent's production,
 * which it does not see at the node it starts from. A childless pattern of the
 * grammar's start symbol (`(module) @_module`) has one site: the root. */
#ifndef LF_ANCHOR_H
#define LF_ANCHOR_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/* Caps on a regex's word set: past them the regex anchors nothing. */
#define LF_ANCHOR_MAX_WORDS 64
#define LF_ANCHOR_MAX_WORD_LEN 64

/* The words every match of the POSIX ERE `re` (lf_re's dialect) contains: its
 * whole language when that is finite and small. Accepted: literal bytes,
 * '\' + punctuation, bracket lists of plain bytes or short ranges, groups, '|',
 * '?', a leading '^' and a trailing '$'. Returns the number of words (1 ..
 * LF_ANCHOR_MAX_WORDS) in *words (malloc'd array of malloc'd strings), or 0 when
 * the regex is outside that subset, its language is too large or holds the
 * empty string; *words is then NULL. */
size_t lf_anchor_regex_words(const char *re, char ***words);
/* Free a word set of lf_anchor_regex_words (or any malloc'd array of n malloc'd strings). */
void lf_anchor_words_free(char **words, size_t n);

/* A node that may root a match, in the order the engine visits them. */
typedef struct lf_anchor_node {
    TSNode node;
    uint32_t depth; /* from the tree's root */
} lf_anchor_node;

/* Every node of the tree under root that contains an occurrence of one of the
 * words in text[0, len), each once, sorted by start byte, then outer before
 * inner. Returns the count; *out is malloc'd (NULL when 0). Returns
 * LF_ANCHOR_WALK_ALL when the occurrences are so many or so placed that finding
 * their nodes would cost more than a walk of the whole tree: walk it then. */
#define LF_ANCHOR_WALK_ALL ((size_t)-1)
size_t lf_anchor_roots(TSNode root, const char *text, size_t len, const char *const *words, size_t n_words,
                       lf_anchor_node **out);

#endif
