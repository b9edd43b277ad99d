/* What both semantic-model tests need around the model under test: a snippet
 * parsed as a source file, and a way to point at one of its nodes. */
#ifndef SEM_FIXTURE_H
#define SEM_FIXTURE_H

#include <string.h>

#include "lf_lang.h"
#include "lf_source.h"
#include "lf_tree.h"

typedef struct sem_fixture {
    lf_source src;
    TSParser *parser;
    TSTree *tree;
} sem_fixture;

static inline void sem_fixture_parse(sem_fixture *f, const char *text, const char *name, lf_lang lang) {
    lf_source_from_text(&f->src, name, lang, text, strlen(text));
    f->parser = ts_parser_new();
    ts_parser_set_language(f->parser, lf_lang_grammar(lang));
    f->tree = ts_parser_parse_string(f->parser, NULL, f->src.text, (uint32_t)f->src.len);
}

static inline void sem_fixture_free(sem_fixture *f) {
    lf_tree_delete(f->tree);
    ts_parser_delete(f->parser);
    lf_source_free(&f->src);
}

typedef struct sem_finder {
    const lf_source *src;
    const char *type;
    const char *text;
    int nth;
    TSNode found;
} sem_finder;

static inline lf_walk_action sem_finder_visit(TSNode n, void *ud) {
    sem_finder *f = ud;
    if (strcmp(ts_node_type(n), f->type) == 0 && (!f->text || lf_tree_text_eq(f->src, n, f->text)) &&
        f->nth-- == 0) {
        f->found = n;
        return LF_WALK_STOP;
    }
    return LF_WALK_CONTINUE;
}

/* The nth (0-based) node of `type` whose text is `text` (NULL: any). */
static inline TSNode sem_fixture_find(const sem_fixture *fx, const char *type, const char *text, int nth) {
    sem_finder f;
    memset(&f, 0, sizeof f);
    f.src = &fx->src;
    f.type = type;
    f.text = text;
    f.nth = nth;
    lf_tree_walk(ts_tree_root_node(fx->tree), sem_finder_visit, &f);
    return f.found;
}

static inline int streq(const char *a, const char *b) {
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

#endif
