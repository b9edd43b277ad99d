/* lf_pyimport: how a fix names a module member in the file it edits.
 *
 * A rewrite that calls `os.replace` or `uuid.uuid4` writes them the way the
 * module already does: through its own import (`_os.replace` when it has
 * `import os as _os`, `replace` after `from os import replace`), resolved on
 * the semantic model at the place the new code goes. When nothing binds the
 * module there, the fix adds an import in the module's style (`import uuid`,
 * or `import uuid as _uuid` in a module whose imports all read `import x as
 * _x`) as an LF_EDIT_IMPORT edit, and spells the name through it. */
#ifndef LF_PYIMPORT_H
#define LF_PYIMPORT_H

#include <stdint.h>

#include "lf_finding.h"
#include "lf_pysem.h"

typedef struct lf_pyimporter lf_pyimporter;

/* One importer per fix: it adds the imports its names need to `fix`. */
lf_pyimporter *lf_pyimport_begin(lf_pysem *m, lf_fix *fix);
/* The spelling of qualified name `qual` ("os.path.realpath", "uuid.uuid4") at
 * byte `at` of scope `scope` (malloc'd), importing it when nothing binds it
 * there. NULL when the name an import would bind is taken by something else
 * there (a local `os`, say): the caller declines with *why (malloc'd). */
char *lf_pyimport_ref(lf_pyimporter *im, int32_t scope, uint32_t at, const char *qual, char **why);
/* Add the from-imports collected, one line per module (`from os.path import
 * dirname, lexists`), and free the importer. */
void lf_pyimport_end(lf_pyimporter *im);

#endif
