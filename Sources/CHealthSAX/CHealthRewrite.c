// CHealthRewrite: the attribute-value rewriter of the glue. See CHealthSAXInternal.h.
//
// libxml2 2.9.14 parses an attribute value on a fast path only if every byte is 0x20..0x7F and
// neither '&' nor '<'; any other value is parsed again in xmlParseAttValueComplex, one
// xmlCurrentChar call per character. In Apple exports every `device` value (entity-escaped
// "&lt;&lt;HKDevice: ...&gt;") and every non-ASCII `sourceName` ("Alex’s iPhone") takes that
// slow path. This stage, between the pre-filter and xmlParseChunk, decodes such values itself
// (exactly as the glue would hand them to Swift), keeps the decoded bytes in a table, and puts a
// short ASCII token in their place: DEL (0x7F, which the pre-filter deletes from the input, so
// that no other value can start with it) and the table index in decimal. The start-tag callback
// maps tokens back (hsax_rewriter_resolve).
//
// Invariants kept (checked by Tests/HealthExportTests/AttributeRewriterTests.swift):
//  - lines: no newline is added or removed; columns: libxml2 counts characters (input->col), so
//    the token is padded inside its quotes with '-' to as many characters as the value had
//    (unless the rewriter was made without `keep_columns`: then a later error's column on the
//    token's line is short by the padding, and libxml2 scans that much less);
//  - only values libxml2 would accept and deliver unchanged are rewritten; everything unusual
//    (unknown entities, bad references or UTF-8, '<', raw TAB/LF/CR, xml* attributes, a value not
//    followed by whitespace, '>' or "/>") is left to libxml2, which reports its own error at its
//    own position;
//  - only complete start tags are rewritten; an unfinished one at the end of a chunk is held back
//    and put in front of the next chunk, so every token is resolved during the xmlParseChunk call
//    that received it (libxml2 parses complete start tags in its buffer and only those);
//  - comments, CDATA sections, processing instructions and text are passed on unchanged; at any
//    other "<!" markup, or an encoding declaration other than UTF-8, the stage turns itself off
//    for the rest of the stream.
#include "CHealthSAXInternal.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define RW_TAG_CAP (64u * 1024u) /* longer start tags pass through untouched */
#define RW_DEL 0x7F
#define RW_FILLER '-' /* pads a token to the value's character count (not a digit) */

enum { RW_TEXT = 0, RW_SKIP, RW_OFF };

typedef struct {
    uint32_t off, len; /* the decoded bytes in the arena */
    uint32_t token;    /* the token's length with its filler, if any (then the value's character count) */
} rw_entry;

/* One generation of decoded values: the tokens of one chunk. */
typedef struct {
    uint64_t base; /* index of entries[0] */
    uint32_t count, cap;
    rw_entry *entries;
    uint8_t *arena;
    size_t arena_len, arena_cap;
} rw_gen;

struct hsax_rewriter {
    int mode;
    int keep_columns; /* pad tokens to the value's character count */
    uint8_t skip_x;  /* RW_SKIP: the byte repeated before '>' in the terminator ('-', ']', '?') */
    int skip_need;   /* how many of them the terminator has */
    int skip_run;    /* how many of them ended the bytes seen so far (at most skip_need) */

    uint8_t head[3]; /* the stream's first bytes (a UTF-8 byte order mark) */
    int head_len;
    uint64_t in_pos; /* stream bytes handed to hsax_rewriter_run so far */

    uint8_t *hold;   /* an unfinished start tag (or undecided markup) from the previous chunk */
    size_t hold_len, hold_cap;
    int hold_needs_gt; /* the held markup cannot end before a '>' */
    int last_needs_gt; /* set by scan when it stops at unfinished markup */

    uint8_t *out;
    size_t out_len, out_cap;

    rw_gen gen[2];
    int cur;
    uint64_t next_index;
    uint8_t digits[24]; /* next_index in decimal, most significant first */
    int ndigits;
    uint64_t rewritten;
};

/* Bytes that end an element name for the scanner: whitespace and markup
   delimiters. The scanner is lenient inside names (libxml2 checks them, and a name error comes
   before the value it names); it only needs to find the same structure libxml2 finds. */
