/* lf_tsowner: an owner-checked removal in TS/JS. lf_tslock asks it of every
 * removal: a removal that runs only while the lock's record names this
 * process is the holder's own release, never a break of the lock. */
#ifndef LF_TSOWNER_H
#define LF_TSOWNER_H

#include <tree_sitter/api.h>

#include "lf_tssem.h"

/* Does `removal` (a call removing `path`) run only while what was just read
 * from path names this process or acquisition: in the branch of a test such
 * as `rec.pid === process.pid`, `current.startsWith(owner)` (owner a token
 * made here from process.pid or calls given only literals, or a parameter
 * every caller in the module hands one), or
 * after `if (rec?.ownerId !== ownerId) return;`? A compare with another value
 * read from the lock (`again === judged`) is no owner test. */
int lf_tsowner_checked(lf_tssem *m, TSNode removal, TSNode path);

#endif
