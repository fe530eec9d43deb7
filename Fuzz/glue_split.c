// libFuzzer target: the splitter path as ExportReader's parallel read uses it (see
// split_common.h): the pre-filter in sink mode, the splitter cutting segments, each segment
// parsed by one of 1-4 parsers with its line map. Checks the piece contract (prefix first,
// segments in turn, cuts right after '>', first lines and newline counts, piece sizes), that
// every mapped start tag lies in the file and in a segment its worker was given, and that the
// pieces put together are exactly what the pre-filter alone puts out for the same raw chunks.
// Header byte 2, bits 2-7, may stop the run: from a worker's callback (hsax_parser_stop, as
// ReaderSession does when its consumer throws) or from the piece callback.
#include "split_common.h"
#include "CHealthSAXInternal.h"

/* The pre-filter's output, collected with log_put (glue_common.h). */
static int collect(void *context, const uint8_t *bytes, size_t n, int is_last) {
    (void)is_last;
    if (n) log_put(context, bytes, n);
    return HSAX_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    split_run r = {0};
    if (!split_setup(&r, data, size)) return 0;
    int mode = data[2] >> 2;
    if (mode & 0x20) r.stop_at_piece = (mode & 15) + 1;
    else if (mode & 0x10) r.stop_after_starts = (mode & 15) + 1;
    size_t chunk = chosen_chunk(data[0]);
    (void)split_read(&r, chunk);

    if (r.split_rc == HSAX_OK) {
        event_log sink = {0};
        hsax_parser *filter = hsax_filter_create(&sink, collect);
        if (!filter) abort();
        int rc = HSAX_OK;
        for (size_t i = 0; i < r.size && rc == HSAX_OK; i += chunk) {
            size_t n = r.size - i < chunk ? r.size - i : chunk;
            rc = hsax_parser_feed(filter, r.data + i, n, 0);
        }
        if (rc == HSAX_OK) rc = hsax_parser_feed(filter, NULL, 0, 1);
        if (rc != HSAX_OK) split_fail("the pre-filter alone fails where the splitter succeeded");
        if (sink.len != r.all.len || (sink.len && memcmp(sink.bytes, r.all.bytes, sink.len) != 0))
            split_fail("the pieces put together are not the pre-filter's output");
        if (hsax_parser_removed_control_characters(filter) != hsax_splitter_removed_control_characters(r.splitter) ||
            hsax_parser_dropped_doctype(filter) != hsax_splitter_dropped_doctype(r.splitter) ||
            hsax_parser_export_version(filter) != hsax_splitter_export_version(r.splitter))
            split_fail("the splitter's pre-filter counters differ from the pre-filter's");
        hsax_parser_free(filter);
        free(sink.bytes);
    }
    split_free(&r);
    return 0;
}
