/*
 * Internal, a part of protobuf-c-iter/internal/decode.h, which includes it
 * (and only it may, after its own declarations): reading the wire (varints, keys, lengths, fixed-width values), converting raw values, and scanning fields without decoding them. decode.h's
 * conventions apply.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_DECODE_H
#error "include protobuf-c-iter/internal/decode.h instead"
#endif
#ifndef PROTOBUF_C_ITER_INTERNAL_WIRE_READ_H
#define PROTOBUF_C_ITER_INTERNAL_WIRE_READ_H

/* ---- reading the wire ---- */

/* The out-of-line readers return what they read by value (two registers)
 * rather than through a pointer: a pointer to the caller's variable would
 * make the compiler keep it in memory across the whole decode loop. */
typedef struct PbciRead {
  const uint8_t *p; /* after what was read; NULL when malformed */
  uint64_t v;       /* the value, key or bool read */
} PbciRead;
typedef struct PbciSpan {
  const uint8_t *p;   /* the value after a length prefix; NULL when malformed */
  const uint8_t *end; /* its end */
} PbciSpan;

PbciRead pbci_read_varint_slow(const uint8_t *p, const uint8_t *end);
PbciRead pbci_read_tag_slow(const uint8_t *p, const uint8_t *end);
PbciSpan pbci_read_len_slow(const uint8_t *p, const uint8_t *end);
PbciRead pbci_read_bool_slow(const uint8_t *p, const uint8_t *end,
                             uint32_t wire_type);

/* A varint of at most 10 bytes; bits beyond 64 are dropped, as protobuf-c
 * does. Inline for one byte only (every scalar case carries this code);
 * longer ones out of line. */
PBCI_INLINE const uint8_t *pbci_read_varint(const uint8_t *p,
                                              const uint8_t *end, uint64_t *v) {
  if (p < end && *p < 0x80) {
    *v = *p;
    return p + 1;
  }
  {
    PbciRead r = pbci_read_varint_slow(p, end);
    *v = r.v;
    return r.p;
  }
}

/* The first step of pbci_gather7: the 7-bit groups of each pair of bytes
 * of x put together in its 16-bit lane (14 bits each), as four two-byte
 * varints read at once. */
PBCI_INLINE uint64_t pbci_gather7_pairs(uint64_t x) {
  x &= UINT64_C(0x7f7f7f7f7f7f7f7f);
  return ((x & UINT64_C(0x7f007f007f007f00)) >> 1) |
         (x & UINT64_C(0x007f007f007f007f));
}

/* The 7-bit groups of the bytes of x (as loaded from memory on a
 * little-endian host) put together: 56 bits. Three steps of pairs rather
 * than one byte at a time. */
PBCI_INLINE uint64_t pbci_gather7(uint64_t x) {
  x = pbci_gather7_pairs(x);
  x = ((x & UINT64_C(0x3fff00003fff0000)) >> 2) | (x & UINT64_C(0x00003fff00003fff));
  return ((x & UINT64_C(0x0fffffff00000000)) >> 4) | (x & UINT64_C(0x000000000fffffff));
}

/* The varint in the 8 bytes at p (readable), when it ends there: returns
 * its length (1 to 8) and sets *v; 0 when it is longer. Little-endian
 * hosts only (the bytes are loaded as one word). */
PBCI_INLINE unsigned pbci_varint_word(const uint8_t *p, uint64_t *v) {
  uint64_t w, last;
  memcpy(&w, p, sizeof w);
  last = ~w & UINT64_C(0x8080808080808080); /* bit 7 of each last byte */
  if (last == 0) return 0;
  /* The bytes up to the first last byte: the bits up to its bit 7. */
  *v = pbci_gather7(w & (last ^ (last - 1)));
  return (unsigned)(pbci_ctz64(last) >> 3) + 1;
}

#if PBCI_LITTLE_ENDIAN
/* pbci_read_run_varint where at least 8 bytes of the run are left: any
 * length read from a word, without the checks for one and two bytes. */
PBCI_INLINE const uint8_t *pbci_read_run_word(const uint8_t *p, uint64_t *v) {
  uint64_t r;
  unsigned i;
  if ((i = pbci_varint_word(p, v)) != 0) return p + i;
  /* Eight bytes continue, so p[8] is in the run, and p[9] too when p[8]
   * continues. */
  memcpy(&r, p, sizeof r);
  r = pbci_gather7(r) | (uint64_t)(p[8] & 0x7f) << 56;
  if (p[8] < 0x80) {
    *v = r;
    return p + 9;
  }
  if (p[9] >= 0x80) return NULL;
  *v = r | (uint64_t)p[9] << 63;
  return p + 10;
}
#endif

