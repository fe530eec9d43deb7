// CHealthGPX: GPX route summary with libxml2 SAX2 (see include/CHealthGPX.h).
#include "CHealthGPX.h"
#include "CHealthSAXInternal.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HGPX_CHUNK (256u * 1024u)
#define HGPX_EARTH_RADIUS_M 6371008.8

typedef struct {
    hsax_gpx_summary *out;
    int in_point;        /* inside <trkpt> */
    int in_ele;          /* inside <trkpt><ele> */
    char ele_text[64];
    size_t ele_length;
    int point_valid;
    double lat, lon;
    int has_ele;
    double ele;
    int has_previous;    /* a previous point in the current segment */
    double prev_lat, prev_lon;
    int prev_has_ele;
    double prev_ele;
    int has_error;
    /* Set at the first <ele> beyond ±FLT_MAX (the bound records have): the file is refused. */
    int implausible;
    xmlParserCtxtPtr ctxt;
} hsax_gpx_state;

static int name_is(const xmlChar *name, const char *literal) {
    return strcmp((const char *)name, literal) == 0;
}

/// Parses a decimal attribute value given as a byte range; returns 0 when it is not a number.
static int parse_number(const xmlChar *begin, const xmlChar *end, double *value) {
    char buffer[64];
    size_t n = (size_t)(end - begin);
    if (n == 0 || n >= sizeof buffer) return 0;
    memcpy(buffer, begin, n);
    buffer[n] = 0;
    char *stop = NULL;
    double v = strtod(buffer, &stop);
    while (stop && (*stop == ' ' || *stop == '\t' || *stop == '\n' || *stop == '\r')) stop++;
    if (stop == buffer || (stop && *stop != 0) || !isfinite(v)) return 0;
    *value = v;
    return 1;
}

static double radians(double degrees) { return degrees * (M_PI / 180.0); }

static double haversine_m(double lat1, double lon1, double lat2, double lon2) {
    double dlat = radians(lat2 - lat1), dlon = radians(lon2 - lon1);
    double a = sin(dlat / 2) * sin(dlat / 2) + cos(radians(lat1)) * cos(radians(lat2)) * sin(dlon / 2) * sin(dlon / 2);
    return 2 * HGPX_EARTH_RADIUS_M * asin(fmin(1.0, sqrt(a)));
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                     const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    hsax_gpx_state *s = (hsax_gpx_state *)ctx;
    if (name_is(localname, "trkseg")) {
        s->has_previous = 0;
    } else if (name_is(localname, "trkpt")) {
        s->in_point = 1;
        s->has_ele = 0;
        int has_lat = 0, has_lon = 0;
        /* attributes: (localname, prefix, URI, value, end) per attribute */
        for (int i = 0; i < nb_attributes; i++) {
            const xmlChar *name = attributes[5 * i];
            const xmlChar *value = attributes[5 * i + 3], *end = attributes[5 * i + 4];
            if (name_is(name, "lat")) has_lat = parse_number(value, end, &s->lat);
            else if (name_is(name, "lon")) has_lon = parse_number(value, end, &s->lon);
        }
        s->point_valid = has_lat && has_lon && fabs(s->lat) <= 90 && fabs(s->lon) <= 180;
    } else if (s->in_point && name_is(localname, "ele")) {
        s->in_ele = 1;
        s->ele_length = 0;
    }
}

