// Shared by the splitter's libFuzzer targets (glue_split, glue_split_differential; see
// scripts/fuzz). Not part of the package.
//
// A single-threaded replay of ExportReader.parseParallel (Sources/HealthExport/ParallelReader.swift):
// raw chunks go to one hsax_splitter (the pre-filter in sink mode, then the scanner that cuts
// segments); each segment is handed, as the splitter emits its pieces, to one of 1-4 workers
// (the input chooses which), and a worker does what ParallelWorker.work does: before its first
// segment it registers the map (1, 1, -1) and parses the prefix; before each segment it feeds
// "\n" and registers (stream line, the piece's first file line, segment); it feeds each piece in
// chunks of its feed size through hsax_parser_feed_filtered; at the end it feeds
// "\n</HealthData>" unless it parsed the final piece, then the last (empty) feed. The threads'
// timing only decides which worker gets which segment, which the input chooses here.
//
// Input layout: 5 header bytes, then the file.
//   [0] chunk size of the raw reads fed to the splitter (chosen_chunk)
//   [1] segment size: below 0x80, 1-128 bytes (many segments); from 0x80, the file's length
//       divided by 1-4 (about 1-4 segments)
//   [2] bits 0-1: workers - 1 (1-4); the rest: target-specific (glue_split: a stop)
//   [3] the workers' feed size (chosen_chunk, at most 256 KiB as in ParallelRun.feedSize)
//   [4] seed of the worker assignment; bit 7 set: the raw bytes are read into the splitter's
//       input region (hsax_splitter_input / hsax_splitter_feed_input with `max` the chunk size,
//       as ParallelReader reads them) instead of fed with hsax_splitter_feed, and with bit 6 set
//       too, each read fills only half the region (a short read)
#ifndef HSAX_FUZZ_SPLIT_COMMON_H
#define HSAX_FUZZ_SPLIT_COMMON_H

#include "glue_common.h"

#include <stdio.h>

#define SPLIT_HEADER 5
#define SPLIT_MAX_WORKERS 4

/* An event's place in a worker's log. */
typedef struct {
    int32_t segment; /* -1: the root's start or end tag (the prefix, or the document's end) */
    size_t begin, end;
} event_span;

typedef struct split_run split_run;

typedef struct {
    split_run *run;
    int index;
    hsax_parser *parser;
    event_log log;
    event_span *spans;
    size_t span_count, span_cap;
    int32_t *open_segments; /* per depth: the segment of the open element */
    int32_t open_cap;
    int32_t last_segment;
    int started, saw_final, failed;
    int64_t stream_line;
} split_worker;

struct split_run {
    const uint8_t *data; /* the file */
    size_t size;
    int64_t file_newlines;
    hsax_splitter *splitter;
    size_t segment_size, piece_limit, feed_size;
    int workers;
    split_worker w[SPLIT_MAX_WORKERS];
    uint32_t rng;

    uint8_t *prefix;
    size_t prefix_len;
    hsax_piece prefix_info;
    int have_prefix;

    int32_t *segment_worker; /* per segment */
    int32_t segments, segment_cap;
    int current;
    int split_rc; /* the splitter's result */
    int dispatched, parse_failed, stopped_by_piece;
    int pieces, stop_at_piece; /* glue_split: the piece callback stops after this many (0: never) */
    int stop_after_starts;     /* glue_split: a worker stops after this many start tags (0: never) */
    int in_place, short_reads; /* header byte 4, bits 7 and 6 */
    size_t *reads;             /* in place: the bytes of each read, in order */
    size_t read_count, read_cap;
    int rewrite_off;           /* the workers' attribute-value rewriter is off (set before split_setup);
                                  else it makes short tokens, as in ExportReader.parseParallel */

    /* piece invariants */
    int64_t newlines_so_far;
    int expect_start, saw_final_piece;
    event_log all; /* every piece's bytes, concatenated (log_put) */
    piece_infos handed; /* every piece's hsax_piece and length, in order */
};

static void split_fail(const char *what) {
    fprintf(stderr, "split target: %s\n", what);
    abort();
}

static int64_t newlines_in(const uint8_t *b, size_t n) {
    int64_t c = 0;
    for (size_t i = 0; i < n; i++) c += b[i] == '\n';
    return c;
}

