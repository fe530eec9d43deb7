// CHealthSplit: cuts the pre-filtered byte stream of an export into segments of whole children
// of the root, for parallel parsing. See the splitter section of include/CHealthSAX.h.
#include "CHealthSAX.h"
#include "CHealthSAXInternal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef HSAX_PREFIX_LIMIT /* the fuzz targets build with a small one (scripts/fuzz) */
#define HSAX_PREFIX_LIMIT (1u << 20) /* the prolog and the root's start tag must fit in this */
#endif

/* Piece buffers kept for reuse: enough for every piece in flight with a few workers (two
   queued and one being parsed per worker, one being filled). */
#define HSAX_POOL_LIMIT 16

/* An input region (hsax_splitter_input) reaches this far past the byte where the segment may be
   cut, so that a read mostly ends shortly after the cut and few bytes are carried over. */
#ifndef HSAX_INPUT_MARGIN
#define HSAX_INPUT_MARGIN (16u << 10)
#endif

/* Where the caller's input region is (hsax_splitter_input). */
enum {
    RG_NONE = 0,
    RG_SIDE,  /* the side buffer: fed through the pre-filter (hsax_splitter_feed) */
    RG_PIECE, /* the end of the piece being filled */
    RG_SPARE, /* the spare: the piece being filled is full, the region starts the next one */
};

/* Scanner states over the filtered bytes. */
enum {
    SC_TEXT = 0, /* character data (or whitespace before / after the root) */
    SC_LT,       /* after '<' */
    SC_BANG,     /* after "<!": telling a comment from CDATA */
    SC_COMMENT,  /* inside <!-- ... --> */
    SC_CDATA,    /* inside <![CDATA[ ... ]]> */
    SC_PI,       /* inside <? ... ?> */
    SC_STAG,     /* inside a start tag, outside attribute values */
    SC_QUOTE,    /* inside a quoted attribute value */
    SC_ETAG,     /* inside an end tag */
};

/* What stopped a scan. */
enum { EV_NONE = 0, EV_PREFIX, EV_CUT, EV_BAD };

struct hsax_splitter {
    hsax_filter *filter;
    void *context;
    hsax_piece_fn on_piece;
    size_t segment_size;
    size_t piece_limit;

    /* scanner */
    int state;
    int64_t depth;     /* 0 outside the root, 1 between the root's children */
    int root_open;     /* the root's start tag has been seen */
    int root_closed;
    uint8_t bang[8];
    int bang_len;
    uint8_t quote;
    uint8_t last;      /* in a start tag: the byte before the current buffer (for "/>") */
    int tail;          /* '-' / ']' / '?' just seen, at the end of a comment / CDATA / PI */
    int in_name;
    int name_len;
    int name_ok;       /* the root's name so far matches "HealthData" */

    /* the piece being filled */
    uint8_t *buf;
    size_t len, cap;
    int64_t piece_newlines;
    int64_t lines_before; /* newlines before the piece */
    int piece_starts;     /* the piece is the first of its segment */
    int32_t segment;
    size_t segment_bytes;

    int plain_scan; /* 1: never the block scanner (hsax_splitter_use_block_scan) */

    /* the caller's input region (hsax_splitter_input / hsax_splitter_feed_input) */
    int region;         /* RG_ */
    size_t region_room; /* its size */
    uint8_t *spare;     /* piece_limit bytes, taken by the next emit (NULL: none) */
    uint8_t *side;      /* a region the pre-filter must see, or a copy of one */
    size_t side_cap;

    /* buffers of piece_limit bytes handed back by hsax_splitter_recycle (any thread) */
    pthread_mutex_t pool_lock;
    uint8_t *pool[HSAX_POOL_LIMIT];
    int pool_count;
};

static const char root_name[] = "HealthData";

/* Bytes that end a run inside a start tag: a quote opens a value, '>' ends the tag. */
static const uint8_t stag_stop[256] = {['"'] = 1, ['\''] = 1, ['>'] = 1};

static inline int is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The offset of the first quote or '>' in b[i..<n] (n when none): eight bytes at a time, a byte
   equal to c being a zero byte of x ^ (c × 0x01…01). Of (v - 0x01…01) & ~v & 0x80…80, the lowest
   set bit marks v's first zero byte exactly (a borrow only sets bits above it), so the lowest set
   bit of the three masks or-ed is the first byte equal to any of the three. */
