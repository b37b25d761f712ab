/*
 * Internal: the helpers generated decoders call. Not a public API; it may
 * change with every release, and generated code is always rebuilt with the
 * runtime it was generated for.
 *
 * Conventions, for the runtime and generated code alike:
 *  - Results of type ptrdiff_t are 0 (or, from the entry points, a byte
 *    count) on success and a negative PROTOBUF_C_ITER_ERR_* code on
 *    failure, reported once with pbci_fail where the fault is found. Inside
 *    the runtime, PBCI_DECLINED (positive, never returned by an entry
 *    point) means "not a failure, not done here": a fast path leaves the
 *    input to the general one, an iteration ends early.
 *  - Readers take [p, end) and return the position after what they read, or
 *    NULL when the input is malformed. They never read at or past `end`.
 *    Only framers named pbci_try_* return NULL for anything else: for a
 *    value they leave to a reader (longer, or near `end`); their callers
 *    then always call one, which decides.
 *  - Counts of a run's elements are PBCI_BAD_COUNT when the run is
 *    malformed.
 *  - Allocation never fails silently: NULL means PROTOBUF_C_ITER_ERR_NO_MEMORY.
 *  - All arithmetic on untrusted values is unsigned and checked before it
 *    forms a pointer.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_DECODE_H
#define PROTOBUF_C_ITER_INTERNAL_DECODE_H

#include <limits.h>
#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "protobuf-c-iter/internal/limits.h"
#include "protobuf-c-iter/protobuf-c-iter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The conventions' two special results (see above). */
#define PBCI_DECLINED 1
#define PBCI_BAD_COUNT ((size_t)-1)

/* The hot helpers below are forced inline: at -O2 compilers otherwise keep
 * some of them out of line once generated decoders call them from many
 * cases, and the call costs more than the work. */
#if defined(__GNUC__) || defined(__clang__)
#define PBCI_INLINE static inline __attribute__((always_inline))
#else
#define PBCI_INLINE static inline
#endif

/* Kept out of line: a slow path whose inlining would make its caller's fast
 * path save registers. */
#if defined(__GNUC__) || defined(__clang__)
#define PBCI_NOINLINE __attribute__((noinline))
#else
#define PBCI_NOINLINE
#endif

/* A branch taken rarely: its code kept out of the way of the usual path
 * (the fast sizer's merges; a decoder's test for merged occurrences after
 * its own, which without it timed deep64 7-8% slower, docs/design.md). */
#if defined(__GNUC__) || defined(__clang__)
#define PBCI_RARELY(x) __builtin_expect((x) != 0, 0)
#else
#define PBCI_RARELY(x) (x)
#endif

/* A generated case's test for the field it predicts next, the usual way
 * with gcc: gcc otherwise takes the case's `break` back to the loop as the
 * likely way and places the jump to the predicted field out of line, a
 * taken jump per field of in-order input. Timed over five code placements
 * (gcc 12 -O3): OpenX -6%, the fixed-width rows -9%, deep64 -5%, the
 * FileDescriptorSet -5%, the rest within 3% (docs/design.md). clang places
 * the chain in order unhinted, and with the hint decoded merged500 10%
 * slower: no hint there. */
#if defined(__GNUC__) && !defined(__clang__)
#define PBCI_USUALLY(x) __builtin_expect((x) != 0, 1)
#else
#define PBCI_USUALLY(x) (x)
#endif

/* A generated decoder (x__iter_decode): called, never inlined or cloned.
 * x__iter_unpack calls its message's decoder directly, with a constant
 * depth; otherwise gcc -O3 copies a decoder into it, or clones a recursive
 * one for each depth (4 KB more for one message of the bench). */
#if defined(__GNUC__) && !defined(__clang__)
#define PBCI_DECODER __attribute__((noinline, noclone))
#else
#define PBCI_DECODER PBCI_NOINLINE
#endif

/* The decoder of a small leaf (a message of at most two fields, none
 * repeated or a message: map entries, a width and a height): copied into
 * each decoder in its file that calls it. A call, its return and the
 * saving of registers cost about as much as decoding two fields; copied,
 * rtb_bid_request's 10 formats and segments took 6% less time
 * (docs/design.md). Still defined out of line, for other files and the
 * runtime's table. Plain `inline` is not enough: gcc -O2 kept calls. */
#if defined(__GNUC__) || defined(__clang__)
#define PBCI_LEAF_DECODER __attribute__((always_inline)) inline
#else
#define PBCI_LEAF_DECODER
#endif

/* Whether the host stores integers little-endian, as the wire does. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PBCI_LITTLE_ENDIAN 1
#else
#define PBCI_LITTLE_ENDIAN 0
#endif

/* The index of the lowest set bit of x, which is not 0. */
PBCI_INLINE unsigned pbci_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (unsigned)__builtin_ctzll(x);
#else
  unsigned n = 0;
  while (!(x & 1)) {
    x >>= 1;
    n++;
  }
  return n;
#endif
}

/* Wire types. */
#define PBCI_WT_VARINT 0u
#define PBCI_WT_64BIT 1u
#define PBCI_WT_LEN 2u
#define PBCI_WT_32BIT 5u

/* A wire type's bit in PbciFieldInfo::wire_types. */
#define PBCI_WT_BIT(wire_type) (1u << (wire_type))

/* The tag value a field's key decodes to: field number << 3 | wire type. */
#define PBCI_TAG(number, wire_type) \
  ((((uint64_t)(number)) << 3) | (uint64_t)(wire_type))