static const uint8_t name_stop[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['>'] = 1, ['/'] = 1, ['<'] = 1, ['"'] = 1, ['\''] = 1, ['='] = 1,
};

static inline int is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

hsax_rewriter *hsax_rewriter_create(int keep_columns) {
    hsax_rewriter *r = calloc(1, sizeof *r);
    if (r) {
        r->keep_columns = keep_columns != 0;
        r->digits[0] = '0';
        r->ndigits = 1;
    }
    return r;
}

/* next_index++, in both forms. */
static inline void advance_index(hsax_rewriter *r) {
    r->next_index++;
    int i = r->ndigits - 1;
    while (i >= 0 && r->digits[i] == '9') r->digits[i--] = '0';
    if (i >= 0) {
        r->digits[i]++;
    } else {
        memmove(r->digits + 1, r->digits, (size_t)r->ndigits);
        r->digits[0] = '1';
        r->ndigits++;
    }
}

/* next_index rolled back to `x` (a tag given up). */
static void set_index(hsax_rewriter *r, uint64_t x) {
    r->next_index = x;
    uint8_t tmp[24];
    int n = 0;
    do { tmp[n++] = (uint8_t)('0' + x % 10); x /= 10; } while (x);
    for (int i = 0; i < n; i++) r->digits[i] = tmp[n - 1 - i];
    r->ndigits = n;
}

void hsax_rewriter_free(hsax_rewriter *r) {
    if (!r) return;
    free(r->hold);
    free(r->out);
    for (int g = 0; g < 2; g++) {
        free(r->gen[g].entries);
        free(r->gen[g].arena);
    }
    free(r);
}

uint64_t hsax_rewriter_count(const hsax_rewriter *r) { return r ? r->rewritten : 0; }

static int reserve(uint8_t **buf, size_t *cap, size_t need) {
    if (need <= *cap && *buf) return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    uint8_t *b = realloc(*buf, c);
    if (!b) return -1;
    *buf = b;
    *cap = c;
    return 0;
}

static inline void put(hsax_rewriter *r, const uint8_t *b, size_t n) {
    if (n) memcpy(r->out + r->out_len, b, n);
    r->out_len += n;
}

/* IS_CHAR of XML 1.0 §2.2 for a scalar value. */
static inline int is_xml_char(uint32_t c) {
    if (c < 0x20) return c == 0x9 || c == 0xA || c == 0xD;
    if (c <= 0xD7FF) return 1;
    if (c < 0xE000) return 0;
    if (c <= 0xFFFD) return 1;
    return c >= 0x10000 && c <= 0x10FFFF;
}

static inline size_t utf8_put(uint8_t *d, uint32_t c) {
    if (c < 0x80) { d[0] = (uint8_t)c; return 1; }
    if (c < 0x800) { d[0] = (uint8_t)(0xC0 | c >> 6); d[1] = (uint8_t)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        d[0] = (uint8_t)(0xE0 | c >> 12); d[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F)); d[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    d[0] = (uint8_t)(0xF0 | c >> 18); d[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    d[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F)); d[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

#define RW_K01 0x0101010101010101ull
#define RW_K80 0x8080808080808080ull
/* Zero bytes of `v` as 0x80 bits; the lowest set bit marks the first zero byte exactly. */
static inline uint64_t zero_bytes(uint64_t v) { return (v - RW_K01) & ~v & RW_K80; }

/* The bytes decode_value must look at one by one: '&', '<', below 0x20, 0x7F, 0x80 and above.
   The lowest set bit marks the first of them exactly (borrows only run upwards). */
static inline uint64_t word_special(uint64_t x) {
    return (x | zero_bytes(x ^ 0x2626262626262626ull) | zero_bytes(x ^ 0x3C3C3C3C3C3C3C3Cull) |
            zero_bytes(x ^ 0x7F7F7F7F7F7F7F7Full) | ((x - 0x2020202020202020ull) & ~x)) & RW_K80;
}

/* The end of the value that starts at b[vs] and is closed by quote `q`: the index of that quote,
   or len when it is not in b[vs..len). Sets *special when the value would take libxml2's slow
   path: it holds '&' or a byte >= 0x80. (A '<' or a control character sends it there too, but
   such values are never rewritten.) One pass, eight bytes at a time, and no call for the short
   values of an export. */
static inline size_t value_end(const uint8_t *b, size_t vs, size_t len, uint8_t q, int *special) {
    const uint64_t quotes = RW_K01 * q, amps = RW_K01 * '&';
    size_t k = vs;
#if defined(__SSE2__)
    /* 16 bytes at a time: movemask takes each byte's top bit, so or-ing the bytes themselves in
       marks those >= 0x80 too */
    const __m128i vq = _mm_set1_epi8((char)q), va = _mm_set1_epi8('&');
    for (; k + 16 <= len; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + k));
        int m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, vq), _mm_cmpeq_epi8(v, va)), v));
        if (m == 0) continue;
        k += (size_t)__builtin_ctz((unsigned)m);
        goto found;
    }
