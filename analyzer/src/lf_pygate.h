/* lf_pygate: lexical questions the Python check gates (lf_check.h) ask of
 * a file before it is parsed.
 *
 * Each function reads text masked by lf_pymask (comments and string texts
 * blanked byte for byte) and answers for one position or one word. Answers
 * lean to "may be": a gate skips a file only when every use of its words is
 * sure to be something the check never reads. */
#ifndef LF_PYGATE_H
#define LF_PYGATE_H

#include <stddef.h>
#include <stdint.h>

#include "lf_check.h"

#define LF_PYGATE_NONE ((size_t)-1)

/* The file's text masked by lf_pymask, made once for all its gates and kept
 * in in->shared. m is NULL when the mask could not follow the text (then
 * every gate says "may be"); balanced: its brackets pair up; os_named: some
 * string literal's text is "os" or "shutil"; serial_named: "json" or
 * "pickle" (importlib.import_module names a module by a string). */
typedef struct lf_pygate_span {
    size_t at, len;
} lf_pygate_span;

typedef struct lf_pygate_mask {
    char *m;
    int balanced;
    int os_named;
    int serial_named;
    /* lock_module_named: some string literal's text is a lock module's name
     * (lf_pygate_lock_modules), alone or before a dot: `import_module("fcntl")` */
    int lock_module_named;
    /* answers shared by the gates that ask them (0: not asked yet, 1: no, 2: may be) */
    signed char holds_lock, removes;
    /* String literals whose text is a mode open() accepts ("a", "xb", "r+"),
     * in source order: their text (after the quote), where it starts and how long. */
    lf_pygate_span *modes;
    size_t n_modes;
} lf_pygate_mask;

const lf_pygate_mask *lf_pygate_masked(lf_gate_text *in);

/* The modules a Python lock comes from (LF101's check follows their calls,
 * classes and optional imports): fcntl, msvcrt, portalocker, win32file,
 * filelock, lockfile, fasteners. NULL-terminated. */
extern const char *const lf_pygate_lock_modules[];

/* The last byte before i that is not whitespace inside the logical line, or
 * LF_PYGATE_NONE; the first at or after i (n at the end). */
size_t lf_pygate_back(const char *m, size_t n, size_t i);
size_t lf_pygate_fwd(const char *m, size_t n, size_t i);

/* Do the brackets pair up? (The grammar's error recovery is anyone's guess
 * where they do not, so a gate that reads structure asks this first.) */
int lf_pygate_balanced(const char *m, size_t n);

/* The word of wl bytes at m + at stands alone: 1; is part of a longer name:
 * 0; has a non-ASCII neighbour (one name to Python): -1. */
int lf_pygate_word(const char *m, size_t n, size_t at, size_t wl);

/* Is the file a module of a package named after one of the modules (its
 * directory's name: json/tool.py)? There a relative import (`from . import
 * load`) is read as that module's own function (`json.load`, as
 * lf_pylock_callee_any reads it) with the module's name nowhere in the text,
 * so a gate that looks for the name says "may be". As for the check, no
 * path or a path without a directory names no package. */
int lf_pygate_in_package(const lf_gate_text *in, const char *const *modules);

/* May some name or string text of the raw text spell a lock as
 * lf_text_spells_lock reads it (lock/lck at a word's start, Lock or LOCK,
 * flock, filelock)? A superset: any Lock or LOCK, any lock or lck not
 * preceded by a letter or digit, or within a few bytes after a backslash (a
 * string's content may start after an escape: "\nlock"). */
int lf_pygate_may_spell_lock(const char *text, size_t n);

/* May the module use some path as a lock, as lf_pylock reads lock uses
 * (lf_pylock_is_lock)? Each use is spelled with one of a few words: an
 * exclusive create (O_EXCL, an "x" mode literal, mkdir, link, symlink,
 * hardlink_to, lockrt's drop-ins), an OS lock (flock, lockf, fcntl,
 * msvcrt.locking, portalocker.lock), a pid written in (getpid), a lock class
 * (FileLock, InterProcessLock, LockFile...), or a path the module names a
 * lock (lf_pygate_may_spell_lock). 0 only when none is there; 1 when the
 * mask cannot follow the text. LF301 and LF302 report nothing but locks. */
int lf_pygate_may_hold_lock(lf_gate_text *in);

/* May the module remove or replace a file by name, as lf_pylock reads
 * removals (lf_pylock_removal_call, a rename's destination)? Each is
 * os.remove, os.unlink, os.rmdir, os.removedirs or shutil.rmtree in a
 * spelling the model follows, a Path's unlink() or rmdir(), or a rename
 * (lf_pygate_may_rename); a module's own helper bottoms out in one of them.
 * Most files that say `remove` say it of a list, a set or a widget. So, on
 * the masked text, no: when it never says unlink, rmdir, rmtree or
 * removedirs, every `remove` is an attribute of a receiver whose root is not
 * os or shutil or a bare name, no alias of either module can exist, no
 * string names one, it is no module of a package named os or shutil, and no
 * `replace`, `rename` or `move` may be a rename. A bare `remove` is
 * os.remove only when an alias binds it (`from os import remove`, `rm =
 * os.remove`: hits of their own); otherwise it is a def's name, a parameter,
 * an import from elsewhere. Anything else is a hit. */
int lf_pygate_may_remove(lf_gate_text *in);

/* Is name[0, len) the keyword a rename's destination is passed by: `target`
 * (Path.replace, Path.rename) or `dst` (os.replace, os.rename, shutil.move)?
 * LF401's gate (on the text) and its check (on the tree) both ask this. */
