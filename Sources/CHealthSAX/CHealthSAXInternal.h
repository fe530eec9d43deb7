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

/// libxml2's global initialization (xmlInitParser), which must happen on one thread before
/// parsers are created on several.
void hsax_init(void);

#endif
