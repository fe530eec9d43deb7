// CHealthFilter: the byte pre-filter that every byte of an export passes before libxml2 sees it
// (step 1 of include/CHealthSAX.h; docs/export-format.md §6). A parser (CHealthSAX.c) and a
// splitter (CHealthSplit.c) each own one and receive its output through their sink.
#include "CHealthSAXInternal.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef HSAX_FILTER_BUFFER
#define HSAX_FILTER_BUFFER (1u << 20)   /* the fuzz targets build with a small one (scripts/fuzz) */
#endif
#define HSAX_DOCTYPE_LIMIT (1u << 20)   /* bytes we skip looking for <HealthData after <!DOCTYPE */
#define HSAX_CONTROL_ALLOWANCE 4096    /* see control_allowance */

/* Pre-filter states. */
enum {
    PF_PROLOG = 0,     /* before the root element; looking for <!DOCTYPE or the root */
    PF_PROLOG_LT,      /* saw '<' in the prolog; deciding what it starts */
    PF_DOCTYPE,        /* inside the DOCTYPE: dropping bytes until <HealthData */
    PF_COMMENT,        /* inside a comment of the prolog: passed on until "-->" */
    PF_PI,             /* inside a processing instruction (the XML declaration): until "?>" */
    PF_BODY,           /* after the root's start: only control characters are removed */
};


struct hsax_filter {
    hsax_sink_fn sink;        /* receives the filtered bytes */
    void *sink_context;

    int pf_state;
    uint8_t pf_pending[16];   /* bytes held while deciding after '<' in the prolog */
    int pf_pending_len;
    int pf_match;             /* bytes of "<HealthData" matched in the DOCTYPE */
    int pf_version_match;     /* bytes of "HealthKit Export Version:" matched */
    int pf_in_version;        /* reading the version digits */
    size_t pf_doctype_bytes;
    int pf_dashes;            /* '-' just seen in a comment */
    int pf_comment_bytes;     /* bytes of the prolog comment's text so far */
    int pf_question;          /* '?' just seen in a processing instruction */

    int dropped_doctype;
    int32_t export_version;
    int64_t removed_controls;
    int64_t fed;              /* bytes fed so far (before the pre-filter) */
    uint8_t head[4];          /* the first bytes fed, for the UTF-16 test */
    int not_export;           /* HSAX_ERR_CONTROLS or HSAX_ERR_UTF16 once found */
    int no_root;
    uint8_t *out;             /* filtered bytes waiting for the sink */
    size_t out_len;
};


static const char healthdata_tag[] = "<HealthData";
static const char doctype_tag[] = "<!DOCTYPE";
static const char version_tag[] = "HealthKit Export Version:";

/* 1 for bytes the pre-filter deletes: 0x00-0x08, 0x0B, 0x0C, 0x0E-0x1F (XML 1.0 forbids them)
   and 0x7F (DEL; XML 1.0 §2.2 discourages #x7F-#x84, and exports never hold it): with DEL gone,
   a value starting with DEL can only be a token of the attribute rewriter. */
static const uint8_t is_control[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x7F] = 1,
};

/* Nonzero when one of the eight bytes of `x` is below 0x20 or is 0x7F (exact as a yes/no; the
   bits set may include bytes above a hit, so hits are confirmed through is_control). */
static inline uint64_t word_has_control(uint64_t x) {
    uint64_t y = x ^ 0x7F7F7F7F7F7F7F7Full;
    return (((x - 0x2020202020202020ull) & ~x) | ((y - 0x0101010101010101ull) & ~y)) & 0x8080808080808080ull;
}

hsax_filter *hsax_filter_create(void *sink_context, hsax_sink_fn sink) {
    hsax_filter *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->sink = sink;
    p->sink_context = sink_context;
    p->export_version = -1;
    p->out = malloc(HSAX_FILTER_BUFFER + sizeof p->pf_pending + 8);
    if (!p->out) { free(p); return NULL; }
    return p;
}

void hsax_filter_free(hsax_filter *p) {
    if (!p) return;
    free(p->out);
    free(p);
}

int64_t hsax_filter_removed_control_characters(const hsax_filter *p) { return p->removed_controls; }
int hsax_filter_dropped_doctype(const hsax_filter *p) { return p->dropped_doctype; }
int32_t hsax_filter_export_version(const hsax_filter *p) { return p->export_version; }