/* n * elem_size, or SIZE_MAX when that overflows: a size no buffer holds,
 * so the room and PTRDIFF_MAX checks after it refuse it. A multiply with an
 * overflow flag on GCC (from 5) and Clang, where dividing by elem_size would
 * cost tens of cycles on every array. */
PBCI_INLINE size_t pbci_mul_size(size_t n, size_t elem_size) {
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 5)
  size_t r;
  return __builtin_mul_overflow(n, elem_size, &r) ? SIZE_MAX : r;
#else
  return elem_size != 0 && n > SIZE_MAX / elem_size ? SIZE_MAX : n * elem_size;
#endif
}

/* The larger of a and b. */
PBCI_INLINE size_t pbci_max_size(size_t a, size_t b) { return a > b ? a : b; }

/* A two-byte key, its bytes in wire order, as pbci_key2 reads it. */
#define PBCI_KEY2(b0, b1) ((uint32_t)(b0) | (uint32_t)(b1) << 8)

/* The two bytes at p as one number (PBCI_KEY2(p[0], p[1])): compilers read
 * them with one load on little-endian machines, so checking a predicted
 * two-byte key is one compare rather than two. */
PBCI_INLINE uint32_t pbci_key2(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* Every allocation in the low (aligned) end of the buffer is rounded up to
 * this, which is at least the alignment of every member of a protobuf-c
 * struct (pointers, size_t, uint64_t, double). Rounding every allocation,
 * rather than aligning the next one, makes the total independent of the
 * order of allocations, which lets unpacked_size add sizes up. */
#define PBCI_ALIGN 8u
#define PBCI_ROUND(n) (((n) + (PBCI_ALIGN - 1u)) & ~(size_t)(PBCI_ALIGN - 1u))

/* What decoding and measuring share: the options of the call and where to
 * report a failure. */
typedef struct PbciCtx {
  const uint8_t *data;         /* start of the whole input, for offsets */
  uint32_t flags;              /* PROTOBUF_C_ITER_ALIAS_BYTES | ... */
  uint32_t max_depth;          /* levels accepted */
  ProtobufCIterStatus *status; /* NULL: not wanted */
} PbciCtx;

/* The caller's buffer, used from both ends: structs and arrays are carved
 * upwards from `lo` in PBCI_ALIGN units, string and bytes contents downwards
 * from `hi` without padding. Free space is [lo, hi). */
typedef struct PbciArena {
  unsigned char *lo;
  unsigned char *hi;
  unsigned char *base; /* start of the buffer */
  unsigned char *top;  /* end of the usable buffer */
  /* The least end of a value that pbci_take_string's inline path may copy
   * as a 16-byte block ending there: the input's start + 16, so that the
   * block is the input's; UINTPTR_MAX, which no value reaches, when
   * strings are validated. One compare a string for both
   * (pbci_arena_set_floor; docs/design.md). */
  uintptr_t block_floor;
  PbciCtx ctx;
} PbciArena;

/* What unpacked_size adds up: bytes needed at each end of the buffer. */
typedef struct PbciSize {
  size_t lo;
  size_t hi;
  size_t work; /* fields the search for merged occurrences may still read
                  (PROTOBUF_C_ITER_SIZE_WORK) */
  PbciCtx ctx;
} PbciSize;

/* Where a decoder may go on after an occurrence of a singular sub-message
 * that merges (the `next` argument of generated decoders). Such a field
 * may be sent again and again, each occurrence merging into one instance
 * (adding to its arrays, say). From the second occurrence on the parent
 * passes its own occurrence's end and the field's usual key: a decoder
 * whose instances grow as occurrences merge (arrays, sub-messages), and
 * that has no required fields, finishes the occurrence, and while the
 * parent's next field is the same one, with that key and a length that
 * fits, decodes that occurrence too, as the parent would have had it
 * merge (no return, call and reopening; the arrays' capacities still in
 * hand). `stop` then says where the last of them ends. NULL elsewhere: a
 * field's first occurrence (the usual path pays only the test), at the
 * top, for repeated fields. */
typedef struct PbciNext {
  const uint8_t *end;  /* the parent occurrence's end */
  uint32_t key;        /* the field's usual key (1 or 2 bytes, first byte
                          low, as pbci_key2 reads it) */
  const uint8_t *stop; /* in: the end of the occurrence the decoder is
                          given; out: of the last occurrence it decoded */
} PbciNext;

/* A generated message type, for the shared entry points below. */
typedef ptrdiff_t (*PbciDecodeFn)(void *msg, const uint8_t *p,
                                  const uint8_t *end, PbciArena *arena,
                                  uint32_t depth, PbciNext *next);
struct PbciList;
typedef ptrdiff_t (*PbciMeasureFn)(const struct PbciList *list,
                                   PbciSize *size, uint32_t depth);

/* What the table-driven sizer (pbci_measure) needs to know of one field.
 * Generated as a table sorted by number, one per message. */
struct PbciMessage;
typedef struct PbciFieldInfo {
  uint32_t number;
  uint16_t key;        /* the bytes of its usual key (1 or 2), first byte
                          low, as the sizer reads keys; PBCI_KEY_NONE when
                          longer */
  uint8_t wire_types;  /* bit w set: values come with wire type w (a packed
                          run's PBCI_WT_LEN included) */
  uint8_t kind;        /* PBCI_KIND_* */
  uint8_t flags;       /* PBCI_FIELD_* */
  uint8_t op;          /* PBCI_OP_*: how the sizer takes its values */
  uint16_t slot;       /* PBCI_FIELD_REPEATED: index of its element count;
                          PBCI_FIELD_GROUP: its group (see PbciList) */
  uint16_t required_bit; /* PBCI_FIELD_REQUIRED: its "seen" bit */
  uint16_t elem_size;    /* repeated: sizeof one array element */
  const struct PbciMessage *sub; /* PBCI_KIND_MESSAGE: the sub-message */
} PbciFieldInfo;

/* A PbciFieldInfo::key no input matches: a key byte below 0x80 ends the
 * key, so no two-byte key has a first byte below it. */
#define PBCI_KEY_NONE 0x7f00u

/* How the sizer takes a field (PbciFieldInfo::op). Plain fields (no
 * flags), which most fields are, take its tightest loop when they come
 * with their usual key; a repeated scalar's op says how to count a packed
 * run. */
#define PBCI_OP_OTHER 0u   /* not plain: the general path */
#define PBCI_OP_VARINT 1u  /* a scalar: skipped */
#define PBCI_OP_FIXED64 2u /* a scalar: skipped */
#define PBCI_OP_FIXED32 3u /* a scalar: skipped */
#define PBCI_OP_STRING 4u  /* its copy and a NUL */
#define PBCI_OP_BYTES 5u   /* its copy */
#define PBCI_OP_PACKED_VARINT 6u  /* repeated: packed runs of varints */
#define PBCI_OP_PACKED_FIXED32 7u /* of 4-byte values */
#define PBCI_OP_PACKED_FIXED64 8u /* of 8-byte values */

/* What a field's value adds to the buffer. */
#define PBCI_KIND_SCALAR 0u  /* nothing (a repeated one: its array slot) */
#define PBCI_KIND_STRING 1u  /* a NUL-terminated copy */
#define PBCI_KIND_BYTES 2u   /* a copy, unless aliased */
#define PBCI_KIND_MESSAGE 3u /* a sub-message */

#define PBCI_FIELD_REPEATED 1u /* an array: slot counts its elements */
#define PBCI_FIELD_GROUP 2u    /* its occurrences merge into one instance
                                  until another member of its group (a
                                  oneof) appears: singular messages and
                                  members of oneofs holding a message */
#define PBCI_FIELD_REQUIRED 4u /* required without a default: checked */
/* A group whose type's decoder goes on into the parent's next occurrences
 * of it (PbciNext): one with arrays or sub-messages and no required fields. */
#define PBCI_FIELD_GOES_ON 8u

typedef struct PbciMessage {
  size_t size; /* sizeof the struct */
  const ProtobufCMessageDescriptor *descriptor;
  /* Sets up a new top-level instance as X__INIT does (generated: the
   * macro's stores, no copy of a static instance; NULL: the descriptor's
   * message_init, protoc-c's x__init). */
  void (*init)(void *msg);
  PbciDecodeFn decode;
  PbciMeasureFn measure; /* pbci_measure with scratch for the type; NULL
                            when the runtime's own scratch suffices */
  const PbciFieldInfo *fields; /* sorted by number */
  uint32_t n_fields;
  uint32_t n_counts;   /* repeated fields */
  uint32_t n_groups;
  uint32_t n_required; /* required fields without a default */
  const uint32_t *required; /* their numbers, by required_bit */
} PbciMessage;

/* The field of `type` numbered `number`, or NULL. Dense numbering from 1
 * finds it at once; otherwise a binary search (out of line). */
const PbciFieldInfo *pbci_search_field(const PbciMessage *type,
                                       uint64_t number);
PBCI_INLINE const PbciFieldInfo *pbci_find_field(const PbciMessage *type,
                                                 uint64_t number) {
  /* Most messages number their fields 1, 2, 3, ... */
  if (number - 1 < type->n_fields && type->fields[number - 1].number == number) {
    return &type->fields[number - 1];
  }
  return pbci_search_field(type, number);
}

/* ---- reporting failures ---- */

/* Records `code` at the field whose key starts at `at` (in a message
 * ending at `end`) in ctx->status, if wanted and nothing was recorded yet
 * (so the innermost failure stays), and returns `code`. Cold: only failing
 * decodes call it. */
ptrdiff_t pbci_fail(PbciCtx *ctx, ptrdiff_t code, const uint8_t *at,
                    const uint8_t *end);

/* Records PROTOBUF_C_ITER_ERR_MISSING_REQUIRED for the first required field
 * whose bit is clear in `seen` (bit i of word i / 64 is numbers[i]), at
 * `at`, the end of the message; returns the code. */
ptrdiff_t pbci_fail_required(PbciCtx *ctx, const uint8_t *at,
                             const uint64_t *seen, const uint32_t *numbers,
                             size_t n);

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

/* ---- allocation ---- */

/* Sets a->block_floor for an input starting at `data`, decoded with
 * a->ctx's flags: data + 16 (beyond a shorter input's end, as it must be),
 * or UINTPTR_MAX when that wraps or strings are validated. Computed on
 * the address: data + 16 as a pointer would be undefined for a shorter
 * input. */
PBCI_INLINE void pbci_arena_set_floor(PbciArena *a, const uint8_t *data) {
  uintptr_t bound = (uintptr_t)data + 16;
  if (bound < (uintptr_t)data ||
      (a->ctx.flags & PROTOBUF_C_ITER_VALIDATE_UTF8)) {
    bound = UINTPTR_MAX;
  }
  a->block_floor = bound;
}

/* Checks buf and data and sets up the arena, whose ctx is set (its flags
 * decide block_floor); returns 0 or an error code. Inline: it is a good
 * part of the cost of decoding a small message. */
PBCI_INLINE ptrdiff_t pbci_arena_init(PbciArena *a, const uint8_t *data,
                                      size_t len, void *buf, size_t buf_size) {
  if (data == NULL && len != 0) return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  if (buf == NULL && buf_size != 0) return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  if ((uintptr_t)buf % PROTOBUF_C_ITER_BUF_ALIGN != 0) {
    return PROTOBUF_C_ITER_ERR_ALIGNMENT;
  }
  /* The decoder reads data twice (array sizes are counted ahead): writing
   * into it while decoding would break the counts. */
  if (len != 0 && buf_size != 0 &&
      (uintptr_t)data < (uintptr_t)buf + buf_size &&
      (uintptr_t)buf < (uintptr_t)data + len) {
    return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  }
  /* Results are ptrdiff_t: never use more than PTRDIFF_MAX bytes. */
  if (buf_size > PTRDIFF_MAX) buf_size = PTRDIFF_MAX;
  a->base = (unsigned char *)buf;
  a->top = buf_size != 0 ? a->base + buf_size : a->base;
  a->lo = a->base;
  a->hi = a->top;
  pbci_arena_set_floor(a, data);
  return 0;
}

/* Bytes of the buffer in use: both ends. */
PBCI_INLINE ptrdiff_t pbci_arena_used(const PbciArena *a) {
  return (ptrdiff_t)((size_t)(a->lo - a->base) + (size_t)(a->top - a->hi));
}

/* One past the input; `data` itself when empty (data may then be NULL, and
 * NULL + 0 is undefined in C). */
PBCI_INLINE const uint8_t *pbci_end(const uint8_t *data, size_t len) {
  return len != 0 ? data + len : data;
}

/* The allocation policy, in one place: what the decoder takes from the
 * buffer and the sizers count. A struct takes its size rounded up to
 * PBCI_ALIGN (pbci_alloc); an array of n elements of elem_size bytes its
 * header and its elements rounded so, or SIZE_MAX when that does not fit
 * in a size_t (pbci_grow, packed runs). */
PBCI_INLINE size_t pbci_struct_bytes(size_t size) { return PBCI_ROUND(size); }
PBCI_INLINE size_t pbci_array_bytes(size_t n, size_t elem_size) {
  const size_t elements = pbci_mul_size(n, elem_size);
  if (elements > SIZE_MAX - PROTOBUF_C_ITER_ARRAY_HEADER - PBCI_ALIGN) return SIZE_MAX;
  return PROTOBUF_C_ITER_ARRAY_HEADER + PBCI_ROUND(elements);
}

/* `size` (> 0) bytes from the low end, as pbci_struct_bytes counts them, or
 * NULL. */
PBCI_INLINE void *pbci_alloc(PbciArena *a, size_t size) {
  size_t room = (size_t)(a->hi - a->lo);
  void *r;
  /* Compare before rounding: rounding a size near SIZE_MAX would wrap. */
  if (size > room || pbci_struct_bytes(size) > room) return NULL;
  r = a->lo;
#if defined(__GNUC__)
  /* Room for size > 0 bytes means a buffer, so lo is not NULL: a caller's
   * test of the result then needs only the room's. */
  if (r == NULL) __builtin_unreachable();
#endif
  a->lo += pbci_struct_bytes(size);
  return r;
}

/* `n` bytes from the high end, unaligned, or NULL. */
PBCI_INLINE unsigned char *pbci_alloc_bytes(PbciArena *a, size_t n) {
  if ((size_t)(a->hi - a->lo) < n) return NULL;
  a->hi -= n;
  return a->hi;
}

/* ---- setting up a new struct ----
 *
 * protoc-c's X__INIT is mostly zeros. Assigned as a compound literal,
 * `*msg = (T)X__INIT`, gcc 12 on x86 (-O2, -O3) zeroes a struct with
 * `rep stos`, whose start-up costs about 35 cycles (more than decoding a
 * message of ten fixed64 fields), from 88 bytes on x86-64 and from 36 on
 * i386 (docs/design.md); the copy starts below both, as other versions and
 * tunings move those edges. A copy of a constant holding X__INIT (the
 * generated x__iter_prototype) it makes with 16-byte moves (4-byte ones on
 * i386) up to PBCI_INLINE_COPY_MAX bytes, and hands larger ones to the C
 * library's memcpy. Other compilers and targets, and smaller structs, assign
 * the compound literal: zeros stored without loads. The test
 * Regression.StructSetUpUsedRepStos checks gcc's output. */
#if defined(__GNUC__) && !defined(__clang__) && \
    (defined(__x86_64__) || defined(__i386__))
#define PBCI_COPY_INIT(size) ((size) > 32)
#else
#define PBCI_COPY_INIT(size) 0
#endif

/* gcc for i386, whose `memcpy`s of constant sizes become `rep movsl` from
 * 72 bytes, and even at 16 where registers run short: about 20 ns a copy
 * on the bench's machine, against 1.3 for four 4-byte moves
 * (docs/design.md). Regression.I386CopiedWithRepMovs checks its output. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__i386__)
#define PBCI_I386_GCC 1
#else
#define PBCI_I386_GCC 0
#endif

/* 16 bytes from `from` to `to`: one move, or four of 4 bytes for i386's
 * gcc. */
PBCI_INLINE void pbci_move16(void *to, const void *from) {
#if PBCI_I386_GCC
  unsigned char *t = (unsigned char *)to;
  const unsigned char *f = (const unsigned char *)from;
  memcpy(t, f, 4);
  memcpy(t + 4, f + 4, 4);
  memcpy(t + 8, f + 8, 4);
  memcpy(t + 12, f + 12, 4);
#else
  memcpy(to, from, 16);
#endif
}

/* The largest copy pbci_init_from leaves to the compiler. */
#if PBCI_I386_GCC
#define PBCI_INLINE_COPY_MAX 64
#else
#define PBCI_INLINE_COPY_MAX 256
#endif

/* memcpy, out of line: the C library's, where the size is not a constant. */
void pbci_copy_struct(void *to, const void *from, size_t size);

/* Copies `size` bytes of `prototype` to msg (see above). */
PBCI_INLINE void pbci_init_from(void *msg, const void *prototype, size_t size) {
  if (size <= PBCI_INLINE_COPY_MAX) {
    memcpy(msg, prototype, size);
  } else {
    pbci_copy_struct(msg, prototype, size);
  }
}

/* Sets up the new struct `msg` of type `type` as its X__INIT, `init`, does:
 * a copy of `prototype` (an object holding X__INIT) where PBCI_COPY_INIT,
 * else the assignment. The test is a constant: one branch remains. */
#define PBCI_SET_UP(msg, type, init, prototype)          \
  do {                                                   \
    if (PBCI_COPY_INIT(sizeof(type))) {                  \
      pbci_init_from((msg), &(prototype), sizeof(type)); \
    } else {                                             \
      *(type *)(msg) = (type)init;                       \
    }                                                    \
  } while (0)

/* ---- the default entry ----
 *
 * x__iter_unpack (generated for each message, so that it initialises the
 * struct and calls the decoder directly: an eighth of a small message's
 * instructions) and protobuf_c_iter_unpack without options or status share
 * these. */

/* The context of a decode with the default options and no status. */
PBCI_INLINE void pbci_ctx_default(PbciCtx *ctx, const uint8_t *data) {
  ctx->data = data;
  ctx->flags = 0;
  ctx->max_depth = PROTOBUF_C_ITER_MAX_DEPTH;
  ctx->status = NULL;
}

/* Sets up `a` for decoding `data` into `buf` (its context apart), and
 * takes the new top-level struct of `size` bytes from it: returns the
 * struct (uninitialised), or NULL with *err set to the code the call
 * returns. */
PBCI_INLINE void *pbci_take_top(PbciArena *a, const uint8_t *data, size_t len,
                                void *buf, size_t buf_size, size_t size,
                                ptrdiff_t *err) {
  void *msg;
  *err = pbci_arena_init(a, data, len, buf, buf_size);
  if (*err != 0) return NULL;
  msg = pbci_alloc(a, size);
  if (msg == NULL) *err = PROTOBUF_C_ITER_ERR_NO_MEMORY;
  return msg;
}

/* pbci_take_top with the default context. */
PBCI_INLINE void *pbci_unpack_begin(PbciArena *a, const uint8_t *data,
                                    size_t len, void *buf, size_t buf_size,
                                    size_t size, ptrdiff_t *err) {
  pbci_ctx_default(&a->ctx, data);
  return pbci_take_top(a, data, len, buf, buf_size, size, err);
}

/* What an unpack returns once the decoder returned r: the bytes of the
 * buffer used, or r's error. */
PBCI_INLINE ptrdiff_t pbci_unpack_end(const PbciArena *a, ptrdiff_t r) {
  return r != 0 ? r : pbci_arena_used(a);
}

/* ---- arrays ----
 *
 * Every array the decoder allocates starts with a header (PbciArrayHeader,
 * PROTOBUF_C_ITER_ARRAY_HEADER bytes) just before its first element: its
 * capacity, and the address of the element count it belongs to (its
 * owner: &msg->n_x, or &base.n_unknown_fields). A repeated field's array
 * is allocated when an element finds it full. Its capacity lives in a
 * local of the decoder, starting at the element count when an occurrence
 * of the message begins; an array that then looks full is checked against
 * its header, so room left by an earlier occurrence (of a merged
 * sub-message) or an earlier x__iter_unpack_merge is used rather than the
 * array copied. Only the owner extends an array: a struct copied by value
 * shares arrays with the original but has another address, so the copy's
 * array is copied on its first growth, and neither overwrites the other.
 * A new array takes max(need, 2 * capacity) elements, where `need` covers
 * the whole run of elements about to be appended (a packed run, or the
 * unpacked elements with the same key that follow each other, counted or,
 * for an open run, one slot at a time: see pbci_start_run; a first run of
 * sub-messages is allocated when it ends: see pbci_message_room): one
 * allocation for the usual contiguous run, and amortised doubling when
 * runs interleave or a merged message's occurrences each append, so that
 * buffer use and copying stay linear in the input. The sizer replays the
 * same policy, capacities carrying from one occurrence to the next. */
typedef struct PbciArrayHeader {
  size_t cap;        /* elements the array has room for */
  const void *owner; /* the element count of the array's struct */
} PbciArrayHeader;

/* The header of `array`, which the decoder allocated. */
PBCI_INLINE PbciArrayHeader *pbci_array_header(void *array) {
  return (PbciArrayHeader *)(void *)((unsigned char *)array -
                                     PROTOBUF_C_ITER_ARRAY_HEADER);
}

/* Writes the header of an array allocated at `block` (capacity `cap`,
 * owner `owner`) and returns its first element. */
PBCI_INLINE void *pbci_array_start(unsigned char *block, size_t cap,
                                   const void *owner) {
  PbciArrayHeader *h = (PbciArrayHeader *)(void *)block;
  h->cap = cap;
  h->owner = owner;
  return block + PROTOBUF_C_ITER_ARRAY_HEADER;
}

/* The capacity an array of capacity `cap` grows to for `need` elements. */
PBCI_INLINE size_t pbci_next_capacity(size_t cap, size_t need) {
  return cap <= SIZE_MAX / 2 && 2 * cap > need ? 2 * cap : need;
}

/* Makes room in `array` (*n elements of elem_size bytes, local capacity
 * *cap, full; `n` is the count in the message, the array's owner) for the
 * run of unpacked elements whose first key is [key, key_end): need = *n +
 * pbci_count_run(key, key_end, end). Room the header records is taken
 * first; otherwise the array moves to pbci_next_capacity(capacity, need).
 * Returns the array and updates *cap, or returns NULL when the buffer is
 * too small. (Packed runs and unknown fields grow by the same policy
 * inside the runtime.) */
void *pbci_grow_run(PbciArena *a, void *array, const size_t *n, size_t *cap,
                    size_t elem_size, const uint8_t *key,
                    const uint8_t *key_end, const uint8_t *end);

/* Runs of sub-messages. Their structs follow the array at the low end, so
 * an array cannot stay open for them; rather than count a first run ahead,
 * the decoder keeps its elements' pointers in a buffer of PBCI_RUN_SLOTS on
 * its stack (`buffered`) and allocates the array when the run ends
 * (pbci_close_run): the same array, exact, that counting would have
 * allocated, after the structs rather than before them, so the sizers,
 * which count, replay it unchanged. A run longer than the buffer moves to
 * an array counted from there (all of it). Counting ahead cost
 * rtb_bid_request 6% of its time (docs/design.md). */
#define PBCI_RUN_SLOTS 8

/* A buffered run longer than PBCI_RUN_SLOTS: its *n elements' pointers (in
 * `run`, full) move to a new array for the whole run, the rest counted from
 * its next element's key [key, key_end). Returns the array (its capacity
 * to *cap), or NULL when the buffer is too small. */
void *pbci_spill_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size, const uint8_t *key,
                     const uint8_t *key_end, const uint8_t *end);

