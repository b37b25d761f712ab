/* What both sizers share (measure.c, measure_fast.c): reading usual keys,
 * finding fields by them, the tight loop over plain fields, counting packed
 * runs. Internal to the runtime's sources. */
#ifndef PROTOBUF_C_ITER_MEASURE_COMMON_H
#define PROTOBUF_C_ITER_MEASURE_COMMON_H

#include "protobuf-c-iter/internal/decode.h"
#include "runtime.h"

/* The key at p (p < end) as PbciFieldInfo::key holds usual keys: its first
 * byte when that ends the key, else its first two bytes; sets *value past
 * them. Returns 0, which is no field's key, for a lone byte at the end. */
PBCI_INLINE uint32_t key16(const uint8_t *p, const uint8_t *end,
                           const uint8_t **value) {
  *value = p + 1;
  if (p[0] < 0x80) return p[0];
  if (end - p < 2) return 0;
  *value = p + 2;
  return pbci_key2(p);
}

/* The tag (number << 3 | wire type) of a key read by key16. */
PBCI_INLINE uint32_t key16_tag(uint32_t key) {
  return key < 0x80 ? key : (key & 0x7f) | (key >> 8) << 7;
}

/* How far past the expected field find_key looks before searching. */
#define NEAR_ENTRIES 8

/* pbci_search_field for a field numbered `number` of `type`, which is not
 * `fi`, the field expected there: first the few entries after fi, where
 * the field is when those between are absent (serializers write fields in
 * number order). Out of line, as the search. */
static PBCI_NOINLINE const PbciFieldInfo *search_after(const PbciMessage *type,
                                                       const PbciFieldInfo *fi,
                                                       uint32_t number) {
  if (type->n_fields != 0) { /* else fi is none of its entries */
    const PbciFieldInfo *const last = type->fields + type->n_fields - 1;
    int i;
    for (i = 0; i < NEAR_ENTRIES && fi < last; i++) {
      fi++;
      if (fi->number >= number) {
        if (fi->number == number) return fi;
        break;
      }
    }
  }
  return pbci_search_field(type, number);
}

/* The field of `type` whose usual key is `key` (from key16), or NULL;
 * `fi` is the field expected there, whose key is not `key`. Not forced
 * inline: forced, the sizers' loops took 2-11% more instructions. */
static inline const PbciFieldInfo *find_key(const PbciMessage *type,
                                            const PbciFieldInfo *fi,
                                            uint32_t key) {
  const uint32_t number = key16_tag(key) >> 3;
  const PbciFieldInfo *found;
  /* pbci_find_field's test of dense numbering first. */
  if (number - 1 < type->n_fields &&
      type->fields[number - 1].number == number) {
    found = &type->fields[number - 1];
  } else {
    found = search_after(type, fi, number);
  }
  return found != NULL && found->key == key ? found : NULL;
}

/* The field expected after `fi`: the next one in number order, as
 * serializers write them, or for a repeated field the same one again. */
PBCI_INLINE const PbciFieldInfo *expect_after(const PbciMessage *type,
                                              const PbciFieldInfo *fi) {
  if (fi->flags & PBCI_FIELD_REPEATED) return fi;
  return fi + 1 < type->fields + type->n_fields ? fi + 1 : fi;
}

/* Sizes the plain fields from p on, the bulk of most messages: fields whose
 * op is PBCI_OP_VARINT to PBCI_OP_BYTES, with their usual key, found as the
 * expected field (*expect) or by number, and values that frame at once (a
 * varint of up to 10 bytes, a length of 1 byte). Adds strings' and bytes'
 * copies to *hi; only called without the options that change those (UTF-8
 * checks, aliased bytes). Returns where the first other field starts (or end),
 * with *expect the field expected there. */
