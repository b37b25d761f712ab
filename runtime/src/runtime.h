/* Declarations private to the runtime's sources: functions that neither
 * generated code nor the inline helpers of internal/decode.h call, so that
 * they can change without a new table layout. */
#ifndef PROTOBUF_C_ITER_RUNTIME_H
#define PROTOBUF_C_ITER_RUNTIME_H

#include "protobuf-c-iter/internal/decode.h"

#ifdef __cplusplus
extern "C" { /* for the runtime's white-box tests */
#endif

/* The varints of a packed run [p, end): its last bytes (top bit clear),
 * counted eight at a time; PBCI_BAD_COUNT when the run's last byte
 * continues. A run that ends with a last byte holds that many varints when
 * none is over 10 bytes (pbci_varints_fit), and a non-empty one at least
 * one. The one count of varint runs, for the decoder and the sizer
 * (pbci_count_checked_varints). */
size_t pbci_count_varints(const uint8_t *p, const uint8_t *end);

/* Whether no varint of the run [p, end) is over 10 bytes (ten continuation
 * bytes in a row). The sizer checks each run with ten continuation bytes
 * or more (pbci_count_checked_varints); the decoder finds over-long
 * varints as it reads them, and calls this only for a run it does not read
 * (its array cannot grow), to report it as malformed as the sizer does. */
int pbci_varints_fit(const uint8_t *p, const uint8_t *end);

/* pbci_count_varints, and PBCI_BAD_COUNT for a run with an over-long
 * varint too: the sizer's count, which reports every malformed run. */
size_t pbci_count_checked_varints(const uint8_t *p, const uint8_t *end);

/* A new array of n_old + n_add elements of elem_size bytes, with its header
 * (capacity n_old + n_add, `owner`), holding a copy of the n_old elements
 * at `old`; NULL when it does not fit. */
void *pbci_grow(PbciArena *a, const void *old, size_t n_old, size_t n_add,
                size_t elem_size, const void *owner);

/* The fields from `key` on whose keys are the bytes [key, key_end) and whose
 * values frame (a varint of at most 10 bytes, 4 or 8 fixed bytes, a length
 * of at most 5 bytes and INT_MAX that fits before `end`: what the decoder
 * reads); at least 1. The run of unpacked elements a new array makes room
 * for, and an open run takes one at a time. */
size_t pbci_count_run(const uint8_t *key, const uint8_t *key_end,
                      const uint8_t *end);

/* unpacked_size's fast path (measure_fast.c) for the top-level message
 * [p, end) of `type`: when every instance decodes from one occurrence and
 * nothing is unusual (see there), sets size->lo and size->hi as
 * pbci_measure would and returns 0; otherwise returns 1 and leaves `size`
 * alone. Never reports a failure: the general sizer decides those. */
ptrdiff_t pbci_measure_fast(const PbciMessage *type, const uint8_t *p,
                            const uint8_t *end, PbciSize *size);

/* unpacked_size of the top-level message [p, end) by the general sizer,
 * where pbci_measure_fast gives up: pbci_measure from the start, with
 * scratch of its own when the type needs little, else through the type's
 * generated sizer, reading at most size->work fields in merges. Sets
 * size->lo and size->hi and returns 0, or returns the failure. */
ptrdiff_t pbci_measure_top(const PbciMessage *type, const uint8_t *p,
                           const uint8_t *end, PbciSize *size);

#ifdef __cplusplus
}
#endif

#endif /* PROTOBUF_C_ITER_RUNTIME_H */
