/*
 * protobuf-c-iter: decode protobuf wire bytes into protobuf-c structs that
 * live entirely inside a buffer the caller owns.
 *
 * For every message type `X` (protoc-c lower-case name `x`) of a file
 * `a.proto`, protoc-gen-iter emits, in `a.pb-iter.h`:
 *
 *   ptrdiff_t x__iter_unpack(const uint8_t *data, size_t len,
 *                            void *buf, size_t buf_size);
 *       Decodes `data` into `buf`. On success the message is `(X *)buf` and
 *       the return value is the number of bytes of `buf` used (>= sizeof(X)).
 *       On failure it returns one of the negative PROTOBUF_C_ITER_ERR_* codes.
 *
 *   ptrdiff_t x__iter_unpack_merge(X *msg, const uint8_t *data, size_t len,
 *                                  void *buf, size_t buf_size);
 *       Merges `data` into `msg`, which is the result of an earlier
 *       x__iter_unpack or x__iter_unpack_merge (or a copy of one), or a
 *       struct initialised from `X__INIT`. New storage comes from `buf`.
 *       Repeated fields append: into the room an array of `msg` has left,
 *       when `msg` owns it (an earlier call allocated it for this very
 *       struct, not for the struct it was copied from), else into a new
 *       array of at least twice the capacity, so that N calls appending an
 *       element each take O(N) bytes in all. Storage is never freed.
 *
 *   ptrdiff_t x__iter_unpacked_size(const uint8_t *data, size_t len);
 *       The exact number of bytes x__iter_unpack needs for `data`, or a
 *       negative error code when x__iter_unpack would fail for a reason other
 *       than PROTOBUF_C_ITER_ERR_NO_MEMORY. It returns NO_MEMORY itself only
 *       when the size would exceed PTRDIFF_MAX, and
 *       PROTOBUF_C_ITER_ERR_WORK_LIMIT for an input built to make exact
 *       sizing take more than linear time. Time: linear in `len`.
 *
 *   size_t x__iter_unpacked_size_bound(size_t len);
 *       At least x__iter_unpacked_size(_ex) of any input of `len` bytes,
 *       with any options, in O(1): K * len plus the top-level struct, where
 *       K, the most bytes of buffer one byte of input can cost, is fixed by
 *       the schema (listed in the generated header). SIZE_MAX on overflow.
 *
 *   ptrdiff_t x__iter_unpack_ex(const uint8_t *data, size_t len, void *buf,
 *                               size_t buf_size,
 *                               const ProtobufCIterOptions *opts,
 *                               ProtobufCIterStatus *status);
 *   ptrdiff_t x__iter_unpack_merge_ex(X *msg, ..., opts, status);
 *   ptrdiff_t x__iter_unpacked_size_ex(const uint8_t *data, size_t len,
 *                                      const ProtobufCIterOptions *opts,
 *                                      ProtobufCIterStatus *status);
 *       The same with decode options (NULL: the defaults, which are what the
 *       plain functions use) and, when `status` is not NULL, a description
 *       of where and why decoding stopped. unpacked_size_ex with options
 *       gives the size unpack_ex needs with the same options.
 *
 *   x__iter_unpack and the bound are defined in a.pb-iter.c: x__iter_unpack
 *   is protobuf_c_iter_unpack(&x__iter_type, ..., NULL, NULL), with the
 *   struct set up and the decoder called directly rather than through the
 *   type's table (an eighth of a small message's instructions). The rest
 *   are `static inline` in the header: the other two plain functions call
 *   their _ex forms with (NULL, NULL), which call the runtime's generic
 *   entry points below with x__iter_type. The inline ones' addresses
 *   differ between translation units; use the generic functions with
 *   x__iter_type where one function per type matters.
 *
 *   A generated header refuses, with an #error, to compile against a
 *   runtime of another version than the protoc-gen-iter that wrote it
 *   (PROTOBUF_C_ITER_VERSION_NUMBER): regenerate with the runtime's plugin.
 *
 *   extern const ProtobufCIterType x__iter_type;
 *       The type, for generic code: protobuf_c_iter_unpack() and friends,
 *       the stream reader (<protobuf-c-iter/stream.h>).
 *
 * The input must not change during a call, and `buf` must not overlap it:
 * decoding reads parts of the input twice (runs of repeated elements are
 * counted before they are stored).
 *
 * Guarantees (see docs/SECURITY.md for the full model):
 *  - No function allocates memory, and none reads outside [data, data + len)
 *    or writes outside [buf, buf + buf_size) (for x__iter_unpack_merge, also
 *    `*msg` and the arrays it owns, which it may append to).
 *  - Buffer use is linear in the input: x__iter_unpacked_size(data, len) <=
 *    x__iter_unpacked_size_bound(len), and decoding and sizing take time
 *    linear in `len` times the nesting depth.
 *  - Every input, however malformed, yields a defined result.
 *  - The decoded message is an ordinary protobuf-c message:
 *    protobuf_c_message_get_packed_size(), _pack() and _check() work on it.
 *    Never call protobuf_c_message_free_unpacked() or x__free_unpacked() on
 *    it: nothing in it was allocated; dropping `buf` releases everything.
 *  - Pointers in the message point into `buf`, or to protoc-c's static
 *    default values (string and bytes defaults, `protobuf_c_empty_string`),
 *    exactly where protobuf_c_message_unpack() would leave them.
 *  - The message does not point into `data`: `data` may be freed or reused
 *    as soon as the call returns. (Unless PROTOBUF_C_ITER_ALIAS_BYTES is
 *    set: see there.)
 *  - After a failed call the contents of `buf` are unspecified, and nothing
 *    outside `buf` (or `*msg` and the storage it points to in earlier
 *    buffers) was written. After a failed x__iter_unpack_merge, `*msg` may
 *    hold part of the merge but is whole: each count has its array, each
 *    oneof case names the member it holds, and its pointers point into its
 *    buffers or protoc-c's defaults, so it can be packed or merged into
 *    again (docs/SECURITY.md).
 *  - Stack use is bounded: recursion stops at PROTOBUF_C_ITER_MAX_DEPTH
 *    levels (or the `max_depth` option's).
 *
 * Semantics are those of protobuf_c_message_unpack() from protobuf-c 1.4.1,
 * except where that function contradicts the protobuf specification;
 * docs/compat.md lists each deviation.
 */
