/* Out-of-line paths of the decoder: allocation, arrays and packed runs,
 * strings and bytes, unknown fields. */
#include "protobuf-c-iter/internal/decode.h"
#include "runtime.h"

/* SSE2 widens the one-byte values of packed runs (store_eight_small):
 * part of every x86-64 and of x86 builds that ask for it. protoc-c's bool
 * is an int, which the 32-bit lanes hold. */
#if defined(__SSE2__) && PBCI_LITTLE_ENDIAN
#include <emmintrin.h>
#define PBCI_HAVE_SSE2 1
typedef char pbci_bool_fits_a_lane[sizeof(protobuf_c_boolean) == 4 ? 1 : -1];
#else
#define PBCI_HAVE_SSE2 0
#endif

/* The header must fit in PROTOBUF_C_ITER_ARRAY_HEADER, which keeps the
 * elements after it aligned to PBCI_ALIGN. */
typedef char pbci_header_fits[sizeof(PbciArrayHeader) <=
                                      PROTOBUF_C_ITER_ARRAY_HEADER &&
                                  PROTOBUF_C_ITER_ARRAY_HEADER % PBCI_ALIGN == 0
                              ? 1
                              : -1];

/* memcpy for up to 127 bytes (the values a one-byte length allows, small
 * arrays) as fixed-size copies: two overlapping ones up to 32 bytes, then 16
 * bytes at a time and an overlapping last 16. No call, so the caller saves
 * no registers. */
