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
 * type it takes, a key of at most two bytes found either by dense
 * numbering or among the four fields from index *hint (the field after the
 * last one found: serializers write fields in number order), and a value
 * framed inline: a varint
 * of up to 8 bytes, a length of up to 2, a fixed value. Then sets *q and
 * *hint and returns 1; otherwise returns 0. */
PBCI_INLINE int pbci_quick_field(const PbciMessage *type, const uint8_t *p,
                                 const uint8_t *end, size_t *hint,
                                 PbciQuick *q) {
  uint32_t key, number;
  size_t index;
  const uint8_t *v;
  const PbciFieldInfo *fi;
  size_t avail;
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
  avail = (size_t)(end - v);
  q->value = v;
  switch (key & 7) {
    case PBCI_WT_VARINT:
      if (avail >= 1 && v[0] < 0x80) {
        q->end = v + 1;
        break;
      }
#if PBCI_LITTLE_ENDIAN
      if (avail >= 8) {
        /* Up to 8 bytes: the first without the continuation bit. */
        uint64_t w, last;
        memcpy(&w, v, sizeof w);
        last = ~w & UINT64_C(0x8080808080808080);
        if (last != 0) {
          q->end = v + (pbci_ctz64(last) >> 3) + 1;
          break;
        }
      }
#endif
      return 0;
    case PBCI_WT_LEN:
      if (avail >= 1 && v[0] < 0x80 && avail - 1 >= v[0]) {
        q->value = v + 1;
        q->end = v + 1 + v[0];
        break;
      }
      if (avail >= 2 && v[0] >= 0x80 && v[1] < 0x80) {
        size_t n = (size_t)(v[0] & 0x7f) | (size_t)v[1] << 7;
        if (avail - 2 >= n) {
          q->value = v + 2;
          q->end = v + 2 + n;
          break;
        }
      }
      return 0;
    case PBCI_WT_32BIT:
      if (avail < 4) return 0;
      q->end = v + 4;
      break;
    default: /* PBCI_WT_64BIT: the only other type a table lists */
      if (avail < 8) return 0;
      q->end = v + 8;
      break;
  }
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
