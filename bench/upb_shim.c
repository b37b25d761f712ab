/* upb_shim.h over upb's runtime and the tables bench/upb.cmake generates. */
#include "upb_shim.h"

#include <stdlib.h>
#include <string.h>

#include "google/protobuf/descriptor.upb.h"
#include "rows.upb.h"
#include "rtb.upb.h"
#include "shapes.upb.h"
#include "upb/decode.h"
#include "upb/encode.h"
#ifdef PBCI_BENCH_HAVE_DATASETS
#include "benchmark_message1_proto2.upb.h"
#include "benchmark_message1_proto3.upb.h"
#include "ssrtb_v6.upb.h"
#include "test.upb.h"
#endif

/* The types the bench decodes (inputs.cc, datasets.cc), by full name. */
static const struct {
  const char *full_name;
  const upb_MiniTable *table;
} tables[] = {
    {"pbci.bench.Uint32Row", &pbci_bench_Uint32Row_msginit},
    {"pbci.bench.Fixed32Row", &pbci_bench_Fixed32Row_msginit},
    {"pbci.bench.Fixed64Row", &pbci_bench_Fixed64Row_msginit},
    {"pbci.bench.StringRow", &pbci_bench_StringRow_msginit},
    {"pbci.bench.BidRequest", &pbci_bench_BidRequest_msginit},
    {"pbci.bench.Packed", &pbci_bench_Packed_msginit},
    {"pbci.bench.Deep", &pbci_bench_Deep_msginit},
    {"pbci.bench.Maps", &pbci_bench_Maps_msginit},
    {"pbci.bench.Merged", &pbci_bench_Merged_msginit},
    {"google.protobuf.FileDescriptorSet",
     &google_protobuf_FileDescriptorSet_msginit},
#ifdef PBCI_BENCH_HAVE_DATASETS
    {"BenchmarkUINT32", &BenchmarkUINT32_msginit},
    {"BenchmarkFixed32", &BenchmarkFixed32_msginit},
    {"BenchmarkFixed64", &BenchmarkFixed64_msginit},
    {"BenchmarkString", &BenchmarkString_msginit},
    {"BidRequest", &BidRequest_msginit},
    {"benchmarks.proto2.GoogleMessage1",
     &benchmarks_proto2_GoogleMessage1_msginit},
    {"benchmarks.proto3.GoogleMessage1",
     &benchmarks_proto3_GoogleMessage1_msginit},
#endif
};

const void *pbci_upb_table(const char *full_name) {
  size_t i;
  for (i = 0; i < sizeof tables / sizeof tables[0]; i++) {
    if (strcmp(tables[i].full_name, full_name) == 0) return tables[i].table;
  }
  return NULL;
}

/* ---- upb without fasttable ----
 *
 * A copy of a table whose mask is 255 makes upb's decoder take its
 * table-driven path (decode.c's decode_tryfastdispatch) for that type; the
 * copies of the types it reaches are made the same way, so the whole
 * message decodes without fasttable, as with a runtime built without it.
 * Copies live until the program ends; a few per input type. */
typedef struct PlainCopy {
  const upb_MiniTable *from;
  upb_MiniTable *to;
} PlainCopy;
static PlainCopy plain_copies[256];
static size_t n_plain_copies;

static const upb_MiniTable *plain_table(const upb_MiniTable *t) {
  upb_MiniTable *copy;
  upb_MiniTable_Sub *subs = NULL;
  size_t i, n_subs = 0;
  for (i = 0; i < n_plain_copies; i++) {
    if (plain_copies[i].from == t) return plain_copies[i].to;
  }
  if (n_plain_copies == sizeof plain_copies / sizeof plain_copies[0])
    return NULL;
  copy = malloc(sizeof *copy); /* without the fast entries */
  if (copy == NULL) return NULL;
  memcpy(copy, t, sizeof *copy);
  copy->table_mask = (uint8_t)-1;
  plain_copies[n_plain_copies].from = t;
  plain_copies[n_plain_copies].to = copy;
  n_plain_copies++;
  for (i = 0; i < t->field_count; i++) {
    const upb_MiniTable_Field *f = &t->fields[i];
    if (f->submsg_index != kUpb_NoSub && (size_t)f->submsg_index + 1 > n_subs) {
      n_subs = (size_t)f->submsg_index + 1;
    }
  }
  if (n_subs != 0) {
    subs = malloc(n_subs * sizeof *subs);
    if (subs == NULL) return NULL;
    memcpy(subs, t->subs, n_subs * sizeof *subs);
    copy->subs = subs;
    for (i = 0; i < t->field_count; i++) {
      const upb_MiniTable_Field *f = &t->fields[i];
      if (f->submsg_index != kUpb_NoSub &&
          (f->descriptortype == kUpb_FieldType_Message ||
           f->descriptortype == kUpb_FieldType_Group)) {
        subs[f->submsg_index].submsg =
            plain_table(t->subs[f->submsg_index].submsg);
        if (subs[f->submsg_index].submsg == NULL) return NULL;
      }
    }
  }
  return copy;
}

const void *pbci_upb_plain_table(const void *table) {
  return plain_table((const upb_MiniTable *)table);
}

unsigned pbci_upb_table_mask(const void *table) {
  return ((const upb_MiniTable *)table)->table_mask;
}

void *pbci_upb_decode(const void *table, const uint8_t *data, size_t len,
                      int alias, void *block, size_t block_size) {
  const upb_MiniTable *t = (const upb_MiniTable *)table;
  upb_Arena *arena;
  upb_Message *msg;
  if (t == NULL) return NULL; /* no table (pbci_upb_plain_table out of memory) */
  arena = upb_Arena_Init(block, block_size, NULL);
  if (arena == NULL) return NULL;
  msg = _upb_Message_New(t, arena);
  if (msg == NULL || upb_Decode((const char *)data, len, msg, t, NULL,
                                alias ? kUpb_DecodeOption_AliasString : 0,
                                arena) != kUpb_DecodeStatus_Ok) {
    return NULL;
  }
  return msg;
}

char *pbci_upb_encode(const void *table, const void *msg, size_t *len) {
  upb_Arena *arena = upb_Arena_New();
  char *wire = NULL, *copy = NULL;
  if (arena == NULL) return NULL;
  if (upb_Encode(msg, (const upb_MiniTable *)table, 0, arena, &wire, len) ==
          kUpb_EncodeStatus_Ok &&
      (copy = malloc(*len != 0 ? *len : 1)) != NULL && *len != 0) {
    memcpy(copy, wire, *len);
  }
  upb_Arena_Free(arena);
  return copy;
}
