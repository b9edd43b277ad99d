#include "lf_sem.h"

#include <string.h>

#include "lf_pysem.h"
#include "lf_tree.h"

void lf_filesem_init(lf_filesem *fs, const lf_source *src, TSNode root) {
    memset(fs, 0, sizeof *fs);
    fs->src = src;
    fs->root = root;
}

void lf_filesem_release(lf_filesem *fs) {
    lf_pysem_free(fs->py);
    fs->py = NULL;
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

const char *lf_filesem_qualname(lf_filesem *fs, TSNode node) {
    struct lf_pysem *py = lf_filesem_python(fs);
    if (!py)
        return NULL;
    if (lf_tree_is(node, "call"))
        return lf_pysem_callee(py, node);
    return lf_pysem_qualname(py, node);
}
