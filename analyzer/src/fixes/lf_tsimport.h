/* lf_tsimport: how a TS/JS fix names a Node module member in the file it
 * edits (the TS sibling of lf_pyimport).
 *
 * A rewrite that calls `randomUUID` or `fs.unlinkSync` spells it the way the
 * module already does when something binds it at the place the new code goes
 * (`crypto.randomUUID` under `import * as crypto from "node:crypto"` or
 * `const crypto = require("crypto")`, `uuid` after `import { randomUUID as
 * uuid }`). Otherwise it adds one import line in the module's own style: ESM
 * (`import { randomUUID } from "node:crypto";`) or CommonJS (`const {
 * randomUUID } = require("crypto");`), with the module's `node:` prefix
 * habit, quote and semicolon, after its import/require header (past a
 * shebang, a "use strict" prologue and leading comments), as an
 * LF_EDIT_IMPORT edit. A name the new import would bind that the file already
 * mentions (a local, a parameter, a global it relies on) is never shadowed:
 * the caller declines. So is a file whose module system cannot be told (a
 * .js/.ts without any import, export or require: package.json decides). */
#ifndef LF_TSIMPORT_H
#define LF_TSIMPORT_H

#include <stdint.h>

#include "lf_finding.h"
#include "lf_tssem.h"

typedef struct lf_tsimporter lf_tsimporter;

/* One importer per fix; `path` is the file's path (its extension says .mjs/.cjs). */
lf_tsimporter *lf_tsimport_begin(lf_tssem *m, const char *path, lf_fix *fix);
/* The spelling of `module`'s export `member` ("crypto", "randomUUID") at byte
 * `at` of scope `scope` (malloc'd), importing it when nothing binds it there.
 * NULL when it cannot (*why, malloc'd, says why). */
char *lf_tsimport_ref(lf_tsimporter *im, int32_t scope, uint32_t at, const char *module, const char *member, char **why);
/* One use of a member, for lf_tsimport_ref_each: where it goes (scope, byte)
 * and which member; a null member is skipped (a site not fixed). */
typedef struct lf_tsimport_use {
    int32_t scope;
    uint32_t at;
    const char *member;
} lf_tsimport_use;
/* lf_tsimport_ref for every use of `module` the file's fixes make, in each of
 * their fixes, so that the import edits of all of them are byte-identical and
 * land once, as one line: the spelling at uses[self] (malloc'd), or NULL
 * (*why). */
char *lf_tsimport_ref_each(lf_tsimporter *im, const lf_tsimport_use *uses, size_t n, size_t self, const char *module,
                           char **why);
/* Add the imports collected (one line per module, members sorted) and free
 * the importer. */
void lf_tsimport_end(lf_tsimporter *im);

/* Exposed for the unit test: the module system the importer writes for:
 * 1 ESM, 0 CommonJS, -1 unknown. */
int lf_tsimport_is_esm(const lf_tssem *m, const char *path);

#endif