PBCI_INLINE void copy_short(unsigned char *d, const uint8_t *src, size_t n) {
  uint64_t w[4];
  if (n > 32) {
    size_t i;
    for (i = 0; i < n - 16; i += 16) {
      pbci_move16(w, src + i);
      pbci_move16(d + i, w);
    }
    pbci_move16(w, src + n - 16);
    pbci_move16(d + n - 16, w);
  } else if (n > 16) {
    pbci_move16(w, src);
    pbci_move16(w + 2, src + n - 16);
    pbci_move16(d, w);
    pbci_move16(d + n - 16, w + 2);
  } else if (n >= 8) {
    memcpy(w, src, 8);
    memcpy(w + 1, src + n - 8, 8);
    memcpy(d, w, 8);
    memcpy(d + n - 8, w + 1, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    memcpy(&head, src, 4);
    memcpy(&tail, src + n - 4, 4);
    memcpy(d, &head, 4);
    memcpy(d + n - 4, &tail, 4);
  } else if (n > 0) {
    d[0] = src[0];
    d[n / 2] = src[n / 2];
    d[n - 1] = src[n - 1];
  }
}

/* The longest value copy_short copies. */
#define SHORT_COPY 127u

/* n bytes from src to d: copy_short for the usual short ones (values, and
 * the elements of a small array when it grows: a call of the C library's
 * memcpy there cost OpenX 3-5% of its time, docs/design.md). */
PBCI_INLINE void copy_value(unsigned char *d, const uint8_t *src, size_t n) {
  if (n <= SHORT_COPY) {
    copy_short(d, src, n);
  } else {
    memcpy(d, src, n);
  }
}

/* The bodies of pbci_grow and pbci_count_run and the growth policy,
 * inlined where arrays grow (pbci_grow_run: every unpacked repeated field's
 * first element calls it; packed runs; unknown fields), so that growing
 * makes no further calls until an array is copied. */
PBCI_INLINE void *grow(PbciArena *a, const void *old, size_t n_old,
                       size_t n_add, size_t elem_size, const void *owner) {
  size_t n = n_old + n_add;
  unsigned char *block;
  void *elements;
  if (n < n_old) return NULL;
  block = (unsigned char *)pbci_alloc(a, pbci_array_bytes(n, elem_size));
  if (block == NULL) return NULL;
  elements = pbci_array_start(block, n, owner);
  copy_value((unsigned char *)elements, (const uint8_t *)old,
             n_old * elem_size);
  return elements;
}

/* The capacity of `array`, holding n elements (n > 0) with local capacity
 * `cap`, when the message owning it (`owner`, its count) finds it full:
 * what its header records, when the owner allocated it and left room (an
 * earlier occurrence, an earlier call), else cap. */
PBCI_INLINE size_t real_capacity(void *array, size_t n, size_t cap,
                                 const void *owner) {
  const PbciArrayHeader *h = pbci_array_header(array);
  return h->owner == owner && h->cap > n ? h->cap : cap;
}

/* Moves `array` (n elements, capacity `real`, full for `need`) to a new
 * array of pbci_next_capacity(real, need) elements: returns it and sets
 * *cap, or returns NULL when the buffer is too small. An empty array has no
 * capacity, whatever the message points to: pbci_next_capacity(0, need)
 * is need. */
PBCI_INLINE void *move_to(PbciArena *a, void *array, size_t n, size_t real,
                          size_t *cap, size_t need, size_t elem_size,
                          const void *owner) {
  const size_t new_cap = pbci_next_capacity(real, need);
  void *grown = grow(a, array, n, new_cap - n, elem_size, owner);
  if (grown != NULL) *cap = new_cap;
  return grown;
}

/* Gives `array` (n elements, local capacity *cap) room for `need` (> *cap)
 * elements: the room its header records, or a new array of
 * pbci_next_capacity(capacity, need) holding a copy of the n elements.
 * Returns the array and updates *cap, or returns NULL when the buffer is
 * too small. */
PBCI_INLINE void *grow_to(PbciArena *a, void *array, size_t n, size_t *cap,
                          size_t need, size_t elem_size, const void *owner) {
  size_t real = 0; /* an empty array has no capacity */
  if (n != 0) {
    real = real_capacity(array, n, *cap, owner);
    if (need <= real) {
      *cap = real;
      return array;
    }
  }
  return move_to(a, array, n, real, cap, need, elem_size, owner);
}

/* Whether the key_len (1 to 5) bytes at p are those at key. Compared
 * without memcmp: a call per element would cost more than the rest of
 * counting it. The first byte apart: it ends most runs (docs/design.md). */
PBCI_INLINE int same_key(const uint8_t *p, const uint8_t *key, size_t key_len) {
  size_t i;
  if (p[0] != key[0]) return 0;
  for (i = 1; i < key_len; i++) {
    if (p[i] != key[i]) return 0;
  }
  return 1;
}

PBCI_INLINE size_t count_run(const uint8_t *key, const uint8_t *key_end,
                             const uint8_t *end) {
  const size_t key_len = (size_t)(key_end - key);
  const uint32_t wire_type = key[0] & 7u;
  const uint8_t *p = key;
  size_t n = 0;
  if (key_len == 1 && wire_type == PBCI_WT_LEN) {
    /* Repeated strings and messages under 16 KiB (a length of one or
     * two bytes): the usual run, each element's key byte and length
     * checked against one count of the bytes left. */
    const uint8_t k = key[0];
    for (;;) {
      const size_t avail = (size_t)(end - p);
      if (avail < 2 || p[0] != k ||
          pbci_frame_short_len(p + 1, avail - 1, &p) == NULL) {
        break;
      }
      n++;
    }
  }
  /* Then (or else) one field at a time, with any length the decoder reads
   * (3 to 5 bytes: 16 KiB or more, or written long): an open run extends
   * over those too, so the count must not stop at them (regression:
   * Arrays.ARunCountsElementsWithLongLengthsAsAnOpenRunTakesThem). */
  while ((size_t)(end - p) > key_len && same_key(p, key, key_len)) {
    const uint8_t *next = pbci_try_skip(p + key_len, end, wire_type);
    if (next == NULL && wire_type == PBCI_WT_LEN) {
      next = pbci_read_len_slow(p + key_len, end).end;
    }
    if (next == NULL) break;
    p = next;
    n++;
  }
  return n != 0 ? n : 1;
}

void *pbci_grow(PbciArena *a, const void *old, size_t n_old, size_t n_add,
                size_t elem_size, const void *owner) {
  return grow(a, old, n_old, n_add, elem_size, owner);
}

size_t pbci_count_run(const uint8_t *key, const uint8_t *key_end,
                      const uint8_t *end) {
  return count_run(key, key_end, end);
}

void pbci_copy_struct(void *to, const void *from, size_t size) {
  memcpy(to, from, size);
}

/* pbci_grow_run for a full array of *n elements whose header records no
 * room beyond `real` (its capacity): the elements move to a new array for
 * the run starting here. Apart, so that the usual first growth (nothing to
 * move) makes no call (docs/design.md). */
static PBCI_NOINLINE void *grow_moving(PbciArena *a, void *array,
                                       const size_t *n, size_t real,
                                       size_t *cap, size_t elem_size,
                                       const uint8_t *key,
                                       const uint8_t *key_end,
                                       const uint8_t *end) {
  return move_to(a, array, *n, real, cap, *n + count_run(key, key_end, end),
                 elem_size, n);
}

void *pbci_grow_run(PbciArena *a, void *array, const size_t *n, size_t *cap,
                    size_t elem_size, const uint8_t *key,
                    const uint8_t *key_end, const uint8_t *end) {
  if (*n != 0) {
    /* Room its header records (left by an earlier occurrence of a merged
     * message, or an earlier call) is taken without counting the run, and
     * without a call: the elements fill it, and the one that finds it full
     * counts the rest of the run, which the sizer replays alike. */
    const size_t real = real_capacity(array, *n, *cap, n);
    if (real > *n) {
      *cap = real;
      return array;
    }
    return grow_moving(a, array, n, real, cap, elem_size, key, key_end, end);
  }
  return grow_to(a, array, 0, cap, count_run(key, key_end, end), elem_size,
                 n);
}

void *pbci_spill_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size, const uint8_t *key,
                     const uint8_t *key_end, const uint8_t *end) {
  /* The buffer's elements and the rest of the run, counted from here: the
   * run's length, which counting it from its start would have found. */
  const size_t need = *n + count_run(key, key_end, end);
  void *array = grow(a, run, *n, need - *n, elem_size, n);
  if (array != NULL) *cap = need;
  return array;
}

