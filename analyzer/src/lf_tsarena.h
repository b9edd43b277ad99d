/* lf_tsarena: the memory of one parse, taken from a region and given back whole.
 *
 * A parse allocates every node of its tree one by one, and deleting the tree
 * walks all of them again to drop their reference counts and free them: on a
 * library scan, malloc, free and that walk were about a seventh of the CPU.
 * An engine parses a file, reads the tree, and drops it before the next file,
 * so the tree and the parser that built it can live in a region instead:
 * allocation is a pointer bump, and the whole region is reset in one step.
 *
 * tree-sitter has one allocator for the process (ts_set_allocator), so the
 * region is per thread and only between lf_tsarena_enter and lf_tsarena_leave:
 * outside that window every tree-sitter allocation is the C library's, as
 * before. Inside it, free is a no-op and realloc copies, so the window must hold
 * only objects created inside it (a parser made there, its tree): memory from
 * outside freed inside, or memory from inside freed outside, is a bug. A
 * grammar's external scanner allocates with the C library directly (it is
 * built without TREE_SITTER_REUSE_ALLOCATOR), so deleting the parser inside the
 * window frees the scanner and nothing else. */
#ifndef LF_TSARENA_H
#define LF_TSARENA_H

#include <stddef.h>

typedef struct lf_tsarena lf_tsarena;

/* Routes tree-sitter's allocations through this module (once per process;
 * safe to call from any thread, any number of times). */
void lf_tsarena_install(void);

lf_tsarena *lf_tsarena_new(void);
void lf_tsarena_free(lf_tsarena *a);

/* This thread's tree-sitter allocations come from a until lf_tsarena_leave. */
void lf_tsarena_enter(lf_tsarena *a);
void lf_tsarena_leave(void);

/* Everything allocated from a is gone (its memory kept for the next parse,
 * up to a bound). */
void lf_tsarena_reset(lf_tsarena *a);

/* Bytes handed out since the last reset (tests). */
size_t lf_tsarena_used(const lf_tsarena *a);

#endif