#endif
    for (; k + 8 <= len; k += 8) {
        uint64_t x;
        memcpy(&x, b + k, 8);
        uint64_t m = zero_bytes(x ^ quotes) | zero_bytes(x ^ amps) | (x & RW_K80);
        if (m == 0) continue;
        k += (size_t)__builtin_ctzll(m) >> 3;
        break;
    }
    for (; k < len && b[k] != q; k++) {
        if (b[k] == '&' || b[k] >= 0x80) break;
    }
#if defined(__SSE2__)
found:
#endif
    if (k < len && b[k] == q) {
        *special = 0;
        return k;
    }
    *special = 1;
    if (k >= len) return len;
    const uint8_t *e = memchr(b + k, q, len - k);
    return e ? (size_t)(e - b) : len;
}

/* The index of the first '=', '>', '<', '"' or '\'' in b[k..len), or len. */
static inline size_t find_eq(const uint8_t *b, size_t k, size_t len) {
#if defined(__SSE2__)
    const __m128i eq = _mm_set1_epi8('='), gt = _mm_set1_epi8('>'), lt = _mm_set1_epi8('<'),
                  dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\'');
    for (; k + 16 <= len; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + k));
        __m128i x = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, eq), _mm_cmpeq_epi8(v, gt)),
                                 _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, dq)),
                                              _mm_cmpeq_epi8(v, sq)));
        int m = _mm_movemask_epi8(x);
        if (m) return k + (size_t)__builtin_ctz((unsigned)m);
    }
#endif
    for (; k + 8 <= len; k += 8) {
        uint64_t x;
        memcpy(&x, b + k, 8);
        uint64_t m = zero_bytes(x ^ 0x3D3D3D3D3D3D3D3Dull) | zero_bytes(x ^ 0x3E3E3E3E3E3E3E3Eull) |
                     zero_bytes(x ^ 0x3C3C3C3C3C3C3C3Cull) | zero_bytes(x ^ 0x2222222222222222ull) |
                     zero_bytes(x ^ 0x2727272727272727ull);
        if (m) return k + ((size_t)__builtin_ctzll(m) >> 3);
    }
    while (k < len && b[k] != '=' && b[k] != '>' && b[k] != '<' && b[k] != '"' && b[k] != '\'') k++;
    return k;
}

/* Decodes value bytes v[0..n) as libxml2 + the glue would hand them to Swift, into dst (room
   for n bytes: decoding never lengthens a value). Returns the decoded length and sets *chars to
   the number of characters the source occupies (libxml2's column count), or returns -1 when the
   value is not one to rewrite (see the file comment). One function on purpose (about 115 lines):
   a byte-at-a-time decoder of entities, character references and line ends, one loop whose
   cases share the output position and the column count. */
