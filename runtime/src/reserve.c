/* The decoder's array sizing, driven by the message's field table: before
 * the first repeated or unknown field of an occurrence is stored, count the
 * rest of the occurrence and grow each array once, so appending never
 * reallocates. */
#include "scan.h"

const PbciFieldInfo *pbci_search_field(const PbciMessage *type,
                                       uint64_t number) {
  size_t lo = 0, hi = type->n_fields;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (type->fields[mid].number == number) return &type->fields[mid];
    if (type->fields[mid].number < number) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return NULL;
}

/* Adds n elements to `slot`'s count. Slots below 64 start uncounted and are
 * marked in *touched when first counted (most messages have few repeated
 * fields and an occurrence uses fewer: no clearing, no loop over all of
 * them); higher slots were cleared up front. */
PBCI_INLINE void count(size_t *counts, uint64_t *touched, uint32_t slot,
                       size_t n) {
  if (slot < 64) {
    uint64_t bit = UINT64_C(1) << slot;
    if (!(*touched & bit)) {
      *touched |= bit;
      counts[slot] = 0;
    }
  }
  counts[slot] += n;
}

/* Grows repeated field `fi`'s array in `msg` by n elements. */
static int grow(PbciArena *arena, unsigned char *msg, const PbciFieldInfo *fi,
                size_t n) {
  void *array;
  size_t count;
  /* Through memcpy: the members are `T *` and size_t, not void *. */
  memcpy(&array, msg + fi->array_offset, sizeof array);
  memcpy(&count, msg + fi->count_offset, sizeof count);
  array = pbci_grow(arena, array, count, n, fi->elem_size);
  if (array == NULL) return -1;
  memcpy(msg + fi->array_offset, &array, sizeof array);
  return 0;
}

const uint8_t *pbci_reserve(const PbciMessage *type, size_t *counts, void *msg,
                            const uint8_t *p, const uint8_t *end,
                            PbciArena *arena) {
  size_t n_unknown = 0, i;
  size_t hint = 0; /* where the next field is probably in the table */
  uint64_t touched = 0;
  for (i = 64; i < type->n_counts; i++) counts[i] = 0;
  while (p < end) {
    PbciField f;
    PbciQuick q;
    const PbciFieldInfo *fi;
    const uint8_t *next;
    size_t n;
    if (pbci_quick_field(type, p, end, &hint, &q)) {
      fi = q.fi;
      next = q.end;
      if (!(fi->flags & PBCI_FIELD_REPEATED)) {
        p = next;
        continue;
      }
      f = pbci_quick_as_field(&q, p);
    } else {
      next = pbci_next_field(p, end, &f);
      if (next == NULL) break;
      fi = pbci_find_field(type, f.tag >> 3);
      if (fi == NULL) {
        n_unknown++;
        p = next;
        continue;
      }
      /* A known field with a wire type it does not take. */
      if (!(fi->wire_types >> (f.tag & 7) & 1)) break;
      hint = (size_t)(fi - type->fields) + 1;
      if (!(fi->flags & PBCI_FIELD_REPEATED)) {
        p = next;
        continue;
      }
    }
    n = pbci_count_elements(fi, &f);
    if (n == (size_t)-1) break; /* a malformed packed run */
    if (fi->kind != PBCI_KIND_SCALAR && f.raw == f.key + 1) {
      /* Repeated strings and messages usually come in one run: skip it
       * without looking each element up. */
      next = pbci_skip_run(next, end, f.key[0], &n);
    }
    count(counts, &touched, fi->slot, n);
    p = next;
  }
  while (touched != 0) {
    unsigned slot = (unsigned)pbci_ctz64(touched);
    touched &= touched - 1;
    /* Empty packed runs count nothing: no array, as protobuf-c. */
    if (counts[slot] != 0 && grow(arena, (unsigned char *)msg, &type->fields[type->repeated[slot]],
             counts[slot]) != 0) {
      return NULL;
    }
  }
  for (i = 64; i < type->n_counts; i++) {
    if (counts[i] != 0 &&
        grow(arena, (unsigned char *)msg, &type->fields[type->repeated[i]],
             counts[i]) != 0) {
      return NULL;
    }
  }
  if (n_unknown != 0 &&
      pbci_reserve_unknown(arena, (ProtobufCMessage *)msg, n_unknown) != 0) {
    return NULL;
  }
  return p; /* end, or the first malformed field */
}
