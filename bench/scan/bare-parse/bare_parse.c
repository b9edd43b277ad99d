/* bare-parse: the benchmark's parse baseline (bench/scan/run.sh builds it; never
 * installed, never a test). Reads a list of paths (one per line, from a file or
 * stdin) and, for each: open, one read into a buffer, one tree-sitter parse with
 * the grammar lockfix uses for that extension (lf_lang.c's table), free the tree.
 * Nothing else: no walk, no prefilter, no query. lockfix's no-op-rule row is
 * compared with this to see what lockfix adds on top of the parse.
 * Prints the files parsed, bytes and error-free trees, so a wrong grammar shows. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);

static const TSLanguage *grammar_for(const char *path) {
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return NULL;
    if (!strcmp(dot, ".py"))
        return tree_sitter_python();
    if (!strcmp(dot, ".ts") || !strcmp(dot, ".mts") || !strcmp(dot, ".cts") || !strcmp(dot, ".js") ||
        !strcmp(dot, ".mjs") || !strcmp(dot, ".cjs"))
        return tree_sitter_typescript();
    if (!strcmp(dot, ".tsx") || !strcmp(dot, ".jsx"))
        return tree_sitter_tsx();
    return NULL;
}

int main(int argc, char **argv) {
    FILE *list = argc > 1 && strcmp(argv[1], "-") != 0 ? fopen(argv[1], "r") : stdin;
    if (!list) {
        perror(argv[1]);
        return 2;
    }
    TSParser *parser = ts_parser_new();
    char *line = NULL, *buf = NULL;
    size_t line_cap = 0, buf_cap = 0;
    unsigned long files = 0, clean = 0, bytes = 0;
    ssize_t n;
    while ((n = getline(&line, &line_cap, list)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        const TSLanguage *lang = grammar_for(line);
        if (!lang)
            continue;
        int fd = open(line, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            perror(line);
            return 2;
        }
        if ((size_t)st.st_size + 1 > buf_cap) {
            buf_cap = (size_t)st.st_size + 1;
            buf = realloc(buf, buf_cap);
            if (!buf)
                return 2;
        }
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        close(fd);
        ts_parser_set_language(parser, lang);
        TSTree *tree = ts_parser_parse_string(parser, NULL, buf, (uint32_t)got);
        if (tree) {
            clean += !ts_node_has_error(ts_tree_root_node(tree));
            ts_tree_delete(tree);
        }
        files++;
        bytes += got;
    }
    printf("bare-parse: %lu files, %lu bytes, %lu parsed without errors\n", files, bytes, clean);
    ts_parser_delete(parser);
    free(buf);
    free(line);
    return 0;
}