static uint32_t split_next_random(split_run *r) {
    uint32_t x = r->rng ? r->rng : 0x9E3779B9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->rng = x;
    return x;
}

static void worker_on_start(void *context, const hsax_start *s) {
    split_worker *w = context;
    split_run *r = w->run;
    if (s->line < 1 || s->line > r->file_newlines + 1) split_fail("a start tag's mapped line is outside the file");
    if (s->depth == 0) {
        if (s->segment != -1) split_fail("the root's start tag is not in the prefix (segment -1)");
    } else {
        if (s->segment < 0 || s->segment >= r->segments) split_fail("a child's segment was never handed out");
        if (r->segment_worker[s->segment] != w->index) split_fail("a child's segment belongs to another worker");
        if (s->segment < w->last_segment) split_fail("a worker's segments go backwards");
        w->last_segment = s->segment;
    }
    (void)hsax_parser_current_line(w->parser);
    if (s->depth >= w->open_cap) {
        int32_t cap = w->open_cap ? w->open_cap * 2 : 64;
        while (cap <= s->depth) cap *= 2;
        w->open_segments = realloc(w->open_segments, sizeof(int32_t) * (size_t)cap);
        if (!w->open_segments) abort();
        w->open_cap = cap;
    }
    w->open_segments[s->depth] = s->depth == 0 ? -1 : s->segment;
    if (w->span_count == w->span_cap) {
        w->span_cap = w->span_cap ? w->span_cap * 2 : 64;
        w->spans = realloc(w->spans, sizeof(event_span) * w->span_cap);
        if (!w->spans) abort();
    }
    event_span *sp = &w->spans[w->span_count++];
    sp->segment = w->open_segments[s->depth];
    sp->begin = w->log.len;
    log_start(&w->log, s);
    sp->end = w->log.len;
    if (r->stop_after_starts && ++w->log.starts == r->stop_after_starts) hsax_parser_stop(w->parser);
}

static void worker_on_end(void *context, int32_t element, int32_t depth) {
    split_worker *w = context;
    if (depth < 0 || depth >= w->open_cap) split_fail("an end tag at a depth never opened");
    if (w->span_count == w->span_cap) {
        w->span_cap = w->span_cap ? w->span_cap * 2 : 64;
        w->spans = realloc(w->spans, sizeof(event_span) * w->span_cap);
        if (!w->spans) abort();
    }
    event_span *sp = &w->spans[w->span_count++];
    sp->segment = w->open_segments[depth];
    sp->begin = w->log.len;
    log_end(&w->log, element, depth);
    sp->end = w->log.len;
}

/* ParallelWorker.feed: `n` bytes in chunks of the feed size. */
static int worker_feed(split_worker *w, const uint8_t *bytes, size_t n) {
    size_t off = 0;
    while (off < n) {
        size_t k = n - off < w->run->feed_size ? n - off : w->run->feed_size;
        if (hsax_parser_feed_filtered(w->parser, bytes + off, k, 0) != HSAX_OK) return 0;
        off += k;
    }
    return 1;
}

/* ParallelWorker.work for one piece. Returns 0 when the worker failed. */
static int worker_take(split_worker *w, const uint8_t *bytes, size_t n, const hsax_piece *piece) {
    split_run *r = w->run;
    int ok = 1;
    if (piece->kind & HSAX_PIECE_START) {
        if (!w->started) {
            if (!r->have_prefix) return 0;
            w->started = 1;
            /* the prefix in one piece, as ParallelWorker.work feeds it */
            ok = hsax_parser_map_lines(w->parser, 1, 1, -1) == HSAX_OK &&
                 hsax_parser_feed_filtered(w->parser, r->prefix, r->prefix_len, 0) == HSAX_OK;
            w->stream_line += r->prefix_info.newlines;
        }
        ok = ok && worker_feed(w, (const uint8_t *)"\n", 1);
        w->stream_line += 1;
        ok = ok && hsax_parser_map_lines(w->parser, w->stream_line, piece->first_line, piece->segment) == HSAX_OK;
    }
    ok = ok && w->started && worker_feed(w, bytes, n);
    w->stream_line += piece->newlines;
    if (piece->kind & HSAX_PIECE_FINAL) w->saw_final = 1;
    return ok;
}

/* The splitter's piece callback: checks the piece contract of CHealthSAX.h, then does what
   ParallelRun.push and the chosen worker do with it. */
