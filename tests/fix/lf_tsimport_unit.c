/* lf_tsimport: the spelling a TS/JS fix gets for a module member, and the
 * import line it adds, in each module style (ESM/CommonJS, `node:` prefix,
 * quotes, semicolons, declaration keyword) and header shape (shebang,
 * directive prologue, comments), on .ts .mts .cts .js .mjs .cjs .tsx. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../sem/sem_fixture.h"
#include "fixes/lf_tsimport.h"
#include "lf_finding.h"
#include "lf_tssem.h"
#include "lf_util.h"

static int failures;

/* Import crypto.randomUUID (or module.member) into `text` (file `name`) for a
 * use at the marker `@` (removed first; end of file when absent). Checks the
 * spelling (NULL: declined, `why` must contain want_why) and the new text. */
static void check(const char *label, const char *name, const char *text, const char *module, const char *member,
                  const char *want_ref, const char *want_text, const char *want_why) {
    char *clean = lf_xstrdup(text);
    char *mark = strchr(clean, '@');
    uint32_t at = mark ? (uint32_t)(mark - clean) : (uint32_t)strlen(clean);
    if (mark)
        memmove(mark, mark + 1, strlen(mark));
    lf_lang lang = LF_LANG_TYPESCRIPT;
    lf_lang_from_path(name, &lang);
    sem_fixture fx;
    sem_fixture_parse(&fx, clean, name, lang);
    lf_tssem *m = lf_tssem_build(&fx.src, ts_tree_root_node(fx.tree));
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    char *why = NULL;
    int32_t scope = 0;
    if (mark) {
        /* the innermost scope holding the marker */
        for (size_t i = 0; i < m->n_scopes; i++)
            if (ts_node_start_byte(m->scopes[i].node) <= at && at < ts_node_end_byte(m->scopes[i].node))
                scope = (int32_t)i;
    }
    lf_tsimporter *im = lf_tsimport_begin(m, name, fix);
    char *ref = lf_tsimport_ref(im, scope, at, module, member, &why);
    lf_tsimport_end(im);
    lf_strbuf out;
    lf_strbuf_init(&out);
    uint32_t pos = 0;
    for (size_t i = 0; i < fix->n_edits; i++) {
        lf_strbuf_append(&out, clean + pos, fix->edits[i].start - pos);
        lf_strbuf_puts(&out, fix->edits[i].text);
        pos = fix->edits[i].end;
    }
    lf_strbuf_puts(&out, clean + pos);
    int ok = 1;
    if (want_ref ? !ref || strcmp(ref, want_ref) : ref != NULL)
        ok = 0;
    if (!want_ref && (!why || !strstr(why, want_why)))
        ok = 0;
    if (want_ref && strcmp(out.data, want_text))
        ok = 0;
    if (fix->n_edits > 1)
        ok = 0;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL %s: ref %s (want %s), why %s\n--- got:\n%s--- want:\n%s", label, ref ? ref : "(null)",
                want_ref ? want_ref : "(null)", why ? why : "(none)", out.data, want_text ? want_text : "");
    }
    lf_strbuf_free(&out);
    free(ref);
    free(why);
    lf_fix_free(fix);
    lf_tssem_free(m);
    sem_fixture_free(&fx);
    free(clean);
}