static inline size_t stag_run(const uint8_t *b, size_t i, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, b + i, 8);
        uint64_t d = x ^ (ones * '"'), q = x ^ (ones * '\''), g = x ^ (ones * '>');
        uint64_t m = (((d - ones) & ~d) | ((q - ones) & ~q) | ((g - ones) & ~g)) & highs;
        if (m) return i + (size_t)(__builtin_ctzll(m) >> 3);
        i += 8;
    }
#endif
    while (i < n && !stag_stop[b[i]]) i++;
    return i;
}

/* Newlines in `n` bytes. Lines are hundreds of bytes long in an export, so memchr (vectorized
   in libc) from one newline to the next beats counting every byte. */
static int64_t count_newlines(const uint8_t *b, size_t n) {
    int64_t count = 0;
    const uint8_t *end = b + n;
    while (b < end) {
        const uint8_t *nl = memchr(b, '\n', (size_t)(end - b));
        if (!nl) break;
        count++;
        b = nl + 1;
    }
    return count;
}

#if defined(__SSE2__)
#define HSAX_BLOCK_SCAN 1
/* Bit k set: b[k] is '"', '\'', '<' or '>' (k < 64): every byte that can change the scanner's
   state between the root's children, found 16 bytes at a time (SSE2, in every x86-64 CPU). */
static inline uint64_t marks64(const uint8_t *b) {
    const __m128i dq = _mm_set1_epi8('"'), sq = _mm_set1_epi8('\''), lt = _mm_set1_epi8('<'),
                  gt = _mm_set1_epi8('>');
    uint64_t m = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + 16 * k));
        __m128i x = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, dq), _mm_cmpeq_epi8(v, sq)),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, lt), _mm_cmpeq_epi8(v, gt)));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(x) << (16 * k);
    }
    return m;
}

/* The scanner's hot path, for what lies inside the root (depth >= 1) in the states TEXT,
   STAG, QUOTE and ETAG: the same transitions as `scan` below, taken only at the marked bytes
   of 64-byte blocks instead of a memchr per attribute value. Returns where it stopped: at an
   EV_CUT (set in *event), at "<!" or "<?" (state SC_LT, for `scan`), when the root closes
   (depth 0), or when fewer than 64 bytes are left. One function on purpose (about 110 lines):
   its per-state loops jump to each other with goto, which only works inside one function. */
static size_t block_scan(hsax_splitter *s, const uint8_t *b, size_t i, size_t n, size_t arm_from, int *event) {
    /* One loop per state, joined by gotos: each loop takes the next marked byte of the block
       (m: the marks at or after i) until one changes the state. */
    size_t base = i, p;
    uint64_t m = 0;
    uint8_t c;
#define NEXT_MARK(label) /* the next marked byte p, or on to the next block in the same state */ \
    do {                                                                                        \
        if (m == 0) {                                                                           \
            base += 64;                                                                         \
            if (i < base) i = base; /* (i may be base + 1: after "</" across the blocks) */    \
            if (n - base < 64) goto out;                                                        \
            m = marks64(b + base);                                                              \
            goto label;                                                                         \
        }                                                                                       \
        p = base + (size_t)__builtin_ctzll(m);                                                  \
        m &= m - 1;                                                                             \
    } while (0)
#define SKIP_TO(j) /* drop the marks before j (j <= base + 64) */                               \
    do {                                                                                        \
        i = (j);                                                                                \
        m &= i - base >= 64 ? 0 : ~0ull << (i - base);                                          \
    } while (0)
    m = marks64(b + base);
    switch (s->state) {
    case SC_TEXT: goto text;
    case SC_STAG: goto stag;
    case SC_QUOTE: goto quote;
    case SC_ETAG: goto etag;
    default: return i;
    }
text:
    s->state = SC_TEXT;
    for (;;) {
        NEXT_MARK(text);
        if (b[p] != '<') continue;
        if (p + 1 == n) {
            s->state = SC_LT;
            return n;
        }
        c = b[p + 1];
        if (c == '/') {
            SKIP_TO(p + 2);
            goto etag;
        }
        if (c == '!' || c == '?') {
            s->state = SC_LT;
            return p + 1;
        }
        s->in_name = 0; /* depth >= 1: names are not looked at */
        i = p + 1;
        goto stag;
    }
stag:
    s->state = SC_STAG;
    for (;;) {
        NEXT_MARK(stag);
        c = b[p];
        if (c == '"' || c == '\'') {
            s->quote = c;
            i = p + 1;
            goto quote;
        }
        if (c == '>') {
            /* '/' right before '>' (never inside a value: a value ends with its quote) */
            int empty = (p > 0 ? b[p - 1] : s->last) == '/';
            i = p + 1;
            if (!empty) {
                s->depth++;
            } else if (s->depth == 1 && i >= arm_from) {
                s->state = SC_TEXT;
                *event = EV_CUT;
                return i;
            }
            goto text;
        }
        /* '<' in a start tag: not well-formed, for libxml2 to say */
    }
quote:
    s->state = SC_QUOTE;
    for (;;) {
        NEXT_MARK(quote);
        if (b[p] == s->quote) {
            i = p + 1;
            goto stag;
        }
    }
etag:
    s->state = SC_ETAG;
    for (;;) {
        NEXT_MARK(etag);
        if (b[p] != '>') continue;
        i = p + 1;
        s->state = SC_TEXT;
        s->depth--;
        if (s->depth == 0) {
            s->root_closed = 1;
            return i;
        }
        if (s->depth == 1 && i >= arm_from) {
            *event = EV_CUT;
            return i;
        }
        goto text;
    }
out:
#undef NEXT_MARK
#undef SKIP_TO
    /* `scan` goes on from here; in a start tag it may look at the byte before i. */
    if (s->state == SC_STAG && i > 0) s->last = b[i - 1];
    return i;
}
#endif