static int split_on_piece(void *context, uint8_t *bytes, size_t n, const hsax_piece *piece) {
    split_run *r = context;
    r->pieces++;
    if (n > 0 && bytes == NULL) split_fail("a piece without bytes");
    if (r->saw_final_piece) split_fail("a piece after the final one");
    if (piece->first_line != 1 + r->newlines_so_far) split_fail("a piece's first line is not 1 + the newlines before it");
    if (piece->newlines != newlines_in(bytes, n)) split_fail("a piece's newline count is wrong");
    r->newlines_so_far += piece->newlines;
    if (piece->kind & HSAX_PIECE_PREFIX) {
        if (r->pieces != 1 || piece->kind != HSAX_PIECE_PREFIX || piece->segment != -1)
            split_fail("the prefix is not the first piece, alone, in segment -1");
    } else {
        if (!r->have_prefix) split_fail("a segment before the prefix");
        if (n > r->piece_limit) split_fail("a piece is longer than twice the segment size");
        if (piece->kind & HSAX_PIECE_START) {
            if (!r->expect_start || piece->segment != r->segments) split_fail("a segment starts out of turn");
        } else if (r->expect_start || piece->segment != r->segments - 1) {
            split_fail("a segment's later piece without its start");
        }
        if ((piece->kind & HSAX_PIECE_FINAL) && !(piece->kind & HSAX_PIECE_END)) split_fail("a final piece that does not end its segment");
        if ((piece->kind & HSAX_PIECE_END) && !(piece->kind & HSAX_PIECE_FINAL) && (n == 0 || bytes[n - 1] != '>'))
            split_fail("a segment is not cut right after a '>'");
        r->expect_start = (piece->kind & HSAX_PIECE_END) != 0;
        if (piece->kind & HSAX_PIECE_FINAL) r->saw_final_piece = 1;
    }
    if (n) log_put(&r->all, bytes, n);
    piece_infos_put(&r->handed, piece, n);

    if (piece->kind & HSAX_PIECE_PREFIX) {
        r->prefix = bytes;
        r->prefix_len = n;
        r->prefix_info = *piece;
        r->have_prefix = 1;
        r->expect_start = 1;
        return 0;
    }
    if (piece->kind & HSAX_PIECE_START) {
        if (r->segments == r->segment_cap) {
            r->segment_cap = r->segment_cap ? r->segment_cap * 2 : 64;
            r->segment_worker = realloc(r->segment_worker, sizeof(int32_t) * (size_t)r->segment_cap);
            if (!r->segment_worker) abort();
        }
        r->current = (int)(split_next_random(r) % (uint32_t)r->workers);
        r->segment_worker[r->segments++] = r->current;
    }
    r->dispatched = 1;
    split_worker *w = &r->w[r->current];
    int ok = worker_take(w, bytes, n, piece);
    free(bytes);
    if (!ok) {
        w->failed = 1;
        r->parse_failed = 1;
        return 1; /* ParallelRun.failParse: the run stops, the next push is refused */
    }
    if (r->stop_at_piece && r->pieces == r->stop_at_piece) {
        r->stopped_by_piece = 1;
        return 1;
    }
    return 0;
}

static size_t split_segment_size(uint8_t b, size_t file_size) {
    if (b < 0x80) return (size_t)b + 1;
    size_t s = file_size / ((size_t)(b & 3) + 1);
    return s ? s : 1;
}

/* Sets up a run from the header; the file is `data[SPLIT_HEADER ..< size]`. Returns 0 when the
   input is too short. */
static int split_setup(split_run *r, const uint8_t *data, size_t size) {
    int rewrite_off = r->rewrite_off;
    memset(r, 0, sizeof *r);
    r->rewrite_off = rewrite_off;
    if (size < SPLIT_HEADER) return 0;
    r->data = data + SPLIT_HEADER;
    r->size = size - SPLIT_HEADER;
    r->file_newlines = newlines_in(r->data, r->size);
    r->segment_size = split_segment_size(data[1], r->size);
    r->piece_limit = 2 * r->segment_size < 64 ? 64 : 2 * r->segment_size;
    r->workers = (data[2] & 3) + 1;
    size_t feed = chosen_chunk(data[3]);
    r->feed_size = feed < 256 * 1024 ? feed : 256 * 1024;
    r->rng = 0x9E3779B9u ^ ((uint32_t)data[4] * 0x01000193u);
    r->in_place = data[4] >> 7;
    r->short_reads = r->in_place && (data[4] & 0x40);
    for (int i = 0; i < r->workers; i++) {
        split_worker *w = &r->w[i];
        w->run = r;
        w->index = i;
        w->stream_line = 1;
        w->parser = hsax_parser_create(w, worker_on_start, worker_on_end);
        if (!w->parser) abort();
        if (hsax_parser_set_attribute_rewriting || r->rewrite_off) set_rewriting(w->parser, r->rewrite_off ? 0 : 2);
        w->log.parser = w->parser;
    }
    r->splitter = hsax_splitter_create(r, split_on_piece, r->segment_size);
    if (!r->splitter) abort();
    return 1;
}

