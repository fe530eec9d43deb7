// libFuzzer target: the parallel read's events equal the serial read's (see split_common.h for
// the replay of ExportReader.parseParallel and the input's header).
//
// The serial path (hsax_parser_feed in raw chunks of the same size, as ExportReader.parse) is
// authoritative. Outcomes: when the serial read succeeds, the parallel read must succeed too,
// unless it stopped before handing anything to a worker (the Swift reader then simply reads
// serially); when the serial read fails, the parallel read must fail (the Swift reader then
// re-reads serially for the error). When both succeed, the parallel events, put back in
// document order (the root's start tag, then each segment's events from the worker that parsed
// it, then the root's end tag), must equal the serial events byte for byte: element, name,
// depth, mapped file line, unknown attribute count, every attribute value; every worker's root
// start and end tag must equal the serial ones; and the splitter's pre-filter counters must
// equal the serial parser's.
#include "split_common.h"

static void differ(const char *what, int serial_rc, const split_run *r) {
    fprintf(stderr, "parallel vs serial: %s (serial rc %d, splitter rc %d, parse failed %d, dispatched %d, %d segments, %d workers)\n",
            what, serial_rc, r->split_rc, r->parse_failed, r->dispatched, r->segments, r->workers);
    for (int i = 0; i < r->workers; i++)
        if (r->w[i].failed)
            fprintf(stderr, "worker %d: stream line %d, column %d: %s\n", i, hsax_parser_error_line(r->w[i].parser),
                    hsax_parser_error_column(r->w[i].parser), hsax_parser_error_message(r->w[i].parser));
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    split_run r = {0};
#ifdef FUZZ_SKIP_ICONV
    if (size > SPLIT_HEADER && declares_other_encoding(data + SPLIT_HEADER, size - SPLIT_HEADER)) return 0;
#endif
    if (!split_setup(&r, data, size)) return 0;
    size_t chunk = chosen_chunk(data[0]);
    int parallel_ok = split_read(&r, chunk);

    event_log serial = {0};
    int serial_rc = feed_all(&serial, r.data, r.size, chunk);
    int serial_ok = serial_rc == HSAX_OK;
    static int trace = -1;
    if (trace < 0) trace = getenv("SPLIT_TRACE") != NULL;
    if (trace)
        fprintf(stderr, "serial rc %d, splitter rc %d, parse failed %d, %d segments, %d workers, %zu serial log bytes\n",
                serial_rc, r.split_rc, r.parse_failed, r.segments, r.workers, serial.len);
    if (serial_ok && !parallel_ok && r.dispatched) differ("the parallel read fails after dispatching where the serial read succeeds", serial_rc, &r);
    if (!serial_ok && parallel_ok) differ("the parallel read succeeds where the serial read fails", serial_rc, &r);

    if (serial_ok && parallel_ok) {
        event_log merged = {0};
        const split_worker *first = NULL;
        for (int i = 0; i < r.workers; i++) {
            const split_worker *w = &r.w[i];
            if (!w->started) continue;
            if (w->span_count < 2 || w->spans[0].segment != -1 || w->spans[w->span_count - 1].segment != -1)
                differ("a worker's events are not framed by the root's start and end tags", serial_rc, &r);
            for (size_t k = 1; k + 1 < w->span_count; k++)
                if (w->spans[k].segment < 0) differ("a worker has a root-level event inside its segments", serial_rc, &r);
            if (first == NULL) {
                first = w;
                continue;
            }
            const event_span *a0 = &first->spans[0], *b0 = &w->spans[0];
            const event_span *a1 = &first->spans[first->span_count - 1], *b1 = &w->spans[w->span_count - 1];
            if (a0->end - a0->begin != b0->end - b0->begin ||
                memcmp(first->log.bytes + a0->begin, w->log.bytes + b0->begin, a0->end - a0->begin) != 0 ||
                a1->end - a1->begin != b1->end - b1->begin ||
                memcmp(first->log.bytes + a1->begin, w->log.bytes + b1->begin, a1->end - a1->begin) != 0)
                differ("two workers saw different root start or end tags", serial_rc, &r);
        }
        if (first == NULL) differ("no worker started", serial_rc, &r);
        log_put(&merged, first->log.bytes + first->spans[0].begin, first->spans[0].end - first->spans[0].begin);
        size_t cursor[SPLIT_MAX_WORKERS] = {1, 1, 1, 1};
        for (int32_t seg = 0; seg < r.segments; seg++) {
            const split_worker *w = &r.w[r.segment_worker[seg]];
            size_t *k = &cursor[w->index];
            while (*k + 1 < w->span_count && w->spans[*k].segment < seg) (*k)++;
            while (*k + 1 < w->span_count && w->spans[*k].segment == seg) {
                log_put(&merged, w->log.bytes + w->spans[*k].begin, w->spans[*k].end - w->spans[*k].begin);
                (*k)++;
            }
        }
        const event_span *last = &first->spans[first->span_count - 1];
        log_put(&merged, first->log.bytes + last->begin, last->end - last->begin);

        size_t serial_events = serial.len - 9; /* without the counters record ('Z' + 8 bytes) */
        if (merged.len != serial_events || memcmp(merged.bytes, serial.bytes, serial_events) != 0) {
            size_t n = merged.len < serial_events ? merged.len : serial_events, at = 0;
            while (at < n && merged.bytes[at] == serial.bytes[at]) at++;
            fprintf(stderr, "event logs: parallel %zu bytes, serial %zu bytes, first difference at byte %zu\n",
                    merged.len, serial_events, at);
            differ("the parallel events differ from the serial events", serial_rc, &r);
        }
        if (hsax_splitter_removed_control_characters(r.splitter) != hsax_parser_removed_control_characters(serial.parser) ||
            hsax_splitter_dropped_doctype(r.splitter) != hsax_parser_dropped_doctype(serial.parser) ||
            hsax_splitter_export_version(r.splitter) != hsax_parser_export_version(serial.parser))
            differ("the splitter's pre-filter counters differ from the serial parser's", serial_rc, &r);
        free(merged.bytes);
    }
    hsax_parser_free(serial.parser);
    free(serial.bytes);
    split_free(&r);
    return 0;
}