static long decode_value(const uint8_t *v, size_t n, uint8_t *dst, size_t *chars) {
    size_t w = 0, ch = 0, i = 0;
#if defined(__SSE2__)
    const __m128i amp = _mm_set1_epi8('&'), lt = _mm_set1_epi8('<'), low = _mm_set1_epi8(0x1F),
                  del = _mm_set1_epi8(0x7F);
#endif
    while (i < n) {
#if defined(__SSE2__)
        /* plain bytes sixteen at a time, the same specials as word_special (the bytes' own top
           bits mark those >= 0x80) */
        while (i + 16 <= n) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(v + i));
            _mm_storeu_si128((__m128i *)(void *)(dst + w), x);
            __m128i sp = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, amp), _mm_cmpeq_epi8(x, lt)),
                                      _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(x, low), x), _mm_cmpeq_epi8(x, del)));
            int m = _mm_movemask_epi8(_mm_or_si128(sp, x));
            if (m == 0) { w += 16; ch += 16; i += 16; continue; }
            size_t z = (size_t)__builtin_ctz((unsigned)m);
            w += z; ch += z; i += z;
            goto special;
        }
#endif
        /* plain bytes eight at a time (dst has room: w <= i, and i + 8 <= n) */
        while (i + 8 <= n) {
            uint64_t x;
            memcpy(&x, v + i, 8);
            memcpy(dst + w, &x, 8);
            uint64_t m = word_special(x);
            if (m == 0) { w += 8; ch += 8; i += 8; continue; }
            size_t z = (size_t)__builtin_ctzll(m) >> 3;
            w += z; ch += z; i += z;
            break;
        }
        if (i >= n) break;
#if defined(__SSE2__)
    special:;
#endif
        uint8_t c = v[i];
        if (c < 0x80) {
            if (c == '&') {
                if (i + 1 >= n) return -1;
                if (v[i + 1] == '#') {
                    size_t j = i + 2;
                    int hex = 0;
                    if (j < n && v[j] == 'x') { hex = 1; j++; }
                    uint32_t val = 0;
                    size_t digits = 0;
                    while (j < n && v[j] != ';') {
                        uint8_t d = v[j];
                        uint32_t dv;
                        if (d >= '0' && d <= '9') dv = d - '0';
                        else if (hex && d >= 'a' && d <= 'f') dv = d - 'a' + 10;
                        else if (hex && d >= 'A' && d <= 'F') dv = d - 'A' + 10;
                        else return -1;
                        if (++digits > 8) return -1;
                        val = val * (hex ? 16 : 10) + dv;
                        j++;
                    }
                    if (j >= n || digits == 0 || !is_xml_char(val)) return -1;
                    w += utf8_put(dst + w, val);
                    ch += j + 1 - i;
                    i = j + 1;
                    continue;
                }
                const uint8_t *e = v + i + 1;
                size_t left = n - i - 1, el;
                uint8_t d;
                if (left >= 3 && e[1] == 't' && e[2] == ';' && (e[0] == 'l' || e[0] == 'g')) {
                    d = e[0] == 'l' ? '<' : '>';
                    el = 3;
                } else if (left >= 4 && memcmp(e, "amp;", 4) == 0) {
                    d = '&';
                    el = 4;
                } else if (left >= 5 && memcmp(e, "apos;", 5) == 0) {
                    d = '\'';
                    el = 5;
                } else if (left >= 5 && memcmp(e, "quot;", 5) == 0) {
                    d = '"';
                    el = 5;
                } else {
                    return -1;
                }
                dst[w++] = d;
                ch += 1 + el;
                i += 1 + el;
                continue;
            }
            /* '<' is an error; raw TAB/LF/CR are normalized and move lines; DEL cannot occur
               (the pre-filter deletes it) but would be taken for a token */
            if (c < 0x20 || c == '<' || c == RW_DEL) return -1;
            dst[w++] = c;
            ch++;
            i++;
            continue;
        }
        /* UTF-8, shortest form, XML characters only (libxml2's xmlCurrentChar rules) */
        uint32_t val;
        size_t len;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; val = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; val = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; val = c & 0x07; }
        else return -1;
        if (i + len > n) return -1;
        for (size_t k = 1; k < len; k++) {
            if ((v[i + k] & 0xC0) != 0x80) return -1;
            val = val << 6 | (v[i + k] & 0x3F);
        }
        if ((len == 3 && val < 0x800) || (len == 4 && val < 0x10000) || !is_xml_char(val)) return -1;
        memcpy(dst + w, v + i, len);
        w += len;
        ch++;
        i += len;
    }
    *chars = ch;
    return (long)w;
}