/* Scans up to `n` bytes; stops after the byte that ends the root's start tag (EV_PREFIX), after
   the '>' ending a child of the root at offset >= `arm_from` (EV_CUT), or at a byte that makes a
   cut unsound (EV_BAD). Returns the bytes consumed. */
/* One function on purpose (about 180 lines): it is the splitter's state machine, one `switch`
   over the states with a case per state, every transition in sight of the others; split into
   functions, the state and the position would cross a call per byte on the hottest path. */
static size_t scan(hsax_splitter *s, const uint8_t *b, size_t n, size_t arm_from, int *event) {
    size_t i = 0;
    *event = EV_NONE;
    while (i < n) {
#if HSAX_BLOCK_SCAN
        if (!s->plain_scan && s->depth >= 1 && n - i >= 64 &&
            (s->state == SC_TEXT || s->state == SC_QUOTE || s->state == SC_ETAG ||
             (s->state == SC_STAG && !s->in_name))) {
            i = block_scan(s, b, i, n, arm_from, event);
            if (*event != EV_NONE) return i;
            continue;
        }
#endif
        switch (s->state) {
        case SC_TEXT: {
            const uint8_t *lt = memchr(b + i, '<', n - i);
            size_t end = lt ? (size_t)(lt - b) : n;
            if (s->depth == 0) {
                for (size_t k = i; k < end; k++) {
                    if (!is_space(b[k])) { *event = EV_BAD; return k; }
                }
            }
            if (!lt) return n;
            i = end + 1;
            s->state = SC_LT;
            break;
        }
        case SC_LT: {
            uint8_t c = b[i];
            if (c == '/') {
                i++;
                if (s->depth == 0) { *event = EV_BAD; return i; }
                s->state = SC_ETAG;
            } else if (c == '!') {
                i++;
                s->bang_len = 0;
                s->state = SC_BANG;
            } else if (c == '?') {
                i++;
                s->tail = 0;
                s->state = SC_PI;
            } else {
                if (s->depth == 0 && s->root_closed) { *event = EV_BAD; return i; }
                s->state = SC_STAG;
                s->last = '<';
                s->in_name = s->depth == 0;
                s->name_len = 0;
                s->name_ok = 1;
            }
            break;
        }
        case SC_BANG: {
            uint8_t c = b[i++];
            s->bang[s->bang_len++] = c;
            if (s->bang[0] == '-') {
                if (s->bang_len == 2) {
                    if (c != '-') { *event = EV_BAD; return i; }
                    s->tail = 0;
                    s->state = SC_COMMENT;
                }
            } else if (s->bang[0] == '[' && s->depth > 0) {
                if (c != (uint8_t)"[CDATA["[s->bang_len - 1]) { *event = EV_BAD; return i; }
                if (s->bang_len == 7) {
                    s->tail = 0;
                    s->state = SC_CDATA;
                }
            } else {
                *event = EV_BAD; /* a DOCTYPE left in (not before <HealthData>), or broken markup */
                return i;
            }
            break;
        }
        case SC_COMMENT:
        case SC_CDATA: {
            uint8_t mark = s->state == SC_COMMENT ? '-' : ']';
            while (i < n) {
                uint8_t c = b[i++];
                if (c == mark) {
                    s->tail++;
                } else if (c == '>' && s->tail >= 2) {
                    s->state = SC_TEXT;
                    break;
                } else {
                    s->tail = 0;
                }
            }
            break;
        }
        case SC_PI:
            while (i < n) {
                uint8_t c = b[i++];
                if (c == '>' && s->tail) {
                    s->state = SC_TEXT;
                    break;
                }
                s->tail = c == '?';
            }
            break;
        case SC_STAG:
            if (s->in_name) { /* only the root's name is looked at (see SC_LT) */
                while (i < n) {
                    uint8_t c = b[i];
                    if (is_space(c) || c == '/' || c == '>') {
                        s->in_name = 0;
                        break;
                    }
                    if (s->name_len >= 10 || c != (uint8_t)root_name[s->name_len]) s->name_ok = 0;
                    s->name_len++;
                    i++;
                }
                if (s->in_name) break;
            }
            /* Up to the next quote or '>' (attribute names, '=', spaces: a few bytes); a quoted
               value is skipped with memchr right here, so a whole start tag is one pass of this
               loop rather than one trip through the state switch per attribute. */
            for (;;) {
                i = stag_run(b, i, n);
                if (i == n) {
                    s->last = b[n - 1];
                    return n;
                }
                if (b[i] != '>') {
                    uint8_t quote = b[i++];
                    const uint8_t *q = memchr(b + i, quote, n - i);
                    if (!q) { /* the value goes on in the next buffer */
                        s->quote = quote;
                        s->state = SC_QUOTE;
                        return n;
                    }
                    i = (size_t)(q - b) + 1;
                    s->last = quote;
                    continue;
                }
                /* '/' right before '>' (never inside a value: a value ends with its quote) */
                int empty = (i > 0 ? b[i - 1] : s->last) == '/';
                i++;
                s->state = SC_TEXT;
                if (s->depth == 0) {
                    if (!s->name_ok || s->name_len != 10) { *event = EV_BAD; return i; }
                    s->root_open = 1;
                    if (empty) s->root_closed = 1;
                    else s->depth = 1;
                    *event = EV_PREFIX;
                    return i;
                }
                if (!empty) {
                    s->depth++;
                } else if (s->depth == 1 && i >= arm_from) {
                    *event = EV_CUT;
                    return i;
                }
                break;
            }
            break;
        case SC_QUOTE: {
            const uint8_t *q = memchr(b + i, s->quote, n - i);
            if (!q) return n;
            i = (size_t)(q - b) + 1;
            s->last = s->quote;
            s->state = SC_STAG;
            break;
        }
        case SC_ETAG: {
            const uint8_t *gt = memchr(b + i, '>', n - i);
            if (!gt) return n;
            i = (size_t)(gt - b) + 1;
            s->state = SC_TEXT;
            s->depth--;
            if (s->depth == 0) {
                s->root_closed = 1;
            } else if (s->depth == 1 && i >= arm_from) {
                *event = EV_CUT;
                return i;
            }
            break;
        }
        }
    }
    return n;
}

