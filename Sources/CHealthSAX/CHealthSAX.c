// CHealthSAX: the parser: its pre-filter (CHealthFilter.c), the attribute rewriter, libxml2's SAX2
// push parser, and name matching by pointer. See include/CHealthSAX.h for the contract. libxml2 is
// included here and in CHealthGPX.c, nowhere else.
#include "CHealthSAX.h"
#include "CHealthSAXInternal.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/dict.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HSAX_NAME_CACHE 512             /* power of two; at most half of it is filled */

static const char *const element_names[HSAX_EL_COUNT] = {
    [HSAX_EL_UNKNOWN] = NULL,
    [HSAX_EL_HEALTH_DATA] = "HealthData",
    [HSAX_EL_EXPORT_DATE] = "ExportDate",
    [HSAX_EL_ME] = "Me",
    [HSAX_EL_RECORD] = "Record",
    [HSAX_EL_METADATA_ENTRY] = "MetadataEntry",
    [HSAX_EL_HRV_METADATA_LIST] = "HeartRateVariabilityMetadataList",
    [HSAX_EL_INSTANTANEOUS_BPM] = "InstantaneousBeatsPerMinute",
    [HSAX_EL_CORRELATION] = "Correlation",
    [HSAX_EL_WORKOUT] = "Workout",
    [HSAX_EL_WORKOUT_ACTIVITY] = "WorkoutActivity",
    [HSAX_EL_WORKOUT_EVENT] = "WorkoutEvent",
    [HSAX_EL_WORKOUT_STATISTICS] = "WorkoutStatistics",
    [HSAX_EL_WORKOUT_ROUTE] = "WorkoutRoute",
    [HSAX_EL_FILE_REFERENCE] = "FileReference",
    [HSAX_EL_LOCATION] = "Location",
    [HSAX_EL_ACTIVITY_SUMMARY] = "ActivitySummary",
    [HSAX_EL_CLINICAL_RECORD] = "ClinicalRecord",
    [HSAX_EL_AUDIOGRAM] = "Audiogram",
    [HSAX_EL_SENSITIVITY_POINT] = "SensitivityPoint",
    [HSAX_EL_VISION_PRESCRIPTION] = "VisionPrescription",
};

