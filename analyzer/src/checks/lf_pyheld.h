/* lf_pyheld: is a lock held at a point of a Python module? Shared by the
 * checks that stay quiet under a lock (LF104's read-modify-write, LF401's
 * shared temp name).
 *
 * Held at a node of function F when
 *  - F itself takes a lock (lf_pylock's acquisitions), is decorated with one,
 *    or releases one after the node (it was taken before: by a caller, or by
 *    an earlier call on the same object);
 *  - the node sits in a `with` over a lock;
 *  - F is a method of a class that holds a lock across its methods: a field
 *    acquired in one method (`self._lock.acquire()`, `self.lock =
 *    Lock(..).acquire()`) and released in another (`self._lock.release()`).
 *    Such an object is itself a lock (or a resource opened under one): its
 *    other methods run between the two calls;
 *  - F is nested in a function where a lock is held at its definition;
 *  - every call of F in the module (at least one) happens where a lock is held,
 *    in any of these ways, settled over the module's calls by a worklist
 *    (a method is called as `x.name(...)` on any receiver), and F has no
 *    callers elsewhere: not a public module-level function of a module that
 *    others import (`def write_state` in lib/state.py is called by hook
 *    scripts too; a script's, one with `if __name__ == "__main__":`, is not).
 * Cost: linear in the module's calls and statements. */
#ifndef LF_PYHELD_H
#define LF_PYHELD_H

#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_pylock.h"

typedef struct lf_pyheld lf_pyheld;

lf_pyheld *lf_pyheld_build(lf_pylock *l);
void lf_pyheld_free(lf_pyheld *h);
/* Is a lock held at `at`, in function scope `scope`? */
int lf_pyheld_at(lf_pyheld *h, int32_t scope, TSNode at);
/* Is `cls` a class that holds a lock across its methods? */
int lf_pyheld_class(const lf_pyheld *h, int32_t cls);

#endif