/* Finds the end of a comment, CDATA section or PI from b[i]; returns the index after its '>'
   and leaves RW_SKIP, or returns len with the run of terminator bytes remembered. */
static size_t skip_find(hsax_rewriter *r, const uint8_t *b, size_t i, size_t len) {
    const uint8_t x = r->skip_x;
    const int need = r->skip_need;
    while (i < len) {
        const uint8_t *q = memchr(b + i, '>', len - i);
        if (!q) {
            size_t m = len;
            int cnt = 0;
            while (m > i && cnt < need && b[m - 1] == x) { cnt++; m--; }
            if (m == i) { cnt += r->skip_run; if (cnt > need) cnt = need; }
            r->skip_run = cnt;
            return len;
        }
        size_t j = (size_t)(q - b);
        size_t m = j;
        int cnt = 0;
        while (m > i && cnt < need && b[m - 1] == x) { cnt++; m--; }
        if (cnt < need && m == i) cnt += r->skip_run;
        r->skip_run = 0;
        if (cnt >= need) { r->mode = RW_TEXT; return j + 1; }
        i = j + 1;
    }
    return len;
}

/* The XML declaration at the start of the stream: 1 when its encoding (if any) is UTF-8. */
static int declares_utf8(const uint8_t *d, size_t n) {
    static const char key[] = "encoding";
    const size_t kl = sizeof key - 1;
    int seen = 0;
    for (size_t i = 0; i + kl <= n; i++) {
        if (memcmp(d + i, key, kl) != 0) continue;
        if (seen++) return 0;
        size_t j = i + kl;
        while (j < n && is_ws(d[j])) j++;
        if (j >= n || d[j] != '=') return 0;
        j++;
        while (j < n && is_ws(d[j])) j++;
        if (j >= n || (d[j] != '"' && d[j] != '\'')) return 0;
        uint8_t q = d[j++];
        size_t s = j;
        while (j < n && d[j] != q) j++;
        if (j >= n) return 0;
        size_t l = j - s;
        char e[8] = {0};
        if (l != 5 && l != 4) return 0;
        for (size_t k = 0; k < l; k++) e[k] = (char)(d[s + k] >= 'A' && d[s + k] <= 'Z' ? d[s + k] + 32 : d[s + k]);
        if (strcmp(e, "utf-8") != 0 && strcmp(e, "utf8") != 0) return 0;
        i = j;
    }
    return 1;
}

enum { TAG_DONE, TAG_UNFINISHED, TAG_ABORT };

/* Scans the start tag at b[t] ('<' followed by a name byte). On TAG_DONE, the tag (with its
   rewritten values) has been written to r->out and *end is the index after its '>'. On
   TAG_ABORT nothing was written and *end is where to go on scanning text (the tag is passed on
   untouched). On TAG_UNFINISHED nothing was written. One function on purpose (about 105
   lines): a scanner over one tag's bytes (name, attributes, quotes) whose early exits each
   leave the output as it was. */
