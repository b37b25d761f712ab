#include <stdio.h>

#include "y.pb-iter.h"

int main(void) {
  Shared__X x = SHARED__X__INIT;
  App__Y y = APP__Y__INIT;
  uint8_t wire[64];
  size_t len;
  PROTOBUF_C_ITER_BUFFER(buf, 256);
  x.n = 41;
  y.x = &x;
  y.note = "ok";
  len = app__y__pack(&y, wire);
  if (app__y__iter_unpack(wire, len, buf.bytes, sizeof buf.bytes) < 0) return 1;
  printf("n=%d note=%s\n", ((App__Y *)buf.bytes)->x->n + 1, ((App__Y *)buf.bytes)->note);
  return 0;
}