int main(void) {
    check("esm without imports: node: prefix, double quotes, semicolons", "a.mjs",
          "export const n = 1;\n", "crypto", "randomUUID", "randomUUID",
          "import { randomUUID } from \"node:crypto\";\nexport const n = 1;\n", NULL);
    check("cjs after shebang, prologue and requires; its quotes, no semicolons, no prefix", "a.cjs",
          "#!/usr/bin/env node\n'use strict'\nconst fs = require('fs')\nconst path = require('path')\n\nfs.x()\n",
          "crypto", "randomUUID", "randomUUID",
          "#!/usr/bin/env node\n'use strict'\nconst fs = require('fs')\nconst path = require('path')\n"
          "const { randomUUID } = require('crypto')\n\nfs.x()\n",
          NULL);
    check("a relative (vendored) module never takes node:", "a.mjs",
          "import fs from \"node:fs\";\nfs.x();\n", "./lockrt.cjs", "unlinkOwnedSync", "unlinkOwnedSync",
          "import fs from \"node:fs\";\nimport { unlinkOwnedSync } from \"./lockrt.cjs\";\nfs.x();\n", NULL);
    check("a vendored module required whole is reused", "a.cjs",
          "const lockrt = require(\"./lockrt.cjs\");\nmodule.exports = () => @1;\n", "./lockrt.cjs",
          "unlinkOwnedSync", "lockrt.unlinkOwnedSync",
          "const lockrt = require(\"./lockrt.cjs\");\nmodule.exports = () => 1;\n", NULL);
    check("cjs with var keeps var", "a.js", "var fs = require(\"node:fs\");\nfs.x();\n", "crypto", "randomUUID",
          "randomUUID", "var fs = require(\"node:fs\");\nvar { randomUUID } = require(\"node:crypto\");\nfs.x();\n",
          NULL);
    check("a namespace import is reused", "a.ts",
          "import * as crypto from \"crypto\";\nexport function f() { return @1; }\n", "crypto", "randomUUID",
          "crypto.randomUUID", "import * as crypto from \"crypto\";\nexport function f() { return 1; }\n", NULL);
    check("a required module is reused under its name", "a.js",
          "const nodeCrypto = require(\"node:crypto\");\nmodule.exports = () => @1;\n", "crypto", "randomUUID",
          "nodeCrypto.randomUUID", "const nodeCrypto = require(\"node:crypto\");\nmodule.exports = () => 1;\n", NULL);
    check("an aliased named import is reused", "a.tsx",
          "import { randomUUID as uuid } from \"node:crypto\";\nexport const A = () => <b>{@1}</b>;\n", "crypto",
          "randomUUID", "uuid",
          "import { randomUUID as uuid } from \"node:crypto\";\nexport const A = () => <b>{1}</b>;\n", NULL);
    check("a destructured require is reused", "a.cjs",
          "const { randomUUID } = require(\"crypto\");\nmodule.exports = () => @1;\n", "crypto", "randomUUID",
          "randomUUID", "const { randomUUID } = require(\"crypto\");\nmodule.exports = () => 1;\n", NULL);
    check("fs.promises reads as fs/promises", "a.mjs",
          "import { promises as fsp } from \"fs\";\nexport const f = () => @1;\n", "fs/promises", "unlink",
          "fsp.unlink", "import { promises as fsp } from \"fs\";\nexport const f = () => 1;\n", NULL);
    check("a type-only import binds no value", "a.ts",
          "import type * as crypto from \"node:crypto\";\nexport const f = () => 1;\n", "crypto", "randomUUID",
          "randomUUID",
          "import type * as crypto from \"node:crypto\";\nimport { randomUUID } from \"node:crypto\";\n"
          "export const f = () => 1;\n",
          NULL);
    check("a binding in another function is not seen (no header: the import goes first)", "a.cjs",
          "function g() { const c = require(\"crypto\"); return c; }\nmodule.exports = () => @1;\n", "crypto",
          "randomUUID", "randomUUID",
          "const { randomUUID } = require(\"crypto\");\nfunction g() { const c = require(\"crypto\"); return c; }\n"
          "module.exports = () => 1;\n",
          NULL);
    check("a comment after the header stays with what follows", "a.mts",
          "// licence\nimport a from \"node:os\";\n\n// about f\nexport function f() {}\n", "crypto", "randomUUID",
          "randomUUID",
          "// licence\nimport a from \"node:os\";\nimport { randomUUID } from \"node:crypto\";\n\n// about f\n"
          "export function f() {}\n",
          NULL);
    check("TS import = require makes an ES-style file", "a.cts",
          "import fs = require(\"fs\");\nexport function f() { fs.x(); }\n", "crypto", "randomUUID", "randomUUID",
          "import fs = require(\"fs\");\nimport { randomUUID } from \"crypto\";\nexport function f() { fs.x(); }\n",
          NULL);
    check("a module already imported keeps its spelling", "a.mjs",
          "import { rename } from \"fs/promises\";\nimport os from \"node:os\";\n", "fs/promises", "unlink",
          "unlink",
          "import { rename } from \"fs/promises\";\nimport os from \"node:os\";\nimport { unlink } from \"fs/promises\";\n",
          NULL);
    check("no newline at the end", "a.mjs", "import os from 'node:os'", "crypto", "randomUUID", "randomUUID",
          "import os from 'node:os'\nimport { randomUUID } from 'node:crypto'\n", NULL);
    check("a parameter of that name is never shadowed", "a.mjs",
          "import fs from \"fs\";\nexport function f(randomUUID) { return @randomUUID; }\n", "crypto", "randomUUID",
          NULL, NULL, "already uses the name `randomUUID`");
    check("a global the file relies on is never shadowed", "a.cjs",
          "const fs = require(\"fs\");\nmodule.exports = () => randomUUID();\n", "crypto", "randomUUID", NULL, NULL,
          "already uses the name `randomUUID`");
    check("no module syntax: package.json decides", "a.js", "function f(fs) { fs.x(); }\n", "crypto",
          "randomUUID", NULL, NULL, "depends on package.json");
    check("no module syntax, but .mjs says ESM", "a.mjs", "function f(fs) { fs.x(); }\n", "crypto", "randomUUID",
          "randomUUID", "import { randomUUID } from \"node:crypto\";\nfunction f(fs) { fs.x(); }\n", NULL);
    check("no module syntax, but .cts says CommonJS", "a.cts", "function f(fs) { fs.x(); }\n", "crypto",
          "randomUUID", "randomUUID", "const { randomUUID } = require(\"crypto\");\nfunction f(fs) { fs.x(); }\n",
          NULL);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("lf_tsimport: all cases pass\n");
    return failures != 0;
}