/* pbci_grow_run for an element of a repeated sub-message field whose array
 * (*n elements of elem_size bytes, local capacity *cap) is full: a first
 * element with the field's usual key (`usual`, as for pbci_start_run)
 * starts a buffered run in `run`, the decoder's PBCI_RUN_SLOTS pointers; a
 * full buffer spills (pbci_spill_run); any other array grows by
 * pbci_grow_run. Returns the array or `run` (*cap updated), or NULL when
 * the buffer is too small. */
PBCI_INLINE void *pbci_message_room(PbciArena *a, void *array, const size_t *n,
                                    size_t *cap, size_t elem_size, void *run,
                                    const uint8_t *key, const uint8_t *key_end,
                                    const uint8_t *end, int usual) {
  if (*n == 0 && usual) {
    *cap = PBCI_RUN_SLOTS;
    return run;
  }
  if (array == run) {
    return pbci_spill_run(a, run, n, cap, elem_size, key, key_end, end);
  }
  return pbci_grow_run(a, array, n, cap, elem_size, key, key_end, end);
}

/* Ends a buffered run: its *n elements' pointers (elem_size bytes each) move
 * from `run` to a new array of exactly *n, owned by n, which *cap takes.
 * Returns the array, or NULL when the buffer is too small. */
void *pbci_close_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size);

