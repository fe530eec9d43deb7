// Glue-internal declarations shared by the parser (CHealthSAX.c) and the splitter (CHealthSplit.c).
#ifndef CHEALTHSAX_INTERNAL_H
#define CHEALTHSAX_INTERNAL_H

#include "CHealthSAX.h"

/// Receives the pre-filter's output in filter mode; returns an HSAX_ code.
typedef int (*hsax_sink_fn)(void *context, const uint8_t *bytes, size_t length, int is_last);

/// One entry of a parser's line map (hsax_parser_map_lines).
typedef struct {
    int64_t stream_line;
    int64_t file_line;
    int32_t segment;
} hsax_line_map;

/// A parser without libxml2: `hsax_parser_feed` runs only the pre-filter and hands the
/// filtered bytes to `sink` (in blocks of up to 1 MiB, or the caller's chunk unchanged).
hsax_parser *hsax_filter_create(void *sink_context, hsax_sink_fn sink);

/// 1 when a filter (hsax_filter_create) would now hand bytes without a control character to its
/// sink unchanged, in one call, on its fastest path: it is past the prolog (its body state), holds
/// nothing in its out buffer, and has stopped on nothing.
int hsax_filter_passes_through(const hsax_parser *filter);

/// For bytes the caller hands to the filter's sink itself, in place of hsax_parser_feed(filter,
/// bytes, n, 0): when hsax_filter_passes_through holds and `bytes[0..n)` holds no byte the
/// pre-filter deletes, counts them as fed (the bookkeeping of the fastest path) and returns 1;
/// the caller must then give them to the sink as they are. Otherwise returns 0 and changes
/// nothing (the caller feeds them with hsax_parser_feed).
int hsax_filter_pass(hsax_parser *filter, const uint8_t *bytes, size_t n);

/// libxml2's global initialization (xmlInitParser), which must happen on one thread before
/// parsers are created on several.
void hsax_init(void);

/// The attribute-value rewriter (CHealthRewrite.c): between the pre-filter and xmlParseChunk,
/// values libxml2 would parse on its slow path are decoded and replaced by DEL + a decimal index
/// into a table; the start-tag callback maps them back with hsax_rewriter_resolve. With
/// `keep_columns` each token is padded to the value's character count (HSAX_REWRITE_KEEP_COLUMNS),
/// without it the token stands alone (HSAX_REWRITE_SHORT_TOKENS).
typedef struct hsax_rewriter hsax_rewriter;
hsax_rewriter *hsax_rewriter_create(int keep_columns);
void hsax_rewriter_free(hsax_rewriter *rewriter);
/// Rewrites `n` pre-filtered bytes. The output (`*out`, `*out_len`, owned by the rewriter, valid
/// until the next call) may be shorter than the input; an unfinished start tag at the end is held
/// back for the next call (with `is_last` everything is handed on). Returns HSAX_OK or
/// HSAX_ERR_MEMORY. The tokens of one call stay resolvable until the call after the next.
int hsax_rewriter_run(hsax_rewriter *rewriter, const uint8_t *in, size_t n, int is_last, const uint8_t **out,
                      size_t *out_len);
/// 1 when `v[0..n)` is a token of the last two calls: sets the decoded bytes.
int hsax_rewriter_resolve(const hsax_rewriter *rewriter, const uint8_t *v, size_t n, const uint8_t **bytes,
                          int32_t *length);
/// Values rewritten so far.
uint64_t hsax_rewriter_count(const hsax_rewriter *rewriter);

#endif