static const char *const attribute_names[HSAX_A_COUNT] = {
    [HSAX_A_TYPE] = "type",
    [HSAX_A_UNIT] = "unit",
    [HSAX_A_VALUE] = "value",
    [HSAX_A_SOURCE_NAME] = "sourceName",
    [HSAX_A_SOURCE_VERSION] = "sourceVersion",
    [HSAX_A_DEVICE] = "device",
    [HSAX_A_CREATION_DATE] = "creationDate",
    [HSAX_A_START_DATE] = "startDate",
    [HSAX_A_END_DATE] = "endDate",
    [HSAX_A_KEY] = "key",
    [HSAX_A_LOCALE] = "locale",
    [HSAX_A_WORKOUT_ACTIVITY_TYPE] = "workoutActivityType",
    [HSAX_A_DURATION] = "duration",
    [HSAX_A_DURATION_UNIT] = "durationUnit",
    [HSAX_A_TOTAL_DISTANCE] = "totalDistance",
    [HSAX_A_TOTAL_DISTANCE_UNIT] = "totalDistanceUnit",
    [HSAX_A_TOTAL_ENERGY_BURNED] = "totalEnergyBurned",
    [HSAX_A_TOTAL_ENERGY_BURNED_UNIT] = "totalEnergyBurnedUnit",
    [HSAX_A_DATE] = "date",
    [HSAX_A_AVERAGE] = "average",
    [HSAX_A_MINIMUM] = "minimum",
    [HSAX_A_MAXIMUM] = "maximum",
    [HSAX_A_SUM] = "sum",
    [HSAX_A_UUID] = "uuid",
    [HSAX_A_PATH] = "path",
    [HSAX_A_BPM] = "bpm",
    [HSAX_A_TIME] = "time",
    [HSAX_A_DATE_COMPONENTS] = "dateComponents",
    [HSAX_A_ACTIVE_ENERGY_BURNED] = "activeEnergyBurned",
    [HSAX_A_ACTIVE_ENERGY_BURNED_GOAL] = "activeEnergyBurnedGoal",
    [HSAX_A_ACTIVE_ENERGY_BURNED_UNIT] = "activeEnergyBurnedUnit",
    [HSAX_A_APPLE_MOVE_TIME] = "appleMoveTime",
    [HSAX_A_APPLE_MOVE_TIME_GOAL] = "appleMoveTimeGoal",
    [HSAX_A_APPLE_MOVE_MINUTES] = "appleMoveMinutes",
    [HSAX_A_APPLE_MOVE_MINUTES_GOAL] = "appleMoveMinutesGoal",
    [HSAX_A_APPLE_EXERCISE_TIME] = "appleExerciseTime",
    [HSAX_A_APPLE_EXERCISE_TIME_GOAL] = "appleExerciseTimeGoal",
    [HSAX_A_APPLE_STAND_HOURS] = "appleStandHours",
    [HSAX_A_APPLE_STAND_HOURS_GOAL] = "appleStandHoursGoal",
    [HSAX_A_DATE_OF_BIRTH] = "HKCharacteristicTypeIdentifierDateOfBirth",
    [HSAX_A_BIOLOGICAL_SEX] = "HKCharacteristicTypeIdentifierBiologicalSex",
    [HSAX_A_BLOOD_TYPE] = "HKCharacteristicTypeIdentifierBloodType",
    [HSAX_A_FITZPATRICK_SKIN_TYPE] = "HKCharacteristicTypeIdentifierFitzpatrickSkinType",
    [HSAX_A_CARDIO_FITNESS_MEDICATIONS_USE] = "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse",
    [HSAX_A_LATITUDE] = "latitude",
    [HSAX_A_LONGITUDE] = "longitude",
    [HSAX_A_ALTITUDE] = "altitude",
    [HSAX_A_HORIZONTAL_ACCURACY] = "horizontalAccuracy",
    [HSAX_A_VERTICAL_ACCURACY] = "verticalAccuracy",
    [HSAX_A_COURSE] = "course",
    [HSAX_A_SPEED] = "speed",
    [HSAX_A_IDENTIFIER] = "identifier",
    [HSAX_A_SOURCE_URL] = "sourceURL",
    [HSAX_A_FHIR_VERSION] = "fhirVersion",
    [HSAX_A_RECEIVED_DATE] = "receivedDate",
    [HSAX_A_RESOURCE_FILE_PATH] = "resourceFilePath",
    [HSAX_A_FREQUENCY_VALUE] = "frequencyValue",
    [HSAX_A_FREQUENCY_UNIT] = "frequencyUnit",
    [HSAX_A_LEFT_EAR_VALUE] = "leftEarValue",
    [HSAX_A_LEFT_EAR_UNIT] = "leftEarUnit",
    [HSAX_A_RIGHT_EAR_VALUE] = "rightEarValue",
    [HSAX_A_RIGHT_EAR_UNIT] = "rightEarUnit",
};

_Static_assert(HSAX_A_COUNT <= 64, "attribute ids must fit the 64-bit present mask");

/* Pointer -> id cache. Names from the parser's dictionary are unique per spelling, so a name
   is matched by strcmp once and by pointer ever after. */
typedef struct {
    const xmlChar *key;
    int32_t id;
} name_slot;

typedef struct {
    name_slot slots[HSAX_NAME_CACHE];
    int32_t used;
} name_cache;

/* Interned byte strings: open addressing over an array of (hash, id); bytes in one arena. */
typedef struct {
    uint64_t hash;
    int32_t id;        /* -1 empty */
} intern_slot;

struct hsax_parser {
    xmlParserCtxtPtr ctxt;
    void *context;
    hsax_start_fn on_start;
    hsax_end_fn on_end;

    int32_t depth;
    int stopped;
    hsax_start start; /* reused for every start tag */

    name_cache element_cache;
    name_cache attribute_cache;

    /* attribute values rewritten for "&#38;" (see decode_amp); reset per start tag */
    uint8_t *scratch;
    size_t scratch_len, scratch_cap;

    /* error */
    int has_error;
    int32_t error_line, error_column;
    int error_at_end; /* libxml2 stood at the end of its input when it reported the error */
    int error_lookup_limit; /* the error is libxml2's "Huge input lookup" (see on_error) */
    char error_message[512];
    char error_context[64]; /* the input's bytes where libxml2 stood at the error, up to a line end */

    /* the pre-filter (CHealthFilter.c), whose sink is parse_chunk */
    hsax_filter *filter;