/* Open runs. A run of unpacked strings, bytes or scalars adds nothing to
 * the low end of the buffer but its array (values go to the high end), so
 * a new array can grow there one element at a time instead of being
 * counted first: pbci_start_run opens it with room for the run's first
 * element, and each element that follows with the same key
 * (pbci_extend_run) takes the next slot. When the run ends the array holds
 * exactly the elements pbci_count_run would have counted, where counting
 * would have put them, so the sizers, which count, replay it unchanged.
 * An open array's header records no owner (NULL): its room is never
 * reused, as a counted array that its run filled has none. */

/* pbci_grow_run for the first element of a run whose key [key, key_end)
 * is the field's usual key (`usual`, which the generated case checks: the
 * key the elements after it are predicted by): an empty array opens, with
 * one element; an array its struct owns takes the room its header records
 * (left by an earlier occurrence of a merged message: inline, since such
 * a message's every occurrence comes here). Otherwise pbci_grow_run. */
PBCI_INLINE void *pbci_start_run(PbciArena *a, void *array, const size_t *n,
                                 size_t *cap, size_t elem_size,
                                 const uint8_t *key, const uint8_t *key_end,
                                 const uint8_t *end, int usual) {
  /* Rounded already: one comparison with the room, not pbci_alloc's two. */
  const size_t bytes = pbci_array_bytes(1, elem_size);
  if (*n == 0) {
    if (usual && (size_t)(a->hi - a->lo) >= bytes) {
      void *elements = pbci_array_start(a->lo, 1, NULL);
      a->lo += bytes;
      *cap = 1;
      return elements;
    }
  } else {
    /* An array from an earlier occurrence (a merged message's): the room
     * its header records, without the call. */
    const PbciArrayHeader *h = pbci_array_header(array);
    if (h->owner == n && h->cap > *n) {
      *cap = h->cap;
      return array;
    }
  }
  return pbci_grow_run(a, array, n, cap, elem_size, key, key_end, end);
}

