// CHealthSAX: the C glue between libxml2's SAX2 push parser and Swift.
//
// This header declares only opaque types and plain C values, so that no Swift module ever sees
// libxml2's headers (libxml2 and Foundation cannot share a Swift module on this toolchain).
// Every exported symbol carries the `hsax_` prefix.
//
// What the glue does, in order, for every chunk fed to it:
//  1. a byte pre-filter (CHealthFilter.c, docs/export-format.md §6): deletes the C0 control characters that XML forbids
//     (0x00-0x08, 0x0B, 0x0C, 0x0E-0x1F) and DEL (0x7F, which XML 1.0 §2.2 discourages and
//     exports never hold; the rewriter of step 2 uses it as its marker) and drops the internal DOCTYPE (iOS 16 exports carry a
//     malformed one that stops libxml2 even in recover mode) wherever it stands after the XML
//     declaration and comments, replacing it by the newlines it contained so that libxml2's
//     line numbers stay those of the original file. Deleted control characters are bounded
//     (HSAX_ERR_CONTROLS) and UTF-16 input is refused (HSAX_ERR_UTF16);
//  2. an attribute-value rewriter: attribute values libxml2 would parse on its slow
//     path (entity references, non-ASCII bytes) are decoded by the glue and replaced by short
//     ASCII tokens that keep the tag's line count and, padded, its column count; libxml2 parses
//     those on its fast path and step 4 maps them back, so the bytes handed to Swift are the same
//     (see CHealthRewrite.c for what is rewritten and what is left to libxml2);
//  3. libxml2's push parser (XML_PARSE_NONET; no entity substitution, no DTD loading, no recover),
//     behind a guard for one of its flaws: outside the root a comment starting "<!-->" or
//     "<!--->" fails when cut by a feed boundary, so that ">" becomes a space (the pre-filter does
//     it in the prolog, the parser after the root's end tag; see hsax_comment_guard);
//  4. for each start tag, the element and its attributes are matched by pointer against names
//     interned in the parser's dictionary, and handed to Swift as byte ranges.
#ifndef CHEALTHSAX_H
#define CHEALTHSAX_H

#include <stddef.h>
#include <stdint.h>
#include "CHealthGPX.h"
#include "CHealthVersion.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Elements of an Apple Health export that the glue recognizes (docs/export-format.md §5).
typedef enum {
    HSAX_EL_UNKNOWN = 0,
    HSAX_EL_HEALTH_DATA,
    HSAX_EL_EXPORT_DATE,
    HSAX_EL_ME,
    HSAX_EL_RECORD,
    HSAX_EL_METADATA_ENTRY,
    HSAX_EL_HRV_METADATA_LIST,
    HSAX_EL_INSTANTANEOUS_BPM,
    HSAX_EL_CORRELATION,
    HSAX_EL_WORKOUT,
    HSAX_EL_WORKOUT_ACTIVITY,
    HSAX_EL_WORKOUT_EVENT,
    HSAX_EL_WORKOUT_STATISTICS,
    HSAX_EL_WORKOUT_ROUTE,
    HSAX_EL_FILE_REFERENCE,
    HSAX_EL_LOCATION,
    HSAX_EL_ACTIVITY_SUMMARY,
    HSAX_EL_CLINICAL_RECORD,
    HSAX_EL_AUDIOGRAM,
    HSAX_EL_SENSITIVITY_POINT,
    HSAX_EL_VISION_PRESCRIPTION,
    HSAX_EL_COUNT
} hsax_element_id;

