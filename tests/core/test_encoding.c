/* lf_encoding and what lf_source and lf_fix build on it: PEP 263 declarations
 * found where CPython finds them, names normalised as CPython does, decoding
 * and encoding, offsets back into the file, fixes an encoding cannot hold. */
#include <stdlib.h>
#include <unistd.h>

#include "lf_encoding.h"
#include "lf_finding.h"
#include "lf_fix.h"
#include "lf_source.h"
#include "lf_test.h"

/* The declared name in text, or "" when there is none; *line its line. */
static const char *decl(const char *text, unsigned *line) {
    static char name[LF_ENCODING_NAME_MAX];
    *line = 0;
    if (!lf_encoding_python_declaration(text, strlen(text), name, sizeof name, line))
        return "";
    return name;
}

static void test_declarations(void) {
    unsigned line;
    CHECK_STR(decl("# -*- coding: latin-1 -*-\nx = 1\n", &line), "latin-1");
    CHECK_INT(line, 1);
    /* Line 2 under a shebang, vim's spelling ("fileencoding=" holds "coding="). */
    CHECK_STR(decl("#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n", &line), "cp1252");
    CHECK_INT(line, 2);
    CHECK_STR(decl("\n# coding=utf8\n", &line), "utf8");
    CHECK_INT(line, 2);
    CHECK_STR(decl("  \f # note\n\t# encoding: koi8-r\n", &line), "koi8-r");
    CHECK_INT(line, 2);
    /* Line 2 does not count under a line with code; line 3 never counts. */
    CHECK_STR(decl("import os\n# coding: latin-1\n", &line), "");
    CHECK_STR(decl("# a\n# b\n# coding: latin-1\n", &line), "");
    /* Only a comment-only line declares; "coding" needs ':' or '=' and a name. */
    CHECK_STR(decl("x = 1  # coding: latin-1\n", &line), "");
    CHECK_STR(decl("# coding latin-1\n", &line), "");
    /* An empty name: CPython looks on along the line, then at line 2. */
    CHECK_STR(decl("# coding:  !\n# coding: cp1252\n", &line), "cp1252");
    CHECK_INT(line, 2);
    CHECK_STR(decl("# coding: x coding: y\n", &line), "x");
    /* The name is [A-Za-z0-9_.-]+; a lone CR ends a line; no final newline. */
    CHECK_STR(decl("# coding: iso_8859-15.x+y\n", &line), "iso_8859-15.x");
    CHECK_STR(decl("# x\r# coding: latin-1\r", &line), "latin-1");
    CHECK_INT(line, 2);
    CHECK_STR(decl("#coding:a", &line), "a");
    CHECK_STR(decl("#coding:", &line), "");
}

static void test_cpython_names(void) {
    CHECK_STR(lf_encoding_cpython_normal_name("UTF-8"), "utf-8");
    CHECK_STR(lf_encoding_cpython_normal_name("utf_8_sig"), "utf-8");
    CHECK_STR(lf_encoding_cpython_normal_name("Latin_1"), "iso-8859-1");
    CHECK_STR(lf_encoding_cpython_normal_name("ISO-8859-1"), "iso-8859-1");
    CHECK_STR(lf_encoding_cpython_normal_name("iso-latin-1-x"), "iso-8859-1");
    /* Only the first 12 characters are looked at, as in tokenizer.c. */
    CHECK_STR(lf_encoding_cpython_normal_name("latin-1-whatever-else"), "iso-8859-1");
    CHECK(lf_encoding_cpython_normal_name("utf8") == NULL);
    CHECK(lf_encoding_cpython_normal_name("latin1") == NULL);
    CHECK(lf_encoding_cpython_normal_name("cp1252") == NULL);
}

/* Decode text (NUL-terminated copy) as a file of lang; returns the status and
 * the UTF-8 in *out (malloc'd), the reason in *why. */
