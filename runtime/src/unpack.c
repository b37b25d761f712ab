/* The entry points every generated message shares (x__iter_unpack_ex,
 * x__iter_unpack_merge[_ex], x__iter_unpacked_size[_ex] are inline calls
 * of these; x__iter_unpack, generated, shares pbci_take_top) and the
 * options; failures are reported through status.c. */
#include "protobuf-c-iter/internal/decode.h"
#include "runtime.h"

#define PBCI_KNOWN_FLAGS                                         \
  (PROTOBUF_C_ITER_ALIAS_BYTES | PROTOBUF_C_ITER_VALIDATE_UTF8 | \
   PROTOBUF_C_ITER_DISCARD_UNKNOWN | PROTOBUF_C_ITER_NO_WORK_LIMIT)

static ptrdiff_t ctx_init(PbciCtx *ctx, const uint8_t *data,
                          const ProtobufCIterOptions *opts,
                          ProtobufCIterStatus *status) {
  pbci_ctx_default(ctx, data);
  ctx->status = status;
  if (status != NULL) {
    status->code = 0;
    status->offset = 0;
    status->field_number = 0;
    status->message = "ok";
  }
  if (opts != NULL) {
    if (opts->flags & ~(uint32_t)PBCI_KNOWN_FLAGS) {
      return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
    }
    ctx->flags = opts->flags;
    if (opts->max_depth != 0) ctx->max_depth = opts->max_depth;
  }
  return 0;
}

/* Completes the status: the end of the input on success; for a failure no
 * field recorded (arguments, the top-level struct not fitting), offset 0. */
static ptrdiff_t finish(PbciCtx *ctx, ptrdiff_t r, size_t len) {
  ProtobufCIterStatus *st = ctx->status;
  if (st == NULL) return r;
  if (r >= 0) {
    st->offset = len;
  } else if (st->code == 0) {
    st->code = (int)r;
    st->message = protobuf_c_iter_strerror(r);
  }
  return r;
}

/* Sets up a new top-level `msg` of `type`. */
PBCI_INLINE void init_message(const PbciMessage *type, void *msg) {
  if (type->init != NULL) {
    type->init(msg);
  } else {
    /* protoc-c's x__init, called as protobuf-c calls it. */
    type->descriptor->message_init((ProtobufCMessage *)msg);
  }
}

/* Decodes into `msg`, or into a new message at the start of `buf` when
 * msg is NULL, with the context arena->ctx. */
PBCI_INLINE ptrdiff_t decode_into(const PbciMessage *type, void *msg,
                                  const uint8_t *data, size_t len, void *buf,
                                  size_t buf_size, PbciArena *arena) {
  ptrdiff_t r;
  if (msg == NULL) {
    msg = pbci_take_top(arena, data, len, buf, buf_size, type->size, &r);
    if (msg == NULL) return r;
    init_message(type, msg);
  } else {
    r = pbci_arena_init(arena, data, len, buf, buf_size);
    if (r != 0) return r;
  }
  return pbci_unpack_end(
      arena, type->decode(msg, data, pbci_end(data, len), arena, 0, NULL));
}

static ptrdiff_t unpack(const PbciMessage *type, void *msg, const uint8_t *data,
                        size_t len, void *buf, size_t buf_size,
                        const ProtobufCIterOptions *opts,
                        ProtobufCIterStatus *status) {
  PbciArena arena;
  ptrdiff_t r = ctx_init(&arena.ctx, data, opts, status);
  if (r == 0) r = decode_into(type, msg, data, len, buf, buf_size, &arena);
  return finish(&arena.ctx, r, len);
}

/* A call without a type (or msg, for a merge) only fails. */
static ptrdiff_t invalid(const uint8_t *data, size_t len,
                         const ProtobufCIterOptions *opts,
                         ProtobufCIterStatus *status) {
  PbciCtx ctx;
  ctx_init(&ctx, data, opts, status);
  return finish(&ctx, PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT, len);
}

ptrdiff_t protobuf_c_iter_unpack(const ProtobufCIterType *type,
                                 const uint8_t *data, size_t len, void *buf,
                                 size_t buf_size,
                                 const ProtobufCIterOptions *opts,
                                 ProtobufCIterStatus *status) {
  if (type == NULL) return invalid(data, len, opts, status);
  if (opts == NULL && status == NULL) {
    /* As x__iter_unpack: no options to read and no status to fill, which
     * saves a small message a tenth of its instructions. */
    PbciArena arena;
    pbci_ctx_default(&arena.ctx, data);
    return decode_into(type->impl, NULL, data, len, buf, buf_size, &arena);
  }
  return unpack(type->impl, NULL, data, len, buf, buf_size, opts, status);
}

ptrdiff_t protobuf_c_iter_unpack_merge(const ProtobufCIterType *type, void *msg,
                                       const uint8_t *data, size_t len,
                                       void *buf, size_t buf_size,
                                       const ProtobufCIterOptions *opts,
                                       ProtobufCIterStatus *status) {
  if (type == NULL || msg == NULL) return invalid(data, len, opts, status);
  return unpack(type->impl, msg, data, len, buf, buf_size, opts, status);
}

/* The fields the sizer may read looking for merged occurrences in an
 * input of `len` bytes (PROTOBUF_C_ITER_SIZE_WORK), saturating. */
static size_t work_limit(size_t len, uint32_t flags) {
  if (flags & PROTOBUF_C_ITER_NO_WORK_LIMIT) return SIZE_MAX;
  if (len < PROTOBUF_C_ITER_SIZE_WORK_MIN_LEN) {
    len = PROTOBUF_C_ITER_SIZE_WORK_MIN_LEN;
  }
  return len > SIZE_MAX / PROTOBUF_C_ITER_SIZE_WORK
             ? SIZE_MAX
             : len * PROTOBUF_C_ITER_SIZE_WORK;
}

/* The size decoding needs, with the context size->ctx: the fast path, and
 * where it gives up, the general sizer from the start (only it counts
 * work). */
static ptrdiff_t measure(const PbciMessage *type, const uint8_t *data,
                         size_t len, PbciSize *size) {
  const uint8_t *end;
  if (data == NULL && len != 0) return PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  end = pbci_end(data, len);
  if (pbci_measure_fast(type, data, end, size) != 0) {
    ptrdiff_t r;
    size->work = work_limit(len, size->ctx.flags);
    r = pbci_measure_top(type, data, end, size);
    if (r != 0) return r;
  }
  return (ptrdiff_t)(size->lo + size->hi);
}

ptrdiff_t protobuf_c_iter_unpacked_size(const ProtobufCIterType *type,
                                        const uint8_t *data, size_t len,
                                        const ProtobufCIterOptions *opts,
                                        ProtobufCIterStatus *status) {
  PbciSize size;
  ptrdiff_t r;
  if (type == NULL) return invalid(data, len, opts, status);
  if (opts == NULL && status == NULL) {
    /* x__iter_unpacked_size: nothing to read or fill, as for unpack. */
    pbci_ctx_default(&size.ctx, data);
    return measure(type->impl, data, len, &size);
  }
  r = ctx_init(&size.ctx, data, opts, status);
  if (r == 0) r = measure(type->impl, data, len, &size);
  return finish(&size.ctx, r, len);
}

const char *protobuf_c_iter_version(void) { return PROTOBUF_C_ITER_VERSION; }
