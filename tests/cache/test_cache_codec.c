/* lf_cache's finding codec and lf_hash64: every field a report reads survives
 * a round trip byte for byte; any truncation, an unknown rule, a bad severity
 * or an impossible count is refused without reading past the input. And
 * lf_deps: what a fix looked at is recorded through its wrappers, and read
 * back as unchanged only while every object is as it was. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/lf_test.h"
#include "lf_cache.h"
#include "lf_deps.h"
#include "lf_hash.h"
#include "lf_rule.h"

static void test_hash_vectors(void) {
    /* XXH64 reference values (seed 0). */
    CHECK(lf_hash64("", 0, 0) == 0xEF46DB3751D8E999ull);
    CHECK(lf_hash64("a", 1, 0) == 0xD24EC4F1A98C6E5Bull);
    CHECK(lf_hash64("abc", 3, 0) == 0x44BC2CF5AD770999ull);
    /* Every length through two stripes and every tail: one byte changed changes the hash. */
    char buf[80];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (char)(i * 7 + 1);
    for (size_t n = 1; n <= sizeof buf; n++) {
        uint64_t h = lf_hash64(buf, n, 0);
        buf[n - 1] ^= 1;
        CHECK(lf_hash64(buf, n, 0) != h);
        buf[n - 1] ^= 1;
        CHECK(lf_hash64(buf, n, 1) != h);
    }
}

static lf_finding sample(const lf_ruleset *rules, int with_fix) {
    lf_finding f;
    memset(&f, 0, sizeof f);
    f.rule = lf_ruleset_find(rules, "LF401");
    f.path = "pkg/state.py";
    f.start_byte = 61;
    f.end_byte = 74;
    f.line = 6;
    f.col = 11;
    f.end_line = 6;
    f.end_col = 24;
    f.severity = LF_SEV_WARNING;
    f.fingerprint_hash = 0x0123456789abcdefull;
    strcpy(f.fingerprint, "0123456789abcdef:2");
    if (with_fix) {
        f.message = lf_xstrdup("temp name path + \".tmp\" is fixed \xe2\x80\x94 by the target");
        f.fix = lf_xcalloc(1, sizeof *f.fix);
        f.fix->title = lf_xstrdup("give the temp file a unique name (uuid4) in the same directory");
        lf_fix_add_edit(f.fix, 61, 74, "path + f\".{uuid.uuid4().hex}.tmp\"");
        lf_fix_add_import(f.fix, 0, "import uuid\n");
        lf_fix_add_edit(f.fix, 80, 80, "");
        f.fix->new_files = lf_xcalloc(1, sizeof *f.fix->new_files);
        f.fix->new_files[0].path = lf_xstrdup("lockrt.py");
        f.fix->new_files[0].content = lf_xstrdup("# vendored\n");
        f.fix->n_new_files = 1;
    } else {
        f.message = NULL;
        f.no_fix_reason = lf_xstrdup("the temp is not created by an open(..., \"w\") the fix can see");
    }
    return f;
}

static void encode(lf_strbuf *out, const lf_finding *f) {
    lf_strbuf_init(out);
    lf_cache_encode_finding(out, f);
}

static void test_round_trip(const lf_ruleset *rules) {
    for (int with_fix = 0; with_fix <= 1; with_fix++) {
        lf_finding f = sample(rules, with_fix);
        lf_strbuf a, b;
        encode(&a, &f);
        lf_cache_reader r = {(const unsigned char *)a.data, (const unsigned char *)a.data + a.len, 0};
        lf_finding g;
        CHECK(lf_cache_decode_finding(&r, rules, "other/path.py", &g) == 1);
        CHECK(r.p == r.end && !r.bad);
        CHECK(g.rule == f.rule);
        CHECK_STR(g.path, "other/path.py");
        CHECK_INT(g.start_byte, 61);
        CHECK_INT(g.end_byte, 74);
        CHECK_INT(g.line, 6);
        CHECK_INT(g.col, 11);
        CHECK_INT(g.end_line, 6);
        CHECK_INT(g.end_col, 24);
        CHECK_INT(g.severity, LF_SEV_WARNING);
        CHECK(g.fingerprint_hash == f.fingerprint_hash);
        CHECK_STR(g.fingerprint, "0123456789abcdef:2");
        CHECK(with_fix ? g.message && !strcmp(g.message, f.message) : g.message == NULL);
        CHECK(with_fix ? g.no_fix_reason == NULL : g.no_fix_reason && !strcmp(g.no_fix_reason, f.no_fix_reason));
        CHECK((g.fix != NULL) == with_fix);
        if (with_fix && g.fix) {
            CHECK_STR(g.fix->title, f.fix->title);
            CHECK_INT(g.fix->n_edits, 3);
            CHECK_INT(g.fix->edits[1].flags, LF_EDIT_IMPORT);
            CHECK_STR(g.fix->edits[1].text, "import uuid\n");
            CHECK_STR(g.fix->edits[2].text, "");
            CHECK_INT(g.fix->n_new_files, 1);
            CHECK_STR(g.fix->new_files[0].content, "# vendored\n");
        }
        /* Whatever the fields, the decoded finding encodes to the same bytes. */
        encode(&b, &g);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);

        /* Every truncation is refused, reading nothing past the end. */
        for (size_t n = 0; n < a.len; n++) {
            unsigned char *cut = lf_xmalloc(n ? n : 1);
            memcpy(cut, a.data, n);
            lf_cache_reader t = {cut, cut + n, 0};
            lf_finding h;
            CHECK(lf_cache_decode_finding(&t, rules, "p", &h) == 0);
            CHECK(t.bad);
            free(cut);
        }
        lf_strbuf_free(&a);
        lf_strbuf_free(&b);
        lf_finding_free_contents(&f);
        lf_finding_free_contents(&g);
    }
}