static lf_decode_status decode(lf_lang lang, const char *bytes, size_t len, lf_encoding *enc, char **out,
                               char **why) {
    char *buf = malloc(len + 1);
    memcpy(buf, bytes, len);
    buf[len] = '\0';
    char *text = NULL;
    size_t tlen = 0;
    *why = NULL;
    lf_decode_status st = lf_encoding_decode(buf, len, lang, enc, &text, &tlen, why);
    *out = NULL;
    if (st == LF_DECODE_OK)
        *out = text ? text : strndup(buf + enc->bom_len, len - enc->bom_len);
    free(buf);
    return st;
}

#define DECODE(lang, lit, enc, out, why) decode(lang, lit, sizeof lit - 1, enc, out, why)

static void test_decode(void) {
    lf_encoding enc;
    char *out, *why;
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: latin-1\nx = 'caf\xe9'\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "# coding: latin-1\nx = 'caf\xc3\xa9'\n");
    CHECK_INT(enc.kind, LF_ENC_ICONV);
    CHECK_STR(enc.iconv, "ISO-8859-1");
    CHECK_INT(enc.decl_line, 1);
    free(out);
    /* Bytes that happen to be valid UTF-8 are still latin-1 in a latin-1 file. */
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: l1\n# \xc3\xa9\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "# coding: l1\n# \xc3\x83\xc2\xa9\n");
    free(out);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: windows-1252\n# \x80 \x97\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "# coding: windows-1252\n# \xe2\x82\xac \xe2\x80\x94\n");
    CHECK_STR(enc.iconv, "CP1252");
    free(out);
    /* A name only iconv knows. */
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: koi8-r\n# \xc1\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "# coding: koi8-r\n# \xd0\xb0\n");
    free(out);
    /* UTF-8 under another spelling: not transcoded. */
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: utf8\n# \xc3\xa9\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_INT(enc.kind, LF_ENC_UTF8);
    free(out);
    /* A BOM: accepted alone or under "utf-8"; CPython refuses "utf8" with it. */
    CHECK_INT(DECODE(LF_LANG_PYTHON, "\xef\xbb\xbf# coding: utf-8\nx = 1\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_INT(enc.bom_len, 3);
    CHECK_STR(out, "# coding: utf-8\nx = 1\n");
    free(out);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "\xef\xbb\xbf# coding: utf8\n", &enc, &out, &why), LF_DECODE_BAD_ENCODING);
    CHECK_STR(why, "UTF-8 byte-order mark, but line 1 declares encoding 'utf8' (Python rejects the file: encoding "
                   "problem with BOM)");
    free(why);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: ascii\n\nx = '\xe9'\n", &enc, &out, &why), LF_DECODE_BAD_ENCODING);
    CHECK_STR(why, "line 3: byte 0xE9 (byte offset 22) is not valid ascii, the encoding line 1 declares");
    free(why);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: no-such-codec\n", &enc, &out, &why), LF_DECODE_BAD_ENCODING);
    CHECK_STR(why, "line 1 declares encoding 'no-such-codec', which lockfix does not know");
    free(why);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "# coding: latin-1\nx\0", &enc, &out, &why), LF_DECODE_BINARY);
    CHECK_STR(why, "binary file (NUL byte)");
    free(why);
    /* TS/JS: UTF-16 behind its BOM; Python refuses it. */
    CHECK_INT(DECODE(LF_LANG_TYPESCRIPT, "\xff\xfe" "a\0\xe9\0\n\0", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "a\xc3\xa9\n");
    CHECK_INT(enc.kind, LF_ENC_UTF16);
    CHECK_STR(enc.name, "UTF-16LE");
    free(out);
    CHECK_INT(DECODE(LF_LANG_TSX, "\xfe\xff\0a\xd8\x3d\xde\x00", &enc, &out, &why), LF_DECODE_OK);
    CHECK_STR(out, "a\xf0\x9f\x98\x80");
    free(out);
    CHECK_INT(DECODE(LF_LANG_TYPESCRIPT, "\xff\xfe" "a\0\n\0\0\xd8", &enc, &out, &why), LF_DECODE_BAD_ENCODING);
    CHECK_STR(why, "line 2: ends inside a UTF-16LE character (byte offset 6)");
    free(why);
    CHECK_INT(DECODE(LF_LANG_TYPESCRIPT, "\xff\xfe" "a\0\0\0", &enc, &out, &why), LF_DECODE_BINARY);
    free(why);
    CHECK_INT(DECODE(LF_LANG_PYTHON, "\xff\xfe#\0", &enc, &out, &why), LF_DECODE_BAD_ENCODING);
    free(why);
    /* A coding comment means nothing in TS/JS. */
    CHECK_INT(DECODE(LF_LANG_TYPESCRIPT, "// coding: latin-1\n", &enc, &out, &why), LF_DECODE_OK);
    CHECK_INT(enc.kind, LF_ENC_UTF8);
    free(out);
}