#ifndef PROTOBUF_C_ITER_H
#define PROTOBUF_C_ITER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this runtime, matching the version of protoc-gen-iter. */
#define PROTOBUF_C_ITER_VERSION "0.1.0"
/* major * 1000000 + minor * 1000 + patch */
#define PROTOBUF_C_ITER_VERSION_NUMBER 1000

/*
 * Error codes. Every function that can fail returns one of these (always
 * negative) or a non-negative byte count.
 */

/* The input is not valid protobuf wire format for the message type: a
 * truncated or over-long (more than 10 bytes) varint, a tag longer than 5
 * bytes, a one-byte tag of field number 0 (written in more bytes, field 0
 * is an unknown field, as in protobuf-c), a length prefix longer than 5
 * bytes, larger than INT_MAX or running past the enclosing message, wire
 * type 3, 4, 6 or 7, a known field with the wrong wire type, a packed run
 * cut in the middle or whose length is not a multiple of the element
 * size. */
#define PROTOBUF_C_ITER_ERR_MALFORMED (-1)

/* `buf` is too small. x__iter_unpacked_size() tells the size needed. */
#define PROTOBUF_C_ITER_ERR_NO_MEMORY (-2)

/* A required field without a default value is missing from a message (or
 * from one occurrence of a sub-message), as protobuf-c 1.4.1 checks it. */
#define PROTOBUF_C_ITER_ERR_MISSING_REQUIRED (-3)

/* Sub-messages are nested more than PROTOBUF_C_ITER_MAX_DEPTH levels deep
 * (or more than the `max_depth` option's levels, when set). */
#define PROTOBUF_C_ITER_ERR_DEPTH (-4)

/* `buf` is not aligned to PROTOBUF_C_ITER_BUF_ALIGN. */
#define PROTOBUF_C_ITER_ERR_ALIGNMENT (-5)