/* A buffer of piece_limit bytes: from the pool, else malloc (NULL when memory is exhausted). */
static uint8_t *piece_buffer(hsax_splitter *s) {
    uint8_t *b = NULL;
    pthread_mutex_lock(&s->pool_lock);
    if (s->pool_count > 0) b = s->pool[--s->pool_count];
    pthread_mutex_unlock(&s->pool_lock);
    return b ? b : malloc(s->piece_limit);
}

/* Hands the piece being filled on (even when empty) and starts a new one of `next_cap` bytes (the
   spare, when there is one and `next_cap` is piece_limit). `carry[0..carry_len)` (at most
   `next_cap` bytes, inside the piece handed on, not yet scanned) is copied to the new piece's
   start before the piece is handed on, since the callee may free or recycle it at once; the new
   piece's length stays 0 (the caller scans the carried bytes there next). */
static int emit(hsax_splitter *s, int32_t kind, size_t next_cap, const uint8_t *carry, size_t carry_len) {
    uint8_t *next = NULL;
    if (next_cap == s->piece_limit) {
        next = s->spare;
        s->spare = NULL;
        if (!next) next = piece_buffer(s);
    } else {
        next = malloc(next_cap);
    }
    if (!next) return HSAX_ERR_MEMORY;
    if (carry_len) memcpy(next, carry, carry_len);
    hsax_piece piece = {
        .kind = kind, .segment = (kind & HSAX_PIECE_PREFIX) ? -1 : s->segment,
        .first_line = 1 + s->lines_before, .newlines = s->piece_newlines, .capacity = s->cap,
    };
    uint8_t *bytes = s->buf;
    size_t length = s->len;
    s->buf = next;
    s->cap = next_cap;
    s->len = 0;
    s->lines_before += s->piece_newlines;
    s->piece_newlines = 0;
    return s->on_piece(s->context, bytes, length, &piece) ? HSAX_ERR_STOPPED : HSAX_OK;
}

