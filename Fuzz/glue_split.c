// libFuzzer target: the splitter path as ExportReader's parallel read uses it (see
// split_common.h): the pre-filter in sink mode, the splitter cutting segments, each segment
// parsed by one of 1-4 parsers with its line map. Checks the piece contract (prefix first,
// segments in turn, cuts right after '>', first lines and newline counts, piece sizes), that
// every mapped start tag lies in the file and in a segment its worker was given, and that the
// pieces put together are exactly what the pre-filter alone puts out for the same raw chunks.
// Read into the splitter's input region (header byte 4, bit 7), the pieces must also be exactly
// hsax_splitter_feed's for the same reads. Header byte 2, bits 2-7, may stop the run: from a
// worker's callback (hsax_parser_stop, as ReaderSession does when its consumer throws) or from the
// piece callback.
#include "split_common.h"
#include "CHealthSAXInternal.h"

/* The pre-filter's output, collected with log_put (glue_common.h). */
static int collect(void *context, const uint8_t *bytes, size_t n, int is_last) {
    (void)is_last;
    if (n) log_put(context, bytes, n);
    return HSAX_OK;
}

/* The reference cut for a run read into the input region: hsax_splitter_feed with the same reads
   (the same sizes in the same order), the pieces only collected. */
typedef struct {
    event_log bytes;
    piece_infos p;
} piece_list;

static int collect_piece(void *context, uint8_t *bytes, size_t n, const hsax_piece *piece) {
    piece_list *l = context;
    piece_infos_put(&l->p, piece, n);
    if (n) log_put(&l->bytes, bytes, n);
    free(bytes);
    return 0;
}

/* A run read into the splitter's input region hands on exactly the pieces hsax_splitter_feed does
   for the same reads (bytes, kind, segment, first line, newlines, capacity), with the same result
   and pre-filter counters; a run stopped by its pieces' receiver, the same first pieces. */
static void expect_feed_pieces(const split_run *r) {
    piece_list l = {0};
    hsax_splitter *s = hsax_splitter_create(&l, collect_piece, r->segment_size);
    if (!s) abort();
    int rc = r->size == 0 ? HSAX_ERR_SPLIT : HSAX_OK;
    size_t at = 0;
    for (size_t k = 0; k < r->read_count && rc == HSAX_OK; k++) {
        rc = hsax_splitter_feed(s, r->data + at, r->reads[k], 0);
        at += r->reads[k];
    }
    if (rc == HSAX_OK && r->size) rc = hsax_splitter_feed(s, NULL, 0, 1);
    if (r->split_rc == HSAX_ERR_STOPPED) {
        if (l.p.count < r->handed.count) split_fail("read in place: more pieces than hsax_splitter_feed hands on");
    } else if (rc != r->split_rc || l.p.count != r->handed.count) {
        fprintf(stderr, "in place rc %d, %zu pieces; feed rc %d, %zu pieces\n", r->split_rc, r->handed.count, rc, l.p.count);
        split_fail("read in place: another result or piece count than hsax_splitter_feed");
    }
    at = 0;
    for (size_t k = 0; k < r->handed.count; k++) {
        const hsax_piece *p = &r->handed.infos[k], *q = &l.p.infos[k];
        if (r->handed.lengths[k] != l.p.lengths[k] || p->kind != q->kind || p->segment != q->segment ||
            p->first_line != q->first_line || p->newlines != q->newlines || p->capacity != q->capacity ||
            (r->handed.lengths[k] && memcmp(r->all.bytes + at, l.bytes.bytes + at, r->handed.lengths[k]) != 0))
            split_fail("read in place: a piece differs from hsax_splitter_feed's");
        at += r->handed.lengths[k];
    }
    if (r->split_rc != HSAX_ERR_STOPPED &&
        (hsax_splitter_removed_control_characters(s) != hsax_splitter_removed_control_characters(r->splitter) ||
         hsax_splitter_dropped_doctype(s) != hsax_splitter_dropped_doctype(r->splitter) ||
         hsax_splitter_export_version(s) != hsax_splitter_export_version(r->splitter)))
        split_fail("read in place: other pre-filter counters than hsax_splitter_feed's");
    hsax_splitter_free(s);
    free(l.bytes.bytes);
    piece_infos_free(&l.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    split_run r = {0};
    if (!split_setup(&r, data, size)) return 0;
    int mode = data[2] >> 2;
    if (mode & 0x20) r.stop_at_piece = (mode & 15) + 1;
    else if (mode & 0x10) r.stop_after_starts = (mode & 15) + 1;
    size_t chunk = chosen_chunk(data[0]);
    (void)split_read(&r, chunk);
    if (r.in_place) expect_feed_pieces(&r);

    if (r.split_rc == HSAX_OK) {
        event_log sink = {0};
        hsax_filter *filter = hsax_filter_create(&sink, collect);
        if (!filter) abort();
        int rc = HSAX_OK;
        for (size_t i = 0; i < r.size && rc == HSAX_OK; i += chunk) {
            size_t n = r.size - i < chunk ? r.size - i : chunk;
            rc = hsax_filter_feed(filter, r.data + i, n, 0);
        }
        if (rc == HSAX_OK) rc = hsax_filter_feed(filter, NULL, 0, 1);
        if (rc != HSAX_OK) split_fail("the pre-filter alone fails where the splitter succeeded");
        if (sink.len != r.all.len || (sink.len && memcmp(sink.bytes, r.all.bytes, sink.len) != 0))
            split_fail("the pieces put together are not the pre-filter's output");
        if (hsax_filter_removed_control_characters(filter) != hsax_splitter_removed_control_characters(r.splitter) ||
            hsax_filter_dropped_doctype(filter) != hsax_splitter_dropped_doctype(r.splitter) ||
            hsax_filter_export_version(filter) != hsax_splitter_export_version(r.splitter))
            split_fail("the splitter's pre-filter counters differ from the pre-filter's");
        hsax_filter_free(filter);
        free(sink.bytes);
    }
    split_free(&r);
    return 0;
}
