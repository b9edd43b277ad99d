#include "lf_cache.h"
#include "lf_fix.h"
#include "lf_witness.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lf_check.h"
#include "lf_deps.h"
#include "lf_hash.h"
#include "lf_tempfile.h"

/* ---- index file layout (little-endian) ----
 *
 *   header, 64 bytes:
 *     0  magic "LFCACHE\n"        8  u32 format (LF_CACHE_FORMAT)   12 u32 header size (64)
 *     16 u64 key[0]              24 u64 key[1]
 *     32 i64 scan start (ns since the epoch, CLOCK_REALTIME) of the scan that wrote it
 *     40 u64 payload length      48 u64 lf_hash64(payload, seed key[0])
 *     56 u32 entry count         60 u32 0
 *   payload: the entries, in the writing scan's walk order, each:
 *     u32 path length, path bytes
 *     u64 dev, ino, size, mtime_ns, ctime_ns, content hash
 *     u32 partial depth
 *     u32 body length, body: u32 finding count, then each finding (lf_cache_encode_finding),
 *       then u32 count of what the analysis looked at besides the file (lf_deps.h),
 *       each: path (u32 length, bytes), u32 kind, u64 dev, ino, size, mtime_ns, ctime_ns
 */
#define HEADER_SIZE 64
#define MAGIC "LFCACHE\n"
#define INDEX_PREFIX "index-"
#define MAX_INDEX_BYTES (1ull << 30)
#define KEEP_INDEXES 8                      /* other keys' indexes kept (newest first) */
#define STALE_TEMP_NS (3600ll * 1000000000) /* a temp this old was left by a killed run */
#define ENTRY_FIXED (4 + 6 * 8 + 4 + 4)     /* an entry without its path and body */

enum { FS_NONE, FS_HIT_STAT, FS_HIT_HASH, FS_FRESH, FS_DROPPED };

typedef struct old_entry {
    const unsigned char *raw; /* the whole entry, copied as is when its file is unchanged */
    uint32_t raw_len;
    const char *path; /* not NUL-terminated */
    uint32_t path_len;
    uint64_t dev, ino, size, hash;
    int64_t mtime_ns, ctime_ns;
    uint32_t partial_depth;
    const unsigned char *body;
    uint32_t body_len;
    uint32_t n_findings;
} old_entry;

typedef struct file_state {
    unsigned char kind; /* FS_* */
    unsigned char counted_read; /* the file was read and hashed (verify) */
    unsigned char analyzed;     /* analyzed this run (record) */
    uint32_t old;       /* old entry index + 1; 0 = none */
    uint64_t hash;      /* of the bytes read (FS_HIT_HASH, FS_FRESH) */
    char *blob;         /* FS_FRESH: the encoded entry */
    size_t blob_len;
} file_state;

struct lf_cache {
    char *dir;
    int dfd;      /* the cache directory, opened O_NOFOLLOW; -1 until it exists */
    int disabled; /* unusable: read nothing, write nothing */
    const lf_scan *scan;
    uint64_t key[2];
    int64_t started_ns;  /* this scan's start: the new index's racy bound */
    unsigned char *data; /* the old index */
    size_t data_len;
    int64_t old_started_ns;
    old_entry *old;
    size_t n_old;
    uint32_t *table; /* path -> old index + 1, open addressing */
    size_t table_mask;
    unsigned char *visited; /* per old entry: matched by a walked file */
    file_state *files;      /* per walked file */
    size_t n_files;
    lf_cache_stats stats;
};

/* ---- codec primitives ---- */

void lf_cache_put_u32(lf_strbuf *out, uint32_t v) {
    char b[4] = {(char)v, (char)(v >> 8), (char)(v >> 16), (char)(v >> 24)};
    lf_strbuf_append(out, b, 4);
}

void lf_cache_put_u64(lf_strbuf *out, uint64_t v) {
    lf_cache_put_u32(out, (uint32_t)v);
    lf_cache_put_u32(out, (uint32_t)(v >> 32));
}

/* u32 length then the bytes; UINT32_MAX for NULL. */
void lf_cache_put_str(lf_strbuf *out, const char *s) {
    if (!s) {
        lf_cache_put_u32(out, UINT32_MAX);
        return;
    }
    size_t n = strlen(s);
    lf_cache_put_u32(out, (uint32_t)n);
    lf_strbuf_append(out, s, n);
}

static int have(lf_cache_reader *r, size_t n) {
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return 0;
    }
    return 1;
}