/// Attributes the glue recognizes; bit `1 << id` of `hsax_start.present` says the attribute is there.
typedef enum {
    HSAX_A_TYPE = 0,
    HSAX_A_UNIT,
    HSAX_A_VALUE,
    HSAX_A_SOURCE_NAME,
    HSAX_A_SOURCE_VERSION,
    HSAX_A_DEVICE,
    HSAX_A_CREATION_DATE,
    HSAX_A_START_DATE,
    HSAX_A_END_DATE,
    HSAX_A_KEY,
    HSAX_A_LOCALE,
    HSAX_A_WORKOUT_ACTIVITY_TYPE,
    HSAX_A_DURATION,
    HSAX_A_DURATION_UNIT,
    HSAX_A_TOTAL_DISTANCE,
    HSAX_A_TOTAL_DISTANCE_UNIT,
    HSAX_A_TOTAL_ENERGY_BURNED,
    HSAX_A_TOTAL_ENERGY_BURNED_UNIT,
    HSAX_A_DATE,
    HSAX_A_AVERAGE,
    HSAX_A_MINIMUM,
    HSAX_A_MAXIMUM,
    HSAX_A_SUM,
    HSAX_A_UUID,
    HSAX_A_PATH,
    HSAX_A_BPM,
    HSAX_A_TIME,
    HSAX_A_DATE_COMPONENTS,
    HSAX_A_ACTIVE_ENERGY_BURNED,
    HSAX_A_ACTIVE_ENERGY_BURNED_GOAL,
    HSAX_A_ACTIVE_ENERGY_BURNED_UNIT,
    HSAX_A_APPLE_MOVE_TIME,
    HSAX_A_APPLE_MOVE_TIME_GOAL,
    HSAX_A_APPLE_MOVE_MINUTES,
    HSAX_A_APPLE_MOVE_MINUTES_GOAL,
    HSAX_A_APPLE_EXERCISE_TIME,
    HSAX_A_APPLE_EXERCISE_TIME_GOAL,
    HSAX_A_APPLE_STAND_HOURS,
    HSAX_A_APPLE_STAND_HOURS_GOAL,
    HSAX_A_DATE_OF_BIRTH,
    HSAX_A_BIOLOGICAL_SEX,
    HSAX_A_BLOOD_TYPE,
    HSAX_A_FITZPATRICK_SKIN_TYPE,
    HSAX_A_CARDIO_FITNESS_MEDICATIONS_USE,
    HSAX_A_LATITUDE,
    HSAX_A_LONGITUDE,
    HSAX_A_ALTITUDE,
    HSAX_A_HORIZONTAL_ACCURACY,
    HSAX_A_VERTICAL_ACCURACY,
    HSAX_A_COURSE,
    HSAX_A_SPEED,
    HSAX_A_IDENTIFIER,
    HSAX_A_SOURCE_URL,
    HSAX_A_FHIR_VERSION,
    HSAX_A_RECEIVED_DATE,
    HSAX_A_RESOURCE_FILE_PATH,
    HSAX_A_FREQUENCY_VALUE,
    HSAX_A_FREQUENCY_UNIT,
    HSAX_A_LEFT_EAR_VALUE,
    HSAX_A_LEFT_EAR_UNIT,
    HSAX_A_RIGHT_EAR_VALUE,
    HSAX_A_RIGHT_EAR_UNIT,
    HSAX_A_COUNT
} hsax_attribute_id;

/// A byte range of an attribute value (not NUL-terminated; entities already decoded).
/// Valid only during the callback that receives it.
typedef struct {
    const uint8_t *bytes;
    int32_t length;
} hsax_value;

/// One start tag.
typedef struct {
    int32_t element;    ///< an `hsax_element_id`
    int32_t depth;      ///< 0 for the root element
    int32_t line;       ///< line of the start tag's end in the original file (1-based)
    int32_t unknown_attributes; ///< attributes on this tag that the glue does not recognize
    int32_t segment;    ///< the segment the tag is in (see hsax_parser_map_lines); 0 without a map,
                        ///< -1 in the prefix
    uint64_t present;   ///< bit `1 << hsax_attribute_id` set for each attribute present
    const char *name;   ///< the element's local name, NUL-terminated, owned by the parser
                        ///< (the same pointer for the same name throughout one parse)
    hsax_value attributes[HSAX_A_COUNT];
} hsax_start;

typedef void (*hsax_start_fn)(void *context, const hsax_start *start);
typedef void (*hsax_end_fn)(void *context, int32_t element, int32_t depth);

typedef struct hsax_parser hsax_parser;

/// Creates a parser. `context` is passed back unchanged to both callbacks; it must stay valid
/// until `hsax_parser_free`. Returns NULL when memory is exhausted.
hsax_parser *hsax_parser_create(void *context, hsax_start_fn on_start, hsax_end_fn on_end);
void hsax_parser_free(hsax_parser *parser);