    /* after the root's end tag: the comment guard (hsax_comment_guard) over what libxml2 gets */
    int after_root;
    int guard_state;
    uint8_t *guarded;         /* a chunk's copy with the guard's changes */
    size_t guarded_cap;

    /* the attribute-value rewriter (CHealthRewrite.c); NULL when it is off */
    hsax_rewriter *rw;
    int fed_any;              /* a chunk reached parse_chunk (the rewriter can no longer be switched) */

    /* line map (hsax_parser_map_lines): stream line -> line of the original file, and segment */
    hsax_line_map *map;
    int32_t map_count, map_cap, map_cursor;

    /* interning */
    int32_t last_id[HSAX_INTERN_SLOTS];
    intern_slot *slots;
    uint32_t slot_cap;        /* power of two */
    int32_t count;
    uint32_t *offsets;        /* per id: start in arena */
    int32_t *lengths;
    int32_t ids_cap;
    uint8_t *arena;
    size_t arena_len, arena_cap;
};

static int parse_chunk(hsax_parser *p, const uint8_t *bytes, size_t n, int is_last);

/* The pre-filter's sink: its output goes to libxml2. */
static int parser_sink(void *context, const uint8_t *bytes, size_t n, int is_last) {
    return parse_chunk(context, bytes, n, is_last);
}

static inline size_t ptr_hash(const void *p) {
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (size_t)(v >> 40);
}

/* Matches `name` against `names[first..<count]`, through a pointer cache. The cache holds at
   most HSAX_NAME_CACHE / 2 names (probing always ends at an empty slot); once it is that full,
   further names are matched by strcmp on every lookup, so a file with thousands of distinct
   element or attribute names costs O(count) per name, never a hang. */
static int32_t lookup_name(name_cache *cache, const xmlChar *name, const char *const *names, int count,
                           int first) {
    size_t i = ptr_hash(name) & (HSAX_NAME_CACHE - 1);
    for (int probes = 0; probes < HSAX_NAME_CACHE; probes++) {
        name_slot *s = &cache->slots[i];
        if (s->key == name) return s->id;
        if (s->key == NULL) break;
        i = (i + 1) & (HSAX_NAME_CACHE - 1);
    }
    int32_t id = -1;
    for (int k = first; k < count; k++) {
        if (strcmp((const char *)name, names[k]) == 0) { id = k; break; }
    }
    if (cache->used < HSAX_NAME_CACHE / 2 && cache->slots[i].key == NULL) {
        cache->slots[i].key = name;
        cache->slots[i].id = id;
        cache->used++;
    }
    return id;
}

/* Without entity substitution libxml2 hands `&amp;` in an attribute value on as the five bytes
   "&#38;" (it keeps the entity for re-serialization), while `&lt;`, `&gt;` and character
   references arrive decoded. A literal '&' can reach us no other way, so "&#38;" is turned back
   into '&' here. Returns the length written to `dst` (at most `n`). */
static size_t decode_amp(const uint8_t *src, size_t n, uint8_t *dst) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == '&' && i + 4 < n && src[i + 1] == '#' && src[i + 2] == '3' && src[i + 3] == '8' &&
            src[i + 4] == ';') {
            dst[w++] = '&';
            i += 4;
        } else {
            dst[w++] = src[i];
        }
    }
    return w;
}

/* Maps a line of the stream fed to this parser to the original file's line (see
   hsax_parser_map_lines). Entries are registered in stream order and callbacks come in stream
   order, so the cursor only moves forward. */
static int32_t map_line(hsax_parser *p, int32_t line, int32_t *segment) {
    while (p->map_cursor + 1 < p->map_count && p->map[p->map_cursor + 1].stream_line <= line) p->map_cursor++;
    const hsax_line_map *m = &p->map[p->map_cursor];
    if (m->stream_line > line) { *segment = -1; return line; }
    *segment = m->segment;
    return (int32_t)(line - m->stream_line + m->file_line);
}