/* A varint inside a packed run [p, end) whose last byte ends a varint
 * (end[-1] < 0x80), so that every varint of the run ends inside it and only
 * word loads need a bounds check. Returns the byte after it, or NULL when
 * it is over 10 bytes (the decoder counts a run by its last bytes and
 * leaves this check to the read). Bits beyond 64 are dropped, as by
 * pbci_read_varint. */
PBCI_INLINE const uint8_t *pbci_read_run_varint(const uint8_t *p,
                                                const uint8_t *end,
                                                uint64_t *v) {
  uint64_t r;
  unsigned i;
  if (p[0] < 0x80) {
    *v = p[0];
    return p + 1;
  }
  if (p[1] < 0x80) { /* p[1] is in the run: p[0] continues */
    *v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
    return p + 2;
  }
#if PBCI_LITTLE_ENDIAN
  if ((size_t)(end - p) >= 8) return pbci_read_run_word(p, v);
#else
  (void)end;
#endif
  /* Each byte read follows one that continues, so it is in the run. (On a
   * little-endian host fewer than 8 bytes are left here, so the varint ends
   * within them; the over-long case is for other hosts.) */
  r = (uint64_t)(p[0] & 0x7f);
  for (i = 1; i < 10; i++) {
    r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    if (p[i] < 0x80) {
      *v = r;
      return p + i + 1;
    }
  }
  return NULL;
}

/* Whether the 8 bytes from p are inside [p, end) and each a one-byte varint
 * (top bit clear). */
PBCI_INLINE int pbci_eight_one_byte_varints(const uint8_t *p,
                                            const uint8_t *end) {
  uint64_t w;
  if ((size_t)(end - p) < 8) return 0;
  memcpy(&w, p, sizeof w);
  return (w & UINT64_C(0x8080808080808080)) == 0;
}

/* A bool as protobuf-c 1.4.1 reads it: true when any byte of the value,
 * length prefix included, has one of its low 7 bits set, whatever the wire
 * type. Inline for the usual one-byte varint. */
PBCI_INLINE const uint8_t *pbci_read_bool(const uint8_t *p, const uint8_t *end,
                                            uint32_t wire_type,
                                            protobuf_c_boolean *b) {
  if (wire_type == PBCI_WT_VARINT && p < end && *p < 0x80) {
    *b = *p != 0;
    return p + 1;
  }
  {
    PbciRead r = pbci_read_bool_slow(p, end, wire_type);
    *b = (protobuf_c_boolean)r.v;
    return r.p;
  }
}

/* The key at p in a decode loop, where p < end is known: what
 * pbci_read_tag reads, except that a one-byte key of field 0 comes back as
 * tag 0 to 7. No field's case matches those, and the unknown-field path, which
 * re-reads the key with pbci_next_field, rejects them. */
PBCI_INLINE const uint8_t *pbci_read_key(const uint8_t *p, const uint8_t *end,
                                           uint64_t *tag) {
  /* One-byte keys (fields 1-15) the fall-through: where a prediction
   * missed, the way to the switch then takes one jump fewer (gcc and clang
   * placed the two-byte read in between; rtb_reversed 4-7% faster). */
  if (!PBCI_RARELY(*p >= 0x80)) {
    *tag = *p;
    return p + 1;
  }
  if ((size_t)(end - p) >= 2 && p[1] < 0x80) {
    *tag = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
    return p + 2;
  }
  {
    PbciRead r = pbci_read_tag_slow(p, end);
    *tag = r.v;
    return r.p;
  }
}

/* A field key of at most 5 bytes: *tag = field number << 3 | wire type,
 * with the field number truncated to 32 bits as protobuf-c does. A one-byte
 * key for field 0 is malformed; longer keys for field 0 are accepted. */
PBCI_INLINE const uint8_t *pbci_read_tag(const uint8_t *p, const uint8_t *end,
                                         uint64_t *tag) {
  if (p < end && *p >= 0x08) return pbci_read_key(p, end, tag);
  {
    PbciRead r = pbci_read_tag_slow(p, end); /* at end, or field 0: NULL */
    *tag = r.v;
    return r.p;
  }
}

/* The framing of short lengths, written once for the decoder and the
 * sizers: a length prefix of one or two bytes (values under 16 KiB:
 * strings, most sub-messages) at p, with `avail` bytes from p on, whose
 * value fits in them: returns the first value byte and sets *value_end;
 * NULL for anything else, which pbci_read_len reads. Taking `avail` lets a
 * caller that has checked more bytes (count_run: the key too) have the
 * compiler drop the checks it implies. */