/* Gives a full open array of *cap elements, the last thing at the low end,
 * the next element's slot: returns 1 and adds it to *cap. Returns 0 when
 * the array is not open (a counted array whose recorded room ran out) or
 * the buffer has no room, for pbci_grow_run to decide. The low end is
 * checked to end at the array so that a bug elsewhere could not make two
 * allocations overlap. */
PBCI_INLINE int pbci_extend_run(PbciArena *a, void *array, size_t *cap,
                                size_t elem_size) {
  unsigned char *const elements = (unsigned char *)array;
  const size_t used = PBCI_ROUND(*cap * elem_size);
  const size_t more = PBCI_ROUND((*cap + 1) * elem_size) - used;
  if (pbci_array_header(array)->owner != NULL || a->lo != elements + used ||
      (size_t)(a->hi - a->lo) < more) {
    return 0;
  }
  a->lo += more;
  ++*cap;
  return 1;
}

/* What pbci_append_packed and pbci_append_element leave: the array, which
 * moves when it grows, where decoding goes on, and 0 or an error code. */
typedef struct PbciAppend {
  void *array;
  const uint8_t *next; /* the byte after the run; NULL on failure */
  ptrdiff_t err;
} PbciAppend;

/* How pbci_append_packed converts a packed run's values. */
#define PBCI_PACKED_VARINT32 0u /* int32, uint32, enum: the low 32 bits
                                   (protoc-c makes enums int-sized) */