static void on_start_ns(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                        int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                        const xmlChar **attributes) {
    (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces; (void)nb_defaulted;
    hsax_parser *p = (hsax_parser *)ctx;
    if (p->stopped) return;
    hsax_start *s = &p->start;
    int32_t el = lookup_name(&p->element_cache, localname, element_names, HSAX_EL_COUNT, 1);
    s->element = el < 0 ? HSAX_EL_UNKNOWN : el;
    s->depth = p->depth++;
    s->line = p->ctxt->input ? p->ctxt->input->line : 0;
    s->segment = 0;
    if (p->map_count) s->line = map_line(p, s->line, &s->segment);
    s->name = (const char *)localname;
    uint64_t present = 0;
    int32_t unknown = 0;
    p->scratch_len = 0;
    const int in_input = p->ctxt->input != NULL && p->ctxt->input->base != NULL;
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **a = attributes + 5 * i;
        int32_t id = lookup_name(&p->attribute_cache, a[0], attribute_names, HSAX_A_COUNT, 0);
        if (id < 0) { unknown++; continue; }
        const uint8_t *v = (const uint8_t *)a[3];
        size_t n = (size_t)(a[4] - a[3]);
        /* A value in libxml2's input buffer came from its fast path (xmlParseAttValueInternal),
           which takes no value holding '&' or '<': it needs no decode_amp. Any other value is a
           copy libxml2 made on its slow path. */
        int in_buffer = in_input &&
                        (uintptr_t)v >= (uintptr_t)p->ctxt->input->base && (uintptr_t)(v + n) <= (uintptr_t)p->ctxt->input->end;
        /* A rewriter token: DEL + digits (+ '-' filler), parsed by libxml2's fast path (a value
           decoded by libxml2, say from "&#127;1", is a copy elsewhere and is left alone). The
           table holds the final bytes (no decode_amp). */
        if (in_buffer && n >= 2 && v[0] == 0x7F && p->rw) {
            const uint8_t *d;
            int32_t dn;
            if (hsax_rewriter_resolve(p->rw, v, n, &d, &dn)) {
                s->attributes[id].bytes = d;
                s->attributes[id].length = dn;
                present |= (uint64_t)1 << id;
                continue;
            }
        }
        if (!in_buffer && memchr(v, '&', n) != NULL) {
            if (p->scratch_len + n > p->scratch_cap) {
                /* grow; earlier values of this tag point into the old block, so re-point them */
                size_t cap = p->scratch_cap ? p->scratch_cap : 4096;
                while (cap < p->scratch_len + n) cap *= 2;
                uint8_t *b = malloc(cap);
                if (b == NULL) { s->attributes[id].bytes = v; s->attributes[id].length = (int32_t)n; present |= (uint64_t)1 << id; continue; }
                if (p->scratch_len) memcpy(b, p->scratch, p->scratch_len);
                /* (nothing points into an empty or absent block: no pointer arithmetic on NULL) */
                for (int k = 0; p->scratch_len && k < HSAX_A_COUNT; k++) {
                    if ((present >> k & 1) && s->attributes[k].bytes >= p->scratch &&
                        s->attributes[k].bytes < p->scratch + p->scratch_len)
                        s->attributes[k].bytes = b + (s->attributes[k].bytes - p->scratch);
                }
                free(p->scratch);
                p->scratch = b;
                p->scratch_cap = cap;
            }
            uint8_t *dst = p->scratch + p->scratch_len;
            n = decode_amp(v, n, dst);
            p->scratch_len += n;
            v = dst;
        }
        s->attributes[id].bytes = v;
        s->attributes[id].length = (int32_t)n;
        present |= (uint64_t)1 << id;
    }
    s->present = present;
    s->unknown_attributes = unknown;
    p->on_start(p->context, s);
}

/* The root's end tag was parsed: from here on the comment guard (hsax_comment_guard) sees every
   byte before libxml2 does. The rest of the current chunk is already in libxml2's input buffer
   (malloc'ed memory it owns, from its read position to its end): changed there, in place, before
   libxml2 reads on. */
static void guard_after_root(hsax_parser *p) {
    p->after_root = 1;
    xmlParserInputPtr in = p->ctxt->input;
    if (in == NULL || in->cur == NULL || in->end == NULL || in->end <= in->cur) return;
    uint8_t *b = (uint8_t *)(uintptr_t)in->cur;
    size_t n = (size_t)(in->end - in->cur);
    size_t i = hsax_comment_guard(&p->guard_state, b, n);
    while (i < n) {
        b[i++] = ' ';
        i += hsax_comment_guard(&p->guard_state, b + i, n - i);
    }
}

