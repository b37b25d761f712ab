/*
 * Streams: a gateway's log of sensor readings, each a length-delimited
 * telemetry.Reading (varint length, then the message, as libprotobuf's
 * writeDelimitedTo writes them), decoded one after the other into one
 * reused buffer that grows only when a reading needs more room.
 *
 *   stream                 write 1,000,000 readings to a temporary file,
 *                          then decode them and print the throughput
 *   stream -n COUNT        the same with COUNT readings
 *   stream FILE            decode the readings in FILE
 */
#include <inttypes.h>
#include <protobuf-c-iter/stream.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "telemetry.pb-iter.h"

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Writes `count` readings of a few sensors, as protobuf-c on a sensor
 * would pack them, each preceded by its length. */
static int write_readings(FILE *out, long count) {
  static const char *const sensors[] = {"th-0042", "th-0043", "co2-7", "door-12"};
  uint8_t wire[1024];
  long i;
  for (i = 0; i < count; i++) {
    Telemetry__Reading reading = TELEMETRY__READING__INIT;
    Telemetry__Location location = TELEMETRY__LOCATION__INIT;
    Telemetry__Reading__LabelsEntry room = TELEMETRY__READING__LABELS_ENTRY__INIT;
    Telemetry__Reading__LabelsEntry *labels[1] = {&room};
    int32_t samples[8];
    size_t n, k, len, rest;
    uint8_t prefix[10];
    for (k = 0; k < 8; k++) samples[k] = (int32_t)((i * 7 + (long)k * 13) % 400) - 200;
    location.lat = 52.52 + (double)(i % 100) / 1000.0;
    location.lon = 13.405;
    room.key = "room";
    room.value = i % 3 == 0 ? "lab-2" : "hall";
    reading.sensor_id = (char *)sensors[i % 4];
    reading.timestamp_ms = UINT64_C(1764500000000) + (uint64_t)i * 250u;
    reading.temperature_c = 18.0 + (double)(i % 80) / 10.0;
    reading.humidity = 0.3f + (float)(i % 50) / 100.0f;
    reading.n_samples = (size_t)(1 + i % 8);
    reading.samples = samples;
    reading.location = &location;
    reading.n_labels = 1;
    reading.labels = labels;
    len = telemetry__reading__pack(&reading, wire);
    n = 0;
    rest = len;
    do {
      prefix[n++] = (uint8_t)((rest & 0x7f) | (rest > 0x7f ? 0x80 : 0));
      rest >>= 7;
    } while (rest != 0);
    if (fwrite(prefix, 1, n, out) != n || fwrite(wire, 1, len, out) != len) return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  long count = 1000000;
  FILE *in;
  ProtobufCIterReader reader;
  ProtobufCIterOptions opts = {PROTOBUF_C_ITER_VALIDATE_UTF8, 0};
  ProtobufCIterStatus status;
  void *msg;
  int rc;
  long decoded = 0;
  double sum_temperature = 0, start, seconds;
  long bytes;

  if (argc == 3 && strcmp(argv[1], "-n") == 0) {
    count = strtol(argv[2], NULL, 10);
    argc = 1;
  }
  if (argc > 1) {
    in = fopen(argv[1], "rb");
    if (in == NULL) {
      perror(argv[1]);
      return 1;
    }
  } else {
    in = tmpfile();
    if (in == NULL || write_readings(in, count) != 0) {
      perror("writing the readings");
      return 1;
    }
    rewind(in);
  }

  start = now_seconds();
  protobuf_c_iter_reader_init_file(&reader, in, NULL);
  while ((rc = protobuf_c_iter_reader_next(&reader, &telemetry__reading__iter_type, &opts,
                                           &msg, &status)) == 1) {
    const Telemetry__Reading *r = msg;
    sum_temperature += r->temperature_c;
    decoded++;
  }
  seconds = now_seconds() - start;
  bytes = (long)ftell(in);
  printf("decode buffer: %zu bytes, reused for every reading\n", reader.buf_cap);
  protobuf_c_iter_reader_destroy(&reader);
  fclose(in);
  if (rc < 0) {
    fprintf(stderr, "reading %ld: %s at byte %zu (field %" PRIu32 ")\n", decoded,
            status.message, status.offset, status.field_number);
    return 1;
  }
  printf("decoded %ld readings (%ld bytes) in %.3f s: %.2f million readings/s, %.0f MB/s\n",
         decoded, bytes, seconds, (double)decoded / seconds / 1e6,
         (double)bytes / seconds / 1e6);
  printf("mean temperature %.3f C\n", decoded ? sum_temperature / (double)decoded : 0.0);
  return 0;
}