#define PBCI_PACKED_SINT32 1u   /* sint32: zigzag of the low 32 bits */
#define PBCI_PACKED_VARINT64 2u /* int64, uint64 */
#define PBCI_PACKED_SINT64 3u   /* sint64: zigzag */
#define PBCI_PACKED_BOOL 4u     /* protobuf_c_boolean, as pbci_read_bool */
#define PBCI_PACKED_FIXED32 5u  /* fixed32, sfixed32, float: wire bytes */
#define PBCI_PACKED_FIXED64 6u  /* fixed64, sfixed64, double: wire bytes */

/* Appends the packed run whose length prefix is at p (after the field's
 * key; the run must end by `end`) to `array` (*n elements, capacity *cap),
 * converted as `kind` (PBCI_PACKED_*) says: counts the run, grows a full
 * array for all of it (see "arrays" above), then stores each value. (A
 * varint run of at most 16 bytes is read first, counted as it is read;
 * into a new array with room, its values are stored where the array will
 * be, and the array is taken once they are counted. A longer run of
 * varints or bools into a new array goes there uncounted too, when the
 * buffer has room for as many values as the run has bytes; the array is
 * the same either way.) On
 * failure `next` is NULL, err is PROTOBUF_C_ITER_ERR_MALFORMED or
 * PROTOBUF_C_ITER_ERR_NO_MEMORY, *n is unchanged and `array` holds those
 * *n elements within capacity *cap: the caller's array, or a grown copy
 * when the fault came to light after growing (an over-long varint of a
 * long run, which counting leaves to the read). Out of line: one call per
 * run, shared by every packed field. */