static void on_end_ns(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix; (void)uri;
    hsax_parser *p = (hsax_parser *)ctx;
    p->depth--;
    if (p->depth == 0 && !p->after_root) guard_after_root(p);
    if (p->stopped) return;
    int32_t el = lookup_name(&p->element_cache, localname, element_names, HSAX_EL_COUNT, 1);
    p->on_end(p->context, el < 0 ? HSAX_EL_UNKNOWN : el, p->depth);
}

static void on_error(void *ctx, xmlErrorPtr error) {
    hsax_parser *p = (hsax_parser *)ctx;
    if (p == NULL || error == NULL || p->has_error) return;
    if (error->level != XML_ERR_FATAL && error->level != XML_ERR_ERROR) return;
    p->has_error = 1;
    p->error_line = error->line;
    p->error_column = error->int2;
    p->error_at_end = p->ctxt && p->ctxt->input && p->ctxt->input->cur && p->ctxt->input->cur >= p->ctxt->input->end;
    if (p->ctxt && p->ctxt->input && p->ctxt->input->cur && p->ctxt->input->end) {
        const xmlChar *c = p->ctxt->input->cur, *e = p->ctxt->input->end;
        size_t k = 0;
        while (c + k < e && k < sizeof p->error_context - 1 && c[k] != '\n' && c[k] != '\r') k++;
        memcpy(p->error_context, c, k);
        p->error_context[k] = 0;
    }
    const char *m = error->message ? error->message : "unknown libxml2 error";
    /* "Huge input lookup" comes after a parse step, from where the parser then stands, once more
       than 10,000,000 bytes lie unconsumed ahead of it (a tag or value being waited for, which
       starts right there: the line is right) or kept behind it (a comment or CDATA section that
       long, parsed and passed: its line is not where the long piece is, and can be after the
       root's end or at the end of the input). The second is flagged. */
    p->error_lookup_limit =
        strstr(m, "Huge input lookup") != NULL && p->ctxt && p->ctxt->input && p->ctxt->input->cur &&
        p->ctxt->input->end - p->ctxt->input->cur <= XML_MAX_LOOKUP_LIMIT;
    /* libxml2's own words for its size limit ("Huge input lookup", "AttValue length too long")
       do not say what is wrong with the file. */
    if (strstr(m, "Huge input lookup") || strstr(m, "length too long") || strstr(m, "huge text"))
        m = "a single tag or value is longer than 10,000,000 bytes (libxml2's limit, "
            "XML_MAX_TEXT_LENGTH); no Apple Health export holds one, so the file is damaged or not an export";
    /* A byte that is not UTF-8 in element content: libxml2 2.9.14 reports it only when its push
       buffer holds at least 4 bytes from there ("Input is not proper UTF-8, indicate encoding !"
       and the 4 bytes); with fewer it takes the byte for a character cut by the chunk's end,
       makes no progress and halts with "detected an error in element content". Which words came
       would follow where chunks end (the rewriter holds back unfinished start tags, so it moves
       them; found by glue_rewrite_differential), and the quoted bytes too. Both become one
       message naming the byte where the bad sequence starts, at the same line and column. */
    char utf8_message[160];
    const xmlChar *at = p->ctxt && p->ctxt->input ? p->ctxt->input->cur : NULL;
    const char *quoted = strstr(m, "Bytes: 0x");
    unsigned bad = 0;
    if (strncmp(m, "Input is not proper UTF-8", 25) == 0 && quoted)
        bad = (unsigned)strtoul(quoted + 9, NULL, 16);
    else if (error->code == XML_ERR_INTERNAL_ERROR && strstr(m, "detected an error in element content") && at &&
             at < p->ctxt->input->end && *at >= 0x80)
        bad = *at;
    if (bad >= 0x80 && bad <= 0xFF) {
        snprintf(utf8_message, sizeof utf8_message,
                 "Input is not proper UTF-8: the bytes from 0x%02X on are not a UTF-8 character "
                 "(Apple Health exports are UTF-8, so the file is damaged)",
                 bad);
        m = utf8_message;
    }
    size_t n = strlen(m);
    while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) n--;
    if (n >= sizeof p->error_message) n = sizeof p->error_message - 1;
    memcpy(p->error_message, m, n);
    p->error_message[n] = 0;
}