static int scan_tag(hsax_rewriter *r, const uint8_t *b, size_t t, size_t len, size_t *end) {
    rw_gen *g = &r->gen[r->cur];
    const size_t out0 = r->out_len;
    const uint32_t count0 = g->count;
    const size_t arena0 = g->arena_len;
    const uint64_t next0 = r->next_index;
    size_t copied = t; /* b[copied..] not yet written */
    size_t k = t + 1;
    int rc;

#define RW_FAIL(code, at) do { rc = (code); *end = (at); goto fail; } while (0)
    while (k < len && !name_stop[b[k]]) k++;
    if (k >= len) RW_FAIL(TAG_UNFINISHED, t);
    if (k == t + 1) RW_FAIL(TAG_ABORT, t + 1);
    for (;;) {
        size_t ws = k;
        while (k < len && is_ws(b[k])) k++;
        if (k >= len) RW_FAIL(TAG_UNFINISHED, t);
        if (b[k] == '>') { k++; break; }
        if (b[k] == '/') {
            if (k + 1 >= len) RW_FAIL(TAG_UNFINISHED, t);
            if (b[k + 1] == '>') { k += 2; break; }
            RW_FAIL(TAG_ABORT, k);
        }
        if (k == ws) RW_FAIL(TAG_ABORT, k);
        /* The attribute's name and the blanks after it run to the next '='. libxml2 accepts
           exactly a name and blanks there; anything else in that stretch (a second name) is its
           error, found before the value, so the value found here is either libxml2's own or
           comes after its first error. A '>', '<' or quote first is libxml2's error too: the
           tag is given up there (not held back waiting for an '=' that may never come). */
        size_t ns = k;
        k = find_eq(b, k, len);
        if (k >= len) RW_FAIL(TAG_UNFINISHED, t);
        if (b[k] != '=') RW_FAIL(TAG_ABORT, k);
        size_t ne = k;
        while (ne > ns && is_ws(b[ne - 1])) ne--;
        k++;
        while (k < len && is_ws(b[k])) k++;
        if (k >= len) RW_FAIL(TAG_UNFINISHED, t);
        uint8_t q = b[k];
        if (q != '"' && q != '\'') RW_FAIL(TAG_ABORT, k);
        size_t vs = k + 1;
        int special;
        size_t ve = value_end(b, vs, len, q, &special);
        if (ve >= len) RW_FAIL(TAG_UNFINISHED, t);
        k = ve + 1;
        if (k >= len) RW_FAIL(TAG_UNFINISHED, t);
        if (!special) continue;
        /* (b) names starting with "xml" (xmlns, xmlns:x, xml:*) are libxml2's */
        if (ne - ns >= 3 && (b[ns] | 32) == 'x' && (b[ns + 1] | 32) == 'm' && (b[ns + 2] | 32) == 'l') continue;
        /* a name with non-ASCII bytes: libxml2's UTF-8 error message quotes the four bytes at
           the bad one, which can reach into the value (exports only have ASCII names) */
        int ascii = 1;
        for (size_t j = ns; j < ne; j++) ascii &= b[j] < 0x80;
        if (!ascii) continue;
        /* (d) the value must be followed by whitespace, '>' or "/>" */
        if (!(is_ws(b[k]) || b[k] == '>' || b[k] == '/')) continue;
        if (b[k] == '/') {
            if (k + 1 >= len) RW_FAIL(TAG_UNFINISHED, t);
            if (b[k + 1] != '>') continue;
        }
        /* (c) decode; (e) the token must fit */
        size_t n = ve - vs;
        if (g->arena_len + n > g->arena_cap && reserve(&g->arena, &g->arena_cap, g->arena_len + n) != 0) continue;
        size_t chars = 0;
        long w = decode_value(b + vs, n, g->arena + g->arena_len, &chars);
        if (w < 0) continue;
        size_t tok = 1 + (size_t)r->ndigits;
        if (tok > chars) continue; /* (in both modes, so that both rewrite the same values) */
        size_t filler = r->keep_columns ? chars - tok : 0;
        if (g->count == g->cap) {
            uint32_t cap = g->cap ? g->cap * 2 : 1024;
            rw_entry *ne2 = realloc(g->entries, sizeof *ne2 * cap);
            if (!ne2) continue;
            g->entries = ne2;
            g->cap = cap;
        }
        g->entries[g->count].off = (uint32_t)g->arena_len;
        g->entries[g->count].len = (uint32_t)w;
        g->entries[g->count].token = (uint32_t)(tok + filler);
        g->count++;
        g->arena_len += (size_t)w;
        /* write b[copied..vs), the token, the filler (if any) and the closing quote */
        put(r, b + copied, vs - copied);
        r->out[r->out_len++] = RW_DEL;
        memcpy(r->out + r->out_len, r->digits, (size_t)r->ndigits);
        r->out_len += (size_t)r->ndigits;
        advance_index(r);
        memset(r->out + r->out_len, RW_FILLER, filler);
        r->out_len += filler;
        r->out[r->out_len++] = q;
        copied = ve + 1;
    }
#undef RW_FAIL
    if (k - t > RW_TAG_CAP) { rc = TAG_ABORT; *end = k; goto fail; }
    put(r, b + copied, k - copied);
    r->rewritten += r->next_index - next0;
    *end = k;
    return TAG_DONE;
fail:
    r->out_len = out0;
    g->count = count0;
    g->arena_len = arena0;
    if (r->next_index != next0) set_index(r, next0);
    return rc;
}

