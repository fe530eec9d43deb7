// Shared by the libFuzzer targets of the C glue (see scripts/fuzz). Not part of the package.
#ifndef HSAX_FUZZ_COMMON_H
#define HSAX_FUZZ_COMMON_H

#include "CHealthSAX.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The attribute rewriter's switch (CHealthRewrite.c), weak so that the targets also
   build on a glue without the rewriter (then only glue_rewrite_differential cannot run). Modes:
   0 off, 1 tokens padded to keep columns (the default), 2 short tokens (the parallel reader's
   workers). */
int hsax_parser_set_attribute_rewriting(hsax_parser *parser, int mode);
#pragma weak hsax_parser_set_attribute_rewriting

static inline void set_rewriting(hsax_parser *parser, int mode) {
    if (!hsax_parser_set_attribute_rewriting) {
        if (mode == 1) return; /* a glue without the switch: its default */
        abort();
    }
    if (hsax_parser_set_attribute_rewriting(parser, mode) != HSAX_OK) abort();
}

/* An event log: every start and end tag with everything the glue hands to Swift. */
typedef struct {
    uint8_t *bytes;
    size_t len, cap;
    hsax_parser *parser;
    int stop_after;   /* hsax_parser_stop after this many start tags (0: never) */
    int rewrite_off;  /* feed_all: turn the attribute-value rewriter off (it is on by default) */
    int short_tokens; /* feed_all: the rewriter's tokens without padding (mode 2) */
    int starts;
} event_log;

static void log_put(event_log *log, const void *p, size_t n) {
    if (log->len + n > log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 4096;
        while (cap < log->len + n) cap *= 2;
        log->bytes = realloc(log->bytes, cap);
        if (!log->bytes) abort();
        log->cap = cap;
    }
    memcpy(log->bytes + log->len, p, n);
    log->len += n;
}

/* The hsax_piece and length of every piece a splitter handed on, in order. */
typedef struct {
    hsax_piece *infos;
    size_t *lengths;
    size_t count, cap;
} piece_infos;

static inline void piece_infos_put(piece_infos *l, const hsax_piece *piece, size_t n) {
    if (l->count == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->infos = realloc(l->infos, sizeof(hsax_piece) * l->cap);
        l->lengths = realloc(l->lengths, sizeof(size_t) * l->cap);
        if (!l->infos || !l->lengths) abort();
    }
    l->infos[l->count] = *piece;
    l->lengths[l->count++] = n;
}

static inline void piece_infos_free(piece_infos *l) {
    free(l->infos);
    free(l->lengths);
}

/* Logs a start tag: reads every byte the glue hands over (ASan checks the ranges) and interns
   the strings the Swift reader interns, through the same slots. The segment is not logged (it
   differs between a serial and a parallel parse by design). */
static void log_start(event_log *log, const hsax_start *s) {
    if (s->element < 0 || s->element >= HSAX_EL_COUNT) abort();
    if (s->depth < 0 || s->line < 0 || s->unknown_attributes < 0 || s->name == NULL) abort();
    uint8_t tag = 'S';
    log_put(log, &tag, 1);
    log_put(log, &s->element, sizeof s->element);
    log_put(log, &s->depth, sizeof s->depth);
    log_put(log, &s->line, sizeof s->line);
    log_put(log, &s->unknown_attributes, sizeof s->unknown_attributes);
    log_put(log, &s->present, sizeof s->present);
    log_put(log, s->name, strlen(s->name) + 1);
    for (int a = 0; a < HSAX_A_COUNT; a++) {
        if (!(s->present >> a & 1)) continue;
        hsax_value v = s->attributes[a];
        if (v.length < 0 || (v.length > 0 && v.bytes == NULL)) abort();
        log_put(log, &v.length, sizeof v.length);
        if (v.length > 0) log_put(log, v.bytes, (size_t)v.length);
        int32_t is_new = 0;
        int32_t slot = a == HSAX_A_TYPE ? 0 : a == HSAX_A_SOURCE_NAME ? 1 : a == HSAX_A_UNIT ? 2 : 7;
        int32_t id = hsax_intern_cached(log->parser, slot, v.bytes, v.length, &is_new);
        if (id < 0) abort();
        /* A name over the cap is interned cut (start and hash), so only the cut flag is checked. */
        if (v.length > HSAX_NAME_CAP ? !(is_new & 2) : hsax_intern(log->parser, v.bytes, v.length, NULL) != id)
            abort();
    }
}

