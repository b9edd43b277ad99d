/* lf_vendor: where a Python fix puts the lockrt binding it vendors, and the
 * import line that reaches it in the style the module's package already uses. */
#ifndef LF_VENDOR_H
#define LF_VENDOR_H

#include <stddef.h>

#include "lf_finding.h"

/* runtime/python/lockrt.py, embedded at build time (cmake/EmbedFile.cmake). */
extern const char *const lf_binding_python;
extern const size_t lf_binding_python_len;

/* runtime/node/vendor/lockrt.cjs and its types lockrt.d.cts (LF301's TS/JS fix). */
extern const char *const lf_binding_node;
extern const size_t lf_binding_node_len;
extern const char *const lf_binding_node_types;
extern const size_t lf_binding_node_types_len;

typedef struct lf_vendor_plan {
    char *import_line;   /* "from . import lockrt\n", "import lockrt\n", ... */
    lf_new_file files[2]; /* paths relative to the module's directory */
    size_t n_files;
} lf_vendor_plan;

/* 1 when dir is one Python identifier ("_vendor"): a subpackage of the patched
 * module's directory. */
int lf_vendor_dir_valid(const char *dir);

/* Plan vendoring the binding for the module at module_path: beside it, or in
 * runtime_dir (relative to the module's directory; NULL = beside it), with an
 * `__init__.py` there when none exists. The import style follows the package:
 * `from . import lockrt` in a package whose modules import each other relatively
 * (or give no sign), `from pkg import lockrt` when they import absolutely, plain
 * `import lockrt` for a module outside any package. */
void lf_vendor_plan_python(const char *module_path, const char *runtime_dir, lf_vendor_plan *out);
/* Plan vendoring the pure-JS Node binding beside the TS/JS module at
 * module_path: lockrt.cjs (CommonJS whatever the package's "type", so ESM and
 * CommonJS modules both import it), and lockrt.d.cts beside it when the module
 * is TypeScript. No import_line: lf_tsimport writes the import in the
 * module's style. */
void lf_vendor_plan_node(const char *module_path, lf_vendor_plan *out);
void lf_vendor_plan_free(lf_vendor_plan *p);
/* The plan's files, copied as the fix's new files (the vendored binding). */
void lf_vendor_attach(lf_fix *fix, const lf_vendor_plan *plan);
/* lf_vendor_plan_node + lf_vendor_attach: the Node binding vendored beside
 * the TS/JS module at module_path, as the fix's new files. */
void lf_vendor_attach_node(lf_fix *fix, const char *module_path);

struct lf_pysem;
/* 1 when the module already imports a name `lockrt` at module level (the
 * fixes that use lockrt then add no import). */
int lf_vendor_python_binds_lockrt(struct lf_pysem *m);
/* Where a new lockrt import goes: after the module header (shebang, licence
 * comments, docstring, __future__ imports: lf_pyfix_header_end) and the run of
 * imports that follows it. Byte-identical for every fix of a file, so the
 * import LF101's and LF104's fixes both add is applied once. */
uint32_t lf_vendor_python_import_at(const struct lf_pysem *m);

#endif
