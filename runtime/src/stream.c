/* The length-delimited stream reader (stream.h). Memory streams are decoded
 * in place; FILE * and file descriptor streams are read into a buffer that
 * grows to the largest message seen, and decoded from there. */
#include "protobuf-c-iter/stream.h"
#include "protobuf-c-iter/internal/decode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { KIND_MEMORY, KIND_FILE, KIND_FD };

/* The first read of a FILE / fd stream asks for this much (fd) and the
 * input buffer starts at this size (or at the limit below, if smaller). */
#define PBCI_READ_CHUNK (64u << 10)

/* The longest length prefix reader_next reads. */
#define PBCI_MAX_PREFIX 10u

static size_t add_sat(size_t a, size_t b) {
  return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static void reader_init(ProtobufCIterReader *r, int kind,
                        ProtobufCAllocator *allocator) {
  memset(r, 0, sizeof *r);
  r->max_message_size = PROTOBUF_C_ITER_READER_DEFAULT_MAX;
  r->max_buffer_size = PROTOBUF_C_ITER_READER_DEFAULT_MAX_BUFFER;
  r->kind = kind;
  r->fd = -1;
  r->allocator = allocator;
}

void protobuf_c_iter_reader_init_memory(ProtobufCIterReader *r,
                                        const void *data, size_t len,
                                        ProtobufCAllocator *allocator) {
  reader_init(r, KIND_MEMORY, allocator);
  r->mem = (const uint8_t *)data;
  r->mem_len = len; /* NULL with a length: INVALID_ARGUMENT at reader_next */
}

void protobuf_c_iter_reader_init_file(ProtobufCIterReader *r, FILE *file,
                                      ProtobufCAllocator *allocator) {
  reader_init(r, KIND_FILE, allocator);
  r->file = file;
}

void protobuf_c_iter_reader_init_fd(ProtobufCIterReader *r, int fd,
                                    ProtobufCAllocator *allocator) {
  reader_init(r, KIND_FD, allocator);
  r->fd = fd;
}

static void *reader_alloc(ProtobufCIterReader *r, size_t n) {
  if (r->allocator == NULL) return malloc(n);
  return r->allocator->alloc(r->allocator->allocator_data, n);
}

static void reader_free(ProtobufCIterReader *r, void *p) {
  if (p == NULL) return;
  if (r->allocator == NULL) {
    free(p);
  } else {
    r->allocator->free(r->allocator->allocator_data, p);
  }
}

void protobuf_c_iter_reader_destroy(ProtobufCIterReader *r) {
  reader_free(r, r->in);
  reader_free(r, r->buf_block);
  r->in = NULL;
  r->buf = r->buf_block = NULL;
  r->in_cap = r->buf_cap = 0;
}

/* Makes the input buffer hold at least n unread bytes from in_pos, keeping
 * the unread ones. Returns 0 or PROTOBUF_C_ITER_ERR_NO_MEMORY. The buffer
 * doubles, but never past the largest n reader_next asks for (a message of
 * max_message_size and its prefix), the bound stream.h documents. */
static int make_room(ProtobufCIterReader *r, size_t n) {
  size_t have = r->in_len - r->in_pos;
  if (r->in_cap - r->in_pos >= n) return 0;
  if (r->in_cap < n) {
    size_t limit = add_sat(r->max_message_size, PBCI_MAX_PREFIX);
    size_t cap = r->in_cap < PBCI_READ_CHUNK ? PBCI_READ_CHUNK : r->in_cap;
    uint8_t *in;
    if (cap < n) cap = pbci_next_capacity(cap, n);
    if (cap > limit && limit >= n) cap = limit;
    in = (uint8_t *)reader_alloc(r, cap);
    if (in == NULL) return PROTOBUF_C_ITER_ERR_NO_MEMORY;
    if (have != 0) memcpy(in, r->in + r->in_pos, have);
    reader_free(r, r->in);
    r->in = in;
    r->in_cap = cap;
  } else if (have != 0) {
    memmove(r->in, r->in + r->in_pos, have);
  }
  r->in_pos = 0;
  r->in_len = have;
  return 0;
}

/* Whether n bytes are available at the reading position: 1 yes, 0 the
 * stream ends first, or a negative error. Memory streams always answer
 * directly; the others read what is missing. An end is not remembered: the
 * next call reads again, so a stream that grew meanwhile goes on (and the
 * bytes read before the end are kept). */
static int available(ProtobufCIterReader *r, size_t n) {
  int rc;
  if (r->kind == KIND_MEMORY) return r->mem_len - r->in_pos >= n;
  if (r->in_len - r->in_pos >= n) return 1;
  rc = make_room(r, n);
  if (rc < 0) return rc;
  while (r->in_len - r->in_pos < n) {
    size_t missing = n - (r->in_len - r->in_pos);
    if (r->kind == KIND_FILE) {
      /* Exactly what is missing: fread blocks until it has all it asked
       * for, and a live stream may not have more yet. clearerr: an earlier
       * failure must not mask this read's end, and an earlier end (sticky
       * in glibc) must not stop this read. */
      size_t got;
      clearerr(r->file);
      got = fread(r->in + r->in_len, 1, missing, r->file);
      r->in_len += got;
      if (got < missing) return ferror(r->file) ? PROTOBUF_C_ITER_ERR_IO : 0;
    } else {
      /* read() returns what has arrived: ask for all the room there is. */
      size_t want = r->in_cap - r->in_len;
      ssize_t got = read(r->fd, r->in + r->in_len, want);
      if (got < 0) {
        if (errno == EINTR) continue;
        return PROTOBUF_C_ITER_ERR_IO;
      }
      if (got == 0) return 0;
      r->in_len += (size_t)got;
    }
  }
  return 1;
}

/* The unread bytes: where the next message starts. */
static const uint8_t *cursor(const ProtobufCIterReader *r) {
  return r->kind == KIND_MEMORY ? r->mem + r->in_pos : r->in + r->in_pos;
}

/* A stream offset as a status offset: saturated where size_t is narrower. */
static size_t status_offset(uint64_t offset) {
  return offset > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)offset;
}