static const char cdata_open[] = "<![CDATA[";

/* Scans b[0..len) (stream offset `pos`) from the current mode, writing to r->out. Stops at the
   first markup that starts at or after `stop_at` (returns its index), or at unfinished markup
   (returns its index; r->last_needs_gt says whether only a '>' can finish it), or at the end
   (returns len). With `final`, unfinished markup is passed on untouched. */
static size_t scan(hsax_rewriter *r, const uint8_t *b, size_t len, size_t stop_at, int final, uint64_t pos) {
    size_t i = 0, copied = 0;
    r->last_needs_gt = 0;
    while (i < len) {
        if (r->mode == RW_OFF) break;
        if (r->mode == RW_SKIP) {
            i = skip_find(r, b, i, len);
            continue;
        }
        const uint8_t *q = memchr(b + i, '<', len - i);
        if (!q) { i = len; break; }
        size_t t = (size_t)(q - b);
        if (t >= stop_at) { put(r, b + copied, t - copied); return t; }
        if (t + 1 >= len) goto unfinished_lt;
        uint8_t c = b[t + 1];
        if (c == '/') { i = t + 2; continue; } /* end tag: no '<' inside a good one */
        if (c == '?') {
            uint64_t at = pos + t;
            int decl_place = at == 0 || (at == 3 && r->head_len == 3 && r->head[0] == 0xEF && r->head[1] == 0xBB &&
                                         r->head[2] == 0xBF);
            if (decl_place) {
                if (t + 6 > len) goto unfinished_lt;
                if (memcmp(b + t + 2, "xml", 3) == 0 && is_ws(b[t + 5])) {
                    size_t j = t + 6;
                    const uint8_t *e = NULL;
                    while (j < len && (e = memchr(b + j, '>', len - j)) != NULL && e[-1] != '?') j = (size_t)(e - b) + 1;
                    if (e == NULL || j >= len) {
                        if (!final && len - t <= RW_TAG_CAP) { r->last_needs_gt = 1; goto unfinished; }
                        r->mode = RW_OFF;
                        break;
                    }
                    if (!declares_utf8(b + t, (size_t)(e - b) - t)) { r->mode = RW_OFF; break; }
                    i = (size_t)(e - b) + 1;
                    continue;
                }
            }
            r->mode = RW_SKIP; r->skip_x = '?'; r->skip_need = 1; r->skip_run = 0;
            i = t + 2;
            continue;
        }
        if (c == '!') {
            if (t + 4 > len) {
                if (memcmp(b + t, "<!--", len - t) == 0 || memcmp(b + t, cdata_open, len - t) == 0) goto unfinished_lt;
                r->mode = RW_OFF;
                break;
            }
            if (memcmp(b + t, "<!--", 4) == 0) {
                r->mode = RW_SKIP; r->skip_x = '-'; r->skip_need = 2; r->skip_run = 0;
                i = t + 4;
                continue;
            }
            size_t m = len - t < 9 ? len - t : 9;
            if (memcmp(b + t, cdata_open, m) != 0) { r->mode = RW_OFF; break; }
            if (m < 9) goto unfinished_lt;
            r->mode = RW_SKIP; r->skip_x = ']'; r->skip_need = 2; r->skip_run = 0;
            i = t + 9;
            continue;
        }
        /* a start tag (or junk after '<': scan_tag gives up on it) */
        put(r, b + copied, t - copied);
        copied = t;
        size_t end;
        int rc = scan_tag(r, b, t, len, &end);
        if (rc == TAG_DONE) { copied = end; i = end; continue; }
        if (rc == TAG_ABORT) { i = end; continue; }
        if (final) { i = t + 1; continue; }
        r->last_needs_gt = 1;
        goto unfinished;
    unfinished_lt:
        if (final) { i = t + 1; continue; }
    unfinished:
        put(r, b + copied, t - copied);
        return t;
    }
    put(r, b + copied, len - copied);
    return len;
}