/* Patch one u32 at `at` of an encoded finding and decode it. */
static int decodes_with(const lf_ruleset *rules, const lf_strbuf *enc, size_t at, uint32_t v) {
    unsigned char *copy = lf_xmalloc(enc->len);
    memcpy(copy, enc->data, enc->len);
    copy[at] = (unsigned char)v;
    copy[at + 1] = (unsigned char)(v >> 8);
    copy[at + 2] = (unsigned char)(v >> 16);
    copy[at + 3] = (unsigned char)(v >> 24);
    lf_cache_reader r = {copy, copy + enc->len, 0};
    lf_finding g;
    int ok = lf_cache_decode_finding(&r, rules, "p", &g);
    if (ok)
        lf_finding_free_contents(&g);
    free(copy);
    return ok;
}

static void test_bad_values(const lf_ruleset *rules) {
    lf_finding f = sample(rules, 1);
    lf_strbuf a;
    encode(&a, &f);
    /* Layout: u32 5 "LF401", six u32 positions, u32 severity at 33. */
    const size_t sev_at = 4 + 5 + 6 * 4;
    CHECK(decodes_with(rules, &a, sev_at, LF_SEV_ERROR) == 1);
    CHECK(decodes_with(rules, &a, sev_at, 0) == 0);
    CHECK(decodes_with(rules, &a, sev_at, 4) == 0);
    CHECK(decodes_with(rules, &a, 9 + 8, 0) == 0);          /* line 0 */
    CHECK(decodes_with(rules, &a, 0, 0xFFFFFFF0u) == 0);    /* rule id longer than the input */
    CHECK(decodes_with(rules, &a, 0, UINT32_MAX) == 0);     /* a NULL rule id */
    unsigned char *copy = lf_xmalloc(a.len);
    memcpy(copy, a.data, a.len);
    memcpy(copy + 4, "LF999", 5); /* a rule this ruleset does not have */
    lf_cache_reader r = {copy, copy + a.len, 0};
    lf_finding g;
    CHECK(lf_cache_decode_finding(&r, rules, "p", &g) == 0);
    free(copy);
    lf_strbuf_free(&a);
    lf_finding_free_contents(&f);

    /* A list count larger than the bytes left could hold is refused before
     * anything is allocated for it. */
    unsigned char huge[8] = {0xff, 0xff, 0xff, 0x0f, 1, 2, 3, 4};
    lf_cache_reader c = {huge, huge + sizeof huge, 0};
    CHECK(lf_cache_get_count(&c, 1) == 0 && c.bad);
    unsigned char two[6] = {2, 0, 0, 0, 9, 9};
    lf_cache_reader d = {two, two + sizeof two, 0};
    CHECK(lf_cache_get_count(&d, 1) == 2 && !d.bad);
}

/* Random damage to a valid encoding (under ASan in scripts/test.sh): each
 * decode accepts or refuses, never reads past its input; what it accepts
 * encodes and decodes again to the same bytes. */