PBCI_INLINE const uint8_t *pbci_frame_short_len(const uint8_t *p, size_t avail,
                                                const uint8_t **value_end) {
  size_t n;
  if (avail < 1) return NULL;
  n = p[0];
  if (n < 0x80) {
    if (avail - 1 < n) return NULL;
    *value_end = p + 1 + n;
    return p + 1;
  }
  if (avail < 2 || p[1] >= 0x80) return NULL;
  n = (n & 0x7f) | (size_t)p[1] << 7;
  if (avail - 2 < n) return NULL;
  *value_end = p + 2 + n;
  return p + 2;
}

/* pbci_frame_short_len for a prefix at p in [p, end). */
PBCI_INLINE const uint8_t *pbci_try_short_len(const uint8_t *p, const uint8_t *end,
                                              const uint8_t **value_end) {
  return pbci_frame_short_len(p, (size_t)(end - p), value_end);
}

/* The same for a one-byte prefix (0-127) only: the inline part of
 * pbci_read_len. */
PBCI_INLINE const uint8_t *pbci_try_len1(const uint8_t *p, const uint8_t *end,
                                         const uint8_t **value_end) {
  const size_t avail = (size_t)(end - p);
  if (avail < 1 || p[0] >= 0x80) return NULL;
  return pbci_frame_short_len(p, avail, value_end);
}

/* A length prefix of at most 5 bytes and at most INT_MAX whose value fits
 * in [p, end): returns the first value byte and sets *value_end. Inline
 * for lengths below 128 only: a longer value costs far more than the call,
 * and the sizers' loops and every repeated sub-message field carry this
 * code (inline two-byte lengths made maps 3-7% slower: docs/design.md).
 * Singular sub-messages take pbci_read_nested_len. */
PBCI_INLINE const uint8_t *pbci_read_len(const uint8_t *p, const uint8_t *end,
                                           const uint8_t **value_end) {
  const uint8_t *v = pbci_try_len1(p, end, value_end);
  if (v != NULL) return v;
  {
    PbciSpan r = pbci_read_len_slow(p, end);
    *value_end = r.end;
    return r.p;
  }
}

/* pbci_read_len with two-byte lengths (128 to 16383) inline too, for
 * singular sub-messages: they nest, so most of a chain's lengths take two
 * bytes, and a message has few such fields to carry the code. */
PBCI_INLINE const uint8_t *pbci_read_nested_len(const uint8_t *p,
                                                const uint8_t *end,
                                                const uint8_t **value_end) {
  const uint8_t *v = pbci_try_short_len(p, end, value_end);
  if (v != NULL) return v;
  {
    PbciSpan r = pbci_read_len_slow(p, end);
    *value_end = r.end;
    return r.p;
  }
}

/* For a decoder whose occurrence ended at p, passed `next`: when the
 * parent's next field is next's field again, with its usual key and a
 * length that fits, returns its value's start and sets *value_end.
 * Otherwise NULL, leaving the field to the parent (which reports a
 * malformed one). */
PBCI_INLINE const uint8_t *pbci_next_occurrence(const PbciNext *next,
                                                const uint8_t *p,
                                                const uint8_t **value_end) {
  const uint8_t *const end = next->end;
  if (p >= end || p[0] != (uint8_t)next->key) return NULL;
  if (next->key < 0x80) {
    p++;
  } else {
    if (end - p < 2 || pbci_key2(p) != next->key) return NULL;
    p += 2;
  }
  return pbci_read_nested_len(p, end, value_end);
}

/* The little-endian value of the 4 or 8 bytes at p, which the caller has
 * checked are in the input (one load on little-endian hosts). */
