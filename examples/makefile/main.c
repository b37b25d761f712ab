/* protobuf-c-iter from a plain Makefile, found with pkg-config. */
#include <stdio.h>

#include "hello.pb-iter.h"

int main(void) {
  Hello__Greeting g = HELLO__GREETING__INIT;
  int32_t lucky[] = {7, 13};
  uint8_t wire[64];
  size_t len;
  ptrdiff_t used;
  const Hello__Greeting *out;
  PROTOBUF_C_ITER_BUFFER(buf, 256);

  g.text = "hello, world";
  g.n_lucky = 2;
  g.lucky = lucky;
  len = hello__greeting__pack(&g, wire);
  used = hello__greeting__iter_unpack(wire, len, buf.bytes, sizeof buf.bytes);
  if (used < 0) return 1;
  out = (const Hello__Greeting *)buf.bytes;
  printf("%s (lucky %d, %d)\n", out->text, out->lucky[0], out->lucky[1]);
  return 0;
}