static int flush_out(hsax_filter *p, int is_last) {
    if (p->out_len == 0 && !is_last) return HSAX_OK;
    size_t n = p->out_len;
    p->out_len = 0;
    return p->sink(p->sink_context, p->out, n, is_last);
}

/* 1 when `n` bytes hold a byte the pre-filter deletes. Eight bytes at a time are tested for
   any byte below 0x20 or equal to 0x7F; only words holding one (mostly a newline) are looked at
   byte by byte. */
static int has_control(const uint8_t *b, size_t n) {
    size_t k = 0;
#if defined(__SSE2__)
    /* 64 bytes at a time (SSE2, in every x86-64 CPU): first whether a byte is at most 0x1F or is
       0x7F at all; only such blocks (most hold a newline) are checked again without the tab,
       newline and carriage return that the pre-filter keeps. */
    const __m128i low = _mm_set1_epi8(0x1F), tab = _mm_set1_epi8('\t'), nl = _mm_set1_epi8('\n'),
                  cr = _mm_set1_epi8('\r'), del = _mm_set1_epi8(0x7F);
    for (; k + 64 <= n; k += 64) {
        __m128i v[4], c[4];
        for (int j = 0; j < 4; j++) {
            v[j] = _mm_loadu_si128((const __m128i *)(const void *)(b + k + 16 * j));
            c[j] = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v[j], low), v[j]), _mm_cmpeq_epi8(v[j], del));
        }
        if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(c[0], c[1]), _mm_or_si128(c[2], c[3]))) == 0) continue;
        for (int j = 0; j < 4; j++) {
            __m128i kept = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v[j], tab), _mm_cmpeq_epi8(v[j], nl)),
                                        _mm_cmpeq_epi8(v[j], cr));
            if (_mm_movemask_epi8(_mm_andnot_si128(kept, c[j])) != 0) return 1;
        }
    }
#endif
    for (; k + 8 <= n; k += 8) {
        uint64_t x;
        memcpy(&x, b + k, 8);
        if (word_has_control(x) == 0) continue;
        for (int j = 0; j < 8; j++) if (is_control[b[k + j]]) return 1;
    }
    for (; k < n; k++) if (is_control[b[k]]) return 1;
    return 0;
}

int hsax_filter_passes_through(const hsax_filter *p) {
    return !p->no_root && !p->not_export && p->pf_state == PF_BODY && p->out_len == 0;
}

int hsax_filter_pass(hsax_filter *p, const uint8_t *bytes, size_t n) {
    if (!hsax_filter_passes_through(p) || has_control(bytes, n)) return 0;
    /* what hsax_parser_feed's fastest path counts; nothing else of the filter's state changes */
    p->fed += (int64_t)n;
    return 1;
}

static inline int emit(hsax_filter *p, uint8_t b) {
    p->out[p->out_len++] = b;
    if (p->out_len >= HSAX_FILTER_BUFFER) return flush_out(p, 0);
    return HSAX_OK;
}

/* Control characters the pre-filter may delete before the byte at offset `at`: a fixed
   allowance plus 1/64 of the bytes before it. Past that the input is not an export (a flood of
   NUL bytes, /dev/zero, a UTF-16 or binary file), and the feed stops with HSAX_ERR_CONTROLS. */
static inline int64_t control_allowance(int64_t at) {
    return HSAX_CONTROL_ALLOWANCE + at / 64;
}