void *pbci_close_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size) {
  void *array = grow(a, run, *n, 0, elem_size, n);
  if (array != NULL) *cap = *n;
  return array;
}

/* ---- packed runs ---- */

/* The size of one array element of a repeated field of `kind`. */
PBCI_INLINE size_t packed_size(unsigned kind) {
  switch (kind) {
    case PBCI_PACKED_VARINT64:
    case PBCI_PACKED_SINT64:
    case PBCI_PACKED_FIXED64:
      return 8;
    case PBCI_PACKED_BOOL:
      return sizeof(protobuf_c_boolean);
    default:
      return 4;
  }
}

/* Stores one varint of a packed run at `out` as `kind` converts it; returns
 * the next element. Through memcpy: the array's elements are of the
 * field's type (an enum, say), not the conversion's. */
PBCI_INLINE unsigned char *store_varint(unsigned char *out, uint64_t v,
                                        unsigned kind) {
  int32_t i32;
  int64_t i64;
  switch (kind) {
    case PBCI_PACKED_VARINT32:
      i32 = (int32_t)(uint32_t)v;
      memcpy(out, &i32, 4);
      return out + 4;
    case PBCI_PACKED_SINT32:
      i32 = pbci_zigzag32((uint32_t)v);
      memcpy(out, &i32, 4);
      return out + 4;
    case PBCI_PACKED_SINT64:
      i64 = pbci_zigzag64(v);
      memcpy(out, &i64, 8);
      return out + 8;
    default: /* PBCI_PACKED_VARINT64 */
      memcpy(out, &v, 8);
      return out + 8;
  }
}

/* Stores the eight one-byte varints at p (each < 0x80) at `out` as `kind`
 * converts them; returns the next element. With SSE2 (every x86-64), the
 * bytes are widened in registers, a few instructions for the eight where a
 * store each takes two or three: 1000 one-byte int32 values decode in
 * about a third of the time (docs/design.md). Compilers do not find this
 * themselves: gcc 12 widens through the stack. */
PBCI_INLINE unsigned char *store_eight_small(unsigned char *out,
                                             const uint8_t *p, unsigned kind) {
#if PBCI_HAVE_SSE2
  const __m128i zero = _mm_setzero_si128();
  __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)p), lo, hi;
  if (kind == PBCI_PACKED_BOOL) {
    /* A one-byte varint is true when it is not 0. */
    v = _mm_min_epu8(v, _mm_set1_epi8(1));
  }
  v = _mm_unpacklo_epi8(v, zero); /* eight 16-bit lanes */
  lo = _mm_unpacklo_epi16(v, zero);
  hi = _mm_unpackhi_epi16(v, zero); /* 32-bit lanes, four each */
  if (kind == PBCI_PACKED_SINT32 || kind == PBCI_PACKED_SINT64) {
    /* Zigzag: (n >> 1) ^ -(n & 1), lane by lane. */
    const __m128i one = _mm_set1_epi32(1);
    lo = _mm_xor_si128(_mm_srli_epi32(lo, 1),
                       _mm_sub_epi32(zero, _mm_and_si128(lo, one)));
    hi = _mm_xor_si128(_mm_srli_epi32(hi, 1),
                       _mm_sub_epi32(zero, _mm_and_si128(hi, one)));
  }
  if (packed_size(kind) == 4) {
    _mm_storeu_si128((__m128i *)(void *)out, lo);
    _mm_storeu_si128((__m128i *)(void *)(out + 16), hi);
    return out + 32;
  }
  {
    /* 64-bit lanes: the upper halves are 0, or the sign for sint64. */
    const __m128i lo_top =
        kind == PBCI_PACKED_SINT64 ? _mm_srai_epi32(lo, 31) : zero;
    const __m128i hi_top =
        kind == PBCI_PACKED_SINT64 ? _mm_srai_epi32(hi, 31) : zero;
    _mm_storeu_si128((__m128i *)(void *)out, _mm_unpacklo_epi32(lo, lo_top));
    _mm_storeu_si128((__m128i *)(void *)(out + 16),
                     _mm_unpackhi_epi32(lo, lo_top));
    _mm_storeu_si128((__m128i *)(void *)(out + 32),
                     _mm_unpacklo_epi32(hi, hi_top));
    _mm_storeu_si128((__m128i *)(void *)(out + 48),
                     _mm_unpackhi_epi32(hi, hi_top));
    return out + 64;
  }
#else
  unsigned i;
  if (kind == PBCI_PACKED_BOOL) {
    for (i = 0; i < 8; i++) {
      /* A one-byte varint is true when it is not 0. */
      const protobuf_c_boolean b = p[i] != 0;
      memcpy(out, &b, sizeof b);
      out += sizeof b;
    }
    return out;
  }
  for (i = 0; i < 8; i++) out = store_varint(out, p[i], kind);
  return out;
#endif
}