static void hold_set(hsax_rewriter *r, const uint8_t *b, size_t n) {
    memmove(r->hold, b, n);
    r->hold_len = n;
    r->hold_needs_gt = r->last_needs_gt;
}

int hsax_rewriter_run(hsax_rewriter *r, const uint8_t *in, size_t n, int is_last, const uint8_t **out,
                      size_t *out_len) {
    /* a new generation: the one before the previous is dropped */
    r->cur ^= 1;
    rw_gen *g = &r->gen[r->cur];
    g->base = r->next_index;
    g->count = 0;
    g->arena_len = 0;
    r->out_len = 0;
    for (size_t k = 0; k < n && r->head_len < 3; k++) {
        if (r->in_pos + k == 0 && in[k] == 0x4C) r->mode = RW_OFF; /* EBCDIC "<?xm": libxml2 converts */
        r->head[r->head_len++] = in[k];
    }
    if (reserve(&r->out, &r->out_cap, r->hold_len + n + 1) != 0) return HSAX_ERR_MEMORY;
    uint64_t in_pos = r->in_pos;
    r->in_pos += n;
    size_t i = 0;
    if (r->hold_len) {
        if (r->hold_needs_gt && !is_last && r->hold_len + n <= RW_TAG_CAP && (n == 0 || !memchr(in, '>', n))) {
            if (reserve(&r->hold, &r->hold_cap, r->hold_len + n) != 0) return HSAX_ERR_MEMORY;
            if (n) memcpy(r->hold + r->hold_len, in, n);
            r->hold_len += n;
            *out = r->out;
            *out_len = 0;
            return HSAX_OK;
        }
        size_t hl = r->hold_len;
        size_t k = n < RW_TAG_CAP ? n : RW_TAG_CAP;
        if (reserve(&r->hold, &r->hold_cap, hl + k) != 0) return HSAX_ERR_MEMORY;
        if (k) memcpy(r->hold + hl, in, k);
        r->hold_len = hl + k;
        size_t c = scan(r, r->hold, hl + k, hl, is_last && k == n, in_pos - hl);
        if (c >= hl) {
            i = c - hl;
            r->hold_len = 0;
        } else if (k == n && hl + k - c <= RW_TAG_CAP) {
            hold_set(r, r->hold + c, hl + k - c);
            *out = r->out;
            *out_len = r->out_len;
            return HSAX_OK;
        } else {
            /* an unfinished tag longer than the cap: passed on untouched; scanning goes on in
               the new bytes (a good tag holds no '<', so the next '<' starts the next markup) */
            put(r, r->hold + c, hl - c);
            r->hold_len = 0;
            i = 0;
        }
    }
    if (i < n) {
        size_t c = scan(r, in + i, n - i, (size_t)-1, is_last, in_pos + i);
        size_t rest = n - i - c;
        if (rest) {
            if (rest <= RW_TAG_CAP) {
                if (reserve(&r->hold, &r->hold_cap, rest) != 0) return HSAX_ERR_MEMORY;
                hold_set(r, in + i + c, rest);
            } else {
                put(r, in + i + c, rest);
            }
        }
    }
    *out = r->out;
    *out_len = r->out_len;
    return HSAX_OK;
}

int hsax_rewriter_resolve(const hsax_rewriter *r, const uint8_t *v, size_t n, const uint8_t **bytes,
                          int32_t *length) {
    if (n < 2 || v[0] != RW_DEL) return 0;
    uint64_t idx = 0;
    size_t i = 1;
    for (; i < n && i <= 20; i++) {
        uint8_t d = (uint8_t)(v[i] - '0');
        if (d > 9) break;
        idx = idx * 10 + d;
    }
    if (i == 1 || i > 20) return 0;
    for (int k = 0; k < 2; k++) {
        const rw_gen *g = &r->gen[(r->cur + 2 - k) & 1];
        if (idx >= g->base && idx - g->base < g->count) {
            const rw_entry *e = &g->entries[idx - g->base];
            if (e->token != n) return 0;
            *bytes = g->arena + e->off;
            *length = (int32_t)e->len;
            return 1;
        }
    }
    return 0;
}