PbciAppend pbci_append_packed(PbciArena *a, void *array, size_t *n,
                              size_t *cap, const uint8_t *p,
                              const uint8_t *end, unsigned kind);

/* Appends one unpacked element of a repeated scalar field declared packed,
 * whose key starts at `key` (p < end), converted as `kind` says (a bool
 * with its key's wire type): a full array grows for the run of elements
 * that starts here, as in generated cases. Every conforming serializer
 * writes such fields packed, so this legal but rare form costs a call
 * rather than generated code. Returns as pbci_append_packed does. */
PbciAppend pbci_append_element(PbciArena *a, void *array, size_t *n,
                               size_t *cap, const uint8_t *key,
                               const uint8_t *end, unsigned kind);

/* The field whose key starts at `p` matched none of the decoder's cases of
 * message `type`: a field of the type with a wire type it does not take is
 * malformed; any other is stored as protobuf-c does: tag = field number,
 * data = the value bytes with any length prefix (pointing into the input
 * with PROTOBUF_C_ITER_ALIAS_BYTES; not stored at all with
 * PROTOBUF_C_ITER_DISCARD_UNKNOWN). Returns the position after it, or NULL
 * with *err set (wire types 3, 4, 6, 7 and bad framing are malformed).
 * The unknown-field array grows like any other array, for one element at a
 * time (so it doubles); its capacity is what its header records. */
const uint8_t *pbci_store_unknown(PbciArena *a, const PbciMessage *type,
                                  ProtobufCMessage *base, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err);

/* ---- strings and bytes ---- */

/* Whether [p, p + n) is well-formed UTF-8 (RFC 3629). */
int pbci_utf8_valid(const uint8_t *p, size_t n);

/* A string value, length prefix first, at p: `s` is its NUL-terminated
 * copy (validated when the options ask) and `next` the byte after it. */
typedef struct PbciString {
  const uint8_t *next; /* NULL on failure */
  char *s;
} PbciString;

/* pbci_take_string for every value its inline path leaves: out of line,
 * shared by every string field, since copying any length takes hundreds of
 * bytes of code. */
PbciString pbci_take_other_string(PbciArena *a, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err);