static void on_start(void *context, const hsax_start *s) {
    event_log *log = context;
    if (s->segment != 0) abort(); /* no line map: every tag is in segment 0 */
    log_start(log, s);
    if (log->stop_after && ++log->starts == log->stop_after) hsax_parser_stop(log->parser);
}

static void log_end(event_log *log, int32_t element, int32_t depth) {
    if (element < 0 || element >= HSAX_EL_COUNT || depth < 0) abort();
    uint8_t tag = 'E';
    log_put(log, &tag, 1);
    log_put(log, &element, sizeof element);
    log_put(log, &depth, sizeof depth);
}

static void on_end(void *context, int32_t element, int32_t depth) { log_end(context, element, depth); }

/* Feeds `data` in chunks of `chunk` bytes (the Swift reader's fixed-size reads), then the
   final empty feed, as ExportReader.parse does. Returns the last result code. */
static inline int feed_all(event_log *log, const uint8_t *data, size_t size, size_t chunk) {
    log->parser = hsax_parser_create(log, on_start, on_end);
    if (!log->parser) abort();
    if (log->rewrite_off) set_rewriting(log->parser, 0);
    else if (log->short_tokens) set_rewriting(log->parser, 2);
    int rc = HSAX_OK;
    size_t i = 0;
    while (i < size) {
        size_t n = size - i < chunk ? size - i : chunk;
        rc = hsax_parser_feed(log->parser, data + i, n, 0);
        i += n;
        if (rc != HSAX_OK) break;
    }
    if (rc == HSAX_OK) rc = hsax_parser_feed(log->parser, NULL, 0, 1);
    if (rc == HSAX_ERR_XML) {
        const char *m = hsax_parser_error_message(log->parser);
        if (m == NULL || strlen(m) >= 512) abort();
        (void)hsax_parser_error_line(log->parser);
    }
    /* the counters Swift reads after the parse */
    int64_t removed = hsax_parser_removed_control_characters(log->parser);
    int32_t version = hsax_parser_export_version(log->parser);
    int dropped = hsax_parser_dropped_doctype(log->parser);
    if (removed < 0 || version < -1 || version > 100000) abort();
    uint8_t tag = 'Z';
    log_put(log, &tag, 1);
    log_put(log, &version, sizeof version);
    log_put(log, &dropped, sizeof dropped);
    return rc;
}

/* 1 when the XML declaration (looked for in the first 1 KiB) names an encoding other than UTF-8,
   which libxml2 converts through iconv (finding F2 of the issue-10 fuzzing note: there the
   outcome depends on libxml2's chunk boundaries). Targets built with -DFUZZ_SKIP_ICONV skip such
   inputs, to look past that known finding. */
static inline int declares_other_encoding(const uint8_t *d, size_t n) {
    static const char key[] = "encoding";
    if (n > 1024) n = 1024;
    for (size_t i = 0; i + 8 <= n; i++) {
        if (memcmp(d + i, key, 8) != 0) continue;
        size_t j = i + 8;
        while (j < n && (d[j] == ' ' || d[j] == '\t' || d[j] == '\r' || d[j] == '\n' || d[j] == '=')) j++;
        if (j >= n || (d[j] != '"' && d[j] != '\'')) return 1;
        uint8_t q = d[j++];
        size_t s = j;
        while (j < n && d[j] != q) j++;
        if (j - s != 5) return 1;
        const char *u = "utf-8";
        for (size_t k = 0; k < 5; k++) {
            uint8_t c = d[s + k] >= 'A' && d[s + k] <= 'Z' ? (uint8_t)(d[s + k] + 32) : d[s + k];
            if (c != (uint8_t)u[k]) return 1;
        }
    }
    return 0;
}

/* The chunk size an input chooses with its first byte: 1 to 64 bytes, or 512 KiB (the
   reader's default), so that every boundary position is tried. */
static size_t chosen_chunk(uint8_t b) {
    return b >= 0xC0 ? 512 * 1024 : (size_t)(b & 63) + 1;
}

#endif