/* An argument is invalid: `data` is NULL while `len` is not 0, `buf` is NULL
 * while `buf_size` is not 0, `buf` overlaps `data`, `msg` is NULL, or an
 * option flag is unknown. */
#define PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT (-6)

/* A `string` field is not valid UTF-8 (only with PROTOBUF_C_ITER_VALIDATE_UTF8). */
#define PROTOBUF_C_ITER_ERR_BAD_UTF8 (-7)

/* Reading a stream failed (stream.h; errno tells why). */
#define PROTOBUF_C_ITER_ERR_IO (-8)

/* A message in a stream, or the buffer decoding it needs, is over the
 * reader's limit (stream.h). */
#define PROTOBUF_C_ITER_ERR_TOO_LARGE (-9)

/* x__iter_unpacked_size(_ex) stopped at its work limit without a size:
 * finding the occurrences of sub-messages merged inside other merged
 * sub-messages would have read more than PROTOBUF_C_ITER_SIZE_WORK fields
 * per byte of input (an input built for it; see docs/SECURITY.md). The
 * input may be valid or not: x__iter_unpack into a buffer of
 * x__iter_unpacked_size_bound(len) bytes decodes it in linear time, or
 * reports its fault. Only the sizer returns it; the
 * PROTOBUF_C_ITER_NO_WORK_LIMIT option lifts the limit. */
#define PROTOBUF_C_ITER_ERR_WORK_LIMIT (-10)

/* The deepest sub-message nesting accepted by default: the top-level message is level 0,
 * its sub-messages level 1, and a sub-message at level 101 is rejected with
 * PROTOBUF_C_ITER_ERR_DEPTH. Map entries count as a level, as they are
 * messages on the wire. libprotobuf and upb use the same default. */
#define PROTOBUF_C_ITER_MAX_DEPTH 100

/* The sizer's work limit: x__iter_unpacked_size(_ex) reads at most this
 * many fields per byte of input (counting inputs shorter than
 * PROTOBUF_C_ITER_SIZE_WORK_MIN_LEN as that long) while it looks for the
 * occurrences of merged sub-messages, else it stops with
 * PROTOBUF_C_ITER_ERR_WORK_LIMIT. Sizing any input then
 * takes time linear in its length. Inputs that are not built for it stay
 * well below: copies of a message with 32,766 nested singular
 * sub-messages, concatenated, read 4.3 fields per byte, and messages with
 * fewer, less. */
#define PROTOBUF_C_ITER_SIZE_WORK 16
#define PROTOBUF_C_ITER_SIZE_WORK_MIN_LEN ((size_t)64 * 1024)

/* The alignment `buf` must have: that of the most demanding fundamental
 * type as a struct member, which is what the structs and arrays placed in
 * it need. One definition for C99, C11 and C++, so that code built in any
 * of them agrees with the runtime: 16 on x86-64 and aarch64, 8 on 32-bit
 * ARM, 4 on i386. Never more than alignof(max_align_t): declare buffers
 * with PROTOBUF_C_ITER_BUFFER, malloc them, or use alignas(max_align_t).
 * (C11's alignof(max_align_t) itself is 16 on i386, where the ABI places
 * long long, double and long double in structs at 4.) */
union ProtobufCIterMaxAlign_ {
  long double ld;
  long long ll;
  double d;
  void *p;
  void (*f)(void);
};
struct ProtobufCIterAlignProbe_ {
  char c;
  union ProtobufCIterMaxAlign_ u;
};
#define PROTOBUF_C_ITER_BUF_ALIGN offsetof(struct ProtobufCIterAlignProbe_, u)

/* The bytes in `buf` before each array the decoder allocates: the array's
 * capacity and owner, which let later occurrences of a merged sub-message
 * and later x__iter_unpack_merge calls append into room it has left
 * (docs/SECURITY.md, "Resource use"). 16 on 64-bit hosts, 8 on 32-bit. */
#define PROTOBUF_C_ITER_ARRAY_HEADER \
  ((sizeof(size_t) + sizeof(void *) + 7u) & ~(size_t)7u)

