/* lf_cache: the result cache of `lockfix scan` (docs/cache.md).
 *
 * One index file per key holds every file's result: the key digests the cache
 * format, the version and build of this binary (its GNU build ID), every
 * loaded rule document, each rule's effective severity and the effective
 * configuration, so a change to any of them selects another index and nothing
 * is ever trusted across them. An entry is keyed by the reported path and
 * holds the file's stat (dev, ino, size, mtime and ctime in ns), a hash of its
 * bytes, and its results (findings, partial depth).
 *
 * A file whose stat equals its entry's is a hit without being read, unless the
 * entry is "racily clean" (its mtime is not older than the moment the scan that
 * wrote it began, minus LF_CACHE_RACY_NS): then, as for a stat that differs,
 * the file is read and its hash decides. An entry with findings is always read
 * (the reports print its source lines) and so always checked by hash.
 *
 * The index is read with one read() and written once at the end, only when
 * something changed: a unique O_EXCL temp in the cache directory, fsync, an
 * atomic rename, fsync of the directory. A symbolic link at the directory or an
 * index is never followed; a truncated, corrupt or foreign index is a miss.
 *
 * Not cached: files skipped as unreadable, binary or invalid. A file with a
 * finding of a rule whose fix generator looks at other files (the package's
 * import style, whether lockrt is vendored there, who else uses a name) is
 * kept with the state of everything the generator looked at (lf_deps.h): it
 * is a hit only while all of that is unchanged and was not changed in the
 * writing scan's racy window. `lockfix fix` never uses the cache.
 */
#ifndef LF_CACHE_H
#define LF_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "lf_finding.h"
#include "lf_rule.h"
#include "lf_scan.h"
#include "lf_util.h"

/* Bumped on any change to what an index holds or how it is encoded: an index
 * of another format is never read (it is another key, and its header says so). */
#define LF_CACHE_FORMAT 4 /* 2: findings carry their witness; 3: what fixes looked at (lf_deps); 4: a fix's own unsafe flag */

/* The default directory, relative to the current directory. */
#define LF_CACHE_DEFAULT_DIR ".lockfix_cache"

/* A file modified less than this before a scan began may keep its mtime and
 * ctime through a later write on a filesystem with coarse timestamps (FAT: 2 s). */
#define LF_CACHE_RACY_NS 2000000000LL

typedef struct lf_cache lf_cache;
struct lf_deps;

/* Counters for `scan --cache-stats`. */
typedef struct lf_cache_stats {
    size_t hits_unread;  /* stat matched: not read */
    size_t hits_read;    /* read, and the hash matched */
    size_t misses;       /* analyzed (no entry, or the hash differed) */
    size_t not_cacheable;/* analyzed, and not stored (see above) */
    int written;         /* 1 the index was written, 0 nothing changed, -1 the write failed */
} lf_cache_stats;

/* After lf_scan_prepare: the cache in `dir` for this scan's rules and
 * configuration (want_fixes as lf_scan_run will get it). Never fails: when the
 * directory cannot be used the cache reads nothing, and *warning (malloc'd,
 * one line) says why; the scan goes on uncached. */
lf_cache *lf_cache_open(const char *dir, const lf_scan *s, int want_fixes, char **warning);
void lf_cache_free(lf_cache *c);

/* lf_scan_run's workers, each for its own file index i (thread-safe across
 * distinct i). */
typedef enum lf_cache_probe_result {
    LF_CACHE_ABSENT,  /* no usable entry: analyze */
    LF_CACHE_HIT,     /* f is filled from the entry: done, nothing read */
    LF_CACHE_VERIFY   /* load the source, then lf_cache_verify */
} lf_cache_probe_result;

/* lf_scan_run, before its workers start: the scan's file count. */
void lf_cache_begin_run(lf_cache *c, size_t n_files);
lf_cache_probe_result lf_cache_probe(lf_cache *c, size_t i, lf_scan_file *f);
/* f->src loaded: 1 when its bytes hash to the entry's, and f is filled from
 * it (findings borrow f->src.path); 0: analyze. */
int lf_cache_verify(lf_cache *c, size_t i, lf_scan_file *f);
/* After a fresh analysis of f (f->src still loaded): store its result. */
void lf_cache_record(lf_cache *c, size_t i, const lf_scan_file *f, struct lf_deps *deps);

/* After lf_scan_run: write the index if anything changed. Returns 1, or 0 with
 * *warning set (the scan's result stands). */
int lf_cache_save(lf_cache *c, char **warning);
const lf_cache_stats *lf_cache_get_stats(const lf_cache *c);

/* ---- the codec: one finding <-> bytes ----
 *
 * Every field a report reads is in the pair below, in the same order in both.
 * A new field is one put_* line in lf_cache_encode_finding and the matching
 * get_* line in lf_cache_decode_finding (then bump LF_CACHE_FORMAT). A list is
 * a u32 count followed by its items: lf_cache_get_count bounds the count by the
 * bytes left, so a corrupt count cannot make the decoder allocate or loop past
 * the input. */
typedef struct lf_cache_reader {
    const unsigned char *p, *end;
    int bad; /* set by the first read past the end or invalid value; later reads return 0/NULL */
} lf_cache_reader;

void lf_cache_put_u32(lf_strbuf *out, uint32_t v);
void lf_cache_put_u64(lf_strbuf *out, uint64_t v);
void lf_cache_put_str(lf_strbuf *out, const char *s); /* NULL allowed */
uint32_t lf_cache_get_u32(lf_cache_reader *r);
uint64_t lf_cache_get_u64(lf_cache_reader *r);
char *lf_cache_get_str(lf_cache_reader *r); /* malloc'd; NULL for a NULL string or on error */
/* A list's count, checked against the bytes left (each item takes at least min_item bytes). */
uint32_t lf_cache_get_count(lf_cache_reader *r, size_t min_item);

void lf_cache_encode_finding(lf_strbuf *out, const lf_finding *f);
/* Returns 1, or 0 (out's contents freed) when the bytes are not a finding or
 * name a rule not in `rules`. out->path is set to `path` (borrowed). */
int lf_cache_decode_finding(lf_cache_reader *r, const lf_ruleset *rules, const char *path, lf_finding *out);
/* What an analysis looked at besides the file (lf_deps.h): encoded after the
 * findings; on reading, 1 when every object is still as recorded and none
 * was recorded at or after racy_bound (it may have changed since unseen). */
void lf_cache_encode_deps(lf_strbuf *out, const struct lf_deps *d);
int lf_cache_deps_unchanged(lf_cache_reader *r, int64_t racy_bound);

#endif
