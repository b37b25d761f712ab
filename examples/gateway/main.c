/*
 * The telemetry case: a gateway receives a stream of length-prefixed sensor
 * readings and decodes each one into the same reused buffer. No allocation
 * happens per message; the buffer is sized once for the largest reading.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "acme/sensors/v1/reading.pb-iter.h"

#define N_READINGS 1000

/* Appends a varint-length-prefixed reading to `out`; returns the bytes. */
static size_t append_reading(uint8_t *out, unsigned i) {
  Acme__Sensors__V1__Reading r = ACME__SENSORS__V1__READING__INIT;
  Acme__Common__V1__GeoPoint where = ACME__COMMON__V1__GEO_POINT__INIT;
  uint32_t samples[3] = {i, i * 2, i * 3};
  char id[16];
  size_t len, n = 0;
  snprintf(id, sizeof id, "th-%04u", i % 16);
  where.lat = 52.5 + i * 1e-4;
  where.lon = 13.4;
  r.sensor_id = id;
  r.timestamp_ms = UINT64_C(1764500000000) + i;
  r.temperature_centi_c = 2000 + (int32_t)(i % 300) - 150;
  r.n_samples = 3;
  r.samples = samples;
  r.where = &where;
  len = acme__sensors__v1__reading__get_packed_size(&r);
  do {
    out[n++] = (uint8_t)((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
    len >>= 7;
  } while (len != 0);
  return n + acme__sensors__v1__reading__pack(&r, out + n);
}

int main(void) {
  static uint8_t stream[N_READINGS * 64];
  size_t stream_len = 0, pos = 0;
  unsigned i, decoded = 0;
  int64_t sum_centi = 0;
  PROTOBUF_C_ITER_BUFFER(buf, 512); /* reused for every reading */

  for (i = 0; i < N_READINGS; i++) stream_len += append_reading(stream + stream_len, i);

  while (pos < stream_len) {
    size_t len = 0;
    unsigned shift = 0;
    ptrdiff_t used;
    const Acme__Sensors__V1__Reading *r;
    while (pos < stream_len && shift < 35) {
      uint8_t b = stream[pos++];
      len |= (size_t)(b & 0x7f) << shift;
      shift += 7;
      if (b < 0x80) break;
    }
    if (len > stream_len - pos) {
      fprintf(stderr, "truncated stream\n");
      return 1;
    }
    used = acme__sensors__v1__reading__iter_unpack(stream + pos, len, buf.bytes,
                                                   sizeof buf.bytes);
    if (used < 0) {
      fprintf(stderr, "reading %u: %s\n", decoded, protobuf_c_iter_strerror(used));
      return 1;
    }
    r = (const Acme__Sensors__V1__Reading *)buf.bytes;
    sum_centi += r->temperature_centi_c;
    if (decoded == N_READINGS - 1) {
      printf("last: %s at %" PRIu64 " ms, %.2f C, %zu samples, at %.4f,%.4f (%td bytes)\n",
             r->sensor_id, r->timestamp_ms, r->temperature_centi_c / 100.0,
             r->n_samples, r->where->lat, r->where->lon, used);
    }
    decoded++;
    pos += len;
  }
  printf("decoded %u readings into one %zu-byte buffer, mean %.2f C\n", decoded,
         sizeof buf.bytes, (double)sum_centi / decoded / 100.0);
  return decoded == N_READINGS ? 0 : 1;
}