/* ExportReader.parseParallel: feeds the file in raw chunks of `chunk` bytes, then ends every
   worker that started. Returns 1 when the parallel read succeeded (every piece parsed, every
   started worker ended without an error), 0 when it stopped. */
static int split_read(split_run *r, size_t chunk) {
    int rc = HSAX_OK;
    if (r->size == 0) {
        rc = HSAX_ERR_SPLIT; /* `total == 0`: nothing to split */
    } else {
        size_t i = 0;
        while (i < r->size) {
            size_t n = r->size - i < chunk ? r->size - i : chunk;
            if (r->in_place) {
                /* ParallelReader: the source reads into the region (a read of 0 bytes ends) */
                size_t room = 0;
                uint8_t *region = hsax_splitter_input(r->splitter, chunk, &room);
                if (!region) { rc = HSAX_ERR_MEMORY; break; }
                if (room < 1 || room > chunk) split_fail("an input region of 0 bytes or over the maximum");
                memset(region, 0xA5, room); /* all of it is writable (ASan), none of it is taken unfed */
                n = r->size - i < room ? r->size - i : room;
                if (r->short_reads) n = (n + 1) / 2;
                memcpy(region, r->data + i, n);
                if (r->read_count == r->read_cap) {
                    r->read_cap = r->read_cap ? r->read_cap * 2 : 64;
                    r->reads = realloc(r->reads, sizeof(size_t) * r->read_cap);
                    if (!r->reads) abort();
                }
                r->reads[r->read_count++] = n;
                rc = hsax_splitter_feed_input(r->splitter, n, 0);
            } else {
                rc = hsax_splitter_feed(r->splitter, r->data + i, n, 0);
            }
            i += n;
            if (rc != HSAX_OK) break;
        }
        if (rc == HSAX_OK && r->in_place) {
            size_t room = 0;
            if (!hsax_splitter_input(r->splitter, chunk, &room)) rc = HSAX_ERR_MEMORY;
            else rc = hsax_splitter_feed_input(r->splitter, 0, 1);
        } else if (rc == HSAX_OK) {
            rc = hsax_splitter_feed(r->splitter, NULL, 0, 1);
        }
    }
    r->split_rc = rc;
    if (rc == HSAX_OK && !r->saw_final_piece) split_fail("the splitter succeeded without a final piece");
    if (rc == HSAX_ERR_STOPPED && !r->parse_failed && !r->stopped_by_piece) split_fail("the splitter stopped on its own");
    if (rc != HSAX_OK) return 0;
    int started = 0;
    for (int i = 0; i < r->workers; i++) {
        split_worker *w = &r->w[i];
        if (!w->started) continue;
        started++;
        int ok = 1;
        if (!w->saw_final) ok = worker_feed(w, (const uint8_t *)"\n</HealthData>", 14);
        ok = ok && hsax_parser_feed_filtered(w->parser, NULL, 0, 1) == HSAX_OK;
        if (!ok) {
            w->failed = 1;
            r->parse_failed = 1;
        }
    }
    if (started == 0) split_fail("the splitter succeeded but no worker got a segment");
    return !r->parse_failed;
}

static void split_free(split_run *r) {
    hsax_splitter_free(r->splitter);
    for (int i = 0; i < r->workers; i++) {
        hsax_parser_free(r->w[i].parser);
        free(r->w[i].log.bytes);
        free(r->w[i].spans);
        free(r->w[i].open_segments);
    }
    free(r->prefix);
    free(r->segment_worker);
    free(r->all.bytes);
    piece_infos_free(&r->handed);
    free(r->reads);
}

#endif