hsax_parser *hsax_parser_create(void *context, hsax_start_fn on_start, hsax_end_fn on_end) {
    hsax_parser *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->context = context;
    p->on_start = on_start;
    p->on_end = on_end;
    p->filter = hsax_filter_create(p, parser_sink);
    p->slot_cap = 1024;
    p->slots = malloc(sizeof(intern_slot) * p->slot_cap);
    if (!p->filter || !p->slots) { hsax_parser_free(p); return NULL; }
    for (uint32_t i = 0; i < p->slot_cap; i++) p->slots[i].id = -1;
    for (int i = 0; i < HSAX_INTERN_SLOTS; i++) p->last_id[i] = -1;

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start_ns;
    sax.endElementNs = on_end_ns;
    sax.serror = on_error;
    p->ctxt = xmlCreatePushParserCtxt(&sax, p, NULL, 0, NULL);
    if (!p->ctxt) { hsax_parser_free(p); return NULL; }
#ifndef HSAX_NO_REWRITE
    p->rw = hsax_rewriter_create(1);
    if (!p->rw) { hsax_parser_free(p); return NULL; }
#endif
    /* Exports are UTF-8 (docs/export-format.md §3; UTF-16 is refused by the pre-filter). The encoding
       declaration is ignored: a file declaring another one ("ISO-8859-1", or a misspelling
       glibc's iconv still accepts) would otherwise go through iconv, whose conversion errors
       libxml2 prints to stderr itself and whose outcome depends on where chunks start (found by
       the splitter's differential fuzz target). Read as UTF-8, a byte that is not UTF-8 is the
       usual one-line error with its line and column, at any chunking. */
    xmlCtxtUseOptions(p->ctxt, XML_PARSE_NONET | XML_PARSE_COMPACT | XML_PARSE_IGNORE_ENC);
    return p;
}

void hsax_init(void) { xmlInitParser(); }

int hsax_parser_map_lines(hsax_parser *p, int64_t stream_line, int64_t file_line, int32_t segment) {
    if (p->map_count == p->map_cap) {
        int32_t cap = p->map_cap ? p->map_cap * 2 : 64;
        hsax_line_map *m = realloc(p->map, sizeof *m * (size_t)cap);
        if (!m) return HSAX_ERR_MEMORY;
        p->map = m;
        p->map_cap = cap;
    }
    p->map[p->map_count].stream_line = stream_line;
    p->map[p->map_count].file_line = file_line;
    p->map[p->map_count].segment = segment;
    p->map_count++;
    return HSAX_OK;
}

int hsax_parser_feed(hsax_parser *p, const uint8_t *bytes, size_t length, int is_last) {
    if (p->stopped) return HSAX_ERR_STOPPED;
    if (p->has_error) return HSAX_ERR_XML;
    return hsax_filter_feed(p->filter, bytes, length, is_last);
}

int hsax_parser_feed_filtered(hsax_parser *p, const uint8_t *bytes, size_t length, int is_last) {
    if (p->stopped) return HSAX_ERR_STOPPED;
    if (p->has_error) return HSAX_ERR_XML;
    return parse_chunk(p, bytes, length, is_last);
}

void hsax_parser_free(hsax_parser *p) {
    if (!p) return;
    if (p->ctxt) xmlFreeParserCtxt(p->ctxt);
    hsax_rewriter_free(p->rw);
    free(p->map);
    hsax_filter_free(p->filter);
    free(p->guarded);
    free(p->scratch);
    free(p->slots);
    free(p->offsets);
    free(p->lengths);
    free(p->arena);
    free(p);
}

void hsax_parser_stop(hsax_parser *p) {
    p->stopped = 1;
    if (p->ctxt) xmlStopParser(p->ctxt);
}

/* Hands `n` bytes to libxml2 and turns its outcome into an HSAX_ result code. */
int hsax_parser_set_attribute_rewriting(hsax_parser *p, int mode) {
    if (p->fed_any) return HSAX_ERR_STOPPED;
    if (mode != HSAX_REWRITE_OFF && mode != HSAX_REWRITE_KEEP_COLUMNS && mode != HSAX_REWRITE_SHORT_TOKENS)
        return HSAX_ERR_STOPPED;
    hsax_rewriter_free(p->rw);
    p->rw = NULL;
    if (mode != HSAX_REWRITE_OFF) {
        p->rw = hsax_rewriter_create(mode == HSAX_REWRITE_KEEP_COLUMNS);
        if (!p->rw) return HSAX_ERR_MEMORY;
    }
    return HSAX_OK;
}

