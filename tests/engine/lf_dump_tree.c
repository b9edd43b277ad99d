/* Developer aid (not a test): print the tree-sitter S-expression of a file, or,
 * given a query file too, every raw match (text predicates not applied). */
#include <stdio.h>
#include <stdlib.h>

#include "lf_engine.h"
#include "lf_source.h"
#include "lf_tree.h"

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: lf_dump_tree FILE [QUERY_FILE]\n");
        return 2;
    }
    lf_lang lang = LF_LANG_PYTHON;
    lf_lang_from_path(argv[1], &lang);
    lf_source src;
    char *err = NULL;
    if (lf_source_load(argv[1], lang, &src, &err) != LF_LOAD_OK) {
        fprintf(stderr, "%s\n", err);
        free(err);
        return 2;
    }
    TSParser *p = ts_parser_new();
    ts_parser_set_language(p, lf_lang_grammar(lang));
    TSTree *t = ts_parser_parse_string(p, NULL, src.text, (uint32_t)src.len);
    if (argc == 3) {
        lf_source qs;
        if (lf_source_load(argv[2], lang, &qs, &err) != LF_LOAD_OK) {
            fprintf(stderr, "%s\n", err);
            free(err);
            return 2;
        }
        uint32_t off;
        TSQueryError qe;
        TSQuery *q = ts_query_new(lf_lang_grammar(lang), qs.text, (uint32_t)qs.len, &off, &qe);
        if (!q) {
            fprintf(stderr, "query error %d at offset %u\n", (int)qe, off);
            return 2;
        }
        TSQueryCursor *cur = ts_query_cursor_new();
        ts_query_cursor_exec(cur, q, ts_tree_root_node(t));
        TSQueryMatch m;
        while (ts_query_cursor_next_match(cur, &m)) {
            printf("match pattern %u\n", m.pattern_index);
            for (uint16_t i = 0; i < m.capture_count; i++) {
                uint32_t len;
                const char *name = ts_query_capture_name_for_id(q, m.captures[i].index, &len);
                TSPoint pt = ts_node_start_point(m.captures[i].node);
                uint32_t a = ts_node_start_byte(m.captures[i].node), b = ts_node_end_byte(m.captures[i].node);
                printf("  @%.*s %u:%u %.*s\n", (int)len, name, pt.row + 1, pt.column + 1, (int)(b - a > 60 ? 60 : b - a),
                       src.text + a);
            }
        }
        ts_query_cursor_delete(cur);
        ts_query_delete(q);
        lf_source_free(&qs);
    } else {
        char *s = ts_node_string(ts_tree_root_node(t));
        puts(s);
        free(s);
    }
    lf_tree_delete(t);
    ts_parser_delete(p);
    lf_source_free(&src);
    return 0;
}