static void on_characters(void *ctx, const xmlChar *ch, int len) {
    hsax_gpx_state *s = (hsax_gpx_state *)ctx;
    if (!s->in_ele || len <= 0) return;
    size_t room = sizeof s->ele_text - 1 - s->ele_length;
    size_t n = (size_t)len < room ? (size_t)len : room;
    memcpy(s->ele_text + s->ele_length, ch, n);
    s->ele_length += n;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    hsax_gpx_state *s = (hsax_gpx_state *)ctx;
    if (s->in_ele && name_is(localname, "ele")) {
        s->in_ele = 0;
        const xmlChar *b = (const xmlChar *)s->ele_text;
        while (s->ele_length > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r')) {
            b++;
            s->ele_length--;
        }
        s->has_ele = parse_number(b, b + s->ele_length, &s->ele);
        if (s->has_ele && fabs(s->ele) > FLT_MAX && !s->implausible && !s->has_error) {
            /* The same plausibility bound as a record's value (±3.4e38): no route sum of such a
               value means anything, so the file is refused with the line (return code -3). */
            s->implausible = 1;
            s->out->error_line = s->ctxt && s->ctxt->input ? s->ctxt->input->line : 0;
            snprintf(s->out->error_message, sizeof s->out->error_message,
                     "elevation %.*s m is beyond ±3.4e38", (int)(s->ele_length < 40 ? s->ele_length : 40),
                     (const char *)b);
            s->has_ele = 0;
        }
    } else if (s->in_point && name_is(localname, "trkpt")) {
        s->in_point = 0;
        if (!s->point_valid) return;
        hsax_gpx_summary *o = s->out;
        o->point_count++;
        if (s->has_ele) o->elevation_point_count++;
        if (s->has_previous) {
            o->distance_m += haversine_m(s->prev_lat, s->prev_lon, s->lat, s->lon);
            if (s->has_ele && s->prev_has_ele && s->ele > s->prev_ele) o->elevation_gain_m += s->ele - s->prev_ele;
        }
        s->has_previous = 1;
        s->prev_lat = s->lat;
        s->prev_lon = s->lon;
        s->prev_has_ele = s->has_ele;
        s->prev_ele = s->ele;
    }
}

static void on_error(void *ctx, xmlErrorPtr error) {
    hsax_gpx_state *s = (hsax_gpx_state *)ctx;
    if (s == NULL || error == NULL || s->has_error) return;
    if (error->level != XML_ERR_FATAL && error->level != XML_ERR_ERROR) return;
    s->has_error = 1;
    s->out->error_line = error->line;
    const char *m = error->message ? error->message : "unknown libxml2 error";
    size_t n = strlen(m);
    while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) n--;
    if (n >= sizeof s->out->error_message) n = sizeof s->out->error_message - 1;
    memcpy(s->out->error_message, m, n);
    s->out->error_message[n] = 0;
}

int hsax_gpx_summarize(const char *bytes, size_t length, hsax_gpx_summary *out) {
    memset(out, 0, sizeof *out);
    hsax_gpx_state state;
    memset(&state, 0, sizeof state);
    state.out = out;

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_characters;
    sax.serror = on_error;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &state, NULL, 0, NULL);
    if (!ctxt) return -2;
    state.ctxt = ctxt;
    /* No network, no entity substitution, no DTD loading: a route file is data, not a document to resolve. */
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_COMPACT);
    /* The comment guard (hsax_comment_guard) runs over the whole file, so that a chunk's end in a
       "<!-->" comment of the prolog or epilog does not fail a valid file; `guarded` holds a chunk
       that it changed. */
    int guard = 0;
    uint8_t *guarded = NULL;
    size_t offset = 0;
    do {
        size_t n = length - offset < HGPX_CHUNK ? length - offset : HGPX_CHUNK;
        int last = offset + n == length;
        const char *chunk = bytes + offset;
        const uint8_t *raw = (const uint8_t *)chunk;
        size_t i = hsax_comment_guard(&guard, raw, n);
        if (i < n) {
            if (!guarded && !(guarded = malloc(HGPX_CHUNK))) { xmlFreeParserCtxt(ctxt); return -2; }
            memcpy(guarded, raw, n);
            while (i < n) {
                guarded[i++] = ' ';
                i += hsax_comment_guard(&guard, guarded + i, n - i);
            }
            chunk = (const char *)guarded;
        }
        int rc = xmlParseChunk(ctxt, chunk, (int)n, last);
        offset += n;
        if (rc != 0 || state.has_error) break;
    } while (offset < length);
    free(guarded);
    if (length == 0) xmlParseChunk(ctxt, NULL, 0, 1);
    int well_formed = ctxt->wellFormed && !state.has_error;
    if (!well_formed && !state.has_error) {
        out->error_line = ctxt->input ? ctxt->input->line : 0;
        strncpy(out->error_message, "not well-formed XML", sizeof out->error_message - 1);
    }
    xmlFreeParserCtxt(ctxt);
    if (!well_formed) return -1;
    return state.implausible ? -3 : 0;
}
