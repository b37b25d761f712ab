/* Reading the wire format: the out-of-line paths of the readers in
 * internal/decode.h (multi-byte varints, keys and lengths, whole fields)
 * and the count of a packed run's varints and its check for over-long
 * ones. Reads only; calls nothing else of the runtime. */
#include "protobuf-c-iter/internal/decode.h"
#include "runtime.h"

/* Byte i at p read as a signed number (int8_t is two's complement),
 * sign-extended to 64 bits: itself below 0x80, else its 7 low bits with
 * every bit above them set. */
#define SIGNED_BYTE(p, i) ((uint64_t)(int64_t)((const int8_t *)(p))[i])

/* The test whether the value ends at a byte. gcc 12 reads the next byte
 * on the fall-through: one taken branch a value, whatever its length.
 * clang 14 jumped to each next byte instead (uint32_x10, values of five
 * bytes, decoded 27% slower than gcc's) unless told the end is the rare
 * way; told so, gcc merges the returns behind more jumps (+6% instructions
 * on uint32_x10), so only clang is. */
#if defined(__clang__)
#define ENDS(x) PBCI_RARELY(x)
#else
#define ENDS(x) (x)
#endif

/* Byte i (1 to 8) of a varint with room for all ten, when the bytes before
 * it continued. v holds their 7-bit groups with every bit above them set
 * (they came as signed bytes); the byte, signed and shifted to its group,
 * with every bit below set, is and-ed in: its group goes in, and when it is
 * the last byte its zero sign clears the bits above, v's top bit with them. */
#define VARINT_STEP(i)                                                      \
  v &= (SIGNED_BYTE(p, i) << (7 * (i))) | ((UINT64_C(1) << (7 * (i))) - 1); \
  if (ENDS(v >> 63 == 0)) {                                                 \
    r.p = p + (i) + 1;                                                      \
    r.v = v;                                                                \
    return r;                                                               \
  }

PbciRead pbci_read_varint_slow(const uint8_t *p, const uint8_t *end) {
  PbciRead r = {NULL, 0};
  uint64_t v, b;
  size_t n, i;
  if ((size_t)(end - p) >= 10) {
    /* No bounds check per byte, and a byte at a time: each costs a signed
     * load, a shift, an or, an and and a branch on the sign, fewer
     * instructions than gathering a word's 7-bit groups for the 5-byte
     * values of random 32-bit numbers, and no separate two-byte test
     * (docs/design.md). */
    v = SIGNED_BYTE(p, 0);
    if (ENDS(v >> 63 == 0)) {
      r.p = p + 1;
      r.v = v;
      return r;
    }
    VARINT_STEP(1)
    VARINT_STEP(2)
    VARINT_STEP(3)
    VARINT_STEP(4)
    VARINT_STEP(5)
    VARINT_STEP(6)
    VARINT_STEP(7)
    VARINT_STEP(8)
    /* The tenth byte's low bit is the value's top bit; it must be the last
     * (below 0x80). */
    b = p[9];
    if (b < 0x80) {
      r.p = p + 10;
      r.v = (v & ~(UINT64_C(1) << 63)) | b << 63;
      return r;
    }
    return r; /* more than 10 bytes */
  }
  /* Near the end of the input or of a sub-message: a byte at a time, each
   * checked against the n (< 10) left, so none can be over-long. Each
   * byte's "- 1" takes back the continuation bit (1 << 7 * i) that the byte
   * before it added. */
  n = (size_t)(end - p);
  if (n == 0) return r;
  v = p[0];
  if (v < 0x80) {
    r.p = p + 1;
    r.v = v;
    return r;
  }
  for (i = 1; i < n; i++) {
    b = p[i];
    v += (b - 1) << (7 * i);
    if (b < 0x80) {
      r.p = p + i + 1;
      r.v = v;
      return r;
    }
  }
  return r; /* truncated */
}

#undef VARINT_STEP
#undef ENDS
#undef SIGNED_BYTE

PbciRead pbci_read_tag_slow(const uint8_t *p, const uint8_t *end) {
  PbciRead r = {NULL, 0};
  uint64_t result = 0;
  unsigned i;
  if (p >= end) return r;
  if ((p[0] & 0xf8) == 0) return r; /* one-byte key of field 0 */
  for (i = 0; i < 5; i++) {
    if (p + i >= end) return r;
    result |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) {
      /* Up to 35 bits: a 32-bit field number and the wire type. */
      r.p = p + i + 1;
      r.v = result;
      return r;
    }
  }
  return r; /* more than 5 bytes */
}

PbciSpan pbci_read_len_slow(const uint8_t *p, const uint8_t *end) {
  PbciSpan r = {NULL, NULL};
  uint64_t len = 0;
  unsigned i;
  /* 128 to 16383 bytes: sub-messages, long strings. */
  r.p = pbci_try_short_len(p, end, &r.end);
  if (r.p != NULL) return r;
  for (i = 0; i < 5; i++) {
    if (p + i >= end) return r;
    len |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) break;
  }
  if (i == 5) return r; /* more than 5 bytes */
  p += i + 1;
  if (len > INT_MAX || len > (uint64_t)(end - p)) return r;
  r.p = p;
  r.end = p + (size_t)len;
  return r;
}

