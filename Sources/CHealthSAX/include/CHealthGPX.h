// CHealthGPX: a summary of one GPX 1.1 workout route (`workout-routes/route_….gpx`, docs/export-format.md
// §14), read with libxml2's SAX2 push parser. Opaque to libxml2 like CHealthSAX.h: Swift sees
// only this plain struct and function. Every exported symbol carries the `hsax_gpx_` prefix (the glue's `hsax_`).
#ifndef CHEALTHGPX_H
#define CHEALTHGPX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a route holds. Distances and elevations are in metres.
typedef struct {
    /// `<trkpt>` elements with a valid `lat` and `lon`.
    int64_t point_count;
    /// Sum of great-circle (haversine, mean Earth radius 6 371 008.8 m) distances between
    /// consecutive points of the same `<trkseg>`.
    double distance_m;
    /// Sum of the rises between consecutive points of a segment that both have an `<ele>`
    /// (raw GPS elevation, no smoothing).
    double elevation_gain_m;
    /// Points that carried an `<ele>`.
    int64_t elevation_point_count;
    /// Set when the file is not well-formed XML: the 1-based line and a message (NUL-terminated).
    int error_line;
    char error_message[200];
} hsax_gpx_summary;

/// Parses `length` bytes of GPX and fills `out`. Returns 0 on success, -1 when the bytes are not
/// well-formed XML (then `out->error_line` and `out->error_message` say where and why), -2
/// when memory ran out and -3 when an `<ele>` is beyond ±3.4e38 m, the bound a record's value
/// has (`error_line` and `error_message` say which). Never keeps a pointer to `bytes`.
int hsax_gpx_summarize(const char *bytes, size_t length, hsax_gpx_summary *out);

#ifdef __cplusplus
}
#endif

#endif
