#include "lf_witness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lf_util.h"

static const char *const k_event_names[LF_WIT_EVENT_COUNT] = {
    "unlocked-entry", "read", "write", "append", "create", "lock", "judge",
    "probe", "misread", "remove", "rename", "open-temp", "resolve", "acquire-fails",
    "critical-section",
};

const char *lf_witness_event_name(lf_wit_event ev) {
    return (unsigned)ev < LF_WIT_EVENT_COUNT ? k_event_names[ev] : "step";
}

const char *lf_witness_process_name(unsigned process) {
    static const char *const names[] = {"A", "B", "C", "D"};
    return names[process < 4 ? process : 3];
}

lf_witness *lf_witness_new(const char *platform) {
    lf_witness *w = lf_xcalloc(1, sizeof *w);
    w->platform = lf_xstrdup(platform);
    return w;
}

/* vsnprintf into a malloc'd string (lf_xasprintf takes no va_list). */
static char *vformat(const char *fmt, va_list ap) {
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return lf_xstrdup("");
    char *s = lf_xcalloc((size_t)n + 1, 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

void lf_witness_step_at(lf_witness *w, unsigned process, lf_wit_event ev, TSNode at, const char *fmt, ...) {
    if (!w || ts_node_is_null(at))
        return;
    if (w->n_steps == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 8;
        w->steps = lf_xrealloc(w->steps, w->cap * sizeof *w->steps);
    }
    lf_witness_step *s = &w->steps[w->n_steps++];
    s->process = process;
    s->event = ev;
    s->start_byte = ts_node_start_byte(at);
    s->end_byte = ts_node_end_byte(at);
    s->line = s->col = s->end_line = s->end_col = 0;
    va_list ap;
    va_start(ap, fmt);
    s->text = vformat(fmt, ap);
    va_end(ap);
}

void lf_witness_set_outcome(lf_witness *w, const char *fmt, ...) {
    if (!w)
        return;
    free(w->outcome);
    va_list ap;
    va_start(ap, fmt);
    w->outcome = vformat(fmt, ap);
    va_end(ap);
}

void lf_witness_locate(lf_witness *w, const lf_source *src) {
    for (size_t i = 0; w && i < w->n_steps; i++) {
        lf_witness_step *s = &w->steps[i];
        lf_source_position(src, s->start_byte, &s->line, &s->col);
        lf_source_position(src, s->end_byte, &s->end_line, &s->end_col);
    }
}

unsigned lf_witness_processes(const lf_witness *w) {
    unsigned n = 0;
    for (size_t i = 0; w && i < w->n_steps; i++)
        if (w->steps[i].process + 1 > n)
            n = w->steps[i].process + 1;
    return n;
}

void lf_witness_free(lf_witness *w) {
    if (!w)
        return;
    for (size_t i = 0; i < w->n_steps; i++)
        free(w->steps[i].text);
    free(w->steps);
    free(w->platform);
    free(w->outcome);
    free(w);
}
