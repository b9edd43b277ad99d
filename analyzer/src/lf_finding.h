/* lf_finding: what a rule reports, and the fix it may offer. */
#ifndef LF_FINDING_H
#define LF_FINDING_H

#include <stddef.h>
#include <stdint.h>

typedef enum lf_severity {
    LF_SEV_NONE = 0, /* "off" in config */
    LF_SEV_INFO = 1,
    LF_SEV_WARNING = 2,
    LF_SEV_ERROR = 3
} lf_severity;

const char *lf_severity_name(lf_severity s);          /* "info" "warning" "error" */
int lf_severity_parse(const char *name, lf_severity *out); /* 1 ok, 0 unknown; accepts "off" */

/* Replace bytes [start, end) of the source with `text` (pure insert when start == end). */
typedef struct lf_edit {
    uint32_t start;
    uint32_t end;
    char *text;
    unsigned flags; /* LF_EDIT_* */
} lf_edit;

/* The edit inserts whole import statements at a line start. Imports commute:
 * several such insertions at one point (from different fixes) are all applied,
 * in byte order of their text, where other insertions at one point conflict. */
#define LF_EDIT_IMPORT 1u

/* A new file created alongside the fixed file (e.g. a vendored runtime binding). */
typedef struct lf_new_file {
    char *path;    /* relative to the fixed file's directory */
    char *content;
} lf_new_file;

typedef struct lf_fix {
    char *title;      /* one line: "use a unique temp name (tempfile.mkstemp)" */
    lf_edit *edits;
    size_t n_edits;
    lf_new_file *new_files;
    size_t n_new_files;
    int unsafe;       /* unsafe though its rule's fixes are safe: LF302's protocol swap offered for
                         an LF301/LF303 finding inside the protocol it replaces (--unsafe-fixes only) */
} lf_fix;

typedef struct lf_finding {
    const struct lf_rule *rule;
    const char *path;           /* borrowed from the lf_source */
    uint32_t start_byte, end_byte;
    uint32_t line, col;         /* 1-based; col counts UTF-8 code points */
    uint32_t end_line, end_col;
    lf_severity severity;       /* after config overrides */
    char *message;              /* rendered */
    lf_fix *fix;                /* NULL when no fix is offered */
    char *no_fix_reason;        /* set when the rule has fixes but this site got none */
    /* Identity across line moves and unrelated edits (lf_fingerprint.h): the
     * hash, then "<hash>:<occurrence>" once the file's findings are sorted. */
    uint64_t fingerprint_hash;
    char fingerprint[32];
    /* How two or three processes running this code lose data (lf_witness.h);
     * NULL when the check built none. Never part of the fingerprint. */
    struct lf_witness *witness;
} lf_finding;

void lf_fix_free(lf_fix *fix);
void lf_finding_free_contents(lf_finding *f);
/* Convenience for fix generators. */
void lf_fix_add_edit(lf_fix *fix, uint32_t start, uint32_t end, const char *text);
/* An LF_EDIT_IMPORT insertion of `text` (whole import lines) at line start `at`. */
void lf_fix_add_import(lf_fix *fix, uint32_t at, const char *text);

#endif
