#include "lf_sem.h"

#include <string.h>

#include "lf_pysem.h"
#include "lf_tree.h"
#include "lf_tssem.h"

void lf_filesem_init(lf_filesem *fs, const lf_source *src, TSNode root) {
    memset(fs, 0, sizeof *fs);
    fs->src = src;
    fs->root = root;
}

void lf_filesem_release(lf_filesem *fs) {
    lf_pysem_free(fs->py);
    fs->py = NULL;
    lf_tssem_free(fs->ts);
    fs->ts = NULL;
}

struct lf_pysem *lf_filesem_python(lf_filesem *fs) {
    if (fs->src->lang != LF_LANG_PYTHON)
        return NULL;
    if (!fs->py) {
        fs->py = lf_pysem_build(fs->src, fs->root);
        fs->builds++;
    }
    return fs->py;
}

struct lf_tssem *lf_filesem_typescript(lf_filesem *fs) {
    if (fs->src->lang != LF_LANG_TYPESCRIPT && fs->src->lang != LF_LANG_TSX)
        return NULL;
    if (!fs->ts) {
        fs->ts = lf_tssem_build(fs->src, fs->root);
        fs->builds++;
    }
    return fs->ts;
}

const char *lf_filesem_qualname(lf_filesem *fs, TSNode node) {
    struct lf_tssem *ts = lf_filesem_typescript(fs);
    if (ts)
        return lf_tree_is(node, "call_expression") ? lf_tssem_callee(ts, node) : lf_tssem_qualname(ts, node);
    struct lf_pysem *py = lf_filesem_python(fs);
    if (!py)
        return NULL;
    if (lf_tree_is(node, "call"))
        return lf_pysem_callee(py, node);
    return lf_pysem_qualname(py, node);
}