PBCI_INLINE uint32_t pbci_fixed4_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
PBCI_INLINE uint64_t pbci_fixed8_at(const uint8_t *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
         (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
         (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

PBCI_INLINE const uint8_t *pbci_read_fixed32(const uint8_t *p,
                                               const uint8_t *end,
                                               uint32_t *v) {
  if ((size_t)(end - p) < 4) return NULL;
  *v = pbci_fixed4_at(p);
  return p + 4;
}

PBCI_INLINE const uint8_t *pbci_read_fixed64(const uint8_t *p,
                                               const uint8_t *end,
                                               uint64_t *v) {
  if ((size_t)(end - p) < 8) return NULL;
  *v = pbci_fixed8_at(p);
  return p + 8;
}

/* ---- converting raw values ---- */

PBCI_INLINE int32_t pbci_zigzag32(uint32_t v) {
  return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}

PBCI_INLINE int64_t pbci_zigzag64(uint64_t v) {
  return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

PBCI_INLINE float pbci_float(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

PBCI_INLINE double pbci_double(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* ---- scanning fields without decoding them ---- */

/* The end of the varint at v, of up to 10 bytes before `end`, or NULL. */
PBCI_INLINE const uint8_t *pbci_skip_varint(const uint8_t *v,
                                            const uint8_t *end) {
  size_t avail = (size_t)(end - v), i;
  /* A byte at a time: one load for eight bytes took fewer instructions but
   * more time, each field's end then waiting for the load and the count.
   * With ten bytes left, no bound per byte: a 5-byte value (a random 32-bit
   * number) takes half the instructions (docs/design.md). */
  if (avail >= 1 && v[0] < 0x80) return v + 1;
  if (avail >= 2 && v[1] < 0x80) return v + 2;
  if (avail >= 10) {
    if (v[2] < 0x80) return v + 3;
    if (v[3] < 0x80) return v + 4;
    if (v[4] < 0x80) return v + 5;
    if (v[5] < 0x80) return v + 6;
    if (v[6] < 0x80) return v + 7;
    if (v[7] < 0x80) return v + 8;
    if (v[8] < 0x80) return v + 9;
    return v[9] < 0x80 ? v + 10 : NULL;
  }
  for (i = 2; i < avail; i++) {
    if (v[i] < 0x80) return v + i + 1;
  }
  return NULL;
}

/* The end of a value of wire type `wire_type` starting at v, when it frames
 * inline: a varint (found in one load on little-endian hosts when 8 bytes
 * are left, up to 8 bytes long; else a byte at a time, pbci_skip_varint, as
 * at the end of a small message), a length of one or two bytes that fits
 * before `end`, a fixed value. Sets *value (after any length prefix).
 * NULL when it does not (longer, truncated or malformed): callers take a
 * slower path. */
PBCI_INLINE const uint8_t *pbci_try_frame(const uint8_t *v,
                                          const uint8_t *end,
                                          uint32_t wire_type,
                                          const uint8_t **value) {
  size_t avail = (size_t)(end - v);
  *value = v;
  switch (wire_type) {
    case PBCI_WT_VARINT:
      if (avail >= 1 && v[0] < 0x80) return v + 1;
#if PBCI_LITTLE_ENDIAN
      if (avail >= 8) {
        /* The first byte without the continuation bit. */
        uint64_t w, last;
        memcpy(&w, v, sizeof w);
        last = ~w & UINT64_C(0x8080808080808080);
        return last != 0 ? v + (pbci_ctz64(last) >> 3) + 1 : NULL;
      }
#endif
      return pbci_skip_varint(v, end);
    case PBCI_WT_LEN: {
      const uint8_t *value_end = NULL;
      *value = pbci_try_short_len(v, end, &value_end);
      return value_end;
    }
    case PBCI_WT_32BIT:
      return avail >= 4 ? v + 4 : NULL;
    case PBCI_WT_64BIT:
      return avail >= 8 ? v + 8 : NULL;
    default:
      return NULL;
  }
}

/* The end of a value of wire type `wire_type` at v when it frames simply:
 * pbci_try_frame's values, and varints of up to 10 bytes; else NULL. */
PBCI_INLINE const uint8_t *pbci_try_skip(const uint8_t *v, const uint8_t *end,
                                         uint32_t wire_type) {
  const uint8_t *value;
  return wire_type == PBCI_WT_VARINT
             ? pbci_skip_varint(v, end)
             : pbci_try_frame(v, end, wire_type, &value);
}

/* One field as it sits on the wire. */
typedef struct PbciField {
  uint64_t tag;         /* field number << 3 | wire type */
  const uint8_t *key;   /* first byte of the key */
  const uint8_t *raw;   /* first byte after the key (length prefix included) */
  const uint8_t *value; /* first byte of the value (after a length prefix) */
  const uint8_t *end;   /* one past the value */
} PbciField;

/* Reads the field at p: checks its framing (wire types 0, 1, 2, 5 only) and
 * returns its end, or NULL when malformed. */
const uint8_t *pbci_next_field_slow(const uint8_t *p, const uint8_t *end,
                                    PbciField *f);
PBCI_INLINE const uint8_t *pbci_next_field(const uint8_t *p,
                                             const uint8_t *end, PbciField *f) {
  /* The key (inline up to two bytes), then the value inline when it frames
   * so; anything else out of line. */
  uint64_t tag;
  const uint8_t *v = pbci_read_tag(p, end, &tag);
  if (v == NULL) return NULL;
  f->key = p;
  f->tag = tag;
  f->raw = v;
  f->end = pbci_try_frame(v, end, (uint32_t)(tag & 7u), &f->value);
  if (f->end != NULL) return f->end;
  return pbci_next_field_slow(p, end, f);
}

/* The fixed-width values of a packed run, or PBCI_BAD_COUNT when its length is
 * not a multiple of `size`. */
PBCI_INLINE size_t pbci_count_fixed(const uint8_t *p, const uint8_t *end,
                                      size_t size) {
  size_t len = (size_t)(end - p);
  return len % size == 0 ? len / size : PBCI_BAD_COUNT;
}

#endif /* PROTOBUF_C_ITER_INTERNAL_WIRE_READ_H */
