/* lf_source: one source file in memory, validated, with a line index. */
#ifndef LF_SOURCE_H
#define LF_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lf_encoding.h"
#include "lf_lang.h"

typedef struct lf_source {
    char *path;          /* as given / as walked, used in reports ("fixtures/a/lib/state.py") */
    char *text;          /* file content as UTF-8 (decoded from the file's encoding, without its
                            byte-order mark: lf_encoding.h), NUL-terminated (content has no NUL:
                            binary files are refused), with every lone "\r" line ending read as
                            "\n" (the grammars end lines at "\n" only; Python and JS also end them
                            at a lone CR). Lines are the file's lines. */
    size_t len;
    char *raw;           /* that UTF-8 with the file's lone CRs when it has some, else NULL: same
                            length and offsets as text; edits are applied to lf_source_disk() */
    lf_encoding enc;     /* how the file encodes that text (kind LF_ENC_UTF8, no BOM: the bytes are
                            lf_source_disk() itself) */
    char *bytes;         /* the bytes on disk when they are not lf_source_disk() (a byte-order mark,
                            another encoding), else NULL: what fixes are diffed against and what
                            "unchanged since it was read" compares (lf_source_bytes) */
    size_t bytes_len;
    lf_lang lang;
    uint32_t *line_starts; /* byte offset of the start of each line; line_starts[0] == 0. Built on
                              first use: read them through lf_source_n_lines / lf_source_line_start */
    size_t n_lines;
    /* What was read, so --apply can refuse a file changed since (size, mtime, dev, ino). */
    uint64_t dev, ino, size;
    int64_t mtime_ns;
    mode_t mode;
} lf_source;

typedef enum lf_load_status {
    LF_LOAD_OK = 0,
    LF_LOAD_IO_ERROR,     /* unreadable; message in *err */
    LF_LOAD_BINARY,       /* contains NUL bytes */
    LF_LOAD_BAD_UTF8,     /* invalid UTF-8 (undeclared, or declared UTF-8) */
    LF_LOAD_BAD_ENCODING, /* an encoding lockfix cannot read, or bytes it does not decode */
    LF_LOAD_NOT_REGULAR,  /* FIFO, device, socket, directory: never opened for reading */
    LF_LOAD_TOO_LARGE
} lf_load_status;

/* Read path (O_NOFOLLOW|O_NONBLOCK then fstat: never blocks on a FIFO).
 * On failure returns the status and sets *err to a malloc'd message. */
lf_load_status lf_source_load(const char *path, lf_lang lang, lf_source *out, char **err);
/* Build from memory (tests, rule test cases, re-parse after a fix). Copies text. */
void lf_source_from_text(lf_source *out, const char *path, lf_lang lang, const char *text, size_t len);
void lf_source_free(lf_source *src);
/* How many lines the text has (a text without '\n' has one), and the byte
 * offset where line index (0-based) starts (src->len past the last line). */
size_t lf_source_n_lines(const lf_source *src);
uint32_t lf_source_line_start(const lf_source *src, size_t index);
/* Offset of the first NUL or invalid UTF-8 byte, len when none: text that
 * lf_source_load would refuse (the fuzz targets hold from_text to the same rule). */
size_t lf_source_first_bad_byte(const char *text, size_t len);

/* The UTF-8 text with the file's own line endings (raw, or text when they are
 * the same); len is src->len. For a UTF-8 file without a BOM, the bytes on disk. */
const char *lf_source_disk(const lf_source *src);
/* The bytes on disk, exactly as read; *len receives their length. */
const char *lf_source_bytes(const lf_source *src, size_t *len);
/* Offset in the bytes on disk of text offset `off` (the same for a UTF-8 file
 * without a BOM; past the BOM and through the encoding otherwise). */
uint32_t lf_source_file_offset(const lf_source *src, uint32_t off);
/* The file's line ending, from its first line: "\n", "\r\n" or "\r". */
const char *lf_source_eol(const lf_source *src);

/* 1-based line and 1-based column (in UTF-8 code points) of a byte offset. */
void lf_source_position(const lf_source *src, uint32_t byte, uint32_t *line, uint32_t *col);
/* Text of a 1-based line, without its newline. */
const char *lf_source_line(const lf_source *src, uint32_t line, size_t *len);

#endif
