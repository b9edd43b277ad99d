/* lf_re: the #match? regex matcher. Same answers as POSIX regexec (the C
 * locale's ERE, used here only as the oracle) on every pattern of the rules and
 * on a grid of patterns x texts; refusals; and linear work on patterns that
 * make a backtracking matcher cubic or exponential, counted in steps
 * (lf_work_steps), never seconds. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lf_re.h"
#include "lf_test.h"
#include "lf_util.h"

static int posix(const char *pat, const char *text, size_t len) {
    regex_t re;
    if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB) != 0)
        return -1;
    regmatch_t m[1] = {{0, (regoff_t)len}};
    int r = regexec(&re, text, 1, m, REG_STARTEND) == 0;
    regfree(&re);
    return r;
}

static int ours(const char *pat, const char *text, size_t len) {
    const char *why;
    int refused;
    lf_re *re = lf_re_compile(pat, &why, &refused);
    if (!re)
        return -1;
    int r = lf_re_search(re, text, len);
    lf_re_free(re);
    return r;
}

static void same(const char *pat, const char *text) {
    int want = posix(pat, text, strlen(text)), got = ours(pat, text, strlen(text));
    if (want != got) {
        fprintf(stderr, "pattern \"%s\" on \"%s\": posix %d, lf_re %d\n", pat, text, want, got);
        lf_test_failures++;
    }
}

static void refused(const char *pat, const char *want_why, int want_refused) {
    const char *why = NULL;
    int r = -1;
    lf_re *re = lf_re_compile(pat, &why, &r);
    CHECK(re == NULL);
    lf_re_free(re);
    CHECK_STR(why, want_why);
    CHECK(r == want_refused);
}

/* Steps for a long run of 'a' (with an optional last byte), at two lengths:
 * linear means a quarter of the text takes a quarter of the steps, and the
 * total stays within a few steps per (state, byte). */
static void linear(const char *pat, char last, int want) {
    const char *why;
    int r;
    lf_re *re = lf_re_compile(pat, &why, &r);
    CHECK(re != NULL);
    if (!re) {
        fprintf(stderr, "  %s: %s\n", pat, why);
        return;
    }
    unsigned long long steps[2];
    for (int k = 0; k < 2; k++) {
        size_t len = k ? 32000 : 8000;
        char *text = lf_xmalloc(len);
        memset(text, 'a', len);
        if (last)
            text[len - 1] = last;
        unsigned long long before = lf_work_steps;
        CHECK(lf_re_search(re, text, len) == want);
        steps[k] = lf_work_steps - before;
        free(text);
    }
    double ratio = (double)steps[1] / (double)steps[0];
    printf("re %-24s %10llu steps at 8000 bytes, %10llu at 32000 (ratio %.2f)\n", pat, steps[0], steps[1], ratio);
    CHECK(ratio > 3.5 && ratio < 4.5);
    CHECK(steps[1] < 32001ull * 2 * LF_RE_MAX_STATES); /* each state at most once per byte
                                                          (x2: the restart) */
    lf_re_free(re);
}