PBCI_INLINE const uint8_t *size_plain(const PbciMessage *type,
                                      const PbciFieldInfo **expect,
                                      const uint8_t *p, const uint8_t *end,
                                      size_t *hi) {
  const PbciFieldInfo *fi = *expect;
  const PbciFieldInfo *const last = type->fields + type->n_fields - 1;
  size_t copies = *hi;
  while (p < end) {
    const uint8_t *v = p + 1;
    uint32_t key = p[0];
    size_t avail;
    if (key >= 0x80) {
      if (end - p < 2) break;
      key |= (uint32_t)p[1] << 8;
      v++;
    }
    if (fi->key != key) {
      const PbciFieldInfo *found = find_key(type, fi, key);
      if (found == NULL) break;
      fi = found;
    }
    avail = (size_t)(end - v);
    switch (fi->op) {
      case PBCI_OP_VARINT: {
        const uint8_t *next = pbci_skip_varint(v, end);
        if (next == NULL) goto out;
        p = next;
        break;
      }
      case PBCI_OP_FIXED64:
        if (avail < 8) goto out;
        p = v + 8;
        break;
      case PBCI_OP_FIXED32:
        if (avail < 4) goto out;
        p = v + 4;
        break;
      case PBCI_OP_STRING:
      case PBCI_OP_BYTES:
        if (pbci_try_len1(v, end, &p) == NULL) goto out; /* p: its end */
        /* Copies cannot wrap `hi`: each adds no more bytes than its
         * field takes in the input (a string's NUL stands for its length
         * byte, v[0]). */
        copies += (size_t)v[0] + (fi->op == PBCI_OP_STRING);
        break;
      default:
        goto out;
    }
    fi += fi != last;
  }
out:
  *expect = fi;
  *hi = copies;
  return p;
}

/* Adds a struct of `size` bytes to the low end, as pbci_alloc takes it.
 * Returns 0, or PROTOBUF_C_ITER_ERR_NO_MEMORY when the total would exceed
 * PTRDIFF_MAX. */
PBCI_INLINE ptrdiff_t pbci_size_struct(PbciSize *s, size_t size) {
  const size_t bytes = pbci_struct_bytes(size);
  if (bytes > PTRDIFF_MAX - s->lo - s->hi) return PROTOBUF_C_ITER_ERR_NO_MEMORY;
  s->lo += bytes;
  return 0;
}

/* Adds n bytes to the high end; same result convention. */
PBCI_INLINE ptrdiff_t pbci_size_bytes(PbciSize *s, size_t n) {
  if (n > PTRDIFF_MAX - s->lo - s->hi) return PROTOBUF_C_ITER_ERR_NO_MEMORY;
  s->hi += n;
  return 0;
}

/* Adds `bytes` of the allocation policy (pbci_struct_bytes,
 * pbci_array_bytes) to *lo, which must stay within `limit`. Returns 0, or
 * PBCI_DECLINED past it (SIZE_MAX, an array too large for a size_t,
 * always is). */
PBCI_INLINE int size_add(size_t bytes, size_t *lo, size_t limit) {
  if (bytes > limit - *lo) return PBCI_DECLINED;
  *lo += bytes;
  return 0;
}

/* The growth step both sizers share, as the decoder grows arrays (see
 * "arrays" in decode.h): an array holding *n elements of capacity *cap
 * takes `add` more; when they do not fit it grows to
 * pbci_next_capacity(*cap, need) (need >= *n + add: more for a run of
 * unpacked elements starting here), and the new array's bytes
 * (pbci_array_bytes) go to *lo, which must stay within `limit`. Returns 0,
 * or PBCI_DECLINED past the limit. */
PBCI_INLINE int size_append(size_t *n, size_t *cap, size_t add, size_t need,
                            size_t elem_size, size_t *lo, size_t limit) {
  if (*n + add > *cap) {
    *cap = pbci_next_capacity(*cap, need);
    if (size_add(pbci_array_bytes(*cap, elem_size), lo, limit)) return PBCI_DECLINED;
  }
  *n += add;
  return 0;
}