/// Result codes of the glue (`hsax_parser_feed`, `hsax_parser_feed_filtered`, `hsax_splitter_feed`,
/// `hsax_splitter_feed_input`, ...): one set, every value distinct.
enum {
    HSAX_OK = 0,
    HSAX_ERR_XML = 1,        ///< libxml2 reported a fatal error: see hsax_parser_error_*
    HSAX_ERR_STOPPED = 2,    ///< the caller stopped the parse with hsax_parser_stop
    HSAX_ERR_NO_ROOT = 3,    ///< a DOCTYPE was not followed by <HealthData within 1 MiB
    HSAX_ERR_MEMORY = 4,
    HSAX_ERR_CONTROLS = 5,   ///< the pre-filter deleted more control characters (with DEL) than
                             ///< 4096 + 1/64 of the bytes before the last one: not an export
    HSAX_ERR_UTF16 = 6,      ///< the input starts with a UTF-16 byte order mark (FF FE or FE FF)
                             ///< or with "<?" in UTF-16; exports are UTF-8
    HSAX_ERR_SPLIT = 7,      ///< a splitter cannot cut the input soundly: read it serially
};

/// Feeds `length` bytes (any chunk size, down to 1). Pass `is_last = 1` once, at the end
/// (with `length` 0 if there is nothing left). Returns an `HSAX_` result code; after a
/// non-zero code the parser must not be fed again.
int hsax_parser_feed(hsax_parser *parser, const uint8_t *bytes, size_t length, int is_last);

/// Stops the parse from inside a callback; the current feed returns `HSAX_ERR_STOPPED`.
void hsax_parser_stop(hsax_parser *parser);

/// The first fatal libxml2 error: its line and column (1-based) and message (no trailing newline).
int32_t hsax_parser_error_line(const hsax_parser *parser);
int32_t hsax_parser_error_column(const hsax_parser *parser);
/// 1 when libxml2 stood at the end of the bytes it had been given when it reported the error
/// (with the last feed: the input ends inside the markup it was parsing, a truncated file).
int hsax_parser_error_at_end(const hsax_parser *parser);
/// 1 when the error is libxml2's size check after a parse step ("Huge input lookup"): a comment,
/// CDATA section or text of more than 10,000,000 bytes lies before where the parser stands; the
/// error's line is that position, not the long piece's.
int hsax_parser_error_is_lookup_limit(const hsax_parser *parser);
const char *hsax_parser_error_message(const hsax_parser *parser);
/// Up to 63 bytes of the input from where libxml2 stood at the error, to the line's end
/// (NUL-terminated; possibly cut inside a UTF-8 sequence): what is there.
const char *hsax_parser_error_context(const hsax_parser *parser);

/// The line libxml2 is at now (for errors found by the caller inside a callback).
int32_t hsax_parser_current_line(const hsax_parser *parser);

/// Parallel parsing (a worker's parser, fed a stream made of the document's prefix and some of
/// its segments, see hsax_splitter): from stream line `stream_line` on, lines are those of the
/// original file starting at `file_line`, and start tags belong to `segment`. Register each
/// segment before feeding it, in stream order. Returns HSAX_OK or HSAX_ERR_MEMORY.
int hsax_parser_map_lines(hsax_parser *parser, int64_t stream_line, int64_t file_line, int32_t segment);

/// Feeds bytes that already went through the pre-filter (a splitter's output) straight to
/// libxml2. Same contract as `hsax_parser_feed`.
int hsax_parser_feed_filtered(hsax_parser *parser, const uint8_t *bytes, size_t length, int is_last);

/// Modes of the attribute-value rewriter (step 2 above).
enum {
    /// Off: every value goes to libxml2 as it is (tests and fuzz targets compare with it).
    HSAX_REWRITE_OFF = 0,
    /// Tokens padded to the value's character count, so libxml2's error columns are the file's
    /// (the default).
    HSAX_REWRITE_KEEP_COLUMNS = 1,
    /// Tokens without padding: libxml2 scans fewer bytes (about 11 % fewer instructions per
    /// export record), and everything handed to Swift is the same, line numbers included, but the
    /// error column counts each token's characters, not the value's. For parsers whose errors
    /// are only a signal: the parallel reader's workers, whose error is named by a one-thread
    /// re-read.
    HSAX_REWRITE_SHORT_TOKENS = 2,
};

