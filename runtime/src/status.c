/* Failure reports: the codes' texts and the status a failing decode or
 * sizing pass fills (pbci_fail, called where a fault is found). Below
 * everything but the wire readers (wire.c), so that the decoder, the
 * sizers and the entry points all report through it without a cycle. */
#include "protobuf-c-iter/internal/decode.h"

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
    case PROTOBUF_C_ITER_ERR_WORK_LIMIT:
      return "sizing work limit reached";
    default:
      return code >= 0 ? "success" : "unknown error";
  }
}