/* The elements a packed run [v, end) of a repeated scalar with op `op`
 * holds, or PBCI_BAD_COUNT when malformed. */
PBCI_INLINE size_t count_packed(uint32_t op, const uint8_t *v,
                                const uint8_t *end) {
  switch (op) {
    case PBCI_OP_PACKED_FIXED32:
      return pbci_count_fixed(v, end, 4);
    case PBCI_OP_PACKED_FIXED64:
      return pbci_count_fixed(v, end, 8);
    default:
      return pbci_count_checked_varints(v, end);
  }
}

/* ---- one message instance, as both sizers keep it ----
 *
 * The fast path (measure_fast.c) keeps an instance in a frame of its stack,
 * the general sizer (measure.c) in the call sizing its occurrences; both
 * open it, take each known field's value and each unknown field through the
 * functions below, which add exactly what the decoder allocates. Groups,
 * required fields and sub-message instances stay with each sizer: the fast
 * path gives up where they get hard, the general sizer follows merges. */
typedef struct Instance {
  size_t *arrays;     /* two per repeated field, by slot: its array's
                         element count and capacity */
  size_t n_unknown;   /* unknown fields stored, */
  size_t cap_unknown; /* and their array's capacity */
} Instance;

/* Opens an instance of `type`, adding its struct to *lo (within `limit`),
 * with `arrays` as scratch for 2 * type->n_counts values, zeroed here (no
 * cheaper than marking pairs on first use: docs/design.md). Returns 0, or
 * PBCI_DECLINED past the limit. */
PBCI_INLINE int instance_open(Instance *in, const PbciMessage *type,
                              size_t *arrays, size_t *lo, size_t limit) {
  if (size_add(pbci_struct_bytes(type->size), lo, limit)) return PBCI_DECLINED;
  in->arrays = arrays;
  /* memset, not a loop: gcc (x86-64, -O2 and -O3) zeroed the loop's values
   * with `rep stos`, whose start-up cost rtb_bid_request's unpacked_size +
   * unpack 12% (Regression.SizerZeroedCountsWithRepStos). */
  if (type->n_counts != 0) {
    memset(arrays, 0, 2 * (size_t)type->n_counts * sizeof *arrays);
  }
  in->n_unknown = 0;
  in->cap_unknown = 0;
  return 0;
}

/* The element count and capacity, in that order, of repeated field `fi`'s
 * array in instance `in`. */
PBCI_INLINE size_t *instance_array(const Instance *in, const PbciFieldInfo *fi) {
  return &in->arrays[2 * (size_t)fi->slot];
}

/* The copy a string or bytes value [value, value + len) of kind `kind`
 * takes under the options `flags`: a string's bytes and its NUL (checked
 * as UTF-8 with PROTOBUF_C_ITER_VALIDATE_UTF8), a bytes value's bytes
 * unless aliased; added to *hi, which no copy can wrap (each is at most its
 * field's length in the input). Returns 0, or PROTOBUF_C_ITER_ERR_BAD_UTF8. */
PBCI_INLINE ptrdiff_t size_copy(uint32_t kind, const uint8_t *value,
                                size_t len, uint32_t flags, size_t *hi) {
  if (kind == PBCI_KIND_STRING) {
    if ((flags & PROTOBUF_C_ITER_VALIDATE_UTF8) && !pbci_utf8_valid(value, len)) {
      return PROTOBUF_C_ITER_ERR_BAD_UTF8;
    }
    *hi += len + 1;
  } else if (!(flags & PROTOBUF_C_ITER_ALIAS_BYTES)) {
    *hi += len;
  }
  return 0;
}