#if PBCI_HAVE_SSE2
/* The varints [a, b) and [b, b_end) of a packed run, each of 1 to 10
 * bytes and with 8 bytes readable from its start, into two[0] and two[1].
 * Both words' 7-bit groups are gathered at once, in a vector register's
 * two lanes (as pbci_varint_word and pbci_gather7 do for one); the ninth
 * and tenth bytes are added apart. Returns 0 when either is over 10 bytes.
 */
PBCI_INLINE int read_two_long(const uint8_t *a, const uint8_t *b,
                              const uint8_t *b_end, uint64_t two[2]) {
  const uint8_t *const start[2] = {a, b};
  const size_t len[2] = {(size_t)(b - a), (size_t)(b_end - b)};
  __m128i x =
      _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)a),
                         _mm_loadl_epi64((const __m128i *)(const void *)b));
  /* Each lane's bytes up to its first last byte, all 8 when none ends. */
  __m128i last = _mm_andnot_si128(x, _mm_set1_epi8(-128));
  unsigned i;
  last = _mm_xor_si128(last, _mm_sub_epi64(last, _mm_set1_epi64x(1)));
  x = _mm_and_si128(x, _mm_and_si128(last, _mm_set1_epi8(0x7f)));
  x = _mm_or_si128(_mm_srli_epi64(_mm_and_si128(x, _mm_set1_epi16(0x7f00)), 1),
                   _mm_and_si128(x, _mm_set1_epi16(0x007f)));
  x = _mm_or_si128(
      _mm_srli_epi64(_mm_and_si128(x, _mm_set1_epi32(0x3fff0000)), 2),
      _mm_and_si128(x, _mm_set1_epi32(0x00003fff)));
  x = _mm_or_si128(
      _mm_srli_epi64(_mm_and_si128(x, _mm_set1_epi64x(0x0fffffff00000000)), 4),
      _mm_and_si128(x, _mm_set1_epi64x(0x000000000fffffff)));
  _mm_storeu_si128((__m128i *)(void *)two, x);
  for (i = 0; i < 2; i++) {
    if (len[i] > 8) {
      /* Bits 56-62 and 63; a tenth byte's others are dropped, as by
       * pbci_read_varint. */
      if (len[i] > 10) return 0;
      two[i] |= (uint64_t)(start[i][8] & 0x7f) << 56 |
                (len[i] == 10 ? (uint64_t)start[i][9] << 63 : 0);
    }
  }
  return 1;
}
#endif

/* The values of a run [p, end) stored from `out` on: returns where they
 * end, or NULL when a varint is over 10 bytes (counts do not look for
 * them).
 * Varints: a one-byte value is tried as the first of sixteen (with SSE2)
 * or eight at once (small values, the usual case), longer ones without bounds
 * checks (the run ends with a last byte) and without that try, two-byte ones as
 * the first of four at once; in a run of long values (`long_values`), each from
 * a word, 1 to 10 bytes alike, and with SSE2 two at a time from their ends,
 * found 64 bytes at once. Bools: eight one-byte ones at once too, others
 * as pbci_read_bool reads them. Fixed-width values: on a little-endian host the
 * wire bytes are the array's bytes. */
PBCI_INLINE unsigned char *store_run(unsigned char *out, const uint8_t *p,
                                     const uint8_t *end, int long_values,
                                     unsigned kind) {
  uint64_t v;
  if (kind == PBCI_PACKED_FIXED32 || kind == PBCI_PACKED_FIXED64) {
    if (PBCI_LITTLE_ENDIAN) {
      memcpy(out, p, (size_t)(end - p));
      return out + (end - p);
    }
    /* The count checked the run is whole values: each read succeeds, and
     * checking says so to the compiler (gcc -O2 -Wmaybe-uninitialized). */
    while (p < end) {
      if (kind == PBCI_PACKED_FIXED32) {
        uint32_t u32;
        p = pbci_read_fixed32(p, end, &u32);
        if (p == NULL) return NULL;
        memcpy(out, &u32, 4);
        out += 4;
      } else {
        p = pbci_read_fixed64(p, end, &v);
        if (p == NULL) return NULL;
        memcpy(out, &v, 8);
        out += 8;
      }
    }
    return out;
  }
  if (kind == PBCI_PACKED_BOOL) {
    protobuf_c_boolean b;
    while (p < end) {
      if (pbci_eight_one_byte_varints(p, end)) {
        out = store_eight_small(out, p, kind);
        p += 8;
        continue;
      }
      p = pbci_read_bool(p, end, PBCI_WT_VARINT, &b);
      if (p == NULL) return NULL;
      memcpy(out, &b, sizeof b);
      out += sizeof b;
    }
    return out;
  }
#if PBCI_LITTLE_ENDIAN
  if (long_values) {
    /* Long values (3 bytes or more on average; random 64-bit ones, say):
     * each read from a word at once, without trying 1 and 2 bytes first. */
#if PBCI_HAVE_SSE2
    /* Where a word's read waits for the last value's length, the values'
     * ends are found first, for 64 bytes at once (a bit each, from their
     * top bits), and two values read at a time: the 250 random 64-bit
     * values of the bench's `packed` in two thirds of the time
     * (docs/design.md). The 80 bytes leave 8 readable from any value's
     * start in the window. */
    while ((size_t)(end - p) >= 80) {
      const __m128i *w = (const __m128i *)(const void *)p;
      uint64_t ends = ~(
          (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_loadu_si128(w)) |
          (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_loadu_si128(w + 1)) << 16 |
          (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_loadu_si128(w + 2)) << 32 |
          (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_loadu_si128(w + 3)) << 48);
      const uint8_t *a = p; /* the next value's first byte */
      /* Fewer than two ends in 64 bytes: a varint over 10 bytes. */
      if ((ends & (ends - 1)) == 0) return NULL;
      do {
        uint64_t two[2];
        const uint8_t *const b = p + pbci_ctz64(ends) + 1;
        const uint8_t *b_end;
        ends &= ends - 1;
        b_end = p + pbci_ctz64(ends) + 1;
        ends &= ends - 1;
        if (!read_two_long(a, b, b_end, two)) return NULL;
        out = store_varint(out, two[0], kind);
        out = store_varint(out, two[1], kind);
        a = b_end;
      } while ((ends & (ends - 1)) != 0);
      p = a; /* a value ending in the window's last end is read next */
    }
#endif
    while ((size_t)(end - p) >= 8) {
      p = pbci_read_run_word(p, &v);
      if (p == NULL) return NULL;
      out = store_varint(out, v, kind);
    }
  }
#else
  (void)long_values;
#endif
  while (p < end) {
#if PBCI_HAVE_SSE2
    if (p[0] < 0x80 && (size_t)(end - p) >= 16 &&
        _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)p)) ==
            0) {
      /* Sixteen one-byte values: no top bit set. */
      out = store_eight_small(out, p, kind);
      out = store_eight_small(out, p + 8, kind);
      p += 16;
      continue;
    }