/* Scans `n` filtered bytes into pieces. Copied into the piece being filled, or, `in_place`, already
   there: `bytes` is the end of the piece being filled (or the spare's start when that piece is
   full) and `n` fits (the region of hsax_splitter_input), so that nothing is copied but the bytes
   after a cut, carried over to the next piece. */
static int sink_bytes(hsax_splitter *s, const uint8_t *bytes, size_t n, int is_last, int in_place) {
    int rc;
    while (n > 0) {
        size_t room = s->cap - s->len;
        if (room == 0) {
            if (!s->root_open) return HSAX_ERR_SPLIT; /* the prefix is over 1 MiB */
            /* in place, the bytes are in the spare, which emit makes the new piece */
            if ((rc = emit(s, s->piece_starts ? HSAX_PIECE_START : 0, s->piece_limit, NULL, 0)) != HSAX_OK) return rc;
            s->piece_starts = 0;
            if (in_place && bytes != s->buf) return HSAX_ERR_SPLIT; /* (never: hsax_splitter_input made the spare) */
            continue;
        }
        size_t take = n < room ? n : room;
        size_t arm_from = s->segment_bytes < s->segment_size ? s->segment_size - s->segment_bytes : 0;
        int event;
        size_t k = scan(s, bytes, take, arm_from, &event);
        if (event == EV_BAD) return HSAX_ERR_SPLIT;
        if (!in_place) memcpy(s->buf + s->len, bytes, k);
        s->len += k;
        s->piece_newlines += count_newlines(bytes, k);
        s->segment_bytes += k;
        bytes += k;
        n -= k;
        if (event == EV_PREFIX || event == EV_CUT) {
            int32_t kind = event == EV_PREFIX ? HSAX_PIECE_PREFIX
                                              : HSAX_PIECE_END | (s->piece_starts ? HSAX_PIECE_START : 0);
            if ((rc = emit(s, kind, s->piece_limit, in_place ? bytes : NULL, in_place ? n : 0)) != HSAX_OK) return rc;
            if (in_place) bytes = s->buf;
            s->piece_starts = 1;
            s->segment = event == EV_PREFIX ? 0 : s->segment + 1;
            s->segment_bytes = 0;
        }
    }
    if (is_last) {
        if (!s->root_closed || s->state != SC_TEXT) return HSAX_ERR_SPLIT; /* truncated */
        int32_t kind = HSAX_PIECE_FINAL | HSAX_PIECE_END | (s->piece_starts ? HSAX_PIECE_START : 0);
        return emit(s, kind, 16, NULL, 0);
    }
    return HSAX_OK;
}

/* The pre-filter's output. */
static int split_sink(void *context, const uint8_t *bytes, size_t n, int is_last) {
    return sink_bytes(context, bytes, n, is_last, 0);
}

hsax_splitter *hsax_splitter_create(void *context, hsax_piece_fn on_piece, size_t segment_size) {
    hsax_init(); /* before the worker threads create their parsers */
    hsax_splitter *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->context = context;
    s->on_piece = on_piece;
    s->segment_size = segment_size ? segment_size : 1;
    s->piece_limit = 2 * s->segment_size < 64 ? 64 : 2 * s->segment_size;
    s->cap = HSAX_PREFIX_LIMIT;
    s->buf = malloc(s->cap);
    pthread_mutex_init(&s->pool_lock, NULL);
    s->filter = hsax_filter_create(s, split_sink);
    if (!s->buf || !s->filter) {
        hsax_splitter_free(s);
        return NULL;
    }
    return s;
}

