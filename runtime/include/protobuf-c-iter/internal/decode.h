/*
 * Internal: the helpers generated decoders call. Not a public API; it may
 * change with every release, and generated code is always rebuilt with the
 * runtime it was generated for. This file holds the conventions, the types
 * and the failure reporting, and includes the helpers by concern:
 * wire_read.h (reading the wire), arena.h (the buffer, new structs, the
 * default entry), arrays.h (repeated fields), string_fields.h (strings and
 * bytes); the sizer's entry follows them here.
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

/* The helpers, by concern, in the order each needs the ones before. */
#include "protobuf-c-iter/internal/wire_read.h"
#include "protobuf-c-iter/internal/arena.h"
#include "protobuf-c-iter/internal/arrays.h"
#include "protobuf-c-iter/internal/string_fields.h"

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