#endif
    if (p[0] < 0x80 && pbci_eight_one_byte_varints(p, end)) {
      out = store_eight_small(out, p, kind);
      p += 8;
      continue;
    }
#if PBCI_LITTLE_ENDIAN
    if (p[0] >= 0x80 && (size_t)(end - p) >= 8) {
      /* Four two-byte values at once (small deltas, say). */
      uint64_t w;
      unsigned i;
      memcpy(&w, p, sizeof w);
      if ((w & UINT64_C(0x8080808080808080)) == UINT64_C(0x0080008000800080)) {
        w = pbci_gather7_pairs(w);
        for (i = 0; i < 4; i++) {
          out = store_varint(out, (uint16_t)(w >> 16 * i), kind);
        }
        p += 8;
        continue;
      }
    }
#endif
    p = pbci_read_run_varint(p, end, &v);
    if (p == NULL) return NULL;
    out = store_varint(out, v, kind);
  }
  return out;
}

/* Gives r->array, holding n elements of capacity *cap, room for `count`
 * more: a full array grows for all of them (see internal/arrays.h).
 * Returns 0 with r->err set when the buffer is too small. */
PBCI_INLINE int make_room(PbciArena *a, PbciAppend *r, const size_t *n,
                          size_t *cap, size_t count, size_t size) {
  void *grown;
  if (count <= *cap - *n) return 1;
  grown = grow_to(a, r->array, *n, cap, *n + count, size, n);
  if (grown == NULL) {
    r->err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
    return 0;
  }
  r->array = grown;
  return 1;
}

/* Short packed runs of varints (a few tags, a path) are read once,
 * counting as they go, instead of counted first: the count costs more than
 * the reading. A new array's values go straight to where it will be, when
 * the buffer has room for the longest short run (SHORT_RUN values); an
 * array that exists, or one with less room, takes them from a local array
 * once it has room. */
#define SHORT_RUN 16u /* bytes, so at most 16 values */

/* The varint of a short run at p (p < end) into *v: one- and two-byte
 * values inline, longer ones out of line. Returns the byte after it, or
 * NULL when it is over-long or cut off. */
PBCI_INLINE const uint8_t *read_short_value(const uint8_t *p,
                                            const uint8_t *end, uint64_t *v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return p + 1;
  }
  if ((size_t)(end - p) >= 2 && p[1] < 0x80) {
    *v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
    return p + 2;
  }
  return pbci_read_varint(p, end, v);
}

