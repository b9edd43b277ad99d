/* lf_fingerprint: an identity for a finding that survives line moves and
 * unrelated edits, shared by `scan --baseline` and SARIF's partialFingerprints.
 *
 * The hash covers the rule id, the path (as reported), the qualified name of
 * the enclosing function ("Store.update", "" at module level) and the flagged
 * node's tokens joined by one space, comments left out: moving the code,
 * re-indenting it, editing a comment or anything outside the flagged node
 * leaves it unchanged; renaming the function or editing the flagged code
 * changes it. Identical findings of one file are told apart by an occurrence
 * counter in report order: "0123456789abcdef:2" is the second.
 */
#ifndef LF_FINGERPRINT_H
#define LF_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "lf_finding.h"
#include "lf_source.h"

/* The SARIF partialFingerprints key the string is published under. */
#define LF_FINGERPRINT_SARIF_KEY "lockfixFingerprint/v1"

/* Hash of the finding of rule_id at node `at` of src (tree still alive). */
uint64_t lf_fingerprint_node(const lf_source *src, TSNode at, const char *rule_id);

/* Qualified name of the function enclosing `at` ("" at module level), malloc'd. */
char *lf_fingerprint_scope(const lf_source *src, TSNode at);

/* Set findings[i].fingerprint ("<hash>:<occurrence>") from their hashes, for
 * one file's findings in report order. */
void lf_fingerprint_number(lf_finding *findings, size_t n);

#endif
