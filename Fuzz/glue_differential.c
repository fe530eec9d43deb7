// libFuzzer target: whole-buffer and chunked feeding must give the same events. When either
// feed succeeds, both must, with identical event logs (every start/end tag with its element,
// depth, line, attributes and name, and the counters). When both fail, the error can be found
// at different points (the pre-filter runs ahead of libxml2 on a whole buffer), so the shorter
// log must be a prefix of the longer one.
#include "glue_common.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
#ifdef FUZZ_SKIP_ICONV
    if (declares_other_encoding(data + 1, size - 1)) return 0;
#endif
    event_log whole = {0}, chunked = {0};
    int a = feed_all(&whole, data + 1, size - 1, size);
    int b = feed_all(&chunked, data + 1, size - 1, chosen_chunk(data[0]));
    if (a == HSAX_OK || b == HSAX_OK) {
        if (a != b || whole.len != chunked.len || memcmp(whole.bytes, chunked.bytes, whole.len) != 0) {
            fprintf(stderr, "whole-buffer rc %d (%zu log bytes) vs chunked rc %d (%zu log bytes)\n", a, whole.len,
                    b, chunked.len);
            abort();
        }
    } else {
        /* drop the trailing counters record ('Z' + 8 bytes) before the prefix test */
        size_t wl = whole.len - 9, cl = chunked.len - 9;
        size_t n = wl < cl ? wl : cl;
        if (memcmp(whole.bytes, chunked.bytes, n) != 0) {
            fprintf(stderr, "failing feeds disagree before the first error (rc %d vs %d)\n", a, b);
            abort();
        }
    }
    hsax_parser_free(whole.parser);
    hsax_parser_free(chunked.parser);
    free(whole.bytes);
    free(chunked.bytes);
    return 0;
}