/* append_packed for a run of varints of at most SHORT_RUN bytes. */
PBCI_INLINE PbciAppend append_short_run(PbciArena *a, void *array, size_t *n,
                                        size_t *cap, const uint8_t *p,
                                        const uint8_t *end, unsigned kind,
                                        size_t size) {
  uint64_t v[SHORT_RUN];
  size_t count = 0, i;
  unsigned char *out;
  PbciAppend r = {array, NULL, 0};
  if (*cap == 0 &&
      (size_t)(a->hi - a->lo) >= PROTOBUF_C_ITER_ARRAY_HEADER + SHORT_RUN * size) {
    /* A new array, the usual case: stored where pbci_alloc would place
     * it, at the low end after its header, and taken once the values are
     * counted. The room holds the longest run, so no fault but a malformed
     * value can come first, as below; free space written on failure is
     * unspecified. */
    out = a->lo + PROTOBUF_C_ITER_ARRAY_HEADER;
    while (p < end) {
      uint64_t value;
      p = read_short_value(p, end, &value);
      if (p == NULL) {
        r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
        return r;
      }
      out = store_varint(out, value, kind);
      count++;
    }
    if (count != 0) {
      /* As grow would: capacity pbci_next_capacity(0, count), and
       * pbci_array_bytes, whose checks no short run needs. */
      r.array = pbci_array_start(a->lo, count, n);
      a->lo += PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ROUND(count * size);
      *n = count;
      *cap = count;
    }
    return r;
  }
  while (p < end) {
    p = read_short_value(p, end, &v[count++]);
    if (p == NULL) {
      r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
      return r;
    }
  }
  /* An empty run may find no array at all (NULL + 0 is undefined in C). */
  if (count == 0 || !make_room(a, &r, n, cap, count, size)) return r;
  out = (unsigned char *)r.array + *n * size;
  for (i = 0; i < count; i++) out = store_varint(out, v[i], kind);
  *n += count;
  return r;
}

/* Whether a run of varints holds long values (3 bytes or more each on
 * average), as its first 64 bytes say: for runs not counted first. */
PBCI_INLINE int looks_long(const uint8_t *p, const uint8_t *end) {
  const size_t len = (size_t)(end - p) < 64 ? (size_t)(end - p) : 64;
  size_t i, ends = 0;
  for (i = 0; i < len; i++) ends += p[i] < 0x80;
  return len / 3 >= ends;
}

/* append_packed for a new array's run of varints or bools [p, end) (not
 * empty), where the buffer has room for as many values as the run has
 * bytes: stored where pbci_alloc would place the array, at the low end
 * after its header, without counting the run first (a tenth of the
 * bench's `packed`), and taken once stored, as append_short_run does. */
PBCI_INLINE PbciAppend append_in_place(PbciArena *a, void *array, size_t *n,
                                       size_t *cap, const uint8_t *p,
                                       const uint8_t *end, unsigned kind,
                                       size_t size) {
  PbciAppend r = {array, NULL, 0};
  unsigned char *const start = a->lo + PROTOBUF_C_ITER_ARRAY_HEADER;
  unsigned char *stop = NULL;
  size_t count;
  /* As pbci_count_varints: a run must end with a varint's last byte. */
  if (end[-1] < 0x80) stop = store_run(start, p, end, looks_long(p, end), kind);
  if (stop == NULL) {
    r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return r;
  }
  /* As grow would: capacity pbci_next_capacity(0, count). */
  count = (size_t)(stop - start) / size;
  r.array = pbci_array_start(a->lo, count, n);
  a->lo += PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ROUND(count * size);
  *n = count;
  *cap = count;
  return r;
}

/* Whether the buffer has room for a new array of `bytes` values of `size`
 * bytes, its header and its rounding, without overflow. */
PBCI_INLINE int room_for_values(const PbciArena *a, size_t bytes, size_t size) {
  const size_t room = (size_t)(a->hi - a->lo);
  return room >= PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ALIGN &&
         bytes <= (room - PROTOBUF_C_ITER_ARRAY_HEADER - PBCI_ALIGN) / size;
}

/* The body of pbci_append_packed for a constant kind. */
PBCI_INLINE PbciAppend append_packed(PbciArena *a, void *array, size_t *n,
                                     size_t *cap, const uint8_t *p,
                                     const uint8_t *end, unsigned kind) {
  const size_t size = packed_size(kind);
  size_t count;
  PbciAppend r = {array, NULL, 0};
  if (kind != PBCI_PACKED_FIXED32 && kind != PBCI_PACKED_FIXED64 &&
      kind != PBCI_PACKED_BOOL && (size_t)(end - p) <= SHORT_RUN) {
    return append_short_run(a, array, n, cap, p, end, kind, size);
  }
  if (kind != PBCI_PACKED_FIXED32 && kind != PBCI_PACKED_FIXED64 && *cap == 0 &&
      p != end && room_for_values(a, (size_t)(end - p), size)) {
    return append_in_place(a, array, n, cap, p, end, kind, size);
  }
  count = kind == PBCI_PACKED_FIXED32 || kind == PBCI_PACKED_FIXED64
              ? pbci_count_fixed(p, end, size)
              : pbci_count_varints(p, end);
  if (count == PBCI_BAD_COUNT) {
    r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return r;
  }
  /* An empty run may find no array at all (NULL + 0 is undefined in C). */
  if (count == 0) return r;
  if (!make_room(a, &r, n, cap, count, size)) {
    /* A run with an over-long varint is malformed whatever the room, as
     * unpacked_size reports it: look for one, on this path only. */
    if (kind != PBCI_PACKED_FIXED32 && kind != PBCI_PACKED_FIXED64 &&
        !pbci_varints_fit(p, end)) {
      r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
    }
    return r;
  }
  if (store_run((unsigned char *)r.array + *n * size, p, end,
                (size_t)(end - p) / 3 >= count, kind) == NULL) {
    /* r.array, grown, holds the *n elements within capacity *cap. */
    r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return r;
  }
  *n += count;
  return r;
}

