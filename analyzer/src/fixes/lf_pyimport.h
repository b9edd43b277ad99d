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

/* The spelling of qualified name `qual` ("os.path.realpath", "uuid.uuid4") at
 * byte `at` of scope `scope`, adding an import to `fix` when needed (malloc'd).
 * NULL when the name the import would bind is taken by something else there
 * (a local `os`, say): the caller declines with *why (malloc'd). */
char *lf_pyimport_ref(lf_pysem *m, int32_t scope, uint32_t at, const char *qual, lf_fix *fix, char **why);

#endif