static int stream_error(ProtobufCIterStatus *status, int code, uint64_t offset,
                        const char *message) {
  if (status != NULL) {
    status->code = code;
    status->offset = status_offset(offset);
    status->field_number = 0;
    status->message = message;
  }
  return code;
}

/* Replaces the decode buffer by one of `cap` bytes, aligned for unpack
 * within a block of up to PROTOBUF_C_ITER_BUF_ALIGN - 1 bytes more: a
 * custom allocator need not align as malloc does (an arena's 8 bytes, where
 * unpack asks 16), and a misaligned buffer would fail every call. */
static int grow_buffer(ProtobufCIterReader *r, size_t cap) {
  const size_t slack = PROTOBUF_C_ITER_BUF_ALIGN - 1;
  void *block;
  uintptr_t at;
  if (cap > SIZE_MAX - slack) return PROTOBUF_C_ITER_ERR_NO_MEMORY;
  block = reader_alloc(r, cap + slack);
  if (block == NULL) return PROTOBUF_C_ITER_ERR_NO_MEMORY;
  reader_free(r, r->buf_block);
  at = ((uintptr_t)block + slack) & ~(uintptr_t)slack;
  r->buf_block = block;
  r->buf = (uint8_t *)block + (at - (uintptr_t)block);
  r->buf_cap = cap;
  return 0;
}

/* Decodes [data, data + len) into the reader's buffer, at least doubling
 * it (within max_buffer_size) each time unpack runs out of room, starting
 * from twice the wire size plus 4 KiB. It never asks unpacked_size: unpack
 * is linear in len on every input, while sizing some merged inputs costs
 * more (docs/SECURITY.md, Time). A try that runs out of room stops there, so
 * a message costs at most one decode per doubling, and the buffer ends under
 * twice what the message needs (or the first try's size). The status of a
 * message that does not decode is unpack's: its first fault in input order,
 * or TOO_LARGE when the buffer reached its limit before the fault. */