/* The run [p, end) as pbci_append_packed appends it, for each kind: one
 * copy of the loop per kind, so the dispatch costs once per run. */
PBCI_INLINE PbciAppend append_run(PbciArena *a, void *array, size_t *n,
                                  size_t *cap, const uint8_t *p,
                                  const uint8_t *end, unsigned kind) {
  switch (kind) {
    case PBCI_PACKED_VARINT32:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_VARINT32);
    case PBCI_PACKED_SINT32:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_SINT32);
    case PBCI_PACKED_VARINT64:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_VARINT64);
    case PBCI_PACKED_SINT64:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_SINT64);
    case PBCI_PACKED_BOOL:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_BOOL);
    case PBCI_PACKED_FIXED32:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_FIXED32);
    default:
      return append_packed(a, array, n, cap, p, end, PBCI_PACKED_FIXED64);
  }
}

PbciAppend pbci_append_packed(PbciArena *a, void *array, size_t *n, size_t *cap,
                              const uint8_t *p, const uint8_t *end,
                              unsigned kind) {
  PbciAppend r;
  p = pbci_read_len(p, end, &end);
  if (p == NULL) {
    r.array = array;
    r.next = NULL;
    r.err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return r;
  }
  r = append_run(a, array, n, cap, p, end, kind);
  r.next = r.err == 0 ? end : NULL;
  return r;
}

PbciAppend pbci_append_element(PbciArena *a, void *array, size_t *n,
                               size_t *cap, const uint8_t *key,
                               const uint8_t *end, unsigned kind) {
  PbciAppend r = {array, NULL, PROTOBUF_C_ITER_ERR_MALFORMED};
  const size_t size = packed_size(kind);
  uint64_t tag, v = 0;
  uint32_t u32 = 0;
  protobuf_c_boolean b = 0;
  unsigned char *out;
  const uint8_t *p = key < end ? pbci_read_key(key, end, &tag) : NULL;
  if (p == NULL) return r;
  if (*n == *cap) {
    void *grown = pbci_grow_run(a, array, n, cap, size, key, p, end);
    if (grown == NULL) {
      r.err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
      return r;
    }
    r.array = grown;
  }
  switch (kind) {
    case PBCI_PACKED_FIXED32:
      p = pbci_read_fixed32(p, end, &u32);
      break;
    case PBCI_PACKED_FIXED64:
      p = pbci_read_fixed64(p, end, &v);
      break;
    case PBCI_PACKED_BOOL:
      p = pbci_read_bool(p, end, (uint32_t)(tag & 7), &b);
      break;
    default:
      p = pbci_read_varint(p, end, &v);
      break;
  }
  if (p == NULL) return r; /* r.array, maybe grown, with capacity *cap */
  out = (unsigned char *)r.array + *n * size;
  if (kind == PBCI_PACKED_FIXED32) {
    memcpy(out, &u32, 4);
  } else if (kind == PBCI_PACKED_FIXED64) {
    memcpy(out, &v, 8);
  } else if (kind == PBCI_PACKED_BOOL) {
    memcpy(out, &b, sizeof b);
  } else {
    store_varint(out, v, kind);
  }
  ++*n;
  r.next = p;
  r.err = 0;
  return r;
}

/* ---- strings and bytes ---- */

/* Copies the n bytes of a value ending at value_end (bytes, an unknown
 * field) to the top of the free space: returns the copy, or NULL when the
 * buffer has no room. Up to 16 bytes, as the string paths do
 * (pbci_put_string_block), one 16-byte move ending where the value ends,
 * where the input before its end and the room allow: no branch on the
 * length. */
PBCI_INLINE unsigned char *put_value(PbciArena *a, const uint8_t *value_end,
                                     size_t n) {
  unsigned char *d;
  if (n <= 16 && (size_t)(a->hi - a->lo) >= 16 &&
      (size_t)(value_end - a->ctx.data) >= 16) {
    memcpy(a->hi - 16, value_end - 16, 16);
    a->hi -= n;
    return a->hi;
  }
  d = pbci_alloc_bytes(a, n);
  if (d != NULL) copy_value(d, value_end - n, n);
  return d;
}

/* Everything pbci_take_other_string's fast path leaves out: lengths over 127,
 * UTF-8 validation, failures. */
static PBCI_NOINLINE PbciString take_string_slow(PbciArena *a, const uint8_t *p,
                                                 const uint8_t *end,
                                                 ptrdiff_t *err) {
  PbciString r = {NULL, NULL};
  const uint8_t *value_end;
  size_t n;
  p = pbci_read_len(p, end, &value_end);
  if (p == NULL) {
    *err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return r;
  }
  n = (size_t)(value_end - p);
  if ((a->ctx.flags & PROTOBUF_C_ITER_VALIDATE_UTF8) &&
      !pbci_utf8_valid(p, n)) {
    *err = PROTOBUF_C_ITER_ERR_BAD_UTF8;
    return r;
  }
  r.s = (char *)pbci_alloc_bytes(a, n + 1);
  if (r.s == NULL) {
    *err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
    return r;
  }
  if (n != 0) memcpy(r.s, p, n);
  r.s[n] = '\0';
  r.next = value_end;
  return r;
}