/* One byte of the prolog or DOCTYPE (slow path; runs only until the root element starts). */
static int prolog_byte(hsax_filter *p, uint8_t b) {
    int rc = HSAX_OK;
    switch (p->pf_state) {
    case PF_PROLOG:
        if (b == '<') {
            p->pf_pending[0] = b;
            p->pf_pending_len = 1;
            p->pf_state = PF_PROLOG_LT;
            return HSAX_OK;
        }
        return emit(p, b);
    case PF_PROLOG_LT: {
        int n = p->pf_pending_len;
        p->pf_pending[p->pf_pending_len++] = b;
        if (n < (int)sizeof doctype_tag - 1 && (uint8_t)doctype_tag[n] == b) {
            if (p->pf_pending_len == (int)sizeof doctype_tag - 1) {
                p->pf_state = PF_DOCTYPE;
                p->dropped_doctype = 1;
                p->pf_match = 0;
                p->pf_doctype_bytes = 0;
            }
            return HSAX_OK;
        }
        /* "<!-" can still become a comment: wait for the second '-'. */
        if (p->pf_pending_len == 3 && p->pf_pending[1] == '!' && b == '-') return HSAX_OK;
        /* Not a DOCTYPE: hand the held bytes on. A comment ("<!--") and a processing instruction
           ("<?") are skipped to their end, so that a '<' inside them is not taken for the root
           element; any other "<!" stays in the prolog; anything else starts the root element. */
        int next = PF_BODY;
        if (p->pf_pending_len == 4 && p->pf_pending[1] == '!' && p->pf_pending[2] == '-' && b == '-') {
            next = PF_COMMENT;
            p->pf_dashes = 0;
            p->pf_comment_bytes = 0;
        } else if (p->pf_pending[1] == '?') {
            next = PF_PI;
            p->pf_question = b == '?' && p->pf_pending_len > 2;
        } else if (p->pf_pending[1] == '!') {
            next = PF_PROLOG;
        }
        for (int i = 0; i < p->pf_pending_len && rc == HSAX_OK; i++) rc = emit(p, p->pf_pending[i]);
        p->pf_pending_len = 0;
        p->pf_state = next;
        return rc;
    }
    case PF_COMMENT:
        if (b == '>' && p->pf_dashes >= 2) p->pf_state = PF_PROLOG;
        /* "<!-->" and "<!--->" (a comment whose text starts with ">" or "->") become "<!-- " and
           "<!--- ": see hsax_comment_guard. */
        if (b == '>' && (p->pf_comment_bytes == 0 || (p->pf_comment_bytes == 1 && p->pf_dashes == 1))) b = ' ';
        p->pf_comment_bytes++;
        p->pf_dashes = b == '-' ? p->pf_dashes + 1 : 0;
        return emit(p, b);
    case PF_PI:
        if (b == '>' && p->pf_question) p->pf_state = PF_PROLOG;
        p->pf_question = b == '?';
        return emit(p, b);
    case PF_DOCTYPE: {
        if (++p->pf_doctype_bytes > HSAX_DOCTYPE_LIMIT) { p->no_root = 1; return HSAX_ERR_NO_ROOT; }
        if (b == '\n') rc = emit(p, b); /* keep line numbers those of the original file */
        /* the export version comment */
        if (p->pf_in_version) {
            if (b >= '0' && b <= '9') {
                p->export_version = (p->export_version < 0 ? 0 : p->export_version) * 10 + (b - '0');
                if (p->export_version > 100000) p->export_version = 100000;
            } else if (!(b == ' ' && p->export_version < 0)) {
                p->pf_in_version = 0;
            }
        } else if ((uint8_t)version_tag[p->pf_version_match] == b) {
            if (++p->pf_version_match == (int)sizeof version_tag - 1) {
                p->pf_in_version = 1;
                p->pf_version_match = 0;
            }
        } else {
            p->pf_version_match = (b == 'H') ? 1 : 0;
        }
        /* the root element */
        if (p->pf_match == (int)sizeof healthdata_tag - 1) {
            if (b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '>' || b == '/') {
                for (int i = 0; i < p->pf_match && rc == HSAX_OK; i++) rc = emit(p, (uint8_t)healthdata_tag[i]);
                if (rc == HSAX_OK && b != '\n') rc = emit(p, b);
                p->pf_state = PF_BODY;
                return rc;
            }
            p->pf_match = 0;
        }
        if ((uint8_t)healthdata_tag[p->pf_match] == b) p->pf_match++;
        else p->pf_match = (b == '<') ? 1 : 0;
        return rc;
    }
    }
    return rc;
}