int main(void) {
    /* The rules' own patterns (every #match? of rules/, as of this test), on
     * texts they must and must not take. */
    static const char *const rule_pats[] = {
        "(rm|unlink|remove|rimraf|rename|emptyDir)",
        "[.]resolve[(][)]$",
        "^%s[._-](tmp|temp|TMP|TEMP)",
        "^([mc]time(Ms)?|getTime)$",
        "^(appendFile|appendFileSync|open|openSync|createWriteStream|writeFile|"
        "writeFileSync)$",
        "^(readFile|readFileSync|readJson|readJsonSync|readJSON|readJSONSync)$",
        "^[._-](tmp|temp|TMP|TEMP)",
        "^[{][}][._-](tmp|temp|TMP|TEMP)",
        "^realpath(Sync)?$",
        "^rename(Sync)?$",
    };
    static const char *const rule_texts[] = {
        "rm",     "fs.unlink", "rename", "renameSync",    "renameSyncX", "xrename",  "path.resolve()", "x.resolve()y",
        "%s.tmp", "%s-temp",   "%sxtmp", "mtime",         "ctimeMs",     "mtimeMss", "getTime",        "atime",
        "open",   "openSync",  "opens",  "writeFileSync", "readJSON",    "readJson", "readjson",       ".tmp",
        "_TEMP",  "-tmpfile",  "x.tmp",  "{}.tmp",        "{}x.tmp",     "realpath", "realpathSync",   "realpaths",
        "",       "emptyDir",
    };
    for (size_t p = 0; p < sizeof rule_pats / sizeof rule_pats[0]; p++)
        for (size_t t = 0; t < sizeof rule_texts / sizeof rule_texts[0]; t++)
            same(rule_pats[p], rule_texts[t]);

    /* A grid of ERE shapes against short texts. */
    static const char *const pats[] = {
        "a",
        "^a",
        "a$",
        "^a$",
        "^$",
        "",
        "a*",
        "^a*$",
        "a+b",
        "a?b",
        "^(ab|a)*c$",
        "(a|b)*abb",
        "x(a|)y",
        "x()y",
        "(a*)*b",
        "(a|a?)+b",
        "(a+)+b",
        "^.(x|a)*a*(b|a)*.$",
        "a{2}",
        "^a{2}$",
        "^a{2,}$",
        "^a{1,3}$",
        "^(ab){0,2}$",
        "^(a{1,2}){2}$",
        "a{0}b",
        "^[abc]+$",
        "^[^abc]+$",
        "^[]a]+$",
        "^[a-]+$",
        "^[-a]+$",
        "[[:digit:]]+",
        "^[[:alpha:]_][[:alnum:]_]*$",
        "^[[:space:]]*$",
        "[.]",
        "\\.",
        "a\\*",
        "\\(x\\)",
        "^(a|b|c)(d|e)$",
        "(^a|b$)",
        "a|^b|c$",
        "^.*$",
        ".",
        "a.c",
        "^a.*z$",
        "[{]",
        "a{",
        "a{x}",
        "(a)(b)(c)",
        "((a))",
        "a**",
        "a+?",
        "(a*)+$",
        "^(a?){3}a{3}$",
        "[a-c][x-z]",
        "{",
        "^{1}",
        "a{,2}",
    };
    static const char *const texts[] = {
        "",    "a",   "b",    "ab",  "aab",  "aaab", "abb",  "aabb", "ababc",  "abc", "ac", "c",
        "xy",  "xay", "xby",  "ba",  "aa",   "aaa",  "aaaa", "abab", "ababab", "]a",  "a-", "-",
        "123", "x1",  "_id9", "9id", " \t",  " x ",  ".",    "a.c",  "abc",    "axz", "a*", "(x)",
        "ad",  "be",  "cf",   "a{",  "a{x}", "{",    "bx",   "xb",   "az",     "ay",
    };
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++)
        for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++)
            same(pats[p], texts[t]);

    /* NUL bytes in the text: '.' does not match them, literals around them do. */
    CHECK(ours("a.b", "a\0b", 3) == 0);
    CHECK(ours("a[^x]b", "a\0b", 3) == 1);
    CHECK(ours("^a", "\0a", 2) == 0);
    CHECK(ours("b$", "b\0", 2) == 0);

    /* Refusals (limits, unsupported features) and syntax errors. */
    refused("(.*)(.*)\\1\\2b", "back-references are not allowed (their matching time is exponential)", 1);
    refused("\\w+", "escapes other than a backslash before punctuation are not supported", 1);
    refused("[[.a.]]",
            "collating elements and equivalence classes ([. .] [= =]) are not "
            "supported",
            1);
    refused("a{1,33}", "a counted repetition {m,n} above 32", 1);
    refused("a{1,30}a{1,30}a{1,30}a{1,30}a{1,30}a{1,30}a{1,30}a{1,30}a{1,30}",
            "counted repetitions adding up to more than 256", 1);
    refused("(((a{32}){32}){32})", "it expands to more than 4096 NFA states", 1);
    {
        char longpat[600];
        memset(longpat, 'a', sizeof longpat - 1);
        longpat[sizeof longpat - 1] = 0;
        refused(longpat, "longer than 512 bytes", 1);
    }
    refused("(unclosed", "unmatched (", 0);
    refused("a)", "unmatched )", 0);
    refused("*a", "a repetition with nothing to repeat", 0);
    refused("(|*)", "a repetition with nothing to repeat", 0);
    refused("[abc", "unterminated bracket expression [", 0);
    refused("[z-a]", "invalid range end in a bracket expression", 0);
    refused("[[:nope:]]", "unknown character class [:name:]", 0);
    refused("a{2,1}", "invalid counted repetition {m,n}", 0);
    refused("a{x}", "invalid counted repetition {m,n}", 0);
    refused("a\\", "a trailing backslash", 0);

    /* Patterns that make a backtracking matcher cubic or exponential stay linear.
     */
    linear("(a+)+b", 0, 0);
    linear("(a|a?)+b", 0, 0);
    linear("(ab|a)*c", 0, 0);
    linear("(a*)*b", 0, 0);
    linear("^(a|aa)*$", 'b', 0);
    linear("(a{1,30}){1,30}b", 0, 0);
    linear("^.(x|a)*a*(b|a)*.$", 0, 1);
    linear("(a|b|ab|ba)*c", 'c', 1);
    TEST_MAIN_END();
}