PbciString pbci_take_other_string(PbciArena *a, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err) {
  /* A one-byte length (so at most 127 bytes), room in the buffer, no
   * validation. No calls, so no registers to save. */
  const uint8_t *value_end;
  const uint8_t *v = pbci_try_len1(p, end, &value_end);
  if (v != NULL && !(a->ctx.flags & PROTOBUF_C_ITER_VALIDATE_UTF8)) {
    const size_t n = (size_t)(value_end - v);
    const size_t room = (size_t)(a->hi - a->lo);
    const size_t before = (size_t)(value_end - a->ctx.data);
    /* As pbci_take_string's inline path does with 16 bytes, a block of 64
     * or 128 bytes, the smaller that holds the value, when the input before
     * the value's end fills it and the room takes it: no branch on the
     * length (random lengths mispredicted copy_short's loop exit and size
     * tests: docs/design.md). Near the input's start or with little room,
     * copy_short. */
    if (n <= 64 && room > 64 && before >= 64) {
      return pbci_put_string_block(a, value_end, n, 64);
    }
    if (room > 128 && before >= 128) {
      return pbci_put_string_block(a, value_end, n, 128);
    }
    if (room > n) {
      PbciString r;
      a->hi -= n + 1;
      r.s = (char *)a->hi;
      copy_short(a->hi, v, n);
      r.s[n] = '\0';
      r.next = value_end;
      return r;
    }
  }
  return take_string_slow(a, p, end, err);
}

const uint8_t *pbci_take_bytes(PbciArena *a, ProtobufCBinaryData *bd,
                               const uint8_t *p, const uint8_t *end,
                               ptrdiff_t *err) {
  const uint8_t *value_end;
  size_t n;
  unsigned char *d = NULL;
  p = pbci_read_len(p, end, &value_end);
  if (p == NULL) {
    *err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return NULL;
  }
  n = (size_t)(value_end - p);
  if (n != 0) {
    if (a->ctx.flags & PROTOBUF_C_ITER_ALIAS_BYTES) {
      d = (unsigned char *)(uintptr_t)p; /* the caller's, never written */
    } else {
      d = put_value(a, value_end, n);
      if (d == NULL) {
        *err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
        return NULL;
      }
    }
  }
  bd->len = n;
  bd->data = d;
  return value_end;
}

const uint8_t *pbci_store_unknown(PbciArena *a, const PbciMessage *type,
                                  ProtobufCMessage *base, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err) {
  PbciField f;
  ProtobufCMessageUnknownField *u;
  size_t n, cap;
  unsigned char *copy;
  /* Re-read from the key so that framing is checked in one place. */
  if (pbci_next_field(p, end, &f) == NULL ||
      pbci_find_field(type, f.tag >> 3) != NULL) {
    *err = PROTOBUF_C_ITER_ERR_MALFORMED;
    return NULL;
  }
  if (a->ctx.flags & PROTOBUF_C_ITER_DISCARD_UNKNOWN) return f.end;
  /* The array's capacity is what its header records (grow_to reads it): no
   * decoder keeps it, so that none pays for it on entry. One more at a
   * time: unknown fields are rare, doubling keeps many linear. */
  cap = base->n_unknown_fields;
  u = (ProtobufCMessageUnknownField *)grow_to(
      a, base->unknown_fields, base->n_unknown_fields, &cap,
      base->n_unknown_fields + 1, sizeof *u, &base->n_unknown_fields);
  if (u == NULL) {
    *err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
    return NULL;
  }
  base->unknown_fields = u;
  n = (size_t)(f.end - f.raw);
  if (a->ctx.flags & PROTOBUF_C_ITER_ALIAS_BYTES) {
    copy = (unsigned char *)(uintptr_t)f.raw; /* the caller's, never written */
  } else {
    copy = put_value(a, f.end, n);
    if (copy == NULL) {
      *err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
      return NULL;
    }
  }
  u = &base->unknown_fields[base->n_unknown_fields++];
  u->tag = (uint32_t)(f.tag >> 3);
  u->wire_type = (ProtobufCWireType)(f.tag & 7);
  u->len = n;
  u->data = copy;
  return f.end;
}

const PbciFieldInfo *pbci_search_field(const PbciMessage *type,
                                       uint64_t number) {
  size_t lo = 0, hi = type->n_fields;
  /* Past the last field: the usual unknown field, added by a newer schema. */
  if (hi == 0 || number > type->fields[hi - 1].number) return NULL;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (type->fields[mid].number == number) return &type->fields[mid];
    if (type->fields[mid].number < number) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return NULL;
}