int64_t hsax_parser_rewritten_values(const hsax_parser *p) { return p->rw ? (int64_t)hsax_rewriter_count(p->rw) : 0; }

/* After the root's end tag: `n` bytes for libxml2 with the comment guard's changes (the bytes
   themselves when there are none, else a copy), or NULL when memory is exhausted. */
static const uint8_t *guard_epilog(hsax_parser *p, const uint8_t *bytes, size_t n) {
    size_t i = hsax_comment_guard(&p->guard_state, bytes, n);
    if (i == n) return bytes;
    if (n > p->guarded_cap) {
        uint8_t *g = realloc(p->guarded, n);
        if (!g) return NULL;
        p->guarded = g;
        p->guarded_cap = n;
    }
    memcpy(p->guarded, bytes, n);
    while (i < n) {
        p->guarded[i++] = ' ';
        i += hsax_comment_guard(&p->guard_state, p->guarded + i, n - i);
    }
    return p->guarded;
}

static int parse_chunk(hsax_parser *p, const uint8_t *bytes, size_t n, int is_last) {
    p->fed_any = 1;
    if (p->rw) {
        const uint8_t *o;
        size_t on;
        if (hsax_rewriter_run(p->rw, bytes, n, is_last, &o, &on) != HSAX_OK) {
            p->has_error = 1;
            snprintf(p->error_message, sizeof p->error_message, "out of memory");
            return HSAX_ERR_MEMORY;
        }
        if (on == 0 && !is_last) return HSAX_OK;
        bytes = o;
        n = on;
    }
    if (p->after_root && n > 0 && (bytes = guard_epilog(p, bytes, n)) == NULL) {
        p->has_error = 1;
        snprintf(p->error_message, sizeof p->error_message, "out of memory");
        return HSAX_ERR_MEMORY;
    }
    int rc = xmlParseChunk(p->ctxt, (const char *)bytes, (int)n, is_last);
    if (p->stopped) return HSAX_ERR_STOPPED;
    if (p->has_error || rc != 0) {
        if (!p->has_error) {
            p->has_error = 1;
            p->error_line = p->ctxt->input ? p->ctxt->input->line : 0;
            p->error_column = p->ctxt->input ? p->ctxt->input->col : 0;
            snprintf(p->error_message, sizeof p->error_message, "libxml2 error %d", rc);
        }
        return HSAX_ERR_XML;
    }
    return HSAX_OK;
}

const char *hsax_element_name(int32_t element) {
    return element > 0 && element < HSAX_EL_COUNT ? element_names[element] : NULL;
}

int32_t hsax_parser_error_line(const hsax_parser *p) { return p->error_line; }
int32_t hsax_parser_error_column(const hsax_parser *p) { return p->error_column; }
int hsax_parser_error_at_end(const hsax_parser *p) { return p->error_at_end; }
const char *hsax_parser_error_message(const hsax_parser *p) { return p->error_message; }
const char *hsax_parser_error_context(const hsax_parser *p) { return p->error_context; }
int hsax_parser_error_is_lookup_limit(const hsax_parser *p) { return p->error_lookup_limit; }

int32_t hsax_parser_current_line(const hsax_parser *p) {
    int32_t line = p->ctxt && p->ctxt->input ? p->ctxt->input->line : 0;
    if (p->map_count) {
        int32_t segment;
        line = map_line((hsax_parser *)p, line, &segment);
    }
    return line;
}
int64_t hsax_parser_removed_control_characters(const hsax_parser *p) {
    return hsax_filter_removed_control_characters(p->filter);
}
int hsax_parser_dropped_doctype(const hsax_parser *p) { return hsax_filter_dropped_doctype(p->filter); }
int32_t hsax_parser_export_version(const hsax_parser *p) { return hsax_filter_export_version(p->filter); }

/* ---- interning (FNV-1a over the bytes, open addressing, load factor <= 1/2) ---- */