uint32_t lf_cache_get_u32(lf_cache_reader *r) {
    if (!have(r, 4))
        return 0;
    const unsigned char *p = r->p;
    r->p += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t lf_cache_get_u64(lf_cache_reader *r) {
    uint64_t lo = lf_cache_get_u32(r);
    return lo | (uint64_t)lf_cache_get_u32(r) << 32;
}

char *lf_cache_get_str(lf_cache_reader *r) {
    uint32_t n = lf_cache_get_u32(r);
    if (r->bad || n == UINT32_MAX || !have(r, n))
        return NULL;
    /* Strings of findings never hold a NUL: one inside means the bytes are not ours. */
    if (memchr(r->p, '\0', n)) {
        r->bad = 1;
        return NULL;
    }
    char *s = lf_xstrndup((const char *)r->p, n);
    r->p += n;
    return s;
}

uint32_t lf_cache_get_count(lf_cache_reader *r, size_t min_item) {
    uint32_t n = lf_cache_get_u32(r);
    if (!r->bad && min_item && n > (size_t)(r->end - r->p) / min_item)
        r->bad = 1;
    return r->bad ? 0 : n;
}

/* ---- the codec: one finding ---- */

static void encode_fix(lf_strbuf *out, const lf_fix *fix) {
    lf_cache_put_str(out, fix->title);
    lf_cache_put_u32(out, fix->unsafe ? 1u : 0u);
    lf_cache_put_u32(out, (uint32_t)fix->n_edits);
    for (size_t i = 0; i < fix->n_edits; i++) {
        lf_cache_put_u32(out, fix->edits[i].start);
        lf_cache_put_u32(out, fix->edits[i].end);
        lf_cache_put_u32(out, fix->edits[i].flags);
        lf_cache_put_str(out, fix->edits[i].text);
    }
    lf_cache_put_u32(out, (uint32_t)fix->n_new_files);
    for (size_t i = 0; i < fix->n_new_files; i++) {
        lf_cache_put_str(out, fix->new_files[i].path);
        lf_cache_put_str(out, fix->new_files[i].content);
    }
}

static lf_fix *decode_fix(lf_cache_reader *r) {
    lf_fix *fix = lf_xcalloc(1, sizeof *fix);
    fix->title = lf_cache_get_str(r);
    fix->unsafe = lf_cache_get_u32(r) != 0;
    uint32_t n = lf_cache_get_count(r, 16);
    fix->edits = lf_xcalloc(n ? n : 1, sizeof *fix->edits);
    for (; fix->n_edits < n && !r->bad; fix->n_edits++) {
        lf_edit *e = &fix->edits[fix->n_edits];
        e->start = lf_cache_get_u32(r);
        e->end = lf_cache_get_u32(r);
        e->flags = lf_cache_get_u32(r);
        e->text = lf_cache_get_str(r);
        r->bad |= !e->text || e->end < e->start;
    }
    n = lf_cache_get_count(r, 8);
    fix->new_files = lf_xcalloc(n ? n : 1, sizeof *fix->new_files);
    for (; fix->n_new_files < n && !r->bad; fix->n_new_files++) {
        lf_new_file *nf = &fix->new_files[fix->n_new_files];
        nf->path = lf_cache_get_str(r);
        nf->content = lf_cache_get_str(r);
        r->bad |= !nf->path || !nf->content;
    }
    return fix;
}

/* A finding's witness (lf_witness.h): platform, outcome, then its steps with
 * their places already located. */
static void encode_witness(lf_strbuf *out, const lf_witness *w) {
    lf_cache_put_str(out, w->platform);
    lf_cache_put_str(out, w->outcome);
    lf_cache_put_u32(out, (uint32_t)w->n_steps);
    for (size_t i = 0; i < w->n_steps; i++) {
        const lf_witness_step *st = &w->steps[i];
        lf_cache_put_u32(out, st->process);
        lf_cache_put_u32(out, (uint32_t)st->event);
        lf_cache_put_u32(out, st->start_byte);
        lf_cache_put_u32(out, st->end_byte);
        lf_cache_put_u32(out, st->line);
        lf_cache_put_u32(out, st->col);
        lf_cache_put_u32(out, st->end_line);
        lf_cache_put_u32(out, st->end_col);
        lf_cache_put_str(out, st->text);
    }
}

static lf_witness *decode_witness(lf_cache_reader *r) {
    lf_witness *w = lf_xcalloc(1, sizeof *w);
    w->platform = lf_cache_get_str(r);
    w->outcome = lf_cache_get_str(r);
    uint32_t n = lf_cache_get_count(r, 36);
    w->steps = lf_xcalloc(n ? n : 1, sizeof *w->steps);
    w->cap = n ? n : 1;
    for (; w->n_steps < n && !r->bad; w->n_steps++) {
        lf_witness_step *st = &w->steps[w->n_steps];
        st->process = lf_cache_get_u32(r);
        uint32_t ev = lf_cache_get_u32(r);
        st->event = (lf_wit_event)ev;
        st->start_byte = lf_cache_get_u32(r);
        st->end_byte = lf_cache_get_u32(r);
        st->line = lf_cache_get_u32(r);
        st->col = lf_cache_get_u32(r);
        st->end_line = lf_cache_get_u32(r);
        st->end_col = lf_cache_get_u32(r);
        st->text = lf_cache_get_str(r);
        r->bad |= !st->text || st->process > 2 || ev >= LF_WIT_EVENT_COUNT || st->line == 0 ||
                  st->end_byte < st->start_byte;
    }
    r->bad |= !w->platform;
    return w;
}

void lf_cache_encode_finding(lf_strbuf *out, const lf_finding *f) {
    lf_cache_put_str(out, f->rule->id);
    lf_cache_put_u32(out, f->start_byte);
    lf_cache_put_u32(out, f->end_byte);
    lf_cache_put_u32(out, f->line);
    lf_cache_put_u32(out, f->col);
    lf_cache_put_u32(out, f->end_line);
    lf_cache_put_u32(out, f->end_col);
    lf_cache_put_u32(out, (uint32_t)f->severity);
    lf_cache_put_str(out, f->message);
    lf_cache_put_str(out, f->no_fix_reason);
    lf_cache_put_u64(out, f->fingerprint_hash);
    lf_cache_put_str(out, f->fingerprint);
    lf_cache_put_u32(out, f->fix != NULL);
    if (f->fix)
        encode_fix(out, f->fix);
    lf_cache_put_u32(out, f->witness != NULL);
    if (f->witness)
        encode_witness(out, f->witness);
}

int lf_cache_decode_finding(lf_cache_reader *r, const lf_ruleset *rules, const char *path, lf_finding *out) {
    memset(out, 0, sizeof *out);
    out->path = path;
    char *id = lf_cache_get_str(r);
    out->rule = id ? lf_ruleset_find(rules, id) : NULL;
    free(id);
    out->start_byte = lf_cache_get_u32(r);
    out->end_byte = lf_cache_get_u32(r);
    out->line = lf_cache_get_u32(r);
    out->col = lf_cache_get_u32(r);
    out->end_line = lf_cache_get_u32(r);
    out->end_col = lf_cache_get_u32(r);
    uint32_t sev = lf_cache_get_u32(r);
    out->severity = (lf_severity)sev;
    out->message = lf_cache_get_str(r);
    out->no_fix_reason = lf_cache_get_str(r);
    out->fingerprint_hash = lf_cache_get_u64(r);
    char *fp = lf_cache_get_str(r);
    if (fp && strlen(fp) < sizeof out->fingerprint)
        memcpy(out->fingerprint, fp, strlen(fp) + 1);
    else
        r->bad = 1;
    free(fp);
    uint32_t has_fix = lf_cache_get_u32(r);
    if (has_fix == 1)
        out->fix = decode_fix(r);
    uint32_t has_witness = lf_cache_get_u32(r);
    if (has_witness == 1 && !r->bad)
        out->witness = decode_witness(r);
    if (r->bad || !out->rule || sev < LF_SEV_INFO || sev > LF_SEV_ERROR || has_fix > 1 || has_witness > 1 ||
        out->line == 0 ||
        out->end_byte < out->start_byte) {
        r->bad = 1;
        lf_finding_free_contents(out);
        return 0;
    }
    return 1;
}

/* ---- the key ---- */

typedef struct build_id {
    unsigned char bytes[64];
    size_t len;
} build_id;

/* The GNU build ID note of the executable (the first object dl_iterate_phdr
 * reports): a digest of the linked binary, so any rebuild with other code or
 * other embedded rules changes it without reading the file. */
static int note_cb(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    build_id *out = data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && !out->len; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        size_t left = ph->p_memsz;
        while (left >= sizeof(ElfW(Nhdr)) && !out->len) {
            ElfW(Nhdr) nh;
            memcpy(&nh, p, sizeof nh);
            size_t name_sz = ((size_t)nh.n_namesz + 3) & ~(size_t)3, desc_sz = ((size_t)nh.n_descsz + 3) & ~(size_t)3;
            size_t total = sizeof nh + name_sz + desc_sz;
            if (total > left)
                break;
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(p + sizeof nh, "GNU", 4) == 0 &&
                nh.n_descsz > 0 && nh.n_descsz <= sizeof out->bytes) {
                memcpy(out->bytes, p + sizeof nh + name_sz, nh.n_descsz);
                out->len = nh.n_descsz;
            }
            p += total;
            left -= total;
        }
    }
    return 1; /* the executable only */
}