/// Sets the attribute-value rewriter's mode (HSAX_REWRITE_KEEP_COLUMNS by default). Only before
/// the first feed: returns HSAX_OK, HSAX_ERR_MEMORY, or HSAX_ERR_STOPPED when it is too late or
/// the mode is unknown.
int hsax_parser_set_attribute_rewriting(hsax_parser *parser, int mode);
/// Attribute values the rewriter replaced by tokens so far (0 when it is off).
int64_t hsax_parser_rewritten_values(const hsax_parser *parser);

/// Control characters (and DEL bytes) the pre-filter deleted so far.
int64_t hsax_parser_removed_control_characters(const hsax_parser *parser);
/// 1 when an internal DOCTYPE was dropped.
int hsax_parser_dropped_doctype(const hsax_parser *parser);
/// The number in the `HealthKit Export Version: N` comment of the DOCTYPE, or -1.
int32_t hsax_parser_export_version(const hsax_parser *parser);

/// The element's name for an `hsax_element_id` (NUL-terminated, static), or NULL for
/// HSAX_EL_UNKNOWN and ids out of range.
const char *hsax_element_name(int32_t element);

/// Interns a byte string and returns its small integer id (0, 1, 2, ... in order of first
/// appearance). `*is_new` is set to 1 the first time a string is seen. Returns -1 when
/// memory is exhausted.
int32_t hsax_intern(hsax_parser *parser, const uint8_t *bytes, int32_t length, int32_t *is_new);

/// Number of slots for `hsax_intern_cached`.
#define HSAX_INTERN_SLOTS 16

/// The most bytes of a name `hsax_intern_cached` keeps (docs/export-format.md §8).
#define HSAX_NAME_CAP 1024

/// Like `hsax_intern`, but first compares the bytes with the string last interned through
/// `slot` (0 ..< HSAX_INTERN_SLOTS): consecutive records mostly repeat their type, source,
/// unit and device, and a comparison is cheaper than hashing.
///
/// A string longer than HSAX_NAME_CAP bytes is interned cut: its first HSAX_NAME_CAP bytes (back
/// to a UTF-8 character's start), then "…#" and the 16 hex digits of a 64-bit hash of the whole,
/// so that two long names with the same start stay apart and memory per name stays bounded.
/// `*is_new` then has bit 1 (value 2) set too, on every call with such a string: the caller
/// counts what was left out. Strings up to the cap cost nothing more.
int32_t hsax_intern_cached(hsax_parser *parser, int32_t slot, const uint8_t *bytes, int32_t length, int32_t *is_new);

/// The bytes interned as `id` (valid until the next interning call), their count in `*length`.
const uint8_t *hsax_interned(const hsax_parser *parser, int32_t id, int32_t *length);

// ---- Splitting for parallel parsing -------------------------------------------------------
//
// A splitter runs the same pre-filter as the parser over the raw chunks it is fed, then a
// lexical scanner over the filtered bytes that tracks markup (start and end tags, quoted
// attribute values, comments, CDATA sections, processing instructions) and element depth, and
// cuts the filtered stream into pieces:
//  - the prefix: everything up to and including the root's start tag (prolog, with the DOCTYPE
//    replaced by its newlines, as the parser sees it);
//  - segments: runs of whole children of the root, each at least `segment_size` bytes (the last
//    one excepted), cut right after the `>` that ends a child of the root. A segment longer than
//    twice `segment_size` (one huge element) is handed on in several pieces. The last piece
//    holds the end of the document (the root's end tag and what follows it).
// It does not check well-formedness (the parsers do); it gives up (HSAX_ERR_SPLIT) where a cut
// could not be sound: anything but whitespace, comments and PIs before the root or after it,
// a root that is not <HealthData>, an end tag or CDATA outside the root, a prefix over 1 MiB, or
// an input that ends before the root is closed.

/// Piece kinds (bits of hsax_piece.kind).
enum {
    HSAX_PIECE_PREFIX = 1,  ///< the prefix (handed on once, before any segment)
    HSAX_PIECE_START = 2,   ///< the first piece of a segment
    HSAX_PIECE_END = 4,     ///< the last piece of a segment
    HSAX_PIECE_FINAL = 8,   ///< the last piece of the document
};

typedef struct {
    int32_t kind;        ///< HSAX_PIECE_ bits
    int32_t segment;     ///< the segment's number (0, 1, 2, ... in document order)
    int64_t first_line;  ///< line of the piece's first byte in the original file (1-based)
    int64_t newlines;    ///< newlines in the piece
    size_t capacity;     ///< bytes allocated at `bytes` (for hsax_splitter_recycle)
} hsax_piece;

