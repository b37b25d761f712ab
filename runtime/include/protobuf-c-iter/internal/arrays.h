/*
 * Internal, a part of protobuf-c-iter/internal/decode.h, which includes it
 * (and only it may, after its own declarations): repeated fields: array headers, capacities, runs and packed runs. decode.h's
 * conventions apply.
 */
#ifndef PROTOBUF_C_ITER_INTERNAL_DECODE_H
#error "include protobuf-c-iter/internal/decode.h instead"
#endif
#ifndef PROTOBUF_C_ITER_INTERNAL_ARRAYS_H
#define PROTOBUF_C_ITER_INTERNAL_ARRAYS_H

/* ---- arrays ----
 *
 * Every array the decoder allocates starts with a header (PbciArrayHeader,
 * PROTOBUF_C_ITER_ARRAY_HEADER bytes) just before its first element: its
 * capacity, and the address of the element count it belongs to (its
 * owner: &msg->n_x, or &base.n_unknown_fields). A repeated field's array
 * is allocated when an element finds it full. Its capacity lives in a
 * local of the decoder, starting at the element count when an occurrence
 * of the message begins; an array that then looks full is checked against
 * its header, so room left by an earlier occurrence (of a merged
 * sub-message) or an earlier x__iter_unpack_merge is used rather than the
 * array copied. Only the owner extends an array: a struct copied by value
 * shares arrays with the original but has another address, so the copy's
 * array is copied on its first growth, and neither overwrites the other.
 * A new array takes max(need, 2 * capacity) elements, where `need` covers
 * the whole run of elements about to be appended (a packed run, or the
 * unpacked elements with the same key that follow each other, counted or,
 * for an open run, one slot at a time: see pbci_start_run; a first run of
 * sub-messages is allocated when it ends: see pbci_message_room): one
 * allocation for the usual contiguous run, and amortised doubling when
 * runs interleave or a merged message's occurrences each append, so that
 * buffer use and copying stay linear in the input. The sizer replays the
 * same policy, capacities carrying from one occurrence to the next. */
typedef struct PbciArrayHeader {
  size_t cap;        /* elements the array has room for */
  const void *owner; /* the element count of the array's struct */
} PbciArrayHeader;

/* The header of `array`, which the decoder allocated. */
PBCI_INLINE PbciArrayHeader *pbci_array_header(void *array) {
  return (PbciArrayHeader *)(void *)((unsigned char *)array -
                                     PROTOBUF_C_ITER_ARRAY_HEADER);
}

/* Writes the header of an array allocated at `block` (capacity `cap`,
 * owner `owner`) and returns its first element. */
PBCI_INLINE void *pbci_array_start(unsigned char *block, size_t cap,
                                   const void *owner) {
  PbciArrayHeader *h = (PbciArrayHeader *)(void *)block;
  h->cap = cap;
  h->owner = owner;
  return block + PROTOBUF_C_ITER_ARRAY_HEADER;
}

/* The capacity an array of capacity `cap` grows to for `need` elements. */
PBCI_INLINE size_t pbci_next_capacity(size_t cap, size_t need) {
  return cap <= SIZE_MAX / 2 && 2 * cap > need ? 2 * cap : need;
}

/* Makes room in `array` (*n elements of elem_size bytes, local capacity
 * *cap, full; `n` is the count in the message, the array's owner) for the
 * run of unpacked elements whose first key is [key, key_end): need = *n +
 * pbci_count_run(key, key_end, end). Room the header records is taken
 * first; otherwise the array moves to pbci_next_capacity(capacity, need).
 * Returns the array and updates *cap, or returns NULL when the buffer is
 * too small. (Packed runs and unknown fields grow by the same policy
 * inside the runtime.) */
void *pbci_grow_run(PbciArena *a, void *array, const size_t *n, size_t *cap,
                    size_t elem_size, const uint8_t *key,
                    const uint8_t *key_end, const uint8_t *end);

/* Runs of sub-messages. Their structs follow the array at the low end, so
 * an array cannot stay open for them; rather than count a first run ahead,
 * the decoder keeps its elements' pointers in a buffer of PBCI_RUN_SLOTS on
 * its stack (`buffered`) and allocates the array when the run ends
 * (pbci_close_run): the same array, exact, that counting would have
 * allocated, after the structs rather than before them, so the sizers,
 * which count, replay it unchanged. A run longer than the buffer moves to
 * an array counted from there (all of it). Counting ahead cost
 * rtb_bid_request 6% of its time (docs/design.md). */