/* Without a build ID (a linker told not to emit one): a hash of the binary's
 * bytes, read once. 0 when neither is available: the cache is then off, as an
 * index that cannot be tied to the code that wrote it is never trusted. */
static int binary_identity(lf_strbuf *key) {
    build_id id = {{0}, 0};
    dl_iterate_phdr(note_cb, &id);
    if (id.len) {
        lf_strbuf_append(key, "build-id", 9);
        lf_strbuf_append(key, (const char *)id.bytes, id.len);
        return 1;
    }
    size_t len = 0;
    char *err = NULL;
    char *exe = lf_read_text_file("/proc/self/exe", "binary", (size_t)1 << 30, &len, &err);
    if (!exe) {
        free(err);
        return 0;
    }
    lf_strbuf_append(key, "exe-hash", 9);
    lf_cache_put_u64(key, lf_hash64(exe, len, 0));
    lf_cache_put_u64(key, (uint64_t)len);
    free(exe);
    return 1;
}

static void put_list(lf_strbuf *b, char *const *list, size_t n) {
    lf_cache_put_u32(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++)
        lf_cache_put_str(b, list[i]);
}

/* Everything a file's result depends on besides its path and bytes. Every
 * field of lf_config is here: a new one must be added (an option that changes
 * results and is not in the key would let a stale result through). */