/// Receives a piece. `bytes` was allocated with malloc and now belongs to the callee (free it,
/// or hand it back with hsax_splitter_recycle).
/// Returns 0 to go on, anything else to stop (hsax_splitter_feed then returns HSAX_ERR_STOPPED).
typedef int (*hsax_piece_fn)(void *context, uint8_t *bytes, size_t length, const hsax_piece *piece);

typedef struct hsax_splitter hsax_splitter;

/// Creates a splitter; NULL when memory is exhausted. Also initializes libxml2 once, so that
/// parsers may then be created on other threads.
hsax_splitter *hsax_splitter_create(void *context, hsax_piece_fn on_piece, size_t segment_size);
void hsax_splitter_free(hsax_splitter *splitter);

/// Feeds raw bytes (any chunk size); `is_last = 1` once at the end. Returns HSAX_OK,
/// HSAX_ERR_SPLIT, HSAX_ERR_STOPPED or HSAX_ERR_MEMORY.
int hsax_splitter_feed(hsax_splitter *splitter, const uint8_t *bytes, size_t length, int is_last);

/// Where the caller may read the next raw bytes itself, so that they are not copied on their way
/// into a piece: returns a writable region of `*room` bytes (1 <= `*room` <= `max`; `max` 0 is
/// taken as 1), owned by the splitter, valid until the next call on this splitter; NULL (and
/// `*room` 0) when memory is exhausted. Write up to `*room` bytes there, then call
/// hsax_splitter_feed_input. Past the prolog, with nothing held back by the pre-filter, the region
/// is the end of the piece being filled (or the start of the next piece's buffer), and bytes that
/// need no pre-filtering stay where they were written; otherwise it is a side buffer fed through
/// the pre-filter as hsax_splitter_feed does. The region ends shortly (16 KiB) after the place
/// where the current segment may be cut, so that a read mostly ends just after the cut and few
/// bytes are carried over to the next piece. The pieces, their kinds, segments, lines and every
/// result are exactly those of hsax_splitter_feed of the same bytes, however they are read.
uint8_t *hsax_splitter_input(hsax_splitter *splitter, size_t max, size_t *room);

/// Feeds the `length` bytes written at the start of the last hsax_splitter_input region (`length`
/// at most its `*room`, or 0 at the end: then the same as hsax_splitter_feed(splitter, NULL, 0,
/// is_last)); `is_last` as for hsax_splitter_feed. Returns HSAX_OK, HSAX_ERR_SPLIT (also for a
/// `length` over the region, or no region), HSAX_ERR_STOPPED or HSAX_ERR_MEMORY, as
/// hsax_splitter_feed. A region not fed is dropped by the next hsax_splitter_input or
/// hsax_splitter_feed, or by hsax_splitter_free; the two ways of feeding may be mixed.
int hsax_splitter_feed_input(hsax_splitter *splitter, size_t length, int is_last);

/// Gives a piece's buffer back for a later piece, instead of free(bytes); `capacity` is the
/// piece's `capacity`. Any thread may call it, until hsax_splitter_free. The splitter keeps at
/// most a few buffers (more are freed), so a run maps its piece buffers once instead of once a
/// piece: with glibc's mmap threshold below the piece size, each fresh buffer would be mapped,
/// faulted in page by page and unmapped again.
void hsax_splitter_recycle(hsax_splitter *splitter, uint8_t *bytes, size_t capacity);

/// Whether the splitter may use its block scanner (x86-64 builds: SSE2; on by default), which
/// finds the quotes and angle brackets of 64 bytes at once inside the root. Off, it cuts with
/// the byte-by-byte scanner only, as on other CPUs. The two cut identically; tests and the fuzz
/// target glue_split_scan compare them.
void hsax_splitter_use_block_scan(hsax_splitter *splitter, int on);

/// The pre-filter's findings, as for a parser.
int64_t hsax_splitter_removed_control_characters(const hsax_splitter *splitter);
int hsax_splitter_dropped_doctype(const hsax_splitter *splitter);
int32_t hsax_splitter_export_version(const hsax_splitter *splitter);

#ifdef __cplusplus
}
#endif

#endif
