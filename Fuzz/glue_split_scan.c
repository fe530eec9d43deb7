// libFuzzer target: the splitter's block scanner (SSE2) against its byte-by-byte scanner. Two
// splitters cut the same input, fed in the same raw chunks, one with hsax_splitter_use_block_scan
// off: they must return the same result and hand on exactly the same pieces (bytes, kind,
// segment, first line, newlines) in the same order. The block scanner only runs on 64 bytes or
// more inside the root, so the header asks for chunks and segments of that size too.
//
// Input layout: 2 header bytes, then the file.
//   [0] raw chunk size: below 0x40, 1-64 bytes; below 0xF0, 64 + 13 per step (64-2,400 bytes);
//       from 0xF0, the whole file at once
//   [1] segment size: 1 + 17 per step (1-4,336 bytes)
#include "glue_common.h"
#include "CHealthSAXInternal.h"

#include <stdio.h>

typedef struct {
    event_log bytes; /* every piece's bytes, concatenated (log_put) */
    piece_infos p;
} piece_log;

static void fail(const char *what) {
    fprintf(stderr, "glue_split_scan: %s\n", what);
    abort();
}

static int on_piece(void *context, uint8_t *bytes, size_t n, const hsax_piece *piece) {
    piece_log *log = context;
    piece_infos_put(&log->p, piece, n);
    if (n) log_put(&log->bytes, bytes, n);
    free(bytes);
    return 0;
}

static int cut(const uint8_t *data, size_t size, size_t chunk, size_t segment, int block, piece_log *log) {
    hsax_splitter *s = hsax_splitter_create(log, on_piece, segment);
    if (!s) abort();
    hsax_splitter_use_block_scan(s, block);
    int rc = HSAX_OK;
    for (size_t i = 0; i < size && rc == HSAX_OK; i += chunk) {
        size_t n = size - i < chunk ? size - i : chunk;
        rc = hsax_splitter_feed(s, data + i, n, 0);
    }
    if (rc == HSAX_OK) rc = hsax_splitter_feed(s, NULL, 0, 1);
    hsax_splitter_free(s);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    size_t chunk = data[0] < 0x40 ? (size_t)data[0] + 1 : data[0] < 0xF0 ? 64 + (size_t)(data[0] - 0x40) * 13 : SIZE_MAX;
    size_t segment = 1 + (size_t)data[1] * 17;
    piece_log a = {0}, b = {0};
    int ra = cut(data + 2, size - 2, chunk, segment, 1, &a);
    int rb = cut(data + 2, size - 2, chunk, segment, 0, &b);
    if (ra != rb) fail("the two scanners end with different results");
    if (a.p.count != b.p.count) fail("the two scanners hand on different numbers of pieces");
    if (a.bytes.len != b.bytes.len || (a.bytes.len && memcmp(a.bytes.bytes, b.bytes.bytes, a.bytes.len) != 0))
        fail("the pieces' bytes differ");
    for (size_t k = 0; k < a.p.count; k++) {
        const hsax_piece *p = &a.p.infos[k], *q = &b.p.infos[k];
        if (a.p.lengths[k] != b.p.lengths[k] || p->kind != q->kind || p->segment != q->segment ||
            p->first_line != q->first_line || p->newlines != q->newlines)
            fail("a piece differs between the two scanners");
    }
    free(a.bytes.bytes), piece_infos_free(&a.p);
    free(b.bytes.bytes), piece_infos_free(&b.p);
    return 0;
}