void hsax_splitter_free(hsax_splitter *s) {
    if (!s) return;
    hsax_filter_free(s->filter);
    free(s->buf);
    free(s->spare);
    free(s->side);
    for (int i = 0; i < s->pool_count; i++) free(s->pool[i]);
    pthread_mutex_destroy(&s->pool_lock);
    free(s);
}

void hsax_splitter_use_block_scan(hsax_splitter *s, int on) { s->plain_scan = !on; }

void hsax_splitter_recycle(hsax_splitter *s, uint8_t *bytes, size_t capacity) {
    if (!bytes) return;
    if (capacity == s->piece_limit) {
        pthread_mutex_lock(&s->pool_lock);
        int kept = s->pool_count < HSAX_POOL_LIMIT;
        if (kept) s->pool[s->pool_count++] = bytes;
        pthread_mutex_unlock(&s->pool_lock);
        if (kept) return;
    }
    free(bytes);
}

int hsax_splitter_feed(hsax_splitter *s, const uint8_t *bytes, size_t length, int is_last) {
    s->region = RG_NONE;
    int rc = hsax_filter_feed(s->filter, bytes, length, is_last);
    return rc == HSAX_ERR_NO_ROOT ? HSAX_ERR_SPLIT : rc;
}

int64_t hsax_splitter_removed_control_characters(const hsax_splitter *s) {
    return hsax_filter_removed_control_characters(s->filter);
}
int hsax_splitter_dropped_doctype(const hsax_splitter *s) { return hsax_filter_dropped_doctype(s->filter); }
int32_t hsax_splitter_export_version(const hsax_splitter *s) { return hsax_filter_export_version(s->filter); }

/* Where the bytes of a region of kind `region` (RG_SIDE, RG_PIECE or RG_SPARE) start. */
static uint8_t *region_start(const hsax_splitter *s, int region) {
    return region == RG_SIDE ? s->side : region == RG_PIECE ? s->buf + s->len : s->spare;
}

uint8_t *hsax_splitter_input(hsax_splitter *s, size_t max, size_t *room) {
    *room = 0;
    s->region = RG_NONE;
    /* up to shortly after the cut; never more than a piece, so that the bytes after a cut fit the
       next piece */
    size_t want = (s->segment_bytes < s->segment_size ? s->segment_size - s->segment_bytes : 0) + HSAX_INPUT_MARGIN;
    size_t n = max < want ? max : want;
    if (n > s->piece_limit) n = s->piece_limit;
    if (n == 0) n = 1;
    int region;
    if (!hsax_filter_passes_through(s->filter)) {
        region = RG_SIDE; /* the prolog, or bytes waiting in the pre-filter: its own path */
    } else if (s->len < s->cap) {
        region = RG_PIECE;
        if (n > s->cap - s->len) n = s->cap - s->len;
    } else {
        region = RG_SPARE;
        if (!s->spare && !(s->spare = piece_buffer(s))) return NULL;
    }
    /* the side buffer holds any region: a region the pre-filter must see after all is copied there */
    if (s->side_cap < n) {
        uint8_t *side = malloc(n);
        if (!side) return NULL;
        free(s->side);
        s->side = side;
        s->side_cap = n;
    }
    s->region = region;
    s->region_room = n;
    *room = n;
    return region_start(s, region);
}

int hsax_splitter_feed_input(hsax_splitter *s, size_t n, int is_last) {
    int region = s->region;
    s->region = RG_NONE;
    if (n == 0) return hsax_splitter_feed(s, NULL, 0, is_last);
    if (region == RG_NONE || n > s->region_room) return HSAX_ERR_SPLIT;
    uint8_t *bytes = region_start(s, region);
    if (region != RG_SIDE) {
        /* hsax_filter_feed's fastest path (the sink gets the bytes as they are, then with is_last an
           empty last call), without the copy into the piece */
        if (hsax_filter_pass(s->filter, bytes, n)) {
            int rc = sink_bytes(s, bytes, n, 0, 1);
            return rc != HSAX_OK || !is_last ? rc : sink_bytes(s, NULL, 0, 1, 1);
        }
        memcpy(s->side, bytes, n); /* the piece (or spare) is where the pre-filter's output goes */
    }
    return hsax_splitter_feed(s, s->side, n, is_last);
}
