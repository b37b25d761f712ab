/* Private to the runtime: the quick path of the table-driven sizer
 * (measure.c). It handles the usual fields, with
 * their one- or two-byte keys looked up at once and their values framed
 * inline; for anything else it gives up and the caller takes the general
 * path (pbci_next_field, pbci_find_field), which also finds every fault. */
#ifndef PROTOBUF_C_ITER_SCAN_H
#define PROTOBUF_C_ITER_SCAN_H

#include "protobuf-c-iter/internal/decode.h"

/* A field read by pbci_quick_field. */
typedef struct PbciQuick {
  const PbciFieldInfo *fi;
  uint32_t key;         /* the key: field number << 3 | wire type */
  const uint8_t *raw;   /* after the key */
  const uint8_t *value; /* the value (after a length prefix) */
  const uint8_t *end;   /* its end */
} PbciQuick;

/* Reads the field at p (p < end) when it is a field of `type` with a wire
 * type it takes, a key of at most two bytes found at once (at index *hint,
 * the field after the last one found, as serializers write fields in
 * number order; by dense numbering; or a few fields past *hint), and a
 * value that pbci_frame_inline frames. Then sets *q and *hint and returns
 * 1; otherwise returns 0. */
PBCI_INLINE int pbci_quick_field(const PbciMessage *type, const uint8_t *p,
                                 const uint8_t *end, size_t *hint,
                                 PbciQuick *q) {
  uint32_t key, number;
  size_t index;
  const uint8_t *v;
  const PbciFieldInfo *fi;
  if (p[0] < 0x80) {
    key = p[0];
    v = p + 1;
  } else if ((size_t)(end - p) >= 2 && p[1] < 0x80) {
    key = (uint32_t)(p[0] & 0x7f) | (uint32_t)p[1] << 7;
    v = p + 2;
  } else {
    return 0;
  }
  number = key >> 3;
  index = *hint;
  if (index < type->n_fields && type->fields[index].number == number) {
    /* The field after the last one. */
  } else if (number - 1 < type->n_fields &&
             type->fields[number - 1].number == number) {
    index = number - 1;
  } else {
    /* Sparse numbers: a few fields further on (absent optional fields were
     * skipped over), else give up. */
    size_t stop = index + 4 < type->n_fields ? index + 4 : type->n_fields;
    for (index++; index < stop; index++) {
      if (type->fields[index].number == number) break;
    }
    if (index >= stop) return 0;
  }
  fi = &type->fields[index];
  if (!(fi->wire_types >> (key & 7) & 1)) return 0;
  q->end = pbci_frame_inline(v, end, key & 7, &q->value);
  if (q->end == NULL) return 0;
  q->fi = fi;
  q->key = key;
  q->raw = v;
  *hint = index + 1;
  return 1;
}

/* The PbciField of a quick one, for the general helpers. */
PBCI_INLINE PbciField pbci_quick_as_field(const PbciQuick *q,
                                          const uint8_t *key) {
  PbciField f;
  f.tag = q->key;
  f.key = key;
  f.raw = q->raw;
  f.value = q->value;
  f.end = q->end;
  return f;
}

#endif /* PROTOBUF_C_ITER_SCAN_H */
