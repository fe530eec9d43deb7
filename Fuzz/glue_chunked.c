// libFuzzer target: the C glue fed the way ExportReader feeds it, in chunks whose size the
// input's first byte chooses (see chosen_chunk), sometimes stopped from a callback.
#include "glue_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    event_log log = {0};
    log.stop_after = data[1] < 16 ? data[1] : 0;
    feed_all(&log, data + 2, size - 2, chosen_chunk(data[0]));
    hsax_parser_free(log.parser);
    free(log.bytes);
    return 0;
}