/* The end of a value of wire type `wire_type` at p, setting *value to
 * where its contents start (after a length prefix); NULL when malformed,
 * wire types 3 and 4 (groups), 6 and 7 included. */
static const uint8_t *value_end(const uint8_t *p, const uint8_t *end,
                                uint32_t wire_type, const uint8_t **value) {
  const uint8_t *contents_end = NULL;
  uint64_t v;
  *value = p;
  switch (wire_type) {
    case PBCI_WT_VARINT:
      return pbci_read_varint(p, end, &v);
    case PBCI_WT_64BIT:
      return (size_t)(end - p) >= 8 ? p + 8 : NULL;
    case PBCI_WT_32BIT:
      return (size_t)(end - p) >= 4 ? p + 4 : NULL;
    case PBCI_WT_LEN:
      *value = pbci_read_len(p, end, &contents_end);
      return *value != NULL ? contents_end : NULL;
    default:
      return NULL;
  }
}

/* protobuf-c 1.4.1 reads a bool as true when any byte of the field's value,
 * length prefix included, has one of its low 7 bits set, whatever the wire
 * type. */
PbciRead pbci_read_bool_slow(const uint8_t *p, const uint8_t *end,
                             uint32_t wire_type) {
  PbciRead r = {NULL, 0};
  const uint8_t *value;
  const uint8_t *next = value_end(p, end, wire_type, &value);
  if (next != NULL) {
    r.p = next;
    for (; p < next; p++) {
      if (*p & 0x7f) r.v = 1;
    }
  }
  return r;
}

const uint8_t *pbci_next_field_slow(const uint8_t *p, const uint8_t *end,
                                    PbciField *f) {
  f->key = p;
  p = pbci_read_tag(p, end, &f->tag);
  if (p == NULL) return NULL;
  f->raw = p;
  f->end = value_end(p, end, (uint32_t)(f->tag & 7), &f->value);
  return f->end;
}

size_t pbci_count_varints(const uint8_t *p, const uint8_t *end) {
  size_t n = 0;
  if (p < end && end[-1] >= 0x80) return PBCI_BAD_COUNT;
  /* Each of a word's eight byte lanes adds up its continuation bits over up
   * to 255 words (so no lane overflows), then the lanes are summed: a few
   * instructions a word (vector code at gcc -O3), in any byte order. */
  while ((size_t)(end - p) >= 8) {
    size_t words = (size_t)(end - p) / 8, i;
    uint64_t lanes = 0;
    if (words > 255) words = 255;
    for (i = 0; i < words; i++) {
      uint64_t w;
      memcpy(&w, p + 8 * i, sizeof w);
      lanes += (w >> 7) & UINT64_C(0x0101010101010101);
    }
    lanes = (lanes & UINT64_C(0x00ff00ff00ff00ff)) +
            ((lanes >> 8) & UINT64_C(0x00ff00ff00ff00ff));
    n += 8 * words - (size_t)((lanes * UINT64_C(0x0001000100010001)) >> 48);
    p += 8 * words;
  }
  for (; p < end; p++) n += *p < 0x80;
  return n;
}

size_t pbci_count_checked_varints(const uint8_t *p, const uint8_t *end) {
  /* A varint over 10 bytes needs ten continuation bytes: only a run with
   * as many (its bytes less its values) is checked for one. */
  const size_t n = pbci_count_varints(p, end);
  if (n == PBCI_BAD_COUNT || (size_t)(end - p) - n < 10) return n;
  return pbci_varints_fit(p, end) ? n : PBCI_BAD_COUNT;
}

int pbci_varints_fit(const uint8_t *p, const uint8_t *end) {
  size_t run = 0; /* continuation bytes since the last last byte */
#if PBCI_LITTLE_ENDIAN && (defined(__GNUC__) || defined(__clang__))
  if ((size_t)(end - p) >= 8) {
    /* One compare a word against the last word's start, not a length
     * computed again (docs/design.md). */
    const uint8_t *const last_word = end - 8;
    do {
      uint64_t w, last;
      memcpy(&w, p, sizeof w);
      /* One bit per last byte (top bit clear), at bit 7 of its byte. */
      last = ~w & UINT64_C(0x8080808080808080);
      if (last == 0) {
        run += 8;
        if (run >= 10) return 0;
      } else {
        /* Continuation bytes before the word's first last byte extend the
         * run; those after its last one start the next. */
        if (run + ((unsigned)__builtin_ctzll(last) >> 3) >= 10) return 0;
        run = (unsigned)__builtin_clzll(last) >> 3;
      }
      p += 8;
    } while (p <= last_word);
  }
#endif
  for (; p < end; p++) {
    if (*p < 0x80) {
      run = 0;
    } else if (++run == 10) {
      return 0;
    }
  }
  return 1;
}
