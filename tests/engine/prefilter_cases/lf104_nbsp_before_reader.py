"""A reader spelled after U+00A0 (NO-BREAK SPACE), which tree-sitter takes as
whitespace: a `\\b` prefilter literal must not read the byte before the
name as part of an identifier."""


def bump(key):
    count = read_state(key)
    count += 1
    write_state(key, count)
