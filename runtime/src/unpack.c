/* The entry points every generated message shares (x__iter_unpack[_ex],
 * _merge[_ex], _unpacked_size[_ex] are inline calls of these), the
 * options, and failure reports. */
#include "protobuf-c-iter/internal/decode.h"

#define PBCI_KNOWN_FLAGS                                         \
  (PROTOBUF_C_ITER_ALIAS_BYTES | PROTOBUF_C_ITER_VALIDATE_UTF8 | \
   PROTOBUF_C_ITER_DISCARD_UNKNOWN)

static ptrdiff_t ctx_init(PbciCtx *ctx, const uint8_t *data,
                          const ProtobufCIterOptions *opts,
                          ProtobufCIterStatus *status) {
  ctx->data = data;
  ctx->flags = 0;
  ctx->max_depth = PROTOBUF_C_ITER_MAX_DEPTH;
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

/* Decodes into `msg`, or into a new message at the start of `buf` when
 * msg is NULL. */
static ptrdiff_t unpack(const PbciMessage *type, void *msg, const uint8_t *data,
                        size_t len, void *buf, size_t buf_size,
                        const ProtobufCIterOptions *opts,
                        ProtobufCIterStatus *status) {
  PbciArena arena;
  ptrdiff_t r = ctx_init(&arena.ctx, data, opts, status);
  if (r == 0) r = pbci_arena_init(&arena, data, len, buf, buf_size);
  if (r == 0 && msg == NULL) {
    msg = pbci_alloc(&arena, type->size);
    if (msg == NULL) {
      r = PROTOBUF_C_ITER_ERR_NO_MEMORY;
    } else if (type->init != NULL) {
      memcpy(msg, type->init, type->size);
    } else {
      /* protoc-c's x__init, called as protobuf-c calls it. */
      type->descriptor->message_init((ProtobufCMessage *)msg);
    }
  }
  if (r == 0) r = type->decode(msg, data, pbci_end(data, len), &arena, 0);
  if (r == 0) r = pbci_arena_used(&arena);
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

ptrdiff_t protobuf_c_iter_unpacked_size(const ProtobufCIterType *type,
                                        const uint8_t *data, size_t len,
                                        const ProtobufCIterOptions *opts,
                                        ProtobufCIterStatus *status) {
  PbciSize size;
  ptrdiff_t r;
  if (type == NULL) return invalid(data, len, opts, status);
  size.lo = 0;
  size.hi = 0;
  r = ctx_init(&size.ctx, data, opts, status);
  if (r == 0 && data == NULL && len != 0)
    r = PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT;
  if (r == 0)
    r = pbci_measure_top(type->impl, data, pbci_end(data, len), &size);
  if (r == 0) r = (ptrdiff_t)(size.lo + size.hi);
  return finish(&size.ctx, r, len);
}

/* What is wrong with the field at [at, end), found malformed, whose key
 * ends at key_end (NULL: unreadable) and reads as `tag`: its framing, or
 * else its value for the field's type. */
static const char *describe_malformed(const uint8_t *at, const uint8_t *end,
                                      const uint8_t *key_end, uint64_t tag) {
  PbciField f;
  if (key_end == NULL) return "invalid field key";
  switch ((uint32_t)(tag & 7)) {
    case 3:
    case 4:
      return "group wire type (3 or 4): groups are not supported";
    case 6:
    case 7:
      return "invalid wire type";
    default:
      break;
  }
  if (pbci_next_field(at, end, &f) == NULL) {
    return "truncated field, over-long varint or length past the end";
  }
  return "value does not match the field's type";
}

/* Starts a failure report, unless one was made (or none is wanted): the
 * code and the offset of `at` in the input. Returns the status to finish,
 * or NULL. */
static ProtobufCIterStatus *report(PbciCtx *ctx, ptrdiff_t code,
                                   const uint8_t *at) {
  ProtobufCIterStatus *st = ctx->status;
  if (st == NULL || st->code != 0) return NULL;
  st->code = (int)code;
  st->offset = (ctx->data != NULL && at != NULL) ? (size_t)(at - ctx->data) : 0;
  st->field_number = 0;
  return st;
}

ptrdiff_t pbci_fail(PbciCtx *ctx, ptrdiff_t code, const uint8_t *at,
                    const uint8_t *end) {
  ProtobufCIterStatus *st = report(ctx, code, at);
  const uint8_t *key_end;
  uint64_t tag = 0;
  if (st == NULL) return code;
  key_end = pbci_read_tag(at, end, &tag);
  if (key_end != NULL) st->field_number = (uint32_t)(tag >> 3);
  switch (code) {
    case PROTOBUF_C_ITER_ERR_MALFORMED:
      st->message = describe_malformed(at, end, key_end, tag);
      break;
    case PROTOBUF_C_ITER_ERR_BAD_UTF8:
      st->message = "invalid UTF-8 in a string field";
      break;
    default:
      st->message = protobuf_c_iter_strerror(code);
      break;
  }
  return code;
}

ptrdiff_t pbci_fail_required(PbciCtx *ctx, const uint8_t *at,
                             const uint64_t *seen, const uint32_t *numbers,
                             size_t n) {
  ProtobufCIterStatus *st =
      report(ctx, PROTOBUF_C_ITER_ERR_MISSING_REQUIRED, at);
  size_t i;
  if (st == NULL) return PROTOBUF_C_ITER_ERR_MISSING_REQUIRED;
  st->message = "missing required field";
  for (i = 0; i < n; i++) {
    if (!((seen[i / 64] >> (i % 64)) & 1u)) {
      st->field_number = numbers[i];
      break;
    }
  }
  return PROTOBUF_C_ITER_ERR_MISSING_REQUIRED;
}

const char *protobuf_c_iter_strerror(ptrdiff_t code) {
  switch (code) {
    case PROTOBUF_C_ITER_ERR_MALFORMED:
      return "malformed input";
    case PROTOBUF_C_ITER_ERR_NO_MEMORY:
      return "buffer too small";
    case PROTOBUF_C_ITER_ERR_MISSING_REQUIRED:
      return "missing required field";
    case PROTOBUF_C_ITER_ERR_DEPTH:
      return "nesting too deep";
    case PROTOBUF_C_ITER_ERR_ALIGNMENT:
      return "buffer misaligned";
    case PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT:
      return "invalid argument";
    case PROTOBUF_C_ITER_ERR_BAD_UTF8:
      return "invalid UTF-8";
    case PROTOBUF_C_ITER_ERR_IO:
      return "read error";
    case PROTOBUF_C_ITER_ERR_TOO_LARGE:
      return "message too large";
    default:
      return code >= 0 ? "success" : "unknown error";
  }
}

const char *protobuf_c_iter_version(void) { return PROTOBUF_C_ITER_VERSION; }
