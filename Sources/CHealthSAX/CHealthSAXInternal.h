// Glue-internal declarations shared by the parser (CHealthSAX.c) and the splitter (CHealthSplit.c).
#ifndef CHEALTHSAX_INTERNAL_H
#define CHEALTHSAX_INTERNAL_H

#include "CHealthSAX.h"

/// Receives the pre-filter's output; returns an HSAX_ code (HSAX_OK to go on).
typedef int (*hsax_sink_fn)(void *context, const uint8_t *bytes, size_t length, int is_last);

/// One entry of a parser's line map (hsax_parser_map_lines).
typedef struct {
    int64_t stream_line;
    int64_t file_line;
    int32_t segment;
} hsax_line_map;

// ---- The pre-filter (CHealthFilter.c) ------------------------------------------------------

/// The byte pre-filter of include/CHealthSAX.h (step 1): deletes control characters, drops the
/// internal DOCTYPE, refuses UTF-16 and floods of control characters, and hands the filtered bytes
/// to its sink, in blocks of up to 1 MiB or as the caller's chunk unchanged (its fastest path).
/// A parser feeds libxml2 through one; a splitter cuts segments from one's output.
typedef struct hsax_filter hsax_filter;

/// NULL when memory is exhausted.
hsax_filter *hsax_filter_create(void *sink_context, hsax_sink_fn sink);
void hsax_filter_free(hsax_filter *filter);

/// Filters `length` raw bytes (any chunk size; `is_last = 1` once at the end). Returns HSAX_OK,
/// HSAX_ERR_NO_ROOT, HSAX_ERR_CONTROLS or HSAX_ERR_UTF16 (remembered: later feeds return it
/// again), or the first code other than HSAX_OK that the sink returned (after which the filter
/// must not be fed again).
int hsax_filter_feed(hsax_filter *filter, const uint8_t *bytes, size_t length, int is_last);

/// 1 when the filter would now hand bytes without a control character to its sink unchanged, in
/// one call, on its fastest path: it is past the prolog (its body state), holds nothing in its out
/// buffer, and has found nothing wrong.
int hsax_filter_passes_through(const hsax_filter *filter);

/// For bytes the caller hands to the filter's sink itself, in place of hsax_filter_feed(filter,
/// bytes, n, 0): when hsax_filter_passes_through holds and `bytes[0..n)` holds no byte the
/// pre-filter deletes, counts them as fed (the bookkeeping of the fastest path) and returns 1;
/// the caller must then give them to the sink as they are. Otherwise returns 0 and changes
/// nothing (the caller feeds them with hsax_filter_feed).
int hsax_filter_pass(hsax_filter *filter, const uint8_t *bytes, size_t n);

/// Control characters (and DEL bytes) deleted so far.
int64_t hsax_filter_removed_control_characters(const hsax_filter *filter);
/// 1 when an internal DOCTYPE was dropped.
int hsax_filter_dropped_doctype(const hsax_filter *filter);
/// The number in the DOCTYPE's `HealthKit Export Version: N` comment, or -1.
int32_t hsax_filter_export_version(const hsax_filter *filter);

/// The comment guard. Outside the root element (prolog and epilog) libxml2 2.9.14's push parser
/// looks for a comment's end from the comment's "<", so in "<!-->" and "<!--->" (comments whose
/// text starts with ">" or "->", valid XML) it takes the "-->" it finds there for the end, and
/// fails ("Comment not terminated") when the real end is not yet in its buffer: a valid file
/// refused wherever a feed boundary falls. The fix is to turn such a comment's first ">" into a
/// space: no event sees a comment's text, and well-formedness, lines and columns stay the same.
/// The pre-filter does it in the prolog, the parser after the root's end tag, the GPX reader
/// everywhere. Steps `*state` (0 to start) over `n` bytes; returns the offset of the first ">" to
/// turn into a space (the guard has taken it: go on after it), or `n` when there is none.
size_t hsax_comment_guard(int *state, const uint8_t *bytes, size_t n);

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