static void test_random_damage(const lf_ruleset *rules) {
    lf_finding f = sample(rules, 1);
    lf_strbuf a;
    encode(&a, &f);
    uint64_t x = 21;
    size_t accepted = 0;
    for (int round = 0; round < 20000; round++) {
        size_t n = a.len;
        unsigned char *buf = lf_xmalloc(n);
        memcpy(buf, a.data, n);
        for (int k = 0; k < 1 + round % 4; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            buf[(x >> 33) % n] = (unsigned char)(x >> 24);
        }
        if (round % 5 == 0) { /* and a random cut */
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            n = (x >> 33) % (n + 1);
        }
        lf_cache_reader r = {buf, buf + n, 0};
        lf_finding g;
        if (lf_cache_decode_finding(&r, rules, "p", &g)) {
            accepted++;
            CHECK(r.p <= r.end);
            lf_strbuf b;
            encode(&b, &g);
            lf_cache_reader r2 = {(const unsigned char *)b.data, (const unsigned char *)b.data + b.len, 0};
            lf_finding h;
            CHECK(lf_cache_decode_finding(&r2, rules, "p", &h) == 1 && r2.p == r2.end);
            lf_strbuf c;
            encode(&c, &h);
            CHECK(b.len == c.len && memcmp(b.data, c.data, b.len) == 0);
            lf_strbuf_free(&b);
            lf_strbuf_free(&c);
            lf_finding_free_contents(&g);
            lf_finding_free_contents(&h);
        }
        free(buf);
    }
    CHECK(accepted > 0); /* damage inside strings keeps a finding well-formed */
    lf_strbuf_free(&a);
    lf_finding_free_contents(&f);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* Encode what was recorded, then ask whether it is unchanged (racy bound:
 * far in the future, so only a real change counts). */
static int deps_unchanged(const lf_deps *d) {
    lf_strbuf b;
    lf_strbuf_init(&b);
    lf_cache_encode_deps(&b, d);
    lf_cache_reader r = {(const unsigned char *)b.data, (const unsigned char *)b.data + b.len, 0};
    int same = lf_cache_deps_unchanged(&r, INT64_MAX);
    int whole = !r.bad && r.p == r.end;
    lf_strbuf_free(&b);
    return same && whole;
}

static void test_deps(void) {
    char dir[] = "/tmp/lf_deps_test.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *file = lf_xasprintf("%s/a.py", dir), *absent = lf_xasprintf("%s/b.py", dir);
    write_file(file, "x = 1\n");

    /* No collector: the wrappers only do the call. */
    struct stat st;
    CHECK(lf_deps_lstat(file, &st) == 0);

    lf_deps d = {0};
    lf_deps_begin(&d);
    FILE *f = lf_deps_fopen_read(file);
    CHECK(f != NULL);
    if (f)
        fclose(f);
    CHECK(lf_deps_lstat(absent, &st) != 0);
    DIR *dh = lf_deps_opendir(dir);
    CHECK(dh != NULL);
    if (dh)
        closedir(dh);
    CHECK(lf_deps_lstat(file, &st) == 0); /* the same object again */
    lf_deps_end();
    lf_deps_settle(&d);
    CHECK(d.items.len == 3 && !d.overflow);
    CHECK(deps_unchanged(&d));

    /* The racy bound: an object whose mtime is not older is not trusted. */
    lf_strbuf b;
    lf_strbuf_init(&b);
    lf_cache_encode_deps(&b, &d);
    lf_cache_reader r = {(const unsigned char *)b.data, (const unsigned char *)b.data + b.len, 0};
    CHECK(!lf_cache_deps_unchanged(&r, 0));
    /* Every truncation is refused without reading past the input. */
    for (size_t cut = 0; cut < b.len; cut++) {
        lf_cache_reader t = {(const unsigned char *)b.data, (const unsigned char *)b.data + cut, 0};
        CHECK(!lf_cache_deps_unchanged(&t, INT64_MAX));
    }
    lf_strbuf_free(&b);

    /* Same size, mtime restored: ctime still moves. */
    struct stat before;
    CHECK(lstat(file, &before) == 0);
    struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    write_file(file, "x = 2\n");
    struct timespec times[2] = {before.st_atim, before.st_mtim};
    CHECK(utimensat(AT_FDCWD, file, times, AT_SYMLINK_NOFOLLOW) == 0);
    CHECK(!deps_unchanged(&d));
    lf_deps_free(&d);

    /* A file that appears where one was absent; a directory that gains one. */
    lf_deps e = {0};
    lf_deps_begin(&e);
    CHECK(lf_deps_lstat(absent, &st) != 0);
    lf_deps_end();
    CHECK(deps_unchanged(&e));
    write_file(absent, "");
    CHECK(!deps_unchanged(&e));
    lf_deps_free(&e);

    /* Looked at twice and changed in between: nothing describes it. */
    lf_deps g = {0};
    lf_deps_begin(&g);
    CHECK(lf_deps_lstat(file, &st) == 0);
    CHECK(lf_deps_lstat(absent, &st) == 0);
    write_file(file, "x = 33\n");
    CHECK(lf_deps_lstat(file, &st) == 0);
    lf_deps_end();
    lf_deps_settle(&g);
    CHECK(g.overflow);
    lf_deps_free(&g);

    unlink(file);
    unlink(absent);
    rmdir(dir);
    free(file);
    free(absent);
}

int main(void) {
    test_hash_vectors();
    test_deps();
    lf_ruleset rules = {0};
    char *err = NULL;
    CHECK(lf_ruleset_load_builtin(&rules, &err));
    if (rules.n_rules) {
        test_round_trip(&rules);
        test_bad_values(&rules);
        test_random_damage(&rules);
    }
    lf_ruleset_free(&rules);
    free(err);
    TEST_MAIN_END();
}