static void test_encode(void) {
    lf_encoding enc = {.kind = LF_ENC_ICONV, .name = "latin-1", .iconv = "ISO-8859-1"};
    lf_strbuf sb;
    lf_strbuf_init(&sb);
    size_t bad = 99;
    CHECK(lf_encoding_encode(&enc, "caf\xc3\xa9", 5, &sb, &bad));
    CHECK_INT(sb.len, 4);
    CHECK(memcmp(sb.data, "caf\xe9", 4) == 0);
    sb.len = 0;
    /* U+2192 is not in latin-1: refused at its offset, nothing approximated. */
    CHECK(!lf_encoding_encode(&enc, "ab\xe2\x86\x92", 5, &sb, &bad));
    CHECK_INT(bad, 2);
    lf_strbuf_free(&sb);
}

/* A latin-1 file on disk: positions in code points, offsets back in bytes, and
 * a fix whose text latin-1 cannot hold. */
static void test_source_and_fix(void) {
    char path[] = "/tmp/lf_test_encoding_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    static const char bytes[] = "# coding: latin-1\n# \xe9\xe9\xe9\nx = '\xe9' + y\n";
    CHECK(write(fd, bytes, sizeof bytes - 1) == (ssize_t)(sizeof bytes - 1));
    close(fd);
    lf_source src;
    char *err = NULL;
    CHECK_INT(lf_source_load(path, LF_LANG_PYTHON, &src, &err), LF_LOAD_OK);
    size_t blen;
    const char *b = lf_source_bytes(&src, &blen);
    CHECK_INT(blen, sizeof bytes - 1);
    CHECK(memcmp(b, bytes, blen) == 0);
    /* "y" on line 3: byte 38 of the text, byte 34 of the file, column 11. */
    const char *y = strchr(src.text, 'y');
    uint32_t off = (uint32_t)(y - src.text), line, col;
    CHECK_INT(off, 38);
    lf_source_position(&src, off, &line, &col);
    CHECK_INT(line, 3);
    CHECK_INT(col, 11);
    CHECK_INT(lf_source_file_offset(&src, off), 34);
    CHECK_INT(lf_source_file_offset(&src, (uint32_t)src.len), blen);

    lf_fix fix = {0};
    lf_fix_add_edit(&fix, off, off + 1, "z");
    CHECK(lf_fix_unwritable(&src, &fix) == NULL);
    lf_fix_add_edit(&fix, 0, 0, "# \xe2\x86\x92\n");
    char *why = lf_fix_unwritable(&src, &fix);
    CHECK_STR(why, "its new text has '\xe2\x86\x92', which latin-1 (the file's encoding) cannot hold");
    free(why);
    for (size_t i = 0; i < fix.n_edits; i++)
        free(fix.edits[i].text);
    free(fix.edits);
    lf_source_free(&src);
    unlink(path);
}

int main(void) {
    test_declarations();
    test_cpython_names();
    test_decode();
    test_encode();
    test_source_and_fix();
    TEST_MAIN_END();
}
