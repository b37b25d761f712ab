/*
 * pbci_count: decodes a FileDescriptorSet (descriptor.proto's, made at build
 * time) a fixed number of times in count_loop(), for callgrind to count the
 * instructions per decoded byte (perf.callgrind_descriptor_set). Built
 * without sanitizers and at -O2 in every build type, so its count depends
 * only on the decoder and the compiler.
 *
 *   pbci_count FILE N
 */
#include <stdio.h>
#include <stdlib.h>

#include "google/protobuf/descriptor.pb-iter.h"

static PROTOBUF_C_ITER_BUFFER(buffer, 1 << 20);

/* What callgrind counts (--toggle-collect=count_loop): n decodes. */
__attribute__((noinline)) static ptrdiff_t count_loop(const uint8_t *data, size_t len, int n) {
  ptrdiff_t used = 0;
  int i;
  for (i = 0; i < n; i++) {
    used = google__protobuf__file_descriptor_set__iter_unpack(data, len, buffer.bytes,
                                                              sizeof buffer.bytes);
    if (used < 0) break;
  }
  return used;
}

int main(int argc, char **argv) {
  static uint8_t data[1 << 20];
  FILE *f;
  size_t len;
  int n;
  ptrdiff_t used;
  if (argc != 3) {
    fprintf(stderr, "usage: pbci_count FILE N\n");
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (f == NULL) {
    perror(argv[1]);
    return 1;
  }
  len = fread(data, 1, sizeof data, f);
  fclose(f);
  n = atoi(argv[2]);
  /* Once outside the count: first-touch page faults are not the decoder's. */
  used = google__protobuf__file_descriptor_set__iter_unpack(data, len, buffer.bytes,
                                                            sizeof buffer.bytes);
  if (used >= 0) used = count_loop(data, len, n);
  if (used < 0) {
    fprintf(stderr, "decode failed: %s\n", protobuf_c_iter_strerror(used));
    return 1;
  }
  printf("bytes %zu decodes %d used %td\n", len, n, used);
  return 0;
}
