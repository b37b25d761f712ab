/* The bench's view of upb (bench/upb.cmake): upb's headers and generated
 * tables stay in upb_shim.c, in C, and the decoders (decoders.h) see these
 * calls only. */
#ifndef PROTOBUF_C_ITER_BENCH_UPB_SHIM_H_
#define PROTOBUF_C_ITER_BENCH_UPB_SHIM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* upb's table (upb_MiniTable) of the message type `full_name`
 * ("pbci.bench.Packed"), or NULL when the bench has none. */
const void *pbci_upb_table(const char *full_name);

/* A table for the same type that upb decodes without fasttable (its
 * table-driven decoder), as are the types it reaches; NULL when out of
 * memory. Made once per type. */
const void *pbci_upb_plain_table(const void *table);

/* The table's fasttable mask: 255 when fasttable is off for the type (no
 * fast entries, or a runtime built without UPB_ENABLE_FASTTABLE). */
unsigned pbci_upb_table_mask(const void *table);

/* Decodes [data, data + len) as `table`'s type into a fresh arena over
 * [block, block + block_size), reused for each message as upb's own
 * benchmark does; with `alias`, strings and bytes point into the input
 * (kUpb_DecodeOption_AliasString). Returns the message, or NULL when upb
 * rejects the input. */
void *pbci_upb_decode(const void *table, const uint8_t *data, size_t len,
                      int alias, void *block, size_t block_size);

/* `msg` (from pbci_upb_decode) encoded again: a copy from malloc (the
 * caller frees it) of *len bytes, or NULL. */
char *pbci_upb_encode(const void *table, const void *msg, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* PROTOBUF_C_ITER_BENCH_UPB_SHIM_H_ */