/* The short string paths' copy of a value of n bytes ending at value_end:
 * the value and its NUL take the top n + 1 bytes of the free space, and the
 * value comes as one move of `block` bytes (at least n), the input's bytes
 * ending where it ends to those ending below the NUL, the same for every
 * length (no branch on it). The caller has checked that the input holds
 * `block` bytes before value_end and the free space more than `block`. The
 * bytes before the value are the input's (its key and length, earlier
 * fields), and those written below the string free space, whose contents
 * are unspecified. (`block`, a multiple of 16, is one memcpy where gcc
 * makes it 16-byte moves; on i386 its 16-byte pieces go through
 * pbci_move16, since a loop of them elsewhere can become one memcpy again,
 * and gcc's x86-64 expansion of an inline 64-byte one was `rep movsq`.) */
PBCI_INLINE PbciString pbci_put_string_block(PbciArena *a,
                                             const uint8_t *value_end, size_t n,
                                             size_t block) {
  PbciString r;
  unsigned char *const top = a->hi;
#if PBCI_I386_GCC
  size_t i;
  for (i = 0; i < block; i += 16) {
    pbci_move16(top - 1 - block + i, value_end - block + i);
  }
#else
  memcpy(top - 1 - block, value_end - block, block);
#endif
  top[-1] = '\0';
  a->hi = top - (n + 1);
  r.s = (char *)a->hi;
  r.next = value_end;
  return r;
}

/* Reads a string field's value at p (after its key) and copies it: on
 * failure `next` is NULL and *err PROTOBUF_C_ITER_ERR_MALFORMED (bad length
 * prefix), PROTOBUF_C_ITER_ERR_BAD_UTF8 or PROTOBUF_C_ITER_ERR_NO_MEMORY.
 * (Returned rather than stored: members are `char *` or, with
 * const_strings, `const char *`.)
 *
 * Inline for most strings: values of up to 16 bytes, without validation,
 * with 16 bytes of input before the value's end and 17 bytes of room, as
 * one 16-byte move (pbci_put_string_block). Inline, the call and its
 * register moves go too: rtb_bid_request decodes 8% faster, its code grows
 * 14% (docs/design.md). */
PBCI_INLINE PbciString pbci_take_string(PbciArena *a, const uint8_t *p,
                                        const uint8_t *end, ptrdiff_t *err) {
  if (p < end && p[0] <= 16) {
    const size_t n = p[0];
    unsigned char *const top = a->hi;
    if ((size_t)(end - p) > n && (size_t)(top - a->lo) > 16 &&
        (uintptr_t)(p + 1 + n) >= a->block_floor) {
      return pbci_put_string_block(a, p + 1 + n, n, 16);
    }
  }
  return pbci_take_other_string(a, p, end, err);
}

/* Reads a bytes field's value at p (after its key) into *bd: a copy, or
 * with PROTOBUF_C_ITER_ALIAS_BYTES the input itself; {0, NULL} when empty.
 * Returns the byte after it, or NULL with *err PROTOBUF_C_ITER_ERR_MALFORMED
 * or PROTOBUF_C_ITER_ERR_NO_MEMORY. */
const uint8_t *pbci_take_bytes(PbciArena *a, ProtobufCBinaryData *bd,
                               const uint8_t *p, const uint8_t *end,
                               ptrdiff_t *err);

/* ---- measuring (unpacked_size) ---- */

/* The occurrences that decode into one message instance: a single range,
 * or (after sub-message merging) one run of a group in the parent's
 * occurrences: the occurrences of one member from a given key on, until
 * another member of the group appears or the parent's occurrences end.
 * Lists are immutable; iterating one twice is allowed. A run's list is
 * iterated while the iteration over the parent that found its first
 * occurrence waits (its PbciLevel chain, `outer`), and resumes it from
 * there, so that sizing a run reads its own span only. */
struct PbciLevel;
typedef struct PbciList {
  const uint8_t *p, *end;   /* a single range; for a run, the key of its
                               first occurrence and the end of the parent's
                               range holding it */
  const struct PbciMessage *type; /* a run: the parent's type; NULL for a
                                     single range */
  uint32_t group;                 /* the run's group */
  uint32_t member;                /* and the field whose run it is */
  const struct PbciLevel *outer;  /* the parent's iteration, waiting at that
                                     range; NULL when it is a single range */
} PbciList;

PBCI_INLINE PbciList pbci_list_single(const uint8_t *p, const uint8_t *end) {
  PbciList l;
  memset(&l, 0, sizeof l);
  l.p = p;
  l.end = end;
  return l;
}

/* A group's occurrences in the occurrences of a message being measured
 * (its runs are measured after them): whether it occurred, and where and
 * with which member it first did, which is its only run when no other
 * member came. */
typedef struct PbciRun {
  int seen;
  int switched;           /* another member came after the first */
  int in_first;           /* the first came in the message's first range */
  uint32_t member;        /* the first one's field number */
  const uint8_t *key;     /* its key, */
  const uint8_t *end;     /* and the end of the range holding it */
} PbciRun;

/* Adds to `size` what decoding the occurrences in `list` into one new
 * message of `type` allocates, with the same checks as its decoder,
 * reporting failures the same way; returns 0 or an error. Scratch, sized by
 * the type: `counts` 2 * n_counts values, `runs` n_groups runs, `required`
 * one bit per required field. The runtime provides it for most messages,
 * generated sizers (x__iter_measure) for larger ones. A single occurrence (nearly every instance) takes a
 * faster path that keeps groups and required fields in bit masks. */
ptrdiff_t pbci_measure(const PbciMessage *type, size_t *counts, PbciRun *runs,
                       uint64_t *required, const PbciList *list,
                       PbciSize *size, uint32_t depth);

#ifdef __cplusplus
}
#endif

#endif /* PROTOBUF_C_ITER_INTERNAL_DECODE_H */
