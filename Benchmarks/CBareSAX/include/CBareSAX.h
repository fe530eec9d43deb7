// CBareSAX: the benchmark's baseline, a bare libxml2 SAX2 pass over a file.
//
// It does the least any SAX2 reader of an export must do: read(2) the file into one reusable
// buffer and feed it to libxml2's push parser (xmlCreatePushParserCtxt + xmlParseChunk,
// XML_PARSE_NONET), with a startElementNs callback that only counts and a structured error
// handler. The reader in HealthExport is measured against it.
//
// This header uses only plain C types, so no Swift module sees libxml2's headers (libxml2 and
// Foundation cannot share a Swift module on this toolchain). Every symbol carries `cbaresax_`.
#ifndef CBARESAX_H
#define CBARESAX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The size of the buffer the file is read into and fed from, unless the caller asks for
/// another: 512 KiB, the same as the reader's default chunk size (ReaderOptions.chunkSize).
#define CBARESAX_DEFAULT_CHUNK_SIZE (512 * 1024)

/// What one pass found.
typedef struct {
    /// Start tags seen (every element, the root included).
    int64_t elements;
    /// Bytes read from the file and fed to the parser.
    int64_t bytes;
    /// 0 on success; 1 when the file could not be opened or read; 2 when libxml2 reported a
    /// fatal error (the document is not well-formed); 3 when memory ran out.
    int32_t error;
    /// Line and column (1-based) of the first libxml2 error; 0 otherwise.
    int32_t error_line;
    int32_t error_column;
    /// A one-line description of the error (no trailing newline); empty on success.
    char error_message[256];
} cbaresax_result;

/// Parses the file at `path`, counting elements.
///
/// - Parameters:
///   - path: a NUL-terminated file path.
///   - chunk_size: bytes per read(2) and per xmlParseChunk call; 0 means
///     `CBARESAX_DEFAULT_CHUNK_SIZE`.
///   - result: filled in completely, also on failure.
/// - Returns: `result->error`.
int32_t cbaresax_count_file(const char *path, size_t chunk_size, cbaresax_result *result);

/// The libxml2 version the library runs against, e.g. "20914".
const char *cbaresax_libxml2_version(void);

#ifdef __cplusplus
}
#endif

#endif
