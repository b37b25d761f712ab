/*
 * Quick start: decode a telemetry reading into a stack buffer and print it.
 *
 *   quickstart             encode a sample reading with protobuf-c, decode it
 *   quickstart FILE        decode the telemetry.Reading in FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "telemetry.pb-iter.h"

/* A sample reading, packed by protobuf-c as a sender would. */
static size_t pack_sample(uint8_t *out, size_t cap) {
  Telemetry__Reading reading = TELEMETRY__READING__INIT;
  Telemetry__Location location = TELEMETRY__LOCATION__INIT;
  Telemetry__Reading__LabelsEntry room = TELEMETRY__READING__LABELS_ENTRY__INIT;
  Telemetry__Reading__LabelsEntry *labels[1] = {&room};
  int32_t samples[] = {212, 215, -3, 220};

  location.lat = 52.52;
  location.lon = 13.405;
  room.key = "room";
  room.value = "lab-2";
  reading.sensor_id = "th-0042";
  reading.timestamp_ms = UINT64_C(1764500000000);
  reading.temperature_c = 21.75;
  reading.humidity = 0.43f;
  reading.n_samples = sizeof samples / sizeof samples[0];
  reading.samples = samples;
  reading.location = &location;
  reading.n_labels = 1;
  reading.labels = labels;
  if (telemetry__reading__get_packed_size(&reading) > cap) return 0;
  return telemetry__reading__pack(&reading, out);
}

static size_t read_file(const char *path, uint8_t *out, size_t cap) {
  FILE *f = fopen(path, "rb");
  size_t n;
  if (f == NULL) {
    perror(path);
    exit(1);
  }
  n = fread(out, 1, cap, f);
  fclose(f);
  return n;
}

int main(int argc, char **argv) {
  uint8_t wire[4096];
  size_t len = argc > 1 ? read_file(argv[1], wire, sizeof wire)
                        : pack_sample(wire, sizeof wire);
  /* All of the decoded reading lives in this stack buffer: no malloc. */
  PROTOBUF_C_ITER_BUFFER(buf, 2048);
  ptrdiff_t used =
      telemetry__reading__iter_unpack(wire, len, buf.bytes, sizeof buf.bytes);
  const Telemetry__Reading *r = (const Telemetry__Reading *)buf.bytes;
  size_t i;

  if (used < 0) {
    fprintf(stderr, "decode failed: %s (%d)\n", protobuf_c_iter_strerror(used),
            (int)used);
    return 1;
  }
  printf("decoded %zu wire bytes into %td bytes of a stack buffer\n", len,
         used);
  printf("sensor_id:     %s\n", r->sensor_id);
  printf("timestamp_ms:  %" PRIu64 "\n", r->timestamp_ms);
  printf("temperature_c: %.2f\n", r->temperature_c);
  printf("humidity:      %.2f\n", r->humidity);
  printf("samples:      ");
  for (i = 0; i < r->n_samples; i++) printf(" %" PRId32, r->samples[i]);
  printf("\n");
  if (r->location != NULL) {
    printf("location:      %.4f, %.4f\n", r->location->lat, r->location->lon);
  }
  for (i = 0; i < r->n_labels; i++) {
    printf("label:         %s = %s\n", r->labels[i]->key, r->labels[i]->value);
  }
  return 0;
}