#define PBCI_RUN_SLOTS 8

/* A buffered run longer than PBCI_RUN_SLOTS: its *n elements' pointers (in
 * `run`, full) move to a new array for the whole run, the rest counted from
 * its next element's key [key, key_end). Returns the array (its capacity
 * to *cap), or NULL when the buffer is too small. */
void *pbci_spill_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size, const uint8_t *key,
                     const uint8_t *key_end, const uint8_t *end);

/* pbci_grow_run for an element of a repeated sub-message field whose array
 * (*n elements of elem_size bytes, local capacity *cap) is full: a first
 * element with the field's usual key (`usual`, as for pbci_start_run)
 * starts a buffered run in `run`, the decoder's PBCI_RUN_SLOTS pointers; a
 * full buffer spills (pbci_spill_run); any other array grows by
 * pbci_grow_run. Returns the array or `run` (*cap updated), or NULL when
 * the buffer is too small. */
PBCI_INLINE void *pbci_message_room(PbciArena *a, void *array, const size_t *n,
                                    size_t *cap, size_t elem_size, void *run,
                                    const uint8_t *key, const uint8_t *key_end,
                                    const uint8_t *end, int usual) {
  if (*n == 0 && usual) {
    *cap = PBCI_RUN_SLOTS;
    return run;
  }
  if (array == run) {
    return pbci_spill_run(a, run, n, cap, elem_size, key, key_end, end);
  }
  return pbci_grow_run(a, array, n, cap, elem_size, key, key_end, end);
}

/* Ends a buffered run: its *n elements' pointers (elem_size bytes each) move
 * from `run` to a new array of exactly *n, owned by n, which *cap takes.
 * Returns the array, or NULL when the buffer is too small. */
void *pbci_close_run(PbciArena *a, const void *run, const size_t *n,
                     size_t *cap, size_t elem_size);

/* Open runs. A run of unpacked strings, bytes or scalars adds nothing to
 * the low end of the buffer but its array (values go to the high end), so
 * a new array can grow there one element at a time instead of being
 * counted first: pbci_start_run opens it with room for the run's first
 * element, and each element that follows with the same key
 * (pbci_extend_run) takes the next slot. When the run ends the array holds
 * exactly the elements pbci_count_run would have counted, where counting
 * would have put them, so the sizers, which count, replay it unchanged.
 * An open array's header records no owner (NULL): its room is never
 * reused, as a counted array that its run filled has none. */

/* pbci_grow_run for the first element of a run whose key [key, key_end)
 * is the field's usual key (`usual`, which the generated case checks: the
 * key the elements after it are predicted by): an empty array opens, with
 * one element; an array its struct owns takes the room its header records
 * (left by an earlier occurrence of a merged message: inline, since such
 * a message's every occurrence comes here). Otherwise pbci_grow_run. */
PBCI_INLINE void *pbci_start_run(PbciArena *a, void *array, const size_t *n,
                                 size_t *cap, size_t elem_size,
                                 const uint8_t *key, const uint8_t *key_end,
                                 const uint8_t *end, int usual) {
  /* Rounded already: one comparison with the room, not pbci_alloc's two. */
  const size_t bytes = pbci_array_bytes(1, elem_size);
  if (*n == 0) {
    if (usual && (size_t)(a->hi - a->lo) >= bytes) {
      void *elements = pbci_array_start(a->lo, 1, NULL);
      a->lo += bytes;
      *cap = 1;
      return elements;
    }
  } else {
    /* An array from an earlier occurrence (a merged message's): the room
     * its header records, without the call. */
    const PbciArrayHeader *h = pbci_array_header(array);
    if (h->owner == n && h->cap > *n) {
      *cap = h->cap;
      return array;
    }
  }
  return pbci_grow_run(a, array, n, cap, elem_size, key, key_end, end);
}

/* Gives a full open array of *cap elements, the last thing at the low end,
 * the next element's slot: returns 1 and adds it to *cap. Returns 0 when
 * the array is not open (a counted array whose recorded room ran out) or
 * the buffer has no room, for pbci_grow_run to decide. The low end is
 * checked to end at the array so that a bug elsewhere could not make two
 * allocations overlap. */