/* The per-field step: what an occurrence of known field `fi` adds to
 * instance `in`, its sub-message instance aside. The occurrence's key is
 * [key, raw), its value [value, vend) of wire type `wire_type`, in a
 * message occurrence ending at `end`. A repeated field's array takes a
 * packed run's elements, or one element (a full array grows for the run
 * of them starting here, pbci_count_run, as the decoder's does); a string
 * or bytes value takes its copy (size_copy). Adds to *lo within `limit`,
 * and to *hi. Returns 0, or PROTOBUF_C_ITER_ERR_MALFORMED (a packed run),
 * _BAD_UTF8, or _NO_MEMORY (past the limit). */
PBCI_INLINE ptrdiff_t size_value(Instance *in, const PbciFieldInfo *fi,
                                 const uint8_t *key, const uint8_t *raw,
                                 uint32_t wire_type, const uint8_t *value,
                                 const uint8_t *vend, const uint8_t *end,
                                 uint32_t flags, size_t *lo, size_t *hi,
                                 size_t limit) {
  if (fi->flags & PBCI_FIELD_REPEATED) {
    size_t *const a = instance_array(in, fi);
    if (wire_type == PBCI_WT_LEN && fi->kind == PBCI_KIND_SCALAR) {
      const size_t n = count_packed(fi->op, value, vend);
      if (n == PBCI_BAD_COUNT) return PROTOBUF_C_ITER_ERR_MALFORMED;
      if (size_append(&a[0], &a[1], n, a[0] + n, fi->elem_size, lo, limit)) {
        return PROTOBUF_C_ITER_ERR_NO_MEMORY;
      }
      return 0;
    }
    /* Room first: it saves counting the run (docs/design.md). */
    if (a[0] != a[1]) {
      a[0]++;
    } else if (size_append(&a[0], &a[1], 1, a[0] + pbci_count_run(key, raw, end),
                           fi->elem_size, lo, limit)) {
      return PROTOBUF_C_ITER_ERR_NO_MEMORY;
    }
  }
  if (fi->kind == PBCI_KIND_STRING || fi->kind == PBCI_KIND_BYTES) {
    return size_copy(fi->kind, value, (size_t)(vend - value), flags, hi);
  }
  return 0;
}

/* An unknown field of `bytes` bytes in instance `in`, as
 * pbci_store_unknown stores it: a copy of its bytes unless aliased (to *hi)
 * and an entry in the unknown-field array (to *lo, within `limit`); nothing
 * with PROTOBUF_C_ITER_DISCARD_UNKNOWN. Returns 0, or
 * PROTOBUF_C_ITER_ERR_NO_MEMORY past the limit. */
PBCI_INLINE ptrdiff_t size_unknown(Instance *in, size_t bytes, uint32_t flags,
                                   size_t *lo, size_t *hi, size_t limit) {
  if (flags & PROTOBUF_C_ITER_DISCARD_UNKNOWN) return 0;
  if (!(flags & PROTOBUF_C_ITER_ALIAS_BYTES)) *hi += bytes;
  return size_append(&in->n_unknown, &in->cap_unknown, 1, in->n_unknown + 1,
                     sizeof(ProtobufCMessageUnknownField), lo, limit)
             ? PROTOBUF_C_ITER_ERR_NO_MEMORY
             : 0;
}

/* Whether `required` holds the bits of all of `type`'s required fields
 * (fewer than 65). */
PBCI_INLINE int required_complete(const PbciMessage *type, uint64_t required) {
  return type->n_required == 0 ||
         required == (~UINT64_C(0) >> (64 - type->n_required));
}

/* Whether size_plain may size `type`'s plain fields: plain strings and
 * bytes need no more than their copies with the default options. */
PBCI_INLINE int plain_sizing(const PbciMessage *type, const PbciSize *size) {
  return type->n_fields != 0 &&
         !(size->ctx.flags &
           (PROTOBUF_C_ITER_VALIDATE_UTF8 | PROTOBUF_C_ITER_ALIAS_BYTES));
}

#endif /* PROTOBUF_C_ITER_MEASURE_COMMON_H */
