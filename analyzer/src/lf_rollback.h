/* lf_rollback: apply one integration's fixes so that they can be taken back
 * exactly (`lockfix fix --verify`).
 *
 * Every change goes through here and is journaled: a rewritten file keeps its
 * original bytes, a created file is remembered with the directories created
 * for it. Undo restores the rewritten files byte for byte (atomically, mode
 * kept, and only if they are still exactly what the fix wrote) and removes the
 * created files (only if they still hold what the fix wrote) and directories.
 * A directory the fix created did not exist before it, so everything found in
 * it at undo time (a __pycache__ the verify command left, say) goes with it.
 */
#ifndef LF_ROLLBACK_H
#define LF_ROLLBACK_H

#include <stddef.h>

#include "lf_source.h"

typedef struct lf_rollback lf_rollback;

lf_rollback *lf_rollback_new(void);
void lf_rollback_free(lf_rollback *rb);

/* lf_fix_create, journaled. A file that already existed with this content is
 * not created and so not removed by undo. Returns 1, or 0 with *err. */
int lf_rollback_create(lf_rollback *rb, const char *path, const char *content, size_t len, char **err);

/* lf_fix_write of text over `path` (src: the file as read, borrowed until the
 * journal is freed), journaled. Returns 1, or 0 with *err (file untouched). */
int lf_rollback_write(lf_rollback *rb, const char *path, const lf_source *src, const char *text, size_t len,
                      char **err);

/* Undo every journaled change, newest first. Returns 1 when everything was
 * restored; otherwise 0 with *err (malloc'd) naming each file or directory that
 * could not be and why, the others being restored all the same. */
int lf_rollback_undo(lf_rollback *rb, char **err);

#endif