PBCI_INLINE int pbci_extend_run(PbciArena *a, void *array, size_t *cap,
                                size_t elem_size) {
  unsigned char *const elements = (unsigned char *)array;
  const size_t used = PBCI_ROUND(*cap * elem_size);
  const size_t more = PBCI_ROUND((*cap + 1) * elem_size) - used;
  if (pbci_array_header(array)->owner != NULL || a->lo != elements + used ||
      (size_t)(a->hi - a->lo) < more) {
    return 0;
  }
  a->lo += more;
  ++*cap;
  return 1;
}

/* What pbci_append_packed and pbci_append_element leave: the array, which
 * moves when it grows, where decoding goes on, and 0 or an error code. */
typedef struct PbciAppend {
  void *array;
  const uint8_t *next; /* the byte after the run; NULL on failure */
  ptrdiff_t err;
} PbciAppend;

/* How pbci_append_packed converts a packed run's values. */
#define PBCI_PACKED_VARINT32 0u /* int32, uint32, enum: the low 32 bits
                                   (protoc-c makes enums int-sized) */
#define PBCI_PACKED_SINT32 1u   /* sint32: zigzag of the low 32 bits */
#define PBCI_PACKED_VARINT64 2u /* int64, uint64 */
#define PBCI_PACKED_SINT64 3u   /* sint64: zigzag */
#define PBCI_PACKED_BOOL 4u     /* protobuf_c_boolean, as pbci_read_bool */
#define PBCI_PACKED_FIXED32 5u  /* fixed32, sfixed32, float: wire bytes */
#define PBCI_PACKED_FIXED64 6u  /* fixed64, sfixed64, double: wire bytes */

/* Appends the packed run whose length prefix is at p (after the field's
 * key; the run must end by `end`) to `array` (*n elements, capacity *cap),
 * converted as `kind` (PBCI_PACKED_*) says: counts the run, grows a full
 * array for all of it (see "arrays" above), then stores each value. (A
 * varint run of at most 16 bytes is read first, counted as it is read;
 * into a new array with room, its values are stored where the array will
 * be, and the array is taken once they are counted. A longer run of
 * varints or bools into a new array goes there uncounted too, when the
 * buffer has room for as many values as the run has bytes; the array is
 * the same either way.) On
 * failure `next` is NULL, err is PROTOBUF_C_ITER_ERR_MALFORMED or
 * PROTOBUF_C_ITER_ERR_NO_MEMORY, *n is unchanged and `array` holds those
 * *n elements within capacity *cap: the caller's array, or a grown copy
 * when the fault came to light after growing (an over-long varint of a
 * long run, which counting leaves to the read). Out of line: one call per
 * run, shared by every packed field. */
PbciAppend pbci_append_packed(PbciArena *a, void *array, size_t *n,
                              size_t *cap, const uint8_t *p,
                              const uint8_t *end, unsigned kind);

/* Appends one unpacked element of a repeated scalar field declared packed,
 * whose key starts at `key` (p < end), converted as `kind` says (a bool
 * with its key's wire type): a full array grows for the run of elements
 * that starts here, as in generated cases. Every conforming serializer
 * writes such fields packed, so this legal but rare form costs a call
 * rather than generated code. Returns as pbci_append_packed does. */
PbciAppend pbci_append_element(PbciArena *a, void *array, size_t *n,
                               size_t *cap, const uint8_t *key,
                               const uint8_t *end, unsigned kind);

/* The field whose key starts at `p` matched none of the decoder's cases of
 * message `type`: a field of the type with a wire type it does not take is
 * malformed; any other is stored as protobuf-c does: tag = field number,
 * data = the value bytes with any length prefix (pointing into the input
 * with PROTOBUF_C_ITER_ALIAS_BYTES; not stored at all with
 * PROTOBUF_C_ITER_DISCARD_UNKNOWN). Returns the position after it, or NULL
 * with *err set (wire types 3, 4, 6, 7 and bad framing are malformed).
 * The unknown-field array grows like any other array, for one element at a
 * time (so it doubles); its capacity is what its header records. */
const uint8_t *pbci_store_unknown(PbciArena *a, const PbciMessage *type,
                                  ProtobufCMessage *base, const uint8_t *p,
                                  const uint8_t *end, ptrdiff_t *err);

#endif /* PROTOBUF_C_ITER_INTERNAL_ARRAYS_H */