static int compute_key(const lf_scan *s, int want_fixes, uint64_t key[2]) {
    lf_strbuf b;
    lf_strbuf_init(&b);
    lf_cache_put_str(&b, "lockfix result cache");
    lf_cache_put_u32(&b, LF_CACHE_FORMAT);
    lf_cache_put_str(&b, LOCKFIX_VERSION);
    if (!binary_identity(&b)) {
        lf_strbuf_free(&b);
        return 0;
    }
    lf_cache_put_u32(&b, (uint32_t)s->rules.n_rules);
    for (size_t i = 0; i < s->rules.n_rules; i++) {
        const lf_rule *r = s->rules.rules[i];
        lf_cache_put_str(&b, r->id);
        lf_cache_put_str(&b, r->origin);
        lf_cache_put_u64(&b, r->doc_hash);
        lf_cache_put_u32(&b, (uint32_t)lf_config_rule_severity(&s->config, r));
    }
    const lf_config *c = &s->config;
    lf_cache_put_str(&b, c->path);
    put_list(&b, c->select, c->n_select);
    put_list(&b, c->ignore, c->n_ignore);
    put_list(&b, c->exclude, c->n_exclude);
    lf_cache_put_u32(&b, (uint32_t)c->n_severity);
    for (size_t i = 0; i < c->n_severity; i++) {
        lf_cache_put_str(&b, c->severity[i].rule_id);
        lf_cache_put_u32(&b, (uint32_t)c->severity[i].severity);
    }
    lf_cache_put_u32(&b, (uint32_t)c->fail_on);
    lf_cache_put_u32(&b, (uint32_t)want_fixes);
    lf_cache_put_u32(&b, (uint32_t)lf_fix_unsafe_allowed()); /* which fix an in-protocol LF301 gets */
    lf_cache_put_str(&b, s->fix_runtime_dir);
    key[0] = lf_hash64(b.data, b.len, 0);
    key[1] = lf_hash64(b.data, b.len, 0x6c66636163686531ull);
    lf_strbuf_free(&b);
    return 1;
}

/* ---- reading the index ---- */

static uint64_t rd_u64(const unsigned char *p) {
    lf_cache_reader r = {p, p + 8, 0};
    return lf_cache_get_u64(&r);
}

static uint32_t rd_u32(const unsigned char *p) {
    lf_cache_reader r = {p, p + 4, 0};
    return lf_cache_get_u32(&r);
}

static char *index_name(const uint64_t key[2]) {
    return lf_xasprintf(INDEX_PREFIX "%016llx%016llx", (unsigned long long)key[0], (unsigned long long)key[1]);
}

