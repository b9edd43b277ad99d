#include "lf_tsfix.h"

#include <stdlib.h>
#include <string.h>

#include "lf_tree.h"
#include "lf_tssem.h"
#include "lf_util.h"

/* Names are looked up in the model's per-subtree sets (lf_tssem_names_in):
 * each site's fix asks of the same function. */
char *lf_tsfix_fresh_name(lf_tssem *m, TSNode scope, const char *const *candidates) {
    return lf_tsfix_fresh_name_nth(m, scope, candidates, 0);
}

char *lf_tsfix_fresh_name_nth(lf_tssem *m, TSNode scope, const char *const *candidates, size_t nth) {
    for (size_t i = 0; candidates[i]; i++)
        if (!lf_tssem_names_in(m, scope, candidates[i]) && nth-- == 0)
            return lf_xstrdup(candidates[i]);
    for (int i = 2;; i++) {
        char *name = lf_xasprintf("%s%d", candidates[0], i);
        if (!lf_tssem_names_in(m, scope, name) && nth-- == 0)
            return name;
        free(name);
    }
}

char *lf_tsfix_indent_unit(const lf_source *src, TSNode stmt) {
    TSNode block = ts_node_parent(stmt);
    if (!lf_tree_is(block, "statement_block") || ts_node_start_point(block).row == ts_node_start_point(stmt).row)
        return lf_xstrdup("  ");
    char *inner = lf_tree_line_indent(src, ts_node_start_byte(stmt));
    char *outer = lf_tree_line_indent(src, ts_node_start_byte(block));
    size_t il = strlen(inner), ol = strlen(outer);
    char *unit = il > ol && strncmp(inner, outer, ol) == 0 ? lf_xstrdup(inner + ol) : lf_xstrdup("  ");
    free(inner);
    free(outer);
    return unit;
}