static inline uint64_t fnv1a(const uint8_t *b, int32_t n) {
    uint64_t h = 1469598103934665603ull;
    for (int32_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

static int grow_slots(hsax_parser *p) {
    uint32_t cap = p->slot_cap * 2;
    intern_slot *s = malloc(sizeof(intern_slot) * cap);
    if (!s) return -1;
    for (uint32_t i = 0; i < cap; i++) s[i].id = -1;
    for (uint32_t i = 0; i < p->slot_cap; i++) {
        if (p->slots[i].id < 0) continue;
        uint32_t j = (uint32_t)p->slots[i].hash & (cap - 1);
        while (s[j].id >= 0) j = (j + 1) & (cap - 1);
        s[j] = p->slots[i];
    }
    free(p->slots);
    p->slots = s;
    p->slot_cap = cap;
    return 0;
}

/* A string over HSAX_NAME_CAP bytes: its start and a hash of the whole (see the header). */
static int32_t intern_cut(hsax_parser *p, const uint8_t *bytes, int32_t length, int32_t *is_new) {
    uint8_t key[HSAX_NAME_CAP + 32];
    int32_t keep = HSAX_NAME_CAP;
    while (keep > 0 && (bytes[keep] & 0xC0) == 0x80) keep--; /* bytes[keep] starts the part left out */
    memcpy(key, bytes, (size_t)keep);
    int n = snprintf((char *)key + keep, sizeof key - (size_t)keep, "\xE2\x80\xA6#%016llx",
                     (unsigned long long)fnv1a(bytes, length));
    int32_t fresh = 0;
    int32_t id = hsax_intern(p, key, keep + n, &fresh);
    if (is_new) *is_new = fresh | 2;
    return id;
}

const uint8_t *hsax_interned(const hsax_parser *p, int32_t id, int32_t *length) {
    *length = p->lengths[id];
    return p->arena + p->offsets[id];
}

int32_t hsax_intern_cached(hsax_parser *p, int32_t slot, const uint8_t *bytes, int32_t length, int32_t *is_new) {
    if (length > HSAX_NAME_CAP) return intern_cut(p, bytes, length, is_new);
    if (slot >= 0 && slot < HSAX_INTERN_SLOTS) {
        int32_t last = p->last_id[slot];
        if (last >= 0 && p->lengths[last] == length &&
            (length == 0 || memcmp(p->arena + p->offsets[last], bytes, (size_t)length) == 0)) {
            if (is_new) *is_new = 0;
            return last;
        }
        int32_t id = hsax_intern(p, bytes, length, is_new);
        p->last_id[slot] = id;
        return id;
    }
    return hsax_intern(p, bytes, length, is_new);
}

int32_t hsax_intern(hsax_parser *p, const uint8_t *bytes, int32_t length, int32_t *is_new) {
    uint64_t h = fnv1a(bytes, length);
    uint32_t j = (uint32_t)h & (p->slot_cap - 1);
    for (;;) {
        intern_slot *s = &p->slots[j];
        if (s->id < 0) break;
        if (s->hash == h && p->lengths[s->id] == length &&
            (length == 0 || memcmp(p->arena + p->offsets[s->id], bytes, (size_t)length) == 0)) {
            if (is_new) *is_new = 0;
            return s->id;
        }
        j = (j + 1) & (p->slot_cap - 1);
    }
    /* new string */
    if (p->count == p->ids_cap) {
        int32_t cap = p->ids_cap ? p->ids_cap * 2 : 256;
        uint32_t *o = realloc(p->offsets, sizeof(uint32_t) * (size_t)cap);
        if (!o) return -1;
        p->offsets = o;
        int32_t *l = realloc(p->lengths, sizeof(int32_t) * (size_t)cap);
        if (!l) return -1;
        p->lengths = l;
        p->ids_cap = cap;
    }
    if (p->arena == NULL || p->arena_len + (size_t)length > p->arena_cap) {
        size_t cap = p->arena_cap ? p->arena_cap * 2 : 65536;
        while (cap < p->arena_len + (size_t)length) cap *= 2;
        uint8_t *a = realloc(p->arena, cap);
        if (!a) return -1;
        p->arena = a;
        p->arena_cap = cap;
    }
    if (length > 0) memcpy(p->arena + p->arena_len, bytes, (size_t)length);
    int32_t id = p->count++;
    p->offsets[id] = (uint32_t)p->arena_len;
    p->lengths[id] = length;
    p->arena_len += (size_t)length;
    p->slots[j].hash = h;
    p->slots[j].id = id;
    if ((uint32_t)p->count * 2 > p->slot_cap && grow_slots(p) != 0) return -1;
    if (is_new) *is_new = 1;
    return id;
}