int hsax_filter_feed(hsax_filter *p, const uint8_t *bytes, size_t length, int is_last) {
    if (p->no_root) return HSAX_ERR_NO_ROOT;
    if (p->not_export) return p->not_export;
    size_t i = 0;
    int rc;
    /* slow path: prolog and DOCTYPE, byte by byte */
    while (i < length && p->pf_state != PF_BODY) {
        uint8_t b = bytes[i++];
        int64_t at = p->fed + (int64_t)i - 1;
        if (at < 4) {
            p->head[at] = b;
            if (at == 1 && ((p->head[0] == 0xFF && b == 0xFE) || (p->head[0] == 0xFE && b == 0xFF)))
                return p->not_export = HSAX_ERR_UTF16;
            if (at == 3 && ((p->head[0] == '<' && p->head[1] == 0 && p->head[2] == '?' && b == 0) ||
                            (p->head[0] == 0 && p->head[1] == '<' && p->head[2] == 0 && b == '?')))
                return p->not_export = HSAX_ERR_UTF16;
        }
        if (is_control[b]) {
            if (++p->removed_controls > control_allowance(at)) { p->fed += (int64_t)i; return p->not_export = HSAX_ERR_CONTROLS; }
            continue;
        }
        if ((rc = prolog_byte(p, b)) != HSAX_OK) { p->fed += (int64_t)i; return rc; }
    }
    /* fastest path: nothing is waiting in the filter buffer and the rest of the chunk holds no
       control character (the usual case): libxml2 reads it where it is, without a copy. */
    if (i < length && p->out_len == 0 && !has_control(bytes + i, length - i)) {
        size_t n = length - i;
        i = length;
        if ((rc = p->sink(p->sink_context, bytes + i - n, n, 0)) != HSAX_OK) { p->fed += (int64_t)length; return rc; }
    }
    /* fast path: copy everything but the control characters. Eight bytes at a time are tested
       for any byte below 0x20 or equal to 0x7F (exact for every byte value); only words holding one (mostly the
       newline at the end of each line) go through the table. */
    while (i < length) {
        size_t room = HSAX_FILTER_BUFFER - p->out_len;
        size_t n = length - i < room ? length - i : room;
        const uint8_t *src = bytes + i;
        uint8_t *dst = p->out + p->out_len;
        size_t w = 0, k = 0;
        while (k + 8 <= n) {
            uint64_t x;
            memcpy(&x, src + k, 8);
            memcpy(dst + w, &x, 8);
            if (word_has_control(x) == 0) {
                w += 8;
                k += 8;
                continue;
            }
            for (int j = 0; j < 8; j++) {
                uint8_t b = src[k + j];
                dst[w] = b;
                if (!is_control[b]) w++;
                else if (++p->removed_controls > control_allowance(p->fed + (int64_t)(i + k + j))) goto too_many;
            }
            k += 8;
        }
        for (; k < n; k++) {
            uint8_t b = src[k];
            dst[w] = b;
            if (!is_control[b]) w++;
            else if (++p->removed_controls > control_allowance(p->fed + (int64_t)(i + k))) goto too_many;
        }
        p->out_len += w;
        i += n;
        if (p->out_len >= HSAX_FILTER_BUFFER / 2 || i < length) {
            if ((rc = flush_out(p, 0)) != HSAX_OK) { p->fed += (int64_t)length; return rc; }
        }
    }
    p->fed += (int64_t)length;
    if (is_last) {
        if (p->pf_state == PF_DOCTYPE) { p->no_root = 1; return HSAX_ERR_NO_ROOT; }
        if (p->pf_state == PF_PROLOG_LT) {
            for (int k = 0; k < p->pf_pending_len; k++) p->out[p->out_len++] = p->pf_pending[k];
            p->pf_pending_len = 0;
        }
        return flush_out(p, 1);
    }
    return HSAX_OK;
too_many:
    p->fed += (int64_t)length;
    return p->not_export = HSAX_ERR_CONTROLS;
}


size_t hsax_comment_guard(int *state, const uint8_t *b, size_t n) {
    /* states: 0 nothing, 1 "<", 2 "<!", 3 "<!-", 4 "<!--", 5 "<!---" */
    int s = *state;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = b[i];
        if (s == 0) {
            const uint8_t *lt = memchr(b + i, '<', n - i);
            if (!lt) break;
            i = (size_t)(lt - b);
            s = 1;
            continue;
        }
        if ((s == 4 || s == 5) && c == '>') {
            *state = 0;
            return i;
        }
        if (s == 1 && c == '!') s = 2;
        else if ((s == 2 || s == 3 || s == 4) && c == '-') s++;
        else s = c == '<' ? 1 : 0;
    }
    *state = s;
    return n;
}
