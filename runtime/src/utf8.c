/* UTF-8 validation for PROTOBUF_C_ITER_VALIDATE_UTF8 (RFC 3629, Unicode
 * Table 3-7): eight ASCII bytes at a time, multi-byte sequences one by one. */
#include "protobuf-c-iter/internal/decode.h"

/* Length of a sequence starting with lead byte `c`, and the range its
 * second byte must fall in (the other continuation bytes: 0x80..0xBF).
 * The narrowed second-byte ranges exclude overlong forms (E0, F0),
 * surrogates (ED) and code points above U+10FFFF (F4). */
static int utf8_sequence(unsigned c, unsigned *lo, unsigned *hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) return 2;
  if (c >= 0xE0 && c <= 0xEF) {
    if (c == 0xE0) *lo = 0xA0;
    if (c == 0xED) *hi = 0x9F;
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (c == 0xF0) *lo = 0x90;
    if (c == 0xF4) *hi = 0x8F;
    return 4;
  }
  return 0; /* 80..C1 (continuation, overlong 2-byte) and F5..FF */
}

int pbci_utf8_valid(const uint8_t *p, size_t n) {
  const uint8_t *end = p + n;
  while (p < end) {
    unsigned lo, hi;
    int len, i;
    /* ASCII fast path: no byte of the word has its top bit set. */
    while ((size_t)(end - p) >= 8) {
      uint64_t w;
      memcpy(&w, p, sizeof w);
      if (w & 0x8080808080808080u) break;
      p += 8;
    }
    if (p == end) break;
    if (*p < 0x80) {
      p++;
      continue;
    }
    len = utf8_sequence(*p, &lo, &hi);
    if (len == 0 || (size_t)(end - p) < (size_t)len) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (i = 2; i < len; i++) {
      if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    }
    p += len;
  }
  return 1;
}