int lf_pygate_rename_dest_keyword(const char *name, size_t len);

/* Is m[from, from + len) the word? A Python keyword? */
int lf_pygate_is(const char *m, size_t from, size_t len, const char *word);
int lf_pygate_keyword(const char *m, size_t from, size_t len);

/* The next use of word at or after *at that is not part of a longer ASCII
 * name: 1 where it stands alone, -1 next to a non-ASCII byte (maybe one name
 * to Python), with *at set to it; 0 when there is none. Loop with at++. */
int lf_pygate_next_use(const char *m, size_t n, const char *word, size_t *at);

/* Does one of the words (a NULL-terminated list) have a use (above)? */
int lf_pygate_says_any(const char *m, size_t n, const char *const *words);

/* As lf_pygate_back and lf_pygate_fwd, with every line end as whitespace:
 * inside brackets a line end separates nothing. */
size_t lf_pygate_back_any(const char *m, size_t i);
size_t lf_pygate_fwd_any(const char *m, size_t n, size_t i);

/* A byte of an ASCII name ([A-Za-z0-9_]); where the name that ends just
 * before m + end starts. */
int lf_pygate_ident_byte(unsigned char c);
/* A byte of a name as the grammar may read it: ASCII name bytes, and any
 * non-ASCII byte (a letter of the name, or U+00A0, which it reads as a blank). */
int lf_pygate_name_byte(unsigned char c);
size_t lf_pygate_name_start(const char *m, size_t end);

/* Is the word just before m + at, on the same logical line, this one? */
int lf_pygate_word_before(const char *m, size_t n, size_t at, const char *word);

/* Is there a '.' before the name at m + at, across line ends? Code that does
 * not parse (`os.` at a line's end) may be read as one attribute by the
 * grammar's recovery: a gate that trusts a bare name asks this first. */
int lf_pygate_dot_across_lines(const char *m, size_t at);

/* Does the name at m + at sit in a plain `import a, b.c` statement, without `as`? */
int lf_pygate_plain_import(const char *m, size_t n, size_t at);

/* May any of the modules (a NULL-terminated list) be bound to another name
 * than its own here: `import os as o`, `o = os`, `from os import x`? Every
 * use of the word must be `os.attr` or a plain import. */
int lf_pygate_module_aliased(const char *m, size_t n, const char *const *modules);

/* The receiver before the '.' at m[dot]: 1 when its root may be one of the
 * modules, or when it is no receiver that ends an expression; 0 for a name
 * chain with another root (`a.b.c`), a call, a subscript or a string. */
int lf_pygate_receiver_may_be(const char *m, size_t n, size_t dot, const char *const *modules);

/* The arguments of the call whose '(' is at m[open]: how many, or -1 when a
 * starred argument or an unclosed bracket leaves it open. */
long lf_pygate_call_args(const char *m, size_t n, size_t open);

/* May some `replace`, `rename` or `move` here rename a file: os.replace,
 * os.rename or shutil.move in any spelling the model follows, a bare
 * `replace(a, b)` or `rename(a, b)` (LF401's query takes any), a
 * one-argument method (Path.replace(dst)), a method taken as a value? No for
 * `s.replace("a", "b")` on a receiver that is no module, nor for a bare
 * `move`, a rename only when shutil.move is bound to it, which the caller
 * asks first (lf_pygate_module_aliased, and "os"/"shutil" strings). */
int lf_pygate_may_rename(const char *m, size_t n);

/* Is a string literal's text (t, n: between its quotes, escapes unread) a
 * mode open() accepts (one of r/w/x/a, at most one of b/t, at most one +)
 * containing c (first: starting with c)? lf_pylock_open_mode asks it of a
 * literal node; a gate asks it of the text before the parse. */
int lf_pygate_mode_text(const char *t, size_t n, char c, int first);

/* ---- a module's functions, read off the masked text ----
 *
 * The text cut into logical lines (a line ends at a line end outside brackets
 * and not after a backslash), each given the innermost `def` whose body holds
 * it: region 0 is the module's level (class bodies included), region k the
 * body of defs[k - 1]. A def's header line belongs to its own region and to
 * the enclosing one (`also`): its defaults and decorators run outside, a
 * one-line body inside. Only for text whose brackets pair up
 * (lf_pygate_balanced); the build fails (0) on anything it cannot follow. */
typedef struct lf_pygate_def {
    size_t name_at, name_len;   /* the def's name */
    int32_t parent;             /* the enclosing region */
    size_t class_at, class_len; /* an __init__ directly in a class: the class's name (calling the class runs it) */
} lf_pygate_def;

typedef struct lf_pygate_line {
    size_t start, end; /* [start, end) of the text */
    int32_t region;
    int32_t also;          /* a def's header: the enclosing region; else -1 */
    size_t bound_at, bound_len; /* a def's or class's header: the name it binds (no use of it); else len 0 */
} lf_pygate_line;

typedef struct lf_pygate_defs {
    lf_pygate_line *lines;
    size_t n_lines;
    lf_pygate_def *defs;
    size_t n_defs;
} lf_pygate_defs;

int lf_pygate_defs_build(const char *m, size_t n, lf_pygate_defs *out);
void lf_pygate_defs_free(lf_pygate_defs *d);
/* The logical line holding byte at (lines are in text order). */
const lf_pygate_line *lf_pygate_line_at(const lf_pygate_defs *d, size_t at);

#endif