static ptrdiff_t decode(ProtobufCIterReader *r, const ProtobufCIterType *type,
                        size_t prefix, size_t len,
                        const ProtobufCIterOptions *opts,
                        ProtobufCIterStatus *status) {
  const uint8_t *data = cursor(r) + prefix;
  const size_t first = add_sat(add_sat(len, len), 4096);
  for (;;) {
    ptrdiff_t n = protobuf_c_iter_unpack(type, data, len, r->buf, r->buf_cap,
                                         opts, status);
    size_t cap;
    int rc;
    if (n != PROTOBUF_C_ITER_ERR_NO_MEMORY) {
      /* unpack's fault, at its offset in the message. */
      if (n < 0 && status != NULL && status->code == (int)n) {
        status->offset = status_offset(r->offset + prefix + status->offset);
      }
      return n;
    }
    /* The reader's own errors, about the message as a whole, are at its
     * length prefix as those found before decoding. */
    cap = add_sat(r->buf_cap, r->buf_cap);
    if (cap < first) cap = first;
    if (cap > r->max_buffer_size) cap = r->max_buffer_size;
    if (cap <= r->buf_cap) {
      return stream_error(status, PROTOBUF_C_ITER_ERR_TOO_LARGE, r->offset,
                          "decoding needs more than max_buffer_size");
    }
    rc = grow_buffer(r, cap);
    if (rc < 0) {
      return stream_error(status, rc, r->offset, "the allocator failed");
    }
  }
}

/* Whether an error from decoding a message is about the message itself, so
 * that the reader moves past it. */
static int about_message(ptrdiff_t code) {
  switch (code) {
    case PROTOBUF_C_ITER_ERR_MALFORMED:
    case PROTOBUF_C_ITER_ERR_MISSING_REQUIRED:
    case PROTOBUF_C_ITER_ERR_DEPTH:
    case PROTOBUF_C_ITER_ERR_BAD_UTF8:
    case PROTOBUF_C_ITER_ERR_TOO_LARGE:
      return 1;
    default:
      return 0;
  }
}

int protobuf_c_iter_reader_next(ProtobufCIterReader *r,
                                const ProtobufCIterType *type,
                                const ProtobufCIterOptions *opts, void **msg,
                                ProtobufCIterStatus *status) {
  uint64_t len = 0;
  size_t prefix = 0;
  ptrdiff_t n;
  int rc;
  if (r == NULL || type == NULL || msg == NULL ||
      (r->kind == KIND_MEMORY && r->mem == NULL && r->mem_len != 0)) {
    return stream_error(status, PROTOBUF_C_ITER_ERR_INVALID_ARGUMENT, 0,
                        "invalid argument");
  }
  *msg = NULL;
  /* The length prefix, a byte at a time: the stream may end after any. */
  for (;;) {
    uint8_t b;
    rc = available(r, prefix + 1);
    if (rc < 0)
      return stream_error(status, rc, r->offset, protobuf_c_iter_strerror(rc));
    if (rc == 0) {
      if (prefix == 0) return stream_error(status, 0, r->offset, "ok");
      return stream_error(status, PROTOBUF_C_ITER_ERR_MALFORMED, r->offset,
                          "stream ends inside a length prefix");
    }
    b = cursor(r)[prefix];
    /* The tenth byte holds bit 63 only: more would wrap the length. */
    if (prefix == PBCI_MAX_PREFIX - 1 && (b & 0x7f) > 1) {
      return stream_error(status, PROTOBUF_C_ITER_ERR_MALFORMED, r->offset,
                          "length prefix over 64 bits");
    }
    len |= (uint64_t)(b & 0x7f) << (7 * prefix);
    prefix++;
    if (b < 0x80) break;
    if (prefix == PBCI_MAX_PREFIX) {
      return stream_error(status, PROTOBUF_C_ITER_ERR_MALFORMED, r->offset,
                          "length prefix longer than 10 bytes");
    }
  }
  /* The second test keeps prefix + len from wrapping whatever the limit. */
  if (len > r->max_message_size || len > SIZE_MAX - prefix) {
    return stream_error(status, PROTOBUF_C_ITER_ERR_TOO_LARGE, r->offset,
                        "message longer than max_message_size");
  }
  rc = available(r, prefix + (size_t)len);
  if (rc < 0)
    return stream_error(status, rc, r->offset, protobuf_c_iter_strerror(rc));
  if (rc == 0) {
    return stream_error(status, PROTOBUF_C_ITER_ERR_MALFORMED, r->offset,
                        "stream ends inside a message");
  }
  n = decode(r, type, prefix, (size_t)len, opts, status);
  if (n < 0) {
    if (about_message(n)) {
      r->in_pos += prefix + (size_t)len;
      r->offset += prefix + len;
    }
    return (int)n;
  }
  r->in_pos += prefix + (size_t)len;
  r->offset += prefix + len;
  if (status != NULL) status->offset = status_offset(r->offset);
  *msg = r->buf;
  return 1;
}
