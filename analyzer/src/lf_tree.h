/* lf_tree: syntax-tree helpers every language layer, check and fix shares.
 *
 * Every traversal here is iterative (a TSTreeCursor or an explicit stack), so a
 * hostile or generated file nested 100k deep costs time linear in its size and
 * never the worker's stack. Avoid ts_node_parent() in loops: tree-sitter finds a
 * parent by walking down from the root, so climbing is quadratic in the depth;
 * the semantic models (lf_pysem, lf_tssem) record the parents that rules need.
 */
#ifndef LF_TREE_H
#define LF_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "lf_source.h"
#include "lf_util.h"

/* 1 when n is a non-null node of `type`. Inline, with the first letters
 * compared before strcmp: it is asked of nearly every node by every check, and
 * almost always answers no. */
static inline int lf_tree_is(TSNode n, const char *type) {
    lf_work(1);
    if (ts_node_is_null(n))
        return 0;
    const char *t = ts_node_type(n);
    return t[0] == type[0] && strcmp(t, type) == 0;
}
/* Child by field name; the null node when absent (or n is null). */
TSNode lf_tree_field(TSNode n, const char *field);
/* ts_tree_delete for every tree lf_tree_field may have been asked about: it
 * invalidates the calling thread's memo of field answers. */
void lf_tree_delete(TSTree *tree);
/* The same for a tree whose memory goes away without ts_tree_delete (a
 * region reset: lf_tsarena.h). */
void lf_tree_forget(const TSTree *tree);
/* One step of a pre-order walk with a cursor made on the walk's root: into the
 * current node's first child when `enter`, else to the next node after its
 * subtree. 0 when the walk is over (the cursor never leaves its root). */
int lf_tree_cursor_step(TSTreeCursor *c, int enter);
/* Is `inner` inside `outer` (or the same range)? By byte range; null nodes never are. */
int lf_tree_within(TSNode inner, TSNode outer);
/* The nearest ancestor of n of kind `kind`, or a null node when a node for
 * which stop() holds (a function boundary) comes first. */
TSNode lf_tree_enclosing(TSNode n, const char *kind, int (*stop)(TSNode));
/* Does n, a descendant of block, run when block runs: no node between them
 * for which stop() holds (a function or class block only defines)? */
int lf_tree_runs_in(TSNode n, TSNode block, int (*stop)(TSNode));
/* Named children that are not comments: the i-th, and how many. */
TSNode lf_tree_child(TSNode n, uint32_t i);
uint32_t lf_tree_child_count(TSNode n);
/* Strip wrapping parentheses (`((x))` -> `x`). */
TSNode lf_tree_unparen(TSNode n);

/* Source text of a node: compare without copying, or copy (malloc'd). */
int lf_tree_text_eq(const lf_source *src, TSNode n, const char *s);
/* Do two nodes (neither null) spell the same text? */
int lf_tree_same_text(const lf_source *src, TSNode a, TSNode b);
char *lf_tree_text(const lf_source *src, TSNode n);

/* Pre-order walk of the named nodes under root (root included). The visitor
 * says whether to go on, skip n's subtree, or stop the walk. */
typedef enum lf_walk_action { LF_WALK_CONTINUE = 0, LF_WALK_SKIP = 1, LF_WALK_STOP = 2 } lf_walk_action;
typedef lf_walk_action (*lf_tree_visit_fn)(TSNode n, void *ud);
/* Returns 1 when the visitor stopped the walk. */
int lf_tree_walk(TSNode root, lf_tree_visit_fn visit, void *ud);

/* Whether some node under root is deeper than stop_at (root is depth 0), by a
 * tree cursor: returns a value > stop_at once such a node is met, else a value
 * <= stop_at (a lower bound of the depth: subtrees with too few nodes to reach
 * past stop_at are not entered). */
uint32_t lf_tree_max_depth(TSNode root, uint32_t stop_at);

/* Does an identifier node reading `name` occur under n (n included)? `types` is a
 * NULL-terminated list of the node types that count as identifiers (NULL: just
 * "identifier"); nested function/class bodies are searched too. */
int lf_tree_mentions(const lf_source *src, TSNode n, const char *name, const char *const *types);

/* Same code, layout and comments aside: node types match all the way down and
 * leaves read the same. Flags relax it for a language's harmless differences. */
enum {
    /* Python: `x: T = v` equals `x = v` (a local annotation is never evaluated). */
    LF_TREE_EQ_IGNORE_ANNOTATION = 1u << 0,
    /* String literals compare by content, not by quote style (`'a'` == `"a"`). */
    LF_TREE_EQ_STRING_CONTENT = 1u << 1,
};
/* Does a leaf of one of `types` (NULL-terminated: "identifier",
 * "string_content", ...) in the subtree of root spell a lock
 * (lf_text_spells_lock)? At most max_nodes nodes are looked at, in pre-order. */
int lf_tree_spells_lock(const lf_source *src, TSNode root, const char *const *types, int max_nodes);
int lf_tree_equal(const lf_source *src_a, TSNode a, const lf_source *src_b, TSNode b, unsigned flags);
/* A hash consistent with lf_tree_equal under the same flags: equal trees hash
 * equal, so candidates for equality are found in linear time. */
uint64_t lf_tree_hash(const lf_source *src, TSNode n, unsigned flags);
/* The lf_tree_equal-consistent hash of each of nodes[0..n) found under root
 * (out[i]; entries for nodes not under root are left untouched), in one pass
 * over root: linear in root's size however the nodes nest. */
void lf_tree_hash_nodes(const lf_source *src, TSNode root, unsigned flags, const TSNode *nodes, size_t n,
                        uint64_t *out);

/* Byte offsets of the line holding `at`: its start, and just past its newline. */
uint32_t lf_tree_line_start(const lf_source *src, uint32_t at);
uint32_t lf_tree_next_line_start(const lf_source *src, uint32_t at);
/* 1 when only indentation precedes n on its line. */
int lf_tree_starts_line(const lf_source *src, TSNode n);
/* The indentation of the line holding `at` (malloc'd). */
char *lf_tree_line_indent(const lf_source *src, uint32_t at);

/* Records (calls, statements...) found again by their node: a hash of the
 * node's id, open addressing. The models look a call up for every question a
 * check asks of it; a binary search by byte range reads each probe's end,
 * which tree-sitter computes. Each record holds a TSNode at node_offset. */
typedef struct lf_node_index {
    int32_t *slots; /* record index + 1; 0 is empty */
    size_t mask;
} lf_node_index;
void lf_node_index_build(lf_node_index *ix, const void *records, size_t n, size_t stride, size_t node_offset);
/* The index of the record whose node is n (ts_node_eq), or -1. */
int32_t lf_node_index_find(const lf_node_index *ix, const void *records, size_t stride, size_t node_offset, TSNode n);
void lf_node_index_free(lf_node_index *ix);

/* A set of nodes of one tree (by id), for worklists that must look at each
 * node once. Zero-initialise; add returns 1 when n was not in the set yet
 * (0 for the null node). */
typedef struct lf_node_set {
    const void **ids;
    size_t mask, len;
} lf_node_set;
int lf_node_set_add(lf_node_set *s, TSNode n);
void lf_node_set_free(lf_node_set *s);

#endif
