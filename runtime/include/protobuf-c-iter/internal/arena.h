/*
 * Internal, a part of protobuf-c-iter/internal/decode.h, which includes it
 * (and only it may, after its own declarations): the arena (allocation from both ends of the buffer), setting up a new struct, and the default entry. decode.h's
 * conventions apply.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_DECODE_H
#error "include protobuf-c-iter/internal/decode.h instead"
#endif
#ifndef PROTOBUF_C_ITER_INTERNAL_ARENA_H
#define PROTOBUF_C_ITER_INTERNAL_ARENA_H

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

#endif /* PROTOBUF_C_ITER_INTERNAL_ARENA_H */