/* One open (O_NOFOLLOW: a symlink there is a miss), one fstat, one read. */
static unsigned char *read_index(int dfd, const char *name, size_t *len) {
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    unsigned char *buf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= HEADER_SIZE &&
        (uint64_t)st.st_size <= MAX_INDEX_BYTES) {
        size_t want = (size_t)st.st_size, got = 0;
        buf = lf_xmalloc(want);
        lf_prefault(buf, want); /* read() would fault each page in */
        while (got < want) {
            ssize_t n = read(fd, buf + got, want - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        if (got != want) {
            free(buf);
            buf = NULL;
        }
        *len = got;
    }
    close(fd);
    return buf;
}

static int parse_entry(lf_cache_reader *r, old_entry *e) {
    const unsigned char *start = r->p;
    e->path_len = lf_cache_get_u32(r);
    if (!have(r, e->path_len))
        return 0;
    e->path = (const char *)r->p;
    r->p += e->path_len;
    e->dev = lf_cache_get_u64(r);
    e->ino = lf_cache_get_u64(r);
    e->size = lf_cache_get_u64(r);
    e->mtime_ns = (int64_t)lf_cache_get_u64(r);
    e->ctime_ns = (int64_t)lf_cache_get_u64(r);
    e->hash = lf_cache_get_u64(r);
    e->partial_depth = lf_cache_get_u32(r);
    e->body_len = lf_cache_get_u32(r);
    if (!have(r, e->body_len) || e->body_len < 8)
        return r->bad = 1, 0;
    e->body = r->p;
    e->n_findings = rd_u32(e->body);
    r->p += e->body_len;
    e->raw = start;
    e->raw_len = (uint32_t)(r->p - start);
    return !r->bad;
}

static size_t path_slot(const char *path, size_t len, size_t mask) {
    return (size_t)lf_hash64(path, len, 0) & mask;
}

static void build_table(lf_cache *c) {
    size_t cap = 16;
    while (cap < c->n_old * 2)
        cap *= 2;
    c->table = lf_xcalloc(cap, sizeof *c->table);
    c->table_mask = cap - 1;
    for (size_t i = 0; i < c->n_old; i++) {
        size_t s = path_slot(c->old[i].path, c->old[i].path_len, c->table_mask);
        while (c->table[s])
            s = (s + 1) & c->table_mask;
        c->table[s] = (uint32_t)i + 1;
    }
}

/* Validate everything but the findings (decoded, and checked again, only
 * when used): the header, the key, the payload's length and checksum, the
 * entries' framing. Anything wrong: no old index, every file a miss. */
static void load_index(lf_cache *c) {
    char *name = index_name(c->key);
    size_t len = 0;
    unsigned char *d = read_index(c->dfd, name, &len);
    free(name);
    if (!d)
        return;
    uint64_t payload_len = rd_u64(d + 40);
    uint32_t n = rd_u32(d + 56);
    int ok = memcmp(d, MAGIC, 8) == 0 && rd_u32(d + 8) == LF_CACHE_FORMAT && rd_u32(d + 12) == HEADER_SIZE &&
             rd_u64(d + 16) == c->key[0] && rd_u64(d + 24) == c->key[1] && payload_len == len - HEADER_SIZE &&
             lf_hash64(d + HEADER_SIZE, payload_len, c->key[0]) == rd_u64(d + 48) &&
             n <= payload_len / (ENTRY_FIXED + 4);
    old_entry *old = ok ? lf_xcalloc(n ? n : 1, sizeof *old) : NULL;
    lf_cache_reader r = {d + HEADER_SIZE, d + len, 0};
    for (uint32_t i = 0; ok && i < n; i++)
        ok = parse_entry(&r, &old[i]);
    if (!ok || r.p != r.end) {
        free(old);
        free(d);
        return;
    }
    c->data = d;
    c->data_len = len;
    c->old_started_ns = (int64_t)rd_u64(d + 32);
    c->old = old;
    c->n_old = n;
    c->visited = lf_xcalloc(n ? n : 1, 1);
    build_table(c);
}

static const old_entry *find_old(const lf_cache *c, const char *path, uint32_t *index) {
    if (!c->n_old)
        return NULL;
    size_t len = strlen(path);
    for (size_t s = path_slot(path, len, c->table_mask); c->table[s]; s = (s + 1) & c->table_mask) {
        const old_entry *e = &c->old[c->table[s] - 1];
        if (e->path_len == len && memcmp(e->path, path, len) == 0) {
            *index = c->table[s];
            return e;
        }
    }
    return NULL;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int open_dir(const char *dir) {
    return open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Why the cache directory could not be opened (open_dir's errno e), or NULL
 * when nothing is there yet. */
static char *dir_problem(const char *dir, int e) {
    struct stat st;
    if (lstat(dir, &st) != 0)
        return NULL;
    if (S_ISLNK(st.st_mode))
        return lf_xstrdup("it is a symbolic link, which lockfix never follows");
    if (!S_ISDIR(st.st_mode))
        return lf_xstrdup("not a directory");
    return lf_xstrdup(strerror(e));
}

lf_cache *lf_cache_open(const char *dir, const lf_scan *s, int want_fixes, char **warning) {
    lf_cache *c = lf_xcalloc(1, sizeof *c);
    *warning = NULL;
    c->dir = lf_xstrdup(dir);
    c->scan = s;
    c->dfd = -1;
    c->started_ns = s->started_ns ? s->started_ns : now_ns();
    if (!compute_key(s, want_fixes, c->key)) {
        *warning = lf_xasprintf("cache %s not used: cannot identify the lockfix binary (no build ID, "
                                "/proc/self/exe unreadable)", dir);
        c->disabled = 1;
        return c;
    }
    c->dfd = open_dir(dir);
    if (c->dfd < 0) {
        char *why = dir_problem(dir, errno);
        if (why) { /* else it does not exist yet: lf_cache_save creates it */
            *warning = lf_xasprintf("cache %s not used: %s", dir, why);
            free(why);
            c->disabled = 1;
            return c;
        }
    }
    if (c->dfd >= 0)
        load_index(c);
    return c;
}

void lf_cache_free(lf_cache *c) {
    if (!c)
        return;
    for (size_t i = 0; i < c->n_files; i++)
        free(c->files[i].blob);
    free(c->files);
    free(c->table);
    free(c->visited);
    free(c->old);
    free(c->data);
    if (c->dfd >= 0)
        close(c->dfd);
    free(c->dir);
    free(c);
}

const lf_cache_stats *lf_cache_get_stats(const lf_cache *c) { return &c->stats; }

/* ---- the workers' side ---- */

/* One per walked file, allocated by lf_cache_begin_run before any worker
 * starts; each is written only by the worker that took its file. */
static file_state *state_of(lf_cache *c, size_t i) { return &c->files[i]; }

/* The walk's stat equals the entry's, and the entry's mtime is older than
 * the racy window of the scan that wrote it (as git's index): a write after
 * that scan read the file sets the mtime to a later tick, so an equal mtime
 * means no write since. An mtime inside the window could be the same tick as
 * a later write on a coarse-timestamp filesystem: the hash decides. (ctime
 * need not be outside the window: a write after a recent chmod or utime still
 * moves the mtime off its old value.) */
/* ---- the codec: what an analysis looked at besides the file ---- */

void lf_cache_encode_deps(lf_strbuf *out, const lf_deps *d) {
    lf_cache_put_u32(out, d ? (uint32_t)d->items.len : 0);
    for (size_t i = 0; d && i < d->items.len; i++) {
        const lf_dep *x = &d->items.items[i];
        lf_cache_put_str(out, x->path);
        lf_cache_put_u32(out, x->kind);
        lf_cache_put_u64(out, x->dev);
        lf_cache_put_u64(out, x->ino);
        lf_cache_put_u64(out, x->size);
        lf_cache_put_u64(out, (uint64_t)x->mtime_ns);
        lf_cache_put_u64(out, (uint64_t)x->ctime_ns);
    }
}

#define DEP_FIXED (4 + 4 + 5 * 8)

int lf_cache_deps_unchanged(lf_cache_reader *r, int64_t racy_bound) {
    uint32_t n = lf_cache_get_count(r, DEP_FIXED);
    int same = !r->bad;
    for (uint32_t i = 0; i < n && !r->bad; i++) {
        uint32_t len = lf_cache_get_u32(r);
        if (len == UINT32_MAX || !have(r, len) || memchr(r->p, '\0', len)) {
            r->bad = 1;
            break;
        }
        lf_dep d;
        char *path = lf_xstrndup((const char *)r->p, len);
        r->p += len;
        d.path = path;
        d.kind = lf_cache_get_u32(r);
        d.dev = lf_cache_get_u64(r);
        d.ino = lf_cache_get_u64(r);
        d.size = lf_cache_get_u64(r);
        d.mtime_ns = (int64_t)lf_cache_get_u64(r);
        d.ctime_ns = (int64_t)lf_cache_get_u64(r);
        /* An object changed within the racy window of the scan that recorded it
         * may have changed again since without its stat showing it. */
        if (same && !r->bad)
            same = d.kind == LF_DEP_ABSENT ? lf_dep_unchanged(&d)
                                           : d.mtime_ns < racy_bound && lf_dep_unchanged(&d);
        free(path);
    }
    return same && !r->bad;
}

static int stat_clean(const lf_cache *c, const old_entry *e, const lf_walk_file *w) {
    return w->has_stat && e->dev == w->dev && e->ino == w->ino && e->size == w->size &&
           e->mtime_ns == w->mtime_ns && e->ctime_ns == w->ctime_ns && e->mtime_ns < c->old_started_ns - LF_CACHE_RACY_NS;
}

lf_cache_probe_result lf_cache_probe(lf_cache *c, size_t i, lf_scan_file *f) {
    if (c->disabled || !c->files)
        return LF_CACHE_ABSENT;
    file_state *st = state_of(c, i);
    uint32_t idx = 0;
    const old_entry *e = find_old(c, f->walked->path, &idx);
    if (!e)
        return LF_CACHE_ABSENT;
    st->old = idx;
    c->visited[idx - 1] = 1;
    st->kind = FS_DROPPED; /* until it proves a hit */
    if (e->n_findings == 0 && e->body_len == 8 && stat_clean(c, e, f->walked)) {
        st->kind = FS_HIT_STAT;
        f->analyzed = 1;
        f->partial_depth = e->partial_depth;
        return LF_CACHE_HIT;
    }
    return LF_CACHE_VERIFY;
}

static int decode_body(lf_cache *c, const old_entry *e, lf_scan_file *f) {
    lf_cache_reader r = {e->body, e->body + e->body_len, 0};
    uint32_t n = lf_cache_get_count(&r, 40);
    lf_finding *out = lf_xcalloc(n ? n : 1, sizeof *out);
    size_t k = 0;
    while (k < n && lf_cache_decode_finding(&r, &c->scan->rules, f->src.path, &out[k]))
        k++;
    /* What the fixes looked at around the file must be as it was. */
    int deps_same = !r.bad && k == n && lf_cache_deps_unchanged(&r, c->old_started_ns - LF_CACHE_RACY_NS);
    if (r.bad || k != n || !deps_same || r.p != r.end) {
        for (size_t j = 0; j < k; j++)
            lf_finding_free_contents(&out[j]);
        free(out);
        return 0;
    }
    f->findings = out;
    f->n_findings = n;
    return 1;
}

int lf_cache_verify(lf_cache *c, size_t i, lf_scan_file *f) {
    file_state *st = state_of(c, i);
    st->hash = lf_hash64(lf_source_disk(&f->src), f->src.len, 0);
    st->counted_read = 1;
    const old_entry *e = &c->old[st->old - 1];
    if (e->hash != st->hash || !decode_body(c, e, f))
        return 0;
    const lf_walk_file *w = f->walked;
    /* Same bytes: a hit. Rewrite the entry when its stat changed or it was
     * racily clean, so the next scan can trust the stat alone. */
    st->kind = stat_clean(c, e, w) ? FS_HIT_STAT : FS_HIT_HASH;
    f->analyzed = 1;
    f->partial_depth = e->partial_depth;
    return 1;
}

/* A result that depends only on the file's path and bytes (and the key), and
 * on what deps records. A fixer that looks around the file reads through
 * lf_deps, so its results are kept with what it looked at. */
static int cacheable(const lf_scan_file *f, const lf_deps *deps) {
    if (!f->analyzed || !f->walked->has_stat || f->src.len > UINT32_MAX)
        return 0;
    for (size_t k = 0; k < f->n_findings; k++)
        if (f->findings[k].rule->fixer && !f->findings[k].rule->fixer->file_local && (!deps || deps->overflow))
            return 0;
    return 1;
}

static void put_entry_head(lf_strbuf *b, const lf_walk_file *w, uint64_t hash, uint32_t partial_depth) {
    size_t n = strlen(w->path);
    lf_cache_put_u32(b, (uint32_t)n);
    lf_strbuf_append(b, w->path, n);
    lf_cache_put_u64(b, w->dev);
    lf_cache_put_u64(b, w->ino);
    lf_cache_put_u64(b, w->size);
    lf_cache_put_u64(b, (uint64_t)w->mtime_ns);
    lf_cache_put_u64(b, (uint64_t)w->ctime_ns);
    lf_cache_put_u64(b, hash);
    lf_cache_put_u32(b, partial_depth);
}

void lf_cache_record(lf_cache *c, size_t i, const lf_scan_file *f, lf_deps *deps) {
    if (c->disabled || !c->files)
        return;
    file_state *st = state_of(c, i);
    st->analyzed = 1;
    if (deps)
        lf_deps_settle(deps);
    if (!cacheable(f, deps)) {
        if (st->kind != FS_NONE)
            st->kind = FS_DROPPED; /* the old entry goes */
        return;
    }
    if (!st->counted_read)
        st->hash = lf_hash64(lf_source_disk(&f->src), f->src.len, 0);
    /* The stat stored is the walk's, taken before the read: a write between
     * the two changes the stat, so the next scan reads the file again. */
    lf_strbuf body;
    lf_strbuf_init(&body);
    lf_cache_put_u32(&body, (uint32_t)f->n_findings);
    for (size_t k = 0; k < f->n_findings; k++)
        lf_cache_encode_finding(&body, &f->findings[k]);
    lf_cache_encode_deps(&body, deps);
    lf_strbuf b;
    lf_strbuf_init(&b);
    put_entry_head(&b, f->walked, st->hash, f->partial_depth);
    lf_cache_put_u32(&b, (uint32_t)body.len);
    lf_strbuf_append(&b, body.data, body.len);
    lf_strbuf_free(&body);
    st->blob_len = b.len;
    st->blob = lf_strbuf_detach(&b);
    st->kind = FS_FRESH;
}

void lf_cache_begin_run(lf_cache *c, size_t n_files) {
    if (!c || c->disabled)
        return;
    c->n_files = n_files;
    c->files = lf_xcalloc(n_files ? n_files : 1, sizeof *c->files);
}

/* ---- writing the index ---- */

static const char k_cachedir_tag[] = "Signature: 8a477f597d28d172789f06886806bc55\n"
                                     "# This file is a cache directory tag created by lockfix.\n"
                                     "# For information about cache directory tags, see https://bford.info/cachedir/\n";

static int write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* A unique temp (O_EXCL, ".<name>.<pid>.XXXXXX", removed on a signal) that is
 * checked to be in the directory opened without following links, written,
 * fsynced and renamed over `name` relative to that directory, whose entry is
 * then fsynced: a reader sees the old index or the new one, never a mix, and
 * concurrent writers each rename a complete file (the last one wins). */
static int write_atomic_at(lf_cache *c, const char *name, const char *data, size_t len, int *err) {
    char *target = lf_xasprintf("%s/%s", c->dir, name);
    char *suffix = lf_xasprintf(".%ld.", (long)getpid());
    int slot;
    int fd = lf_tempfile_create(target, suffix, &slot);
    free(target);
    free(suffix);
    if (fd < 0) {
        *err = errno;
        return 0;
    }
    const char *tmp = lf_tempfile_path(slot);
    const char *base = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
    struct stat a, b;
    mode_t mask = umask(0);
    umask(mask);
    int ok = fstat(fd, &a) == 0 && fstatat(c->dfd, base, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
             a.st_ino == b.st_ino;
    *err = ok ? 0 : ELOOP; /* the directory was replaced since it was opened */
    if (ok && !(fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, data, len) && fsync(fd) == 0))
        ok = 0, *err = errno;
    if (close(fd) != 0 && ok)
        ok = 0, *err = errno;
    if (ok && renameat(c->dfd, base, c->dfd, name) != 0)
        ok = 0, *err = errno;
    if (!ok) {
        lf_tempfile_remove(slot);
        return 0;
    }
    lf_tempfile_forget(slot);
    (void)fsync(c->dfd);
    return 1;
}

static int ensure_dir(lf_cache *c, char **warning) {
    if (c->dfd < 0) {
        if (mkdir(c->dir, 0777) != 0 && errno != EEXIST) {
            *warning = lf_xasprintf("cache %s not written: cannot create it: %s", c->dir, strerror(errno));
            return 0;
        }
        c->dfd = open_dir(c->dir);
        if (c->dfd < 0) {
            int e = errno;
            char *why = dir_problem(c->dir, e);
            *warning = lf_xasprintf("cache %s not written: %s", c->dir, why ? why : strerror(e));
            free(why);
            return 0;
        }
    }
    /* Backup and archiving tools skip a directory with this tag; git ignores
     * everything under a .gitignore of "*". Written only when missing. */
    static const struct {
        const char *name, *text;
    } k_files[] = {{"CACHEDIR.TAG", k_cachedir_tag}, {".gitignore", "# Automatically created by lockfix.\n*\n"}};
    for (size_t i = 0; i < sizeof k_files / sizeof k_files[0]; i++) {
        struct stat st;
        int err = 0;
        if (fstatat(c->dfd, k_files[i].name, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT &&
            !write_atomic_at(c, k_files[i].name, k_files[i].text, strlen(k_files[i].text), &err)) {
            *warning = lf_xasprintf("cache %s not written: %s", c->dir, strerror(err));
            return 0;
        }
    }
    return 1;
}

/* A carried entry (its file not walked this time) is kept only when its file
 * still exists and its stat could be trusted under the old index's start, so
 * it stays trustworthy under this scan's later one. */
static int keep_carried(const lf_cache *c, const old_entry *e) {
    if (e->mtime_ns >= c->old_started_ns - LF_CACHE_RACY_NS)
        return 0;
    char *path = lf_xstrndup(e->path, e->path_len);
    struct stat st;
    int ok = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return ok;
}

/* The new payload; *dirty when it differs from the old index's. */
static void build_payload(lf_cache *c, lf_strbuf *p, uint32_t *n, int *dirty) {
    *n = 0;
    *dirty = c->data == NULL;
    for (size_t i = 0; i < c->n_files; i++) {
        const file_state *st = &c->files[i];
        const old_entry *e = st->old ? &c->old[st->old - 1] : NULL;
        if (st->kind == FS_HIT_STAT) {
            lf_strbuf_append(p, (const char *)e->raw, e->raw_len);
        } else if (st->kind == FS_HIT_HASH) {
            put_entry_head(p, c->scan->files[i].walked, st->hash, e->partial_depth);
            lf_cache_put_u32(p, e->body_len);
            lf_strbuf_append(p, (const char *)e->body, e->body_len);
        } else if (st->kind == FS_FRESH) {
            lf_strbuf_append(p, st->blob, st->blob_len);
        }
        if (st->kind == FS_HIT_STAT || st->kind == FS_HIT_HASH || st->kind == FS_FRESH)
            (*n)++;
        if (st->kind != FS_HIT_STAT && st->kind != FS_NONE)
            *dirty = 1;
    }
    for (size_t j = 0; j < c->n_old; j++) {
        if (c->visited[j])
            continue;
        if (keep_carried(c, &c->old[j])) {
            lf_strbuf_append(p, (const char *)c->old[j].raw, c->old[j].raw_len);
            (*n)++;
        } else {
            *dirty = 1;
        }
    }
}

static void put_header(lf_strbuf *h, const lf_cache *c, const lf_strbuf *payload, uint32_t n) {
    lf_strbuf_append(h, MAGIC, 8);
    lf_cache_put_u32(h, LF_CACHE_FORMAT);
    lf_cache_put_u32(h, HEADER_SIZE);
    lf_cache_put_u64(h, c->key[0]);
    lf_cache_put_u64(h, c->key[1]);
    lf_cache_put_u64(h, (uint64_t)c->started_ns);
    lf_cache_put_u64(h, payload->len);
    lf_cache_put_u64(h, lf_hash64(payload->data ? payload->data : "", payload->len, c->key[0]));
    lf_cache_put_u32(h, n);
    lf_cache_put_u32(h, 0);
}

typedef struct index_file {
    char *name;
    int64_t mtime_ns;
} index_file;

static int newest_first(const void *a, const void *b) {
    const index_file *x = a, *y = b;
    return x->mtime_ns < y->mtime_ns ? 1 : x->mtime_ns > y->mtime_ns ? -1 : strcmp(x->name, y->name);
}

/* write_atomic_at's temps: "." + the target's name + ".<pid>.XXXXXX". */
static int is_temp_name(const char *n) {
    static const char *const k_targets[] = {INDEX_PREFIX, "CACHEDIR.TAG.", ".gitignore.", NULL};
    if (n[0] != '.')
        return 0;
    for (size_t i = 0; k_targets[i]; i++)
        if (strncmp(n + 1, k_targets[i], strlen(k_targets[i])) == 0)
            return 1;
    return 0;
}

/* Other keys' indexes (an older binary, other rules or options) are kept up
 * to KEEP_INDEXES, newest first; temps a killed run left behind go after an
 * hour (a live writer renames its temp within seconds). */
static void prune(lf_cache *c, const char *ours) {
    int fd = dup(c->dfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    LF_VEC(index_file) idx = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *n = de->d_name;
        struct stat st;
        if (fstatat(c->dfd, n, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        int64_t m = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        if (strncmp(n, INDEX_PREFIX, strlen(INDEX_PREFIX)) == 0 && strcmp(n, ours) != 0) {
            index_file f = {lf_xstrdup(n), m};
            LF_VEC_PUSH(&idx, f);
        } else if (is_temp_name(n) && m < c->started_ns - STALE_TEMP_NS) {
            (void)unlinkat(c->dfd, n, 0);
        }
    }
    closedir(d);
    if (idx.len > 1)
        qsort(idx.items, idx.len, sizeof *idx.items, newest_first);
    for (size_t i = 0; i < idx.len; i++) {
        if (i >= KEEP_INDEXES - 1)
            (void)unlinkat(c->dfd, idx.items[i].name, 0);
        free(idx.items[i].name);
    }
    LF_VEC_FREE(&idx);
}

static void count_stats(lf_cache *c) {
    for (size_t i = 0; i < c->n_files; i++) {
        const file_state *st = &c->files[i];
        if (st->analyzed) {
            c->stats.misses++;
            c->stats.not_cacheable += st->kind != FS_FRESH;
        } else if (st->kind == FS_HIT_STAT && !st->counted_read) {
            c->stats.hits_unread++;
        } else if (st->kind == FS_HIT_STAT || st->kind == FS_HIT_HASH) {
            c->stats.hits_read++;
        }
    }
}

int lf_cache_save(lf_cache *c, char **warning) {
    *warning = NULL;
    if (c->disabled || !c->files)
        return 1;
    count_stats(c);
    lf_strbuf payload, file;
    lf_strbuf_init(&payload);
    uint32_t n;
    int dirty;
    build_payload(c, &payload, &n, &dirty);
    if (!dirty) {
        lf_strbuf_free(&payload);
        return 1;
    }
    int ok = ensure_dir(c, warning);
    if (ok) {
        lf_strbuf_init(&file);
        put_header(&file, c, &payload, n);
        lf_strbuf_append(&file, payload.data ? payload.data : "", payload.len);
        char *name = index_name(c->key);
        int err = 0;
        ok = write_atomic_at(c, name, file.data, file.len, &err);
        if (ok)
            prune(c, name);
        else
            *warning = lf_xasprintf("cache %s not written: %s", c->dir, strerror(err));
        c->stats.written = ok ? 1 : -1;
        free(name);
        lf_strbuf_free(&file);
    }
    lf_strbuf_free(&payload);
    return ok;
}