/*
 * Buffer bounds without a sizing pass: x__iter_unpacked_size_bound(len),
 * generated for every message X, returns K * len +
 * PROTOBUF_C_ITER_STRUCT_COST(sizeof(X)), at least what x__iter_unpack(_ex)
 * uses for any input of `len` bytes with any options. K, the most bytes of
 * buffer one byte of input can cost, is computed per message from these
 * costs over every type it can reach; the generated header lists its
 * terms. Each cost holds because the decoder allocates as follows (see
 * docs/SECURITY.md, "Resource use").
 */

/* A struct in `buf`: rounded up to 8 bytes. */
#define PROTOBUF_C_ITER_STRUCT_COST(size) (((size_t)(size) + 7u) & ~(size_t)7u)

/* The most bytes of `buf` one element of an array of elem_size-byte
 * elements can take over the array's life: a full array moves to at least
 * twice its capacity, so the arrays an n-element array was ever copied
 * through hold under 4n elements together, each with a header and under 8
 * bytes of rounding. */
#define PROTOBUF_C_ITER_ARRAY_COST(elem_size) \
  (4u * (size_t)(elem_size) + PROTOBUF_C_ITER_ARRAY_HEADER + 7u)

/* `cost` bytes of buffer for every `bytes` input bytes, per input byte:
 * the quotient rounded up. */
#define PROTOBUF_C_ITER_PER_BYTE(cost, bytes) \
  (((size_t)(cost) + (size_t)(bytes) - 1u) / (size_t)(bytes))

/* k * len + PROTOBUF_C_ITER_STRUCT_COST(struct_size), or SIZE_MAX when that
 * overflows (x__iter_unpack never uses more than PTRDIFF_MAX). */
static inline size_t protobuf_c_iter_size_bound(size_t len, size_t k,
                                                size_t struct_size) {
  const size_t top = PROTOBUF_C_ITER_STRUCT_COST(struct_size);
  if (len != 0 && k > (SIZE_MAX - top) / len) return SIZE_MAX;
  return k * len + top;
}

/* Declares `name`, a suitably aligned byte buffer of `size` bytes usable
 * with any x__iter_unpack function, e.g. on the stack:
 *
 *   PROTOBUF_C_ITER_BUFFER(buf, 4096);
 *   ptrdiff_t n = foo__iter_unpack(data, len, buf.bytes, sizeof buf.bytes);
 */
#define PROTOBUF_C_ITER_BUFFER(name, size) \
  union {                                  \
    unsigned char bytes[size];             \
    union ProtobufCIterMaxAlign_ align_;   \
  } name

/*
 * Decode options, for the x__iter_*_ex functions. Zero-initialise, then set
 * what you need: `ProtobufCIterOptions opts = {0};`.
 */

/* `bytes` fields, `string` fields generated with (pb_c_field).string_as_bytes
 * and the data of unknown fields point into `data` instead of being copied
 * into `buf`, which then needs that much less room (ask
 * x__iter_unpacked_size_ex with the same option). Lifetime rule: the message
 * is valid only while both `buf` and `data` are, unchanged; the pointers are
 * non-const only because protobuf-c's types are: never write through them.
 * NUL-terminated `string` fields are still copied. */
#define PROTOBUF_C_ITER_ALIAS_BYTES 0x1u

/* Reject a `string` field (not string_as_bytes, not bytes) whose contents
 * are not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, no
 * code point above U+10FFFF, no truncated sequence) with
 * PROTOBUF_C_ITER_ERR_BAD_UTF8. Map keys and values of type string are
 * strings too. protobuf-c 1.4.1 never checks. */
#define PROTOBUF_C_ITER_VALIDATE_UTF8 0x2u

/* Skip unknown fields (after checking their framing) instead of storing
 * them in `base.unknown_fields`; they take no room in `buf`. A merge keeps
 * the unknown fields the message already has. */
#define PROTOBUF_C_ITER_DISCARD_UNKNOWN 0x4u

/* x__iter_unpacked_size_ex: size without the work limit (never
 * PROTOBUF_C_ITER_ERR_WORK_LIMIT). Then sizing an input built against it
 * takes time up to its merged sub-messages times the fields between their
 * occurrences (docs/SECURITY.md): for trusted input only. unpack ignores
 * it. */
#define PROTOBUF_C_ITER_NO_WORK_LIMIT 0x8u

typedef struct ProtobufCIterOptions {
  /* PROTOBUF_C_ITER_ALIAS_BYTES | PROTOBUF_C_ITER_VALIDATE_UTF8 |
   * PROTOBUF_C_ITER_DISCARD_UNKNOWN | PROTOBUF_C_ITER_NO_WORK_LIMIT; any
   * other bit is PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT. */
  uint32_t flags;
  /* The deepest nesting accepted, as PROTOBUF_C_ITER_MAX_DEPTH counts it
   * (0 means that default, 100). Decoding and sizing recurse once per
   * level, so a limit above the default needs the stack for it: with gcc
   * -O2, about 100-250 bytes a level for unpack and up to about 1 KiB for
   * unpacked_size, more without optimisation (its fast path, tried first,
   * takes about 2.5 KiB per 16 levels). */
  uint32_t max_depth;
} ProtobufCIterOptions;

/* Where and why decoding stopped, filled by every _ex function given one:
 * on success code 0, offset `len`, field_number 0, message "ok". */
typedef struct ProtobufCIterStatus {
  /* 0 or the negative PROTOBUF_C_ITER_ERR_* code the function returned. */
  int code;
  /* Byte offset in `data` of the innermost field being decoded when it
   * failed: its first key byte (for a malformed key, the key itself). For
   * PROTOBUF_C_ITER_ERR_MISSING_REQUIRED, the end of the message (or
   * sub-message occurrence) that lacks the field; for errors about the
   * arguments, 0. For a stream reader, the offset in the stream. */
  size_t offset;
  /* The number of that field (for MISSING_REQUIRED, of the missing field);
   * 0 when there is none or its key cannot be read. */
  uint32_t field_number;
  /* A short static English text: what was wrong, e.g. "invalid field key",
   * "truncated field, over-long varint or length past the end", "value does
   * not match the field's type", "invalid UTF-8 in a string field",
   * "missing required field", or protobuf_c_iter_strerror(code). */
  const char *message;
} ProtobufCIterStatus;

/* When an input has several faults, unpack_ex reports the first in input
 * order. unpacked_size_ex may report another of them: it checks merged
 * sub-messages after the fields that follow them. Both fail. */

/* A message type, for code that handles any type: generated as
 * `x__iter_type` for every message. */
struct PbciMessage;
typedef struct ProtobufCIterType {
  const struct ProtobufCMessageDescriptor *descriptor; /* protoc-c's */
  const struct PbciMessage *impl; /* the decoder's tables (internal) */
} ProtobufCIterType;

/* x__iter_unpack_ex, x__iter_unpack_merge_ex and x__iter_unpacked_size_ex
 * for the message type `type` (an x__iter_type): the generated _ex
 * functions are inline calls of these. `msg` is an X, as for
 * x__iter_unpack_merge. A NULL `type` is
 * PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT. */
ptrdiff_t protobuf_c_iter_unpack(const ProtobufCIterType *type,
                                 const uint8_t *data, size_t len, void *buf,
                                 size_t buf_size,
                                 const ProtobufCIterOptions *opts,
                                 ProtobufCIterStatus *status);
ptrdiff_t protobuf_c_iter_unpack_merge(const ProtobufCIterType *type,
                                       void *msg, const uint8_t *data,
                                       size_t len, void *buf, size_t buf_size,
                                       const ProtobufCIterOptions *opts,
                                       ProtobufCIterStatus *status);
ptrdiff_t protobuf_c_iter_unpacked_size(const ProtobufCIterType *type,
                                        const uint8_t *data, size_t len,
                                        const ProtobufCIterOptions *opts,
                                        ProtobufCIterStatus *status);

/* A short static English description of `code` (one of the codes above),
 * e.g. "malformed input"; "success" for 0 or more (a byte count), "unknown
 * error" for any other negative value. */
const char *protobuf_c_iter_strerror(ptrdiff_t code);

/* The runtime's version string, PROTOBUF_C_ITER_VERSION at build time. */
const char *protobuf_c_iter_version(void);

#ifdef __cplusplus
}
#endif

#endif /* PROTOBUF_C_ITER_H */
